//! The partition log (Kafka's `UnifiedLog` with its `LocalLog`): segments on the
//! in-memory disk, producer state, the log end offset (LEO) and high watermark (HW),
//! roll, producer snapshots, and recovery when a broker starts.
//!
//! Simplified: one replica per partition (the HW follows the LEO as soon as a write
//! lands, as with `acks=all` and an ISR of one); no retention or compaction.

use serde::Serialize;

use super::producer_state::{
    BatchMetadata, MarkerCheck, ProducerCheck, ProducerCheckError, ProducerStateManager,
};
use super::segment::{file_name, offset_from_file_name, LogSegment};
use super::transaction_index::AbortedTxn;
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
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            segment_bytes: 1024 * 1024 * 1024,
            index_interval_bytes: 4096,
            max_message_bytes: 1_048_588,
            producer_snapshots: true,
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

    /// The first offset of the oldest open transaction (`firstUnstableOffset`), if any.
    pub fn first_unstable_offset(&self) -> Option<i64> {
        self.producer_state.first_unstable_offset()
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
        })
    }

    fn active(&self) -> Option<&LogSegment> {
        self.segments.last()
    }

    /// The path of a producer snapshot taken at `offset`.
    pub fn snapshot_path(&self, offset: i64) -> String {
        format!("{}/{}", self.dir, file_name(offset, ".snapshot"))
    }

    /// `UnifiedLog.append` for a batch from a client (`AppendOrigin.CLIENT`): validate,
    /// check producer state, roll if the batch does not fit, assign offsets, write.
    pub fn append_as_leader(
        &mut self,
        fs: &mut MemFs,
        mut batch: RecordBatch,
        now_ms: i64,
    ) -> Result<LogAppendInfo, AppendError> {
        let _ = now_ms;
        // Kafka 4.0's order: the size (`analyzeAndValidateRecords`), then
        // `LogValidator.validateBatch` (no control batches, no negative sequence with a
        // producer id), then whether the batch fits a segment.
        let size = batch.size_in_bytes() as u64;
        if size > self.config.max_message_bytes {
            return Err(AppendError::Invalid {
                error: Errors::MessageTooLarge,
                detail: ErrorDetail::BatchTooLarge {
                    size,
                    max_message_bytes: self.config.max_message_bytes,
                },
            });
        }
        if batch.is_control() {
            return Err(AppendError::Invalid {
                error: Errors::InvalidRecord,
                detail: ErrorDetail::ControlRecordsFromClient,
            });
        }
        match batch.validate_for_append() {
            Ok(()) => {}
            Err(RecordError::InvalidSequence {
                base_sequence,
                producer_id,
            }) => {
                return Err(AppendError::Invalid {
                    error: Errors::InvalidRecord,
                    detail: ErrorDetail::InvalidSequence {
                        base_sequence,
                        producer_id,
                        partition: self.topic_partition.to_string(),
                    },
                })
            }
            Err(e) => {
                return Err(AppendError::Invalid {
                    error: Errors::InvalidRecord,
                    detail: ErrorDetail::InvalidBatch(e),
                })
            }
        }
        if size > self.config.segment_bytes {
            return Err(AppendError::Invalid {
                error: Errors::RecordListTooLarge,
                detail: ErrorDetail::BatchLargerThanSegment {
                    size,
                    segment_bytes: self.config.segment_bytes,
                },
            });
        }
        if batch.has_producer_id() {
            let tp = self.topic_partition.to_string();
            match self
                .producer_state
                .check_client_batch(&batch, self.log_end_offset, &tp)
            {
                Ok(ProducerCheck::Duplicate(meta)) => {
                    return Ok(LogAppendInfo {
                        outcome: AppendOutcome::Duplicate(meta),
                        rolled_segment: None,
                        snapshot_written: None,
                    })
                }
                Ok(ProducerCheck::Append) => {}
                Err(e) => return Err(AppendError::Producer(e)),
            }
        }
        batch.base_offset = self.log_end_offset;
        let (rolled_segment, snapshot_written) =
            self.maybe_roll(fs, size).map_err(storage_error)?;
        let info = self.write_batch(fs, &batch).map_err(storage_error)?;
        Ok(LogAppendInfo {
            outcome: info,
            rolled_segment,
            snapshot_written,
        })
    }

    /// An append by a coordinator to its internal topic (`AppendOrigin.COORDINATOR`):
    /// `__transaction_state` records, or offsets committed in a transaction. No
    /// sequence checks; a transactional batch still opens its producer's transaction.
    pub fn append_internal(
        &mut self,
        fs: &mut MemFs,
        mut batch: RecordBatch,
    ) -> Result<i64, AppendError> {
        batch.base_offset = self.log_end_offset;
        let size = batch.size_in_bytes() as u64;
        self.maybe_roll(fs, size).map_err(storage_error)?;
        self.write_batch(fs, &batch).map_err(storage_error)?;
        Ok(batch.base_offset)
    }

    /// Writes a batch whose offsets are already assigned and updates producer state.
    fn write_batch(
        &mut self,
        fs: &mut MemFs,
        batch: &RecordBatch,
    ) -> Result<AppendOutcome, FsError> {
        let mut bytes = batch.encode();
        let _ = set_base_offset(&mut bytes, batch.base_offset);
        let interval = self.config.index_interval_bytes;
        let dir = self.dir.clone();
        let segment = match self.segments.last_mut() {
            Some(s) => s,
            None => return Err(FsError::NotFound(dir)),
        };
        let position = segment.append(
            fs,
            &dir,
            &bytes,
            batch.last_offset(),
            batch.max_timestamp,
            interval,
        )?;
        let completed = self.producer_state.update(batch);
        self.log_end_offset = batch.next_offset();
        if let Some(txn) = completed.filter(|t| t.is_aborted) {
            // `updateTxnIndex`: the LSO once this transaction is out of the way.
            let last_stable_offset = self
                .producer_state
                .first_unstable_offset()
                .unwrap_or(txn.last_offset + 1);
            let entry = AbortedTxn {
                producer_id: txn.producer_id,
                first_offset: txn.first_offset,
                last_offset: txn.last_offset,
                last_stable_offset,
            };
            let base = self.segments.last().map_or(0, |s| s.base_offset);
            fs.append(
                &format!("{dir}/{}", file_name(base, ".txnindex")),
                &entry.encode(),
            )?;
        }
        // One replica: the write is on every in-sync replica at once.
        self.high_watermark = self.log_end_offset;
        self.debug_check_offsets();
        Ok(AppendOutcome::Appended {
            first_offset: batch.base_offset,
            last_offset: batch.last_offset(),
            position,
        })
    }

    /// `maybeRoll`: a new segment when the batch would not fit in the active one.
    fn maybe_roll(
        &mut self,
        fs: &mut MemFs,
        batch_size: u64,
    ) -> Result<(Option<i64>, Option<String>), FsError> {
        let size = self.active().map_or(0, |s| s.size);
        if size == 0 || size + batch_size <= self.config.segment_bytes {
            return Ok((None, None));
        }
        self.roll(fs).map(|(base, snap)| (Some(base), snap))
    }

    /// `roll`: close the active segment's time index, snapshot producer state at the
    /// new base offset (as Kafka does on every roll), start a new segment.
    fn roll(&mut self, fs: &mut MemFs) -> Result<(i64, Option<String>), FsError> {
        let dir = self.dir.clone();
        if let Some(active) = self.segments.last_mut() {
            active.maybe_append_time_index(fs, &dir)?;
        }
        let base = self.log_end_offset;
        let snapshot = self.take_snapshot(fs)?;
        let segment = LogSegment::new(base);
        segment.create_files(fs, &dir)?;
        self.segments.push(segment);
        self.debug_check_offsets();
        Ok((base, snapshot))
    }

    /// Writes `<LEO>.snapshot` if snapshots are on.
    pub fn take_snapshot(&mut self, fs: &mut MemFs) -> Result<Option<String>, FsError> {
        if !self.config.producer_snapshots {
            return Ok(None);
        }
        self.producer_state
            .update_map_end_offset(self.log_end_offset);
        let path = self.snapshot_path(self.log_end_offset);
        fs.write(&path, &self.producer_state.snapshot_bytes())?;
        Ok(Some(path))
    }

    /// A clean shutdown: Kafka snapshots producer state at the log end so the next
    /// start need not scan the log.
    pub fn close(&mut self, fs: &mut MemFs) -> Result<Option<String>, FsError> {
        let dir = self.dir.clone();
        if let Some(active) = self.segments.last_mut() {
            active.maybe_append_time_index(fs, &dir)?;
        }
        self.take_snapshot(fs)
    }

    /// Opens a log from its folder, as a starting broker does: find the segments,
    /// recover torn writes at the end, then rebuild producer state — from the latest
    /// snapshot plus the log after it, or (snapshots off) from the last segment only.
    pub fn open(
        fs: &mut MemFs,
        dir: &str,
        tp: TopicPartition,
        config: LogConfig,
    ) -> Result<(Self, RecoveryReport), FsError> {
        let names = fs.list_dir(dir)?;
        let mut bases: Vec<i64> = names
            .iter()
            .filter_map(|n| offset_from_file_name(n))
            .filter(|(_, suffix)| *suffix == ".log")
            .map(|(o, _)| o)
            .collect();
        bases.sort_unstable();
        if bases.is_empty() {
            let log = UnifiedLog::create(fs, dir, tp, config)?;
            return Ok((
                log,
                RecoveryReport {
                    segments: vec![0],
                    ..Default::default()
                },
            ));
        }
        let mut report = RecoveryReport {
            segments: bases.clone(),
            ..Default::default()
        };
        let mut segments = Vec::new();
        let mut all_batches: Vec<(usize, RecordBatch)> = Vec::new();
        for (i, base) in bases.iter().enumerate() {
            let mut seg = LogSegment::new(*base);
            let path = seg.log_path(dir);
            let bytes = fs.read(&path)?.to_vec();
            let (batches, valid_len) = decode_valid_prefix(&bytes);
            if valid_len < bytes.len() as u64 {
                report.truncated_bytes += bytes.len() as u64 - valid_len;
                fs.truncate(&path, valid_len)?;
            }
            seg.size = valid_len;
            for b in &batches {
                if b.max_timestamp > seg.max_timestamp_so_far {
                    seg.max_timestamp_so_far = b.max_timestamp;
                    seg.offset_of_max_timestamp = b.last_offset();
                }
                seg.next_offset = b.next_offset();
            }
            // Index entries already on disk stand; new appends continue the interval.
            seg.last_indexed_timestamp = seg.max_timestamp_so_far;
            all_batches.extend(batches.into_iter().map(|b| (i, b)));
            segments.push(seg);
        }
        let log_end_offset = segments.last().map_or(0, |s| s.next_offset);
        let mut producer_state = ProducerStateManager::default();
        let mut replay_from = 0i64;
        if config.producer_snapshots {
            let latest = names
                .iter()
                .filter_map(|n| offset_from_file_name(n))
                .filter(|(o, suffix)| *suffix == ".snapshot" && *o <= log_end_offset)
                .map(|(o, _)| o)
                .max();
            if let Some(offset) = latest {
                let path = format!("{dir}/{}", file_name(offset, ".snapshot"));
                if let Ok(state) = ProducerStateManager::from_snapshot(fs.read(&path)?, offset) {
                    producer_state = state;
                    replay_from = offset;
                    report.snapshot_loaded = Some(offset);
                }
            }
        } else {
            // Without snapshots, only the active segment is scanned.
            replay_from = segments.last().map_or(0, |s| s.base_offset);
        }
        let mut replayed = crate::util::sorted_set::SortedSet::new();
        for (i, batch) in &all_batches {
            if batch.base_offset >= replay_from {
                producer_state.update(batch);
                report.replayed_batches += 1;
                if let Some(seg) = segments.get(*i) {
                    replayed.insert(seg.base_offset);
                }
            }
        }
        producer_state.update_map_end_offset(log_end_offset);
        report.replayed_segments = replayed.into_iter().collect();
        report.log_end_offset = log_end_offset;
        let log = UnifiedLog {
            topic_partition: tp,
            dir: dir.to_string(),
            config,
            segments,
            producer_state,
            log_start_offset: bases.first().copied().unwrap_or(0),
            log_end_offset,
            high_watermark: log_end_offset,
        };
        log.debug_check_offsets();
        Ok((log, report))
    }

    /// The last stable offset: reads below it are decided (`lastStableOffset`):
    /// the first offset of the oldest open transaction, but never above the HW.
    pub fn last_stable_offset(&self) -> i64 {
        self.producer_state
            .first_unstable_offset()
            .map_or(self.high_watermark, |f| f.min(self.high_watermark))
    }

    /// Writes a COMMIT/ABORT marker for a producer (`AppendOrigin.COORDINATOR`, from
    /// WriteTxnMarkers), with the epoch rules of the cluster's transaction version
    /// ([`ProducerStateManager::check_marker`]).
    #[allow(clippy::too_many_arguments)]
    pub fn append_marker(
        &mut self,
        fs: &mut MemFs,
        producer_id: i64,
        producer_epoch: i16,
        kind: ControlRecordType,
        coordinator_epoch: i32,
        now_ms: i64,
        transaction_v2: bool,
    ) -> Result<MarkerAppend, AppendError> {
        let batch = RecordBatch::new_control(
            self.log_end_offset,
            producer_id,
            producer_epoch,
            now_ms,
            kind,
            coordinator_epoch,
        );
        let tp = self.topic_partition.to_string();
        match self
            .producer_state
            .check_marker(&batch, self.log_end_offset, &tp, transaction_v2)
        {
            Ok(MarkerCheck::AlreadyComplete) => return Ok(MarkerAppend::AlreadyComplete),
            Ok(MarkerCheck::Append) => {}
            Err(e) => return Err(AppendError::Producer(e)),
        }
        let first_offset = self
            .producer_state
            .last_entry(producer_id)
            .and_then(|e| e.current_txn_first_offset());
        let size = batch.size_in_bytes() as u64;
        let (rolled_segment, _) = self.maybe_roll(fs, size).map_err(storage_error)?;
        self.write_batch(fs, &batch).map_err(storage_error)?;
        Ok(MarkerAppend::Written {
            offset: batch.base_offset,
            txn_first_offset: first_offset,
            rolled_segment,
        })
    }

    /// Every `.txnindex` entry of the log, oldest first.
    pub fn aborted_transactions(&self, fs: &MemFs) -> Vec<AbortedTxn> {
        self.segments
            .iter()
            .flat_map(|s| {
                let path = format!("{}/{}", self.dir, file_name(s.base_offset, ".txnindex"));
                AbortedTxn::decode_all(fs.read(&path).unwrap_or_default())
            })
            .collect()
    }

    /// `UnifiedLog.read`: whole batches from `start_offset` up to the bound the
    /// isolation allows (LEO, HW or LSO), at most `max_bytes` (but always at least one
    /// batch), with the aborted transactions in that range for `read_committed`.
    pub fn read(
        &self,
        fs: &MemFs,
        start_offset: i64,
        max_bytes: usize,
        isolation: FetchIsolation,
    ) -> Result<FetchDataInfo, Errors> {
        if start_offset < self.log_start_offset || start_offset > self.log_end_offset {
            return Err(Errors::OffsetOutOfRange);
        }
        let upper = match isolation {
            FetchIsolation::LogEnd => self.log_end_offset,
            FetchIsolation::HighWatermark => self.high_watermark,
            FetchIsolation::TxnCommitted => self.last_stable_offset(),
        };
        let mut records = Vec::new();
        let mut next_offset = start_offset;
        let mut count = 0usize;
        'segments: for seg in &self.segments {
            if seg.next_offset <= start_offset {
                continue;
            }
            let Ok(bytes) = fs.read(&seg.log_path(&self.dir)) else {
                continue;
            };
            let mut pos = 0usize;
            while let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) {
                let Ok((batch, used)) = RecordBatch::decode(rest) else {
                    break;
                };
                pos += used;
                if batch.last_offset() < start_offset {
                    continue;
                }
                if batch.last_offset() >= upper || (count > 0 && records.len() + used > max_bytes) {
                    break 'segments;
                }
                records.extend_from_slice(rest.get(..used).unwrap_or_default());
                next_offset = batch.next_offset();
                count += 1;
            }
        }
        let aborted_transactions = (isolation == FetchIsolation::TxnCommitted).then(|| {
            self.aborted_transactions(fs)
                .into_iter()
                .filter(|t| t.last_offset >= start_offset && t.first_offset < next_offset)
                .map(|t| (t.producer_id, t.first_offset))
                .collect()
        });
        Ok(FetchDataInfo {
            records,
            batch_count: count,
            high_watermark: self.high_watermark,
            last_stable_offset: self.last_stable_offset(),
            log_start_offset: self.log_start_offset,
            aborted_transactions,
        })
    }

    /// Every batch in the log with its segment and byte position, read from disk.
    pub fn read_all(&self, fs: &MemFs) -> Vec<StoredBatch> {
        let mut out = Vec::new();
        for seg in &self.segments {
            let Ok(bytes) = fs.read(&seg.log_path(&self.dir)) else {
                continue;
            };
            if let Ok(batches) = decode_all(bytes) {
                for (position, batch) in batches {
                    let end = (position as usize).saturating_add(batch.size_in_bytes());
                    let raw = bytes
                        .get(position as usize..end)
                        .unwrap_or_default()
                        .to_vec();
                    out.push(StoredBatch {
                        segment: seg.base_offset,
                        position,
                        batch,
                        raw,
                    });
                }
            }
        }
        out
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

/// The batches that decode cleanly from the start of a segment, and their byte length;
/// what follows the first bad batch is a torn write that recovery cuts off.
fn decode_valid_prefix(bytes: &[u8]) -> (Vec<RecordBatch>, u64) {
    let mut batches = Vec::new();
    let mut pos = 0usize;
    while pos < bytes.len() {
        match RecordBatch::decode(bytes.get(pos..).unwrap_or_default()) {
            Ok((batch, used)) => {
                batches.push(batch);
                pos += used;
            }
            Err(_) => break,
        }
    }
    (batches, pos as u64)
}

#[cfg(test)]
#[path = "unified_log_tests.rs"]
mod tests;
