#![cfg(not(target_arch = "wasm32"))]
//! The broker's verdicts carry what a learner needs to read them right: an out-of-order
//! batch says whether it is ahead (a gap) or behind (a stale retry), and a restart says
//! how big each window was before the stop and where the new one came from.

use eos_playground::broker::BrokerEvent;
use eos_playground::log::SeqDirection;
use eos_playground::scenario::{parse, Replay};
use eos_playground::sim::EventKind;

/// The broker events of a scenario played to its end.
fn broker_events(src: &str) -> Vec<BrokerEvent> {
    let replay = Replay::to(parse(src).expect("parses"), usize::MAX);
    assert_eq!(replay.error(), None);
    replay
        .world()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Broker { event, .. } => Some(event.clone()),
            _ => None,
        })
        .collect()
}

const SIX_BATCHES: &str = "topic create t partitions=1
raw produce t-0 pid=7 seq=0 show=none a
raw produce t-0 pid=7 seq=1 show=none b
raw produce t-0 pid=7 seq=2 show=none c
raw produce t-0 pid=7 seq=3 show=none d
raw produce t-0 pid=7 seq=4 show=none e
raw produce t-0 pid=7 seq=5 show=none f
";

fn rejections(events: &[BrokerEvent]) -> Vec<(i32, Option<i32>, Option<SeqDirection>)> {
    events
        .iter()
        .filter_map(|e| match e {
            BrokerEvent::BatchRejected {
                first_seq,
                expected_seq,
                seq_direction,
                ..
            } => Some((*first_seq, *expected_seq, *seq_direction)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_gap_is_ahead_and_a_stale_retry_is_behind() {
    let src = format!(
        "{SIX_BATCHES}raw produce t-0 pid=7 seq=9 show=none g\nraw produce t-0 pid=7 seq=0 show=none a\n"
    );
    assert_eq!(
        rejections(&broker_events(&src)),
        vec![
            (9, Some(6), Some(SeqDirection::Ahead)),
            (0, Some(6), Some(SeqDirection::Behind)),
        ]
    );
}

#[test]
fn an_epoch_refusal_has_no_direction() {
    let src = format!(
        "{SIX_BATCHES}raw produce t-0 pid=7 epoch=1 seq=0 show=none x\nraw produce t-0 pid=7 epoch=0 seq=6 show=none y\n"
    );
    let events = broker_events(&src);
    assert_eq!(rejections(&events), vec![(6, None, None)]);
}

/// What a Recovered event says: snapshot loaded, window sizes before, window sizes after.
type Restart = (Option<i64>, Vec<(i64, usize)>, Vec<usize>);

fn restarts(events: &[BrokerEvent]) -> Vec<Restart> {
    events
        .iter()
        .filter_map(|e| match e {
            BrokerEvent::Recovered {
                report,
                windows,
                windows_before,
                ..
            } => Some((
                report.snapshot_loaded,
                windows_before.clone(),
                windows.iter().map(|(_, w)| w.len()).collect(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn a_clean_restart_loads_the_last_batch_and_a_crash_replays_the_log() {
    let clean = format!("{SIX_BATCHES}broker 1 restart clean\n");
    assert_eq!(
        restarts(&broker_events(&clean)),
        vec![(Some(6), vec![(7, 5)], vec![1])],
        "a snapshot keeps each producer's last batch"
    );
    let crash = format!("{SIX_BATCHES}broker 1 restart crash\n");
    assert_eq!(
        restarts(&broker_events(&crash)),
        vec![(None, vec![(7, 5)], vec![5])],
        "no snapshot at the log end: the log is replayed"
    );
}

#[test]
fn each_restart_compares_with_its_own_stop() {
    let events = broker_events(
        "topic create t partitions=1\nraw produce t-0 pid=7 seq=0 show=none a\nbroker 1 restart crash\nbroker 1 restart crash\n",
    );
    let r = restarts(&events);
    assert_eq!(r.len(), 2);
    assert_eq!(r[1].1, vec![(7, 1)]);
}
