//! Producer state: what a partition remembers about each idempotent producer.
//!
//! Mirrors Kafka's `BatchMetadata`, `ProducerStateEntry`, the checks of
//! `ProducerAppendInfo` and the snapshot file of `ProducerStateManager`
//! (storage/internals/log). The checks run in Kafka's order: exact duplicate first,
//! then the epoch, then the sequence.

use crate::util::sorted_map::SortedMap;
use std::collections::VecDeque;

use serde::Serialize;

use super::transaction_index::AbortedTxn;
use super::verification_state::VerificationStateEntry;
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;
use crate::record::{crc32c, ControlRecordType, RecordBatch, NO_PRODUCER_EPOCH, NO_SEQUENCE};
use crate::util::bytes::{ByteReader, Short};

mod checks;

/// How many recent batches a producer entry keeps for duplicate detection
/// (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`). The producer's
/// `max.in.flight.requests.per.connection <= 5` is aligned with this number.
pub const NUM_BATCHES_TO_RETAIN: usize = 5;

/// The four numbers kept per batch (Kafka's `BatchMetadata`). The first sequence and
/// first offset are derived, not stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BatchMetadata {
    pub last_seq: i32,
    pub last_offset: i64,
    pub offset_delta: i32,
    pub timestamp: i64,
}

impl BatchMetadata {
    /// `DefaultRecordBatch.decrementSequence`: sequences wrap from `i32::MAX` to 0.
    pub fn first_seq(&self) -> i32 {
        decrement_sequence(self.last_seq, self.offset_delta)
    }

    pub fn first_offset(&self) -> i64 {
        self.last_offset - i64::from(self.offset_delta)
    }
}

/// Kafka's `DefaultRecordBatch.incrementSequence`.
pub fn increment_sequence(sequence: i32, increment: i32) -> i32 {
    if sequence > i32::MAX - increment {
        increment - (i32::MAX - sequence) - 1
    } else {
        sequence + increment
    }
}

/// Kafka's `DefaultRecordBatch.decrementSequence`.
pub fn decrement_sequence(sequence: i32, decrement: i32) -> i32 {
    if sequence < decrement {
        i32::MAX - (decrement - sequence) + 1
    } else {
        sequence - decrement
    }
}

/// Kafka's `inSequence`: the next batch must start right after the last one.
pub fn in_sequence(last_seq: i32, next_seq: i32) -> bool {
    i64::from(next_seq) == i64::from(last_seq) + 1 || (next_seq == 0 && last_seq == i32::MAX)
}

/// Everything a partition remembers about one producer id (Kafka's `ProducerStateEntry`).
/// Simplified: no producer-id expiration (`producer.id.expiration.ms`).
///
/// Private fields: the window holds at most [`NUM_BATCHES_TO_RETAIN`] batches of the
/// current epoch, and the epoch never goes back (a new producer id is a new entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerStateEntry {
    producer_id: i64,
    producer_epoch: i16,
    coordinator_epoch: i32,
    last_timestamp: i64,
    /// First offset of this producer's open transaction in the partition, if any.
    current_txn_first_offset: Option<i64>,
    /// The last batches, oldest first, at most [`NUM_BATCHES_TO_RETAIN`].
    batch_metadata: VecDeque<BatchMetadata>,
}

impl ProducerStateEntry {
    pub fn producer_id(&self) -> i64 {
        self.producer_id
    }

    /// The epoch of the producer's last batch or marker.
    pub fn producer_epoch(&self) -> i16 {
        self.producer_epoch
    }

    /// The coordinator epoch of the last marker (`coordinatorEpoch`), -1 before any.
    pub fn coordinator_epoch(&self) -> i32 {
        self.coordinator_epoch
    }

    pub fn last_timestamp(&self) -> i64 {
        self.last_timestamp
    }

    /// First offset of this producer's open transaction in the partition, if any
    /// (`currentTxnFirstOffset`).
    pub fn current_txn_first_offset(&self) -> Option<i64> {
        self.current_txn_first_offset
    }

    /// The dedup window: the last batches, oldest first, at most
    /// [`NUM_BATCHES_TO_RETAIN`] (`batchMetadata`).
    pub fn batch_metadata(&self) -> &VecDeque<BatchMetadata> {
        &self.batch_metadata
    }

    /// The window holds at most five batches.
    fn debug_check_window(&self) {
        debug_assert!(
            self.batch_metadata.len() <= NUM_BATCHES_TO_RETAIN,
            "producer {}: {} batches in a window of {NUM_BATCHES_TO_RETAIN}",
            self.producer_id,
            self.batch_metadata.len()
        );
    }

    pub(crate) fn empty(producer_id: i64) -> Self {
        ProducerStateEntry {
            producer_id,
            producer_epoch: NO_PRODUCER_EPOCH,
            coordinator_epoch: -1,
            last_timestamp: -1,
            current_txn_first_offset: None,
            batch_metadata: VecDeque::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.batch_metadata.is_empty()
    }

    pub fn first_seq(&self) -> i32 {
        self.batch_metadata
            .front()
            .map_or(NO_SEQUENCE, |b| b.first_seq())
    }

    pub fn last_seq(&self) -> i32 {
        self.batch_metadata
            .back()
            .map_or(NO_SEQUENCE, |b| b.last_seq)
    }

    pub fn last_data_offset(&self) -> i64 {
        self.batch_metadata.back().map_or(-1, |b| b.last_offset)
    }

    /// A new epoch forgets the old epoch's batches (`maybeUpdateProducerEpoch`).
    fn maybe_update_producer_epoch(&mut self, epoch: i16) {
        // Same producer id, so the epoch only moves forward: fencing refused older ones
        // (unless NOT KAFKA `break fencing` let one through, which leaves it as it is).
        if epoch > self.producer_epoch {
            self.batch_metadata.clear();
            self.producer_epoch = epoch;
        }
    }

    /// `addBatchMetadata`: when the queue is full the oldest batch is dropped, and
    /// a retry of that batch is no longer recognised as a duplicate.
    fn add_batch(&mut self, epoch: i16, meta: BatchMetadata) {
        self.maybe_update_producer_epoch(epoch);
        if self.batch_metadata.len() == NUM_BATCHES_TO_RETAIN {
            self.batch_metadata.pop_front();
        }
        self.last_timestamp = meta.timestamp;
        self.batch_metadata.push_back(meta);
        self.debug_check_window();
    }

    /// `findDuplicateBatch`: same epoch and exactly the same sequence range.
    pub fn find_duplicate_batch(&self, batch: &RecordBatch) -> Option<BatchMetadata> {
        if batch.producer_epoch != self.producer_epoch {
            return None;
        }
        let (first, last) = (batch.base_sequence, batch.last_sequence());
        self.batch_metadata
            .iter()
            .copied()
            .find(|b| b.first_seq() == first && b.last_seq == last)
    }
}

/// Where an out-of-order batch sits against the sequence the broker expected.
///
/// Kafka 4.0's `ProducerAppendInfo.checkSequence` answers OUT_OF_ORDER_SEQUENCE_NUMBER
/// both ways (only a batch still in the window is found by `findDuplicateBatch` and
/// answered as a duplicate), and the client's `TransactionManager.canRetry` only asks
/// whether the batch is the next one after the last acknowledged sequence. But they
/// mean different things to a learner. Ahead is a gap: sequences in between never
/// arrived. Behind is a stale retry: the batch is older than the
/// [`NUM_BATCHES_TO_RETAIN`] batches the partition remembers, so the broker cannot tell
/// whether it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SeqDirection {
    /// The batch starts after the expected sequence: a gap.
    Ahead,
    /// The batch starts before it: a retry of a batch the window no longer holds.
    Behind,
}

impl SeqDirection {
    /// Compares the batch's first sequence with the expected one. Simplified: a plain
    /// comparison, so a retry from just before the wrap at `i32::MAX` reads as ahead.
    pub fn of(expected_seq: i32, first_seq: i32) -> SeqDirection {
        if first_seq < expected_seq {
            SeqDirection::Behind
        } else {
            SeqDirection::Ahead
        }
    }
}

/// Why the broker refused a batch: Kafka's error plus the numbers a learner needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerCheckError {
    pub error: Errors,
    /// For OUT_OF_ORDER_SEQUENCE_NUMBER: the sequence the broker expected.
    pub expected_seq: Option<i32>,
    /// For OUT_OF_ORDER_SEQUENCE_NUMBER: a gap (ahead) or a stale retry (behind).
    pub seq_direction: Option<SeqDirection>,
    /// For INVALID_PRODUCER_EPOCH: the epoch the broker remembers.
    pub current_epoch: Option<i16>,
    /// Which check refused, with its numbers (Kafka's exception message, as data).
    pub detail: ErrorDetail,
}

/// What the producer-state check decided for a client batch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ProducerCheck {
    /// Not a duplicate and in order: append it.
    Append,
    /// Already in the window: answer with the original offsets, write nothing.
    Duplicate(BatchMetadata),
}

/// A transaction that a marker just ended in this partition (Kafka's `CompletedTxn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CompletedTxn {
    pub producer_id: i64,
    pub first_offset: i64,
    /// The offset of the marker.
    pub last_offset: i64,
    pub is_aborted: bool,
}

/// What the marker check decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MarkerCheck {
    Append,
    /// A retry of a marker already written: nothing to do.
    AlreadyComplete,
}

/// Per-partition producer state (Kafka's `ProducerStateManager`): the entries, the
/// offset they are valid up to, and snapshots.
///
/// Private fields: entries change only by [`update`](Self::update) with a batch in
/// the log, so the window and epoch rules of [`ProducerStateEntry`] hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProducerStateManager {
    producers: SortedMap<i64, ProducerStateEntry>,
    /// The next offset not yet reflected in `producers` (`mapEndOffset`).
    map_end_offset: i64,
    /// Transactions whose marker is written but may not be replicated yet
    /// (`unreplicatedTxns`): first offset → the marker's offset. They stay unstable
    /// until the HW passes the marker, so a read_committed consumer never reads a
    /// decision a new leader might not have.
    unreplicated: SortedMap<i64, i64>,
    /// Producers whose transactional batch is being verified here
    /// (`verificationStates`), by producer id.
    verification_states: SortedMap<i64, VerificationStateEntry>,
    /// The offset of the last snapshot taken or loaded (`lastSnapOffset`).
    last_snap_offset: i64,
}

impl ProducerStateManager {
    /// `takeSnapshot`'s rule (Kafka 4.0): a snapshot only when the entries reflect
    /// more of the log than the last one taken or loaded, so a second one at the same
    /// offset is skipped (`ProducerStateManagerTest.testSkipSnapshotIfOffsetUnchanged`).
    /// Returns the bytes of the `<map end offset>.snapshot` to write, if any.
    pub(crate) fn take_snapshot(&mut self) -> Option<Vec<u8>> {
        if self.map_end_offset <= self.last_snap_offset {
            return None;
        }
        self.last_snap_offset = self.map_end_offset;
        Some(self.snapshot_bytes())
    }

    /// No snapshot was found at start: Kafka counts the log start as the last one
    /// (`loadFromSnapshot`).
    pub(crate) fn set_last_snap_offset(&mut self, offset: i64) {
        self.last_snap_offset = offset;
    }

    /// Every producer this partition remembers, by producer id (`activeProducers`).
    pub fn active_producers(&self) -> &SortedMap<i64, ProducerStateEntry> {
        &self.producers
    }

    /// The next offset not yet reflected in the entries (`mapEndOffset`).
    pub fn map_end_offset(&self) -> i64 {
        self.map_end_offset
    }

    /// `updateMapEndOffset`: the entries now reflect the log up to `offset`.
    pub(crate) fn update_map_end_offset(&mut self, offset: i64) {
        self.map_end_offset = offset;
    }

    /// How many of the producer's remembered batches came after `meta` (0: it is the
    /// newest), for the NOT KAFKA `break dedup=N` window.
    pub fn batches_after(&self, producer_id: i64, meta: &BatchMetadata) -> usize {
        self.producers.get(&producer_id).map_or(0, |e| {
            e.batch_metadata()
                .iter()
                .filter(|b| b.last_offset > meta.last_offset)
                .count()
        })
    }

    pub fn last_entry(&self, producer_id: i64) -> Option<&ProducerStateEntry> {
        self.producers.get(&producer_id)
    }

    /// `isProducerExpired` (Kafka 4.0): no open transaction here and idle (by the
    /// timestamp of its last batch) for at least `producer.id.expiration.ms`.
    fn is_producer_expired(entry: &ProducerStateEntry, now_ms: i64, expiration_ms: i64) -> bool {
        entry.current_txn_first_offset.is_none()
            && now_ms.saturating_sub(entry.last_timestamp) >= expiration_ms
    }

    /// `removeExpiredProducers`: forgets the expired producers. The next batch of such
    /// a producer is a first one again — any sequence is taken — so a retry that
    /// arrives after the expiry is written a second time. Returns the ids removed.
    pub(crate) fn remove_expired_producers(&mut self, now_ms: i64, expiration_ms: i64) -> Vec<i64> {
        let expired: Vec<i64> = self
            .producers
            .values()
            .filter(|e| Self::is_producer_expired(e, now_ms, expiration_ms))
            .map(|e| e.producer_id)
            .collect();
        for id in &expired {
            self.producers.remove(id);
        }
        // Verifications that never led to a write linger no longer than a producer.
        self.verification_states
            .retain(|_, v| now_ms.saturating_sub(v.timestamp_ms()) < expiration_ms);
        expired
    }

    /// When the first producer here becomes expired, if any can (one with an open
    /// transaction never does).
    pub fn next_expiry_ms(&self, expiration_ms: i64) -> Option<i64> {
        self.producers
            .values()
            .filter(|e| e.current_txn_first_offset.is_none())
            .map(|e| e.last_timestamp.saturating_add(expiration_ms))
            .min()
    }

    /// Records a batch that is now in the log (from a client, from the coordinator, or
    /// read back while rebuilding state). A transactional data batch opens the
    /// producer's transaction in this partition; a COMMIT/ABORT marker closes it and
    /// is returned as the completed transaction (Kafka's `CompletedTxn`).
    pub(crate) fn update(&mut self, batch: &RecordBatch) -> Option<CompletedTxn> {
        // A marker whose control record does not parse: Kafka's `ProducerAppendInfo.
        // append` throws `InvalidRecordException` before anything is recorded.
        if batch.control_record_error().is_some() {
            return None;
        }
        let mut completed = None;
        // A transactional batch or marker written: the transaction has a first offset
        // here, or is over; the verification memory goes (`updateProducers`).
        if batch.is_transactional() {
            self.verification_states.remove(&batch.producer_id);
        }
        if batch.has_producer_id() {
            let entry = self
                .producers
                .entry(batch.producer_id)
                .or_insert_with(|| ProducerStateEntry::empty(batch.producer_id));
            if batch.is_control() {
                // `ProducerAppendInfo.append`: a control batch the cleaner emptied
                // changes nothing, not even the epoch (`ProducerStateManagerTest.
                // testAppendEmptyControlBatch`, Kafka 4.0).
                if let Some((kind, marker)) = batch.control_record() {
                    // `appendEndTxnMarker` → `ProducerStateEntry.update(epoch,
                    // coordinatorEpoch, timestamp)`: the marker's time is the
                    // producer's last activity here (describe-producers, expiry).
                    entry.maybe_update_producer_epoch(batch.producer_epoch);
                    entry.last_timestamp = batch.max_timestamp;
                    entry.coordinator_epoch = marker.coordinator_epoch;
                    if let Some(first_offset) = entry.current_txn_first_offset.take() {
                        // `completeTxn`: decided, but unstable until replicated.
                        self.unreplicated.insert(first_offset, batch.base_offset);
                        completed = Some(CompletedTxn {
                            producer_id: batch.producer_id,
                            first_offset,
                            last_offset: batch.base_offset,
                            is_aborted: kind == ControlRecordType::Abort,
                        });
                    }
                }
            } else {
                entry.add_batch(
                    batch.producer_epoch,
                    BatchMetadata {
                        last_seq: batch.last_sequence(),
                        last_offset: batch.last_offset(),
                        offset_delta: batch.last_offset_delta,
                        timestamp: batch.max_timestamp,
                    },
                );
                if batch.is_transactional() && entry.current_txn_first_offset.is_none() {
                    entry.current_txn_first_offset = Some(batch.base_offset);
                }
            }
        }
        self.map_end_offset = self.map_end_offset.max(batch.next_offset());
        completed
    }

    /// The first offset of the oldest open transaction in this partition
    /// (`firstUndecidedOffset`), if any.
    pub fn first_undecided_offset(&self) -> Option<i64> {
        self.producers
            .values()
            .filter_map(|e| e.current_txn_first_offset)
            .min()
    }

    /// `firstUnstableOffset`: the first offset of the oldest transaction that is open,
    /// or decided with its marker at or above `high_watermark` (not yet on every
    /// in-sync replica). Kafka forgets a decided transaction when the HW passes its
    /// marker (`onHighWatermarkUpdated`); one recovered from the log above a
    /// restarted replica's HW stays unstable until then, as here.
    pub fn first_unstable_offset(&self, high_watermark: i64) -> Option<i64> {
        let unreplicated = self
            .unreplicated
            .iter()
            .find(|(_, marker)| **marker >= high_watermark)
            .map(|(first, _)| *first);
        match (self.first_undecided_offset(), unreplicated) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The `.txnindex` entry of an aborted transaction that `update` just completed
    /// (`LogSegment.updateTxnIndex`): its last stable offset is the first offset of
    /// the oldest other transaction still open, or the offset after its marker
    /// (`ProducerStateManager.lastStableOffset(CompletedTxn)`).
    pub(crate) fn aborted_txn_entry(&self, txn: &CompletedTxn) -> AbortedTxn {
        AbortedTxn {
            producer_id: txn.producer_id,
            first_offset: txn.first_offset,
            last_offset: txn.last_offset,
            last_stable_offset: self.first_undecided_offset().unwrap_or(txn.last_offset + 1),
        }
    }

    /// `onHighWatermarkUpdated`: transactions whose marker is below the HW are stable.
    pub(crate) fn on_high_watermark_updated(&mut self, high_watermark: i64) {
        self.unreplicated
            .retain(|_, marker| *marker >= high_watermark);
    }

    /// `maybeCreateVerificationStateEntry`: a verification starts for `producer_id`'s
    /// batch at `sequence`; an entry already there keeps the lowest sequence.
    pub(crate) fn maybe_create_verification_state_entry(
        &mut self,
        producer_id: i64,
        sequence: i32,
        epoch: i16,
        now_ms: i64,
    ) {
        match self.verification_states.get_mut(&producer_id) {
            Some(entry) => entry.maybe_update_lowest_sequence_and_epoch(sequence, epoch),
            None => {
                self.verification_states.insert(
                    producer_id,
                    VerificationStateEntry::new(now_ms, sequence, epoch),
                );
            }
        }
    }

    /// The verification in progress for `producer_id`, if any.
    pub fn verification_state_entry(&self, producer_id: i64) -> Option<&VerificationStateEntry> {
        self.verification_states.get(&producer_id)
    }

    /// The open transactions: (producer id, first offset), oldest first.
    pub fn ongoing_transactions(&self) -> Vec<(i64, i64)> {
        let mut txns: Vec<(i64, i64)> = self
            .producers
            .values()
            .filter_map(|e| e.current_txn_first_offset.map(|o| (e.producer_id, o)))
            .collect();
        crate::util::ordered::sort_by(&mut txns, |a, b| a.1.cmp(&b.1));
        txns
    }

    /// The snapshot file Kafka writes on roll and on clean shutdown
    /// (`<offset>.snapshot`, `ProducerSnapshot` v1): version i16, CRC32C u32 over the
    /// entries, then an i32 count of 46-byte entries. Like Kafka, only each producer's
    /// **last** batch is kept, so a restored entry has a window of one batch.
    pub fn snapshot_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(4 + self.producers.len() * 46);
        let count = i32::try_from(self.producers.len()).unwrap_or(i32::MAX);
        body.extend_from_slice(&count.to_be_bytes());
        for entry in self.producers.values() {
            let last = entry.batch_metadata.back();
            body.extend_from_slice(&entry.producer_id.to_be_bytes());
            body.extend_from_slice(&entry.producer_epoch.to_be_bytes());
            body.extend_from_slice(&last.map_or(NO_SEQUENCE, |b| b.last_seq).to_be_bytes());
            body.extend_from_slice(&last.map_or(-1i64, |b| b.last_offset).to_be_bytes());
            body.extend_from_slice(&last.map_or(0i32, |b| b.offset_delta).to_be_bytes());
            body.extend_from_slice(&entry.last_timestamp.to_be_bytes());
            body.extend_from_slice(&entry.coordinator_epoch.to_be_bytes());
            body.extend_from_slice(&entry.current_txn_first_offset.unwrap_or(-1).to_be_bytes());
        }
        let mut out = Vec::with_capacity(6 + body.len());
        out.extend_from_slice(&1i16.to_be_bytes());
        out.extend_from_slice(&crc32c::crc32c(&body).to_be_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads a snapshot written by [`snapshot_bytes`](Self::snapshot_bytes).
    pub fn from_snapshot(bytes: &[u8], snapshot_offset: i64) -> Result<Self, CorruptSnapshot> {
        let mut r = ByteReader::new(bytes);
        let version = r.i16()?;
        if version != 1 {
            return Err(CorruptSnapshot::UnknownVersion(version));
        }
        let stored = r.u32()?;
        let body = bytes.get(6..).unwrap_or_default();
        let computed = crc32c::crc32c(body);
        if stored != computed {
            return Err(CorruptSnapshot::CrcMismatch { stored, computed });
        }
        let count = r.i32()?;
        if count < 0 || (count as usize).saturating_mul(46) > body.len() {
            return Err(CorruptSnapshot::EntryCount(count));
        }
        let mut manager = ProducerStateManager {
            producers: SortedMap::new(),
            map_end_offset: snapshot_offset,
            unreplicated: SortedMap::new(),
            verification_states: SortedMap::new(),
            last_snap_offset: snapshot_offset,
        };
        for _ in 0..count {
            let producer_id = r.i64()?;
            let producer_epoch = r.i16()?;
            let last_seq = r.i32()?;
            let last_offset = r.i64()?;
            let offset_delta = r.i32()?;
            let timestamp = r.i64()?;
            let coordinator_epoch = r.i32()?;
            let txn_first = r.i64()?;
            let mut entry = ProducerStateEntry::empty(producer_id);
            entry.producer_epoch = producer_epoch;
            entry.coordinator_epoch = coordinator_epoch;
            entry.last_timestamp = timestamp;
            entry.current_txn_first_offset = (txn_first >= 0).then_some(txn_first);
            if last_offset >= 0 {
                entry.batch_metadata.push_back(BatchMetadata {
                    last_seq,
                    last_offset,
                    offset_delta,
                    timestamp,
                });
            }
            manager.producers.insert(producer_id, entry);
        }
        Ok(manager)
    }
}

/// Why a `.snapshot` file cannot be read (Kafka's `CorruptSnapshotException`):
/// recovery then rebuilds the producer state from the log instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorruptSnapshot {
    /// The file ends inside a field.
    Truncated(Short),
    UnknownVersion(i16),
    CrcMismatch {
        stored: u32,
        computed: u32,
    },
    /// More entries than the file has bytes for (or fewer than none).
    EntryCount(i32),
}

/// The detail `eos inspect` prints: Kafka's identifiers and numbers.
impl std::fmt::Display for CorruptSnapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CorruptSnapshot::Truncated(s) => write!(f, "truncated: {s}"),
            CorruptSnapshot::UnknownVersion(v) => {
                write!(f, "unknown producer snapshot version {v}")
            }
            CorruptSnapshot::CrcMismatch { stored, computed } => write!(
                f,
                "snapshot CRC mismatch: stored {stored:#010x}, computed {computed:#010x}"
            ),
            CorruptSnapshot::EntryCount(count) => {
                write!(f, "snapshot entry count {count} does not fit the file")
            }
        }
    }
}

impl From<Short> for CorruptSnapshot {
    fn from(s: Short) -> Self {
        CorruptSnapshot::Truncated(s)
    }
}

#[cfg(test)]
mod tests;
