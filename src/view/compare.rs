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
use crate::pulsar::PulsarWorld;
use crate::scenario::{Replay, Scenario};
use crate::sim::World;

pub use crate::i18n::facts::{CompareLabel, KafkaFact, PulsarFact, Row, ROWS};

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
            let lang = replay.lang();
            if let Err(e) = replay.step() {
                error = Some(e.in_lang(lang));
                break 'story;
            }
            let mut found = Vec::new();
            kafka_facts(replay.world(), kafka_seen, &mut found);
            kafka_seen = replay.world().events().len();
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
