//! What the transaction coordinator did — state changes, fencing, timeouts, loading,
//! and the errors it answers — as catalog messages (`coordinator.*`).

use crate::coordinator::transaction::{CoordinatorEvent, InternalError, TransitionError};
use crate::i18n::message::Msg;
use crate::msg;

/// One arm a family of coordinator events, each worded by its family's function below.
pub(super) fn event(broker: i32, e: &CoordinatorEvent) -> Msg {
    match e {
        CoordinatorEvent::StateChanged { .. }
        | CoordinatorEvent::Fenced { .. }
        | CoordinatorEvent::TransactionalIdExpired { .. }
        | CoordinatorEvent::TimedOut { .. }
        | CoordinatorEvent::EndTxnEpochFenced { .. } => transaction_event(broker, e),
        CoordinatorEvent::Loaded { .. }
        | CoordinatorEvent::Unloaded { .. }
        | CoordinatorEvent::Rejected { .. }
        | CoordinatorEvent::AppendFailed { .. }
        | CoordinatorEvent::MarkersAbandoned { .. }
        | CoordinatorEvent::InternalError { .. } => partition_event(broker, e),
    }
}

/// A transaction's life: its state changing, its producer fenced, its id expired, its
/// timeout aborting it, an EndTxn from a fenced epoch.
fn transaction_event(broker: i32, e: &CoordinatorEvent) -> Msg {
    match e {
        CoordinatorEvent::StateChanged {
            transactional_id,
            partition,
            from,
            to,
            producer_epoch,
            ..
        } => msg!(
            "coordinator.state-changed",
            broker = broker,
            transactional_id = transactional_id,
            from = from.name(),
            to = to.name(),
            epoch = producer_epoch,
            partition = partition
        ),
        CoordinatorEvent::Fenced {
            transactional_id,
            producer_id,
            old_epoch,
            fence_epoch,
        } => msg!(
            "coordinator.fenced",
            broker = broker,
            transactional_id = transactional_id,
            producer_id = producer_id,
            old_epoch = old_epoch,
            fence_epoch = fence_epoch
        ),
        CoordinatorEvent::TransactionalIdExpired {
            transactional_id,
            producer_id,
            partition,
            expiration_ms,
        } => msg!(
            "coordinator.transactional-id-expired",
            broker = broker,
            transactional_id = transactional_id,
            producer_id = producer_id,
            partition = partition,
            expiration_ms = expiration_ms
        ),
        CoordinatorEvent::TimedOut {
            transactional_id,
            txn_timeout_ms,
            ..
        } => msg!(
            "coordinator.timed-out",
            broker = broker,
            transactional_id = transactional_id,
            timeout_ms = txn_timeout_ms
        ),
        CoordinatorEvent::EndTxnEpochFenced {
            transactional_id,
            epoch,
            current_epoch,
            state,
            transaction_v2,
        } => {
            if *transaction_v2 {
                msg!(
                    "coordinator.end-txn-fenced-tv2",
                    broker = broker,
                    transactional_id = transactional_id,
                    epoch = epoch,
                    state = state.name(),
                    current_epoch = current_epoch
                )
            } else {
                msg!(
                    "coordinator.end-txn-fenced",
                    broker = broker,
                    transactional_id = transactional_id,
                    epoch = epoch,
                    current_epoch = current_epoch
                )
            }
        }
        _ => super::unworded(),
    }
}

/// The coordinator's partition of `__transaction_state`: loaded or unloaded, a request
/// rejected, a log append failed, markers abandoned, an internal error.
fn partition_event(broker: i32, e: &CoordinatorEvent) -> Msg {
    match e {
        CoordinatorEvent::Loaded {
            partition,
            transactions,
            pending_completions,
            ..
        } => msg!(
            "coordinator.loaded",
            broker = broker,
            partition = partition,
            transactions = transactions,
            pending = if *pending_completions > 0 {
                msg!("coordinator.loaded.pending", pending = pending_completions)
            } else {
                Msg::new("empty")
            }
        ),
        CoordinatorEvent::Unloaded { partition, .. } => {
            msg!(
                "coordinator.unloaded",
                broker = broker,
                partition = partition
            )
        }
        CoordinatorEvent::Rejected {
            transactional_id,
            api,
            error,
        } => msg!(
            "coordinator.rejected",
            broker = broker,
            api = api,
            transactional_id = transactional_id,
            error = error.name()
        ),
        CoordinatorEvent::AppendFailed {
            transactional_id,
            target,
            error,
        } => msg!(
            "coordinator.append-failed",
            broker = broker,
            target = target.name(),
            transactional_id = transactional_id,
            error = error.name()
        ),
        CoordinatorEvent::MarkersAbandoned {
            transactional_id,
            partition,
            error,
        } => msg!(
            "coordinator.markers-abandoned",
            broker = broker,
            partition = partition,
            transactional_id = transactional_id,
            error = error.name()
        ),
        CoordinatorEvent::InternalError {
            transactional_id,
            detail,
        } => msg!(
            "coordinator.internal-error",
            broker = broker,
            transactional_id = transactional_id,
            detail = internal(detail)
        ),

        _ => super::unworded(),
    }
}

fn internal(e: &InternalError) -> Msg {
    match e {
        InternalError::Transition(t) => transition(t),
        InternalError::StateNeverCurrent(state) => {
            msg!("coordinator.internal.never-current", state = state)
        }
    }
}

fn transition(e: &TransitionError) -> Msg {
    match e {
        TransitionError::InvalidTransition { from, to } => {
            msg!(
                "coordinator.internal.invalid-transition",
                from = from,
                to = to
            )
        }
        TransitionError::AlreadyPending { state, pending } => {
            msg!(
                "coordinator.internal.already-pending",
                state = state,
                pending = pending
            )
        }
        TransitionError::NoPendingState { to } => {
            msg!("coordinator.internal.no-pending", to = to)
        }
        TransitionError::PendingMismatch { pending, to } => {
            msg!(
                "coordinator.internal.pending-mismatch",
                pending = pending,
                to = to
            )
        }
        TransitionError::IllegalProducerIdOrEpoch {
            producer_id,
            producer_epoch,
        } => msg!(
            "coordinator.internal.illegal-id-epoch",
            producer_id = producer_id,
            epoch = producer_epoch
        ),
        TransitionError::UnexpectedMetadata { to, reason } => {
            msg!(
                "coordinator.internal.unexpected-metadata",
                to = to,
                reason = reason
            )
        }
        TransitionError::EpochExhausted {
            producer_id,
            producer_epoch,
        } => msg!(
            "coordinator.internal.epoch-exhausted",
            producer_id = producer_id,
            epoch = producer_epoch
        ),
        TransitionError::ProducerFenced => Msg::new("coordinator.internal.producer-fenced"),
    }
}
