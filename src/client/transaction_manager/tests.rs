//! Unit tests of the client's `TransactionManager`.

use super::*;
use crate::client::consumer::ConsumerGroupMetadata;
use crate::protocol::Response;

#[test]
fn the_client_state_machine_refuses_illegal_calls() {
    let mut tm = TransactionManager::new("t".into(), 60_000);
    let none = (-1, -1);
    assert!(
        tm.call(&TxnCall::BeginTransaction, none).is_err(),
        "begin before initTransactions"
    );
    tm.call(&TxnCall::InitTransactions, none).unwrap();
    let (target, request, _) = tm.next_request(0, -1, -1, false).unwrap();
    assert_eq!(target, Target::Bootstrap);
    assert!(matches!(request, Request::FindCoordinator { .. }));
    tm.in_flight = Some(1);
    assert!(
        tm.next_request(0, -1, -1, false).is_none(),
        "one request at a time"
    );
    tm.on_response(
        &TxnRequestKind::FindCoordinator(CoordinatorType::Transaction),
        &Response::FindCoordinator {
            error: Errors::None,
            node_id: 1,
        },
        0,
        100,
    );
    let (_, request, kind) = tm.next_request(0, -1, -1, false).unwrap();
    assert!(matches!(
        request,
        Request::InitProducerId {
            transactional_id: Some(_),
            ..
        }
    ));
    let (outcome, ids) = tm.on_response(&kind, &init_error(Errors::ConcurrentTransactions), 0, 100);
    assert!(matches!(outcome, Some(TxnOutcome::Retrying { .. })));
    assert_eq!(ids, None);
    assert!(tm.next_request(50, -1, -1, false).is_none(), "backoff");
    let (_, _, kind) = tm.next_request(100, -1, -1, false).unwrap();
    let (_, ids) = tm.on_response(
        &kind,
        &Response::InitProducerId {
            error: Errors::None,
            producer_id: 0,
            producer_epoch: 2,
        },
        100,
        100,
    );
    assert_eq!(ids, Some((0, 2)));
    assert!(
        matches!(
            tm.call(&TxnCall::BeginTransaction, (0, 2)),
            Err(TxnCallError::PendingCall { .. })
        ),
        "initTransactions has not returned to the application yet"
    );
    assert_eq!(tm.ack(), None);
    tm.call(&TxnCall::BeginTransaction, (0, 2)).unwrap();
    let tp = TopicPartition::new("t", 0);
    tm.call(&TxnCall::Send { tp }, (0, 2)).unwrap();
    tm.on_batch_error(Errors::InvalidProducerEpoch);
    assert!(
        matches!(
            tm.call(&TxnCall::CommitTransaction, (0, 2)),
            Err(TxnCallError::OldEpoch { .. })
        ),
        "commit fails with the send's error"
    );
    assert_eq!(
        tm.call(&TxnCall::AbortTransaction, (0, 2)),
        Ok(Begun::Started)
    );
}

// ------------------------------------------------------------ KIP-360 epoch bump

fn ok_init(producer_id: i64, producer_epoch: i16) -> Response {
    Response::InitProducerId {
        error: Errors::None,
        producer_id,
        producer_epoch,
    }
}

/// An InitProducerId answer with `error` (no producer id, no epoch).
fn init_error(error: Errors) -> Response {
    Response::InitProducerId {
        error,
        producer_id: -1,
        producer_epoch: -1,
    }
}

fn end_txn(error: Errors, producer_id: i64, producer_epoch: i16) -> Response {
    Response::EndTxn {
        error,
        producer_id,
        producer_epoch,
    }
}

/// A producer at (0, `epoch`) in a transaction that wrote to `t-0` (added by the
/// client itself when `v2` is false).
fn in_transaction(v2: bool, epoch: i16) -> (TransactionManager, TopicPartition) {
    let mut tm = TransactionManager::new("t".into(), 60_000);
    tm.transaction_v2 = v2;
    tm.call(&TxnCall::InitTransactions, (-1, -1)).unwrap();
    let (_, _, kind) = tm.next_request(0, -1, -1, false).unwrap();
    tm.on_response(
        &kind,
        &Response::FindCoordinator {
            error: Errors::None,
            node_id: 1,
        },
        0,
        100,
    );
    let (_, _, kind) = tm.next_request(0, -1, -1, false).unwrap();
    assert_eq!(kind, TxnRequestKind::InitProducerId { epoch_bump: false });
    tm.on_response(&kind, &ok_init(0, epoch), 0, 100);
    assert_eq!(tm.ack(), None);
    tm.call(&TxnCall::BeginTransaction, (0, epoch)).unwrap();
    let tp = TopicPartition::new("t", 0);
    tm.call(&TxnCall::Send { tp: tp.clone() }, (0, epoch))
        .unwrap();
    if !v2 {
        let (_, _, kind) = tm.next_request(0, 0, epoch, true).unwrap();
        tm.on_response(
            &kind,
            &Response::AddPartitionsToTxn {
                results: vec![(tp.clone(), Errors::None)],
            },
            0,
            100,
        );
    }
    (tm, tp)
}

/// Kafka's `testBumpTransactionalEpochOnAbortableError` (there TOPIC_AUTHORIZATION_FAILED;
/// here INVALID_RECORD, another error that is neither retriable nor fatal) and
/// `testBumpTransactionalEpochOnUnknownProducerIdError` (TransactionManagerTest, trunk
/// 1eb7644), under transaction.version 1: a failed send requires the bump; the abort
/// sends EndTxn at the old epoch, then InitProducerId with the producer's id and epoch
/// (retried while the coordinator still completes the abort), and returns at epoch + 1.
#[test]
fn abortable_send_error_bumps_the_epoch_at_the_abort_before_tv2() {
    for error in [
        Errors::InvalidRecord,
        Errors::UnknownProducerId,
        Errors::OutOfOrderSequenceNumber,
    ] {
        let (mut tm, _) = in_transaction(false, 1);
        assert!(tm.on_batch_error(error), "{error:?} requires the bump");
        assert!(!tm.on_batch_error(error), "only the first error is news");
        assert_eq!(tm.state, TxnState::AbortableError);
        assert_eq!(tm.epoch_bump(), EpochBump::Required);
        assert_eq!(
            tm.call(&TxnCall::AbortTransaction, (0, 1)),
            Ok(Begun::Started)
        );
        let (_, request, kind) = tm.next_request(0, 0, 1, false).unwrap();
        assert!(matches!(
            request,
            Request::EndTxn {
                producer_epoch: 1,
                committed: false,
                ..
            }
        ));
        let (outcome, ids) = tm.on_response(&kind, &end_txn(Errors::None, 0, 1), 0, 100);
        assert_eq!(
            (outcome, ids),
            (None, None),
            "abortTransaction still blocks"
        );
        assert_eq!(tm.state, TxnState::Initializing);
        assert!(tm.is_waiting());
        assert!(tm.partitions_in_transaction.is_empty());
        let (_, request, kind) = tm.next_request(0, 0, 1, false).unwrap();
        assert_eq!(kind, TxnRequestKind::InitProducerId { epoch_bump: true });
        assert!(matches!(
            request,
            Request::InitProducerId {
                transactional_id: Some(_),
                producer_id: 0,
                producer_epoch: 1,
                ..
            }
        ));
        // The markers are not written yet: the coordinator says CONCURRENT_TRANSACTIONS.
        let (outcome, _) =
            tm.on_response(&kind, &init_error(Errors::ConcurrentTransactions), 0, 100);
        assert!(matches!(outcome, Some(TxnOutcome::Retrying { .. })));
        assert!(tm.is_waiting());
        let (_, _, kind) = tm.next_request(100, 0, 1, false).unwrap();
        let (outcome, ids) = tm.on_response(&kind, &ok_init(0, 2), 100, 100);
        assert_eq!(
            outcome,
            Some(TxnOutcome::Aborted {
                producer_id: 0,
                producer_epoch: 2
            })
        );
        assert_eq!(ids, Some((0, 2)), "the producer adopts epoch 2");
        assert_eq!(
            (tm.state, tm.epoch_bump(), tm.last_error),
            (TxnState::Ready, EpochBump::NotRequired, None)
        );
        assert!(!tm.is_waiting());
        assert_eq!(tm.ack(), None, "abortTransaction() returned successfully");
        tm.call(&TxnCall::BeginTransaction, (0, 2)).unwrap();
    }
}

/// The same failure under transaction.version 2: EndTxn itself bumps the epoch
/// (`needToTriggerEpochBumpFromClient` is false), so the abort needs no InitProducerId.
#[test]
fn under_tv2_the_end_txn_answer_is_the_bump() {
    let (mut tm, _) = in_transaction(true, 1);
    assert!(!tm.on_batch_error(Errors::OutOfOrderSequenceNumber));
    assert_eq!(
        (tm.state, tm.epoch_bump()),
        (TxnState::AbortableError, EpochBump::NotRequired)
    );
    tm.call(&TxnCall::AbortTransaction, (0, 1)).unwrap();
    let (_, _, kind) = tm.next_request(0, 0, 1, false).unwrap();
    let (outcome, ids) = tm.on_response(&kind, &end_txn(Errors::None, 0, 2), 0, 100);
    assert_eq!(
        outcome,
        Some(TxnOutcome::Aborted {
            producer_id: 0,
            producer_epoch: 2
        })
    );
    assert_eq!((ids, tm.state), (Some((0, 2)), TxnState::Ready));
    assert!(tm.next_request(0, 0, 2, false).is_none());
}

/// `maybeTransitionToErrorState` sets the flag only when the transaction is not
/// completing (Kafka's `!isCompleting()`): a send failing during the commit makes
/// the commit fail, and the abort after it keeps the epoch (TV1).
#[test]
fn a_send_failing_while_completing_requires_no_bump() {
    let (mut tm, _) = in_transaction(false, 1);
    tm.call(&TxnCall::CommitTransaction, (0, 1)).unwrap();
    assert!(!tm.on_batch_error(Errors::OutOfOrderSequenceNumber));
    assert_eq!(
        (tm.state, tm.epoch_bump()),
        (TxnState::AbortableError, EpochBump::NotRequired)
    );
}

/// `EndTxnHandler` since Kafka 4.1 (KAFKA-19250): TRANSACTION_ABORTABLE in answer to
/// an abort fails it with a fatal `KafkaException`; the producer must be closed.
#[test]
fn an_abort_answered_transaction_abortable_is_fatal() {
    let (mut tm, _) = in_transaction(true, 2);
    tm.call(&TxnCall::AbortTransaction, (0, 2)).unwrap();
    let (_, _, kind) = tm.next_request(0, 0, 2, false).unwrap();
    let (outcome, _) = tm.on_response(
        &kind,
        &end_txn(Errors::TransactionAbortable, -1, -1),
        0,
        100,
    );
    assert_eq!(
        outcome,
        Some(TxnOutcome::Failed {
            operation: "abortTransaction".into(),
            error: Errors::TransactionAbortable,
            exception: "KafkaException".into(),
        })
    );
    assert_eq!(tm.state(), TxnState::FatalError);
    assert_eq!(tm.ack(), None, "the failure was reported by the answer");
    assert!(!tm.wants_request());
    assert!(matches!(
        tm.call(&TxnCall::AbortTransaction, (0, 2)),
        Err(TxnCallError::InErrorState {
            abortable: false,
            ..
        })
    ));
}

/// An abortable answer to an abort's EndTxn (UNKNOWN_PRODUCER_ID, through
/// `abortableErrorIfPossible`): the call fails, and `transitionToAbortableError` skips a
/// transaction already ABORTING_TRANSACTION, so it stays there with nothing queued and
/// a second abort is an invalid transition.
#[test]
fn an_abortable_end_txn_answer_leaves_the_abort_aborting() {
    let (mut tm, _) = in_transaction(true, 2);
    tm.call(&TxnCall::AbortTransaction, (0, 2)).unwrap();
    let (_, _, kind) = tm.next_request(0, 0, 2, false).unwrap();
    let (outcome, _) = tm.on_response(&kind, &end_txn(Errors::UnknownProducerId, -1, -1), 0, 100);
    assert_eq!(
        outcome,
        Some(TxnOutcome::Failed {
            operation: "abortTransaction".into(),
            error: Errors::UnknownProducerId,
            exception: "UnknownProducerIdException".into(),
        })
    );
    assert_eq!(
        (tm.state(), tm.last_error()),
        (TxnState::AbortingTransaction, None)
    );
    assert!(!tm.is_waiting(), "abortTransaction() has returned");
    assert_eq!(tm.ack(), None, "the failure was reported by the answer");
    assert!(!tm.wants_request());
    assert_eq!(tm.next_request(1_000, 0, 2, false), None);
    assert!(matches!(
        tm.call(&TxnCall::AbortTransaction, (0, 2)),
        Err(TxnCallError::InvalidTransition {
            from: TxnState::AbortingTransaction,
            to: TxnState::AbortingTransaction,
            ..
        })
    ));
}

/// `EndTxnHandler`: UNKNOWN_PRODUCER_ID calls `abortableErrorIfPossible` (the commit
/// fails with an abortable error and requires the bump); the abort then ends with
/// InitProducerId. PRODUCER_FENCED on that InitProducerId is fatal.
#[test]
fn end_txn_unknown_producer_id_is_abortable_and_a_fenced_bump_is_fatal() {
    let (mut tm, _) = in_transaction(false, 3);
    tm.call(&TxnCall::CommitTransaction, (0, 3)).unwrap();
    let (_, _, kind) = tm.next_request(0, 0, 3, false).unwrap();
    let (outcome, _) = tm.on_response(&kind, &end_txn(Errors::UnknownProducerId, -1, -1), 0, 100);
    assert!(matches!(
        outcome,
        Some(TxnOutcome::Failed {
            error: Errors::UnknownProducerId,
            ..
        })
    ));
    assert_eq!(
        (tm.state, tm.epoch_bump()),
        (TxnState::AbortableError, EpochBump::Required)
    );
    assert_eq!(tm.ack(), None, "the failure was reported by the answer");
    tm.call(&TxnCall::AbortTransaction, (0, 3)).unwrap();
    let (_, _, kind) = tm.next_request(0, 0, 3, false).unwrap();
    tm.on_response(&kind, &end_txn(Errors::None, 0, 3), 0, 100);
    let (_, _, kind) = tm.next_request(0, 0, 3, false).unwrap();
    let (outcome, ids) = tm.on_response(&kind, &init_error(Errors::ProducerFenced), 0, 100);
    assert_eq!(ids, None);
    assert_eq!(
        outcome,
        Some(TxnOutcome::Failed {
            operation: "abortTransaction".into(),
            error: Errors::ProducerFenced,
            exception: "ProducerFencedException".into(),
        })
    );
    assert_eq!(tm.state, TxnState::FatalError);
}

/// `AddPartitionsToTxnHandler` (TV1): INVALID_PRODUCER_ID_MAPPING (like
/// UNKNOWN_PRODUCER_ID) is abortable with a bump, as in Kafka's
/// `testBumpTransactionalEpochOnRecoverableAddPartitionRequestError`.
#[test]
fn add_partitions_invalid_mapping_requires_the_bump() {
    let mut tm = TransactionManager::new("t".into(), 60_000);
    tm.transaction_v2 = false;
    tm.state = TxnState::InTransaction;
    tm.coordinator = Some(1);
    let tp = TopicPartition::new("t", 0);
    tm.call(&TxnCall::Send { tp: tp.clone() }, (0, 0)).unwrap();
    let (_, _, kind) = tm.next_request(0, 0, 0, true).unwrap();
    tm.on_response(
        &kind,
        &Response::AddPartitionsToTxn {
            results: vec![(tp, Errors::InvalidProducerIdMapping)],
        },
        0,
        100,
    );
    assert_eq!(
        (tm.state, tm.epoch_bump()),
        (TxnState::AbortableError, EpochBump::Required)
    );
}

fn tp(topic: &str, partition: i32) -> TopicPartition {
    TopicPartition::new(topic, partition)
}

/// `AddPartitionsToTxnHandler`, one answer with several partitions: TOPIC_AUTHORIZATION_FAILED
/// wins over OPERATION_NOT_ATTEMPTED whatever their order (the topics are gathered);
/// OPERATION_NOT_ATTEMPTED alone is an abortable `KafkaException`; a retriable or fatal
/// partition decides at once, before the gathered ones
/// (TransactionManagerTest.testTopicAuthorizationFailureInAddPartitions).
#[test]
fn add_partitions_decides_partition_by_partition() {
    use handler_errors::{add_partitions, Reaction};
    use Errors::*;
    let topic_auth = Reaction::Abortable {
        error: TopicAuthorizationFailed,
        exception: "TopicAuthorizationException".into(),
    };
    for results in [
        vec![
            (tp("a", 0), TopicAuthorizationFailed),
            (tp("b", 0), OperationNotAttempted),
        ],
        vec![
            (tp("a", 0), OperationNotAttempted),
            (tp("b", 0), TopicAuthorizationFailed),
        ],
    ] {
        assert_eq!(add_partitions(&results), Some(topic_auth.clone()));
    }
    assert_eq!(
        add_partitions(&[(tp("a", 0), None), (tp("b", 0), OperationNotAttempted)]),
        Some(Reaction::Abortable {
            error: OperationNotAttempted,
            exception: "KafkaException".into(),
        })
    );
    assert_eq!(
        add_partitions(&[
            (tp("a", 0), TopicAuthorizationFailed),
            (tp("b", 0), ConcurrentTransactions)
        ]),
        Some(Reaction::Retry)
    );
    assert_eq!(
        add_partitions(&[
            (tp("a", 0), OperationNotAttempted),
            (tp("b", 0), InvalidTxnState)
        ]),
        Some(Reaction::Fatal {
            error: InvalidTxnState,
            exception: "InvalidTxnStateException".into(),
        })
    );
    assert_eq!(
        add_partitions(&[(tp("a", 0), NotCoordinator)]),
        Some(Reaction::FindCoordinatorAgain(CoordinatorType::Transaction))
    );
    assert_eq!(
        add_partitions(&[(tp("a", 0), None), (tp("b", 0), None)]),
        Option::None
    );
}

/// A TV2 transaction with offsets queued and the group coordinator known: the
/// TxnOffsetCommit request, and its kind.
fn offsets_in_flight() -> (TransactionManager, TxnRequestKind) {
    let (mut tm, _) = in_transaction(true, 0);
    let offsets = vec![
        OffsetEntry {
            topic_partition: tp("in", 0),
            offset: 2,
        },
        OffsetEntry {
            topic_partition: tp("in", 1),
            offset: 5,
        },
    ];
    tm.send_offsets(ConsumerGroupMetadata::simple("g"), offsets);
    tm.group_coordinator = Some(1);
    let (_, request, kind) = tm.next_request(0, 0, 0, false).unwrap();
    assert!(matches!(request, Request::TxnOffsetCommit { ref offsets, .. } if offsets.len() == 2));
    (tm, kind)
}

/// `TxnOffsetCommitHandler`: a partition committed and one answered a retriable error:
/// the request goes again with every offset (it is built once); REQUEST_TIMED_OUT on any
/// partition first looks the group coordinator up again. A retriable partition before
/// an UNKNOWN_MEMBER_ID one does not stop the loop: the call fails with
/// `CommitFailedException` and the offsets are dropped.
#[test]
fn txn_offset_commit_decides_partition_by_partition() {
    let (mut tm, kind) = offsets_in_flight();
    let answer = Response::TxnOffsetCommit {
        results: vec![
            (tp("in", 0), Errors::None),
            (tp("in", 1), Errors::CoordinatorLoadInProgress),
        ],
    };
    let (outcome, _) = tm.on_response(&kind, &answer, 0, 100);
    assert_eq!(
        outcome,
        Some(TxnOutcome::Retrying {
            api: "TxnOffsetCommit".into(),
            error: Errors::CoordinatorLoadInProgress,
        })
    );
    assert_eq!(tm.group_coordinator, Some(1), "the same coordinator");
    let (_, request, kind) = tm.next_request(100, 0, 0, false).unwrap();
    assert!(matches!(request, Request::TxnOffsetCommit { ref offsets, .. } if offsets.len() == 2));

    let answer = Response::TxnOffsetCommit {
        results: vec![
            (tp("in", 0), Errors::None),
            (tp("in", 1), Errors::RequestTimedOut),
        ],
    };
    tm.on_response(&kind, &answer, 100, 100);
    assert_eq!(tm.group_coordinator, None, "looked up again");

    let (mut tm, kind) = offsets_in_flight();
    let answer = Response::TxnOffsetCommit {
        results: vec![
            (tp("in", 0), Errors::RequestTimedOut),
            (tp("in", 1), Errors::UnknownMemberId),
        ],
    };
    let (outcome, _) = tm.on_response(&kind, &answer, 0, 100);
    assert_eq!(
        outcome,
        Some(TxnOutcome::Failed {
            operation: "sendOffsetsToTransaction".into(),
            error: Errors::UnknownMemberId,
            exception: "CommitFailedException".into(),
        })
    );
    assert_eq!(tm.state, TxnState::AbortableError);
    assert!(!tm.has_pending_offsets());
}

/// `maybeTransitionToErrorState`: a send failing with an authorization the producer as
/// a whole lacks (or an unsupported version) is fatal; TOPIC_AUTHORIZATION_FAILED is
/// abortable like any other send error.
#[test]
fn send_errors_fatal_or_abortable() {
    for (error, state) in [
        (Errors::ClusterAuthorizationFailed, TxnState::FatalError),
        (
            Errors::TransactionalIdAuthorizationFailed,
            TxnState::FatalError,
        ),
        (Errors::UnsupportedVersion, TxnState::FatalError),
        (Errors::ProducerFenced, TxnState::FatalError),
        (Errors::TopicAuthorizationFailed, TxnState::AbortableError),
        (Errors::MessageTooLarge, TxnState::AbortableError),
    ] {
        let (mut tm, _) = in_transaction(true, 0);
        tm.on_batch_error(error);
        assert_eq!((error, tm.state), (error, state));
        assert_eq!(tm.last_error, Some(error));
    }
}

/// `AddOffsetsToTxnHandler` (before TV2): INVALID_PRODUCER_ID_MAPPING leaves the
/// transaction abortable with an epoch bump
/// (TransactionManagerTest.testBumpTransactionalEpochOnRecoverableAddOffsetsRequestError);
/// TRANSACTIONAL_ID_AUTHORIZATION_FAILED and INVALID_TXN_STATE are fatal
/// (testTransactionalIdAuthorizationFailureInAddOffsetsToTxn,
/// testInvalidTxnStateFailureInAddOffsetsToTxn); TRANSACTION_ABORTABLE is abortable
/// (testTransactionAbortableExceptionInAddOffsetsToTxn); NOT_COORDINATOR looks the
/// transaction coordinator up again; an error it does not name is a fatal KafkaException.
#[test]
fn add_offsets_to_txn_answers() {
    use handler_errors::{reaction, Reaction};
    use Errors::*;
    let kind = TxnRequestKind::AddOffsetsToTxn {
        group_id: "g".into(),
    };
    let fatal = |error: Errors, exception: &str| Reaction::Fatal {
        error,
        exception: exception.into(),
    };
    for (error, expected) in [
        (
            InvalidProducerIdMapping,
            Reaction::AbortableBumpingEpoch {
                error: InvalidProducerIdMapping,
            },
        ),
        (
            TransactionalIdAuthorizationFailed,
            fatal(
                TransactionalIdAuthorizationFailed,
                "TransactionalIdAuthorizationException",
            ),
        ),
        (
            InvalidTxnState,
            fatal(InvalidTxnState, "InvalidTxnStateException"),
        ),
        (
            TransactionAbortable,
            Reaction::Abortable {
                error: TransactionAbortable,
                exception: "TransactionAbortableException".into(),
            },
        ),
        (
            NotCoordinator,
            Reaction::FindCoordinatorAgain(CoordinatorType::Transaction),
        ),
        (ConcurrentTransactions, Reaction::Retry),
        (
            InvalidProducerEpoch,
            fatal(ProducerFenced, "ProducerFencedException"),
        ),
        (
            UnknownServerError,
            fatal(UnknownServerError, "KafkaException"),
        ),
    ] {
        assert_eq!(reaction(&kind, error), expected, "{error:?}");
    }
}
