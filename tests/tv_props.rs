#![cfg(not(target_arch = "wasm32"))]
//! transaction.version 2 under delayed messages: Produce and EndTxn requests held in the
//! network and released at random, transactions committed and aborted at random. With
//! TV2 no late request can open a transaction after its marker (the epoch was bumped),
//! so nothing is left hanging and read_committed never returns an aborted record.

use std::collections::BTreeSet;

use eos_playground::client::transaction_manager::TxnOutcome;
use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, World};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    /// Begin (if needed) and send one value.
    Send,
    Step,
    Hold(&'static str),
    Release(&'static str),
    Abort,
    Commit,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => Just(Op::Send),
        3 => Just(Op::Step),
        1 => prop_oneof![Just("Produce"), Just("EndTxn")].prop_map(Op::Hold),
        1 => prop_oneof![Just("Produce"), Just("EndTxn")].prop_map(Op::Release),
        2 => Just(Op::Abort),
        1 => Just(Op::Commit),
    ]
}

fn act(w: &mut World, a: Action) {
    // A refused call (e.g. commit in an error state) is the application's problem,
    // not the property's.
    let _ = w.apply(&a);
}

fn outcome(w: &World) -> Option<TxnOutcome> {
    w.producers()
        .get("p")
        .and_then(|p| p.last_txn_outcome().cloned())
}

proptest! {
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn tv2_leaves_nothing_hanging_and_hides_aborted_records(ops in proptest::collection::vec(op(), 1..30)) {
        let mut w = World::new(ClusterConfig::default());
        let tp = TopicPartition::new("t", 0);
        act(&mut w, Action::CreateTopic { name: "t".into(), partitions: 1, configs: vec![] });
        act(&mut w, Action::CreateProducer {
            name: "p".into(),
            configs: vec![("transactional.id".into(), "tx".into())],
        });
        act(&mut w, Action::InitTransactions { producer: "p".into() });
        let p = || "p".to_string();
        let mut next = 0u32;
        let mut in_txn = false;
        let mut current: Vec<String> = Vec::new();
        let mut aborted: BTreeSet<String> = BTreeSet::new();
        let mut held: BTreeSet<&'static str> = BTreeSet::new();
        for op in ops {
            match op {
                Op::Send => {
                    if !in_txn {
                        act(&mut w, Action::BeginTransaction { producer: p() });
                        in_txn = true;
                        current.clear();
                    }
                    next += 1;
                    let v = format!("v{next}");
                    current.push(v.clone());
                    act(&mut w, Action::Send { producer: p(), topic_partition: tp.clone(), values: vec![v] });
                }
                Op::Step => act(&mut w, Action::Step),
                Op::Hold(api) => {
                    held.insert(api);
                    act(&mut w, Action::HoldRequests { api: api.into() });
                }
                Op::Release(api) => {
                    held.remove(api);
                    act(&mut w, Action::ReleaseRequests { api: api.into() });
                }
                // A blocking call with EndTxn held would wait for good: release first.
                Op::Abort | Op::Commit if in_txn => {
                    if held.remove("EndTxn") {
                        act(&mut w, Action::ReleaseRequests { api: "EndTxn".into() });
                    }
                    let commit = matches!(op, Op::Commit) && !held.contains("Produce");
                    if commit {
                        act(&mut w, Action::CommitTransaction { producer: p() });
                    } else {
                        act(&mut w, Action::AbortTransaction { producer: p() });
                    }
                    if matches!(outcome(&w), Some(TxnOutcome::Aborted { .. })) {
                        aborted.extend(current.drain(..));
                    }
                    in_txn = false;
                }
                Op::Abort | Op::Commit => {}
            }
        }
        // Everything delayed arrives; an unfinished transaction is aborted by the
        // application, and the coordinator's timeout covers the rest.
        for api in held {
            act(&mut w, Action::ReleaseRequests { api: api.into() });
        }
        if in_txn {
            act(&mut w, Action::AbortTransaction { producer: p() });
            if matches!(outcome(&w), Some(TxnOutcome::Aborted { .. })) {
                aborted.extend(current.drain(..));
            }
        }
        act(&mut w, Action::RunUntilIdle);
        act(&mut w, Action::Advance { ms: 120_000 });

        prop_assert!(w.open_transactions(&tp).is_empty(), "a transaction hangs: {:?}", w.open_transactions(&tp));
        prop_assert!(w.hanging_transactions(std::slice::from_ref(&tp)).is_empty());

        act(&mut w, Action::CreateConsumer {
            name: "rc".into(),
            configs: vec![
                ("isolation.level".into(), "read_committed".into()),
                ("auto.offset.reset".into(), "earliest".into()),
            ],
        });
        act(&mut w, Action::Assign { consumer: "rc".into(), partitions: vec![tp.clone()] });
        act(&mut w, Action::Poll { consumer: "rc".into() });
        let read: Vec<String> = w.consumers()["rc"].records().iter().map(|r| r.value_text()).collect();
        for v in &read {
            prop_assert!(!aborted.contains(v), "read_committed returned {v} from an aborted transaction");
        }
    }
}
