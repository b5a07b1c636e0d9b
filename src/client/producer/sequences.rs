//! The producer's sequence bookkeeping across an epoch bump: which partitions asked for
//! one, the bump itself, and starting a partition's sequences at 0 again (Kafka 4.0
//! `TransactionManager` with its `TxnPartitionMap`).

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;

use super::{IdState, InFlightKind, Producer, ProducerBatch, ProducerEvent};

impl Producer {
    /// `requestEpochBumpForPartition`: the next `runOnce` bumps the epoch and renumbers
    /// `tp`'s batches. The first request names the error (and whether an unresolved
    /// sequence asked, and whether the asking batch is retried).
    pub(super) fn request_epoch_bump(
        &mut self,
        tp: &TopicPartition,
        error: Errors,
        unresolved: bool,
        retried: bool,
    ) {
        if self.epoch_bump_partitions.is_empty() {
            self.epoch_bump_error = error;
            self.epoch_bump_unresolved = unresolved;
            self.epoch_bump_retried = retried;
        }
        self.epoch_bump_partitions.insert(tp.clone());
    }

    /// `bumpIdempotentEpochAndResetIdIfNeeded` (Kafka 4.0, run by the Sender before it
    /// sends): an idempotent producer with an epoch bump pending takes epoch + 1 (at
    /// `Short.MAX_VALUE` it drops its id and asks for a new one), and the partitions that
    /// asked start their sequences at 0 again, renumbering the batches already sent and
    /// not yet acknowledged, in flight or waiting for a retry
    /// (`TxnPartitionEntry.startSequencesAtBeginning`). Kafka does this at once, with
    /// requests still in flight: a batch the broker did write under its old numbers can
    /// be written again under the new ones (idempotence holds within one epoch only).
    pub(super) fn bump_idempotent_epoch_if_needed(&mut self, events: &mut Vec<ProducerEvent>) {
        if self.txn.is_some() || self.epoch_bump_partitions.is_empty() {
            return;
        }
        let partitions: Vec<TopicPartition> = std::mem::take(&mut self.epoch_bump_partitions)
            .into_iter()
            .collect();
        let unresolved = std::mem::take(&mut self.epoch_bump_unresolved);
        let retried = std::mem::take(&mut self.epoch_bump_retried);
        let old_epoch = self.producer_epoch;
        let producer_id = self.producer_id;
        if old_epoch == i16::MAX {
            self.producer_id = -1;
            self.producer_epoch = -1;
            self.id_state = IdState::Uninitialized { retry_at_ms: 0 };
        } else {
            self.producer_epoch = old_epoch + 1;
        }
        // For the partitions that asked for the bump only. The others keep their
        // numbered batches at the old epoch, so a retry there is still recognised as a
        // duplicate; they restart at 0 once those are resolved
        // (`maybeUpdateProducerIdAndEpoch`, see `stale_partition_blocks`).
        let renumbered = partitions
            .iter()
            .map(|tp| self.start_sequences_at_beginning(tp))
            .sum();
        events.push(ProducerEvent::EpochBumped {
            producer_id,
            old_epoch,
            new_epoch: self.producer_epoch,
            partitions,
            error: self.epoch_bump_error,
            unresolved,
            retried,
            renumbered,
        });
    }

    /// `set-epoch producer=NAME epoch=N`, a playground shortcut (Kafka's
    /// `TransactionManagerTest` calls `initializeIdempotentProducerId(producerId,
    /// Short.MAX_VALUE)`): an idempotent producer that has its producer id and nothing
    /// unacknowledged takes epoch N, every partition's sequences starting at 0 as after
    /// a bump. Returns whether it could.
    pub fn set_epoch(&mut self, epoch: i16) -> bool {
        let idle = self.txn.is_none() && self.id_state == IdState::Ready && !self.has_pending();
        if !idle || epoch < 0 {
            return false;
        }
        self.producer_epoch = epoch;
        self.next_sequence.clear();
        self.sequence_ids.clear();
        self.last_acked_sequence.clear();
        self.last_acked_offset.clear();
        self.unresolved_sequences.clear();
        self.epoch_bump_partitions.clear();
        true
    }

    /// `startSequencesAtBeginning`: `tp`'s numbered batches, in their old order, get
    /// the current producer id and epoch and sequences from 0; the next new batch
    /// follows them. Returns how many were renumbered. Simplified: at epoch 32767,
    /// where Kafka renumbers them under no producer id (-1, so they go out without
    /// idempotence) and holds new batches until they are done, here they are numbered
    /// afresh under the new producer id when next drained.
    pub(super) fn start_sequences_at_beginning(&mut self, tp: &TopicPartition) -> usize {
        let (pid, epoch) = (self.producer_id, self.producer_epoch);
        let in_flight = self.in_flight.iter_mut().filter_map(|f| match &mut f.what {
            InFlightKind::Produce(b) => Some(b),
            _ => None,
        });
        let queued = self.accumulator.get_mut(tp).into_iter().flatten();
        let mut batches: Vec<&mut ProducerBatch> = in_flight
            .chain(queued)
            .filter(|b| b.tp == *tp && b.base_sequence.is_some())
            .collect();
        // In their old order. A handful at most: an insertion sort keeps the wasm small.
        for i in 1..batches.len() {
            let mut j = i;
            while j > 0 && batches[j - 1].base_sequence > batches[j].base_sequence {
                batches.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut next = 0i32;
        for b in &mut batches {
            b.producer_id = pid;
            b.producer_epoch = epoch;
            b.base_sequence = (pid >= 0).then_some(next);
            b.sequence_reset = true;
            next = crate::log::producer_state::increment_sequence(next, b.values.len() as i32);
        }
        let renumbered = batches.len();
        self.last_acked_sequence.remove(tp);
        self.unresolved_sequences.remove(tp);
        if pid >= 0 && renumbered > 0 {
            self.next_sequence.insert(tp.clone(), next);
            self.sequence_ids.insert(tp.clone(), (pid, epoch));
        } else {
            self.next_sequence.remove(tp);
            self.sequence_ids.remove(tp);
        }
        renumbered
    }

    /// `RecordAccumulator.shouldStopDrainBatchesForPartition`: a new batch for `tp`
    /// whose sequences count under an older producer id or epoch waits while batches
    /// numbered under those are unresolved (in flight); once none is, the partition
    /// starts again at sequence 0 (`TransactionManager.maybeUpdateProducerIdAndEpoch`).
    /// Returns true when the batch must wait.
    pub(super) fn stale_partition_blocks(&mut self, tp: &TopicPartition) -> bool {
        let current = (self.producer_id, self.producer_epoch);
        if self.sequence_ids.get(tp).is_none_or(|ids| *ids == current) {
            return false;
        }
        let in_flight = self.in_flight.iter().any(|f| match &f.what {
            InFlightKind::Produce(b) => b.tp == *tp && b.base_sequence.is_some(),
            _ => false,
        });
        if in_flight {
            return true;
        }
        self.next_sequence.remove(tp);
        self.sequence_ids.remove(tp);
        self.last_acked_sequence.remove(tp);
        false
    }

    /// `TxnPartitionEntry.adjustSequencesDueToFailedBatch` (Kafka 4.0): a transactional
    /// producer's batch failed for good with retries left, so its sequences are a gap;
    /// the partition's next sequence and every later batch sent and not yet answered
    /// (in flight or queued for a retry) move down by its record count, marked reset
    /// (`resetProducerState`) so their answers under the old numbers are only retried.
    /// Kafka throws rather than go below 0; here the numbers are then left alone.
    pub(super) fn adjust_sequences_due_to_failed_batch(&mut self, failed: &ProducerBatch) {
        let tp = &failed.tp;
        let (Some(base), Some(next)) = (failed.base_sequence, self.next_sequence.get(tp).copied())
        else {
            return;
        };
        let n = failed.values.len() as i32;
        if next < n {
            return;
        }
        self.next_sequence.insert(tp.clone(), next - n);
        let in_flight = self.in_flight.iter_mut().filter_map(|f| match &mut f.what {
            InFlightKind::Produce(b) => Some(b),
            _ => None,
        });
        let queued = self.accumulator.get_mut(tp).into_iter().flatten();
        for b in in_flight.chain(queued).filter(|b| b.tp == *tp) {
            if let Some(s) = b.base_sequence.filter(|&s| s >= base && s >= n) {
                b.base_sequence = Some(s - n);
                b.sequence_reset = true;
            }
        }
    }

    /// `resetSequenceForPartition`: after UNKNOWN_PRODUCER_ID the broker keeps no state
    /// for this producer on `tp`, so its next batch there starts at sequence 0.
    pub(super) fn reset_sequence_for_partition(&mut self, tp: &TopicPartition) {
        self.next_sequence.remove(tp);
        self.sequence_ids.remove(tp);
        self.last_acked_sequence.remove(tp);
        self.last_acked_offset.remove(tp);
        self.unresolved_sequences.remove(tp);
    }
}
