#![cfg(not(target_arch = "wasm32"))]
//! The scenario language round-trips (print → parse gives the same steps), and
//! replaying any prefix of a scenario reaches exactly the state stepping there did —
//! what time travel and share links rely on.

mod common;

use eos_playground::log::TopicPartition;
use eos_playground::scenario::{parse, print_step, step_for_action, Runner, Scenario, StepKind};
use eos_playground::sim::Action;
use proptest::prelude::*;

/// Free text a learner might type: spaces, quotes, `=`, `#`, braces, non-ASCII.
fn value() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z0-9]{1,6}", "[ a-zA-Z0-9=#\"\\\\{}é가-]{0,10}",]
}

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9-]{0,5}"
}

fn tp() -> impl Strategy<Value = TopicPartition> {
    ("[a-z][a-z0-9]{0,4}", 0i32..4).prop_map(|(t, p)| TopicPartition::new(t, p))
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        (
            name(),
            prop::collection::vec(("[a-z.]{1,8}", value()), 0..3)
        )
            .prop_map(|(name, configs)| Action::CreateProducer { name, configs }),
        (name(), tp(), prop::collection::vec(value(), 1..4)).prop_map(
            |(producer, topic_partition, values)| Action::Send {
                producer,
                topic_partition,
                values
            }
        ),
        (
            name(),
            1i32..5,
            prop::collection::vec(("[a-z.]{1,8}", value()), 0..2)
        )
            .prop_map(|(name, partitions, configs)| Action::CreateTopic {
                name,
                partitions,
                configs
            }),
        name().prop_map(|producer| Action::CommitTransaction { producer }),
        name().prop_map(|producer| Action::InitTransactions { producer }),
        (
            tp(),
            0i64..2000,
            0i16..5,
            0i32..100,
            prop::collection::vec(value(), 1..3),
            proptest::option::of(value()),
            proptest::option::of(value())
        )
            .prop_map(
                |(
                    topic_partition,
                    producer_id,
                    producer_epoch,
                    base_sequence,
                    values,
                    label,
                    transactional_id,
                )| {
                    Action::RawProduce {
                        topic_partition,
                        producer_id,
                        producer_epoch,
                        base_sequence,
                        transactional_id,
                        values,
                        label,
                    }
                }
            ),
        proptest::option::of(name()).prop_map(|to| Action::DropNextResponse { to }),
        (0i64..100_000).prop_map(|ms| Action::Advance { ms }),
        (1i32..4, any::<bool>())
            .prop_map(|(broker, clean)| Action::RestartBroker { broker, clean }),
        Just(Action::HoldMarkers),
        Just(Action::RunUntilIdle),
        (
            name(),
            name(),
            prop::collection::vec((tp(), 0i64..50), 1..3)
        )
            .prop_map(
                |(producer, group_id, offsets)| Action::SendOffsetsToTransaction {
                    producer,
                    group_id,
                    offsets,
                    consumer: None,
                }
            ),
        (name(), prop::collection::vec(tp(), 1..3)).prop_map(|(consumer, partitions)| {
            Action::Assign {
                consumer,
                partitions,
            }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256), .. ProptestConfig::default() })]

    #[test]
    fn printing_and_parsing_round_trips(actions in prop::collection::vec(action(), 1..8), echo in "[ -~]{0,20}") {
        let mut kinds: Vec<StepKind> = actions.into_iter().map(step_for_action).collect();
        kinds.push(StepKind::Echo(echo.trim().to_string()));
        let text: String = kinds.iter().map(|k| print_step(k).expect("printable") + "\n").collect();
        let parsed = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let back: Vec<StepKind> = parsed.steps.into_iter().map(|s| s.kind).collect();
        prop_assert_eq!(back, kinds, "{}", text);
    }
}

fn fingerprints(scenario: &Scenario) -> Vec<u64> {
    let mut runner = Runner::new(scenario.clone());
    let mut prints = vec![runner.world.fingerprint()];
    while !runner.is_done() {
        if runner.step().is_err() {
            break;
        }
        prints.push(runner.world.fingerprint());
    }
    prints
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(24), .. ProptestConfig::default() })]

    /// Stepping back to k (replaying a fresh world to k) is exact, for the built-in
    /// lessons and for random learner sessions.
    #[test]
    fn replaying_a_prefix_reaches_the_same_state(
        ops in prop::collection::vec(0u8..8, 1..25),
        k_frac in 0.0f64..1.0,
    ) {
        let mut text = String::from("topic create t partitions=1\nproducer p create transactional.id=tx\nproducer p init-transactions\nproducer q create\n");
        for (i, op) in ops.iter().enumerate() {
            text.push_str(match op {
                0 => "producer p begin\n",
                1 => "producer p send t-0 a b\n",
                2 => "producer p commit\n",
                3 => "producer p abort\n",
                4 => "drop next-response to=q\n",
                5 => "broker 1 restart crash\n",
                6 => "run 15000\n",
                _ => "producer q send t-0 x\nproducer q flush\n",
            });
            let _ = i;
        }
        let scenario = parse(&text).expect("parses");
        let all = fingerprints(&scenario);
        let k = ((all.len() - 1) as f64 * k_frac) as usize;
        let prefix = Scenario { steps: scenario.steps[..k].to_vec() };
        let replayed = fingerprints(&prefix);
        prop_assert_eq!(replayed.last(), all.get(k));
    }
}

#[test]
fn every_lesson_prints_and_replays() {
    for lesson in eos_playground::scenario::lessons() {
        let scenario = parse(lesson.source).unwrap();
        let reprinted = eos_playground::scenario::print(&scenario);
        let again = parse(&reprinted).unwrap();
        let kinds = |s: &Scenario| {
            s.steps
                .iter()
                .map(|s| (s.kind.clone(), s.title.clone(), s.narration.clone()))
                .collect::<Vec<_>>()
        };
        let titled = scenario
            .steps
            .iter()
            .filter(|s| s.title.is_some() && !s.narration.is_empty())
            .count();
        assert!(
            titled >= 4,
            "{} has narration for only {titled} steps",
            lesson.name
        );
        assert_eq!(kinds(&again), kinds(&scenario), "{}", lesson.name);
        assert_eq!(
            fingerprints(&again).last(),
            fingerprints(&scenario).last(),
            "{}",
            lesson.name
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(512), .. ProptestConfig::default() })]

    /// Any text as a share link: an error or a whole state, never a panic.
    #[test]
    fn share_links_never_panic(text in "\\PC{0,300}", prefix in prop_oneof![Just(""), Just("1."), Just("#1.")]) {
        let _ = eos_playground::scenario::share::decode(&format!("{prefix}{text}"));
    }

    /// A state survives the link, whatever the scenario's characters.
    #[test]
    fn share_links_round_trip(lines in prop::collection::vec("echo [ -~가-힣]{0,30}", 0..12), page in "[a-z]{1,12}") {
        let scenario: String = lines.iter().map(|l| format!("{}\n", l.trim())).collect();
        let steps = eos_playground::scenario::parse(&scenario).map(|s| s.steps.len()).unwrap_or(0);
        let state = eos_playground::scenario::share::SharedState { scenario, step: steps, page, panel: None, lang: None, lesson: None };
        let link = eos_playground::scenario::share::encode(&state).unwrap();
        prop_assert_eq!(eos_playground::scenario::share::decode(&link).unwrap(), state);
    }
}

/// Every `Action` variant's name in this build, as serde's derive lists them (what the
/// enum is, so a new variant shows up here without anyone listing it).
fn action_variants() -> Vec<&'static str> {
    use serde::de::{self, Deserialize, Deserializer, Visitor};
    use std::cell::Cell;
    struct Names(Cell<&'static [&'static str]>);
    impl<'de> Deserializer<'de> for &Names {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(de::Error::custom("reads only an enum's variant names"))
        }
        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _: &'static str,
            variants: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.set(variants);
            Err(de::Error::custom("read the variant names"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
            struct identifier ignored_any
        }
    }
    let names = Names(Cell::new(&[]));
    assert!(Action::deserialize(&names).is_err());
    names.0.get().to_vec()
}

/// The variant name of an action, as serde writes it.
fn variant_name(action: &Action) -> String {
    match serde_json::to_value(action).expect("an action serializes") {
        serde_json::Value::String(name) => name,
        serde_json::Value::Object(map) => map.keys().next().cloned().unwrap_or_default(),
        other => panic!("{action:?} serialized as {other}"),
    }
}

/// One action of every variant, with the optional parts of its step filled in.
fn every_action() -> Vec<Action> {
    use eos_playground::breaks::BreakSwitch;
    use eos_playground::protocol::{CoordinatorType, ElectionType, Request};
    use eos_playground::sim::{Fault, MessageMatch, Node};
    let tp = || TopicPartition::new("t", 1);
    let name = |n: &str| n.to_string();
    let configs = vec![(name("retries"), name("a b"))];
    let mut all = vec![
        Action::SetBrokerConfig {
            key: name("segment.bytes"),
            value: name("1024"),
        },
        Action::CreateTopic {
            name: name("t"),
            partitions: 2,
            configs: configs.clone(),
        },
        Action::CreateProducer {
            name: name("p"),
            configs: configs.clone(),
        },
        Action::Send {
            producer: name("p"),
            topic_partition: tp(),
            values: vec![name("a"), name("b c")],
        },
        Action::Flush {
            producer: name("p"),
        },
        Action::RawInitProducerId,
        Action::RawRequest {
            broker: Some(2),
            request: Request::FindCoordinator {
                key: name("tx"),
                key_type: CoordinatorType::Group,
            },
        },
        Action::RawProduce {
            topic_partition: tp(),
            producer_id: 7,
            producer_epoch: 1,
            base_sequence: 3,
            transactional_id: Some(name("tx")),
            values: vec![name("v")],
            label: Some(name("retry")),
        },
        Action::HoldMarkers,
        Action::ReleaseMarkers,
        Action::HoldRequests {
            api: name("EndTxn"),
        },
        Action::ReleaseRequests {
            api: name("EndTxn"),
        },
        Action::AdminAbortTransaction {
            topic_partition: tp(),
            start_offset: 4,
        },
        Action::AdminDeleteRecords {
            topic_partition: tp(),
            offset: 5,
        },
        Action::AdminElectLeaders {
            election: ElectionType::Unclean,
            partitions: vec![tp()],
        },
        Action::DropNextRequest {
            from: Some(name("p")),
        },
        Action::DropNextResponse { to: None },
        Action::ArmFault {
            fault: Fault::Drop {
                matching: MessageMatch {
                    api: Some(name("Produce")),
                    ..MessageMatch::default()
                },
                every: true,
            },
        },
        Action::ReleaseHeld { api: name("Fetch") },
        Action::ReleaseMessage { id: 9 },
        Action::HealLink {
            a: Node::Broker(1),
            b: Node::Client(name("p")),
        },
        Action::DisarmFault {
            fault: Fault::Cut {
                a: Node::Broker(1),
                b: Node::Broker(2),
            },
        },
        Action::ClearFaults,
        Action::Break {
            switch: BreakSwitch::Fencing,
            on: false,
        },
        Action::Step,
        Action::RunUntilIdle,
        Action::Advance { ms: 250 },
        Action::RestartBroker {
            broker: 1,
            clean: false,
        },
        Action::StopBroker {
            broker: 2,
            clean: true,
        },
        Action::StartBroker { broker: 2 },
        Action::CreateConsumer {
            name: name("c"),
            configs,
        },
        Action::Assign {
            consumer: name("c"),
            partitions: vec![tp(), TopicPartition::new("u", 0)],
        },
        Action::Seek {
            consumer: name("c"),
            topic_partition: tp(),
            offset: 3,
        },
        Action::Poll {
            consumer: name("c"),
        },
        Action::InitTransactions {
            producer: name("p"),
        },
        Action::BeginTransaction {
            producer: name("p"),
        },
        Action::CommitTransaction {
            producer: name("p"),
        },
        Action::AbortTransaction {
            producer: name("p"),
        },
        Action::SendOffsetsToTransaction {
            producer: name("p"),
            group_id: name("g"),
            offsets: vec![(tp(), 6)],
            consumer: Some(name("c")),
        },
        Action::Transform {
            producer: name("p"),
            consumer: name("c"),
            topic: name("out"),
        },
    ];
    #[cfg(feature = "topic-admin")]
    all.extend([
        Action::AlterTopicConfigs {
            name: name("t"),
            configs: vec![(name("cleanup.policy"), name("compact"))],
        },
        Action::CreatePartitions {
            name: name("t"),
            partitions: 3,
            assignment: vec![vec![1, 2], vec![2, 3]],
        },
        Action::DeleteTopic { name: name("t") },
        Action::ReassignPartition {
            topic_partition: tp(),
            replicas: Some(vec![2, 3]),
        },
        Action::ListReassignments {
            partitions: vec![tp()],
        },
    ]);
    #[cfg(feature = "log-cleaner")]
    all.extend([
        Action::CleanLog {
            topic_partition: tp(),
        },
        Action::TakeSnapshot {
            topic_partition: tp(),
        },
        Action::TruncateLog {
            broker: 1,
            topic_partition: tp(),
            offset: 2,
        },
        Action::CorruptFile {
            broker: 1,
            path: name("t-1/00000000000000000000.log"),
            position: Some(12),
        },
    ]);
    #[cfg(feature = "set-epoch")]
    all.extend([
        Action::SetTxnEpoch {
            transactional_id: name("tx"),
            epoch: 3,
        },
        Action::SetProducerEpoch {
            producer: name("p"),
            epoch: 2,
        },
    ]);
    #[cfg(feature = "metadata-log")]
    all.extend([
        Action::StopController { controller: 3000 },
        Action::StartController { controller: 3000 },
    ]);
    #[cfg(feature = "group-membership")]
    all.extend([
        Action::Subscribe {
            consumer: name("c"),
            topics: vec![name("t"), name("u")],
        },
        Action::Unsubscribe {
            consumer: name("c"),
        },
    ]);
    all
}

/// One action of every `Action` variant prints as a step and parses back to itself:
/// a variant the dispatch sends to a family whose printer does not know it would print
/// nothing (and stop a debug build in the printer).
#[test]
fn every_action_variant_prints_and_parses_back() {
    let samples = every_action();
    let sampled: std::collections::BTreeSet<String> = samples.iter().map(variant_name).collect();
    let variants: std::collections::BTreeSet<String> =
        action_variants().into_iter().map(String::from).collect();
    assert_eq!(
        sampled, variants,
        "every_action has one action of each Action variant"
    );
    for action in samples {
        let kind = step_for_action(action.clone());
        let text = print_step(&kind).unwrap_or_else(|| panic!("{action:?} prints nothing"));
        let parsed = parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            parsed.steps.iter().map(|s| &s.kind).collect::<Vec<_>>(),
            vec![&kind],
            "{text}"
        );
    }
}

/// Every `raw …` step the scenario scripts write prints as text that parses back to the
/// same step: the hand-made requests (Fetch and ListOffsets options, markers, filters)
/// that no click records, so no random action above reaches them.
#[test]
fn every_raw_step_in_the_scenarios_prints_and_parses_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    common::scenario_scripts(&root.join("tests/scenarios"), &mut files);
    let mut checked = 0;
    for path in &files {
        let source = std::fs::read_to_string(path).expect("a scenario script reads");
        // A block line never starts with `raw `: blocks hold output, not steps.
        for line in source.lines().filter(|l| l.starts_with("raw ")) {
            let Ok(scenario) = parse(line) else {
                continue; // a line the script expects to be refused
            };
            let kinds: Vec<&StepKind> = scenario.steps.iter().map(|s| &s.kind).collect();
            let text: String = kinds
                .iter()
                .map(|k| print_step(k).unwrap_or_else(|| panic!("{line} prints nothing")))
                .collect();
            let again = parse(&text).unwrap_or_else(|e| panic!("{line} -> {text}: {e}"));
            assert_eq!(
                again.steps.iter().map(|s| &s.kind).collect::<Vec<_>>(),
                kinds,
                "{line} -> {text}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 200, "only {checked} raw steps found");
}
