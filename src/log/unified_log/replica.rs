//! What a replicated log adds (Kafka 4.0, mirror commit 1eb7644): the HW set by the
//! partition instead of following the LEO, the leader epoch stamped on every batch the
//! leader writes, the leader-epoch cache with its `leader-epoch-checkpoint` file
//! (`LeaderEpochFileCache`), appends of the leader's bytes on a follower
//! (`appendAsFollower`), and truncation to an epoch boundary (`truncateTo`).

use super::*;

/// The leader-epoch cache on disk, one per partition folder (Kafka's file name).
pub const LEADER_EPOCH_CHECKPOINT: &str = "leader-epoch-checkpoint";

/// What a follower's append wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FollowerAppend {
    pub batches: usize,
    /// The LEO after the append.
    pub log_end_offset: i64,
}

impl UnifiedLog {
    /// Whether the log has more than one replica: then its HW is the partition's to
    /// move (the leader's `maybeIncrementLeaderHW`, a follower's fetch answers).
    pub fn is_replicated(&self) -> bool {
        self.replicated
    }

    /// Marks the log as one replica among several (or back to a single replica, whose
    /// HW follows the LEO).
    pub fn set_replicated(&mut self, on: bool) {
        self.replicated = on;
        if !on {
            self.high_watermark = self.log_end_offset;
            self.producer_state
                .on_high_watermark_updated(self.high_watermark);
        }
    }

    /// The epoch this replica stamps on the batches it writes as leader.
    pub fn leader_epoch(&self) -> i32 {
        self.leader_epoch
    }

    /// The leader-epoch cache: (epoch, start offset), oldest first.
    pub fn epochs(&self) -> &[(i32, i64)] {
        &self.epochs
    }

    /// The epoch of the newest cache entry (what a follower sends as `lastFetchedEpoch`).
    pub fn latest_epoch(&self) -> Option<i32> {
        self.epochs.last().map(|(e, _)| *e)
    }

    /// `Partition.makeLeader`: write at `epoch` from now on, and record that the epoch
    /// starts at the LEO (`maybeAssignEpochStartOffset`).
    pub fn become_leader(&mut self, fs: &mut MemFs, epoch: i32) -> Result<(), FsError> {
        self.leader_epoch = epoch;
        if self.replicated {
            self.maybe_assign_epoch_start_offset(fs, epoch, self.log_end_offset)?;
        }
        Ok(())
    }

    /// A single-replica log that gains followers (a reassignment adds replicas): it
    /// kept no leader-epoch cache, and every batch it holds was written at `epoch`,
    /// so the cache starts there at the log start, as a replicated log's would.
    #[cfg(feature = "topic-admin")]
    pub fn start_epoch_cache(&mut self, fs: &mut MemFs, epoch: i32) -> Result<(), FsError> {
        if !self.epochs.is_empty() {
            return Ok(());
        }
        self.maybe_assign_epoch_start_offset(fs, epoch, self.log_start_offset)
    }

    /// `Partition.makeFollower`: the epoch is the leader's; batches come stamped.
    pub fn become_follower(&mut self, epoch: i32) {
        self.leader_epoch = epoch;
    }

    /// `LeaderEpochFileCache.endOffsetFor`: the largest epoch ≤ `requested` this log
    /// knows and the offset where the epoch after it starts (the LEO for the latest
    /// epoch); `(-1, -1)` when the log cannot say.
    pub fn end_offset_for_epoch(&self, requested: i32) -> (i32, i64) {
        if requested < 0 {
            return (-1, -1);
        }
        if self.latest_epoch() == Some(requested) {
            return (requested, self.log_end_offset);
        }
        let Some(&(_, higher_start)) = self.epochs.iter().find(|(e, _)| *e > requested) else {
            return (-1, -1);
        };
        match self.epochs.iter().rev().find(|(e, _)| *e <= requested) {
            Some(&(floor, _)) => (floor, higher_start),
            None => (requested, higher_start),
        }
    }

    /// `AbstractFetcherThread.getOffsetTruncationState` (Kafka 4.0, mirror commit
    /// 1eb7644): where a follower truncates when the leader says its log diverges
    /// after `leader_epoch`, which ends at `leader_end_offset` on the leader. Returns
    /// the offset and whether truncation is complete (false: truncate there, then ask
    /// again with the epoch before). Never past this log's LEO. A cache that cannot
    /// place the epoch (empty, say) takes the leader's end offset, not the HW.
    pub fn offset_truncation_state(
        &self,
        leader_epoch: i32,
        leader_end_offset: i64,
    ) -> (i64, bool) {
        let leo = self.log_end_offset;
        match self.end_offset_for_epoch(leader_epoch) {
            (_, -1) => (leader_end_offset.min(leo), true),
            (epoch, end) if epoch != leader_epoch => (end.min(leo), false),
            (_, end) => (end.min(leader_end_offset).min(leo), true),
        }
    }

    /// `LeaderEpochFileCache.assign`: a new epoch starts at `offset`; entries that
    /// would break the order (a newer or equal epoch, a later start) go first.
    pub(super) fn maybe_assign_epoch_start_offset(
        &mut self,
        fs: &mut MemFs,
        epoch: i32,
        offset: i64,
    ) -> Result<(), FsError> {
        if epoch < 0 || offset < 0 {
            return Ok(());
        }
        let needed = self
            .epochs
            .last()
            .is_none_or(|&(e, start)| e != epoch || offset < start);
        if !needed {
            return Ok(());
        }
        while self
            .epochs
            .last()
            .is_some_and(|&(e, start)| e >= epoch || start >= offset)
        {
            self.epochs.pop();
        }
        self.epochs.push((epoch, offset));
        self.write_epoch_checkpoint(fs)
    }

    /// `LeaderEpochCheckpointFile`: version 0, the count, then `epoch offset` lines.
    pub(super) fn write_epoch_checkpoint(&self, fs: &mut MemFs) -> Result<(), FsError> {
        let mut text = format!("0\n{}\n", self.epochs.len());
        for (epoch, offset) in &self.epochs {
            text.push_str(&format!("{epoch} {offset}\n"));
        }
        fs.write(
            &format!("{}/{LEADER_EPOCH_CHECKPOINT}", self.dir),
            text.as_bytes(),
        )
    }

    /// `UnifiedLog.updateHighWatermark`: set the HW (a follower copies the leader's),
    /// kept within log start..LEO. Returns the old HW when it changed.
    pub fn update_high_watermark(&mut self, hw: i64) -> Option<i64> {
        let new = hw.clamp(self.log_start_offset, self.log_end_offset);
        self.producer_state.on_high_watermark_updated(new);
        if new == self.high_watermark {
            return None;
        }
        let old = std::mem::replace(&mut self.high_watermark, new);
        self.debug_check_offsets();
        Some(old)
    }

    /// `UnifiedLog.maybeIncrementHighWatermark`: the leader's HW only moves forward.
    pub fn maybe_increment_high_watermark(&mut self, hw: i64) -> Option<i64> {
        if hw <= self.high_watermark {
            return None;
        }
        self.update_high_watermark(hw)
    }

    /// `UnifiedLog.appendAsFollower`: the leader's batches, offsets and epochs as they
    /// are; producer state, `.txnindex` and the epoch cache follow what is written, so
    /// a follower that becomes leader knows every producer's window.
    pub fn append_as_follower(
        &mut self,
        fs: &mut MemFs,
        records: &[u8],
    ) -> Result<FollowerAppend, AppendError> {
        let batches = decode_all(records).map_err(|e| AppendError::Invalid {
            error: Errors::CorruptMessage,
            detail: ErrorDetail::InvalidBatch(e),
        })?;
        let mut count = 0;
        for (_, batch) in batches {
            // A compacted leader's log has gaps, so a batch may start past the LEO;
            // only one below it is refused.
            if batch.base_offset < self.log_end_offset {
                // Kafka: "Out of order offsets found in append to partition".
                return Err(AppendError::Invalid {
                    error: Errors::UnknownServerError,
                    detail: ErrorDetail::OutOfOrderOffsets {
                        expected: self.log_end_offset,
                        got: batch.base_offset,
                    },
                });
            }
            let size = batch.size_in_bytes() as u64;
            self.maybe_roll(fs, size).map_err(storage_error)?;
            self.write_batch(fs, &batch).map_err(storage_error)?;
            count += 1;
        }
        Ok(FollowerAppend {
            batches: count,
            log_end_offset: self.log_end_offset,
        })
    }

    /// `UnifiedLog.truncateTo`: drop every batch at or above `offset` (segments,
    /// index entries, `.txnindex` entries, snapshots after it, epoch-cache entries),
    /// then rebuild producer state as a start does. Returns the batches removed.
    pub fn truncate_to(&mut self, fs: &mut MemFs, offset: i64) -> Result<usize, FsError> {
        if offset >= self.log_end_offset {
            // Kafka still cuts the epoch cache at the LEO: a replica that led and
            // wrote nothing keeps an entry for an epoch no batch carries.
            let leo = self.log_end_offset;
            let before = self.epochs.len();
            self.epochs.retain(|(_, start)| *start < leo);
            if self.epochs.len() != before && self.replicated {
                self.write_epoch_checkpoint(fs)?;
            }
            return Ok(0);
        }
        let offset = offset.max(self.log_start_offset);
        let removed = self
            .read_all(fs)
            .iter()
            .filter(|b| b.batch.base_offset >= offset)
            .count();
        let dir = self.dir.clone();
        for seg in &self.segments {
            if seg.base_offset >= offset && seg.base_offset > self.log_start_offset {
                for suffix in [".log", ".index", ".timeindex", ".txnindex"] {
                    let path = format!("{dir}/{}", file_name(seg.base_offset, suffix));
                    if fs.exists(&path) {
                        fs.remove_file(&path)?;
                    }
                }
                continue;
            }
            if seg.next_offset <= offset {
                continue;
            }
            let cut = self
                .read_all(fs)
                .into_iter()
                .find(|b| b.segment == seg.base_offset && b.batch.base_offset >= offset)
                .map_or(seg.size, |b| b.position);
            fs.truncate(&seg.log_path(&dir), cut)?;
            let index: Vec<u8> = crate::log::segment::read_offset_index(
                fs.read(&seg.index_path(&dir))?,
                seg.base_offset,
            )
            .into_iter()
            .filter(|(o, _)| *o < offset)
            .flat_map(|(o, pos)| {
                let mut e = ((o - seg.base_offset) as i32).to_be_bytes().to_vec();
                e.extend_from_slice(&pos.to_be_bytes());
                e
            })
            .collect();
            fs.write(&seg.index_path(&dir), &index)?;
            let times: Vec<u8> = crate::log::segment::read_time_index(
                fs.read(&seg.time_index_path(&dir))?,
                seg.base_offset,
            )
            .into_iter()
            .filter(|(_, o)| *o < offset)
            .flat_map(|(t, o)| {
                let mut e = t.to_be_bytes().to_vec();
                e.extend_from_slice(&((o - seg.base_offset) as i32).to_be_bytes());
                e
            })
            .collect();
            fs.write(&seg.time_index_path(&dir), &times)?;
            let txn_path = format!("{dir}/{}", file_name(seg.base_offset, ".txnindex"));
            if fs.exists(&txn_path) {
                let kept: Vec<u8> = AbortedTxn::decode_all(fs.read(&txn_path)?)
                    .into_iter()
                    .filter(|t| t.last_offset < offset)
                    .flat_map(|t| t.encode())
                    .collect();
                fs.write(&txn_path, &kept)?;
            }
        }
        for name in fs.list_dir(&dir)? {
            if let Some((o, ".snapshot")) = offset_from_file_name(&name) {
                if o > offset {
                    fs.remove_file(&format!("{dir}/{name}"))?;
                }
            }
        }
        self.epochs.retain(|(_, start)| *start < offset);
        if self.replicated {
            self.write_epoch_checkpoint(fs)?;
        }
        let hw = self.high_watermark.min(offset);
        let (replicated, leader_epoch) = (self.replicated, self.leader_epoch);
        let (reopened, _) = UnifiedLog::open_with_log_start(
            fs,
            &dir,
            self.topic_partition.clone(),
            self.config.clone(),
            self.log_start_offset,
        )?;
        *self = reopened;
        self.replicated = replicated;
        self.leader_epoch = leader_epoch;
        self.high_watermark = hw.min(self.log_end_offset);
        self.debug_check_offsets();
        Ok(removed)
    }
}

/// Reads `leader-epoch-checkpoint` if the folder has one (a replicated partition).
pub fn read_epoch_checkpoint(fs: &MemFs, dir: &str) -> Vec<(i32, i64)> {
    let Ok(bytes) = fs.read(&format!("{dir}/{LEADER_EPOCH_CHECKPOINT}")) else {
        return Vec::new();
    };
    String::from_utf8_lossy(bytes)
        .lines()
        .skip(2)
        .filter_map(|line| {
            let (e, o) = line.split_once(' ')?;
            Some((e.parse().ok()?, o.parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests;
