//! The controller's metadata log, `__cluster_metadata` (KRaft; Kafka 4.0, mirror
//! commit 1eb7644: `QuorumController`, `ClusterControlManager`,
//! `ReplicationControlManager`, `ProducerIdControlManager`,
//! `ConfigurationControlManager`). Every decision the controller makes is written as
//! metadata records, one batch a write, each record at the next offset and the batch
//! at the controller's leader epoch: a broker registered, unfenced, fenced or in
//! controlled shutdown, a topic and its partitions created, a leader or ISR changed,
//! a producer-id block handed out, a topic config set, a topic removed.
//!
//! A write records what changed since the last one: the controller keeps the replay
//! of its own log ([`MetadataImage`]) and compares it with its state, so the log
//! replayed from empty always gives the cluster the live controller has
//! (`tests/metadata_log.rs`). Records of one decision come in Kafka's order: a fence
//! writes the partitions' changes, then the broker's; an unfence or a controlled
//! shutdown the broker's first (`ReplicationControlManager.handleBrokerFenced`,
//! `handleBrokerUnfenced`, `handleBrokerInControlledShutdown`); a new topic its
//! `TopicRecord`, its `ConfigRecord`s, then a `PartitionRecord` a partition.
//!
//! Simplified: a write is made only by the active controller (`crate::raft`: the
//! leader that reaches a majority of the voters), at its epoch, and commits at once;
//! the brokers are told at the moment they were told before (the records are the
//! controller's account of it, not yet what brokers replay). The log lives in
//! memory, not as record batches on a disk, and leaves out the records Kafka writes
//! for what the playground does not model (`FeatureLevelRecord`, the Raft control
//! records, `NoOpRecord`, snapshots). A broker epoch is the playground's count of
//! registrations, not the offset of the broker's `RegisterBrokerRecord`. The internal
//! topics get no `ConfigRecord`s (Kafka's broker asks for `cleanup.policy=compact` and
//! others when it has them created).
//!
//! The records, the image and the log are here, below the world that holds the log;
//! the controller's writes (`crate::controller`'s `metadata_writes`) compute them.

mod image;
mod record;

pub use image::{BrokerImage, MetadataImage, ReplayError, TopicImage};
pub use record::{
    topic_id, MetadataRecord, PartitionChange, FENCE, IN_CONTROLLED_SHUTDOWN, TOPIC_RESOURCE,
    UNFENCE,
};

use serde::Serialize;

/// The first controller's leader epoch: the Raft epoch its election won (a new active
/// controller writes at the epoch it won).
pub const CONTROLLER_EPOCH: i32 = 1;

/// One controller write: its records at consecutive offsets from `base_offset`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MetadataBatch {
    pub base_offset: i64,
    /// `partitionLeaderEpoch`: the controller's epoch when it wrote the batch.
    pub leader_epoch: i32,
    pub append_time_ms: i64,
    pub records: Vec<MetadataRecord>,
}

/// `__cluster_metadata-0` as the active controller writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MetadataLog {
    batches: Vec<MetadataBatch>,
    end_offset: i64,
    leader_epoch: i32,
    /// The replay of every record so far: what the next write is compared with.
    image: MetadataImage,
    /// Topic configs set by CreateTopics or IncrementalAlterConfigs and not yet
    /// written: (topic, key, value).
    staged_configs: Vec<(String, String, String)>,
}

impl Default for MetadataLog {
    fn default() -> Self {
        MetadataLog {
            batches: Vec::new(),
            end_offset: 0,
            leader_epoch: CONTROLLER_EPOCH,
            image: MetadataImage::default(),
            staged_configs: Vec::new(),
        }
    }
}

impl MetadataLog {
    pub fn batches(&self) -> &[MetadataBatch] {
        &self.batches
    }

    /// Every record with its offset, oldest first.
    pub fn records(&self) -> impl Iterator<Item = (i64, &MetadataRecord)> {
        self.batches
            .iter()
            .flat_map(|b| (b.base_offset..).zip(b.records.iter()).collect::<Vec<_>>())
    }

    /// The offset the next record gets.
    pub fn end_offset(&self) -> i64 {
        self.end_offset
    }

    /// What the records written so far add up to.
    pub fn image(&self) -> &MetadataImage {
        &self.image
    }

    /// Appends one write as a batch; a record that does not replay on the image is
    /// left out (none should: the image is what the records were computed from).
    pub(crate) fn append(&mut self, records: Vec<MetadataRecord>, now_ms: i64) {
        let mut kept = Vec::new();
        for record in records {
            if self.image.apply(&record).is_ok() {
                kept.push(record);
            }
        }
        if kept.is_empty() {
            return;
        }
        let count = i64::try_from(kept.len()).unwrap_or(i64::MAX);
        self.batches.push(MetadataBatch {
            base_offset: self.end_offset,
            leader_epoch: self.leader_epoch,
            append_time_ms: now_ms,
            records: kept,
        });
        self.end_offset = self.end_offset.saturating_add(count);
    }

    /// A new active controller writes its batches at the epoch it won.
    #[cfg(feature = "metadata-log")]
    pub(crate) fn set_leader_epoch(&mut self, epoch: i32) {
        self.leader_epoch = epoch;
    }

    /// A topic config set by a request, written with the next write.
    pub(crate) fn stage_config(&mut self, topic: &str, key: &str, value: &str) {
        self.staged_configs
            .push((topic.to_string(), key.to_string(), value.to_string()));
    }

    /// `kafka-dump-log.sh --cluster-metadata-decoder` over the log, the batches
    /// holding the last `last` records (all with `None`): a line a batch (its
    /// offsets, record count, the controller's epoch and the time of the write),
    /// then `| offset: N payload: {…}` a record. The decoder's byte-level fields
    /// (position, size, CRC, key and value sizes) are left out: the log is not kept
    /// as bytes.
    pub fn dump_lines(&self, last: Option<usize>) -> Vec<String> {
        let total = usize::try_from(self.end_offset).unwrap_or(usize::MAX);
        let first = last.map_or(0, |n| total.saturating_sub(n));
        let first = i64::try_from(first).unwrap_or(0);
        let mut lines = Vec::new();
        for batch in &self.batches {
            let count = i64::try_from(batch.records.len()).unwrap_or(0);
            let last_offset = batch.base_offset + count - 1;
            if last_offset < first {
                continue;
            }
            lines.push(format!(
                "baseOffset: {} lastOffset: {last_offset} count: {count} partitionLeaderEpoch: {} isTransactional: false isControl: false CreateTime: {}",
                batch.base_offset, batch.leader_epoch, batch.append_time_ms
            ));
            for (offset, record) in (batch.base_offset..).zip(&batch.records) {
                if offset >= first {
                    lines.push(format!("| offset: {offset} payload: {}", record.payload()));
                }
            }
        }
        lines
    }

    pub(crate) fn take_staged_configs(&mut self) -> Vec<(String, String, String)> {
        std::mem::take(&mut self.staged_configs)
    }
}
