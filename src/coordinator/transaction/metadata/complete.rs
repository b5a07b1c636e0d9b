//! The `completeTransitionTo` half: apply a target once its log write succeeded.

use super::*;

impl TransactionMetadata {
    /// `completeTransitionTo`: applies a target after its log write succeeded,
    /// after checking the pending state, the state table and Kafka's sanity rules
    /// (epoch same / +1 / new id, partitions only grow while `Ongoing`, ...).
    pub fn complete_transition_to(
        &mut self,
        t: &TxnTransitMetadata,
    ) -> Result<(), TransitionError> {
        let to = match self.pending_state {
            None => return Err(TransitionError::NoPendingState { to: t.txn_state }),
            Some(p) if p != t.txn_state => {
                return Err(TransitionError::PendingMismatch {
                    pending: p,
                    to: t.txn_state,
                })
            }
            Some(p) => p,
        };
        if !to.can_transition_from(self.state) {
            return Err(TransitionError::InvalidTransition {
                from: self.state,
                to,
            });
        }
        let fail = |reason| Err(TransitionError::UnexpectedMetadata { to, reason });
        match to {
            TransactionState::Empty => {
                if self.producer_epoch != t.producer_epoch && !self.valid_producer_epoch_bump(t) {
                    return fail(
                        "the epoch must stay, go up by one, or restart at 0 with a new producer id",
                    );
                }
                if !t.topic_partitions.is_empty() || t.txn_start_timestamp != -1 {
                    return fail("Empty has no partitions and no start time");
                }
            }
            TransactionState::Ongoing => {
                if !self.valid_producer_epoch(t) {
                    return fail("adding partitions must not change the producer id or epoch");
                }
                if !t.topic_partitions.is_superset(&self.topic_partitions) {
                    return fail("partitions can only be added to an ongoing transaction");
                }
                if self.txn_timeout_ms != t.txn_timeout_ms {
                    return fail("the transaction timeout must not change");
                }
            }
            TransactionState::PrepareCommit | TransactionState::PrepareAbort => {
                // With TV2 an empty commit/abort may start from Empty/Complete*, whose
                // start time differs from the one written.
                let empty_txn = t.client_transaction_version.supports_epoch_bump()
                    && matches!(
                        self.state,
                        TransactionState::Empty
                            | TransactionState::CompleteCommit
                            | TransactionState::CompleteAbort
                    );
                if !self.valid_producer_epoch(t) {
                    return fail("EndTxn must bump the epoch by one (TV2) or keep it (TV1)");
                }
                if self.topic_partitions != t.topic_partitions {
                    return fail("the partitions must not change when ending a transaction");
                }
                if self.txn_timeout_ms != t.txn_timeout_ms {
                    return fail("the transaction timeout must not change");
                }
                if !(self.txn_start_timestamp == t.txn_start_timestamp || empty_txn) {
                    return fail("the start time must not change");
                }
            }
            TransactionState::CompleteCommit | TransactionState::CompleteAbort => {
                if !self.valid_producer_epoch(t) {
                    return fail("completing must keep the epoch (or rotate the producer id)");
                }
                if self.txn_timeout_ms != t.txn_timeout_ms || t.txn_start_timestamp == -1 {
                    return fail("completing must keep the timeout and the start time");
                }
            }
            TransactionState::PrepareEpochFence => {
                return fail(
                    "PrepareEpochFence is never completed; the fence continues as PrepareAbort",
                );
            }
            TransactionState::Dead => {
                return fail("Dead is never written; the transactional id is removed instead");
            }
        }
        // Same producer id: the epoch never goes back (Kafka's sanity checks above
        // allow same, +1, or 0 only with a new id).
        debug_assert!(
            t.producer_id != self.producer_id || t.producer_epoch >= self.producer_epoch,
            "{}: epoch {} after {} on producer id {}",
            self.transactional_id,
            t.producer_epoch,
            self.producer_epoch,
            self.producer_id
        );
        self.producer_id = t.producer_id;
        self.previous_producer_id = t.prev_producer_id;
        self.next_producer_id = t.next_producer_id;
        self.producer_epoch = t.producer_epoch;
        self.last_producer_epoch = t.last_producer_epoch;
        self.txn_timeout_ms = t.txn_timeout_ms;
        self.topic_partitions = t.topic_partitions.clone();
        self.txn_start_timestamp = t.txn_start_timestamp;
        self.txn_last_update_timestamp = t.txn_last_update_timestamp;
        self.client_transaction_version = t.client_transaction_version;
        self.pending_state = None;
        self.state = to;
        Ok(())
    }

    /// `validProducerEpoch`: same id and epoch, except TV2's bump at Prepare* and the
    /// id rotation at Complete*.
    fn valid_producer_epoch(&self, t: &TxnTransitMetadata) -> bool {
        let tv2 = t.client_transaction_version.supports_epoch_bump();
        if tv2 && t.txn_state.is_complete() && t.producer_epoch == 0 {
            return t.last_producer_epoch == self.last_producer_epoch
                && t.prev_producer_id == self.producer_id;
        }
        if tv2 && t.txn_state.is_prepare() {
            return t.last_producer_epoch == self.producer_epoch
                && t.producer_id == self.producer_id;
        }
        t.producer_epoch == self.producer_epoch && t.producer_id == self.producer_id
    }

    /// `validProducerEpochBump`.
    fn valid_producer_epoch_bump(&self, t: &TxnTransitMetadata) -> bool {
        t.producer_epoch == self.producer_epoch.wrapping_add(1)
            || (t.producer_epoch == 0 && t.producer_id != self.producer_id)
    }
}
