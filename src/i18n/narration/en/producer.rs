//! English narration of a producer client: the accumulator, sequences, retries,
//! acknowledgements, and its transactional calls.

use super::errors::{detail, txn_exception};
use crate::client::producer::ProducerEvent;
use crate::client::transaction_manager::{TxnCall, TxnCallError, TxnOutcome, TxnState};

pub(super) fn event(client: &str, e: &ProducerEvent) -> String {
    match e {
        ProducerEvent::Accumulated { tp, values } => format!("{client}: send {values:?} to {tp} (waits in the accumulator)"),
        ProducerEvent::SequenceAssigned { tp, producer_id, producer_epoch, first_seq, last_seq, .. } => format!(
            "{client}: drained a batch for {tp}: producerId={producer_id} epoch={producer_epoch} seq {first_seq}..{last_seq} (assigned once, at drain)"
        ),
        ProducerEvent::BatchSent { tp, attempt, first_seq, last_seq, .. } => match (first_seq, last_seq) {
            (Some(a), Some(b)) if *attempt > 1 => format!("{client}: retry #{} of seq {a}..{b} to {tp} — same producer id, epoch and sequence", attempt - 1),
            (Some(a), Some(b)) => format!("{client}: Produce seq {a}..{b} to {tp}"),
            _ => format!("{client}: Produce to {tp} (attempt {attempt}, not idempotent)"),
        },
        ProducerEvent::InitProducerIdRetry { error, backoff_ms } => {
            format!("{client}: InitProducerId: {}, retrying in {backoff_ms} ms", error.name())
        }
        ProducerEvent::EpochBumped { producer_id, old_epoch, new_epoch, partitions } => {
            let on = partitions.iter().map(|tp| tp.to_string()).collect::<Vec<_>>().join(", ");
            if *new_epoch < 0 {
                format!("{client}: OUT_OF_ORDER_SEQUENCE_NUMBER on {on} at the last epoch ({old_epoch}) of producer {producer_id}: it drops the id and asks for a new one (InitProducerId)")
            } else {
                format!("{client}: OUT_OF_ORDER_SEQUENCE_NUMBER on {on}: the idempotent producer bumps its own epoch {old_epoch} → {new_epoch} (KIP-360) and every partition's sequence starts at 0 again; the failed batch stays failed")
            }
        }
        ProducerEvent::ProducerIdReceived { producer_id, producer_epoch } => {
            format!("{client}: got producerId={producer_id} epoch={producer_epoch}")
        }
        ProducerEvent::RequestTimedOut { broker, timeout_ms, .. } => format!(
            "{client}: no answer from broker {broker} within request.timeout.ms={timeout_ms}; the connection is closed and its batches will be retried"
        ),
        ProducerEvent::RetryScheduled { tp, error, attempt, .. } => {
            format!("{client}: will retry the batch for {tp} (attempt {attempt}) after {}", error.name())
        }
        ProducerEvent::Acknowledged { tp, base_offset, values, .. } => {
            format!("{client}: send of {values:?} to {tp} acknowledged at baseOffset={base_offset}")
        }
        ProducerEvent::Failed { tp, error, detail: d, .. } => format!(
            "{client}: send to {tp} failed with {}{}",
            error.name(),
            d.as_ref().map(|d| format!(": {}", detail(d))).unwrap_or_default()
        ),
        ProducerEvent::Transaction(outcome) => txn(client, outcome),
        ProducerEvent::BatchesAbortedLocally { count } => {
            format!("{client}: abortTransaction dropped {count} batch(es) that were never sent")
        }
        ProducerEvent::UndrainedBatchesAborted { count } => format!(
            "{client}: aborting, so {count} batch(es) waiting to be retried are dropped (abortUndrainedBatches); a request already on the wire may still arrive"
        ),
        ProducerEvent::StaleResponse { api, .. } => format!("{client}: ignored a late {api} response for a request it gave up on"),
    }
}

fn txn(client: &str, outcome: &TxnOutcome) -> String {
    match outcome {
        TxnOutcome::Initialized { producer_id, producer_epoch } => {
            format!("{client}: initTransactions done: producerId={producer_id} epoch={producer_epoch}")
        }
        TxnOutcome::Committed { producer_id, producer_epoch } => format!(
            "{client}: commitTransaction done; the coordinator bumped the epoch: producerId={producer_id} epoch={producer_epoch}, sequences restart at 0"
        ),
        TxnOutcome::EndedKeepingEpoch { committed, producer_id, producer_epoch } => format!(
            "{client}: {} done; before transaction.version 2 the epoch stays: producerId={producer_id} epoch={producer_epoch}, sequences go on",
            if *committed { "commitTransaction" } else { "abortTransaction" }
        ),
        TxnOutcome::Aborted { producer_id, producer_epoch } => format!(
            "{client}: abortTransaction done; producerId={producer_id} epoch={producer_epoch}, sequences restart at 0"
        ),
        TxnOutcome::OffsetsSent { group_id } => {
            format!("{client}: sendOffsetsToTransaction: offsets of group {group_id} joined the transaction")
        }
        TxnOutcome::Failed { operation, error } => {
            format!("{client}: {operation} failed: {} ({})", error.exception_name(), error.name())
        }
        TxnOutcome::Retrying { api, error } => format!("{client}: {api}: {}, retrying", error.name()),
        TxnOutcome::Refused { call, error } => refused(client, call, error),
        TxnOutcome::Resumed { call } => format!(
            "{client}: {}() again: the earlier call has not returned, so the client hands back its result and sends nothing new",
            call.name()
        ),
    }
}

/// A call the client refused itself: Kafka's exception, then why, in a learner's words.
fn refused(client: &str, call: &TxnCall, e: &TxnCallError) -> String {
    let exception = format!("{}: {}", e.exception_class(), txn_exception(e));
    let cause = e
        .cause()
        .filter(|_| matches!(e, TxnCallError::InErrorState { .. }))
        .map(|c| format!(" (caused by {})", c.exception_name()))
        .unwrap_or_default();
    let how = if matches!(call, TxnCall::Send { .. }) && e.is_api_exception() {
        "returned a failed Future (its callback gets the same)"
    } else {
        "threw at once"
    };
    format!(
        "{client}: {}() {how}: {exception}{cause}. The client refused it itself; nothing was sent. {}",
        call.name(),
        why(e)
    )
}

fn why(e: &TxnCallError) -> String {
    use TxnState::*;
    let fatal = "The error is fatal: close this producer and create a new one.";
    let abort = "Only abortTransaction() goes on from ABORTABLE_ERROR.";
    match e {
        TxnCallError::NoTransactionManager | TxnCallError::NotTransactional => {
            "Transactions need a transactional.id.".to_string()
        }
        TxnCallError::InvalidTransition { from: Uninitialized, .. }
        | TxnCallError::AddPartitionBeforeInit { .. } => {
            "No transaction exists before initTransactions(): call it first.".to_string()
        }
        TxnCallError::InvalidTransition { to: Initializing, .. } => {
            "initTransactions() is called once per producer.".to_string()
        }
        TxnCallError::InvalidTransition { from: InTransaction, to: InTransaction, .. } => {
            "A transaction is already open: commit or abort it first.".to_string()
        }
        TxnCallError::InvalidTransition { from: Ready, .. }
        | TxnCallError::AddPartitionNotInTransaction { state: Ready, .. }
        | TxnCallError::OffsetsWithoutTransaction { state: Ready } => {
            "No transaction is open: call beginTransaction() first.".to_string()
        }
        TxnCallError::InvalidTransition { from, to, .. } => format!(
            "{} cannot lead to {}.",
            from.name(),
            to.name()
        ),
        TxnCallError::AddPartitionNotInTransaction { state, .. }
        | TxnCallError::OffsetsWithoutTransaction { state } => format!(
            "A transactional producer writes only inside an open transaction, and it is {}.",
            state.name()
        ),
        TxnCallError::PendingCall { pending, .. } => format!(
            "The earlier {pending}() did not finish in time; Kafka allows only {pending}() again, to wait for its result."
        ),
        TxnCallError::Fenced { .. } => {
            format!("A newer producer with the same transactional.id took over. {fatal}")
        }
        TxnCallError::OldEpoch { abortable, .. } | TxnCallError::InErrorState { abortable, .. } => {
            if *abortable { abort.to_string() } else { fatal.to_string() }
        }
    }
}

/// `p: send to t-0 failed: RecordTooLargeException: …` — the exception a send's callback
/// (or `future.get()`) gets: Kafka's class for the error and the broker's message, else
/// the error's own.
pub(in crate::i18n::narration) fn send_callback_failure(
    kind: &crate::sim::EventKind,
) -> Option<String> {
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
    let message = d
        .as_ref()
        .map(detail)
        .unwrap_or_else(|| error.message().to_string());
    Some(format!(
        "{client}: send to {tp} failed: {}: {message}",
        error.exception_name()
    ))
}
