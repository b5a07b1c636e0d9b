//! What the coordinator remembers about one transactional id, and the two-step way
//! it changes: `prepare_*` computes the target ([`TxnTransitMetadata`]) and marks it
//! pending; the coordinator writes that target to `__transaction_state`; only when
//! the write succeeded does [`TransactionMetadata::complete_transition_to`] copy it
//! into memory (Kafka's `completeTransitionTo()` comment: "we should only try to
//! update the metadata after the corresponding log entry has been successfully
//! written and replicated").

use crate::util::sorted_set::SortedSet;

use serde::Serialize;

use super::state::TransactionState;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::record::{NO_PRODUCER_EPOCH, NO_PRODUCER_ID};

/// `transaction.version` as a client or the cluster uses it (Kafka's
/// `org.apache.kafka.server.common.TransactionVersion`, by feature level).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct TransactionVersion(pub i16);

impl TransactionVersion {
    /// Before KIP-890: no flexible log records.
    pub const TV_0: TransactionVersion = TransactionVersion(0);
    /// Flexible `__transaction_state` values (log value version 1).
    pub const TV_1: TransactionVersion = TransactionVersion(1);
    /// KIP-890 part 2: an epoch bump at the end of every transaction; the partition
    /// leader adds partitions for the producer. The default in Kafka 4.x.
    pub const TV_2: TransactionVersion = TransactionVersion(2);

    /// The feature level, as written in `ClientTransactionVersion`.
    pub fn feature_level(self) -> i16 {
        self.0
    }

    /// `supportsEpochBump()`: TV2 and later.
    pub fn supports_epoch_bump(self) -> bool {
        self.0 >= 2
    }

    /// `transactionLogValueVersion()`: 1 (flexible) from TV1 on, else 0.
    pub fn transaction_log_value_version(self) -> i16 {
        if self.0 >= 1 {
            1
        } else {
            0
        }
    }
}

/// Why a transition could not be prepared or completed. Kafka throws
/// `IllegalStateException` (or `ProducerFencedException`) in these places; we return
/// a value so no input can panic the broker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TransitionError {
    /// `to` is not reachable from `from` (the `valid_previous_states` table).
    InvalidTransition {
        from: TransactionState,
        to: TransactionState,
    },
    /// A transition is already pending (`pendingState` is set).
    AlreadyPending {
        state: TransactionState,
        pending: TransactionState,
    },
    /// `complete_transition_to` without a pending state.
    NoPendingState { to: TransactionState },
    /// The pending state is not the state being completed.
    PendingMismatch {
        pending: TransactionState,
        to: TransactionState,
    },
    /// A negative producer id or epoch in the target.
    IllegalProducerIdOrEpoch {
        producer_id: i64,
        producer_epoch: i16,
    },
    /// The target's epoch/partitions/timeout/timestamps do not fit the move
    /// (`throwStateTransitionFailure`).
    UnexpectedMetadata {
        to: TransactionState,
        reason: &'static str,
    },
    /// `prepareIncrementProducerEpoch` when the epoch is exhausted.
    EpochExhausted {
        producer_id: i64,
        producer_epoch: i16,
    },
    /// `prepareIncrementProducerEpoch` with an expected epoch that is neither the
    /// current nor the last one.
    ProducerFenced,
}

impl TransitionError {
    /// The error code the client sees. Kafka answers UNKNOWN_SERVER_ERROR for its
    /// `IllegalStateException`s; we answer INVALID_TXN_STATE for table violations so
    /// the learner sees which rule fired.
    pub fn to_errors(&self) -> Errors {
        match self {
            TransitionError::ProducerFenced => Errors::ProducerFenced,
            TransitionError::EpochExhausted { .. }
            | TransitionError::IllegalProducerIdOrEpoch { .. } => Errors::UnknownServerError,
            _ => Errors::InvalidTxnState,
        }
    }
}

/// A rule Kafka treats as "this should not happen" (an `IllegalStateException` there),
/// as data for the event list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum InternalError {
    /// A transition could not be prepared or completed.
    Transition(TransitionError),
    /// The transactional id was found in a state that is never current (Dead, PrepareEpochFence).
    StateNeverCurrent(TransactionState),
}

/// The target of one state change, to be written to the log before it is applied
/// (Kafka's `TxnTransitMetadata`). `prev_producer_id` is always the producer id the
/// metadata had when the transition was prepared — which is why every record in
/// seed 000 carries `previousProducerId: 0`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TxnTransitMetadata {
    pub producer_id: i64,
    pub prev_producer_id: i64,
    pub next_producer_id: i64,
    pub producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub txn_timeout_ms: i32,
    pub txn_state: TransactionState,
    pub topic_partitions: SortedSet<TopicPartition>,
    pub txn_start_timestamp: i64,
    pub txn_last_update_timestamp: i64,
    pub client_transaction_version: TransactionVersion,
}

/// What the coordinator knows about one transactional id (Kafka's
/// `TransactionMetadata`, Java, `transaction-coordinator` module).
///
/// Simplified: no lock (the coordinator is single-threaded), a sorted set of
/// partitions instead of a `HashSet` (so output is deterministic), no
/// `hasFailedEpochFence` (since KAFKA-19367 the TV2 fence path no longer bumps the
/// in-memory epoch before the write, so nothing needs remembering), and no
/// two-phase-commit (KIP-939) `nextProducerEpoch`.
///
/// Private fields: a state, its epochs and its partitions change together, only by
/// `prepare_*` then `complete_transition_to` (checked against Kafka's table), so
/// nothing can skip the log write or move an epoch backwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransactionMetadata {
    transactional_id: String,
    producer_id: i64,
    /// Producer id of the last transition (`prevProducerId`).
    previous_producer_id: i64,
    /// A freshly allocated id to switch to at Complete*, when the epoch ran out.
    next_producer_id: i64,
    producer_epoch: i16,
    last_producer_epoch: i16,
    txn_timeout_ms: i32,
    state: TransactionState,
    topic_partitions: SortedSet<TopicPartition>,
    /// When the first partition was added (-1 when no transaction is open).
    txn_start_timestamp: i64,
    txn_last_update_timestamp: i64,
    client_transaction_version: TransactionVersion,
    /// The state this metadata is about to move to (set by `prepare_*`).
    pending_state: Option<TransactionState>,
}

/// Kafka's `TransitionData`: the current values, some of which a `prepare_*` overrides.
struct TransitionData {
    state: TransactionState,
    producer_id: i64,
    next_producer_id: i64,
    producer_epoch: i16,
    last_producer_epoch: i16,
    txn_timeout_ms: i32,
    topic_partitions: SortedSet<TopicPartition>,
    txn_start_timestamp: i64,
    txn_last_update_timestamp: i64,
    client_transaction_version: TransactionVersion,
}

impl TransactionMetadata {
    /// A transactional id seen for the first time: the given producer id, epoch -1,
    /// `Empty`, client TV0 (as `handleInitProducerId` creates it).
    pub fn new(transactional_id: &str, producer_id: i64, txn_timeout_ms: i32, now: i64) -> Self {
        TransactionMetadata {
            transactional_id: transactional_id.to_string(),
            producer_id,
            previous_producer_id: NO_PRODUCER_ID,
            next_producer_id: NO_PRODUCER_ID,
            producer_epoch: NO_PRODUCER_EPOCH,
            last_producer_epoch: NO_PRODUCER_EPOCH,
            txn_timeout_ms,
            state: TransactionState::Empty,
            topic_partitions: SortedSet::new(),
            txn_start_timestamp: -1,
            txn_last_update_timestamp: now,
            client_transaction_version: TransactionVersion::TV_0,
            pending_state: None,
        }
    }

    /// The metadata a coordinator rebuilds from a `__transaction_state` record when
    /// it loads a partition: the record's values, nothing pending.
    pub fn from_log(transactional_id: &str, t: &TxnTransitMetadata) -> Self {
        TransactionMetadata {
            transactional_id: transactional_id.to_string(),
            producer_id: t.producer_id,
            previous_producer_id: t.prev_producer_id,
            next_producer_id: t.next_producer_id,
            producer_epoch: t.producer_epoch,
            last_producer_epoch: t.last_producer_epoch,
            txn_timeout_ms: t.txn_timeout_ms,
            state: t.txn_state,
            topic_partitions: t.topic_partitions.clone(),
            txn_start_timestamp: t.txn_start_timestamp,
            txn_last_update_timestamp: t.txn_last_update_timestamp,
            client_transaction_version: t.client_transaction_version,
            pending_state: None,
        }
    }

    pub fn transactional_id(&self) -> &str {
        &self.transactional_id
    }

    pub fn producer_id(&self) -> i64 {
        self.producer_id
    }

    /// Producer id of the last transition (`prevProducerId`).
    pub fn previous_producer_id(&self) -> i64 {
        self.previous_producer_id
    }

    /// A freshly allocated id to switch to at Complete*, when the epoch ran out.
    pub fn next_producer_id(&self) -> i64 {
        self.next_producer_id
    }

    pub fn producer_epoch(&self) -> i16 {
        self.producer_epoch
    }

    pub fn last_producer_epoch(&self) -> i16 {
        self.last_producer_epoch
    }

    pub fn txn_timeout_ms(&self) -> i32 {
        self.txn_timeout_ms
    }

    pub fn state(&self) -> TransactionState {
        self.state
    }

    /// The partitions of the open (or ending) transaction.
    pub fn topic_partitions(&self) -> &SortedSet<TopicPartition> {
        &self.topic_partitions
    }

    /// When the first partition was added (-1 when no transaction is open).
    pub fn txn_start_timestamp(&self) -> i64 {
        self.txn_start_timestamp
    }

    pub fn txn_last_update_timestamp(&self) -> i64 {
        self.txn_last_update_timestamp
    }

    pub fn client_transaction_version(&self) -> TransactionVersion {
        self.client_transaction_version
    }

    /// The state this metadata is about to move to (set by `prepare_*`).
    pub fn pending_state(&self) -> Option<TransactionState> {
        self.pending_state
    }

    /// `isEpochExhausted`: no epoch may reach `Short.MAX_VALUE` through a client,
    /// so that the coordinator can always fence once more.
    pub fn is_epoch_exhausted(epoch: i16) -> bool {
        epoch >= i16::MAX - 1
    }

    pub fn is_producer_epoch_exhausted(&self) -> bool {
        Self::is_epoch_exhausted(self.producer_epoch)
    }

    pub fn pending_transition_in_progress(&self) -> bool {
        self.pending_state.is_some()
    }

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
        // Don't overflow if the epoch is already at the maximum (KAFKA-20090).
        if self.producer_epoch != i16::MAX {
            d.producer_epoch = self.producer_epoch + 1;
        }
        self.prepare_transition_to(d)
    }

    /// `prepareIncrementProducerEpoch`: InitProducerId on `Empty`/`Complete*`. Bumps
    /// the epoch (a new id goes from -1 to 0); `expected_epoch` is the KIP-360
    /// "I am the producer with this epoch" of InitProducerId v3+.
    pub fn prepare_increment_producer_epoch(
        &mut self,
        new_txn_timeout_ms: i32,
        expected_epoch: Option<i16>,
        now: i64,
    ) -> Result<TxnTransitMetadata, TransitionError> {
        if self.is_producer_epoch_exhausted() {
            return Err(TransitionError::EpochExhausted {
                producer_id: self.producer_id,
                producer_epoch: self.producer_epoch,
            });
        }
        let mut d = self.data(TransactionState::Empty);
        let bumped = self.producer_epoch.wrapping_add(1);
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
    /// `Short.MAX_VALUE` is let through without overflowing.
    pub fn prepare_abort_or_commit(
        &mut self,
        new_state: TransactionState,
        client_transaction_version: TransactionVersion,
        next_producer_id: i64,
        now: i64,
        no_partition_added: bool,
    ) -> Result<TxnTransitMetadata, TransitionError> {
        let mut d = self.data(new_state);
        if client_transaction_version.supports_epoch_bump() {
            if !(self.producer_epoch == i16::MAX && new_state == TransactionState::PrepareAbort) {
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

#[cfg(test)]
#[path = "metadata_tests.rs"]
mod tests;
