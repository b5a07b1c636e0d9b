//! The consumer's fetch path as a sans-IO state machine: Kafka's `KafkaConsumer` with its
//! `SubscriptionState` (positions), `FetchCollector` (which fetch answers count) and
//! `CompletedFetch` (walking the fetched batches).
//!
//! The broker does not filter anything for a consumer: it sends the segment's bytes as
//! they are, up to the high watermark (`read_uncommitted`) or the last stable offset
//! (`read_committed`), and for `read_committed` it adds the list of aborted transactions
//! that overlap the fetched range. Everything else happens here, batch by batch:
//!
//! ```text
//!  for each batch, in log order:
//!    read_committed and the batch has a producer id?
//!      move every aborted transaction with firstOffset <= batch.lastOffset
//!        into the "aborted producers" set
//!      ABORT marker of producer P?      -> remove P from the set
//!      transactional batch of P in set? -> skip it whole, position = its next offset
//!    every record at or after the position:
//!      control record?  -> never shown to the application, position moves past it
//!      data record      -> delivered, position = its offset + 1
//!  no more batches -> position = the last batch's next offset
//! ```
//!
//! Simplified: partitions are assigned by hand (no group membership), one fetch is
//! answered for one partition, there is no fetch session, no `check.crcs=false`, no
//! deserializers (keys and values stay bytes), no leader epochs, and only manual offset
//! commits (see [`crate::coordinator::group`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::config_error::{ConfigError, ConfigRule, ConfigScope};
use crate::log::{FetchIsolation, TopicPartition};
use crate::protocol::errors::Errors;
use crate::record::batch::BATCH_LENGTH_OFFSET;
use crate::record::{
    ControlRecordType, RecordBatch, RecordError, LOG_OVERHEAD, RECORD_BATCH_OVERHEAD,
};
use crate::util::ordered::CollectSorted;

/// Kafka's `IsolationLevel`: which records a consumer may see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IsolationLevel {
    /// Everything up to the high watermark, aborted transactions included. Kafka's
    /// default (`ConsumerConfig.DEFAULT_ISOLATION_LEVEL`).
    #[default]
    ReadUncommitted,
    /// Only committed data, and only up to the last stable offset.
    ReadCommitted,
}

impl IsolationLevel {
    /// The config value: `read_uncommitted` or `read_committed`.
    pub fn name(self) -> &'static str {
        match self {
            IsolationLevel::ReadUncommitted => "read_uncommitted",
            IsolationLevel::ReadCommitted => "read_committed",
        }
    }

    /// The byte a Fetch request carries (`IsolationLevel.id()`): 0 or 1.
    pub fn id(self) -> i8 {
        match self {
            IsolationLevel::ReadUncommitted => 0,
            IsolationLevel::ReadCommitted => 1,
        }
    }

    /// Parses the config value (exact, lower case, as Kafka's validator).
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "read_uncommitted" => Some(IsolationLevel::ReadUncommitted),
            "read_committed" => Some(IsolationLevel::ReadCommitted),
            _ => None,
        }
    }

    /// How far the broker reads for this consumer (`FetchIsolation.of`).
    pub fn fetch_isolation(self) -> FetchIsolation {
        match self {
            IsolationLevel::ReadUncommitted => FetchIsolation::HighWatermark,
            IsolationLevel::ReadCommitted => FetchIsolation::TxnCommitted,
        }
    }
}

impl std::fmt::Display for IsolationLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `auto.offset.reset`: where a partition without a position starts. Mirrors Kafka's
/// `OffsetResetStrategy` (without 4.x's `by_duration:`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OffsetResetStrategy {
    /// The end: only records written from now on (Kafka's default).
    #[default]
    Latest,
    /// The log start offset: everything still on disk.
    Earliest,
    /// No reset: the application must seek (`NoOffsetForPartitionException`).
    None,
}

impl OffsetResetStrategy {
    pub fn name(self) -> &'static str {
        match self {
            OffsetResetStrategy::Latest => "latest",
            OffsetResetStrategy::Earliest => "earliest",
            OffsetResetStrategy::None => "none",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "latest" => Some(OffsetResetStrategy::Latest),
            "earliest" => Some(OffsetResetStrategy::Earliest),
            "none" => Some(OffsetResetStrategy::None),
            _ => None,
        }
    }
}

/// The consumer settings that matter for reading transactions (`ConsumerConfig`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerConfig {
    pub client_id: String,
    /// `group.id`: needed only to commit or fetch offsets.
    pub group_id: Option<String>,
    /// `isolation.level` (default `read_uncommitted`).
    pub isolation_level: IsolationLevel,
    /// `auto.offset.reset` (default `latest`).
    pub auto_offset_reset: OffsetResetStrategy,
    /// `max.poll.records` (default 500): at most this many records per `poll()`.
    pub max_poll_records: u32,
    /// `enable.auto.commit`. Kafka's default is true; we only model manual commits,
    /// so this is always false.
    pub enable_auto_commit: bool,
}

/// Kafka's `ConsumerConfig.DEFAULT_MAX_POLL_RECORDS`.
pub const DEFAULT_MAX_POLL_RECORDS: u32 = 500;

impl ConsumerConfig {
    pub fn new(client_id: &str) -> Self {
        ConsumerConfig {
            client_id: client_id.to_string(),
            group_id: None,
            isolation_level: IsolationLevel::default(),
            auto_offset_reset: OffsetResetStrategy::default(),
            max_poll_records: DEFAULT_MAX_POLL_RECORDS,
            enable_auto_commit: false,
        }
    }

    /// Applies `key=value` settings with Kafka's names. Errors read like Kafka's
    /// `ConfigException`: `Invalid value X for configuration K: ...`.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        client_id: &str,
        pairs: &[(K, V)],
    ) -> Result<Self, ConfigError> {
        let mut c = ConsumerConfig::new(client_id);
        for (k, v) in pairs {
            let (k, v) = (k.as_ref(), v.as_ref());
            let invalid = |rule: ConfigRule| ConfigError::invalid(k, v, Some(rule));
            match k {
                "isolation.level" => {
                    c.isolation_level = IsolationLevel::parse(v).ok_or_else(|| {
                        invalid(ConfigRule::OneOf(&["read_committed", "read_uncommitted"]))
                    })?
                }
                "auto.offset.reset" => {
                    c.auto_offset_reset = OffsetResetStrategy::parse(v).ok_or_else(|| {
                        invalid(ConfigRule::OneOf(&["latest", "earliest", "none"]))
                    })?
                }
                "max.poll.records" => {
                    c.max_poll_records = v
                        .parse::<i32>()
                        .ok()
                        .and_then(|n| u32::try_from(n).ok())
                        .filter(|n| *n >= 1)
                        .ok_or_else(|| invalid(ConfigRule::AtLeast(1)))?
                }
                "enable.auto.commit" => match v {
                    "false" => c.enable_auto_commit = false,
                    "true" => return Err(invalid(ConfigRule::AutoCommitNotSimulated)),
                    _ => return Err(invalid(ConfigRule::Boolean)),
                },
                "group.id" => c.group_id = Some(v.to_string()),
                "client.id" => c.client_id = v.to_string(),
                other => {
                    return Err(ConfigError::Unknown {
                        scope: ConfigScope::Consumer,
                        key: other.to_string(),
                    })
                }
            }
        }
        Ok(c)
    }
}

/// One entry of a Fetch response's `AbortedTransactions` (`FetchResponseData.AbortedTransaction`):
/// a transaction of `producer_id` that began at `first_offset` and was aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AbortedTransaction {
    pub producer_id: i64,
    pub first_offset: i64,
}

/// One partition of a Fetch response (`FetchResponseData.PartitionData`), independent of
/// how the broker is built. Simplified: no preferred read replica, no diverging epoch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FetchPartitionData {
    pub error: Errors,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    pub log_start_offset: i64,
    /// Only for `read_committed`; None (not empty) when there is nothing to list.
    pub aborted_transactions: Option<Vec<AbortedTransaction>>,
    /// Raw v2 batches, as the broker read them from the segment (the last one may be cut
    /// short by the fetch size).
    pub records: Vec<u8>,
}

impl FetchPartitionData {
    /// A successful answer carrying `records`, with no aborted transactions listed.
    pub fn new(high_watermark: i64, last_stable_offset: i64, records: Vec<u8>) -> Self {
        FetchPartitionData {
            error: Errors::None,
            high_watermark,
            last_stable_offset,
            log_start_offset: 0,
            aborted_transactions: None,
            records,
        }
    }

    /// An error answer: no records, offsets unknown (-1).
    pub fn error(error: Errors) -> Self {
        FetchPartitionData {
            error,
            high_watermark: -1,
            last_stable_offset: -1,
            log_start_offset: -1,
            aborted_transactions: None,
            records: Vec::new(),
        }
    }
}

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
    /// The value as text (lossy UTF-8; `null` for a null value).
    pub fn value_text(&self) -> String {
        match &self.value {
            Some(v) => String::from_utf8_lossy(v).into_owned(),
            None => "null".to_string(),
        }
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

/// What to do with the next batch, found without decoding it.
enum NextBatch {
    Batch(Box<RecordBatch>),
    /// The bytes end inside a batch (Kafka's `ByteBufferLogInputStream` returns null).
    Partial,
    Corrupt(CorruptBatch),
    End,
}

/// The fetched data of one partition being walked record by record. Mirrors Kafka's
/// `CompletedFetch` (`nextFetchedRecord`, `fetchRecords`, the aborted-transaction
/// queue and the aborted-producer set). Simplified: batches are decoded one at a time
/// from the raw bytes with our v2 codec (CRC always checked), and the events narrate
/// each decision.
#[derive(Clone, Debug)]
pub struct CompletedFetch {
    pub tp: TopicPartition,
    pub isolation_level: IsolationLevel,
    records: Vec<u8>,
    /// Byte position of the next batch in `records`.
    byte_position: usize,
    /// Aborted transactions not yet reached, sorted by first offset (Kafka's priority queue).
    aborted_transactions: Vec<AbortedTransaction>,
    aborted_producer_ids: BTreeSet<i64>,
    current_batch: Option<RecordBatch>,
    /// Index of the next record of `current_batch` to look at; None when the batch's
    /// records are not to be iterated (skipped or finished).
    next_record: Option<usize>,
    next_fetch_offset: i64,
    consumed: bool,
    events: Vec<ConsumerEvent>,
}

impl CompletedFetch {
    /// Prepares a fetch answer read from `fetch_offset`.
    pub fn new(
        tp: TopicPartition,
        isolation_level: IsolationLevel,
        fetch_offset: i64,
        data: FetchPartitionData,
    ) -> Self {
        let mut aborted = data.aborted_transactions.unwrap_or_default();
        crate::util::ordered::sort_by(&mut aborted, |a, b| {
            (a.first_offset, a.producer_id).cmp(&(b.first_offset, b.producer_id))
        });
        CompletedFetch {
            tp,
            isolation_level,
            records: data.records,
            byte_position: 0,
            aborted_transactions: aborted,
            aborted_producer_ids: BTreeSet::new(),
            current_batch: None,
            next_record: None,
            next_fetch_offset: fetch_offset,
            consumed: false,
            events: Vec::new(),
        }
    }

    /// Where the next fetch starts once this one is read (Kafka's `nextFetchOffset`).
    pub fn next_fetch_offset(&self) -> i64 {
        self.next_fetch_offset
    }

    /// True once every batch has been walked (or a corrupt one stopped the walk).
    pub fn is_consumed(&self) -> bool {
        self.consumed
    }

    /// The producers whose transactional batches are being skipped right now.
    pub fn aborted_producer_ids(&self) -> &BTreeSet<i64> {
        &self.aborted_producer_ids
    }

    /// The events so far, leaving none behind.
    pub fn take_events(&mut self) -> Vec<ConsumerEvent> {
        std::mem::take(&mut self.events)
    }

    /// Up to `max_records` records for the application (`CompletedFetch.fetchRecords`).
    pub fn fetch_records(&mut self, max_records: usize) -> Vec<ConsumerRecord> {
        let mut out = Vec::new();
        while out.len() < max_records {
            let Some(record) = self.next_fetched_record() else {
                break;
            };
            self.next_fetch_offset = record.offset.saturating_add(1);
            out.push(record);
        }
        if let (Some(first), Some(last)) = (out.first(), out.last()) {
            self.events.push(ConsumerEvent::RecordsDelivered {
                tp: self.tp.clone(),
                count: out.len(),
                first: first.offset,
                last: last.offset,
            });
        }
        out
    }

    /// Kafka's `nextFetchedRecord`: the next record the application may see, or None
    /// when the fetch is used up.
    fn next_fetched_record(&mut self) -> Option<ConsumerRecord> {
        if self.consumed {
            return None;
        }
        loop {
            if let (Some(batch), Some(index)) = (&self.current_batch, self.next_record) {
                let Some(record) = batch.records.get(index) else {
                    self.next_record = None;
                    continue;
                };
                self.next_record = Some(index.saturating_add(1));
                let offset = batch.record_offset(record);
                // Records before the position are skipped (the fetch began mid-batch).
                if offset < self.next_fetch_offset {
                    continue;
                }
                if !batch.is_control() {
                    return Some(ConsumerRecord {
                        topic_partition: self.tp.clone(),
                        offset,
                        key: record.key.clone(),
                        value: record.value.clone(),
                        timestamp: batch.record_timestamp(record),
                    });
                }
                // Control records never reach the application; the position moves past.
                let kind = record
                    .key
                    .as_deref()
                    .and_then(|k| ControlRecordType::decode_key(k).ok());
                self.events.push(ConsumerEvent::ControlBatchSkipped {
                    tp: self.tp.clone(),
                    kind,
                    offset,
                });
                self.next_fetch_offset = offset.saturating_add(1);
                continue;
            }

            let batch = match self.next_batch() {
                NextBatch::Batch(b) => *b,
                NextBatch::End | NextBatch::Partial => {
                    // Message format v2 keeps a batch's last offset even when compaction
                    // removed its last record, so the next fetch starts after the batch.
                    if let Some(b) = &self.current_batch {
                        self.next_fetch_offset = b.next_offset();
                    }
                    self.consumed = true;
                    return None;
                }
                NextBatch::Corrupt(error) => {
                    self.events.push(ConsumerEvent::CorruptBatch {
                        tp: self.tp.clone(),
                        offset: self.next_fetch_offset,
                        error,
                    });
                    self.current_batch = None;
                    self.consumed = true;
                    return None;
                }
            };

            let before = batch
                .records
                .iter()
                .filter(|r| batch.record_offset(r) < self.next_fetch_offset)
                .count();
            let aborted = self.isolation_level == IsolationLevel::ReadCommitted
                && batch.has_producer_id()
                && self.apply_aborted_transactions(&batch);
            if aborted {
                self.events.push(ConsumerEvent::BatchSkippedAborted {
                    tp: self.tp.clone(),
                    producer_id: batch.producer_id,
                    base_offset: batch.base_offset,
                    last_offset: batch.last_offset(),
                });
                self.next_fetch_offset = batch.next_offset();
                self.current_batch = Some(batch);
                self.next_record = None;
                continue;
            }
            if before > 0 && !batch.is_control() {
                self.events
                    .push(ConsumerEvent::RecordsBeforePositionSkipped {
                        tp: self.tp.clone(),
                        base_offset: batch.base_offset,
                        count: before,
                        position: self.next_fetch_offset,
                    });
            }
            self.current_batch = Some(batch);
            self.next_record = Some(0);
        }
    }

    /// The read_committed bookkeeping for a batch with a producer id; true when the
    /// batch belongs to an aborted transaction and must be skipped.
    fn apply_aborted_transactions(&mut self, batch: &RecordBatch) -> bool {
        // Every aborted transaction that began at or before this batch's last offset:
        // its producer joins the aborted set.
        let last_offset = batch.last_offset();
        let reached = self
            .aborted_transactions
            .iter()
            .take_while(|a| a.first_offset <= last_offset)
            .count();
        for a in self.aborted_transactions.drain(..reached) {
            self.aborted_producer_ids.insert(a.producer_id);
            self.events.push(ConsumerEvent::AbortedProducerAdded {
                tp: self.tp.clone(),
                producer_id: a.producer_id,
                first_offset: a.first_offset,
            });
        }
        let producer_id = batch.producer_id;
        if contains_abort_marker(batch) {
            let removed = self.aborted_producer_ids.remove(&producer_id);
            self.events.push(ConsumerEvent::AbortMarkerSeen {
                tp: self.tp.clone(),
                producer_id,
                offset: batch.base_offset,
                removed,
            });
            false
        } else {
            batch.is_transactional() && self.aborted_producer_ids.contains(&producer_id)
        }
    }

    /// The next whole batch in the bytes. Like `ByteBufferLogInputStream.nextBatch`, an
    /// incomplete batch at the end is not an error: the fetch size cut it.
    fn next_batch(&mut self) -> NextBatch {
        let rest = self.records.get(self.byte_position..).unwrap_or(&[]);
        if rest.is_empty() {
            return NextBatch::End;
        }
        // baseOffset(8) + batchLength(4) + partitionLeaderEpoch(4) + magic(1).
        const HEADER_SIZE_UP_TO_MAGIC: usize = 17;
        let batch_length = rest
            .get(BATCH_LENGTH_OFFSET..LOG_OVERHEAD)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(i32::from_be_bytes);
        let total = match batch_length {
            Some(length) if rest.len() >= HEADER_SIZE_UP_TO_MAGIC => usize::try_from(length)
                .ok()
                .and_then(|l| l.checked_add(LOG_OVERHEAD))
                .filter(|t| *t >= RECORD_BATCH_OVERHEAD)
                .ok_or(length),
            // Too few bytes to even read the header: cut by the fetch size.
            _ => Ok(usize::MAX),
        };
        let total = match total {
            Ok(total) => total,
            Err(length) => {
                return NextBatch::Corrupt(CorruptBatch::SizeTooSmall {
                    size: length,
                    minimum: RECORD_BATCH_OVERHEAD - LOG_OVERHEAD,
                })
            }
        };
        if rest.len() < total {
            let (byte_position, bytes) = (self.byte_position, rest.len());
            self.events.push(ConsumerEvent::PartialBatchIgnored {
                tp: self.tp.clone(),
                byte_position,
                bytes,
            });
            self.byte_position = self.records.len();
            return NextBatch::Partial;
        }
        match RecordBatch::decode(rest) {
            Ok((batch, used)) => {
                self.byte_position = self.byte_position.saturating_add(used.max(1));
                NextBatch::Batch(Box::new(batch))
            }
            Err(e) => NextBatch::Corrupt(CorruptBatch::Invalid(e)),
        }
    }
}

/// Kafka's `CompletedFetch.containsAbortMarker`: a control batch whose first record's
/// key says ABORT.
fn contains_abort_marker(batch: &RecordBatch) -> bool {
    batch.is_control()
        && batch
            .records
            .first()
            .and_then(|r| r.key.as_deref())
            .and_then(|k| ControlRecordType::decode_key(k).ok())
            == Some(ControlRecordType::Abort)
}

/// One assigned partition (Kafka's `SubscriptionState.TopicPartitionState`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionState {
    /// The next offset to read; None until seek, a committed offset or a reset.
    pub position: Option<i64>,
    pub high_watermark: Option<i64>,
    pub last_stable_offset: Option<i64>,
    pub log_start_offset: Option<i64>,
    /// The offset of the fetch request in flight, if any.
    pub fetch_in_flight: Option<i64>,
}

/// A consumer client. Mirrors the fetch side of Kafka's `KafkaConsumer`
/// (`SubscriptionState` + `FetchCollector` + `CompletedFetch`). Simplified: manual
/// assignment only, one fetch answer is read completely at once (in `poll()`-sized
/// slices of `max.poll.records`), and delivered records are kept in `delivered` so a
/// lesson can print everything the application saw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Consumer {
    pub config: ConsumerConfig,
    pub assignment: BTreeMap<TopicPartition, PartitionState>,
    pub delivered: Vec<ConsumerRecord>,
}

impl Consumer {
    pub fn new(config: ConsumerConfig) -> Self {
        Consumer {
            config,
            assignment: BTreeMap::new(),
            delivered: Vec::new(),
        }
    }

    pub fn isolation_level(&self) -> IsolationLevel {
        self.config.isolation_level
    }

    /// `assign()`: read exactly these partitions. Kept partitions keep their position;
    /// new ones start without one.
    pub fn assign(&mut self, partitions: &[TopicPartition]) {
        let keep = partitions.iter().collect_set();
        self.assignment.retain(|tp, _| keep.contains(tp));
        for tp in partitions {
            self.assignment.entry(tp.clone()).or_default();
        }
    }

    pub fn assigned(&self) -> Vec<TopicPartition> {
        self.assignment.keys().cloned().collect()
    }

    /// `seek()`: read from `offset` next. Ignored (None) for a partition not assigned.
    pub fn seek(&mut self, tp: &TopicPartition, offset: i64) -> Option<ConsumerEvent> {
        let state = self.assignment.get_mut(tp)?;
        // A fetch still in flight is not cancelled: its answer no longer matches the
        // position and will be discarded as stale.
        state.position = Some(offset);
        Some(ConsumerEvent::PositionSet {
            tp: tp.clone(),
            offset,
            reason: PositionReason::Seek,
        })
    }

    /// Gives a partition without a position its start: the group's committed offset if
    /// there is one, else `auto.offset.reset` applied to the partition's log start offset
    /// and end offset (the high watermark, or the LSO for read_committed, as ListOffsets
    /// answers). Partitions that already have a position are left alone.
    pub fn initialize_position(
        &mut self,
        tp: &TopicPartition,
        committed: Option<i64>,
        log_start_offset: i64,
        end_offset: i64,
    ) -> Option<ConsumerEvent> {
        let strategy = self.config.auto_offset_reset;
        let state = self.assignment.get_mut(tp)?;
        if state.position.is_some() {
            return None;
        }
        let (offset, reason) = match (committed, strategy) {
            (Some(c), _) if c >= 0 => (c, PositionReason::Committed),
            (_, OffsetResetStrategy::Earliest) => (log_start_offset, PositionReason::ResetEarliest),
            (_, OffsetResetStrategy::Latest) => (end_offset, PositionReason::ResetLatest),
            (_, OffsetResetStrategy::None) => {
                return Some(ConsumerEvent::NoOffsetForPartition { tp: tp.clone() })
            }
        };
        state.position = Some(offset);
        Some(ConsumerEvent::PositionSet {
            tp: tp.clone(),
            offset,
            reason,
        })
    }

    /// The next offset this consumer will read from the partition (`position()`).
    pub fn position(&self, tp: &TopicPartition) -> Option<i64> {
        self.assignment.get(tp)?.position
    }

    pub fn partition_state(&self, tp: &TopicPartition) -> Option<&PartitionState> {
        self.assignment.get(tp)
    }

    /// Records behind the end this consumer may read: the LSO for read_committed, the
    /// high watermark otherwise (`SubscriptionState.partitionLag`).
    pub fn lag(&self, tp: &TopicPartition) -> Option<i64> {
        let state = self.assignment.get(tp)?;
        let end = match self.config.isolation_level {
            IsolationLevel::ReadCommitted => state.last_stable_offset?,
            IsolationLevel::ReadUncommitted => state.high_watermark?,
        };
        Some(end.saturating_sub(state.position?))
    }

    /// Every record delivered to the application so far, in delivery order.
    pub fn records(&self) -> &[ConsumerRecord] {
        &self.delivered
    }

    /// The positions to commit for the group (what a read-process-write loop passes to
    /// `sendOffsetsToTransaction`).
    pub fn positions(&self) -> BTreeMap<TopicPartition, i64> {
        self.assignment
            .iter()
            .filter_map(|(tp, s)| Some((tp.clone(), s.position?)))
            .collect_map()
    }

    /// The Fetch to send for a partition: its position and the isolation level. None
    /// when the partition is not assigned or has no position yet.
    pub fn fetch_request(&mut self, tp: &TopicPartition) -> Option<(i64, IsolationLevel)> {
        let isolation = self.config.isolation_level;
        let state = self.assignment.get_mut(tp)?;
        let offset = state.position?;
        state.fetch_in_flight = Some(offset);
        Some((offset, isolation))
    }

    /// Reads a Fetch answer for `tp`: all records the application gets from it (in
    /// `max.poll.records` slices) and what happened. The position ends after the last
    /// batch processed.
    pub fn on_fetch_response(
        &mut self,
        tp: &TopicPartition,
        data: FetchPartitionData,
    ) -> (Vec<ConsumerRecord>, Vec<ConsumerEvent>) {
        let isolation = self.config.isolation_level;
        let max = usize::try_from(self.config.max_poll_records.max(1)).unwrap_or(usize::MAX);
        let mut events = Vec::new();
        let Some(state) = self.assignment.get_mut(tp) else {
            events.push(ConsumerEvent::NotAssigned { tp: tp.clone() });
            return (Vec::new(), events);
        };
        let fetch_offset = state.fetch_in_flight.take().or(state.position);
        let (Some(fetch_offset), Some(position)) = (fetch_offset, state.position) else {
            events.push(ConsumerEvent::StaleFetchDiscarded {
                tp: tp.clone(),
                fetch_offset: fetch_offset.unwrap_or(-1),
                position: state.position,
            });
            return (Vec::new(), events);
        };
        if fetch_offset != position {
            events.push(ConsumerEvent::StaleFetchDiscarded {
                tp: tp.clone(),
                fetch_offset,
                position: Some(position),
            });
            return (Vec::new(), events);
        }
        if data.error != Errors::None {
            events.push(ConsumerEvent::FetchError {
                tp: tp.clone(),
                error: data.error,
            });
            return (Vec::new(), events);
        }
        // FetchCollector.updatePartitionState: only non-negative values count.
        if data.high_watermark >= 0 {
            state.high_watermark = Some(data.high_watermark);
        }
        if data.last_stable_offset >= 0 {
            state.last_stable_offset = Some(data.last_stable_offset);
        }
        if data.log_start_offset >= 0 {
            state.log_start_offset = Some(data.log_start_offset);
        }
        events.push(ConsumerEvent::FetchReceived {
            tp: tp.clone(),
            fetch_offset,
            high_watermark: data.high_watermark,
            last_stable_offset: data.last_stable_offset,
            bytes: data.records.len(),
            aborted_transactions: data.aborted_transactions.as_ref().map_or(0, Vec::len),
        });

        let mut fetch = CompletedFetch::new(tp.clone(), isolation, fetch_offset, data);
        let mut delivered = Vec::new();
        let mut position = position;
        loop {
            // One poll(): at most max.poll.records records. An empty slice means the
            // fetch is used up (next_fetched_record only ends at the end of the bytes).
            let records = fetch.fetch_records(max);
            events.extend(fetch.take_events());
            // The position only moves forward (FetchCollector.fetchRecords).
            if fetch.next_fetch_offset() > position {
                events.push(ConsumerEvent::PositionAdvanced {
                    tp: tp.clone(),
                    from: position,
                    to: fetch.next_fetch_offset(),
                });
                position = fetch.next_fetch_offset();
            }
            delivered.extend(records);
            if fetch.is_consumed() {
                break;
            }
        }
        state.position = Some(position);
        self.delivered.extend(delivered.iter().cloned());
        (delivered, events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_defaults_and_errors() {
        let c = ConsumerConfig::new("c");
        assert_eq!(c.isolation_level, IsolationLevel::ReadUncommitted);
        assert_eq!(c.auto_offset_reset, OffsetResetStrategy::Latest);
        assert_eq!(c.max_poll_records, 500);
        let e =
            ConsumerConfig::from_pairs("c", &[("isolation.level", "serializable")]).unwrap_err();
        assert_eq!(
            e,
            ConfigError::invalid(
                "isolation.level",
                "serializable",
                Some(ConfigRule::OneOf(&["read_committed", "read_uncommitted"]))
            )
        );
        assert_eq!(
            ConsumerConfig::from_pairs("c", &[("enable.auto.commit", "true")]).unwrap_err(),
            ConfigError::invalid(
                "enable.auto.commit",
                "true",
                Some(ConfigRule::AutoCommitNotSimulated)
            )
        );
        assert!(ConsumerConfig::from_pairs("c", &[("max.poll.records", "0")]).is_err());
    }
}
