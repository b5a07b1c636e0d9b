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

pub mod group_coordinator;
pub mod record;

pub use group_coordinator::{
    GroupCoordinator, LoadSummary, OffsetAndMetadata, OffsetCommitEntry, OffsetFetchPartition,
    OffsetLogWriter, TxnCompletion, TxnOffsetCommitRecords,
};
pub use record::{
    console_formatter_line, dump_log_line, GroupRecordError, OffsetCommitKey, OffsetCommitValue,
    OFFSET_COMMIT_KEY_VERSION, OFFSET_COMMIT_VALUE_VERSION,
};

pub use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC as CONSUMER_OFFSETS_TOPIC;

/// `offsets.topic.num.partitions` (default 50, `GroupCoordinatorConfig`).
pub const DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS: i32 =
    crate::coordinator::internal_topics::INTERNAL_TOPIC_PARTITIONS;
