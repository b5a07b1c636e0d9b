//! The cost of the fault vocabulary (`cargo bench --bench faults`): one Produce round
//! trip (send, drain, request, append, response, ack: a few world steps) with no fault
//! armed, with 10 armed faults that match none of its messages (every send checks them
//! all: one pass over the armed faults, no scan of the queue), and with 10 armed where
//! the last one (a 0 ms delay on every Produce) strikes each request.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use eos_playground::log::TopicPartition;
use eos_playground::protocol::Request;
use eos_playground::sim::network::{Body, Network};
use eos_playground::sim::{Action, ClusterConfig, Direction, Fault, MessageMatch, Node, World};

fn world(faults: &[Fault]) -> World {
    let mut w = World::new(ClusterConfig::default());
    w.apply(&Action::CreateTopic {
        name: "t".into(),
        partitions: 1,
        configs: vec![],
    })
    .unwrap();
    w.apply(&Action::CreateProducer {
        name: "p".into(),
        configs: vec![],
    })
    .unwrap();
    round_trip(&mut w, 0);
    for fault in faults {
        w.apply(&Action::ArmFault {
            fault: fault.clone(),
        })
        .unwrap();
    }
    w
}

fn round_trip(w: &mut World, i: u64) {
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: TopicPartition::new("t", 0),
        values: vec![format!("v{i}")],
    })
    .unwrap();
    w.apply(&Action::Flush {
        producer: "p".into(),
    })
    .unwrap();
}

/// Ten persistent faults that strike no message of the bench's producer.
fn idle_faults() -> Vec<Fault> {
    let api = |a: &str| MessageMatch {
        api: Some(a.into()),
        ..MessageMatch::default()
    };
    let other = Node::Client("other".into());
    vec![
        Fault::Hold {
            matching: api("Fetch"),
        },
        Fault::Cut {
            a: other.clone(),
            b: Node::Broker(1),
        },
        Fault::Cut {
            a: Node::Client("idle".into()),
            b: Node::LONE_CONTROLLER,
        },
        Fault::Drop {
            matching: api("ListOffsets"),
            every: true,
        },
        Fault::Delay {
            matching: api("EndTxn"),
            ms: 500,
            every: true,
        },
        Fault::Duplicate {
            matching: api("TxnOffsetCommit"),
            every: true,
        },
        Fault::Drop {
            matching: MessageMatch {
                from: Some(other.clone()),
                ..MessageMatch::default()
            },
            every: true,
        },
        Fault::Delay {
            matching: MessageMatch {
                to: Some(other),
                ..MessageMatch::default()
            },
            ms: 100,
            every: true,
        },
        Fault::Error {
            api: "DescribeTransactions".into(),
            error: eos_playground::protocol::errors::Errors::NotCoordinator,
        },
        Fault::Hold {
            matching: api("WriteTxnMarkers"),
        },
    ]
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("produce_round_trip");
    let cases: [(&str, Vec<Fault>); 3] = [
        ("0_faults", vec![]),
        ("10_faults_idle", idle_faults()),
        ("10_faults_one_strikes", {
            let mut f = idle_faults();
            f.pop();
            f.push(Fault::Delay {
                matching: MessageMatch {
                    api: Some("Produce".into()),
                    direction: Some(Direction::Request),
                    ..MessageMatch::default()
                },
                ms: 0,
                every: true,
            });
            f
        }),
    ];
    for (name, faults) in cases {
        let mut w = world(&faults);
        assert_eq!(w.network().faults().len(), faults.len());
        let mut i = 1;
        g.bench_function(name, |b| {
            b.iter(|| {
                round_trip(&mut w, i);
                i += 1;
            })
        });
    }
    g.finish();

    // The network alone: put one Produce request on the wire and take it off.
    let mut g = c.benchmark_group("network_send_and_deliver");
    let body = Body::Request(Request::ListTransactions {
        state_filters: Vec::new(),
        producer_id_filters: Vec::new(),
        duration_filter_ms: -1,
    });
    for (name, faults) in [("0_faults", vec![]), ("10_faults_idle", idle_faults())] {
        let mut n = Network::new(2);
        for f in faults {
            n.arm(f);
        }
        let mut now = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                now += 1;
                let (env, struck) = n.send(
                    Node::Client("p".into()),
                    Node::Broker(1),
                    1,
                    body.clone(),
                    now,
                );
                assert!(struck.is_none());
                black_box(env);
                black_box(n.pop_due(now + 2))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
