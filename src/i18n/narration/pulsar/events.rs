//! The Pulsar world's events as catalog messages (`pulsar.*`): the transaction
//! coordinator and the clients' calls, entries and markers in a topic, the transaction
//! buffer's and pending ack's state, acknowledgements, and delivery.

use crate::i18n::message::Msg;
use crate::msg;
use crate::pulsar::network::Strike;
use crate::pulsar::{Position, PulsarEventKind as K};

fn positions(ps: &[Position]) -> String {
    ps.iter()
        .map(Position::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn word(commit: bool) -> &'static str {
    if commit {
        "commit"
    } else {
        "abort"
    }
}

/// One arm a family of Pulsar events, each worded by its family's function below.
pub(in crate::i18n::narration) fn event(kind: &K) -> Msg {
    match kind {
        K::CommandSent { .. }
        | K::TxnLogAppend { .. }
        | K::TxnLogPersisted { .. }
        | K::CoordinatorRefused { .. }
        | K::CommitAbortsForFailedOps { .. }
        | K::CoordinatorLoading { .. }
        | K::ClientRetry { .. }
        | K::TxnTimedOut { .. }
        | K::ClientTxnTimedOut { .. }
        | K::CoordinatorCrashed { .. }
        | K::CoordinatorRecovered { .. }
        | K::CallFailed { .. } => coordinator_event(kind),
        K::EntryAdded { .. }
        | K::LateTxnEntry { .. }
        | K::DuplicateDropped { .. }
        | K::MarkerWritten { .. }
        | K::AppendFailed { .. } => entry_event(kind),
        K::SnapshotTaken { .. }
        | K::FirstSnapshotTaken { .. }
        | K::TopicUnloaded { .. }
        | K::PendingAckReplayed { .. }
        | K::BufferRecovered { .. }
        | K::LedgerFailing { .. } => buffer_event(kind),
        K::TxnAppendRefused { .. } | K::LowWaterMarkAbort { .. } => low_water_mark_event(kind),
        K::AckPending { .. }
        | K::AckConflict { .. }
        | K::PendingAckMarked { .. }
        | K::PendingAckAppendFailed { .. } => pending_ack_event(kind),
        K::PlainAckIgnored { .. } | K::Acked { .. } | K::CursorMoved { .. } => ack_event(kind),
        K::Subscribed { .. }
        | K::Dispatched { .. }
        | K::Redelivering { .. }
        | K::DeliveryDelayed { .. }
        | K::NackRedeliver { .. }
        | K::DeadLettered { .. } => delivery_event(kind),
        K::FaultArmed { fault } => msg!("pulsar.fault", fault = super::super::faults::fault(fault)),
    }
}

/// The transaction coordinator and the clients' calls to it: a command on the wire, the
/// transaction log, a refusal, loading, timeouts, a crash and its recovery, a retry.
fn coordinator_event(kind: &K) -> Msg {
    match kind {
        K::CommandSent {
            from,
            to,
            command,
            strike,
        } => {
            let (strike, ms) = match strike {
                None => ("none", 0),
                Some(Strike::Dropped) => ("dropped", 0),
                Some(Strike::Cut) => ("cut", 0),
                Some(Strike::Held) => ("held", 0),
                Some(Strike::Delayed { ms }) => ("delayed", *ms),
                Some(Strike::Duplicated) => ("duplicated", 0),
            };
            msg!(
                "pulsar.sent",
                from = from,
                to = to,
                command = command,
                strike = strike,
                ms = ms
            )
        }
        K::TxnLogAppend {
            tc,
            txn,
            op,
            new_status,
        } => match new_status {
            Some(s) => msg!(
                "pulsar.log-append-status",
                tc = tc,
                op = op,
                txn = txn,
                status = s.name()
            ),
            None => msg!("pulsar.log-append", tc = tc, op = op, txn = txn),
        },
        K::TxnLogPersisted { tc, position } => {
            msg!("pulsar.log-persisted", tc = tc, position = position)
        }
        K::CoordinatorRefused { tc, txn, error } => match txn {
            Some(t) => msg!("pulsar.tc-refused-txn", tc = tc, txn = t, error = error),
            None => msg!("pulsar.tc-refused", tc = tc, error = error),
        },
        K::CommitAbortsForFailedOps { txn, failed } => {
            msg!("pulsar.commit-ops-failed", txn = txn, failed = failed)
        }
        K::CoordinatorLoading { tc, ms } => msg!("pulsar.tc-loading", tc = tc, ms = ms),
        K::ClientRetry { call, backoff_ms } => {
            msg!("pulsar.client-retry", call = call, ms = backoff_ms)
        }
        K::TxnTimedOut { tc, txn } => msg!("pulsar.tc-timeout", tc = tc, txn = txn),
        K::ClientTxnTimedOut { txn } => msg!("pulsar.client-timeout", txn = txn),
        K::CoordinatorCrashed { tc, lost } => msg!("pulsar.tc-crashed", tc = tc, lost = lost),
        K::CoordinatorRecovered {
            tc,
            txns,
            log_entries,
        } => {
            let list: Vec<String> = txns
                .iter()
                .map(|(t, s)| format!("{t} {}", s.name()))
                .collect();
            msg!(
                "pulsar.tc-recovered",
                tc = tc,
                records = log_entries,
                any = !list.is_empty(),
                txns = list.join(", ")
            )
        }
        K::CallFailed {
            client,
            call,
            error,
        } => msg!(
            "pulsar.call-failed",
            client = client,
            call = call,
            error = error
        ),
        _ => super::super::unworded(),
    }
}

/// Entries and markers in a topic's ledger: added, late, a duplicate dropped, a marker
/// written, an append failed.
fn entry_event(kind: &K) -> Msg {
    match kind {
        K::EntryAdded {
            topic,
            position,
            value,
            txn,
            max_read_position,
        } => match txn {
            Some(t) => msg!(
                "pulsar.entry-txn",
                topic = topic,
                value = value,
                txn = t,
                position = position,
                max_read = max_read_position
            ),
            None => msg!(
                "pulsar.entry",
                topic = topic,
                value = value,
                position = position,
                max_read = max_read_position
            ),
        },
        K::LateTxnEntry {
            topic,
            position,
            value,
            txn,
            max_read_position,
        } => msg!(
            "pulsar.entry-late",
            topic = topic,
            value = value,
            txn = txn,
            position = position,
            max_read = max_read_position
        ),
        K::DuplicateDropped {
            topic,
            producer_name,
            sequence_id,
            highest,
        } => msg!(
            "pulsar.duplicate",
            topic = topic,
            sequence_id = sequence_id,
            producer = producer_name,
            highest = highest
        ),
        K::MarkerWritten {
            topic,
            txn,
            commit,
            position,
            max_read_position,
        } => msg!(
            "pulsar.marker",
            topic = topic,
            kind = word(*commit),
            txn = txn,
            position = position,
            max_read = max_read_position
        ),
        K::AppendFailed { topic, txn } => msg!(
            "pulsar.append-failed",
            topic = topic,
            in_txn = txn.is_some(),
            txn = txn.map(|t| t.to_string()).unwrap_or_default()
        ),

        _ => super::super::unworded(),
    }
}

/// The coordinator's low water mark: a transaction at or below it has ended, so a send
/// of it is refused and what a partition or subscription still holds of it is aborted.
fn low_water_mark_event(kind: &K) -> Msg {
    match kind {
        K::TxnAppendRefused {
            topic,
            txn,
            low_water_mark,
        } => msg!(
            "pulsar.append-refused",
            topic = topic,
            txn = txn,
            lwm = low_water_mark
        ),
        K::LowWaterMarkAbort {
            topic,
            subscription,
            txn,
            low_water_mark,
        } => match subscription {
            Some(sub) => msg!(
                "pulsar.lwm-abort-ack",
                topic = topic,
                subscription = sub,
                txn = txn,
                lwm = low_water_mark
            ),
            None => msg!(
                "pulsar.lwm-abort",
                topic = topic,
                txn = txn,
                lwm = low_water_mark
            ),
        },
        _ => super::super::unworded(),
    }
}

/// The transaction buffer's and pending ack's state: snapshots, a topic unloaded and
/// recovered, a pending ack replayed, a ledger failing.
fn buffer_event(kind: &K) -> Msg {
    match kind {
        K::SnapshotTaken {
            topic,
            max_read_position,
            aborts,
        } => msg!(
            "pulsar.snapshot",
            topic = topic,
            max_read = max_read_position,
            aborts = aborts
        ),
        K::FirstSnapshotTaken {
            topic,
            max_read_position,
        } => msg!(
            "pulsar.tb-first-snapshot",
            topic = topic,
            max_read = max_read_position
        ),
        K::TopicUnloaded {
            topic,
            snapshot,
            to_replay,
        } => msg!(
            "pulsar.topic-unloaded",
            topic = topic,
            snap = snapshot.is_some(),
            snapshot = snapshot.map(|p| p.to_string()).unwrap_or_default(),
            replay = to_replay
        ),
        K::PendingAckReplayed {
            topic,
            subscription,
            records,
            held,
        } => msg!(
            "pulsar.pending-ack-replayed",
            topic = topic,
            subscription = subscription,
            records = records,
            any = !held.is_empty(),
            positions = positions(held)
        ),
        K::BufferRecovered {
            topic,
            state,
            max_read_position,
            ongoing,
            aborts,
        } => msg!(
            "pulsar.tb-recovered",
            topic = topic,
            state = state.name(),
            max_read = max_read_position,
            ongoing = ongoing,
            aborts = aborts
        ),
        K::LedgerFailing {
            topic,
            subscription,
            failing,
        } => match subscription {
            Some(sub) => msg!(
                "pulsar.pending-ack-log-failing",
                topic = topic,
                subscription = sub,
                failing = failing
            ),
            None => msg!("pulsar.ledger-failing", topic = topic, failing = failing),
        },
        _ => super::super::unworded(),
    }
}

/// Acknowledgements outside a transaction: a plain ack ignored while a transaction holds
/// the position, an ack applied, the cursor's markDeletePosition moving.
fn ack_event(kind: &K) -> Msg {
    match kind {
        K::PlainAckIgnored {
            topic,
            subscription,
            position,
            holder,
        } => msg!(
            "pulsar.plain-ack-ignored",
            topic = topic,
            subscription = subscription,
            position = position,
            holder = holder
        ),
        K::Acked {
            topic,
            subscription,
            positions: ps,
            mark_delete_position,
        } => msg!(
            "pulsar.acked",
            topic = topic,
            subscription = subscription,
            positions = positions(ps),
            mark_delete = mark_delete_position
        ),
        K::CursorMoved {
            topic,
            subscription,
            mark_delete_position,
        } => msg!(
            "pulsar.cursor-moved",
            topic = topic,
            subscription = subscription,
            mark_delete = mark_delete_position
        ),

        _ => super::super::unworded(),
    }
}

/// Acknowledgements inside a transaction (the subscription's pending ack): held until
/// the transaction ends, in conflict with another's, marked at its end, or not logged.
fn pending_ack_event(kind: &K) -> Msg {
    match kind {
        K::AckPending {
            topic,
            subscription,
            txn,
            positions: ps,
            cumulative: true,
        } => msg!(
            "pulsar.ack-pending-cumulative",
            topic = topic,
            subscription = subscription,
            txn = txn,
            position = positions(ps)
        ),
        K::AckPending {
            topic,
            subscription,
            txn,
            positions: ps,
            ..
        } => msg!(
            "pulsar.ack-pending",
            topic = topic,
            subscription = subscription,
            txn = txn,
            positions = positions(ps)
        ),
        K::AckConflict {
            topic,
            subscription,
            txn,
            position,
            holder,
        } => match holder {
            Some(h) => msg!(
                "pulsar.ack-conflict-pending",
                topic = topic,
                subscription = subscription,
                txn = txn,
                position = position,
                holder = h
            ),
            None => msg!(
                "pulsar.ack-conflict-acked",
                topic = topic,
                subscription = subscription,
                txn = txn,
                position = position
            ),
        },
        K::PendingAckMarked {
            topic,
            subscription,
            txn,
            commit,
            positions: ps,
        } => msg!(
            "pulsar.pending-ack-mark",
            topic = topic,
            subscription = subscription,
            kind = word(*commit),
            txn = txn,
            any = !ps.is_empty(),
            positions = positions(ps)
        ),
        K::PendingAckAppendFailed {
            topic,
            subscription,
            txn,
            positions: ps,
        } => msg!(
            "pulsar.pending-ack-append-failed",
            topic = topic,
            subscription = subscription,
            txn = txn,
            positions = positions(ps)
        ),
        _ => super::super::unworded(),
    }
}

/// Delivery to a subscription: subscribed, dispatched, redelivered, delayed,
/// negatively acknowledged, dead-lettered.
fn delivery_event(kind: &K) -> Msg {
    match kind {
        K::Subscribed {
            topic,
            subscription,
            consumer,
        } => msg!(
            "pulsar.subscribed",
            consumer = consumer,
            topic = topic,
            subscription = subscription
        ),

        K::Dispatched {
            topic,
            subscription,
            positions: ps,
            filtered_aborted,
            max_read_position,
        } => msg!(
            "pulsar.dispatched",
            topic = topic,
            subscription = subscription,
            any = !ps.is_empty(),
            positions = positions(ps),
            max_read = max_read_position,
            filtered = !filtered_aborted.is_empty(),
            aborted = positions(filtered_aborted)
        ),
        K::Redelivering {
            topic,
            subscription,
            positions: ps,
        } => msg!(
            "pulsar.redelivering",
            topic = topic,
            subscription = subscription,
            positions = positions(ps)
        ),
        K::DeliveryDelayed {
            topic,
            subscription,
            positions: ps,
            deliver_at,
        } => msg!(
            "pulsar.delivery-delayed",
            topic = topic,
            subscription = subscription,
            positions = positions(ps),
            at = deliver_at
        ),
        K::NackRedeliver {
            topic,
            subscription,
            positions: ps,
        } => msg!(
            "pulsar.nack-redeliver",
            topic = topic,
            subscription = subscription,
            any = !ps.is_empty(),
            positions = positions(ps)
        ),
        K::DeadLettered {
            consumer,
            position,
            redelivery_count,
            dead_letter_topic,
            dead_letter_position,
        } => msg!(
            "pulsar.dead-lettered",
            consumer = consumer,
            position = position,
            count = redelivery_count,
            dlq = dead_letter_topic,
            at = dead_letter_position
        ),
        _ => super::super::unworded(),
    }
}
