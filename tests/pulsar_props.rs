#![cfg(all(not(target_arch = "wasm32"), feature = "pulsar"))]
//! Properties of the Pulsar engine under random workloads and faults (dropped, held,
//! duplicated commands, coordinator crashes, timeouts, a zero one too, a zombie's send
//! or ack held until its transaction ended, failed operations before a commit):
//! - no message of an aborted transaction is ever dispatched;
//! - no position acknowledged in a committed transaction is dispatched again;
//! - no transaction the coordinator has ended stays ongoing in a partition (so none
//!   holds maxReadPosition);
//! - a transaction with a failed send or ack never commits;
//! - the coordinator's memory is always what replaying its transaction log gives;
//! - a message reaches the dead-letter topic only past `maxRedeliverCount`
//!   redeliveries, and its original is then acknowledged;
//! - a Shared subscription dispatches no message before its `deliverAt`;
//! - the same actions give the same events.
//!
//! Also under ledger write failures (a partition's ledger or a pending-ack log),
//! batched messages acknowledged by batch index, negative acks and delayed sends.

mod common;

use eos_playground::pulsar::{
    ClientTxnState, EntryData, MLTransactionMetadataStore, PulsarAction, PulsarConfig,
    PulsarEventKind, PulsarWorld, TransactionCoordinatorID, TxnStatus,
};
use eos_playground::sim::{Direction, Fault, MessageMatch};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    /// A new transaction; `true`: a zero timeout, below the tracker's tick.
    NewTxn(u8, bool),
    Send {
        txn: Option<u8>,
        out: u8,
    },
    Plain,
    Receive {
        reader: u8,
    },
    Ack {
        txn: Option<u8>,
        pick: u8,
        /// `acknowledgeCumulative`: everything up to the position.
        cumulative: bool,
    },
    End {
        txn: u8,
        commit: bool,
    },
    Crash,
    /// A coordinator load: at once, or taking this many ms while clients retry.
    Recover(u16),
    /// A topic unload and reload, its buffer recovering for this many ms.
    Unload {
        out: u8,
        ms: u16,
    },
    /// The transaction buffer's snapshot.
    Snapshot(u8),
    Run(u16),
    Fault {
        api: u8,
        kind: u8,
    },
    Release(u8),
    /// A send held on the wire, its transaction ended, then the send released.
    ZombieSend {
        txn: u8,
        out: u8,
        commit: bool,
    },
    /// The same for a transactional ack.
    ZombieAck {
        txn: u8,
        pick: u8,
        commit: bool,
    },
    /// A send whose receipt is lost: the operation fails at the client.
    FailedSend {
        txn: u8,
        out: u8,
    },
    /// Two values in one batch entry.
    BatchSend {
        txn: Option<u8>,
        out: u8,
    },
    /// A send with `deliverAfter`.
    DelayedSend {
        txn: Option<u8>,
        out: u8,
        ms: u16,
    },
    /// A ledger starts or stops refusing appends: 0/1 the out partitions, 2 the
    /// pending-ack log of `q`'s subscription, 3 that of `c`'s.
    Ledger {
        which: u8,
        failing: bool,
    },
    /// The Shared consumer `q` (dead-letter policy, max 2): an ack, maybe in a
    /// transaction, or a negative ack.
    QueueAck {
        txn: Option<u8>,
        pick: u8,
        nack: bool,
    },
}

const APIS: &[&str] = &[
    "NewTxn",
    "AddPartitionToTxn",
    "AddSubscriptionToTxn",
    "Send",
    "Ack",
    "EndTxn",
    "EndTxnOnPartition",
    "EndTxnOnSubscription",
];

fn op() -> impl Strategy<Value = Op> {
    let txn = proptest::option::of(0u8..3);
    prop_oneof![
        4 => (0u8..3, proptest::bool::weighted(0.1)).prop_map(|(t, zero)| Op::NewTxn(t, zero)),
        6 => (txn.clone(), 0u8..2).prop_map(|(txn, out)| Op::Send { txn, out }),
        1 => Just(Op::Plain),
        5 => (0u8..4).prop_map(|reader| Op::Receive { reader }),
        4 => (txn, any::<u8>(), proptest::bool::weighted(0.25))
            .prop_map(|(txn, pick, cumulative)| Op::Ack { txn, pick, cumulative }),
        3 => (0u8..3, any::<bool>()).prop_map(|(txn, commit)| Op::End { txn, commit }),
        1 => Just(Op::Crash),
        1 => prop_oneof![Just(0u16), 1u16..2000].prop_map(Op::Recover),
        1 => (0u8..2, prop_oneof![Just(0u16), 1u16..200]).prop_map(|(out, ms)| Op::Unload { out, ms }),
        1 => (0u8..2).prop_map(Op::Snapshot),
        1 => (0u16..6_000).prop_map(Op::Run),
        1 => (0u8..APIS.len() as u8, 0u8..8).prop_map(|(api, kind)| Op::Fault { api, kind }),
        2 => (0u8..APIS.len() as u8).prop_map(Op::Release),
        1 => (0u8..3, 0u8..2, any::<bool>())
            .prop_map(|(txn, out, commit)| Op::ZombieSend { txn, out, commit }),
        1 => (0u8..3, any::<u8>(), any::<bool>())
            .prop_map(|(txn, pick, commit)| Op::ZombieAck { txn, pick, commit }),
        1 => (0u8..3, 0u8..2).prop_map(|(txn, out)| Op::FailedSend { txn, out }),
        2 => (proptest::option::of(0u8..3), 0u8..2).prop_map(|(txn, out)| Op::BatchSend { txn, out }),
        1 => (proptest::option::of(0u8..3), 0u8..2, 0u16..3_000)
            .prop_map(|(txn, out, ms)| Op::DelayedSend { txn, out, ms }),
        1 => (0u8..4, proptest::bool::weighted(0.6)).prop_map(|(which, failing)| Op::Ledger { which, failing }),
        4 => (proptest::option::of(0u8..3), any::<u8>(), any::<bool>())
            .prop_map(|(txn, pick, nack)| Op::QueueAck { txn, pick, nack }),
    ]
}

fn world(ops: &[Op]) -> PulsarWorld {
    let config = PulsarConfig {
        operation_timeout_ms: 2_000,
        transaction_timeout_ms: 15_000,
        ..PulsarConfig::default()
    };
    let mut w = PulsarWorld::new(config);
    let setup = [
        PulsarAction::CreateTopic {
            name: "in".into(),
            partitions: 1,
        },
        PulsarAction::CreateTopic {
            name: "out".into(),
            partitions: 2,
        },
        PulsarAction::Send {
            producer: "src".into(),
            topic: "in-partition-0".into(),
            values: (0..6).map(|i| format!("i{i}")).collect(),
            txn: None,
            sequence_id: None,
            deliver_after_ms: None,
            batch: false,
        },
        PulsarAction::Send {
            producer: "src".into(),
            topic: "in-partition-0".into(),
            values: (0..3).map(|i| format!("b{i}")).collect(),
            txn: None,
            sequence_id: None,
            deliver_after_ms: None,
            batch: true,
        },
        PulsarAction::Subscribe {
            consumer: "q".into(),
            topic: "in-partition-0".into(),
            subscription: "queue".into(),
            sub_type: eos_playground::pulsar::SubscriptionType::Shared,
            max_redeliver_count: Some(2),
        },
        PulsarAction::Subscribe {
            consumer: "c".into(),
            topic: "in-partition-0".into(),
            subscription: "app".into(),
            sub_type: Default::default(),
            max_redeliver_count: None,
        },
        PulsarAction::Subscribe {
            consumer: "r".into(),
            topic: "out-partition-0".into(),
            subscription: "down".into(),
            sub_type: Default::default(),
            max_redeliver_count: None,
        },
        PulsarAction::Subscribe {
            consumer: "r1".into(),
            topic: "out-partition-1".into(),
            subscription: "down".into(),
            sub_type: Default::default(),
            max_redeliver_count: None,
        },
    ];
    for a in &setup {
        w.apply(a).expect("setup");
    }
    let hold = |api: &str| PulsarAction::Arm {
        fault: Fault::Hold {
            matching: MessageMatch {
                api: Some(api.to_string()),
                direction: Some(Direction::Request),
                ..MessageMatch::default()
            },
        },
    };
    let send = |txn: u8, out: u8, i: usize| PulsarAction::Send {
        producer: "app".into(),
        topic: format!("out-partition-{out}"),
        values: vec![format!("v{i}")],
        txn: Some(format!("t{txn}")),
        sequence_id: None,
        deliver_after_ms: None,
        batch: false,
    };
    let end = |txn: u8, commit: bool| PulsarAction::EndTxn {
        name: format!("t{txn}"),
        commit,
    };
    for (i, op) in ops.iter().enumerate() {
        let acked = |w: &PulsarWorld, pick: u8| {
            let got = &w.consumer("c").expect("c").received;
            (!got.is_empty()).then(|| got[pick as usize % got.len()].0)
        };
        let actions = match op {
            Op::ZombieSend { txn, out, commit } => vec![
                hold("Send"),
                send(*txn, *out, i),
                end(*txn, *commit),
                PulsarAction::Release { api: "Send".into() },
            ],
            Op::ZombieAck { txn, pick, commit } => {
                let Some(position) = acked(&w, *pick) else {
                    continue;
                };
                vec![
                    hold("Ack"),
                    PulsarAction::Ack {
                        consumer: "c".into(),
                        positions: vec![position],
                        txn: Some(format!("t{txn}")),
                        cumulative: false,
                    },
                    end(*txn, *commit),
                    PulsarAction::Release { api: "Ack".into() },
                ]
            }
            Op::FailedSend { txn, out } => vec![
                PulsarAction::Arm {
                    fault: Fault::Drop {
                        matching: MessageMatch {
                            api: Some("Send".into()),
                            direction: Some(Direction::Response),
                            ..MessageMatch::default()
                        },
                        every: false,
                    },
                },
                send(*txn, *out, i),
            ],
            _ => Vec::new(),
        };
        for action in &actions {
            // A refused action (an unknown transaction name) changes nothing.
            let _ = w.apply(action);
            check_store_matches_log(&w);
        }
        if !actions.is_empty() {
            continue;
        }
        let action = match op {
            Op::NewTxn(t, zero) => PulsarAction::NewTxn {
                name: format!("t{t}"),
                timeout_ms: zero.then_some(0),
            },
            Op::Send { txn, out } => PulsarAction::Send {
                producer: "app".into(),
                topic: format!("out-partition-{out}"),
                values: vec![format!("v{i}")],
                txn: txn.map(|t| format!("t{t}")),
                sequence_id: None,
                deliver_after_ms: None,
                batch: false,
            },
            Op::BatchSend { txn, out } => PulsarAction::Send {
                producer: "app".into(),
                topic: format!("out-partition-{out}"),
                values: vec![format!("v{i}a"), format!("v{i}b")],
                txn: txn.map(|t| format!("t{t}")),
                sequence_id: None,
                deliver_after_ms: None,
                batch: true,
            },
            Op::DelayedSend { txn, out, ms } => PulsarAction::Send {
                producer: "app".into(),
                topic: format!("out-partition-{out}"),
                values: vec![format!("v{i}")],
                txn: txn.map(|t| format!("t{t}")),
                sequence_id: None,
                deliver_after_ms: Some(i64::from(*ms)),
                batch: false,
            },
            Op::Ledger { which, failing } => PulsarAction::FailLedger {
                topic: match which {
                    0 | 1 => format!("out-partition-{which}"),
                    _ => "in-partition-0".into(),
                },
                subscription: match which {
                    2 => Some("queue".into()),
                    3 => Some("app".into()),
                    _ => None,
                },
                failing: *failing,
            },
            Op::QueueAck { txn, pick, nack } => {
                let got = &w.consumer("q").expect("q").received;
                if got.is_empty() {
                    continue;
                }
                let position = got[*pick as usize % got.len()].0;
                if *nack {
                    PulsarAction::Nack {
                        consumer: "q".into(),
                        positions: vec![position],
                    }
                } else {
                    PulsarAction::Ack {
                        consumer: "q".into(),
                        positions: vec![position],
                        txn: txn.map(|t| format!("t{t}")),
                        cumulative: false,
                    }
                }
            }
            Op::Plain => PulsarAction::Send {
                producer: "plain".into(),
                topic: "out-partition-0".into(),
                values: vec![format!("p{i}")],
                txn: None,
                sequence_id: None,
                deliver_after_ms: None,
                batch: false,
            },
            Op::Receive { reader } => PulsarAction::Receive {
                consumer: ["c", "r", "r1", "q"][*reader as usize % 4].into(),
                permits: 3,
            },
            Op::Ack {
                txn,
                pick,
                cumulative,
            } => {
                let got = &w.consumer("c").expect("c").received;
                if got.is_empty() {
                    continue;
                }
                let position = got[*pick as usize % got.len()].0;
                PulsarAction::Ack {
                    consumer: "c".into(),
                    positions: vec![position],
                    txn: txn.map(|t| format!("t{t}")),
                    cumulative: *cumulative,
                }
            }
            Op::End { txn, commit } => PulsarAction::EndTxn {
                name: format!("t{txn}"),
                commit: *commit,
            },
            Op::Crash => PulsarAction::CrashCoordinator { tc: 0 },
            Op::Recover(ms) => PulsarAction::RecoverCoordinator {
                tc: 0,
                replay_ms: i64::from(*ms),
            },
            Op::Unload { out, ms } => PulsarAction::UnloadTopic {
                topic: format!("out-partition-{out}"),
                replay_ms: i64::from(*ms),
            },
            Op::Snapshot(out) => PulsarAction::TakeSnapshot {
                topic: format!("out-partition-{out}"),
            },
            Op::Run(ms) => PulsarAction::Run { ms: i64::from(*ms) },
            Op::Fault { api, kind } => {
                let matching = MessageMatch {
                    api: Some(APIS[*api as usize].to_string()),
                    direction: Some(if kind % 2 == 0 {
                        Direction::Request
                    } else {
                        Direction::Response
                    }),
                    ..MessageMatch::default()
                };
                PulsarAction::Arm {
                    fault: match kind {
                        0 | 1 => Fault::Drop {
                            matching,
                            every: false,
                        },
                        2..=6 => Fault::Duplicate {
                            matching,
                            every: false,
                        },
                        _ => Fault::Hold { matching },
                    },
                }
            }
            Op::Release(api) => PulsarAction::Release {
                api: APIS[*api as usize].to_string(),
            },
            Op::ZombieSend { .. } | Op::ZombieAck { .. } | Op::FailedSend { .. } => continue,
        };
        // A refused action (an unknown transaction name) changes nothing.
        let _ = w.apply(&action);
        check_store_matches_log(&w);
    }
    w
}

/// The coordinator's memory equals a replay of its log, at every point.
fn check_store_matches_log(w: &PulsarWorld) {
    for (k, c) in w.coordinators().iter().enumerate() {
        if let Some(store) = &c.store {
            let replayed =
                MLTransactionMetadataStore::recover(TransactionCoordinatorID(k as u64), &c.log);
            assert_eq!(&replayed, store, "coordinator {k}: memory and log disagree");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(128), .. ProptestConfig::default() })]

    #[test]
    fn pulsar_transactions_keep_their_guarantees(ops in proptest::collection::vec(op(), 1..60)) {
        let w = world(&ops);
        // No aborted message dispatched.
        for name in ["c", "r", "r1", "q"] {
            let c = w.consumer(name);
            let c = c.expect("consumer");
            let topic = w.topic(&c.topic).expect("topic");
            for (p, v) in &c.received {
                let entry = topic.ledger.entry(*p).expect("a dispatched entry exists");
                prop_assert!(!entry.is_marker(), "{name} got a marker at {p}");
                if let EntryData::Message { txn: Some(t), .. } = &entry.data {
                    prop_assert!(!topic.buffer.is_txn_aborted(*t), "{name} got {v}@{p} of aborted {t}");
                }
            }
        }
        // No position acked in a committed transaction dispatched again.
        let mut committed = std::collections::BTreeSet::new();
        for e in w.events() {
            match &e.kind {
                PulsarEventKind::PendingAckMarked { topic, subscription, commit: true, positions, .. } => {
                    committed.extend(positions.iter().map(|p| (topic.clone(), subscription.clone(), *p)));
                }
                PulsarEventKind::Dispatched { topic, subscription, positions, .. } => {
                    for p in positions {
                        prop_assert!(
                            !committed.contains(&(topic.clone(), subscription.clone(), *p)),
                            "{p} was acknowledged in a committed transaction and dispatched again"
                        );
                    }
                }
                _ => {}
            }
        }
        // No transaction the coordinator has ended stays ongoing in a partition.
        if let Some(store) = &w.coordinators()[0].store {
            for (name, t) in w.topics() {
                for (txn, first) in t.buffer.ongoing_txns() {
                    prop_assert!(
                        store.txn_meta(*txn).is_ok(),
                        "{name}: {txn} ended but is still ongoing from {first}"
                    );
                }
            }
        }
        // A transaction with a failed send or ack never commits.
        for (name, t) in w.txns() {
            if t.failed_ops > 0 {
                prop_assert!(t.state != ClientTxnState::Committed, "{name} committed after a failed operation");
                let committed = w.events().iter().any(|e| matches!(&e.kind,
                    PulsarEventKind::TxnLogAppend { txn, new_status: Some(TxnStatus::Committed), .. } if *txn == t.id));
                prop_assert!(!committed, "the coordinator committed {name} after a failed operation");
            }
        }
        // The dead-letter topic gets a message only past maxRedeliverCount, and the
        // original is then acknowledged.
        let q = w.topic("in-partition-0").expect("in").subscriptions.get("queue").expect("queue");
        for e in w.events() {
            if let PulsarEventKind::DeadLettered { position, redelivery_count, dead_letter_topic, dead_letter_position, .. } = &e.kind {
                prop_assert!(*redelivery_count >= 2, "{position} dead-lettered after {redelivery_count} redeliveries");
                prop_assert!(q.cursor.is_message_deleted(*position) || q.pending_ack.holder(*position).is_some(),
                    "{position} went to the dead-letter topic but is not acknowledged");
                let dlq = w.topic(dead_letter_topic).expect("the dead-letter topic");
                prop_assert!(dlq.ledger.entry(*dead_letter_position).is_some());
            }
        }
        // A Shared subscription dispatches nothing before its deliverAt.
        for e in w.events() {
            if let PulsarEventKind::Dispatched { topic, subscription, positions, .. } = &e.kind {
                let t = w.topic(topic).expect("topic");
                if !t.subscriptions[subscription].is_multiple_consumers() { continue }
                for p in positions {
                    if let Some(EntryData::Message { deliver_at: Some(at), .. }) = t.ledger.entry(*p).map(|x| &x.data) {
                        prop_assert!(*at <= e.at_ms, "{topic}/{subscription} dispatched {p} at {} before its deliverAt {at}", e.at_ms);
                    }
                }
            }
        }
        // Deterministic: the same actions, the same events.
        let again = world(&ops);
        prop_assert_eq!(again.events(), w.events());
    }

    /// A topic unloaded at any point recovers its transaction buffer (from the snapshot
    /// and the ledger after it) with the same ongoing and aborted transactions and the
    /// same maxReadPosition, and pending ack holds the same positions.
    #[test]
    fn an_unloaded_topic_recovers_its_buffer_and_pending_ack(ops in proptest::collection::vec(op(), 1..60)) {
        let mut w = world(&ops);
        let topic = "out-partition-0";
        let t = w.topic(topic).expect("topic").clone();
        if t.recovery_due.is_some() { return Ok(()) }
        w.apply(&PulsarAction::UnloadTopic { topic: topic.into(), replay_ms: 0 }).expect("unload");
        let after = w.topic(topic).expect("topic");
        prop_assert_eq!(after.buffer.ongoing_txns(), t.buffer.ongoing_txns());
        if t.buffer.state() == eos_playground::pulsar::TransactionBufferState::NoSnapshot {
            // Without a snapshot nothing is read back (`noNeedToRecover`), so an abort
            // remembered only in memory is gone. Pulsar can afford that because such an
            // abort has no message here: a transaction's first message takes the first
            // snapshot (an abort marker alone, after a dropped send, does not).
            prop_assert!(after.buffer.aborts().is_empty());
            for (txn, _) in t.buffer.aborts() {
                let has_message = t.ledger.entries().iter().any(|e| {
                    e.txn() == Some(*txn)
                        && !matches!(e.data, eos_playground::pulsar::EntryData::TxnMarker { .. })
                });
                prop_assert!(!has_message, "{txn:?} aborted with a message but no snapshot");
            }
        } else {
            prop_assert_eq!(after.buffer.aborts(), t.buffer.aborts());
        }
        prop_assert_eq!(after.buffer.max_read_position(), t.buffer.max_read_position());
        prop_assert_eq!(after.buffer.state(), t.buffer.state());
        for (name, s) in &t.subscriptions {
            prop_assert_eq!(
                after.subscriptions[name].pending_ack.individual_ack_positions(),
                s.pending_ack.individual_ack_positions()
            );
        }
    }

    /// After a crash at any point, recovery rebuilds every transaction the coordinator
    /// had in memory, with its status, partitions and subscriptions.
    #[test]
    fn the_coordinator_recovers_every_transaction_from_its_log(ops in proptest::collection::vec(op(), 1..60)) {
        let mut w = world(&ops);
        let Some(before) = w.coordinators()[0].store.clone() else { return Ok(()) };
        let before: Vec<_> = before.txns().map(|m| (m.id, m.status, m.produced_partitions.clone(), m.acked_partitions.clone())).collect();
        w.apply(&PulsarAction::CrashCoordinator { tc: 0 }).expect("crash");
        let seen = w.events().len();
        w.apply(&PulsarAction::RecoverCoordinator { tc: 0, replay_ms: 0 }).expect("recover");
        let recovered = w.events()[seen..].iter().find_map(|e| match &e.kind {
            PulsarEventKind::CoordinatorRecovered { txns, .. } => Some(txns.clone()),
            _ => None,
        });
        let want: Vec<_> = before.iter().map(|(id, s, _, _)| (*id, *s)).collect();
        prop_assert_eq!(recovered, Some(want));
    }
}
