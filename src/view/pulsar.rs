//! View models of the Pulsar pages: each partition's entries with the
//! `maxReadPosition` pointer, the transaction buffer's metadata, subscriptions with
//! cursors and pending acks, the coordinators with their transaction logs, the
//! timeline with the data-flow step numbers, and the Kafka-vs-Pulsar differences a
//! story has shown so far. Plain data from `PulsarWorld`'s read API; the catalog words
//! it.

pub use crate::i18n::facts::{Difference, PulsarLabel, DIFFERENCES};
use crate::pulsar::coordinator::TransactionMetadataOp;
use crate::pulsar::{EntryData, Position, PulsarEventKind, PulsarWorld, TxnID, TxnStatus};

/// Where a transactional message stands for readers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxnOutcome {
    /// Not in a transaction.
    Plain,
    Ongoing,
    Committed,
    Aborted,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Message {
        value: String,
        producer_name: String,
        txn: Option<TxnID>,
        outcome: TxnOutcome,
    },
    Marker {
        txn: TxnID,
        commit: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryRow {
    pub position: Position,
    pub kind: EntryKind,
    /// Past maxReadPosition: no dispatcher reads it yet.
    pub beyond_max_read: bool,
}

/// A partition: entries, the pointer, and its transaction buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionView {
    pub topic: String,
    pub broker: i32,
    pub entries: Vec<EntryRow>,
    pub max_read_position: Position,
    pub ongoing: Vec<(TxnID, Position)>,
    pub aborted: Vec<(TxnID, Position)>,
    /// The snapshot's maxReadPosition and aborted count, if one was taken.
    pub snapshot: Option<(Position, usize)>,
    /// NoSnapshot, Initializing or Ready (Pulsar's names, shown as they are).
    pub buffer_state: crate::pulsar::TransactionBufferState,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubscriptionView {
    pub topic: String,
    pub subscription: String,
    pub mark_delete_position: Position,
    pub individually_deleted: Vec<Position>,
    pub pending_acks: Vec<(Position, TxnID)>,
    /// A pending cumulative ack: everything up to the position, for the transaction.
    pub pending_cumulative: Option<(Position, TxnID)>,
    pub redeliver: Vec<Position>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnRow {
    pub id: TxnID,
    /// The script name the client gave it, if a client opened it.
    pub name: Option<String>,
    pub status: TxnStatus,
    pub partitions: Vec<String>,
    pub subscriptions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    pub position: Position,
    pub txn: TxnID,
    pub op: &'static str,
    pub detail: String,
    /// Deleted once its transaction completed.
    pub deleted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordinatorView {
    pub tc: u64,
    pub broker: i32,
    pub running: bool,
    pub txns: Vec<TxnRow>,
    pub log_topic: String,
    pub log: Vec<LogRow>,
}

/// One line of the timeline: the event's index (for the catalog) and its step number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineRow {
    pub index: usize,
    pub at_ms: i64,
    pub step: Option<&'static str>,
}

pub fn partitions(w: &PulsarWorld) -> Vec<PartitionView> {
    w.topics()
        .iter()
        .map(|(name, t)| {
            let max_read = t.buffer.max_read_position();
            let outcome = |txn: Option<TxnID>| match txn {
                None => TxnOutcome::Plain,
                Some(id) if t.buffer.is_txn_aborted(id) => TxnOutcome::Aborted,
                Some(id) if t.buffer.is_ongoing(id) => TxnOutcome::Ongoing,
                Some(_) => TxnOutcome::Committed,
            };
            let entries = t
                .ledger
                .entries()
                .iter()
                .map(|e| EntryRow {
                    position: e.position,
                    beyond_max_read: e.position > max_read,
                    kind: match &e.data {
                        EntryData::Message {
                            value,
                            producer_name,
                            txn,
                            ..
                        } => EntryKind::Message {
                            value: value.clone(),
                            producer_name: producer_name.clone(),
                            txn: *txn,
                            outcome: outcome(*txn),
                        },
                        EntryData::TxnMarker { txn, commit } => EntryKind::Marker {
                            txn: *txn,
                            commit: *commit,
                        },
                    },
                })
                .collect();
            PartitionView {
                buffer_state: t.buffer.state(),
                topic: name.clone(),
                broker: t.broker,
                entries,
                max_read_position: max_read,
                ongoing: t.buffer.ongoing_txns().to_vec(),
                aborted: t.buffer.aborts().to_vec(),
                snapshot: t
                    .buffer
                    .snapshot()
                    .map(|s| (s.max_read_position, s.aborts.len())),
            }
        })
        .collect()
}

pub fn subscriptions(w: &PulsarWorld) -> Vec<SubscriptionView> {
    let mut out = Vec::new();
    for (topic, t) in w.topics() {
        for (name, s) in &t.subscriptions {
            out.push(SubscriptionView {
                topic: topic.clone(),
                subscription: name.clone(),
                mark_delete_position: s.cursor.mark_delete_position(),
                individually_deleted: s.cursor.individually_deleted().iter().copied().collect(),
                pending_acks: s
                    .pending_ack
                    .individual_ack_positions()
                    .iter()
                    .map(|(p, t)| (*p, *t))
                    .collect(),
                pending_cumulative: s.pending_ack.cumulative().map(|(t, p)| (p, t)),
                redeliver: s.redeliver.iter().copied().collect(),
            });
        }
    }
    out
}

pub fn coordinators(w: &PulsarWorld) -> Vec<CoordinatorView> {
    w.coordinators()
        .iter()
        .enumerate()
        .map(|(k, c)| CoordinatorView {
            tc: k as u64,
            broker: c.broker,
            running: c.store.is_some(),
            txns: c
                .store
                .iter()
                .flat_map(|s| s.txns())
                .map(|m| TxnRow {
                    id: m.id,
                    name: w.txn_name(m.id).map(str::to_string),
                    status: m.status,
                    partitions: m.produced_partitions.iter().cloned().collect(),
                    subscriptions: m
                        .acked_partitions
                        .iter()
                        .map(|s| format!("{}/{}", s.topic, s.subscription))
                        .collect(),
                })
                .collect(),
            log_topic: c.log.topic().to_string(),
            log: c
                .log
                .entries()
                .iter()
                .map(|(p, e)| LogRow {
                    position: *p,
                    txn: e.txn,
                    op: e.op.name(),
                    detail: match &e.op {
                        TransactionMetadataOp::New { timeout_ms, .. } => {
                            format!("timeoutMs={timeout_ms}")
                        }
                        TransactionMetadataOp::AddPartition { partitions } => partitions.join(" "),
                        TransactionMetadataOp::AddSubscription { subscriptions } => subscriptions
                            .iter()
                            .map(|s| format!("{}/{}", s.topic, s.subscription))
                            .collect::<Vec<_>>()
                            .join(" "),
                        TransactionMetadataOp::Update { expected, new } => {
                            format!("{} → {}", expected.name(), new.name())
                        }
                    },
                    deleted: c.log.is_deleted(*p),
                })
                .collect(),
        })
        .collect()
}

/// The last `n` events (all with `None`), oldest first.
pub fn timeline(w: &PulsarWorld, last: Option<usize>) -> Vec<TimelineRow> {
    let events = w.events();
    let from = last.map_or(0, |n| events.len().saturating_sub(n));
    events[from..]
        .iter()
        .enumerate()
        .map(|(i, e)| TimelineRow {
            index: from + i,
            at_ms: e.at_ms,
            step: e.step,
        })
        .collect()
}

/// The differences the story has shown so far, in the table's order: a row appears
/// when the Pulsar world did the thing it is about.
pub fn revealed_differences(w: &PulsarWorld) -> Vec<Difference> {
    let mut found = std::collections::BTreeSet::new();
    for e in w.events() {
        use Difference as D;
        use PulsarEventKind as K;
        match &e.kind {
            K::EntryAdded { txn: Some(_), .. } => {
                found.insert(D::WhereUncommittedDataLives);
                found.insert(D::ReadLimit);
            }
            K::Dispatched {
                filtered_aborted, ..
            } if !filtered_aborted.is_empty() => {
                found.insert(D::WhoFiltersAborted);
            }
            K::AckPending { .. } | K::AckConflict { .. } => {
                found.insert(D::HowConsumedPositionsJoin);
            }
            K::TxnLogAppend { .. } => {
                found.insert(D::WhatTheCoordinatorLogs);
            }
            K::CommandSent { command, .. } if *command == "EndTxnResponse" => {
                found.insert(D::WhenTheClientIsAnswered);
            }
            K::TxnTimedOut { .. }
            | K::ClientTxnTimedOut { .. }
            | K::CoordinatorRecovered { .. } => {
                found.insert(D::HowZombiesAreStopped);
            }
            K::DuplicateDropped { .. } => {
                found.insert(D::Deduplication);
            }
            K::Redelivering { .. } | K::DeadLettered { .. } => {
                found.insert(D::WhatAnAbortDoesToInput);
            }
            _ => {}
        }
    }
    DIFFERENCES
        .iter()
        .copied()
        .filter(|d| found.contains(d))
        .collect()
}
