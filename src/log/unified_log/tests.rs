//! Unit tests of `UnifiedLog`: appends, rolls, recovery and markers on a `MemFs`.

use super::*;

/// A data batch of `values` from producer `pid` (epoch 0) at sequence `seq` (the
/// replica tests use it too).
pub(super) fn data(pid: i64, seq: i32, values: &[&str]) -> RecordBatch {
    let kvs = values
        .iter()
        .map(|v| (None, Some(v.as_bytes().to_vec())))
        .collect();
    RecordBatch::new_data(0, pid, 0, seq, false, 1_700_000_000_000, kvs)
}

fn new_log(fs: &mut MemFs, config: LogConfig) -> UnifiedLog {
    UnifiedLog::create(fs, "/b/data/t-0", TopicPartition::new("t", 0), config).unwrap()
}

/// `log`'s directory opened again, as a broker starting up does.
fn reopen(fs: &mut MemFs, log: &UnifiedLog) -> (UnifiedLog, RecoveryReport) {
    UnifiedLog::open(
        fs,
        &log.dir,
        log.topic_partition.clone(),
        log.config.clone(),
    )
    .unwrap()
}

#[test]
fn offsets_are_assigned_and_duplicates_write_nothing() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    let a = log
        .append_as_leader(&mut fs, data(0, 0, &["a", "b", "c"]), 0)
        .unwrap();
    assert_eq!(a.first_offset(), 0);
    let size = fs.len("/b/data/t-0/00000000000000000000.log").unwrap();
    let dup = log
        .append_as_leader(&mut fs, data(0, 0, &["a", "b", "c"]), 0)
        .unwrap();
    assert!(matches!(dup.outcome, AppendOutcome::Duplicate(_)));
    assert_eq!(dup.first_offset(), 0);
    assert_eq!(log.log_end_offset, 3);
    assert_eq!(
        fs.len("/b/data/t-0/00000000000000000000.log").unwrap(),
        size
    );
    let err = log
        .append_as_leader(&mut fs, data(0, 5, &["x"]), 0)
        .unwrap_err();
    assert_eq!(err.error(), Errors::OutOfOrderSequenceNumber);
    let b = log
        .append_as_leader(&mut fs, data(0, 3, &["d"]), 0)
        .unwrap();
    assert_eq!(b.first_offset(), 3);
    let stored = log.read_all(&fs);
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[1].batch.base_offset, 3);
}

#[test]
fn small_segments_roll_and_snapshot() {
    let mut fs = MemFs::new();
    let config = LogConfig {
        segment_bytes: 256,
        ..LogConfig::default()
    };
    let mut log = new_log(&mut fs, config);
    let payload = "x".repeat(80);
    for seq in 0..3 {
        log.append_as_leader(&mut fs, data(1000, seq, &[&payload]), 0)
            .unwrap();
    }
    assert_eq!(
        log.segments
            .iter()
            .map(|s| s.base_offset)
            .collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert!(fs.exists("/b/data/t-0/00000000000000000002.snapshot"));
}

#[test]
fn restart_rebuilds_from_snapshot_or_last_segment() {
    for snapshots in [false, true] {
        let mut fs = MemFs::new();
        let config = LogConfig {
            segment_bytes: 256,
            producer_snapshots: snapshots,
            ..LogConfig::default()
        };
        let mut log = new_log(&mut fs, config.clone());
        let payload = "x".repeat(80);
        for seq in 0..8 {
            log.append_as_leader(&mut fs, data(1000, seq, &[&payload]), 0)
                .unwrap();
        }
        assert_eq!(log.segments.len(), 8);
        assert_eq!(
            log.producer_state
                .last_entry(1000)
                .unwrap()
                .batch_metadata()
                .len(),
            5
        );
        log.close(&mut fs).unwrap();
        let (reopened, report) =
            UnifiedLog::open(&mut fs, "/b/data/t-0", TopicPartition::new("t", 0), config).unwrap();
        assert_eq!(reopened.log_end_offset, 8);
        let window = &reopened
            .producer_state
            .last_entry(1000)
            .unwrap()
            .batch_metadata();
        assert_eq!(window.len(), 1, "snapshots={snapshots}");
        assert_eq!(window[0].last_seq, 7);
        assert_eq!(report.snapshot_loaded, snapshots.then_some(8));
    }
}

#[test]
fn recovery_cuts_a_torn_write() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    log.append_as_leader(&mut fs, data(0, 0, &["a"]), 0)
        .unwrap();
    fs.append("/b/data/t-0/00000000000000000000.log", &[0, 0, 0, 9, 1])
        .unwrap();
    let (reopened, report) = UnifiedLog::open(
        &mut fs,
        "/b/data/t-0",
        TopicPartition::new("t", 0),
        LogConfig::default(),
    )
    .unwrap();
    assert_eq!(report.truncated_bytes, 5);
    assert_eq!(reopened.log_end_offset, 1);
}

fn txn(pid: i64, epoch: i16, seq: i32, values: &[&str]) -> RecordBatch {
    let kvs = values
        .iter()
        .map(|v| (None, Some(v.as_bytes().to_vec())))
        .collect();
    RecordBatch::new_data(0, pid, epoch, seq, true, 0, kvs)
}

/// Each test producer's next sequence: appends producer `pid`'s next transactional
/// batch of `values` as the leader (a plain batch when `pid` is negative).
#[derive(Default)]
struct Seqs([i32; 5]);

impl Seqs {
    fn append(&mut self, log: &mut UnifiedLog, fs: &mut MemFs, pid: i64, values: &[&str]) {
        let batch = if pid < 0 {
            data(-1, -1, values)
        } else {
            let seq = &mut self.0[pid as usize];
            let b = txn(pid, 0, *seq, values);
            *seq += values.len() as i32;
            b
        };
        log.append_as_leader(fs, batch, 0).unwrap();
    }

    /// [`Seqs::append`] of `n` records, each "v".
    fn append_n(&mut self, log: &mut UnifiedLog, fs: &mut MemFs, pid: i64, n: usize) {
        self.append(log, fs, pid, &vec!["v"; n]);
    }
}

/// Seed 000, example 1, at the log level: commit, abort, commit.
#[test]
fn markers_lso_txnindex_and_isolated_reads() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    log.append_as_leader(&mut fs, txn(0, 0, 0, &["c1", "c2", "c3"]), 0)
        .unwrap();
    assert_eq!((log.high_watermark, log.last_stable_offset()), (3, 0));
    log.append_marker(&mut fs, 0, 1, ControlRecordType::Commit, 0, 0, true)
        .unwrap();
    log.append_as_leader(&mut fs, txn(0, 1, 0, &["a1", "a2", "a3"]), 0)
        .unwrap();
    assert_eq!(
        (log.high_watermark, log.last_stable_offset()),
        (7, 4),
        "while B is open"
    );
    let committed = log
        .read(&fs, 0, usize::MAX, FetchIsolation::TxnCommitted)
        .unwrap();
    assert_eq!(committed.batch_count, 2, "read_committed stops at the LSO");
    assert_eq!(committed.aborted_transactions, Some(vec![]));
    let uncommitted = log
        .read(&fs, 0, usize::MAX, FetchIsolation::HighWatermark)
        .unwrap();
    assert_eq!(uncommitted.batch_count, 3);
    // A marker whose epoch is not newer than the data's is refused.
    let stale = log
        .append_marker(&mut fs, 0, 1, ControlRecordType::Abort, 0, 0, true)
        .unwrap_err();
    assert_eq!(stale.error(), Errors::InvalidProducerEpoch);
    log.append_marker(&mut fs, 0, 2, ControlRecordType::Abort, 0, 0, true)
        .unwrap();
    // A retry of the same marker is accepted and writes nothing.
    assert_eq!(
        log.append_marker(&mut fs, 0, 2, ControlRecordType::Abort, 0, 0, true)
            .unwrap(),
        MarkerAppend::AlreadyComplete
    );
    log.append_as_leader(&mut fs, txn(0, 2, 0, &["c4", "c5"]), 0)
        .unwrap();
    log.append_marker(&mut fs, 0, 3, ControlRecordType::Commit, 0, 0, true)
        .unwrap();
    assert_eq!(
        (
            log.high_watermark,
            log.last_stable_offset(),
            log.log_end_offset
        ),
        (11, 11, 11)
    );
    let lines: Vec<String> = log
        .aborted_transactions(&fs)
        .iter()
        .map(|t| t.dump_line())
        .collect();
    assert_eq!(
        lines,
        vec!["version: 0 producerId: 0 firstOffset: 4 lastOffset: 7 lastStableOffset: 8"]
    );
    let all = log
        .read(&fs, 0, usize::MAX, FetchIsolation::TxnCommitted)
        .unwrap();
    assert_eq!(all.batch_count, 6);
    assert_eq!(all.aborted_transactions, Some(vec![(0, 4)]));
    assert!(fs.exists("/b/data/t-0/00000000000000000000.txnindex"));
    // The open-transaction state survives a restart (snapshot or replay).
    log.append_as_leader(&mut fs, txn(0, 3, 0, &["open"]), 0)
        .unwrap();
    for clean in [true, false] {
        let mut fs2 = fs.clone();
        let mut l2 = log.clone();
        if clean {
            l2.close(&mut fs2).unwrap();
        }
        let (reopened, _) = UnifiedLog::open(
            &mut fs2,
            "/b/data/t-0",
            TopicPartition::new("t", 0),
            LogConfig::default(),
        )
        .unwrap();
        assert_eq!(reopened.last_stable_offset(), 11, "clean={clean}");
    }
}

/// `UnifiedLogTest.testTransactionIndexUpdated` (Kafka 4.0): an ABORT's `.txnindex`
/// entry holds the LSO once it completed, the first offset of the oldest other
/// transaction still open.
#[test]
fn txnindex_entries_carry_the_first_offset_of_the_next_open_transaction() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    let mut seqs = Seqs::default();
    let end = |log: &mut UnifiedLog, fs: &mut MemFs, pid: i64, kind| {
        log.append_marker(fs, pid, 0, kind, 0, 0, false).unwrap();
    };
    let (abort, commit) = (ControlRecordType::Abort, ControlRecordType::Commit);
    seqs.append_n(&mut log, &mut fs, 1, 5); // 0..4
    seqs.append_n(&mut log, &mut fs, -1, 3); // 5..7
    seqs.append_n(&mut log, &mut fs, 2, 2); // 8..9
    seqs.append_n(&mut log, &mut fs, 1, 4);
    seqs.append_n(&mut log, &mut fs, 3, 3);
    seqs.append_n(&mut log, &mut fs, -1, 2);
    seqs.append_n(&mut log, &mut fs, 1, 10); // ..28
    end(&mut log, &mut fs, 1, abort); // 29
    seqs.append_n(&mut log, &mut fs, 2, 6);
    seqs.append_n(&mut log, &mut fs, 4, 3); // 36..38
    seqs.append_n(&mut log, &mut fs, -1, 10);
    seqs.append_n(&mut log, &mut fs, 3, 9);
    end(&mut log, &mut fs, 3, commit); // 58
    seqs.append_n(&mut log, &mut fs, 4, 8);
    seqs.append_n(&mut log, &mut fs, 2, 7);
    end(&mut log, &mut fs, 2, abort); // 74
    seqs.append_n(&mut log, &mut fs, -1, 10);
    seqs.append_n(&mut log, &mut fs, 4, 4);
    end(&mut log, &mut fs, 4, commit); // 89
    let entries: Vec<(i64, i64, i64, i64)> = log
        .aborted_transactions(&fs)
        .iter()
        .map(|t| {
            (
                t.producer_id,
                t.first_offset,
                t.last_offset,
                t.last_stable_offset,
            )
        })
        .collect();
    assert_eq!(entries, [(1, 0, 29, 8), (2, 8, 74, 36)]);
}

/// An open transaction at 1 holds the LSO; producer 2's transaction 2..3 is aborted by
/// its marker at 4, past the LSO.
fn lso_held_below_an_aborted_transaction(config: LogConfig) -> (MemFs, UnifiedLog) {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, config);
    log.append_as_leader(&mut fs, data(-1, -1, &["plain"]), 0)
        .unwrap();
    log.append_as_leader(&mut fs, txn(1, 0, 0, &["open"]), 0)
        .unwrap();
    log.append_as_leader(&mut fs, txn(2, 0, 0, &["x", "y"]), 0)
        .unwrap();
    log.append_marker(&mut fs, 2, 0, ControlRecordType::Abort, 0, 0, false)
        .unwrap();
    assert_eq!((log.last_stable_offset(), log.log_end_offset), (1, 5));
    (fs, log)
}

/// `LocalLog.read` (Kafka 4.0): a read_committed fetch at or past the LSO reads nothing
/// and lists no aborted transaction (`emptyFetchDataInfo`), even one it falls inside.
#[test]
fn a_read_committed_fetch_past_the_lso_lists_no_aborted_transaction() {
    let (fs, log) = lso_held_below_an_aborted_transaction(LogConfig::default());
    for offset in [1, 3] {
        let read = log
            .read(&fs, offset, usize::MAX, FetchIsolation::TxnCommitted)
            .unwrap();
        assert_eq!(read.batch_count, 0);
        assert_eq!(read.aborted_transactions, Some(vec![]), "from {offset}");
    }
}

/// `LocalLog.addAbortedTransactions` (Kafka 4.0): the list is bounded by the first
/// `.index` entry past Kafka's slice, else the next segment or the LEO, not by the
/// bytes sent: a fetch that stops at the LSO still lists producer 2's later abort,
/// unless an index entry right after the slice bounds it.
#[test]
fn the_aborted_list_is_bounded_by_the_offset_index_not_the_bytes_sent() {
    let (fs, log) = lso_held_below_an_aborted_transaction(LogConfig::default());
    let read = log
        .read(&fs, 0, usize::MAX, FetchIsolation::TxnCommitted)
        .unwrap();
    assert_eq!(read.batch_count, 1);
    assert_eq!(read.aborted_transactions, Some(vec![(2, 2)]));

    let every_batch_indexed = LogConfig {
        index_interval_bytes: 0,
        ..LogConfig::default()
    };
    let (fs, log) = lso_held_below_an_aborted_transaction(every_batch_indexed);
    let read = log
        .read(&fs, 0, usize::MAX, FetchIsolation::TxnCommitted)
        .unwrap();
    assert_eq!(read.batch_count, 1);
    assert_eq!(read.aborted_transactions, Some(vec![]));
}

/// `UnifiedLogTest.testFetchUpToLastStableOffset` (Kafka 4.0): read_committed reads
/// something from every offset below the LSO and nothing from the LSO to the LEO, as
/// transactions of two producers complete.
#[test]
fn read_committed_fetches_are_bounded_by_the_lso() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    let mut seqs = Seqs::default();
    seqs.append_n(&mut log, &mut fs, 1, 5);
    seqs.append_n(&mut log, &mut fs, -1, 3);
    seqs.append_n(&mut log, &mut fs, 2, 2);
    seqs.append_n(&mut log, &mut fs, 1, 4);
    seqs.append_n(&mut log, &mut fs, -1, 2);
    seqs.append_n(&mut log, &mut fs, 1, 10);
    let assert_lso_bounded = |log: &UnifiedLog, fs: &MemFs| {
        for offset in log.log_start_offset()..=log.log_end_offset {
            let read = log
                .read(fs, offset, usize::MAX, FetchIsolation::TxnCommitted)
                .unwrap();
            let below = offset < log.last_stable_offset();
            assert_eq!(read.batch_count > 0, below, "from {offset}");
        }
    };
    assert_eq!(log.last_stable_offset(), 0);
    assert_lso_bounded(&log, &fs);
    log.append_marker(&mut fs, 1, 0, ControlRecordType::Commit, 0, 0, false)
        .unwrap();
    assert_eq!(log.last_stable_offset(), 8);
    assert_lso_bounded(&log, &fs);
    log.append_marker(&mut fs, 2, 0, ControlRecordType::Abort, 0, 0, false)
        .unwrap();
    assert_eq!(log.last_stable_offset(), log.log_end_offset);
    assert_lso_bounded(&log, &fs);
}

/// `LogLoaderTest.testFullTransactionIndexRecovery`'s log (Kafka 4.0): four
/// transactional producers and plain data over several segments, two aborts.
fn four_producers_over_segments(fs: &mut MemFs) -> UnifiedLog {
    let config = LogConfig {
        segment_bytes: 400,
        ..LogConfig::default()
    };
    let mut log = new_log(fs, config);
    let mut seqs = Seqs::default();
    let mut append = |log: &mut UnifiedLog, fs: &mut MemFs, pid: i64, n: usize| {
        let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        seqs.append(log, fs, pid, &values);
    };
    let marker = |log: &mut UnifiedLog, fs: &mut MemFs, pid: i64, kind| {
        log.append_marker(fs, pid, 0, kind, 0, 0, false).unwrap();
    };
    append(&mut log, fs, 1, 5); // next offset 5
    append(&mut log, fs, -1, 3); // 8
    append(&mut log, fs, 2, 2); // 10
    append(&mut log, fs, 1, 4); // 14
    append(&mut log, fs, 3, 3); // 17
    append(&mut log, fs, -1, 2); // 19
    append(&mut log, fs, 1, 10); // 29
    marker(&mut log, fs, 1, ControlRecordType::Abort); // 30
    append(&mut log, fs, 2, 6); // 36
    append(&mut log, fs, 4, 3); // 39
    append(&mut log, fs, -1, 10); // 49
    append(&mut log, fs, 3, 9); // 58
    marker(&mut log, fs, 3, ControlRecordType::Commit); // 59
    append(&mut log, fs, 4, 8); // 67
    append(&mut log, fs, 2, 7); // 74
    marker(&mut log, fs, 2, ControlRecordType::Abort); // 75
    append(&mut log, fs, -1, 10); // 85
    append(&mut log, fs, 4, 4); // 89
    marker(&mut log, fs, 4, ControlRecordType::Commit); // 90
    log
}

fn remove_files(fs: &mut MemFs, suffix: &str) {
    let dir = "/b/data/t-0";
    for name in fs.list_dir(dir).unwrap() {
        if name.ends_with(suffix) {
            fs.remove_file(&format!("{dir}/{name}")).unwrap();
        }
    }
}

/// `LogLoaderTest.testRecoverLastSegmentWithNoSnapshots` and
/// `testFullTransactionIndexRecovery` (Kafka 4.0): a crashed broker's recovery rebuilds
/// the lost `.txnindex` files from the batches (`LogSegment.recover`).
#[test]
fn recovery_rebuilds_the_transaction_index() {
    let mut fs = MemFs::new();
    let log = four_producers_over_segments(&mut fs);
    let expected = vec![
        AbortedTxn {
            producer_id: 1,
            first_offset: 0,
            last_offset: 29,
            last_stable_offset: 8,
        },
        AbortedTxn {
            producer_id: 2,
            first_offset: 8,
            last_offset: 74,
            last_stable_offset: 36,
        },
    ];
    assert_eq!(log.aborted_transactions(&fs), expected);
    assert!(log.segments.len() > 3, "{:?}", log.segments.len());
    remove_files(&mut fs, ".snapshot");
    remove_files(&mut fs, ".txnindex");
    let (reopened, _) = reopen(&mut fs, &log);
    assert_eq!(reopened.aborted_transactions(&fs), expected);
}

/// `LogLoaderTest.testRecoverOnlyLastSegment` (Kafka 4.0): from the snapshot of a
/// roll, the segments after it are recovered and their `.txnindex` rebuilt, with the
/// transaction that began in an earlier segment (`LogSegmentTest.
/// testRecoverTransactionIndex`: its first offset comes from the producer state).
#[test]
fn recovery_rebuilds_the_transaction_index_after_the_snapshot() {
    let mut fs = MemFs::new();
    let log = four_producers_over_segments(&mut fs);
    let expected = log.aborted_transactions(&fs);
    // The segment of producer 2's abort (offset 74); its transaction began at 8.
    let base = log
        .segments
        .iter()
        .rev()
        .find(|s| s.base_offset <= 74)
        .unwrap()
        .base_offset;
    assert!(base > 8, "{base}");
    let path = format!("{}/{}", log.dir, file_name(base, ".txnindex"));
    let entries = AbortedTxn::decode_all(fs.read(&path).unwrap());
    assert_eq!(
        entries.iter().map(|t| t.last_offset).collect::<Vec<_>>(),
        [74]
    );
    fs.remove_file(&path).unwrap();
    // The broker crashed before the later snapshots: it recovers from `base`.
    for name in fs.list_dir(&log.dir).unwrap() {
        if let Some((o, ".snapshot")) = offset_from_file_name(&name) {
            if o > base {
                fs.remove_file(&format!("{}/{name}", log.dir)).unwrap();
            }
        }
    }
    let (reopened, report) = reopen(&mut fs, &log);
    assert_eq!(report.snapshot_loaded, Some(base));
    assert_eq!(reopened.aborted_transactions(&fs), expected);
}

/// Kafka 4.0 `LogSegment.recover`: a marker whose control record does not parse
/// (`EndTransactionMarker.deserialize` throws `InvalidRecordException`) is counted as
/// valid before producer state reads it, so recovery keeps it and cuts what follows;
/// producer state learns nothing from it.
#[test]
fn recovery_keeps_a_malformed_marker_and_cuts_after_it() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    log.append_as_leader(&mut fs, txn(1, 0, 0, &["a"]), 0)
        .unwrap();
    let mut bad = RecordBatch::new_control(1, 1, 0, 0, ControlRecordType::Abort, 0);
    if let Some(r) = bad.records.first_mut() {
        r.value = Some(vec![0, 0, 0].into());
    }
    assert!(bad.control_record_error().is_some());
    let path = "/b/data/t-0/00000000000000000000.log";
    let marker_end = fs.read(path).unwrap().len() + bad.encode().len();
    fs.append(path, &bad.encode()).unwrap();
    let after = RecordBatch::new_data(2, 2, 0, 0, false, 0, vec![(None, Some(vec![1]))]);
    fs.append(path, &after.encode()).unwrap();
    let (reopened, report) = UnifiedLog::open(
        &mut fs,
        "/b/data/t-0",
        TopicPartition::new("t", 0),
        LogConfig::default(),
    )
    .unwrap();
    assert_eq!(report.corrupt_segment, Some((0, marker_end as u64)));
    assert_eq!(reopened.log_end_offset, 2);
    let state = reopened.producer_state();
    assert_eq!(
        state.last_entry(1).unwrap().current_txn_first_offset(),
        Some(0)
    );
    assert!(state.last_entry(2).is_none());
}

/// `ProducerStateManagerTest.testRemoveExpiredPidsOnReload` and
/// `testLoadFromSnapshotRetainsNonExpiredProducers` (Kafka 4.0): the producers of the
/// snapshot that are expired when the broker starts are not loaded; one with an open
/// transaction, and one read back from the log after the snapshot, are.
#[test]
fn a_start_does_not_load_the_snapshots_expired_producers() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    let ts = 1_700_000_000_000;
    log.append_as_leader(&mut fs, data(1, 0, &["a"]), 0)
        .unwrap();
    let mut open = txn(2, 0, 0, &["t"]);
    open.max_timestamp = ts;
    log.append_as_leader(&mut fs, open, 0).unwrap();
    log.close(&mut fs).unwrap();
    // Producer 3 writes after the snapshot: the start reads it from the log.
    log.append_as_leader(&mut fs, data(3, 0, &["b"]), 0)
        .unwrap();
    let expiration = log.config.producer_id_expiration_ms;
    let start = |fs: &MemFs, now_ms: i64| {
        let mut fs = fs.clone();
        let (l, _) = UnifiedLog::open_after_stop(
            &mut fs,
            &log.dir,
            log.topic_partition.clone(),
            log.config.clone(),
            0,
            false,
            Some(now_ms),
        )
        .unwrap();
        l.producer_state()
            .active_producers()
            .keys()
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(start(&fs, ts + expiration - 1), [1, 2, 3]);
    assert_eq!(start(&fs, ts + expiration), [2, 3]);
}

/// `ProducerStateManagerTest.testSkipSnapshotIfOffsetUnchanged` (Kafka 4.0): no second
/// snapshot at an offset already snapshotted, none of a log with nothing in it, and
/// none at the offset the start loaded.
#[test]
fn a_snapshot_is_taken_only_when_the_offset_moved() {
    let mut fs = MemFs::new();
    let mut log = new_log(&mut fs, LogConfig::default());
    assert_eq!(log.close(&mut fs).unwrap(), None);
    log.append_as_leader(&mut fs, data(1, 0, &["a"]), 0)
        .unwrap();
    let first = log.take_snapshot(&mut fs).unwrap();
    assert_eq!(
        first.as_deref(),
        Some("/b/data/t-0/00000000000000000001.snapshot")
    );
    assert_eq!(log.take_snapshot(&mut fs).unwrap(), None);
    assert_eq!(log.close(&mut fs).unwrap(), None);
    let (mut reopened, report) = reopen(&mut fs, &log);
    assert_eq!(report.snapshot_loaded, Some(1));
    assert_eq!(reopened.close(&mut fs).unwrap(), None);
}
