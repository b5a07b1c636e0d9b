//! One record inside a batch, encoded and decoded byte for byte as Kafka's
//! `DefaultRecord` does: a length varint, then attributes, varint'd deltas,
//! key, value and headers.
//!
//! ```text
//! length: varint            (bytes after itself)
//! attributes: int8          (unused, 0)
//! timestampDelta: varlong
//! offsetDelta: varint
//! keyLength: varint, key    (-1 is null)
//! valueLength: varint, value
//! headersCount: varint, then per header keyLength, key, valueLength, value
//! ```

use serde::{Deserialize, Serialize};

use super::bytes::Bytes;
use super::error::RecordError;
use super::varint::{
    decode_varint, decode_varlong, size_of_varint, size_of_varlong, MAX_VARINT_LEN, MAX_VARLONG_LEN,
};
#[cfg(not(target_arch = "wasm32"))]
use super::varint::{VarintWrite, Writer};
use crate::util::bytes::ByteReader;

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
/// timestamp (see [`RecordBatch::record_offset`](super::RecordBatch::record_offset) and
/// [`RecordBatch::record_timestamp`](super::RecordBatch::record_timestamp)).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Record {
    /// Unused by v2; Kafka writes 0.
    pub attributes: i8,
    pub timestamp_delta: i64,
    pub offset_delta: i32,
    pub key: Option<Bytes>,
    pub value: Option<Bytes>,
    pub headers: Vec<Header>,
}

/// Lengths are i32 on the wire. A Vec longer than i32::MAX cannot be encoded
/// faithfully (Kafka could not hold it either); it is written as i32::MAX
/// rather than panicking.
pub(super) fn wire_len(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

fn size_of_bytes(b: Option<&[u8]>) -> usize {
    match b {
        None => size_of_varint(-1),
        Some(v) => size_of_varint(wire_len(v.len())).saturating_add(v.len()),
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn write_bytes(b: Option<&[u8]>, w: &mut Writer) {
    match b {
        None => w.varint(-1),
        Some(v) => {
            w.varint(wire_len(v.len()));
            w.bytes(v);
        }
    }
}

impl Record {
    /// Bytes after the length varint.
    fn body_size(&self) -> usize {
        let headers = self.headers.iter().fold(0usize, |acc, h| {
            acc.saturating_add(size_of_varint(wire_len(h.key.len())))
                .saturating_add(h.key.len())
                .saturating_add(size_of_bytes(h.value.as_deref()))
        });
        1usize
            .saturating_add(size_of_varlong(self.timestamp_delta))
            .saturating_add(size_of_varint(self.offset_delta))
            .saturating_add(size_of_bytes(self.key.as_deref()))
            .saturating_add(size_of_bytes(self.value.as_deref()))
            .saturating_add(size_of_varint(wire_len(self.headers.len())))
            .saturating_add(headers)
    }

    /// Encoded size including the leading length varint (Kafka's
    /// `DefaultRecord.sizeInBytes`).
    pub fn size_in_bytes(&self) -> usize {
        let body = self.body_size();
        size_of_varint(wire_len(body)).saturating_add(body)
    }

    /// At least [`Record::size_in_bytes`], from the lengths alone (every varint counted at
    /// its longest): what an encoder reserves so that each record's exact size is
    /// computed once, while it is written.
    pub(super) fn max_size_in_bytes(&self) -> usize {
        let bytes = |b: Option<&[u8]>| b.map_or(0, <[u8]>::len) + MAX_VARINT_LEN;
        let headers = self.headers.iter().fold(0usize, |acc, h| {
            acc.saturating_add(h.key.len() + MAX_VARINT_LEN)
                .saturating_add(bytes(h.value.as_deref()))
        });
        (3 * MAX_VARINT_LEN + 1 + MAX_VARLONG_LEN)
            .saturating_add(bytes(self.key.as_deref()))
            .saturating_add(bytes(self.value.as_deref()))
            .saturating_add(headers)
    }

    /// Appends the encoded record (Kafka's `DefaultRecord.writeTo`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        Writer::append(out, self.max_size_in_bytes(), |w| {
            self.write_to(w, 0);
        });
    }

    /// Appends the encoded record (Kafka's `DefaultRecord.writeTo`).
    #[cfg(target_arch = "wasm32")]
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        self.encode_compact(out);
    }

    /// [`Record::encode_into`] in the wasm, which is built for size: the length computed
    /// first, the leading fields in one stack block, the rest pushed (the faster native
    /// writer cost the main page 0.56 KB gzip).
    #[cfg(any(target_arch = "wasm32", test))]
    pub(super) fn encode_compact(&self, out: &mut Vec<u8>) {
        use super::varint::{encode_varint, VarintBlock, VarintWrite};
        let mut head = VarintBlock::default();
        head.varint(wire_len(self.body_size()));
        head.byte(self.attributes as u8);
        head.varlong(self.timestamp_delta);
        head.varint(self.offset_delta);
        match &self.key {
            None => head.varint(-1),
            Some(key) => head.varint(wire_len(key.len())),
        }
        head.append_to(out);
        if let Some(key) = &self.key {
            out.extend_from_slice(key);
        }
        let bytes = |b: Option<&[u8]>, out: &mut Vec<u8>| match b {
            None => encode_varint(-1, out),
            Some(v) => {
                encode_varint(wire_len(v.len()), out);
                out.extend_from_slice(v);
            }
        };
        bytes(self.value.as_deref(), out);
        encode_varint(wire_len(self.headers.len()), out);
        for h in &self.headers {
            encode_varint(wire_len(h.key.len()), out);
            out.extend_from_slice(h.key.as_bytes());
            bytes(h.value.as_deref(), out);
        }
    }

    /// The encoded record, into room the caller made (at least
    /// [`Record::max_size_in_bytes`] for speed). `prefix` is the room left for the
    /// length varint, a guess that `length_prefix` corrects (a batch passes the size the
    /// previous record's took: records of one batch are mostly of one size, so the guess
    /// costs nothing and is rarely wrong); 0 computes it from the bound. Returns the
    /// length varint's size.
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub(super) fn write_to(&self, w: &mut Writer, prefix: usize) -> usize {
        let at = w.position();
        let reserved = if prefix == 0 {
            size_of_varint(wire_len(
                self.max_size_in_bytes().saturating_sub(MAX_VARINT_LEN),
            ))
        } else {
            prefix
        };
        w.skip(reserved);
        w.byte(self.attributes as u8);
        w.varlong(self.timestamp_delta);
        w.varint(self.offset_delta);
        write_bytes(self.key.as_deref(), w);
        write_bytes(self.value.as_deref(), w);
        w.varint(wire_len(self.headers.len()));
        for h in &self.headers {
            w.varint(wire_len(h.key.len()));
            w.bytes(h.key.as_bytes());
            write_bytes(h.value.as_deref(), w);
        }
        w.length_prefix(at, reserved)
    }
}

/// A cursor over a record's bytes. Every shortfall is an InvalidRecord: by the
/// time records are read, the batch is complete and its CRC matched, so a
/// short record means the batch lies about its content.
struct Reader<'a>(ByteReader<'a>);

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Reader(ByteReader::new(buf))
    }

    fn remaining(&self) -> usize {
        self.0.remaining()
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], RecordError> {
        self.0.take(n).map_err(|short| {
            RecordError::InvalidRecord(format!(
                "{what} needs {n} bytes but only {} remain",
                short.available
            ))
        })
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn varint(&mut self, what: &str) -> Result<i32, RecordError> {
        self.0
            .decode(decode_varint)
            .map_err(|e| invalid_varint(what, e))
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn varlong(&mut self, what: &str) -> Result<i64, RecordError> {
        self.0
            .decode(decode_varlong)
            .map_err(|e| invalid_varint(what, e))
    }

    /// A length-prefixed byte string, borrowed in place; -1 is null.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn bytes(&mut self, what: &str) -> Result<Option<&'a [u8]>, RecordError> {
        let len = self.varint(what)?;
        if len == -1 {
            return Ok(None);
        }
        let n = usize::try_from(len)
            .map_err(|_| RecordError::InvalidRecord(format!("invalid {what} length {len}")))?;
        Ok(Some(self.take(n, what)?))
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

/// A record read in place (Kafka's `DefaultRecord` over the batch's buffer): key, value
/// and headers borrow the batch's bytes, so reading a batch allocates nothing per record
/// unless it has headers. [`RecordView::to_record`] makes the owned [`Record`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordView<'a> {
    pub attributes: i8,
    pub timestamp_delta: i64,
    pub offset_delta: i32,
    pub key: Option<&'a [u8]>,
    pub value: Option<&'a [u8]>,
    pub headers: Vec<HeaderView<'a>>,
}

/// A record header read in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderView<'a> {
    pub key: &'a str,
    pub value: Option<&'a [u8]>,
}

impl RecordView<'_> {
    /// The owned record (copies key, value and headers).
    pub fn to_record(&self) -> Record {
        self.to_record_with(|b| Bytes::from(b))
    }

    /// The owned record whose key and value are ranges of `buf`, the buffer this view
    /// was read from (headers are copied: few records have any).
    #[cfg(not(target_arch = "wasm32"))]
    #[inline(always)]
    pub(super) fn to_shared_record(&self, buf: &std::rc::Rc<[u8]>) -> Record {
        self.to_record_with(|b| Bytes::shared(buf, b))
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn to_record_with(&self, bytes: impl Fn(&[u8]) -> Bytes) -> Record {
        Record {
            attributes: self.attributes,
            timestamp_delta: self.timestamp_delta,
            offset_delta: self.offset_delta,
            key: self.key.map(&bytes),
            value: self.value.map(&bytes),
            headers: self
                .headers
                .iter()
                .map(|h| Header {
                    key: h.key.to_string(),
                    value: h.value.map(<[u8]>::to_vec),
                })
                .collect(),
        }
    }
}

/// Parses one record's body (everything after its length varint).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn decode_record_body(body: &[u8]) -> Result<RecordView<'_>, RecordError> {
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
            .map_err(|_| RecordError::InvalidRecord("header key is not UTF-8".to_string()))?;
        let value = r.bytes("header value")?;
        headers.push(HeaderView { key, value });
    }
    if r.remaining() != 0 {
        return Err(RecordError::InvalidRecord(format!(
            "record declares {} bytes but its fields use {}",
            body.len(),
            r.0.position()
        )));
    }
    Ok(RecordView {
        attributes,
        timestamp_delta,
        offset_delta,
        key,
        value,
        headers,
    })
}

/// Reads `count` records from a batch's records region (Kafka's
/// `DefaultRecordBatch.RecordIterator`), in place, each handed to `each` as it is read
/// (an owned decode fills one vector of [`Record`]s, not a vector of views and then a
/// copy). The region must hold exactly those records; an InvalidRecord names the record
/// that is wrong.
pub(super) fn decode_records<'a, T>(
    region: &'a [u8],
    count: usize,
    mut each: impl FnMut(RecordView<'a>) -> T,
) -> Result<Vec<T>, RecordError> {
    if count > region.len() / MIN_RECORD_SIZE {
        return Err(RecordError::InvalidRecord(format!(
            "recordsCount {count} cannot fit in {} bytes of records",
            region.len()
        )));
    }
    let mut reader = Reader::new(region);
    let mut records = Vec::with_capacity(count);
    for i in 0..count {
        let record = decode_record(&mut reader).map_err(|e| match e {
            RecordError::InvalidRecord(why) => {
                RecordError::InvalidRecord(format!("record {i}: {why}"))
            }
            other => other,
        })?;
        records.push(each(record));
    }
    if reader.remaining() != 0 {
        return Err(RecordError::InvalidRecord(format!(
            "{} bytes left after the {count} records recordsCount declares",
            reader.remaining()
        )));
    }
    Ok(records)
}

/// One record: its length varint, then its body.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn decode_record<'a>(reader: &mut Reader<'a>) -> Result<RecordView<'a>, RecordError> {
    let len = reader.varint("record length")?;
    let len = usize::try_from(len)
        .map_err(|_| RecordError::InvalidRecord(format!("invalid record length {len}")))?;
    decode_record_body(reader.take(len, "record")?)
}
