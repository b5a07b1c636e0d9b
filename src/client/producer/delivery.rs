//! `delivery.timeout.ms` (KIP-91): how long a send may take before it fails, and what
//! an expired batch leaves behind — an unresolved sequence the producer must settle
//! before it numbers new batches for that partition.
//!
//! Read in Kafka 4.0.0-SNAPSHOT (apache/kafka trunk `1eb7644`, 2024-10-25):
//! `Sender.sendProducerData` (after the drain, `getExpiredInflightBatches` then
//! `RecordAccumulator.expiredBatches`, each failed with `TimeoutException("Expiring N
//! record(s) for TP:T ms has passed since batch creation")`, and `markSequenceUnresolved`
//! for a batch `inRetry()`), `Sender.canRetry` (no retry past the delivery timeout),
//! `TransactionManager.handleFailedBatch` / `maybeTransitionToErrorState` (a
//! transactional producer's failed send is an abortable error; an idempotent one's
//! failure with `adjustSequenceNumbers` bumps the epoch for the partition),
//! `maybeResolveSequences` (run first in `Sender.runOnce`) and
//! `RecordAccumulator.shouldStopDrainBatchesForPartition` (no new batch while the
//! partition's sequence is unresolved).
//!
//! An expired in-flight request keeps its place on the connection (Kafka's
//! `NetworkClient` still counts it against `max.in.flight`), so it stays in
//! `in_flight` as [`InFlightKind::Expired`].

use super::*;

impl Producer {
    /// When `batch` fails unless acknowledged (`hasReachedDeliveryTimeout`).
    pub(super) fn delivery_deadline(&self, batch: &ProducerBatch) -> i64 {
        batch
            .created_ms
            .saturating_add(self.config.delivery_timeout_ms)
    }

    /// `expiredBatches` and `getExpiredInflightBatches`: per partition, in the order
    /// they wait (or went out), the batches past the delivery timeout fail, up to the
    /// first that is not.
    pub(super) fn expire_batches(&mut self, now_ms: i64, events: &mut Vec<ProducerEvent>) {
        let mut expired: Vec<(ProducerBatch, bool)> = Vec::new();
        // Kafka fails the queued ones first (`expiredBatches`, then the in-flight ones).
        let deadline = self.config.delivery_timeout_ms;
        for queue in self.accumulator.values_mut() {
            while queue
                .front()
                .is_some_and(|b| b.created_ms.saturating_add(deadline) <= now_ms)
            {
                if let Some(batch) = queue.pop_front() {
                    let in_retry = batch.attempts > 0;
                    expired.push((batch, in_retry));
                }
            }
        }
        let mut stopped: SortedSet<TopicPartition> = SortedSet::new();
        for i in 0..self.in_flight.len() {
            let InFlightKind::Produce(batch) = &self.in_flight[i].what else {
                continue;
            };
            if stopped.contains(&batch.tp) {
                continue;
            }
            if self.delivery_deadline(batch) > now_ms {
                stopped.insert(batch.tp.clone());
                continue;
            }
            let stub = InFlightKind::Expired {
                batch: batch.id,
                tp: batch.tp.clone(),
                last_sequence: batch.last_sequence(),
            };
            let InFlightKind::Produce(batch) = std::mem::replace(&mut self.in_flight[i].what, stub)
            else {
                continue;
            };
            // `inRetry()`: sent again after a failure.
            let in_retry = batch.attempts > 1;
            expired.push((batch, in_retry));
        }
        for (batch, in_retry) in expired {
            let detail = ErrorDetail::DeliveryTimeout {
                records: batch.values.len(),
                partition: batch.tp.to_string(),
                elapsed_ms: now_ms.saturating_sub(batch.created_ms),
            };
            self.fail_batch(&batch, Errors::RequestTimedOut, Some(detail), false, events);
            if in_retry && batch.base_sequence.is_some() {
                self.mark_sequence_unresolved(&batch, events);
            }
        }
    }

    /// `markSequenceUnresolved`: the sequence after this batch, kept per partition.
    fn mark_sequence_unresolved(&mut self, batch: &ProducerBatch, events: &mut Vec<ProducerEvent>) {
        let Some(last) = batch.last_sequence() else {
            return;
        };
        let next = crate::log::producer_state::increment_sequence(last, 1);
        let next = match self.unresolved_sequences.get(&batch.tp) {
            Some(&v) => v.max(next),
            None => next,
        };
        self.unresolved_sequences.insert(batch.tp.clone(), next);
        events.push(ProducerEvent::SequenceUnresolved {
            tp: batch.tp.clone(),
            next_sequence: next,
        });
    }

    /// The base sequences of `tp`'s numbered batches not yet answered, in flight or
    /// queued for a retry (what `TransactionManager.hasInflightBatches` tracks).
    pub(super) fn unanswered_sequences<'a>(
        &'a self,
        tp: &'a TopicPartition,
    ) -> impl Iterator<Item = i32> + 'a {
        let in_flight = self.in_flight.iter().filter_map(move |f| match &f.what {
            InFlightKind::Produce(b) if b.tp == *tp => b.base_sequence,
            _ => None,
        });
        let queued = self
            .accumulator
            .get(tp)
            .into_iter()
            .flatten()
            .filter_map(|b| b.base_sequence);
        in_flight.chain(queued)
    }

    /// Whether a new batch for `tp` must wait for its unresolved sequence.
    pub(super) fn sequence_unresolved(&self, tp: &TopicPartition) -> bool {
        self.unresolved_sequences.contains_key(tp)
    }

    /// `resetSequenceNumbers`: a new producer id or epoch starts every partition at 0.
    pub(super) fn reset_sequence_numbers(&mut self) {
        self.next_sequence.clear();
        self.sequence_ids.clear();
        self.last_acked_sequence.clear();
        self.last_acked_offset.clear();
        self.unresolved_sequences.clear();
    }

    /// `updateLastAckedOffset`: the last offset of an acknowledged batch (the highest).
    pub(super) fn ack_offset(&mut self, tp: &TopicPartition, base_offset: i64, records: usize) {
        if base_offset < 0 {
            return;
        }
        let last = base_offset.saturating_add(records as i64 - 1);
        if self.last_acked_offset.get(tp).is_none_or(|&o| last > o) {
            self.last_acked_offset.insert(tp.clone(), last);
        }
    }

    /// `maybeUpdateLastAckedSequence`: an acknowledged batch's last sequence.
    pub(super) fn ack_sequence(&mut self, tp: &TopicPartition, last_sequence: Option<i32>) {
        let Some(seq) = last_sequence else {
            return;
        };
        if self.last_acked_sequence.get(tp).is_none_or(|&s| seq > s) {
            self.last_acked_sequence.insert(tp.clone(), seq);
        }
    }

    /// `maybeResolveSequences`: once a partition with an unresolved sequence has no
    /// numbered batch left, either the last acknowledged sequence is the one before it
    /// (the expired batches were written after all) or nothing will tell: an idempotent
    /// producer bumps its epoch for the partition; a transactional one is left in an
    /// abortable error, and its abort bumps the epoch.
    pub(super) fn resolve_sequences(&mut self, events: &mut Vec<ProducerEvent>) {
        let partitions: Vec<TopicPartition> = self.unresolved_sequences.keys().cloned().collect();
        for tp in partitions {
            if self.unanswered_sequences(&tp).next().is_some() {
                continue;
            }
            let next = self.next_sequence.get(&tp).copied().unwrap_or(0);
            let last_acked = self.last_acked_sequence.get(&tp).copied().unwrap_or(-1);
            self.unresolved_sequences.remove(&tp);
            if next.wrapping_sub(last_acked) == 1 {
                events.push(ProducerEvent::SequenceResolved {
                    tp,
                    next_sequence: next,
                });
            } else if let Some(tm) = self.txn.as_mut() {
                if tm.require_epoch_bump_for_unresolved() {
                    events.push(ProducerEvent::TxnEpochBumpRequired {
                        error: Errors::RequestTimedOut,
                    });
                }
            } else {
                self.request_epoch_bump(&tp, Errors::RequestTimedOut, true, false);
            }
        }
    }

    /// `failBatch` → `handleFailedBatch`: the application's send fails with `error`; a
    /// transactional producer goes to an abortable error (`maybeTransitionToErrorState`).
    /// Unless that error is fatal: after UNKNOWN_PRODUCER_ID the partition starts again
    /// at 0 (`resetSequenceForPartition`); an idempotent producer bumps its epoch for the
    /// partition after OUT_OF_ORDER, or when the batch failed with retries left (`adjust`:
    /// its sequence may be a gap), where a transactional one moves the later batches'
    /// sequences down over the gap (`adjustSequencesDueToFailedBatch`).
    pub(super) fn fail_batch(
        &mut self,
        batch: &ProducerBatch,
        error: Errors,
        detail: Option<ErrorDetail>,
        adjust: bool,
        events: &mut Vec<ProducerEvent>,
    ) {
        events.push(ProducerEvent::Failed {
            batch: batch.id,
            tp: batch.tp.clone(),
            error,
            detail,
        });
        self.failed.push((batch.id, batch.tp.clone(), error));
        if let Some(tm) = self.txn.as_mut() {
            if tm.on_batch_error(error) {
                events.push(ProducerEvent::TxnEpochBumpRequired { error });
            }
            if tm.state() == crate::client::transaction_manager::TxnState::FatalError {
                return;
            }
        }
        if batch.producer_id < 0 || batch.base_sequence.is_none() {
            return;
        }
        if error == Errors::UnknownProducerId {
            self.reset_sequence_for_partition(&batch.tp);
        } else if self.txn.is_some() {
            if adjust {
                self.adjust_sequences_due_to_failed_batch(batch);
            }
        } else if error == Errors::OutOfOrderSequenceNumber || adjust {
            self.request_epoch_bump(&batch.tp, error, false, false);
        }
    }
}
