//! What the transactional client does with each error answer, request by request:
//! the `handleResponse` of every `TxnRequestHandler` in Kafka's client
//! `TransactionManager` (apache/kafka trunk `1eb7644`, 4.0.0-SNAPSHOT):
//! `FindCoordinatorHandler`, `InitProducerIdHandler`, `AddPartitionsToTxnHandler`,
//! `AddOffsetsToTxnHandler`, `EndTxnHandler` and `TxnOffsetCommitHandler`.
//!
//! An error is retried after the backoff (`reenqueue`), sends the client to find its
//! coordinator again first (`lookupCoordinator`), leaves the transaction abortable
//! (`abortableError`; with `abortableErrorIfPossible` the abort must also bump the
//! epoch) or the producer unusable (`fatalError`). Each reaction names the exception
//! the application catches: Kafka wraps an error no handler names in a plain
//! `KafkaException` ("Unexpected error in …Response").

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::CoordinatorType;

use super::TxnRequestKind;

/// What a handler does with an error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reaction {
    /// `reenqueue()`: the same request again after the backoff.
    Retry,
    /// `lookupCoordinator(type, key)` then `reenqueue()`.
    FindCoordinatorAgain(CoordinatorType),
    /// `abortableError(e)`: only `abortTransaction()` goes on.
    Abortable { error: Errors, exception: String },
    /// `abortableErrorIfPossible(e)`: abortable, and the abort bumps the epoch
    /// (`canBumpEpoch()` holds: every coordinator here speaks InitProducerId v3+).
    AbortableBumpingEpoch { error: Errors },
    /// `fatalError(e)`: every later call throws; the producer must be closed.
    Fatal { error: Errors, exception: String },
}

impl Reaction {
    fn abortable(error: Errors) -> Self {
        Reaction::Abortable {
            error,
            exception: error.exception_name(),
        }
    }

    fn fatal(error: Errors) -> Self {
        Reaction::Fatal {
            error,
            exception: error.exception_name(),
        }
    }

    /// The handlers' last branch: an error they do not name.
    fn unexpected(error: Errors) -> Self {
        Reaction::Fatal {
            error,
            exception: "KafkaException".into(),
        }
    }

    /// "We could still receive INVALID_PRODUCER_EPOCH from old versioned transaction
    /// coordinator, just treat it the same as PRODUCE_FENCED."
    fn fenced() -> Self {
        Reaction::fatal(Errors::ProducerFenced)
    }
}

/// The reaction to `error` in the answer to a request of this kind. (AddPartitionsToTxn
/// and TxnOffsetCommit answer per partition: see [`add_partitions`] and
/// [`txn_offset_commit`].)
pub(crate) fn reaction(kind: &TxnRequestKind, error: Errors) -> Reaction {
    use Errors::*;
    match kind {
        // `FindCoordinatorHandler`: any retriable error is tried again as it is.
        TxnRequestKind::FindCoordinator(_) => match error {
            e if e.is_retriable() => Reaction::Retry,
            TransactionalIdAuthorizationFailed => Reaction::fatal(error),
            GroupAuthorizationFailed | TransactionAbortable => Reaction::abortable(error),
            _ => Reaction::unexpected(error),
        },
        // `InitProducerIdHandler`: the authorization errors are abortable here, so an
        // application may abort and call initTransactions() again.
        TxnRequestKind::InitProducerId { .. } => match error {
            NotCoordinator | CoordinatorNotAvailable => {
                Reaction::FindCoordinatorAgain(CoordinatorType::Transaction)
            }
            e if e.is_retriable() => Reaction::Retry,
            TransactionalIdAuthorizationFailed | ClusterAuthorizationFailed => {
                Reaction::abortable(error)
            }
            InvalidProducerEpoch | ProducerFenced => Reaction::fenced(),
            TransactionAbortable => Reaction::abortable(error),
            _ => Reaction::unexpected(error),
        },
        // `EndTxnHandler`.
        TxnRequestKind::EndTxn { committed } => match error {
            NotCoordinator | CoordinatorNotAvailable => {
                Reaction::FindCoordinatorAgain(CoordinatorType::Transaction)
            }
            e if e.is_retriable() => Reaction::Retry,
            InvalidProducerEpoch | ProducerFenced => Reaction::fenced(),
            TransactionalIdAuthorizationFailed | InvalidTxnState => Reaction::fatal(error),
            UnknownProducerId | InvalidProducerIdMapping => {
                Reaction::AbortableBumpingEpoch { error }
            }
            // An abort answered TRANSACTION_ABORTABLE cannot be aborted again: since
            // Kafka 4.1 (KAFKA-19250) the handler fails it with a fatal `KafkaException`
            // instead of leaving the abort stuck in ABORTING_TRANSACTION (4.0).
            TransactionAbortable if !committed => Reaction::unexpected(error),
            TransactionAbortable => Reaction::abortable(error),
            _ => Reaction::unexpected(error),
        },
        // `AddOffsetsToTxnHandler` (before TV2).
        TxnRequestKind::AddOffsetsToTxn { .. } => match error {
            NotCoordinator | CoordinatorNotAvailable => {
                Reaction::FindCoordinatorAgain(CoordinatorType::Transaction)
            }
            e if e.is_retriable() => Reaction::Retry,
            UnknownProducerId | InvalidProducerIdMapping => {
                Reaction::AbortableBumpingEpoch { error }
            }
            InvalidProducerEpoch | ProducerFenced => Reaction::fenced(),
            TransactionalIdAuthorizationFailed | InvalidTxnState => Reaction::fatal(error),
            GroupAuthorizationFailed | TransactionAbortable => Reaction::abortable(error),
            _ => Reaction::unexpected(error),
        },
        TxnRequestKind::AddPartitionsToTxn { partitions } => {
            let results: Vec<(TopicPartition, Errors)> =
                partitions.iter().map(|tp| (tp.clone(), error)).collect();
            add_partitions(&results).unwrap_or(Reaction::Retry)
        }
        TxnRequestKind::TxnOffsetCommit => match txn_offset_commit(error) {
            OffsetAnswer::Fail(r) => r,
            OffsetAnswer::Committed => Reaction::Retry,
            OffsetAnswer::Retry { find_coordinator } => {
                if find_coordinator {
                    Reaction::FindCoordinatorAgain(CoordinatorType::Group)
                } else {
                    Reaction::Retry
                }
            }
        },
    }
}

/// `AddPartitionsToTxnHandler.handleResponse`: partition by partition, the first
/// retriable, fenced, fatal or abortable one decides at once; TOPIC_AUTHORIZATION_FAILED
/// and the errors it does not name (OPERATION_NOT_ATTEMPTED among them: the coordinator
/// did not try that partition because another failed) are gathered, and end in a
/// `TopicAuthorizationException`, else a `KafkaException` ("Could not add partitions to
/// transaction due to errors"), both abortable. `None`: every partition was added.
pub(crate) fn add_partitions(results: &[(TopicPartition, Errors)]) -> Option<Reaction> {
    use Errors::*;
    let mut unauthorized: Option<Errors> = Option::None;
    let mut other: Option<Errors> = Option::None;
    for (_, error) in results {
        let error = *error;
        match error {
            None => {}
            NotCoordinator | CoordinatorNotAvailable => {
                return Some(Reaction::FindCoordinatorAgain(CoordinatorType::Transaction))
            }
            // (CONCURRENT_TRANSACTIONS is retriable too; its shorter backoff is the
            // caller's `maybeOverrideRetryBackoffMs`.)
            e if e.is_retriable() => return Some(Reaction::Retry),
            InvalidProducerEpoch | ProducerFenced => return Some(Reaction::fenced()),
            TransactionalIdAuthorizationFailed | InvalidTxnState => {
                return Some(Reaction::fatal(error))
            }
            TopicAuthorizationFailed => {
                unauthorized.get_or_insert(error);
            }
            UnknownProducerId | InvalidProducerIdMapping => {
                return Some(Reaction::AbortableBumpingEpoch { error })
            }
            TransactionAbortable => return Some(Reaction::abortable(error)),
            _ => {
                other.get_or_insert(error);
            }
        }
    }
    match (unauthorized, other) {
        (Some(error), _) => Some(Reaction::abortable(error)),
        (Option::None, Some(error)) => Some(Reaction::Abortable {
            error,
            exception: "KafkaException".into(),
        }),
        (Option::None, Option::None) => Option::None,
    }
}

/// One partition's answer to TxnOffsetCommit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OffsetAnswer {
    /// NONE: the offset is committed (`pendingTxnOffsetCommits.remove`).
    Committed,
    /// Retriable: this partition goes again; COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR
    /// and REQUEST_TIMED_OUT first look the group coordinator up again.
    Retry { find_coordinator: bool },
    /// The loop stops here and the call fails.
    Fail(Reaction),
}

/// `TxnOffsetCommitHandler.handleResponse` for one partition's error. A consumer whose
/// generation or member id the group no longer knows gets a `CommitFailedException`
/// (abortable: another member owns its partitions now, so the transaction must abort).
pub(crate) fn txn_offset_commit(error: Errors) -> OffsetAnswer {
    use Errors::*;
    let fail = OffsetAnswer::Fail;
    match error {
        None => OffsetAnswer::Committed,
        CoordinatorNotAvailable | NotCoordinator | RequestTimedOut => OffsetAnswer::Retry {
            find_coordinator: true,
        },
        e if e.is_retriable() => OffsetAnswer::Retry {
            find_coordinator: false,
        },
        GroupAuthorizationFailed | FencedInstanceId | TransactionAbortable => {
            fail(Reaction::abortable(error))
        }
        UnknownMemberId | IllegalGeneration => fail(Reaction::Abortable {
            error,
            exception: "CommitFailedException".into(),
        }),
        InvalidProducerEpoch | ProducerFenced => fail(Reaction::fenced()),
        TransactionalIdAuthorizationFailed | UnsupportedForMessageFormat => {
            fail(Reaction::fatal(error))
        }
        _ => fail(Reaction::unexpected(error)),
    }
}

/// `maybeTransitionToErrorState` for a failed send: these exceptions make the producer
/// unusable; any other leaves a transaction abortable.
pub(crate) fn send_error_is_fatal(error: Errors) -> bool {
    matches!(
        error,
        Errors::ClusterAuthorizationFailed
            | Errors::TransactionalIdAuthorizationFailed
            | Errors::ProducerFenced
            | Errors::UnsupportedVersion
    )
}
