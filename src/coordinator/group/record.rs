//! The OffsetCommit record of `__consumer_offsets`, byte for byte.
//!
//! Both key and value start with a big-endian i16 version (Kafka's
//! `CoordinatorRecordSerde`: the key's version is the record type), then the fields of
//! `OffsetCommitKey.json` / `OffsetCommitValue.json`:
//!
//! ```text
//! key   (type 1): version i16 | group string | topic string | partition i32
//! value (v3):     version i16 | offset i64 | leaderEpoch i32 | metadata string | commitTimestamp i64
//! ```
//!
//! A string is an i16 length then UTF-8 bytes (compact: unsigned varint length + 1 in the
//! flexible version 4). A null value is a tombstone: the offset was deleted.

use std::fmt;

use crate::record::varint::decode_unsigned_varint;
use crate::util::bytes::ByteReader;

/// The key version (record type) Kafka writes for offset commits.
pub const OFFSET_COMMIT_KEY_VERSION: i16 = 1;
/// The value version Kafka 4.x writes (`MetadataVersion.offsetCommitValueVersion`: the
/// highest non-flexible version, 3, unless an expire timestamp is set).
pub const OFFSET_COMMIT_VALUE_VERSION: i16 = 3;
/// The highest value version we read (4 is flexible: compact strings, tagged fields).
pub const OFFSET_COMMIT_VALUE_MAX_VERSION: i16 = 4;

/// Why bytes are not an OffsetCommit record. Mirrors the `RuntimeException`s of
/// `CoordinatorRecordSerde` ("Could not read version from key's buffer", …) and
/// `UnknownRecordTypeException`, as typed values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupRecordError {
    /// The bytes end before `field` does.
    Truncated { field: &'static str },
    /// The key's version names a record type other than an offset commit (2 is
    /// `GroupMetadataKey`, 3+ the new consumer-group records). Loading skips these.
    UnknownRecordType(i16),
    /// The value's version is not 0..=4.
    UnsupportedValueVersion(i16),
    /// A length is negative (a null where the schema allows none) or impossible.
    InvalidLength { field: &'static str, length: i64 },
    /// A record in `__consumer_offsets` without a key.
    MissingKey,
}

impl fmt::Display for GroupRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GroupRecordError::Truncated { field } => {
                write!(f, "the buffer ends before field {field}")
            }
            GroupRecordError::UnknownRecordType(t) => write!(f, "unknown record type {t}"),
            GroupRecordError::UnsupportedValueVersion(v) => {
                write!(f, "unsupported OffsetCommitValue version {v}")
            }
            GroupRecordError::InvalidLength { field, length } => {
                write!(f, "invalid length {length} for field {field}")
            }
            GroupRecordError::MissingKey => write!(f, "the record has no key"),
        }
    }
}

impl std::error::Error for GroupRecordError {}

/// `OffsetCommitKey`: which group, topic and partition an offset belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct OffsetCommitKey {
    pub group: String,
    pub topic: String,
    pub partition: i32,
}

/// `OffsetCommitValue`: the committed offset. `leader_epoch` exists from version 3
/// (-1 = unknown), `expire_timestamp` only in version 1 (-1 = none).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OffsetCommitValue {
    pub offset: i64,
    pub leader_epoch: i32,
    pub metadata: String,
    pub commit_timestamp: i64,
    pub expire_timestamp: i64,
}

impl OffsetCommitKey {
    pub fn new(group: &str, topic: &str, partition: i32) -> Self {
        OffsetCommitKey {
            group: group.to_string(),
            topic: topic.to_string(),
            partition,
        }
    }

    /// The key bytes, record type 1.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&OFFSET_COMMIT_KEY_VERSION.to_be_bytes());
        put_string(&mut out, &self.group);
        put_string(&mut out, &self.topic);
        out.extend_from_slice(&self.partition.to_be_bytes());
        out
    }

    /// Reads a key; returns its version (record type) too. Types 0 and 1 are offset
    /// commits; anything else is [`GroupRecordError::UnknownRecordType`]. Bytes after the
    /// partition are ignored, as Kafka's reader does.
    pub fn decode(buf: &[u8]) -> Result<(i16, Self), GroupRecordError> {
        let mut r = Reader(ByteReader::new(buf));
        let version = r.i16("version")?;
        if !(0..=1).contains(&version) {
            return Err(GroupRecordError::UnknownRecordType(version));
        }
        let group = r.string("group")?;
        let topic = r.string("topic")?;
        let partition = r.i32("partition")?;
        Ok((
            version,
            OffsetCommitKey {
                group,
                topic,
                partition,
            },
        ))
    }

    /// `{"group":…,"topic":…,"partition":…}` in schema order
    /// (`OffsetCommitKeyJsonConverter`).
    pub fn to_json(&self) -> String {
        format!(
            "{{\"group\":{},\"topic\":{},\"partition\":{}}}",
            json_string(&self.group),
            json_string(&self.topic),
            self.partition
        )
    }
}

impl OffsetCommitValue {
    pub fn new(offset: i64, leader_epoch: i32, metadata: &str, commit_timestamp: i64) -> Self {
        OffsetCommitValue {
            offset,
            leader_epoch,
            metadata: metadata.to_string(),
            commit_timestamp,
            expire_timestamp: -1,
        }
    }

    /// The value bytes in the version Kafka 4.x writes (3).
    pub fn encode(&self) -> Vec<u8> {
        self.encode_version(OFFSET_COMMIT_VALUE_VERSION)
    }

    /// The value bytes in a given version (0..=3; anything else writes version 3).
    pub fn encode_version(&self, version: i16) -> Vec<u8> {
        let version = if (0..=3).contains(&version) {
            version
        } else {
            OFFSET_COMMIT_VALUE_VERSION
        };
        let mut out = Vec::new();
        out.extend_from_slice(&version.to_be_bytes());
        out.extend_from_slice(&self.offset.to_be_bytes());
        if version >= 3 {
            out.extend_from_slice(&self.leader_epoch.to_be_bytes());
        }
        put_string(&mut out, &self.metadata);
        out.extend_from_slice(&self.commit_timestamp.to_be_bytes());
        if version == 1 {
            out.extend_from_slice(&self.expire_timestamp.to_be_bytes());
        }
        out
    }

    /// Reads a value of version 0..=4; returns the version too.
    pub fn decode(buf: &[u8]) -> Result<(i16, Self), GroupRecordError> {
        let mut r = Reader(ByteReader::new(buf));
        let version = r.i16("version")?;
        if !(0..=OFFSET_COMMIT_VALUE_MAX_VERSION).contains(&version) {
            return Err(GroupRecordError::UnsupportedValueVersion(version));
        }
        let flexible = version >= 4;
        let offset = r.i64("offset")?;
        let leader_epoch = if version >= 3 {
            r.i32("leaderEpoch")?
        } else {
            -1
        };
        let metadata = if flexible {
            r.compact_string("metadata")?
        } else {
            r.string("metadata")?
        };
        let commit_timestamp = r.i64("commitTimestamp")?;
        let expire_timestamp = if version == 1 {
            r.i64("expireTimestamp")?
        } else {
            -1
        };
        if flexible {
            r.skip_tagged_fields()?;
        }
        Ok((
            version,
            OffsetCommitValue {
                offset,
                leader_epoch,
                metadata,
                commit_timestamp,
                expire_timestamp,
            },
        ))
    }

    /// The fields of `version` in schema order (`OffsetCommitValueJsonConverter`).
    pub fn to_json(&self, version: i16) -> String {
        let mut s = format!("{{\"offset\":{}", self.offset);
        if version >= 3 {
            s.push_str(&format!(",\"leaderEpoch\":{}", self.leader_epoch));
        }
        s.push_str(&format!(
            ",\"metadata\":{},\"commitTimestamp\":{}",
            json_string(&self.metadata),
            self.commit_timestamp
        ));
        if version == 1 {
            s.push_str(&format!(",\"expireTimestamp\":{}", self.expire_timestamp));
        }
        s.push('}');
        s
    }
}

/// One record as `kafka-dump-log.sh --offsets-decoder` prints it (after the record's
/// own `offset: … ` fields): `key: {"type":"1","data":{…}} payload: {"version":"3","data":{…}}`,
/// `payload: <DELETE>` for a tombstone, or Kafka's "skipping" line for what it cannot read
/// (`DumpLogSegments.OffsetsMessageParser`).
pub fn dump_log_line(key: Option<&[u8]>, value: Option<&[u8]>, offset: i64) -> String {
    let Some(key) = key else {
        return format!(
            "Failed to decode message at offset {offset} using offset topic decoder (message had a missing key)"
        );
    };
    let parsed = OffsetCommitKey::decode(key).and_then(|(kv, k)| {
        let payload = match value {
            None => "<DELETE>".to_string(),
            Some(v) => {
                let (vv, value) = OffsetCommitValue::decode(v)?;
                format!("{{\"version\":\"{vv}\",\"data\":{}}}", value.to_json(vv))
            }
        };
        Ok(format!(
            "key: {{\"type\":\"{kv}\",\"data\":{}}} payload: {payload}",
            k.to_json()
        ))
    });
    match parsed {
        Ok(line) => line,
        Err(GroupRecordError::UnknownRecordType(t)) => {
            format!("key: Unknown record type {t} at offset {offset}, skipping.")
        }
        Err(e) => format!("key: Error at offset {offset}, skipping. {e}"),
    }
}

/// One record as `kafka-console-consumer.sh --formatter OffsetsMessageFormatter` prints
/// it: `{"key":{"version":1,"data":{…}},"value":{"version":3,"data":{…}}}`; a tombstone
/// has `"value":null`, bytes it cannot read show `"unknown"`.
pub fn console_formatter_line(key: Option<&[u8]>, value: Option<&[u8]>) -> String {
    let version_of = |b: &[u8]| match b {
        [a, b, ..] => Some(i16::from_be_bytes([*a, *b])),
        _ => None,
    };
    let key_json = match key {
        None => "null".to_string(),
        Some(k) => {
            let data = match OffsetCommitKey::decode(k) {
                Ok((_, k)) => k.to_json(),
                Err(_) => "\"unknown\"".to_string(),
            };
            format!(
                "{{\"version\":{},\"data\":{data}}}",
                version_of(k).unwrap_or(-1)
            )
        }
    };
    let value_json = match value {
        None => "null".to_string(),
        Some(v) => {
            let data = match OffsetCommitValue::decode(v) {
                Ok((vv, v)) => v.to_json(vv),
                Err(_) => "\"unknown\"".to_string(),
            };
            format!(
                "{{\"version\":{},\"data\":{data}}}",
                version_of(v).unwrap_or(-1)
            )
        }
    };
    format!("{{\"key\":{key_json},\"value\":{value_json}}}")
}

fn json_string(s: &str) -> String {
    crate::util::json::quote(s)
}

/// Kafka's non-nullable `string`: i16 length, then UTF-8. Longer strings are cut at
/// i16::MAX bytes (Kafka refuses them; we never panic).
fn put_string(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    let len = bytes.len().min(i16::MAX as usize);
    out.extend_from_slice(&(len as i16).to_be_bytes());
    out.extend_from_slice(bytes.get(..len).unwrap_or(&[]));
}

/// The shared cursor; a short read names the field it was reading.
struct Reader<'a>(ByteReader<'a>);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], GroupRecordError> {
        self.0
            .take(n)
            .map_err(|_| GroupRecordError::Truncated { field })
    }

    fn i16(&mut self, field: &'static str) -> Result<i16, GroupRecordError> {
        self.0
            .i16()
            .map_err(|_| GroupRecordError::Truncated { field })
    }

    fn i32(&mut self, field: &'static str) -> Result<i32, GroupRecordError> {
        self.0
            .i32()
            .map_err(|_| GroupRecordError::Truncated { field })
    }

    fn i64(&mut self, field: &'static str) -> Result<i64, GroupRecordError> {
        self.0
            .i64()
            .map_err(|_| GroupRecordError::Truncated { field })
    }

    fn uvarint(&mut self, field: &'static str) -> Result<u32, GroupRecordError> {
        self.0
            .decode(decode_unsigned_varint)
            .map_err(|_| GroupRecordError::Truncated { field })
    }

    /// Bytes as text; like Java's `new String(bytes, UTF_8)`, bad sequences become U+FFFD.
    fn text(&mut self, len: usize, field: &'static str) -> Result<String, GroupRecordError> {
        Ok(String::from_utf8_lossy(self.take(len, field)?).into_owned())
    }

    fn string(&mut self, field: &'static str) -> Result<String, GroupRecordError> {
        let len = self.i16(field)?;
        let n = usize::try_from(len).map_err(|_| GroupRecordError::InvalidLength {
            field,
            length: i64::from(len),
        })?;
        self.text(n, field)
    }

    fn compact_string(&mut self, field: &'static str) -> Result<String, GroupRecordError> {
        let len_plus_one = self.uvarint(field)?;
        let n = len_plus_one
            .checked_sub(1)
            .ok_or(GroupRecordError::InvalidLength { field, length: -1 })?;
        let n = usize::try_from(n).map_err(|_| GroupRecordError::InvalidLength {
            field,
            length: i64::from(n),
        })?;
        self.text(n, field)
    }

    fn skip_tagged_fields(&mut self) -> Result<(), GroupRecordError> {
        let count = self.uvarint("taggedFields")?;
        for _ in 0..count {
            self.uvarint("tag")?;
            let size = self.uvarint("tagSize")?;
            let size = usize::try_from(size).map_err(|_| GroupRecordError::InvalidLength {
                field: "tagSize",
                length: i64::from(size),
            })?;
            self.take(size, "taggedField")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_bytes() {
        let k = OffsetCommitKey::new("g", "t", 2);
        assert_eq!(k.encode(), [0, 1, 0, 1, b'g', 0, 1, b't', 0, 0, 0, 2]);
        assert_eq!(OffsetCommitKey::decode(&k.encode()), Ok((1, k)));
    }

    #[test]
    fn value_bytes_v3() {
        let v = OffsetCommitValue::new(5, -1, "", 1000);
        let mut want = vec![0, 3];
        want.extend_from_slice(&5i64.to_be_bytes());
        want.extend_from_slice(&(-1i32).to_be_bytes());
        want.extend_from_slice(&[0, 0]);
        want.extend_from_slice(&1000i64.to_be_bytes());
        assert_eq!(v.encode(), want);
        assert_eq!(OffsetCommitValue::decode(&want), Ok((3, v)));
    }

    #[test]
    fn older_and_flexible_versions_decode() {
        let v = OffsetCommitValue {
            offset: 9,
            leader_epoch: -1,
            metadata: "m".to_string(),
            commit_timestamp: 5,
            expire_timestamp: 77,
        };
        let (version, back) = OffsetCommitValue::decode(&v.encode_version(1)).unwrap();
        assert_eq!((version, back), (1, v.clone()));
        assert!(v.to_json(1).ends_with(r#""expireTimestamp":77}"#));

        // Version 4: compact string (length + 1) and one tagged field to skip.
        let mut b = vec![0, 4];
        b.extend_from_slice(&9i64.to_be_bytes());
        b.extend_from_slice(&3i32.to_be_bytes());
        b.extend_from_slice(&[2, b'm']);
        b.extend_from_slice(&5i64.to_be_bytes());
        b.extend_from_slice(&[1, 0, 2, 0xAA, 0xBB]);
        let (version, back) = OffsetCommitValue::decode(&b).unwrap();
        assert_eq!(
            (version, back.leader_epoch, back.metadata.as_str()),
            (4, 3, "m")
        );
        assert_eq!(
            OffsetCommitValue::decode(&[0, 5]),
            Err(GroupRecordError::UnsupportedValueVersion(5))
        );
        assert_eq!(
            OffsetCommitKey::decode(&[0, 2, 0, 0]),
            Err(GroupRecordError::UnknownRecordType(2))
        );
        assert_eq!(
            OffsetCommitKey::decode(&[0, 1, 0xFF, 0xFF]),
            Err(GroupRecordError::InvalidLength {
                field: "group",
                length: -1
            })
        );
    }
}
