#![cfg(target_arch = "wasm32")]
//! The engine running inside a browser tab (wasm32): the same deterministic world as
//! natively, so what a learner sees is what the native tests check.

use eos_playground::broker::broker::BrokerEvent;
use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, World};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn raw(tp: &TopicPartition, seq: i32, values: &[&str]) -> Action {
    Action::RawProduce {
        topic_partition: tp.clone(),
        producer_id: 1000,
        producer_epoch: 0,
        base_sequence: seq,
        transactional_id: None,
        values: values.iter().map(|v| v.to_string()).collect(),
        label: None,
    }
}

#[wasm_bindgen_test]
fn the_same_batch_twice_is_a_duplicate_with_the_original_offsets() {
    let mut world = World::new(ClusterConfig::default());
    let tp = TopicPartition::new("orders", 0);
    world
        .apply(&Action::CreateTopic {
            name: "orders".into(),
            partitions: 1,
            configs: vec![],
        })
        .expect("create topic");

    let first = world.apply(&raw(&tp, 0, &["a", "b"])).expect("first send");
    assert!(
        first
            .iter()
            .any(|l| l.contains("error=NONE") && l.contains("baseOffset=0")),
        "{first:?}"
    );
    let leo = world.log_view(&tp).expect("log").log_end_offset;
    assert_eq!(leo, 2);

    let second = world.apply(&raw(&tp, 0, &["a", "b"])).expect("second send");
    assert!(
        second.iter().any(|l| l.contains("baseOffset=0")),
        "{second:?}"
    );
    match world.last_verdict(&tp) {
        Some(BrokerEvent::BatchDuplicate {
            first_offset,
            last_offset,
            log_end_offset,
            ..
        }) => {
            assert_eq!((*first_offset, *last_offset, *log_end_offset), (0, 1, 2));
        }
        other => panic!("expected a duplicate, got {other:?}"),
    }
    let log = world.log_view(&tp).expect("log");
    assert_eq!(log.log_end_offset, leo, "a duplicate writes nothing");
    assert_eq!(log.batches.len(), 1);
}

#[wasm_bindgen_test]
fn a_skipped_sequence_is_out_of_order() {
    let mut world = World::new(ClusterConfig::default());
    let tp = TopicPartition::new("orders", 0);
    world
        .apply(&Action::CreateTopic {
            name: "orders".into(),
            partitions: 1,
            configs: vec![],
        })
        .expect("create topic");
    world.apply(&raw(&tp, 0, &["a"])).expect("first");
    let lines = world.apply(&raw(&tp, 5, &["z"])).expect("gap");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("OUT_OF_ORDER_SEQUENCE_NUMBER")),
        "{lines:?}"
    );
    assert!(matches!(
        world.last_verdict(&tp),
        Some(BrokerEvent::BatchRejected {
            expected_seq: Some(1),
            ..
        })
    ));
}

#[wasm_bindgen_test]
fn the_idempotence_lesson_runs_in_the_browser() {
    let lesson = eos_playground::scenario::lessons()
        .iter()
        .find(|l| l.name == "idempotence")
        .expect("the idempotence lesson");
    let scenario = eos_playground::scenario::parse(lesson.source).expect("it parses");
    let mut runner = eos_playground::scenario::Runner::new(scenario);
    let mut guard = 0;
    while !runner.is_done() && guard < 10_000 {
        runner.step().expect("every step runs");
        guard += 1;
    }
    assert!(
        runner
            .transcript()
            .iter()
            .any(|l| l.contains("error=OUT_OF_ORDER_SEQUENCE_NUMBER")),
        "{:#?}",
        runner.transcript()
    );
}

/// The transaction coordinator, markers and read_committed filtering, in the browser:
/// the same transcript lines as natively (seed 000, examples 1 and 3).
#[wasm_bindgen_test]
fn the_transaction_lessons_run_in_the_browser() {
    let t = eos_playground::scenario::transcript(
        eos_playground::scenario::lesson("transactions")
            .unwrap()
            .source,
    )
    .expect("transactions runs");
    assert!(
        t.iter().any(|l| l
            == "read_committed   consumer got 5 records: c1@0 c2@1 c3@2 c4@8 c5@9 (position 11)"),
        "{t:#?}"
    );
    assert!(t
        .iter()
        .any(|l| l == "version: 0 producerId: 0 firstOffset: 4 lastOffset: 7 lastStableOffset: 8"));
    let f = eos_playground::scenario::transcript(
        eos_playground::scenario::lesson("fencing").unwrap().source,
    )
    .expect("fencing runs");
    assert!(
        f.iter()
            .any(|l| l == "producer 1 commit failed: InvalidProducerEpochException"),
        "{f:#?}"
    );
}
