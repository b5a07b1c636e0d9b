//! English narration of the transaction coordinator: state changes, fencing,
//! timeouts, loading, and the errors it answers.

use crate::coordinator::transaction::{CoordinatorEvent, InternalError, TransitionError};

pub(super) fn event(broker: i32, e: &CoordinatorEvent) -> String {
    match e {
        CoordinatorEvent::StateChanged { transactional_id, partition, from, to, producer_epoch, .. } => format!(
            "coordinator (broker {broker}): {transactional_id} {} → {} (epoch {producer_epoch}), written to __transaction_state-{partition} before memory changed",
            from.name(),
            to.name()
        ),
        CoordinatorEvent::TransactionalIdExpired { transactional_id, producer_id, partition, expiration_ms } => format!(
            "coordinator (broker {broker}): {transactional_id} (producer {producer_id}) had no transaction and no update for transactional.id.expiration.ms ({expiration_ms} ms) — Dead: a tombstone was written to __transaction_state-{partition} and the coordinator forgot it; the next InitProducerId with it gets a new producer id"
        ),
        CoordinatorEvent::Fenced { transactional_id, producer_id, old_epoch, fence_epoch } => format!(
            "coordinator (broker {broker}): a new producer with {transactional_id} arrived while producer {producer_id} (epoch {old_epoch}) had a transaction open — PrepareEpochFence: the epoch becomes {fence_epoch} and the coordinator aborts the open transaction itself; the newcomer is told CONCURRENT_TRANSACTIONS and retries"
        ),
        CoordinatorEvent::TimedOut { transactional_id, txn_timeout_ms, .. } => format!(
            "coordinator (broker {broker}): {transactional_id}'s transaction was open longer than transaction.timeout.ms={txn_timeout_ms}: aborting it"
        ),
        CoordinatorEvent::Loaded { partition, transactions, pending_completions, .. } => format!(
            "coordinator (broker {broker}): loaded __transaction_state-{partition}: {transactions} transactional id(s){}",
            if *pending_completions > 0 {
                format!(", {pending_completions} caught in Prepare* — their markers are sent again")
            } else {
                String::new()
            }
        ),
        CoordinatorEvent::Unloaded { partition, .. } => {
            format!("coordinator (broker {broker}): gave up __transaction_state-{partition}")
        }
        CoordinatorEvent::EndTxnEpochFenced { transactional_id, epoch, current_epoch, state, transaction_v2 } => if *transaction_v2 {
            format!("coordinator (broker {broker}): EndTxn for {transactional_id} carries epoch {epoch}, but the transaction is {} at epoch {current_epoch}: with transaction.version 2 every EndTxn bumped the epoch, so a request from an earlier transaction is fenced (PRODUCER_FENCED)", state.name())
        } else {
            format!("coordinator (broker {broker}): EndTxn for {transactional_id} carries epoch {epoch}, not the current {current_epoch}: before transaction.version 2 only the same epoch may end the transaction (PRODUCER_FENCED)")
        },
        CoordinatorEvent::Rejected { transactional_id, api, error } => {
            format!("coordinator (broker {broker}): {api} for {transactional_id} answered {}", error.name())
        }
        CoordinatorEvent::AppendFailed { transactional_id, target, error } => format!(
            "coordinator (broker {broker}): could not write {} for {transactional_id} ({}); memory unchanged",
            target.name(),
            error.name()
        ),
        CoordinatorEvent::MarkersAbandoned { transactional_id, partition, error } => format!(
            "coordinator (broker {broker}): {partition} refused {transactional_id}'s marker with {}; marker sending stops",
            error.name()
        ),
        CoordinatorEvent::InternalError { transactional_id, detail } => {
            format!("coordinator (broker {broker}): {transactional_id}: {}", internal(detail))
        }
    }
}

fn internal(e: &InternalError) -> String {
    match e {
        InternalError::Transition(t) => transition(t),
        InternalError::StateNeverCurrent(state) => {
            format!("found transactional id in state {state}, which should never be current")
        }
    }
}

fn transition(e: &TransitionError) -> String {
    match e {
        TransitionError::InvalidTransition { from, to } => {
            format!("{to} is not a valid next state of {from}")
        }
        TransitionError::AlreadyPending { state, pending } => {
            format!("state {state} already has a pending transition to {pending}")
        }
        TransitionError::NoPendingState { to } => {
            format!("completing a transition to {to} without a pending state")
        }
        TransitionError::PendingMismatch { pending, to } => {
            format!("pending state is {pending}, not {to}")
        }
        TransitionError::IllegalProducerIdOrEpoch {
            producer_id,
            producer_epoch,
        } => format!("illegal producer id {producer_id} / epoch {producer_epoch}"),
        TransitionError::UnexpectedMetadata { to, reason } => {
            format!("transition to {to} with unexpected metadata: {reason}")
        }
        TransitionError::EpochExhausted {
            producer_id,
            producer_epoch,
        } => format!(
            "cannot allocate more epochs for producer id {producer_id} (epoch {producer_epoch})"
        ),
        TransitionError::ProducerFenced => "producer fenced".to_string(),
    }
}
