//! Unit tests of producer state: the window, the checks in Kafka's order, snapshots.
use super::*;

fn batch(pid: i64, epoch: i16, seq: i32, n: usize, base_offset: i64) -> RecordBatch {
    let kvs = (0..n).map(|i| (None, Some(vec![b'a' + i as u8]))).collect();
    RecordBatch::new_data(base_offset, pid, epoch, seq, false, 0, kvs)
}

fn apply(
    m: &mut ProducerStateManager,
    b: &RecordBatch,
) -> Result<ProducerCheck, ProducerCheckError> {
    let r = m.check_client_batch(b, b.base_offset, "t-0");
    if let Ok(ProducerCheck::Append) = r {
        m.update(b);
    }
    r
}

#[test]
fn a_producer_without_state_may_start_anywhere() {
    let mut m = ProducerStateManager::default();
    assert_eq!(
        apply(&mut m, &batch(7, 0, 42, 1, 0)),
        Ok(ProducerCheck::Append)
    );
}

#[test]
fn exact_duplicate_returns_the_original_offsets() {
    let mut m = ProducerStateManager::default();
    apply(&mut m, &batch(0, 0, 0, 3, 0)).unwrap();
    let again = batch(0, 0, 0, 3, 3);
    match apply(&mut m, &again).unwrap() {
        ProducerCheck::Duplicate(meta) => {
            assert_eq!((meta.first_offset(), meta.last_offset), (0, 2));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_partial_overlap_is_not_a_duplicate() {
    let mut m = ProducerStateManager::default();
    apply(&mut m, &batch(0, 0, 0, 3, 0)).unwrap();
    let err = apply(&mut m, &batch(0, 0, 1, 2, 3)).unwrap_err();
    assert_eq!(err.error, Errors::OutOfOrderSequenceNumber);
    assert_eq!(err.expected_seq, Some(3));
    assert_eq!(err.seq_direction, Some(SeqDirection::Behind));
}

#[test]
fn a_gap_is_out_of_order() {
    let mut m = ProducerStateManager::default();
    apply(&mut m, &batch(0, 0, 0, 3, 0)).unwrap();
    let err = apply(&mut m, &batch(0, 0, 5, 1, 3)).unwrap_err();
    assert_eq!(err.error, Errors::OutOfOrderSequenceNumber);
    assert_eq!(err.expected_seq, Some(3));
    assert_eq!(err.seq_direction, Some(SeqDirection::Ahead));
}

#[test]
fn the_window_keeps_five_batches() {
    let mut m = ProducerStateManager::default();
    for i in 0..6 {
        apply(&mut m, &batch(0, 0, i * 3, 3, i64::from(i) * 3)).unwrap();
    }
    assert_eq!(
        m.last_entry(0).unwrap().batch_metadata.len(),
        NUM_BATCHES_TO_RETAIN
    );
    // The oldest batch (0..2) slid out: its retry is now out of order, not a duplicate.
    let err = apply(&mut m, &batch(0, 0, 0, 3, 18)).unwrap_err();
    assert_eq!(err.error, Errors::OutOfOrderSequenceNumber);
    assert_eq!(err.expected_seq, Some(18));
    // Behind the expected sequence: a stale retry, which is not a gap.
    assert_eq!(err.seq_direction, Some(SeqDirection::Behind));
}

#[test]
fn an_older_epoch_is_fenced_and_a_new_epoch_starts_at_zero() {
    let mut m = ProducerStateManager::default();
    apply(&mut m, &batch(0, 1, 0, 1, 0)).unwrap();
    assert_eq!(
        apply(&mut m, &batch(0, 0, 1, 1, 1)).unwrap_err().error,
        Errors::InvalidProducerEpoch
    );
    let err = apply(&mut m, &batch(0, 2, 5, 1, 1)).unwrap_err();
    assert_eq!(err.error, Errors::OutOfOrderSequenceNumber);
    assert_eq!(err.expected_seq, Some(0));
    assert_eq!(
        apply(&mut m, &batch(0, 2, 0, 1, 1)),
        Ok(ProducerCheck::Append)
    );
    assert_eq!(
        m.last_entry(0).unwrap().batch_metadata.len(),
        1,
        "a new epoch forgets the old window"
    );
}

#[test]
fn sequences_wrap_after_i32_max() {
    assert!(in_sequence(i32::MAX, 0));
    assert!(!in_sequence(i32::MAX, 1));
    assert_eq!(increment_sequence(i32::MAX - 1, 3), 1);
    assert_eq!(decrement_sequence(1, 3), i32::MAX - 1);
    let mut m = ProducerStateManager::default();
    apply(&mut m, &batch(0, 0, i32::MAX - 1, 2, 0)).unwrap();
    assert_eq!(
        apply(&mut m, &batch(0, 0, 0, 1, 2)),
        Ok(ProducerCheck::Append)
    );
}

#[test]
fn snapshot_keeps_only_the_last_batch() {
    let mut m = ProducerStateManager::default();
    for i in 0..5 {
        apply(&mut m, &batch(1000, 0, i, 1, i64::from(i))).unwrap();
    }
    let bytes = m.snapshot_bytes();
    assert_eq!(bytes.len(), 2 + 4 + 4 + 46);
    let restored = ProducerStateManager::from_snapshot(&bytes, 5).unwrap();
    let entry = restored.last_entry(1000).unwrap();
    assert_eq!(entry.batch_metadata.len(), 1);
    assert_eq!(entry.last_seq(), 4);
    let mut corrupt = bytes.clone();
    corrupt[10] ^= 1;
    assert!(matches!(
        ProducerStateManager::from_snapshot(&corrupt, 5),
        Err(CorruptSnapshot::CrcMismatch { .. })
    ));
    assert!(matches!(
        ProducerStateManager::from_snapshot(&bytes[..4], 5),
        Err(CorruptSnapshot::Truncated(_))
    ));
    // `eos inspect` prints the detail as it was always worded.
    let crc = ProducerStateManager::from_snapshot(&corrupt, 5).err();
    assert!(crc.is_some_and(|e| e
        .to_string()
        .starts_with("snapshot CRC mismatch: stored 0x")));
    let mut newer = bytes.clone();
    newer[1] = 2;
    assert_eq!(
        ProducerStateManager::from_snapshot(&newer, 5).err(),
        Some(CorruptSnapshot::UnknownVersion(2))
    );
}

/// `ProducerStateManagerTest` "testLastStableOffsetCompletedTxn" and friends: a
/// transaction ended by a marker at or above the HW is still unstable; once the HW
/// passes the marker it is forgotten, and the next open one (if any) is first.
#[test]
fn a_decided_transaction_is_unstable_until_the_hw_passes_its_marker() {
    let txn = |pid: i64, base_offset: i64| {
        RecordBatch::new_data(base_offset, pid, 0, 0, true, 0, vec![(None, Some(vec![1]))])
    };
    let mut m = ProducerStateManager::default();
    m.update(&txn(1, 0));
    m.update(&txn(2, 1));
    assert_eq!(m.first_unstable_offset(0), Some(0));
    m.update(&RecordBatch::new_control(
        2,
        1,
        0,
        0,
        ControlRecordType::Commit,
        0,
    ));
    assert_eq!(m.first_undecided_offset(), Some(1));
    m.update(&RecordBatch::new_control(
        3,
        2,
        0,
        0,
        ControlRecordType::Commit,
        0,
    ));
    assert_eq!(m.first_undecided_offset(), None);
    // Both markers (offsets 2 and 3) are at or above an HW of 2.
    assert_eq!(m.first_unstable_offset(2), Some(0));
    // HW 3 passes producer 1's marker only; producer 2's (at 3) is not replicated.
    m.on_high_watermark_updated(3);
    assert_eq!(m.first_unstable_offset(3), Some(1));
    m.on_high_watermark_updated(4);
    assert_eq!(m.first_unstable_offset(4), None);
}

fn marker(pid: i64, epoch: i16, offset: i64, kind: ControlRecordType) -> RecordBatch {
    RecordBatch::new_control(offset, pid, epoch, 0, kind, 0)
}

/// `ProducerStateManagerTest.testAppendEmptyControlBatch` (Kafka 4.0): a control batch
/// the cleaner emptied starts no transaction, ends none, and leaves the epoch.
#[test]
fn an_empty_control_batch_changes_nothing() {
    let txn = RecordBatch::new_data(0, 1, 0, 0, true, 0, vec![(None, Some(vec![1]))]);
    let mut m = ProducerStateManager::default();
    m.update(&txn);
    let mut empty = marker(1, 3, 1, ControlRecordType::Abort);
    empty.records.clear();
    assert_eq!(m.update(&empty), None);
    let entry = m.last_entry(1).unwrap();
    assert_eq!(
        (entry.producer_epoch(), entry.current_txn_first_offset()),
        (0, Some(0))
    );
    empty.producer_id = 2;
    m.update(&empty);
    let entry = m.last_entry(2).unwrap();
    assert_eq!(
        (entry.producer_epoch(), entry.current_txn_first_offset()),
        (NO_PRODUCER_EPOCH, None)
    );
}

/// `ProducerStateManagerTest.testControlRecordBumpsProducerEpoch` and
/// `testProducerStateAfterFencingAbortMarker` (Kafka 4.0): a marker of a newer epoch
/// ends the transaction, takes the epoch and forgets the old epoch's batches; the next
/// batch must start at sequence 0.
#[test]
fn a_fencing_marker_bumps_the_epoch_and_empties_the_window() {
    let mut m = ProducerStateManager::default();
    let txn = RecordBatch::new_data(0, 1, 0, 0, true, 0, vec![(None, Some(vec![1]))]);
    apply(&mut m, &txn).unwrap();
    m.update(&marker(1, 1, 1, ControlRecordType::Abort));
    let entry = m.last_entry(1).unwrap();
    assert_eq!(entry.producer_epoch(), 1);
    assert_eq!(entry.current_txn_first_offset(), None);
    assert_eq!(entry.last_data_offset(), -1);
    // `testOutOfSequenceAfterControlRecordEpochBump`: old epoch fenced, new epoch from 0.
    assert_eq!(
        apply(&mut m, &batch(1, 0, 1, 1, 2)).unwrap_err().error,
        Errors::InvalidProducerEpoch
    );
    assert_eq!(
        apply(&mut m, &batch(1, 1, 1, 1, 2)).unwrap_err().error,
        Errors::OutOfOrderSequenceNumber
    );
    assert_eq!(
        apply(&mut m, &batch(1, 1, 0, 1, 2)),
        Ok(ProducerCheck::Append)
    );
}

/// `ProducerStateManagerTest.testOldEpochForControlRecord`, `testCoordinatorFencing`
/// and `testAppendTxnMarkerWithNoProducerState` (Kafka 4.0): before TV2, a marker of an
/// older producer epoch is INVALID_PRODUCER_EPOCH, one of an older coordinator epoch
/// TRANSACTION_COORDINATOR_FENCED; a producer with no state takes any marker.
#[test]
fn markers_are_fenced_by_producer_and_coordinator_epochs() {
    let mut m = ProducerStateManager::default();
    let first = RecordBatch::new_control(0, 1, 2, 0, ControlRecordType::Commit, 5);
    assert_eq!(
        m.check_marker(&first, 0, "t-0", false),
        Ok(MarkerCheck::Append)
    );
    m.update(&first);
    assert_eq!(m.last_entry(1).unwrap().coordinator_epoch(), 5);
    let old_epoch = RecordBatch::new_control(1, 1, 1, 0, ControlRecordType::Commit, 5);
    let err = m.check_marker(&old_epoch, 1, "t-0", false).unwrap_err();
    assert_eq!(err.error, Errors::InvalidProducerEpoch);
    let zombie = RecordBatch::new_control(1, 1, 2, 0, ControlRecordType::Commit, 4);
    let err = m.check_marker(&zombie, 1, "t-0", false).unwrap_err();
    assert_eq!(err.error, Errors::TransactionCoordinatorFenced);
    // `testCoordinatorFencedAfterReload`: the coordinator epoch survives a snapshot.
    let reloaded = ProducerStateManager::from_snapshot(&m.snapshot_bytes(), 1).unwrap();
    let err = reloaded.check_marker(&zombie, 1, "t-0", false).unwrap_err();
    assert_eq!(err.error, Errors::TransactionCoordinatorFenced);
}

/// `ProducerStateManagerTest.testNonTransactionalAppendWithOngoingTransaction` and
/// `testSkipEmptyTransactions` (Kafka 4.0): a plain batch inside the producer's open
/// transaction is INVALID_TXN_STATE; a marker with no open transaction completes none.
#[test]
fn a_plain_batch_inside_a_transaction_and_an_empty_transaction() {
    let mut m = ProducerStateManager::default();
    assert_eq!(m.update(&marker(1, 0, 0, ControlRecordType::Abort)), None);
    let txn = RecordBatch::new_data(1, 1, 0, 0, true, 0, vec![(None, Some(vec![1]))]);
    apply(&mut m, &txn).unwrap();
    assert_eq!(
        apply(&mut m, &batch(1, 0, 1, 1, 2)).unwrap_err().error,
        Errors::InvalidTxnState
    );
    let done = m
        .update(&marker(1, 0, 2, ControlRecordType::Commit))
        .unwrap();
    assert_eq!(
        (done.first_offset, done.last_offset, done.is_aborted),
        (1, 2, false)
    );
}

/// `ProducerStateManagerTest.testPidExpirationTimeout` and
/// `testProducersWithOngoingTransactionsDontExpire` (Kafka 4.0): an idle producer is
/// forgotten after `producer.id.expiration.ms` and its next batch taken at any
/// sequence; one with an open transaction is kept.
#[test]
fn idle_producers_expire_unless_a_transaction_is_open() {
    let mut m = ProducerStateManager::default();
    apply(&mut m, &batch(1, 5, 0, 1, 0)).unwrap();
    let txn = RecordBatch::new_data(1, 2, 0, 0, true, 0, vec![(None, Some(vec![1]))]);
    apply(&mut m, &txn).unwrap();
    assert_eq!(m.remove_expired_producers(1000, 1000), vec![1]);
    assert!(m.last_entry(2).is_some());
    assert_eq!(
        apply(&mut m, &batch(1, 5, 7, 1, 2)),
        Ok(ProducerCheck::Append)
    );
}

/// `ProducerStateManagerTest.testSequenceAndEpochInVerificationEntry`,
/// `testThrowOutOfOrderSequenceWithVerificationSequenceCheck` and
/// `testVerificationStateEntryExpiration` (Kafka 4.0): the entry keeps the lowest
/// sequence of its epoch (a newer epoch starts it again, an older one is ignored), a
/// batch above it is OUT_OF_ORDER_SEQUENCE_NUMBER, and it expires with the producers.
#[test]
fn a_verification_keeps_the_lowest_sequence_until_it_expires() {
    let mut m = ProducerStateManager::default();
    let lowest = |m: &ProducerStateManager| {
        m.verification_state_entry(1)
            .map(|v| (v.lowest_sequence(), v.epoch()))
    };
    m.maybe_create_verification_state_entry(1, 1, 0, 0);
    m.maybe_create_verification_state_entry(1, 0, 0, 5);
    assert_eq!(lowest(&m), Some((0, 0)));
    let txn = RecordBatch::new_data(0, 1, 0, 4, true, 0, vec![(None, Some(vec![1]))]);
    let err = apply(&mut m, &txn).unwrap_err();
    assert_eq!(err.error, Errors::OutOfOrderSequenceNumber);
    assert_eq!(lowest(&m), Some((0, 0)));
    m.maybe_create_verification_state_entry(1, 2, 1, 6);
    assert_eq!(lowest(&m), Some((2, 1)));
    m.maybe_create_verification_state_entry(1, 0, 0, 7);
    assert_eq!(lowest(&m), Some((2, 1)));
    // Expiry counts from the first verification (time 0), not from the later calls.
    m.remove_expired_producers(999, 1000);
    assert_eq!(lowest(&m), Some((2, 1)));
    m.remove_expired_producers(1000, 1000);
    assert_eq!(lowest(&m), None);
}

/// `ProducerStateManagerTest.testRecoverFromSnapshotUnfinishedTransaction` and
/// `testRecoverFromSnapshotFinishedTransaction` (Kafka 4.0): a snapshot keeps the last
/// batch and the open transaction's first offset; the next sequence is taken.
#[test]
fn a_snapshot_keeps_the_open_transaction() {
    let txn = |seq: i32, offset: i64| {
        RecordBatch::new_data(offset, 1, 0, seq, true, 0, vec![(None, Some(vec![1]))])
    };
    let mut m = ProducerStateManager::default();
    apply(&mut m, &txn(0, 0)).unwrap();
    apply(&mut m, &txn(1, 1)).unwrap();
    let mut open = ProducerStateManager::from_snapshot(&m.snapshot_bytes(), 2).unwrap();
    let e = open.last_entry(1).unwrap();
    assert_eq!(
        (e.first_seq(), e.last_seq(), e.last_data_offset()),
        (1, 1, 1)
    );
    assert_eq!(e.current_txn_first_offset(), Some(0));
    assert_eq!(apply(&mut open, &txn(2, 2)), Ok(ProducerCheck::Append));
    m.update(&marker(1, 0, 2, ControlRecordType::Abort));
    let done = ProducerStateManager::from_snapshot(&m.snapshot_bytes(), 3).unwrap();
    let e = done.last_entry(1).unwrap();
    assert_eq!((e.last_seq(), e.last_data_offset()), (1, 1));
    assert_eq!(e.current_txn_first_offset(), None);
}
