//! The `prepare*` half of a transition: compute the target and mark it pending.

use super::*;
use crate::breaks::Breaks;

impl TransactionMetadata {
    fn data(&self, state: TransactionState) -> TransitionData {
        TransitionData {
            state,
            producer_id: self.producer_id,
            next_producer_id: self.next_producer_id,
            producer_epoch: self.producer_epoch,
            last_producer_epoch: self.last_producer_epoch,
            txn_timeout_ms: self.txn_timeout_ms,
            topic_partitions: self.topic_partitions.clone(),
            txn_start_timestamp: self.txn_start_timestamp,
            txn_last_update_timestamp: self.txn_last_update_timestamp,
            client_transaction_version: self.client_transaction_version,
        }
    }

    /// `prepareTransitionTo`: checks the table and marks the target state pending.
    fn prepare_transition_to(
        &mut self,
        d: TransitionData,
    ) -> Result<TxnTransitMetadata, TransitionError> {
        if let Some(pending) = self.pending_state {
            return Err(TransitionError::AlreadyPending {
                state: self.state,
                pending,
            });
        }
        if d.producer_id < 0 || (d.state != TransactionState::Dead && d.producer_epoch < 0) {
            return Err(TransitionError::IllegalProducerIdOrEpoch {
                producer_id: d.producer_id,
                producer_epoch: d.producer_epoch,
            });
        }
        if !d.state.can_transition_from(self.state) {
            return Err(TransitionError::InvalidTransition {
                from: self.state,
                to: d.state,
            });
        }
        self.pending_state = Some(d.state);
        Ok(TxnTransitMetadata {
            producer_id: d.producer_id,
            prev_producer_id: self.producer_id,
            next_producer_id: d.next_producer_id,
            producer_epoch: d.producer_epoch,
            last_producer_epoch: d.last_producer_epoch,
            txn_timeout_ms: d.txn_timeout_ms,
            txn_state: d.state,
            topic_partitions: d.topic_partitions,
            txn_start_timestamp: d.txn_start_timestamp,
            txn_last_update_timestamp: d.txn_last_update_timestamp,
            client_transaction_version: d.client_transaction_version,
        })
    }

    /// Forgets a pending transition whose log write failed (Kafka resets
    /// `pendingState` in `appendTransactionToLog`'s failure path).
    pub fn clear_pending(&mut self) {
        self.pending_state = None;
    }

    /// `prepareFenceProducerEpoch`: InitProducerId (or a timeout) found the
    /// transaction `Ongoing`. The bumped epoch is only used to drive the abort; it is
    /// never written with this state nor returned to a client.
    pub fn prepare_fence_producer_epoch(&mut self) -> Result<TxnTransitMetadata, TransitionError> {
        let mut d = self.data(TransactionState::PrepareEpochFence);
        // Don't overflow if the epoch is already at the maximum (KAFKA-20090); a fence
        // whose write failed is retried at the epoch it already put in memory.
        if self.producer_epoch != i16::MAX && !self.has_failed_epoch_fence {
            d.producer_epoch = self.producer_epoch + 1;
        }
        self.prepare_transition_to(d)
    }

    /// Below transaction.version 2 (`endTransactionWithTV1`'s fence path): the fence
    /// epoch goes into memory before PrepareAbort is written, so PrepareAbort, the
    /// markers and CompleteAbort all carry it and the zombie's old epoch is refused at
    /// once. (Since KAFKA-19367, TV2 bumps once in `prepare_abort_or_commit` instead.)
    pub fn fence_in_memory(&mut self, epoch: i16) {
        self.pending_state = None;
        self.producer_epoch = epoch;
        self.last_producer_epoch = NO_PRODUCER_EPOCH;
    }

    /// The write of a fence's PrepareAbort failed below TV2: the bumped epoch stays in
    /// memory and the next fence reuses it (`hasFailedEpochFence`).
    pub fn mark_failed_epoch_fence(&mut self) {
        self.has_failed_epoch_fence = true;
    }

    /// `prepareIncrementProducerEpoch`: InitProducerId on `Empty`/`Complete*`. Bumps
    /// the epoch (a new id goes from -1 to 0); `expected_epoch` is the KIP-360
    /// "I am the producer with this epoch" of InitProducerId v3+. The bump is what
    /// fences the previous producer of the `transactional.id`: its requests now carry
    /// an older epoch.
    pub fn prepare_increment_producer_epoch(
        &mut self,
        new_txn_timeout_ms: i32,
        expected_epoch: Option<i16>,
        now: i64,
        breaks: Breaks,
    ) -> Result<TxnTransitMetadata, TransitionError> {
        if self.is_producer_epoch_exhausted() {
            return Err(TransitionError::EpochExhausted {
                producer_id: self.producer_id,
                producer_epoch: self.producer_epoch,
            });
        }
        let mut d = self.data(TransactionState::Empty);
        let mut bumped = self.producer_epoch.wrapping_add(1);
        // NOT KAFKA: break init-fencing — a known id keeps its epoch (nobody is fenced).
        if breaks.no_init_fencing() && self.producer_epoch != NO_PRODUCER_EPOCH {
            bumped = self.producer_epoch;
        }
        match expected_epoch {
            None => {
                d.producer_epoch = bumped;
                d.last_producer_epoch = NO_PRODUCER_EPOCH;
            }
            Some(e) if self.producer_epoch == NO_PRODUCER_EPOCH || e == self.producer_epoch => {
                d.producer_epoch = bumped;
                d.last_producer_epoch = self.producer_epoch;
            }
            // A retry of a call that already succeeded: answer the same epoch.
            Some(e) if e == self.last_producer_epoch => {}
            Some(_) => return Err(TransitionError::ProducerFenced),
        }
        d.txn_timeout_ms = new_txn_timeout_ms;
        d.topic_partitions = SortedSet::new();
        d.txn_start_timestamp = -1;
        d.txn_last_update_timestamp = now;
        self.prepare_transition_to(d)
    }

    /// `set-epoch txn=ID epoch=N` (a playground shortcut, no Kafka request): the
    /// epoch goes to `epoch - 1` in memory, so that the InitProducerId bump that
    /// follows writes `epoch`, as if the id had been initialised that many times
    /// (Kafka's `TransactionCoordinatorTest` builds such metadata directly). Also
    /// puts a saved epoch back when that write failed.
    pub fn put_epoch(&mut self, producer_epoch: i16, last_producer_epoch: i16) {
        self.producer_epoch = producer_epoch;
        self.last_producer_epoch = last_producer_epoch;
    }

    /// `prepareProducerIdRotation`: InitProducerId when the epoch is exhausted moves
    /// the transactional id to a fresh producer id at epoch 0.
    pub fn prepare_producer_id_rotation(
        &mut self,
        new_producer_id: i64,
        new_txn_timeout_ms: i32,
        now: i64,
        record_last_epoch: bool,
    ) -> Result<TxnTransitMetadata, TransitionError> {
        if matches!(
            self.state,
            TransactionState::Ongoing
                | TransactionState::PrepareAbort
                | TransactionState::PrepareCommit
        ) {
            return Err(TransitionError::UnexpectedMetadata {
                to: TransactionState::Empty,
                reason: "cannot rotate producer ids while a transaction is still pending",
            });
        }
        let mut d = self.data(TransactionState::Empty);
        d.producer_id = new_producer_id;
        d.producer_epoch = 0;
        d.last_producer_epoch = if record_last_epoch {
            self.producer_epoch
        } else {
            NO_PRODUCER_EPOCH
        };
        d.txn_timeout_ms = new_txn_timeout_ms;
        d.topic_partitions = SortedSet::new();
        d.txn_start_timestamp = -1;
        d.txn_last_update_timestamp = now;
        self.prepare_transition_to(d)
    }

    /// `prepareAddPartitions`: `Ongoing` with the partitions added. A new
    /// transaction's start time is now.
    pub fn prepare_add_partitions(
        &mut self,
        added: &SortedSet<TopicPartition>,
        now: i64,
        client_transaction_version: TransactionVersion,
    ) -> Result<TxnTransitMetadata, TransitionError> {
        let mut d = self.data(TransactionState::Ongoing);
        if matches!(
            self.state,
            TransactionState::Empty
                | TransactionState::CompleteAbort
                | TransactionState::CompleteCommit
        ) {
            d.txn_start_timestamp = now;
        }
        d.topic_partitions.extend(added.iter().cloned());
        d.txn_last_update_timestamp = now;
        d.client_transaction_version = client_transaction_version;
        self.prepare_transition_to(d)
    }

    /// `prepareAbortOrCommit`: PrepareCommit/PrepareAbort. With TV2 the epoch goes up
    /// by one here and `last_producer_epoch` keeps the previous one; an abort at
    /// `Short.MAX_VALUE` is let through without overflowing (Kafka 4.0, KIP-890
    /// part 2: the bump makes every transaction's markers newer than its data, so a
    /// late request of one transaction cannot land in the next).
    pub fn prepare_abort_or_commit(
        &mut self,
        new_state: TransactionState,
        client_transaction_version: TransactionVersion,
        (next_producer_id, now): (i64, i64),
        no_partition_added: bool,
        breaks: Breaks,
    ) -> Result<TxnTransitMetadata, TransitionError> {
        let mut d = self.data(new_state);
        if client_transaction_version.supports_epoch_bump() {
            let at_max =
                self.producer_epoch == i16::MAX && new_state == TransactionState::PrepareAbort;
            // NOT KAFKA: break epoch-bump — TV2 keeps the transaction's epoch.
            if !at_max && !breaks.no_epoch_bump() {
                d.producer_epoch = self.producer_epoch.saturating_add(1);
            }
            d.last_producer_epoch = self.producer_epoch;
        }
        // An empty TV2 transaction has no start time; use now.
        d.txn_start_timestamp = if no_partition_added {
            now
        } else {
            self.txn_start_timestamp
        };
        d.next_producer_id = next_producer_id;
        d.txn_last_update_timestamp = now;
        d.client_transaction_version = client_transaction_version;
        self.prepare_transition_to(d)
    }

    /// `prepareComplete`: CompleteCommit/CompleteAbort once every marker is written;
    /// partitions cleared. If a new producer id was allocated (epoch overflow) the
    /// transactional id switches to it at epoch 0.
    pub fn prepare_complete(&mut self, now: i64) -> Result<TxnTransitMetadata, TransitionError> {
        self.has_failed_epoch_fence = false;
        let target = if self.state == TransactionState::PrepareCommit {
            TransactionState::CompleteCommit
        } else {
            TransactionState::CompleteAbort
        };
        let mut d = self.data(target);
        if self.client_transaction_version.supports_epoch_bump()
            && self.next_producer_id != NO_PRODUCER_ID
        {
            d.producer_id = self.next_producer_id;
            d.producer_epoch = 0;
        }
        d.next_producer_id = NO_PRODUCER_ID;
        d.topic_partitions = SortedSet::new();
        d.txn_last_update_timestamp = now;
        self.prepare_transition_to(d)
    }

    /// `prepareDead`: the transactional id expired.
    pub fn prepare_dead(&mut self) -> Result<TxnTransitMetadata, TransitionError> {
        let mut d = self.data(TransactionState::Dead);
        d.topic_partitions = SortedSet::new();
        self.prepare_transition_to(d)
    }

    /// `removePartition`: a marker for this partition is written.
    pub fn remove_partition(&mut self, tp: &TopicPartition) -> bool {
        if !self.state.is_prepare() {
            return false;
        }
        self.topic_partitions.remove(tp)
    }
}
