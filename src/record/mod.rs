//! Kafka's record batch format v2 (magic 2), byte for byte: what producers
//! send in Produce requests, what a partition's `.log` segment holds and what
//! consumers fetch. Only uncompressed batches are supported.
//!
//! Mirrors `org.apache.kafka.common.record` (`DefaultRecordBatch`,
//! `DefaultRecord`, `ControlRecordType`, `EndTransactionMarker`).

pub mod batch;
pub mod bytes;
pub mod control;
pub mod crc32c;
pub mod default_record;
pub mod dump;
pub mod error;
pub mod text;
pub mod varint;

pub use batch::{
    decode_all, header_summary, increment_sequence, set_base_offset, set_partition_leader_epoch,
    split_batches, BatchView, KeyValue, RecordBatch, TimestampType,
};
pub use bytes::Bytes;
pub use control::{ControlRecordType, EndTransactionMarker};
pub use default_record::{Header, HeaderView, Record, RecordView};
pub use dump::{batch_line, codec_name, header_fields, record_line, BatchLine, HeaderField};
pub use error::RecordError;
pub use text::{key_value, record_text};

/// The only batch format we speak (Kafka's `RecordBatch.MAGIC_VALUE_V2`).
pub const MAGIC_V2: i8 = 2;
/// Size of a batch header: everything before the first record.
pub const RECORD_BATCH_OVERHEAD: usize = 61;
/// baseOffset + batchLength: the part of the header that batchLength does not
/// count (Kafka's `Records.LOG_OVERHEAD`).
pub const LOG_OVERHEAD: usize = 12;
/// producerId of a batch from a producer that is neither idempotent nor transactional.
pub const NO_PRODUCER_ID: i64 = -1;
/// producerEpoch that goes with [`NO_PRODUCER_ID`].
pub const NO_PRODUCER_EPOCH: i16 = -1;
/// baseSequence of a non-idempotent batch (and of every control batch).
pub const NO_SEQUENCE: i32 = -1;
/// partitionLeaderEpoch before a leader has stamped the batch.
pub const NO_PARTITION_LEADER_EPOCH: i32 = -1;

/// Attribute bits (Kafka's `DefaultRecordBatch` masks).
pub const COMPRESSION_CODEC_MASK: i16 = 0x07;
pub const TIMESTAMP_TYPE_MASK: i16 = 0x08;
pub const TRANSACTIONAL_FLAG_MASK: i16 = 0x10;
pub const CONTROL_FLAG_MASK: i16 = 0x20;
pub const DELETE_HORIZON_FLAG_MASK: i16 = 0x40;
