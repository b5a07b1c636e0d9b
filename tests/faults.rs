#![cfg(not(target_arch = "wasm32"))]
//! The fault vocabulary: every fault action prints as a scenario step and parses back to
//! itself; each fault does what it says to the message it strikes (and shows on the
//! timeline); and under random fault schedules an idempotent producer never writes a
//! sent value twice nor loses an acknowledged one, and the world never panics.

use eos_playground::log::TopicPartition;
use eos_playground::protocol::errors::Errors;
use eos_playground::scenario::{parse, print_step, step_for_action, StepKind};
use eos_playground::sim::{
    Action, ClusterConfig, Direction, EventKind, Fault, FaultMark, MessageMatch, MessageStrike,
    Node, World,
};
use eos_playground::view::timeline::timeline;
use proptest::prelude::*;

fn round_trip(action: &Action) -> Result<(), String> {
    let text = print_step(&step_for_action(action.clone()))
        .ok_or_else(|| format!("{action:?} does not print"))?;
    let scenario = parse(&text).map_err(|e| format!("{text}: {e}"))?;
    match scenario.steps.as_slice() {
        [step] if step.kind == StepKind::Act(action.clone()) => Ok(()),
        other => Err(format!(
            "{action:?} printed as `{text}` parsed as {other:?}"
        )),
    }
}

fn node() -> BoxedStrategy<Node> {
    prop_oneof![
        "[a-z][a-z0-9-]{0,5}".prop_map(Node::Client),
        // Names that read like another node, or need quotes, still round-trip.
        prop_oneof![
            Just("broker-1".to_string()),
            Just("controller".to_string()),
            Just("client:x".to_string()),
            Just("a b".to_string()),
            Just("x=y".to_string()),
        ]
        .prop_map(Node::Client),
        (0i32..4).prop_map(Node::Broker),
        Just(Node::LONE_CONTROLLER),
    ]
    .boxed()
}

fn api() -> BoxedStrategy<String> {
    prop_oneof![
        Just("Produce".to_string()),
        Just("EndTxn".to_string()),
        Just("WriteTxnMarkers".to_string()),
        Just("FindCoordinator".to_string()),
        Just("InitProducerId".to_string()),
        Just("Fetch".to_string()),
    ]
    .boxed()
}

/// A `MessageMatch` over the given APIs and nodes (the round-trip and chaos tests differ
/// only in those).
fn matching_from(
    api: BoxedStrategy<String>,
    node: fn() -> BoxedStrategy<Node>,
) -> BoxedStrategy<MessageMatch> {
    (
        proptest::option::of(api),
        proptest::option::of(prop_oneof![
            Just(Direction::Request),
            Just(Direction::Response)
        ]),
        proptest::option::of(node()),
        proptest::option::of(node()),
    )
        .prop_map(|(api, direction, from, to)| MessageMatch {
            api,
            direction,
            from,
            to,
        })
        .boxed()
}

fn matching() -> BoxedStrategy<MessageMatch> {
    matching_from(api(), node)
}

fn error() -> BoxedStrategy<Errors> {
    prop_oneof![
        Just(Errors::NotLeaderOrFollower),
        Just(Errors::CoordinatorNotAvailable),
        Just(Errors::NotCoordinator),
        Just(Errors::ConcurrentTransactions),
        Just(Errors::RequestTimedOut),
        Just(Errors::OutOfOrderSequenceNumber),
    ]
    .boxed()
}

fn fault() -> BoxedStrategy<Fault> {
    prop_oneof![
        (matching(), any::<bool>()).prop_map(|(matching, every)| Fault::Drop { matching, every }),
        (matching(), 0i64..5000, any::<bool>()).prop_map(|(matching, ms, every)| Fault::Delay {
            matching,
            ms,
            every
        }),
        (matching(), any::<bool>())
            .prop_map(|(matching, every)| Fault::Duplicate { matching, every }),
        matching().prop_map(|matching| Fault::Hold { matching }),
        (node(), node())
            .prop_filter("two nodes", |(a, b)| a != b)
            .prop_map(|(a, b)| Fault::Cut { a, b }),
        (api(), error()).prop_map(|(api, error)| Fault::Error { api, error }),
        proptest::option::of("[a-z][a-z0-9]{0,4}").prop_map(|from| Fault::DropNextRequest { from }),
        proptest::option::of("[a-z][a-z0-9]{0,4}").prop_map(|to| Fault::DropNextResponse { to }),
        api().prop_map(|api| Fault::HoldRequests { api }),
        (any::<u64>(), strike()).prop_map(|(id, strike)| Fault::Message { id, strike }),
    ]
    .boxed()
}

fn strike() -> BoxedStrategy<MessageStrike> {
    prop_oneof![
        Just(MessageStrike::Drop),
        (0i64..5000).prop_map(|ms| MessageStrike::Delay { ms }),
        Just(MessageStrike::Duplicate),
        Just(MessageStrike::Hold),
    ]
    .boxed()
}

fn fault_action() -> BoxedStrategy<Action> {
    prop_oneof![
        4 => fault().prop_map(|fault| Action::ArmFault { fault }),
        1 => api().prop_map(|api| Action::ReleaseHeld { api }),
        1 => any::<u64>().prop_map(|id| Action::ReleaseMessage { id }),
        1 => (node(), node())
            .prop_filter("two nodes", |(a, b)| a != b)
            .prop_map(|(a, b)| Action::HealLink { a, b }),
        1 => Just(Action::ClearFaults),
    ]
    .boxed()
}

#[test]
fn every_fault_step_round_trips() {
    let m = |api: &str| MessageMatch {
        api: Some(api.into()),
        ..MessageMatch::default()
    };
    let p = Node::Client("p".into());
    let actions = [
        Action::ArmFault {
            fault: Fault::Drop {
                matching: MessageMatch {
                    api: Some("Produce".into()),
                    direction: Some(Direction::Request),
                    from: Some(p.clone()),
                    to: Some(Node::Broker(1)),
                },
                every: true,
            },
        },
        Action::ArmFault {
            fault: Fault::Delay {
                matching: m("EndTxn"),
                ms: 500,
                every: false,
            },
        },
        Action::ArmFault {
            fault: Fault::Duplicate {
                matching: m("Produce"),
                every: false,
            },
        },
        Action::ArmFault {
            fault: Fault::Hold {
                matching: m("Fetch"),
            },
        },
        Action::ArmFault {
            fault: Fault::Cut {
                a: p.clone(),
                b: Node::Broker(1),
            },
        },
        Action::ArmFault {
            fault: Fault::Error {
                api: "EndTxn".into(),
                error: Errors::NotCoordinator,
            },
        },
        Action::ReleaseHeld {
            api: "Fetch".into(),
        },
        Action::ReleaseMessage { id: 7 },
        Action::HealLink {
            a: p,
            b: Node::Broker(1),
        },
        Action::ClearFaults,
        Action::DropNextRequest { from: None },
        Action::DropNextResponse {
            to: Some("p".into()),
        },
        Action::HoldMarkers,
        Action::ReleaseMarkers,
    ];
    for a in &actions {
        round_trip(a).unwrap();
    }
    // The syntax the docs show.
    for text in [
        "fault drop api=Produce from=p to=broker-1 every",
        "fault drop response api=Produce to=p",
        "fault delay 500 api=EndTxn",
        "fault delay 500ms request every",
        "fault duplicate api=Produce",
        "fault hold api=Fetch",
        "fault release api=Fetch",
        "fault release id=12",
        "fault cut p broker-1",
        "fault cut broker-1 controller",
        "fault heal p broker-1",
        "fault error api=EndTxn NOT_COORDINATOR",
        "fault clear",
        "fault drop next-request from=p",
        "fault hold-requests api=WriteTxnMarkers",
        "fault drop id=3",
        "fault delay 250 id=3",
        "fault duplicate id=3",
        "fault hold id=3",
    ] {
        let s = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let StepKind::Act(a) = &s.steps[0].kind else {
            panic!("{text}")
        };
        round_trip(a).unwrap();
    }
}

#[test]
fn bad_fault_steps_say_what_is_wrong() {
    for (text, says) in [
        ("fault", "expected drop"),
        ("fault fly", "unknown fault"),
        ("fault delay", "delay in ms"),
        ("fault delay -5", "takes 0 to 2147483647 ms"),
        ("fault drop api=Produce sometimes", "unexpected `sometimes`"),
        ("fault drop kind=x", "unknown option"),
        ("fault hold every", "unexpected `every`"),
        ("fault release", "api=API or id=N"),
        ("fault release id=x", "message id"),
        ("fault cut p", "second node"),
        ("fault cut p p", "two different nodes"),
        ("fault heal p broker-1 x", "unexpected"),
        ("fault error api=EndTxn", "error name"),
        ("fault error api=EndTxn NOT_AN_ERROR", "unknown error"),
        ("fault error api=EndTxn NONE", "unknown error"),
        ("fault error NOT_COORDINATOR", "api=API"),
        ("fault clear now", "unexpected"),
        ("fault drop id=x", "message id"),
        ("fault drop id=3 every", "unexpected"),
    ] {
        let e = parse(text).expect_err(text);
        assert!(e.message().contains(says), "{text}: {e}");
    }
}

fn world() -> World {
    let mut w = World::new(ClusterConfig::default());
    w.apply(&Action::CreateTopic {
        name: "t".into(),
        partitions: 1,
        configs: vec![],
    })
    .unwrap();
    w.apply(&Action::CreateProducer {
        name: "p".into(),
        configs: vec![("request.timeout.ms".into(), "1000".into())],
    })
    .unwrap();
    send(&mut w, "a");
    w
}

fn send(w: &mut World, v: &str) {
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: TopicPartition::new("t", 0),
        values: vec![v.into()],
    })
    .unwrap();
    w.apply(&Action::Flush {
        producer: "p".into(),
    })
    .unwrap();
}

fn arm(w: &mut World, fault: Fault) {
    w.apply(&Action::ArmFault { fault }).unwrap();
}

fn marks(w: &World) -> Vec<FaultMark> {
    w.events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FaultStruck { mark, .. } => Some(mark.clone()),
            _ => None,
        })
        .collect()
}

fn produce() -> MessageMatch {
    MessageMatch {
        api: Some("Produce".into()),
        direction: Some(Direction::Request),
        ..MessageMatch::default()
    }
}

#[test]
fn each_fault_strikes_and_the_timeline_marks_it() {
    let mut w = world();
    arm(
        &mut w,
        Fault::Duplicate {
            matching: produce(),
            every: false,
        },
    );
    arm(
        &mut w,
        Fault::Delay {
            matching: produce(),
            ms: 300,
            every: false,
        },
    );
    send(&mut w, "b");
    send(&mut w, "c");
    arm(
        &mut w,
        Fault::Error {
            api: "Produce".into(),
            error: Errors::NotLeaderOrFollower,
        },
    );
    send(&mut w, "d");
    arm(
        &mut w,
        Fault::Cut {
            a: Node::Client("p".into()),
            b: Node::Broker(1),
        },
    );
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: TopicPartition::new("t", 0),
        values: vec!["e".into()],
    })
    .unwrap();
    w.apply(&Action::Advance { ms: 1500 }).unwrap();
    w.apply(&Action::HealLink {
        a: Node::Broker(1),
        b: Node::Client("p".into()),
    })
    .unwrap();
    assert!(
        w.network().faults().is_empty(),
        "{:?}",
        w.network().faults()
    );
    w.apply(&Action::Flush {
        producer: "p".into(),
    })
    .unwrap();
    let got = marks(&w);
    assert!(matches!(got[0], FaultMark::Duplicated { .. }), "{got:?}");
    assert_eq!(got[1], FaultMark::Delayed { ms: 300 });
    assert_eq!(
        got[2],
        FaultMark::ErrorInjected {
            error: Errors::NotLeaderOrFollower
        }
    );
    assert_eq!(got[3], FaultMark::Cut);
    let view = w.log_view(&TopicPartition::new("t", 0)).unwrap();
    let values: Vec<&str> = view
        .batches
        .iter()
        .flat_map(|b| b.records.iter().map(|r| r.1.as_str()))
        .collect();
    assert_eq!(values, ["a", "b", "c", "d", "e"]);
    assert!(w.events().iter().any(|e| matches!(
        &e.kind,
        EventKind::ErrorInjected {
            error: Errors::NotLeaderOrFollower,
            ..
        }
    )));
    let t = timeline(&w, None, &[], 60);
    let shown: Vec<&FaultMark> = t.messages.iter().filter_map(|m| m.mark.as_ref()).collect();
    assert!(shown
        .iter()
        .any(|m| matches!(m, FaultMark::Duplicated { .. })));
    assert!(shown.contains(&&FaultMark::Delayed { ms: 300 }));
    assert!(shown.contains(&&FaultMark::Cut));
    assert!(t.messages.iter().any(|m| m.copy_of.is_some()));
    assert!(t
        .messages
        .iter()
        .any(|m| m.dropped && m.mark == Some(FaultMark::Cut)));
}

#[test]
fn hold_then_release_one_message_reorders_it() {
    let mut w = world();
    arm(
        &mut w,
        Fault::Hold {
            matching: produce(),
        },
    );
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: TopicPartition::new("t", 0),
        values: vec!["late".into()],
    })
    .unwrap();
    w.apply(&Action::Step).unwrap();
    let held: Vec<u64> = w.network().held_ids().collect();
    assert_eq!(held.len(), 1);
    let t = timeline(&w, None, &[], 40);
    assert!(t
        .messages
        .iter()
        .any(|m| m.held && m.mark == Some(FaultMark::Held)));
    // Not held: nothing happens, and it says so.
    w.apply(&Action::ReleaseMessage { id: 9999 }).unwrap();
    w.apply(&Action::ReleaseMessage { id: held[0] }).unwrap();
    assert!(w.network().held().is_empty());
    assert_eq!(w.network().faults().len(), 1, "the hold stays armed");
    w.apply(&Action::Flush {
        producer: "p".into(),
    })
    .unwrap();
    w.apply(&Action::ClearFaults).unwrap();
    assert!(w.network().faults().is_empty());
    let view = w.log_view(&TopicPartition::new("t", 0)).unwrap();
    assert_eq!(view.log_end_offset, 2);
}

#[test]
fn a_cut_broker_controller_link_loses_the_block_request() {
    // The first InitProducerId waits for a block of ids from the controller: with the
    // broker–controller link cut, the request for a block is lost and the producer keeps
    // hearing COORDINATOR_LOAD_IN_PROGRESS.
    let mut w = World::new(ClusterConfig::default());
    arm(
        &mut w,
        Fault::Cut {
            a: Node::Broker(1),
            b: Node::LONE_CONTROLLER,
        },
    );
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
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: TopicPartition::new("t", 0),
        values: vec!["a".into()],
    })
    .unwrap();
    w.apply(&Action::Advance { ms: 1000 }).unwrap();
    assert!(w.events().iter().any(|e| matches!(
        &e.kind,
        EventKind::FaultStruck { api, mark: FaultMark::Cut, .. } if api == "AllocateProducerIds"
    )));
    assert!(w.producers()["p"].acknowledged().is_empty());
}

#[derive(Clone, Debug)]
enum Op {
    Send(u8, u8),
    Fault(Fault),
    Release(String),
    ReleaseOne(u64),
    Heal,
    Clear,
    Step,
    Advance(i64),
}

fn chaos_node() -> BoxedStrategy<Node> {
    prop_oneof![
        Just(Node::Client("p".into())),
        Just(Node::Client("q".into())),
        Just(Node::Broker(1)),
        Just(Node::Broker(2)),
        Just(Node::LONE_CONTROLLER),
    ]
    .boxed()
}

fn chaos_match() -> BoxedStrategy<MessageMatch> {
    matching_from(
        prop_oneof![
            Just("Produce".to_string()),
            Just("InitProducerId".to_string()),
            Just("AllocateProducerIds".to_string()),
        ]
        .boxed(),
        chaos_node,
    )
}

fn chaos_fault() -> BoxedStrategy<Fault> {
    prop_oneof![
        (chaos_match(), any::<bool>())
            .prop_map(|(matching, every)| Fault::Drop { matching, every }),
        (chaos_match(), 0i64..3000, any::<bool>()).prop_map(|(matching, ms, every)| {
            Fault::Delay {
                matching,
                ms,
                every,
            }
        }),
        (chaos_match(), any::<bool>())
            .prop_map(|(matching, every)| Fault::Duplicate { matching, every }),
        chaos_match().prop_map(|matching| Fault::Hold { matching }),
        (chaos_node(), chaos_node())
            .prop_filter("two nodes", |(a, b)| a != b)
            .prop_map(|(a, b)| Fault::Cut { a, b }),
        (
            prop_oneof![
                Just("Produce".to_string()),
                Just("InitProducerId".to_string())
            ],
            error()
        )
            .prop_map(|(api, error)| Fault::Error { api, error }),
        Just(Fault::DropNextRequest { from: None }),
        Just(Fault::DropNextResponse { to: None }),
        (1u64..80, strike()).prop_map(|(id, strike)| Fault::Message { id, strike }),
    ]
    .boxed()
}

fn op() -> BoxedStrategy<Op> {
    prop_oneof![
        5 => (0u8..2, 0u8..2).prop_map(|(p, tp)| Op::Send(p, tp)),
        4 => chaos_fault().prop_map(Op::Fault),
        1 => prop_oneof![Just("Produce".to_string()), Just("InitProducerId".to_string())].prop_map(Op::Release),
        1 => (1u64..60).prop_map(Op::ReleaseOne),
        1 => Just(Op::Heal),
        1 => Just(Op::Clear),
        4 => Just(Op::Step),
        2 => (0i64..5000).prop_map(Op::Advance),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::default())]

    /// Every fault action prints and parses back to itself.
    #[test]
    fn fault_actions_round_trip(action in fault_action()) {
        prop_assert_eq!(round_trip(&action), Ok(()));
    }

    /// Random fault schedules on every link (client↔broker, broker↔controller): two
    /// idempotent producers never write a sent value twice nor lose an acknowledged one,
    /// and nothing panics. Faults are cleared at the end so the producers can finish.
    #[test]
    fn idempotent_producers_survive_any_fault_schedule(ops in proptest::collection::vec(op(), 1..40)) {
        let mut w = World::new(ClusterConfig { brokers: 2, ..ClusterConfig::default() });
        w.apply(&Action::CreateTopic { name: "t".into(), partitions: 2, configs: vec![] }).unwrap();
        for p in ["p", "q"] {
            w.apply(&Action::CreateProducer {
                name: p.into(),
                configs: vec![("request.timeout.ms".into(), "1000".into())],
            }).unwrap();
        }
        let mut next = 0u32;
        let mut sent: Vec<String> = Vec::new();
        for op in ops {
            match op {
                Op::Send(p, tp) => {
                    next += 1;
                    let v = format!("v{next}");
                    sent.push(v.clone());
                    w.apply(&Action::Send {
                        producer: ["p", "q"][p as usize].into(),
                        topic_partition: TopicPartition::new("t", tp as i32),
                        values: vec![v],
                    }).unwrap();
                }
                Op::Fault(fault) => { w.apply(&Action::ArmFault { fault }).unwrap(); }
                Op::Release(api) => { w.apply(&Action::ReleaseHeld { api }).unwrap(); }
                Op::ReleaseOne(id) => { w.apply(&Action::ReleaseMessage { id }).unwrap(); }
                Op::Heal => {
                    w.apply(&Action::HealLink { a: Node::Client("p".into()), b: Node::Broker(1) }).unwrap();
                }
                Op::Clear => { w.apply(&Action::ClearFaults).unwrap(); }
                Op::Step => { w.apply(&Action::Step).unwrap(); }
                Op::Advance(ms) => { w.apply(&Action::Advance { ms }).unwrap(); }
            }
        }
        w.apply(&Action::ClearFaults).unwrap();
        for p in ["p", "q"] {
            w.apply(&Action::Flush { producer: p.into() }).unwrap();
        }
        // Dedup holds within one producer epoch: an injected OUT_OF_ORDER answer to a
        // batch the leader did write makes the producer bump its epoch and write it again
        // under the new one (KIP-360, as Kafka's client does), so copies count per epoch.
        let mut in_log: Vec<(String, i16)> = Vec::new();
        for tp in 0..2 {
            let view = w.log_view(&TopicPartition::new("t", tp)).unwrap();
            in_log.extend(view.batches.iter().flat_map(|b| {
                b.records.iter().map(|r| (r.1.clone(), b.producer_epoch))
            }));
        }
        let total = in_log.len();
        in_log.sort();
        in_log.dedup();
        prop_assert_eq!(in_log.len(), total, "a value was written twice in one epoch");
        let in_log: Vec<String> = in_log.into_iter().map(|(v, _)| v).collect();
        for v in &in_log {
            prop_assert!(sent.contains(v), "{} was never sent", v);
        }
        for p in ["p", "q"] {
            for (_, _, _, values) in w.producers()[p].acknowledged() {
                for v in values {
                    prop_assert!(in_log.contains(v), "acknowledged {} missing from the log", v);
                }
            }
        }
        let narrated = w.events().iter().filter(|e| matches!(e.kind, EventKind::MessageSent { .. })).count();
        prop_assert_eq!(w.network().messages_sent(), narrated as u64);
    }
}

#[test]
fn a_message_on_the_wire_can_be_struck_by_id() {
    let mut w = world();
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: TopicPartition::new("t", 0),
        values: vec!["b".into()],
    })
    .unwrap();
    w.apply(&Action::Step).unwrap();
    let id = w.network().in_flight().next().unwrap().id;
    arm(
        &mut w,
        Fault::Message {
            id,
            strike: MessageStrike::Duplicate,
        },
    );
    let copy = w.network().in_flight().map(|e| e.id).max().unwrap();
    assert!(copy > id);
    arm(
        &mut w,
        Fault::Message {
            id: copy,
            strike: MessageStrike::Delay { ms: 700 },
        },
    );
    arm(
        &mut w,
        Fault::Message {
            id,
            strike: MessageStrike::Hold,
        },
    );
    assert_eq!(w.network().held_ids().collect::<Vec<_>>(), [id]);
    arm(
        &mut w,
        Fault::Message {
            id,
            strike: MessageStrike::Drop,
        },
    );
    assert!(w.network().held().is_empty());
    // Gone: nothing happens, and an event says so.
    arm(
        &mut w,
        Fault::Message {
            id,
            strike: MessageStrike::Drop,
        },
    );
    assert!(matches!(
        w.events().last().map(|e| &e.kind),
        Some(EventKind::FaultArmed { .. })
    ));
    assert_eq!(
        marks(&w),
        [
            FaultMark::Duplicated { copy },
            FaultMark::Delayed { ms: 700 },
            FaultMark::Held,
            FaultMark::Dropped
        ]
    );
    assert!(w.network().faults().is_empty(), "never armed");
    w.apply(&Action::Flush {
        producer: "p".into(),
    })
    .unwrap();
    let view = w.log_view(&TopicPartition::new("t", 0)).unwrap();
    assert_eq!(view.log_end_offset, 2, "the copy arrived, once");
    let narrated = w
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::MessageSent { .. }))
        .count();
    assert_eq!(w.network().messages_sent(), narrated as u64);
}
