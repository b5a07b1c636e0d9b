//! Record batch v2 (Kafka's `DefaultRecordBatch`), encoded and decoded byte
//! for byte as Kafka does; its records are in [`super::default_record`].
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

use super::bytes::Bytes;
use super::control::{ControlRecordType, EndTransactionMarker};
use super::crc32c::crc32c;
use super::default_record::{decode_records, wire_len, Record, RecordView};
use super::error::RecordError;
#[cfg(not(target_arch = "wasm32"))]
use super::varint::{VarintWrite, Writer};
use super::{
    COMPRESSION_CODEC_MASK, CONTROL_FLAG_MASK, DELETE_HORIZON_FLAG_MASK, LOG_OVERHEAD, MAGIC_V2,
    NO_PRODUCER_EPOCH, NO_PRODUCER_ID, NO_SEQUENCE, RECORD_BATCH_OVERHEAD, TIMESTAMP_TYPE_MASK,
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
    /// A data batch written without a producer (no id, epoch or sequence, not
    /// transactional), as Kafka's `MemoryRecords.withRecords` builds one: internal
    /// topics' records, a plain client's.
    pub fn new_plain(base_offset: i64, timestamp: i64, kvs: Vec<KeyValue>) -> RecordBatch {
        RecordBatch::new_data(
            base_offset,
            NO_PRODUCER_ID,
            NO_PRODUCER_EPOCH,
            NO_SEQUENCE,
            false,
            timestamp,
            kvs,
        )
    }

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
                key: key.map(Bytes::from),
                value: value.map(Bytes::from),
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
                key: Some(Bytes::from(kind.encode_key())),
                value: Some(Bytes::from(
                    EndTransactionMarker::new(coordinator_epoch).encode(),
                )),
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

    /// The delete horizon the log cleaner stamped (`DefaultRecordBatch.deleteHorizonMs`):
    /// base_timestamp when bit 6 is set.
    pub fn delete_horizon_ms(&self) -> Option<i64> {
        self.has_delete_horizon_ms().then_some(self.base_timestamp)
    }

    /// What `MemoryRecords.filterTo` does the first time a batch holding a tombstone
    /// or the marker of an emptied transaction is retained (KIP-534): base_timestamp
    /// becomes the horizon and each record's delta is rewritten against it, so record
    /// timestamps stay what they were.
    pub fn set_delete_horizon_ms(&mut self, horizon_ms: i64) {
        for r in &mut self.records {
            let ts = self.base_timestamp.saturating_add(r.timestamp_delta);
            r.timestamp_delta = ts.saturating_sub(horizon_ms);
        }
        self.base_timestamp = horizon_ms;
        self.set_flag(DELETE_HORIZON_FLAG_MASK, true);
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
        let mut out = Vec::new();
        self.encode_into(&mut out);
        out
    }

    /// Appends the encoded batch to `out` (e.g. straight onto a segment buffer). Makes
    /// room once from the lengths (an upper bound), writes into it computing each
    /// record's exact size once, then cuts the rest off.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let bound = self.records.iter().fold(RECORD_BATCH_OVERHEAD, |acc, r| {
            acc.saturating_add(r.max_size_in_bytes())
        });
        let start = out.len();
        Writer::append(out, bound, |w| {
            w.bytes(&self.base_offset.to_be_bytes());
            w.bytes(&0i32.to_be_bytes()); // batchLength, patched below
            w.bytes(&self.partition_leader_epoch.to_be_bytes());
            w.byte(MAGIC_V2 as u8);
            w.bytes(&0u32.to_be_bytes()); // crc, patched below
            w.bytes(&self.attributes.to_be_bytes());
            w.bytes(&self.last_offset_delta.to_be_bytes());
            w.bytes(&self.base_timestamp.to_be_bytes());
            w.bytes(&self.max_timestamp.to_be_bytes());
            w.bytes(&self.producer_id.to_be_bytes());
            w.bytes(&self.producer_epoch.to_be_bytes());
            w.bytes(&self.base_sequence.to_be_bytes());
            w.bytes(&self.record_count().to_be_bytes());
            let mut prefix = 0;
            for r in &self.records {
                prefix = r.write_to(w, prefix);
            }
        });
        if let Some(batch) = out.get_mut(start..) {
            let batch_length = wire_len(batch.len().saturating_sub(LOG_OVERHEAD));
            let crc = crc32c(batch.get(ATTRIBUTES_OFFSET..).unwrap_or(&[]));
            // Both writes are inside the header just written, so they cannot fail.
            let _ = put(batch, BATCH_LENGTH_OFFSET, &batch_length.to_be_bytes());
            let _ = put(batch, CRC_OFFSET, &crc.to_be_bytes());
        }
    }

    /// Appends the encoded batch to `out` (e.g. straight onto a segment buffer).
    #[cfg(target_arch = "wasm32")]
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        self.encode_compact(out);
    }

    /// [`RecordBatch::encode_into`] in the wasm, which is built for size (see
    /// [`Record::encode_compact`]): reserves once from the lengths, then pushes.
    #[cfg(any(target_arch = "wasm32", test))]
    pub(super) fn encode_compact(&self, out: &mut Vec<u8>) {
        use super::varint::VarintBlock;
        let bound = self
            .records
            .iter()
            .fold(RECORD_BATCH_OVERHEAD + VarintBlock::CAPACITY, |acc, r| {
                acc.saturating_add(r.max_size_in_bytes())
            });
        out.reserve(bound);
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
            r.encode_compact(out);
        }
        if let Some(batch) = out.get_mut(start..) {
            let batch_length = wire_len(batch.len().saturating_sub(LOG_OVERHEAD));
            let crc = crc32c(batch.get(ATTRIBUTES_OFFSET..).unwrap_or(&[]));
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
        decode_owned(buf)
    }

    /// [`RecordBatch::decode`] without copying the records out: the same checks and
    /// errors, the records borrowing `buf` (no allocation per record).
    pub fn decode_view(buf: &[u8]) -> Result<BatchView<'_>, RecordError> {
        let (header, region, count, size) = decode_header(buf)?;
        let records = decode_records(region, count, |view| view)?;
        check_offset_deltas(
            records.iter().map(|r| r.offset_delta),
            header.last_offset_delta,
        )?;
        Ok(BatchView {
            header,
            records,
            size,
        })
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

    /// Why the first record of this control batch is not a readable transaction
    /// marker, where Kafka 4.0 throws `InvalidRecordException`: its key fails
    /// `ControlRecordType.parseTypeId`, or (for an ABORT or COMMIT key) its value fails
    /// `EndTransactionMarker.deserializeValue`. None for a batch that is not a control
    /// batch, one the cleaner emptied, a readable marker, or a type Kafka parses as
    /// `UNKNOWN`.
    pub fn control_record_error(&self) -> Option<RecordError> {
        if !self.is_control() {
            return None;
        }
        let record = self.records.first()?;
        let code = match ControlRecordType::parse_type_id(record.key.as_deref().unwrap_or_default())
        {
            Ok(code) => code,
            Err(e) => return Some(e),
        };
        ControlRecordType::from_code(code)?;
        EndTransactionMarker::decode(record.value.as_deref().unwrap_or_default()).err()
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

/// A batch decoded in place by [`RecordBatch::decode_view`]: its header fields, and its
/// records borrowing the buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchView<'a> {
    /// The header, as a batch whose `records` is empty.
    header: RecordBatch,
    records: Vec<RecordView<'a>>,
    size: usize,
}

impl<'a> BatchView<'a> {
    /// The header fields (base offset, producer, attributes, ...); its `records` is empty.
    pub fn header(&self) -> &RecordBatch {
        &self.header
    }

    pub fn records(&self) -> &[RecordView<'a>] {
        &self.records
    }

    /// The bytes the batch takes in the buffer.
    pub fn size_in_bytes(&self) -> usize {
        self.size
    }

    /// The owned batch (copies every record).
    pub fn to_batch(&self) -> RecordBatch {
        RecordBatch {
            records: self.records.iter().map(RecordView::to_record).collect(),
            ..self.header.clone()
        }
    }
}

/// The checks and header of [`RecordBatch::decode_view`] up to the records: the header
/// (its `records` empty), the records region, recordsCount and the bytes the batch
/// takes. Not generic, so the owned and the borrowed decode share one copy of it (the
/// wasm carries it once); only [`decode_records`] is built for each.
fn decode_header(buf: &[u8]) -> Result<(RecordBatch, &[u8], usize, usize), RecordError> {
    let available = buf.len();
    let batch_length = read_batch_length(buf).ok_or(RecordError::Truncated {
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
    let partition_leader_epoch = get_i32(batch, PARTITION_LEADER_EPOCH_OFFSET).ok_or_else(short)?;
    let last_offset_delta = get_i32(batch, LAST_OFFSET_DELTA_OFFSET).ok_or_else(short)?;
    let base_timestamp = get_i64(batch, BASE_TIMESTAMP_OFFSET).ok_or_else(short)?;
    let max_timestamp = get_i64(batch, MAX_TIMESTAMP_OFFSET).ok_or_else(short)?;
    let producer_id = get_i64(batch, PRODUCER_ID_OFFSET).ok_or_else(short)?;
    let producer_epoch = get_i16(batch, PRODUCER_EPOCH_OFFSET).ok_or_else(short)?;
    let base_sequence = get_i32(batch, BASE_SEQUENCE_OFFSET).ok_or_else(short)?;
    let records_count = get_i32(batch, RECORDS_COUNT_OFFSET).ok_or_else(short)?;

    let region = batch.get(RECORDS_OFFSET..).unwrap_or(&[]);
    let count = usize::try_from(records_count)
        .map_err(|_| RecordError::InvalidRecord(format!("invalid record count {records_count}")))?;
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
            records: Vec::new(),
        },
        region,
        count,
        total,
    ))
}

/// [`RecordBatch::decode`]: the records region copied once into a buffer that every
/// key and value shares (Kafka's records slice the batch's `ByteBuffer` likewise), the
/// records filled straight from it, one vector.
#[cfg(not(target_arch = "wasm32"))]
fn decode_owned(buf: &[u8]) -> Result<(RecordBatch, usize), RecordError> {
    let (mut batch, region, count, size) = decode_header(buf)?;
    let shared: std::rc::Rc<[u8]> = std::rc::Rc::from(region);
    let records = decode_records(&shared, count, |view| view.to_shared_record(&shared))?;
    check_offset_deltas(
        records.iter().map(|r| r.offset_delta),
        batch.last_offset_delta,
    )?;
    batch.records = records;
    Ok((batch, size))
}

/// [`RecordBatch::decode`] in the wasm, which is built for size: a copy of the view, so
/// the record reader is built once (the native path cost the main page 1.1 KB gzip).
#[cfg(target_arch = "wasm32")]
fn decode_owned(buf: &[u8]) -> Result<(RecordBatch, usize), RecordError> {
    let view = RecordBatch::decode_view(buf)?;
    Ok((view.to_batch(), view.size_in_bytes()))
}

/// Offset deltas strictly increase from >= 0 and none exceeds lastOffsetDelta; an empty
/// batch needs lastOffsetDelta >= -1.
fn check_offset_deltas(
    deltas: impl Iterator<Item = i32>,
    last_offset_delta: i32,
) -> Result<(), RecordError> {
    let mut previous: Option<i32> = None;
    for (i, delta) in deltas.enumerate() {
        let ok = delta >= 0 && previous.is_none_or(|p| delta > p) && delta <= last_offset_delta;
        if !ok {
            return Err(RecordError::InvalidRecord(format!(
                "record {i} has offsetDelta {delta} (previous {previous:?}, lastOffsetDelta {last_offset_delta})"
            )));
        }
        previous = Some(delta);
    }
    if previous.is_none() && last_offset_delta < -1 {
        return Err(RecordError::InvalidRecord(format!(
            "invalid lastOffsetDelta {last_offset_delta}"
        )));
    }
    Ok(())
}

/// The batchLength of the encoded batch at the start of `buf` (None if `buf` is too
/// short to hold it): how far the batch goes, read before anything else is trusted.
pub fn read_batch_length(buf: &[u8]) -> Option<i32> {
    get_i32(buf, BATCH_LENGTH_OFFSET)
}

/// The consecutive batches of `buf` (a whole .log segment) as byte slices, found by
/// hopping over each batch's batchLength: nothing decoded, no CRC computed. Stops at
/// the first length that cannot hold a header or runs past the end (where
/// [`decode_all`] would stop with Truncated).
pub fn split_batches(buf: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut pos = 0usize;
    std::iter::from_fn(move || {
        let rest = buf.get(pos..)?;
        let len = usize::try_from(read_batch_length(rest)?).ok()?;
        if len < RECORD_BATCH_OVERHEAD - LOG_OVERHEAD {
            return None;
        }
        let batch = rest.get(..LOG_OVERHEAD + len)?;
        pos += batch.len();
        Some(batch)
    })
}

/// A batch's first and last offset, its partitionLeaderEpoch and whether it is a
/// control batch, read from its header alone (no CRC check: for bytes already on a
/// broker's disk, which the broker validated before writing them). None if `buf` is
/// shorter than a header.
pub fn header_summary(buf: &[u8]) -> Option<(i64, i64, i32, bool)> {
    let base = get_i64(buf, BASE_OFFSET_OFFSET)?;
    let delta = get_i32(buf, LAST_OFFSET_DELTA_OFFSET)?;
    let epoch = get_i32(buf, PARTITION_LEADER_EPOCH_OFFSET)?;
    let attributes = get_i16(buf, ATTRIBUTES_OFFSET)?;
    get_i32(buf, RECORDS_COUNT_OFFSET)?;
    Some((
        base,
        base.saturating_add(i64::from(delta)),
        epoch,
        attributes & CONTROL_FLAG_MASK != 0,
    ))
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
mod tests;
