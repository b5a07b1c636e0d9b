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
