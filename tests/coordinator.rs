#![cfg(not(target_arch = "wasm32"))]
//! The transaction coordinator against seed 000: the `__transaction_state` records
//! of example 1 byte-decoded to the exact JSON Kafka printed, the fencing sequence
//! of example 3, reload, timeouts, the full state table, and properties (no input
//! panics; every state change is in the table).

mod common;

use eos_playground::util::sorted_set::SortedSet;

use eos_playground::coordinator::internal_topics::partition_for;
use eos_playground::coordinator::transaction::{
    decode_key, decode_value, value_json, CoordinatorEvent, CoordinatorOutput, EndTxnResult,
    TransactionConfig, TransactionCoordinator, TransactionMetadata, TransactionState,
    TransactionVersion, TransitionError, TxnLogWriter, TxnResult, TxnTransitMetadata,
};
use eos_playground::log::TopicPartition;
use eos_playground::protocol::errors::Errors;
use proptest::prelude::*;

/// Records every append; can be told to fail.
#[derive(Default)]
struct FakeLog {
    records: Vec<(i32, Vec<u8>, Option<Vec<u8>>)>,
    next_pid: i64,
    fail_append: Option<Errors>,
    fail_pid: Option<Errors>,
}

impl eos_playground::coordinator::internal_topics::InternalLogWriter for FakeLog {
    fn append(
        &mut self,
        partition: i32,
        key: Vec<u8>,
        value: Option<Vec<u8>>,
        _now_ms: i64,
    ) -> Result<(), Errors> {
        if let Some(e) = self.fail_append {
            return Err(e);
        }
        self.records.push((partition, key, value));
        Ok(())
    }
}

impl TxnLogWriter for FakeLog {
    fn generate_producer_id(&mut self) -> Result<i64, Errors> {
        if let Some(e) = self.fail_pid {
            return Err(e);
        }
        let id = self.next_pid;
        self.next_pid += 1;
        Ok(id)
    }
}

impl FakeLog {
    fn json_lines(&self) -> Vec<String> {
        self.records
            .iter()
            .map(|(_, _, v)| value_json(&decode_value(v.as_ref().unwrap()).unwrap()))
            .collect()
    }

    fn partition_records(&self, partition: i32) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
        self.records
            .iter()
            .filter(|(p, _, _)| *p == partition)
            .map(|(_, k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

fn coordinator() -> TransactionCoordinator {
    TransactionCoordinator::owning_all(TransactionConfig::default())
}

fn markers(out: &[CoordinatorOutput]) -> Vec<(i64, i16, TxnResult, Vec<TopicPartition>)> {
    out.iter()
        .filter_map(|o| match o {
            CoordinatorOutput::SendMarkers {
                producer_id,
                producer_epoch,
                result,
                partitions,
                ..
            } => Some((*producer_id, *producer_epoch, *result, partitions.clone())),
            _ => None,
        })
        .collect()
}

fn state_changes(out: &[CoordinatorOutput]) -> Vec<(TransactionState, TransactionState, i16)> {
    out.iter()
        .filter_map(|o| match o {
            CoordinatorOutput::Event(CoordinatorEvent::StateChanged {
                from,
                to,
                producer_epoch,
                ..
            }) => Some((*from, *to, *producer_epoch)),
            _ => None,
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
/// Runs a transaction (add one partition, end, markers written) and returns the
/// EndTxn result and all outputs.
fn run_txn(
    c: &mut TransactionCoordinator,
    log: &mut FakeLog,
    id: &str,
    tp: &TopicPartition,
    pid: i64,
    epoch: i16,
    commit: bool,
    now: i64,
) -> (EndTxnResult, Vec<CoordinatorOutput>) {
    let mut all = Vec::new();
    let (r, out) = c.handle_add_partitions(id, pid, epoch, vec![tp.clone()], false, now, log);
    assert_eq!(r, vec![(tp.clone(), Errors::None)]);
    all.extend(out);
    let (end, out) = c.handle_end_txn(id, pid, epoch, commit, now + 1, log);
    assert_eq!(end.error, Errors::None);
    let sent = markers(&out);
    assert_eq!(sent.len(), 1);
    let (mpid, mepoch, result, parts) = sent[0].clone();
    assert_eq!(
        result,
        if commit {
            TxnResult::Commit
        } else {
            TxnResult::Abort
        }
    );
    assert_eq!(parts, vec![tp.clone()]);
    all.extend(out);
    let out = c.handle_markers_written(
        id,
        mpid,
        mepoch,
        vec![(tp.clone(), Errors::None)],
        now + 2,
        log,
    );
    all.extend(out);
    (end, all)
}

const EXAMPLE_1: [&str; 10] = [
    r#"{"producerId":0,"previousProducerId":0,"producerEpoch":0,"transactionTimeoutMs":60000,"transactionStatus":"Empty","transactionPartitions":null}"#,
    r#"{"producerId":0,"previousProducerId":0,"producerEpoch":0,"transactionTimeoutMs":60000,"transactionStatus":"Ongoing","transactionPartitions":[{"topic":"u12-txn","partitionIds":[0]}],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":0,"producerEpoch":1,"transactionTimeoutMs":60000,"transactionStatus":"PrepareCommit","transactionPartitions":[{"topic":"u12-txn","partitionIds":[0]}],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":0,"producerEpoch":1,"transactionTimeoutMs":60000,"transactionStatus":"CompleteCommit","transactionPartitions":[],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":0,"producerEpoch":1,"transactionTimeoutMs":60000,"transactionStatus":"Ongoing","transactionPartitions":[{"topic":"u12-txn","partitionIds":[0]}],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":1,"producerEpoch":2,"transactionTimeoutMs":60000,"transactionStatus":"PrepareAbort","transactionPartitions":[{"topic":"u12-txn","partitionIds":[0]}],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":1,"producerEpoch":2,"transactionTimeoutMs":60000,"transactionStatus":"CompleteAbort","transactionPartitions":[],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":1,"producerEpoch":2,"transactionTimeoutMs":60000,"transactionStatus":"Ongoing","transactionPartitions":[{"topic":"u12-txn","partitionIds":[0]}],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":2,"producerEpoch":3,"transactionTimeoutMs":60000,"transactionStatus":"PrepareCommit","transactionPartitions":[{"topic":"u12-txn","partitionIds":[0]}],"clientTransactionVersion":2}"#,
    r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":2,"producerEpoch":3,"transactionTimeoutMs":60000,"transactionStatus":"CompleteCommit","transactionPartitions":[],"clientTransactionVersion":2}"#,
];

fn example_1() -> (TransactionCoordinator, FakeLog) {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let id = "u12-txn";
    let tp = TopicPartition::new("u12-txn", 0);
    let (init, _) = c.handle_init_producer_id(id, 60_000, 1_000, &mut log);
    assert_eq!(
        (init.error, init.producer_id, init.producer_epoch),
        (Errors::None, 0, 0)
    );
    let (a, _) = run_txn(&mut c, &mut log, id, &tp, 0, 0, true, 2_000);
    assert_eq!(
        (a.error, a.producer_id, a.producer_epoch),
        (Errors::None, 0, 1)
    );
    let (b, _) = run_txn(&mut c, &mut log, id, &tp, 0, 1, false, 3_000);
    assert_eq!((b.producer_id, b.producer_epoch), (0, 2));
    let (cc, _) = run_txn(&mut c, &mut log, id, &tp, 0, 2, true, 4_000);
    assert_eq!((cc.producer_id, cc.producer_epoch), (0, 3));
    (c, log)
}

#[test]
fn example_1_writes_the_seed_records_byte_for_byte() {
    let (c, log) = example_1();
    assert_eq!(log.json_lines(), EXAMPLE_1);
    assert!(log.records.iter().all(|(p, _, _)| *p == 23));
    assert!(log
        .records
        .iter()
        .all(|(_, k, _)| decode_key(k).unwrap() == "u12-txn"));
    // kafka-transactions.sh list / describe.
    let d = c.describe("u12-txn").unwrap();
    assert_eq!(
        (
            d.producer_id,
            d.producer_epoch,
            d.state,
            d.transaction_timeout_ms
        ),
        (0, 3, TransactionState::CompleteCommit, 60_000)
    );
    assert!(d.topic_partitions.is_empty());
    let l = c.list();
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].state.name(), "CompleteCommit");
}

#[test]
fn partition_of_the_seed_id() {
    assert_eq!(partition_for("u12-txn", 50), 23);
    assert_eq!(coordinator().partition_for("u12-txn"), 23);
}

#[test]
fn example_3_fencing() {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let id = "u12-fence";
    let tp = TopicPartition::new("u12-fence", 0);
    let mut changes = Vec::new();

    // Producer 1: initTransactions, z1 sent, transaction left open.
    let (p1, out) = c.handle_init_producer_id(id, 60_000, 0, &mut log);
    changes.extend(state_changes(&out));
    assert_eq!((p1.producer_id, p1.producer_epoch), (0, 0));
    let (r, out) = c.handle_add_partitions(id, 0, 0, vec![tp.clone()], false, 10, &mut log);
    assert_eq!(r[0].1, Errors::None);
    changes.extend(state_changes(&out));

    // Producer 2: same transactional id. The coordinator fences and aborts.
    let (p2, out) = c.handle_init_producer_id(id, 60_000, 20, &mut log);
    assert_eq!(p2.error, Errors::ConcurrentTransactions);
    assert!(out.iter().any(|o| matches!(
        o,
        CoordinatorOutput::Event(CoordinatorEvent::Fenced {
            old_epoch: 0,
            fence_epoch: 1,
            ..
        })
    )));
    let sent = markers(&out);
    assert_eq!(sent, vec![(0, 1, TxnResult::Abort, vec![tp.clone()])]);
    changes.extend(state_changes(&out));

    // Retried while the ABORT marker is on its way: still CONCURRENT_TRANSACTIONS.
    let (again, out) = c.handle_init_producer_id(id, 60_000, 30, &mut log);
    assert_eq!(again.error, Errors::ConcurrentTransactions);
    assert!(state_changes(&out).is_empty());
    // The partition leader asking for producer 1 (epoch 0) waits for the abort: the
    // transition in flight is checked before the epoch (Kafka 4.0.0, KAFKA-18660).
    let (r, _) = c.handle_add_partitions(id, 0, 0, vec![tp.clone()], false, 31, &mut log);
    assert_eq!(r[0].1, Errors::ConcurrentTransactions);

    let out = c.handle_markers_written(id, 0, 1, vec![(tp.clone(), Errors::None)], 40, &mut log);
    changes.extend(state_changes(&out));

    // Producer 2's retry: one more bump.
    let (p2, out) = c.handle_init_producer_id(id, 60_000, 50, &mut log);
    assert_eq!(
        (p2.error, p2.producer_id, p2.producer_epoch),
        (Errors::None, 0, 2)
    );
    changes.extend(state_changes(&out));

    // Producer 1 tries to commit with epoch 0: fenced.
    let (old, out) = c.handle_end_txn(id, 0, 0, true, 55, &mut log);
    assert_eq!(old.error, Errors::ProducerFenced);
    assert!(state_changes(&out).is_empty());

    // Producer 2 writes y1 and commits.
    let (end, out) = run_txn(&mut c, &mut log, id, &tp, 0, 2, true, 60);
    assert_eq!((end.producer_id, end.producer_epoch), (0, 3));
    changes.extend(state_changes(&out));

    let seq: Vec<(TransactionState, i16)> = changes.iter().map(|(_, to, e)| (*to, *e)).collect();
    use TransactionState::*;
    assert_eq!(
        seq,
        vec![
            (Empty, 0),
            (Ongoing, 0),
            (PrepareAbort, 1),
            (CompleteAbort, 1),
            (Empty, 2),
            (Ongoing, 2),
            (PrepareCommit, 3),
            (CompleteCommit, 3)
        ]
    );
    // The fence abort's record: bumped once, last epoch 0.
    let lines = log.json_lines();
    assert!(lines[2].contains(r#""lastProducerEpoch":0,"producerEpoch":1"#));
    assert!(lines[2].contains("PrepareAbort"));
    // The new producer's Empty record forgets the last epoch (no expected epoch).
    assert!(!lines[4].contains("lastProducerEpoch"));
}

#[test]
fn old_producer_end_txn_right_after_the_fence_abort() {
    // Between CompleteAbort(1) and the new producer's retry, epoch 0 looks like a
    // TV2 retry (stored epoch = 0 + 1): commit → PRODUCER_FENCED (KAFKA-20785: the
    // coordinator's own abort overtook it), abort → NONE.
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let tp = TopicPartition::new("t", 0);
    c.handle_init_producer_id("f", 60_000, 0, &mut log);
    c.handle_add_partitions("f", 0, 0, vec![tp.clone()], false, 1, &mut log);
    c.handle_init_producer_id("f", 60_000, 2, &mut log);
    c.handle_markers_written("f", 0, 1, vec![(tp, Errors::None)], 3, &mut log);
    let (r, _) = c.handle_end_txn("f", 0, 0, true, 4, &mut log);
    assert_eq!(r.error, Errors::ProducerFenced);
    let (r, _) = c.handle_end_txn("f", 0, 0, false, 4, &mut log);
    assert_eq!(
        (r.error, r.producer_id, r.producer_epoch),
        (Errors::None, 0, 1)
    );
}

#[test]
fn reload_rebuilds_metadata_and_resends_markers() {
    // Everything complete: reload gives the same metadata and sends nothing.
    let (c, log) = example_1();
    let mut fresh = TransactionCoordinator::new(TransactionConfig::default());
    let out = fresh.load_partition(23, log.partition_records(23), 9_999);
    assert!(markers(&out).is_empty());
    assert_eq!(fresh.metadata("u12-txn"), c.metadata("u12-txn"));

    // Stopped right after PrepareCommit: the new coordinator finishes the commit.
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let tp = TopicPartition::new("u12-txn", 0);
    c.handle_init_producer_id("u12-txn", 60_000, 0, &mut log);
    c.handle_add_partitions("u12-txn", 0, 0, vec![tp.clone()], false, 1, &mut log);
    let (end, _) = c.handle_end_txn("u12-txn", 0, 0, true, 2, &mut log);
    assert_eq!(end.producer_epoch, 1);

    let mut fresh = TransactionCoordinator::new(TransactionConfig::default());
    let out = fresh.load_partition_at_epoch(23, 1, log.partition_records(23), 2);
    assert_eq!(fresh.metadata("u12-txn"), c.metadata("u12-txn"));
    assert_eq!(
        fresh.metadata("u12-txn").unwrap().pending_state(),
        Some(TransactionState::CompleteCommit)
    );
    assert!(out.iter().any(|o| matches!(
        o,
        CoordinatorOutput::SendMarkers {
            coordinator_epoch: 1,
            producer_epoch: 1,
            result: TxnResult::Commit,
            ..
        }
    )));
    assert!(out.iter().any(|o| matches!(
        o,
        CoordinatorOutput::Event(CoordinatorEvent::Loaded {
            transactions: 1,
            pending_completions: 1,
            ..
        })
    )));
    let out = fresh.handle_markers_written("u12-txn", 0, 1, vec![(tp, Errors::None)], 3, &mut log);
    assert_eq!(
        state_changes(&out),
        vec![(
            TransactionState::PrepareCommit,
            TransactionState::CompleteCommit,
            1
        )]
    );
    assert_eq!(log.json_lines()[3], EXAMPLE_1[3]);

    // Unload forgets; requests then get NOT_COORDINATOR.
    fresh.unload_partition(23);
    assert!(fresh.metadata("u12-txn").is_none());
    assert_eq!(fresh.describe("u12-txn"), Err(Errors::NotCoordinator));
    let (r, _) = fresh.handle_init_producer_id("u12-txn", 60_000, 5, &mut log);
    assert_eq!(r.error, Errors::NotCoordinator);
}

#[test]
fn timed_out_transaction_is_aborted_with_an_epoch_bump() {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let tp = TopicPartition::new("t", 3);
    c.handle_init_producer_id("slow", 60_000, 0, &mut log);
    c.handle_add_partitions("slow", 0, 0, vec![tp.clone()], false, 1_000, &mut log);
    // start + timeout < now, strictly.
    assert!(c.abort_timed_out_transactions(61_000, &mut log).is_empty());
    let out = c.abort_timed_out_transactions(61_001, &mut log);
    assert!(out.iter().any(|o| matches!(
        o,
        CoordinatorOutput::Event(CoordinatorEvent::TimedOut {
            producer_epoch: 0,
            txn_start_timestamp: 1_000,
            ..
        })
    )));
    assert_eq!(
        state_changes(&out),
        vec![(TransactionState::Ongoing, TransactionState::PrepareAbort, 1)]
    );
    assert_eq!(
        markers(&out),
        vec![(0, 1, TxnResult::Abort, vec![tp.clone()])]
    );
    let out = c.handle_markers_written("slow", 0, 1, vec![(tp, Errors::None)], 61_002, &mut log);
    assert_eq!(
        state_changes(&out),
        vec![(
            TransactionState::PrepareAbort,
            TransactionState::CompleteAbort,
            1
        )]
    );
    // The producer's own late abort is a retry (KAFKA-20090's scenario).
    let (r, _) = c.handle_end_txn("slow", 0, 0, false, 61_003, &mut log);
    assert_eq!((r.error, r.producer_epoch), (Errors::None, 1));
}

#[test]
fn request_errors_follow_kafka() {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let tp = TopicPartition::new("t", 0);
    let (r, _) = c.handle_init_producer_id("", 60_000, 0, &mut log);
    assert_eq!(r.error, Errors::InvalidRequest);
    let (r, _) = c.handle_init_producer_id("x", 900_001, 0, &mut log);
    assert_eq!(r.error, Errors::InvalidTransactionTimeout);
    let (r, _) = c.handle_init_producer_id("x", 0, 0, &mut log);
    assert_eq!(r.error, Errors::InvalidTransactionTimeout);

    // Producer ids not available yet.
    log.fail_pid = Some(Errors::CoordinatorLoadInProgress);
    let (r, _) = c.handle_init_producer_id("x", 60_000, 0, &mut log);
    assert_eq!(r.error, Errors::CoordinatorLoadInProgress);
    log.fail_pid = None;

    // Unknown id / wrong producer id / wrong epoch.
    let (r, _) = c.handle_add_partitions("nobody", 0, 0, vec![tp.clone()], false, 0, &mut log);
    assert_eq!(r[0].1, Errors::InvalidProducerIdMapping);
    let (r, _) = c.handle_end_txn("nobody", 0, 0, true, 0, &mut log);
    assert_eq!(r.error, Errors::InvalidProducerIdMapping);
    c.handle_init_producer_id("x", 60_000, 0, &mut log);
    let (r, _) = c.handle_add_partitions("x", 9, 0, vec![tp.clone()], false, 0, &mut log);
    assert_eq!(r[0].1, Errors::InvalidProducerIdMapping);
    let (r, _) = c.handle_add_partitions("x", 0, 7, vec![tp.clone()], false, 0, &mut log);
    assert_eq!(r[0].1, Errors::ProducerFenced);

    // verify_only: not in the transaction yet.
    let (r, _) = c.handle_add_partitions("x", 0, 0, vec![tp.clone()], true, 0, &mut log);
    assert_eq!(
        r[0].1,
        eos_playground::coordinator::transaction::TRANSACTION_ABORTABLE
    );
    c.handle_add_partitions("x", 0, 0, vec![tp.clone()], false, 0, &mut log);
    let (r, _) = c.handle_add_partitions("x", 0, 0, vec![tp.clone()], true, 0, &mut log);
    assert_eq!(r[0].1, Errors::None);
    // Already added: answered without a write.
    let before = log.records.len();
    c.handle_add_partitions("x", 0, 0, vec![tp.clone()], false, 0, &mut log);
    assert_eq!(log.records.len(), before);

    // EndTxn: answered at once; during the markers, new work waits.
    let (r, _) = c.handle_end_txn("x", 0, 0, true, 1, &mut log);
    assert_eq!((r.error, r.producer_epoch), (Errors::None, 1));
    let (r2, _) = c.handle_add_partitions("x", 0, 1, vec![tp.clone()], false, 2, &mut log);
    assert_eq!(r2[0].1, Errors::ConcurrentTransactions);
    let (r3, _) = c.handle_end_txn("x", 0, 0, true, 2, &mut log);
    assert_eq!(r3.error, Errors::ConcurrentTransactions);
    // Not a retry (the bumped epoch itself) while the markers are out: the transition
    // in flight is answered before the epoch (Kafka 4.0.0, KAFKA-18464).
    let (r5, _) = c.handle_end_txn("x", 0, 1, true, 2, &mut log);
    assert_eq!(r5.error, Errors::ConcurrentTransactions);
    let (r4, _) = c.handle_init_producer_id("x", 60_000, 2, &mut log);
    assert_eq!(r4.error, Errors::ConcurrentTransactions);
    // A retriable marker error is sent again; the commit completes after.
    let out = c.handle_markers_written(
        "x",
        0,
        1,
        vec![(tp.clone(), Errors::NotLeaderOrFollower)],
        3,
        &mut log,
    );
    assert_eq!(
        markers(&out),
        vec![(0, 1, TxnResult::Commit, vec![tp.clone()])]
    );
    let out = c.handle_markers_written("x", 0, 1, vec![(tp.clone(), Errors::None)], 4, &mut log);
    assert_eq!(state_changes(&out).len(), 1);
    // A retried EndTxn (epoch 0, stored 1) after completion: NONE with epoch 1.
    let (r, _) = c.handle_end_txn("x", 0, 0, true, 5, &mut log);
    assert_eq!((r.error, r.producer_epoch), (Errors::None, 1));
    // ...but aborting with the old epoch is not a valid retry.
    let (r, _) = c.handle_end_txn("x", 0, 0, false, 5, &mut log);
    assert_eq!(r.error, Errors::InvalidTxnState);
    // With the current epoch: an empty abort bumps the epoch and completes at once.
    let (r, out) = c.handle_end_txn("x", 0, 1, false, 6, &mut log);
    assert_eq!((r.error, r.producer_epoch), (Errors::None, 2));
    assert_eq!(
        state_changes(&out)
            .iter()
            .map(|(_, to, e)| (*to, *e))
            .collect::<Vec<_>>(),
        vec![
            (TransactionState::PrepareAbort, 2),
            (TransactionState::CompleteAbort, 2)
        ]
    );
    // Trunk: an empty commit does the same.
    let (r, out) = c.handle_end_txn("x", 0, 2, true, 7, &mut log);
    assert_eq!((r.error, r.producer_epoch), (Errors::None, 3));
    assert_eq!(state_changes(&out).len(), 2);
    // Describe errors.
    assert_eq!(c.describe(""), Err(Errors::InvalidRequest));
    assert_eq!(
        c.describe("never-seen"),
        Err(eos_playground::coordinator::transaction::TRANSACTIONAL_ID_NOT_FOUND)
    );
}

#[test]
fn memory_changes_only_after_the_log_write() {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let tp = TopicPartition::new("t", 0);
    c.handle_init_producer_id("x", 60_000, 0, &mut log);
    let before = c.metadata("x").cloned();
    log.fail_append = Some(Errors::NotLeaderOrFollower);
    let (r, _) = c.handle_add_partitions("x", 0, 0, vec![tp.clone()], false, 1, &mut log);
    assert_eq!(r[0].1, Errors::NotCoordinator);
    assert_eq!(c.metadata("x").cloned(), before);
    let (r, _) = c.handle_end_txn("x", 0, 0, false, 1, &mut log);
    assert_eq!(r.error, Errors::NotCoordinator);
    assert_eq!(c.metadata("x").cloned(), before);
    log.fail_append = None;
    c.handle_add_partitions("x", 0, 0, vec![tp.clone()], false, 1, &mut log);
    c.handle_end_txn("x", 0, 0, true, 2, &mut log);
    // The Complete* write fails: it stays pending and is retried.
    log.fail_append = Some(Errors::RequestTimedOut);
    let out = c.handle_markers_written("x", 0, 1, vec![(tp, Errors::None)], 3, &mut log);
    assert!(state_changes(&out).is_empty());
    assert_eq!(
        c.metadata("x").unwrap().state(),
        TransactionState::PrepareCommit
    );
    log.fail_append = None;
    let out = c.retry_pending_completions(4, &mut log);
    assert_eq!(state_changes(&out).len(), 1);
    assert_eq!(
        c.metadata("x").unwrap().state(),
        TransactionState::CompleteCommit
    );
    assert!(!c.has_pending_markers("x"));
}

#[test]
fn epoch_exhaustion_moves_to_a_new_producer_id() {
    // A transaction at epoch 32766 ends: Prepare* at 32767, Complete* on a new id, epoch 0.
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let tp = TopicPartition::new("t", 0);
    c.handle_init_producer_id("x", 60_000, 0, &mut log);
    let mut records = log.partition_records(c.partition_for("x"));
    // Rewrite the stored epoch through a reload: craft an Empty record at 32766.
    let mut v = decode_value(records[0].1.as_ref().unwrap()).unwrap();
    v.producer_epoch = i16::MAX - 1;
    records[0].1 = Some(eos_playground::coordinator::transaction::value_to_bytes(&v));
    let p = c.partition_for("x");
    c.load_partition(p, records, 1);
    assert_eq!(c.metadata("x").unwrap().producer_epoch(), i16::MAX - 1);
    c.handle_add_partitions("x", 0, i16::MAX - 1, vec![tp.clone()], false, 2, &mut log);
    let (r, out) = c.handle_end_txn("x", 0, i16::MAX - 1, true, 3, &mut log);
    assert_eq!(
        (r.error, r.producer_id, r.producer_epoch),
        (Errors::None, 1, 0)
    );
    assert_eq!(
        markers(&out),
        vec![(0, i16::MAX, TxnResult::Commit, vec![tp.clone()])]
    );
    c.handle_markers_written("x", 0, i16::MAX, vec![(tp, Errors::None)], 4, &mut log);
    let m = c.metadata("x").unwrap();
    assert_eq!(
        (
            m.producer_id(),
            m.producer_epoch(),
            m.previous_producer_id(),
            m.state()
        ),
        (1, 0, 0, TransactionState::CompleteCommit)
    );
    // InitProducerId at an exhausted epoch rotates too.
    let mut m2 = TransactionMetadata::from_log(
        "y",
        &TxnTransitMetadata {
            producer_id: 5,
            prev_producer_id: -1,
            next_producer_id: -1,
            producer_epoch: i16::MAX - 1,
            last_producer_epoch: -1,
            txn_timeout_ms: 1000,
            txn_state: TransactionState::Empty,
            topic_partitions: SortedSet::new(),
            txn_start_timestamp: -1,
            txn_last_update_timestamp: 0,
            client_transaction_version: TransactionVersion::TV_0,
        },
    );
    assert!(matches!(
        m2.prepare_increment_producer_epoch(1000, None, 0, Default::default()),
        Err(TransitionError::EpochExhausted { .. })
    ));
}

/// KIP-360 across a producer-id rotation (TransactionCoordinatorTest
/// .testRetryInitProducerIdAfterProducerIdRotation and
/// testInitProducerIdWithInvalidEpochAfterProducerIdRotation, Kafka 4.0): the
/// producer at the exhausted epoch 32766 asks with its id and epoch and gets a new id
/// at epoch 0; the same request again (its answer lost) gets the same answer; an
/// older epoch of the old id is fenced.
#[test]
fn init_with_expected_epoch_rotates_an_exhausted_id_and_answers_its_retry() {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    c.handle_init_producer_id("x", 60_000, 0, &mut log);
    let mut records = log.partition_records(c.partition_for("x"));
    let mut v = decode_value(records[0].1.as_ref().unwrap()).unwrap();
    v.producer_epoch = i16::MAX - 1;
    records[0].1 = Some(eos_playground::coordinator::transaction::value_to_bytes(&v));
    let p = c.partition_for("x");
    c.load_partition(p, records, 1);
    let exhausted = Some((0, i16::MAX - 1));
    let (r, _) = c.handle_init_producer_id_with_expected("x", 60_000, exhausted, 2, &mut log);
    assert_eq!(
        (r.error, r.producer_id, r.producer_epoch),
        (Errors::None, 1, 0)
    );
    let (r, _) = c.handle_init_producer_id_with_expected("x", 60_000, exhausted, 3, &mut log);
    assert_eq!(
        (r.error, r.producer_id, r.producer_epoch),
        (Errors::None, 1, 0)
    );
    let older = Some((0, i16::MAX - 2));
    let (r, _) = c.handle_init_producer_id_with_expected("x", 60_000, older, 4, &mut log);
    assert_eq!(r.error, Errors::ProducerFenced);
}

// ------------------------------------------------------------ properties

#[derive(Clone, Debug)]
enum Op {
    Init(usize, i32),
    InitExpected(usize, i16),
    Add(usize, i16, u8, bool),
    End(usize, i16, bool),
    Markers(usize, u8),
    Timeout(i64),
    Reload,
    FailAppend(bool),
    FailPid(bool),
}

const IDS: [&str; 3] = ["alpha", "beta", "u12-txn"];

/// Mostly the right epoch, sometimes one off (a retry or a zombie).
fn epoch_delta() -> impl Strategy<Value = i16> {
    prop_oneof![3 => Just(0i16), 1 => -2..2i16]
}

fn op() -> impl Strategy<Value = Op> {
    let timeout = prop_oneof![Just(60_000), Just(0), Just(1_000_000), 1..100_000i32];
    prop_oneof![
        2 => (0..3usize, timeout).prop_map(|(i, t)| Op::Init(i, t)),
        1 => (0..3usize, -2..4i16).prop_map(|(i, e)| Op::InitExpected(i, e)),
        4 => (0..3usize, epoch_delta(), 0..4u8, any::<bool>())
            .prop_map(|(i, d, p, v)| Op::Add(i, d, p, v)),
        4 => (0..3usize, epoch_delta(), any::<bool>()).prop_map(|(i, d, c)| Op::End(i, d, c)),
        4 => (0..3usize, 0..4u8).prop_map(|(i, e)| Op::Markers(i, e)),
        1 => prop_oneof![3 => 0..1_000i64, 1 => 0..200_000i64].prop_map(Op::Timeout),
        1 => Just(Op::Reload),
        1 => any::<bool>().prop_map(Op::FailAppend),
        1 => any::<bool>().prop_map(Op::FailPid),
    ]
}

fn check_outputs(out: &[CoordinatorOutput]) {
    for o in out {
        if let CoordinatorOutput::Event(CoordinatorEvent::StateChanged {
            from,
            to,
            producer_epoch,
            record_json,
            ..
        }) = o
        {
            assert!(to.can_transition_from(*from), "{from} -> {to}");
            assert!(*producer_epoch >= 0);
            assert!(record_json.contains(to.name()));
        }
    }
}

fn check_invariants(c: &TransactionCoordinator) {
    for m in c.transactions() {
        if m.state() == TransactionState::Empty {
            assert!(m.topic_partitions().is_empty());
        }
        match m.pending_state() {
            None => {}
            Some(p) => {
                assert!(m.state().is_prepare(), "pending {p} in {}", m.state());
                assert!(p.is_complete());
                assert!(c.has_pending_markers(m.transactional_id()));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(300)))]

    #[test]
    fn random_calls_never_break_the_table(ops in proptest::collection::vec(op(), 1..60)) {
        let mut c = coordinator();
        let mut log = FakeLog::default();
        let mut now = 0i64;
        for op in ops {
            now += 7;
            let out = match op {
                Op::Init(i, t) => c.handle_init_producer_id(IDS[i], t, now, &mut log).1,
                Op::InitExpected(i, e) => {
                    let pid = c.metadata(IDS[i]).map_or(0, |m| m.producer_id());
                    c.handle_init_producer_id_with_expected(IDS[i], 60_000, Some((pid, e)), now, &mut log).1
                }
                Op::Add(i, d, p, verify) => {
                    let (pid, epoch) = c.metadata(IDS[i]).map_or((0, 0), |m| (m.producer_id(), m.producer_epoch()));
                    let tps = [TopicPartition::new("t", i32::from(p)), TopicPartition::new("u", 0)];
                    c.handle_add_partitions(IDS[i], pid, epoch.wrapping_add(d), tps[..1 + usize::from(p % 2)].to_vec(), verify, now, &mut log).1
                }
                Op::End(i, d, commit) => {
                    let (pid, epoch) = c.metadata(IDS[i]).map_or((0, 0), |m| (m.producer_id(), m.producer_epoch()));
                    c.handle_end_txn(IDS[i], pid, epoch.wrapping_add(d), commit, now, &mut log).1
                }
                Op::Markers(i, e) => {
                    let Some(m) = c.metadata(IDS[i]).cloned() else { continue };
                    let error = [Errors::None, Errors::None, Errors::NotLeaderOrFollower, Errors::InvalidProducerEpoch][usize::from(e)];
                    let results = m.topic_partitions().iter().map(|tp| (tp.clone(), error)).collect();
                    c.handle_markers_written(IDS[i], m.producer_id(), m.producer_epoch(), results, now, &mut log)
                }
                Op::Timeout(t) => {
                    now += t;
                    c.abort_timed_out_transactions(now, &mut log)
                }
                Op::Reload => {
                    let live = c.clone();
                    let mut fresh = coordinator();
                    let mut out = Vec::new();
                    for p in 0..50 {
                        out.extend(fresh.load_partition(p, log.partition_records(p), now));
                    }
                    for m in live.transactions() {
                        let loaded = fresh.metadata(m.transactional_id());
                        if m.producer_epoch() < 0 {
                            continue; // never written
                        }
                        let loaded = loaded.expect("written metadata reloads");
                        if m.pending_state().is_none() {
                            prop_assert_eq!(loaded, m);
                        } else {
                            prop_assert_eq!(loaded.state(), m.state());
                            prop_assert_eq!(loaded.producer_epoch(), m.producer_epoch());
                        }
                    }
                    c = fresh;
                    out
                }
                Op::FailAppend(f) => {
                    log.fail_append = f.then_some(Errors::NotLeaderOrFollower);
                    continue;
                }
                Op::FailPid(f) => {
                    log.fail_pid = f.then_some(Errors::CoordinatorLoadInProgress);
                    continue;
                }
            };
            check_outputs(&out);
            check_invariants(&c);
        }
        // Every record in the log decodes and names a state.
        for (_, k, v) in &log.records {
            prop_assert!(decode_key(k).is_ok());
            let v = decode_value(v.as_ref().unwrap()).unwrap();
            prop_assert!(v.state().is_some());
        }
    }

    #[test]
    fn random_bytes_never_panic_the_decoders(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode_key(&bytes);
        if let Ok(v) = decode_value(&bytes) {
            let _ = value_json(&v);
        }
    }

    #[test]
    fn mutated_records_never_panic(i in 0usize..10, pos in 0usize..200, byte in any::<u8>(), cut in 0usize..200) {
        let (_, log) = example_1();
        let (_, k, v) = &log.records[i];
        let mut v = v.clone().unwrap();
        let n = v.len();
        v[pos % n] = byte;
        v.truncate(cut.max(1));
        if let Ok(d) = decode_value(&v) {
            let _ = value_json(&d);
        }
        let mut k = k.clone();
        let kn = k.len();
        k[pos % kn] = byte;
        let _ = decode_key(&k);
        // And loading garbage is survivable.
        let mut c = TransactionCoordinator::new(TransactionConfig::default());
        c.load_partition(23, vec![(k, Some(v))], 0);
    }
}

#[test]
fn fence_at_an_exhausted_epoch_rotates_and_survives_a_pid_failure() {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    c.handle_init_producer_id("z", 60_000, 0, &mut log);
    let p = c.partition_for("z");
    let mut records = log.partition_records(p);
    let mut v = decode_value(records[0].1.as_ref().unwrap()).unwrap();
    v.producer_epoch = i16::MAX - 1;
    v.transaction_status = TransactionState::Ongoing.id();
    v.transaction_partitions = Some(vec![
        eos_playground::coordinator::transaction::PartitionsSchema {
            topic: "t".into(),
            partition_ids: vec![0],
        },
    ]);
    v.transaction_start_timestamp_ms = 5;
    v.client_transaction_version = 2;
    records[0].1 = Some(eos_playground::coordinator::transaction::value_to_bytes(&v));
    c.load_partition(p, records, 10);
    assert_eq!(c.metadata("z").unwrap().state(), TransactionState::Ongoing);

    log.fail_pid = Some(Errors::CoordinatorLoadInProgress);
    let (r, _) = c.handle_init_producer_id("z", 60_000, 11, &mut log);
    assert_eq!(r.error, Errors::CoordinatorLoadInProgress);
    assert_eq!(c.metadata("z").unwrap().pending_state(), None);
    log.fail_pid = None;

    let (r, out) = c.handle_init_producer_id("z", 60_000, 12, &mut log);
    assert_eq!(r.error, Errors::ConcurrentTransactions);
    assert_eq!(
        markers(&out),
        vec![(
            0,
            i16::MAX,
            TxnResult::Abort,
            vec![TopicPartition::new("t", 0)]
        )]
    );
    let m = c.metadata("z").unwrap();
    assert_eq!(
        (m.state(), m.producer_epoch(), m.next_producer_id()),
        (TransactionState::PrepareAbort, i16::MAX, 1)
    );
    c.handle_markers_written(
        "z",
        0,
        i16::MAX,
        vec![(TopicPartition::new("t", 0), Errors::None)],
        13,
        &mut log,
    );
    let m = c.metadata("z").unwrap();
    assert_eq!((m.producer_id(), m.producer_epoch()), (1, 0));
    let (r, _) = c.handle_init_producer_id("z", 60_000, 14, &mut log);
    assert_eq!(
        (r.error, r.producer_id, r.producer_epoch),
        (Errors::None, 1, 1)
    );
}

// ---------------------------------------------------------------------------------
// Kafka's TransactionCoordinatorTest / TransactionStateManagerTest, rule by rule
// (the audit in docs/scenarios.md, "The transaction coordinator against Kafka's unit
// tests"). Metadata in a chosen state is loaded from a crafted `__transaction_state`
// record, as Kafka's tests build `TransactionMetadata` directly.

/// A coordinator that owns every partition and knows `ID` as `t` says.
fn with_loaded(t: TxnTransitMetadata) -> TransactionCoordinator {
    let mut c = coordinator();
    let value = eos_playground::coordinator::transaction::TransactionLogValue::from_transit(&t, 1);
    let records = vec![(
        eos_playground::coordinator::transaction::key_to_bytes(ID),
        Some(eos_playground::coordinator::transaction::value_to_bytes(
            &value,
        )),
    )];
    let p = c.partition_for(ID);
    c.load_partition(p, records, t.txn_last_update_timestamp);
    c
}

const ID: &str = "known";

/// Kafka's test fixture: producer id 10, the given epochs and state, timeout 1 ms.
fn loaded(
    state: TransactionState,
    (epoch, last_epoch): (i16, i16),
    partitions: &[i32],
    tv: TransactionVersion,
) -> TransactionCoordinator {
    with_loaded(TxnTransitMetadata {
        producer_id: 10,
        prev_producer_id: 10,
        producer_epoch: epoch,
        last_producer_epoch: last_epoch,
        txn_timeout_ms: 1,
        client_transaction_version: tv,
        ..transit(state, partitions)
    })
}

/// A TV2 transaction of `x` committed at `epoch`: answered, its markers not yet written.
fn committed_markers_pending(epoch: i16) -> (TransactionCoordinator, FakeLog, TopicPartition) {
    let mut c = coordinator();
    let mut log = FakeLog::default();
    let tp = TopicPartition::new("t", 0);
    c.handle_init_producer_id("x", 60_000, 0, &mut log);
    let (r, _) = c.set_producer_epoch("x", epoch, 1, &mut log);
    assert_eq!(r, Ok(()));
    c.handle_add_partitions("x", 0, epoch, vec![tp.clone()], false, 2, &mut log);
    let (end, _) = c.handle_end_txn("x", 0, epoch, true, 3, &mut log);
    assert_eq!(end.error, Errors::None);
    assert!(c.has_pending_markers("x"));
    (c, log, tp)
}

/// KAFKA-18464 (Kafka 4.0.0): while the markers of a commit are out, the next EndTxn —
/// the client's empty abort at the epoch the commit answered — waits with
/// CONCURRENT_TRANSACTIONS instead of fencing the producer; so does any epoch.
#[test]
fn end_txn_during_the_markers_is_concurrent_transactions_at_any_epoch() {
    let (mut c, mut log, tp) = committed_markers_pending(0);
    for epoch in [1, 0, 7] {
        let (r, _) = c.handle_end_txn("x", 0, epoch, false, 4, &mut log);
        assert_eq!(r.error, Errors::ConcurrentTransactions, "epoch {epoch}");
    }
    c.handle_markers_written("x", 0, 1, vec![(tp, Errors::None)], 5, &mut log);
    // Once complete, the same empty abort goes through, and a stale epoch is fenced.
    let (r, _) = c.handle_end_txn("x", 0, 7, false, 6, &mut log);
    assert_eq!(r.error, Errors::ProducerFenced);
    let (r, _) = c.handle_end_txn("x", 0, 1, false, 6, &mut log);
    assert_eq!((r.error, r.producer_epoch), (Errors::None, 2));
}

/// KAFKA-18660 (Kafka 4.0.0): an EndTxn that overflowed the epoch answers the new
/// producer id before CompleteCommit moves the transactional id to it; the producer's
/// next AddPartitionsToTxn and EndTxn with that id wait (CONCURRENT_TRANSACTIONS), not
/// INVALID_PRODUCER_ID_MAPPING. A stale epoch waits too: the transition is checked first.
#[test]
fn the_new_producer_id_waits_while_the_overflowing_commit_completes() {
    let (mut c, mut log, tp) = committed_markers_pending(i16::MAX - 1);
    let next = TopicPartition::new("t", 1);
    for (pid, epoch) in [(1, 0), (0, 3)] {
        let (r, _) =
            c.handle_add_partitions("x", pid, epoch, vec![next.clone()], false, 4, &mut log);
        assert_eq!(r[0].1, Errors::ConcurrentTransactions, "{pid}/{epoch}");
        let (r, _) = c.handle_end_txn("x", pid, epoch, false, 4, &mut log);
        assert_eq!(r.error, Errors::ConcurrentTransactions, "{pid}/{epoch}");
    }
    c.handle_markers_written("x", 0, i16::MAX, vec![(tp, Errors::None)], 5, &mut log);
    let (r, _) = c.handle_add_partitions("x", 1, 0, vec![next.clone()], false, 6, &mut log);
    assert_eq!(r[0].1, Errors::None);
    let (r, _) = c.handle_add_partitions("x", 0, 3, vec![next], false, 6, &mut log);
    assert_eq!(r[0].1, Errors::InvalidProducerIdMapping);
}

/// KAFKA-20785 (trunk, apache/kafka#23204): under TV2 a commit that reaches
/// CompleteAbort at the retry epoch can only be one the coordinator's own abort (a
/// timeout or a fence) overtook: PRODUCER_FENCED, which clients recover from, not
/// INVALID_TXN_STATE. The same epoch's abort is still the retry (NONE); below TV2 the
/// state rule answers INVALID_TXN_STATE (TransactionCoordinatorTest
/// .shouldReturnInvalidTxnRequestOnEndTxnRequestWhenStatusIsCompleteAbortAndResultIsNotAbort).
#[test]
fn a_commit_overtaken_by_the_coordinators_abort_is_fenced() {
    let mut c = loaded(
        TransactionState::CompleteAbort,
        (1, 0),
        &[],
        TransactionVersion::TV_2,
    );
    let mut log = FakeLog::default();
    let commit = |c: &mut TransactionCoordinator, log: &mut FakeLog, epoch, tv| {
        c.handle_end_txn_from(ID, (10, epoch), true, tv, 1, log)
            .0
            .error
    };
    assert_eq!(
        commit(&mut c, &mut log, 0, TransactionVersion::TV_2),
        Errors::ProducerFenced
    );
    let (r, _) = c.handle_end_txn_from(ID, (10, 0), false, TransactionVersion::TV_2, 1, &mut log);
    assert_eq!((r.error, r.producer_epoch), (Errors::None, 1));
    // CompleteCommit and an abort at the retry epoch: still the state rule.
    let mut c = loaded(
        TransactionState::CompleteCommit,
        (1, 0),
        &[],
        TransactionVersion::TV_2,
    );
    let (r, _) = c.handle_end_txn_from(ID, (10, 0), false, TransactionVersion::TV_2, 1, &mut log);
    assert_eq!(r.error, Errors::InvalidTxnState);
    let mut c = loaded(
        TransactionState::CompleteAbort,
        (1, 0),
        &[],
        TransactionVersion::TV_0,
    );
    assert_eq!(
        commit(&mut c, &mut log, 1, TransactionVersion::TV_0),
        Errors::InvalidTxnState
    );
}

/// EndTxn's answer by state and epoch, under TV0 and TV2, where the request's epoch is
/// the one a retry carries (TV2: one below the stored epoch). TransactionCoordinatorTest
/// .shouldReturnOkOnEndTxnWhenStatusIs…, shouldReturnInvalidTxnRequestOnEndTxnRequestWhen…,
/// shouldReturnConcurrentTransactionsOnEndTxnRequestWhenStatusIsPrepareCommit,
/// shouldReturnInvalidEpochOnEndTxnWhenEpochIs{Larger,Smaller},
/// shouldReplyWith{InvalidPidMapping,ProducerFenced}OnEndTxn… (Kafka 4.0).
#[test]
fn end_txn_answers_by_state_and_epoch() {
    use TransactionState::*;
    let mut log = FakeLog::default();
    for tv in [TransactionVersion::TV_0, TransactionVersion::TV_2] {
        let retry = if tv.supports_epoch_bump() { 0 } else { 1 };
        let cases = [
            (CompleteCommit, true, (10, retry), Errors::None),
            (CompleteAbort, false, (10, retry), Errors::None),
            (CompleteCommit, false, (10, retry), Errors::InvalidTxnState),
            (
                PrepareCommit,
                true,
                (10, retry),
                Errors::ConcurrentTransactions,
            ),
            (Ongoing, true, (0, 1), Errors::InvalidProducerIdMapping),
            (Ongoing, true, (10, 0), Errors::ProducerFenced),
            (CompleteCommit, true, (10, 2), Errors::ProducerFenced),
        ];
        for (state, commit, (pid, epoch), want) in cases {
            let parts: &[i32] = if state == PrepareCommit { &[0] } else { &[] };
            let mut c = loaded(state, (1, 0), parts, tv);
            let (r, _) = c.handle_end_txn_from(ID, (pid, epoch), commit, tv, 1, &mut log);
            assert_eq!(
                r.error, want,
                "{tv:?} {state} commit={commit} {pid}/{epoch}"
            );
        }
    }
}

/// Only an Ongoing transaction past `start + timeout` is aborted by the sweep
/// (TransactionStateManagerTest.shouldOnlyConsiderTransactionsInTheOngoingStateToAbort).
#[test]
fn only_an_ongoing_transaction_times_out() {
    use TransactionState::*;
    let mut log = FakeLog::default();
    for (state, timeout, aborted) in [
        (Ongoing, 1_000, true),
        (Ongoing, 10_000, false),
        (PrepareCommit, 1_000, false),
        (PrepareAbort, 1_000, false),
        (CompleteCommit, 1_000, false),
        (CompleteAbort, 1_000, false),
    ] {
        let parts: &[i32] = if state.is_complete() { &[] } else { &[0] };
        let mut t = transit(state, parts);
        t.txn_timeout_ms = timeout;
        let mut c = with_loaded(t);
        let out = c.abort_timed_out_transactions(2_000, &mut log);
        let timed_out = out.iter().any(|o| {
            matches!(
                o,
                CoordinatorOutput::Event(CoordinatorEvent::TimedOut { .. })
            )
        });
        assert_eq!(timed_out, aborted, "{state} timeout {timeout}");
    }
}

/// Only an id with no transaction going on (Empty, CompleteCommit, CompleteAbort) and
/// idle for `transactional.id.expiration.ms` expires: its tombstone is written, then it
/// is forgotten; a failed write keeps it, nothing pending
/// (TransactionStateManagerTest.shouldRemove{CompleteCommit,CompleteAbort,Empty}
/// ExpiredTransactionalIds, shouldNotRemove{Ongoing,PrepareAbort,PrepareCommit}
/// TransactionalIds, shouldNotRemoveExpiredTransactionalIdsIfLogAppendFails,
/// testTransactionExpirationShouldNotFailWithUninitializedTransactionMetadata).
#[test]
fn only_idle_ids_expire() {
    use TransactionState::*;
    let expiry = TransactionConfig::default().transactional_id_expiration_ms;
    for (state, expires) in [
        (Empty, true),
        (CompleteCommit, true),
        (CompleteAbort, true),
        (Ongoing, false),
        (PrepareAbort, false),
        (PrepareCommit, false),
    ] {
        let parts: &[i32] = if state == Empty || state.is_complete() {
            &[]
        } else {
            &[0]
        };
        let mut c = with_loaded(transit(state, parts));
        let mut log = FakeLog::default();
        c.remove_expired_transactional_ids(expiry - 1, &mut log);
        assert!(
            c.metadata(ID).is_some() && log.records.is_empty(),
            "{state}: not yet"
        );
        c.remove_expired_transactional_ids(expiry, &mut log);
        assert_eq!(c.metadata(ID).is_none(), expires, "{state}");
        let tombstones: Vec<bool> = log.records.iter().map(|(_, _, v)| v.is_none()).collect();
        assert_eq!(
            tombstones,
            if expires { vec![true] } else { vec![] },
            "{state}"
        );
    }
    let mut c = with_loaded(transit(CompleteAbort, &[]));
    let mut failing = FakeLog {
        fail_append: Some(Errors::NotEnoughReplicas),
        ..FakeLog::default()
    };
    c.remove_expired_transactional_ids(expiry, &mut failing);
    assert_eq!(c.metadata(ID).map(|m| m.pending_state()), Some(None));
    // An id whose first InitProducerId write failed stays at epoch -1, and expires.
    let mut c = coordinator();
    let (r, _) = c.handle_init_producer_id(ID, 60_000, 0, &mut failing);
    assert_eq!(r.error, Errors::CoordinatorNotAvailable);
    assert_eq!(c.metadata(ID).map(|m| m.producer_epoch()), Some(-1));
    let mut log = FakeLog::default();
    c.remove_expired_transactional_ids(expiry, &mut log);
    assert!(c.metadata(ID).is_none());
    assert_eq!(log.records.len(), 1);
}

/// Kafka's fixture `transactionMetadata(id, producerId, state)`: epoch 0, timeout
/// 60 s, started and last updated at 0, TV0.
fn transit(state: TransactionState, partitions: &[i32]) -> TxnTransitMetadata {
    TxnTransitMetadata {
        producer_id: 0,
        prev_producer_id: -1,
        next_producer_id: -1,
        producer_epoch: 0,
        last_producer_epoch: -1,
        txn_timeout_ms: 60_000,
        txn_state: state,
        topic_partitions: partitions
            .iter()
            .map(|p| TopicPartition::new("topic1", *p))
            .collect(),
        txn_start_timestamp: 0,
        txn_last_update_timestamp: 0,
        client_transaction_version: TransactionVersion::TV_0,
    }
}
