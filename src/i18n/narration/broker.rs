//! What a broker did — appends, duplicates, refusals, markers, producer ids, stops and
//! recovery — as catalog messages (`broker.*`); the log's own work is in `broker/log.rs`.

use super::coordinator;
use super::errors::detail;
use crate::broker::broker::BrokerEvent;
use crate::i18n::message::{list, Arg, Msg};
use crate::log::SeqDirection;
use crate::msg;
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;
use crate::sim::event::window_text;

mod log;

/// One arm a family of broker events, each worded by its family's function below.
pub(super) fn event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::BatchAppended { .. } | BrokerEvent::BatchDuplicate { .. } => {
            append_event(broker, e)
        }
        BrokerEvent::BatchRejected { .. } => rejected_event(broker, e),
        BrokerEvent::TransactionVerification { .. }
        | BrokerEvent::PartitionNotVerified { .. }
        | BrokerEvent::PartitionVerification { .. } => verification_event(broker, e),
        BrokerEvent::MarkerWritten { .. }
        | BrokerEvent::MarkerRejected { .. }
        | BrokerEvent::MarkersRequeued { .. }
        | BrokerEvent::MarkersAwaitLeader { .. }
        | BrokerEvent::MarkersSkippedForDeletedPartitions { .. }
        | BrokerEvent::MarkersAwaitIsr { .. } => marker_event(broker, e),
        BrokerEvent::ProducersExpired { .. }
        | BrokerEvent::LogStartOffsetIncremented { .. }
        | BrokerEvent::SegmentsDeleted { .. }
        | BrokerEvent::LogCleaned { .. }
        | BrokerEvent::NothingToClean { .. } => log::log_event(broker, e),
        BrokerEvent::SegmentRolled { .. }
        | BrokerEvent::SnapshotTaken { .. }
        | BrokerEvent::LogTruncated { .. }
        | BrokerEvent::FileCorrupted { .. } => log::file_event(broker, e),
        BrokerEvent::ProducerIdNotReady { .. }
        | BrokerEvent::ProducerIdBlockReceived { .. }
        | BrokerEvent::ProducerIdAssigned { .. } => producer_id_event(broker, e),
        BrokerEvent::CoordinatorLoadStarted { .. }
        | BrokerEvent::CoordinatorLoadCompleted { .. } => coordinator_load_event(broker, e),
        BrokerEvent::Stopped { .. } | BrokerEvent::Recovered { .. } => lifecycle_event(broker, e),
        BrokerEvent::Coordinator(c) => coordinator::event(broker, c),
        BrokerEvent::Group(g) => super::group::event(broker, g),
        BrokerEvent::Replication(r) => super::replication::event(broker, r),
    }
}

/// The produce path: a batch appended, or a retried batch already in the log (a
/// duplicate).
fn append_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::BatchAppended {
            tp,
            producer_id,
            producer_epoch,
            first_seq,
            last_seq,
            first_offset,
            last_offset,
            log_end_offset,
            window,
        } => {
            if *producer_id < 0 {
                msg!(
                    "broker.append-no-pid",
                    broker = broker,
                    tp = tp,
                    first_offset = first_offset,
                    last_offset = last_offset,
                    leo = log_end_offset
                )
            } else {
                msg!(
                    "broker.append",
                    broker = broker,
                    first_seq = first_seq,
                    last_seq = last_seq,
                    producer_id = producer_id,
                    epoch = producer_epoch,
                    tp = tp,
                    first_offset = first_offset,
                    last_offset = last_offset,
                    leo = log_end_offset,
                    window = window_text(window)
                )
            }
        }
        BrokerEvent::BatchDuplicate {
            tp,
            producer_id,
            first_seq,
            last_seq,
            first_offset,
            last_offset,
            log_end_offset,
            ..
        } => {
            msg!(
                "broker.duplicate",
                broker = broker,
                first_seq = first_seq,
                last_seq = last_seq,
                producer_id = producer_id,
                tp = tp,
                first_offset = first_offset,
                last_offset = last_offset,
                leo = log_end_offset
            )
        }
        _ => super::unworded(),
    }
}

/// A batch the leader refused: out of order, from an old epoch, or for another reason
/// in the broker's `errorMessage`.
fn rejected_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::BatchRejected {
            tp,
            producer_id,
            producer_epoch,
            first_seq,
            last_seq,
            error,
            expected_seq,
            seq_direction,
            current_epoch,
            detail: d,
            ..
        } => match error {
            Errors::OutOfOrderSequenceNumber => msg!(
                "broker.out-of-order",
                broker = broker,
                error = error.name(),
                producer_id = producer_id,
                tp = tp,
                expected = expected_seq.map_or("?".into(), |s| s.to_string()),
                first_seq = first_seq,
                last_seq = last_seq,
                why = match (seq_direction, d) {
                    (_, ErrorDetail::NewEpochSequence { .. }) =>
                        Msg::new("broker.out-of-order.new-epoch"),
                    (Some(SeqDirection::Behind), _) => Msg::new("broker.out-of-order.behind"),
                    _ => Msg::new("broker.out-of-order.ahead"),
                }
            ),
            Errors::InvalidProducerEpoch => msg!(
                "broker.invalid-epoch",
                broker = broker,
                error = error.name(),
                producer_id = producer_id,
                tp = tp,
                epoch = producer_epoch,
                current_epoch = current_epoch.map_or("?".into(), |s| s.to_string())
            ),
            _ => msg!(
                "broker.rejected",
                broker = broker,
                error = error.name(),
                tp = tp,
                detail = detail(d)
            ),
        },

        _ => super::unworded(),
    }
}

/// The transaction verification before a transactional append (KIP-890): asked of the
/// coordinator, answered for the partition, or refused.
fn verification_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::TransactionVerification {
            tp,
            transactional_id,
            producer_id,
            producer_epoch,
            coordinator,
        }
        | BrokerEvent::PartitionVerification {
            tp,
            transactional_id,
            producer_id,
            producer_epoch,
            coordinator,
        } => Msg::new(
            if matches!(e, BrokerEvent::TransactionVerification { .. }) {
                "broker.txn-verification"
            } else {
                "broker.partition-verification"
            },
        )
        .arg("broker", broker)
        .arg("producer_id", producer_id)
        .arg("epoch", producer_epoch)
        .arg("tp", tp)
        .arg("coordinator", coordinator)
        .arg("transactional_id", transactional_id),
        BrokerEvent::PartitionNotVerified {
            tp,
            producer_id,
            producer_epoch,
            error,
        } => msg!(
            "broker.partition-not-verified",
            broker = broker,
            error = error.name(),
            tp = tp,
            producer_id = producer_id,
            epoch = producer_epoch
        ),
        _ => super::unworded(),
    }
}

/// Transaction markers: written, refused, or waiting to be sent again.
fn marker_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::MarkerWritten {
            tp,
            producer_id,
            producer_epoch,
            kind,
            offset,
            txn_first_offset,
            last_stable_offset,
            high_watermark,
        } => msg!(
            "broker.marker-written",
            broker = broker,
            kind = kind,
            producer_id = producer_id,
            tp = tp,
            offset = offset,
            epoch = producer_epoch,
            ending = match txn_first_offset {
                Some(f) => msg!("broker.marker-written.ending", first_offset = f),
                None => Msg::new("empty"),
            },
            lso = last_stable_offset,
            hw = high_watermark
        ),
        BrokerEvent::MarkerRejected {
            tp,
            producer_id,
            producer_epoch,
            error,
            detail,
        } => msg!(
            "broker.marker-rejected",
            broker = broker,
            producer_id = producer_id,
            epoch = producer_epoch,
            tp = tp,
            error = error.name(),
            why = match detail {
                ErrorDetail::CoordinatorEpochFenced { .. } =>
                    Msg::new("broker.marker-rejected.coordinator-epoch"),
                ErrorDetail::EpochTooOld { .. } => Msg::new("broker.marker-rejected.epoch-too-old"),
                ErrorDetail::NotEnoughReplicas {
                    isr,
                    min_insync_replicas,
                } => msg!(
                    "broker.marker-rejected.not-enough-replicas",
                    isr = format!("{isr:?}"),
                    min_isr = min_insync_replicas
                ),
                _ => Msg::new("broker.marker-rejected.not-newer"),
            }
        ),
        BrokerEvent::MarkersRequeued {
            transactional_id,
            leader,
            partitions,
        } => msg!(
            "broker.markers-requeued",
            broker = broker,
            transactional_id = transactional_id,
            leader = leader,
            partitions = tps(partitions)
        ),
        BrokerEvent::MarkersAwaitLeader {
            transactional_id,
            partitions,
        } => msg!(
            "broker.markers-await-leader",
            broker = broker,
            transactional_id = transactional_id,
            partitions = tps(partitions)
        ),
        BrokerEvent::MarkersSkippedForDeletedPartitions {
            transactional_id,
            partitions,
        } => msg!(
            "broker.markers-skipped-deleted",
            broker = broker,
            transactional_id = transactional_id,
            partitions = tps(partitions)
        ),
        BrokerEvent::MarkersAwaitIsr {
            transactional_id,
            partitions,
        } => msg!(
            "broker.markers-await-isr",
            broker = broker,
            transactional_id = transactional_id,
            partitions = tps(partitions)
        ),
        _ => super::unworded(),
    }
}

/// Producer ids: the block from the controller and the id handed out.
fn producer_id_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::ProducerIdNotReady { asked_controller } => {
            msg!(
                "broker.pid-not-ready",
                broker = broker,
                asked_controller = asked_controller
            )
        }
        BrokerEvent::ProducerIdBlockReceived { first, last } => {
            msg!(
                "broker.pid-block",
                broker = broker,
                first = first,
                last = last
            )
        }
        BrokerEvent::ProducerIdAssigned {
            producer_id,
            producer_epoch,
        } => {
            msg!(
                "broker.pid-assigned",
                broker = broker,
                producer_id = producer_id,
                epoch = producer_epoch
            )
        }
        _ => super::unworded(),
    }
}

/// The broker stopping, and opening its logs again when it starts: the snapshot or scan
/// it rebuilt producer state from, and what it found corrupt.
fn lifecycle_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::Stopped { clean, snapshots } => {
            if *clean {
                msg!(
                    "broker.stopped-clean",
                    broker = broker,
                    snapshots = snapshots.len()
                )
            } else {
                msg!("broker.crashed", broker = broker)
            }
        }
        BrokerEvent::Recovered {
            tp,
            report,
            windows,
            windows_before,
        } => {
            let source = match report.snapshot_loaded {
                Some(o) => msg!(
                    "broker.recovered.snapshot",
                    snapshot = format!("{o:020}.snapshot"),
                    batches = report.replayed_batches
                ),
                None => msg!(
                    "broker.recovered.scan",
                    batches = report.replayed_batches,
                    segments = format!("{:?}", report.replayed_segments)
                ),
            };
            let before = |p: &i64| windows_before.iter().find(|(q, _)| q == p).map(|(_, n)| *n);
            let w = windows.iter().map(|(p, w)| {
                match before(p) {
                    Some(n) if n != w.len() => msg!(
                        "broker.recovered.window-was",
                        producer_id = p,
                        window = window_text(w),
                        before = n
                    ),
                    _ => msg!(
                        "broker.recovered.window",
                        producer_id = p,
                        window = window_text(w)
                    ),
                }
                .into()
            });
            let windows_msg = if windows.is_empty() {
                Msg::new("broker.recovered.no-windows").into()
            } else {
                list(w)
            };
            let shrank = windows
                .iter()
                .any(|(p, w)| before(p).is_some_and(|n| w.len() < n));
            let why = match (shrank, report.snapshot_loaded) {
                (false, _) => Msg::new("empty"),
                (true, Some(_)) => Msg::new("broker.recovered.smaller-snapshot"),
                (true, None) => Msg::new("broker.recovered.smaller-scan"),
            };
            let files = |v: &[i64], suffix: &str| {
                list(v.iter().map(|o| Arg::Text(format!("{o:020}{suffix}"))))
            };
            let corrupt_snapshot = if report.corrupt_snapshots.is_empty() {
                Msg::new("empty")
            } else {
                msg!(
                    "broker.recovered.corrupt-snapshot",
                    count = report.corrupt_snapshots.len(),
                    snapshots = files(&report.corrupt_snapshots, ".snapshot")
                )
            };
            let corrupt_log = match report.corrupt_segment {
                None => Msg::new("empty"),
                Some((segment, position)) => msg!(
                    "broker.recovered.corrupt-log",
                    segment = format!("{segment:020}.log"),
                    position = position,
                    bytes = report.truncated_bytes,
                    deleted = report.deleted_segments.len(),
                    segments = files(&report.deleted_segments, ".log")
                ),
            };
            msg!(
                "broker.recovered",
                broker = broker,
                tp = tp,
                leo = report.log_end_offset,
                source = source,
                windows = windows_msg,
                why = why,
                corrupt_snapshot = corrupt_snapshot,
                corrupt_log = corrupt_log
            )
        }

        _ => super::unworded(),
    }
}

/// A coordinator loading its partition of `__transaction_state`: started (requests
/// wait meanwhile), and done.
fn coordinator_load_event(broker: i32, e: &BrokerEvent) -> Msg {
    match e {
        BrokerEvent::CoordinatorLoadStarted {
            tp,
            coordinator_epoch,
            records,
            load_ms,
        } => msg!(
            "coordinator.load-started",
            broker = broker,
            tp = tp,
            epoch = coordinator_epoch,
            records = records,
            load_ms = load_ms
        ),
        BrokerEvent::CoordinatorLoadCompleted {
            tp,
            coordinator_epoch,
        } => msg!(
            "coordinator.load-completed",
            broker = broker,
            tp = tp,
            epoch = coordinator_epoch
        ),
        _ => super::unworded(),
    }
}

/// `orders-0, orders-1`: topic partitions as a list.
fn tps(partitions: &[crate::log::TopicPartition]) -> String {
    partitions
        .iter()
        .map(|tp| tp.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
