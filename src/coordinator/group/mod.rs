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
//! Membership (classic protocol): JoinGroup, SyncGroup, Heartbeat and LeaveGroup move a
//! group through Empty → PreparingRebalance → CompletingRebalance → Stable, each
//! completed join a new generation; OffsetCommit and TxnOffsetCommit are checked against
//! it (KIP-447). A consumer that assigns partitions itself commits as a "simple" group
//! (generation -1, no member id).
//!
//! Simplified: no offset expiration or retention, no group metadata records (membership
//! lives in memory), no static membership, no consumer (KIP-848) groups.

pub mod classic_group;
pub mod commit_check;
pub mod group_coordinator;
#[cfg(feature = "group-membership")]
pub mod membership;
pub mod record;

pub use classic_group::{range_assign, ClassicGroup, ClassicGroupMember, ClassicGroupState};
pub use commit_check::{CommitMember, GroupEvent};
#[cfg(feature = "group-membership")]
pub use commit_check::{RebalanceReason, RemovalReason};
#[cfg(feature = "group-membership")]
pub use membership::{GroupOutput, JoinGroupArgs};

/// `group.initial.rebalance.delay.ms` (Kafka's default 3 s).
pub const DEFAULT_INITIAL_REBALANCE_DELAY_MS: i64 = 3_000;

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
