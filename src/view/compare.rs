//! The comparison page (the Pulsar site's "Compare with Kafka"): one story — a scenario
//! with Kafka steps and `pulsar …` steps, played by one [`Replay`] — seen from both
//! engines after one player step, and the table of differences the story has shown.
//!
//! - Kafka's side: each partition's records (committed, aborted, open, markers) with
//!   its HW and LSO, and each transactional id as the transaction coordinator holds it.
//! - Pulsar's side: each partition's entries with `maxReadPosition` and the transaction
//!   buffer's ongoing and aborted transactions, and each TxnID as its coordinator holds
//!   it.
//! - The differences: one row per question; a cell fills in once the story made its
//!   engine do the thing the row is about, and holds what that engine showed (the
//!   newest sighting, with the player step of the first). Nothing is written in here:
//!   every value comes from the engines' read APIs — the partition views, the
//!   coordinators' metadata, and the events each world raised.

use std::ops::Range;

mod facts;
use facts::{kafka_facts, pulsar_facts};

use super::coordinators::coordinators as kafka_coordinators;
use super::partition::{partition_view, BatchKind, LOG_WINDOW};
use super::pulsar as pv;
use crate::coordinator::internal_topics::is_internal;
use crate::coordinator::transaction::TransactionState;
use crate::pulsar::{Position, PulsarWorld, TxnID, TxnStatus};
use crate::scenario::{Replay, Scenario};
use crate::sim::World;

/// One offset of a Kafka partition: a record, or a COMMIT/ABORT marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaRecord {
    pub offset: i64,
    /// The record's value (empty for a marker).
    pub value: String,
    pub kind: BatchKind,
    pub producer_id: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaPartition {
    pub tp: String,
    pub records: Vec<KafkaRecord>,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
}

/// A transactional id as its coordinator holds it (`TransactionMetadata`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaTxn {
    pub transactional_id: String,
    pub state: &'static str,
    pub pending: Option<&'static str>,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub partitions: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KafkaSide {
    pub partitions: Vec<KafkaPartition>,
    pub txns: Vec<KafkaTxn>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PulsarSide {
    pub partitions: Vec<pv::PartitionView>,
    /// Each TxnID as its coordinator holds it (the Pulsar page's own rows).
    pub txns: Vec<pv::TxnRow>,
    /// Each coordinator: (id, running, its transaction log).
    pub coordinators: Vec<(u64, bool, Vec<pv::LogRow>)>,
}

/// A question both engines answer differently (the catalog words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Row {
    UncommittedData,
    ReadLimit,
    AbortedData,
    WhoFilters,
    InputJoins,
    CoordinatorLog,
    Zombie,
    CoordinatorCrash,
}

pub const ROWS: [Row; 8] = [
    Row::UncommittedData,
    Row::ReadLimit,
    Row::AbortedData,
    Row::WhoFilters,
    Row::InputJoins,
    Row::CoordinatorLog,
    Row::Zombie,
    Row::CoordinatorCrash,
];

/// What the Kafka engine showed for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KafkaFact {
    /// An open transaction's record already in the partition log.
    OpenInLog {
        tp: String,
        offset: i64,
        value: String,
        lso: i64,
        hw: i64,
    },
    /// The LSO held below the HW by an open transaction.
    LsoBelowHw { tp: String, lso: i64, hw: i64 },
    /// Aborted records left in the log, listed in `.txnindex`.
    AbortedInLog {
        tp: String,
        first: i64,
        last: i64,
        producer_id: i64,
    },
    /// A read_committed consumer skipped an aborted batch it had fetched.
    ConsumerDropped {
        consumer: String,
        tp: String,
        first: i64,
        last: i64,
    },
    /// The group's offsets partition joined the transaction.
    OffsetsInTxn {
        transactional_id: String,
        partition: String,
    },
    /// `__transaction_state` records of a transactional id: each the whole state.
    StateRecords {
        transactional_id: String,
        records: usize,
        last_state: String,
        partitions: String,
    },
    /// The epoch bumped at the end of a transaction (TV2): older epochs are fenced.
    EpochBumped {
        transactional_id: String,
        producer_id: i64,
        epoch: i16,
        last_epoch: i16,
    },
    /// A `__transaction_state` partition reloaded after a restart.
    Reloaded {
        partition: i32,
        transactions: usize,
        pending: usize,
    },
}

/// What the Pulsar engine showed for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PulsarFact {
    /// An ongoing transaction's message already in the partition's ledger.
    InLedger {
        topic: String,
        position: Position,
        value: String,
        txn: TxnID,
    },
    /// maxReadPosition held before an ongoing transaction's first message.
    MaxRead {
        topic: String,
        max_read: Position,
        txn: TxnID,
        first: Position,
    },
    /// An aborted message left in the ledger, its TxnID in the buffer's aborted list.
    AbortedInBuffer {
        topic: String,
        position: Position,
        txn: TxnID,
    },
    /// The broker's dispatcher left aborted messages out.
    DispatcherFiltered {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
    },
    /// An ack carrying a TxnID held in pending ack.
    PendingAck {
        subscription: String,
        position: Position,
        txn: TxnID,
        mark_delete: Position,
    },
    /// The coordinator's transaction log: one operation a record.
    LogOps {
        log_topic: String,
        records: usize,
        last_op: &'static str,
        deleted: usize,
    },
    /// A transaction with its own TxnID and timeout.
    OwnTimeout {
        txn: TxnID,
        tc: u64,
        timeout_ms: i64,
    },
    /// A new coordinator replayed the transaction log.
    Recovered {
        tc: u64,
        records: usize,
        txns: Vec<(TxnID, TxnStatus)>,
        /// Client requests retried (TransactionCoordinatorNotFound) while it loaded.
        retries: usize,
    },
}

/// A filled cell: the newest fact the engine showed for the row, and the player step
/// (1-based) it first showed that fact at (a fact that changes moves the step on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell<F> {
    pub since_step: usize,
    pub fact: F,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffRow {
    pub row: Row,
    pub kafka: Option<Cell<KafkaFact>>,
    pub pulsar: Option<Cell<PulsarFact>>,
}

/// The comparison after `at` player steps of the story.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareView {
    pub at: usize,
    pub len: usize,
    /// The line steps of the player step shown last (its title and narration).
    pub shown_lines: Option<Range<usize>>,
    pub kafka: KafkaSide,
    /// None until the story's first `pulsar` step.
    pub pulsar: Option<PulsarSide>,
    pub rows: Vec<DiffRow>,
    /// Why a step was refused, if one was (the story stops there).
    pub error: Option<String>,
}

impl CompareView {
    pub fn row(&self, row: Row) -> Option<&DiffRow> {
        self.rows.iter().find(|r| r.row == row)
    }
}

/// Plays `scenario` for `upto` player steps and builds the comparison. The cells are
/// looked for after every line step, so a state that a player step passes through
/// (a transaction open before its commit) fills its row.
pub fn compare(scenario: Scenario, upto: usize) -> CompareView {
    let mut replay = Replay::new(scenario);
    let steps = replay.player_steps().to_vec();
    let mut rows: Vec<DiffRow> = ROWS
        .iter()
        .map(|&row| DiffRow {
            row,
            kafka: None,
            pulsar: None,
        })
        .collect();
    let mut error = None;
    let (mut kafka_seen, mut pulsar_seen) = (0, 0);
    'story: for (i, range) in steps.iter().enumerate().take(upto) {
        while replay.at() < range.end && !replay.is_done() {
            if let Err(e) = replay.step() {
                error = Some(e);
                break 'story;
            }
            let mut found = Vec::new();
            kafka_facts(replay.world(), kafka_seen, &mut found);
            kafka_seen = replay.world().events.len();
            for (row, fact) in found {
                fill(&mut rows, row, i + 1, |r| &mut r.kafka, fact);
            }
            if let Some(w) = replay.pulsar_world() {
                let mut found = Vec::new();
                pulsar_facts(w, pulsar_seen, &mut found);
                pulsar_seen = w.events().len();
                for (row, fact) in found {
                    fill(&mut rows, row, i + 1, |r| &mut r.pulsar, fact);
                }
            }
        }
    }
    let at = replay.player_at();
    CompareView {
        at,
        len: steps.len(),
        shown_lines: at.checked_sub(1).and_then(|i| steps.get(i).cloned()),
        kafka: kafka_side(replay.world()),
        pulsar: replay.pulsar_world().map(pulsar_side),
        rows,
        error,
    }
}

fn fill<F: PartialEq>(
    rows: &mut [DiffRow],
    row: Row,
    step: usize,
    cell: impl Fn(&mut DiffRow) -> &mut Option<Cell<F>>,
    fact: F,
) {
    if let Some(r) = rows.iter_mut().find(|r| r.row == row) {
        let c = cell(r);
        let since_step = match c {
            Some(old) if old.fact == fact => old.since_step,
            _ => step,
        };
        *c = Some(Cell { since_step, fact });
    }
}

pub(super) fn kafka_partitions(w: &World) -> Vec<KafkaPartition> {
    w.partitions()
        .into_iter()
        .filter(|tp| !is_internal(&tp.topic))
        .filter_map(|tp| partition_view(w, &tp, LOG_WINDOW))
        .map(|p| KafkaPartition {
            tp: p.tp.to_string(),
            records: p
                .batches
                .iter()
                .flat_map(|b| {
                    let one = |offset: i64, value: String| KafkaRecord {
                        offset,
                        value,
                        kind: b.kind,
                        producer_id: b.producer_id,
                    };
                    if b.kind.is_marker() {
                        vec![one(b.base_offset, String::new())]
                    } else {
                        b.records.iter().map(|(o, v)| one(*o, v.clone())).collect()
                    }
                })
                .collect(),
            high_watermark: p.high_watermark,
            last_stable_offset: p.last_stable_offset,
        })
        .collect()
}

fn kafka_side(w: &World) -> KafkaSide {
    KafkaSide {
        partitions: kafka_partitions(w),
        txns: kafka_coordinators(w)
            .into_iter()
            .map(|c| KafkaTxn {
                transactional_id: c.transactional_id,
                state: c.state.name(),
                pending: c.pending.map(TransactionState::name),
                producer_id: c.producer_id,
                producer_epoch: c.producer_epoch,
                partitions: c.partitions,
            })
            .collect(),
    }
}

fn pulsar_side(w: &PulsarWorld) -> PulsarSide {
    let tcs = pv::coordinators(w);
    PulsarSide {
        partitions: pv::partitions(w),
        coordinators: tcs
            .iter()
            .map(|c| (c.tc, c.running, c.log.clone()))
            .collect(),
        txns: tcs.into_iter().flat_map(|c| c.txns).collect(),
    }
}

/// The comparison page's fixed words, worded by the catalog
/// (`i18n::narration::compare_label`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareLabel {
    NavLabel,
    NavLessons,
    NavCompare,
    Title,
    Intro,
    KafkaSide,
    PulsarSide,
    PulsarNotYet,
    Offset,
    Value,
    State,
    Open,
    Coordinator,
    NoTransactions,
    NoPulsarTxns,
    TransactionalId,
    ProducerId,
    Epoch,
    Partitions,
    TxnId,
    Operation,
    Name,
    Subscriptions,
    DifferencesCaption,
    NotShownYet,
}
