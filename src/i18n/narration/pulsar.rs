//! The Pulsar world's events, the Kafka-vs-Pulsar table and the Pulsar pages' words as
//! catalog messages (`pulsar.*` in `catalog/en.txt`). Pulsar's names (commands, states,
//! exceptions, configs) are arguments, never translated.

use crate::i18n::facts::{Difference, PulsarLabel};
use crate::i18n::message::Msg;
use crate::msg;
use crate::pulsar::network::Strike;
use crate::pulsar::{Position, PulsarEventKind};

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

/// A position as the pages show it: `3:-1` (a cursor or maxReadPosition before anything
/// was read or committed in ledger 3) says so in words; any other position as it is.
pub(super) fn position(p: Position) -> Msg {
    if p.entry_id < 0 && p.ledger_id >= 0 {
        msg!("pulsar.ui.position-before", pos = p, ledger = p.ledger_id)
    } else {
        msg!("plain", text = p)
    }
}

/// `msg` with each argument that is a position before a ledger's first entry (`3:-1`)
/// worded by [`position`]: for the pages, where a bare `-1` means nothing to a learner
/// (the CLI's transcripts keep Pulsar's own notation).
pub(super) fn explain_positions(mut msg: Msg) -> Msg {
    use crate::i18n::message::Arg;
    for (_, arg) in &mut msg.args {
        let Arg::Text(text) = arg else { continue };
        let Some((ledger, "-1")) = text.split_once(':') else {
            continue;
        };
        if let Ok(ledger) = ledger.parse::<i64>() {
            *arg = Arg::Msg(position(Position::new(ledger, -1)));
        }
    }
    msg
}

pub(super) fn event(kind: &PulsarEventKind) -> Msg {
    use PulsarEventKind as K;
    match kind {
        K::CommandSent {
            from,
            to,
            command,
            strike,
        } => {
            let strike = match strike {
                None => "none".to_string(),
                Some(Strike::Dropped) => "dropped".to_string(),
                Some(Strike::Cut) => "cut".to_string(),
                Some(Strike::Held) => "held".to_string(),
                Some(Strike::Delayed { .. }) => "delayed".to_string(),
                Some(Strike::Duplicated) => "duplicated".to_string(),
            };
            let ms = match kind {
                K::CommandSent {
                    strike: Some(Strike::Delayed { ms }),
                    ..
                } => *ms,
                _ => 0,
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
        K::CommitAbortsForFailedOps { txn, failed } => {
            msg!("pulsar.commit-ops-failed", txn = txn, failed = failed)
        }
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
        K::AppendFailed { topic, txn } => msg!(
            "pulsar.append-failed",
            topic = topic,
            in_txn = txn.is_some(),
            txn = txn.map(|t| t.to_string()).unwrap_or_default()
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
        K::FaultArmed { fault } => msg!("pulsar.fault", fault = super::faults::fault(fault)),
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
    }
}

/// A row of the Kafka-vs-Pulsar table: the question, Kafka's answer, Pulsar's.
pub(super) fn difference(d: Difference) -> (Msg, Msg, Msg) {
    let (q, k, p) = match d {
        Difference::WhereUncommittedDataLives => (
            msg!("pulsar.diff.data.q"),
            msg!("pulsar.diff.data.kafka"),
            msg!("pulsar.diff.data.pulsar"),
        ),
        Difference::ReadLimit => (
            msg!("pulsar.diff.read-limit.q"),
            msg!("pulsar.diff.read-limit.kafka"),
            msg!("pulsar.diff.read-limit.pulsar"),
        ),
        Difference::WhoFiltersAborted => (
            msg!("pulsar.diff.filter.q"),
            msg!("pulsar.diff.filter.kafka"),
            msg!("pulsar.diff.filter.pulsar"),
        ),
        Difference::HowConsumedPositionsJoin => (
            msg!("pulsar.diff.input.q"),
            msg!("pulsar.diff.input.kafka"),
            msg!("pulsar.diff.input.pulsar"),
        ),
        Difference::WhatTheCoordinatorLogs => (
            msg!("pulsar.diff.log.q"),
            msg!("pulsar.diff.log.kafka"),
            msg!("pulsar.diff.log.pulsar"),
        ),
        Difference::WhenTheClientIsAnswered => (
            msg!("pulsar.diff.answer.q"),
            msg!("pulsar.diff.answer.kafka"),
            msg!("pulsar.diff.answer.pulsar"),
        ),
        Difference::HowZombiesAreStopped => (
            msg!("pulsar.diff.zombie.q"),
            msg!("pulsar.diff.zombie.kafka"),
            msg!("pulsar.diff.zombie.pulsar"),
        ),
        Difference::Deduplication => (
            msg!("pulsar.diff.dedup.q"),
            msg!("pulsar.diff.dedup.kafka"),
            msg!("pulsar.diff.dedup.pulsar"),
        ),
        Difference::WhatAnAbortDoesToInput => (
            msg!("pulsar.diff.abort-input.q"),
            msg!("pulsar.diff.abort-input.kafka"),
            msg!("pulsar.diff.abort-input.pulsar"),
        ),
    };
    (q, k, p)
}

/// A fixed word of the Pulsar pages.
pub(super) fn label(l: PulsarLabel) -> Msg {
    use PulsarLabel as L;
    match l {
        L::Title => msg!("pulsar.ui.title"),
        L::Intro => msg!("pulsar.ui.intro"),
        L::Lesson => msg!("pulsar.ui.lesson"),
        L::Back => msg!("pulsar.ui.back"),
        L::Next => msg!("pulsar.ui.next"),
        L::Restart => msg!("pulsar.ui.restart"),
        L::StepOf => msg!("pulsar.ui.step"),
        L::Printed => msg!("pulsar.ui.printed"),
        L::Partitions => msg!("pulsar.ui.partitions"),
        L::Position => msg!("pulsar.ui.position"),
        L::Entry => msg!("pulsar.ui.entry"),
        L::State => msg!("pulsar.ui.state"),
        L::MaxReadPosition => msg!("pulsar.ui.max-read"),
        L::Ongoing => msg!("pulsar.ui.ongoing"),
        L::Aborted => msg!("pulsar.ui.aborted"),
        L::Committed => msg!("pulsar.ui.committed"),
        L::Plain => msg!("pulsar.ui.plain"),
        L::CommitMarker => msg!("pulsar.ui.commit-marker"),
        L::AbortMarker => msg!("pulsar.ui.abort-marker"),
        L::Snapshot => msg!("pulsar.ui.snapshot"),
        L::NoSnapshot => msg!("pulsar.ui.no-snapshot"),
        L::Subscriptions => msg!("pulsar.ui.subscriptions"),
        L::MarkDeletePosition => msg!("pulsar.ui.mark-delete"),
        L::IndividuallyDeleted => msg!("pulsar.ui.individually-deleted"),
        L::PendingAck => msg!("pulsar.ui.pending-ack"),
        L::Redeliver => msg!("pulsar.ui.redeliver"),
        L::Coordinators => msg!("pulsar.ui.coordinators"),
        L::Running => msg!("pulsar.ui.running"),
        L::NotRunning => msg!("pulsar.ui.not-running"),
        L::TransactionLog => msg!("pulsar.ui.txn-log"),
        L::Deleted => msg!("pulsar.ui.deleted"),
        L::Timeline => msg!("pulsar.ui.timeline"),
        L::Differences => msg!("pulsar.ui.differences"),
        L::Question => msg!("pulsar.ui.question"),
        L::Kafka => msg!("pulsar.ui.kafka"),
        L::Pulsar => msg!("pulsar.ui.pulsar"),
        L::NothingYet => msg!("pulsar.ui.nothing-yet"),
        L::KafkaSide => msg!("pulsar.ui.kafka-side"),
        L::PulsarSide => msg!("pulsar.ui.pulsar-side"),
        L::BackToKafka => msg!("pulsar.ui.back-to-kafka"),
        L::None => msg!("pulsar.ui.none"),
        L::SubscriptionsTable => msg!("pulsar.ui.subscriptions-table"),
        L::BufferState => msg!("pulsar.ui.buffer-state"),
        L::FreePlay => msg!("pulsar.ui.free-play"),
        L::FreePlayIntro => msg!("pulsar.ui.free-play-intro"),
        L::NewTxn => msg!("pulsar.ui.new-txn"),
        L::SendTxn => msg!("pulsar.ui.send-txn"),
        L::SendPlain => msg!("pulsar.ui.send-plain"),
        L::Commit => msg!("pulsar.ui.commit"),
        L::Abort => msg!("pulsar.ui.abort"),
        L::Receive => msg!("pulsar.ui.receive"),
        L::AckTxn => msg!("pulsar.ui.ack-txn"),
        L::Unload => msg!("pulsar.ui.unload"),
        L::Reset => msg!("pulsar.ui.reset"),
    }
}

/// Why the Pulsar world refused a step (`pulsar.refused.*`).
pub(super) fn step_error(e: &crate::pulsar::PulsarStepError) -> Msg {
    use crate::pulsar::PulsarStepError as E;
    match e {
        E::TopicNotFound { topic } => msg!("pulsar.refused.no-topic", topic = topic),
        E::SubscriptionNotFound {
            topic,
            subscription,
        } => msg!(
            "pulsar.refused.no-subscription",
            topic = topic,
            subscription = subscription
        ),
        E::CoordinatorNotFound { tc } => msg!("pulsar.refused.no-coordinator", tc = tc),
        E::UnknownConsumer { consumer } => msg!("pulsar.refused.no-consumer", consumer = consumer),
        E::UnknownTransaction { name } => msg!("pulsar.refused.no-transaction", name = name),
        E::TopicAlreadyExists { topic } => msg!("pulsar.refused.topic-exists", topic = topic),
        E::ConsumerAlreadyExists { consumer } => {
            msg!("pulsar.refused.consumer-exists", consumer = consumer)
        }
        E::TransactionAlreadyExists { name } => {
            msg!("pulsar.refused.transaction-exists", name = name)
        }
        E::CoordinatorDisabled => Msg::new("pulsar.refused.coordinator-disabled"),
        E::CoordinatorRunning { tc } => msg!("pulsar.refused.coordinator-running", tc = tc),
        E::CoordinatorLoading { tc } => msg!("pulsar.refused.coordinator-loading", tc = tc),
        E::TopicLoading { topic } => msg!("pulsar.refused.topic-loading", topic = topic),
        E::BufferNotReady { topic, state } => {
            msg!(
                "pulsar.refused.buffer-not-ready",
                topic = topic,
                state = state
            )
        }
        E::NotInBatch { position, ledger } => msg!(
            "pulsar.refused.not-in-batch",
            position = position,
            ledger = ledger
        ),
        E::FaultNotAvailable => Msg::new("pulsar.refused.fault-not-available"),
        E::CumulativeAckOnePosition => Msg::new("pulsar.refused.cumulative-one"),
        E::CumulativeAckEntryPosition => Msg::new("pulsar.refused.cumulative-entry"),
        E::PartitionsOutOfRange => Msg::new("pulsar.refused.partitions-range"),
        E::TimeoutOutOfRange => Msg::new("pulsar.refused.timeout-range"),
        E::ReplayOutOfRange => Msg::new("pulsar.refused.replay-range"),
        E::DeliverAfterOutOfRange => Msg::new("pulsar.refused.deliver-after-range"),
        E::RunOutOfRange => Msg::new("pulsar.refused.run-range"),
        E::MaxRedeliverTooLow => Msg::new("pulsar.refused.max-redeliver"),
        E::ClusterNotFirst => Msg::new("pulsar.refused.cluster-first"),
    }
}
