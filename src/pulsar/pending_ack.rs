//! Pending ack: acknowledgements made inside a transaction, held per subscription until
//! the transaction ends (`PendingAckHandleImpl`, logged by `MLPendingAckStore` into the
//! subscription's pending-ack managed ledger as `PendingAckMetadataEntry` records).
//!
//! Rules (PendingAckHandleImpl.internalIndividualAcknowledgeMessage, which appends to
//! the store first and then checks): a position the cursor already deleted, or one
//! pending in any transaction, gives `TransactionConflictException`. Commit deletes the
//! positions from the cursor; abort forgets them so they are redelivered.
//! A cumulative ack in a transaction (`internalCumulativeAcknowledgeMessage`) holds one
//! position for one transaction: at or below the cursor's mark-delete position, or
//! while another transaction (or the same one at a later position) holds it, it is a
//! TransactionConflictException. Its commit moves the mark-delete position there; an
//! abort forgets it and the subscription redelivers what it had not acknowledged.
//! A batch entry's messages may be acknowledged one index at a time
//! (`acknowledgmentAtBatchIndexLevelEnabled`; PendingAckHandleImpl's ack-set checks):
//! an index already acknowledged on the cursor, or pending in any transaction, is a
//! TransactionConflictException, as is the whole entry while any of its indexes is
//! pending; other indexes of the same batch are free for another transaction. A
//! commit acknowledges the indexes on the cursor (the entry once all are); an abort
//! releases them and the entry is redelivered with what is still unacknowledged.
//!
//! A zombie's ack (sent before its transaction ended, arriving after) would hold its
//! positions for good: nothing will end that transaction here again. Each commit or
//! abort of a transaction that acked here carries its coordinator's low water mark;
//! the first transaction still holding acks here (in the order they first acked) is
//! aborted when it is at or below its coordinator's mark, then the next first one
//! (`handleLowWaterMark`, which each abort calls again; PendingAckHandleImpl at
//! 033a3b6e).
//!
//! A topic that loads again rebuilds the handle by replaying its pending-ack log
//! (`MLPendingAckStore.replayAsync`): acks through the same checks against the durable
//! cursor, commits and aborts releasing them, so the same positions are held again.
//! The low water marks were in memory only: they start empty.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ManagedCursor, ManagedLedger, Position, TxnID};

/// `PendingAckOp` of a pending-ack log record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PendingAckOp {
    Ack,
    Commit,
    Abort,
}

/// One record of the pending-ack log (`PendingAckMetadataEntry`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAckMetadataEntry {
    pub op: PendingAckOp,
    pub txn: TxnID,
    pub positions: Vec<Position>,
    /// `AckType.Cumulative` (else Individual).
    #[serde(default)]
    pub cumulative: bool,
}

/// Why a transactional ack was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AckConflict {
    /// The cursor already deleted it (a plain ack or a committed transaction).
    AlreadyAcked { position: Position },
    /// Another (or the same) transaction holds it in pending ack.
    InPendingAck { position: Position, holder: TxnID },
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAckHandle {
    /// `individualAckPositions`: position → the transaction holding it.
    individual_ack_positions: BTreeMap<Position, TxnID>,
    /// The transactions holding acks, in the order they first acked
    /// (`individualAckOfTransaction` is a LinkedMap).
    ack_order: Vec<TxnID>,
    /// `lowWaterMarks`: per coordinator id, the highest mark an end brought.
    low_water_marks: BTreeMap<u64, i64>,
    log: Vec<PendingAckMetadataEntry>,
    /// `cumulativeAckOfTransaction`: the one pending cumulative ack.
    cumulative: Option<(TxnID, Position)>,
}

impl PendingAckHandle {
    pub fn individual_ack_positions(&self) -> &BTreeMap<Position, TxnID> {
        &self.individual_ack_positions
    }
    pub fn log(&self) -> &[PendingAckMetadataEntry] {
        &self.log
    }
    /// The pending cumulative ack: its transaction and position.
    pub fn cumulative(&self) -> Option<(TxnID, Position)> {
        self.cumulative
    }
    /// Who holds `p`: the entry itself, or (for a batch index) that index or its whole
    /// entry.
    pub fn holder(&self, p: Position) -> Option<TxnID> {
        let exact = self.individual_ack_positions.get(&p).copied();
        match p.batch_index {
            Some(_) => exact.or_else(|| self.individual_ack_positions.get(&p.entry()).copied()),
            None => exact,
        }
    }
    /// Who holds the entry `e` or any index of it (`individualAckPositions` is keyed by
    /// entry in Pulsar).
    pub fn holder_in_entry(&self, e: Position) -> Option<TxnID> {
        let e = e.entry();
        let last = Position::batch(e.ledger_id, e.entry_id, u32::MAX);
        self.individual_ack_positions
            .range(e..=last)
            .next()
            .map(|(_, t)| *t)
    }
    /// Whether `txn` holds any position here.
    pub fn holds_any(&self, txn: TxnID) -> bool {
        self.ack_order.contains(&txn)
    }
    pub fn low_water_marks(&self) -> &BTreeMap<u64, i64> {
        &self.low_water_marks
    }

    /// `handleLowWaterMark` after a commit or abort of a transaction that acked here:
    /// keeps the higher mark for the coordinator.
    pub fn record_low_water_mark(&mut self, tc: u64, low_water_mark: i64) {
        let mark = self.low_water_marks.entry(tc).or_insert(low_water_mark);
        *mark = (*mark).max(low_water_mark);
    }
    /// The first holder (in ack order), with its coordinator's mark, if it is at or
    /// below that mark: it has ended, so the caller aborts it here and asks again.
    pub fn first_below_low_water_mark(&self) -> Option<(TxnID, i64)> {
        let first = *self.ack_order.first()?;
        let mark = *self.low_water_marks.get(&first.most_sig_bits())?;
        (i128::from(first.least_sig_bits()) <= i128::from(mark)).then_some((first, mark))
    }

    /// `individualAcknowledgeMessage`: log, then check every position, then hold them.
    pub fn individual_acknowledge(
        &mut self,
        txn: TxnID,
        positions: &[Position],
        cursor: &ManagedCursor,
    ) -> Result<(), AckConflict> {
        self.log.push(PendingAckMetadataEntry {
            op: PendingAckOp::Ack,
            txn,
            positions: positions.to_vec(),
            cumulative: false,
        });
        for &position in positions {
            if cursor.is_message_deleted(position) {
                return Err(AckConflict::AlreadyAcked { position });
            }
            // A batch index overlaps only itself or its whole entry; a whole entry
            // overlaps any pending index of it.
            let held = match position.batch_index {
                Some(_) => self.holder(position),
                None => self.holder_in_entry(position),
            };
            if let Some(holder) = held {
                return Err(AckConflict::InPendingAck { position, holder });
            }
        }
        for &p in positions {
            self.individual_ack_positions.insert(p, txn);
        }
        if !positions.is_empty() && !self.ack_order.contains(&txn) {
            self.ack_order.push(txn);
        }
        Ok(())
    }

    /// The pending-ack log refused the ack's record: Pulsar still holds the positions
    /// in memory (it cannot know what was persisted, so only the transaction's end
    /// may release them) and fails the ack. Simplified: a position another
    /// transaction holds keeps its holder (Pulsar's map would take the new one).
    pub fn hold_unlogged(&mut self, txn: TxnID, positions: &[Position], cumulative: bool) {
        if cumulative {
            if let Some(&p) = positions.first() {
                if self.cumulative.is_none_or(|(holder, _)| holder == txn) {
                    self.cumulative = Some((txn, p));
                }
            }
            return;
        }
        let mut any = false;
        for &p in positions {
            any |= *self.individual_ack_positions.entry(p).or_insert(txn) == txn;
        }
        if any && !self.ack_order.contains(&txn) {
            self.ack_order.push(txn);
        }
    }

    /// `cumulativeAcknowledgeMessage`: log, then check, then hold.
    pub fn cumulative_acknowledge(
        &mut self,
        txn: TxnID,
        position: Position,
        cursor: &ManagedCursor,
    ) -> Result<(), AckConflict> {
        self.log.push(PendingAckMetadataEntry {
            op: PendingAckOp::Ack,
            txn,
            positions: vec![position],
            cumulative: true,
        });
        if position <= cursor.mark_delete_position() {
            return Err(AckConflict::AlreadyAcked { position });
        }
        if let Some((holder, at)) = self.cumulative {
            if holder != txn || position <= at {
                return Err(AckConflict::InPendingAck { position, holder });
            }
        }
        self.cumulative = Some((txn, position));
        Ok(())
    }

    /// `commitTxn`: the commit mark is logged, then the held positions are deleted
    /// from the cursor (a cumulative ack moves its mark-delete position). Returns them.
    pub fn commit_txn(
        &mut self,
        txn: TxnID,
        cursor: &mut ManagedCursor,
        ledger: &ManagedLedger,
    ) -> Vec<Position> {
        if let Some((holder, p)) = self.cumulative {
            if holder == txn {
                self.cumulative = None;
                self.log_mark(txn, PendingAckOp::Commit, vec![p], true);
                cursor.mark_delete(p);
                return vec![p];
            }
        }
        let positions = self.release(txn, PendingAckOp::Commit);
        for &p in &positions {
            cursor.delete_message(p, ledger.batch_size(p).unwrap_or(1));
        }
        positions
    }

    /// `abortTxn` of a transaction whose cumulative ack is pending: the position it
    /// held, if it held one (the caller redelivers what is unacknowledged).
    pub fn abort_cumulative(&mut self, txn: TxnID) -> Option<Position> {
        let (holder, p) = self.cumulative?;
        if holder != txn {
            return None;
        }
        self.cumulative = None;
        self.log_mark(txn, PendingAckOp::Abort, vec![p], true);
        Some(p)
    }

    fn log_mark(
        &mut self,
        txn: TxnID,
        op: PendingAckOp,
        positions: Vec<Position>,
        cumulative: bool,
    ) {
        self.log.push(PendingAckMetadataEntry {
            op,
            txn,
            positions,
            cumulative,
        });
    }

    /// `abortTxn`: the abort mark is logged and the positions are let go; the caller
    /// redelivers them.
    pub fn abort_txn(&mut self, txn: TxnID) -> Vec<Position> {
        self.release(txn, PendingAckOp::Abort)
    }

    /// Rebuilds the positions held from the log (a topic loading again). Returns the
    /// positions held afterwards.
    pub fn replay(&mut self, cursor: &ManagedCursor) -> Vec<Position> {
        let log = std::mem::take(&mut self.log);
        *self = PendingAckHandle::default();
        for e in &log {
            match e.op {
                // A refused ack is refused again: same order, same durable cursor.
                PendingAckOp::Ack if e.cumulative => {
                    if let Some(&p) = e.positions.first() {
                        let _ = self.cumulative_acknowledge(e.txn, p, cursor);
                    }
                }
                PendingAckOp::Ack => {
                    let _ = self.individual_acknowledge(e.txn, &e.positions, cursor);
                }
                PendingAckOp::Commit | PendingAckOp::Abort if e.cumulative => {
                    if self.cumulative.is_some_and(|(t, _)| t == e.txn) {
                        self.cumulative = None;
                    }
                }
                PendingAckOp::Commit | PendingAckOp::Abort => {
                    self.release(e.txn, e.op);
                }
            }
        }
        self.log = log;
        self.individual_ack_positions.keys().copied().collect()
    }

    fn release(&mut self, txn: TxnID, op: PendingAckOp) -> Vec<Position> {
        let positions: Vec<Position> = self
            .individual_ack_positions
            .iter()
            .filter(|(_, t)| **t == txn)
            .map(|(p, _)| *p)
            .collect();
        for p in &positions {
            self.individual_ack_positions.remove(p);
        }
        self.ack_order.retain(|t| *t != txn);
        self.log_mark(txn, op, positions.clone(), false);
        positions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_transaction_conflicts_until_the_first_ends() {
        let mut cursor = ManagedCursor::new(1);
        let mut h = PendingAckHandle::default();
        let (t1, t2) = (TxnID::new(0, 1), TxnID::new(0, 2));
        let p = Position::new(1, 0);
        assert_eq!(h.individual_acknowledge(t1, &[p], &cursor), Ok(()));
        assert_eq!(
            h.individual_acknowledge(t2, &[p], &cursor),
            Err(AckConflict::InPendingAck {
                position: p,
                holder: t1
            })
        );
        assert_eq!(h.abort_txn(t1), vec![p]);
        assert_eq!(h.individual_acknowledge(t2, &[p], &cursor), Ok(()));
        assert_eq!(
            h.commit_txn(t2, &mut cursor, &ManagedLedger::new("t", 1)),
            vec![p]
        );
        assert_eq!(cursor.mark_delete_position(), p);
        assert_eq!(
            h.individual_acknowledge(t1, &[p], &cursor),
            Err(AckConflict::AlreadyAcked { position: p })
        );
        assert!(!h.holds_any(t1) && !h.holds_any(t2));
        // Every call was logged first, the refused ones too.
        let ops: Vec<PendingAckOp> = h.log().iter().map(|e| e.op).collect();
        use PendingAckOp::*;
        assert_eq!(ops, [Ack, Ack, Abort, Ack, Commit, Ack]);
        // Replayed, the log gives the same (empty) holdings and stays as it was.
        assert_eq!(h.replay(&cursor), vec![]);
        assert_eq!(h.log().len(), 6);
    }

    #[test]
    fn a_replay_holds_again_what_was_held() {
        let cursor = ManagedCursor::new(1);
        let mut h = PendingAckHandle::default();
        let (t1, t2) = (TxnID::new(0, 1), TxnID::new(0, 2));
        let (p0, p1) = (Position::new(1, 0), Position::new(1, 1));
        assert_eq!(h.individual_acknowledge(t1, &[p0], &cursor), Ok(()));
        assert!(h.individual_acknowledge(t2, &[p0], &cursor).is_err());
        assert_eq!(h.individual_acknowledge(t2, &[p1], &cursor), Ok(()));
        h.record_low_water_mark(0, 0);
        let before = h.individual_ack_positions().clone();
        assert_eq!(h.replay(&cursor), vec![p0, p1]);
        assert_eq!(h.individual_ack_positions(), &before);
        assert!(h.low_water_marks().is_empty(), "marks are memory only");
    }

    #[test]
    fn one_cumulative_ack_is_pending_at_a_time() {
        let mut cursor = ManagedCursor::new(1);
        let mut h = PendingAckHandle::default();
        let (t1, t2) = (TxnID::new(0, 1), TxnID::new(0, 2));
        let p = |e| Position::new(1, e);
        assert_eq!(h.cumulative_acknowledge(t1, p(1), &cursor), Ok(()));
        assert_eq!(
            h.cumulative_acknowledge(t2, p(3), &cursor),
            Err(AckConflict::InPendingAck {
                position: p(3),
                holder: t1
            }),
            "another transaction"
        );
        assert!(
            h.cumulative_acknowledge(t1, p(0), &cursor).is_err(),
            "behind its own"
        );
        assert_eq!(h.cumulative_acknowledge(t1, p(2), &cursor), Ok(()));
        let replayed = h.clone().replay(&cursor);
        assert!(replayed.is_empty());
        let mut again = h.clone();
        again.replay(&cursor);
        assert_eq!(again.cumulative(), Some((t1, p(2))), "replayed");
        assert_eq!(
            h.commit_txn(t1, &mut cursor, &ManagedLedger::new("t", 1)),
            vec![p(2)]
        );
        assert_eq!(cursor.mark_delete_position(), p(2));
        assert_eq!(
            h.cumulative_acknowledge(t2, p(2), &cursor),
            Err(AckConflict::AlreadyAcked { position: p(2) })
        );
        assert_eq!(h.cumulative_acknowledge(t2, p(4), &cursor), Ok(()));
        assert_eq!(h.abort_cumulative(t1), None);
        assert_eq!(h.abort_cumulative(t2), Some(p(4)));
        assert_eq!(h.cumulative(), None);
    }

    #[test]
    fn a_late_ack_of_an_ended_transaction_is_aborted_by_a_newer_end() {
        let cursor = ManagedCursor::new(1);
        let mut h = PendingAckHandle::default();
        let (t0, t1) = (TxnID::new(0, 0), TxnID::new(0, 1));
        let (p0, p1) = (Position::new(1, 0), Position::new(1, 1));
        // t0 ended (aborted) before its ack arrived: the ack still lands.
        assert_eq!(h.abort_txn(t0), vec![]);
        assert_eq!(h.individual_acknowledge(t0, &[p0], &cursor), Ok(()));
        assert_eq!(h.individual_acknowledge(t1, &[p1], &cursor), Ok(()));
        // t1's end carries the mark 0 (t0 is gone from the coordinator's map).
        assert_eq!(h.abort_txn(t1), vec![p1]);
        h.record_low_water_mark(0, 0);
        assert_eq!(h.first_below_low_water_mark(), Some((t0, 0)));
        assert_eq!(h.abort_txn(t0), vec![p0]);
        assert_eq!(
            h.holder(p0),
            None,
            "p0 can be delivered and acknowledged again"
        );
        h.record_low_water_mark(0, -1);
        assert_eq!(h.first_below_low_water_mark(), None);
        assert_eq!(
            h.low_water_marks().get(&0),
            Some(&0),
            "the higher mark stays"
        );
    }
}
