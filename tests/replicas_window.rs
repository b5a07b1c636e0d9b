#![cfg(not(target_arch = "wasm32"))]
//! The replicas table decodes only the batches it shows (`view::replicas`: a
//! render of a 10,000-batch partition decoded every batch of every replica, CRC and
//! all). Nothing is cached, so nothing can go stale; this checks that the window equals
//! what decoding every batch gives, after each step of every replication, restart,
//! fault and DeleteRecords scenario (truncation after an unclean election, restarts
//! that recover a log, segments deleted on one replica before the other), and on a
//! log longer than the window.

use eos_playground::coordinator::internal_topics::is_internal;
use eos_playground::log::TopicPartition;
use eos_playground::record::RecordBatch;
use eos_playground::scenario::{parse, Replay};
use eos_playground::sim::World;
use eos_playground::view::replicas::{replicas, Slot, REPLICA_ROWS};

/// The table as the page computed it before: every batch of every replica decoded,
/// one slot per offset from 0, then the newest `REPLICA_ROWS` offsets.
fn reference(world: &World, tp: &TopicPartition) -> Option<(usize, Vec<Vec<Slot>>)> {
    type Offsets<'a> = Vec<Option<(i32, bool, &'a [u8])>>;
    fn offsets_of(raw: &[Vec<u8>]) -> Offsets<'_> {
        let mut out = Vec::new();
        for bytes in raw {
            let Ok((batch, _)) = RecordBatch::decode(bytes) else {
                continue;
            };
            let (first, last) = (
                batch.base_offset.max(0) as usize,
                batch.last_offset().max(0) as usize,
            );
            if out.len() <= last {
                out.resize(last + 1, None);
            }
            for slot in out.iter_mut().take(last + 1).skip(first) {
                *slot = Some((
                    batch.partition_leader_epoch,
                    batch.is_control(),
                    bytes.as_slice(),
                ));
            }
        }
        out
    }
    let view = world.replicas_view(tp)?;
    let raws: Vec<Vec<Vec<u8>>> = view
        .replicas
        .iter()
        .map(|r| world.replica_raw_batches(tp, r.broker).unwrap_or_default())
        .collect();
    let leader_raw = world
        .replica_raw_batches(tp, view.leader)
        .unwrap_or_default();
    let leader = offsets_of(&leader_raw);
    let per: Vec<_> = raws.iter().map(|r| offsets_of(r)).collect();
    let width = per.iter().map(Vec::len).max().unwrap_or(0);
    let first = width.saturating_sub(REPLICA_ROWS);
    let columns = view
        .replicas
        .iter()
        .zip(&per)
        .map(|(r, offsets)| {
            (first..width)
                .map(|o| match offsets.get(o).copied().flatten() {
                    None => Slot::Missing,
                    Some((leader_epoch, control, bytes)) => Slot::Record {
                        control,
                        leader_epoch,
                        below_hw: (o as i64) < r.high_watermark,
                        same_as_leader: leader
                            .get(o)
                            .copied()
                            .flatten()
                            .is_some_and(|(_, _, l)| l == bytes),
                    },
                })
                .collect()
        })
        .collect();
    Some((first, columns))
}

fn check(world: &World, what: &str) -> usize {
    let mut checked = 0;
    for tp in world
        .partitions()
        .into_iter()
        .filter(|tp| !is_internal(&tp.topic))
    {
        let panel = replicas(world, &tp);
        let want = reference(world, &tp);
        let got = panel.as_ref().map(|p| {
            (
                p.first_offset,
                p.columns.iter().map(|c| c.slots.clone()).collect(),
            )
        });
        assert_eq!(got, want, "{what}: {tp}");
        if let (Some(p), Some(v)) = (panel, world.replicas_view(&tp)) {
            let leo: Vec<i64> = v.replicas.iter().map(|r| r.log_end_offset).collect();
            let shown: Vec<i64> = p.columns.iter().map(|c| c.log_end_offset).collect();
            assert_eq!(shown, leo, "{what}: {tp} LEOs");
        }
        checked += 1;
    }
    checked
}

#[test]
fn the_window_equals_every_batch_decoded_after_each_step() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios");
    let mut worlds = 0;
    for dir in ["replication", "restart", "faults", "delete_records"] {
        let mut files: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
            .expect("scenario folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "eos"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).expect("scenario");
            let mut replay = Replay::new(parse(&text).expect("parses"));
            while !replay.is_done() {
                if replay.step().is_err() {
                    break;
                }
                let what = format!("{} step {}", path.display(), replay.at());
                worlds += check(replay.world(), &what);
            }
        }
    }
    assert!(worlds > 100, "only {worlds} partitions checked");
}

#[test]
fn a_log_longer_than_the_window_shows_its_newest_offsets() {
    let mut script = String::from(
        "cluster brokers=3\ntopic create t partitions=1 replication.factor=3 segment.bytes=2000\nproducer p create acks=all\n",
    );
    for i in 0..(REPLICA_ROWS + 25) {
        script.push_str(&format!(
            "producer p send t-0 v{i} w{i}\nproducer p flush\n"
        ));
    }
    // A follower falls behind, then the leader crashes: the log is truncated and rewritten.
    script.push_str("broker 3 stop crash\nproducer p send t-0 late\nproducer p flush\nbroker 1 stop crash\nbroker 3 start\nrun 2000\nproducer p send t-0 after\nproducer p flush\nbroker 1 start\nrun 5000\n");
    let mut replay = Replay::new(parse(&script).expect("parses"));
    while !replay.is_done() {
        replay.step().expect("plays");
        check(replay.world(), &format!("step {}", replay.at()));
    }
    let panel = replicas(replay.world(), &TopicPartition::new("t", 0)).expect("panel");
    assert!(panel.first_offset > 0, "the window starts after offset 0");
    assert!(panel.columns.iter().all(|c| c.slots.len() == REPLICA_ROWS));
}
