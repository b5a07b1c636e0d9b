//! Why bytes are not a valid record batch, and which Kafka error code the
//! broker answers with.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A decoding or validation failure. Mirrors Kafka's `CorruptRecordException`
/// (CORRUPT_MESSAGE), `InvalidRecordException` (INVALID_RECORD) and the
/// UNSUPPORTED_COMPRESSION_TYPE error; simplified to the cases an uncompressed
/// v2 batch can hit, each carrying what the UI needs to explain it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RecordError {
    /// The bytes end before the batch (or the number being read) does: `needed`
    /// bytes were required, `available` were there. Also used when a batch's
    /// own batchLength is too small to hold the 61-byte header.
    Truncated { needed: usize, available: usize },
    /// The magic byte is not 2.
    InvalidMagic(i8),
    /// The CRC32C stored in the header does not match the bytes.
    CorruptMessage { stored_crc: u32, computed_crc: u32 },
    /// The header checks out but the content is inconsistent (record sizes,
    /// counts, offset deltas, malformed varints, non-UTF-8 header keys, ...).
    InvalidRecord(String),
    /// `LogValidator.validateBatch`: a batch with a producer id has a negative base
    /// sequence (INVALID_RECORD).
    InvalidSequence {
        base_sequence: i32,
        producer_id: i64,
    },
    /// The attributes name a compression codec (1 gzip, 2 snappy, 3 lz4, 4 zstd,
    /// 5-7 unknown); only 0 (none) is supported.
    UnsupportedCompression(u8),
}

impl RecordError {
    /// The Kafka `Errors` enum name a broker would send back.
    pub fn kafka_name(&self) -> &'static str {
        match self {
            RecordError::Truncated { .. }
            | RecordError::InvalidMagic(_)
            | RecordError::CorruptMessage { .. } => "CORRUPT_MESSAGE",
            RecordError::InvalidRecord(_) | RecordError::InvalidSequence { .. } => "INVALID_RECORD",
            RecordError::UnsupportedCompression(_) => "UNSUPPORTED_COMPRESSION_TYPE",
        }
    }

    /// The Kafka protocol error code (2, 87 or 76).
    pub fn kafka_code(&self) -> i16 {
        match self {
            RecordError::Truncated { .. }
            | RecordError::InvalidMagic(_)
            | RecordError::CorruptMessage { .. } => 2,
            RecordError::InvalidRecord(_) | RecordError::InvalidSequence { .. } => 87,
            RecordError::UnsupportedCompression(_) => 76,
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Truncated { needed, available } => write!(
                f,
                "truncated record batch: needed {needed} bytes, {available} available"
            ),
            RecordError::InvalidMagic(m) => {
                write!(f, "invalid magic {m} (only record batch v2 is supported)")
            }
            RecordError::CorruptMessage {
                stored_crc,
                computed_crc,
            } => write!(
                f,
                "record batch is corrupt: stored crc 0x{stored_crc:08x}, computed 0x{computed_crc:08x}"
            ),
            RecordError::InvalidRecord(why) => write!(f, "invalid record: {why}"),
            RecordError::InvalidSequence {
                base_sequence,
                producer_id,
            } => write!(
                f,
                "Invalid sequence number {base_sequence} in record batch with producerId {producer_id}"
            ),
            RecordError::UnsupportedCompression(c) => {
                write!(f, "unsupported compression codec {c}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_kafka() {
        let cases = [
            (
                RecordError::Truncated {
                    needed: 61,
                    available: 3,
                },
                "CORRUPT_MESSAGE",
                2,
            ),
            (RecordError::InvalidMagic(1), "CORRUPT_MESSAGE", 2),
            (
                RecordError::CorruptMessage {
                    stored_crc: 1,
                    computed_crc: 2,
                },
                "CORRUPT_MESSAGE",
                2,
            ),
            (RecordError::InvalidRecord("x".into()), "INVALID_RECORD", 87),
            (
                RecordError::UnsupportedCompression(1),
                "UNSUPPORTED_COMPRESSION_TYPE",
                76,
            ),
        ];
        for (e, name, code) in cases {
            assert_eq!(e.kafka_name(), name);
            assert_eq!(e.kafka_code(), code);
            assert!(!e.to_string().is_empty());
        }
    }
}
