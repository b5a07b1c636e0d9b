//! Where the comparison's cells come from: after each line step, what each engine
//! shows for each row — read from its partitions, its coordinators and the events it
//! raised since the last look.

use super::{kafka_partitions, KafkaFact, KafkaRecord, PulsarFact, Row};
use crate::broker::broker::BrokerEvent;
use crate::client::consumer::ConsumerEvent;
use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC;
use crate::coordinator::transaction::{CoordinatorEvent, TransactionState};
use crate::pulsar::{PulsarEventKind, PulsarWorld, TxnStatus};
use crate::sim::{EventKind, World};
use crate::view::coordinators::coordinators as kafka_coordinators;
use crate::view::partition::BatchKind;
use crate::view::pulsar::{self as pv, EntryKind, TxnOutcome};

/// What the Kafka world shows now, and what its events since `from` showed.
pub(super) fn kafka_facts(w: &World, from: usize, out: &mut Vec<(Row, KafkaFact)>) {
    for p in kafka_partitions(w) {
        let (lso, hw) = (p.last_stable_offset, p.high_watermark);
        if let Some(r) = p.records.iter().find(|r| r.kind == BatchKind::Open) {
            out.push((
                Row::UncommittedData,
                KafkaFact::OpenInLog {
                    tp: p.tp.clone(),
                    offset: r.offset,
                    value: r.value.clone(),
                    lso,
                    hw,
                },
            ));
        }
        if lso < hw {
            out.push((
                Row::ReadLimit,
                KafkaFact::LsoBelowHw {
                    tp: p.tp.clone(),
                    lso,
                    hw,
                },
            ));
        }
        let aborted: Vec<&KafkaRecord> = p
            .records
            .iter()
            .filter(|r| r.kind == BatchKind::Aborted)
            .collect();
        if let (Some(first), Some(last)) = (aborted.first(), aborted.last()) {
            out.push((
                Row::AbortedData,
                KafkaFact::AbortedInLog {
                    tp: p.tp.clone(),
                    first: first.offset,
                    last: last.offset,
                    producer_id: first.producer_id,
                },
            ));
        }
    }
    for c in kafka_coordinators(w) {
        let id = &c.transactional_id;
        let offsets_prefix = format!("{GROUP_METADATA_TOPIC}-");
        if let Some(offsets) = c.partitions.iter().find(|p| p.starts_with(&offsets_prefix)) {
            out.push((
                Row::InputJoins,
                KafkaFact::OffsetsInTxn {
                    transactional_id: id.clone(),
                    partition: offsets.clone(),
                },
            ));
        }
        if let Some(last) = c.records.last().filter(|_| {
            c.records
                .iter()
                .any(|r| r.status != TransactionState::Empty.name())
        }) {
            out.push((
                Row::CoordinatorLog,
                KafkaFact::StateRecords {
                    transactional_id: id.clone(),
                    records: c.records.len(),
                    last_state: last.status.clone(),
                    partitions: last.partitions.clone(),
                },
            ));
        }
        // TV2 moves the epoch on at EndTxn: a transaction in its end or past it.
        if matches!(
            c.state,
            TransactionState::PrepareCommit
                | TransactionState::PrepareAbort
                | TransactionState::CompleteCommit
                | TransactionState::CompleteAbort
        ) && c.producer_epoch > c.last_producer_epoch
        {
            out.push((
                Row::Zombie,
                KafkaFact::EpochBumped {
                    transactional_id: id.clone(),
                    producer_id: c.producer_id,
                    epoch: c.producer_epoch,
                    last_epoch: c.last_producer_epoch,
                },
            ));
        }
    }
    for e in w.events().get(from..).unwrap_or_default() {
        match &e.kind {
            EventKind::Consumer {
                client,
                event:
                    ConsumerEvent::BatchSkippedAborted {
                        tp,
                        base_offset,
                        last_offset,
                        ..
                    },
            } => out.push((
                Row::WhoFilters,
                KafkaFact::ConsumerDropped {
                    consumer: client.clone(),
                    tp: tp.to_string(),
                    first: *base_offset,
                    last: *last_offset,
                },
            )),
            EventKind::Broker {
                event:
                    BrokerEvent::Coordinator(CoordinatorEvent::Loaded {
                        partition,
                        transactions,
                        pending_completions,
                        ..
                    }),
                ..
            } if *transactions > 0 => out.push((
                Row::CoordinatorCrash,
                KafkaFact::Reloaded {
                    partition: *partition,
                    transactions: *transactions,
                    pending: *pending_completions,
                },
            )),
            _ => {}
        }
    }
}

/// What the Pulsar world shows now, and what its events since `from` showed.
pub(super) fn pulsar_facts(w: &PulsarWorld, from: usize, out: &mut Vec<(Row, PulsarFact)>) {
    for p in pv::partitions(w) {
        let with = |want: TxnOutcome| {
            p.entries.iter().find_map(|e| match &e.kind {
                EntryKind::Message {
                    value,
                    txn: Some(txn),
                    outcome,
                    ..
                } if *outcome == want => Some((e.position, value.clone(), *txn)),
                _ => None,
            })
        };
        if let Some((position, value, txn)) = with(TxnOutcome::Ongoing) {
            out.push((
                Row::UncommittedData,
                PulsarFact::InLedger {
                    topic: p.topic.clone(),
                    position,
                    value,
                    txn,
                },
            ));
        }
        if let Some(&(txn, first)) = p.ongoing.first() {
            out.push((
                Row::ReadLimit,
                PulsarFact::MaxRead {
                    topic: p.topic.clone(),
                    max_read: p.max_read_position,
                    txn,
                    first,
                },
            ));
        }
        if let Some((position, _, txn)) = with(TxnOutcome::Aborted) {
            out.push((
                Row::AbortedData,
                PulsarFact::AbortedInBuffer {
                    topic: p.topic.clone(),
                    position,
                    txn,
                },
            ));
        }
    }
    for s in pv::subscriptions(w) {
        if let Some(&(position, txn)) = s.pending_acks.first() {
            out.push((
                Row::InputJoins,
                PulsarFact::PendingAck {
                    subscription: format!("{}/{}", s.topic, s.subscription),
                    position,
                    txn,
                    mark_delete: s.mark_delete_position,
                },
            ));
        }
    }
    for (k, c) in w.coordinators().iter().enumerate() {
        let log = c.log.entries();
        if let Some((_, last)) = log.last() {
            out.push((
                Row::CoordinatorLog,
                PulsarFact::LogOps {
                    log_topic: c.log.topic().to_string(),
                    records: log.len(),
                    last_op: last.op.name(),
                    deleted: log.iter().filter(|(p, _)| c.log.is_deleted(*p)).count(),
                },
            ));
        }
        for m in c.store.iter().flat_map(|s| s.txns()) {
            if m.status == TxnStatus::Open {
                out.push((
                    Row::Zombie,
                    PulsarFact::OwnTimeout {
                        txn: m.id,
                        tc: k as u64,
                        timeout_ms: m.timeout_at - m.open_timestamp,
                    },
                ));
            }
        }
    }
    // Client retries since the coordinator started loading (Pulsar's counterpart of
    // COORDINATOR_LOAD_IN_PROGRESS and retry.backoff.ms).
    let mut retries = 0;
    for e in w.events().get(from..).unwrap_or_default() {
        match &e.kind {
            PulsarEventKind::CoordinatorLoading { .. } => retries = 0,
            PulsarEventKind::ClientRetry { .. } => retries += 1,
            PulsarEventKind::Dispatched {
                topic,
                subscription,
                filtered_aborted,
                ..
            } if !filtered_aborted.is_empty() => out.push((
                Row::WhoFilters,
                PulsarFact::DispatcherFiltered {
                    topic: topic.clone(),
                    subscription: subscription.clone(),
                    positions: filtered_aborted.clone(),
                },
            )),
            PulsarEventKind::CoordinatorRecovered {
                tc,
                txns,
                log_entries,
            } => out.push((
                Row::CoordinatorCrash,
                PulsarFact::Recovered {
                    tc: *tc,
                    records: *log_entries,
                    txns: txns.clone(),
                    retries: std::mem::take(&mut retries),
                },
            )),
            _ => {}
        }
    }
}
