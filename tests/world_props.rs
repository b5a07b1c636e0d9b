#![cfg(not(target_arch = "wasm32"))]
//! Properties that must hold on every run: no input makes the engine panic, and an
//! idempotent producer gets every acknowledged record into the log exactly once,
//! whatever the network and the broker do.

mod common;

use eos_playground::log::TopicPartition;
use eos_playground::scenario;
use eos_playground::sim::{Action, ClusterConfig, EventKind, World};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Send(u8),
    DropRequest,
    DropResponse,
    Step,
    Restart(bool),
    SnapshotsOn,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1u8..4).prop_map(Op::Send),
        1 => Just(Op::DropRequest),
        1 => Just(Op::DropResponse),
        3 => Just(Op::Step),
        1 => any::<bool>().prop_map(Op::Restart),
        1 => Just(Op::SnapshotsOn),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(96), .. ProptestConfig::default() })]

    /// Every acknowledged value is in the log exactly once, and no value is there twice.
    #[test]
    fn idempotent_producer_is_exactly_once(ops in proptest::collection::vec(op(), 1..40), small_segments in any::<bool>()) {
        let mut w = World::new(ClusterConfig::default());
        let mut configs = vec![];
        if small_segments {
            configs.push(("segment.bytes".to_string(), "200".to_string()));
        }
        w.apply(&Action::CreateTopic { name: "t".into(), partitions: 1, configs }).unwrap();
        w.apply(&Action::CreateProducer { name: "p".into(), configs: vec![] }).unwrap();
        let tp = TopicPartition::new("t", 0);
        let mut next = 0u32;
        for op in ops {
            match op {
                Op::Send(n) => {
                    let values = (0..n).map(|_| { next += 1; format!("v{next}") }).collect();
                    w.apply(&Action::Send { producer: "p".into(), topic_partition: tp.clone(), values }).unwrap();
                }
                Op::DropRequest => { w.apply(&Action::DropNextRequest { from: None }).unwrap(); }
                Op::DropResponse => { w.apply(&Action::DropNextResponse { to: None }).unwrap(); }
                Op::Step => { w.apply(&Action::Step).unwrap(); }
                // Restarts keep snapshots on: that is Kafka's own guarantee.
                Op::Restart(clean) => { w.apply(&Action::RestartBroker { broker: 1, clean }).unwrap(); }
                Op::SnapshotsOn => { w.apply(&Action::SetBrokerConfig { key: "producer.snapshots".into(), value: "true".into() }).unwrap(); }
            }
        }
        w.apply(&Action::Flush { producer: "p".into() }).unwrap();
        let view = w.log_view(&tp).unwrap();
        let mut in_log: Vec<String> = view.batches.iter().flat_map(|b| b.records.iter().map(|r| r.1.clone())).collect();
        let total = in_log.len();
        in_log.sort();
        in_log.dedup();
        prop_assert_eq!(in_log.len(), total, "a value was written twice");
        for (_, _, _, values) in w.producers()["p"].acknowledged() {
            for v in values {
                prop_assert!(in_log.contains(v), "acknowledged {} missing from the log", v);
            }
        }
        prop_assert!(view.high_watermark <= view.log_end_offset);
        // The network's count (the UI's timeline shows it) is the number of sends narrated.
        let narrated = w.events().iter().filter(|e| matches!(e.kind, EventKind::MessageSent { .. })).count();
        prop_assert_eq!(w.network().messages_sent(), narrated as u64);
    }

    /// Random raw batches never panic, and a batch answered as a duplicate writes nothing.
    #[test]
    fn random_raw_batches_never_panic(batches in proptest::collection::vec((0i64..3, 0i16..3, -2i32..25, 1usize..4), 1..60)) {
        let mut w = World::new(ClusterConfig::default());
        w.apply(&Action::CreateTopic { name: "t".into(), partitions: 1, configs: vec![] }).unwrap();
        let tp = TopicPartition::new("t", 0);
        for (pid, epoch, seq, n) in batches {
            let before = w.log_view(&tp).unwrap().log_end_offset;
            let values = (0..n).map(|i| format!("x{i}")).collect();
            let _ = w.apply(&Action::RawProduce { topic_partition: tp.clone(), producer_id: pid, producer_epoch: epoch, base_sequence: seq, transactional_id: None, values, label: None });
            let after = w.log_view(&tp).unwrap().log_end_offset;
            if let Some(eos_playground::broker::BrokerEvent::BatchDuplicate { .. }) = w.last_verdict(&tp) {
                prop_assert_eq!(before, after);
            }
            for window in w.windows(&tp) {
                prop_assert!(window.batches.len() <= 5);
            }
        }
    }

    /// The scenario parser never panics on arbitrary text, and errors name a real line.
    #[test]
    fn parser_never_panics(src in "(\\PC{0,40}\n){0,6}") {
        if let Err(e) = scenario::parse(&src) {
            prop_assert!(e.line >= 1 && e.line <= src.lines().count().max(1));
        }
    }
}
