//! Managed ledgers: a topic partition's entries at `ledgerId:entryId` positions, and
//! the cursor a subscription keeps on them (BookKeeper `ManagedLedgerImpl`,
//! `ManagedCursorImpl`, `PositionImpl`).
//!
//! A batch entry holds several messages; a message of it is named by its batch index
//! (`BatchMessageIdImpl`, printed `ledgerId:entryId:batchIndex`), and the cursor keeps
//! the acknowledged indexes of a batch until all are (`batchDeletedIndexes`, with
//! `acknowledgmentAtBatchIndexLevelEnabled`).
//!
//! Simplified: one ledger per managed ledger (no rollover), entries kept in memory.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::TxnID;

/// Where an entry lives: `ledgerId:entryId`, ordered ledger first; with a batch index,
/// one message of a batch entry (`ledgerId:entryId:batchIndex`), ordered after its
/// entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Position {
    pub ledger_id: i64,
    pub entry_id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_index: Option<u32>,
}

impl Position {
    pub fn new(ledger_id: i64, entry_id: i64) -> Position {
        Position {
            ledger_id,
            entry_id,
            batch_index: None,
        }
    }
    /// One message of a batch entry.
    pub fn batch(ledger_id: i64, entry_id: i64, index: u32) -> Position {
        Position {
            ledger_id,
            entry_id,
            batch_index: Some(index),
        }
    }
    /// The entry this position is in (itself, without a batch index).
    pub fn entry(&self) -> Position {
        Position::new(self.ledger_id, self.entry_id)
    }
    /// The entry after this one in the same ledger.
    pub fn next(&self) -> Position {
        Position::new(self.ledger_id, self.entry_id.saturating_add(1))
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.ledger_id, self.entry_id)?;
        match self.batch_index {
            Some(i) => write!(f, ":{i}"),
            None => Ok(()),
        }
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
        /// A batch entry's messages (`num_messages_in_batch`); empty for one message.
        #[serde(default)]
        batch: Vec<String>,
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
    /// How many messages the entry at `p` holds (1 unless a batch); None if no entry.
    pub fn batch_size(&self, p: Position) -> Option<u32> {
        match &self.entry(p)?.data {
            EntryData::Message { batch, .. } if !batch.is_empty() => {
                Some(u32::try_from(batch.len()).unwrap_or(u32::MAX))
            }
            _ => Some(1),
        }
    }
    /// Whether `p` names a message here: an entry, or a batch index within a batch.
    pub fn is_message(&self, p: Position) -> bool {
        let Some(entry) = self.entry(p) else {
            return false;
        };
        match (&entry.data, p.batch_index) {
            (EntryData::Message { .. }, None) => true,
            (EntryData::Message { batch, .. }, Some(i)) => (i as usize) < batch.len(),
            _ => false,
        }
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
    /// `batchDeletedIndexes`: per batch entry not yet wholly acknowledged, the
    /// acknowledged indexes.
    #[serde(default)]
    batch_deleted: BTreeMap<Position, BTreeSet<u32>>,
}

impl ManagedCursor {
    /// A cursor at the start of the ledger (`InitialPosition.Earliest`).
    pub fn new(ledger_id: i64) -> ManagedCursor {
        ManagedCursor {
            mark_delete_position: Position::new(ledger_id, -1),
            individually_deleted: BTreeSet::new(),
            batch_deleted: BTreeMap::new(),
        }
    }
    /// The acknowledged indexes of batch entries not wholly acknowledged yet.
    pub fn batch_deleted(&self) -> &BTreeMap<Position, BTreeSet<u32>> {
        &self.batch_deleted
    }
    pub fn mark_delete_position(&self) -> Position {
        self.mark_delete_position
    }
    pub fn individually_deleted(&self) -> &BTreeSet<Position> {
        &self.individually_deleted
    }
    /// `isMessageDeleted`; for a batch index, also whether that index is acknowledged.
    pub fn is_message_deleted(&self, p: Position) -> bool {
        let e = p.entry();
        e <= self.mark_delete_position
            || self.individually_deleted.contains(&e)
            || p.batch_index
                .is_some_and(|i| self.batch_deleted.get(&e).is_some_and(|d| d.contains(&i)))
    }
    /// An individual ack of a message: a whole entry, or one index of a batch of
    /// `batch_size` (the entry is deleted once every index is). Returns whether
    /// anything changed.
    pub fn delete_message(&mut self, p: Position, batch_size: u32) -> bool {
        let Some(i) = p.batch_index else {
            return self.delete(p);
        };
        if self.is_message_deleted(p) {
            return false;
        }
        let e = p.entry();
        let done = self.batch_deleted.entry(e).or_default();
        done.insert(i);
        if done.len() as u64 >= u64::from(batch_size) {
            self.batch_deleted.remove(&e);
            self.delete(e);
        }
        true
    }
    /// `asyncMarkDelete`: a cumulative ack of everything up to `p`. Returns whether
    /// the mark-delete position moved.
    pub fn mark_delete(&mut self, p: Position) -> bool {
        if p <= self.mark_delete_position {
            return false;
        }
        self.mark_delete_position = p;
        self.individually_deleted.retain(|d| *d > p);
        self.batch_deleted.retain(|d, _| *d > p);
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
        self.batch_deleted.remove(&p);
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
