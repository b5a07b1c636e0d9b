//! The Pulsar world's events, the Kafka-vs-Pulsar table and the Pulsar pages' words as
//! catalog messages (`pulsar.*` in `catalog/en.txt`). Pulsar's names (commands, states,
//! exceptions, configs) are arguments, never translated.

use crate::i18n::facts::{Difference, PulsarLabel};
use crate::i18n::message::Msg;
use crate::msg;
use crate::pulsar::Position;

mod events;

pub(super) use events::event;

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
