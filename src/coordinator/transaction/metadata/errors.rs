//! Why a `TransactionMetadata` transition fails: Kafka's `IllegalStateException`s,
//! as values.

use serde::Serialize;

use super::TransactionState;
use crate::protocol::errors::Errors;

/// Why a transition could not be prepared or completed. Kafka throws
/// `IllegalStateException` (or `ProducerFencedException`) in these places; we return
/// a value so no input can panic the broker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TransitionError {
    /// `to` is not reachable from `from` (the `valid_previous_states` table).
    InvalidTransition {
        from: TransactionState,
        to: TransactionState,
    },
    /// A transition is already pending (`pendingState` is set).
    AlreadyPending {
        state: TransactionState,
        pending: TransactionState,
    },
    /// `complete_transition_to` without a pending state.
    NoPendingState { to: TransactionState },
    /// The pending state is not the state being completed.
    PendingMismatch {
        pending: TransactionState,
        to: TransactionState,
    },
    /// A negative producer id or epoch in the target.
    IllegalProducerIdOrEpoch {
        producer_id: i64,
        producer_epoch: i16,
    },
    /// The target's epoch/partitions/timeout/timestamps do not fit the move
    /// (`throwStateTransitionFailure`).
    UnexpectedMetadata {
        to: TransactionState,
        reason: &'static str,
    },
    /// `prepareIncrementProducerEpoch` when the epoch is exhausted.
    EpochExhausted {
        producer_id: i64,
        producer_epoch: i16,
    },
    /// `prepareIncrementProducerEpoch` with an expected epoch that is neither the
    /// current nor the last one.
    ProducerFenced,
}

impl TransitionError {
    /// The error code the client sees. Kafka answers UNKNOWN_SERVER_ERROR for its
    /// `IllegalStateException`s; we answer INVALID_TXN_STATE for table violations so
    /// the learner sees which rule fired.
    pub fn to_errors(&self) -> Errors {
        match self {
            TransitionError::ProducerFenced => Errors::ProducerFenced,
            TransitionError::EpochExhausted { .. }
            | TransitionError::IllegalProducerIdOrEpoch { .. } => Errors::UnknownServerError,
            _ => Errors::InvalidTxnState,
        }
    }
}

/// A rule Kafka treats as "this should not happen" (an `IllegalStateException` there),
/// as data for the event list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum InternalError {
    /// A transition could not be prepared or completed.
    Transition(TransitionError),
    /// The transactional id was found in a state that is never current (Dead, PrepareEpochFence).
    StateNeverCurrent(TransactionState),
}
