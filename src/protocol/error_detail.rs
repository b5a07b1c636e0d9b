//! The `errorMessage` a broker sends next to an error code, as data: which check
//! refused, and its numbers. Kafka sends English prose here; we send the facts so the
//! catalog (`crate::i18n`) can word them in the reader's language.

use serde::{Deserialize, Serialize};

use crate::fs::FsError;
use crate::record::RecordError;

/// Why the broker refused a batch or a marker, beyond the error code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorDetail {
    /// `checkProducerEpoch`: the batch's epoch is older than the partition's.
    EpochTooOld {
        producer_id: i64,
        offset: i64,
        partition: String,
        epoch: i16,
        current_epoch: i16,
    },
    /// `checkSequence`: a new epoch must start at sequence 0.
    NewEpochSequence {
        producer_id: i64,
        offset: i64,
        partition: String,
        epoch: i16,
        first_seq: i32,
        current_epoch: i16,
    },
    /// `checkSequence`: the batch does not continue the last sequence.
    OutOfOrderSequence {
        producer_id: i64,
        offset: i64,
        partition: String,
        first_seq: i32,
        last_seq: i32,
    },
    /// `checkSequence` while verifying: a lower sequence of the producer is still being
    /// verified (KIP-890 part 1, `VerificationStateEntry`).
    BelowVerifiedSequence {
        producer_id: i64,
        offset: i64,
        partition: String,
        first_seq: i32,
        lowest_seq: i32,
    },
    /// A COMMIT/ABORT marker must carry a newer epoch than the transaction's data.
    MarkerEpochNotNewer {
        producer_id: i64,
        offset: i64,
        partition: String,
        epoch: i16,
        current_epoch: i16,
    },
    /// A marker from a coordinator older than the last one seen for this producer
    /// (`ProducerAppendInfo.checkCoordinatorEpoch`).
    CoordinatorEpochFenced {
        producer_id: i64,
        offset: i64,
        partition: String,
        coordinator_epoch: i32,
        current_coordinator_epoch: i32,
    },
    /// A non-transactional batch while the producer has a transaction open here.
    ExpectedTransactionalWrite {
        producer_id: i64,
        offset: i64,
        partition: String,
    },
    /// The epoch check the leader runs before transaction verification.
    EpochTooOldForVerification {
        producer_id: i64,
        epoch: i16,
        current_epoch: i16,
    },
    /// A Produce request here carries exactly one batch per partition.
    OneBatchPerRequest,
    /// The batch's bytes failed the codec's checks.
    InvalidBatch(RecordError),
    /// A client sent a control batch.
    ControlRecordsFromClient,
    /// `LogValidator.validateKey`: a compacted topic refuses a record without a key.
    CompactedTopicWithoutKey { partition: String },
    /// `LogValidator.validateBatch`: a batch with a producer id needs a base sequence ≥ 0.
    InvalidSequence {
        base_sequence: i32,
        producer_id: i64,
        partition: String,
    },
    /// `max.message.bytes` exceeded.
    BatchTooLarge { size: u64, max_message_bytes: u64 },
    /// The batch would not fit in one segment (`segment.bytes`).
    BatchLargerThanSegment { size: u64, segment_bytes: u64 },
    /// The broker's disk refused the write.
    Storage(FsError),
    /// The leader does not know the transaction coordinator yet.
    NoTransactionCoordinator,
    /// A transactional batch arrived without its transactional.id.
    MissingTransactionalId,
    /// The coordinator did not add the partition to the transaction (verification failed).
    PartitionNotAdded,
    /// Verification ended in a retriable coordinator error (`underlying`), answered as
    /// NOT_ENOUGH_REPLICAS so that older clients retry without a metadata refresh
    /// (`ReplicaManager.appendRecords`' post-verification callback, Kafka 4.0).
    VerificationNotCompleted {
        underlying: crate::protocol::errors::Errors,
    },
    /// `acks=all` with fewer in-sync replicas than `min.insync.replicas`
    /// (`Partition.appendRecordsToLeader`, `checkEnoughReplicasReachOffset`).
    NotEnoughReplicas {
        isr: Vec<i32>,
        min_insync_replicas: i32,
    },
    /// A follower got batches that do not start at its LEO.
    OutOfOrderOffsets { expected: i64, got: i64 },
    /// The producer's own `TimeoutException`: the batch reached `delivery.timeout.ms`
    /// before an answer (`Sender.sendProducerData`, "Expiring N record(s) for …").
    DeliveryTimeout {
        records: usize,
        partition: String,
        elapsed_ms: i64,
    },
}
