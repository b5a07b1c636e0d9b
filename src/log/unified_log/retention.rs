//! The log start offset and retention (Kafka 4.0, trunk 1eb7644):
//! `UnifiedLog.maybeIncrementLogStartOffset` (DeleteRecords, a follower copying its
//! leader, segment deletion) and `UnifiedLog.deleteOldSegments` (run by
//! `LogManager.cleanupLogs` every `log.retention.check.interval.ms`).
//!
//! What moving the log start does, as in Kafka: the HW and LSO stay at or above it,
//! the leader-epoch cache is cut from the start (`truncateFromStart`), and producer
//! state is NOT forgotten: `ProducerStateManager.onLogStartOffsetIncremented` only
//! moves its map end. A producer whose batches are all below the log start is lost
//! only when producer state is rebuilt from the log (a restart without a snapshot
//! above the log start), and then its next batch is taken at any sequence
//! (`ProducerAppendInfo.checkSequence`: "possibly because all producer records have
//! been deleted due to retention or the DeleteRecords API").
//!
//! Simplified: Kafka renames deleted files to `.deleted` and removes them
//! `file.delete.delay.ms` (1 min) later; here they go at once.

use serde::Serialize;

use super::*;

/// Why the log start offset moved (Kafka's `LogStartOffsetIncrementReason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum LogStartOffsetIncrementReason {
    /// A follower copied its leader's log start from a fetch answer.
    LeaderOffsetIncremented,
    /// Segments before it were deleted.
    SegmentDeletion,
    /// DeleteRecords (`kafka-delete-records.sh`, `Admin.deleteRecords`).
    ClientRecordDeletion,
}

/// Which retention rule deleted segments (Kafka's `SegmentDeletionReason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SegmentDeletionReason {
    /// `retention.ms`: the segment's largest timestamp is older than that.
    RetentionMsBreach,
    /// `retention.bytes`: the log is larger than that.
    RetentionSizeBreach,
    /// The next segment starts at or below the log start offset.
    StartOffsetBreach,
}

/// What one deletion rule removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeletedSegments {
    pub reason: SegmentDeletionReason,
    /// Base offsets of the deleted segments.
    pub segments: Vec<i64>,
    /// The log start offset afterwards.
    pub log_start_offset: i64,
    /// The segment rolled first because every segment was deletable (Kafka keeps at
    /// least one segment).
    pub rolled_segment: Option<i64>,
}

/// The files of a segment that go with it (`LogSegment.deleteIfExists`), plus the
/// producer snapshot at its base offset (`deleteProducerSnapshots`).
const SEGMENT_SUFFIXES: [&str; 5] = [".log", ".index", ".timeindex", ".txnindex", ".snapshot"];

impl UnifiedLog {
    /// `maybeIncrementLogStartOffset`: moves the log start forward (never back).
    /// OFFSET_OUT_OF_RANGE above the HW: the log start never passes it. Answers
    /// whether it moved.
    pub fn maybe_increment_log_start_offset(
        &mut self,
        fs: &mut MemFs,
        new_log_start_offset: i64,
        reason: LogStartOffsetIncrementReason,
    ) -> Result<bool, Errors> {
        let _ = reason;
        if new_log_start_offset > self.high_watermark {
            return Err(Errors::OffsetOutOfRange);
        }
        if new_log_start_offset <= self.log_start_offset {
            return Ok(false);
        }
        self.log_start_offset = new_log_start_offset;
        if self.truncate_epochs_from_start(new_log_start_offset) && self.is_replicated() {
            // Kafka flushes this checkpoint in the background; a lost flush is fixed
            // by the same cut when the log is loaded.
            let _ = self.write_epoch_checkpoint(fs);
        }
        // `onLogStartOffsetIncremented`: the map end moves up; no producer is removed;
        // the last snapshot is the latest one on disk, or the log start.
        if self.producer_state.map_end_offset() < new_log_start_offset {
            self.producer_state
                .update_map_end_offset(new_log_start_offset);
        }
        let latest_snapshot = fs
            .list_dir(&self.dir)
            .unwrap_or_default()
            .iter()
            .filter_map(|n| offset_from_file_name(n))
            .filter(|(_, suffix)| *suffix == ".snapshot")
            .map(|(o, _)| o)
            .max();
        self.producer_state
            .set_last_snap_offset(latest_snapshot.unwrap_or(new_log_start_offset));
        self.debug_check_offsets();
        Ok(true)
    }

    /// `UnifiedLog.truncateFullyAndStartAt`: a follower whose whole log lies below
    /// its leader's log start drops every segment, snapshot and epoch entry and
    /// starts empty at `offset` (log start = HW = LEO).
    pub fn truncate_fully_and_start_at(
        &mut self,
        fs: &mut MemFs,
        offset: i64,
    ) -> Result<usize, FsError> {
        let removed = self.read_all(fs).len();
        for name in fs.list_dir(&self.dir)? {
            if offset_from_file_name(&name).is_some() {
                fs.remove_file(&format!("{}/{name}", self.dir))?;
            }
        }
        let first = LogSegment::new(offset);
        first.create_files(fs, &self.dir)?;
        self.segments = vec![first];
        self.producer_state = ProducerStateManager::default();
        self.producer_state.update_map_end_offset(offset);
        self.log_start_offset = offset;
        self.log_end_offset = offset;
        self.high_watermark = offset;
        self.epochs.clear();
        if self.is_replicated() {
            self.write_epoch_checkpoint(fs)?;
        }
        self.debug_check_offsets();
        Ok(removed)
    }

    /// `LeaderEpochFileCache.truncateFromStart`: drops the entries starting at or
    /// below `start` and moves the last of them to `start`. Answers whether it changed.
    pub(super) fn truncate_epochs_from_start(&mut self, start: i64) -> bool {
        let removed: Vec<(i32, i64)> = self
            .epochs
            .iter()
            .take_while(|(_, o)| *o <= start)
            .copied()
            .collect();
        let Some((epoch, _)) = removed.last().copied() else {
            return false;
        };
        self.epochs.drain(..removed.len());
        self.epochs.insert(0, (epoch, start));
        true
    }

    /// `deleteOldSegments`: segments before the log start, then (with
    /// `cleanup.policy` delete) those beyond `retention.bytes`, then those older
    /// than `retention.ms` at `now_ms`. One entry per rule that deleted something.
    pub fn delete_old_segments(
        &mut self,
        fs: &mut MemFs,
        now_ms: i64,
    ) -> Result<Vec<DeletedSegments>, FsError> {
        let mut done = Vec::new();
        // `deleteLogStartOffsetBreachedSegments`.
        let start = self.log_start_offset;
        let deletable = self.deletable_segments(|_, next| next.is_some_and(|n| n <= start));
        done.extend(self.delete_segments(
            fs,
            deletable,
            SegmentDeletionReason::StartOffsetBreach,
        )?);
        if !self.config.cleanup_policy_delete {
            return Ok(done);
        }
        // `deleteRetentionSizeBreachedSegments`.
        let retention_bytes = self.config.retention_bytes;
        let size: u64 = self.segments.iter().map(|s| s.size).sum();
        if retention_bytes >= 0 && size >= retention_bytes as u64 {
            let mut diff = size - retention_bytes as u64;
            let deletable = self.deletable_segments(|seg, _| {
                let ok = diff >= seg.size;
                if ok {
                    diff -= seg.size;
                }
                ok
            });
            done.extend(self.delete_segments(
                fs,
                deletable,
                SegmentDeletionReason::RetentionSizeBreach,
            )?);
        }
        // `deleteRetentionMsBreachedSegments`: the segment's largest timestamp.
        let retention_ms = self.config.retention_ms;
        if retention_ms >= 0 {
            let deletable = self.deletable_segments(|seg, _| {
                now_ms.saturating_sub(seg.max_timestamp_so_far) > retention_ms
            });
            done.extend(self.delete_segments(
                fs,
                deletable,
                SegmentDeletionReason::RetentionMsBreach,
            )?);
        }
        Ok(done)
    }

    /// When the retention check would next find something to delete here (now, or
    /// when the oldest segment passes `retention.ms`), if ever without new writes.
    pub fn next_retention_work_ms(&self, now_ms: i64) -> Option<i64> {
        let first = self.segments.first()?;
        let next = self.segments.get(1).map(|s| s.base_offset);
        let upper = next.unwrap_or(self.log_end_offset);
        if self.high_watermark < upper || (next.is_none() && first.size == 0) {
            return None;
        }
        if next.is_some_and(|n| n <= self.log_start_offset) {
            return Some(now_ms);
        }
        if !self.config.cleanup_policy_delete {
            return None;
        }
        let size: u64 = self.segments.iter().map(|s| s.size).sum();
        let bytes = self.config.retention_bytes;
        if bytes >= 0 && size >= bytes as u64 && size - bytes as u64 >= first.size {
            return Some(now_ms);
        }
        (self.config.retention_ms >= 0).then(|| {
            first
                .max_timestamp_so_far
                .saturating_add(self.config.retention_ms)
                .saturating_add(1)
        })
    }

    /// `deletableSegments`: from the oldest, while `predicate(segment, next base)`
    /// holds and the segment ends at or below the HW; never the last segment when
    /// it is empty.
    fn deletable_segments(
        &self,
        mut predicate: impl FnMut(&LogSegment, Option<i64>) -> bool,
    ) -> Vec<i64> {
        let mut out = Vec::new();
        for (i, seg) in self.segments.iter().enumerate() {
            let next = self.segments.get(i + 1).map(|s| s.base_offset);
            let last_and_empty = next.is_none() && seg.size == 0;
            let upper = next.unwrap_or(self.log_end_offset);
            // "We don't delete segments with offsets at or beyond the high watermark
            // to ensure that the log start offset can never exceed it."
            if self.high_watermark >= upper && predicate(seg, next) && !last_and_empty {
                out.push(seg.base_offset);
            } else {
                break;
            }
        }
        out
    }

    /// `deleteSegments`: roll first when every segment goes (a log keeps one), move
    /// the log start to the first kept segment, then remove the files.
    fn delete_segments(
        &mut self,
        fs: &mut MemFs,
        deletable: Vec<i64>,
        reason: SegmentDeletionReason,
    ) -> Result<Option<DeletedSegments>, FsError> {
        if deletable.is_empty() {
            return Ok(None);
        }
        let mut rolled_segment = None;
        if deletable.len() == self.segments.len() {
            rolled_segment = Some(self.roll(fs)?.0);
        }
        let Some(first_kept) = self.segments.get(deletable.len()).map(|s| s.base_offset) else {
            return Ok(None);
        };
        // The HW bound in `deletable_segments` keeps this within the HW.
        let _ = self.maybe_increment_log_start_offset(
            fs,
            first_kept,
            LogStartOffsetIncrementReason::SegmentDeletion,
        );
        self.segments.drain(..deletable.len());
        for base in &deletable {
            for suffix in SEGMENT_SUFFIXES {
                let path = format!("{}/{}", self.dir, file_name(*base, suffix));
                if fs.exists(&path) {
                    fs.remove_file(&path)?;
                }
            }
        }
        self.debug_check_offsets();
        Ok(Some(DeletedSegments {
            reason,
            segments: deletable,
            log_start_offset: self.log_start_offset,
            rolled_segment,
        }))
    }
}
