#![cfg(not(target_arch = "wasm32"))]
//! The view models of the transactions page's fault controls, natively: the menu of a
//! message in flight on the timeline, the network panel (faults in force, cut links,
//! held messages), the transaction rules in force, and describe-producers /
//! find-hanging with abort — each checked by applying the actions they hand out.

use eos_playground::coordinator::transaction::version::TxnFeatures;
use eos_playground::coordinator::transaction::TransactionVersion;
use eos_playground::log::TopicPartition;
use eos_playground::scenario::{self, Replay};
use eos_playground::sim::{Action, ClusterConfig, Fault, FaultMark, MessageMatch, Node, World};
use eos_playground::view::network::{
    clear_action, link_action, link_allowed, network_view, ClearKind,
};
use eos_playground::view::rules::{rules, rules_view, Rule, RuleValue};
use eos_playground::view::timeline::{choice_action, timeline, MessageChoice, TimelineMessage};
use eos_playground::view::txn_admin::admin_view;

fn a(w: &mut World, action: Action) {
    w.apply(&action)
        .unwrap_or_else(|e| panic!("{action:?}: {e}"));
}

fn tp() -> TopicPartition {
    TopicPartition::new("pay", 0)
}

/// One broker, topic `pay`, transactional `p` with a transaction begun and one send
/// accumulated; stepped until its Produce request is on the wire.
fn produce_on_the_wire() -> (World, u64) {
    let mut w = World::new(ClusterConfig::default());
    a(
        &mut w,
        Action::CreateTopic {
            name: "pay".into(),
            partitions: 1,
            configs: vec![],
        },
    );
    a(
        &mut w,
        Action::CreateProducer {
            name: "p".into(),
            configs: vec![("transactional.id".into(), "tx".into())],
        },
    );
    a(
        &mut w,
        Action::InitTransactions {
            producer: "p".into(),
        },
    );
    a(
        &mut w,
        Action::BeginTransaction {
            producer: "p".into(),
        },
    );
    a(
        &mut w,
        Action::Send {
            producer: "p".into(),
            topic_partition: tp(),
            values: vec!["a".into()],
        },
    );
    for _ in 0..10 {
        let produce = w
            .network()
            .in_flight()
            .find(|e| e.body.api_name() == "Produce" && !e.body.is_response())
            .map(|e| e.id);
        if let Some(id) = produce {
            return (w, id);
        }
        a(&mut w, Action::Step);
    }
    panic!("no Produce request went on the wire");
}

fn message(w: &World, id: u64) -> TimelineMessage {
    timeline(w, None, &[], 40)
        .messages
        .into_iter()
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("message #{id} is not on the timeline"))
}

fn leo(w: &World) -> i64 {
    w.log_view(&tp()).expect("log").log_end_offset
}

#[test]
fn a_message_on_the_wire_offers_drop_delay_duplicate_and_hold() {
    let (w, id) = produce_on_the_wire();
    let m = message(&w, id);
    assert!(m.on_wire && !m.held && m.strikeable());
    assert_eq!(m.api, "Produce");
    use MessageChoice::*;
    assert_eq!(m.choices(), &[Drop, Delay, Duplicate, Hold]);
    assert_eq!(
        choice_action(id, Delay, -5),
        Action::ArmFault {
            fault: Fault::Message {
                id,
                strike: eos_playground::sim::MessageStrike::Delay { ms: 0 }
            }
        },
        "a negative delay is no delay"
    );
    assert_eq!(choice_action(id, Release, 0), Action::ReleaseMessage { id });
}

#[test]
fn dropping_a_message_from_the_menu_loses_it_and_the_retry_lands_once() {
    let (mut w, id) = produce_on_the_wire();
    a(&mut w, choice_action(id, MessageChoice::Drop, 0));
    let m = message(&w, id);
    assert!(m.dropped && !m.on_wire && !m.strikeable());
    assert_eq!(m.mark, Some(FaultMark::Dropped));
    assert!(m.choices().is_empty(), "a lost message has no menu");
    a(&mut w, Action::RunUntilIdle);
    assert_eq!(
        leo(&w),
        1,
        "the producer's retry after request.timeout.ms lands once"
    );
}

#[test]
fn delaying_and_duplicating_from_the_menu_mark_the_message() {
    let (mut w, id) = produce_on_the_wire();
    a(&mut w, choice_action(id, MessageChoice::Delay, 500));
    let m = message(&w, id);
    assert_eq!(m.mark, Some(FaultMark::Delayed { ms: 500 }));
    assert!(m.on_wire, "a delayed message is still on its way");
    a(&mut w, choice_action(id, MessageChoice::Duplicate, 0));
    let view = timeline(&w, None, &[], 40);
    let copy = view
        .messages
        .iter()
        .find(|m| m.copy_of == Some(id))
        .expect("the copy is on the timeline");
    assert!(copy.on_wire);
    a(&mut w, Action::RunUntilIdle);
    assert_eq!(
        leo(&w),
        1,
        "the duplicate is a duplicate batch: appended once"
    );
}

#[test]
fn a_held_message_offers_drop_and_release_and_the_network_panel_lists_it() {
    let (mut w, id) = produce_on_the_wire();
    a(&mut w, choice_action(id, MessageChoice::Hold, 0));
    let m = message(&w, id);
    assert!(m.held && !m.on_wire);
    assert_eq!(m.choices(), &[MessageChoice::Drop, MessageChoice::Release]);
    let net = network_view(&w);
    assert_eq!(net.held.len(), 1);
    assert_eq!(net.held[0].id, id);
    assert_eq!(net.held[0].api, "Produce");
    assert_eq!(net.held[0].from, Node::Client("p".into()));
    a(&mut w, net.held[0].release.clone());
    assert!(network_view(&w).held.is_empty());
    assert!(message(&w, id).on_wire, "released: on its way again");
    a(&mut w, Action::RunUntilIdle);
    assert_eq!(leo(&w), 1);
}

#[test]
fn the_network_panel_cuts_heals_and_clears_each_fault() {
    let (mut w, _) = produce_on_the_wire();
    let view = network_view(&w);
    let (p, b1) = (Node::Client("p".into()), Node::Broker(1));
    assert_eq!(view.nodes, vec![p.clone(), b1.clone()]);
    assert!(link_allowed(&p, &b1) && link_allowed(&b1, &Node::Broker(2)));
    assert!(!link_allowed(&p, &Node::Client("q".into())) && !link_allowed(&b1, &b1));
    assert_eq!(link_action(&view, &p, &p), None);
    let cut = link_action(&view, &p, &b1).expect("a client-broker link");
    assert_eq!(
        cut,
        Action::ArmFault {
            fault: Fault::Cut {
                a: p.clone(),
                b: b1.clone()
            }
        }
    );
    a(&mut w, cut);
    let every_drop = Fault::Drop {
        matching: MessageMatch {
            api: Some("EndTxn".into()),
            ..MessageMatch::default()
        },
        every: true,
    };
    a(
        &mut w,
        Action::ArmFault {
            fault: every_drop.clone(),
        },
    );
    let hold = Fault::Hold {
        matching: MessageMatch {
            api: Some("Produce".into()),
            ..MessageMatch::default()
        },
    };
    a(
        &mut w,
        Action::ArmFault {
            fault: hold.clone(),
        },
    );
    let view = network_view(&w);
    assert!(view.is_cut(&b1, &p), "a cut is both ways");
    let steps: Vec<&str> = view.faults.iter().map(|f| f.step.as_str()).collect();
    assert_eq!(
        steps,
        [
            "fault cut p broker-1",
            "fault drop api=EndTxn every",
            "fault hold api=Produce"
        ]
    );
    let kinds: Vec<ClearKind> = view.faults.iter().map(|f| f.clear_kind).collect();
    assert_eq!(
        kinds,
        [ClearKind::Heal, ClearKind::Disarm, ClearKind::Release]
    );
    assert_eq!(
        link_action(&view, &b1, &p),
        Some(Action::HealLink {
            a: b1.clone(),
            b: p.clone()
        }),
        "a cut link's button heals it"
    );
    // Clear the middle one: the others stay in force, in order.
    a(&mut w, view.faults[1].clear.clone());
    let left: Vec<Fault> = network_view(&w)
        .faults
        .into_iter()
        .map(|f| f.fault)
        .collect();
    assert_eq!(
        left,
        vec![
            Fault::Cut {
                a: p.clone(),
                b: b1.clone()
            },
            hold.clone()
        ]
    );
    for f in network_view(&w).faults {
        a(&mut w, f.clear);
    }
    assert!(w.network().faults().is_empty());
    assert_eq!(clear_action(&every_drop).0, ClearKind::Disarm);
}

#[test]
fn clearing_a_hold_lets_its_messages_go() {
    let (mut w, id) = produce_on_the_wire();
    let hold = Fault::Hold {
        matching: MessageMatch {
            api: Some("Produce".into()),
            ..MessageMatch::default()
        },
    };
    a(&mut w, choice_action(id, MessageChoice::Drop, 0));
    a(&mut w, Action::ArmFault { fault: hold });
    // The retry after request.timeout.ms is held.
    a(&mut w, Action::Advance { ms: 40_000 });
    let view = network_view(&w);
    assert_eq!(view.held.len(), 1, "{:?}", view.held);
    assert_eq!(leo(&w), 0);
    a(&mut w, view.faults[0].clear.clone());
    assert!(network_view(&w).held.is_empty());
    a(&mut w, Action::RunUntilIdle);
    assert_eq!(leo(&w), 1);
}

#[test]
fn the_rules_in_force_follow_transaction_version_and_verification() {
    use RuleValue::*;
    let tv = |v: i16, verification: bool| {
        rules(TxnFeatures {
            transaction_version: TransactionVersion(v),
            verification,
        })
    };
    let v2 = tv(2, true);
    assert_eq!((v2.cluster_version, v2.client_version), (2, 2));
    assert!(!v2.can_hang);
    assert_eq!(
        v2.rules,
        vec![
            (Rule::AddPartitions, LeaderAddsPartitions),
            (Rule::EpochPerTransaction, EpochBumped),
            (Rule::MarkerEpoch, MarkerBumpedEpoch),
            (Rule::EndTxnCheck, EndTxnSameEpochOrRetry),
            (Rule::LeaderCheck, LeaderAddsItself),
        ]
    );
    assert_eq!(
        tv(2, false).rules,
        v2.rules,
        "TV2 needs no verification switch"
    );
    let v1 = tv(1, false);
    assert_eq!((v1.cluster_version, v1.client_version), (1, 0));
    assert!(v1.can_hang && !v1.verification);
    assert_eq!(
        v1.rules,
        vec![
            (Rule::AddPartitions, ClientAddsPartitions),
            (Rule::EpochPerTransaction, EpochKept),
            (Rule::MarkerEpoch, MarkerTransactionEpoch),
            (Rule::EndTxnCheck, EndTxnSameEpoch),
            (Rule::LeaderCheck, LeaderChecksNothing),
        ]
    );
    let v1v = tv(1, true);
    assert!(!v1v.can_hang);
    assert_eq!(v1v.rules[4], (Rule::LeaderCheck, LeaderVerifies));
    assert_eq!(tv(0, true).client_version, 0);
    let w = World::new(ClusterConfig {
        transaction_version: 1,
        transaction_verification: false,
        ..ClusterConfig::default()
    });
    assert_eq!(rules_view(&w), v1);
    assert_eq!(rules_view(&World::new(ClusterConfig::default())), v2);
}

/// The hanging-transaction lesson up to (not including) the section titled `upto`.
fn lesson_until(upto: &str) -> World {
    let source = scenario::lesson("hanging-transaction")
        .expect("lesson")
        .source;
    let cut = source.find(upto).expect("section");
    let parsed = scenario::parse(&source[..cut]).expect("parses");
    Replay::to(parsed, usize::MAX).into_world()
}

#[test]
fn the_hanging_transaction_is_open_then_hanging_then_aborted() {
    let w = lesson_until("## kafka-transactions.sh find-hanging");
    let v = admin_view(&w, &tp()).expect("a leader");
    assert_eq!(v.open.len(), 1, "{:?}", v.open);
    let open = &v.open[0];
    assert_eq!(open.start_offset, 2);
    assert!(!open.hanging, "not yet past --max-transaction-timeout");
    assert_eq!(v.max_transaction_timeout_ms, 15 * 60 * 1000);
    let row = v
        .producers
        .iter()
        .find(|p| p.producer_id == open.producer_id)
        .expect("describe-producers lists it");
    assert_eq!(row.current_txn_start, Some(2));
    assert_eq!(w.log_view(&tp()).expect("log").last_stable_offset, 2);

    let mut w = lesson_until("## kafka-transactions.sh abort");
    let v = admin_view(&w, &tp()).expect("a leader");
    let hanging: Vec<_> = v.hanging().collect();
    assert_eq!(hanging.len(), 1);
    assert!(hanging[0].open_ms > 15 * 60 * 1000);
    assert_eq!(
        hanging[0].abort,
        Action::AdminAbortTransaction {
            topic_partition: tp(),
            start_offset: 2
        }
    );
    a(&mut w, hanging[0].abort.clone());
    let v = admin_view(&w, &tp()).expect("a leader");
    assert!(v.open.is_empty() && v.hanging().next().is_none());
    let log = w.log_view(&tp()).expect("log");
    assert_eq!(
        log.last_stable_offset, log.high_watermark,
        "the LSO moved on"
    );
    assert!(admin_view(&w, &TopicPartition::new("nope", 0)).is_none());
}

/// The transactions page's world (three brokers), as "pause after each click" drives
/// it: the Produce dropped from the timeline is sent again and lands once.
#[test]
fn on_the_transactions_page_a_dropped_produce_lands_once_after_the_run() {
    use eos_playground::view::page::{click, ClickContext, Page, TXN_PRODUCER};
    let mut w = Replay::to(
        scenario::scenario_of(Page::Transactions.setup()),
        usize::MAX,
    )
    .into_world();
    let cx = ClickContext { step_mode: true };
    let producer = || TXN_PRODUCER.to_string();
    let clicks = |w: &mut World, action: Action| {
        for a in click(Page::Transactions, action, w, cx) {
            w.apply(&a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        }
    };
    clicks(
        &mut w,
        Action::InitTransactions {
            producer: producer(),
        },
    );
    clicks(
        &mut w,
        Action::BeginTransaction {
            producer: producer(),
        },
    );
    let tp = Page::Transactions.partition();
    clicks(
        &mut w,
        Action::Send {
            producer: producer(),
            topic_partition: tp.clone(),
            values: vec!["a1".into()],
        },
    );
    let mut id = None;
    for _ in 0..5 {
        clicks(&mut w, Action::Step);
        id = timeline(&w, None, &[], 40)
            .messages
            .iter()
            .find(|m| m.api == "Produce" && m.on_wire)
            .map(|m| m.id);
        if id.is_some() {
            break;
        }
    }
    let id = id.expect("a Produce on the wire");
    clicks(&mut w, choice_action(id, MessageChoice::Drop, 0));
    clicks(&mut w, Action::RunUntilIdle);
    let log = w.log_view(&tp).expect("log");
    assert_eq!(
        log.high_watermark,
        1,
        "{:#?}",
        &w.events()[w.events().len() - 30..]
    );
}

/// The clear button's `DisarmFault` prints as `fault disarm …` and parses back to the
/// same action (share links and time travel carry it), for every fault kind it clears;
/// a strike by id is never armed, so it cannot be disarmed.
#[test]
fn disarm_prints_and_parses_back() {
    use eos_playground::protocol::errors::Errors;
    use eos_playground::scenario::{parse, print_step, step_for_action, StepKind};
    use eos_playground::sim::Direction;
    let m = MessageMatch {
        api: Some("Produce".into()),
        direction: Some(Direction::Request),
        from: Some(Node::Client("p".into())),
        to: Some(Node::Broker(2)),
    };
    let faults = [
        Fault::DropNextRequest {
            from: Some("p".into()),
        },
        Fault::DropNextResponse { to: None },
        Fault::HoldRequests {
            api: "EndTxn".into(),
        },
        Fault::Drop {
            matching: m.clone(),
            every: true,
        },
        Fault::Delay {
            matching: m.clone(),
            ms: 250,
            every: false,
        },
        Fault::Duplicate {
            matching: MessageMatch::default(),
            every: true,
        },
        Fault::Hold { matching: m },
        Fault::Cut {
            a: Node::Broker(1),
            b: Node::LONE_CONTROLLER,
        },
        Fault::Error {
            api: "AddPartitionsToTxn".into(),
            error: Errors::ConcurrentTransactions,
        },
    ];
    for fault in faults {
        let action = Action::DisarmFault { fault };
        let text = print_step(&step_for_action(action.clone())).expect("prints");
        assert!(text.starts_with("fault disarm "), "{text}");
        let parsed = parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            parsed.steps.iter().map(|s| &s.kind).collect::<Vec<_>>(),
            vec![&StepKind::Act(action)],
            "{text}"
        );
    }
    let err = parse("fault disarm drop id=3").expect_err("a strike by id is never armed");
    assert!(err.to_string().contains("expected an armed fault"), "{err}");
}
