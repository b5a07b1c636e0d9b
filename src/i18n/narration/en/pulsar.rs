//! English narration of the Pulsar world's events: what happened, and the Pulsar rule
//! behind it. Pulsar's names (commands, states, exceptions, configs) stay as they are.

use crate::pulsar::network::Strike;
use crate::pulsar::{Position, PulsarEventKind};

fn positions(ps: &[Position]) -> String {
    let v: Vec<String> = ps.iter().map(Position::to_string).collect();
    v.join(" ")
}

pub(in crate::i18n::narration) fn event(kind: &PulsarEventKind) -> String {
    use PulsarEventKind as K;
    match kind {
        K::CommandSent {
            from,
            to,
            command,
            strike,
        } => {
            let base = format!("{from} → {to}: {command}");
            match strike {
                None => base,
                Some(Strike::Dropped) => format!("{base} (lost by the network)"),
                Some(Strike::Cut) => format!("{base} (lost on a cut link)"),
                Some(Strike::Held) => format!("{base} (held by the network)"),
                Some(Strike::Delayed { ms }) => format!("{base} (delayed {ms} ms)"),
                Some(Strike::Duplicated) => format!("{base} (duplicated)"),
            }
        }
        K::TxnLogAppend {
            tc,
            txn,
            op,
            new_status,
        } => match new_status {
            Some(s) => format!(
                "coordinator {tc} writes {op} {txn} → {} to __transaction_log_{tc} before it acts",
                s.name()
            ),
            None => format!(
                "coordinator {tc} writes {op} for {txn} to __transaction_log_{tc} before it acts"
            ),
        },
        K::TxnLogPersisted { tc, position } => {
            format!("__transaction_log_{tc} confirms the write at {position}")
        }
        K::CoordinatorRefused { tc, txn, error } => match txn {
            Some(t) => format!("coordinator {tc} refuses {t}: {error}"),
            None => format!("coordinator {tc} refuses: {error}"),
        },
        K::EntryAdded {
            topic,
            position,
            value,
            txn,
            max_read_position,
        } => match txn {
            Some(t) => format!(
                "{topic} stores {value} of {t} at {position} at once; the transaction buffer \
                 only notes it, and maxReadPosition stays at {max_read_position}"
            ),
            None => format!(
                "{topic} stores {value} at {position}; maxReadPosition is {max_read_position}"
            ),
        },
        K::DuplicateDropped {
            topic,
            producer_name,
            sequence_id,
            highest,
        } => format!(
            "{topic} drops a duplicate: sequence id {sequence_id} of {producer_name} is not above \
             the highest one seen ({highest}) (brokerDeduplicationEnabled); the receipt says -1:-1"
        ),
        K::AckPending {
            topic,
            subscription,
            txn,
            positions: ps,
        } => format!(
            "{topic}/{subscription} sees the ack carries {txn}: {} go into pending ack, the \
             cursor does not move yet",
            positions(ps)
        ),
        K::AckConflict {
            topic,
            subscription,
            txn,
            position,
            holder,
        } => match holder {
            Some(h) => format!(
                "{topic}/{subscription} refuses {txn}'s ack of {position}: {h} holds it in pending \
                 ack (TransactionConflictException)"
            ),
            None => format!(
                "{topic}/{subscription} refuses {txn}'s ack of {position}: it is already \
                 acknowledged (TransactionConflictException)"
            ),
        },
        K::PlainAckIgnored {
            topic,
            subscription,
            position,
            holder,
        } => format!(
            "{topic}/{subscription} ignores a plain ack of {position}: {holder} holds it in \
             pending ack, only its end decides"
        ),
        K::Acked {
            topic,
            subscription,
            positions: ps,
            mark_delete_position,
        } => format!(
            "{topic}/{subscription} acknowledges {}; markDeletePosition is {mark_delete_position}",
            positions(ps)
        ),
        K::Dispatched {
            topic,
            subscription,
            positions: ps,
            filtered_aborted,
            max_read_position,
        } => {
            let mut s = if ps.is_empty() {
                format!("{topic}/{subscription} dispatches nothing")
            } else {
                format!("{topic}/{subscription} dispatches {}", positions(ps))
            };
            s.push_str(&format!(
                " (reads up to maxReadPosition {max_read_position})"
            ));
            if !filtered_aborted.is_empty() {
                s.push_str(&format!(
                    "; the broker filters out aborted {}",
                    positions(filtered_aborted)
                ));
            }
            s
        }
        K::MarkerWritten {
            topic,
            txn,
            commit,
            position,
            max_read_position,
        } => format!(
            "{topic} writes the {} marker of {txn} at {position}; maxReadPosition moves to \
             {max_read_position}",
            if *commit { "commit" } else { "abort" }
        ),
        K::PendingAckMarked {
            topic,
            subscription,
            txn,
            commit,
            positions: ps,
        } => format!(
            "{topic}/{subscription} writes the {} mark of {txn} to its pending-ack log ({})",
            if *commit { "commit" } else { "abort" },
            if ps.is_empty() {
                "no positions".to_string()
            } else {
                positions(ps)
            }
        ),
        K::CursorMoved {
            topic,
            subscription,
            mark_delete_position,
        } => format!(
            "{topic}/{subscription}'s cursor moves: markDeletePosition {mark_delete_position}"
        ),
        K::Redelivering {
            topic,
            subscription,
            positions: ps,
        } => format!(
            "{topic}/{subscription} will deliver {} again: the abort released them",
            positions(ps)
        ),
        K::SnapshotTaken {
            topic,
            max_read_position,
            aborts,
        } => format!(
            "{topic}'s transaction buffer takes a snapshot: maxReadPosition {max_read_position}, \
             {aborts} aborted"
        ),
        K::TxnTimedOut { tc, txn } => format!(
            "coordinator {tc}: {txn} passed its timeout while OPEN, so the coordinator aborts it"
        ),
        K::ClientTxnTimedOut { txn } => {
            format!("the client's timer marks {txn} TIME_OUT: it can no longer send, ack or commit")
        }
        K::CoordinatorCrashed { tc, lost } => format!(
            "coordinator {tc} crashes: {lost} transaction(s) in memory are gone, \
             __transaction_log_{tc} stays"
        ),
        K::CoordinatorRecovered {
            tc,
            txns,
            log_entries,
        } => {
            let list: Vec<String> = txns
                .iter()
                .map(|(t, s)| format!("{t} {}", s.name()))
                .collect();
            format!(
                "coordinator {tc} replays {log_entries} record(s) of __transaction_log_{tc}: {}",
                if list.is_empty() {
                    "no transaction is left".to_string()
                } else {
                    list.join(", ")
                }
            )
        }
        K::CallFailed {
            client,
            call,
            error,
        } => format!("{client}: {call} got no answer in operationTimeoutMs: {error}"),
        K::FaultArmed { description } => format!("fault: {description}"),
        K::Subscribed {
            topic,
            subscription,
            consumer,
        } => format!("{consumer} subscribes to {topic} as {subscription}, from the earliest entry"),
    }
}

/// One row of the Kafka-vs-Pulsar table: the question, Kafka's answer, Pulsar's.
pub(in crate::i18n::narration) fn difference(
    d: crate::view::pulsar::Difference,
) -> (&'static str, &'static str, &'static str) {
    use crate::view::pulsar::Difference as D;
    match d {
        D::WhereUncommittedDataLives => (
            "Where uncommitted data lives",
            "In the partition log, as batches marked transactional",
            "In the partition's ledger at once; the transaction buffer keeps only metadata",
        ),
        D::ReadLimit => (
            "How far readers may read",
            "The last stable offset (LSO): the first offset of the oldest open transaction",
            "maxReadPosition: the entry before the first ongoing transaction's first message",
        ),
        D::WhoFiltersAborted => (
            "Who drops aborted data",
            "The read_committed consumer, with the aborted-transaction list in the fetch answer",
            "The broker's dispatcher: aborted messages are never sent",
        ),
        D::HowConsumedPositionsJoin => (
            "How consumed input joins the transaction",
            "sendOffsetsToTransaction: offsets written to __consumer_offsets, made visible by a marker",
            "An ack carrying the TxnID goes to the subscription's pending ack until the end",
        ),
        D::WhatTheCoordinatorLogs => (
            "What the coordinator logs",
            "__transaction_state: the whole state of a transactional.id in each record",
            "__transaction_log_N: NEW, ADD_PARTITION, ADD_SUBSCRIPTION, UPDATE; deleted once complete",
        ),
        D::WhenTheClientIsAnswered => (
            "When the client hears \"committed\"",
            "After PrepareCommit is logged; the markers follow",
            "After the markers and COMMITTED are written",
        ),
        D::HowZombiesAreStopped => (
            "How a zombie is stopped",
            "The producer epoch of the transactional.id: an older epoch is fenced",
            "No epochs: each transaction has its own TxnID and timeout, after which the coordinator aborts it",
        ),
        D::Deduplication => (
            "Producer deduplication",
            "The last five batches per producer id, by sequence number",
            "The highest sequence id per producer name (brokerDeduplicationEnabled)",
        ),
    }
}

pub(in crate::i18n::narration) fn label(l: crate::view::pulsar::PulsarLabel) -> &'static str {
    use crate::view::pulsar::PulsarLabel as L;
    match l {
        L::Title => "Pulsar's transactions",
        L::Intro => "The same guarantee as Kafka's transactions, built differently: play a lesson step by step and watch the coordinator, the transaction log, the transaction buffer and pending ack.",
        L::Lesson => "Lesson",
        L::Back => "Back",
        L::Next => "Next",
        L::Restart => "Restart",
        L::StepOf => "step",
        L::Printed => "What the step printed",
        L::Partitions => "Partitions (managed ledgers)",
        L::Position => "Position",
        L::Entry => "Entry",
        L::State => "State",
        L::MaxReadPosition => "maxReadPosition",
        L::Ongoing => "ongoing",
        L::Aborted => "aborted",
        L::Committed => "committed",
        L::Plain => "plain",
        L::CommitMarker => "commit marker",
        L::AbortMarker => "abort marker",
        L::Snapshot => "snapshot",
        L::NoSnapshot => "no snapshot",
        L::Subscriptions => "Subscriptions (cursors and pending ack)",
        L::MarkDeletePosition => "markDeletePosition",
        L::IndividuallyDeleted => "individuallyDeleted",
        L::PendingAck => "pending ack",
        L::Redeliver => "to redeliver",
        L::Coordinators => "Transaction coordinators",
        L::Running => "running",
        L::NotRunning => "not running (crashed)",
        L::TransactionLog => "transaction log",
        L::Deleted => "deleted",
        L::Timeline => "Timeline (with the data-flow step numbers)",
        L::Differences => "Kafka and Pulsar: the differences this story has shown",
        L::Question => "Question",
        L::Kafka => "Kafka",
        L::Pulsar => "Pulsar",
        L::NothingYet => "Nothing yet: play the lesson.",
        L::KafkaSide => "Kafka side: what its steps printed",
        L::PulsarSide => "Pulsar side: what its steps printed",
        L::BackToKafka => "← The Kafka playground",
    }
}
