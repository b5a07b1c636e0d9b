//! The comparison page's words (`compare.*` in `catalog/en.txt`): the questions of the
//! differences table, each engine's answer worded from what it showed, and the page's
//! captions and labels. Kafka's and Pulsar's names are arguments, never translated.

use crate::i18n::facts::{CompareLabel, KafkaFact, PulsarFact, Row};
use crate::i18n::message::{list, Arg, Msg};
use crate::msg;
use crate::pulsar::Position;

fn positions(ps: &[Position]) -> String {
    ps.iter()
        .map(Position::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A range of offsets: `3` or `3–5`.
fn offsets(first: i64, last: i64) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

pub(super) fn question(row: Row) -> Msg {
    match row {
        Row::UncommittedData => msg!("pulsar.diff.data.q"),
        Row::ReadLimit => msg!("pulsar.diff.read-limit.q"),
        Row::AbortedData => msg!("compare.q.aborted"),
        Row::WhoFilters => msg!("pulsar.diff.filter.q"),
        Row::InputJoins => msg!("pulsar.diff.input.q"),
        Row::CoordinatorLog => msg!("pulsar.diff.log.q"),
        Row::Zombie => msg!("pulsar.diff.zombie.q"),
        Row::CoordinatorCrash => msg!("compare.q.crash"),
    }
}

pub(super) fn kafka(fact: &KafkaFact) -> Msg {
    match fact {
        KafkaFact::OpenInLog {
            tp,
            offset,
            value,
            lso,
            hw,
        } => msg!(
            "compare.kafka.open",
            value = value,
            tp = tp,
            offset = offset,
            lso = lso,
            hw = hw
        ),
        KafkaFact::LsoBelowHw { tp, lso, hw } => {
            msg!("compare.kafka.lso", tp = tp, lso = lso, hw = hw)
        }
        KafkaFact::AbortedInLog {
            tp,
            first,
            last,
            producer_id,
        } => msg!(
            "compare.kafka.aborted",
            tp = tp,
            offsets = offsets(*first, *last),
            producer_id = producer_id
        ),
        KafkaFact::ConsumerDropped {
            consumer,
            tp,
            first,
            last,
        } => msg!(
            "compare.kafka.dropped",
            consumer = consumer,
            tp = tp,
            offsets = offsets(*first, *last)
        ),
        KafkaFact::OffsetsInTxn {
            transactional_id,
            partition,
        } => msg!(
            "compare.kafka.offsets",
            transactional_id = transactional_id,
            partition = partition
        ),
        KafkaFact::StateRecords {
            transactional_id,
            records,
            last_state,
            partitions,
        } => msg!(
            "compare.kafka.records",
            records = records,
            transactional_id = transactional_id,
            state = last_state,
            partitions = partitions
        ),
        KafkaFact::EpochBumped {
            transactional_id,
            producer_id,
            epoch,
            last_epoch,
        } => msg!(
            "compare.kafka.epoch",
            transactional_id = transactional_id,
            producer_id = producer_id,
            last = last_epoch,
            epoch = epoch
        ),
        KafkaFact::Reloaded {
            partition,
            transactions,
            pending,
        } => msg!(
            "compare.kafka.reloaded",
            partition = partition,
            transactions = transactions,
            pending = pending
        ),
    }
}

pub(super) fn pulsar(fact: &PulsarFact) -> Msg {
    match fact {
        PulsarFact::InLedger {
            topic,
            position,
            value,
            txn,
        } => msg!(
            "compare.pulsar.in-ledger",
            value = value,
            txn = txn,
            topic = topic,
            position = position
        ),
        PulsarFact::MaxRead {
            topic,
            max_read,
            txn,
            first,
        } => msg!(
            "compare.pulsar.max-read",
            topic = topic,
            max_read = max_read,
            txn = txn,
            first = first
        ),
        PulsarFact::AbortedInBuffer {
            topic,
            position,
            txn,
        } => msg!(
            "compare.pulsar.aborted",
            topic = topic,
            txn = txn,
            position = position
        ),
        PulsarFact::DispatcherFiltered {
            topic,
            subscription,
            positions: ps,
        } => msg!(
            "compare.pulsar.filtered",
            topic = topic,
            subscription = subscription,
            positions = positions(ps)
        ),
        PulsarFact::PendingAck {
            subscription,
            position,
            txn,
            mark_delete,
        } => msg!(
            "compare.pulsar.pending-ack",
            subscription = subscription,
            position = position,
            txn = txn,
            mark_delete = mark_delete
        ),
        PulsarFact::LogOps {
            log_topic,
            records,
            last_op,
            deleted,
        } => msg!(
            "compare.pulsar.log",
            log_topic = log_topic,
            records = records,
            op = last_op,
            deleted = deleted
        ),
        PulsarFact::OwnTimeout {
            txn,
            tc,
            timeout_ms,
        } => msg!(
            "compare.pulsar.timeout",
            txn = txn,
            tc = tc,
            timeout_ms = timeout_ms
        ),
        PulsarFact::Recovered {
            tc,
            records,
            txns,
            retries,
        } => msg!(
            "compare.pulsar.recovered",
            tc = tc,
            records = records,
            retried = *retries > 0,
            retries = retries,
            any = !txns.is_empty(),
            txns = list(
                txns.iter()
                    .map(|(t, s)| Arg::Text(format!("{t} {}", s.name())))
            )
        ),
    }
}

/// "since step N" under a filled cell.
pub(super) fn since(step: usize) -> Msg {
    msg!("compare.ui.since", step = step)
}

/// A Kafka partition's caption.
pub(super) fn kafka_partition(tp: &str, hw: i64, lso: i64) -> Msg {
    msg!("compare.ui.kafka-partition", tp = tp, hw = hw, lso = lso)
}

/// A Pulsar partition's caption.
pub(super) fn pulsar_partition(topic: &str, max_read: Position) -> Msg {
    msg!(
        "compare.ui.pulsar-partition",
        topic = topic,
        max_read = super::pulsar::position(max_read)
    )
}

/// A transaction buffer's two lists.
pub(super) fn buffer(ongoing: String, aborted: String) -> Msg {
    msg!("compare.ui.buffer", ongoing = ongoing, aborted = aborted)
}

/// A Pulsar coordinator's caption.
pub(super) fn pulsar_coordinator(tc: u64, running: bool) -> Msg {
    msg!("compare.ui.pulsar-coordinator", tc = tc, running = running)
}

pub(super) fn label(l: CompareLabel) -> Msg {
    use CompareLabel as L;
    match l {
        L::NavLabel => msg!("compare.ui.nav"),
        L::NavLessons => msg!("compare.ui.nav-lessons"),
        L::NavCompare => msg!("compare.ui.nav-compare"),
        L::Title => msg!("compare.ui.title"),
        L::Intro => msg!("compare.ui.intro"),
        L::KafkaSide => msg!("compare.ui.kafka-side"),
        L::PulsarSide => msg!("compare.ui.pulsar-side"),
        L::PulsarNotYet => msg!("compare.ui.pulsar-not-yet"),
        L::Offset => msg!("compare.ui.offset"),
        L::Value => msg!("compare.ui.value"),
        L::State => msg!("compare.ui.state"),
        L::Open => msg!("compare.ui.open"),
        L::Coordinator => msg!("compare.ui.kafka-coordinator"),
        L::NoTransactions => msg!("compare.ui.no-txns"),
        L::NoPulsarTxns => msg!("compare.ui.no-pulsar-txns"),
        L::TransactionalId => msg!("compare.ui.transactional-id"),
        L::ProducerId => msg!("compare.ui.producer-id"),
        L::Epoch => msg!("compare.ui.epoch"),
        L::Partitions => msg!("compare.ui.partitions"),
        L::TxnId => msg!("compare.ui.txn-id"),
        L::Operation => msg!("compare.ui.operation"),
        L::Name => msg!("compare.ui.name"),
        L::Subscriptions => msg!("compare.ui.subscriptions"),
        L::DifferencesCaption => msg!("compare.ui.differences"),
        L::NotShownYet => msg!("compare.ui.not-shown"),
    }
}
