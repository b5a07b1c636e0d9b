//! The fetched data of one partition, walked batch by batch (Kafka's `CompletedFetch`):
//! aborted transactions skipped, control records hidden, the position moved past both.

use crate::util::sorted_set::SortedSet;

use serde::{Deserialize, Serialize};

use super::{ConsumerEvent, ConsumerRecord, CorruptBatch, IsolationLevel};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::record::batch::read_batch_length;
use crate::record::{
    ControlRecordType, RecordBatch, RecordError, LOG_OVERHEAD, RECORD_BATCH_OVERHEAD,
};

/// One entry of a Fetch response's `AbortedTransactions` (`FetchResponseData.AbortedTransaction`):
/// a transaction of `producer_id` that began at `first_offset` and was aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AbortedTransaction {
    pub producer_id: i64,
    pub first_offset: i64,
}

/// One partition of a Fetch response (`FetchResponseData.PartitionData`), independent of
/// how the broker is built. Simplified: no preferred read replica, no diverging epoch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchPartitionData {
    pub error: Errors,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    pub log_start_offset: i64,
    /// Only for `read_committed`; None (not empty) when there is nothing to list.
    pub aborted_transactions: Option<Vec<AbortedTransaction>>,
    /// Raw v2 batches, as the broker read them from the segment (the last one may be cut
    /// short by the fetch size).
    pub records: Vec<u8>,
}

impl FetchPartitionData {
    /// A successful answer carrying `records`, with no aborted transactions listed.
    pub fn new(high_watermark: i64, last_stable_offset: i64, records: Vec<u8>) -> Self {
        FetchPartitionData {
            error: Errors::None,
            high_watermark,
            last_stable_offset,
            log_start_offset: 0,
            aborted_transactions: None,
            records,
        }
    }
}

/// What to do with the next batch, found without decoding it.
enum NextBatch {
    Batch(Box<RecordBatch>),
    /// The bytes end inside a batch (Kafka's `ByteBufferLogInputStream` returns null).
    Partial,
    Corrupt(CorruptBatch),
    End,
}

/// The fetched data of one partition being walked record by record. Mirrors Kafka's
/// `CompletedFetch` (`nextFetchedRecord`, `fetchRecords`, the aborted-transaction
/// queue and the aborted-producer set). Simplified: batches are decoded one at a time
/// from the raw bytes with our v2 codec (CRC always checked), and the events narrate
/// each decision.
#[derive(Clone, Debug)]
pub struct CompletedFetch {
    pub tp: TopicPartition,
    pub isolation_level: IsolationLevel,
    records: Vec<u8>,
    /// Byte position of the next batch in `records`.
    byte_position: usize,
    /// Aborted transactions not yet reached, sorted by first offset (Kafka's priority queue).
    aborted_transactions: Vec<AbortedTransaction>,
    aborted_producer_ids: SortedSet<i64>,
    current_batch: Option<RecordBatch>,
    /// Index of the next record of `current_batch` to look at; None when the batch's
    /// records are not to be iterated (skipped or finished).
    next_record: Option<usize>,
    next_fetch_offset: i64,
    /// The leader epoch of the last batch read, skipped ones included (Kafka's
    /// `lastEpoch`, set as each batch is taken): the epoch the next position is
    /// validated by (KIP-320).
    last_epoch: Option<i32>,
    consumed: bool,
    events: Vec<ConsumerEvent>,
}

impl CompletedFetch {
    /// Prepares a fetch answer read from `fetch_offset`.
    pub fn new(
        tp: TopicPartition,
        isolation_level: IsolationLevel,
        fetch_offset: i64,
        data: FetchPartitionData,
    ) -> Self {
        let mut aborted = data.aborted_transactions.unwrap_or_default();
        crate::util::ordered::sort_by(&mut aborted, |a, b| {
            (a.first_offset, a.producer_id).cmp(&(b.first_offset, b.producer_id))
        });
        CompletedFetch {
            tp,
            isolation_level,
            records: data.records,
            byte_position: 0,
            aborted_transactions: aborted,
            aborted_producer_ids: SortedSet::new(),
            current_batch: None,
            next_record: None,
            next_fetch_offset: fetch_offset,
            last_epoch: None,
            consumed: false,
            events: Vec::new(),
        }
    }

    /// Where the next fetch starts once this one is read (Kafka's `nextFetchOffset`).
    pub fn next_fetch_offset(&self) -> i64 {
        self.next_fetch_offset
    }

    /// The leader epoch of the last batch read, if any (a negative one, from a batch no
    /// leader stamped, is none). An aborted batch or a marker that was skipped counts:
    /// `FetchCollectorTest.testReadCommittedWithAbortedTransaction` (Kafka 4.0) expects
    /// the marker's epoch with a position moved past aborted data only.
    pub fn last_epoch(&self) -> Option<i32> {
        self.last_epoch
    }

    /// True once every batch has been walked (or a corrupt one stopped the walk).
    pub fn is_consumed(&self) -> bool {
        self.consumed
    }

    /// The producers whose transactional batches are being skipped right now.
    pub fn aborted_producer_ids(&self) -> &SortedSet<i64> {
        &self.aborted_producer_ids
    }

    /// The events so far, leaving none behind.
    pub fn take_events(&mut self) -> Vec<ConsumerEvent> {
        std::mem::take(&mut self.events)
    }

    /// Up to `max_records` records for the application (`CompletedFetch.fetchRecords`).
    pub fn fetch_records(&mut self, max_records: usize) -> Vec<ConsumerRecord> {
        let mut out = Vec::new();
        while out.len() < max_records {
            let Some(record) = self.next_fetched_record() else {
                break;
            };
            self.next_fetch_offset = record.offset.saturating_add(1);
            out.push(record);
        }
        if let (Some(first), Some(last)) = (out.first(), out.last()) {
            self.events.push(ConsumerEvent::RecordsDelivered {
                tp: self.tp.clone(),
                count: out.len(),
                first: first.offset,
                last: last.offset,
            });
        }
        out
    }

    /// Kafka's `nextFetchedRecord`: the next record the application may see, or None
    /// when the fetch is used up.
    fn next_fetched_record(&mut self) -> Option<ConsumerRecord> {
        if self.consumed {
            return None;
        }
        loop {
            if let (Some(batch), Some(index)) = (&self.current_batch, self.next_record) {
                let Some(record) = batch.records.get(index) else {
                    self.next_record = None;
                    continue;
                };
                self.next_record = Some(index.saturating_add(1));
                let offset = batch.record_offset(record);
                // Records before the position are skipped (the fetch began mid-batch).
                if offset < self.next_fetch_offset {
                    continue;
                }
                if !batch.is_control() {
                    return Some(ConsumerRecord {
                        topic_partition: self.tp.clone(),
                        offset,
                        key: record.key.as_deref().map(<[u8]>::to_vec),
                        value: record.value.as_deref().map(<[u8]>::to_vec),
                        timestamp: batch.record_timestamp(record),
                    });
                }
                // Control records never reach the application; the position moves past.
                let kind = record
                    .key
                    .as_deref()
                    .and_then(|k| ControlRecordType::decode_key(k).ok());
                self.events.push(ConsumerEvent::ControlBatchSkipped {
                    tp: self.tp.clone(),
                    kind,
                    offset,
                });
                self.next_fetch_offset = offset.saturating_add(1);
                continue;
            }

            let batch = match self.next_batch() {
                NextBatch::Batch(b) => *b,
                NextBatch::End | NextBatch::Partial => {
                    // Message format v2 keeps a batch's last offset even when compaction
                    // removed its last record, so the next fetch starts after the batch.
                    if let Some(b) = &self.current_batch {
                        self.next_fetch_offset = b.next_offset();
                    }
                    self.consumed = true;
                    return None;
                }
                NextBatch::Corrupt(error) => {
                    self.events.push(ConsumerEvent::CorruptBatch {
                        tp: self.tp.clone(),
                        offset: self.next_fetch_offset,
                        error,
                    });
                    self.current_batch = None;
                    self.consumed = true;
                    return None;
                }
            };

            // `nextFetchedRecord`: `lastEpoch` follows every batch taken, before the
            // aborted-transaction check.
            self.last_epoch =
                (batch.partition_leader_epoch >= 0).then_some(batch.partition_leader_epoch);
            let before = batch
                .records
                .iter()
                .filter(|r| batch.record_offset(r) < self.next_fetch_offset)
                .count();
            let aborted = if self.isolation_level == IsolationLevel::ReadCommitted
                && batch.has_producer_id()
            {
                match self.apply_aborted_transactions(&batch) {
                    Ok(aborted) => aborted,
                    Err(error) => {
                        // The position stays before the batch: every poll fails again.
                        self.events.push(ConsumerEvent::CorruptBatch {
                            tp: self.tp.clone(),
                            offset: self.next_fetch_offset,
                            error: CorruptBatch::Invalid(error),
                        });
                        self.current_batch = None;
                        self.consumed = true;
                        return None;
                    }
                }
            } else {
                false
            };
            if aborted {
                self.events.push(ConsumerEvent::BatchSkippedAborted {
                    tp: self.tp.clone(),
                    producer_id: batch.producer_id,
                    base_offset: batch.base_offset,
                    last_offset: batch.last_offset(),
                });
                self.next_fetch_offset = batch.next_offset();
                self.current_batch = Some(batch);
                self.next_record = None;
                continue;
            }
            if before > 0 && !batch.is_control() {
                self.events
                    .push(ConsumerEvent::RecordsBeforePositionSkipped {
                        tp: self.tp.clone(),
                        base_offset: batch.base_offset,
                        count: before,
                        position: self.next_fetch_offset,
                    });
            }
            self.current_batch = Some(batch);
            self.next_record = Some(0);
        }
    }

    /// The read_committed bookkeeping for a batch with a producer id; true when the
    /// batch belongs to an aborted transaction and must be skipped.
    fn apply_aborted_transactions(&mut self, batch: &RecordBatch) -> Result<bool, RecordError> {
        // Every aborted transaction that began at or before this batch's last offset:
        // its producer joins the aborted set.
        let last_offset = batch.last_offset();
        let reached = self
            .aborted_transactions
            .iter()
            .take_while(|a| a.first_offset <= last_offset)
            .count();
        for a in self.aborted_transactions.drain(..reached) {
            self.aborted_producer_ids.insert(a.producer_id);
            self.events.push(ConsumerEvent::AbortedProducerAdded {
                tp: self.tp.clone(),
                producer_id: a.producer_id,
                first_offset: a.first_offset,
            });
        }
        let producer_id = batch.producer_id;
        if contains_abort_marker(batch)? {
            let removed = self.aborted_producer_ids.remove(&producer_id);
            self.events.push(ConsumerEvent::AbortMarkerSeen {
                tp: self.tp.clone(),
                producer_id,
                offset: batch.base_offset,
                removed,
            });
            Ok(false)
        } else {
            Ok(batch.is_transactional() && self.aborted_producer_ids.contains(&producer_id))
        }
    }

    /// The next whole batch in the bytes. Like `ByteBufferLogInputStream.nextBatch`, an
    /// incomplete batch at the end is not an error: the fetch size cut it.
    fn next_batch(&mut self) -> NextBatch {
        let rest = self.records.get(self.byte_position..).unwrap_or(&[]);
        if rest.is_empty() {
            return NextBatch::End;
        }
        // baseOffset(8) + batchLength(4) + partitionLeaderEpoch(4) + magic(1).
        const HEADER_SIZE_UP_TO_MAGIC: usize = 17;
        let batch_length = read_batch_length(rest);
        let total = match batch_length {
            Some(length) if rest.len() >= HEADER_SIZE_UP_TO_MAGIC => usize::try_from(length)
                .ok()
                .and_then(|l| l.checked_add(LOG_OVERHEAD))
                .filter(|t| *t >= RECORD_BATCH_OVERHEAD)
                .ok_or(length),
            // Too few bytes to even read the header: cut by the fetch size.
            _ => Ok(usize::MAX),
        };
        let total = match total {
            Ok(total) => total,
            Err(length) => {
                return NextBatch::Corrupt(CorruptBatch::SizeTooSmall {
                    size: length,
                    minimum: RECORD_BATCH_OVERHEAD - LOG_OVERHEAD,
                })
            }
        };
        if rest.len() < total {
            let (byte_position, bytes) = (self.byte_position, rest.len());
            self.events.push(ConsumerEvent::PartialBatchIgnored {
                tp: self.tp.clone(),
                byte_position,
                bytes,
            });
            self.byte_position = self.records.len();
            return NextBatch::Partial;
        }
        match RecordBatch::decode(rest) {
            Ok((batch, used)) => {
                self.byte_position = self.byte_position.saturating_add(used.max(1));
                NextBatch::Batch(Box::new(batch))
            }
            Err(e) => NextBatch::Corrupt(CorruptBatch::Invalid(e)),
        }
    }
}

/// Kafka's `CompletedFetch.containsAbortMarker`: a control batch whose first record's
/// key says ABORT. A key that does not parse (`ControlRecordType.parse` throws
/// `InvalidRecordException`) is an error: the read_committed consumer cannot move
/// past the batch (Kafka 4.0: `fetchRecords` rethrows it as a `KafkaException`).
fn contains_abort_marker(batch: &RecordBatch) -> Result<bool, RecordError> {
    let Some(first) = batch.records.first().filter(|_| batch.is_control()) else {
        return Ok(false);
    };
    let code = ControlRecordType::parse_type_id(first.key.as_deref().unwrap_or_default())?;
    Ok(ControlRecordType::from_code(code) == Some(ControlRecordType::Abort))
}
