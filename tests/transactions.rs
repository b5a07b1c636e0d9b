#![cfg(not(target_arch = "wasm32"))]
//! Transactions through the whole world: the properties read_committed readers rely
//! on, and what a script cannot see (the clock while markers are held). The single edge
//! cases (held markers, timeouts, restarts, fencing) are scripts in tests/scenarios/.

mod common;

use eos_playground::coordinator::internal_topics::{partition_for, TRANSACTION_STATE_TOPIC};
use eos_playground::coordinator::transaction::TransactionState;
use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, World};
use proptest::prelude::*;

fn a(w: &mut World, action: Action) {
    w.apply(&action)
        .unwrap_or_else(|e| panic!("{action:?}: {e}"));
}

fn world(brokers: i32, partitions: i32) -> World {
    let mut w = World::new(ClusterConfig {
        brokers,
        ..ClusterConfig::default()
    });
    a(
        &mut w,
        Action::CreateTopic {
            name: "t".into(),
            partitions,
            configs: vec![],
        },
    );
    a(
        &mut w,
        Action::CreateProducer {
            name: "p".into(),
            configs: vec![("transactional.id".into(), "tx".into())],
        },
    );
    a(
        &mut w,
        Action::InitTransactions {
            producer: "p".into(),
        },
    );
    w
}

fn send(w: &mut World, p: i32, values: &[&str]) {
    a(
        w,
        Action::Send {
            producer: "p".into(),
            topic_partition: TopicPartition::new("t", p),
            values: values.iter().map(|v| v.to_string()).collect(),
        },
    );
}

fn coordinator_state(w: &World, id: &str) -> Option<TransactionState> {
    let tp = TopicPartition::new(TRANSACTION_STATE_TOPIC, partition_for(id, 50));
    let broker = w.leader_of(&tp)?;
    w.brokers()[&broker]
        .txn_coordinator()
        .metadata(id)
        .map(|m| m.state())
}

fn read_committed(w: &mut World, name: &str, partitions: Vec<TopicPartition>) -> Vec<String> {
    a(
        w,
        Action::CreateConsumer {
            name: name.into(),
            configs: vec![
                ("isolation.level".into(), "read_committed".into()),
                ("auto.offset.reset".into(), "earliest".into()),
            ],
        },
    );
    a(
        w,
        Action::Assign {
            consumer: name.into(),
            partitions,
        },
    );
    a(
        w,
        Action::Poll {
            consumer: name.into(),
        },
    );
    w.consumers()[name]
        .records()
        .iter()
        .map(|r| r.value_text())
        .collect()
}

#[derive(Clone, Debug)]
struct Txn {
    partitions: Vec<(i32, u8)>,
    commit: bool,
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(32), .. ProptestConfig::default() })]

    /// read_committed returns exactly the committed records; LSO ≤ HW ≤ LEO always.
    #[test]
    fn read_committed_sees_exactly_the_committed(
        txns in proptest::collection::vec(
            (proptest::collection::vec((0i32..2, 1u8..3), 1..4), any::<bool>()).prop_map(|(partitions, commit)| Txn { partitions, commit }),
            1..6),
        brokers in 1i32..3,
    ) {
        let mut w = world(brokers, 2);
        let mut committed = Vec::new();
        let mut n = 0;
        for txn in &txns {
            a(&mut w, Action::BeginTransaction { producer: "p".into() });
            let mut values = Vec::new();
            for (p, count) in &txn.partitions {
                let vs: Vec<String> = (0..*count).map(|_| { n += 1; format!("v{n}") }).collect();
                values.extend(vs.iter().cloned());
                a(&mut w, Action::Send { producer: "p".into(), topic_partition: TopicPartition::new("t", *p), values: vs });
                a(&mut w, Action::Step);
            }
            if txn.commit {
                a(&mut w, Action::CommitTransaction { producer: "p".into() });
                committed.extend(values);
            } else {
                a(&mut w, Action::AbortTransaction { producer: "p".into() });
            }
            for p in 0..2 {
                let v = w.log_view(&TopicPartition::new("t", p)).unwrap();
                prop_assert!(v.last_stable_offset <= v.high_watermark && v.high_watermark <= v.log_end_offset);
            }
        }
        a(&mut w, Action::RunUntilIdle);
        let mut got = read_committed(&mut w, "c", vec![TopicPartition::new("t", 0), TopicPartition::new("t", 1)]);
        got.sort();
        committed.sort();
        prop_assert_eq!(got, committed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(32), .. ProptestConfig::default() })]

    /// Once a second producer with the same transactional.id has initialised, nothing
    /// the first one does gets into the log with its old epoch.
    #[test]
    fn a_fenced_producer_never_gets_a_write_in(ops in proptest::collection::vec(0u8..6, 1..20)) {
        let mut w = world(1, 1);
        let tp = TopicPartition::new("t", 0);
        a(&mut w, Action::BeginTransaction { producer: "p".into() });
        send(&mut w, 0, &["before"]);
        a(&mut w, Action::Flush { producer: "p".into() });
        a(&mut w, Action::CreateProducer { name: "q".into(), configs: vec![("transactional.id".into(), "tx".into())] });
        a(&mut w, Action::InitTransactions { producer: "q".into() });
        let fenced_epoch = w.producers()["p"].producer_epoch();
        let fence_offset = w.log_view(&tp).unwrap().log_end_offset;
        for op in ops {
            // The zombie keeps trying; the scenario may refuse (IllegalState) — fine.
            let _ = match op {
                0 => w.apply(&Action::Send { producer: "p".into(), topic_partition: tp.clone(), values: vec!["zombie".into()] }),
                1 => w.apply(&Action::CommitTransaction { producer: "p".into() }),
                2 => w.apply(&Action::AbortTransaction { producer: "p".into() }),
                3 => w.apply(&Action::BeginTransaction { producer: "p".into() }),
                4 => w.apply(&Action::Step),
                _ => w.apply(&Action::Flush { producer: "p".into() }),
            };
        }
        a(&mut w, Action::RunUntilIdle);
        let view = w.log_view(&tp).unwrap();
        for b in view.batches.iter().filter(|b| b.base_offset >= fence_offset) {
            prop_assert!(b.is_control || b.producer_epoch > fenced_epoch, "a write with the fenced epoch got in: {b:?}");
            prop_assert!(!b.records.iter().any(|(_, v)| v == "zombie"));
        }
    }
}

#[test]
fn running_while_markers_are_held_stops_instead_of_piling_up_retries() {
    let mut w = world(1, 1);
    a(
        &mut w,
        Action::BeginTransaction {
            producer: "p".into(),
        },
    );
    send(&mut w, 0, &["x"]);
    a(&mut w, Action::HoldMarkers);
    a(
        &mut w,
        Action::CommitTransaction {
            producer: "p".into(),
        },
    );
    let before = w.clock_ms();
    a(&mut w, Action::RunUntilIdle);
    assert!(
        w.clock_ms() - before < 1_000,
        "run stops: held markers are not work to do"
    );
    assert_eq!(w.network().held().len(), 1);
    a(&mut w, Action::ReleaseMarkers);
    a(&mut w, Action::RunUntilIdle);
    assert_eq!(
        coordinator_state(&w, "tx"),
        Some(TransactionState::CompleteCommit)
    );
}
