//! Read-only views of a world for the transactions page: the partition log told apart
//! into committed, aborted and open data and control markers (only the last batches are
//! decoded, so a partition of 10,000 batches still renders fast), the transactional
//! producers, the coordinators' state and `__transaction_state` records, the consumers
//! and the gaps they skipped, and the request timeline.
//!
//! These are free functions over the engine's public fields: nothing here changes the
//! world, and nothing keeps a second copy of it.

use std::collections::{BTreeMap, BTreeSet};

use crate::broker::broker::{Broker, BrokerEvent};
use crate::client::consumer::IsolationLevel;
use crate::client::transaction_manager::{TxnOutcome, TxnState};
use crate::coordinator::internal_topics::{is_internal, partition_for, TRANSACTION_STATE_TOPIC};
use crate::coordinator::transaction::log_format::{decode_key, decode_value, value_json};
use crate::coordinator::transaction::{CoordinatorEvent, TransactionState};
use crate::log::{AbortedTxn, TopicPartition};
use crate::record::RecordBatch;
use crate::sim::{EventKind, Node, World, START_MS};
use crate::util::ordered::CollectSorted;

/// How many batches of the partition the page decodes and shows at least (the newest).
pub const LOG_WINDOW: usize = 50;
/// The shown window starts at a multiple of this many batches, so a new batch only
/// adds a row (the rows on screen stay as they are) until the window jumps ahead.
pub const LOG_WINDOW_STEP: usize = 25;
/// How many offsets the offset strip shows (the newest).
pub const STRIP_OFFSETS: usize = 32;
/// How many network messages the timeline shows (the newest).
pub const TIMELINE_MESSAGES: usize = 40;
/// How many delivered records a consumer card lists (the newest).
pub const CONSUMER_RECORDS: usize = 60;

/// What a batch (or one offset) is, for a reader of the partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchKind {
    /// Transactional data whose COMMIT marker is written.
    Committed,
    /// Transactional data in an aborted transaction (listed in `.txnindex`).
    Aborted,
    /// Transactional data whose transaction has no marker yet (it holds the LSO).
    Open,
    CommitMarker,
    AbortMarker,
    /// Data without a transaction: readable once below the high watermark.
    Plain,
}

impl BatchKind {
    /// The CSS class suffix (`kind-committed`, …).
    pub fn css(self) -> &'static str {
        match self {
            BatchKind::Committed => "committed",
            BatchKind::Aborted => "aborted",
            BatchKind::Open => "open",
            BatchKind::CommitMarker | BatchKind::AbortMarker => "marker",
            BatchKind::Plain => "plain",
        }
    }

    pub fn is_marker(self) -> bool {
        matches!(self, BatchKind::CommitMarker | BatchKind::AbortMarker)
    }
}

/// One batch of the partition, classified.
#[derive(Clone, Debug, PartialEq)]
pub struct TxnBatch {
    pub base_offset: i64,
    pub last_offset: i64,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub kind: BatchKind,
    /// (offset, value) of each record; a marker's value is empty.
    pub records: Vec<(i64, String)>,
    /// `kafka-dump-log.sh`'s record line for a marker.
    pub control_line: Option<String>,
}

/// The partition as the transactions page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PartitionView {
    pub tp: TopicPartition,
    pub leader: i32,
    pub log_start_offset: i64,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    /// Batches in the partition (all segments).
    pub total_batches: usize,
    /// The newest [`LOG_WINDOW`] (or a few more) batches, oldest first.
    pub batches: Vec<TxnBatch>,
    /// `.txnindex`: the aborted transactions, oldest first.
    pub aborted: Vec<AbortedTxn>,
    /// Open transactions: (producer id, first offset).
    pub ongoing: Vec<(i64, i64)>,
}

impl PartitionView {
    /// What is at `offset`, if it is in the decoded window.
    pub fn kind_at(&self, offset: i64) -> Option<BatchKind> {
        let i = self
            .batches
            .partition_point(|b| b.last_offset < offset)
            .min(self.batches.len());
        self.batches
            .get(i)
            .filter(|b| b.base_offset <= offset)
            .map(|b| b.kind)
    }

    /// The first offset of the decoded window.
    pub fn window_start(&self) -> i64 {
        self.batches
            .first()
            .map_or(self.log_end_offset, |b| b.base_offset)
    }
}

fn classify(
    batch: &RecordBatch,
    aborted: &[AbortedTxn],
    ongoing: &[(i64, i64)],
) -> (BatchKind, Option<String>) {
    if batch.is_control() {
        let control = batch.control_record();
        let commit = control.as_ref().is_some_and(|(k, _)| k.name() == "COMMIT");
        let line = control.map(|(kind, marker)| {
            format!(
                "endTxnMarker: {} coordinatorEpoch: {}",
                kind.name(),
                marker.coordinator_epoch
            )
        });
        let kind = if commit {
            BatchKind::CommitMarker
        } else {
            BatchKind::AbortMarker
        };
        return (kind, line);
    }
    if !batch.is_transactional() {
        return (BatchKind::Plain, None);
    }
    let (pid, first, last) = (batch.producer_id, batch.base_offset, batch.last_offset());
    if aborted
        .iter()
        .any(|a| a.producer_id == pid && a.first_offset <= first && last <= a.last_offset)
    {
        (BatchKind::Aborted, None)
    } else if ongoing.iter().any(|(p, f)| *p == pid && *f <= first) {
        (BatchKind::Open, None)
    } else {
        (BatchKind::Committed, None)
    }
}

/// The partition, decoded from the leader's disk — only the newest `window` batches
/// (up to `LOG_WINDOW_STEP - 1` more, see there).
/// (`World::log_view_tail`: at 10,000 batches, decoding them all would take most of a
/// frame.)
pub fn partition_view(world: &World, tp: &TopicPartition, window: usize) -> Option<PartitionView> {
    let view = world.log_view_tail(tp, window, LOG_WINDOW_STEP)?;
    let (aborted, ongoing) = (view.aborted_txns.clone(), view.ongoing_transactions.clone());
    let batches: Vec<TxnBatch> = view
        .batches
        .iter()
        .filter_map(|b| {
            let (batch, _) = RecordBatch::decode(&b.raw).ok()?;
            let (kind, control_line) = classify(&batch, &aborted, &ongoing);
            Some(TxnBatch {
                base_offset: b.base_offset,
                last_offset: b.last_offset,
                producer_id: b.producer_id,
                producer_epoch: b.producer_epoch,
                base_sequence: b.base_sequence,
                kind,
                records: if b.is_control {
                    vec![]
                } else {
                    b.records.clone()
                },
                control_line,
            })
        })
        .collect();
    Some(PartitionView {
        tp: tp.clone(),
        leader: view.leader,
        log_start_offset: view.log_start_offset,
        log_end_offset: view.log_end_offset,
        high_watermark: view.high_watermark,
        last_stable_offset: view.last_stable_offset,
        total_batches: view.total_batches,
        batches,
        aborted,
        ongoing,
    })
}

/// The partition the page shows: the (non-internal) one where something transactional
/// happened last, else the first non-internal partition.
pub fn shown_partition(world: &World) -> Option<TopicPartition> {
    let parts: Vec<TopicPartition> = world
        .partitions()
        .into_iter()
        .filter(|tp| !is_internal(&tp.topic))
        .collect();
    let latest = world.events.iter().rev().find_map(|e| match &e.kind {
        EventKind::Broker {
            event:
                BrokerEvent::MarkerWritten { tp, .. }
                | BrokerEvent::BatchAppended { tp, .. }
                | BrokerEvent::TransactionVerification { tp, .. },
            ..
        } if !is_internal(&tp.topic) => Some(tp.clone()),
        EventKind::TopicCreated { topic, .. } if !is_internal(topic) => {
            Some(TopicPartition::new(topic.clone(), 0))
        }
        _ => None,
    });
    latest
        .filter(|tp| parts.contains(tp))
        .or_else(|| parts.into_iter().next())
}

/// How the last transaction call of a producer ended.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeView {
    /// false: the call failed (the text names the exception).
    pub ok: bool,
    /// e.g. `commitTransaction`, `initTransactions`.
    pub operation: String,
    /// The Java exception the application would catch, when it failed.
    pub exception: Option<String>,
    /// Kafka's error name, when it failed.
    pub error: Option<String>,
    pub producer_id: Option<i64>,
    pub producer_epoch: Option<i16>,
}

/// A transactional producer.
#[derive(Clone, Debug, PartialEq)]
pub struct ProducerView {
    pub name: String,
    pub transactional_id: String,
    /// (producerId, epoch) once it has one.
    pub id: Option<(i64, i16)>,
    /// `TransactionManager` state, e.g. `IN_TRANSACTION`.
    pub state: &'static str,
    pub in_transaction: bool,
    pub last_error: Option<String>,
    pub partitions: Vec<String>,
    pub outcome: Option<OutcomeView>,
    /// Batches in the accumulator or in flight.
    pub pending: usize,
}

pub fn producers(world: &World) -> Vec<ProducerView> {
    world
        .producers
        .iter()
        .filter_map(|(name, p)| {
            let txn = p.txn.as_ref()?;
            let outcome = p.last_txn_outcome.as_ref().and_then(|o| match o {
                TxnOutcome::Initialized {
                    producer_id,
                    producer_epoch,
                } => Some((
                    "initTransactions",
                    true,
                    None,
                    *producer_id,
                    *producer_epoch,
                )),
                TxnOutcome::Committed {
                    producer_id,
                    producer_epoch,
                } => Some((
                    "commitTransaction",
                    true,
                    None,
                    *producer_id,
                    *producer_epoch,
                )),
                TxnOutcome::Aborted {
                    producer_id,
                    producer_epoch,
                } => Some((
                    "abortTransaction",
                    true,
                    None,
                    *producer_id,
                    *producer_epoch,
                )),
                TxnOutcome::Failed { operation, error } => {
                    Some((operation.as_str(), false, Some(*error), -1, -1))
                }
                TxnOutcome::OffsetsSent { .. } | TxnOutcome::Retrying { .. } => None,
            });
            Some(ProducerView {
                name: name.clone(),
                transactional_id: txn.transactional_id.clone(),
                id: (p.producer_id >= 0).then_some((p.producer_id, p.producer_epoch)),
                state: txn.state.name(),
                in_transaction: txn.state == TxnState::InTransaction,
                last_error: txn.last_error.map(|e| e.exception_name()),
                partitions: txn
                    .partitions_in_transaction
                    .iter()
                    .map(|tp| tp.to_string())
                    .collect(),
                outcome: outcome.map(|(operation, ok, error, pid, epoch)| OutcomeView {
                    ok,
                    operation: operation.to_string(),
                    exception: error.map(|e| e.exception_name()),
                    error: error.map(|e| e.name().to_string()),
                    producer_id: (pid >= 0).then_some(pid),
                    producer_epoch: (epoch >= 0).then_some(epoch),
                }),
                pending: p.accumulator.values().map(|q| q.len()).sum::<usize>() + p.in_flight.len(),
            })
        })
        .collect()
}

/// One record of `__transaction_state` for a transactional id.
#[derive(Clone, Debug, PartialEq)]
pub struct TxnRecordView {
    pub status: String,
    pub producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub partitions: String,
    pub json: String,
}

/// A transactional id as its coordinator sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinatorView {
    pub transactional_id: String,
    pub broker: i32,
    /// The `__transaction_state` partition number.
    pub partition: i32,
    pub state: TransactionState,
    /// The state a write in progress will move to.
    pub pending: Option<TransactionState>,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub partitions: Vec<String>,
    pub timeout_ms: i32,
    /// How long the open transaction has been open, in ms.
    pub open_for_ms: Option<i64>,
    /// The records written for this id, oldest first.
    pub records: Vec<TxnRecordView>,
    /// The last transition (from, to), from the events.
    pub last_transition: Option<(TransactionState, TransactionState)>,
    /// Every state this id has been in, from its records.
    pub visited: Vec<TransactionState>,
}

fn txn_records(world: &World, broker: &Broker, transactional_id: &str) -> Vec<TxnRecordView> {
    let tp = TopicPartition::new(
        TRANSACTION_STATE_TOPIC,
        partition_for(
            transactional_id,
            broker.txn_coordinator.config().num_partitions,
        ),
    );
    // The partition's leader holds the log (the coordinator, unless it moved).
    let holder = world
        .leader_of(&tp)
        .and_then(|b| world.brokers.get(&b))
        .unwrap_or(broker);
    let Some(log) = holder.logs.get(&tp) else {
        return vec![];
    };
    log.read_all(&holder.fs)
        .iter()
        .flat_map(|s| s.batch.records.iter())
        .filter(|r| {
            r.key.as_deref().and_then(|k| decode_key(k).ok()).as_deref() == Some(transactional_id)
        })
        .filter_map(|r| r.value.as_deref().and_then(|v| decode_value(v).ok()))
        .map(|v| TxnRecordView {
            status: v.state().map_or_else(
                || v.transaction_status.to_string(),
                |s| s.name().to_string(),
            ),
            producer_epoch: v.producer_epoch,
            last_producer_epoch: v.last_producer_epoch,
            partitions: v
                .transaction_partitions
                .as_ref()
                .map(|ps| {
                    ps.iter()
                        .flat_map(|p| {
                            p.partition_ids
                                .iter()
                                .map(move |i| format!("{}-{i}", p.topic))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default(),
            json: value_json(&v),
        })
        .collect()
}

/// Every transactional id known to an online coordinator, by id.
pub fn coordinators(world: &World) -> Vec<CoordinatorView> {
    let online = || world.brokers.values().filter(|b| b.online);
    let ids = online()
        .flat_map(|b| b.txn_coordinator.transactions())
        .map(|m| m.transactional_id.as_str())
        .collect_set();
    // Each transaction's newest move, newest events first: the scan stops once every
    // shown transaction has one (the world keeps every event it ever had).
    let mut last: BTreeMap<String, (TransactionState, TransactionState)> = BTreeMap::new();
    for e in world.events.iter().rev() {
        if last.len() == ids.len() {
            break;
        }
        if let EventKind::Broker {
            event:
                BrokerEvent::Coordinator(CoordinatorEvent::StateChanged {
                    transactional_id,
                    from,
                    to,
                    ..
                }),
            ..
        } = &e.kind
        {
            if ids.contains(transactional_id.as_str()) && !last.contains_key(transactional_id) {
                last.insert(transactional_id.clone(), (*from, *to));
            }
        }
    }
    let mut out: Vec<CoordinatorView> = online()
        .flat_map(|b| b.txn_coordinator.transactions().map(move |m| (b, m)))
        .map(|(b, m)| {
            let records = txn_records(world, b, &m.transactional_id);
            let visited: Vec<TransactionState> = records
                .iter()
                .filter_map(|r| TransactionState::from_name(&r.status))
                .collect_set()
                .into_iter()
                .collect();
            CoordinatorView {
                transactional_id: m.transactional_id.clone(),
                broker: b.id,
                partition: b.txn_coordinator.partition_for(&m.transactional_id),
                state: m.state,
                pending: m.pending_state,
                producer_id: m.producer_id,
                producer_epoch: m.producer_epoch,
                last_producer_epoch: m.last_producer_epoch,
                partitions: m.topic_partitions.iter().map(|tp| tp.to_string()).collect(),
                timeout_ms: m.txn_timeout_ms,
                open_for_ms: (m.state == TransactionState::Ongoing && m.txn_start_timestamp >= 0)
                    .then(|| world.clock_ms - m.txn_start_timestamp),
                records,
                last_transition: last.get(&m.transactional_id).copied(),
                visited,
            }
        })
        .collect();
    crate::util::ordered::sort_by(&mut out, |a, b| a.transactional_id.cmp(&b.transactional_id));
    out
}

/// A consumer reading the shown partition.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerView {
    pub name: String,
    pub isolation: IsolationLevel,
    pub position: Option<i64>,
    /// Records delivered from this partition in all.
    pub total: usize,
    /// The newest [`CONSUMER_RECORDS`] delivered: (offset, value).
    pub records: Vec<(i64, String)>,
    /// Offsets before the position that were not delivered, grouped: (first, last, why).
    pub skipped: Vec<(i64, i64, BatchKind)>,
}

/// Runs of equal kinds over consecutive offsets.
fn runs(offsets: impl Iterator<Item = (i64, BatchKind)>) -> Vec<(i64, i64, BatchKind)> {
    let mut out: Vec<(i64, i64, BatchKind)> = Vec::new();
    for (o, k) in offsets {
        match out.last_mut() {
            Some((_, last, kind)) if *last + 1 == o && *kind == k => *last = o,
            _ => out.push((o, o, k)),
        }
    }
    out
}

pub fn consumers(world: &World, part: Option<&PartitionView>) -> Vec<ConsumerView> {
    world
        .consumers
        .iter()
        .map(|(name, c)| {
            let tp = part.map(|p| p.tp.clone());
            let position = tp.as_ref().and_then(|tp| c.position(tp));
            let mine: Vec<&crate::client::consumer::ConsumerRecord> = c
                .records()
                .iter()
                .filter(|r| Some(&r.topic_partition) == tp.as_ref())
                .collect();
            let records: Vec<(i64, String)> = mine
                .get(mine.len().saturating_sub(CONSUMER_RECORDS)..)
                .unwrap_or_default()
                .iter()
                .map(|r| (r.offset, r.value_text()))
                .collect();
            let skipped = match (part, position) {
                (Some(p), Some(pos)) => {
                    let start = p.window_start();
                    let delivered: BTreeSet<i64> = mine
                        .iter()
                        .rev()
                        .map(|r| r.offset)
                        .take_while(|o| *o >= start)
                        .collect_set();
                    runs(
                        (start..pos)
                            .filter(|o| !delivered.contains(o))
                            .filter_map(|o| p.kind_at(o).map(|k| (o, k))),
                    )
                }
                _ => vec![],
            };
            ConsumerView {
                name: name.clone(),
                isolation: c.isolation_level(),
                position,
                total: mine.len(),
                records,
                skipped,
            }
        })
        .collect()
}

/// A lifeline of the sequence diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Lifeline {
    pub label: String,
    /// What this node is here: "leader of payments-0", "coordinator of tx-1", …
    pub roles: Vec<String>,
}

/// One message of the sequence diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineMessage {
    pub seq: u64,
    pub at_ms: i64,
    pub from: usize,
    pub to: usize,
    pub api: String,
    pub response: bool,
    pub error: Option<String>,
    pub dropped: bool,
    /// A WriteTxnMarkers request held in the network (Hold markers).
    pub held: bool,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct TimelineView {
    pub lifelines: Vec<Lifeline>,
    /// Oldest first.
    pub messages: Vec<TimelineMessage>,
    /// Messages sent in all.
    pub total: usize,
}

fn node_rank(world: &World, n: &Node) -> (u8, i32, String) {
    match n {
        Node::Client(c) if world.producers.contains_key(c) => (0, 0, c.clone()),
        Node::Broker(b) => (1, *b, String::new()),
        Node::Controller => (2, 0, String::new()),
        Node::Client(c) => (3, 0, c.clone()),
    }
}

/// The last `max` messages between clients, brokers and the controller.
pub fn timeline(
    world: &World,
    part: Option<&PartitionView>,
    coords: &[CoordinatorView],
    max: usize,
) -> TimelineView {
    let mut dropped: BTreeSet<u64> = BTreeSet::new();
    let mut sent = Vec::new();
    for e in world.events.iter().rev() {
        match &e.kind {
            EventKind::MessageDropped { id, .. } => {
                dropped.insert(*id);
            }
            EventKind::MessageSent { .. } if sent.len() < max => sent.push(e),
            _ => {}
        }
        if sent.len() >= max {
            break;
        }
    }
    // Counted by the network: a scan of every event would cost a millisecond a render
    // once a partition holds 10,000 batches.
    let total = usize::try_from(world.network.messages_sent()).unwrap_or(usize::MAX);
    sent.reverse();
    let held = world.network.held.iter().map(|e| e.id).collect_set();
    let mut nodes: BTreeSet<(u8, i32, String)> = BTreeSet::new();
    for (name, p) in &world.producers {
        if p.txn.is_some() {
            nodes.insert((0, 0, name.clone()));
        }
    }
    if let Some(p) = part {
        nodes.insert((1, p.leader, String::new()));
    }
    for c in coords {
        nodes.insert((1, c.broker, String::new()));
    }
    for e in &sent {
        if let EventKind::MessageSent { from, to, .. } = &e.kind {
            nodes.insert(node_rank(world, from));
            nodes.insert(node_rank(world, to));
        }
    }
    let nodes: Vec<(u8, i32, String)> = nodes.into_iter().collect();
    let index = |n: &Node| nodes.iter().position(|k| *k == node_rank(world, n));
    let lifelines = nodes
        .iter()
        .map(|(rank, b, name)| match rank {
            1 => {
                let mut roles = Vec::new();
                if part.is_some_and(|p| p.leader == *b) {
                    roles.push(format!(
                        "leader {}",
                        part.map(|p| p.tp.to_string()).unwrap_or_default()
                    ));
                }
                for c in coords.iter().filter(|c| c.broker == *b) {
                    roles.push(format!("coordinator {}", c.transactional_id));
                }
                Lifeline {
                    label: format!("broker {b}"),
                    roles,
                }
            }
            2 => Lifeline {
                label: "controller".into(),
                roles: vec![],
            },
            _ => Lifeline {
                label: name.clone(),
                roles: vec![],
            },
        })
        .collect();
    let messages = sent
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent {
                id,
                from,
                to,
                api,
                response,
                error,
            } => Some(TimelineMessage {
                seq: e.seq,
                at_ms: e.at_ms - START_MS,
                from: index(from)?,
                to: index(to)?,
                api: api.clone(),
                response: *response,
                error: error
                    .filter(|e| *e != crate::protocol::errors::Errors::None)
                    .map(|e| e.name().to_string()),
                dropped: dropped.contains(id),
                held: held.contains(id),
            }),
            _ => None,
        })
        .collect();
    TimelineView {
        lifelines,
        messages,
        total,
    }
}
