//! Control records: the COMMIT/ABORT markers a transaction coordinator has
//! written into each partition (WriteTxnMarkers) to end a transaction.

use serde::{Deserialize, Serialize};

use super::error::RecordError;
use crate::util::bytes::ByteReader;

/// The version written in control record keys (Kafka's
/// `ControlRecordType.CURRENT_CONTROL_RECORD_KEY_VERSION`).
pub const CONTROL_RECORD_KEY_VERSION: i16 = 0;
/// The version written in end-transaction marker values (Kafka's
/// `EndTransactionMarker.CURRENT_END_TXN_MARKER_VERSION`).
pub const END_TXN_MARKER_VERSION: i16 = 0;
/// Size of a control record key: version i16 + type i16.
pub const CONTROL_KEY_SIZE: usize = 4;
/// Size of an end-transaction marker value: version i16 + coordinatorEpoch i32.
pub const END_TXN_MARKER_SIZE: usize = 6;

/// The type in a control record's key. Mirrors Kafka's `ControlRecordType`;
/// simplified to the two transaction markers (no LEADER_CHANGE, snapshot or
/// UNKNOWN types: anything else fails to decode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ControlRecordType {
    Abort,
    Commit,
}

impl ControlRecordType {
    /// Kafka's type id: ABORT = 0, COMMIT = 1.
    pub fn code(self) -> i16 {
        match self {
            ControlRecordType::Abort => 0,
            ControlRecordType::Commit => 1,
        }
    }

    pub fn from_code(code: i16) -> Option<Self> {
        match code {
            0 => Some(ControlRecordType::Abort),
            1 => Some(ControlRecordType::Commit),
            _ => None,
        }
    }

    /// "ABORT" or "COMMIT", as Kafka's tools print it.
    pub fn name(self) -> &'static str {
        match self {
            ControlRecordType::Abort => "ABORT",
            ControlRecordType::Commit => "COMMIT",
        }
    }

    /// The record key: version 0 (i16) then the type (i16), big-endian.
    pub fn encode_key(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(CONTROL_KEY_SIZE);
        out.extend_from_slice(&CONTROL_RECORD_KEY_VERSION.to_be_bytes());
        out.extend_from_slice(&self.code().to_be_bytes());
        out
    }

    /// Kafka's `ControlRecordType.parseTypeId`: the type id of a control record key.
    /// A negative version or a key shorter than 4 bytes is invalid
    /// (`InvalidRecordException`), and bytes after the type (from a future version)
    /// are ignored. Any type id parses (Kafka's `UNKNOWN` for one it does not know).
    pub fn parse_type_id(key: &[u8]) -> Result<i16, RecordError> {
        let mut r = ByteReader::new(key);
        let (Ok(version), Ok(code)) = (r.i16(), r.i16()) else {
            return Err(RecordError::InvalidRecord(format!(
                "control record key has {} bytes, needs {CONTROL_KEY_SIZE}",
                key.len()
            )));
        };
        if version < 0 {
            return Err(RecordError::InvalidRecord(format!(
                "invalid control record key version {version}"
            )));
        }
        Ok(code)
    }

    /// Parses a control record key ([`parse_type_id`](Self::parse_type_id)); a type
    /// other than ABORT and COMMIT is an error here.
    pub fn decode_key(key: &[u8]) -> Result<Self, RecordError> {
        let code = Self::parse_type_id(key)?;
        Self::from_code(code).ok_or_else(|| {
            RecordError::InvalidRecord(format!("unknown control record type {code}"))
        })
    }
}

/// The value of a COMMIT/ABORT control record. Mirrors Kafka's
/// `EndTransactionMarker`; the control type itself lives in the key (see
/// [`ControlRecordType`]), so it is not repeated here.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EndTransactionMarker {
    /// Always 0 when we write it.
    pub version: i16,
    /// The coordinator's epoch, so a partition can fence markers from a
    /// zombie coordinator.
    pub coordinator_epoch: i32,
}

impl EndTransactionMarker {
    /// A version-0 marker.
    pub fn new(coordinator_epoch: i32) -> Self {
        EndTransactionMarker {
            version: END_TXN_MARKER_VERSION,
            coordinator_epoch,
        }
    }

    /// version (i16) then coordinatorEpoch (i32), big-endian: 6 bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(END_TXN_MARKER_SIZE);
        out.extend_from_slice(&self.version.to_be_bytes());
        out.extend_from_slice(&self.coordinator_epoch.to_be_bytes());
        out
    }

    /// Parses a marker value; like Kafka, negative versions and short values
    /// are invalid and trailing bytes are ignored.
    pub fn decode(value: &[u8]) -> Result<Self, RecordError> {
        let mut r = ByteReader::new(value);
        let (Ok(version), Ok(coordinator_epoch)) = (r.i16(), r.i32()) else {
            return Err(RecordError::InvalidRecord(format!(
                "end transaction marker has {} bytes, needs {END_TXN_MARKER_SIZE}",
                value.len()
            )));
        };
        if version < 0 {
            return Err(RecordError::InvalidRecord(format!(
                "invalid end transaction marker version {version}"
            )));
        }
        Ok(EndTransactionMarker {
            version,
            coordinator_epoch,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_kafka_bytes() {
        assert_eq!(ControlRecordType::Abort.encode_key(), [0, 0, 0, 0]);
        assert_eq!(ControlRecordType::Commit.encode_key(), [0, 0, 0, 1]);
        for t in [ControlRecordType::Abort, ControlRecordType::Commit] {
            assert_eq!(ControlRecordType::decode_key(&t.encode_key()), Ok(t));
            assert_eq!(ControlRecordType::from_code(t.code()), Some(t));
        }
        assert_eq!(ControlRecordType::Commit.name(), "COMMIT");
        assert_eq!(ControlRecordType::Abort.name(), "ABORT");
    }

    #[test]
    fn bad_keys() {
        assert!(ControlRecordType::decode_key(&[0, 0, 0]).is_err());
        assert!(ControlRecordType::decode_key(&[0xFF, 0xFF, 0, 1]).is_err());
        assert!(ControlRecordType::decode_key(&[0, 0, 0, 7]).is_err());
        // A future key version with extra bytes still parses.
        assert_eq!(
            ControlRecordType::decode_key(&[0, 1, 0, 1, 9, 9]),
            Ok(ControlRecordType::Commit)
        );
    }

    #[test]
    fn marker_bytes() {
        let m = EndTransactionMarker::new(0x0102_0304);
        assert_eq!(m.encode(), [0, 0, 1, 2, 3, 4]);
        assert_eq!(EndTransactionMarker::decode(&m.encode()), Ok(m));
        assert!(EndTransactionMarker::decode(&[0, 0, 1, 2, 3]).is_err());
        assert!(EndTransactionMarker::decode(&[0x80, 0, 1, 2, 3, 4]).is_err());
    }
}
