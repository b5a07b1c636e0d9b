//! The replication view after an unclean election: aligned slots, epochs, and the
//! divergence a truncation then removes.

use super::*;
use crate::scenario::{parse, Replay};

fn world_after(script: &str) -> World {
    let mut replay = Replay::new(parse(script).unwrap());
    replay.play_to(usize::MAX).unwrap();
    replay.world().clone()
}

const SETUP: &str = "cluster brokers=2
topic create orders partitions=1 replication.factor=2 unclean.leader.election.enable=true
producer p create acks=1
producer p send orders-0 a
producer p flush
run 1000
fault cut broker-1 broker-2
producer p send orders-0 b
producer p flush
run 50000
broker 1 stop crash
producer p send orders-0 c
producer p flush
";

#[test]
fn an_unclean_leader_and_the_stopped_old_leader_differ_at_offset_1() {
    let w = world_after(SETUP);
    let tp = TopicPartition::new("orders", 0);
    let panel = replicas(&w, &tp).unwrap();
    assert_eq!((panel.leader, panel.leader_epoch), (2, 1));
    let old = &panel.columns[0];
    let new = &panel.columns[1];
    assert_eq!((old.broker, old.online, old.in_isr), (1, false, false));
    assert_eq!(old.slots.len(), 2, "aligned to the largest LEO");
    assert!(matches!(
        old.slots[0],
        Slot::Record {
            same_as_leader: true,
            leader_epoch: 0,
            ..
        }
    ));
    // Offset 1: b (epoch 0) on broker 1, c (epoch 1) on broker 2.
    assert!(matches!(
        old.slots[1],
        Slot::Record {
            same_as_leader: false,
            leader_epoch: 0,
            ..
        }
    ));
    assert!(matches!(
        new.slots[1],
        Slot::Record {
            same_as_leader: true,
            leader_epoch: 1,
            ..
        }
    ));
    let cards = brokers(&w);
    assert_eq!(cards[0].state, BrokerState::Stopped);
    assert_eq!(cards[1].leads, vec![tp]);
}

#[test]
fn after_the_restart_the_old_leader_truncates_and_matches() {
    let script = format!("{SETUP}fault heal broker-1 broker-2\nbroker 1 start\nrun 1000\n");
    let w = world_after(&script);
    let panel = replicas(&w, &TopicPartition::new("orders", 0)).unwrap();
    for column in &panel.columns {
        assert!(column.in_isr && column.online);
        assert_eq!(column.log_end_offset, 2);
        assert!(column.slots.iter().all(|s| matches!(
            s,
            Slot::Record {
                same_as_leader: true,
                ..
            }
        )));
    }
}

#[test]
fn a_fenced_broker_is_shown_fenced() {
    let w = world_after(
        "cluster brokers=3\ntopic create t partitions=1 replication.factor=3\nfault cut broker-1 controller\nrun 9000\n",
    );
    assert_eq!(brokers(&w)[0].state, BrokerState::Fenced);
    assert!(brokers(&w)[0].leads.is_empty());
}

#[test]
fn internal_topics_are_counted_per_broker_not_listed() {
    // A transactional producer makes the coordinator create __transaction_state: its 50
    // partitions are spread over the brokers; each card counts its share.
    let w = world_after(
        "cluster brokers=3\ntopic create t partitions=1\nproducer p create transactional.id=tx-1\nproducer p init-transactions\n",
    );
    let cards = brokers(&w);
    assert!(cards
        .iter()
        .all(|c| c.leads.iter().all(|tp| !tp.topic.starts_with("__"))));
    let total: usize = cards
        .iter()
        .flat_map(|c| &c.leads_internal)
        .filter(|(topic, _)| topic == "__transaction_state")
        .map(|(_, n)| n)
        .sum();
    assert_eq!(total, 50);
}

const CRASHED_LEADER: &str = "cluster brokers=3
topic create orders partitions=1 replication.factor=3 min.insync.replicas=2
producer p create
producer p send orders-0 a
producer p flush
broker 1 stop crash
";

/// A crash tells the controller nothing: broker 1 stays leader, and the card and the
/// partition count down to the fence (`broker.session.timeout.ms`, 9 s).
#[test]
fn a_crashed_leader_counts_down_to_its_fence() {
    let tp = TopicPartition::new("orders", 0);
    let w = world_after(&format!("{CRASHED_LEADER}run 2000\n"));
    let card = &brokers(&w)[0];
    assert_eq!(card.state, BrokerState::Stopped);
    assert_eq!(
        card.controller,
        ControllerSees::SessionRunning {
            running: false,
            fence_in_ms: 7_000
        }
    );
    assert_eq!(
        card.leads,
        vec![tp.clone()],
        "the controller still names it"
    );
    let panel = replicas(&w, &tp).unwrap();
    assert_eq!(
        (panel.leader, panel.leader_unreachable_ms),
        (1, Some(7_000))
    );
    assert_eq!(brokers(&w)[1].controller, ControllerSees::Active);

    let w = world_after(&format!("{CRASHED_LEADER}run 9000\n"));
    assert_eq!(brokers(&w)[0].controller, ControllerSees::Fenced);
    let panel = replicas(&w, &tp).unwrap();
    assert_eq!((panel.leader, panel.leader_unreachable_ms), (2, None));
}

/// A restart inside the old session is refused; the card says when it asks again.
#[test]
fn a_restart_before_the_fence_is_registering() {
    let w = world_after(&format!("{CRASHED_LEADER}run 2000\nbroker 1 start\n"));
    assert_eq!(
        brokers(&w)[0].controller,
        ControllerSees::Registering { retry_in_ms: 100 }
    );
}

/// A running broker cut off from the controller counts down the same way, and a
/// follower that stops cleanly is in controlled shutdown, fenced at once.
#[test]
fn a_cut_broker_counts_down_and_a_clean_stop_is_a_controlled_shutdown() {
    let w = world_after(
        "cluster brokers=3\ntopic create t partitions=1 replication.factor=3\nfault cut broker-2 controller\nrun 1000\nbroker 3 stop\n",
    );
    let cards = brokers(&w);
    assert_eq!(cards[1].state, BrokerState::Up);
    assert_eq!(
        cards[1].controller,
        ControllerSees::SessionRunning {
            running: true,
            fence_in_ms: 8_000
        }
    );
    assert_eq!(cards[2].controller, ControllerSees::ControlledShutdown);
    let panel = replicas(&w, &TopicPartition::new("t", 0)).unwrap();
    assert_eq!(
        panel.leader_unreachable_ms, None,
        "a cut leader still answers"
    );
}
