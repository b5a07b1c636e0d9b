//! The consumer's fetch path as a sans-IO state machine: Kafka's `KafkaConsumer` with its
//! `SubscriptionState` (positions), `FetchCollector` (which fetch answers count) and
//! `CompletedFetch` (walking the fetched batches).
//!
//! The broker does not filter anything for a consumer: it sends the segment's bytes as
//! they are, up to the high watermark (`read_uncommitted`) or the last stable offset
//! (`read_committed`), and for `read_committed` it adds the list of aborted transactions
//! that overlap the fetched range. Everything else happens here, batch by batch:
//!
//! ```text
//!  for each batch, in log order:
//!    read_committed and the batch has a producer id?
//!      move every aborted transaction with firstOffset <= batch.lastOffset
//!        into the "aborted producers" set
//!      ABORT marker of producer P?      -> remove P from the set
//!      transactional batch of P in set? -> skip it whole, position = its next offset
//!    every record at or after the position:
//!      control record?  -> never shown to the application, position moves past it
//!      data record      -> delivered, position = its offset + 1
//!  no more batches -> position = the last batch's next offset
//! ```
//!
//! Leader epochs follow KIP-320: each position keeps the epoch of the last record read
//! and the leader (and its epoch) the consumer's metadata names; Fetch and ListOffsets
//! carry that epoch, and a new leader or epoch validates the position with
//! OffsetsForLeaderEpoch before the next fetch.
//!
//! Partitions are assigned by hand (`assign`) or by the group (`subscribe`: the classic
//! protocol's JoinGroup/SyncGroup/Heartbeat in `membership`).
//!
//! Simplified: one fetch is
//! answered for one partition, there is no fetch session, no `check.crcs=false`, no
//! deserializers (keys and values stay bytes), and only manual offset commits (see
//! [`crate::coordinator::group`]).
//!
//! The files: `config` (`ConsumerConfig`), `completed_fetch` (one partition's fetched
//! bytes, walked as above), `event` (what the application and the narration get) and
//! `kafka_consumer` (the `Consumer`: assignment, positions, fetches) and `membership`
//! (`ConsumerCoordinator`'s group protocol).

mod completed_fetch;
mod config;
mod event;
mod group_metadata;
mod kafka_consumer;
#[cfg(feature = "group-membership")]
mod membership;

pub use completed_fetch::{AbortedTransaction, CompletedFetch, FetchPartitionData};
pub use config::{ConsumerConfig, IsolationLevel, OffsetResetStrategy, DEFAULT_MAX_POLL_RECORDS};
pub use event::{
    summary_line, ConsumerEvent, ConsumerException, ConsumerRecord, CorruptBatch, PositionReason,
};
pub use group_metadata::ConsumerGroupMetadata;
pub use kafka_consumer::{Consumer, FetchTarget, PartitionState, ResetTarget, ValidationTarget};
#[cfg(feature = "group-membership")]
pub use membership::{
    ConsumerMembership, MemberState, MemberStep, DEFAULT_HEARTBEAT_INTERVAL_MS,
    DEFAULT_MAX_POLL_INTERVAL_MS, DEFAULT_SESSION_TIMEOUT_MS,
};
