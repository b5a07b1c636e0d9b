//! English narration of a producer client: the accumulator, sequences, retries,
//! acknowledgements, and its transactional calls.

use super::errors::detail;
use crate::client::producer::ProducerEvent;
use crate::client::transaction_manager::TxnOutcome;

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
