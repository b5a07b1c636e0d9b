//! What a broker did and why, as data: every decision a learner should see, with the
//! numbers that explain it. The catalog (`crate::i18n`) words it.

use serde::Serialize;

use super::broker::SeqRange;
use crate::coordinator::transaction::CoordinatorEvent;
use crate::log::{
    LogStartOffsetIncrementReason, RecoveryReport, SegmentDeletionReason, SeqDirection,
    TopicPartition,
};
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;

/// What a broker did, for narration and the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum BrokerEvent {
    /// A batch passed the checks and was written.
    BatchAppended {
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        first_seq: i32,
        last_seq: i32,
        first_offset: i64,
        last_offset: i64,
        log_end_offset: i64,
        window: Vec<SeqRange>,
    },
    /// A retry of a batch in the window: success with the original offsets, nothing written.
    BatchDuplicate {
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        first_seq: i32,
        last_seq: i32,
        first_offset: i64,
        last_offset: i64,
        log_end_offset: i64,
        window: Vec<SeqRange>,
    },
    /// A batch refused by a producer-state check or validation.
    BatchRejected {
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        first_seq: i32,
        last_seq: i32,
        error: Errors,
        expected_seq: Option<i32>,
        /// For OUT_OF_ORDER_SEQUENCE_NUMBER: a gap (ahead) or a stale retry (behind).
        seq_direction: Option<SeqDirection>,
        current_epoch: Option<i16>,
        detail: ErrorDetail,
        log_end_offset: i64,
    },
    /// `producer.id.expiration.ms` passed since these producers' last batches (and no
    /// transaction of theirs is open here): the partition forgot them.
    ProducersExpired {
        tp: TopicPartition,
        producer_ids: Vec<i64>,
        expiration_ms: i64,
    },
    /// The log start offset moved (DeleteRecords, a follower copying its leader, or
    /// segments deleted): reads below `to` get OFFSET_OUT_OF_RANGE.
    LogStartOffsetIncremented {
        tp: TopicPartition,
        from: i64,
        to: i64,
        reason: LogStartOffsetIncrementReason,
    },
    /// The retention check deleted whole segments with their index, `.txnindex` and
    /// snapshot files (`rolled_segment`: every segment went, so one was rolled first).
    SegmentsDeleted {
        tp: TopicPartition,
        reason: SegmentDeletionReason,
        segments: Vec<i64>,
        log_start_offset: i64,
        rolled_segment: Option<i64>,
    },
    /// One pass of the log cleaner over a compacted partition (`clean TOPIC-P`).
    LogCleaned {
        tp: TopicPartition,
        stats: crate::log::CleanerStats,
        bounded_by_lso: bool,
    },
    /// The log cleaner found no segment below the first uncleanable offset.
    NothingToClean {
        tp: TopicPartition,
        first_uncleanable_offset: i64,
        bounded_by_lso: bool,
    },
    /// A producer-state snapshot taken by hand (`snapshot TOPIC-P`).
    SnapshotTaken {
        tp: TopicPartition,
        offset: i64,
        snapshot: String,
    },
    /// A follower's log truncated by hand (`truncate broker-N TOPIC-P offset=N`).
    LogTruncated {
        tp: TopicPartition,
        from: i64,
        to: i64,
        removed_batches: usize,
    },
    /// A disk fault flipped one byte of a file (`fault corrupt broker-N PATH`).
    FileCorrupted {
        path: String,
        position: u64,
    },
    /// The active segment was full: a new one starts at `base_offset`.
    SegmentRolled {
        tp: TopicPartition,
        base_offset: i64,
        snapshot: Option<String>,
    },
    /// No producer-id block yet: the client must retry.
    ProducerIdNotReady {
        asked_controller: bool,
    },
    ProducerIdBlockReceived {
        first: i64,
        last: i64,
    },
    ProducerIdAssigned {
        producer_id: i64,
        producer_epoch: i16,
    },
    /// The broker stopped; a clean stop snapshots producer state.
    Stopped {
        clean: bool,
        snapshots: Vec<String>,
    },
    /// A transactional batch waits while the coordinator adds its partition (TV2).
    TransactionVerification {
        tp: TopicPartition,
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        coordinator: i32,
    },
    /// Before TV2, with `transaction.partition.verification.enable`: the batch waits
    /// while the leader asks the coordinator whether the client added the partition.
    PartitionVerification {
        tp: TopicPartition,
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        coordinator: i32,
    },
    /// Before TV2: the coordinator said the partition is not in the producer's
    /// transaction (or refused the producer); the batch is not written.
    PartitionNotVerified {
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        error: Errors,
    },
    /// WriteTxnMarkers wrote a COMMIT/ABORT control batch.
    MarkerWritten {
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        kind: String,
        offset: i64,
        txn_first_offset: Option<i64>,
        last_stable_offset: i64,
        high_watermark: i64,
    },
    /// A WriteTxnMarkers lost its connection (its leader died, or no answer within
    /// `request.timeout.ms`): the coordinator sends the markers again to each
    /// partition's current leader.
    MarkersRequeued {
        transactional_id: String,
        leader: i32,
        partitions: Vec<TopicPartition>,
    },
    /// These partitions have no live leader now: their markers wait until the
    /// metadata names one.
    MarkersAwaitLeader {
        transactional_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// These partitions' topic was deleted: their markers are skipped and they leave
    /// the transaction, as if written.
    MarkersSkippedForDeletedPartitions {
        transactional_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// The leaders of these partitions refused the markers with NOT_ENOUGH_REPLICAS
    /// (their ISR is below `min.insync.replicas`): the markers wait until the
    /// partition's ISR or leader changes.
    MarkersAwaitIsr {
        transactional_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// A marker refused (its epoch is not newer than the transaction's, an older
    /// coordinator's, or the ISR is below `min.insync.replicas`).
    MarkerRejected {
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        error: Errors,
        detail: ErrorDetail,
    },
    /// This broker now leads an internal partition and loads it for its coordinator:
    /// `records` to read take `load_ms`; meanwhile its requests get
    /// COORDINATOR_LOAD_IN_PROGRESS.
    CoordinatorLoadStarted {
        tp: TopicPartition,
        coordinator_epoch: i32,
        records: i64,
        load_ms: i64,
    },
    /// The load ended: the coordinator serves the partition's ids or groups again.
    CoordinatorLoadCompleted {
        tp: TopicPartition,
        coordinator_epoch: i32,
    },
    /// Something the transaction coordinator did (state change, fence, timeout, load).
    Coordinator(CoordinatorEvent),
    /// Something the group coordinator did (membership, rebalances, refused commits).
    Group(crate::coordinator::group::GroupEvent),
    /// Something replication did (follower fetch, ISR, HW, role, truncation).
    Replication(super::partition::ReplicationEvent),
    /// A partition was opened at start-up and its producer state rebuilt: from a
    /// snapshot plus the log after it (`report.snapshot_loaded`), or from the log alone.
    Recovered {
        tp: TopicPartition,
        report: RecoveryReport,
        windows: Vec<(i64, Vec<SeqRange>)>,
        /// Each producer's window size (batches) when the broker stopped, so the
        /// narration can say why a window came back smaller (a snapshot keeps one).
        windows_before: Vec<(i64, usize)>,
    },
}
