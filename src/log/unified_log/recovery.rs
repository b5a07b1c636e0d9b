//! Opening a log when a broker starts: find the segments, cut a torn tail, rebuild
//! producer state from the latest snapshot plus the log after it.

use super::*;

impl UnifiedLog {
    /// Opens a log from its folder, as a starting broker does: find the segments,
    /// recover torn writes at the end, then rebuild producer state — from the latest
    /// snapshot plus the log after it, or (snapshots off) from the last segment only.
    pub fn open(
        fs: &mut MemFs,
        dir: &str,
        tp: TopicPartition,
        config: LogConfig,
    ) -> Result<(Self, RecoveryReport), FsError> {
        Self::open_with_log_start(fs, dir, tp, config, 0)
    }

    /// [`UnifiedLog::open`] with the log start offset the broker checkpointed
    /// (`log-start-offset-checkpoint`): the log starts at the larger of it and the
    /// first segment's base (`LogLoader`), snapshots at or below it are deleted and
    /// producer state is rebuilt from it (`truncateAndReload`, `rebuildProducerState`).
    pub fn open_with_log_start(
        fs: &mut MemFs,
        dir: &str,
        tp: TopicPartition,
        config: LogConfig,
        log_start_checkpoint: i64,
    ) -> Result<(Self, RecoveryReport), FsError> {
        Self::open_after_stop(fs, dir, tp, config, log_start_checkpoint, false, None)
    }

    /// [`UnifiedLog::open_with_log_start`] for a broker that stopped cleanly
    /// (`clean_shutdown`: Kafka's `.kafka_cleanshutdown` file) or crashed. It matters
    /// only when no snapshot is found: Kafka 4.0's `UnifiedLog.rebuildProducerState`
    /// then reads the whole log after a crash, but after a clean shutdown takes it for
    /// an upgrade from a broker that wrote none and starts from an empty producer
    /// state at the log end (it skips the scan).
    ///
    /// `now_ms`, the broker's clock as it starts: the producers of the snapshot that
    /// are expired by then are not loaded (`ProducerStateManager.loadFromSnapshot`,
    /// Kafka 4.0; `ProducerStateManagerTest.testRemoveExpiredPidsOnReload`). None
    /// loads them all (a folder read with no clock, or a replica reloaded after a
    /// truncation).
    pub fn open_after_stop(
        fs: &mut MemFs,
        dir: &str,
        tp: TopicPartition,
        config: LogConfig,
        log_start_checkpoint: i64,
        clean_shutdown: bool,
        now_ms: Option<i64>,
    ) -> Result<(Self, RecoveryReport), FsError> {
        let names = fs.list_dir(dir)?;
        let mut bases: Vec<i64> = names
            .iter()
            .filter_map(|n| offset_from_file_name(n))
            .filter(|(_, suffix)| *suffix == ".log")
            .map(|(o, _)| o)
            .collect();
        // Listed in name order, which is offset order: linear, and no std sort in the wasm.
        crate::util::ordered::sort_by(&mut bases, i64::cmp);
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
            ..Default::default()
        };
        let (segments, all_batches) = load_segments(fs, dir, &bases, &mut report)?;
        report.segments = segments
            .iter()
            .map(|s: &LogSegment| s.base_offset)
            .collect();
        let log_end_offset = segments.last().map_or(0, |s| s.next_offset);
        let log_start_offset = bases
            .first()
            .copied()
            .unwrap_or(0)
            .max(log_start_checkpoint)
            .min(log_end_offset);
        // At or below the log start (one at offset 0 can only be empty, so it may stay).
        remove_snapshots(fs, dir, &names, |o| {
            o <= log_start_offset && log_start_offset > 0
        })?;
        report
            .segments
            .retain(|b| !report.deleted_segments.contains(b));
        // Past the log end.
        remove_snapshots(fs, dir, &names, |o| o > log_end_offset)?;
        let (mut producer_state, replay_from) = if config.producer_snapshots {
            let offsets = Offsets {
                log_start: log_start_offset,
                log_end: log_end_offset,
            };
            let (mut state, from) =
                load_from_snapshot(fs, dir, &names, offsets, clean_shutdown, &mut report)?;
            if let (Some(now_ms), Some(_)) = (now_ms, report.snapshot_loaded) {
                state.remove_expired_producers(now_ms, config.producer_id_expiration_ms);
            }
            (state, from)
        } else {
            // Without snapshots, only the active segment is scanned.
            let from = segments.last().map_or(0, |s| s.base_offset);
            (ProducerStateManager::default(), from)
        };
        let replay = Replay {
            from: replay_from,
            log_start: log_start_offset,
        };
        let rebuilt = replay_batches(
            &mut producer_state,
            &all_batches,
            &segments,
            replay,
            &mut report,
        );
        // NOT KAFKA `producer_snapshots` off replays the last segment from an empty
        // state, which cannot know where older transactions began: the files stay.
        if config.producer_snapshots {
            rebuild_txn_indexes(fs, dir, &segments, replay, &rebuilt, &report)?;
        }
        producer_state.update_map_end_offset(log_end_offset);
        if report.snapshot_loaded.is_none() {
            producer_state.set_last_snap_offset(log_start_offset);
        }
        report.log_end_offset = log_end_offset;
        let mut log = UnifiedLog {
            topic_partition: tp,
            dir: dir.to_string(),
            config,
            segments,
            producer_state,
            log_start_offset,
            log_end_offset,
            high_watermark: log_end_offset,
            replicated: false,
            leader_epoch: 0,
            epochs: replica::read_epoch_checkpoint(fs, dir),
        };
        log.truncate_epochs_from_start(log_start_offset);
        log.debug_check_offsets();
        Ok((log, report))
    }
}

/// Each batch read from the segments, with the index of the segment it is in.
type SegmentBatches = Vec<(usize, RecordBatch)>;

/// `LogLoader.loadSegmentFiles` and `recoverLog` (Kafka 4.0): each segment's batches up
/// to its first invalid one (`LogSegment.recover`), the torn tail cut with its index
/// entries; after a cut, every later segment is deleted ("delete all remaining log").
fn load_segments(
    fs: &mut MemFs,
    dir: &str,
    bases: &[i64],
    report: &mut RecoveryReport,
) -> Result<(Vec<LogSegment>, SegmentBatches), FsError> {
    let mut segments = Vec::new();
    let mut all_batches: SegmentBatches = Vec::new();
    for (i, base) in bases.iter().enumerate() {
        if report.truncated_bytes > 0 {
            delete_segment_files(fs, dir, *base)?;
            report.deleted_segments.push(*base);
            continue;
        }
        let mut seg = LogSegment::new(*base);
        let path = seg.log_path(dir);
        let bytes = fs.read(&path)?.to_vec();
        let (batches, valid_len) = decode_valid_prefix(&bytes);
        if valid_len < bytes.len() as u64 {
            report.truncated_bytes += bytes.len() as u64 - valid_len;
            report.corrupt_segment = Some((*base, valid_len));
            fs.truncate(&path, valid_len)?;
            let next = batches.last().map_or(*base, RecordBatch::next_offset);
            truncate_indexes(fs, dir, *base, valid_len, next)?;
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
    Ok((segments, all_batches))
}

/// A segment's files, gone (the segments after a truncated one).
fn delete_segment_files(fs: &mut MemFs, dir: &str, base: i64) -> Result<(), FsError> {
    for suffix in [".log", ".index", ".timeindex", ".txnindex"] {
        let file = format!("{dir}/{}", file_name(base, suffix));
        if fs.exists(&file) {
            fs.remove_file(&file)?;
        }
    }
    Ok(())
}

/// `ProducerStateManager.truncateAndReload`: "remove all out of range snapshots" —
/// the listed snapshots whose offset is `out_of_range`.
fn remove_snapshots(
    fs: &mut MemFs,
    dir: &str,
    names: &[String],
    out_of_range: impl Fn(i64) -> bool,
) -> Result<(), FsError> {
    for name in names {
        if let Some((o, ".snapshot")) = offset_from_file_name(name) {
            let path = format!("{dir}/{name}");
            if out_of_range(o) && fs.exists(&path) {
                fs.remove_file(&path)?;
            }
        }
    }
    Ok(())
}

/// The log's start and end offsets once its segments are loaded.
#[derive(Clone, Copy)]
struct Offsets {
    log_start: i64,
    log_end: i64,
}

/// `ProducerStateManager.loadFromSnapshot`: the latest snapshot in range that reads; a
/// corrupt one (CorruptSnapshotException) is deleted and the next older one tried, down
/// to none (then the log is replayed from its start, or after a clean shutdown not at
/// all: `UnifiedLog.rebuildProducerState`'s "upgrade" case). Returns the state and the
/// offset the replay starts from.
fn load_from_snapshot(
    fs: &mut MemFs,
    dir: &str,
    names: &[String],
    offsets: Offsets,
    clean_shutdown: bool,
    report: &mut RecoveryReport,
) -> Result<(ProducerStateManager, i64), FsError> {
    let Offsets { log_start, log_end } = offsets;
    let mut candidates: Vec<i64> = names
        .iter()
        .filter_map(|n| offset_from_file_name(n))
        .filter(|(o, suffix)| {
            *suffix == ".snapshot" && *o <= log_end && (*o > log_start || log_start == 0)
        })
        .map(|(o, _)| o)
        .collect();
    crate::util::ordered::sort_by(&mut candidates, i64::cmp);
    while let Some(offset) = candidates.pop() {
        let path = format!("{dir}/{}", file_name(offset, ".snapshot"));
        match ProducerStateManager::from_snapshot(fs.read(&path)?, offset) {
            Ok(state) => {
                report.snapshot_loaded = Some(offset);
                return Ok((state, offset));
            }
            Err(_) => {
                fs.remove_file(&path)?;
                report.corrupt_snapshots.push(offset);
            }
        }
    }
    // No snapshot after a clean shutdown: Kafka skips loading — nothing is replayed.
    let from = if clean_shutdown { log_end } else { 0 };
    Ok((ProducerStateManager::default(), from))
}

/// Where the producer-state replay starts, and the log start it must reach.
#[derive(Clone, Copy)]
struct Replay {
    from: i64,
    log_start: i64,
}

/// `UnifiedLog.rebuildProducerState`: the batches after the snapshot update producer
/// state. Kafka reads from max(segment base, map end, log start): the batch that holds
/// the log start and every later one. Returns the `.txnindex` entries of the aborted
/// transactions whose markers the replay read (`LogSegment.updateProducerState`), each
/// with the index of its marker's segment.
fn replay_batches(
    producer_state: &mut ProducerStateManager,
    all_batches: &[(usize, RecordBatch)],
    segments: &[LogSegment],
    replay: Replay,
    report: &mut RecoveryReport,
) -> Vec<(usize, AbortedTxn)> {
    let mut replayed = crate::util::sorted_set::SortedSet::new();
    let mut rebuilt = Vec::new();
    for (i, batch) in all_batches {
        if replay.reads(batch) {
            let completed = producer_state.update(batch);
            if let Some(txn) = completed.filter(|t| t.is_aborted) {
                rebuilt.push((*i, producer_state.aborted_txn_entry(&txn)));
            }
            report.replayed_batches += 1;
            if let Some(seg) = segments.get(*i) {
                replayed.insert(seg.base_offset);
            }
        }
    }
    report.replayed_segments = replayed.into_iter().collect();
    rebuilt
}

impl Replay {
    /// Whether the producer-state replay reads `batch`.
    fn reads(&self, batch: &RecordBatch) -> bool {
        batch.base_offset >= self.from && batch.last_offset() >= self.log_start
    }
}

/// `LogSegment.recover` resets a recovered segment's transaction index and appends an
/// entry for each ABORT marker it reads (Kafka 4.0; `LogSegmentTest.
/// testRecoverTransactionIndex`, `LogLoaderTest.testFullTransactionIndexRecovery`):
/// a lost or damaged `.txnindex` is rebuilt from the batches. Kafka recovers the
/// segments after the recovery point, each from the producer state of the snapshot
/// below it; here the segments the replay read are rebuilt (their entries for markers
/// before the snapshot stay as they were), from the replay's own producer state.
fn rebuild_txn_indexes(
    fs: &mut MemFs,
    dir: &str,
    segments: &[LogSegment],
    replay: Replay,
    rebuilt: &[(usize, AbortedTxn)],
    report: &RecoveryReport,
) -> Result<(), FsError> {
    for (i, seg) in segments.iter().enumerate() {
        if !report.replayed_segments.contains(&seg.base_offset) {
            continue;
        }
        let path = format!("{dir}/{}", file_name(seg.base_offset, ".txnindex"));
        let existing = if fs.exists(&path) {
            AbortedTxn::decode_all(fs.read(&path)?)
        } else {
            Vec::new()
        };
        // Markers below the replay's start were not read again: their entries stay.
        let kept = existing
            .into_iter()
            .filter(|t| t.last_offset < replay.from || t.last_offset < replay.log_start);
        let fresh = rebuilt.iter().filter(|(s, _)| *s == i).map(|(_, t)| *t);
        let entries: Vec<AbortedTxn> = kept.chain(fresh).collect();
        debug_assert!(in_append_order(&entries), "{entries:?}");
        let bytes: Vec<u8> = entries.iter().flat_map(AbortedTxn::encode).collect();
        // Like Kafka's index, the file is created by its first entry.
        if !bytes.is_empty() || fs.exists(&path) {
            fs.write(&path, &bytes)?;
        }
    }
    Ok(())
}

/// `LogSegment.recover` after a cut: index entries past the valid bytes go, and
/// `.txnindex` entries whose marker is gone.
fn truncate_indexes(
    fs: &mut MemFs,
    dir: &str,
    base: i64,
    valid_len: u64,
    next_offset: i64,
) -> Result<(), FsError> {
    let seg = LogSegment::new(base);
    // A folder may lack its index files (Kafka rebuilds them): nothing to cut then.
    if !fs.exists(&seg.index_path(dir)) || !fs.exists(&seg.time_index_path(dir)) {
        return Ok(());
    }
    let index: Vec<u8> =
        crate::log::segment::read_offset_index(fs.read(&seg.index_path(dir))?, base)
            .into_iter()
            .filter(|(_, pos)| u64::from(*pos) < valid_len)
            .flat_map(|(o, pos)| {
                let mut e = ((o - base) as i32).to_be_bytes().to_vec();
                e.extend_from_slice(&pos.to_be_bytes());
                e
            })
            .collect();
    fs.write(&seg.index_path(dir), &index)?;
    let times: Vec<u8> =
        crate::log::segment::read_time_index(fs.read(&seg.time_index_path(dir))?, base)
            .into_iter()
            .filter(|(_, o)| *o < next_offset)
            .flat_map(|(t, o)| {
                let mut e = t.to_be_bytes().to_vec();
                e.extend_from_slice(&((o - base) as i32).to_be_bytes());
                e
            })
            .collect();
    fs.write(&seg.time_index_path(dir), &times)?;
    let txn_path = format!("{dir}/{}", file_name(base, ".txnindex"));
    if fs.exists(&txn_path) {
        let kept: Vec<u8> = AbortedTxn::decode_all(fs.read(&txn_path)?)
            .into_iter()
            .filter(|t| t.last_offset < next_offset)
            .flat_map(|t| t.encode())
            .collect();
        fs.write(&txn_path, &kept)?;
    }
    Ok(())
}

/// The batches that decode cleanly from the start of a segment, and their byte length;
/// what follows the first bad batch is a torn write that recovery cuts off.
///
/// A transaction marker whose control record does not parse stops the segment too,
/// but is kept: Kafka 4.0's `LogSegment.recover` counts a batch's bytes as valid
/// before it updates producer state, whose `EndTransactionMarker.deserialize` then
/// throws `InvalidRecordException`, and the recovery cuts after that batch.
fn decode_valid_prefix(bytes: &[u8]) -> (Vec<RecordBatch>, u64) {
    let mut batches = Vec::new();
    let mut pos = 0usize;
    while pos < bytes.len() {
        match RecordBatch::decode(bytes.get(pos..).unwrap_or_default()) {
            Ok((batch, used)) => {
                let malformed_marker = batch.control_record_error().is_some();
                batches.push(batch);
                pos += used;
                if malformed_marker {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    (batches, pos as u64)
}
