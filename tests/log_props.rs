#![cfg(not(target_arch = "wasm32"))]
//! The invariants `UnifiedLog` and its producer state keep behind private fields,
//! checked through the public read API over random runs of appends, retries,
//! zombie appends, commits and aborts, segment rolls, clean and unclean restarts,
//! torn writes cut off by recovery, DeleteRecords and retention checks:
//!
//! - log start ≤ LSO ≤ HW ≤ LEO, and the LSO is the first unstable offset raised to
//!   the log start and capped at the HW;
//! - the first segment starts at or below the log start, and after a retention
//!   check no segment but the last lies wholly below it; the folder holds exactly the
//!   segments' `.log` files;
//! - every producer's window holds at most five batches;
//! - a producer id's epoch never goes backwards.

use std::collections::BTreeMap;

use eos_playground::fs::MemFs;
use eos_playground::log::{
    LogConfig, LogStartOffsetIncrementReason, TopicPartition, UnifiedLog, NUM_BATCHES_TO_RETAIN,
};
use eos_playground::record::{ControlRecordType, RecordBatch};
use proptest::prelude::*;

const DIR: &str = "/b/data/t-0";
const CLIENT: LogStartOffsetIncrementReason = LogStartOffsetIncrementReason::ClientRecordDeletion;

#[derive(Clone, Debug)]
enum Op {
    /// A batch of `n` records from producer `p` (0 is idempotent, 1 and 2 transactional).
    Append(usize, u8),
    /// The last batch of producer `p` again, as a retry.
    Retry(usize),
    /// A batch from producer `p` at an older epoch.
    Zombie(usize),
    /// COMMIT (true) or ABORT marker for producer `p`.
    End(usize, bool),
    /// Restart the broker: clean (snapshot at the log end) or a crash.
    Restart(bool),
    /// A crash in the middle of a write: `n` garbage bytes at the end of the log.
    Torn(u8),
    Snapshots(bool),
    /// DeleteRecords up to this share (in eighths) of the way from log start to HW.
    DeleteRecords(u8),
    /// A retention check (`deleteOldSegments`; `retention.ms` is 30 ticks).
    Retention,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0usize..3, 1u8..4).prop_map(|(p, n)| Op::Append(p, n)),
        1 => (0usize..3).prop_map(Op::Retry),
        1 => (1usize..3).prop_map(Op::Zombie),
        3 => (1usize..3, any::<bool>()).prop_map(|(p, c)| Op::End(p, c)),
        1 => any::<bool>().prop_map(Op::Restart),
        1 => (1u8..20).prop_map(Op::Torn),
        1 => any::<bool>().prop_map(Op::Snapshots),
        1 => (0u8..9).prop_map(Op::DeleteRecords),
        1 => Just(Op::Retention),
    ]
}

/// What a client knows about its producer: epoch, next sequence, last batch.
#[derive(Clone, Debug, Default)]
struct Client {
    epoch: i16,
    next_seq: i32,
    last: Option<RecordBatch>,
}

/// Reopens with the log start the broker would have checkpointed.
fn reopen(fs: &mut MemFs, config: &LogConfig, log_start: i64) -> UnifiedLog {
    UnifiedLog::open_with_log_start(
        fs,
        DIR,
        TopicPartition::new("t", 0),
        config.clone(),
        log_start,
    )
    .expect("open")
    .0
}

/// The `.log` files in the partition folder.
fn fs_logs(fs: &MemFs, log: &UnifiedLog) -> Vec<String> {
    fs.list_dir(log.dir())
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n.ends_with(".log"))
        .map(|n| format!("{}/{n}", log.dir()))
        .collect()
}

fn check(
    fs: &MemFs,
    log: &UnifiedLog,
    max_epoch: &mut BTreeMap<i64, i16>,
) -> Result<(), TestCaseError> {
    let (start, lso, hw, leo) = (
        log.log_start_offset(),
        log.last_stable_offset(),
        log.high_watermark(),
        log.log_end_offset(),
    );
    prop_assert!(
        start <= lso && lso <= hw && hw <= leo,
        "log start {start} ≤ LSO {lso} ≤ HW {hw} ≤ LEO {leo}"
    );
    prop_assert_eq!(
        lso,
        log.first_unstable_offset()
            .map_or(hw, |f| f.max(start).min(hw))
    );
    prop_assert_eq!(log.segments().last().map(|s| s.next_offset), Some(leo));
    prop_assert!(log
        .segments()
        .first()
        .is_some_and(|s| s.base_offset <= start));
    let mut on_disk: Vec<String> = fs_logs(fs, log);
    on_disk.sort();
    let mut expected: Vec<String> = log
        .segments()
        .iter()
        .map(|s| s.log_path(log.dir()))
        .collect();
    expected.sort();
    prop_assert_eq!(on_disk, expected);
    for (pid, entry) in log.producer_state().active_producers() {
        prop_assert!(entry.batch_metadata().len() <= NUM_BATCHES_TO_RETAIN);
        let seen = max_epoch.entry(*pid).or_insert(entry.producer_epoch());
        prop_assert!(
            entry.producer_epoch() >= *seen,
            "producer {pid}: epoch {} after {seen}",
            entry.producer_epoch()
        );
        *seen = entry.producer_epoch();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::default())]

    #[test]
    fn offsets_windows_and_epochs_stay_in_order(ops in prop::collection::vec(op(), 1..60)) {
        let mut fs = MemFs::new();
        let mut config =
            LogConfig { segment_bytes: 400, retention_ms: 30, ..LogConfig::default() };
        let mut log =
            UnifiedLog::create(&mut fs, DIR, TopicPartition::new("t", 0), config.clone())
                .expect("create");
        let mut clients = vec![Client::default(); 3];
        let mut max_epoch = BTreeMap::new();
        for (now, op) in (0i64..).zip(ops) {
            match op {
                Op::Append(p, n) => {
                    let c = &mut clients[p];
                    let kvs = (0..n).map(|i| (None, Some(vec![b'a' + i]))).collect();
                    let batch =
                        RecordBatch::new_data(0, p as i64, c.epoch, c.next_seq, p > 0, now, kvs);
                    if log.append_as_leader(&mut fs, batch.clone(), now).is_ok() {
                        c.next_seq += i32::from(n);
                        c.last = Some(batch);
                    }
                }
                Op::Retry(p) => {
                    if let Some(batch) = clients[p].last.clone() {
                        let _ = log.append_as_leader(&mut fs, batch, now);
                    }
                }
                Op::Zombie(p) => {
                    let c = &clients[p];
                    // Fenced only where the log still remembers the newer epoch (a
                    // restart without snapshots forgets producers of older segments).
                    let remembered = log
                        .producer_state()
                        .last_entry(p as i64)
                        .is_some_and(|e| e.producer_epoch() == c.epoch);
                    if c.epoch > 0 && remembered {
                        let kvs = vec![(None, Some(b"z".to_vec()))];
                        let batch =
                            RecordBatch::new_data(0, p as i64, c.epoch - 1, 0, true, now, kvs);
                        let leo = log.log_end_offset();
                        prop_assert!(log.append_as_leader(&mut fs, batch, now).is_err());
                        prop_assert_eq!(log.log_end_offset(), leo, "a zombie writes nothing");
                    }
                }
                Op::End(p, commit) => {
                    // Transaction version 2: the marker carries the bumped epoch, and
                    // the producer's next transaction starts at sequence 0.
                    let c = &mut clients[p];
                    let kind =
                        if commit { ControlRecordType::Commit } else { ControlRecordType::Abort };
                    if log.append_marker(&mut fs, p as i64, c.epoch + 1, kind, 0, now, true).is_ok() {
                        c.epoch += 1;
                        c.next_seq = 0;
                        c.last = None;
                    }
                }
                Op::Restart(clean) => {
                    if clean {
                        log.close(&mut fs).expect("close");
                    }
                    log = reopen(&mut fs, &config, log.log_start_offset());
                }
                Op::Torn(n) => {
                    let path = log.segments().last().expect("a segment").log_path(log.dir());
                    fs.append(&path, &vec![0xAB; usize::from(n)]).expect("append");
                    let leo = log.log_end_offset();
                    log = reopen(&mut fs, &config, log.log_start_offset());
                    prop_assert_eq!(log.log_end_offset(), leo, "recovery cuts only the torn bytes");
                }
                Op::Snapshots(on) => {
                    config.producer_snapshots = on;
                    log.set_producer_snapshots(on);
                }
                Op::DeleteRecords(eighths) => {
                    let (start, hw) = (log.log_start_offset(), log.high_watermark());
                    let to = start + (hw - start) * i64::from(eighths) / 8;
                    prop_assert!(log
                        .maybe_increment_log_start_offset(&mut fs, to, CLIENT)
                        .is_ok());
                    prop_assert_eq!(log.log_start_offset(), to.max(start));
                    prop_assert!(log
                        .maybe_increment_log_start_offset(&mut fs, hw + 1, CLIENT)
                        .is_err());
                }
                Op::Retention => {
                    log.delete_old_segments(&mut fs, now).expect("delete");
                    let start = log.log_start_offset();
                    let segs = log.segments();
                    prop_assert!(segs
                        .windows(2)
                        .all(|w| w[1].base_offset > start));
                }
            }
            check(&fs, &log, &mut max_epoch)?;
        }
    }
}

/// What a compacted log holds at each offset: (producer id, key, value, transactional).
fn records_by_offset(fs: &MemFs, log: &UnifiedLog) -> BTreeMap<i64, (i64, Vec<u8>, Vec<u8>, bool)> {
    let mut out = BTreeMap::new();
    for stored in log.read_all(fs) {
        let b = &stored.batch;
        if b.is_control() {
            continue;
        }
        for r in &b.records {
            out.insert(
                b.record_offset(r),
                (
                    b.producer_id,
                    r.key.clone().map(Vec::from).unwrap_or_default(),
                    r.value.clone().map(Vec::from).unwrap_or_default(),
                    b.is_transactional(),
                ),
            );
        }
    }
    out
}

#[derive(Clone, Debug)]
enum CompactOp {
    /// A batch from producer `p` (0 idempotent, 1 and 2 transactional) of keys `k0..`.
    Append(usize, Vec<u8>),
    /// COMMIT (true) or ABORT marker for producer `p`.
    End(usize, bool),
    /// The cleaner, this many ms after the previous step.
    Clean(i64),
}

fn compact_op() -> impl Strategy<Value = CompactOp> {
    prop_oneof![
        6 => (0usize..3, prop::collection::vec(0u8..4, 1..4)).prop_map(|(p, k)| CompactOp::Append(p, k)),
        2 => (1usize..3, any::<bool>()).prop_map(|(p, c)| CompactOp::End(p, c)),
        2 => (0i64..100_000_000).prop_map(CompactOp::Clean),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::default())]

    /// The log cleaner (`UnifiedLog::clean`): offsets and the LEO/HW stay, below the
    /// first uncleanable offset each key keeps its latest record that is not aborted
    /// and no aborted record is left, nothing at or past it changes, and producer state
    /// rebuilt from the cleaned log alone (no snapshot) has each producer's epoch and
    /// last sequence as before (but for one whose last batch was a marker: an emptied
    /// marker restores no epoch).
    #[test]
    fn the_cleaner_keeps_the_latest_per_key_and_producer_state(
        ops in prop::collection::vec(compact_op(), 1..50),
    ) {
        let mut fs = MemFs::new();
        let config = LogConfig {
            segment_bytes: 300,
            cleanup_policy_compact: true,
            cleanup_policy_delete: false,
            delete_retention_ms: 50_000_000,
            ..LogConfig::default()
        };
        let mut log =
            UnifiedLog::create(&mut fs, DIR, TopicPartition::new("t", 0), config.clone())
                .expect("create");
        let mut clients = vec![Client::default(); 3];
        let mut max_epoch = BTreeMap::new();
        let mut now = 0i64;
        for op in ops {
            now += 1;
            match op {
                CompactOp::Append(p, keys) => {
                    let c = &mut clients[p];
                    let n = keys.len() as i32;
                    let kvs = keys
                        .iter()
                        .map(|k| (Some(vec![b'k', b'0' + k]), Some(vec![b'v', (now % 250) as u8])))
                        .collect();
                    let batch =
                        RecordBatch::new_data(0, p as i64, c.epoch, c.next_seq, p > 0, now, kvs);
                    if log.append_as_leader(&mut fs, batch, now).is_ok() {
                        c.next_seq += n;
                    }
                }
                CompactOp::End(p, commit) => {
                    let c = &mut clients[p];
                    let kind =
                        if commit { ControlRecordType::Commit } else { ControlRecordType::Abort };
                    if log.append_marker(&mut fs, p as i64, c.epoch + 1, kind, 0, now, true).is_ok() {
                        c.epoch += 1;
                        c.next_seq = 0;
                    }
                }
                CompactOp::Clean(later) => {
                    now += later;
                    let (upper, _) = log.first_uncleanable_offset();
                    let before = records_by_offset(&fs, &log);
                    let aborted = log.aborted_transactions(&fs);
                    let is_aborted = |pid: i64, o: i64| {
                        aborted.iter().any(|t| t.producer_id == pid && t.first_offset <= o && o <= t.last_offset)
                    };
                    let mut latest: BTreeMap<Vec<u8>, i64> = BTreeMap::new();
                    for (o, (pid, key, _, txn)) in &before {
                        if *o < upper && !(*txn && is_aborted(*pid, *o)) {
                            latest.insert(key.clone(), *o);
                        }
                    }
                    let state_before: Vec<(i64, i16, i32)> = log
                        .producer_state()
                        .active_producers()
                        .iter()
                        .map(|(p, e)| (*p, e.producer_epoch(), e.last_seq()))
                        .collect();
                    let offsets = (log.log_start_offset(), log.high_watermark(), log.log_end_offset());
                    log.clean(&mut fs, now).expect("clean").ok();
                    let after = records_by_offset(&fs, &log);
                    prop_assert_eq!(
                        (log.log_start_offset(), log.high_watermark(), log.log_end_offset()),
                        offsets
                    );
                    for (o, rec) in &before {
                        if *o >= upper {
                            prop_assert_eq!(after.get(o), Some(rec), "offset {} is past the bound", o);
                        }
                    }
                    for o in latest.values() {
                        prop_assert_eq!(after.get(o), before.get(o), "latest of a key at {}", o);
                    }
                    for (o, (pid, key, _, txn)) in &after {
                        if *o < upper {
                            prop_assert!(!(*txn && is_aborted(*pid, *o)), "aborted record at {}", o);
                            prop_assert_eq!(latest.get(key), Some(o), "an older record at {}", o);
                        }
                    }
                    // Producer state rebuilt from the log alone.
                    let mut copy = fs.clone();
                    for name in copy.list_dir(DIR).unwrap_or_default() {
                        if name.ends_with(".snapshot") {
                            copy.remove_file(&format!("{DIR}/{name}")).expect("rm");
                        }
                    }
                    let rebuilt = reopen(&mut copy, &config, log.log_start_offset());
                    for (p, epoch, last_seq) in &state_before {
                        let e = rebuilt.producer_state().last_entry(*p);
                        if *last_seq == -1 {
                            // The producer's last batch was a marker, which the cleaner
                            // may have emptied: an empty control batch restores nothing
                            // (Kafka 4.0 `ProducerAppendInfo.append`).
                            prop_assert!(
                                e.is_none_or(|e| e.producer_epoch() <= *epoch),
                                "producer {} after a rebuild", p
                            );
                            continue;
                        }
                        prop_assert_eq!(
                            e.map(|e| (e.producer_epoch(), e.last_seq())),
                            Some((*epoch, *last_seq)),
                            "producer {} after a rebuild", p
                        );
                    }
                }
            }
            check(&fs, &log, &mut max_epoch)?;
        }
    }
}
