//! The transactional offsets against Kafka 4.0's `OffsetMetadataManagerTest` (one
//! `OffsetMetadataManager` per `__consumer_offsets` partition): pending offsets, the
//! end markers, OffsetFetch with and without `require_stable`, the simple group a
//! commit makes, and a reload.

use super::*;
use crate::coordinator::group::{CommitMember, GroupEvent};

fn tp(topic: &str, p: i32) -> TopicPartition {
    TopicPartition::new(topic, p)
}

/// A writer that keeps nothing: the state under test is the coordinator's.
struct Sink;

impl OffsetLogWriter for Sink {
    fn append(&mut self, _: i32, _: Vec<u8>, _: Option<Vec<u8>>, _: i64) -> Result<(), Errors> {
        Ok(())
    }
}

fn commit(gc: &mut GroupCoordinator, group: &str, tp: TopicPartition, offset: i64) {
    let res = gc.commit_offsets(group, &[OffsetCommitEntry::new(tp, offset)], &mut Sink, 0);
    assert!(res.iter().all(|(_, e)| *e == Errors::None));
}

fn txn_commit(gc: &mut GroupCoordinator, pid: i64, group: &str, tp: TopicPartition, offset: i64) {
    let entry = OffsetCommitEntry::new(tp, offset);
    assert!(gc
        .commit_transactional_offsets(group, pid, 0, &[entry], 0)
        .is_ok());
}

/// (offset, error name) of each partition of an OffsetFetch answer.
fn fetched(answer: Vec<OffsetFetchPartition>) -> Vec<(i64, &'static str)> {
    answer
        .into_iter()
        .map(|f| (f.committed_offset, f.error.name()))
        .collect()
}

/// The offsets of Kafka's two pending-offset fetch tests: foo-0, foo-1 and bar-0
/// committed; foo-1, bar-0 and bar-1 pending in producer 10's transaction.
fn committed_and_pending() -> GroupCoordinator {
    let mut gc = GroupCoordinator::default();
    commit(&mut gc, "group", tp("foo", 0), 100);
    commit(&mut gc, "group", tp("foo", 1), 110);
    commit(&mut gc, "group", tp("bar", 0), 200);
    txn_commit(&mut gc, 10, "group", tp("foo", 1), 111);
    txn_commit(&mut gc, 10, "group", tp("bar", 0), 201);
    txn_commit(&mut gc, 10, "group", tp("bar", 1), 211);
    gc
}

// testFetchOffsetsWithPendingTransactionalOffsets: with require_stable a partition with
// a pending offset is UNSTABLE_OFFSET_COMMIT, committed or not; without it the
// committed offset (or none) shows; after the COMMIT marker the new offsets.
#[test]
fn fetch_offsets_with_pending_transactional_offsets() {
    let mut gc = committed_and_pending();
    let asked = [tp("foo", 0), tp("foo", 1), tp("bar", 0), tp("bar", 1)];
    let unstable = (-1, "UNSTABLE_OFFSET_COMMIT");
    assert_eq!(
        fetched(gc.fetch_offsets("group", &asked, true)),
        [(100, "NONE"), unstable, unstable, unstable]
    );
    assert_eq!(
        fetched(gc.fetch_offsets("group", &asked, false)),
        [(100, "NONE"), (110, "NONE"), (200, "NONE"), (-1, "NONE")]
    );
    let partition = gc.partition_for("group");
    gc.complete_transaction(partition, 10, true);
    assert_eq!(
        fetched(gc.fetch_offsets("group", &asked, true)),
        [(100, "NONE"), (111, "NONE"), (201, "NONE"), (211, "NONE")]
    );
}

// testFetchAllOffsetsWithPendingTransactionalOffsets: fetching every partition lists
// the committed ones only; bar-1, pending and never committed, is not listed (not even
// as unstable) until the COMMIT marker.
#[test]
fn fetch_all_offsets_lists_committed_partitions_only() {
    let mut gc = committed_and_pending();
    let unstable = (-1, "UNSTABLE_OFFSET_COMMIT");
    assert_eq!(
        fetched(gc.fetch_all_offsets("group", true)),
        [unstable, (100, "NONE"), unstable]
    );
    assert_eq!(
        fetched(gc.fetch_all_offsets("group", false)),
        [(200, "NONE"), (100, "NONE"), (110, "NONE")]
    );
    let partition = gc.partition_for("group");
    gc.complete_transaction(partition, 10, true);
    assert_eq!(
        fetched(gc.fetch_all_offsets("group", true)),
        [(201, "NONE"), (211, "NONE"), (100, "NONE"), (111, "NONE")]
    );
    assert_eq!(gc.fetch_all_offsets("unknown", true), []);
}

// testOffsetCommitsNumberMetricWithTransactionalOffsets and
// testReplayTransactionEndMarkerKeepsTheMostRecentCommittedOffset: of two commits of a
// partition the one written later wins, whatever order their markers come in.
#[test]
fn the_later_record_wins_whatever_the_marker_order() {
    for markers in [[4, 5], [5, 4]] {
        let mut gc = GroupCoordinator::default();
        let partition = gc.partition_for("foo");
        txn_commit(&mut gc, 4, "foo", tp("bar", 0), 100);
        txn_commit(&mut gc, 5, "foo", tp("bar", 0), 101);
        for pid in markers {
            gc.complete_transaction(partition, pid, true);
        }
        let committed = gc
            .committed("foo", &tp("bar", 0))
            .map(|o| o.committed_offset);
        assert_eq!(committed, Some(101), "markers {markers:?}");
    }
}

// testReplayTransactionEndMarkerWithCommit: a marker of a producer with nothing pending
// changes nothing; a COMMIT moves the pending offset to the committed ones, an ABORT
// drops it; either way the producer has nothing pending after.
#[test]
fn end_markers_commit_or_drop_their_producers_offsets() {
    let mut gc = GroupCoordinator::default();
    let partition = gc.partition_for("foo");
    commit(&mut gc, "foo", tp("bar", 0), 99);
    txn_commit(&mut gc, 5, "foo", tp("bar", 0), 100);
    txn_commit(&mut gc, 6, "foo", tp("bar", 1), 200);
    let before = gc.clone();
    assert_eq!(
        gc.complete_transaction(partition, 1, true),
        TxnCompletion::default()
    );
    assert_eq!(gc, before);
    gc.complete_transaction(partition, 5, true);
    assert_eq!(gc.pending_offsets(5), []);
    assert_eq!(
        gc.committed("foo", &tp("bar", 0))
            .map(|o| o.committed_offset),
        Some(100)
    );
    gc.complete_transaction(partition, 6, false);
    assert_eq!(gc.pending_offsets(6), []);
    assert_eq!(gc.committed("foo", &tp("bar", 1)), None);
    assert!(!gc.has_pending_transactional_offsets("foo", &tp("bar", 1)));
}

/// Two group ids whose offsets live in different `__consumer_offsets` partitions.
fn groups_in_two_partitions(gc: &GroupCoordinator) -> (&'static str, &'static str) {
    let (a, b) = ("g", "h");
    assert_ne!(gc.partition_for(a), gc.partition_for(b));
    (a, b)
}

// One OffsetMetadataManager per offsets partition (GroupCoordinatorShard): a marker
// written to one partition settles the offsets of that partition's groups only; the
// same transaction's offsets of a group elsewhere wait for their own partition's marker.
#[test]
fn a_marker_settles_the_offsets_of_its_own_partition() {
    let mut gc = GroupCoordinator::default();
    let (g, h) = groups_in_two_partitions(&gc);
    txn_commit(&mut gc, 9, g, tp("in", 0), 5);
    txn_commit(&mut gc, 9, h, tp("in", 0), 7);
    let done = gc.complete_transaction(gc.partition_for(g), 9, true);
    assert_eq!(done.materialized, [(g.to_string(), tp("in", 0), 5)]);
    assert!(gc.has_pending_transactional_offsets(h, &tp("in", 0)));
    assert_eq!(gc.committed(h, &tp("in", 0)), None);
    let done = gc.complete_transaction(gc.partition_for(h), 9, false);
    assert_eq!(done.dropped, [(h.to_string(), tp("in", 0), 7)]);
    assert_eq!(gc.pending_offsets(9), []);
}

// The loader (CoordinatorLoaderImpl) replays one partition into its own shard: loading
// a partition whose log holds producer 9's COMMIT marker leaves producer 9's pending
// offsets of another partition's group pending.
#[test]
fn loading_a_partition_leaves_the_other_partitions_pending_offsets() {
    let mut gc = GroupCoordinator::default();
    let (g, h) = groups_in_two_partitions(&gc);
    txn_commit(&mut gc, 9, h, tp("in", 0), 7);
    let records = gc
        .transactional_offset_records(g, 9, 0, &[OffsetCommitEntry::new(tp("in", 0), 5)], 0)
        .expect("records");
    let kvs = records
        .records
        .into_iter()
        .map(|(k, v)| (Some(k), Some(v)))
        .collect();
    let data = RecordBatch::new_data(0, 9, 0, 0, true, 0, kvs);
    let mut marker = RecordBatch::new_control(0, 9, 0, 0, ControlRecordType::Commit, 0);
    marker.base_offset = data.next_offset();
    gc.load_partition(gc.partition_for(g), &[data, marker])
        .expect("loads");
    assert_eq!(
        gc.committed(g, &tp("in", 0)).map(|o| o.committed_offset),
        Some(5)
    );
    assert_eq!(gc.pending_offsets(9), [(h.to_string(), tp("in", 0), 7)]);
}

// testReplayWithTombstoneAndPendingTransactionalOffsets: a tombstone removes the
// committed offset and every pending one of its partition.
#[test]
fn a_tombstone_removes_committed_and_pending_offsets() {
    let mut gc = GroupCoordinator::default();
    let plain = |key: Vec<u8>, value: Option<Vec<u8>>| {
        RecordBatch::new_plain(0, 0, vec![(Some(key), value)])
    };
    let value = |offset| Some(OffsetCommitValue::new(offset, -1, "small", 0).encode());
    let key = |p| OffsetCommitKey::new("foo", "bar", p).encode();
    let txn = RecordBatch::new_data(
        0,
        10,
        0,
        0,
        true,
        0,
        vec![(Some(key(0)), value(100)), (Some(key(1)), value(100))],
    );
    let batches = [
        plain(key(0), value(100)),
        txn,
        plain(key(0), None),
        plain(key(1), None),
    ];
    gc.load_partition(gc.partition_for("foo"), &batches)
        .expect("loads");
    for p in [0, 1] {
        assert_eq!(gc.committed("foo", &tp("bar", p)), None);
        assert!(!gc.has_pending_transactional_offsets("foo", &tp("bar", p)));
    }
}

fn refusal(
    gc: &GroupCoordinator,
    group: &str,
    generation_id: i32,
    member_id: &str,
) -> Option<Errors> {
    let member = CommitMember {
        generation_id,
        member_id: member_id.to_string(),
        group_instance_id: None,
    };
    match gc.validate_offset_commit(group, &member, true) {
        Ok(()) => None,
        Err(GroupEvent::OffsetCommitRefused { error, .. }) => Some(error),
        #[allow(unreachable_patterns)]
        Err(other) => panic!("not a refusal: {other:?}"),
    }
}

// testGenericGroupTransactionalOffsetCommitWithUnknownGroupId against
// …WithUnknownMemberId: a group nobody committed to is ILLEGAL_GENERATION; one that
// has offsets is the simple group their replay made (Empty, generation 0, no member),
// so a member id is UNKNOWN_MEMBER_ID; generation -1 passes both.
#[test]
fn a_group_with_offsets_is_a_simple_group() {
    let mut gc = GroupCoordinator::default();
    assert_eq!(
        refusal(&gc, "foo", 10, "member"),
        Some(Errors::IllegalGeneration)
    );
    assert_eq!(refusal(&gc, "foo", -1, ""), None);
    txn_commit(&mut gc, 3, "foo", tp("bar", 0), 1);
    assert_eq!(
        refusal(&gc, "foo", 10, "member"),
        Some(Errors::UnknownMemberId)
    );
    assert_eq!(refusal(&gc, "foo", 0, ""), Some(Errors::UnknownMemberId));
    assert_eq!(refusal(&gc, "foo", -1, "member"), None);
    let mut committed = GroupCoordinator::default();
    commit(&mut committed, "foo", tp("bar", 0), 1);
    assert_eq!(
        refusal(&committed, "foo", 10, "member"),
        Some(Errors::UnknownMemberId)
    );
}
