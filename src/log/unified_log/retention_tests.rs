//! Unit tests of the log start offset and retention, after Kafka's `UnifiedLogTest`
//! (testDeleteRecords*, testLogDeletionAfterDeleteRecords, testRetentionDeletesProducerStateSnapshots
//! and friends), `LeaderEpochFileCacheTest.shouldUpdateSavedOffsetWhenOffsetToClearToIsBetweenEpochs`
//! and `ProducerStateManagerTest` (producer state outlives the log start).

use super::*;

const DIR: &str = "/b/data/t-0";

fn batch(pid: i64, seq: i32, ts: i64, txn: bool) -> RecordBatch {
    let kvs = vec![(None, Some("x".repeat(80).into_bytes()))];
    RecordBatch::new_data(0, pid, 0, seq, txn, ts, kvs)
}

/// A log of small segments holding one 80-byte batch each: offsets 0..n.
fn log_of(fs: &mut MemFs, n: i32, config: LogConfig) -> UnifiedLog {
    let mut log = UnifiedLog::create(fs, DIR, TopicPartition::new("t", 0), config).unwrap();
    for seq in 0..n {
        log.append_as_leader(fs, batch(7, seq, 1000 * i64::from(seq), false), 0)
            .unwrap();
    }
    log
}

fn small() -> LogConfig {
    LogConfig {
        segment_bytes: 256,
        ..LogConfig::default()
    }
}

fn bases(log: &UnifiedLog) -> Vec<i64> {
    log.segments().iter().map(|s| s.base_offset).collect()
}

const CLIENT: LogStartOffsetIncrementReason = LogStartOffsetIncrementReason::ClientRecordDeletion;

#[test]
fn log_start_never_passes_the_hw_and_never_goes_back() {
    let mut fs = MemFs::new();
    let mut log = log_of(&mut fs, 4, small());
    assert_eq!(
        log.maybe_increment_log_start_offset(&mut fs, 5, CLIENT),
        Err(Errors::OffsetOutOfRange)
    );
    assert_eq!(
        log.maybe_increment_log_start_offset(&mut fs, 2, CLIENT),
        Ok(true)
    );
    assert_eq!(
        log.maybe_increment_log_start_offset(&mut fs, 1, CLIENT),
        Ok(false)
    );
    assert_eq!(log.log_start_offset(), 2);
    // Up to the HW itself is allowed (DeleteRecords with -1).
    assert_eq!(
        log.maybe_increment_log_start_offset(&mut fs, 4, CLIENT),
        Ok(true)
    );
    assert_eq!(
        log.read(&fs, 3, 1000, FetchIsolation::LogEnd).err(),
        Some(Errors::OffsetOutOfRange)
    );
}

#[test]
fn producer_state_outlives_the_log_start_in_memory() {
    let mut fs = MemFs::new();
    let mut log = log_of(&mut fs, 4, small());
    log.maybe_increment_log_start_offset(&mut fs, 4, CLIENT)
        .unwrap();
    log.delete_old_segments(&mut fs, 0).unwrap();
    // `onLogStartOffsetIncremented` removes no producer: a retry is still a duplicate.
    assert!(log.producer_state().last_entry(7).is_some());
    let again = log
        .append_as_leader(&mut fs, batch(7, 3, 3000, false), 0)
        .unwrap();
    assert!(matches!(again.outcome, AppendOutcome::Duplicate(_)));
}

#[test]
fn segments_below_the_log_start_go_at_the_next_check_with_their_files() {
    let mut fs = MemFs::new();
    let mut log = log_of(&mut fs, 4, small());
    assert_eq!(bases(&log), vec![0, 1, 2, 3]);
    log.maybe_increment_log_start_offset(&mut fs, 2, CLIENT)
        .unwrap();
    // Moving the log start deletes nothing by itself.
    assert!(fs.exists(&format!("{DIR}/00000000000000000000.log")));
    let done = log.delete_old_segments(&mut fs, 0).unwrap();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].reason, SegmentDeletionReason::StartOffsetBreach);
    assert_eq!(done[0].segments, vec![0, 1]);
    assert_eq!(bases(&log), vec![2, 3]);
    for base in [0, 1] {
        for suffix in [".log", ".index", ".timeindex", ".snapshot"] {
            let path = format!("{DIR}/{}", file_name(base, suffix));
            assert!(!fs.exists(&path), "{path} should be gone");
        }
    }
    assert!(fs.exists(&format!("{DIR}/00000000000000000002.snapshot")));
}

#[test]
fn a_segment_straddling_the_log_start_stays() {
    let mut fs = MemFs::new();
    let mut log = UnifiedLog::create(&mut fs, DIR, TopicPartition::new("t", 0), small()).unwrap();
    // Two batches of two records: segments [0,1] and [2,3].
    for seq in [0, 2] {
        let kvs = vec![(None, Some(vec![b'x'; 60])), (None, Some(vec![b'y'; 60]))];
        let b = RecordBatch::new_data(0, 7, 0, seq, false, 0, kvs);
        log.append_as_leader(&mut fs, b, 0).unwrap();
    }
    assert_eq!(bases(&log), vec![0, 2]);
    log.maybe_increment_log_start_offset(&mut fs, 1, CLIENT)
        .unwrap();
    assert!(log.delete_old_segments(&mut fs, 0).unwrap().is_empty());
    assert_eq!(bases(&log), vec![0, 2]);
    assert_eq!(log.log_start_offset(), 1);
}

#[test]
fn retention_ms_uses_the_largest_timestamp_and_rolls_when_all_go() {
    let mut fs = MemFs::new();
    let config = LogConfig {
        retention_ms: 10_000,
        ..small()
    };
    // Timestamps 0, 1000, 2000, 3000.
    let mut log = log_of(&mut fs, 4, config);
    assert!(log.delete_old_segments(&mut fs, 10_000).unwrap().is_empty());
    let done = log.delete_old_segments(&mut fs, 11_500).unwrap();
    assert_eq!(done[0].reason, SegmentDeletionReason::RetentionMsBreach);
    assert_eq!(done[0].segments, vec![0, 1]);
    assert_eq!(log.log_start_offset(), 2);
    // All old: the active segment goes too, after a roll (a log keeps one segment).
    let done = log.delete_old_segments(&mut fs, 100_000).unwrap();
    assert_eq!(done[0].segments, vec![2, 3]);
    assert_eq!(done[0].rolled_segment, Some(4));
    assert_eq!(bases(&log), vec![4]);
    assert_eq!(log.log_start_offset(), 4);
    assert_eq!(log.log_end_offset(), 4);
    // The empty last segment is never deleted.
    assert!(log
        .delete_old_segments(&mut fs, 200_000)
        .unwrap()
        .is_empty());
}

#[test]
fn retention_bytes_deletes_while_the_log_stays_above_it() {
    let mut fs = MemFs::new();
    let mut log = log_of(&mut fs, 4, small());
    let seg = log.segments()[0].size;
    log.config.retention_bytes = (2 * seg + seg / 2) as i64;
    let done = log.delete_old_segments(&mut fs, 0).unwrap();
    assert_eq!(done[0].reason, SegmentDeletionReason::RetentionSizeBreach);
    // 4 segments, limit 2.5: one goes (the log is then 3 segments, 0.5 above, less
    // than a segment).
    assert_eq!(done[0].segments, vec![0]);
    assert_eq!(log.log_start_offset(), 1);
}

#[test]
fn segments_at_or_above_the_hw_are_never_deleted() {
    let mut fs = MemFs::new();
    let mut log = log_of(
        &mut fs,
        4,
        LogConfig {
            retention_ms: 0,
            ..small()
        },
    );
    log.set_replicated(true);
    log.update_high_watermark(2);
    let done = log.delete_old_segments(&mut fs, 1_000_000).unwrap();
    assert_eq!(done[0].segments, vec![0, 1]);
    assert_eq!(bases(&log), vec![2, 3]);
}

#[test]
fn the_lso_never_falls_below_the_log_start() {
    let mut fs = MemFs::new();
    let mut log = UnifiedLog::create(&mut fs, DIR, TopicPartition::new("t", 0), small()).unwrap();
    log.append_as_leader(&mut fs, batch(7, 0, 0, true), 0)
        .unwrap();
    log.append_as_leader(&mut fs, batch(8, 0, 0, false), 0)
        .unwrap();
    assert_eq!(log.last_stable_offset(), 0);
    // DeleteRecords is bounded by the HW only, not the LSO.
    log.maybe_increment_log_start_offset(&mut fs, 1, CLIENT)
        .unwrap();
    assert_eq!(log.last_stable_offset(), 1);
    assert_eq!(log.first_unstable_offset(), Some(0));
}

#[test]
fn epoch_cache_is_cut_from_the_start() {
    let mut fs = MemFs::new();
    let mut log = log_of(&mut fs, 0, small());
    log.epochs = vec![(2, 6), (3, 8), (4, 11)];
    assert!(log.truncate_epochs_from_start(9));
    assert_eq!(log.epochs(), &[(3, 9), (4, 11)]);
    assert!(!log.truncate_epochs_from_start(5));
    assert!(log.truncate_epochs_from_start(11));
    assert_eq!(log.epochs(), &[(4, 11)]);
}

#[test]
fn a_restart_keeps_the_checkpointed_log_start_and_rebuilds_from_it() {
    let mut fs = MemFs::new();
    let config = small();
    let mut log = log_of(&mut fs, 4, config.clone());
    log.maybe_increment_log_start_offset(&mut fs, 4, CLIENT)
        .unwrap();
    log.delete_old_segments(&mut fs, 0).unwrap();
    assert_eq!(bases(&log), vec![3]);
    // A crash: the latest snapshot (3) is at or below the log start (4), so it is
    // deleted and producer state is rebuilt from the log start: producer 7 is gone.
    let tp = TopicPartition::new("t", 0);
    let (reopened, report) =
        UnifiedLog::open_with_log_start(&mut fs, DIR, tp.clone(), config.clone(), 4).unwrap();
    assert_eq!(reopened.log_start_offset(), 4);
    assert_eq!(report.snapshot_loaded, None);
    assert!(reopened.producer_state().last_entry(7).is_none());
    assert!(!fs.exists(&format!("{DIR}/00000000000000000003.snapshot")));
    // Without the checkpoint the log starts at its first segment.
    let (plain, _) = UnifiedLog::open(&mut fs, DIR, tp, config).unwrap();
    assert_eq!(plain.log_start_offset(), 3);
}

#[test]
fn a_compacted_log_keeps_its_segments_past_retention() {
    let mut fs = MemFs::new();
    let config = LogConfig {
        retention_ms: 0,
        retention_bytes: 0,
        cleanup_policy_delete: false,
        ..small()
    };
    let mut log = log_of(&mut fs, 4, config);
    assert!(log
        .delete_old_segments(&mut fs, 1_000_000)
        .unwrap()
        .is_empty());
    assert_eq!(log.next_retention_work_ms(1_000_000), None);
    // Segments below the log start still go (`deleteLogStartOffsetBreachedSegments`).
    log.maybe_increment_log_start_offset(&mut fs, 2, CLIENT)
        .unwrap();
    assert_eq!(log.next_retention_work_ms(7), Some(7));
    assert_eq!(
        log.delete_old_segments(&mut fs, 7).unwrap()[0].segments,
        vec![0, 1]
    );
}

/// `UnifiedLogTest.testTruncateFullyAndStartAt`-style: everything goes, the log
/// starts empty at the offset, and the next append lands there.
#[test]
fn truncate_fully_starts_an_empty_log_at_the_offset() {
    let mut fs = MemFs::new();
    let mut log = log_of(&mut fs, 3, small());
    assert_eq!(log.truncate_fully_and_start_at(&mut fs, 10), Ok(3));
    assert_eq!(bases(&log), vec![10]);
    assert_eq!(
        (
            log.log_start_offset(),
            log.high_watermark(),
            log.log_end_offset()
        ),
        (10, 10, 10)
    );
    assert!(log.producer_state().active_producers().is_empty());
    assert!(!fs.exists(&format!("{DIR}/00000000000000000000.log")));
    assert!(!fs.exists(&format!("{DIR}/00000000000000000001.snapshot")));
    let b = log
        .append_as_leader(&mut fs, batch(8, 0, 0, false), 0)
        .unwrap();
    assert_eq!(b.first_offset(), 10);
}
