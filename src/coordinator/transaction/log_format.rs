//! The records of `__transaction_state`, byte for byte: key = `TransactionLogKey`,
//! value = `TransactionLogValue` (Kafka's `TransactionLog.keyToBytes` /
//! `valueToBytes` / `read`, schemas `TransactionLogKey.json` and
//! `TransactionLogValue.json`). The JSON that `kafka-dump-log.sh
//! --transaction-log-decoder` prints for them is in [`super::message_formatter`].
//!
//! Key: `int16` record type (0 = TRANSACTION_LOG, also the key "version"), then the
//! non-flexible `TransactionalId` string (`int16` length + UTF-8).
//!
//! Value: `int16` version, then the fields. Kafka 4.x with transaction.version ≥ 1
//! writes version 1, which is *flexible*: compact arrays/strings (`uvarint(n+1)`,
//! 0 = null) and a tagged-field section at the end of every struct. Tagged fields
//! are only written when they differ from their default, and the JSON converter
//! only prints them under the same condition. That is why the first `Empty`
//! record of seed 000 has no `lastProducerEpoch` (it is -1) and no
//! `clientTransactionVersion` (a new transactional id starts at TV0), while the
//! later ones do.
//!
//! | tag | field | default | notes |
//! |---|---|---|---|
//! | 0 | PreviousProducerId | -1 | written since KAFKA-20310 |
//! | 1 | NextProducerId | -1 | written since KAFKA-20310 |
//! | 2 | ClientTransactionVersion | 0 | |
//! | 3 | NextProducerEpoch | -1 | KIP-939 (2PC); never written by us |
//! | 4 | LastProducerEpoch | -1 | KAFKA-20357; tag number inferred, see below |
//!
//! The JSON prints fields in schema order: producerId, previousProducerId,
//! nextProducerId, nextProducerEpoch, lastProducerEpoch, producerEpoch, … — the
//! seed's output puts `lastProducerEpoch` between `previousProducerId` and
//! `producerEpoch`. The tag number 4 for `LastProducerEpoch` is our inference
//! (the next free tag); the seed only shows JSON, not bytes.

use crate::util::bytes::{ByteReader, Short};
use crate::util::sorted_map::SortedMap;

use serde::Serialize;

pub use super::message_formatter::{key_json, payload_json, value_json};
use super::metadata::TxnTransitMetadata;
use super::state::TransactionState;
use crate::record::varint::{decode_unsigned_varint, encode_unsigned_varint};
use crate::record::{NO_PRODUCER_EPOCH, NO_PRODUCER_ID};

/// `CoordinatorRecordType.TRANSACTION_LOG`: the key's leading `int16`.
pub const TRANSACTION_LOG_KEY_TYPE: i16 = 0;
/// Highest `TransactionLogValue` version (the flexible one).
pub const HIGHEST_VALUE_VERSION: i16 = 1;

const TAG_PREVIOUS_PRODUCER_ID: u32 = 0;
const TAG_NEXT_PRODUCER_ID: u32 = 1;
const TAG_CLIENT_TRANSACTION_VERSION: u32 = 2;
const TAG_NEXT_PRODUCER_EPOCH: u32 = 3;
const TAG_LAST_PRODUCER_EPOCH: u32 = 4;

/// Why bytes are not a transaction log key or value (Kafka throws from the
/// generated readers; we return this instead).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TxnLogError {
    /// The bytes end early.
    Truncated { needed: usize, available: usize },
    /// The key's leading type is not 0 (Kafka's `UnknownKeyVersion`).
    UnknownKeyVersion(i16),
    /// The value version is outside 0..=1 (Kafka's `UnknownValueVersion`).
    UnknownValueVersion(i16),
    /// A negative length where one is not allowed, or a null non-nullable field.
    InvalidLength { field: &'static str, length: i64 },
    /// A string that is not UTF-8.
    InvalidUtf8 { field: &'static str },
    /// A malformed unsigned varint.
    InvalidVarint,
    /// A known tagged field with the wrong size.
    InvalidTaggedField { tag: u32, size: usize },
}

impl std::fmt::Display for TxnLogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TxnLogError::Truncated { needed, available } => {
                write!(f, "truncated: needed {needed} bytes, {available} available")
            }
            TxnLogError::UnknownKeyVersion(v) => {
                write!(
                    f,
                    "unknown version {v} from the transaction log message key"
                )
            }
            TxnLogError::UnknownValueVersion(v) => {
                write!(
                    f,
                    "unknown version {v} from the transaction log message value"
                )
            }
            TxnLogError::InvalidLength { field, length } => {
                write!(f, "invalid length {length} for {field}")
            }
            TxnLogError::InvalidUtf8 { field } => write!(f, "{field} is not valid UTF-8"),
            TxnLogError::InvalidVarint => f.write_str("malformed unsigned varint"),
            TxnLogError::InvalidTaggedField { tag, size } => {
                write!(f, "tagged field {tag} has unexpected size {size}")
            }
        }
    }
}

impl std::error::Error for TxnLogError {}

/// One topic's partitions in a transaction (`TransactionLogValue.PartitionsSchema`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionsSchema {
    pub topic: String,
    pub partition_ids: Vec<i32>,
}

/// The value of a `__transaction_state` record (generated `TransactionLogValue`),
/// with the version it was read or will be written with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransactionLogValue {
    pub version: i16,
    pub producer_id: i64,
    pub previous_producer_id: i64,
    pub next_producer_id: i64,
    pub next_producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub producer_epoch: i16,
    pub transaction_timeout_ms: i32,
    /// `TransactionState::id()`; kept raw so an unknown id still decodes.
    pub transaction_status: i8,
    /// `None` for `Empty` (Kafka writes null there).
    pub transaction_partitions: Option<Vec<PartitionsSchema>>,
    pub transaction_last_update_timestamp_ms: i64,
    pub transaction_start_timestamp_ms: i64,
    pub client_transaction_version: i16,
}

impl TransactionLogValue {
    /// `TransactionLog.valueToBytes`' mapping from a transition target. Partitions
    /// are grouped by topic, sorted (Kafka's order follows its `HashMap`).
    /// `log_value_version` is `TransactionVersion::transaction_log_value_version()`
    /// of the cluster's finalized transaction.version.
    pub fn from_transit(t: &TxnTransitMetadata, log_value_version: i16) -> Self {
        let partitions = if t.txn_state == TransactionState::Empty {
            None
        } else {
            let mut by_topic: SortedMap<&str, Vec<i32>> = SortedMap::new();
            for tp in &t.topic_partitions {
                by_topic.entry(&tp.topic).or_default().push(tp.partition);
            }
            Some(
                by_topic
                    .into_iter()
                    .map(|(topic, partition_ids)| PartitionsSchema {
                        topic: topic.to_string(),
                        partition_ids,
                    })
                    .collect(),
            )
        };
        let flexible = log_value_version >= 1;
        TransactionLogValue {
            version: log_value_version,
            producer_id: t.producer_id,
            // Tagged fields exist only in the flexible version.
            previous_producer_id: if flexible {
                t.prev_producer_id
            } else {
                NO_PRODUCER_ID
            },
            next_producer_id: if flexible {
                t.next_producer_id
            } else {
                NO_PRODUCER_ID
            },
            next_producer_epoch: NO_PRODUCER_EPOCH,
            last_producer_epoch: if flexible {
                t.last_producer_epoch
            } else {
                NO_PRODUCER_EPOCH
            },
            producer_epoch: t.producer_epoch,
            transaction_timeout_ms: t.txn_timeout_ms,
            transaction_status: t.txn_state.id(),
            transaction_partitions: partitions,
            transaction_last_update_timestamp_ms: t.txn_last_update_timestamp,
            transaction_start_timestamp_ms: t.txn_start_timestamp,
            client_transaction_version: if flexible {
                t.client_transaction_version.feature_level()
            } else {
                0
            },
        }
    }

    /// The state, if the status byte is a known one.
    pub fn state(&self) -> Option<TransactionState> {
        TransactionState::from_id(self.transaction_status)
    }
}

// ---------------------------------------------------------------- encoding

fn put_i16(out: &mut Vec<u8>, v: i16) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_i64(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&v.to_be_bytes());
}
fn put_uvarint(out: &mut Vec<u8>, v: usize) {
    encode_unsigned_varint(u32::try_from(v).unwrap_or(u32::MAX), out);
}

/// `TransactionLog.keyToBytes`: the record key for a transactional id.
pub fn key_to_bytes(transactional_id: &str) -> Vec<u8> {
    let bytes = transactional_id.as_bytes();
    let len = bytes.len().min(i16::MAX as usize);
    let mut out = Vec::with_capacity(4 + len);
    put_i16(&mut out, TRANSACTION_LOG_KEY_TYPE);
    put_i16(&mut out, len as i16);
    out.extend_from_slice(&bytes[..len]);
    out
}

/// `MessageUtil.toVersionPrefixedBytes(version, value)`.
pub fn value_to_bytes(v: &TransactionLogValue) -> Vec<u8> {
    let flexible = v.version >= 1;
    let mut out = Vec::with_capacity(64);
    put_i16(&mut out, v.version);
    put_i64(&mut out, v.producer_id);
    put_i16(&mut out, v.producer_epoch);
    put_i32(&mut out, v.transaction_timeout_ms);
    out.push(v.transaction_status as u8);
    match &v.transaction_partitions {
        None if flexible => put_uvarint(&mut out, 0),
        None => put_i32(&mut out, -1),
        Some(list) => {
            if flexible {
                put_uvarint(&mut out, list.len() + 1);
            } else {
                put_i32(&mut out, list.len() as i32);
            }
            for p in list {
                let topic = p.topic.as_bytes();
                if flexible {
                    put_uvarint(&mut out, topic.len() + 1);
                } else {
                    put_i16(&mut out, topic.len().min(i16::MAX as usize) as i16);
                }
                out.extend_from_slice(topic);
                if flexible {
                    put_uvarint(&mut out, p.partition_ids.len() + 1);
                } else {
                    put_i32(&mut out, p.partition_ids.len() as i32);
                }
                for id in &p.partition_ids {
                    put_i32(&mut out, *id);
                }
                if flexible {
                    put_uvarint(&mut out, 0); // no tagged fields in PartitionsSchema
                }
            }
        }
    }
    put_i64(&mut out, v.transaction_last_update_timestamp_ms);
    put_i64(&mut out, v.transaction_start_timestamp_ms);
    if flexible {
        // Tagged fields, in tag order, only when not default.
        let mut tagged: Vec<(u32, Vec<u8>)> = Vec::new();
        if v.previous_producer_id != NO_PRODUCER_ID {
            tagged.push((
                TAG_PREVIOUS_PRODUCER_ID,
                v.previous_producer_id.to_be_bytes().to_vec(),
            ));
        }
        if v.next_producer_id != NO_PRODUCER_ID {
            tagged.push((
                TAG_NEXT_PRODUCER_ID,
                v.next_producer_id.to_be_bytes().to_vec(),
            ));
        }
        if v.client_transaction_version != 0 {
            tagged.push((
                TAG_CLIENT_TRANSACTION_VERSION,
                v.client_transaction_version.to_be_bytes().to_vec(),
            ));
        }
        if v.next_producer_epoch != NO_PRODUCER_EPOCH {
            tagged.push((
                TAG_NEXT_PRODUCER_EPOCH,
                v.next_producer_epoch.to_be_bytes().to_vec(),
            ));
        }
        if v.last_producer_epoch != NO_PRODUCER_EPOCH {
            tagged.push((
                TAG_LAST_PRODUCER_EPOCH,
                v.last_producer_epoch.to_be_bytes().to_vec(),
            ));
        }
        put_uvarint(&mut out, tagged.len());
        for (tag, data) in tagged {
            put_uvarint(&mut out, tag as usize);
            put_uvarint(&mut out, data.len());
            out.extend_from_slice(&data);
        }
    }
    out
}

// ---------------------------------------------------------------- decoding

/// The shared cursor, plus the Kafka message-schema reads this format needs.
struct Reader<'a>(ByteReader<'a>);

impl<'a> std::ops::Deref for Reader<'a> {
    type Target = ByteReader<'a>;
    fn deref(&self) -> &ByteReader<'a> {
        &self.0
    }
}

impl std::ops::DerefMut for Reader<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl From<Short> for TxnLogError {
    fn from(s: Short) -> Self {
        TxnLogError::Truncated {
            needed: s.needed,
            available: s.available,
        }
    }
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Reader(ByteReader::new(buf))
    }

    fn uvarint(&mut self) -> Result<u32, TxnLogError> {
        self.0.decode(|rest| {
            decode_unsigned_varint(rest).map_err(|e| match e {
                crate::record::RecordError::Truncated { needed, available } => {
                    TxnLogError::Truncated { needed, available }
                }
                _ => TxnLogError::InvalidVarint,
            })
        })
    }

    /// An element count that must fit in the remaining bytes (each element ≥ `min_size`).
    fn check_count(
        &self,
        field: &'static str,
        n: i64,
        min_size: usize,
    ) -> Result<usize, TxnLogError> {
        if n < 0 {
            return Err(TxnLogError::InvalidLength { field, length: n });
        }
        let n = n as usize;
        if n.saturating_mul(min_size) > self.remaining() {
            return Err(TxnLogError::Truncated {
                needed: n.saturating_mul(min_size),
                available: self.remaining(),
            });
        }
        Ok(n)
    }

    fn string(&mut self, field: &'static str, flexible: bool) -> Result<String, TxnLogError> {
        let len: i64 = if flexible {
            i64::from(self.uvarint()?) - 1
        } else {
            i64::from(self.i16()?)
        };
        let n = self.check_count(field, len, 1)?;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| TxnLogError::InvalidUtf8 { field })
    }

    fn skip_tagged_fields(&mut self) -> Result<(), TxnLogError> {
        let n = self.uvarint()?;
        for _ in 0..n {
            let _tag = self.uvarint()?;
            let size = self.uvarint()? as usize;
            self.take(size)?;
        }
        Ok(())
    }
}

/// `TransactionLog.read`'s key half: the transactional id.
pub fn decode_key(bytes: &[u8]) -> Result<String, TxnLogError> {
    let mut r = Reader::new(bytes);
    let version = r.i16()?;
    if version != TRANSACTION_LOG_KEY_TYPE {
        return Err(TxnLogError::UnknownKeyVersion(version));
    }
    r.string("transactionalId", false)
}

/// Decodes a record value (version prefix included).
pub fn decode_value(bytes: &[u8]) -> Result<TransactionLogValue, TxnLogError> {
    let mut r = Reader::new(bytes);
    let version = r.i16()?;
    if !(0..=HIGHEST_VALUE_VERSION).contains(&version) {
        return Err(TxnLogError::UnknownValueVersion(version));
    }
    let flexible = version >= 1;
    let producer_id = r.i64()?;
    let producer_epoch = r.i16()?;
    let transaction_timeout_ms = r.i32()?;
    let transaction_status = r.i8()?;
    let count: i64 = if flexible {
        i64::from(r.uvarint()?) - 1
    } else {
        i64::from(r.i32()?)
    };
    let transaction_partitions = if count < 0 {
        None
    } else {
        // Each entry is at least a length, an array length (and a tag count).
        let n = r.check_count("transactionPartitions", count, if flexible { 3 } else { 6 })?;
        let mut list = Vec::with_capacity(n);
        for _ in 0..n {
            let topic = r.string("topic", flexible)?;
            let ids: i64 = if flexible {
                i64::from(r.uvarint()?) - 1
            } else {
                i64::from(r.i32()?)
            };
            let m = r.check_count("partitionIds", ids, 4)?;
            let mut partition_ids = Vec::with_capacity(m);
            for _ in 0..m {
                partition_ids.push(r.i32()?);
            }
            if flexible {
                r.skip_tagged_fields()?;
            }
            list.push(PartitionsSchema {
                topic,
                partition_ids,
            });
        }
        Some(list)
    };
    let mut v = TransactionLogValue {
        version,
        producer_id,
        previous_producer_id: NO_PRODUCER_ID,
        next_producer_id: NO_PRODUCER_ID,
        next_producer_epoch: NO_PRODUCER_EPOCH,
        last_producer_epoch: NO_PRODUCER_EPOCH,
        producer_epoch,
        transaction_timeout_ms,
        transaction_status,
        transaction_partitions,
        transaction_last_update_timestamp_ms: r.i64()?,
        transaction_start_timestamp_ms: r.i64()?,
        client_transaction_version: 0,
    };
    if flexible {
        let n = r.uvarint()?;
        for _ in 0..n {
            let tag = r.uvarint()?;
            let size = r.uvarint()? as usize;
            let data = r.take(size)?;
            let want = match tag {
                TAG_PREVIOUS_PRODUCER_ID | TAG_NEXT_PRODUCER_ID => 8,
                TAG_CLIENT_TRANSACTION_VERSION
                | TAG_NEXT_PRODUCER_EPOCH
                | TAG_LAST_PRODUCER_EPOCH => 2,
                _ => continue, // unknown tags are skipped, as Kafka keeps them opaque
            };
            if size != want {
                return Err(TxnLogError::InvalidTaggedField { tag, size });
            }
            let mut sub = Reader::new(data);
            match tag {
                TAG_PREVIOUS_PRODUCER_ID => v.previous_producer_id = sub.i64()?,
                TAG_NEXT_PRODUCER_ID => v.next_producer_id = sub.i64()?,
                TAG_CLIENT_TRANSACTION_VERSION => v.client_transaction_version = sub.i16()?,
                TAG_NEXT_PRODUCER_EPOCH => v.next_producer_epoch = sub.i16()?,
                _ => v.last_producer_epoch = sub.i16()?,
            }
        }
    }
    Ok(v)
}

#[cfg(test)]
mod tests;
