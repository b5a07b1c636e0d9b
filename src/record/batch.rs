//! Record batch v2 and its records, encoded and decoded byte for byte as Kafka
//! does.
//!
//! ```text
//! offset size field                 offset size field
//!      0    8 baseOffset                27    8 baseTimestamp
//!      8    4 batchLength               35    8 maxTimestamp
//!     12    4 partitionLeaderEpoch      43    8 producerId
//!     16    1 magic (2)                 51    2 producerEpoch
//!     17    4 crc                       53    4 baseSequence
//!     21    2 attributes                57    4 recordsCount
//!     23    4 lastOffsetDelta           61      records...
//! ```
//!
//! batchLength counts the bytes after itself; the CRC32C covers attributes to
//! the end, so baseOffset and partitionLeaderEpoch can be rewritten in place by
//! the leader without recomputing it.

use serde::{Deserialize, Serialize};

use super::control::{ControlRecordType, EndTransactionMarker};
use super::crc32c::crc32c;
use super::error::RecordError;
use super::varint::{
    decode_varint, decode_varlong, encode_varint, encode_varlong, size_of_varint, size_of_varlong,
};
use super::{
    COMPRESSION_CODEC_MASK, CONTROL_FLAG_MASK, DELETE_HORIZON_FLAG_MASK, LOG_OVERHEAD, MAGIC_V2,
    NO_PRODUCER_ID, NO_SEQUENCE, RECORD_BATCH_OVERHEAD, TIMESTAMP_TYPE_MASK,
    TRANSACTIONAL_FLAG_MASK,
};

/// Byte offsets of the header fields (Kafka's `DefaultRecordBatch.*_OFFSET`).
pub const BASE_OFFSET_OFFSET: usize = 0;
pub const BATCH_LENGTH_OFFSET: usize = 8;
pub const PARTITION_LEADER_EPOCH_OFFSET: usize = 12;
pub const MAGIC_OFFSET: usize = 16;
pub const CRC_OFFSET: usize = 17;
pub const ATTRIBUTES_OFFSET: usize = 21;
pub const LAST_OFFSET_DELTA_OFFSET: usize = 23;
pub const BASE_TIMESTAMP_OFFSET: usize = 27;
pub const MAX_TIMESTAMP_OFFSET: usize = 35;
pub const PRODUCER_ID_OFFSET: usize = 43;
pub const PRODUCER_EPOCH_OFFSET: usize = 51;
pub const BASE_SEQUENCE_OFFSET: usize = 53;
pub const RECORDS_COUNT_OFFSET: usize = 57;
pub const RECORDS_OFFSET: usize = 61;

/// The smallest possible encoded record: a 1-byte length plus attributes,
/// timestampDelta, offsetDelta, keyLength, valueLength and headersCount of one
/// byte each. Used to refuse record counts the bytes cannot hold before
/// allocating for them.
const MIN_RECORD_SIZE: usize = 7;
/// The smallest possible encoded header: keyLength and valueLength.
const MIN_HEADER_SIZE: usize = 2;

/// A record header. Mirrors Kafka's `RecordHeader`; the key is UTF-8 and never
/// null (Kafka rejects null header keys too).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Header {
    pub key: String,
    pub value: Option<Vec<u8>>,
}

/// One record inside a batch. Mirrors Kafka's `DefaultRecord`, but keeps the
/// deltas as stored instead of resolving them to an absolute offset and
/// timestamp (see [`RecordBatch::record_offset`] and
/// [`RecordBatch::record_timestamp`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Record {
    /// Unused by v2; Kafka writes 0.
    pub attributes: i8,
    pub timestamp_delta: i64,
    pub offset_delta: i32,
    pub key: Option<Vec<u8>>,
    pub value: Option<Vec<u8>>,
    pub headers: Vec<Header>,
}

/// Bit 3 of the batch attributes. Mirrors Kafka's `TimestampType` (without
/// NO_TIMESTAMP_TYPE, which only pre-v2 formats have).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimestampType {
    CreateTime,
    LogAppendTime,
}

/// A decoded record batch, magic v2. Mirrors Kafka's `DefaultRecordBatch`
/// (plus `MemoryRecordsBuilder` for building one). Simplified: compression is
/// not supported (decode refuses it), records are held decoded in memory, and
/// recordsCount/batchLength/crc are not stored but derived when encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecordBatch {
    pub base_offset: i64,
    pub partition_leader_epoch: i32,
    pub attributes: i16,
    pub last_offset_delta: i32,
    pub base_timestamp: i64,
    pub max_timestamp: i64,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub records: Vec<Record>,
}

/// A record's key and value as given to [`RecordBatch::new_data`]; None is null.
pub type KeyValue = (Option<Vec<u8>>, Option<Vec<u8>>);

/// Lengths are i32 on the wire. A Vec longer than i32::MAX cannot be encoded
/// faithfully (Kafka could not hold it either); it is written as i32::MAX
/// rather than panicking.
fn wire_len(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

fn size_of_bytes(b: &Option<Vec<u8>>) -> usize {
    match b {
        None => size_of_varint(-1),
        Some(v) => size_of_varint(wire_len(v.len())).saturating_add(v.len()),
    }
}

fn encode_bytes(b: &Option<Vec<u8>>, out: &mut Vec<u8>) {
    match b {
        None => encode_varint(-1, out),
        Some(v) => {
            encode_varint(wire_len(v.len()), out);
            out.extend_from_slice(v);
        }
    }
}

/// Kafka's `DefaultRecordBatch.incrementSequence`: sequences wrap from
/// i32::MAX to 0 (a producer that has sent 2^31 records starts over).
pub fn increment_sequence(sequence: i32, increment: i32) -> i32 {
    let sum = i64::from(sequence) + i64::from(increment);
    let wrapped = if sum > i64::from(i32::MAX) {
        sum - i64::from(i32::MAX) - 1
    } else {
        sum
    };
    i32::try_from(wrapped).unwrap_or(i32::MAX)
}

impl Record {
    /// Bytes after the length varint.
    fn body_size(&self) -> usize {
        let headers = self.headers.iter().fold(0usize, |acc, h| {
            acc.saturating_add(size_of_varint(wire_len(h.key.len())))
                .saturating_add(h.key.len())
                .saturating_add(size_of_bytes(&h.value))
        });
        1usize
            .saturating_add(size_of_varlong(self.timestamp_delta))
            .saturating_add(size_of_varint(self.offset_delta))
            .saturating_add(size_of_bytes(&self.key))
            .saturating_add(size_of_bytes(&self.value))
            .saturating_add(size_of_varint(wire_len(self.headers.len())))
            .saturating_add(headers)
    }

    /// Encoded size including the leading length varint (Kafka's
    /// `DefaultRecord.sizeInBytes`).
    pub fn size_in_bytes(&self) -> usize {
        let body = self.body_size();
        size_of_varint(wire_len(body)).saturating_add(body)
    }

    /// Appends the encoded record (Kafka's `DefaultRecord.writeTo`).
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        encode_varint(wire_len(self.body_size()), out);
        out.push(self.attributes as u8);
        encode_varlong(self.timestamp_delta, out);
        encode_varint(self.offset_delta, out);
        encode_bytes(&self.key, out);
        encode_bytes(&self.value, out);
        encode_varint(wire_len(self.headers.len()), out);
        for h in &self.headers {
            encode_varint(wire_len(h.key.len()), out);
            out.extend_from_slice(h.key.as_bytes());
            encode_bytes(&h.value, out);
        }
    }
}

/// A cursor over a record's bytes. Every shortfall is an InvalidRecord: by the
/// time records are read, the batch is complete and its CRC matched, so a
/// short record means the batch lies about its content.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], RecordError> {
        let end = self.pos.checked_add(n);
        match end.and_then(|end| self.buf.get(self.pos..end)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(RecordError::InvalidRecord(format!(
                "{what} needs {n} bytes but only {} remain",
                self.remaining()
            ))),
        }
    }

    fn rest(&self) -> &'a [u8] {
        self.buf.get(self.pos..).unwrap_or(&[])
    }

    fn varint(&mut self, what: &str) -> Result<i32, RecordError> {
        let (v, n) = decode_varint(self.rest()).map_err(|e| invalid_varint(what, e))?;
        self.pos += n;
        Ok(v)
    }

    fn varlong(&mut self, what: &str) -> Result<i64, RecordError> {
        let (v, n) = decode_varlong(self.rest()).map_err(|e| invalid_varint(what, e))?;
        self.pos += n;
        Ok(v)
    }

    /// A length-prefixed byte string; -1 is null.
    fn bytes(&mut self, what: &str) -> Result<Option<Vec<u8>>, RecordError> {
        let len = self.varint(what)?;
        if len == -1 {
            return Ok(None);
        }
        let n = usize::try_from(len)
            .map_err(|_| RecordError::InvalidRecord(format!("invalid {what} length {len}")))?;
        Ok(Some(self.take(n, what)?.to_vec()))
    }
}

fn invalid_varint(what: &str, e: RecordError) -> RecordError {
    match e {
        RecordError::Truncated { .. } => {
            RecordError::InvalidRecord(format!("{what}: varint runs past the record"))
        }
        RecordError::InvalidRecord(why) => RecordError::InvalidRecord(format!("{what}: {why}")),
        other => other,
    }
}

/// Parses one record's body (everything after its length varint).
fn decode_record_body(body: &[u8]) -> Result<Record, RecordError> {
    let mut r = Reader::new(body);
    let attributes = r.take(1, "attributes")?.first().copied().unwrap_or(0) as i8;
    let timestamp_delta = r.varlong("timestampDelta")?;
    let offset_delta = r.varint("offsetDelta")?;
    let key = r.bytes("key")?;
    let value = r.bytes("value")?;
    let count = r.varint("headersCount")?;
    let count = usize::try_from(count)
        .map_err(|_| RecordError::InvalidRecord(format!("invalid headers count {count}")))?;
    if count > r.remaining() / MIN_HEADER_SIZE {
        return Err(RecordError::InvalidRecord(format!(
            "{count} headers cannot fit in {} bytes",
            r.remaining()
        )));
    }
    let mut headers = Vec::with_capacity(count);
    for _ in 0..count {
        let key_len = r.varint("header key")?;
        let key_len = usize::try_from(key_len).map_err(|_| {
            RecordError::InvalidRecord(format!("invalid header key length {key_len}"))
        })?;
        let key = std::str::from_utf8(r.take(key_len, "header key")?)
            .map_err(|_| RecordError::InvalidRecord("header key is not UTF-8".to_string()))?
            .to_string();
        let value = r.bytes("header value")?;
        headers.push(Header { key, value });
    }
    if r.remaining() != 0 {
        return Err(RecordError::InvalidRecord(format!(
            "record declares {} bytes but its fields use {}",
            body.len(),
            r.pos
        )));
    }
    Ok(Record {
        attributes,
        timestamp_delta,
        offset_delta,
        key,
        value,
        headers,
    })
}

fn get_array<const N: usize>(buf: &[u8], at: usize) -> Option<[u8; N]> {
    buf.get(at..at.checked_add(N)?)?.try_into().ok()
}

fn get_i16(buf: &[u8], at: usize) -> Option<i16> {
    get_array(buf, at).map(i16::from_be_bytes)
}

fn get_i32(buf: &[u8], at: usize) -> Option<i32> {
    get_array(buf, at).map(i32::from_be_bytes)
}

fn get_u32(buf: &[u8], at: usize) -> Option<u32> {
    get_array(buf, at).map(u32::from_be_bytes)
}

fn get_i64(buf: &[u8], at: usize) -> Option<i64> {
    get_array(buf, at).map(i64::from_be_bytes)
}

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) -> Result<(), RecordError> {
    let available = buf.len();
    let needed = at.saturating_add(bytes.len());
    match buf.get_mut(at..needed) {
        Some(dst) => {
            dst.copy_from_slice(bytes);
            Ok(())
        }
        None => Err(RecordError::Truncated { needed, available }),
    }
}

/// What a header read can fail with once the length checks have passed.
fn header_short(needed: usize, available: usize) -> RecordError {
    RecordError::Truncated { needed, available }
}

impl RecordBatch {
    /// A data batch (no compression, CreateTime): record i gets offset_delta i and timestamp_delta 0; max_timestamp = base_timestamp = timestamp; partition_leader_epoch 0.
    ///
    /// Like Kafka's `MemoryRecordsBuilder` on the producer side. An empty
    /// `kvs` gives a batch with last_offset_delta -1 (so next_offset() ==
    /// base_offset), which decodes but [`RecordBatch::validate_for_append`] refuses.
    pub fn new_data(
        base_offset: i64,
        producer_id: i64,
        producer_epoch: i16,
        base_sequence: i32,
        is_transactional: bool,
        timestamp: i64,
        kvs: Vec<KeyValue>,
    ) -> RecordBatch {
        let records: Vec<Record> = kvs
            .into_iter()
            .enumerate()
            .map(|(i, (key, value))| Record {
                attributes: 0,
                timestamp_delta: 0,
                offset_delta: wire_len(i),
                key,
                value,
                headers: Vec::new(),
            })
            .collect();
        let mut batch = RecordBatch {
            base_offset,
            partition_leader_epoch: 0,
            attributes: 0,
            last_offset_delta: wire_len(records.len()).saturating_sub(1),
            base_timestamp: timestamp,
            max_timestamp: timestamp,
            producer_id,
            producer_epoch,
            base_sequence,
            records,
        };
        batch.set_transactional(is_transactional);
        batch
    }

    /// A control batch holding one control record (what WriteTxnMarkers writes): transactional + control bits set, base_sequence NO_SEQUENCE, key = ControlRecordType key bytes (4), value = EndTransactionMarker bytes (6).
    ///
    /// Like Kafka's `MemoryRecords.withEndTransactionMarker`.
    pub fn new_control(
        base_offset: i64,
        producer_id: i64,
        producer_epoch: i16,
        timestamp: i64,
        kind: ControlRecordType,
        coordinator_epoch: i32,
    ) -> RecordBatch {
        RecordBatch {
            base_offset,
            partition_leader_epoch: 0,
            attributes: TRANSACTIONAL_FLAG_MASK | CONTROL_FLAG_MASK,
            last_offset_delta: 0,
            base_timestamp: timestamp,
            max_timestamp: timestamp,
            producer_id,
            producer_epoch,
            base_sequence: NO_SEQUENCE,
            records: vec![Record {
                attributes: 0,
                timestamp_delta: 0,
                offset_delta: 0,
                key: Some(kind.encode_key()),
                value: Some(EndTransactionMarker::new(coordinator_epoch).encode()),
                headers: Vec::new(),
            }],
        }
    }

    /// base_offset + last_offset_delta (saturating).
    pub fn last_offset(&self) -> i64 {
        self.base_offset
            .saturating_add(i64::from(self.last_offset_delta))
    }

    /// The offset after this batch: where the next batch starts.
    pub fn next_offset(&self) -> i64 {
        self.last_offset().saturating_add(1)
    }

    /// The recordsCount field that encode() writes.
    pub fn record_count(&self) -> i32 {
        wire_len(self.records.len())
    }

    /// NO_SEQUENCE if base_sequence is NO_SEQUENCE; else base_sequence + last_offset_delta wrapping past i32::MAX to 0 (Kafka's DefaultRecordBatch.incrementSequence)
    pub fn last_sequence(&self) -> i32 {
        if self.base_sequence == NO_SEQUENCE {
            NO_SEQUENCE
        } else {
            increment_sequence(self.base_sequence, self.last_offset_delta)
        }
    }

    pub fn is_transactional(&self) -> bool {
        self.attributes & TRANSACTIONAL_FLAG_MASK != 0
    }

    pub fn is_control(&self) -> bool {
        self.attributes & CONTROL_FLAG_MASK != 0
    }

    /// Whether bit 6 is set: the batch carries a delete horizon in
    /// base_timestamp (written by the log cleaner, never by us).
    pub fn has_delete_horizon_ms(&self) -> bool {
        self.attributes & DELETE_HORIZON_FLAG_MASK != 0
    }

    /// True for idempotent and transactional producers (producer_id >= 0).
    pub fn has_producer_id(&self) -> bool {
        self.producer_id > NO_PRODUCER_ID
    }

    pub fn set_transactional(&mut self, on: bool) {
        self.set_flag(TRANSACTIONAL_FLAG_MASK, on);
    }

    pub fn set_control(&mut self, on: bool) {
        self.set_flag(CONTROL_FLAG_MASK, on);
    }

    fn set_flag(&mut self, mask: i16, on: bool) {
        if on {
            self.attributes |= mask;
        } else {
            self.attributes &= !mask;
        }
    }

    /// Bits 0-2 of the attributes: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd.
    pub fn compression_code(&self) -> u8 {
        (self.attributes & COMPRESSION_CODEC_MASK) as u8
    }

    pub fn timestamp_type(&self) -> TimestampType {
        if self.attributes & TIMESTAMP_TYPE_MASK != 0 {
            TimestampType::LogAppendTime
        } else {
            TimestampType::CreateTime
        }
    }

    /// Sets bit 3 (a broker with `message.timestamp.type=LogAppendTime` does
    /// this and overwrites max_timestamp).
    pub fn set_timestamp_type(&mut self, t: TimestampType) {
        self.set_flag(TIMESTAMP_TYPE_MASK, t == TimestampType::LogAppendTime);
    }

    /// The absolute offset of one of this batch's records.
    pub fn record_offset(&self, record: &Record) -> i64 {
        self.base_offset
            .saturating_add(i64::from(record.offset_delta))
    }

    /// The record's timestamp as Kafka resolves it: max_timestamp under
    /// LogAppendTime, else base_timestamp + timestamp_delta.
    pub fn record_timestamp(&self, record: &Record) -> i64 {
        match self.timestamp_type() {
            TimestampType::LogAppendTime => self.max_timestamp,
            TimestampType::CreateTime => self.base_timestamp.saturating_add(record.timestamp_delta),
        }
    }

    /// == encode().len(), computed without allocating.
    pub fn size_in_bytes(&self) -> usize {
        self.records.iter().fold(RECORD_BATCH_OVERHEAD, |acc, r| {
            acc.saturating_add(r.size_in_bytes())
        })
    }

    /// The encoded batch, with correct batchLength and CRC.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.size_in_bytes());
        self.encode_into(&mut out);
        out
    }

    /// Appends the encoded batch to `out` (e.g. straight onto a segment buffer).
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&self.base_offset.to_be_bytes());
        out.extend_from_slice(&0i32.to_be_bytes()); // batchLength, patched below
        out.extend_from_slice(&self.partition_leader_epoch.to_be_bytes());
        out.push(MAGIC_V2 as u8);
        out.extend_from_slice(&0u32.to_be_bytes()); // crc, patched below
        out.extend_from_slice(&self.attributes.to_be_bytes());
        out.extend_from_slice(&self.last_offset_delta.to_be_bytes());
        out.extend_from_slice(&self.base_timestamp.to_be_bytes());
        out.extend_from_slice(&self.max_timestamp.to_be_bytes());
        out.extend_from_slice(&self.producer_id.to_be_bytes());
        out.extend_from_slice(&self.producer_epoch.to_be_bytes());
        out.extend_from_slice(&self.base_sequence.to_be_bytes());
        out.extend_from_slice(&self.record_count().to_be_bytes());
        for r in &self.records {
            r.encode_into(out);
        }
        if let Some(batch) = out.get_mut(start..) {
            let batch_length = wire_len(batch.len().saturating_sub(LOG_OVERHEAD));
            let crc = crc32c(batch.get(ATTRIBUTES_OFFSET..).unwrap_or(&[]));
            // Both writes are inside the header just written, so they cannot fail.
            let _ = put(batch, BATCH_LENGTH_OFFSET, &batch_length.to_be_bytes());
            let _ = put(batch, CRC_OFFSET, &crc.to_be_bytes());
        }
    }

    /// The CRC encode() would write.
    pub fn crc(&self) -> u32 {
        get_u32(&self.encode(), CRC_OFFSET).unwrap_or(0)
    }

    /// Decodes one batch from the start of buf; returns it and the bytes consumed. Checks: enough bytes for header and batchLength, magic == 2, CRC, compression none (else UnsupportedCompression), recordsCount matches the records, each record's length matches, lastOffsetDelta consistent. Never panics, never allocates more than buf.len() worth (guard counts against remaining bytes).
    ///
    /// Like Kafka's `ByteBufferLogInputStream.nextBatch` + `DefaultRecordBatch`
    /// iteration. "lastOffsetDelta consistent" means: offset deltas strictly
    /// increase from >= 0 and none exceeds lastOffsetDelta (so an empty batch
    /// needs lastOffsetDelta >= -1). Gaps are allowed, as in batches the log
    /// cleaner has compacted; [`RecordBatch::validate_for_append`] is the
    /// stricter check for new writes. Errors, in the order checked:
    /// Truncated (fewer than 12 bytes, batchLength < 49, or fewer bytes than
    /// batchLength says), InvalidMagic, CorruptMessage, UnsupportedCompression,
    /// InvalidRecord.
    pub fn decode(buf: &[u8]) -> Result<(RecordBatch, usize), RecordError> {
        let available = buf.len();
        let batch_length = get_i32(buf, BATCH_LENGTH_OFFSET).ok_or(RecordError::Truncated {
            needed: LOG_OVERHEAD,
            available,
        })?;
        let min_length = RECORD_BATCH_OVERHEAD - LOG_OVERHEAD;
        let total = match usize::try_from(batch_length) {
            Ok(len) if len >= min_length => len.checked_add(LOG_OVERHEAD),
            _ => None,
        };
        let Some(total) = total else {
            // The batch's own length cannot even hold a header.
            return Err(RecordError::Truncated {
                needed: RECORD_BATCH_OVERHEAD,
                available: usize::try_from(batch_length)
                    .map_or(LOG_OVERHEAD, |l| l.saturating_add(LOG_OVERHEAD)),
            });
        };
        if let Some(&magic) = buf.get(MAGIC_OFFSET) {
            if magic as i8 != MAGIC_V2 {
                return Err(RecordError::InvalidMagic(magic as i8));
            }
        }
        let Some(batch) = buf.get(..total) else {
            return Err(RecordError::Truncated {
                needed: total,
                available,
            });
        };
        let short = || header_short(RECORD_BATCH_OVERHEAD, batch.len());

        let stored_crc = get_u32(batch, CRC_OFFSET).ok_or_else(short)?;
        let computed_crc = crc32c(batch.get(ATTRIBUTES_OFFSET..).unwrap_or(&[]));
        if stored_crc != computed_crc {
            return Err(RecordError::CorruptMessage {
                stored_crc,
                computed_crc,
            });
        }

        let attributes = get_i16(batch, ATTRIBUTES_OFFSET).ok_or_else(short)?;
        let compression = (attributes & COMPRESSION_CODEC_MASK) as u8;
        if compression != 0 {
            return Err(RecordError::UnsupportedCompression(compression));
        }
        let base_offset = get_i64(batch, BASE_OFFSET_OFFSET).ok_or_else(short)?;
        let partition_leader_epoch =
            get_i32(batch, PARTITION_LEADER_EPOCH_OFFSET).ok_or_else(short)?;
        let last_offset_delta = get_i32(batch, LAST_OFFSET_DELTA_OFFSET).ok_or_else(short)?;
        let base_timestamp = get_i64(batch, BASE_TIMESTAMP_OFFSET).ok_or_else(short)?;
        let max_timestamp = get_i64(batch, MAX_TIMESTAMP_OFFSET).ok_or_else(short)?;
        let producer_id = get_i64(batch, PRODUCER_ID_OFFSET).ok_or_else(short)?;
        let producer_epoch = get_i16(batch, PRODUCER_EPOCH_OFFSET).ok_or_else(short)?;
        let base_sequence = get_i32(batch, BASE_SEQUENCE_OFFSET).ok_or_else(short)?;
        let records_count = get_i32(batch, RECORDS_COUNT_OFFSET).ok_or_else(short)?;

        let region = batch.get(RECORDS_OFFSET..).unwrap_or(&[]);
        let count = usize::try_from(records_count).map_err(|_| {
            RecordError::InvalidRecord(format!("invalid record count {records_count}"))
        })?;
        if count > region.len() / MIN_RECORD_SIZE {
            return Err(RecordError::InvalidRecord(format!(
                "recordsCount {count} cannot fit in {} bytes of records",
                region.len()
            )));
        }
        let mut reader = Reader::new(region);
        let mut records = Vec::with_capacity(count);
        for i in 0..count {
            let record = (|| {
                let len = reader.varint("record length")?;
                let len = usize::try_from(len).map_err(|_| {
                    RecordError::InvalidRecord(format!("invalid record length {len}"))
                })?;
                decode_record_body(reader.take(len, "record")?)
            })()
            .map_err(|e| match e {
                RecordError::InvalidRecord(why) => {
                    RecordError::InvalidRecord(format!("record {i}: {why}"))
                }
                other => other,
            })?;
            records.push(record);
        }
        if reader.remaining() != 0 {
            return Err(RecordError::InvalidRecord(format!(
                "{} bytes left after the {count} records recordsCount declares",
                reader.remaining()
            )));
        }

        let mut previous: Option<i32> = None;
        for (i, r) in records.iter().enumerate() {
            let ok = r.offset_delta >= 0
                && previous.is_none_or(|p| r.offset_delta > p)
                && r.offset_delta <= last_offset_delta;
            if !ok {
                return Err(RecordError::InvalidRecord(format!(
                    "record {i} has offsetDelta {} (previous {:?}, lastOffsetDelta {last_offset_delta})",
                    r.offset_delta, previous
                )));
            }
            previous = Some(r.offset_delta);
        }
        if records.is_empty() && last_offset_delta < -1 {
            return Err(RecordError::InvalidRecord(format!(
                "invalid lastOffsetDelta {last_offset_delta}"
            )));
        }

        Ok((
            RecordBatch {
                base_offset,
                partition_leader_epoch,
                attributes,
                last_offset_delta,
                base_timestamp,
                max_timestamp,
                producer_id,
                producer_epoch,
                base_sequence,
                records,
            },
            total,
        ))
    }

    /// The stricter checks a leader applies to a batch it is about to append,
    /// after the v2 part of Kafka's `LogValidator.validateBatch`: at least one
    /// record, lastOffsetDelta + 1 == recordsCount, and (our simplification,
    /// stricter than Kafka for uncompressed batches) offset deltas exactly
    /// 0..n; a non-control batch with a producer id needs a base sequence >= 0;
    /// a control batch holds exactly one valid control record. Errors are
    /// InvalidRecord.
    pub fn validate_for_append(&self) -> Result<(), RecordError> {
        let invalid = |why: String| Err(RecordError::InvalidRecord(why));
        if self.records.is_empty() {
            return invalid("invalid reported count for record batch: 0".to_string());
        }
        if i64::from(self.last_offset_delta) + 1 != self.records.len() as i64 {
            return invalid(format!(
                "inconsistent batch offset range (lastOffsetDelta {}) and record count {}",
                self.last_offset_delta,
                self.records.len()
            ));
        }
        for (i, r) in self.records.iter().enumerate() {
            if i64::from(r.offset_delta) != i as i64 {
                return invalid(format!("record {i} has offsetDelta {}", r.offset_delta));
            }
        }
        if self.is_control() {
            if self.records.len() != 1 || self.control_record().is_none() {
                return invalid("control batch must hold one COMMIT/ABORT record".to_string());
            }
        } else if self.has_producer_id() && self.base_sequence < 0 {
            return Err(RecordError::InvalidSequence {
                base_sequence: self.base_sequence,
                producer_id: self.producer_id,
            });
        }
        Ok(())
    }

    /// The control record's type and marker when this is a control batch.
    pub fn control_record(&self) -> Option<(ControlRecordType, EndTransactionMarker)> {
        if !self.is_control() {
            return None;
        }
        let record = self.records.first()?;
        let kind = ControlRecordType::decode_key(record.key.as_deref()?).ok()?;
        let marker = EndTransactionMarker::decode(record.value.as_deref()?).ok()?;
        Some((kind, marker))
    }
}

/// Decodes consecutive batches (a whole .log segment); returns each batch with its byte position. Stops with an error at the first bad batch.
///
/// Like Kafka's `FileRecords.batches()`; a torn write at the end shows up as
/// Truncated, which log recovery handles by truncating the segment there.
pub fn decode_all(buf: &[u8]) -> Result<Vec<(u64, RecordBatch)>, RecordError> {
    let mut out = Vec::new();
    let mut pos = 0usize;
    while let Some(rest) = buf.get(pos..).filter(|r| !r.is_empty()) {
        let (batch, used) = RecordBatch::decode(rest)?;
        out.push((pos as u64, batch));
        // `used` is at least 61, so the loop always advances.
        pos = pos.saturating_add(used.max(1));
    }
    Ok(out)
}

/// Rewrites the base offset of an encoded batch in place (it is outside the CRC, as in Kafka's offset assignment). Error if buf shorter than 8.
pub fn set_base_offset(buf: &mut [u8], base_offset: i64) -> Result<(), RecordError> {
    put(buf, BASE_OFFSET_OFFSET, &base_offset.to_be_bytes())
}

/// Rewrites partitionLeaderEpoch of an encoded batch in place (also outside
/// the CRC; Kafka's `DefaultRecordBatch.setPartitionLeaderEpoch`). Error if buf
/// is shorter than 16.
pub fn set_partition_leader_epoch(buf: &mut [u8], epoch: i32) -> Result<(), RecordError> {
    put(buf, PARTITION_LEADER_EPOCH_OFFSET, &epoch.to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recomputes the CRC of an encoded batch after a test edited it.
    fn recrc(buf: &mut [u8]) {
        let crc = crc32c(&buf[ATTRIBUTES_OFFSET..]);
        buf[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
    }

    fn known_batch() -> RecordBatch {
        let mut b = RecordBatch::new_data(
            5,
            1000,
            3,
            7,
            true,
            1_700_000_000_000,
            vec![
                (Some(b"k".to_vec()), Some(b"v1".to_vec())),
                (None, Some(b"v2".to_vec())),
            ],
        );
        b.records[0].headers.push(Header {
            key: "h".to_string(),
            value: Some(b"x".to_vec()),
        });
        b
    }

    /// The bytes of known_batch(), laid out by hand; the CRC was computed with
    /// an independent bit-by-bit CRC32C.
    const KNOWN_BYTES: [u8; 84] = [
        0, 0, 0, 0, 0, 0, 0, 5, // baseOffset 5
        0, 0, 0, 72, // batchLength
        0, 0, 0, 0, // partitionLeaderEpoch
        2, // magic
        0x8d, 0x90, 0x60, 0x3a, // crc
        0x00, 0x10, // attributes: transactional
        0, 0, 0, 1, // lastOffsetDelta
        0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // baseTimestamp
        0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // maxTimestamp
        0, 0, 0, 0, 0, 0, 0x03, 0xe8, // producerId 1000
        0, 3, // producerEpoch
        0, 0, 0, 7, // baseSequence
        0, 0, 0, 2, // recordsCount
        // record 0: length 13, attrs, tsDelta 0, offsetDelta 0, key "k", value "v1", 1 header h=x
        0x1a, 0x00, 0x00, 0x00, 0x02, b'k', 0x04, b'v', b'1', 0x02, 0x02, b'h', 0x02, b'x',
        // record 1: length 8, attrs, tsDelta 0, offsetDelta 1, null key, value "v2", no headers
        0x10, 0x00, 0x00, 0x02, 0x01, 0x04, b'v', b'2', 0x00,
    ];

    #[test]
    fn known_batch_encodes_to_exact_bytes() {
        let b = known_batch();
        let bytes = b.encode();
        assert_eq!(bytes, KNOWN_BYTES);
        assert_eq!(b.size_in_bytes(), bytes.len());
        assert_eq!(b.crc(), 0x8d90_603a);
        assert_eq!(RecordBatch::decode(&bytes), Ok((b, bytes.len())));
    }

    #[test]
    fn header_field_offsets() {
        let mut b = known_batch();
        b.partition_leader_epoch = 0x0A0B_0C0D;
        b.producer_id = 0x1122_3344_5566_7788;
        b.producer_epoch = 0x099A;
        b.base_sequence = 0x0102_0304;
        let bytes = b.encode();
        assert_eq!(RECORD_BATCH_OVERHEAD, 61);
        assert_eq!(&bytes[0..8], &5i64.to_be_bytes());
        assert_eq!(&bytes[8..12], &((bytes.len() - 12) as i32).to_be_bytes());
        assert_eq!(&bytes[12..16], &[0x0A, 0x0B, 0x0C, 0x0D]);
        assert_eq!(bytes[16], 2);
        assert_eq!(&bytes[17..21], &crc32c(&bytes[21..]).to_be_bytes());
        assert_eq!(&bytes[21..23], &[0x00, 0x10]);
        assert_eq!(&bytes[23..27], &1i32.to_be_bytes());
        assert_eq!(&bytes[27..35], &1_700_000_000_000i64.to_be_bytes());
        assert_eq!(&bytes[35..43], &1_700_000_000_000i64.to_be_bytes());
        assert_eq!(
            &bytes[43..51],
            &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
        );
        assert_eq!(&bytes[51..53], &[0x09, 0x9A]);
        assert_eq!(&bytes[53..57], &[1, 2, 3, 4]);
        assert_eq!(&bytes[57..61], &2i32.to_be_bytes());
        // The first record starts right after the header.
        assert_eq!(bytes[61], 0x1a);
    }

    #[test]
    fn control_batch_wire_format() {
        let b = RecordBatch::new_control(42, 7, 2, 1000, ControlRecordType::Commit, 0x0506_0708);
        assert!(b.is_control() && b.is_transactional());
        assert_eq!(b.base_sequence, NO_SEQUENCE);
        assert_eq!(b.last_sequence(), NO_SEQUENCE);
        assert_eq!(b.records.len(), 1);
        let r = &b.records[0];
        assert_eq!(r.key.as_ref().map(Vec::len), Some(4));
        assert_eq!(r.value.as_ref().map(Vec::len), Some(6));
        let bytes = b.encode();
        assert_eq!(&bytes[21..23], &[0x00, 0x30]);
        assert_eq!(
            &bytes[61..],
            &[
                0x20, // record length 16
                0x00, 0x00, 0x00, // attributes, timestampDelta, offsetDelta
                0x08, 0x00, 0x00, 0x00, 0x01, // key: version 0, COMMIT
                0x0c, 0x00, 0x00, 0x05, 0x06, 0x07, 0x08, // value: version 0, epoch
                0x00, // no headers
            ]
        );
        let (decoded, _) = RecordBatch::decode(&bytes).unwrap();
        assert_eq!(
            decoded.control_record(),
            Some((
                ControlRecordType::Commit,
                EndTransactionMarker::new(0x0506_0708)
            ))
        );
        assert_eq!(decoded.validate_for_append(), Ok(()));
        let abort = RecordBatch::new_control(0, 7, 2, 0, ControlRecordType::Abort, 1);
        assert_eq!(&abort.encode()[68..70], &[0x00, 0x00]);
        assert_eq!(
            abort.control_record().map(|c| c.0),
            Some(ControlRecordType::Abort)
        );
        assert_eq!(known_batch().control_record(), None);
    }

    #[test]
    fn round_trips() {
        let mut many = RecordBatch::new_data(
            i64::MAX - 10,
            NO_PRODUCER_ID,
            -1,
            NO_SEQUENCE,
            false,
            -5,
            (0..200)
                .map(|i| {
                    (
                        Some(vec![i as u8; i]),
                        if i % 3 == 0 { None } else { Some(vec![7; 300]) },
                    )
                })
                .collect(),
        );
        many.records[10].timestamp_delta = i64::MIN;
        many.records[11].headers = vec![
            Header {
                key: String::new(),
                value: None,
            },
            Header {
                key: "ünïcode".into(),
                value: Some(vec![]),
            },
        ];
        many.set_timestamp_type(TimestampType::LogAppendTime);
        for b in [
            known_batch(),
            many,
            RecordBatch::new_data(0, 1, 0, 0, false, 0, vec![]),
            RecordBatch::new_control(9, 1, 1, 1, ControlRecordType::Abort, -1),
        ] {
            let bytes = b.encode();
            assert_eq!(bytes.len(), b.size_in_bytes());
            assert_eq!(RecordBatch::decode(&bytes), Ok((b.clone(), bytes.len())));
            // Trailing bytes belong to the next batch.
            let mut longer = bytes.clone();
            longer.extend_from_slice(&[1, 2, 3]);
            assert_eq!(RecordBatch::decode(&longer), Ok((b, bytes.len())));
        }
    }

    #[test]
    fn every_flipped_byte_is_caught_or_harmless() {
        let bytes = known_batch().encode();
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x01;
            let result = RecordBatch::decode(&bad);
            match i {
                // baseOffset and partitionLeaderEpoch are outside the CRC.
                0..=7 | 12..=15 => assert!(result.is_ok(), "byte {i}"),
                8..=11 => assert!(result.is_err(), "byte {i}"),
                16 => assert_eq!(result, Err(RecordError::InvalidMagic(3))),
                _ => assert!(
                    matches!(result, Err(RecordError::CorruptMessage { .. })),
                    "byte {i}: {result:?}"
                ),
            }
        }
    }

    #[test]
    fn crc_mismatch_reports_both_values() {
        let mut bytes = known_batch().encode();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xFF;
        match RecordBatch::decode(&bytes) {
            Err(RecordError::CorruptMessage {
                stored_crc,
                computed_crc,
            }) => {
                assert_eq!(stored_crc, 0x8d90_603a);
                assert_eq!(computed_crc, crc32c(&bytes[21..]));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn truncation() {
        let bytes = known_batch().encode();
        assert_eq!(
            RecordBatch::decode(&bytes[..5]),
            Err(RecordError::Truncated {
                needed: 12,
                available: 5
            })
        );
        assert_eq!(
            RecordBatch::decode(&bytes[..70]),
            Err(RecordError::Truncated {
                needed: 84,
                available: 70
            })
        );
        let mut tiny = bytes.clone();
        tiny[8..12].copy_from_slice(&10i32.to_be_bytes());
        assert_eq!(
            RecordBatch::decode(&tiny),
            Err(RecordError::Truncated {
                needed: 61,
                available: 22
            })
        );
        tiny[8..12].copy_from_slice(&(-1i32).to_be_bytes());
        assert!(matches!(
            RecordBatch::decode(&tiny),
            Err(RecordError::Truncated { needed: 61, .. })
        ));
    }

    #[test]
    fn compression_is_refused() {
        let mut b = known_batch();
        b.attributes |= 4;
        assert_eq!(
            RecordBatch::decode(&b.encode()),
            Err(RecordError::UnsupportedCompression(4))
        );
        assert_eq!(b.compression_code(), 4);
    }

    #[test]
    fn lying_counts_and_lengths_are_invalid() {
        let bytes = known_batch().encode();
        for count in [-1i32, 0, 1, 3, i32::MAX] {
            let mut bad = bytes.clone();
            bad[57..61].copy_from_slice(&count.to_be_bytes());
            recrc(&mut bad);
            assert!(
                matches!(
                    RecordBatch::decode(&bad),
                    Err(RecordError::InvalidRecord(_))
                ),
                "count {count}"
            );
        }
        // First record claims one byte more: it swallows the second record's length.
        let mut bad = bytes.clone();
        bad[61] = 0x1c;
        recrc(&mut bad);
        assert!(matches!(
            RecordBatch::decode(&bad),
            Err(RecordError::InvalidRecord(_))
        ));
        // lastOffsetDelta smaller than the last record's offsetDelta.
        let mut bad = bytes.clone();
        bad[23..27].copy_from_slice(&0i32.to_be_bytes());
        recrc(&mut bad);
        assert!(matches!(
            RecordBatch::decode(&bad),
            Err(RecordError::InvalidRecord(_))
        ));
        // Non-UTF-8 header key.
        let mut bad = bytes.clone();
        bad[72] = 0xFF;
        recrc(&mut bad);
        assert!(matches!(
            RecordBatch::decode(&bad),
            Err(RecordError::InvalidRecord(_))
        ));
    }

    #[test]
    fn gaps_decode_but_are_not_appendable() {
        let mut b = known_batch();
        b.records[1].offset_delta = 4;
        b.last_offset_delta = 6;
        let (decoded, _) = RecordBatch::decode(&b.encode()).unwrap();
        assert_eq!(decoded, b);
        assert_eq!(decoded.next_offset(), 12);
        assert!(decoded.validate_for_append().is_err());
        assert_eq!(known_batch().validate_for_append(), Ok(()));
        let mut no_seq = known_batch();
        no_seq.base_sequence = NO_SEQUENCE;
        assert!(no_seq.validate_for_append().is_err());
        assert!(RecordBatch::new_data(0, -1, -1, -1, false, 0, vec![])
            .validate_for_append()
            .is_err());
    }

    #[test]
    fn last_sequence_wraps_at_i32_max() {
        let kv = |n: usize| vec![(None, Some(vec![1u8])); n];
        let b = RecordBatch::new_data(0, 1, 0, i32::MAX - 1, false, 0, kv(3));
        assert_eq!(b.last_sequence(), 0);
        let b = RecordBatch::new_data(0, 1, 0, i32::MAX, false, 0, kv(1));
        assert_eq!(b.last_sequence(), i32::MAX);
        let b = RecordBatch::new_data(0, 1, 0, i32::MAX, false, 0, kv(2));
        assert_eq!(b.last_sequence(), 0);
        let b = RecordBatch::new_data(0, 1, 0, 10, false, 0, kv(5));
        assert_eq!(b.last_sequence(), 14);
        let b = RecordBatch::new_data(0, 1, 0, NO_SEQUENCE, false, 0, kv(5));
        assert_eq!(b.last_sequence(), NO_SEQUENCE);
        assert_eq!(increment_sequence(i32::MAX, 1), 0);
        assert_eq!(increment_sequence(5, 1), 6);
    }

    #[test]
    fn accessors() {
        let mut b = known_batch();
        assert_eq!(b.last_offset(), 6);
        assert_eq!(b.next_offset(), 7);
        assert_eq!(b.record_count(), 2);
        assert!(b.is_transactional() && !b.is_control() && b.has_producer_id());
        assert!(!b.has_delete_horizon_ms());
        assert_eq!(b.timestamp_type(), TimestampType::CreateTime);
        assert_eq!(b.record_offset(&b.records[1]), 6);
        b.records[1].timestamp_delta = 5;
        assert_eq!(b.record_timestamp(&b.records[1]), 1_700_000_000_005);
        b.max_timestamp = 9;
        b.set_timestamp_type(TimestampType::LogAppendTime);
        assert_eq!(b.record_timestamp(&b.records[1]), 9);
        b.set_transactional(false);
        b.set_control(true);
        assert_eq!(b.attributes, 0x28);
        b.set_control(false);
        b.set_timestamp_type(TimestampType::CreateTime);
        assert_eq!(b.attributes, 0);
        let plain = RecordBatch::new_data(0, NO_PRODUCER_ID, -1, -1, false, 0, vec![]);
        assert!(!plain.has_producer_id());
        assert_eq!(plain.next_offset(), 0);
        let far = RecordBatch::new_data(i64::MAX, 1, 0, 0, false, 0, vec![(None, None); 2]);
        assert_eq!(far.next_offset(), i64::MAX);
    }

    #[test]
    fn in_place_rewrites_keep_the_crc() {
        let mut bytes = known_batch().encode();
        set_base_offset(&mut bytes, 1234).unwrap();
        set_partition_leader_epoch(&mut bytes, 9).unwrap();
        let (b, _) = RecordBatch::decode(&bytes).unwrap();
        assert_eq!((b.base_offset, b.partition_leader_epoch), (1234, 9));
        assert_eq!(
            set_base_offset(&mut [0u8; 7], 1),
            Err(RecordError::Truncated {
                needed: 8,
                available: 7
            })
        );
        assert!(set_partition_leader_epoch(&mut [0u8; 15], 1).is_err());
    }

    #[test]
    fn decode_all_reports_positions() {
        let a = known_batch();
        let c = RecordBatch::new_control(7, 1000, 3, 5, ControlRecordType::Commit, 0);
        let mut log = a.encode();
        let second = log.len() as u64;
        c.encode_into(&mut log);
        assert_eq!(decode_all(&log), Ok(vec![(0, a.clone()), (second, c)]));
        assert_eq!(decode_all(&[]), Ok(vec![]));
        // A torn write at the end.
        log.truncate(log.len() - 3);
        assert!(matches!(
            decode_all(&log),
            Err(RecordError::Truncated { .. })
        ));
    }
}
