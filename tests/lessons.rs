#![cfg(not(target_arch = "wasm32"))]
//! Golden lesson transcripts, and the real outputs from the seeds that the lessons
//! must reproduce (whitespace aside). Set `UPDATE_GOLDEN=1` to rewrite the goldens
//! after an intended change, then review the diff.

use eos_playground::i18n::Lang;
use eos_playground::scenario;

fn norm(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn transcript(name: &str) -> Vec<String> {
    let lesson = scenario::lesson(name).expect("lesson exists");
    scenario::transcript(lesson.source).expect("lesson runs")
}

/// Asserts that `expected` lines appear in `actual` in this order (whitespace aside).
fn assert_contains_in_order(actual: &[String], expected: &[&str]) {
    let actual: Vec<String> = actual.iter().map(|l| norm(l)).collect();
    let mut from = 0;
    for want in expected {
        let want = norm(want);
        match actual[from..].iter().position(|l| *l == want) {
            Some(i) => from += i + 1,
            None => panic!(
                "missing (in order): {want}\n--- transcript ---\n{}",
                actual.join("\n")
            ),
        }
    }
}

/// The transcript as the lesson player shows it: each player step (one Next) opens with
/// a `--- step N of M` line naming its source lines and title, then what it printed.
fn player_transcript(name: &str) -> String {
    let lesson = scenario::lesson(name).expect("lesson exists");
    let mut replay = scenario::Replay::new(scenario::parse(lesson.source).expect("parses"));
    let mut out = String::new();
    let total = replay.player_len();
    for n in 1..=total {
        let printed = replay.play_player_step().expect("lesson runs");
        let range = replay.player_steps()[n - 1].clone();
        let steps = &replay.scenario().steps;
        let (first, last) = (&steps[range.start], &steps[range.end - 1]);
        let title = first.title.as_deref().map(|t| format!(" · {t}"));
        out.push_str(&format!(
            "--- step {n} of {total} · lines {}-{}{}\n",
            first.line,
            last.line,
            title.unwrap_or_default()
        ));
        for line in printed.lines {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

fn golden(name: &str) {
    let got = player_transcript(name);
    // The player's steps print exactly the lines a whole run prints, in order.
    let lines: Vec<&str> = got
        .lines()
        .filter(|l| !l.starts_with("--- step "))
        .collect();
    assert_eq!(
        lines,
        transcript(name),
        "{name}: grouping changed what is printed"
    );
    let path = format!("{}/tests/golden/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        got, want,
        "transcript of {name} differs from {path} (UPDATE_GOLDEN=1 to rewrite)"
    );
}

/// A lesson replayed with its `cluster` line changed, its transcript kept in
/// `tests/golden/{name}.{variant}.txt`; `cut` drops the steps from that heading on.
fn golden_variant(name: &str, variant: &str, cluster: (&str, &str), cut: Option<&str>) {
    let lesson = scenario::lesson(name).expect("lesson exists");
    assert!(
        lesson.source.contains(cluster.0),
        "{name} has `{}`",
        cluster.0
    );
    let mut source = lesson.source.replace(cluster.0, cluster.1);
    if let Some(heading) = cut {
        let at = source.find(heading).expect("heading exists");
        source.truncate(at);
    }
    let got = scenario::transcript(&source)
        .expect("variant runs")
        .join("\n")
        + "\n";
    let path = format!(
        "{}/tests/golden/{name}.{variant}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(got, want, "{name} ({variant}) differs from {path}");
}

const HANGING_CLUSTER: &str =
    "cluster brokers=1 transaction.version=1 transaction.partition.verification.enable=false";

/// TV1 without verification: the late Produce opens a transaction no marker ends.
/// Then the lesson's second world plays the same schedule under TV2: the ABORT marker
/// bumped the epoch, the late Produce is INVALID_PRODUCER_EPOCH, nothing hangs.
#[test]
fn golden_hanging_transaction_tv1_then_tv2() {
    golden("hanging-transaction");
    let t = transcript("hanging-transaction");
    assert_contains_in_order(
        &t,
        &[
            "baseOffset: 2 lastOffset: 2 baseSequence: 1 producerEpoch: 0 isTransactional: true isControl: false",
            "read_committed got []",
            "latest offset read_uncommitted=5 (high watermark), read_committed=2 (LSO)",
            "read_committed got [c@3]",
            "latest offset read_uncommitted=6 (high watermark), read_committed=6 (LSO)",
            // The second world, at transaction.version 2.
            "p1 abort succeeded: (producerId=0, epoch=1)",
            "1..1 INVALID_PRODUCER_EPOCH · epoch 0 < current 1 -1 []",
            "baseOffset: 1 lastOffset: 1 baseSequence: -1 producerEpoch: 1 isTransactional: true isControl: true",
            "read_committed got [c@2]",
            "latest offset read_uncommitted=4 (high watermark), read_committed=4 (LSO)",
        ],
    );
    let second = t
        .iter()
        .position(|l| l.starts_with("p1 abort succeeded: (producerId=0, epoch=1)"))
        .expect("the TV2 half runs");
    assert!(
        !t[second..]
            .iter()
            .any(|l| l.contains("baseOffset: 2 lastOffset: 2 baseSequence: 1")),
        "under TV2 the late Produce is not written"
    );
}

/// TV1 with `transaction.partition.verification.enable=true`: the leader asks the
/// coordinator, which has no such transaction: the late Produce is refused.
#[test]
fn golden_hanging_transaction_tv1_verified() {
    golden_variant(
        "hanging-transaction",
        "tv1-verification",
        (
            HANGING_CLUSTER,
            "cluster brokers=1 transaction.version=1 transaction.partition.verification.enable=true",
        ),
        Some("## kafka-transactions.sh abort"),
    );
}

/// TV1: the late EndTxn commits b. Then the lesson's second world, at TV2: the commit
/// of a bumped the epoch, the late EndTxn is PRODUCER_FENCED, and p1's abort of b holds.
#[test]
fn golden_late_endtxn_tv1_then_tv2() {
    golden("late-endtxn");
    assert_contains_in_order(
        &transcript("late-endtxn"),
        &[
            "EndTxn: error=NONE producerId=0 epoch=0",
            "read_committed got [a@0, b@2]",
            "p1 committed a: (producerId=0, epoch=1)",
            "EndTxn: error=PRODUCER_FENCED producerId=-1 epoch=-1",
            "p1 abort succeeded",
            "read_committed got [a@0]",
            "Empty(0) → Ongoing(0) → PrepareCommit(1) → CompleteCommit(1) → Ongoing(1) → PrepareAbort(2) → CompleteAbort(2)",
        ],
    );
}

#[test]
fn golden_idempotence() {
    golden("idempotence");
}

#[test]
fn golden_dedup_window() {
    golden("dedup-window");
}

#[test]
fn golden_replication() {
    golden("replication");
}

#[test]
fn golden_break_it() {
    golden("break-it");
}

/// The break-it lesson: with `break dedup=1` the retry behind a newer batch is
/// appended again and read twice; with Kafka's window the same sends are a DUPLICATE
/// and read once.
#[test]
fn break_it_lesson_writes_the_retry_twice_then_kafka_dedups_it() {
    assert_contains_in_order(
        &transcript("break-it"),
        &[
            "0..0 APPEND 2 [0..0 1..1 0..0]",
            "baseOffset: 2 baseSequence: 0",
            "got 3 records: a0@0 a1@1 a0@2 (position 3)",
            "verdict DUPLICATE · original offsets 0..0",
            "response error=NONE baseOffset=0",
            "got 2 records: a0@0 a1@1 (position 2)",
        ],
    );
}

/// The replication lesson's rules, in order: a slow ISR member holds the HW below the
/// LEO, a follower cut off leaves the ISR after replica.lag.time.max.ms, an ISR below
/// min.insync.replicas refuses acks=all writes, and a healed follower rejoins.
#[test]
fn replication_lesson_shows_the_isr_rules() {
    assert_contains_in_order(
        &transcript("replication"),
        &[
            "broker 1 leader LEO 2 HW 1 LSO 1 epochs [0@0]",
            "broker 3 follower LEO 1 HW 0 LSO 0 epochs [0@0]",
            "broker 1 leader LEO 2 HW 2 LSO 2 epochs [0@0]",
            "orders-0 leader=1 epoch=0 isr=[1, 2] partition-epoch=1",
            "[ 45000 ms] broker 1: [3] left the ISR of orders-0 — not caught up for 39978 ms (replica.lag.time.max.ms=30000); ISR now [1, 2]",
            "[ 45000 ms] broker 1 → controller: AlterPartition request",
            "[ 45002 ms] broker 1: HW of orders-0 2 → 3: every ISR member [1, 2] has the records below 3, so consumers may read them",
            "orders-0 leader=1 epoch=0 isr=[1] partition-epoch=2",
            "broker 1 leader LEO 3 HW 3 LSO 3 epochs [0@0]",
            "[ 47014 ms] broker 1 → p: Produce response (NOT_ENOUGH_REPLICAS)",
            "orders-0 leader=1 epoch=0 isr=[1, 3] partition-epoch=3",
            "orders-0 leader=1 epoch=0 isr=[1, 3, 2] partition-epoch=4",
            "got 4 records: a@0 b@1 c@2 d@3 (position 4)",
        ],
    );
}

#[test]
fn golden_failover() {
    golden("failover");
}

#[test]
fn golden_coordinator_failover() {
    golden("coordinator-failover");
}

#[test]
fn golden_acks_1_loss() {
    golden("acks-1-loss");
}

/// Seed 000, example 2: the real output of Kafka 4.5.0-SNAPSHOT.
#[test]
fn idempotence_reproduces_seed_000_example_2() {
    assert_contains_in_order(
        &transcript("idempotence"),
        &[
            "InitProducerId: COORDINATOR_LOAD_IN_PROGRESS, retrying in 100 ms",
            "InitProducerId: error=NONE producerId=0 epoch=0",
            "seq  0.. 2 (first send)                       -> error=NONE baseOffset=0",
            "seq  0.. 2 (same batch again)                 -> error=NONE baseOffset=0",
            "seq  5.. 5 (skip seq 3..4)                    -> error=OUT_OF_ORDER_SEQUENCE_NUMBER baseOffset=-1",
            "seq  3.. 5 (next seq)                         -> error=NONE baseOffset=3",
            "seq  6.. 8 (more)                             -> error=NONE baseOffset=6",
            "seq  9..11 (more)                             -> error=NONE baseOffset=9",
            "seq 12..14 (more)                             -> error=NONE baseOffset=12",
            "seq 15..17 (more)                             -> error=NONE baseOffset=15",
            "seq  0.. 2 (oldest of the 6 batches, again)   -> error=OUT_OF_ORDER_SEQUENCE_NUMBER baseOffset=-1",
            "baseOffset: 0 lastOffset: 2 count: 3 baseSequence: 0 lastSequence: 2 producerId: 0 producerEpoch: 0 magic: 2",
            "baseOffset: 3 lastOffset: 5 count: 3 baseSequence: 3 lastSequence: 5 producerId: 0 producerEpoch: 0 magic: 2",
            "baseOffset: 6 lastOffset: 8 count: 3 baseSequence: 6 lastSequence: 8 producerId: 0 producerEpoch: 0 magic: 2",
            "baseOffset: 9 lastOffset: 11 count: 3 baseSequence: 9 lastSequence: 11 producerId: 0 producerEpoch: 0 magic: 2",
            "baseOffset: 12 lastOffset: 14 count: 3 baseSequence: 12 lastSequence: 14 producerId: 0 producerEpoch: 0 magic: 2",
            "baseOffset: 15 lastOffset: 17 count: 3 baseSequence: 15 lastSequence: 17 producerId: 0 producerEpoch: 0 magic: 2",
        ],
    );
}

/// Seed 002's demo numbers (pid 1000): the window table, the duplicate of 7..9, the
/// gap, the overflow, the rebuild, pid 1001 at offset 15, and the 5 → 1 shrink.
#[test]
fn dedup_window_reproduces_seed_002_numbers() {
    let t = transcript("dedup-window");
    assert_contains_in_order(
        &t,
        &[
            "0..1 APPEND 0 [0..1]",
            "2..3 APPEND 2 [0..1 2..3]",
            "4..5 APPEND 4 [0..1 2..3 4..5]",
            "6..6 APPEND 6 [0..1 2..3 4..5 6..6]",
            "7..9 APPEND 7 [0..1 2..3 4..5 6..6 7..9]",
            "log end offset 10",
            "verdict DUPLICATE · original offsets 7..9",
            "response error=NONE baseOffset=7",
            "log end offset 10",
            "verdict OUT_OF_ORDER_SEQUENCE_NUMBER · expected 10, got 13",
            "log end offset 10",
            "window of producer 1000 (epoch 0) [10..10 11..11 12..12 13..13 14..14]",
            "verdict OUT_OF_ORDER_SEQUENCE_NUMBER · expected 15, got 7",
            "producer ids known [1000]",
            "window of producer 1000 (epoch 0) [10..10 11..11 12..12 13..13 14..14]",
            "verdict DUPLICATE · original offsets 14..14",
            "verdict APPEND",
            "response error=NONE baseOffset=15",
            "segments 8 (base offsets 0, 1, 2, 3, 4, 5, 6, 7)",
            "window of producer 1000 (epoch 0) [3..3 4..4 5..5 6..6 7..7]",
            "window of producer 1000 (epoch 0) [7..7]",
        ],
    );
}

#[test]
fn golden_transactions() {
    golden("transactions");
}

/// Seed 000, example 1: the real output of Kafka 4.5.0-SNAPSHOT (timestamps aside).
#[test]
fn transactions_reproduces_seed_000_example_1() {
    assert_contains_in_order(
        &transcript("transactions"),
        &[
            "txn A (c1..c3): committed",
            "txn B (a1..a3): sent and flushed, still open",
            "  while B is open: latest offset read_uncommitted=7 (high watermark), read_committed=4 (LSO)",
            "txn B: aborted",
            "txn C (c4..c5): committed",
            "  after all three: latest offset read_uncommitted=11 (high watermark), read_committed=11 (LSO)",
            "read_uncommitted consumer got 8 records: c1@0 c2@1 c3@2 a1@4 a2@5 a3@6 c4@8 c5@9 (position 11)",
            "read_committed   consumer got 5 records: c1@0 c2@1 c3@2 c4@8 c5@9 (position 11)",
            "00000000000000000000.index",
            "00000000000000000000.log",
            "00000000000000000000.timeindex",
            "00000000000000000000.txnindex",
            "baseOffset: 3 lastOffset: 3 baseSequence: -1 producerId: 0 producerEpoch: 1 isTransactional: true isControl: true magic: 2",
            " offset: 3 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: COMMIT coordinatorEpoch: 0",
            "baseOffset: 4 lastOffset: 6 baseSequence: 0 producerId: 0 producerEpoch: 1 isTransactional: true isControl: false magic: 2",
            "baseOffset: 7 lastOffset: 7 baseSequence: -1 producerId: 0 producerEpoch: 2 isTransactional: true isControl: true magic: 2",
            " offset: 7 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: ABORT coordinatorEpoch: 0",
            "baseOffset: 8 lastOffset: 9 baseSequence: 0 producerId: 0 producerEpoch: 2 isTransactional: true isControl: false magic: 2",
            "baseOffset: 10 lastOffset: 10 baseSequence: -1 producerId: 0 producerEpoch: 3 isTransactional: true isControl: true magic: 2",
            " offset: 10 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: COMMIT coordinatorEpoch: 0",
            "version: 0 producerId: 0 firstOffset: 4 lastOffset: 7 lastStableOffset: 8",
            "__transaction_state-23",
            r#"{"producerId":0,"previousProducerId":0,"producerEpoch":0,"transactionTimeoutMs":60000,"transactionStatus":"Empty","transactionPartitions":null}"#,
            r#"{"producerId":0,"previousProducerId":0,"producerEpoch":0,"transactionTimeoutMs":60000,"transactionStatus":"Ongoing","transactionPartitions":[{"topic":"trades","partitionIds":[0]}],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":0,"producerEpoch":1,"transactionTimeoutMs":60000,"transactionStatus":"PrepareCommit","transactionPartitions":[{"topic":"trades","partitionIds":[0]}],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":0,"producerEpoch":1,"transactionTimeoutMs":60000,"transactionStatus":"CompleteCommit","transactionPartitions":[],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":0,"producerEpoch":1,"transactionTimeoutMs":60000,"transactionStatus":"Ongoing","transactionPartitions":[{"topic":"trades","partitionIds":[0]}],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":1,"producerEpoch":2,"transactionTimeoutMs":60000,"transactionStatus":"PrepareAbort","transactionPartitions":[{"topic":"trades","partitionIds":[0]}],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":1,"producerEpoch":2,"transactionTimeoutMs":60000,"transactionStatus":"CompleteAbort","transactionPartitions":[],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":1,"producerEpoch":2,"transactionTimeoutMs":60000,"transactionStatus":"Ongoing","transactionPartitions":[{"topic":"trades","partitionIds":[0]}],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":2,"producerEpoch":3,"transactionTimeoutMs":60000,"transactionStatus":"PrepareCommit","transactionPartitions":[{"topic":"trades","partitionIds":[0]}],"clientTransactionVersion":2}"#,
            r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":2,"producerEpoch":3,"transactionTimeoutMs":60000,"transactionStatus":"CompleteCommit","transactionPartitions":[],"clientTransactionVersion":2}"#,
            "TransactionalId	Coordinator	ProducerId	TransactionState	",
            "trades-app     	1          	0         	CompleteCommit  	",
        ],
    );
}

#[test]
fn golden_fencing() {
    golden("fencing");
}

/// Seed 000, example 3 (the time initTransactions took aside).
#[test]
fn fencing_reproduces_seed_000_example_3() {
    let t = transcript("fencing");
    assert_contains_in_order(
        &t,
        &[
            "producer 1 after initTransactions: (producerId=0, epoch=0)",
            "producer 1 sent z1, transaction still open",
        ],
    );
    assert!(t.iter().any(
        |l| l.starts_with("producer 2 after initTransactions: (producerId=0, epoch=2) (took ")
    ));
    assert_contains_in_order(
        &t,
        &[
            "producer 1 commit failed: InvalidProducerEpochException",
            "producer 2 committed y1: (producerId=0, epoch=3)",
            "read_uncommitted consumer got: [z1@0, y1@2]",
            "read_committed   consumer got: [y1@2]",
            "baseOffset: 0 lastOffset: 0 baseSequence: 0 producerId: 0 producerEpoch: 0 isTransactional: true isControl: false",
            "baseOffset: 1 lastOffset: 1 baseSequence: -1 producerId: 0 producerEpoch: 1 isTransactional: true isControl: true",
            " offset: 1 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: ABORT coordinatorEpoch: 0",
            "baseOffset: 2 lastOffset: 2 baseSequence: 0 producerId: 0 producerEpoch: 2 isTransactional: true isControl: false",
            "baseOffset: 3 lastOffset: 3 baseSequence: -1 producerId: 0 producerEpoch: 3 isTransactional: true isControl: true",
            " offset: 3 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: COMMIT coordinatorEpoch: 0",
            "Empty(0) → Ongoing(0) → PrepareAbort(1) → CompleteAbort(1) → Empty(2) → Ongoing(2) → PrepareCommit(3) → CompleteCommit(3)",
        ],
    );
}

#[test]
fn golden_consume_transform_produce() {
    golden("consume-transform-produce");
}

/// Offsets sent to a transaction are invisible until it commits and vanish when it aborts.
#[test]
fn consume_transform_produce_commits_position_with_output() {
    assert_contains_in_order(
        &transcript("consume-transform-produce"),
        &[
            "group ctp in-0: UNSTABLE_OFFSET_COMMIT (a transaction with new offsets is still open)",
            "commit succeeded",
            "group ctp in-0: committed offset 3",
            "group ctp in-0: committed offset 3",
            "reader2 got 3 records: o4@3 o5@4 o6@5 (position 6)",
            "downstream got 3 records: O1@0 O2@1 O3@2 (position 8)",
        ],
    );
}

#[test]
fn every_lesson_parses_and_runs() {
    for lesson in scenario::lessons() {
        let t =
            scenario::transcript(lesson.source).unwrap_or_else(|e| panic!("{}: {e}", lesson.name));
        assert!(!t.is_empty(), "{} printed nothing", lesson.name);
    }
}

/// Every Next of the lesson player changes something the learner can see: it prints a
/// line or raises an event (shown in the event list and the panels).
#[test]
fn every_player_step_shows_something() {
    for lesson in scenario::lessons() {
        let mut replay = scenario::Replay::new(scenario::parse(lesson.source).expect("parses"));
        while !replay.is_done() {
            let at = replay.player_at() + 1;
            let out = replay.play_player_step().expect("lesson runs");
            assert!(
                !out.lines.is_empty() || !out.events.is_empty(),
                "{} step {at} shows nothing",
                lesson.name
            );
        }
    }
}

/// The player's step count of each lesson, pinned: the UI and embedding pages count
/// these Next clicks (`eos:ready` steps, "Step N of M").
#[test]
fn player_step_counts_are_pinned() {
    let got: Vec<String> = scenario::lessons()
        .iter()
        .map(|l| {
            let replay = scenario::Replay::new(scenario::parse(l.source).expect("parses"));
            format!("{} {}", l.name, replay.player_len())
        })
        .collect();
    let want = [
        "idempotence 11",
        "dedup-window 15",
        "transactions 12",
        "fencing 8",
        "consume-transform-produce 7",
        "hanging-transaction 13",
        "late-endtxn 9",
        "replication 8",
        "failover 10",
        "coordinator-failover 8",
        "acks-1-loss 8",
        "break-it 5",
    ];
    assert_eq!(got, want);
}

/// Every question a lesson asks agrees with the engine: the output of the step that
/// follows it shows each `?=` text and no `?!` text (`scenario::question`).
#[test]
fn every_question_agrees_with_the_engine() {
    for lesson in scenario::all_lessons() {
        let parsed = scenario::parse(lesson.source).expect("parses");
        if let Err(wrong) = scenario::question::check(&parsed) {
            let lines: Vec<String> = wrong
                .iter()
                .map(|d| format!("{}.eos line {}: {}", lesson.name, d.line, d.why))
                .collect();
            panic!("{}", lines.join("\n"));
        }
    }
}

/// Every Kafka and Pulsar lesson asks at least three questions, and ends with a check
/// of understanding: questions before its last player step.
#[test]
fn every_lesson_asks_questions() {
    for lesson in scenario::all_lessons() {
        let parsed = scenario::parse(lesson.source).expect("parses");
        let count = scenario::question::questions(&parsed).count();
        assert!(count >= 3, "{} asks {count} questions", lesson.name);
        let replay = scenario::Replay::new(parsed.clone());
        let last = replay.player_steps().last().cloned().expect("steps");
        assert!(
            parsed.steps[last].iter().any(|s| !s.questions.is_empty()),
            "{} does not end with a check of understanding",
            lesson.name
        );
    }
}

/// A lesson's minutes in the course fit its length: about 20 seconds a player step, half
/// a minute a question, and its English text read at 150 words a minute, within a
/// factor of 1.5.
#[test]
fn course_minutes_fit_the_lessons() {
    for c in scenario::course::course_lessons() {
        let lesson = scenario::lesson(c.name).expect("a lesson");
        let parsed = scenario::parse(lesson.source).expect("parses");
        let words: usize = parsed
            .steps
            .iter()
            .flat_map(|s| s.narration.iter().chain(s.title.iter()))
            .map(|t| t.split_whitespace().count())
            .sum();
        let questions = scenario::question::questions(&parsed).count();
        let steps = scenario::Replay::new(parsed).player_len();
        let estimate =
            (words as f64 / 150.0 + steps as f64 / 3.0 + questions as f64 / 2.0).max(1.0);
        let m = f64::from(c.minutes);
        assert!(
            m >= estimate / 1.5 && m <= estimate * 1.5,
            "{}: {} min in the course, about {estimate:.1} from its {words} words and {steps} steps",
            c.name,
            c.minutes
        );
    }
}

/// docs/embedding.md lists every lesson, in course order.
#[test]
fn the_embedding_guide_lists_every_lesson_in_course_order() {
    let doc = include_str!("../docs/embedding.md");
    let table = &doc[doc.find("## The lessons").expect("a lessons section")..];
    let listed: Vec<&str> = table
        .lines()
        .filter_map(|l| l.split('`').nth(1).filter(|_| l.starts_with('|')))
        .collect();
    let course: Vec<&str> = scenario::course::course_lessons().map(|l| l.name).collect();
    assert_eq!(listed, course);
}

/// Lessons speak to the learner: no "seed" (the project's source documents), not even in
/// a comment, since a learner can open the lesson file.
#[test]
fn no_lesson_speaks_of_the_seed() {
    for lesson in scenario::lessons() {
        for (i, line) in lesson.source.lines().enumerate() {
            assert!(
                !line.to_lowercase().contains("seed"),
                "{} line {}: {line}",
                lesson.name,
                i + 1
            );
        }
    }
}

/// The fingerprint of each lesson's final world, pinned. (idempotence, transactions and
/// fencing changed when their topics lost the `u12-` prefix and idempotence gained a
/// real lost ack; the transactional ids hash to the same `__transaction_state`
/// partitions as before, 23 and 26; the lessons with a restart changed when the
/// `Recovered` event's report gained `deleted_segments`; the replicated ones when ISR
/// changes became AlterPartition requests to the controller; the lessons with an
/// election when the `LeaderElected` event gained the ELR, KIP-966; hanging-transaction
/// and late-endtxn when each gained a second, transaction.version 2 world, which is the
/// final one; the lessons with a crash when the controller began to fence a crashed
/// broker only after broker.session.timeout.ms, and again when the event that says its
/// heartbeats stopped gained the last heartbeat and the fence time; fencing when a failed
/// transactional call's outcome gained the exception class the application catches; and
/// the lessons that talk to the controller when a controller node gained its id, which
/// the events' data carries: `Controller(0)`.) It digests the structured events
/// and the disk bytes, never narration: rewording or translating a sentence in the catalog
/// must leave these values alone. They change only when the engine's behaviour or bytes do
/// (then update them here, with the reason in the commit).
#[test]
fn lesson_fingerprints_are_pinned() {
    let mut got = Vec::new();
    for lesson in scenario::lessons() {
        let parsed = scenario::parse::parse(lesson.source).expect("lesson parses");
        let mut replay = scenario::Replay::new(parsed);
        replay.play_to(usize::MAX).expect("lesson runs");
        got.push(format!(
            "{} {:016x}",
            lesson.name,
            replay.world().fingerprint()
        ));
    }
    let want = [
        "idempotence d2687b8c18dac687",
        "dedup-window 73286ebaf15afc28",
        "transactions 6b324f803c4ee195",
        "fencing 5030c59d2328827a",
        "consume-transform-produce 69ecad20f9875247",
        "hanging-transaction 279148c02f46d316",
        "late-endtxn ebaefd77e7967f69",
        "replication 6d8a2722f12f1c26",
        "failover 49b082ab6bc1fb99",
        "coordinator-failover 232ed674ded34a0d",
        "acks-1-loss aa8d3b16bd6f3bb4",
        "break-it 58106cc092cc7318",
    ];
    assert_eq!(got, want, "fingerprints (printed in full above)");
}

#[cfg(feature = "pulsar")]
mod pulsar {
    use super::*;

    #[test]
    fn golden_pulsar_transactions() {
        golden("pulsar-transactions");
    }

    #[test]
    fn golden_pulsar_abort_and_conflict() {
        golden("pulsar-abort-and-conflict");
    }

    #[test]
    fn golden_pulsar_tc_crash() {
        golden("pulsar-tc-crash");
    }

    #[test]
    fn golden_kafka_vs_pulsar() {
        golden("kafka-vs-pulsar");
    }

    /// Every numbered step of the documented data flow appears on the timeline, in the
    /// documented order of first appearance.
    #[test]
    fn pulsar_transactions_labels_every_step_of_the_data_flow() {
        const STEPS: &[&str] = &[
            "1.1", "1.2", "1.3", "1.4", "2.1.1", "2.1.2", "2.1.3", "2.1.4", "2.2.1", "2.2.2",
            "3.1.1", "3.1.2", "3.1.3", "3.1.4", "3.2", "3.3", "4.1.1", "4.1.2", "4.1.3", "4.2.1",
            "4.2.2", "4.2.3", "4.3.1", "4.3.2", "4.3.3",
        ];
        let lines = transcript("pulsar-transactions");
        let first = |step: &str| {
            let tag = format!("[{step}]");
            lines
                .iter()
                .position(|l| l.starts_with(&tag))
                .unwrap_or_else(|| panic!("step {step} is not on the timeline"))
        };
        let order: Vec<usize> = STEPS.iter().map(|s| first(s)).collect();
        assert!(
            order.windows(2).all(|w| w[0] <= w[1]),
            "steps appear out of order: {order:?}"
        );
    }
}

/// `eos lesson NAME --lang L --verbose`: titles, narration and narrated events in L,
/// kept in `tests/golden/{name}.{lang}.txt` (UPDATE_GOLDEN=1 rewrites it).
fn golden_lang(name: &str, lang: &str) {
    let args: Vec<String> = ["lesson", name, "--lang", lang, "--verbose"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let got = eos_playground::cli::run(&args).expect("lesson runs");
    // The steps and what they print line up with English, and a line in L carries the
    // same numbers as the English one: the lesson's own words (echo lines, labels) and
    // the transcript's words around the values are translated, the values never.
    let english: Vec<String> = args.iter().map(|a| a.replace(lang, "en")).collect();
    let en = eos_playground::cli::run(&english).expect("lesson runs");
    let printed = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("## ") && !l.starts_with("   "))
            .map(String::from)
            .collect()
    };
    let numbers = |l: &str| -> Vec<String> {
        let mut n: Vec<String> = l
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        n.sort();
        n
    };
    let (got_lines, en_lines) = (printed(&got), printed(&en));
    assert_eq!(
        got_lines.len(),
        en_lines.len(),
        "{name} --lang {lang}: printed lines differ"
    );
    for (g, e) in got_lines.iter().zip(&en_lines) {
        if e.starts_with("$ ") {
            assert_eq!(g, e, "{name} --lang {lang}: steps differ");
        }
        assert_eq!(numbers(g), numbers(e), "{name} --lang {lang}:\n{g}\n{e}");
    }
    assert_ne!(got, en, "{name} --lang {lang} is not translated");
    let path = format!(
        "{}/tests/golden/{name}.{lang}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(got, want, "{name} --lang {lang} differs from {path}");
}

#[test]
fn golden_idempotence_in_korean_and_thai() {
    golden_lang("idempotence", "ko");
    golden_lang("idempotence", "th");
}

#[test]
fn golden_transactions_in_korean_and_thai() {
    golden_lang("transactions", "ko");
    golden_lang("transactions", "th");
}

#[test]
fn golden_dedup_window_in_korean_and_thai() {
    golden_lang("dedup-window", "ko");
    golden_lang("dedup-window", "th");
}

#[test]
fn golden_fencing_in_korean_and_thai() {
    golden_lang("fencing", "ko");
    golden_lang("fencing", "th");
}

#[test]
fn golden_hanging_transaction_in_korean_and_thai() {
    golden_lang("hanging-transaction", "ko");
    golden_lang("hanging-transaction", "th");
}

#[test]
fn golden_failover_in_korean_and_thai() {
    golden_lang("failover", "ko");
    golden_lang("failover", "th");
}

/// Every line a lesson prints itself (`echo`, `label=`) has its Korean and Thai text.
#[test]
fn every_lesson_line_is_translated() {
    for lesson in scenario::all_lessons() {
        let parsed = scenario::parse(lesson.source).expect("lesson parses");
        for step in &parsed.steps {
            for lang in [Lang::Ko, Lang::Th] {
                let missing: Vec<&str> = step
                    .missing_in(lang)
                    .into_iter()
                    .filter(|m| matches!(*m, "echo" | "label"))
                    .collect();
                assert!(
                    missing.is_empty(),
                    "{} line {}: no {lang:?} for {missing:?}",
                    lesson.name,
                    step.line
                );
            }
        }
    }
}

/// A lesson knows its own file by length and hash: a share link of an unchanged lesson
/// shows its title, and the main page (which fetches the files) refuses a stale one.
#[test]
fn lessons_know_their_own_file() {
    for l in scenario::lessons() {
        assert!(l.is_source(l.source), "{}", l.name);
        let edited = l.source.replacen('a', "b", 1);
        assert!(!l.is_source(&edited), "{}", l.name);
        assert!(l.install(edited).is_err(), "{}", l.name);
        assert!(l.install(format!("{} ", l.source)).is_err(), "{}", l.name);
        assert_eq!(l.install(l.source.to_string()), Ok(l.source), "{}", l.name);
    }
}

/// The lessons without a test of their own above, in Korean and Thai.
#[test]
fn golden_every_other_lesson_in_korean_and_thai() {
    const OWN_TEST: &[&str] = &[
        "idempotence",
        "transactions",
        "dedup-window",
        "fencing",
        "hanging-transaction",
        "failover",
    ];
    for lesson in scenario::all_lessons() {
        if OWN_TEST.contains(&lesson.name) {
            continue;
        }
        golden_lang(lesson.name, "ko");
        golden_lang(lesson.name, "th");
    }
}

/// Words that mark a line as English prose: function words, and the engine's own
/// words around values that once reached Korean and Thai transcripts. Kafka's terms
/// that Thai keeps in Latin script (transaction, partition, record, offset …) and
/// identifiers are not in it.
const ENGLISH_PROSE: &[&str] = &[
    "the",
    "an",
    "of",
    "to",
    "is",
    "are",
    "was",
    "were",
    "with",
    "from",
    "and",
    "or",
    "by",
    "for",
    "on",
    "at",
    "has",
    "have",
    "its",
    "it",
    "this",
    "that",
    "there",
    "be",
    "been",
    "will",
    "can",
    "into",
    "than",
    "then",
    "when",
    "which",
    "what",
    "after",
    "before",
    "while",
    "only",
    "every",
    "each",
    "still",
    "not",
    "no",
    "got",
    "nothing",
    "took",
    "sent",
    "shrank",
    "holds",
    "retrying",
    "running",
    "ready",
    "deleted",
    "received",
    "committed",
    "aborted",
    "ongoing",
    "released",
    "none",
    "records",
    "batches",
    "offsets",
    "segments",
    "snapshots",
    "such",
    "named",
    "known",
];

/// Kafka's own output inside a line (tool output, client log lines, exception
/// messages), which every language keeps as Kafka prints it.
const KAFKA_OUTPUT: &[&str] = &[
    "Failed to describe transactional id",
    "Failed to describe producers for partition",
    "Failed to abort transaction",
    "Disconnected from node",
    "Duration(min)",
];

/// The English prose words in `line`, outside backticks, identifiers (`read_committed`,
/// `in-0`, `a@0`, `acks=all`, `Ongoing`) and Kafka's own output.
fn english_prose(line: &str) -> Vec<String> {
    let mut text = line.to_string();
    for kafka in KAFKA_OUTPUT {
        text = text.replace(kafka, " ");
    }
    let mut plain = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            plain.push_str(part);
            plain.push(' ');
        }
    }
    plain
        .split(|c: char| c.is_whitespace() || ",;:()[]{}!?\"'<>|·—…".contains(c))
        // Kafka's state names (Ongoing, COMMITTED) are capitalised; prose is not.
        .filter(|w| ENGLISH_PROSE.contains(w))
        .map(String::from)
        .collect()
}

#[test]
fn english_prose_is_found_and_identifiers_are_not() {
    assert_eq!(english_prose("reader got nothing"), ["got", "nothing"]);
    assert_eq!(
        english_prose("the window shrank from 5 batches to 1"),
        ["the", "shrank", "from", "batches", "to"]
    );
    assert!(english_prose("latest offset read_committed=2 (LSO) · `the` in-0 a@0").is_empty());
    assert!(english_prose(
        "Failed to describe transactional id tx-1: COORDINATOR_LOAD_IN_PROGRESS"
    )
    .is_empty());
    assert!(english_prose("producer 0(에포크 0)의 윈도 [0..2]").is_empty());
}

/// Every line of every lesson's Korean and Thai transcript, verbose or not, reads in
/// that language: no line carries English prose (the script's own `$` lines aside).
#[test]
fn korean_and_thai_transcripts_have_no_english_prose() {
    let mut found = Vec::new();
    for lesson in scenario::all_lessons() {
        for lang in ["ko", "th"] {
            for verbose in [false, true] {
                let mut args = vec!["lesson", lesson.name, "--lang", lang];
                if verbose {
                    args.push("--verbose");
                }
                let args: Vec<String> = args.into_iter().map(String::from).collect();
                let out = eos_playground::cli::run(&args).expect("lesson runs");
                for line in out.lines().filter(|l| !l.starts_with("$ ")) {
                    let words = english_prose(line);
                    if !words.is_empty() {
                        found.push(format!("{} {lang}: {words:?} in {line}", lesson.name));
                    }
                }
            }
        }
    }
    found.dedup();
    assert!(
        found.is_empty(),
        "{} lines with English prose:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The particles a Korean line puts right after a number, a Latin word or a closing
/// mark, each paired with its two-way form: where one does not agree with how the word
/// before it is read (`브로커 1를`, `snapshot를`), or a two-way form is left (`와(과)`).
/// The reading is the catalog's own (`resolve_particles`), so hand-written lesson text
/// and filled templates are held to the same rule.
fn particle_errors(line: &str) -> Vec<String> {
    use eos_playground::i18n::catalog::resolve_particles;
    const PAIRS: [(&str, &str); 10] = [
        ("으로", "(으)로"),
        ("로", "(으)로"),
        ("을", "을(를)"),
        ("를", "을(를)"),
        ("이", "이(가)"),
        ("가", "이(가)"),
        ("은", "은(는)"),
        ("는", "은(는)"),
        ("과", "과(와)"),
        ("와", "과(와)"),
    ];
    const TWO_WAY: [&str; 8] = [
        "(를)", "(을)", "(가)", "(이)", "(는)", "(은)", "(와)", "(과)",
    ];
    let hangul = |c: char| ('가'..='힣').contains(&c);
    let mut found: Vec<String> = TWO_WAY
        .iter()
        .chain(&["(으)로"])
        .filter(|f| line.contains(*f))
        .map(|f| format!("two-way form {f}"))
        .collect();
    for (at, c) in line.char_indices() {
        let Some(prev) = line[..at].chars().next_back() else {
            continue;
        };
        if !hangul(c) || !(prev.is_ascii_alphanumeric() || ")]`'\"".contains(prev)) {
            continue;
        }
        let rest = &line[at..];
        let Some((particle, pair)) = PAIRS.iter().find(|(p, _)| rest.starts_with(p)) else {
            continue;
        };
        // Only a particle that ends the word: `로그`, `이고`, `가장` are other words.
        if rest[particle.len()..].chars().next().is_some_and(hangul) {
            continue;
        }
        let said = resolve_particles(&format!("{}{pair}", &line[..at]));
        if !said.ends_with(particle) {
            let start = line[..at]
                .char_indices()
                .rev()
                .nth(12)
                .map_or(0, |(i, _)| i);
            found.push(format!("…{}{particle}", &line[start..at]));
        }
    }
    found
}

#[test]
fn a_particle_that_disagrees_is_found() {
    assert_eq!(
        particle_errors("리더인 브로커 1를 멈춥니다"),
        ["…리더인 브로커 1를"]
    );
    assert_eq!(particle_errors("snapshot를 씁니다").len(), 1);
    assert_eq!(particle_errors("p와(과) 브로커 1 사이").len(), 1);
    assert!(particle_errors("브로커 1을, snapshot을, 에포크 2가, u12-fence-0으로").is_empty());
    assert!(particle_errors("마지막 안정 오프셋(LSO)은 로그 끝 2:0이고").is_empty());
}

/// Every Korean transcript, verbose or not, attaches its particles by the reading of
/// the word before them and never shows a two-way form.
#[test]
fn korean_transcripts_have_no_particle_error() {
    let mut found = Vec::new();
    for lesson in scenario::all_lessons() {
        for verbose in [false, true] {
            let mut args = vec!["lesson", lesson.name, "--lang", "ko"];
            if verbose {
                args.push("--verbose");
            }
            let args: Vec<String> = args.into_iter().map(String::from).collect();
            let out = eos_playground::cli::run(&args).expect("lesson runs");
            for line in out.lines().filter(|l| !l.starts_with("$ ")) {
                for e in particle_errors(line) {
                    found.push(format!("{}: {e}", lesson.name));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "{} particle errors:\n{}",
        found.len(),
        found.join("\n")
    );
}
