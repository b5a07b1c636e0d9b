//! What a broker's log did by itself — producer expiry, the log start moving,
//! retention, the cleaner, segment rolls, snapshots, truncation and corrupt files — as
//! catalog messages (`broker.*`).

use crate::broker::broker::BrokerEvent;
use crate::i18n::message::{list, Arg, Msg};
use crate::log::{LogStartOffsetIncrementReason, SegmentDeletionReason};
use crate::msg;

/// The log's own work: producer expiry, the log start moving, retention deleting
/// segments, and the cleaner.
pub(super) fn log_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::ProducersExpired {
            tp,
            producer_ids,
            expiration_ms,
        } => msg!(
            "broker.producers-expired",
            broker = broker,
            tp = tp,
            count = producer_ids.len(),
            producer_ids = list(producer_ids.iter().map(|p| Arg::Text(p.to_string()))),
            expiration_ms = expiration_ms
        ),
        BrokerEvent::LogStartOffsetIncremented {
            tp,
            from,
            to,
            reason,
        } => {
            let id = match reason {
                LogStartOffsetIncrementReason::ClientRecordDeletion => {
                    "broker.log-start-delete-records"
                }
                LogStartOffsetIncrementReason::LeaderOffsetIncremented => {
                    "broker.log-start-from-leader"
                }
                LogStartOffsetIncrementReason::SegmentDeletion => "broker.log-start-segments",
            };
            Msg::new(id)
                .arg("broker", broker)
                .arg("tp", tp)
                .arg("from", from)
                .arg("to", to)
        }
        BrokerEvent::SegmentsDeleted {
            tp,
            reason,
            segments,
            log_start_offset,
            rolled_segment,
        } => {
            let id = match reason {
                SegmentDeletionReason::StartOffsetBreach => "broker.segments-deleted-start",
                SegmentDeletionReason::RetentionMsBreach => "broker.segments-deleted-ms",
                SegmentDeletionReason::RetentionSizeBreach => "broker.segments-deleted-bytes",
            };
            Msg::new(id)
                .arg("broker", broker)
                .arg("tp", tp)
                .arg("count", segments.len())
                .arg(
                    "segments",
                    list(segments.iter().map(|b| Arg::Text(b.to_string()))),
                )
                .arg("log_start", log_start_offset)
                .arg("rolled", rolled_segment.is_some())
                .arg("rolled_at", rolled_segment.unwrap_or(-1))
        }
        BrokerEvent::LogCleaned {
            tp,
            stats,
            bounded_by_lso,
        } => {
            let offsets = |v: &[i64]| {
                if v.is_empty() {
                    Arg::Text("-".into())
                } else {
                    list(v.iter().map(|o| Arg::Text(o.to_string())))
                }
            };
            Msg::new("broker.log-cleaned")
                .arg("broker", broker)
                .arg("tp", tp)
                .arg("end", stats.end_offset)
                .arg("bound", if *bounded_by_lso { "lso" } else { "active" })
                .arg("before", stats.records_before)
                .arg("after", stats.records_after)
                .arg("aborted", stats.aborted_records_removed)
                .arg("empty", stats.empty_batches_kept)
                .arg("horizons", offsets(&stats.horizons_set))
                .arg("removed", offsets(&stats.markers_removed))
        }
        BrokerEvent::NothingToClean {
            tp,
            first_uncleanable_offset,
            bounded_by_lso,
        } => Msg::new("broker.log-cleaner-nothing")
            .arg("broker", broker)
            .arg("tp", tp)
            .arg("offset", first_uncleanable_offset)
            .arg("bound", if *bounded_by_lso { "lso" } else { "active" }),
        _ => super::super::unworded(),
    }
}

/// The log's files: a segment rolled, a producer snapshot taken, the log truncated, a
/// corrupt file found.
pub(super) fn file_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::SnapshotTaken {
            tp,
            offset,
            snapshot,
        } => msg!(
            "broker.snapshot-taken",
            broker = broker,
            tp = tp,
            offset = offset,
            snapshot = file_of(snapshot)
        ),
        BrokerEvent::LogTruncated {
            tp,
            from,
            to,
            removed_batches,
        } => msg!(
            "broker.log-truncated",
            broker = broker,
            tp = tp,
            from = from,
            to = to,
            batches = removed_batches
        ),
        BrokerEvent::FileCorrupted { path, position } => msg!(
            "broker.file-corrupted",
            broker = broker,
            path = path.as_str(),
            position = position
        ),
        BrokerEvent::SegmentRolled {
            tp,
            base_offset,
            snapshot,
        } => match snapshot {
            Some(path) => msg!(
                "broker.segment-rolled",
                broker = broker,
                tp = tp,
                base_offset = base_offset,
                snapshot = file_of(path)
            ),
            None => msg!(
                "broker.segment-rolled-no-snapshot",
                broker = broker,
                tp = tp,
                base_offset = base_offset
            ),
        },

        _ => super::super::unworded(),
    }
}

/// The file name of a path (the directory is noise in a sentence).
fn file_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
