//! The partition log (Kafka's `UnifiedLog` with its `LocalLog`): segments on the
//! in-memory disk, producer state, the log end offset (LEO) and high watermark (HW),
//! roll, producer snapshots, and recovery when a broker starts.
//!
//! A single-replica log moves its HW with its LEO (an ISR of one); a replicated log's
//! HW is set by its partition (the leader from the ISR's LEOs, a follower from the
//! leader's fetch answers), see [`UnifiedLog::set_replicated`]. The log start offset
//! moves by DeleteRecords and retention (`unified_log/retention.rs`); a compacted
//! log is cleaned by `unified_log/cleaner.rs`.

use serde::Serialize;

use super::producer_state::{
    BatchMetadata, MarkerCheck, ProducerCheck, ProducerCheckError, ProducerStateManager,
};
use super::segment::{file_name, offset_from_file_name, LogSegment};
use super::transaction_index::{check_append_order, in_append_order, AbortedTxn};
use crate::fs::{FsError, MemFs};
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;
pub use crate::protocol::{FetchIsolation, TopicPartition};
use crate::record::{decode_all, set_base_offset, ControlRecordType, RecordBatch, RecordError};

/// The log settings a learner can change (Kafka's `LogConfig`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogConfig {
    /// `segment.bytes`: roll to a new segment when the next batch would not fit.
    pub segment_bytes: u64,
    /// `index.interval.bytes`: bytes between two offset-index entries.
    pub index_interval_bytes: u64,
    /// `max.message.bytes`: the largest batch the broker accepts.
    pub max_message_bytes: u64,
    /// Playground switch (not a Kafka config): write producer-state snapshots. Off
    /// shows the limit of a broker that rebuilds from its last segment only.
    pub producer_snapshots: bool,
    /// `producer.id.expiration.ms` (broker-wide, 1 day): how long a producer without an
    /// open transaction is remembered after its last batch.
    pub producer_id_expiration_ms: i64,
    /// `producer.id.expiration.check.interval.ms` (broker-wide, 10 min): how often
    /// the log looks for expired producers (`PeriodicProducerExpirationCheck`).
    pub producer_id_expiration_check_interval_ms: i64,
    /// `cleanup.policy` includes `delete` (the default): retention applies and
    /// DeleteRecords is allowed. `compact` alone: neither.
    pub cleanup_policy_delete: bool,
    /// `cleanup.policy` includes `compact`: the log cleaner may clean this log
    /// (`cleaner.rs`), and the leader refuses records without a key.
    pub cleanup_policy_compact: bool,
    /// `delete.retention.ms` (1 day): how long the cleaner keeps a tombstone, or the
    /// marker of a transaction whose data is gone, after it first found it so.
    pub delete_retention_ms: i64,
    /// `retention.ms` (7 days; -1 keeps everything): segments whose largest
    /// timestamp is older are deleted by the retention check.
    pub retention_ms: i64,
    /// `retention.bytes` (-1, no limit): the oldest segments go while the log is
    /// larger than this by at least their size.
    pub retention_bytes: i64,
    /// `log.retention.check.interval.ms` (broker-wide, 5 min): how often
    /// `LogManager.cleanupLogs` runs `deleteOldSegments`.
    pub retention_check_interval_ms: i64,
    /// NOT KAFKA: the "break it" switches this partition follows (all off: Kafka).
    pub breaks: crate::breaks::Breaks,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            segment_bytes: 1024 * 1024 * 1024,
            index_interval_bytes: 4096,
            max_message_bytes: 1_048_588,
            producer_snapshots: true,
            producer_id_expiration_ms: 86_400_000,
            producer_id_expiration_check_interval_ms: 600_000,
            cleanup_policy_delete: true,
            cleanup_policy_compact: false,
            delete_retention_ms: 86_400_000,
            retention_ms: 7 * 24 * 3_600_000,
            retention_bytes: -1,
            retention_check_interval_ms: 300_000,
            breaks: crate::breaks::Breaks::default(),
        }
    }
}

/// What happened to a batch handed to [`UnifiedLog::append_as_leader`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum AppendOutcome {
    /// Written at these offsets.
    Appended {
        first_offset: i64,
        last_offset: i64,
        position: u64,
    },
    /// A retry of a batch in the window: nothing written, the original offsets returned.
    Duplicate(BatchMetadata),
}

/// The result of a successful append (Kafka's `LogAppendInfo`, trimmed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogAppendInfo {
    pub outcome: AppendOutcome,
    /// Set when this append rolled a new segment (its base offset).
    pub rolled_segment: Option<i64>,
    /// The snapshot file written by that roll, if any.
    pub snapshot_written: Option<String>,
}

impl LogAppendInfo {
    pub fn first_offset(&self) -> i64 {
        match &self.outcome {
            AppendOutcome::Appended { first_offset, .. } => *first_offset,
            AppendOutcome::Duplicate(m) => m.first_offset(),
        }
    }
}

/// Why an append was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum AppendError {
    /// Refused by the producer-state checks (sequence or epoch).
    Producer(ProducerCheckError),
    /// Refused before the producer checks: bad batch, too large, or a disk error.
    Invalid { error: Errors, detail: ErrorDetail },
}

impl AppendError {
    pub fn error(&self) -> Errors {
        match self {
            AppendError::Producer(e) => e.error,
            AppendError::Invalid { error, .. } => *error,
        }
    }
    /// Which check refused, with its numbers.
    pub fn detail(&self) -> &ErrorDetail {
        match self {
            AppendError::Producer(e) => &e.detail,
            AppendError::Invalid { detail, .. } => detail,
        }
    }
}

fn storage_error(e: FsError) -> AppendError {
    AppendError::Invalid {
        error: Errors::UnknownServerError,
        detail: ErrorDetail::Storage(e),
    }
}

/// What a broker start found and rebuilt (shown to the learner after a restart).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RecoveryReport {
    pub segments: Vec<i64>,
    /// Offset of the snapshot the producer state was loaded from.
    pub snapshot_loaded: Option<i64>,
    /// Segments read to rebuild producer state after the snapshot (or without one).
    pub replayed_segments: Vec<i64>,
    pub replayed_batches: usize,
    /// Bytes cut from the end of a segment that held a torn or corrupt batch.
    pub truncated_bytes: u64,
    /// The segment with the first invalid batch and the position it was cut at
    /// (`LogLoader.recoverLog`).
    pub corrupt_segment: Option<(i64, u64)>,
    /// Segments after the one cut, deleted whole as Kafka's recovery deletes them.
    pub deleted_segments: Vec<i64>,
    /// Snapshots that failed their CRC check (`CorruptSnapshotException`): deleted.
    pub corrupt_snapshots: Vec<i64>,
    pub log_end_offset: i64,
}

/// One partition's log on one broker.
///
/// The fields are private because they hold Kafka's offset order,
/// `log start ≤ LSO ≤ HW ≤ LEO`, and the segments that back it: only appends,
/// markers and recovery move them, and each of those checks the order again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnifiedLog {
    topic_partition: TopicPartition,
    /// The partition folder, e.g. `/broker-1/data/orders-0`.
    dir: String,
    config: LogConfig,
    segments: Vec<LogSegment>,
    producer_state: ProducerStateManager,
    log_start_offset: i64,
    log_end_offset: i64,
    high_watermark: i64,
    /// More than one replica: the HW no longer follows the LEO on its own.
    replicated: bool,
    /// The epoch stamped on batches this replica writes as leader.
    leader_epoch: i32,
    /// `LeaderEpochFileCache`: (epoch, start offset), oldest first.
    epochs: Vec<(i32, i64)>,
}

impl UnifiedLog {
    pub fn topic_partition(&self) -> &TopicPartition {
        &self.topic_partition
    }

    /// The partition folder, e.g. `/broker-1/data/orders-0`.
    pub fn dir(&self) -> &str {
        &self.dir
    }

    pub fn config(&self) -> &LogConfig {
        &self.config
    }

    /// `producer.snapshots` changed for this partition's topic; later rolls and
    /// shutdowns follow the new setting.
    pub fn set_producer_snapshots(&mut self, on: bool) {
        self.config.producer_snapshots = on;
    }

    /// A topic config change (`UnifiedLog.updateConfig`): the topic's own settings
    /// take the new values; the broker-wide ones and the playground's switches stay.
    pub fn set_topic_config(&mut self, topic: &LogConfig) {
        let c = &mut self.config;
        c.segment_bytes = topic.segment_bytes;
        c.index_interval_bytes = topic.index_interval_bytes;
        c.max_message_bytes = topic.max_message_bytes;
        c.cleanup_policy_delete = topic.cleanup_policy_delete;
        c.cleanup_policy_compact = topic.cleanup_policy_compact;
        c.delete_retention_ms = topic.delete_retention_ms;
        c.retention_ms = topic.retention_ms;
        c.retention_bytes = topic.retention_bytes;
    }

    /// NOT KAFKA: the "break it" switches changed.
    pub fn set_breaks(&mut self, breaks: crate::breaks::Breaks) {
        self.config.breaks = breaks;
    }

    /// The segments, oldest first; the last one is the active segment.
    pub fn segments(&self) -> &[LogSegment] {
        &self.segments
    }

    /// What this partition remembers about each producer (`producerStateManager`).
    pub fn producer_state(&self) -> &ProducerStateManager {
        &self.producer_state
    }

    /// The first offset still in the log (`logStartOffset`).
    pub fn log_start_offset(&self) -> i64 {
        self.log_start_offset
    }

    /// The offset the next batch gets (`logEndOffset`, LEO).
    pub fn log_end_offset(&self) -> i64 {
        self.log_end_offset
    }

    /// The offset below which every in-sync replica has the data (`highWatermark`);
    /// `read_uncommitted` consumers read up to here.
    pub fn high_watermark(&self) -> i64 {
        self.high_watermark
    }

    /// `UnifiedLog.maybeStartTransactionVerification`: a transactional batch of a
    /// producer with no open transaction here is being verified (KIP-890 part 1).
    pub fn start_transaction_verification(
        &mut self,
        producer_id: i64,
        sequence: i32,
        epoch: i16,
        now_ms: i64,
    ) {
        self.producer_state.maybe_create_verification_state_entry(
            producer_id,
            sequence,
            epoch,
            now_ms,
        );
    }

    /// The first offset of the oldest transaction that is open or whose marker is not
    /// yet below the HW (`firstUnstableOffset`), if any.
    pub fn first_unstable_offset(&self) -> Option<i64> {
        self.producer_state
            .first_unstable_offset(self.high_watermark)
    }

    /// Checks Kafka's offset order after every change: log start ≤ LSO ≤ HW ≤ LEO,
    /// and the active segment ends at the LEO. Free in release builds.
    fn debug_check_offsets(&self) {
        debug_assert!(
            self.log_start_offset <= self.last_stable_offset()
                && self.last_stable_offset() <= self.high_watermark
                && self.high_watermark <= self.log_end_offset,
            "{}: log start {} ≤ LSO {} ≤ HW {} ≤ LEO {} broken",
            self.topic_partition,
            self.log_start_offset,
            self.last_stable_offset(),
            self.high_watermark,
            self.log_end_offset
        );
        debug_assert_eq!(
            self.segments.last().map(|s| s.next_offset),
            Some(self.log_end_offset),
            "{}: the active segment must end at the LEO",
            self.topic_partition
        );
        debug_assert!(
            self.segments
                .windows(2)
                .all(|w| matches!(w, [a, b] if a.base_offset < b.base_offset)),
            "{}: segment base offsets must increase",
            self.topic_partition
        );
    }

    /// Creates an empty log with its first segment's files.
    pub fn create(
        fs: &mut MemFs,
        dir: &str,
        tp: TopicPartition,
        config: LogConfig,
    ) -> Result<Self, FsError> {
        fs.create_dir_all(dir)?;
        let first = LogSegment::new(0);
        first.create_files(fs, dir)?;
        Ok(UnifiedLog {
            topic_partition: tp,
            dir: dir.to_string(),
            config,
            segments: vec![first],
            producer_state: ProducerStateManager::default(),
            log_start_offset: 0,
            log_end_offset: 0,
            high_watermark: 0,
            replicated: false,
            leader_epoch: 0,
            epochs: Vec::new(),
        })
    }

    fn active(&self) -> Option<&LogSegment> {
        self.segments.last()
    }

    /// The path of a producer snapshot taken at `offset`.
    pub fn snapshot_path(&self, offset: i64) -> String {
        format!("{}/{}", self.dir, file_name(offset, ".snapshot"))
    }

    /// The last stable offset: reads below it are decided and replicated
    /// (`lastStableOffset`): the first offset of the oldest open transaction, or of
    /// one whose marker the HW has not passed, but never above the HW, and never
    /// below the log start (`maybeIncrementFirstUnstableOffset`: DeleteRecords may
    /// pass an open transaction's first offset; it is bounded by the HW only).
    pub fn last_stable_offset(&self) -> i64 {
        self.first_unstable_offset()
            .map_or(self.high_watermark, |f| {
                f.max(self.log_start_offset).min(self.high_watermark)
            })
    }
}

/// What a read returns (Kafka's `FetchDataInfo` plus the partition's offsets).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetchDataInfo {
    /// The batches' bytes exactly as on disk (the broker does not filter aborted data).
    pub records: Vec<u8>,
    pub batch_count: usize,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    pub log_start_offset: i64,
    /// For `read_committed`: (producer id, first offset) of aborted transactions in range.
    pub aborted_transactions: Option<Vec<(i64, i64)>>,
}

/// What writing a marker did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum MarkerAppend {
    Written {
        offset: i64,
        txn_first_offset: Option<i64>,
        rolled_segment: Option<i64>,
    },
    /// The same marker was already written (a retry): nothing to do.
    AlreadyComplete,
}

/// A batch as it sits on disk, with its raw bytes for the header view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredBatch {
    pub segment: i64,
    pub position: u64,
    pub batch: RecordBatch,
    pub raw: Vec<u8>,
}

mod append;
mod read;
mod recovery;
mod replica;
mod retention;

mod cleaner;
pub use cleaner::{CleanerStats, NothingToClean};

pub use replica::{read_epoch_checkpoint, FollowerAppend, LEADER_EPOCH_CHECKPOINT};
pub use retention::{DeletedSegments, LogStartOffsetIncrementReason, SegmentDeletionReason};

#[cfg(test)]
mod tests;

mod expiry;

#[cfg(test)]
mod retention_tests;

#[cfg(test)]
mod cleaner_tests;
