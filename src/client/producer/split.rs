//! A batch the broker refused as too large (MESSAGE_TOO_LARGE) is split and queued
//! again rather than failed, as long as it holds more than one record (KIP-126:
//! Kafka 4.0 `Sender.completeBatch`, `RecordAccumulator.splitAndReenqueue`,
//! `ProducerBatch.split`; `SenderTest.testIdempotentSplitBatchAndSend`,
//! `testTransactionalSplitBatchAndSend`, `RecordAccumulatorTest.testSplitAndReenqueue`).
//!
//! The parts keep the refused batch's producer id, epoch and sequences, in order
//! (`setProducerState(…, sequence)`, `sequence += recordCount`), so the next sequence of
//! the partition does not move; they count as never tried (no backoff, no retry spent).
//! A part of one record that is still too large fails with `RecordTooLargeException`.
//!
//! The split size is `batch.size`; a batch that is itself a split part is halved
//! instead (`max(maxRecordSize, estimatedSizeInBytes / 2)`), so a topic whose
//! `max.message.bytes` is below `batch.size` ends in single records rather than
//! splitting the same batch until `delivery.timeout.ms` (KAFKA-8350, Kafka 4.2). As in
//! Kafka, one case still comes back whole: a record too large alone beside records of a
//! few bytes (`maxRecordSize`, an upper bound, is then above the batch's size), sent
//! again until `delivery.timeout.ms` fails it.
//!
//! Here the parts keep the refused batch's local id: they are one `send()` of the
//! application, whose records Kafka completes through the chained futures of the parts.

use super::*;

impl ProducerBatch {
    /// `maxRecordSize`: the largest `AbstractRecords.estimateSizeInBytesUpperBound` of the
    /// batch's records (v2, no headers): the batch overhead, `DefaultRecord
    /// .MAX_RECORD_OVERHEAD` and the key and value with their lengths.
    fn max_record_size(&self) -> usize {
        use crate::record::varint::size_of_varint;
        const MAX_RECORD_OVERHEAD: usize = 21;
        let bytes = |b: &Option<Vec<u8>>| {
            b.as_ref().map_or(size_of_varint(-1), |b| {
                size_of_varint(i32::try_from(b.len()).unwrap_or(i32::MAX)) + b.len()
            })
        };
        self.values
            .iter()
            .map(|v| {
                let (key, value) = crate::record::key_value(v);
                crate::record::RECORD_BATCH_OVERHEAD
                    + MAX_RECORD_OVERHEAD
                    + bytes(&key)
                    + bytes(&value)
                    + size_of_varint(0)
            })
            .max()
            .unwrap_or(0)
    }

    /// `ProducerBatch.split(splitBatchSize)`: the records in order, in new batches of at
    /// most `split_batch_size` bytes (the first record of each always fits), created
    /// when this one was; a numbered batch hands its sequences on.
    fn split(&self, split_batch_size: usize) -> Vec<ProducerBatch> {
        let mut parts: Vec<ProducerBatch> = Vec::new();
        for value in &self.values {
            let fits = parts.last().is_some_and(|p| {
                p.size_in_bytes.saturating_add(p.next_record_size(value)) <= split_batch_size
            });
            if !fits {
                parts.push(ProducerBatch {
                    values: Vec::new(),
                    producer_id: -1,
                    producer_epoch: -1,
                    base_sequence: None,
                    attempts: 0,
                    current_leader_epoch: None,
                    attempts_when_leader_last_changed: 0,
                    size_in_bytes: crate::record::RECORD_BATCH_OVERHEAD,
                    sequence_reset: false,
                    is_split_batch: true,
                    ..self.clone()
                });
            }
            if let Some(part) = parts.last_mut() {
                part.size_in_bytes += part.next_record_size(value);
                part.values.push(value.clone());
            }
        }
        if let Some(mut sequence) = self.base_sequence {
            for part in &mut parts {
                part.producer_id = self.producer_id;
                part.producer_epoch = self.producer_epoch;
                part.base_sequence = Some(sequence);
                sequence = crate::log::producer_state::increment_sequence(
                    sequence,
                    part.values.len() as i32,
                );
            }
        }
        parts
    }
}

impl Producer {
    /// `RecordAccumulator.splitAndReenqueue`: the parts go back to the front of the
    /// partition's queue, in sequence order (`insertInSequenceOrder`), or in their own
    /// order ahead of the rest without idempotence (`addFirst` from the last part).
    pub(super) fn split_and_reenqueue(
        &mut self,
        batch: ProducerBatch,
        events: &mut Vec<ProducerEvent>,
    ) {
        let split_batch_size = if batch.is_split_batch {
            batch.max_record_size().max(batch.size_in_bytes / 2)
        } else {
            self.config.batch_size
        };
        let parts = batch.split(split_batch_size);
        events.push(ProducerEvent::BatchSplit {
            batch: batch.id,
            tp: batch.tp.clone(),
            records: batch.values.len(),
            batches: parts.len(),
            split_batch_size,
        });
        for part in parts.into_iter().rev() {
            self.requeue(part);
        }
    }
}
