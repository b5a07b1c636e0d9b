//! A partition folder brought into the playground and the playground's disk taken out
//! of it: the disk zipped as `--export` lays it out reads back as the same files and
//! the same `eos inspect` report; "continue from here" opens a folder with the
//! broker's own recovery (valid prefix, producer state from snapshot and log), so a
//! retry of a batch the folder holds is a duplicate and a new producer's sends follow
//! on; damage is cut where Kafka's recovery cuts it; a bad folder name is refused.

use eos_playground::broker::BrokerEvent;
use eos_playground::inspect;
use eos_playground::log::TopicPartition;
use eos_playground::scenario::{self, Replay};
use eos_playground::sim::{Action, ClusterConfig, EventKind, SimErrorKind, World};
use eos_playground::zip;

/// An idempotent producer's three batches on pay-0, a snapshot, two more batches.
const SCRIPT: &str = "\
cluster brokers=1
topic create pay partitions=1
producer p create enable.idempotence=true
producer p send pay-0 a b
producer p flush
producer p send pay-0 c
producer p flush
producer p send pay-0 d
producer p flush
snapshot pay-0
producer p send pay-0 e f
producer p flush
producer p send pay-0 g
producer p flush
";

fn world(script: &str) -> World {
    let scenario = scenario::parse(script).expect("the script parses");
    let replay = Replay::to(scenario, usize::MAX);
    assert_eq!(replay.error(), None);
    replay.world().clone()
}

fn pay0() -> TopicPartition {
    TopicPartition::new("pay", 0)
}

/// The files of `dir` in `files`, by their name in the folder.
fn folder(files: &[(String, Vec<u8>)], dir: &str) -> Vec<(String, Vec<u8>)> {
    files
        .iter()
        .filter_map(|(p, b)| Some((p.strip_prefix(&format!("{dir}/"))?.to_string(), b.clone())))
        .collect()
}

fn apply(w: &mut World, action: Action) {
    w.apply(&action)
        .unwrap_or_else(|e| panic!("{action:?}: {e}"));
}

#[test]
fn the_disk_zipped_reads_back_as_the_same_files_and_the_same_inspect_report() {
    let w = world(SCRIPT);
    let files = w.disk_files();
    assert!(files
        .iter()
        .any(|(p, _)| p == "pay-0/00000000000000000000.log"));
    assert!(files
        .iter()
        .any(|(p, _)| p.starts_with("pay-0/") && p.ends_with(".snapshot")));
    let zipped = w.disk_zip();
    let back = zip::read(&zipped).expect("its own zip reads");
    assert_eq!(back, files);
    let pay: Vec<(String, Vec<u8>)> = files
        .iter()
        .filter(|(p, _)| p.starts_with("pay-0/"))
        .cloned()
        .collect();
    let report = inspect::inspect(&pay);
    assert_eq!(
        inspect::inspect(&zip::read(&zip::write(&pay)).expect("reads")),
        report
    );
    let summary = report[0].summary.clone().expect("a summary");
    assert_eq!(summary.log_end_offset, 7);
    assert!(report[0].problems.is_empty(), "{:?}", report[0].problems);
}

#[test]
fn continue_from_here_recovers_the_folder_and_keeps_the_dedup_window() {
    let before = world(SCRIPT);
    let files = folder(&before.disk_files(), "pay-0");
    let mut w = World::from_partition_files("pay-0", &files, ClusterConfig::default())
        .expect("the folder opens");
    // Recovery, as the broker's start after a crash runs it.
    assert!(w.events().iter().any(|e| matches!(
        &e.kind,
        EventKind::Broker { event: BrokerEvent::Recovered { tp, .. }, .. } if *tp == pay0()
    )));
    let log = w.log_view(&pay0()).expect("pay-0 is there");
    assert_eq!(
        (
            log.log_end_offset,
            log.high_watermark,
            log.last_stable_offset
        ),
        (7, 7, 7)
    );
    let old = before.log_view(&pay0()).expect("before");
    assert_eq!(
        log.batches, old.batches,
        "the same batches, byte positions and all"
    );
    // The window as Kafka rebuilds it: a snapshot keeps each producer's last batch
    // only (offset 3, `ProducerSnapshot`'s one entry), then the log after it replays
    // the batches at 4-5 and 6; the older batches of the live window are gone.
    let window: Vec<i64> = w.windows(&pay0())[0]
        .batches
        .iter()
        .map(|b| b.last_offset)
        .collect();
    assert_eq!(window, vec![3, 5, 6]);
    assert_eq!(before.windows(&pay0())[0].batches.len(), 5);
    let pid = old.batches[0].producer_id;

    // A retry of the folder's last batch: a duplicate, nothing written.
    let last = old.batches.last().expect("a batch").clone();
    apply(
        &mut w,
        Action::RawProduce {
            topic_partition: pay0(),
            producer_id: pid,
            producer_epoch: last.producer_epoch,
            base_sequence: last.base_sequence,
            transactional_id: None,
            values: vec!["g".into()],
            label: None,
        },
    );
    apply(&mut w, Action::RunUntilIdle);
    assert!(w.events().iter().any(|e| matches!(
        &e.kind,
        EventKind::Broker { event: BrokerEvent::BatchDuplicate { producer_id, first_offset: 6, .. }, .. }
            if *producer_id == pid
    )));

    // A new idempotent producer follows on at offset 7, with a producer id of its own.
    apply(
        &mut w,
        Action::CreateProducer {
            name: "q".into(),
            configs: vec![("enable.idempotence".into(), "true".into())],
        },
    );
    apply(
        &mut w,
        Action::Send {
            producer: "q".into(),
            topic_partition: pay0(),
            values: vec!["h".into()],
        },
    );
    apply(
        &mut w,
        Action::Flush {
            producer: "q".into(),
        },
    );
    let log = w.log_view(&pay0()).expect("pay-0");
    assert_eq!(log.log_end_offset, 8);
    let new = log.batches.last().expect("the new batch");
    assert_eq!((new.base_offset, new.base_sequence), (7, 0));
    assert!(
        new.producer_id > pid,
        "a fresh id: {} after {pid}",
        new.producer_id
    );
}

#[test]
fn a_damaged_folder_is_opened_as_recovery_cuts_it_never_half_loaded() {
    let before = world(SCRIPT);
    let mut files = folder(&before.disk_files(), "pay-0");
    let log = files
        .iter_mut()
        .find(|(n, _)| n == "00000000000000000000.log")
        .expect("segment 0");
    let batches = before.log_view(&pay0()).expect("pay-0").batches;
    // One byte inside the third batch's records: a CRC mismatch there.
    let third = batches[2].position as usize;
    log.1[third + 65] ^= 0x40;
    let w = World::from_partition_files("pay-0", &files, ClusterConfig::default())
        .expect("recovery keeps the valid prefix");
    let view = w.log_view(&pay0()).expect("pay-0");
    assert_eq!(view.log_end_offset, batches[2].base_offset);
    // What the inspector names: the file and the byte position.
    let report = inspect::inspect_partition(
        "pay-0",
        &files
            .iter()
            .map(|(n, b)| (n.clone(), b.as_slice()))
            .collect::<Vec<_>>(),
    );
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.path == "pay-0/00000000000000000000.log"
                && p.position == Some(third as u64)
                && matches!(p.kind, inspect::ProblemKind::CrcMismatch { .. })),
        "{:?}",
        report.problems
    );
    // Every truncation of the segment opens, never a panic.
    let whole = files.clone();
    for len in (0..=whole[0].1.len()).step_by(7) {
        let mut cut = whole.clone();
        if let Some(f) = cut.iter_mut().find(|(n, _)| n.ends_with(".log")) {
            f.1.truncate(len);
        }
        let w = World::from_partition_files("pay-0", &cut, ClusterConfig::default())
            .expect("a cut segment opens");
        assert!(w.log_view(&pay0()).expect("pay-0").log_end_offset <= 7);
    }
}

#[test]
fn a_folder_name_that_is_not_topic_partition_is_refused() {
    for name in ["pay", "pay-x", "-0", "pay-64", "bad topic-0"] {
        let e = World::from_partition_files(name, &[], ClusterConfig::default()).expect_err(name);
        assert!(
            matches!(
                e.kind,
                SimErrorKind::IllegalTopicName { .. } | SimErrorKind::PartitionCount { .. }
            ),
            "{name}: {e}"
        );
    }
    // A folder without files is an empty partition.
    let w = World::from_partition_files("orders-2", &[], ClusterConfig::default())
        .expect("an empty folder");
    assert_eq!(
        w.log_view(&TopicPartition::new("orders", 2))
            .map(|l| l.log_end_offset),
        Some(0)
    );
}
