//! The client-side kinds on hand-made histories: a real world writes the log, then the
//! test hands a consumer records the way `poll()` would, right or wrong, and checks
//! what the checker says — including histories it must not flag.

use super::{Anomaly, Checker};
use crate::client::consumer::{ConsumerEvent, ConsumerRecord};
use crate::log::TopicPartition;
use crate::scenario::{parse, Runner};
use crate::sim::{EventKind, World};

/// A world whose `t-0` holds a@0 b@1 c@2 d@3 (idempotent producer) and an assigned
/// consumer `c` at the given isolation level.
fn world(isolation: &str) -> World {
    let src = format!(
        "cluster brokers=1\ntopic create t partitions=1\nproducer p create\n\
         producer p send t-0 a b c d\nproducer p flush\n\
         consumer c create isolation.level={isolation} auto.offset.reset=earliest\n\
         consumer c assign t-0\n"
    );
    let mut runner = Runner::watched(parse(&src).expect("parses"), Some(crate::checker::watch));
    while !runner.is_done() {
        runner.step().expect("runs");
    }
    runner.world
}

/// One hand-made poll: these (offset, value) records, as one `RecordsDelivered`.
fn poll(world: &mut World, records: &[(i64, &str)]) {
    let tp = TopicPartition::new("t", 0);
    let consumer = world.consumer_mut("c").expect("consumer c");
    for (offset, value) in records {
        consumer.delivered.push(ConsumerRecord {
            topic_partition: tp.clone(),
            offset: *offset,
            key: None,
            value: Some(value.as_bytes().to_vec()),
            timestamp: 0,
        });
    }
    world.emit(EventKind::Consumer {
        client: "c".into(),
        event: ConsumerEvent::RecordsDelivered {
            tp,
            count: records.len(),
            first: records.first().map_or(0, |r| r.0),
            last: records.last().map_or(0, |r| r.0),
        },
    });
}

fn kinds(world: &World) -> Vec<Anomaly> {
    let mut checker = Checker::new();
    checker.observe(world, 1);
    checker.violations().iter().map(|v| v.anomaly).collect()
}

#[test]
fn in_order_polls_are_not_flagged() {
    let mut w = world("read_uncommitted");
    poll(&mut w, &[(0, "a"), (1, "b")]);
    poll(&mut w, &[(2, "c"), (3, "d")]);
    assert_eq!(kinds(&w), vec![]);
}

#[test]
fn a_gap_between_polls_is_poll_skip_and_inside_one_is_int_poll_skip() {
    let mut w = world("read_uncommitted");
    poll(&mut w, &[(0, "a")]);
    poll(&mut w, &[(2, "c")]);
    assert_eq!(kinds(&w), vec![Anomaly::PollSkip]);
    let mut w = world("read_uncommitted");
    poll(&mut w, &[(0, "a"), (2, "c")]);
    assert_eq!(kinds(&w), vec![Anomaly::IntPollSkip]);
}

#[test]
fn going_back_is_nonmonotonic() {
    let mut w = world("read_uncommitted");
    poll(&mut w, &[(0, "a"), (1, "b")]);
    poll(&mut w, &[(1, "b")]);
    assert_eq!(kinds(&w), vec![Anomaly::NonmonotonicPoll]);
    let mut w = world("read_uncommitted");
    poll(&mut w, &[(1, "b"), (0, "a")]);
    assert_eq!(kinds(&w), vec![Anomaly::IntNonmonotonicPoll]);
}

#[test]
fn another_value_at_a_read_offset_is_inconsistent() {
    let mut w = world("read_uncommitted");
    poll(&mut w, &[(0, "x")]);
    assert_eq!(kinds(&w), vec![Anomaly::InconsistentOffsets]);
}

#[test]
fn read_committed_passing_an_aborted_transaction_is_not_a_skip() {
    // t-0: a@0 (plain), an aborted transaction x@1 + marker@2, then b@3.
    let src = "cluster brokers=1\ntopic create t partitions=1\n\
               producer p create transactional.id=tx\nproducer p init-transactions\n\
               producer i create\nproducer i send t-0 a\nproducer i flush\n\
               producer p begin\nproducer p send t-0 x\nproducer p flush\nproducer p abort\n\
               producer i send t-0 b\nproducer i flush\n\
               consumer c create isolation.level=read_committed auto.offset.reset=earliest\n\
               consumer c assign t-0\n";
    let mut runner = Runner::watched(parse(src).expect("parses"), Some(crate::checker::watch));
    while !runner.is_done() {
        runner.step().expect("runs");
    }
    let mut w = runner.world;
    poll(&mut w, &[(0, "a")]);
    poll(&mut w, &[(3, "b")]);
    assert_eq!(kinds(&w), vec![]);
    // The aborted record itself, handed out, is G1a.
    poll(&mut w, &[(1, "x")]);
    assert!(kinds(&w).contains(&Anomaly::G1a));
}

#[test]
fn an_incremental_refresh_reads_what_a_full_read_reads() {
    // Chaos runs with restarts, lost bursts, truncating followers (three brokers):
    // after every action each replica's refreshed records equal a fresh full read.
    use super::chaos::generate;
    use super::oracle::PartitionRecords;
    use crate::breaks::BreakSwitch;
    use std::collections::BTreeMap;
    for (seed, switches) in [
        (1, vec![]),
        (2, vec![]),
        (3, vec![BreakSwitch::EarlyMarkers]),
        (5, vec![BreakSwitch::Snapshots]),
    ] {
        let schedule = generate(seed, 50, &switches);
        let mut world = World::new(schedule.cluster.clone());
        let mut cached: BTreeMap<(i32, TopicPartition), PartitionRecords> = BTreeMap::new();
        for action in schedule.actions() {
            let _ = world.apply(&action);
            for (id, broker) in world.brokers() {
                if !broker.is_online() {
                    continue;
                }
                for (tp, log) in broker.logs() {
                    let full = PartitionRecords::read(log, &broker.fs);
                    let r = cached
                        .entry((*id, tp.clone()))
                        .or_insert_with(|| PartitionRecords::read(log, &broker.fs));
                    r.refresh(log, &broker.fs);
                    assert_eq!(
                        (&r.records, r.log_end_offset, r.high_watermark),
                        (&full.records, full.log_end_offset, full.high_watermark),
                        "seed {seed} broker {id} {tp} after {action:?}"
                    );
                }
            }
        }
    }
}

/// Every anomaly's name finds it again (the chaos page gets names from its worker), and
/// a name this build does not know finds nothing rather than a wrong explanation.
#[test]
fn anomalies_are_found_by_their_names_only() {
    for &a in Anomaly::ALL {
        assert_eq!(Anomaly::from_name(a.name()), Some(a));
        assert!(a.explain_id().starts_with("checker."));
    }
    assert_eq!(Anomaly::from_name("no-such-anomaly"), None);
}
