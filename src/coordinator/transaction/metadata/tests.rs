//! Unit tests of `TransactionMetadata`: they set private fields to start from a
//! chosen state, which only the module itself may do.

use super::*;
use crate::breaks::Breaks;
use crate::protocol::errors::Errors;

fn tp(p: i32) -> TopicPartition {
    TopicPartition::new("t", p)
}

fn set(ps: &[i32]) -> SortedSet<TopicPartition> {
    ps.iter().map(|p| tp(*p)).collect()
}

#[test]
fn new_producer_starts_at_epoch_zero() {
    let mut m = TransactionMetadata::new("x", 7, 60_000, 0);
    let t = m
        .prepare_increment_producer_epoch(60_000, None, 1, Breaks::default())
        .unwrap();
    assert_eq!(
        (t.producer_epoch, t.last_producer_epoch, t.prev_producer_id),
        (0, -1, 7)
    );
    m.complete_transition_to(&t).unwrap();
    assert_eq!(m.state, TransactionState::Empty);
    assert_eq!(m.previous_producer_id, 7);
}

#[test]
fn pending_blocks_a_second_prepare() {
    let mut m = TransactionMetadata::new("x", 7, 60_000, 0);
    let _t = m
        .prepare_increment_producer_epoch(60_000, None, 1, Breaks::default())
        .unwrap();
    assert!(matches!(
        m.prepare_add_partitions(&set(&[0]), 2, TransactionVersion::TV_2),
        Err(TransitionError::AlreadyPending { .. })
    ));
    m.clear_pending();
    assert_eq!(m.state, TransactionState::Empty);
    assert_eq!(m.producer_epoch, -1, "memory changes only after the write");
}

#[test]
fn full_tv2_cycle() {
    let mut m = TransactionMetadata::new("x", 7, 60_000, 0);
    let t = m
        .prepare_increment_producer_epoch(60_000, None, 1, Breaks::default())
        .unwrap();
    m.complete_transition_to(&t).unwrap();
    let t = m
        .prepare_add_partitions(&set(&[0, 1]), 2, TransactionVersion::TV_2)
        .unwrap();
    m.complete_transition_to(&t).unwrap();
    assert_eq!(m.txn_start_timestamp, 2);
    let t = m
        .prepare_abort_or_commit(
            TransactionState::PrepareCommit,
            TransactionVersion::TV_2,
            (-1, 3),
            false,
            Breaks::default(),
        )
        .unwrap();
    assert_eq!((t.producer_epoch, t.last_producer_epoch), (1, 0));
    m.complete_transition_to(&t).unwrap();
    let t = m.prepare_complete(4).unwrap();
    assert_eq!(t.txn_state, TransactionState::CompleteCommit);
    assert!(t.topic_partitions.is_empty());
    m.complete_transition_to(&t).unwrap();
    assert_eq!((m.producer_epoch, m.last_producer_epoch), (1, 0));
}

#[test]
fn epoch_overflow_rotates_the_producer_id_at_complete() {
    let mut m = TransactionMetadata::new("x", 7, 60_000, 0);
    m.producer_epoch = i16::MAX - 1;
    m.state = TransactionState::Ongoing;
    m.topic_partitions = set(&[0]);
    m.txn_start_timestamp = 1;
    m.client_transaction_version = TransactionVersion::TV_2;
    let t = m
        .prepare_abort_or_commit(
            TransactionState::PrepareCommit,
            TransactionVersion::TV_2,
            (8, 3),
            false,
            Breaks::default(),
        )
        .unwrap();
    assert_eq!(t.producer_epoch, i16::MAX);
    m.complete_transition_to(&t).unwrap();
    let t = m.prepare_complete(4).unwrap();
    assert_eq!(
        (t.producer_id, t.producer_epoch, t.prev_producer_id),
        (8, 0, 7)
    );
    m.complete_transition_to(&t).unwrap();
    assert_eq!(m.last_producer_epoch, i16::MAX - 1);
}

#[test]
fn init_with_expected_epoch() {
    let mut m = TransactionMetadata::new("x", 7, 60_000, 0);
    m.producer_epoch = 4;
    m.last_producer_epoch = 3;
    let t = m
        .prepare_increment_producer_epoch(1000, Some(3), 1, Breaks::default())
        .unwrap();
    assert_eq!(t.producer_epoch, 4, "a retry gets the same epoch");
    m.clear_pending();
    assert_eq!(
        m.prepare_increment_producer_epoch(1000, Some(1), 1, Breaks::default()),
        Err(TransitionError::ProducerFenced)
    );
    m.producer_epoch = i16::MAX - 1;
    assert!(matches!(
        m.prepare_increment_producer_epoch(1000, None, 1, Breaks::default()),
        Err(TransitionError::EpochExhausted { .. })
    ));
    let t = m.prepare_producer_id_rotation(9, 1000, 1, true).unwrap();
    assert_eq!(
        (t.producer_id, t.producer_epoch, t.last_producer_epoch),
        (9, 0, i16::MAX - 1)
    );
}

#[test]
fn complete_rejects_a_mismatched_target() {
    let mut m = TransactionMetadata::new("x", 7, 60_000, 0);
    let mut t = m
        .prepare_increment_producer_epoch(60_000, None, 1, Breaks::default())
        .unwrap();
    t.producer_epoch = 5;
    assert!(matches!(
        m.complete_transition_to(&t),
        Err(TransitionError::UnexpectedMetadata { .. })
    ));
    t.txn_state = TransactionState::Ongoing;
    assert!(matches!(
        m.complete_transition_to(&t),
        Err(TransitionError::PendingMismatch { .. })
    ));
    m.clear_pending();
    assert!(matches!(
        m.complete_transition_to(&t),
        Err(TransitionError::NoPendingState { .. })
    ));
}

// The state table (moved from tests/coordinator.rs: completing a transition needs a
// pending state set directly, which only this module may do).

fn expected_table(from: TransactionState, to: TransactionState) -> bool {
    use TransactionState::*;
    let prev: &[TransactionState] = match to {
        Empty => &[Empty, CompleteCommit, CompleteAbort],
        Ongoing => &[Ongoing, Empty, CompleteCommit, CompleteAbort],
        PrepareCommit => &[Ongoing, Empty, CompleteCommit, CompleteAbort],
        PrepareAbort => &[
            Ongoing,
            PrepareEpochFence,
            Empty,
            CompleteCommit,
            CompleteAbort,
        ],
        CompleteCommit => &[PrepareCommit],
        CompleteAbort => &[PrepareAbort],
        Dead => &[Empty, CompleteAbort, CompleteCommit],
        PrepareEpochFence => &[Ongoing],
    };
    prev.contains(&from)
}

fn meta_in(state: TransactionState) -> TransactionMetadata {
    let mut m = TransactionMetadata::new("x", 5, 60_000, 0);
    m.state = state;
    m.producer_epoch = 5;
    m.last_producer_epoch = 4;
    m.topic_partitions = [TopicPartition::new("t", 0)].into_iter().collect();
    m.txn_start_timestamp = 100;
    m.client_transaction_version = TransactionVersion::TV_2;
    m
}

#[test]
fn the_table_is_the_trunk_table() {
    let mut allowed = 0;
    for from in TransactionState::ALL {
        for to in TransactionState::ALL {
            assert_eq!(
                to.can_transition_from(from),
                expected_table(from, to),
                "{from} -> {to}"
            );
            allowed += usize::from(expected_table(from, to));
        }
    }
    assert_eq!(allowed, 3 + 4 + 4 + 5 + 1 + 1 + 3 + 1);
}

#[test]
fn every_prepare_method_obeys_the_table() {
    let tps: SortedSet<TopicPartition> = [TopicPartition::new("t", 1)].into_iter().collect();
    for from in TransactionState::ALL {
        for to in TransactionState::ALL {
            let mut m = meta_in(from);
            let r = match to {
                TransactionState::Empty => {
                    m.prepare_increment_producer_epoch(60_000, None, 1, Breaks::default())
                }
                TransactionState::Ongoing => {
                    m.prepare_add_partitions(&tps, 1, TransactionVersion::TV_2)
                }
                TransactionState::PrepareCommit | TransactionState::PrepareAbort => m
                    .prepare_abort_or_commit(
                        to,
                        TransactionVersion::TV_2,
                        (-1, 1),
                        false,
                        Breaks::default(),
                    ),
                TransactionState::PrepareEpochFence => m.prepare_fence_producer_epoch(),
                TransactionState::Dead => m.prepare_dead(),
                // prepare_complete picks CompleteCommit after PrepareCommit, else CompleteAbort.
                TransactionState::CompleteCommit | TransactionState::CompleteAbort => {
                    let target = if from == TransactionState::PrepareCommit {
                        TransactionState::CompleteCommit
                    } else {
                        TransactionState::CompleteAbort
                    };
                    if target != to {
                        continue;
                    }
                    m.prepare_complete(1)
                }
            };
            match r {
                Ok(t) => {
                    assert!(expected_table(from, to), "{from} -> {to} was allowed");
                    assert_eq!(t.txn_state, to);
                    assert_eq!(m.pending_state, Some(to));
                    assert_eq!(m.state, from, "prepare must not change the state");
                }
                Err(TransitionError::InvalidTransition { from: f, to: t }) => {
                    assert!(!expected_table(from, to), "{from} -> {to} was refused");
                    assert_eq!((f, t), (from, to));
                    assert_eq!(m.pending_state, None);
                }
                Err(e) => panic!("{from} -> {to}: unexpected {e:?}"),
            }
        }
    }
}

#[test]
fn complete_transition_to_obeys_the_table() {
    for from in TransactionState::ALL {
        for to in TransactionState::ALL {
            let mut m = meta_in(from);
            m.pending_state = Some(to);
            // A target that passes every other check for `to`.
            let mut t = TxnTransitMetadata {
                producer_id: m.producer_id,
                prev_producer_id: m.producer_id,
                next_producer_id: -1,
                producer_epoch: m.producer_epoch,
                last_producer_epoch: m.last_producer_epoch,
                txn_timeout_ms: m.txn_timeout_ms,
                txn_state: to,
                topic_partitions: m.topic_partitions.clone(),
                txn_start_timestamp: m.txn_start_timestamp,
                txn_last_update_timestamp: 1,
                client_transaction_version: TransactionVersion::TV_2,
            };
            match to {
                TransactionState::Empty => {
                    t.producer_epoch += 1;
                    t.topic_partitions.clear();
                    t.txn_start_timestamp = -1;
                }
                TransactionState::PrepareCommit | TransactionState::PrepareAbort => {
                    t.last_producer_epoch = m.producer_epoch;
                    t.producer_epoch += 1;
                }
                _ => {}
            }
            let r = m.complete_transition_to(&t);
            let completable = !matches!(
                to,
                TransactionState::PrepareEpochFence | TransactionState::Dead
            );
            if expected_table(from, to) && completable {
                assert_eq!(r, Ok(()), "{from} -> {to}");
                assert_eq!(m.state, to);
                assert_eq!(m.pending_state, None);
            } else {
                assert!(r.is_err(), "{from} -> {to} must fail");
                assert_eq!(m.state, from);
                if !expected_table(from, to) {
                    assert_eq!(
                        r,
                        Err(TransitionError::InvalidTransition { from, to }),
                        "{from} -> {to}"
                    );
                    assert_eq!(r.unwrap_err().to_errors(), Errors::InvalidTxnState);
                }
            }
        }
    }
}

// Kafka's TransactionMetadataTest (trunk's Java test, transaction-coordinator module),
// on metadata built field by field as Kafka's tests do.

/// Kafka's fixture: producer id 23423, the given epochs and state, no partitions.
fn kafka_meta(
    state: TransactionState,
    (epoch, last_epoch): (i16, i16),
    txn_start_timestamp: i64,
    tv: TransactionVersion,
) -> TransactionMetadata {
    let mut m = TransactionMetadata::new("txnlId", 23423, 30_000, 1_000);
    m.state = state;
    m.producer_epoch = epoch;
    m.last_producer_epoch = last_epoch;
    m.txn_start_timestamp = txn_start_timestamp;
    m.client_transaction_version = tv;
    m
}

/// testTransitFrom{Empty,CompleteAbort,CompleteCommit}ToPrepareAbortInV2: a TV2 abort
/// of an empty transaction bumps the epoch and starts the transaction now.
#[test]
fn a_tv2_empty_abort_starts_now() {
    for (state, start) in [
        (TransactionState::Empty, -1),
        (TransactionState::CompleteAbort, 999),
        (TransactionState::CompleteCommit, 999),
    ] {
        let mut m = kafka_meta(state, (735, -1), start, TransactionVersion::TV_2);
        let t = m
            .prepare_abort_or_commit(
                TransactionState::PrepareAbort,
                TransactionVersion::TV_2,
                (-1, 1_001),
                true,
                Breaks::default(),
            )
            .unwrap();
        m.complete_transition_to(&t).unwrap();
        assert_eq!(
            (m.producer_id, m.producer_epoch, m.txn_start_timestamp),
            (23423, 736, 1_001),
            "{state}"
        );
    }
}

/// testTolerateTimeShiftDuringComplete{Commit,Abort} (TV0 and TV2): Complete* keeps the
/// epoch, the last epoch and the start time, and takes the update time even if earlier.
#[test]
fn complete_keeps_the_epochs_and_the_start_time() {
    use TransactionState::*;
    for tv in [TransactionVersion::TV_0, TransactionVersion::TV_2] {
        for (from, to) in [
            (PrepareCommit, CompleteCommit),
            (PrepareAbort, CompleteAbort),
        ] {
            let mut m = kafka_meta(from, (1, 0), 1, tv);
            let t = m.prepare_complete(999).unwrap();
            m.complete_transition_to(&t).unwrap();
            let got = (
                m.state,
                m.producer_id,
                m.producer_epoch,
                m.last_producer_epoch,
            );
            assert_eq!(got, (to, 23423, 1, 0), "{tv:?} {from}");
            assert_eq!(
                (m.txn_start_timestamp, m.txn_last_update_timestamp),
                (1, 999)
            );
        }
    }
}

/// testTolerateUpdateTimeShiftDuringEpochBump, testTolerateUpdateTimeResetDuringProducer
/// IdRotation: InitProducerId clears the start time and takes the update time, even an
/// earlier one (trunk; Kafka 4.0 kept the old start time in memory).
#[test]
fn init_clears_the_start_time_and_takes_the_new_timeout() {
    let mut m = kafka_meta(
        TransactionState::Empty,
        (1, -1),
        1,
        TransactionVersion::TV_0,
    );
    let t = m
        .prepare_increment_producer_epoch(20_000, Some(1), 999, Breaks::default())
        .unwrap();
    m.complete_transition_to(&t).unwrap();
    let got = (m.producer_epoch, m.last_producer_epoch, m.txn_timeout_ms);
    assert_eq!(got, (2, 1, 20_000));
    assert_eq!(
        (m.txn_start_timestamp, m.txn_last_update_timestamp),
        (-1, 999)
    );

    let mut m = kafka_meta(
        TransactionState::Empty,
        (1, -1),
        1,
        TransactionVersion::TV_0,
    );
    let t = m
        .prepare_producer_id_rotation(23424, 30_000, 999, true)
        .unwrap();
    m.complete_transition_to(&t).unwrap();
    let got = (
        m.producer_id,
        m.previous_producer_id,
        m.producer_epoch,
        m.last_producer_epoch,
    );
    assert_eq!(got, (23424, 23423, 0, 1));
    assert_eq!(
        (m.txn_start_timestamp, m.txn_last_update_timestamp),
        (-1, 999)
    );
}

/// testRotateProducerIdIn{Ongoing,PrepareAbort,PrepareCommit}State: no new producer id
/// while a transaction is open, under TV0 or TV2; nothing becomes pending.
#[test]
fn no_rotation_while_a_transaction_is_open() {
    use TransactionState::*;
    for tv in [TransactionVersion::TV_0, TransactionVersion::TV_2] {
        for state in [Ongoing, PrepareAbort, PrepareCommit] {
            let mut m = kafka_meta(state, (i16::MAX - 1, -1), -1, tv);
            let r = m.prepare_producer_id_rotation(9893, 30_000, 1_000, false);
            assert!(
                matches!(r, Err(TransitionError::UnexpectedMetadata { .. })),
                "{tv:?} {state}"
            );
            assert_eq!(m.pending_state, None);
        }
    }
}
