//! What the consumer hands out: records to the application (`ConsumerRecord`) and, for
//! narration and the UI, what it did and why (`ConsumerEvent`).

use serde::{Deserialize, Serialize};

use super::OffsetResetStrategy;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::record::{ControlRecordType, RecordError};

/// A record handed to the application (`ConsumerRecord<byte[], byte[]>`). Simplified:
/// no headers, no timestamp type, no leader epoch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerRecord {
    pub topic_partition: TopicPartition,
    pub offset: i64,
    pub key: Option<Vec<u8>>,
    pub value: Option<Vec<u8>>,
    pub timestamp: i64,
}

impl ConsumerRecord {
    /// The record as text: `key:value`, or the value alone for a null key (lossy
    /// UTF-8; `null` for a null value), as it was sent (`crate::record::text`).
    pub fn value_text(&self) -> String {
        crate::record::record_text(self.key.as_deref(), self.value.as_deref())
    }
}

/// `c1@0 c2@1 …`: each record's value (lossy UTF-8) and offset, as the seed's example
/// prints what a consumer got.
pub fn summary_line(records: &[ConsumerRecord]) -> String {
    records
        .iter()
        .map(|r| format!("{}@{}", r.value_text(), r.offset))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the consumer did and which rule it applied, for narration and the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsumerEvent {
    /// A Fetch answer arrived for the position the consumer asked from.
    FetchReceived {
        tp: TopicPartition,
        fetch_offset: i64,
        high_watermark: i64,
        last_stable_offset: i64,
        bytes: usize,
        aborted_transactions: usize,
    },
    /// The answer is for an offset that is no longer the position (an old request):
    /// `FetchCollector` ignores it.
    StaleFetchDiscarded {
        tp: TopicPartition,
        fetch_offset: i64,
        position: Option<i64>,
    },
    /// The answer is for a partition that is not assigned.
    NotAssigned { tp: TopicPartition },
    /// The broker answered with an error; nothing is read, the position stays.
    FetchError { tp: TopicPartition, error: Errors },
    /// A Fetch, ListOffsets or OffsetsForLeaderEpoch answer says the consumer's
    /// metadata is behind (NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH for the
    /// `leader_epoch` it sent, …): it asks for new metadata and retries
    /// (`FetchCollector.handleInitializeErrors`, `OffsetFetcherUtils`, Kafka 4.0).
    MetadataUpdateRequested {
        tp: TopicPartition,
        api: String,
        error: Errors,
        leader_epoch: i32,
    },
    /// An aborted transaction begins at or before this batch's last offset: its producer
    /// joins the aborted set (`consumeAbortedTransactionsUpTo`).
    AbortedProducerAdded {
        tp: TopicPartition,
        producer_id: i64,
        first_offset: i64,
    },
    /// A transactional batch of a producer in the aborted set: skipped whole.
    BatchSkippedAborted {
        tp: TopicPartition,
        producer_id: i64,
        base_offset: i64,
        last_offset: i64,
    },
    /// An ABORT marker ends that producer's aborted transaction: it leaves the set.
    AbortMarkerSeen {
        tp: TopicPartition,
        producer_id: i64,
        offset: i64,
        /// Whether the producer was in the set (false: its aborted data was not part
        /// of this fetch).
        removed: bool,
    },
    /// A COMMIT/ABORT marker: never delivered, but the position moves past it.
    ControlBatchSkipped {
        tp: TopicPartition,
        kind: Option<ControlRecordType>,
        offset: i64,
    },
    /// Records of a batch that lie before the fetch position (the fetch started inside
    /// the batch).
    RecordsBeforePositionSkipped {
        tp: TopicPartition,
        base_offset: i64,
        count: usize,
        position: i64,
    },
    /// Records handed to the application by one `poll()`.
    RecordsDelivered {
        tp: TopicPartition,
        count: usize,
        first: i64,
        last: i64,
    },
    /// The last batch was cut short by the fetch size: it is read by the next fetch.
    PartialBatchIgnored {
        tp: TopicPartition,
        byte_position: usize,
        bytes: usize,
    },
    /// A batch failed its checks (`KafkaException: Record batch ... is invalid`): the
    /// consumer stops before it.
    CorruptBatch {
        tp: TopicPartition,
        offset: i64,
        error: CorruptBatch,
    },
    /// The fetch position moved forward.
    PositionAdvanced {
        tp: TopicPartition,
        from: i64,
        to: i64,
    },
    /// A partition without a position was given one (seek, committed offset or
    /// `auto.offset.reset`).
    PositionSet {
        tp: TopicPartition,
        offset: i64,
        reason: PositionReason,
    },
    /// `auto.offset.reset=none` and no committed offset (`NoOffsetForPartitionException`).
    NoOffsetForPartition { tp: TopicPartition },
    /// The broker answered OFFSET_OUT_OF_RANGE for the position: the log no longer (or
    /// not yet) holds it. `reset` is the policy that picks a new position, or None when
    /// there is none and `poll()` throws `OffsetOutOfRangeException`.
    OffsetOutOfRange {
        tp: TopicPartition,
        fetch_offset: i64,
        log_start_offset: i64,
        reset: Option<OffsetResetStrategy>,
    },
    /// KIP-320 (Kafka 4.0's `SubscriptionState.maybeCompleteValidation`): after the
    /// partition's leader changed, the new leader's end offset for `epoch`, the leader
    /// epoch of the last record read (OffsetsForLeaderEpoch), is below the position:
    /// the log was truncated under the consumer. With a reset policy the position goes
    /// back to `end_offset`, the first offset known to diverge, or, when the leader
    /// cannot place the epoch (`end_offset` -1), is reset by `auto.offset.reset`; with
    /// none (`reset` None) `poll()` throws `LogTruncationException`.
    TruncationDetected {
        tp: TopicPartition,
        position: i64,
        epoch: i32,
        end_epoch: i32,
        end_offset: i64,
        reset: Option<OffsetResetStrategy>,
    },
    /// `poll()` threw: the application sees the exception, records already delivered
    /// by earlier polls stay delivered.
    PollThrew { exception: ConsumerException },
}

/// What `poll()` throws (Kafka's exception classes and their values).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsumerException {
    /// `NoOffsetForPartitionException`: no position, no committed offset, and
    /// `auto.offset.reset=none`.
    NoOffsetForPartition { partitions: Vec<TopicPartition> },
    /// `OffsetOutOfRangeException`: the position is out of range and there is no reset
    /// policy.
    OffsetOutOfRange { tp: TopicPartition, offset: i64 },
    /// `LogTruncationException` (an `OffsetOutOfRangeException`): the log was truncated
    /// below the position and there is no reset policy; `divergent` is the first offset
    /// known to diverge and its leader epoch, when the leader could say.
    LogTruncation {
        tp: TopicPartition,
        offset: i64,
        divergent: Option<(i64, i32)>,
    },
}

impl ConsumerException {
    /// Kafka's class name, the same in every language.
    pub fn class_name(&self) -> &'static str {
        match self {
            ConsumerException::NoOffsetForPartition { .. } => "NoOffsetForPartitionException",
            ConsumerException::OffsetOutOfRange { .. } => "OffsetOutOfRangeException",
            ConsumerException::LogTruncation { .. } => "LogTruncationException",
        }
    }
}

/// Why a fetched batch cannot be read (`KafkaException: Record batch ... is invalid`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CorruptBatch {
    /// The header's batch size is below the smallest possible batch.
    SizeTooSmall { size: i32, minimum: usize },
    /// The codec refused the bytes.
    Invalid(RecordError),
}

/// Where a partition's first position came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PositionReason {
    /// `seek()`.
    Seek,
    /// The group's committed offset.
    Committed,
    /// `auto.offset.reset=earliest`: the log start offset.
    ResetEarliest,
    /// `auto.offset.reset=latest`: the end offset.
    ResetLatest,
}
