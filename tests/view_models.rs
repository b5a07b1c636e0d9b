#![cfg(not(target_arch = "wasm32"))]
//! The transactions page's view models (`eos_playground::view`), natively: small worlds
//! built with the Action API, and what each panel shows of them.

use eos_playground::coordinator::internal_topics::partition_for;
use eos_playground::coordinator::transaction::TransactionState;
use eos_playground::log::{AbortedTxn, TopicPartition};
use eos_playground::sim::{Action, ClusterConfig, World};
use eos_playground::view::consumers::consumers;
use eos_playground::view::coordinators::coordinators;
use eos_playground::view::partition::{
    partition_view, partition_view_back, shown_partition, BatchKind, PartitionView, LOG_WINDOW,
};
use eos_playground::view::producers::producers;
use eos_playground::view::timeline::{timeline, TIMELINE_MESSAGES};

use BatchKind::*;

fn a(w: &mut World, action: Action) {
    w.apply(&action)
        .unwrap_or_else(|e| panic!("{action:?}: {e}"));
}

fn tp(topic: &str) -> TopicPartition {
    TopicPartition::new(topic, 0)
}

fn topic(w: &mut World, name: &str) {
    a(
        w,
        Action::CreateTopic {
            name: name.into(),
            partitions: 1,
            configs: vec![],
        },
    );
}

fn txn_producer(w: &mut World, name: &str, transactional_id: &str) {
    a(
        w,
        Action::CreateProducer {
            name: name.into(),
            configs: vec![("transactional.id".into(), transactional_id.into())],
        },
    );
    a(
        w,
        Action::InitTransactions {
            producer: name.into(),
        },
    );
}

fn begin(w: &mut World, p: &str) {
    a(w, Action::BeginTransaction { producer: p.into() });
}

fn send(w: &mut World, p: &str, topic: &str, values: &[&str]) {
    a(
        w,
        Action::Send {
            producer: p.into(),
            topic_partition: tp(topic),
            values: values.iter().map(|v| v.to_string()).collect(),
        },
    );
}

fn flush(w: &mut World, p: &str) {
    a(w, Action::Flush { producer: p.into() });
}

fn commit(w: &mut World, p: &str) {
    a(w, Action::CommitTransaction { producer: p.into() });
}

fn abort(w: &mut World, p: &str) {
    a(w, Action::AbortTransaction { producer: p.into() });
}

fn consumer(w: &mut World, name: &str, isolation: &str, topic: &str) {
    a(
        w,
        Action::CreateConsumer {
            name: name.into(),
            configs: vec![
                ("isolation.level".into(), isolation.into()),
                ("auto.offset.reset".into(), "earliest".into()),
            ],
        },
    );
    a(
        w,
        Action::Assign {
            consumer: name.into(),
            partitions: vec![tp(topic)],
        },
    );
    a(
        w,
        Action::Poll {
            consumer: name.into(),
        },
    );
}

/// Topic `t`, producer `p` (transactional id `tx`): a committed transaction [a, b],
/// an aborted one [c] and an open one [d] (written, no marker).
fn committed_aborted_open() -> World {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    txn_producer(&mut w, "p", "tx");
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["a", "b"]);
    commit(&mut w, "p");
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["c"]);
    flush(&mut w, "p");
    abort(&mut w, "p");
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["d"]);
    flush(&mut w, "p");
    w
}

fn part(w: &World) -> PartitionView {
    partition_view(w, &tp("t"), LOG_WINDOW).expect("t-0 exists")
}

fn kinds(p: &PartitionView) -> Vec<(i64, i64, BatchKind)> {
    p.batches
        .iter()
        .map(|b| (b.base_offset, b.last_offset, b.kind))
        .collect()
}

#[test]
fn partition_tells_committed_aborted_and_open_apart() {
    let w = committed_aborted_open();
    let p = part(&w);
    assert_eq!(
        kinds(&p),
        vec![
            (0, 1, Committed),
            (2, 2, CommitMarker),
            (3, 3, Aborted),
            (4, 4, AbortMarker),
            (5, 5, Open),
        ]
    );
    assert_eq!(
        (p.log_end_offset, p.high_watermark, p.last_stable_offset),
        (6, 6, 5),
        "the open transaction holds the LSO at its first offset"
    );
    assert_eq!(p.total_batches, 5);
    assert_eq!(p.window_start(), 0);
    assert_eq!(
        p.aborted,
        vec![AbortedTxn {
            producer_id: 0,
            first_offset: 3,
            last_offset: 4,
            last_stable_offset: 5,
        }]
    );
    assert_eq!(p.ongoing, vec![(0, 5)]);
    assert_eq!(
        p.batches[0].records,
        vec![(0, "a".to_string()), (1, "b".to_string())]
    );
    assert!(p.batches[1].records.is_empty(), "a marker shows no value");
    assert_eq!(
        p.batches[1].control_line.as_deref(),
        Some("endTxnMarker: COMMIT coordinatorEpoch: 0")
    );
    assert_eq!(
        p.batches[3].control_line.as_deref(),
        Some("endTxnMarker: ABORT coordinatorEpoch: 0")
    );
    assert_eq!(p.batches[0].control_line, None);
    assert_eq!(p.kind_at(1), Some(Committed));
    assert_eq!(p.kind_at(4), Some(AbortMarker));
    assert_eq!(p.kind_at(6), None, "past the log end");
    assert!(CommitMarker.is_marker() && !Open.is_marker());
    assert_eq!(
        [Committed, Aborted, Open, CommitMarker, AbortMarker, Plain].map(BatchKind::css),
        ["committed", "aborted", "open", "marker", "marker", "plain"]
    );
}

#[test]
fn held_markers_keep_the_data_open_until_released() {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    txn_producer(&mut w, "p", "tx");
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["x"]);
    a(&mut w, Action::HoldMarkers);
    commit(&mut w, "p");
    let p = part(&w);
    assert_eq!(kinds(&p), vec![(0, 0, Open)], "decided, but no marker yet");
    assert_eq!((p.last_stable_offset, p.high_watermark), (0, 1));
    let held = timeline(&w, Some(&p), &coordinators(&w), TIMELINE_MESSAGES);
    assert!(
        held.messages
            .iter()
            .any(|m| m.held && m.api == "WriteTxnMarkers" && !m.response),
        "{:?}",
        held.messages
    );
    a(&mut w, Action::ReleaseMarkers);
    a(&mut w, Action::RunUntilIdle);
    let p = part(&w);
    assert_eq!(kinds(&p), vec![(0, 0, Committed), (1, 1, CommitMarker)]);
    assert_eq!((p.last_stable_offset, p.high_watermark), (2, 2));
}

#[test]
fn data_without_a_transaction_is_plain() {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    a(
        &mut w,
        Action::CreateProducer {
            name: "idem".into(),
            configs: vec![],
        },
    );
    send(&mut w, "idem", "t", &["x", "y"]);
    flush(&mut w, "idem");
    let p = part(&w);
    assert_eq!(kinds(&p), vec![(0, 1, Plain)]);
    assert_eq!(p.last_stable_offset, 2);
    assert!(
        producers(&w).is_empty(),
        "only transactional producers are shown"
    );
}

#[test]
fn the_window_shows_the_newest_batches_aligned() {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    txn_producer(&mut w, "p", "tx");
    for i in 0..30 {
        begin(&mut w, "p");
        send(&mut w, "p", "t", &[&i.to_string()]);
        commit(&mut w, "p");
    }
    let p = partition_view(&w, &tp("t"), 20).unwrap();
    assert_eq!(p.total_batches, 60);
    // 60 - 20 = 40, down to a multiple of LOG_WINDOW_STEP (25): the window starts at
    // batch 25 (offset 25: data and markers alternate).
    assert_eq!(p.batches.len(), 35);
    assert_eq!(p.window_start(), 25);
    assert_eq!(p.kind_at(24), None, "before the window");
    assert_eq!(p.kind_at(25), Some(CommitMarker));
    assert_eq!(p.first_batch, 25);
}

/// Scrolled back, the window ends `back` batches before the newest, in steps of 25, and
/// decodes at most the window and one step more: every batch of a long log is reachable.
#[test]
fn a_window_scrolled_back_decodes_the_batches_there() {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    a(
        &mut w,
        Action::CreateProducer {
            name: "idem".into(),
            configs: vec![],
        },
    );
    for i in 0..200 {
        send(&mut w, "idem", "t", &[&format!("b{i}")]);
        flush(&mut w, "idem");
    }
    let at = |back: usize| partition_view_back(&w, &tp("t"), 50, back).unwrap();
    let rows = |p: &PartitionView| {
        let (first, rows) = p.table_rows();
        (first, rows.to_vec())
    };
    let newest = at(0);
    assert_eq!(newest, part(&w), "back 0 is the newest window");
    assert_eq!(newest.rows, None);
    assert_eq!((newest.first_batch, newest.batches.len()), (150, 50));
    // 200 - (50 + 60) = 90, down to a multiple of 25: rows of batches 75..149; the
    // strip and the readers still see the newest batches.
    let back = at(60);
    assert_eq!(back.batches, newest.batches);
    let (first, r) = rows(&back);
    assert_eq!((back.total_batches, first, r.len()), (200, 75, 74));
    assert_eq!(r[0].records, vec![(75, "b75".to_string())]);
    assert_eq!(r[73].base_offset, 148);
    // The oldest: back as far as it goes (and further) starts at batch 0.
    for far in [150, 190, 10_000] {
        let (first, r) = rows(&at(far));
        assert_eq!(first, 0, "back {far}");
        assert_eq!(r[0].records, vec![(0, "b0".to_string())]);
    }
    // Every batch is in some window a scroll reaches.
    let mut seen = [false; 200];
    for back in (0..200).step_by(25) {
        let (first, r) = rows(&at(back));
        for (i, b) in r.iter().enumerate() {
            assert_eq!(b.base_offset, (first + i) as i64, "one record a batch");
            seen[first + i] = true;
        }
    }
    assert!(seen.iter().all(|s| *s));
}

#[test]
fn the_shown_partition_is_where_a_transaction_wrote_last() {
    let mut w = World::new(ClusterConfig::default());
    assert_eq!(shown_partition(&w), None);
    topic(&mut w, "a");
    topic(&mut w, "b");
    assert_eq!(shown_partition(&w), Some(tp("b")), "the newest topic");
    txn_producer(&mut w, "p", "tx");
    begin(&mut w, "p");
    send(&mut w, "p", "a", &["x"]);
    commit(&mut w, "p");
    assert_eq!(
        shown_partition(&w),
        Some(tp("a")),
        "never __transaction_state, though the coordinator wrote there last"
    );
}

#[test]
fn producers_show_state_partitions_and_the_last_call() {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    txn_producer(&mut w, "p", "tx");
    let ps = producers(&w);
    assert_eq!(ps.len(), 1);
    let p = &ps[0];
    assert_eq!((p.name.as_str(), p.transactional_id.as_str()), ("p", "tx"));
    assert_eq!(
        (p.id, p.state, p.in_transaction),
        (Some((0, 0)), "READY", false)
    );
    let o = p.outcome.as_ref().unwrap();
    assert!(o.ok);
    assert_eq!(o.operation, "initTransactions");
    assert_eq!((o.producer_id, o.producer_epoch), (Some(0), Some(0)));

    begin(&mut w, "p");
    send(&mut w, "p", "t", &["x"]);
    let p = &producers(&w)[0];
    assert_eq!((p.state, p.in_transaction), ("IN_TRANSACTION", true));
    assert_eq!(p.pending, 1, "one batch in the accumulator");

    commit(&mut w, "p");
    let p = &producers(&w)[0];
    assert_eq!((p.state, p.pending), ("READY", 0));
    assert!(p.partitions.is_empty());
    assert_eq!(p.outcome.as_ref().unwrap().operation, "commitTransaction");

    // A second producer with the same id fences the first: its commit fails.
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["y"]);
    flush(&mut w, "p");
    assert_eq!(producers(&w)[0].partitions, vec!["t-0".to_string()]);
    txn_producer(&mut w, "p2", "tx");
    let _ = w.apply(&Action::CommitTransaction {
        producer: "p".into(),
    });
    let ps = producers(&w);
    let (p, p2) = (&ps[0], &ps[1]);
    assert!(
        p2.id.unwrap().1 > p.id.unwrap().1,
        "the new producer has the newer epoch: {:?} {:?}",
        p.id,
        p2.id
    );
    let o = p.outcome.as_ref().unwrap();
    assert!(!o.ok);
    assert_eq!(o.operation, "commitTransaction");
    assert_eq!(o.error.as_deref(), Some("PRODUCER_FENCED"));
    assert_eq!(
        o.exception.as_deref(),
        Some("ProducerFencedException"),
        "{o:?}"
    );
    assert_eq!((o.producer_id, o.producer_epoch), (None, None));
    assert_eq!(p.last_error.as_deref(), Some("ProducerFencedException"));
}

#[test]
fn coordinators_show_metadata_records_and_the_last_move() {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    txn_producer(&mut w, "p", "tx");
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["x"]);
    flush(&mut w, "p");
    a(&mut w, Action::Advance { ms: 500 });
    let cs = coordinators(&w);
    assert_eq!(cs.len(), 1);
    let c = &cs[0];
    assert_eq!(c.transactional_id, "tx");
    assert_eq!((c.broker, c.partition), (1, partition_for("tx", 50)));
    assert_eq!((c.state, c.pending), (TransactionState::Ongoing, None));
    assert_eq!((c.producer_id, c.producer_epoch), (0, 0));
    assert_eq!(c.partitions, vec!["t-0".to_string()]);
    assert_eq!(c.timeout_ms, 60_000);
    assert!(
        c.open_for_ms.is_some_and(|ms| ms >= 500),
        "{:?}",
        c.open_for_ms
    );
    assert_eq!(
        c.last_transition,
        Some((TransactionState::Empty, TransactionState::Ongoing))
    );

    commit(&mut w, "p");
    a(&mut w, Action::RunUntilIdle);
    let c = &coordinators(&w)[0];
    assert_eq!(c.state, TransactionState::CompleteCommit);
    assert_eq!(c.open_for_ms, None);
    assert_eq!(
        c.last_transition,
        Some((
            TransactionState::PrepareCommit,
            TransactionState::CompleteCommit
        ))
    );
    let statuses: Vec<&str> = c.records.iter().map(|r| r.status.as_str()).collect();
    assert_eq!(
        statuses,
        ["Empty", "Ongoing", "PrepareCommit", "CompleteCommit"]
    );
    assert_eq!(c.records[1].partitions, "t-0");
    assert!(
        c.records[1]
            .json
            .contains("\"transactionStatus\":\"Ongoing\""),
        "{}",
        c.records[1].json
    );
    assert_eq!(
        c.visited,
        vec![
            TransactionState::Empty,
            TransactionState::Ongoing,
            TransactionState::PrepareCommit,
            TransactionState::CompleteCommit
        ]
    );
    // The same records the CLI's `transaction_states` prints.
    assert_eq!(
        w.transaction_states("tx"),
        "Empty(0) → Ongoing(0) → PrepareCommit(1) → CompleteCommit(1)",
        "TV2 bumps the epoch when the commit is prepared"
    );

    a(
        &mut w,
        Action::StopBroker {
            broker: 1,
            clean: true,
        },
    );
    assert!(
        coordinators(&w).is_empty(),
        "an offline coordinator shows nothing"
    );
}

#[test]
fn consumers_show_what_they_skipped_by_isolation_level() {
    let mut w = committed_aborted_open();
    consumer(&mut w, "rc", "read_committed", "t");
    consumer(&mut w, "ru", "read_uncommitted", "t");
    let p = part(&w);
    let cs = consumers(&w, Some(&p));
    let (rc, ru) = (&cs[0], &cs[1]);
    assert_eq!(rc.name, "rc");
    assert_eq!(rc.position, Some(5), "read_committed stops at the LSO");
    assert_eq!(rc.records, vec![(0, "a".to_string()), (1, "b".to_string())]);
    assert_eq!(rc.total, 2);
    assert_eq!(
        rc.skipped,
        vec![(2, 2, CommitMarker), (3, 3, Aborted), (4, 4, AbortMarker)]
    );
    assert_eq!(ru.position, Some(6), "read_uncommitted reads up to the HW");
    assert_eq!(
        ru.records.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(),
        ["a", "b", "c", "d"]
    );
    assert_eq!(ru.skipped, vec![(2, 2, CommitMarker), (4, 4, AbortMarker)]);
    assert_ne!(rc.isolation, ru.isolation);

    let none = consumers(&w, None);
    assert_eq!((none[0].position, none[0].total), (None, 0));
    assert!(none[0].skipped.is_empty());
}

#[test]
fn the_timeline_shows_lifelines_roles_and_the_newest_messages() {
    let w = committed_aborted_open();
    let p = part(&w);
    let cs = coordinators(&w);
    let t = timeline(&w, Some(&p), &cs, 4);
    assert_eq!(t.messages.len(), 4);
    assert!(t.total > 4);
    assert!(
        t.messages.windows(2).all(|m| m[0].seq < m[1].seq),
        "oldest first"
    );
    let labels: Vec<&str> = t.lifelines.iter().map(|l| l.label.as_str()).collect();
    assert_eq!(labels[..2], ["p", "broker 1"]);
    assert_eq!(
        t.lifelines[1].roles,
        vec!["leader t-0".to_string(), "coordinator tx".to_string()]
    );
    for m in &t.messages {
        assert!(m.from < t.lifelines.len() && m.to < t.lifelines.len());
        assert!(!m.dropped && !m.held && m.error.is_none());
    }
    let all = timeline(&w, Some(&p), &cs, usize::MAX);
    assert_eq!(
        all.messages.len(),
        all.total,
        "every message sent is an event"
    );
    assert!(all.lifelines.iter().any(|l| l.label == "controller"));
}

#[test]
fn the_timeline_marks_dropped_messages_and_errors() {
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    txn_producer(&mut w, "p", "tx");
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["x"]);
    a(
        &mut w,
        Action::DropNextRequest {
            from: Some("p".into()),
        },
    );
    commit(&mut w, "p");
    let t = timeline(&w, None, &[], TIMELINE_MESSAGES);
    assert!(t.messages.iter().any(|m| m.dropped), "{:?}", t.messages);
    assert_eq!(
        t.lifelines[0].roles,
        Vec::<String>::new(),
        "no partition or coordinator given: no roles"
    );
}

/// A transaction past its transaction.timeout.ms: late while it waits for the
/// coordinator's next check, then timed out with the epoch the abort fenced it with;
/// the next transaction of the id is not late.
#[test]
fn the_coordinator_shows_an_ids_newest_records_and_counts_the_rest() {
    use eos_playground::view::coordinators::STATE_LOG_SHOWN;
    let mut w = World::new(ClusterConfig::default());
    topic(&mut w, "t");
    txn_producer(&mut w, "p", "tx");
    // An abort first, so the only PrepareAbort record ends up outside the window.
    begin(&mut w, "p");
    send(&mut w, "p", "t", &["x"]);
    flush(&mut w, "p");
    abort(&mut w, "p");
    a(&mut w, Action::RunUntilIdle);
    for i in 0..5 {
        begin(&mut w, "p");
        send(&mut w, "p", "t", &[&format!("v{i}")]);
        flush(&mut w, "p");
        commit(&mut w, "p");
        a(&mut w, Action::RunUntilIdle);
    }
    let c = &coordinators(&w)[0];
    // Empty, then Ongoing, Prepare*, Complete* for each of the six transactions.
    assert_eq!(c.records_total, 1 + 6 * 3);
    assert_eq!(c.records.len(), STATE_LOG_SHOWN);
    let places: Vec<usize> = c.records.iter().map(|r| r.index).collect();
    assert_eq!(
        places,
        (c.records_total - STATE_LOG_SHOWN..c.records_total).collect::<Vec<_>>()
    );
    assert_eq!(
        c.records.last().map(|r| r.status.as_str()),
        Some("CompleteCommit")
    );
    assert!(c
        .records
        .iter()
        .all(|r| r.status != "PrepareAbort" && r.status != "Empty"));
    // The diagram still lights every state the id has been in, shown or not.
    for s in [
        TransactionState::Empty,
        TransactionState::PrepareAbort,
        TransactionState::CompleteAbort,
        TransactionState::CompleteCommit,
    ] {
        assert!(c.visited.contains(&s), "{s:?} in {:?}", c.visited);
    }
}

#[test]
fn a_late_transaction_shows_its_timeout_and_the_coordinators_abort() {
    let src = "cluster brokers=1\ntopic create t partitions=1\n\
               producer p create transactional.id=tx transaction.timeout.ms=2000\n\
               producer p init-transactions\nproducer p begin\nproducer p send t-0 x\n\
               producer p flush\n";
    let late = |extra: &str| {
        let s = eos_playground::scenario::parse(&format!("{src}{extra}")).expect("parses");
        let r = eos_playground::scenario::Replay::to(s, usize::MAX);
        assert_eq!(r.error(), None);
        let c = coordinators(r.world()).remove(0);
        (c.late, c.producer_epoch)
    };
    let (within, _) = late("run 1500\n");
    assert_eq!(within, None, "1.5 s of a 2 s timeout is not late");
    let (waiting, _) = late("run 2500\n");
    let waiting = waiting.expect("past its timeout");
    assert_eq!((waiting.producer_id, waiting.producer_epoch), (0, 0));
    assert_eq!(waiting.timeout_ms, 2000);
    assert!(waiting.open_for_ms > 2000, "{waiting:?}");
    assert_eq!(waiting.aborted, None, "the coordinator checks every 10 s");
    let (aborted, epoch) = late("run 12000\n");
    let aborted = aborted.expect("timed out");
    assert_eq!(
        aborted.producer_epoch, 0,
        "the epoch the transaction ran at"
    );
    let (at, bumped) = aborted.aborted.expect("aborted by the coordinator");
    assert_eq!(bumped, 1, "the abort fenced the producer at epoch 1");
    assert_eq!(epoch, 1);
    assert!(
        (10_000..12_500).contains(&at),
        "found at a 10 s check: {at}"
    );
    assert!(
        aborted.open_for_ms > 2000 && aborted.open_for_ms <= at,
        "{aborted:?}"
    );
    // A new instance takes the id over: its transaction is not late.
    let (next, _) = late(
        "run 12000\nproducer q create transactional.id=tx\nproducer q init-transactions\nproducer q begin\nproducer q send t-0 y\nproducer q flush\n",
    );
    assert_eq!(next, None);
}

#[test]
fn transaction_states_say_why_there_is_nothing_to_read() {
    use eos_playground::sim::TxnLogUnreadable;
    // No transactional producer yet: no `__transaction_state` partition has a leader.
    let w = World::new(ClusterConfig::default());
    assert_eq!(
        w.transaction_log_values("tx"),
        Err(TxnLogUnreadable::NoCoordinator("tx".into()))
    );
    assert_eq!(w.transaction_states("tx"), "tx: no coordinator yet");
}
