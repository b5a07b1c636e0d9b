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
use crate::record::{NO_PRODUCER_EPOCH, NO_PRODUCER_ID};

mod complete;
mod errors;
mod prepare;

pub use errors::{InternalError, TransitionError};

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
/// partitions instead of a `HashSet` (so output is deterministic), and no
/// two-phase-commit (KIP-939) `nextProducerEpoch`. `hasFailedEpochFence` matters
/// below TV2 only: since KAFKA-19367 the TV2 fence no longer puts its epoch in memory
/// before the write, so a failed TV2 fence leaves nothing to remember.
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
    /// Kafka's `hasFailedEpochFence` (KAFKA-9666): below transaction.version 2 a fence
    /// puts its bumped epoch in memory before PrepareAbort is written; when that write
    /// fails, the next fence reuses the epoch instead of bumping again.
    has_failed_epoch_fence: bool,
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
            has_failed_epoch_fence: false,
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
            has_failed_epoch_fence: false,
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
}

#[cfg(test)]
mod tests;
