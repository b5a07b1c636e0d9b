//! Managed ledgers: a topic partition's entries at `ledgerId:entryId` positions, and
//! the cursor a subscription keeps on them (BookKeeper `ManagedLedgerImpl`,
//! `ManagedCursorImpl`, `PositionImpl`).
//!
//! Simplified: one ledger per managed ledger (no rollover), entries kept in memory.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::TxnID;

/// Where an entry lives: `ledgerId:entryId`, ordered ledger first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Position {
    pub ledger_id: i64,
    pub entry_id: i64,
}

impl Position {
    pub fn new(ledger_id: i64, entry_id: i64) -> Position {
        Position {
            ledger_id,
            entry_id,
        }
    }
    /// The position after this one in the same ledger.
    pub fn next(&self) -> Position {
        Position::new(self.ledger_id, self.entry_id.saturating_add(1))
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.ledger_id, self.entry_id)
    }
}

/// What an entry holds: a message (maybe in a transaction) or a transaction marker
/// (`Markers.newTxnCommitMarker` / `newTxnAbortMarker`), which is never dispatched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntryData {
    Message {
        value: String,
        producer_name: String,
        sequence_id: i64,
        txn: Option<TxnID>,
        /// `deliverAt` (logical ms): the dispatcher holds it until then.
        #[serde(default)]
        deliver_at: Option<i64>,
    },
    TxnMarker {
        txn: TxnID,
        commit: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub position: Position,
    pub data: EntryData,
}

impl Entry {
    /// The transaction of a message or marker.
    pub fn txn(&self) -> Option<TxnID> {
        match &self.data {
            EntryData::Message { txn, .. } => *txn,
            EntryData::TxnMarker { txn, .. } => Some(*txn),
        }
    }
    pub fn is_marker(&self) -> bool {
        matches!(self.data, EntryData::TxnMarker { .. })
    }
}

/// A managed ledger: entries appended at increasing entry ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManagedLedger {
    name: String,
    ledger_id: i64,
    entries: Vec<Entry>,
}

impl ManagedLedger {
    pub fn new(name: &str, ledger_id: i64) -> ManagedLedger {
        ManagedLedger {
            name: name.to_string(),
            ledger_id,
            entries: Vec::new(),
        }
    }
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn ledger_id(&self) -> i64 {
        self.ledger_id
    }
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
    /// `asyncAddEntry`: the entry's new position.
    pub fn add_entry(&mut self, data: EntryData) -> Position {
        let position = Position::new(self.ledger_id, self.entries.len() as i64);
        self.entries.push(Entry { position, data });
        position
    }
    /// The last confirmed entry (`getLastConfirmedEntry`); `ledgerId:-1` when empty.
    pub fn last_confirmed_entry(&self) -> Position {
        Position::new(self.ledger_id, self.entries.len() as i64 - 1)
    }
    /// `getPreviousPosition`: the entry before `p` (`ledgerId:-1` before the first).
    pub fn previous_position(&self, p: Position) -> Position {
        Position::new(p.ledger_id, p.entry_id - 1)
    }
    pub fn entry(&self, p: Position) -> Option<&Entry> {
        if p.ledger_id != self.ledger_id || p.entry_id < 0 {
            return None;
        }
        self.entries.get(usize::try_from(p.entry_id).ok()?)
    }
}

/// A subscription's cursor: everything up to the mark-delete position is acknowledged,
/// plus the individually deleted positions after it (`individualDeletedMessages`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManagedCursor {
    mark_delete_position: Position,
    individually_deleted: BTreeSet<Position>,
}

impl ManagedCursor {
    /// A cursor at the start of the ledger (`InitialPosition.Earliest`).
    pub fn new(ledger_id: i64) -> ManagedCursor {
        ManagedCursor {
            mark_delete_position: Position::new(ledger_id, -1),
            individually_deleted: BTreeSet::new(),
        }
    }
    pub fn mark_delete_position(&self) -> Position {
        self.mark_delete_position
    }
    pub fn individually_deleted(&self) -> &BTreeSet<Position> {
        &self.individually_deleted
    }
    /// `isMessageDeleted`.
    pub fn is_message_deleted(&self, p: Position) -> bool {
        p <= self.mark_delete_position || self.individually_deleted.contains(&p)
    }
    /// `asyncMarkDelete`: a cumulative ack of everything up to `p`. Returns whether
    /// the mark-delete position moved.
    pub fn mark_delete(&mut self, p: Position) -> bool {
        if p <= self.mark_delete_position {
            return false;
        }
        self.mark_delete_position = p;
        self.individually_deleted.retain(|d| *d > p);
        while self
            .individually_deleted
            .remove(&self.mark_delete_position.next())
        {
            self.mark_delete_position = self.mark_delete_position.next();
        }
        true
    }
    /// `asyncDelete`: acknowledges one position; the mark-delete position then moves
    /// over every contiguous deleted position. Returns whether anything changed.
    pub fn delete(&mut self, p: Position) -> bool {
        if self.is_message_deleted(p) {
            return false;
        }
        self.individually_deleted.insert(p);
        while self
            .individually_deleted
            .remove(&self.mark_delete_position.next())
        {
            self.mark_delete_position = self.mark_delete_position.next();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mark_delete_position_moves_over_contiguous_acks_only() {
        let mut c = ManagedCursor::new(3);
        assert_eq!(c.mark_delete_position().to_string(), "3:-1");
        assert!(c.delete(Position::new(3, 1)));
        assert_eq!(c.mark_delete_position().to_string(), "3:-1");
        assert!(c.delete(Position::new(3, 0)));
        assert_eq!(c.mark_delete_position().to_string(), "3:1");
        assert!(c.individually_deleted().is_empty());
        assert!(
            !c.delete(Position::new(3, 1)),
            "an acked position stays acked"
        );
        assert!(c.delete(Position::new(3, 3)));
        assert!(c.is_message_deleted(Position::new(3, 3)));
        assert!(!c.is_message_deleted(Position::new(3, 2)));
    }

    #[test]
    fn entries_get_increasing_positions() {
        let mut l = ManagedLedger::new("t-partition-0", 5);
        assert_eq!(l.last_confirmed_entry().to_string(), "5:-1");
        let p = l.add_entry(EntryData::TxnMarker {
            txn: TxnID::new(0, 1),
            commit: true,
        });
        assert_eq!(p.to_string(), "5:0");
        assert_eq!(l.previous_position(p).to_string(), "5:-1");
        assert!(l.entry(p).is_some_and(Entry::is_marker));
        assert!(l.entry(Position::new(4, 0)).is_none());
    }
}
