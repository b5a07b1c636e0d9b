//! `LogCleanerTest`'s transaction cases (Kafka 4.0), on `UnifiedLog::clean`: keys are
//! numbers, each transactional producer appends as the leader, markers come from the
//! coordinator (before TV2: the data's own epoch).

use super::*;

/// `delete.retention.ms`, as in `LogCleanerTest` (a day).
const RETENTION_MS: i64 = 86_400_000;
/// Kafka's `largeTimestamp`: every delete horizon stamped so far has passed.
const LARGE: i64 = i64::MAX - RETENTION_MS - 1;

struct Fixture {
    fs: MemFs,
    log: UnifiedLog,
    seqs: [i32; 3],
}

impl Fixture {
    fn new(segment_bytes: u64) -> Self {
        let mut fs = MemFs::new();
        let config = LogConfig {
            segment_bytes,
            cleanup_policy_compact: true,
            cleanup_policy_delete: false,
            delete_retention_ms: RETENTION_MS,
            ..LogConfig::default()
        };
        let log = UnifiedLog::create(&mut fs, "/b/data/t-0", TopicPartition::new("t", 0), config)
            .unwrap();
        Fixture {
            fs,
            log,
            seqs: [0; 3],
        }
    }

    /// `appendTransactionalAsLeader(log, pid, 0)(keys)`.
    fn txn(&mut self, pid: i64, keys: &[i64]) {
        let kvs = keys
            .iter()
            .map(|k| (Some(k.to_string().into_bytes()), Some(b"v".to_vec())))
            .collect();
        let seq = &mut self.seqs[pid as usize];
        let batch = RecordBatch::new_data(0, pid, 0, *seq, true, 0, kvs);
        *seq += keys.len() as i32;
        self.log.append_as_leader(&mut self.fs, batch, 0).unwrap();
    }

    fn marker(&mut self, pid: i64, kind: ControlRecordType) {
        self.log
            .append_marker(&mut self.fs, pid, 0, kind, 0, 0, false)
            .unwrap();
    }

    fn roll(&mut self) {
        self.log.roll(&mut self.fs).unwrap();
    }

    fn clean(&mut self, now: i64) {
        let _ = self.log.clean(&mut self.fs, now).unwrap();
    }

    /// `runTwoPassClean`: a pass at `now`, then one after its delete horizon.
    fn two_pass(&mut self, now: i64) {
        self.clean(now);
        self.clean(now + RETENTION_MS + 1);
    }

    fn batches(&self) -> Vec<RecordBatch> {
        self.log
            .read_all(&self.fs)
            .into_iter()
            .map(|s| s.batch)
            .collect()
    }

    /// `keysInLog`: the keys of the data records.
    fn keys(&self) -> Vec<i64> {
        self.batches()
            .iter()
            .filter(|b| !b.is_control())
            .flat_map(|b| b.records.clone())
            .filter(|r| r.value.is_some())
            .filter_map(|r| String::from_utf8(r.key?.into()).ok()?.parse().ok())
            .collect()
    }

    /// `offsetsInLog`: the offsets of the records with a key and a value, markers too.
    fn offsets(&self) -> Vec<i64> {
        self.batches()
            .iter()
            .flat_map(|b| {
                b.records
                    .iter()
                    .filter(|r| r.key.is_some() && r.value.is_some())
                    .map(|r| b.record_offset(r))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// `lastOffsetsPerBatchInLog`.
    fn last_offsets(&self) -> Vec<i64> {
        self.batches()
            .iter()
            .map(RecordBatch::last_offset)
            .collect()
    }
}

/// `LogCleanerTest.testAbortMarkerRemoval`: aborted records go at once; the ABORT
/// marker is stamped by the next pass and removed by the one after its horizon.
#[test]
fn abort_marker_removal() {
    let mut f = Fixture::new(256);
    f.txn(1, &[1]);
    f.txn(1, &[2, 3]);
    f.marker(1, ControlRecordType::Abort);
    f.txn(1, &[3]);
    f.marker(1, ControlRecordType::Commit);
    f.roll();
    f.clean(LARGE);
    assert_eq!(f.keys(), [3]);
    assert_eq!(f.offsets(), [3, 4, 5]);
    f.two_pass(LARGE);
    assert_eq!(f.keys(), [3]);
    assert_eq!(f.offsets(), [4, 5]);
}

/// `LogCleanerTest.testAbortMarkerRetentionWithEmptyBatch`: the producer's last batch
/// stays (emptied) for its sequence and, while it does, the ABORT marker and its
/// `.txnindex` entry stay too; once the marker goes, so does the entry.
#[test]
fn abort_marker_retention_with_empty_batch() {
    let mut f = Fixture::new(256);
    f.txn(1, &[2, 3]);
    f.marker(1, ControlRecordType::Abort);
    f.roll();
    let indexed = |f: &Fixture| {
        let t = f.log.aborted_transactions(&f.fs);
        t.iter()
            .map(|t| (t.producer_id, t.first_offset, t.last_offset))
            .collect::<Vec<_>>()
    };
    assert_eq!(indexed(&f), [(1, 0, 2)]);
    f.clean(LARGE);
    assert_eq!(indexed(&f), [(1, 0, 2)]);
    assert_eq!(f.keys(), Vec::<i64>::new());
    assert_eq!(f.offsets(), [2]);
    assert_eq!(f.last_offsets(), [1, 2]);
    f.two_pass(LARGE);
    assert_eq!(indexed(&f), [(1, 0, 2)]);
    assert_eq!(f.offsets(), [2]);
    assert_eq!(f.last_offsets(), [1, 2]);
    // A newer batch takes over the sequence: the empty batch may go. Kafka's test
    // cleans up to the active segment past this open transaction; here the bound is
    // also the LSO (`LogCleanerManager.cleanableOffsets`), so it is committed first.
    f.txn(1, &[1]);
    f.marker(1, ControlRecordType::Commit);
    f.roll();
    f.clean(LARGE);
    assert_eq!(indexed(&f), [(1, 0, 2)]);
    assert_eq!(f.keys(), [1]);
    assert_eq!(f.offsets(), [2, 3, 4]);
    assert_eq!(f.last_offsets(), [2, 3, 4]);
    f.two_pass(LARGE);
    assert_eq!(f.keys(), [1]);
    assert_eq!(f.offsets(), [3, 4]);
    assert_eq!(f.last_offsets(), [3, 4]);
    assert_eq!(indexed(&f), []);
}

/// `LogCleanerTest.testCleanEmptyControlBatch`: a COMMIT with no data is stamped,
/// then emptied but kept as the producer's last batch (its epoch); cleaning it again
/// changes nothing.
#[test]
fn clean_empty_control_batch() {
    let mut f = Fixture::new(256);
    f.marker(1, ControlRecordType::Commit);
    for k in [2, 3] {
        let kvs = vec![(Some(k.to_string().into_bytes()), Some(b"v".to_vec()))];
        let batch = RecordBatch::new_plain(0, 0, kvs);
        f.log.append_as_leader(&mut f.fs, batch, 0).unwrap();
    }
    f.roll();
    f.two_pass(LARGE);
    assert_eq!(f.keys(), [2, 3]);
    assert_eq!(f.offsets(), [1, 2]);
    assert_eq!(f.last_offsets(), [0, 1, 2]);
    f.clean(i64::MAX);
    assert_eq!(f.offsets(), [1, 2]);
    assert_eq!(f.last_offsets(), [0, 1, 2]);
}

/// `LogCleanerTest.testLogCleanerRetainsLastSequenceEvenIfTransactionAborted`: the
/// aborted transaction's last batch stays (empty) with the producer's last sequence.
#[test]
fn the_last_sequence_stays_even_if_its_transaction_aborted() {
    let mut f = Fixture::new(1024);
    f.txn(1, &[1]);
    f.txn(1, &[2, 3]);
    f.marker(1, ControlRecordType::Abort);
    f.roll();
    f.clean(0);
    assert_eq!(f.last_offsets(), [2, 3]);
    let last_seq = |f: &Fixture| {
        f.batches()
            .iter()
            .filter(|b| !b.is_control() && b.has_producer_id())
            .map(RecordBatch::last_sequence)
            .next_back()
    };
    assert_eq!(last_seq(&f), Some(2));
    assert_eq!(f.keys(), Vec::<i64>::new());
    assert_eq!(f.offsets(), [3]);
    f.txn(1, &[1, 5]);
    f.roll();
    f.clean(0);
    assert_eq!(f.last_offsets(), [3, 5]);
    assert_eq!(last_seq(&f), Some(4));
    assert_eq!(f.keys(), [1, 5]);
    assert_eq!(f.offsets(), [3, 4, 5]);
}

/// `LogCleanerTest.testDeletedBatchesWithNoMessagesRead`: an aborted transaction's
/// records and, after two passes, a COMMIT whose data is superseded go.
#[test]
fn deleted_batches_with_no_messages_read() {
    let mut f = Fixture::new(1000);
    f.txn(1, &[1]);
    f.marker(1, ControlRecordType::Abort);
    f.txn(1, &[2]);
    f.txn(1, &[2]);
    f.marker(1, ControlRecordType::Commit);
    f.roll();
    f.clean(LARGE);
    assert_eq!(f.keys(), [2]);
    assert_eq!(f.offsets(), [1, 3, 4]);
    f.two_pass(LARGE);
    assert_eq!(f.keys(), [2]);
    assert_eq!(f.offsets(), [3, 4]);
}

/// `LogCleanerTest.testEmptyBatchRemovalWithSequenceReuse`: batches that reuse
/// sequence 0 (as a coordinator writes them, no sequence checks) are cleaned like
/// others; the last stays empty and the first COMMIT goes after two passes.
#[test]
fn empty_batch_removal_with_sequence_reuse() {
    let mut f = Fixture::new(2048);
    let keyed = |pid: i64, key: i64, txn: bool| {
        let kvs = vec![(Some(key.to_string().into_bytes()), Some(b"v".to_vec()))];
        let epoch = if pid < 0 { -1 } else { 0 };
        RecordBatch::new_data(0, pid, epoch, if pid < 0 { -1 } else { 0 }, txn, 0, kvs)
    };
    for key in [1, 2] {
        f.log
            .append_internal(&mut f.fs, keyed(1, key, true))
            .unwrap();
        f.marker(1, ControlRecordType::Commit);
    }
    for key in [1, 2] {
        f.log
            .append_as_leader(&mut f.fs, keyed(-1, key, false), 0)
            .unwrap();
    }
    f.roll();
    f.clean(LARGE);
    assert_eq!(f.offsets(), [1, 3, 4, 5]);
    assert_eq!(f.last_offsets(), [1, 2, 3, 4, 5]);
    f.two_pass(LARGE);
    assert_eq!(f.offsets(), [3, 4, 5]);
    assert_eq!(f.last_offsets(), [2, 3, 4, 5]);
}

/// Kafka 4.0 `CleanedTransactionMetadata.onControlBatchRead`: `ControlRecordType.parse`
/// throws on a marker whose key does not parse, and the pass fails; here the segment
/// holding it is left as it is.
#[test]
fn a_malformed_marker_leaves_its_segment_uncleaned() {
    let mut f = Fixture::new(2048);
    let plain = |key: &str| {
        let kvs = vec![(Some(key.as_bytes().to_vec()), Some(b"v".to_vec()))];
        RecordBatch::new_plain(0, 0, kvs)
    };
    f.log.append_as_leader(&mut f.fs, plain("1"), 0).unwrap();
    let mut bad = RecordBatch::new_control(1, 5, 0, 0, ControlRecordType::Commit, 0);
    if let Some(r) = bad.records.first_mut() {
        r.key = Some(vec![0, 0].into());
    }
    f.fs.append(&f.log.segments[0].log_path(&f.log.dir), &bad.encode())
        .unwrap();
    let (log, _) = UnifiedLog::open(
        &mut f.fs,
        &f.log.dir,
        f.log.topic_partition.clone(),
        f.log.config.clone(),
    )
    .unwrap();
    f.log = log;
    f.log.append_as_leader(&mut f.fs, plain("1"), 0).unwrap();
    f.roll();
    f.clean(LARGE);
    assert_eq!(f.offsets(), [0, 1, 2]);
}

/// `LogCleanerTest.testLogCleanerRetainsProducerLastSequence`: each producer's last
/// batch stays, emptied when its key is superseded, with its last sequence.
#[test]
fn each_producers_last_sequence_stays() {
    let mut f = Fixture::new(1024);
    for (key, pid, seq) in [(0, -1, -1), (0, 1, 0), (0, 2, 0), (0, 3, 0), (1, 2, 1)] {
        let kvs = vec![(Some(format!("{key}").into_bytes()), Some(b"v".to_vec()))];
        let epoch = if pid < 0 { -1 } else { 0 };
        let batch = RecordBatch::new_data(0, pid, epoch, seq, false, 0, kvs);
        f.log.append_as_leader(&mut f.fs, batch, 0).unwrap();
    }
    f.roll();
    f.clean(0);
    assert_eq!(f.last_offsets(), [1, 3, 4]);
    let last_seqs: Vec<(i64, i32)> = f
        .batches()
        .iter()
        .filter(|b| b.has_producer_id())
        .map(|b| (b.producer_id, b.last_sequence()))
        .collect();
    assert_eq!(last_seqs, [(1, 0), (3, 0), (2, 1)]);
    assert_eq!(f.keys(), [0, 1]);
    assert_eq!(f.offsets(), [3, 4]);
}
