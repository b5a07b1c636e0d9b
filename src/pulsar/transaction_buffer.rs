//! The transaction buffer of one topic partition (`TopicTransactionBuffer`).
//!
//! Transactional messages go into the partition's managed ledger at once; the buffer
//! keeps only metadata: the ongoing transactions with their first position, the
//! aborted ones, and `maxReadPosition`, the last position a dispatcher may read (the
//! entry before the first ongoing transaction's first message, or the last confirmed
//! entry when none is ongoing): Pulsar's counterpart of Kafka's LSO. Its snapshot
//! (`TransactionBufferSnapshot`: maxReadPosition and the aborted list) lets a new owner
//! recover without reading the whole ledger.
//!
//! Ended transactions (Pulsar 3.x, TopicTransactionBuffer at 5d35d41a): each end
//! carries its coordinator's low water mark. A send of a transaction at or below it is
//! refused before it is written (`appendBufferToTxn`: NotAllowedException, "has been
//! ended"); a message of a transaction this partition already aborted is written but
//! never becomes ongoing (`handleTransactionMessage`), so it cannot hold
//! maxReadPosition; and after each end, the first ongoing transaction at or below its
//! coordinator's mark is aborted, then the next first one (`handleLowWaterMark`, which
//! each abort calls again). The marks live in memory only.
//!
//! Its lifecycle (`TopicTransactionBufferState`, Pulsar 3.x/4.0, TopicTransactionBuffer
//! at 000d1f2b): a loaded topic recovers first (Initializing). Without a snapshot there
//! is nothing to recover (`noNeedToRecover`): NoSnapshot, maxReadPosition follows every
//! plain entry. The first transactional append takes the first snapshot
//! (FirstSnapshotting, immediate here) and the buffer is Ready. A reload with a snapshot
//! replays the ledger after the snapshot's maxReadPosition, then is Ready. While it
//! initializes, `getMaxReadPosition` is EARLIEST (nothing is dispatched) and publishes
//! wait for the recovery (the world holds them until it completes).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ManagedLedger, Position, TxnID};

/// `TopicTransactionBufferState.State`, the states a learner can see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransactionBufferState {
    /// No snapshot exists: no transaction ever wrote here.
    NoSnapshot,
    /// Recovering after a load: from the snapshot, then the ledger after it.
    Initializing,
    Ready,
}

impl TransactionBufferState {
    pub fn name(self) -> &'static str {
        match self {
            TransactionBufferState::NoSnapshot => "NoSnapshot",
            TransactionBufferState::Initializing => "Initializing",
            TransactionBufferState::Ready => "Ready",
        }
    }
}

/// What a snapshot keeps (`TransactionBufferSnapshot`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionBufferSnapshot {
    pub max_read_position: Position,
    /// Aborted transactions and their abort marker positions.
    pub aborts: Vec<(TxnID, Position)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TopicTransactionBuffer {
    /// Ongoing transactions in the order they first wrote here (`ongoingTxns`).
    ongoing_txns: Vec<(TxnID, Position)>,
    /// Aborted transactions with their marker position (`aborts`).
    aborts: Vec<(TxnID, Position)>,
    max_read_position: Position,
    snapshot: Option<TransactionBufferSnapshot>,
    /// `lowWaterMarks`: per coordinator id, the highest low water mark an end brought.
    low_water_marks: BTreeMap<u64, i64>,
    state: TransactionBufferState,
}

impl TopicTransactionBuffer {
    pub fn new(ledger: &ManagedLedger) -> TopicTransactionBuffer {
        TopicTransactionBuffer {
            ongoing_txns: Vec::new(),
            aborts: Vec::new(),
            max_read_position: ledger.last_confirmed_entry(),
            snapshot: None,
            low_water_marks: BTreeMap::new(),
            state: TransactionBufferState::NoSnapshot,
        }
    }
    pub fn state(&self) -> TransactionBufferState {
        self.state
    }
    /// `getMaxReadPosition`: EARLIEST (before the ledger's first entry) while it
    /// initializes; the dispatcher reads nothing then.
    pub fn dispatch_limit(&self, ledger: &ManagedLedger) -> Position {
        match self.state {
            TransactionBufferState::Initializing => Position::new(ledger.ledger_id(), -1),
            _ => self.max_read_position,
        }
    }
    /// The topic was unloaded and is loading again: its metadata in memory is gone
    /// until [`TopicTransactionBuffer::recover`] rebuilds it.
    pub fn start_initializing(&mut self, ledger: &ManagedLedger) {
        self.state = TransactionBufferState::Initializing;
        self.ongoing_txns.clear();
        self.aborts.clear();
        self.low_water_marks.clear();
        self.max_read_position = Position::new(ledger.ledger_id(), -1);
    }
    /// `appendBufferToTxn` in NoSnapshot: the first snapshot is taken before the first
    /// transactional entry is written (`takeFirstSnapshot`), then the buffer is Ready.
    /// True when it did.
    pub fn take_first_snapshot_if_needed(&mut self) -> bool {
        if self.state != TransactionBufferState::NoSnapshot {
            return false;
        }
        self.take_snapshot();
        self.state = TransactionBufferState::Ready;
        true
    }
    pub fn low_water_marks(&self) -> &BTreeMap<u64, i64> {
        &self.low_water_marks
    }
    /// True when `txn` is at or below its coordinator's low water mark: it has ended.
    fn below_low_water_mark(&self, txn: TxnID) -> bool {
        self.low_water_marks
            .get(&txn.most_sig_bits())
            .is_some_and(|lwm| i128::from(txn.least_sig_bits()) <= i128::from(*lwm))
    }
    /// `appendBufferToTxn`'s check before anything is written: `Err` with the low water
    /// mark when the transaction has ended (NotAllowedException).
    pub fn check_append(&self, txn: TxnID) -> Result<(), i64> {
        match self.low_water_marks.get(&txn.most_sig_bits()) {
            Some(&lwm) if self.below_low_water_mark(txn) => Err(lwm),
            _ => Ok(()),
        }
    }
    pub fn ongoing_txns(&self) -> &[(TxnID, Position)] {
        &self.ongoing_txns
    }
    pub fn aborts(&self) -> &[(TxnID, Position)] {
        &self.aborts
    }
    pub fn max_read_position(&self) -> Position {
        self.max_read_position
    }
    pub fn snapshot(&self) -> Option<&TransactionBufferSnapshot> {
        self.snapshot.as_ref()
    }
    /// `isTxnAborted`: the dispatcher drops this transaction's messages.
    pub fn is_txn_aborted(&self, txn: TxnID) -> bool {
        self.aborts.iter().any(|(t, _)| *t == txn)
    }
    pub fn is_ongoing(&self, txn: TxnID) -> bool {
        self.ongoing_txns.iter().any(|(t, _)| *t == txn)
    }

    /// `handleTransactionMessage` after the entry is written: a transaction's first
    /// message makes it ongoing, which pins maxReadPosition before it. A message of a
    /// transaction already aborted here (a late send) does not: false, and the
    /// dispatcher filters it like the rest of that transaction.
    pub fn append_to_txn(&mut self, txn: TxnID, position: Position) -> bool {
        if self.is_txn_aborted(txn) {
            return false;
        }
        if !self.is_ongoing(txn) {
            self.ongoing_txns.push((txn, position));
        }
        true
    }

    /// `handleLowWaterMark` after an end: keeps the higher mark for the coordinator.
    pub fn record_low_water_mark(&mut self, tc: u64, low_water_mark: i64) {
        let mark = self.low_water_marks.entry(tc).or_insert(low_water_mark);
        *mark = (*mark).max(low_water_mark);
    }
    /// The first ongoing transaction, with its coordinator's mark, if it is at or below
    /// that mark: it has ended elsewhere, so the caller writes an abort marker for it
    /// here, and asks again (each abort's own `handleLowWaterMark` looks at the next).
    pub fn first_below_low_water_mark(&self) -> Option<(TxnID, i64)> {
        let (first, _) = *self.ongoing_txns.first()?;
        let mark = *self.low_water_marks.get(&first.most_sig_bits())?;
        self.below_low_water_mark(first).then_some((first, mark))
    }

    /// A plain message moves maxReadPosition only when nothing is ongoing
    /// (`syncMaxReadPositionForNormalPublish`; in NoSnapshot nothing can be).
    pub fn append_normal(&mut self, position: Position) {
        if self.ongoing_txns.is_empty() {
            self.max_read_position = position;
        }
    }

    /// `commitTxn` / `abortTxn` after the marker is written: the transaction leaves the
    /// ongoing list (an abort is remembered) and maxReadPosition is recomputed.
    pub fn end_txn(&mut self, txn: TxnID, commit: bool, marker: Position, ledger: &ManagedLedger) {
        self.ongoing_txns.retain(|(t, _)| *t != txn);
        if !commit && !self.is_txn_aborted(txn) {
            self.aborts.push((txn, marker));
        }
        self.update_max_read_position(marker, ledger);
    }

    /// `updateMaxReadPosition`; `last` is the last entry written (the marker), which is
    /// the ledger's last confirmed entry live and the replayed entry in recovery.
    fn update_max_read_position(&mut self, last: Position, ledger: &ManagedLedger) {
        self.max_read_position = match self.ongoing_txns.first() {
            Some((_, first)) => ledger.previous_position(*first),
            None => last,
        };
    }

    /// `takeSnapshot`: what a recovering owner starts from.
    pub fn take_snapshot(&mut self) -> &TransactionBufferSnapshot {
        self.snapshot.insert(TransactionBufferSnapshot {
            max_read_position: self.max_read_position,
            aborts: self.aborts.clone(),
        })
    }

    /// The entries a recovery from this snapshot reads (those after its
    /// maxReadPosition); none without a snapshot (`noNeedToRecover`).
    pub fn entries_to_replay(
        ledger: &ManagedLedger,
        snapshot: Option<&TransactionBufferSnapshot>,
    ) -> usize {
        snapshot.map_or(0, |s| {
            ledger
                .entries()
                .iter()
                .filter(|e| e.position > s.max_read_position)
                .count()
        })
    }

    /// Recovery (`TopicTransactionBufferRecover`): start from the snapshot, then replay
    /// the entries after its maxReadPosition: messages of unfinished transactions are
    /// ongoing again, markers end them; then Ready. Without a snapshot nothing is read
    /// (`noNeedToRecover`): NoSnapshot, maxReadPosition at the last entry. The low water
    /// marks were in memory only: they start empty.
    pub fn recover(ledger: &ManagedLedger, snapshot: Option<&TransactionBufferSnapshot>) -> Self {
        let mut tb = TopicTransactionBuffer::new(ledger);
        let start = match snapshot {
            Some(s) => {
                tb.aborts = s.aborts.clone();
                tb.snapshot = Some(s.clone());
                tb.state = TransactionBufferState::Ready;
                s.max_read_position.next()
            }
            None => return tb,
        };
        tb.max_read_position = ledger.previous_position(start);
        for e in ledger.entries().iter().filter(|e| e.position >= start) {
            match (&e.data, e.txn()) {
                (super::EntryData::TxnMarker { commit, .. }, Some(txn)) => {
                    tb.end_txn(txn, *commit, e.position, ledger)
                }
                (_, Some(txn)) => {
                    tb.append_to_txn(txn, e.position);
                }
                (_, None) => tb.append_normal(e.position),
            }
        }
        tb
    }
}

#[cfg(test)]
mod tests {
    use super::super::EntryData;
    use super::*;

    fn msg(txn: Option<TxnID>) -> EntryData {
        EntryData::Message {
            value: "v".into(),
            producer_name: "p".into(),
            sequence_id: 0,
            txn,
            deliver_at: None,
            batch: Vec::new(),
        }
    }

    #[test]
    fn max_read_position_stops_before_the_first_ongoing_transaction() {
        let mut l = ManagedLedger::new("t", 1);
        let mut tb = TopicTransactionBuffer::new(&l);
        let p0 = l.add_entry(msg(None));
        tb.append_normal(p0);
        assert_eq!(tb.max_read_position(), p0);
        let (t1, t2) = (TxnID::new(0, 1), TxnID::new(0, 2));
        let p1 = l.add_entry(msg(Some(t1)));
        tb.append_to_txn(t1, p1);
        let p2 = l.add_entry(msg(None));
        tb.append_normal(p2);
        assert_eq!(
            tb.max_read_position(),
            p0,
            "a plain message waits behind t1"
        );
        let p3 = l.add_entry(msg(Some(t2)));
        tb.append_to_txn(t2, p3);
        let m1 = l.add_entry(EntryData::TxnMarker {
            txn: t1,
            commit: false,
        });
        tb.end_txn(t1, false, m1, &l);
        assert!(tb.is_txn_aborted(t1));
        assert_eq!(tb.max_read_position(), p2, "now it waits behind t2");
        let m2 = l.add_entry(EntryData::TxnMarker {
            txn: t2,
            commit: true,
        });
        tb.end_txn(t2, true, m2, &l);
        assert_eq!(tb.max_read_position(), m2);
        assert!(!tb.is_txn_aborted(t2));
    }

    #[test]
    fn an_ended_transaction_neither_reopens_nor_holds_max_read_position() {
        let mut l = ManagedLedger::new("t", 1);
        let mut tb = TopicTransactionBuffer::new(&l);
        let (t0, t1, t2) = (TxnID::new(0, 0), TxnID::new(0, 1), TxnID::new(0, 2));
        let p = l.add_entry(msg(Some(t0)));
        assert!(tb.append_to_txn(t0, p));
        let m = l.add_entry(EntryData::TxnMarker {
            txn: t0,
            commit: false,
        });
        tb.end_txn(t0, false, m, &l);
        tb.record_low_water_mark(0, -1);
        assert_eq!(tb.first_below_low_water_mark(), None);
        // t0's late message: written, filtered, not ongoing.
        let late = l.add_entry(msg(Some(t0)));
        assert!(!tb.append_to_txn(t0, late));
        assert!(tb.ongoing_txns().is_empty());
        let p = l.add_entry(msg(None));
        tb.append_normal(p);
        assert_eq!(tb.max_read_position(), p);
        // t1 wrote here, then ended elsewhere; t2's end brings a mark above it.
        let p1 = l.add_entry(msg(Some(t1)));
        assert!(tb.append_to_txn(t1, p1));
        let p2 = l.add_entry(msg(Some(t2)));
        assert!(tb.append_to_txn(t2, p2));
        assert_eq!(tb.check_append(t1), Ok(()));
        let m2 = l.add_entry(EntryData::TxnMarker {
            txn: t2,
            commit: true,
        });
        tb.end_txn(t2, true, m2, &l);
        tb.record_low_water_mark(0, 1);
        tb.record_low_water_mark(0, 0);
        assert_eq!(
            tb.first_below_low_water_mark(),
            Some((t1, 1)),
            "t1 is at the higher mark"
        );
        assert_eq!(
            tb.check_append(t1),
            Err(1),
            "NotAllowedException: it has ended"
        );
        assert_eq!(tb.check_append(t2), Ok(()), "above the mark");
        assert_eq!(tb.check_append(TxnID::new(0, 3)), Ok(()));
        assert_eq!(
            tb.check_append(TxnID::new(1, 0)),
            Ok(()),
            "another coordinator"
        );
    }

    #[test]
    fn recovery_from_a_snapshot_and_the_ledger_gives_the_same_metadata() {
        let mut l = ManagedLedger::new("t", 1);
        let mut tb = TopicTransactionBuffer::new(&l);
        assert_eq!(tb.state(), TransactionBufferState::NoSnapshot);
        let (t1, t2) = (TxnID::new(0, 1), TxnID::new(0, 2));
        assert!(
            tb.take_first_snapshot_if_needed(),
            "the first append snapshots"
        );
        assert!(!tb.take_first_snapshot_if_needed(), "once");
        assert_eq!(tb.state(), TransactionBufferState::Ready);
        let p = l.add_entry(msg(Some(t1)));
        tb.append_to_txn(t1, p);
        let m = l.add_entry(EntryData::TxnMarker {
            txn: t1,
            commit: false,
        });
        tb.end_txn(t1, false, m, &l);
        let first = tb.snapshot().cloned();
        tb.take_snapshot();
        let p = l.add_entry(msg(Some(t2)));
        tb.append_to_txn(t2, p);
        let q = l.add_entry(msg(None));
        tb.append_normal(q);
        assert_eq!(
            TopicTransactionBuffer::entries_to_replay(&l, tb.snapshot()),
            2
        );
        assert_eq!(
            TopicTransactionBuffer::entries_to_replay(&l, first.as_ref()),
            4
        );
        for snapshot in [tb.snapshot(), first.as_ref()] {
            let r = TopicTransactionBuffer::recover(&l, snapshot);
            assert_eq!(r.state(), TransactionBufferState::Ready);
            assert_eq!(r.max_read_position(), tb.max_read_position());
            assert_eq!(r.aborts(), tb.aborts());
            assert_eq!(r.ongoing_txns(), tb.ongoing_txns());
        }
        // Without a snapshot nothing is read: the last entry is readable.
        let r = TopicTransactionBuffer::recover(&l, None);
        assert_eq!(r.state(), TransactionBufferState::NoSnapshot);
        assert_eq!(r.max_read_position(), q);
        let mut init = r.clone();
        init.start_initializing(&l);
        assert_eq!(init.dispatch_limit(&l), Position::new(1, -1));
        assert_eq!(r.dispatch_limit(&l), q);
    }
}
