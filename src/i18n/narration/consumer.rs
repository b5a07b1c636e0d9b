//! What a consumer did — fetches, the aborted-transaction filter of read_committed,
//! markers, positions and polls — as catalog messages (`consumer.*`).

use crate::client::consumer::{ConsumerEvent, ConsumerException, CorruptBatch, PositionReason};
use crate::i18n::message::Msg;
use crate::msg;

/// One arm a family of consumer events, each worded by its family's function below.
pub(in crate::i18n::narration) fn event(e: &ConsumerEvent) -> Msg {
    match e {
        ConsumerEvent::FetchReceived { .. }
        | ConsumerEvent::StaleFetchDiscarded { .. }
        | ConsumerEvent::NotAssigned { .. }
        | ConsumerEvent::FetchError { .. }
        | ConsumerEvent::MetadataUpdateRequested { .. }
        | ConsumerEvent::PartialBatchIgnored { .. }
        | ConsumerEvent::CorruptBatch { .. } => fetch_event(e),
        ConsumerEvent::AbortedProducerAdded { .. }
        | ConsumerEvent::BatchSkippedAborted { .. }
        | ConsumerEvent::AbortMarkerSeen { .. }
        | ConsumerEvent::ControlBatchSkipped { .. } => filter_event(e),
        ConsumerEvent::RecordsBeforePositionSkipped { .. }
        | ConsumerEvent::RecordsDelivered { .. }
        | ConsumerEvent::PositionAdvanced { .. }
        | ConsumerEvent::PositionSet { .. } => position_event(e),
        ConsumerEvent::NoOffsetForPartition { .. }
        | ConsumerEvent::OffsetOutOfRange { .. }
        | ConsumerEvent::TruncationDetected { .. }
        | ConsumerEvent::PollThrew { .. } => reset_event(e),
    }
}

/// A fetch's answer: received, stale, for a partition no longer assigned, refused, or
/// cut short by a partial or corrupt batch.
fn fetch_event(e: &ConsumerEvent) -> Msg {
    match e {
        ConsumerEvent::FetchReceived {
            tp,
            fetch_offset,
            high_watermark,
            last_stable_offset,
            bytes,
            aborted_transactions,
        } => msg!(
            "consumer.fetch-received",
            tp = tp,
            fetch_offset = fetch_offset,
            bytes = bytes,
            hw = high_watermark,
            lso = last_stable_offset,
            aborted = aborted_transactions
        ),
        ConsumerEvent::StaleFetchDiscarded {
            tp,
            fetch_offset,
            position,
        } => msg!(
            "consumer.stale-fetch",
            tp = tp,
            fetch_offset = fetch_offset,
            position = match position {
                Some(p) => msg!("plain", text = p),
                None => Msg::new("consumer.position-unset"),
            }
        ),
        ConsumerEvent::NotAssigned { tp } => msg!("consumer.not-assigned", tp = tp),
        ConsumerEvent::FetchError {
            tp,
            error: crate::protocol::errors::Errors::UnknownLeaderEpoch,
        } => msg!("consumer.fetch-error.unknown-leader-epoch", tp = tp),
        ConsumerEvent::FetchError { tp, error } => {
            msg!("consumer.fetch-error", tp = tp, error = error)
        }
        ConsumerEvent::MetadataUpdateRequested {
            tp,
            api,
            error,
            leader_epoch,
        } => match error {
            crate::protocol::errors::Errors::FencedLeaderEpoch => msg!(
                "consumer.metadata-update.fenced",
                tp = tp,
                api = api,
                epoch = leader_epoch
            ),
            _ => msg!(
                "consumer.metadata-update",
                tp = tp,
                api = api,
                error = error
            ),
        },
        ConsumerEvent::PartialBatchIgnored {
            tp,
            byte_position,
            bytes,
        } => {
            msg!(
                "consumer.partial-batch",
                tp = tp,
                bytes = bytes,
                byte_position = byte_position
            )
        }
        ConsumerEvent::CorruptBatch { tp, offset, error } => {
            msg!(
                "consumer.corrupt-batch",
                tp = tp,
                offset = offset,
                error = corrupt(error)
            )
        }
        _ => super::unworded(),
    }
}

/// read_committed's filter: the aborted transactions a fetch lists, the batches it
/// skips for them, and the markers that end them.
fn filter_event(e: &ConsumerEvent) -> Msg {
    match e {
        ConsumerEvent::AbortedProducerAdded {
            tp,
            producer_id,
            first_offset,
        } => msg!(
            "consumer.aborted-producer",
            tp = tp,
            producer_id = producer_id,
            first_offset = first_offset
        ),
        ConsumerEvent::BatchSkippedAborted {
            tp,
            producer_id,
            base_offset,
            last_offset,
        } => msg!(
            "consumer.skipped-aborted",
            tp = tp,
            base_offset = base_offset,
            last_offset = last_offset,
            producer_id = producer_id
        ),
        ConsumerEvent::AbortMarkerSeen {
            tp,
            producer_id,
            offset,
            removed,
        } => Msg::new(if *removed {
            "consumer.abort-marker-ends"
        } else {
            "consumer.abort-marker-unlisted"
        })
        .arg("tp", tp)
        .arg("producer_id", producer_id)
        .arg("offset", offset),
        ConsumerEvent::ControlBatchSkipped { tp, kind, offset } => msg!(
            "consumer.control-skipped",
            tp = tp,
            kind = match kind {
                Some(k) => msg!("plain", text = k.name()),
                None => Msg::new("consumer.control-unknown"),
            },
            offset = offset
        ),
        _ => super::unworded(),
    }
}

/// The position: records before it skipped, records delivered, the position moved or
/// set.
fn position_event(e: &ConsumerEvent) -> Msg {
    match e {
        ConsumerEvent::RecordsBeforePositionSkipped {
            tp,
            base_offset,
            count,
            position,
        } => msg!(
            "consumer.before-position",
            tp = tp,
            count = count,
            base_offset = base_offset,
            position = position
        ),
        ConsumerEvent::RecordsDelivered {
            tp,
            count,
            first,
            last,
        } => {
            msg!(
                "consumer.delivered",
                tp = tp,
                count = count,
                first = first,
                last = last
            )
        }
        ConsumerEvent::PositionAdvanced { tp, from, to } => {
            msg!("consumer.position-advanced", tp = tp, from = from, to = to)
        }
        ConsumerEvent::PositionSet { tp, offset, reason } => {
            msg!(
                "consumer.position-set",
                tp = tp,
                offset = offset,
                reason = position_reason(*reason)
            )
        }
        _ => super::unworded(),
    }
}

/// A position lost: no committed offset, out of range, a truncation found under it, and
/// `poll()` throwing when no reset strategy applies.
fn reset_event(e: &ConsumerEvent) -> Msg {
    match e {
        ConsumerEvent::NoOffsetForPartition { tp } => msg!("consumer.no-offset", tp = tp),
        ConsumerEvent::OffsetOutOfRange {
            tp,
            fetch_offset,
            log_start_offset,
            reset,
        } => match reset {
            Some(strategy) => msg!(
                "consumer.out-of-range.reset",
                tp = tp,
                fetch_offset = fetch_offset,
                log_start = log_start_offset,
                strategy = strategy.name()
            ),
            None => msg!(
                "consumer.out-of-range.throw",
                tp = tp,
                fetch_offset = fetch_offset,
                log_start = log_start_offset
            ),
        },
        ConsumerEvent::TruncationDetected {
            tp,
            position,
            epoch,
            end_offset,
            reset,
            ..
        } => match reset {
            Some(strategy) if *end_offset < 0 => msg!(
                "consumer.truncation.reset",
                tp = tp,
                position = position,
                epoch = epoch,
                strategy = strategy.name()
            ),
            Some(_) => msg!(
                "consumer.truncation.seek",
                tp = tp,
                position = position,
                epoch = epoch,
                end = end_offset
            ),
            None => msg!(
                "consumer.truncation.throw",
                tp = tp,
                position = position,
                epoch = epoch,
                end = end_offset
            ),
        },
        ConsumerEvent::PollThrew { exception } => {
            msg!(
                "consumer.poll-threw",
                exception = exception_message(exception)
            )
        }

        _ => super::unworded(),
    }
}

/// `Class: message` as Kafka's exception prints: Kafka's words in every language.
fn exception_message(e: &ConsumerException) -> Msg {
    let message = match e {
        ConsumerException::NoOffsetForPartition { partitions } => msg!(
            "kafka.consumer.no-offset",
            partitions = partitions
                .iter()
                .map(|tp| tp.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ConsumerException::OffsetOutOfRange { tp, offset } => {
            msg!("kafka.consumer.out-of-range", tp = tp, offset = offset)
        }
        ConsumerException::LogTruncation {
            tp,
            divergent: Some((offset, epoch)),
            ..
        } => msg!(
            "kafka.consumer.log-truncation",
            tp = tp,
            offset = offset,
            epoch = epoch
        ),
        ConsumerException::LogTruncation { .. } => msg!("kafka.consumer.log-truncation-unknown"),
    };
    msg!("kafka.exception", class = e.class_name(), message = message)
}

/// The line a transcript prints when `poll()` throws, as the application would log it.
pub(in crate::i18n::narration) fn poll_exception(kind: &crate::sim::EventKind) -> Option<Msg> {
    let crate::sim::EventKind::Consumer {
        client,
        event: ConsumerEvent::PollThrew { exception },
    } = kind
    else {
        return None;
    };
    Some(msg!(
        "consumer.with-client",
        client = client,
        event = msg!(
            "consumer.poll-threw",
            exception = exception_message(exception)
        )
    ))
}

fn corrupt(e: &CorruptBatch) -> Msg {
    match e {
        CorruptBatch::SizeTooSmall { size, minimum } => {
            msg!("consumer.corrupt.too-small", size = size, minimum = minimum)
        }
        CorruptBatch::Invalid(e) => msg!("plain", text = e),
    }
}

fn position_reason(reason: PositionReason) -> Msg {
    Msg::new(match reason {
        PositionReason::Seek => "consumer.reason.seek",
        PositionReason::Committed => "consumer.reason.committed",
        PositionReason::ResetEarliest => "consumer.reason.earliest",
        PositionReason::ResetLatest => "consumer.reason.latest",
    })
}
