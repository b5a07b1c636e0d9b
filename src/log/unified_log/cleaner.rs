//! Log compaction: one pass of Kafka's log cleaner over a partition (Kafka 4.0:
//! `LogCleaner.scala`'s `Cleaner.doClean`, `buildOffsetMap`, `cleanSegments`,
//! `cleanInto` and `CleanedTransactionMetadata`, with `MemoryRecords.filterTo`).
//!
//! The cleanable range ends at the first uncleanable offset: the active segment's
//! base offset or the LSO, whichever is lower (`LogCleanerManager.cleanableOffsets`).
//! Below it the cleaner keeps, for each key, only the record at the key's latest
//! offset, and drops the data of aborted transactions. A batch keeps its header (and
//! its offsets: the consumer skips the gap) when it is a producer's last batch, so the
//! producer's sequence and epoch survive a restart, or when it ends the range.
//!
//! Markers and tombstones go in two steps (KIP-534, Kafka 3.1+): the first pass that
//! finds a transaction's data all gone stamps its marker's batch with a delete horizon
//! (now + `delete.retention.ms`); a pass after the horizon removes it. An ABORT marker
//! whose data is still in the log keeps its `.txnindex` entry, so read_committed
//! consumers still skip that data.
//!
//! Simplified: the cleaner runs when a step asks (`clean TOPIC-P`), not on its own
//! thread; there is no `cleaner-offset-checkpoint`, so each pass maps every key from
//! the log start (the result is the same: the cleaned part already holds one record
//! per key); no `min.compaction.lag.ms`, `max.compaction.lag.ms` or
//! `min.cleanable.dirty.ratio`; the offset map holds every key (no
//! `log.cleaner.dedupe.buffer.size`); the cleaned segment replaces the old ones at
//! once (no `.cleaned` and `.swap` files). Kafka maps the whole of the last dirty
//! segment even past the LSO; here a record at or past the first uncleanable offset
//! is neither mapped nor touched.

use serde::Serialize;

use super::*;
use crate::util::sorted_map::SortedMap;

/// What one cleaning pass did (Kafka's `CleanerStats`, with the counts a learner
/// asks about).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CleanerStats {
    /// The cleaned section `[start, end)`: from the log start to the first
    /// uncleanable offset.
    pub start_offset: i64,
    pub end_offset: i64,
    /// The segments cleaned, and the segments that replaced them.
    pub segments_before: Vec<i64>,
    pub segments_after: Vec<i64>,
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub records_before: usize,
    pub records_after: usize,
    /// Data records removed because their transaction was aborted.
    pub aborted_records_removed: usize,
    /// Batches kept with no records: a producer's last batch, or the range's last.
    pub empty_batches_kept: usize,
    /// Marker batches stamped with a delete horizon in this pass, and removed.
    pub horizons_set: Vec<i64>,
    pub markers_removed: Vec<i64>,
    /// The delete horizon stamped in this pass (now + `delete.retention.ms`).
    pub delete_horizon_ms: i64,
}

/// Why the cleaner did nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NothingToClean {
    /// The first uncleanable offset, and whether the LSO (rather than the active
    /// segment) set it.
    pub first_uncleanable_offset: i64,
    pub bounded_by_lso: bool,
}

/// An aborted transaction met while reading (`AbortedTransactionMetadata`): its
/// `.txnindex` entry and the last of its batches this pass saw.
struct AbortedTxnMetadata {
    txn: AbortedTxn,
    last_observed_batch_offset: Option<i64>,
}

/// `CleanedTransactionMetadata`: walks the batches in offset order and tells which
/// belong to aborted transactions and which markers may go.
#[derive(Default)]
struct CleanedTransactionMetadata {
    /// Aborted transactions not yet reached, by first offset.
    pending: Vec<AbortedTxn>,
    ongoing_committed: Vec<i64>,
    ongoing_aborted: SortedMap<i64, AbortedTxnMetadata>,
    /// The `.txnindex` entries the cleaned segment keeps.
    cleaned_index: Vec<AbortedTxn>,
}

impl CleanedTransactionMetadata {
    fn new(mut aborted: Vec<AbortedTxn>) -> Self {
        crate::util::ordered::sort_by(&mut aborted, |a, b| a.first_offset.cmp(&b.first_offset));
        CleanedTransactionMetadata {
            pending: aborted,
            ..Default::default()
        }
    }

    fn consume_aborted_up_to(&mut self, offset: i64) {
        while self
            .pending
            .first()
            .is_some_and(|t| t.first_offset <= offset)
        {
            let txn = self.pending.remove(0);
            if self.ongoing_aborted.get(&txn.producer_id).is_none() {
                let meta = AbortedTxnMetadata {
                    txn,
                    last_observed_batch_offset: None,
                };
                self.ongoing_aborted.insert(txn.producer_id, meta);
            }
        }
    }

    /// `onControlBatchRead`: true when the marker may be discarded (its
    /// transaction has no data left here).
    fn on_control_batch_read(&mut self, batch: &RecordBatch) -> bool {
        self.consume_aborted_up_to(batch.last_offset());
        if batch.records.is_empty() {
            // An emptied control batch was already cleaned: safe to discard.
            return true;
        }
        // A type Kafka parses as UNKNOWN is kept (a malformed marker never gets here:
        // `clean` leaves its segment alone).
        let Some((kind, _)) = batch.control_record() else {
            return false;
        };
        match kind {
            ControlRecordType::Abort => match self.ongoing_aborted.remove(&batch.producer_id) {
                Some(meta) if meta.last_observed_batch_offset.is_some() => {
                    // Kept until every batch of the transaction is gone.
                    self.cleaned_index.push(meta.txn);
                    false
                }
                _ => true,
            },
            ControlRecordType::Commit => {
                let before = self.ongoing_committed.len();
                self.ongoing_committed.retain(|p| *p != batch.producer_id);
                self.ongoing_committed.len() == before
            }
        }
    }

    /// `onBatchRead`: true when the batch belongs to an aborted transaction.
    fn on_batch_read(&mut self, batch: &RecordBatch) -> bool {
        self.consume_aborted_up_to(batch.last_offset());
        if !batch.is_transactional() {
            return false;
        }
        match self.ongoing_aborted.get_mut(&batch.producer_id) {
            Some(meta) => {
                meta.last_observed_batch_offset = Some(batch.last_offset());
                true
            }
            None => {
                if !self.ongoing_committed.contains(&batch.producer_id) {
                    self.ongoing_committed.push(batch.producer_id);
                }
                false
            }
        }
    }
}

/// `BatchRetention`.
#[derive(PartialEq, Eq)]
enum BatchRetention {
    Delete,
    DeleteEmpty,
    RetainEmpty,
}

impl UnifiedLog {
    /// `LogCleanerManager.cleanableOffsets`' upper bound: the lower of the LSO and
    /// the active segment's base offset (`true` when the LSO set it).
    pub fn first_uncleanable_offset(&self) -> (i64, bool) {
        let active = self.active().map_or(self.log_end_offset, |s| s.base_offset);
        let lso = self.last_stable_offset();
        if lso < active {
            (lso, true)
        } else {
            (active, false)
        }
    }

    /// One pass of the log cleaner (`Cleaner.doClean`) at `now_ms`. Nothing changes
    /// when no segment below the first uncleanable offset exists.
    pub fn clean(
        &mut self,
        fs: &mut MemFs,
        now_ms: i64,
    ) -> Result<Result<CleanerStats, NothingToClean>, FsError> {
        let (upper, bounded_by_lso) = self.first_uncleanable_offset();
        let mut cleanable: Vec<LogSegment> = self
            .segments
            .iter()
            .take(self.segments.len().saturating_sub(1))
            .filter(|s| s.base_offset < upper)
            .cloned()
            .collect();
        if cleanable.is_empty() {
            return Ok(Err(NothingToClean {
                first_uncleanable_offset: upper,
                bounded_by_lso,
            }));
        }
        let dir = self.dir.clone();
        let mut read: Vec<Vec<RecordBatch>> = Vec::with_capacity(cleanable.len());
        for seg in &cleanable {
            // A segment that does not decode, and every later one, is left as it is
            // (Kafka's cleaner stops with an exception and marks the log uncleanable);
            // so is one with a marker whose control record does not parse
            // (`CleanedTransactionMetadata.onControlBatchRead`: `ControlRecordType.
            // parse` throws `InvalidRecordException`).
            match decode_all(fs.read(&seg.log_path(&dir))?) {
                Ok(batches)
                    if batches
                        .iter()
                        .all(|(_, b)| b.control_record_error().is_none()) =>
                {
                    read.push(batches.into_iter().map(|(_, b)| b).collect())
                }
                _ => break,
            }
        }
        cleanable.truncate(read.len());
        if cleanable.is_empty() {
            return Ok(Err(NothingToClean {
                first_uncleanable_offset: upper,
                bounded_by_lso,
            }));
        }
        let aborted: Vec<AbortedTxn> = self
            .aborted_transactions(fs)
            .into_iter()
            .filter(|t| t.first_offset < upper)
            .collect();

        // `buildOffsetMap`: each key's latest offset below the bound, aborted data left out.
        let mut map: SortedMap<Vec<u8>, i64> = SortedMap::new();
        let mut txns = CleanedTransactionMetadata::new(aborted.clone());
        for batch in read.iter().flatten() {
            if batch.last_offset() >= upper {
                continue;
            }
            if batch.is_control() {
                txns.on_control_batch_read(batch);
            } else if !txns.on_batch_read(batch) {
                for r in &batch.records {
                    if let Some(key) = &r.key {
                        map.insert(key.to_vec(), batch.record_offset(r));
                    }
                }
            }
        }

        // `lastRecordsOfActiveProducers`: (last data offset, epoch) of each producer.
        let last_records: Vec<(i64, Option<i64>, i16)> = self
            .producer_state
            .active_producers()
            .iter()
            .map(|(pid, e)| {
                let last = e.last_data_offset();
                (*pid, (last >= 0).then_some(last), e.producer_epoch())
            })
            .collect();

        let horizon = now_ms.saturating_add(self.config.delete_retention_ms);
        let mut stats = CleanerStats {
            start_offset: self.log_start_offset,
            end_offset: upper,
            delete_horizon_ms: horizon,
            ..Default::default()
        };
        let mut txns = CleanedTransactionMetadata::new(aborted);
        let groups = group_segments_by_size(&cleanable, self.config.segment_bytes);
        let mut replaced: Vec<LogSegment> = Vec::new();
        let mut index = 0usize;
        for group in groups {
            let range = index..index + group;
            index += group;
            let (Some(segs), Some(batches)) = (cleanable.get(range.clone()), read.get(range))
            else {
                break;
            };
            let old: Vec<i64> = segs.iter().map(|s| s.base_offset).collect();
            stats.segments_before.extend(&old);
            stats.bytes_before += segs.iter().map(|s| s.size).sum::<u64>();
            let mut kept: Vec<RecordBatch> = Vec::new();
            for batch in batches.iter().flatten() {
                stats.records_before += batch.records.len();
                if batch.last_offset() >= upper {
                    kept.push(batch.clone());
                    continue;
                }
                if let Some(b) = self.filter_batch(
                    batch,
                    &mut txns,
                    &map,
                    &last_records,
                    upper,
                    now_ms,
                    &mut stats,
                ) {
                    kept.push(b);
                }
            }
            let Some(&first) = old.first() else {
                break;
            };
            let segment = self.write_cleaned_segment(
                fs,
                first,
                &old,
                &kept,
                &std::mem::take(&mut txns.cleaned_index),
            )?;
            stats.records_after += kept.iter().map(|b| b.records.len()).sum::<usize>();
            stats.bytes_after += segment.size;
            stats.segments_after.push(segment.base_offset);
            replaced.push(segment);
        }
        // `replaceSegments`: the cleaned segments take the place of the groups (a
        // prefix of the log: every segment below the bound but the active one).
        let active = self.segments.split_off(index.min(cleanable.len()));
        self.segments = replaced;
        self.segments.extend(active);
        self.debug_check_offsets();
        Ok(Ok(stats))
    }

    /// `cleanInto`'s `RecordFilter` for one batch below the bound: the batch as it
    /// is kept (records removed, horizon stamped, or emptied), or None if it goes.
    #[allow(clippy::too_many_arguments)]
    fn filter_batch(
        &self,
        batch: &RecordBatch,
        txns: &mut CleanedTransactionMetadata,
        map: &SortedMap<Vec<u8>, i64>,
        last_records: &[(i64, Option<i64>, i16)],
        upper: i64,
        now_ms: i64,
        stats: &mut CleanerStats,
    ) -> Option<RecordBatch> {
        let can_discard = if batch.is_control() {
            txns.on_control_batch_read(batch)
        } else {
            txns.on_batch_read(batch)
        };
        let horizon_passed = batch.delete_horizon_ms().is_some_and(|h| h <= now_ms);
        let discard_records = if batch.is_control() {
            can_discard && horizon_passed
        } else {
            can_discard
        };
        let last_of_producer = batch.has_producer_id()
            && last_records
                .iter()
                .find(|(pid, _, _)| *pid == batch.producer_id)
                .is_some_and(|(_, last_data, epoch)| match last_data {
                    Some(offset) => batch.last_offset() == *offset,
                    None => batch.is_control() && batch.producer_epoch == *epoch,
                });
        let retention = if last_of_producer || batch.next_offset() == upper {
            BatchRetention::RetainEmpty
        } else if discard_records {
            BatchRetention::Delete
        } else {
            BatchRetention::DeleteEmpty
        };
        let marker_for_empty_txn = can_discard && batch.is_control();
        if !batch.is_control() && can_discard {
            stats.aborted_records_removed += batch.records.len();
        }
        if retention == BatchRetention::Delete {
            if batch.is_control() {
                stats.markers_removed.push(batch.base_offset);
            }
            return None;
        }
        let retained: Vec<crate::record::Record> = batch
            .records
            .iter()
            .filter(|r| {
                if discard_records {
                    return false;
                }
                if batch.is_control() {
                    return true;
                }
                let offset = batch.record_offset(r);
                let Some(key) = &r.key else {
                    // `shouldRetainRecord`: a record without a key is invalid in a
                    // compacted log and goes.
                    return false;
                };
                let latest = map.get(key.as_slice()).is_none_or(|o| offset >= *o);
                let keep_delete = batch.delete_horizon_ms().is_none_or(|h| now_ms < h);
                latest && (r.value.is_some() || keep_delete)
            })
            .cloned()
            .collect();
        let mut out = batch.clone();
        let tombstones = retained.iter().any(|r| r.value.is_none());
        out.records = retained;
        if !out.records.is_empty() {
            if (tombstones || marker_for_empty_txn) && batch.delete_horizon_ms().is_none() {
                out.set_delete_horizon_ms(stats.delete_horizon_ms);
                if batch.is_control() {
                    stats.horizons_set.push(batch.base_offset);
                }
            }
            Some(out)
        } else if retention == BatchRetention::RetainEmpty {
            if !batch.records.is_empty() {
                stats.empty_batches_kept += 1;
            }
            Some(out)
        } else {
            if batch.is_control() {
                stats.markers_removed.push(batch.base_offset);
            }
            None
        }
    }

    /// Writes one cleaned segment at `base` in place of `old` (their files go), with
    /// the kept batches, fresh indexes and the `.txnindex` entries still needed.
    fn write_cleaned_segment(
        &self,
        fs: &mut MemFs,
        base: i64,
        old: &[i64],
        kept: &[RecordBatch],
        txn_index: &[AbortedTxn],
    ) -> Result<LogSegment, FsError> {
        let dir = &self.dir;
        for offset in old {
            for suffix in [".log", ".index", ".timeindex", ".txnindex"] {
                let path = format!("{dir}/{}", file_name(*offset, suffix));
                if fs.exists(&path) {
                    fs.remove_file(&path)?;
                }
            }
        }
        let mut segment = LogSegment::new(base);
        segment.create_files(fs, dir)?;
        for batch in kept {
            let mut bytes = batch.encode();
            let _ = set_base_offset(&mut bytes, batch.base_offset);
            segment.append(
                fs,
                dir,
                &bytes,
                batch.last_offset(),
                batch.max_timestamp,
                self.config.index_interval_bytes,
            )?;
        }
        // `onBecomeInactiveSegment`: the last time-index entry.
        segment.maybe_append_time_index(fs, dir)?;
        if !txn_index.is_empty() {
            debug_assert!(in_append_order(txn_index), "{txn_index:?}");
            let bytes: Vec<u8> = txn_index.iter().flat_map(|t| t.encode()).collect();
            fs.write(&format!("{dir}/{}", file_name(base, ".txnindex")), &bytes)?;
        }
        Ok(segment)
    }
}

/// `groupSegmentsBySize`: consecutive segments whose logs together fit in
/// `segment.bytes` are cleaned into one. Returns each group's length.
fn group_segments_by_size(segments: &[LogSegment], max_size: u64) -> Vec<usize> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < segments.len() {
        let mut size = segments.get(i).map_or(0, |s| s.size);
        let mut n = 1;
        while let Some(next) = segments.get(i + n) {
            if size + next.size > max_size {
                break;
            }
            size += next.size;
            n += 1;
        }
        groups.push(n);
        i += n;
    }
    groups
}
