#![cfg(all(not(target_arch = "wasm32"), feature = "pulsar"))]
//! The Pulsar pages' view models, read after the lessons (natively).

use eos_playground::i18n::narration::{pulsar_difference, pulsar_event};
use eos_playground::i18n::Lang;
use eos_playground::pulsar::{PulsarWorld, TxnStatus};
use eos_playground::scenario::{self, Replay};
use eos_playground::view::pulsar::{self, Difference, EntryKind, TxnOutcome, DIFFERENCES};

/// The Pulsar world after the first `upto` steps of a lesson (all: `usize::MAX`).
fn after(lesson: &str, upto: usize) -> PulsarWorld {
    let l = scenario::lesson(lesson).expect("lesson");
    let replay = Replay::to(scenario::parse(l.source).expect("parses"), upto);
    replay.pulsar_world().cloned().expect("a pulsar world")
}

fn step_of(lesson: &str, text: &str) -> usize {
    let l = scenario::lesson(lesson).expect("lesson");
    let s = scenario::parse(l.source).expect("parses");
    s.steps
        .iter()
        .position(|s| s.text == text)
        .expect("step exists")
        + 1
}

#[test]
fn an_open_transaction_sits_past_max_read_position() {
    let w = after(
        "pulsar-transactions",
        step_of(
            "pulsar-transactions",
            "pulsar send app output-partition-0 txn=t1 A B",
        ),
    );
    let out = pulsar::partitions(&w)
        .into_iter()
        .find(|p| p.topic == "output-partition-0")
        .expect("output");
    assert_eq!(out.max_read_position.to_string(), "3:-1");
    assert!(out.entries.iter().all(|e| e.beyond_max_read));
    assert!(out.entries.iter().all(|e| matches!(
        e.kind,
        EntryKind::Message {
            outcome: TxnOutcome::Ongoing,
            ..
        }
    )));
    assert_eq!(out.ongoing.len(), 1);
    let tc = &pulsar::coordinators(&w)[0];
    assert_eq!(tc.txns[0].status, TxnStatus::Open);
    assert_eq!(tc.txns[0].name.as_deref(), Some("t1"));
    assert_eq!(tc.txns[0].partitions, ["output-partition-0"]);
}

#[test]
fn after_the_commit_everything_is_readable_and_the_log_is_deleted() {
    let w = after("pulsar-transactions", usize::MAX);
    let out = pulsar::partitions(&w)
        .into_iter()
        .find(|p| p.topic == "output-partition-0")
        .expect("output");
    assert!(out.entries.iter().all(|e| !e.beyond_max_read));
    assert!(matches!(
        out.entries.last().map(|e| &e.kind),
        Some(EntryKind::Marker { commit: true, .. })
    ));
    let sub = pulsar::subscriptions(&w)
        .into_iter()
        .find(|s| s.subscription == "app")
        .expect("app");
    assert_eq!(sub.mark_delete_position.to_string(), "2:1");
    assert!(sub.pending_acks.is_empty());
    let tc = &pulsar::coordinators(&w)[0];
    assert!(tc.txns.is_empty());
    assert!(tc.log.iter().all(|r| r.deleted));
    assert_eq!(
        tc.log.iter().map(|r| r.op).collect::<Vec<_>>(),
        [
            "NEW",
            "ADD_PARTITION",
            "ADD_SUBSCRIPTION",
            "UPDATE",
            "UPDATE"
        ]
    );
}

#[test]
fn the_timeline_keeps_the_step_numbers_and_every_event_is_worded() {
    let w = after("pulsar-transactions", usize::MAX);
    let rows = pulsar::timeline(&w, None);
    assert_eq!(rows.len(), w.events().len());
    assert!(rows.iter().any(|r| r.step == Some("4.3.3")));
    assert_eq!(pulsar::timeline(&w, Some(1)).len(), 1);
    for e in w.events() {
        assert!(!pulsar_event(e, Lang::En).is_empty());
    }
}

#[test]
fn the_differences_table_fills_in_as_the_story_runs() {
    let start = after(
        "kafka-vs-pulsar",
        step_of("kafka-vs-pulsar", "pulsar receive app-consumer"),
    );
    assert!(pulsar::revealed_differences(&start).is_empty());
    let first_send = step_of(
        "kafka-vs-pulsar",
        "pulsar send app output-partition-0 txn=t1 A",
    );
    let shown = pulsar::revealed_differences(&after("kafka-vs-pulsar", first_send));
    assert!(shown.contains(&Difference::WhereUncommittedDataLives));
    assert!(!shown.contains(&Difference::WhoFiltersAborted));
    let all = pulsar::revealed_differences(&after("kafka-vs-pulsar", usize::MAX));
    for d in [
        Difference::WhoFiltersAborted,
        Difference::HowConsumedPositionsJoin,
        Difference::WhenTheClientIsAnswered,
        Difference::HowZombiesAreStopped,
    ] {
        assert!(all.contains(&d), "{d:?} not shown");
    }
    for d in DIFFERENCES {
        let (q, k, p) = pulsar_difference(d, Lang::En);
        assert!(!q.is_empty() && !k.is_empty() && !p.is_empty());
    }
}

#[test]
fn an_abort_shows_aborted_entries_and_redeliveries() {
    let lesson = "pulsar-abort-and-conflict";
    let w = after(lesson, step_of(lesson, "pulsar txn abort t1"));
    let out = pulsar::partitions(&w)
        .into_iter()
        .find(|p| p.topic == "output-partition-0")
        .expect("output");
    assert!(matches!(
        out.entries[0].kind,
        EntryKind::Message {
            outcome: TxnOutcome::Aborted,
            ..
        }
    ));
    assert_eq!(out.aborted.len(), 1);
    let sub = pulsar::subscriptions(&w)
        .into_iter()
        .find(|s| s.subscription == "app")
        .expect("app");
    assert_eq!(
        sub.redeliver
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>(),
        ["2:0"]
    );
}
