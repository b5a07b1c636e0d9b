//! English narration of a consumer: fetches, the aborted-transaction filter of
//! read_committed, markers, positions and polls.

use crate::client::consumer::{ConsumerEvent, ConsumerException, CorruptBatch, PositionReason};

pub(in crate::i18n::narration) fn event(e: &ConsumerEvent) -> String {
    match e {
        ConsumerEvent::FetchReceived {
            tp,
            fetch_offset,
            high_watermark,
            last_stable_offset,
            bytes,
            aborted_transactions,
        } => format!(
            "{tp}: fetch from offset {fetch_offset} returned {bytes} bytes (high watermark {high_watermark}, last stable offset {last_stable_offset}, {aborted_transactions} aborted transaction(s) listed)"
        ),
        ConsumerEvent::StaleFetchDiscarded {
            tp,
            fetch_offset,
            position,
        } => format!(
            "{tp}: ignoring a fetch answer for offset {fetch_offset}; the position is now {} (FetchCollector discards stale fetches)",
            position.map_or("unset".to_string(), |p| p.to_string())
        ),
        ConsumerEvent::NotAssigned { tp } => {
            format!("{tp}: not assigned to this consumer; answer ignored")
        }
        ConsumerEvent::FetchError { tp, error } => {
            format!("{tp}: fetch failed with {error}; the position stays")
        }
        ConsumerEvent::AbortedProducerAdded {
            tp,
            producer_id,
            first_offset,
        } => format!(
            "{tp}: producer {producer_id} has an aborted transaction from offset {first_offset}: its transactional batches are skipped until its ABORT marker"
        ),
        ConsumerEvent::BatchSkippedAborted {
            tp,
            producer_id,
            base_offset,
            last_offset,
        } => format!(
            "{tp}: skipped aborted batch {base_offset}..{last_offset} of producer {producer_id} (read_committed)"
        ),
        ConsumerEvent::AbortMarkerSeen {
            tp,
            producer_id,
            offset,
            removed,
        } => {
            if *removed {
                format!("{tp}: ABORT marker of producer {producer_id} at offset {offset}: its aborted transaction ends, its later batches are read again")
            } else {
                format!("{tp}: ABORT marker of producer {producer_id} at offset {offset} (its aborted data was before this fetch)")
            }
        }
        ConsumerEvent::ControlBatchSkipped { tp, kind, offset } => format!(
            "{tp}: {} marker at offset {offset} is a control record: not delivered, position moves past it",
            kind.map_or("unknown", |k| k.name())
        ),
        ConsumerEvent::RecordsBeforePositionSkipped {
            tp,
            base_offset,
            count,
            position,
        } => format!(
            "{tp}: {count} record(s) of batch {base_offset} lie before position {position}: skipped"
        ),
        ConsumerEvent::RecordsDelivered {
            tp,
            count,
            first,
            last,
        } => format!("{tp}: poll() returned {count} record(s), offsets {first}..{last}"),
        ConsumerEvent::PartialBatchIgnored {
            tp,
            byte_position,
            bytes,
        } => format!(
            "{tp}: the last {bytes} bytes (from byte {byte_position}) are an incomplete batch: the next fetch reads it"
        ),
        ConsumerEvent::CorruptBatch { tp, offset, error } => format!(
            "{tp}: record batch at offset {offset} is invalid ({}); the consumer cannot move past it",
            corrupt(error)
        ),
        ConsumerEvent::PositionAdvanced { tp, from, to } => {
            format!("{tp}: position {from} -> {to}")
        }
        ConsumerEvent::PositionSet { tp, offset, reason } => {
            format!("{tp}: position set to {offset} ({})", position_reason(*reason))
        }
        ConsumerEvent::NoOffsetForPartition { tp } => format!(
            "{tp}: no committed offset and auto.offset.reset=none (NoOffsetForPartitionException)"
        ),
        ConsumerEvent::OffsetOutOfRange {
            tp,
            fetch_offset,
            log_start_offset,
            reset,
        } => match reset {
            Some(strategy) => format!(
                "{tp}: fetch position {fetch_offset} is out of range (log start offset {log_start_offset}): OFFSET_OUT_OF_RANGE; auto.offset.reset={} picks a new position",
                strategy.name()
            ),
            None => format!(
                "{tp}: fetch position {fetch_offset} is out of range (log start offset {log_start_offset}): OFFSET_OUT_OF_RANGE and no reset policy, so poll() throws"
            ),
        },
        ConsumerEvent::PollThrew { exception } => {
            format!("poll() threw {}", exception_message(exception))
        }
    }
}

/// `Class: message` as Kafka's exception prints (Kafka's words, the same in every
/// language).
pub(in crate::i18n::narration) fn exception_message(e: &ConsumerException) -> String {
    let message = match e {
        ConsumerException::NoOffsetForPartition { partitions } => format!(
            "Undefined offset with no reset policy for partitions: [{}]",
            partitions
                .iter()
                .map(|tp| tp.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ConsumerException::OffsetOutOfRange { tp, offset } => {
            format!("Fetch position FetchPosition{{offset={offset}}} is out of range for partition {tp}")
        }
    };
    format!("{}: {message}", e.class_name())
}

/// The line a transcript prints when `poll()` throws, as the application would log it.
pub(in crate::i18n::narration) fn poll_exception(kind: &crate::sim::EventKind) -> Option<String> {
    let crate::sim::EventKind::Consumer {
        client,
        event: ConsumerEvent::PollThrew { exception },
    } = kind
    else {
        return None;
    };
    Some(format!(
        "{client}: poll() threw {}",
        exception_message(exception)
    ))
}

fn corrupt(e: &CorruptBatch) -> String {
    match e {
        CorruptBatch::SizeTooSmall { size, minimum } => {
            format!("record batch size {size} is smaller than the minimum {minimum}")
        }
        CorruptBatch::Invalid(e) => e.to_string(),
    }
}

fn position_reason(reason: PositionReason) -> &'static str {
    match reason {
        PositionReason::Seek => "seek",
        PositionReason::Committed => "committed offset of the group",
        PositionReason::ResetEarliest => "auto.offset.reset=earliest: the log start offset",
        PositionReason::ResetLatest => "auto.offset.reset=latest: the end offset",
    }
}
