//! One sample (or more, where the wording branches) of every transaction-coordinator
//! event, for the catalog's completeness test (`events.rs` gathers them).

use crate::coordinator::transaction::{
    CoordinatorEvent, InternalError, TransactionState, TransitionError,
};
use crate::protocol::Errors;

use super::events::tp;

pub(super) fn coordinator_events() -> Vec<CoordinatorEvent> {
    let id = || "tx-1".to_string();
    let (empty, ongoing) = (TransactionState::Empty, TransactionState::Ongoing);
    let mut out = vec![
        CoordinatorEvent::TransactionalIdExpired {
            transactional_id: id(),
            producer_id: 7,
            partition: 16,
            expiration_ms: 604_800_000,
        },
        CoordinatorEvent::StateChanged {
            transactional_id: id(),
            partition: 0,
            from: empty,
            to: ongoing,
            producer_id: 0,
            producer_epoch: 0,
            record_json: "{}".into(),
        },
        CoordinatorEvent::Fenced {
            transactional_id: id(),
            producer_id: 0,
            old_epoch: 0,
            fence_epoch: 1,
        },
        CoordinatorEvent::TimedOut {
            transactional_id: id(),
            producer_id: 0,
            producer_epoch: 0,
            txn_start_timestamp: 0,
            txn_timeout_ms: 60_000,
        },
        CoordinatorEvent::Loaded {
            partition: 0,
            coordinator_epoch: 0,
            transactions: 2,
            pending_completions: 1,
            skipped_records: 0,
        },
        CoordinatorEvent::Loaded {
            partition: 0,
            coordinator_epoch: 0,
            transactions: 2,
            pending_completions: 0,
            skipped_records: 0,
        },
        CoordinatorEvent::Unloaded {
            partition: 0,
            transactions: 1,
        },
        CoordinatorEvent::Rejected {
            transactional_id: id(),
            api: "EndTxn",
            error: Errors::InvalidTxnState,
        },
        CoordinatorEvent::EndTxnEpochFenced {
            transactional_id: id(),
            epoch: 0,
            current_epoch: 1,
            state: TransactionState::Ongoing,
            transaction_v2: true,
        },
        CoordinatorEvent::EndTxnEpochFenced {
            transactional_id: id(),
            epoch: 1,
            current_epoch: 0,
            state: TransactionState::Ongoing,
            transaction_v2: false,
        },
        CoordinatorEvent::AppendFailed {
            transactional_id: id(),
            target: ongoing,
            error: Errors::NotCoordinator,
        },
        CoordinatorEvent::MarkersAbandoned {
            transactional_id: id(),
            partition: tp(),
            error: Errors::InvalidProducerEpoch,
        },
    ];
    let transitions = [
        TransitionError::InvalidTransition {
            from: empty,
            to: ongoing,
        },
        TransitionError::AlreadyPending {
            state: empty,
            pending: ongoing,
        },
        TransitionError::NoPendingState { to: ongoing },
        TransitionError::PendingMismatch {
            pending: empty,
            to: ongoing,
        },
        TransitionError::IllegalProducerIdOrEpoch {
            producer_id: -1,
            producer_epoch: -1,
        },
        TransitionError::UnexpectedMetadata {
            to: ongoing,
            reason: "the transaction timeout must not change",
        },
        TransitionError::EpochExhausted {
            producer_id: 0,
            producer_epoch: i16::MAX,
        },
        TransitionError::ProducerFenced,
    ];
    let details = transitions
        .into_iter()
        .map(InternalError::Transition)
        .chain([InternalError::StateNeverCurrent(TransactionState::Dead)]);
    out.extend(details.map(|detail| CoordinatorEvent::InternalError {
        transactional_id: id(),
        detail,
    }));
    out
}
