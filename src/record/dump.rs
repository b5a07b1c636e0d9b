//! A field-by-field view of a batch header, for the UI's "click a batch to
//! see its header bytes decoded" (what Kafka's `kafka-dump-log.sh
//! --deep-iteration` prints, plus where each field sits in the bytes).

use serde::Serialize;

use super::batch::increment_sequence;
use super::batch::{
    ATTRIBUTES_OFFSET, BASE_OFFSET_OFFSET, BASE_SEQUENCE_OFFSET, BASE_TIMESTAMP_OFFSET,
    BATCH_LENGTH_OFFSET, CRC_OFFSET, LAST_OFFSET_DELTA_OFFSET, MAGIC_OFFSET, MAX_TIMESTAMP_OFFSET,
    PARTITION_LEADER_EPOCH_OFFSET, PRODUCER_EPOCH_OFFSET, PRODUCER_ID_OFFSET, RECORDS_COUNT_OFFSET,
};
use super::crc32c::crc32c;
use super::error::RecordError;
use super::{Bytes, ControlRecordType, EndTransactionMarker, Record, RecordBatch, TimestampType};
use super::{
    COMPRESSION_CODEC_MASK, CONTROL_FLAG_MASK, DELETE_HORIZON_FLAG_MASK, LOG_OVERHEAD, MAGIC_V2,
    RECORD_BATCH_OVERHEAD, TIMESTAMP_TYPE_MASK, TRANSACTIONAL_FLAG_MASK,
};

/// One header field of an encoded batch: where it is, its raw bytes and what
/// they mean. No Kafka counterpart; it exists to teach the wire format.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeaderField {
    /// Kafka's field name, e.g. "baseSequence".
    pub name: &'static str,
    /// Byte offset from the start of the batch.
    pub offset: usize,
    pub size: usize,
    /// The bytes as lowercase hex pairs separated by spaces ("00 00 00 03").
    pub hex: String,
    /// The decoded value, with a short note where one helps.
    pub value: String,
}

/// Bytes as lowercase hex pairs separated by spaces: "00 0a ff".
pub fn to_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().saturating_mul(3));
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Attributes as "0x0010 (transactional)"; "(none)" when no bit is set.
pub fn describe_attributes(attributes: i16) -> String {
    let mut parts: Vec<String> = Vec::new();
    match attributes & COMPRESSION_CODEC_MASK {
        0 => {}
        1 => parts.push("gzip".into()),
        2 => parts.push("snappy".into()),
        3 => parts.push("lz4".into()),
        4 => parts.push("zstd".into()),
        c => parts.push(format!("unknown compression {c}")),
    }
    if attributes & TIMESTAMP_TYPE_MASK != 0 {
        parts.push("LogAppendTime".into());
    }
    if attributes & TRANSACTIONAL_FLAG_MASK != 0 {
        parts.push("transactional".into());
    }
    if attributes & CONTROL_FLAG_MASK != 0 {
        parts.push("control".into());
    }
    if attributes & DELETE_HORIZON_FLAG_MASK != 0 {
        parts.push("deleteHorizonMs".into());
    }
    let unused = (attributes as u16) & 0xFF80;
    if unused != 0 {
        parts.push(format!("unused bits 0x{unused:04x}"));
    }
    let what = if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    };
    format!("0x{:04x} ({what})", attributes as u16)
}

/// The 13 header fields of an encoded batch with their byte range, hex bytes ("00 00 00 03") and decoded value (attributes rendered like "0x0010 (transactional)"; crc rendered with "valid"/"INVALID"). Kafka's field names: baseOffset, batchLength, partitionLeaderEpoch, magic, crc, attributes, lastOffsetDelta, baseTimestamp, maxTimestamp, producerId, producerEpoch, baseSequence, recordsCount.
///
/// Needs only the 61 header bytes (Truncated otherwise); it does not reject a
/// bad magic or CRC but says so in the value, since showing a damaged batch is
/// the point. The CRC can only be checked when the whole batch is in `buf`.
pub fn header_fields(buf: &[u8]) -> Result<Vec<HeaderField>, RecordError> {
    let Some(header) = buf.get(..RECORD_BATCH_OVERHEAD) else {
        return Err(RecordError::Truncated {
            needed: RECORD_BATCH_OVERHEAD,
            available: buf.len(),
        });
    };
    let bytes = |offset: usize, size: usize| -> &[u8] {
        header
            .get(offset..offset.saturating_add(size))
            .unwrap_or(&[])
    };
    let int = |offset: usize, size: usize| -> i64 {
        bytes(offset, size)
            .iter()
            .fold(0i64, |acc, &b| (acc << 8) | i64::from(b))
    };
    // Sign-extends a big-endian field of `size` bytes.
    let signed = |offset: usize, size: usize| -> i64 {
        let shift = 64u32.saturating_sub(8 * size as u32);
        (int(offset, size) << shift) >> shift
    };
    let none_if_minus_one = |v: i64| {
        if v == -1 {
            "-1 (none)".to_string()
        } else {
            v.to_string()
        }
    };

    let batch_length = signed(BATCH_LENGTH_OFFSET, 4);
    let magic = signed(MAGIC_OFFSET, 1);
    let stored_crc = int(CRC_OFFSET, 4);
    let total = usize::try_from(batch_length)
        .ok()
        .filter(|&l| l >= RECORD_BATCH_OVERHEAD - LOG_OVERHEAD)
        .and_then(|l| l.checked_add(LOG_OVERHEAD));
    let crc_value = match total.and_then(|t| buf.get(ATTRIBUTES_OFFSET..t)) {
        Some(covered) => {
            let computed = i64::from(crc32c(covered));
            if computed == stored_crc {
                format!("0x{stored_crc:08x} (valid)")
            } else {
                format!("0x{stored_crc:08x} (INVALID: computed 0x{computed:08x})")
            }
        }
        None => format!("0x{stored_crc:08x} (INVALID: batch incomplete, cannot verify)"),
    };
    let batch_length_value = match total {
        Some(t) => format!("{batch_length} (batch is {t} bytes)"),
        None => format!("{batch_length} (INVALID: shorter than the header)"),
    };
    let magic_value = if magic == i64::from(MAGIC_V2) {
        magic.to_string()
    } else {
        format!("{magic} (INVALID: expected {MAGIC_V2})")
    };
    let base_offset = signed(BASE_OFFSET_OFFSET, 8);
    let last_offset_delta = signed(LAST_OFFSET_DELTA_OFFSET, 4);
    let last_offset = base_offset.saturating_add(last_offset_delta);

    let fields: [(&'static str, usize, usize, String); 13] = [
        ("baseOffset", BASE_OFFSET_OFFSET, 8, base_offset.to_string()),
        ("batchLength", BATCH_LENGTH_OFFSET, 4, batch_length_value),
        (
            "partitionLeaderEpoch",
            PARTITION_LEADER_EPOCH_OFFSET,
            4,
            none_if_minus_one(signed(PARTITION_LEADER_EPOCH_OFFSET, 4)),
        ),
        ("magic", MAGIC_OFFSET, 1, magic_value),
        ("crc", CRC_OFFSET, 4, crc_value),
        (
            "attributes",
            ATTRIBUTES_OFFSET,
            2,
            describe_attributes(signed(ATTRIBUTES_OFFSET, 2) as i16),
        ),
        (
            "lastOffsetDelta",
            LAST_OFFSET_DELTA_OFFSET,
            4,
            format!("{last_offset_delta} (last offset {last_offset})"),
        ),
        (
            "baseTimestamp",
            BASE_TIMESTAMP_OFFSET,
            8,
            signed(BASE_TIMESTAMP_OFFSET, 8).to_string(),
        ),
        (
            "maxTimestamp",
            MAX_TIMESTAMP_OFFSET,
            8,
            signed(MAX_TIMESTAMP_OFFSET, 8).to_string(),
        ),
        (
            "producerId",
            PRODUCER_ID_OFFSET,
            8,
            none_if_minus_one(signed(PRODUCER_ID_OFFSET, 8)),
        ),
        (
            "producerEpoch",
            PRODUCER_EPOCH_OFFSET,
            2,
            none_if_minus_one(signed(PRODUCER_EPOCH_OFFSET, 2)),
        ),
        (
            "baseSequence",
            BASE_SEQUENCE_OFFSET,
            4,
            none_if_minus_one(signed(BASE_SEQUENCE_OFFSET, 4)),
        ),
        (
            "recordsCount",
            RECORDS_COUNT_OFFSET,
            4,
            signed(RECORDS_COUNT_OFFSET, 4).to_string(),
        ),
    ];
    Ok(fields
        .into_iter()
        .map(|(name, offset, size, value)| HeaderField {
            name,
            offset,
            size,
            hex: to_hex(bytes(offset, size)),
            value,
        })
        .collect())
}

/// The name `kafka-dump-log.sh` prints for a compression codec (`compresscodec:`).
pub fn codec_name(codec: u8) -> String {
    match codec {
        0 => "none".into(),
        1 => "gzip".into(),
        2 => "snappy".into(),
        3 => "lz4".into(),
        4 => "zstd".into(),
        c => format!("unknown({c})"),
    }
}

/// The fields of a batch line of `kafka-dump-log.sh --print-data-log --deep-iteration`
/// (Kafka 4.0's `DumpLogSegments.printBatchLevel`), in the order it prints them: the
/// one formatter of that line, for `eos inspect` (from the bytes on disk) and for the
/// world's partition views (`BatchView::dump_line`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchLine {
    pub base_offset: i64,
    pub last_offset: i64,
    pub count: i32,
    pub base_sequence: i32,
    pub last_sequence: i32,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub partition_leader_epoch: i32,
    pub is_transactional: bool,
    pub is_control: bool,
    pub delete_horizon_ms: Option<i64>,
    pub position: u64,
    pub timestamp_type: TimestampType,
    pub max_timestamp: i64,
    pub size: usize,
    pub compression_code: u8,
    pub crc: u32,
    pub valid: bool,
}

impl BatchLine {
    /// Each field's name and value, in the line's order.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("baseOffset", self.base_offset.to_string()),
            ("lastOffset", self.last_offset.to_string()),
            ("count", self.count.to_string()),
            ("baseSequence", self.base_sequence.to_string()),
            ("lastSequence", self.last_sequence.to_string()),
            ("producerId", self.producer_id.to_string()),
            ("producerEpoch", self.producer_epoch.to_string()),
            (
                "partitionLeaderEpoch",
                self.partition_leader_epoch.to_string(),
            ),
            ("isTransactional", self.is_transactional.to_string()),
            ("isControl", self.is_control.to_string()),
            (
                "deleteHorizonMs",
                self.delete_horizon_ms
                    .map_or("OptionalLong.empty".to_string(), |h| {
                        format!("OptionalLong[{h}]")
                    }),
            ),
            ("position", self.position.to_string()),
            (
                timestamp_type_name(self.timestamp_type),
                self.max_timestamp.to_string(),
            ),
            ("size", self.size.to_string()),
            ("magic", MAGIC_V2.to_string()),
            ("compresscodec", codec_name(self.compression_code)),
            ("crc", self.crc.to_string()),
            ("isvalid", self.valid.to_string()),
        ]
    }

    /// The line, keeping only `fields` (in that order) when given — as the seeds do
    /// with sed.
    pub fn line(&self, fields: Option<&[String]>) -> String {
        let all = self.fields();
        let picked: Vec<String> = match fields {
            Some(names) => names
                .iter()
                .filter_map(|n| {
                    all.iter()
                        .find(|(k, _)| k == n)
                        .map(|(k, v)| format!("{k}: {v}"))
                })
                .collect(),
            None => all.iter().map(|(k, v)| format!("{k}: {v}")).collect(),
        };
        picked.join(" ")
    }
}

/// The batch line of a batch read from disk, from its header fields (`records` may be
/// empty: a batch that could not be opened still gets its line). `position` is where
/// the batch starts in the segment, `size` its bytes, `crc` the stored CRC and `valid`
/// whether it matches the bytes.
pub fn batch_line(
    h: &RecordBatch,
    records_count: i32,
    position: u64,
    size: usize,
    crc: u32,
    valid: bool,
) -> String {
    let last_sequence = if h.base_sequence < 0 {
        h.base_sequence
    } else {
        increment_sequence(h.base_sequence, h.last_offset_delta)
    };
    BatchLine {
        base_offset: h.base_offset,
        last_offset: h.last_offset(),
        count: records_count,
        base_sequence: h.base_sequence,
        last_sequence,
        producer_id: h.producer_id,
        producer_epoch: h.producer_epoch,
        partition_leader_epoch: h.partition_leader_epoch,
        is_transactional: h.is_transactional(),
        is_control: h.is_control(),
        delete_horizon_ms: h.has_delete_horizon_ms().then_some(h.base_timestamp),
        position,
        timestamp_type: h.timestamp_type(),
        max_timestamp: h.max_timestamp,
        size,
        compression_code: h.compression_code(),
        crc,
        valid,
    }
    .line(None)
}

fn timestamp_type_name(t: TimestampType) -> &'static str {
    match t {
        TimestampType::CreateTime => "CreateTime",
        TimestampType::LogAppendTime => "LogAppendTime",
    }
}

/// The record line under a batch (`| offset: 3 CreateTime: … keySize: … valueSize: …
/// sequence: … headerKeys: [...]`), then the control record's marker or, with
/// `--print-data-log`, the key and payload read as UTF-8 (Kafka's `StringDecoder`).
pub fn record_line(batch: &RecordBatch, record: &Record) -> String {
    let size = |b: &Option<Bytes>| b.as_ref().map_or(-1, |v| v.len() as i64);
    let sequence = if batch.base_sequence < 0 {
        batch.base_sequence
    } else {
        increment_sequence(batch.base_sequence, record.offset_delta)
    };
    let header_keys: Vec<&str> = record.headers.iter().map(|h| h.key.as_str()).collect();
    let mut line = format!(
        "| offset: {} {}: {} keySize: {} valueSize: {} sequence: {sequence} headerKeys: [{}]",
        batch.record_offset(record),
        timestamp_type_name(batch.timestamp_type()),
        batch.record_timestamp(record),
        size(&record.key),
        size(&record.value),
        header_keys.join(","),
    );
    if batch.is_control() {
        let key = record.key.as_deref().unwrap_or_default();
        match ControlRecordType::decode_key(key) {
            Ok(kind) => match record.value.as_deref().map(EndTransactionMarker::decode) {
                Some(Ok(marker)) => line.push_str(&format!(
                    " endTxnMarker: {} coordinatorEpoch: {}",
                    kind.name(),
                    marker.coordinator_epoch
                )),
                _ => line.push_str(&format!(" controlType: {}({})", kind.name(), kind.code())),
            },
            Err(_) => {
                let id = key
                    .get(2..4)
                    .map_or(-1, |b| i16::from_be_bytes([b[0], b[1]]));
                line.push_str(&format!(" controlType: UNKNOWN({id})"));
            }
        }
        return line;
    }
    if let Some(k) = &record.key {
        line.push_str(&format!(" key: {}", String::from_utf8_lossy(k)));
    }
    if let Some(v) = &record.value {
        line.push_str(&format!(" payload: {}", String::from_utf8_lossy(v)));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{ControlRecordType, RecordBatch};

    fn field<'a>(fields: &'a [HeaderField], name: &str) -> &'a HeaderField {
        fields.iter().find(|f| f.name == name).unwrap()
    }

    #[test]
    fn fields_cover_the_header_in_order() {
        let b = RecordBatch::new_data(3, 1000, 2, 0, true, 1234, vec![(None, Some(vec![1]))]);
        let fields = header_fields(&b.encode()).unwrap();
        let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            [
                "baseOffset",
                "batchLength",
                "partitionLeaderEpoch",
                "magic",
                "crc",
                "attributes",
                "lastOffsetDelta",
                "baseTimestamp",
                "maxTimestamp",
                "producerId",
                "producerEpoch",
                "baseSequence",
                "recordsCount"
            ]
        );
        let mut next = 0;
        for f in &fields {
            assert_eq!(f.offset, next, "{}", f.name);
            assert_eq!(f.hex.len(), f.size * 3 - 1, "{}", f.name);
            next += f.size;
        }
        assert_eq!(next, RECORD_BATCH_OVERHEAD);
        assert_eq!(field(&fields, "baseOffset").hex, "00 00 00 00 00 00 00 03");
        assert_eq!(field(&fields, "baseOffset").value, "3");
        assert_eq!(field(&fields, "magic").value, "2");
        assert_eq!(field(&fields, "attributes").value, "0x0010 (transactional)");
        assert_eq!(field(&fields, "recordsCount").hex, "00 00 00 01");
        assert_eq!(field(&fields, "producerId").value, "1000");
        assert_eq!(field(&fields, "partitionLeaderEpoch").value, "0");
        assert!(field(&fields, "crc").value.ends_with("(valid)"));
    }

    #[test]
    fn damage_is_shown_not_refused() {
        let b = RecordBatch::new_control(0, -1, -1, 0, ControlRecordType::Commit, 0);
        let mut bytes = b.encode();
        let fields = header_fields(&bytes).unwrap();
        assert_eq!(
            field(&fields, "attributes").value,
            "0x0030 (transactional, control)"
        );
        assert_eq!(field(&fields, "baseSequence").value, "-1 (none)");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        bytes[16] = 1;
        let fields = header_fields(&bytes).unwrap();
        assert!(field(&fields, "crc").value.contains("INVALID"));
        assert!(field(&fields, "magic").value.contains("INVALID"));
        let fields = header_fields(&bytes[..61]).unwrap();
        assert!(field(&fields, "crc").value.contains("INVALID"));
        assert_eq!(
            header_fields(&bytes[..60]),
            Err(RecordError::Truncated {
                needed: 61,
                available: 60
            })
        );
    }

    #[test]
    fn attribute_rendering() {
        assert_eq!(describe_attributes(0), "0x0000 (none)");
        assert_eq!(
            describe_attributes(0x0049),
            "0x0049 (gzip, LogAppendTime, deleteHorizonMs)"
        );
        assert_eq!(
            describe_attributes(-1),
            "0xffff (unknown compression 7, LogAppendTime, transactional, control, deleteHorizonMs, unused bits 0xff80)"
        );
    }
}
