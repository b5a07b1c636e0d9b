//! Pending ack: acknowledgements made inside a transaction, held per subscription until
//! the transaction ends (`PendingAckHandleImpl`, logged by `MLPendingAckStore` into the
//! subscription's pending-ack managed ledger as `PendingAckMetadataEntry` records).
//!
//! Rules (PendingAckHandleImpl.internalIndividualAcknowledgeMessage, which appends to
//! the store first and then checks): a position the cursor already deleted, or one
//! pending in any transaction, gives `TransactionConflictException`. Commit deletes the
//! positions from the cursor; abort forgets them so they are redelivered.
//! Simplified: individual acks of whole entries only (no batch-index ack sets, no
//! cumulative acks).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ManagedCursor, Position, TxnID};

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
    log: Vec<PendingAckMetadataEntry>,
}

impl PendingAckHandle {
    pub fn individual_ack_positions(&self) -> &BTreeMap<Position, TxnID> {
        &self.individual_ack_positions
    }
    pub fn log(&self) -> &[PendingAckMetadataEntry] {
        &self.log
    }
    pub fn holder(&self, p: Position) -> Option<TxnID> {
        self.individual_ack_positions.get(&p).copied()
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
        });
        for &position in positions {
            if cursor.is_message_deleted(position) {
                return Err(AckConflict::AlreadyAcked { position });
            }
            if let Some(&holder) = self.individual_ack_positions.get(&position) {
                return Err(AckConflict::InPendingAck { position, holder });
            }
        }
        for &p in positions {
            self.individual_ack_positions.insert(p, txn);
        }
        Ok(())
    }

    /// `commitTxn`: the commit mark is logged, then the held positions are deleted
    /// from the cursor. Returns them.
    pub fn commit_txn(&mut self, txn: TxnID, cursor: &mut ManagedCursor) -> Vec<Position> {
        let positions = self.release(txn, PendingAckOp::Commit);
        for &p in &positions {
            cursor.delete(p);
        }
        positions
    }

    /// `abortTxn`: the abort mark is logged and the positions are let go; the caller
    /// redelivers them.
    pub fn abort_txn(&mut self, txn: TxnID) -> Vec<Position> {
        self.release(txn, PendingAckOp::Abort)
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
        self.log.push(PendingAckMetadataEntry {
            op,
            txn,
            positions: positions.clone(),
        });
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
        assert_eq!(h.commit_txn(t2, &mut cursor), vec![p]);
        assert_eq!(cursor.mark_delete_position(), p);
        assert_eq!(
            h.individual_acknowledge(t1, &[p], &cursor),
            Err(AckConflict::AlreadyAcked { position: p })
        );
        // Every call was logged first, the refused ones too.
        let ops: Vec<PendingAckOp> = h.log().iter().map(|e| e.op).collect();
        use PendingAckOp::*;
        assert_eq!(ops, [Ack, Ack, Abort, Ack, Commit, Ack]);
    }
}
