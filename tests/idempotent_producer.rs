#![cfg(not(target_arch = "wasm32"))]
//! The producer client against a broker through the simulated network: lost acks,
//! lost requests, restarts — and the exactly-once outcome in the log.

use eos_playground::broker::BrokerEvent;
use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, EventKind, World};

fn world() -> (World, TopicPartition) {
    let mut w = World::new(ClusterConfig::default());
    w.apply(&Action::CreateTopic {
        name: "orders".into(),
        partitions: 1,
        configs: vec![],
    })
    .unwrap();
    w.apply(&Action::CreateProducer {
        name: "p1".into(),
        configs: vec![],
    })
    .unwrap();
    (w, TopicPartition::new("orders", 0))
}

fn send(w: &mut World, tp: &TopicPartition, values: &[&str]) {
    let values = values.iter().map(|v| v.to_string()).collect();
    w.apply(&Action::Send {
        producer: "p1".into(),
        topic_partition: tp.clone(),
        values,
    })
    .unwrap();
    w.apply(&Action::Flush {
        producer: "p1".into(),
    })
    .unwrap();
}

fn broker_events(w: &World) -> Vec<&BrokerEvent> {
    w.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Broker { event, .. } => Some(event),
            _ => None,
        })
        .collect()
}

#[test]
fn a_lost_ack_is_retried_and_deduplicated() {
    let (mut w, tp) = world();
    send(&mut w, &tp, &["a", "b"]);
    let leo = w.log_view(&tp).unwrap().log_end_offset;
    assert_eq!(leo, 2);
    w.apply(&Action::DropNextResponse {
        to: Some("p1".into()),
    })
    .unwrap();
    let before = w.clock_ms;
    send(&mut w, &tp, &["c"]);
    // The first attempt was written; the retry came after request.timeout.ms.
    assert!(w.clock_ms - before >= 30_000);
    assert!(matches!(
        w.last_verdict(&tp),
        Some(BrokerEvent::BatchDuplicate {
            first_offset: 2,
            ..
        })
    ));
    let view = w.log_view(&tp).unwrap();
    assert_eq!(view.log_end_offset, 3, "the retry wrote nothing");
    assert_eq!(view.batches.len(), 2);
    let p = &w.producers["p1"];
    assert_eq!(
        p.acknowledged.last().map(|a| a.2),
        Some(2),
        "acknowledged with the original offset"
    );
    assert!(!p.has_pending());
}

#[test]
fn a_lost_request_is_retried_and_written_once() {
    let (mut w, tp) = world();
    send(&mut w, &tp, &["a"]);
    w.apply(&Action::DropNextRequest {
        from: Some("p1".into()),
    })
    .unwrap();
    send(&mut w, &tp, &["b"]);
    let view = w.log_view(&tp).unwrap();
    assert_eq!(view.log_end_offset, 2);
    assert!(matches!(
        w.last_verdict(&tp),
        Some(BrokerEvent::BatchAppended {
            first_offset: 1,
            ..
        })
    ));
}

#[test]
fn first_init_producer_id_waits_for_a_block() {
    let (mut w, tp) = world();
    send(&mut w, &tp, &["a"]);
    let events = broker_events(&w);
    let not_ready = events.iter().position(|e| {
        matches!(
            e,
            BrokerEvent::ProducerIdNotReady {
                asked_controller: true
            }
        )
    });
    let assigned = events
        .iter()
        .position(|e| matches!(e, BrokerEvent::ProducerIdAssigned { producer_id: 0, .. }));
    assert!(not_ready.is_some() && assigned > not_ready, "{events:?}");
}

#[test]
fn a_restarted_broker_still_deduplicates_the_last_batch() {
    for clean in [true, false] {
        let (mut w, tp) = world();
        send(&mut w, &tp, &["a"]);
        w.apply(&Action::DropNextResponse {
            to: Some("p1".into()),
        })
        .unwrap();
        w.apply(&Action::Send {
            producer: "p1".into(),
            topic_partition: tp.clone(),
            values: vec!["b".into()],
        })
        .unwrap();
        // Deliver the request, lose the ack, then restart before the retry.
        for _ in 0..6 {
            w.apply(&Action::Step).unwrap();
        }
        w.apply(&Action::RestartBroker { broker: 1, clean })
            .unwrap();
        w.apply(&Action::Flush {
            producer: "p1".into(),
        })
        .unwrap();
        let view = w.log_view(&tp).unwrap();
        assert_eq!(
            view.log_end_offset, 2,
            "clean={clean}: the retry after restart must not duplicate"
        );
        assert!(w.producers["p1"]
            .acknowledged
            .iter()
            .any(|a| a.3 == vec!["b".to_string()]));
    }
}

#[test]
fn conflicting_idempotence_config_is_refused_and_nothing_changes() {
    let (mut w, _) = world();
    let err = w
        .apply(&Action::CreateProducer {
            name: "p2".into(),
            configs: vec![
                ("enable.idempotence".into(), "true".into()),
                ("acks".into(), "1".into()),
            ],
        })
        .unwrap_err();
    assert!(err.to_string().contains("acks to all"), "{err}");
    assert!(!w.producers.contains_key("p2"));
}

#[test]
fn a_non_idempotent_producer_duplicates_on_a_lost_ack() {
    let (mut w, tp) = world();
    w.apply(&Action::CreateProducer {
        name: "plain".into(),
        configs: vec![("enable.idempotence".into(), "false".into())],
    })
    .unwrap();
    w.apply(&Action::DropNextResponse {
        to: Some("plain".into()),
    })
    .unwrap();
    w.apply(&Action::Send {
        producer: "plain".into(),
        topic_partition: tp.clone(),
        values: vec!["x".into()],
    })
    .unwrap();
    w.apply(&Action::Flush {
        producer: "plain".into(),
    })
    .unwrap();
    let view = w.log_view(&tp).unwrap();
    assert_eq!(
        view.batches.len(),
        2,
        "without idempotence the retry is written again"
    );
    assert!(view.batches.iter().all(|b| b.producer_id == -1));
}
