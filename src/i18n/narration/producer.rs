//! What a producer client did — the accumulator, sequences, retries,
//! acknowledgements, and its transactional calls — as catalog messages (`producer.*`).

use super::errors::{detail, txn_exception};
use crate::client::producer::ProducerEvent;
use crate::client::transaction_manager::{TxnCall, TxnCallError, TxnOutcome, TxnState};
use crate::i18n::message::{list, Arg, Msg};
use crate::msg;

/// One arm a family of producer events, each worded by its family's function below.
pub(super) fn event(client: &str, e: &ProducerEvent) -> Msg {
    match e {
        ProducerEvent::Accumulated { .. }
        | ProducerEvent::SequenceAssigned { .. }
        | ProducerEvent::BatchSent { .. }
        | ProducerEvent::Acknowledged { .. }
        | ProducerEvent::StaleResponse { .. } => send_event(client, e),
        ProducerEvent::Failed { .. }
        | ProducerEvent::BatchesAbortedLocally { .. }
        | ProducerEvent::UndrainedBatchesAborted { .. } => abandoned_event(client, e),
        ProducerEvent::RequestTimedOut { .. }
        | ProducerEvent::RetryScheduled { .. }
        | ProducerEvent::BackoffSkipped { .. }
        | ProducerEvent::BatchSplit { .. }
        | ProducerEvent::InitProducerIdRetry { .. } => retry_event(client, e),
        ProducerEvent::ProducerIdReceived { .. }
        | ProducerEvent::EpochBumped { .. }
        | ProducerEvent::SequenceUnresolved { .. }
        | ProducerEvent::SequenceResolved { .. }
        | ProducerEvent::TxnEpochBumpRequired { .. } => epoch_event(client, e),
        ProducerEvent::Transaction(outcome) => txn(client, outcome),
    }
}

/// The send path: records accumulated, a batch numbered, sent and acknowledged, and a
/// response that came too late.
fn send_event(client: &str, e: &ProducerEvent) -> Msg {
    match e {
        ProducerEvent::Accumulated { tp, values } => {
            msg!(
                "producer.accumulated",
                client = client,
                values = format!("{values:?}"),
                tp = tp
            )
        }
        ProducerEvent::SequenceAssigned {
            tp,
            producer_id,
            producer_epoch,
            first_seq,
            last_seq,
            ..
        } => msg!(
            "producer.sequence-assigned",
            client = client,
            tp = tp,
            producer_id = producer_id,
            epoch = producer_epoch,
            first_seq = first_seq,
            last_seq = last_seq
        ),
        ProducerEvent::BatchSent {
            tp,
            attempt,
            first_seq,
            last_seq,
            renumbered,
            ..
        } => match (first_seq, last_seq) {
            (Some(a), Some(b)) if renumbered.is_some() => msg!(
                "producer.retry-renumbered",
                client = client,
                retry = attempt.saturating_sub(1),
                epoch = renumbered.unwrap_or_default(),
                first_seq = a,
                last_seq = b,
                tp = tp
            ),
            (Some(a), Some(b)) if *attempt > 1 => {
                msg!(
                    "producer.retry",
                    client = client,
                    retry = attempt - 1,
                    first_seq = a,
                    last_seq = b,
                    tp = tp
                )
            }
            (Some(a), Some(b)) => msg!(
                "producer.produce",
                client = client,
                first_seq = a,
                last_seq = b,
                tp = tp
            ),
            _ => msg!(
                "producer.produce-not-idempotent",
                client = client,
                tp = tp,
                attempt = attempt
            ),
        },
        ProducerEvent::Acknowledged {
            tp,
            base_offset,
            values,
            ..
        } => msg!(
            "producer.acknowledged",
            client = client,
            values = format!("{values:?}"),
            tp = tp,
            base_offset = base_offset
        ),
        ProducerEvent::StaleResponse { api, .. } => {
            msg!("producer.stale-response", client = client, api = api)
        }

        _ => super::unworded(),
    }
}

/// A batch given up: failed with the broker's error, or aborted in the client before
/// it was sent or drained.
fn abandoned_event(client: &str, e: &ProducerEvent) -> Msg {
    match e {
        ProducerEvent::Failed {
            tp,
            error,
            detail: d,
            ..
        } => msg!(
            "producer.failed",
            client = client,
            tp = tp,
            error = error.name(),
            detail = match d {
                Some(d) => msg!("producer.failed.detail", detail = detail(d)),
                None => Msg::new("empty"),
            }
        ),
        ProducerEvent::BatchesAbortedLocally { count } => {
            msg!("producer.aborted-locally", client = client, count = count)
        }
        ProducerEvent::UndrainedBatchesAborted { count } => {
            msg!("producer.undrained-aborted", client = client, count = count)
        }
        _ => super::unworded(),
    }
}

/// Waiting and trying again: a request timed out or its connection lost, a retry
/// scheduled or its backoff skipped, a batch too large split, InitProducerId asked again.
fn retry_event(client: &str, e: &ProducerEvent) -> Msg {
    match e {
        ProducerEvent::RequestTimedOut {
            broker,
            disconnected: true,
            ..
        } => msg!("producer.disconnected", client = client, broker = broker),
        ProducerEvent::RequestTimedOut {
            broker, timeout_ms, ..
        } => {
            msg!(
                "producer.request-timed-out",
                client = client,
                broker = broker,
                timeout_ms = timeout_ms
            )
        }
        ProducerEvent::RetryScheduled {
            tp,
            error,
            attempt,
            backoff_ms,
            ..
        } => {
            msg!(
                "producer.retry-scheduled",
                client = client,
                tp = tp,
                attempt = attempt,
                error = error.name(),
                backoff_ms = backoff_ms
            )
        }
        ProducerEvent::BackoffSkipped {
            tp, leader_epoch, ..
        } => msg!(
            "producer.backoff-skipped",
            client = client,
            tp = tp,
            leader_epoch = leader_epoch
        ),
        ProducerEvent::BatchSplit {
            tp,
            records,
            batches,
            split_batch_size,
            ..
        } => msg!(
            "producer.batch-split",
            client = client,
            tp = tp,
            records = records,
            batches = batches,
            size = split_batch_size
        ),
        ProducerEvent::InitProducerIdRetry { error, backoff_ms } => {
            msg!(
                "producer.init-pid-retry",
                client = client,
                error = error.name(),
                backoff_ms = backoff_ms
            )
        }
        _ => super::unworded(),
    }
}

/// The producer id and epoch: received, bumped (and what it did to the batches in
/// flight), a sequence unresolved or resolved, a bump a transaction needs.
fn epoch_event(client: &str, e: &ProducerEvent) -> Msg {
    match e {
        ProducerEvent::ProducerIdReceived {
            producer_id,
            producer_epoch,
        } => {
            msg!(
                "producer.pid-received",
                client = client,
                producer_id = producer_id,
                epoch = producer_epoch
            )
        }
        ProducerEvent::EpochBumped {
            producer_id,
            old_epoch,
            new_epoch,
            partitions,
            error,
            unresolved,
            retried,
            renumbered,
        } => msg!(
            "producer.epoch-bumped",
            client = client,
            producer_id = producer_id,
            old_epoch = old_epoch,
            new_epoch = new_epoch,
            new_id = *new_epoch < 0,
            unresolved = *unresolved,
            then = if *renumbered > 0 {
                msg!(
                    "producer.epoch-bumped.renumbered",
                    retried = *retried,
                    renumbered = renumbered,
                    new_epoch = new_epoch,
                    partitions = list(partitions.iter().map(|tp| Arg::Text(tp.to_string())))
                )
            } else {
                msg!("producer.epoch-bumped.kept", retried = *retried)
            },
            error = error.name(),
            partitions = list(partitions.iter().map(|tp| Arg::Text(tp.to_string())))
        ),
        ProducerEvent::SequenceUnresolved { tp, next_sequence }
        | ProducerEvent::SequenceResolved { tp, next_sequence } => {
            Msg::new(if matches!(e, ProducerEvent::SequenceResolved { .. }) {
                "producer.sequence-resolved"
            } else {
                "producer.sequence-unresolved"
            })
            .arg("client", client)
            .arg("tp", tp)
            .arg("last_seq", next_sequence.wrapping_sub(1))
        }
        ProducerEvent::TxnEpochBumpRequired { error } => msg!(
            "producer.txn-epoch-bump-required",
            client = client,
            error = error.name()
        ),
        _ => super::unworded(),
    }
}

fn txn(client: &str, outcome: &TxnOutcome) -> Msg {
    match outcome {
        TxnOutcome::Initialized {
            producer_id,
            producer_epoch,
        }
        | TxnOutcome::Committed {
            producer_id,
            producer_epoch,
        }
        | TxnOutcome::Aborted {
            producer_id,
            producer_epoch,
        } => Msg::new(match outcome {
            TxnOutcome::Initialized { .. } => "producer.txn.initialized",
            TxnOutcome::Committed { .. } => "producer.txn.committed",
            _ => "producer.txn.aborted",
        })
        .arg("client", client)
        .arg("producer_id", producer_id)
        .arg("epoch", producer_epoch),
        TxnOutcome::EndedKeepingEpoch {
            committed,
            producer_id,
            producer_epoch,
        }
        | TxnOutcome::EndedWithoutEndTxn {
            committed,
            producer_id,
            producer_epoch,
        } => Msg::new(if matches!(outcome, TxnOutcome::EndedKeepingEpoch { .. }) {
            "producer.txn.ended-keeping-epoch"
        } else {
            "producer.txn.ended-without-end-txn"
        })
        .arg("client", client)
        .arg(
            "call",
            if *committed {
                "commitTransaction"
            } else {
                "abortTransaction"
            },
        )
        .arg("producer_id", producer_id)
        .arg("epoch", producer_epoch),
        TxnOutcome::OffsetsSent { group_id } => {
            msg!(
                "producer.txn.offsets-sent",
                client = client,
                group_id = group_id
            )
        }
        TxnOutcome::Failed {
            operation,
            error,
            exception,
        } => msg!(
            "producer.txn.failed",
            client = client,
            call = operation,
            exception = exception,
            error = error.name()
        ),
        TxnOutcome::Retrying { api, error } => {
            msg!(
                "producer.txn.retrying",
                client = client,
                api = api,
                error = error.name()
            )
        }
        TxnOutcome::Refused { call, error } => refused(client, call, error),
        TxnOutcome::Resumed { call } => {
            msg!("producer.txn.resumed", client = client, call = call.name())
        }
    }
}

/// A call the client refused itself: Kafka's exception, then why, in a learner's words.
fn refused(client: &str, call: &TxnCall, e: &TxnCallError) -> Msg {
    let cause = match e {
        TxnCallError::InErrorState {
            cause_exception: Some(exception),
            ..
        } => msg!("producer.refused.caused-by", exception = exception),
        _ => Msg::new("empty"),
    };
    let how = if matches!(call, TxnCall::Send { .. }) && e.is_api_exception() {
        Msg::new("producer.refused.failed-future")
    } else {
        Msg::new("producer.refused.threw")
    };
    msg!(
        "producer.refused",
        client = client,
        call = call.name(),
        how = how,
        class = e.exception_class(),
        exception = txn_exception(e),
        cause = cause,
        why = why(e)
    )
}

fn why(e: &TxnCallError) -> Msg {
    use TxnState::*;
    match e {
        TxnCallError::NoTransactionManager | TxnCallError::NotTransactional => {
            Msg::new("producer.why.needs-transactional-id")
        }
        TxnCallError::InvalidTransition {
            from: Uninitialized,
            ..
        }
        | TxnCallError::AddPartitionBeforeInit { .. } => Msg::new("producer.why.init-first"),
        TxnCallError::InvalidTransition {
            to: Initializing, ..
        } => Msg::new("producer.why.init-once"),
        TxnCallError::InvalidTransition {
            from: InTransaction,
            to: InTransaction,
            ..
        } => Msg::new("producer.why.already-open"),
        TxnCallError::InvalidTransition { from: Ready, .. }
        | TxnCallError::AddPartitionNotInTransaction { state: Ready, .. }
        | TxnCallError::OffsetsWithoutTransaction { state: Ready } => {
            Msg::new("producer.why.begin-first")
        }
        TxnCallError::InvalidTransition { from, to, .. } => {
            msg!(
                "producer.why.cannot-lead",
                from = from.name(),
                to = to.name()
            )
        }
        TxnCallError::AddPartitionNotInTransaction { state, .. }
        | TxnCallError::OffsetsWithoutTransaction { state } => {
            msg!("producer.why.only-inside", state = state.name())
        }
        TxnCallError::PendingCall { pending, .. } => {
            msg!("producer.why.pending", pending = pending)
        }
        TxnCallError::Fenced { .. } => msg!(
            "producer.why.fenced",
            fatal = Msg::new("producer.why.fatal")
        ),
        TxnCallError::OldEpoch { abortable, .. } | TxnCallError::InErrorState { abortable, .. } => {
            if *abortable {
                Msg::new("producer.why.abort-only")
            } else {
                Msg::new("producer.why.fatal")
            }
        }
    }
}

/// `p: send to t-0 failed: RecordTooLargeException: …` — the exception a send's callback
/// (or `future.get()`) gets: Kafka's class for the error and the broker's message, else
/// the error's own.
pub(in crate::i18n::narration) fn send_callback_failure(
    kind: &crate::sim::EventKind,
) -> Option<Msg> {
    let crate::sim::EventKind::Producer {
        client,
        event:
            ProducerEvent::Failed {
                tp,
                error,
                detail: d,
                ..
            },
    } = kind
    else {
        return None;
    };
    let message = match d {
        Some(d) => detail(d),
        None => msg!("plain", text = error.message()),
    };
    Some(msg!(
        "producer.send-callback-failure",
        client = client,
        tp = tp,
        exception = error.exception_name(),
        message = message
    ))
}
