#![cfg(not(target_arch = "wasm32"))]
//! Replication properties (Kafka's guarantee for acks=all): three brokers,
//! replication.factor=3, min.insync.replicas=2, no unclean election, an idempotent
//! producer. Whatever single broker fails (crash or clean stop, at any moment, then
//! comes back) and whatever messages the network loses, no acknowledged record is
//! lost, none is written twice, every ISR replica holds the leader's bytes, and the
//! leader's HW never goes backwards while it stays leader.

mod common;

use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, World};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Send(u8),
    DropRequest,
    DropResponse,
    Step,
    Advance(i64),
    /// Stop this broker (crash or clean), if no broker is down.
    Fail(i32, bool),
    /// Start the broker that is down.
    Recover,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1u8..4).prop_map(Op::Send),
        1 => Just(Op::DropRequest),
        1 => Just(Op::DropResponse),
        3 => Just(Op::Step),
        2 => (1i64..3000).prop_map(Op::Advance),
        1 => ((1i32..4), any::<bool>()).prop_map(|(b, c)| Op::Fail(b, c)),
        1 => Just(Op::Recover),
    ]
}

fn values_in_leader_log(w: &World, tp: &TopicPartition) -> Vec<String> {
    w.log_view(tp)
        .map(|v| {
            v.batches
                .iter()
                .flat_map(|b| b.records.iter().map(|r| r.1.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// (producer epoch, value) of every record in the leader's log.
fn epochs_and_values_in_leader_log(w: &World, tp: &TopicPartition) -> Vec<(i16, String)> {
    w.log_view(tp)
        .map(|v| {
            v.batches
                .iter()
                .flat_map(|b| b.records.iter().map(|r| (b.producer_epoch, r.1.clone())))
                .collect()
        })
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(48), .. ProptestConfig::default() })]

    #[test]
    fn acks_all_survives_any_single_broker_failure(ops in proptest::collection::vec(op(), 1..40)) {
        let mut w = World::new(ClusterConfig { brokers: 3, ..ClusterConfig::default() });
        let configs = vec![
            ("replication.factor".to_string(), "3".to_string()),
            ("min.insync.replicas".to_string(), "2".to_string()),
        ];
        w.apply(&Action::CreateTopic { name: "t".into(), partitions: 1, configs }).unwrap();
        w.apply(&Action::CreateProducer { name: "p".into(), configs: vec![] }).unwrap();
        let tp = TopicPartition::new("t", 0);
        let mut next = 0u32;
        let mut down: Option<i32> = None;
        // (leader, leader epoch, HW) seen last: the HW of one leader never goes back.
        let mut last: Option<(i32, i32, i64)> = None;
        for op in ops {
            match op {
                Op::Send(n) => {
                    let values = (0..n).map(|_| { next += 1; format!("v{next}") }).collect();
                    w.apply(&Action::Send { producer: "p".into(), topic_partition: tp.clone(), values }).unwrap();
                }
                Op::DropRequest => { w.apply(&Action::DropNextRequest { from: None }).unwrap(); }
                Op::DropResponse => { w.apply(&Action::DropNextResponse { to: None }).unwrap(); }
                Op::Step => { w.apply(&Action::Step).unwrap(); }
                Op::Advance(ms) => { w.apply(&Action::Advance { ms }).unwrap(); }
                Op::Fail(b, clean) => {
                    // A broker restarted after a crash may still wait for the controller to
                    // accept its registration (until its old session runs out).
                    if down.is_none() && w.brokers()[&b].is_online() {
                        w.apply(&Action::StopBroker { broker: b, clean }).unwrap();
                        down = Some(b);
                    }
                }
                Op::Recover => {
                    if let Some(b) = down.take() {
                        w.apply(&Action::StartBroker { broker: b }).unwrap();
                    }
                }
            }
            if let Some(v) = w.replicas_view(&tp) {
                if let Some(leader) = v.replicas.iter().find(|r| r.leader && r.online) {
                    if let Some((l, e, hw)) = last {
                        if l == v.leader && e == v.leader_epoch {
                            prop_assert!(leader.high_watermark >= hw, "the HW of leader {} went back from {} to {}", l, hw, leader.high_watermark);
                        }
                    }
                    last = Some((v.leader, v.leader_epoch, leader.high_watermark));
                }
            }
        }
        if let Some(b) = down.take() {
            w.apply(&Action::StartBroker { broker: b }).unwrap();
        }
        // Long enough for a crashed broker's registration: its old session runs out
        // (9 s) and its next try comes (at most 6.4 s later).
        w.apply(&Action::Advance { ms: 16_000 }).unwrap();
        w.apply(&Action::Flush { producer: "p".into() }).unwrap();
        w.apply(&Action::Advance { ms: 5_000 }).unwrap();
        let in_log = values_in_leader_log(&w, &tp);
        // Idempotence holds within one producer epoch. A value written again under a
        // later epoch is the KIP-360 renumbering Kafka's client does on purpose after
        // a stale retry is refused (tests/scenarios/idempotence/
        // restart_then_epoch_bump_writes_twice.eos), not a broken dedup window.
        let mut by_epoch = epochs_and_values_in_leader_log(&w, &tp);
        let total = by_epoch.len();
        by_epoch.sort();
        by_epoch.dedup();
        prop_assert_eq!(by_epoch.len(), total, "a value was written twice under one epoch");
        for (_, _, _, values) in w.producers()["p"].acknowledged() {
            for v in values {
                prop_assert!(in_log.contains(v), "acknowledged {} missing from the leader's log", v);
            }
        }
        let view = w.replicas_view(&tp).unwrap();
        prop_assert_eq!(view.isr.len(), 3, "every replica is back in the ISR");
        for r in &view.replicas {
            prop_assert!(r.high_watermark <= r.log_end_offset);
            if view.isr.contains(&r.broker) {
                prop_assert!(r.matches_leader, "ISR replica {} diverges from the leader", r.broker);
            }
        }
    }
}

#[derive(Clone, Debug)]
enum ElrOp {
    Send(u8),
    Step,
    Advance(i64),
    /// Stop this broker (crash or clean) if it runs: any number may be down at once.
    Stop(i32, bool),
    Start(i32),
}

fn elr_op() -> impl Strategy<Value = ElrOp> {
    prop_oneof![
        3 => (1u8..3).prop_map(ElrOp::Send),
        3 => Just(ElrOp::Step),
        2 => (1i64..3000).prop_map(ElrOp::Advance),
        2 => ((1i32..4), any::<bool>()).prop_map(|(b, c)| ElrOp::Stop(b, c)),
        2 => (1i32..4).prop_map(ElrOp::Start),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(48), .. ProptestConfig::default() })]

    /// Eligible leader replicas (KIP-966) on, and any brokers down at once: the ELR and
    /// the ISR never share a replica, an ISR at min.insync.replicas leaves no ELR, and
    /// once every broker is back the partition has a leader again. When every stop was
    /// clean (no broker left the ELR for an unclean shutdown), no acknowledged record
    /// is lost: the ELR only ever elects replicas that hold everything the HW passed.
    #[test]
    fn elr_keeps_acknowledged_records_through_clean_stops(ops in proptest::collection::vec(elr_op(), 1..50)) {
        let mut w = World::new(ClusterConfig {
            brokers: 3,
            eligible_leader_replicas: true,
            ..ClusterConfig::default()
        });
        let configs = vec![
            ("replication.factor".to_string(), "3".to_string()),
            ("min.insync.replicas".to_string(), "2".to_string()),
        ];
        w.apply(&Action::CreateTopic { name: "t".into(), partitions: 1, configs }).unwrap();
        w.apply(&Action::CreateProducer { name: "p".into(), configs: vec![] }).unwrap();
        let tp = TopicPartition::new("t", 0);
        let mut next = 0u32;
        let mut crashed = false;
        for op in ops {
            match op {
                ElrOp::Send(n) => {
                    let values = (0..n).map(|_| { next += 1; format!("v{next}") }).collect();
                    w.apply(&Action::Send { producer: "p".into(), topic_partition: tp.clone(), values }).unwrap();
                }
                ElrOp::Step => { w.apply(&Action::Step).unwrap(); }
                ElrOp::Advance(ms) => { w.apply(&Action::Advance { ms }).unwrap(); }
                ElrOp::Stop(b, clean) => {
                    if w.brokers()[&b].is_online() {
                        w.apply(&Action::StopBroker { broker: b, clean }).unwrap();
                        crashed |= !clean;
                    }
                }
                ElrOp::Start(b) => {
                    if !w.brokers()[&b].is_online() && !w.is_registering(b) {
                        w.apply(&Action::StartBroker { broker: b }).unwrap();
                    }
                }
            }
            let reg = w.registration(&tp).unwrap();
            prop_assert!(!reg.elr().iter().any(|b| reg.isr().contains(b)), "ELR {:?} shares a replica with ISR {:?}", reg.elr(), reg.isr());
            prop_assert!(reg.isr().len() < 2 || reg.elr().is_empty(), "ELR {:?} beside an ISR {:?} at min.insync.replicas", reg.elr(), reg.isr());
        }
        for b in 1..4 {
            if !w.brokers()[&b].is_online() && !w.is_registering(b) {
                w.apply(&Action::StartBroker { broker: b }).unwrap();
            }
        }
        w.apply(&Action::Advance { ms: 30_000 }).unwrap();
        let reg = w.registration(&tp).unwrap();
        prop_assert!(reg.leader() > 0, "no leader with every broker back: ISR {:?} ELR {:?}", reg.isr(), reg.elr());
        if !crashed {
            w.apply(&Action::Flush { producer: "p".into() }).unwrap();
            w.apply(&Action::Advance { ms: 5_000 }).unwrap();
            let in_log = values_in_leader_log(&w, &tp);
            for (_, _, _, values) in w.producers()["p"].acknowledged() {
                for v in values {
                    prop_assert!(in_log.contains(v), "acknowledged {} missing from the leader's log", v);
                }
            }
        }
    }
}
