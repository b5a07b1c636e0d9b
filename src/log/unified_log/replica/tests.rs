//! Replicated-log rules from Kafka's `LeaderEpochFileCacheTest` and `UnifiedLogTest`
//! (Kafka 4.0): the epoch cache's end offsets, byte-identical follower appends, the
//! HW, and truncation that rebuilds producer state.

use super::*;
use crate::log::unified_log::tests::data;

fn replicated(fs: &mut MemFs, dir: &str, config: LogConfig) -> UnifiedLog {
    let mut log = UnifiedLog::create(fs, dir, TopicPartition::new("t", 0), config).unwrap();
    log.set_replicated(true);
    log
}

fn log_bytes(fs: &MemFs, dir: &str) -> Vec<u8> {
    fs.read(&format!("{dir}/00000000000000000000.log"))
        .unwrap()
        .to_vec()
}

#[test]
fn end_offset_for_epoch_follows_the_cache() {
    // LeaderEpochFileCacheTest: epochs 2@6, 3@8 (shouldReturnNextAvailableEpoch...).
    let mut fs = MemFs::new();
    let mut log = replicated(&mut fs, "/b/t-0", LogConfig::default());
    log.become_leader(&mut fs, 2).unwrap();
    for seq in 0..2 {
        log.append_as_leader(&mut fs, data(1, seq, &["a"]), 0)
            .unwrap();
    }
    log.become_leader(&mut fs, 3).unwrap();
    log.append_as_leader(&mut fs, data(1, 2, &["b"]), 0)
        .unwrap();
    assert_eq!(log.epochs(), &[(2, 0), (3, 2)]);
    assert_eq!(log.end_offset_for_epoch(3), (3, 3), "latest epoch: the LEO");
    assert_eq!(log.end_offset_for_epoch(2), (2, 2));
    assert_eq!(log.end_offset_for_epoch(1), (1, 0), "below every epoch");
    assert_eq!(log.end_offset_for_epoch(4), (-1, -1), "above every epoch");
    assert_eq!(log.end_offset_for_epoch(-1), (-1, -1));
    let text = fs.read("/b/t-0/leader-epoch-checkpoint").unwrap();
    assert_eq!(text, b"0\n2\n2 0\n3 2\n");
}

#[test]
fn follower_bytes_equal_leader_bytes_and_producer_state_follows() {
    let mut fs = MemFs::new();
    let mut leader = replicated(&mut fs, "/l/t-0", LogConfig::default());
    leader.become_leader(&mut fs, 1).unwrap();
    let mut follower = replicated(&mut fs, "/f/t-0", LogConfig::default());
    follower.become_follower(1);
    for seq in 0..3 {
        leader
            .append_as_leader(&mut fs, data(7, seq, &["x"]), 0)
            .unwrap();
    }
    assert_eq!(leader.high_watermark(), 0, "no follower has it yet");
    let read = leader
        .read(&fs, 0, 1 << 20, FetchIsolation::LogEnd)
        .unwrap();
    let appended = follower.append_as_follower(&mut fs, &read.records).unwrap();
    assert_eq!(appended.batches, 3);
    assert_eq!(log_bytes(&fs, "/l/t-0"), log_bytes(&fs, "/f/t-0"));
    assert_eq!(follower.epochs(), leader.epochs());
    // The follower's window is the leader's: a retry after failover is a duplicate.
    let dup = follower
        .append_as_leader(&mut fs, data(7, 2, &["x"]), 0)
        .unwrap();
    assert!(matches!(dup.outcome, AppendOutcome::Duplicate(_)));
    // A follower refuses batches that do not continue its log.
    let err = follower
        .append_as_follower(&mut fs, &read.records)
        .unwrap_err();
    assert_eq!(err.error(), Errors::UnknownServerError);
    assert_eq!(leader.maybe_increment_high_watermark(3), Some(0));
    assert_eq!(leader.maybe_increment_high_watermark(2), None, "never back");
    assert_eq!(follower.update_high_watermark(99), Some(0));
    assert_eq!(follower.high_watermark(), 3, "clamped to the LEO");
}

#[test]
fn truncate_to_drops_batches_snapshots_and_epochs_and_rebuilds_producer_state() {
    let mut fs = MemFs::new();
    let config = LogConfig {
        segment_bytes: 256,
        ..LogConfig::default()
    };
    let mut log = replicated(&mut fs, "/b/t-0", config);
    log.become_leader(&mut fs, 0).unwrap();
    let payload = "p".repeat(80);
    for seq in 0..2 {
        log.append_as_leader(&mut fs, data(9, seq, &[&payload]), 0)
            .unwrap();
    }
    log.become_leader(&mut fs, 1).unwrap();
    for seq in 2..4 {
        log.append_as_leader(&mut fs, data(9, seq, &[&payload]), 0)
            .unwrap();
    }
    log.update_high_watermark(2);
    assert_eq!(log.segments().len(), 4);
    assert!(fs.exists("/b/t-0/00000000000000000003.snapshot"));
    let removed = log.truncate_to(&mut fs, 2).unwrap();
    assert_eq!(removed, 2);
    assert_eq!(log.log_end_offset(), 2);
    assert_eq!(log.high_watermark(), 2);
    assert_eq!(log.epochs(), &[(0, 0)]);
    assert!(!fs.exists("/b/t-0/00000000000000000003.log"));
    assert!(!fs.exists("/b/t-0/00000000000000000003.snapshot"));
    let window: Vec<i32> = log
        .producer_state()
        .last_entry(9)
        .unwrap()
        .batch_metadata()
        .iter()
        .map(|b| b.last_seq)
        .collect();
    // Rebuilt from 00000000000000000002.snapshot, which keeps the last batch only.
    assert_eq!(window, vec![1], "seq 2 and 3 are gone from the window");
    // The next batch continues from seq 2, at offset 2.
    let next = log
        .append_as_leader(&mut fs, data(9, 2, &[&payload]), 0)
        .unwrap();
    assert_eq!(next.first_offset(), 2);
}

#[test]
fn truncating_at_the_leo_still_drops_an_empty_epoch() {
    // UnifiedLog.truncateTo: a replica that led at epoch 1 and wrote nothing keeps 1@LEO
    // in its cache; the truncation to its LEO removes it, or it would fetch with a
    // last epoch no batch carries and diverge forever.
    let mut fs = MemFs::new();
    let mut log = replicated(&mut fs, "/b/t-0", LogConfig::default());
    log.become_leader(&mut fs, 0).unwrap();
    log.append_as_leader(&mut fs, data(1, 0, &["a"]), 0)
        .unwrap();
    log.become_leader(&mut fs, 1).unwrap();
    assert_eq!(log.epochs(), &[(0, 0), (1, 1)]);
    assert_eq!(log.truncate_to(&mut fs, 1).unwrap(), 0);
    assert_eq!(log.epochs(), &[(0, 0)]);
    assert_eq!(log.latest_epoch(), Some(0));
}

/// `AbstractFetcherThreadTest` (truncation on a diverging epoch): the follower's end
/// offset for the leader's epoch, capped by the leader's and its own LEO; an epoch it
/// does not know truncates to the end of the one before and asks again; a cache that
/// cannot place the epoch at all (empty) takes min(leader's end, LEO), not the HW.
#[test]
fn offset_truncation_state_follows_get_offset_truncation_state() {
    let mut fs = MemFs::new();
    let mut log = replicated(&mut fs, "/b/t-0", LogConfig::default());
    log.become_leader(&mut fs, 2).unwrap();
    for seq in 0..3 {
        log.append_as_leader(&mut fs, data(1, seq, &["a"]), 0)
            .unwrap();
    }
    log.become_leader(&mut fs, 4).unwrap();
    log.append_as_leader(&mut fs, data(1, 3, &["b"]), 0)
        .unwrap();
    // Epochs 2@0, 4@3; LEO 4.
    assert_eq!(
        log.offset_truncation_state(2, 2),
        (2, true),
        "leader ends epoch 2 first"
    );
    assert_eq!(
        log.offset_truncation_state(2, 9),
        (3, true),
        "ours ends first"
    );
    assert_eq!(
        log.offset_truncation_state(3, 9),
        (3, false),
        "unknown epoch: ask again"
    );
    // A log written before it was replicated has no epoch cache.
    let mut empty = UnifiedLog::create(
        &mut fs,
        "/b/u-0",
        TopicPartition::new("u", 0),
        LogConfig::default(),
    )
    .unwrap();
    for seq in 0..3 {
        empty
            .append_as_leader(&mut fs, data(1, seq, &["a"]), 0)
            .unwrap();
    }
    empty.set_replicated(true);
    empty.update_high_watermark(1);
    assert!(empty.epochs().is_empty());
    assert_eq!(
        empty.offset_truncation_state(5, 2),
        (2, true),
        "min(leader's end, LEO), not the HW"
    );
    assert_eq!(
        empty.offset_truncation_state(5, 7),
        (3, true),
        "never past the LEO"
    );
}
