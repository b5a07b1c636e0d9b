#![cfg(all(not(target_arch = "wasm32"), feature = "pulsar"))]
//! The comparison page's view model (natively): one story played on both engines, the
//! two sides after each player step, and the differences table filling in.

use eos_playground::i18n::narration::compare_words as words;
use eos_playground::i18n::Lang;
use eos_playground::scenario::{self, Replay};
use eos_playground::view::compare::{compare, CompareView, KafkaFact, PulsarFact, Row, ROWS};
use eos_playground::view::partition::BatchKind;
use eos_playground::view::pulsar::{EntryKind, TxnOutcome};

fn story() -> scenario::Scenario {
    let l = scenario::lesson("kafka-vs-pulsar").expect("lesson");
    scenario::parse(l.source).expect("parses")
}

fn at(n: usize) -> CompareView {
    compare(story(), n)
}

/// The player step whose title starts with `title` (1-based: the view after it).
fn step_titled(title: &str) -> usize {
    let replay = Replay::new(story());
    replay
        .player_steps()
        .iter()
        .position(|r| {
            replay.scenario().steps[r.start]
                .title
                .as_deref()
                .is_some_and(|t| t.starts_with(title))
        })
        .expect("a step with that title")
        + 1
}

#[test]
fn before_the_story_every_row_is_empty_and_pulsar_has_not_started() {
    let v = at(0);
    assert_eq!((v.at, v.error.as_deref()), (0, None));
    assert!(v.len >= 7, "{}", v.len);
    assert_eq!(v.rows.len(), ROWS.len());
    assert!(v
        .rows
        .iter()
        .all(|r| r.kafka.is_none() && r.pulsar.is_none()));
    assert!(v.pulsar.is_none());
    // The setup step starts both worlds but shows no difference yet.
    let v = at(1);
    assert!(v.pulsar.is_some());
    assert!(v
        .rows
        .iter()
        .all(|r| r.kafka.is_none() && r.pulsar.is_none()));
}

#[test]
fn who_filters_aborted_data_is_empty_before_its_steps_and_filled_after() {
    let kafka_abort = step_titled("Act 2 on Kafka");
    let pulsar_abort = step_titled("Act 2 on Pulsar");
    let before = at(kafka_abort - 1);
    let row = before.row(Row::WhoFilters).expect("row");
    assert!(row.kafka.is_none() && row.pulsar.is_none(), "{row:?}");

    let after_kafka = at(kafka_abort);
    let row = after_kafka.row(Row::WhoFilters).expect("row");
    let cell = row.kafka.as_ref().expect("Kafka's consumer dropped it");
    assert_eq!(cell.since_step, kafka_abort);
    // The offsets the consumer dropped are the ones the partition calls aborted.
    let KafkaFact::ConsumerDropped {
        consumer,
        tp,
        first,
        last,
    } = &cell.fact
    else {
        panic!("{:?}", cell.fact)
    };
    assert_eq!(consumer, "down");
    let part = after_kafka
        .kafka
        .partitions
        .iter()
        .find(|p| &p.tp == tp)
        .expect("tp");
    for o in *first..=*last {
        let r = part.records.iter().find(|r| r.offset == o).expect("offset");
        assert_eq!(r.kind, BatchKind::Aborted, "{o}");
    }
    assert!(row.pulsar.is_none(), "Pulsar has not aborted yet");

    let after_pulsar = at(pulsar_abort);
    let row = after_pulsar.row(Row::WhoFilters).expect("row");
    let cell = row
        .pulsar
        .as_ref()
        .expect("Pulsar's dispatcher filtered it");
    assert_eq!(cell.since_step, pulsar_abort);
    let PulsarFact::DispatcherFiltered {
        topic, positions, ..
    } = &cell.fact
    else {
        panic!("{:?}", cell.fact)
    };
    let side = after_pulsar.pulsar.as_ref().expect("pulsar");
    let part = side
        .partitions
        .iter()
        .find(|p| &p.topic == topic)
        .expect("topic");
    for p in positions {
        let e = part
            .entries
            .iter()
            .find(|e| e.position == *p)
            .expect("entry");
        assert!(
            matches!(
                e.kind,
                EntryKind::Message {
                    outcome: TxnOutcome::Aborted,
                    ..
                }
            ),
            "{e:?}"
        );
    }
    // Kafka's cell is kept from its own step.
    assert_eq!(row.kafka.as_ref().map(|c| c.since_step), Some(kafka_abort));
}

#[test]
fn an_aborted_transaction_is_aborted_on_both_sides_from_each_engines_state() {
    let v = at(step_titled("Act 2 on Pulsar"));
    // Kafka: `C` in out-0, aborted because out-0's .txnindex lists its producer's
    // aborted transaction, then the ABORT marker.
    let out0 = v
        .kafka
        .partitions
        .iter()
        .find(|p| p.tp == "out-0")
        .expect("out-0");
    let c = out0.records.iter().find(|r| r.value == "C").expect("C");
    assert_eq!(c.kind, BatchKind::Aborted);
    assert!(out0
        .records
        .iter()
        .any(|r| r.offset > c.offset && r.kind == BatchKind::AbortMarker));
    assert_eq!(out0.last_stable_offset, out0.high_watermark, "nothing open");
    // Pulsar: `C` in output-partition-0, aborted because its transaction buffer lists
    // the TxnID as aborted.
    let side = v.pulsar.as_ref().expect("pulsar");
    let p0 = side
        .partitions
        .iter()
        .find(|p| p.topic == "output-partition-0")
        .expect("output-partition-0");
    let (txn, outcome) = p0
        .entries
        .iter()
        .find_map(|e| match &e.kind {
            EntryKind::Message {
                value,
                txn,
                outcome,
                ..
            } if value == "C" => Some((txn.expect("in a transaction"), *outcome)),
            _ => None,
        })
        .expect("C");
    assert_eq!(outcome, TxnOutcome::Aborted);
    assert!(p0.aborted.iter().any(|(t, _)| *t == txn));
    assert!(p0.ongoing.is_empty());
    // The table's row says the same, from both engines.
    let row = v.row(Row::AbortedData).expect("row");
    assert!(matches!(
        row.kafka.as_ref().map(|c| &c.fact),
        Some(KafkaFact::AbortedInLog { tp, first, .. }) if tp == "out-0" && *first == c.offset
    ));
    assert!(matches!(
        row.pulsar.as_ref().map(|c| &c.fact),
        Some(PulsarFact::AbortedInBuffer { topic, txn: t, .. })
            if topic == "output-partition-0" && *t == txn
    ));
}

#[test]
fn a_state_passed_through_inside_a_step_fills_its_row() {
    // Act 1 on Kafka opens and commits in one player step: at its end LSO = HW, but
    // the open transaction held the LSO back on the way.
    let n = step_titled("Act 1 on Kafka");
    let v = at(n);
    assert!(v
        .kafka
        .partitions
        .iter()
        .all(|p| p.last_stable_offset == p.high_watermark));
    let row = v.row(Row::ReadLimit).expect("row");
    let Some(KafkaFact::LsoBelowHw { lso, hw, .. }) = row.kafka.as_ref().map(|c| &c.fact) else {
        panic!("{row:?}")
    };
    assert!(lso < hw);
    assert!(row.pulsar.is_none());
    let zombie = v.row(Row::Zombie).expect("row");
    assert!(matches!(
        zombie.kafka.as_ref().map(|c| &c.fact),
        Some(KafkaFact::EpochBumped { epoch, last_epoch, .. }) if epoch > last_epoch
    ));
    // Pulsar's side of the read limit fills only with its own act.
    let v = at(n + 1);
    let row = v.row(Row::ReadLimit).expect("row");
    assert!(matches!(
        row.pulsar.as_ref().map(|c| &c.fact),
        Some(PulsarFact::MaxRead { max_read, first, .. }) if max_read < first
    ));
}

#[test]
fn the_coordinator_crash_row_fills_from_each_engines_recovery() {
    let kafka = step_titled("Act 3 on Kafka");
    let pulsar = step_titled("Act 3 on Pulsar");
    let row = |n: usize| at(n).row(Row::CoordinatorCrash).cloned().expect("row");
    let before = row(kafka - 1);
    assert!(before.kafka.is_none() && before.pulsar.is_none());
    let k = row(kafka);
    assert!(matches!(
        k.kafka.map(|c| c.fact),
        Some(KafkaFact::Reloaded { pending: 1, .. })
    ));
    assert!(k.pulsar.is_none());
    let p = row(pulsar);
    let Some(PulsarFact::Recovered { txns, records, .. }) = p.pulsar.map(|c| c.fact) else {
        panic!("no recovery")
    };
    assert!(records > 0);
    assert_eq!(txns.len(), 1);
    assert_eq!(txns[0].1.name(), "COMMITTING");
}

#[test]
fn another_story_gives_its_own_cells() {
    // Not the lesson: other names and a Kafka abort only. Nothing in the model knows
    // the lesson's topics or values.
    let src = "topic create orders partitions=1\n\
               producer p create transactional.id=tx\n\
               producer p init-transactions\n\
               ## Abort\n\
               producer p begin\n\
               producer p send orders-0 x y\n\
               producer p flush\n\
               producer p abort\n\
               consumer c create isolation.level=read_committed auto.offset.reset=earliest\n\
               consumer c assign orders-0\n\
               consumer c poll\n";
    let v = compare(scenario::parse(src).expect("parses"), 99);
    assert_eq!(v.error, None);
    assert!(v.pulsar.is_none());
    let row = v.row(Row::AbortedData).expect("row");
    assert!(matches!(
        row.kafka.as_ref().map(|c| &c.fact),
        Some(KafkaFact::AbortedInLog { tp, first: 0, last: 1, .. }) if tp == "orders-0"
    ));
    assert!(row.pulsar.is_none());
    assert!(matches!(
        v.row(Row::WhoFilters).and_then(|r| r.kafka.as_ref()).map(|c| &c.fact),
        Some(KafkaFact::ConsumerDropped { consumer, .. }) if consumer == "c"
    ));
    assert!(v
        .row(Row::CoordinatorCrash)
        .is_some_and(|r| r.kafka.is_none()));
    assert_eq!(v.kafka.txns[0].transactional_id, "tx");
    assert_eq!(v.kafka.txns[0].state, "CompleteAbort");
}

/// A coordinator that takes its time to load: the crash row's Pulsar cell says how
/// often the client retried on TransactionCoordinatorNotFound meanwhile.
#[test]
fn the_crash_row_counts_the_retries_of_a_slow_load() {
    let src = "pulsar topic create t\npulsar txn new t1\npulsar send p t-partition-0 txn=t1 x\n\
               ## Crash\npulsar tc 0 crash\npulsar tc 0 recover replay.ms=250\npulsar txn commit t1\n";
    let v = compare(scenario::parse(src).expect("parses"), 99);
    assert_eq!(v.error, None);
    let cell = v.row(Row::CoordinatorCrash).and_then(|r| r.pulsar.clone());
    assert!(
        matches!(
            cell.as_ref().map(|c| &c.fact),
            Some(PulsarFact::Recovered { retries: 2, .. })
        ),
        "{cell:?}"
    );
    let fast = src.replace(" replay.ms=250", "");
    let v = compare(scenario::parse(&fast).expect("parses"), 99);
    let cell = v.row(Row::CoordinatorCrash).and_then(|r| r.pulsar.clone());
    assert!(matches!(
        cell.map(|c| c.fact),
        Some(PulsarFact::Recovered { retries: 0, .. })
    ));
}

#[test]
fn a_refused_step_stops_the_story_and_says_why() {
    let src = "topic create t\n## Two\nproducer nobody flush\nproducer p create\n";
    let v = compare(scenario::parse(src).expect("parses"), 99);
    assert!(
        v.error.as_deref().is_some_and(|e| e.starts_with("line 3")),
        "{:?}",
        v.error
    );
    assert_eq!(v.at, 1);
}

#[test]
fn stepping_back_is_the_same_view_as_playing_to_there() {
    let len = at(0).len;
    assert_eq!(at(len + 5).at, len, "past the end stays at the end");
    for n in 0..=len {
        assert_eq!(at(n), at(n), "{n}");
    }
    assert_ne!(at(3), at(4));
}

#[test]
fn every_cell_is_worded_in_every_language() {
    let v = at(usize::MAX);
    for row in &v.rows {
        let k = row
            .kafka
            .as_ref()
            .expect("the story fills every Kafka cell");
        let p = row
            .pulsar
            .as_ref()
            .expect("the story fills every Pulsar cell");
        for lang in [Lang::En, Lang::Ko, Lang::Th] {
            for text in [
                words::question(row.row, lang),
                words::kafka(&k.fact, lang),
                words::pulsar(&p.fact, lang),
                words::since(k.since_step, lang),
            ] {
                assert!(!text.is_empty() && !text.contains('{'), "{lang:?}: {text}");
            }
        }
    }
    let filtered = v
        .row(Row::WhoFilters)
        .and_then(|r| r.pulsar.as_ref())
        .expect("cell");
    let en = words::pulsar(&filtered.fact, Lang::En);
    assert!(
        en.contains("output-partition-0/downstream") && en.contains("3:2"),
        "{en}"
    );
}

/// "Since step N" is true: a cell's fact is the one the engine showed at that step, on
/// every step after it up to now.
#[test]
fn a_cell_shows_the_step_its_fact_was_first_shown_at() {
    let len = at(0).len;
    let views: Vec<CompareView> = (0..=len).map(at).collect();
    for now in &views {
        for (i, row) in now.rows.iter().enumerate() {
            if let Some(c) = &row.kafka {
                for then in &views[c.since_step..=now.at] {
                    assert_eq!(
                        then.rows[i].kafka.as_ref().map(|x| &x.fact),
                        Some(&c.fact),
                        "{:?} at {}",
                        row.row,
                        then.at
                    );
                }
            }
            if let Some(c) = &row.pulsar {
                for then in &views[c.since_step..=now.at] {
                    assert_eq!(
                        then.rows[i].pulsar.as_ref().map(|x| &x.fact),
                        Some(&c.fact),
                        "{:?} at {}",
                        row.row,
                        then.at
                    );
                }
            }
        }
    }
}
