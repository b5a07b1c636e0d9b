//! The partition on the transactions page: its log told apart into committed, aborted
//! and open data and COMMIT/ABORT markers, with the LSO and the high watermark. Only
//! the newest batches are decoded, so a partition of 10,000 batches still renders fast.
//!
//! Nothing is decided twice: a marker's type is the one the engine decoded from the
//! control record, an aborted batch is one the partition's `.txnindex` lists, and an
//! open one belongs to a transaction its producer state still holds open.

use crate::broker::broker::BrokerEvent;
use crate::coordinator::internal_topics::is_internal;
use crate::log::{AbortedTxn, TopicPartition};
use crate::record::ControlRecordType;
use crate::sim::view::{BatchView, LogView};
use crate::sim::{EventKind, World};

/// How many batches of the partition the page decodes and shows at least (the newest).
pub const LOG_WINDOW: usize = 50;
/// The shown window starts at a multiple of this many batches, so a new batch only
/// adds a row (the rows on screen stay as they are) until the window jumps ahead.
pub const LOG_WINDOW_STEP: usize = 25;
/// How many offsets the offset strip shows (the newest).
pub const STRIP_OFFSETS: usize = 32;

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

    /// What `batch` is, from the partition's own transaction state: the marker type
    /// decoded from a control batch (a control record that does not decode counts as
    /// an ABORT), the aborted transactions of `.txnindex`, and the open transactions
    /// of the producer state as (producer id, first offset).
    pub fn of(batch: &BatchView, aborted: &[AbortedTxn], ongoing: &[(i64, i64)]) -> Self {
        if batch.is_control {
            return match batch.end_txn_marker {
                Some((ControlRecordType::Commit, _)) => BatchKind::CommitMarker,
                Some((ControlRecordType::Abort, _)) | None => BatchKind::AbortMarker,
            };
        }
        if !batch.is_transactional {
            return BatchKind::Plain;
        }
        let (pid, first, last) = (batch.producer_id, batch.base_offset, batch.last_offset);
        if aborted.iter().any(|a| a.covers(pid, first, last)) {
            BatchKind::Aborted
        } else if ongoing.iter().any(|(p, f)| *p == pid && *f <= first) {
            BatchKind::Open
        } else {
            BatchKind::Committed
        }
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
    /// Where `batches` starts among all `total_batches`.
    pub first_batch: usize,
    /// The batch table scrolled back ([`partition_view_back`]): where its rows start
    /// among all batches, and those rows. None: the table shows `batches`.
    pub rows: Option<(usize, Vec<TxnBatch>)>,
    /// `.txnindex`: the aborted transactions, oldest first.
    pub aborted: Vec<AbortedTxn>,
    /// Open transactions: (producer id, first offset).
    pub ongoing: Vec<(i64, i64)>,
}

impl PartitionView {
    /// The batch table's rows: where they start among all batches, and the rows.
    pub fn table_rows(&self) -> (usize, &[TxnBatch]) {
        match &self.rows {
            Some((first, rows)) => (*first, rows),
            None => (self.first_batch, &self.batches),
        }
    }

    /// What is at `offset`, if it is in the decoded window. An offset the log cleaner
    /// removed (a gap between batches, or a record gone from a kept batch) has none.
    pub fn kind_at(&self, offset: i64) -> Option<BatchKind> {
        let i = self
            .batches
            .partition_point(|b| b.last_offset < offset)
            .min(self.batches.len());
        self.batches
            .get(i)
            .filter(|b| b.base_offset <= offset)
            .filter(|b| {
                if b.kind.is_marker() {
                    b.base_offset == offset
                } else {
                    b.records.iter().any(|(o, _)| *o == offset)
                }
            })
            .map(|b| b.kind)
    }

    /// The first offset of the decoded window.
    pub fn window_start(&self) -> i64 {
        self.batches
            .first()
            .map_or(self.log_end_offset, |b| b.base_offset)
    }
}

/// The partition, decoded from the leader's disk — only the newest `window` batches
/// (up to `LOG_WINDOW_STEP - 1` more, see there).
/// (`World::log_view_tail`: at 10,000 batches, decoding them all would take most of a
/// frame.)
pub fn partition_view(world: &World, tp: &TopicPartition, window: usize) -> Option<PartitionView> {
    let view = world.log_view_tail(tp, window, LOG_WINDOW_STEP)?;
    Some(PartitionView {
        tp: tp.clone(),
        leader: view.leader,
        log_start_offset: view.log_start_offset,
        log_end_offset: view.log_end_offset,
        high_watermark: view.high_watermark,
        last_stable_offset: view.last_stable_offset,
        total_batches: view.total_batches,
        first_batch: view.first_batch,
        batches: txn_batches(&view),
        rows: None,
        aborted: view.aborted_txns,
        ongoing: view.ongoing_transactions,
    })
}

/// Like [`partition_view`], with the batch table's rows ([`PartitionView::rows`]) a
/// window ending `back` batches before the newest (in steps of [`LOG_WINDOW_STEP`]):
/// the rows near where the reader scrolled to in a long log. The strip, the pointers
/// and the readers still see the newest batches.
pub fn partition_view_back(
    world: &World,
    tp: &TopicPartition,
    window: usize,
    back: usize,
) -> Option<PartitionView> {
    let mut part = partition_view(world, tp, window)?;
    if back > 0 {
        let view = world.log_view_back(tp, window, back, LOG_WINDOW_STEP)?;
        if view.first_batch != part.first_batch {
            part.rows = Some((view.first_batch, txn_batches(&view)));
        }
    }
    Some(part)
}

/// The decoded batches of `view`, told apart by the partition's transaction state.
fn txn_batches(view: &LogView) -> Vec<TxnBatch> {
    view.batches
        .iter()
        .map(|b| TxnBatch {
            base_offset: b.base_offset,
            last_offset: b.last_offset,
            producer_id: b.producer_id,
            producer_epoch: b.producer_epoch,
            base_sequence: b.base_sequence,
            kind: BatchKind::of(b, &view.aborted_txns, &view.ongoing_transactions),
            records: if b.is_control {
                vec![]
            } else {
                b.records.clone()
            },
            control_line: b.end_txn_marker_text(),
        })
        .collect()
}

/// The partition the page shows: the (non-internal) one where something transactional
/// happened last, else the first non-internal partition.
pub fn shown_partition(world: &World) -> Option<TopicPartition> {
    let parts: Vec<TopicPartition> = world
        .partitions()
        .into_iter()
        .filter(|tp| !is_internal(&tp.topic))
        .collect();
    let latest = world.events().iter().rev().find_map(|e| match &e.kind {
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
