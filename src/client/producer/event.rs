//! What the producer did, as data: the catalog words it (`i18n`), the checker and the
//! views read it.

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;

use crate::client::transaction_manager::TxnOutcome;

/// What the producer did, for narration and the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ProducerEvent {
    Accumulated {
        tp: TopicPartition,
        values: Vec<String>,
    },
    /// An idempotent producer bumped its own epoch after OUT_OF_ORDER_SEQUENCE_NUMBER
    /// on these partitions: every partition's sequence starts at 0 again. At epoch
    /// 32767 it asks for a new producer id instead (`new_epoch` is then -1).
    /// The partitions' batches sent and not yet acknowledged get new numbers from 0
    /// under the new epoch (`startSequencesAtBeginning`).
    EpochBumped {
        producer_id: i64,
        old_epoch: i16,
        new_epoch: i16,
        partitions: Vec<TopicPartition>,
        /// The failed batch's error that asked for it (OUT_OF_ORDER_SEQUENCE_NUMBER, or
        /// any failure with retries left, `adjustSequenceNumbers`).
        error: Errors,
        /// Asked for instead by an unresolved sequence: expired batches whose fate no
        /// answer will tell.
        unresolved: bool,
        /// The batch that asked for it is retried (OUT_OF_ORDER for the batch after the
        /// last acknowledged one, `TransactionManager.canRetry`), not failed.
        retried: bool,
        /// How many sent, unacknowledged batches got new sequences.
        renumbered: usize,
    },
    /// A batch sent more than once expired (`delivery.timeout.ms`): whether the
    /// partition kept it is unknown, so no new batch goes to `tp` until the answers in
    /// flight show sequence `next_sequence - 1` acknowledged, or the epoch is bumped
    /// (`markSequenceUnresolved`).
    SequenceUnresolved {
        tp: TopicPartition,
        next_sequence: i32,
    },
    /// Every batch of `tp` is answered and the last acknowledged sequence is the one
    /// before `next_sequence`: the expired batches were written after all, and the
    /// partition goes on (`maybeResolveSequences`).
    SequenceResolved {
        tp: TopicPartition,
        next_sequence: i32,
    },
    /// A transactional producer's request failed in a way that leaves it unsure what
    /// the partitions kept (`error`): before transaction.version 2, its abort will end
    /// with InitProducerId carrying its producer id and epoch, and go on at epoch + 1
    /// with sequences from 0 (KIP-360, `epochBumpRequired`).
    TxnEpochBumpRequired {
        error: Errors,
    },
    /// A batch got its sequence at drain time (first attempt only).
    SequenceAssigned {
        batch: u64,
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        first_seq: i32,
        last_seq: i32,
    },
    BatchSent {
        batch: u64,
        tp: TopicPartition,
        attempt: u32,
        first_seq: Option<i32>,
        last_seq: Option<i32>,
        /// A retry under the epoch a bump gave it, with new sequences.
        renumbered: Option<i16>,
    },
    InitProducerIdRetry {
        error: Errors,
        backoff_ms: i64,
    },
    ProducerIdReceived {
        producer_id: i64,
        producer_epoch: i16,
    },
    /// No answer before `request.timeout.ms`: the batch will be retried with the same sequence.
    /// With `disconnected`, the broker closed the connection instead (it stopped):
    /// Kafka's `NetworkClient` fails the requests on it as disconnected.
    RequestTimedOut {
        batch: Option<u64>,
        broker: i32,
        timeout_ms: i64,
        disconnected: bool,
    },
    /// The batch goes back to its queue and waits `backoff_ms` (`ExponentialBackoff`
    /// of `retry.backoff.ms` up to `retry.backoff.max.ms`, KIP-580) before `attempt`.
    RetryScheduled {
        batch: u64,
        tp: TopicPartition,
        error: Errors,
        attempt: u32,
        backoff_ms: i64,
    },
    /// The partition has a new leader (`leader_epoch`) since the batch failed: its
    /// retry goes now, without waiting out the backoff (KIP-951,
    /// `RecordAccumulator.shouldBackoff`).
    BackoffSkipped {
        batch: u64,
        tp: TopicPartition,
        leader_epoch: i32,
    },
    /// The broker refused the batch as too large (MESSAGE_TOO_LARGE) and it holds more
    /// than one record: split into `batches` batches of at most `split_batch_size`
    /// bytes, queued again as never sent; a numbered batch's parts keep its sequences
    /// (`RecordAccumulator.splitAndReenqueue`).
    BatchSplit {
        batch: u64,
        tp: TopicPartition,
        records: usize,
        batches: usize,
        split_batch_size: usize,
    },
    /// The application's send completed.
    Acknowledged {
        batch: u64,
        tp: TopicPartition,
        base_offset: i64,
        values: Vec<String>,
    },
    Failed {
        batch: u64,
        tp: TopicPartition,
        error: Errors,
        /// The broker's `errorMessage`, as data.
        detail: Option<ErrorDetail>,
    },
    /// A transactional call progressed or finished.
    Transaction(TxnOutcome),
    /// `abortTransaction()` dropped batches that were never sent.
    BatchesAbortedLocally {
        count: usize,
    },
    /// While aborting, batches back in the queue after a timed-out request were
    /// dropped (`abortUndrainedBatches`): the request itself may still be on its way.
    UndrainedBatchesAborted {
        count: usize,
    },
    /// A response for a request the producer already gave up on.
    StaleResponse {
        correlation_id: u64,
        api: String,
    },
}
