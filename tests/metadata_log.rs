#![cfg(all(not(target_arch = "wasm32"), feature = "metadata-log"))]
//! The controller's metadata log (`__cluster_metadata`): replayed from empty, it
//! gives the cluster the live controller has — brokers, topics, partitions, configs
//! and the next producer id — after every step of every scenario script and of
//! random schedules of broker failures, cut links and topic changes; and producer-id
//! blocks are never handed out twice.

mod common;

use std::path::Path;

use eos_playground::metadata::metadata_log::{MetadataImage, MetadataRecord};
use eos_playground::scenario::{parse, Runner};
use eos_playground::sim::World;
use proptest::prelude::*;

/// Fails with the step when the replayed log and the controller disagree, or when a
/// `ProducerIdsRecord` does not move past the previous one.
fn check(world: &World, at: &str) -> Result<(), String> {
    let log = world.metadata_log();
    let replayed = MetadataImage::replay(log.records().map(|(_, r)| r))
        .map_err(|e| format!("{at}: a record does not replay: {:?}", e.record))?;
    let live = world.controller_image();
    if replayed != live {
        return Err(format!(
            "{at}: the replayed log differs from the controller\nreplayed: {replayed:?}\nlive:     {live:?}"
        ));
    }
    // The quorum's copies: none past the log, and the high watermark on it.
    let quorum = world.controller_quorum();
    if let Some(v) = quorum.voters().find(|v| v.end_offset() > log.end_offset()) {
        return Err(format!(
            "{at}: controller {} has {} records, the log {}",
            v.id(),
            v.end_offset(),
            log.end_offset()
        ));
    }
    if quorum.high_watermark() > log.end_offset() {
        return Err(format!("{at}: the quorum's HW is past the log's end"));
    }
    let mut next = 0;
    for (offset, record) in log.records() {
        if let MetadataRecord::ProducerIds {
            next_producer_id, ..
        } = record
        {
            if *next_producer_id <= next {
                return Err(format!(
                    "{at}: ProducerIdsRecord at offset {offset} does not move past {next}"
                ));
            }
            next = *next_producer_id;
        }
    }
    Ok(())
}

/// Plays a script step by step (a refused step is skipped, as the transcript shows
/// it) and checks the log after each one.
fn play(name: &str, source: &str) -> Result<(), String> {
    let scenario = parse(source).map_err(|e| format!("{name}: {e}"))?;
    let mut runner = Runner::new(scenario);
    while !runner.is_done() {
        let line = runner.current_step().map_or(0, |s| s.line);
        if runner.step().is_err() {
            runner.skip();
        }
        check(&runner.world, &format!("{name}:{line}"))?;
    }
    Ok(())
}

#[test]
fn the_log_replays_to_the_controller_after_every_step_of_the_controller_scripts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["controller", "replication", "topics", "restart"] {
        common::scenario_scripts(&root.join("tests/scenarios").join(dir), &mut files);
    }
    assert!(files.len() >= 20, "only {} scripts found", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let source = std::fs::read_to_string(path).unwrap();
            play(&path.display().to_string(), &source).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_broken_log_is_caught() {
    // The check itself can fail: a log with a partition change dropped no longer
    // replays to the controller.
    let source = "cluster brokers=3\n\
        topic create t partitions=1 replication.factor=3\n\
        broker 1 stop crash\n\
        run 10000\n";
    let scenario = parse(source).unwrap();
    let mut runner = Runner::new(scenario);
    while !runner.is_done() {
        runner.step().unwrap();
    }
    let records: Vec<MetadataRecord> = runner
        .world
        .metadata_log()
        .records()
        .map(|(_, r)| r.clone())
        .filter(|r| !matches!(r, MetadataRecord::PartitionChange(_)))
        .collect();
    let replayed = MetadataImage::replay(&records).unwrap();
    assert_ne!(replayed, runner.world.controller_image());
    check(&runner.world, "whole log").unwrap();
}

#[derive(Clone, Debug)]
enum Op {
    Stop(i32, bool),
    Start(i32),
    Cut(i32),
    Heal(i32),
    Topic(u8, i32, i32),
    AlterMinIsr(u8, i32),
    Delete(u8),
    Producer(u8),
    Elect,
    ElectUnclean,
    Unclean(u8),
    Grow(u8, i32),
    Run(i64),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => ((1i32..4), any::<bool>()).prop_map(|(b, clean)| Op::Stop(b, clean)),
        2 => (1i32..4).prop_map(Op::Start),
        1 => (1i32..4).prop_map(Op::Cut),
        1 => (1i32..4).prop_map(Op::Heal),
        2 => ((0u8..3), (1i32..3), (1i32..4)).prop_map(|(t, p, rf)| Op::Topic(t, p, rf)),
        1 => ((0u8..3), (1i32..4)).prop_map(|(t, m)| Op::AlterMinIsr(t, m)),
        1 => (0u8..3).prop_map(Op::Delete),
        2 => (0u8..4).prop_map(Op::Producer),
        1 => Just(Op::Elect),
        1 => Just(Op::ElectUnclean),
        1 => (0u8..3).prop_map(Op::Unclean),
        1 => ((0u8..3), (2i32..5)).prop_map(|(t, n)| Op::Grow(t, n)),
        3 => (1i64..12_000).prop_map(Op::Run),
    ]
}

fn line(op: &Op) -> String {
    match op {
        Op::Stop(b, clean) => format!("broker {b} stop {}", if *clean { "clean" } else { "crash" }),
        Op::Start(b) => format!("broker {b} start"),
        Op::Cut(b) => format!("fault cut broker-{b} controller"),
        Op::Heal(b) => format!("fault heal broker-{b} controller"),
        Op::Topic(t, p, rf) => {
            format!(
                "topic create t{t} partitions={p} replication.factor={rf} min.insync.replicas=2"
            )
        }
        Op::AlterMinIsr(t, m) => format!("topic alter-config t{t} min.insync.replicas={m}"),
        Op::Delete(t) => format!("topic delete t{t}"),
        // A new producer asks for a producer id: blocks come from the controller.
        Op::Producer(n) => {
            format!("producer p{n} create\nproducer p{n} send t0-0 x\nproducer p{n} flush")
        }
        Op::Elect => "admin elect-leaders all".to_string(),
        Op::ElectUnclean => "admin elect-leaders all election-type=UNCLEAN".to_string(),
        Op::Unclean(t) => format!("topic alter-config t{t} unclean.leader.election.enable=true"),
        Op::Grow(t, n) => format!("topic create-partitions t{t} partitions={n}"),
        Op::Run(ms) => format!("run {ms}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(24), .. ProptestConfig::default() })]

    #[test]
    fn the_log_replays_to_the_controller_whatever_fails(
        elr in any::<bool>(),
        ops in proptest::collection::vec(op(), 1..30),
    ) {
        let mut source = format!(
            "cluster brokers=3 eligible.leader.replicas.enable={elr}\ntopic create t0 partitions=2 replication.factor=3\n"
        );
        for op in &ops {
            source.push_str(&line(op));
            source.push('\n');
        }
        if let Err(e) = play("schedule", &source) {
            return Err(TestCaseError::fail(format!("{e}\n{source}")));
        }
    }
}
