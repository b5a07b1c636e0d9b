//! Consumer group offsets: which partition of `__consumer_offsets` holds a group, the
//! OffsetCommit records written there (Kafka's bytes), and the offsets part of the group
//! coordinator — plain and transactional commits, OffsetFetch, and rebuilding the state
//! from the log.
//!
//! ```text
//!  OffsetCommit     ──► record (key: group/topic/partition, value: offset…) ──► committed
//!  TxnOffsetCommit  ──► record in the producer's transactional batch ──► PENDING
//!                        COMMIT marker ──► pending offsets materialised
//!                        ABORT marker  ──► pending offsets dropped
//!  OffsetFetch(require_stable) on a pending partition ──► UNSTABLE_OFFSET_COMMIT
//! ```
//!
//! Simplified: no membership, generations or rebalances (a consumer assigns partitions
//! itself, as a "simple" group), no offset expiration or retention, no group metadata
//! records.

pub mod coordinator;
pub mod record;

pub use coordinator::{
    GroupCoordinator, LoadSummary, OffsetAndMetadata, OffsetCommitEntry, OffsetFetchPartition,
    OffsetLogWriter, TxnCompletion, TxnOffsetCommitRecords,
};
pub use record::{
    console_formatter_line, dump_log_line, GroupRecordError, OffsetCommitKey, OffsetCommitValue,
    OFFSET_COMMIT_KEY_VERSION, OFFSET_COMMIT_VALUE_VERSION,
};

pub use crate::internal_topics::{
    java_string_hash, kafka_abs, partition_for, GROUP_METADATA_TOPIC as CONSUMER_OFFSETS_TOPIC,
};

/// `offsets.topic.num.partitions` (default 50, `GroupCoordinatorConfig`).
pub const DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS: i32 =
    crate::internal_topics::INTERNAL_TOPIC_PARTITIONS;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_matches_java() {
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        // "hello".hashCode() == 99162322 in Java.
        assert_eq!(java_string_hash("hello"), 99_162_322);
        // Characters outside the BMP count as two UTF-16 units.
        assert_eq!(
            java_string_hash("😀"),
            0xD83Di32.wrapping_mul(31).wrapping_add(0xDE00)
        );
        // The seed: "u12-txn" lands on partition 23 of 50 (same formula for
        // __transaction_state).
        assert_eq!(partition_for("u12-txn", 50), 23);
        assert_eq!(kafka_abs(i32::MIN), 0);
        assert_eq!(partition_for("g", 0), 0);
    }
}
