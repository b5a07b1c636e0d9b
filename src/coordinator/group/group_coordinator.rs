//! The offsets part of the group coordinator, as a sans-IO state machine.
//!
//! Committed offsets live in memory and in `__consumer_offsets`; the memory is always a
//! replay of the log. A plain OffsetCommit is written and applied at once. A
//! TxnOffsetCommit is written inside the producer's transaction and stays *pending* —
//! invisible to OffsetFetch — until the transaction's COMMIT marker (materialise) or
//! ABORT marker (drop) reaches the offsets partition. That is how a read-process-write
//! application commits "what I consumed" atomically with "what I produced".

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

use serde::Serialize;

use super::record::{GroupRecordError, OffsetCommitKey, OffsetCommitValue};
use super::DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS;
use crate::coordinator::internal_topics::partition_for;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::record::{ControlRecordType, RecordBatch, RecordError, NO_PRODUCER_ID};
use crate::util::ordered::CollectSorted;

#[cfg(test)]
mod tests;

/// Where the group coordinator writes: its `__consumer_offsets` partitions.
pub use crate::coordinator::internal_topics::InternalLogWriter as OffsetLogWriter;

/// A committed (or pending) offset. Mirrors Kafka's group-coordinator
/// `OffsetAndMetadata`. Simplified: no expire timestamp; `commit_order` stands in for
/// Kafka's `recordOffset` (the position of the record in the offsets partition): both
/// only serve to tell which of two commits of a partition was written later.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OffsetAndMetadata {
    pub committed_offset: i64,
    pub leader_epoch: Option<i32>,
    pub metadata: String,
    pub commit_timestamp_ms: i64,
    pub commit_order: u64,
}

/// One partition of an OffsetCommit or TxnOffsetCommit request
/// (`OffsetCommitRequestPartition`, trimmed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OffsetCommitEntry {
    pub topic_partition: TopicPartition,
    pub offset: i64,
    pub leader_epoch: Option<i32>,
    pub metadata: String,
}

impl OffsetCommitEntry {
    /// An offset with no leader epoch and empty metadata.
    pub fn new(topic_partition: TopicPartition, offset: i64) -> Self {
        OffsetCommitEntry {
            topic_partition,
            offset,
            leader_epoch: None,
            metadata: String::new(),
        }
    }
}

/// The records of a TxnOffsetCommit: the caller appends them to `partition` of
/// `__consumer_offsets` as ONE transactional batch with this producer id and epoch, so
/// the transaction's marker decides their fate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TxnOffsetCommitRecords {
    pub partition: i32,
    pub producer_id: i64,
    pub producer_epoch: i16,
    /// (key, value) bytes, one per committed partition.
    pub records: Vec<(Vec<u8>, Vec<u8>)>,
}

/// One partition of an OffsetFetch answer (`OffsetFetchResponsePartitions`):
/// offset -1, epoch -1 and empty metadata when nothing is committed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OffsetFetchPartition {
    pub topic_partition: TopicPartition,
    pub committed_offset: i64,
    pub committed_leader_epoch: i32,
    pub metadata: String,
    pub error: Errors,
}

/// What a transaction marker did to the pending offsets of its producer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TxnCompletion {
    /// (group, partition, offset) now committed.
    pub materialized: Vec<(String, TopicPartition, i64)>,
    /// Not materialised: a plain commit written later already holds the partition.
    pub superseded: Vec<(String, TopicPartition, i64)>,
    /// Dropped by an ABORT.
    pub dropped: Vec<(String, TopicPartition, i64)>,
}

/// What replaying an offsets partition found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LoadSummary {
    pub offset_commits: usize,
    pub tombstones: usize,
    pub markers: usize,
    /// Records of other types (group metadata, …), skipped as Kafka's loader does.
    pub unknown_records: usize,
}

type GroupOffsets = SortedMap<String, SortedMap<TopicPartition, OffsetAndMetadata>>;

/// Why a `__consumer_offsets` partition's bytes could not be loaded: a batch that does
/// not decode, or an offset-commit record that does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupLoadError {
    Batch(RecordError),
    Record(GroupRecordError),
}

impl std::fmt::Display for GroupLoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GroupLoadError::Batch(e) => e.fmt(f),
            GroupLoadError::Record(e) => e.fmt(f),
        }
    }
}

/// Kafka's group coordinator: `OffsetMetadataManager` (commit, fetch, replay of
/// records and transaction markers), the loading loop of `CoordinatorLoaderImpl`, and
/// the classic groups' membership of `GroupMetadataManager` (`membership.rs`).
/// Simplified: one instance serves every offsets partition, membership is not written
/// to the log (a reload forgets it), no expiration, no snapshot/revert of a failed
/// write, no `offset.metadata.max.bytes` check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupCoordinator {
    /// `offsets.topic.num.partitions`.
    pub(super) num_partitions: i32,
    /// Committed offsets (Kafka's `offsets` store).
    offsets: GroupOffsets,
    /// Offsets of open transactions, by producer id (`pendingTransactionalOffsets`).
    pending: SortedMap<i64, GroupOffsets>,
    /// Which producers have pending offsets in each group (`openTransactionsByGroup`).
    open_transactions_by_group: SortedMap<String, SortedSet<i64>>,
    next_commit_order: u64,
    /// Groups with membership (classic protocol), by id (`GroupMetadataManager.groups`).
    pub(super) groups: SortedMap<String, super::ClassicGroup>,
    /// Numbers the member ids handed out (Kafka's random UUID, made deterministic).
    pub(super) next_member_number: u64,
    /// `group.initial.rebalance.delay.ms`.
    pub(super) initial_rebalance_delay_ms: i64,
}

impl Default for GroupCoordinator {
    fn default() -> Self {
        GroupCoordinator::new(DEFAULT_OFFSETS_TOPIC_NUM_PARTITIONS)
    }
}

impl GroupCoordinator {
    /// `offsets.topic.num.partitions`.
    pub fn num_partitions(&self) -> i32 {
        self.num_partitions
    }

    pub fn new(num_partitions: i32) -> Self {
        GroupCoordinator {
            num_partitions,
            offsets: SortedMap::new(),
            pending: SortedMap::new(),
            open_transactions_by_group: SortedMap::new(),
            next_commit_order: 0,
            groups: SortedMap::new(),
            next_member_number: 0,
            initial_rebalance_delay_ms: super::DEFAULT_INITIAL_REBALANCE_DELAY_MS,
        }
    }

    /// The `__consumer_offsets` partition of a group.
    pub fn partition_for(&self, group_id: &str) -> i32 {
        partition_for(group_id, self.num_partitions)
    }

    /// OffsetCommit: one record per partition into the group's offsets partition, each
    /// applied once written. Answers an error per partition; a failed write leaves that
    /// partition (and the ones after it) unchanged.
    pub fn commit_offsets(
        &mut self,
        group: &str,
        offsets: &[OffsetCommitEntry],
        log: &mut dyn OffsetLogWriter,
        now_ms: i64,
    ) -> Vec<(TopicPartition, Errors)> {
        let partition = self.partition_for(group);
        let mut results = Vec::with_capacity(offsets.len());
        let mut failed: Option<Errors> = None;
        for entry in offsets {
            if let Some(e) = failed {
                results.push((entry.topic_partition.clone(), e));
                continue;
            }
            let (key, value) = Self::record_for(group, entry, now_ms);
            match log.append(partition, key, Some(value), now_ms) {
                Ok(()) => {
                    let om = self.offset_and_metadata(entry, now_ms);
                    self.replay_commit(group, &entry.topic_partition, NO_PRODUCER_ID, om);
                    results.push((entry.topic_partition.clone(), Errors::None));
                }
                Err(e) => {
                    failed = Some(e);
                    results.push((entry.topic_partition.clone(), e));
                }
            }
        }
        results
    }

    /// TxnOffsetCommit: the records the caller must append as one transactional batch of
    /// `producer_id`/`producer_epoch`; the offsets are pending from now on (Kafka replays
    /// a record as soon as it is generated). A producer id below 0 is an INVALID_REQUEST.
    pub fn commit_transactional_offsets(
        &mut self,
        group: &str,
        producer_id: i64,
        producer_epoch: i16,
        offsets: &[OffsetCommitEntry],
        now_ms: i64,
    ) -> Result<TxnOffsetCommitRecords, Errors> {
        let records =
            self.transactional_offset_records(group, producer_id, producer_epoch, offsets, now_ms)?;
        self.replay_transactional_offsets(group, producer_id, offsets, now_ms);
        Ok(records)
    }

    /// The records of a TxnOffsetCommit, state unchanged
    /// (`OffsetMetadataManager.commitTransactionalOffset`'s `CoordinatorResult`): the
    /// caller appends them, then replays them with
    /// [`GroupCoordinator::replay_transactional_offsets`]. Kafka's runtime replays before
    /// the append and reverts to its snapshot when the append fails; replaying after a
    /// successful append leaves the same state either way.
    pub fn transactional_offset_records(
        &self,
        group: &str,
        producer_id: i64,
        producer_epoch: i16,
        offsets: &[OffsetCommitEntry],
        now_ms: i64,
    ) -> Result<TxnOffsetCommitRecords, Errors> {
        if producer_id < 0 {
            return Err(Errors::InvalidRequest);
        }
        Ok(TxnOffsetCommitRecords {
            partition: self.partition_for(group),
            producer_id,
            producer_epoch,
            records: offsets
                .iter()
                .map(|entry| Self::record_for(group, entry, now_ms))
                .collect(),
        })
    }

    /// The written TxnOffsetCommit records, replayed: pending under `producer_id` until
    /// its marker (`OffsetMetadataManager.replay` with a producer id).
    pub fn replay_transactional_offsets(
        &mut self,
        group: &str,
        producer_id: i64,
        offsets: &[OffsetCommitEntry],
        now_ms: i64,
    ) {
        for entry in offsets {
            let om = self.offset_and_metadata(entry, now_ms);
            self.replay_commit(group, &entry.topic_partition, producer_id, om);
        }
    }

    /// A COMMIT or ABORT marker of `producer_id` reached offsets partition `partition`
    /// (`OffsetMetadataManager.replayEndTransactionMarker`). On commit, each pending
    /// offset replaces the committed one unless a later plain commit already did.
    /// Only the groups of that partition are touched: Kafka runs one
    /// `OffsetMetadataManager` per `__consumer_offsets` partition (a shard), so a
    /// transaction that sent offsets of groups living in two partitions has each
    /// partition's offsets settled by that partition's own marker.
    pub fn complete_transaction(
        &mut self,
        partition: i32,
        producer_id: i64,
        commit: bool,
    ) -> TxnCompletion {
        let mut out = TxnCompletion::default();
        let Some(all) = self.pending.remove(&producer_id) else {
            return out;
        };
        let n = self.num_partitions;
        let (pending, elsewhere): (GroupOffsets, GroupOffsets) = all
            .into_iter()
            .partition(|(g, _)| partition_for(g, n) == partition);
        if !elsewhere.is_empty() {
            self.pending.insert(producer_id, elsewhere);
        }
        for group in pending.keys() {
            if let Some(open) = self.open_transactions_by_group.get_mut(group) {
                open.remove(&producer_id);
                if open.is_empty() {
                    self.open_transactions_by_group.remove(group);
                }
            }
        }
        for (group, partitions) in pending {
            for (tp, om) in partitions {
                let row = (group.clone(), tp.clone(), om.committed_offset);
                if !commit {
                    out.dropped.push(row);
                    continue;
                }
                let committed = self.offsets.entry(group.clone()).or_default();
                let newer = committed
                    .get(&tp)
                    .is_none_or(|existing| om.commit_order > existing.commit_order);
                if newer {
                    committed.insert(tp, om);
                    out.materialized.push(row);
                } else {
                    out.superseded.push(row);
                }
            }
        }
        out
    }

    /// OffsetFetch for some partitions of a group. With `require_stable`, a partition
    /// with pending transactional offsets answers UNSTABLE_OFFSET_COMMIT so the consumer
    /// retries instead of starting from an offset about to change. Kafka's consumer
    /// always asks with requireStable=true, whatever its isolation level
    /// (`ConsumerCoordinator` builds `OffsetFetchRequest.Builder(groupId, true, …)`,
    /// KIP-447); admin tools ask without it.
    pub fn fetch_offsets(
        &self,
        group: &str,
        partitions: &[TopicPartition],
        require_stable: bool,
    ) -> Vec<OffsetFetchPartition> {
        partitions
            .iter()
            .map(|tp| self.fetch_one(group, tp, require_stable))
            .collect()
    }

    /// OffsetFetch for every partition the group has committed
    /// (`OffsetMetadataManager.fetchAllOffsets`). A partition with only a pending
    /// transactional offset is not listed, even with `require_stable`, until its COMMIT
    /// marker (OffsetMetadataManagerTest.testFetchAllOffsetsWithPendingTransactionalOffsets,
    /// Kafka 4.0); a committed one with a pending offset answers UNSTABLE_OFFSET_COMMIT.
    pub fn fetch_all_offsets(
        &self,
        group: &str,
        require_stable: bool,
    ) -> Vec<OffsetFetchPartition> {
        let Some(committed) = self.offsets.get(group) else {
            return Vec::new();
        };
        committed
            .keys()
            .map(|tp| self.fetch_one(group, tp, require_stable))
            .collect()
    }

    /// The committed offset of a partition, if any (pending offsets do not count).
    pub fn committed(&self, group: &str, tp: &TopicPartition) -> Option<&OffsetAndMetadata> {
        self.offsets.get(group)?.get(tp)
    }

    /// Pending offsets of a producer: (group, partition, offset).
    pub fn pending_offsets(&self, producer_id: i64) -> Vec<(String, TopicPartition, i64)> {
        self.pending
            .get(&producer_id)
            .into_iter()
            .flat_map(|groups| {
                groups.iter().flat_map(|(g, tps)| {
                    tps.iter()
                        .map(move |(tp, om)| (g.clone(), tp.clone(), om.committed_offset))
                })
            })
            .collect()
    }

    /// Whether a partition of a group has a pending transactional offset
    /// (`hasPendingTransactionalOffsets`).
    pub fn has_pending_transactional_offsets(&self, group: &str, tp: &TopicPartition) -> bool {
        self.open_transactions_by_group
            .get(group)
            .into_iter()
            .flatten()
            .any(|pid| {
                self.pending
                    .get(pid)
                    .and_then(|g| g.get(group))
                    .is_some_and(|m| m.contains_key(tp))
            })
    }

    /// Whether the group has a committed or a pending offset.
    pub(super) fn has_offsets(&self, group: &str) -> bool {
        self.offsets.contains_key(group) || self.open_transactions_by_group.contains_key(group)
    }

    /// Groups with any committed offset, sorted.
    pub fn groups(&self) -> Vec<String> {
        let mut groups = self.offsets.keys().cloned().collect_set();
        groups.extend(self.open_transactions_by_group.keys().cloned());
        groups.into_iter().collect()
    }

    /// Rebuilds the state of one offsets partition from its batches, in log order, as
    /// `CoordinatorLoaderImpl` does: state of the groups of that partition is dropped
    /// first; data records are replayed with their batch's producer id (a producer id
    /// makes them pending), markers end transactions, records of other types are
    /// skipped. A record that cannot be read fails the load (Kafka fails it too).
    pub fn load_partition(
        &mut self,
        partition: i32,
        batches: &[RecordBatch],
    ) -> Result<LoadSummary, GroupRecordError> {
        self.unload_partition(partition);
        let mut summary = LoadSummary::default();
        for batch in batches {
            if batch.is_control() {
                for record in &batch.records {
                    let kind = record
                        .key
                        .as_deref()
                        .and_then(|k| ControlRecordType::decode_key(k).ok());
                    if let Some(kind) = kind {
                        summary.markers += 1;
                        self.complete_transaction(
                            partition,
                            batch.producer_id,
                            kind == ControlRecordType::Commit,
                        );
                    }
                }
                continue;
            }
            for record in &batch.records {
                let key = record.key.as_deref().ok_or(GroupRecordError::MissingKey)?;
                let key = match OffsetCommitKey::decode(key) {
                    Ok((_, key)) => key,
                    Err(GroupRecordError::UnknownRecordType(_)) => {
                        summary.unknown_records += 1;
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                let tp = TopicPartition::new(key.topic.clone(), key.partition);
                match record.value.as_deref() {
                    None => {
                        summary.tombstones += 1;
                        self.replay_tombstone(&key.group, &tp);
                    }
                    Some(v) => {
                        let (_, value) = OffsetCommitValue::decode(v)?;
                        summary.offset_commits += 1;
                        let om = OffsetAndMetadata {
                            committed_offset: value.offset,
                            leader_epoch: (value.leader_epoch >= 0).then_some(value.leader_epoch),
                            metadata: value.metadata,
                            commit_timestamp_ms: value.commit_timestamp,
                            commit_order: self.take_commit_order(),
                        };
                        self.replay_commit(&key.group, &tp, batch.producer_id, om);
                    }
                }
            }
        }
        Ok(summary)
    }

    /// [`GroupCoordinator::load_partition`] from the partition's raw segment bytes.
    pub fn load_partition_bytes(
        &mut self,
        partition: i32,
        log: &[u8],
    ) -> Result<LoadSummary, GroupLoadError> {
        let batches = crate::record::decode_all(log).map_err(GroupLoadError::Batch)?;
        let batches: Vec<RecordBatch> = batches.into_iter().map(|(_, b)| b).collect();
        self.load_partition(partition, &batches)
            .map_err(GroupLoadError::Record)
    }

    /// Forgets everything of the groups that live in `partition` (the coordinator lost
    /// its leadership, or is about to reload).
    pub fn unload_partition(&mut self, partition: i32) {
        let n = self.num_partitions;
        let mine = |g: &String| partition_for(g, n) == partition;
        self.offsets.retain(|g, _| !mine(g));
        for groups in self.pending.values_mut() {
            groups.retain(|g, _| !mine(g));
        }
        self.pending.retain(|_, groups| !groups.is_empty());
        self.open_transactions_by_group.retain(|g, _| !mine(g));
        self.groups.retain(|g, _| !mine(g));
    }

    fn fetch_one(
        &self,
        group: &str,
        tp: &TopicPartition,
        require_stable: bool,
    ) -> OffsetFetchPartition {
        if require_stable && self.has_pending_transactional_offsets(group, tp) {
            return OffsetFetchPartition {
                topic_partition: tp.clone(),
                committed_offset: -1,
                committed_leader_epoch: -1,
                metadata: String::new(),
                error: Errors::UnstableOffsetCommit,
            };
        }
        match self.committed(group, tp) {
            Some(om) => OffsetFetchPartition {
                topic_partition: tp.clone(),
                committed_offset: om.committed_offset,
                committed_leader_epoch: om.leader_epoch.unwrap_or(-1),
                metadata: om.metadata.clone(),
                error: Errors::None,
            },
            None => OffsetFetchPartition {
                topic_partition: tp.clone(),
                committed_offset: -1,
                committed_leader_epoch: -1,
                metadata: String::new(),
                error: Errors::None,
            },
        }
    }

    fn record_for(group: &str, entry: &OffsetCommitEntry, now_ms: i64) -> (Vec<u8>, Vec<u8>) {
        let key = OffsetCommitKey::new(
            group,
            &entry.topic_partition.topic,
            entry.topic_partition.partition,
        );
        let value = OffsetCommitValue::new(
            entry.offset,
            entry.leader_epoch.unwrap_or(-1),
            &entry.metadata,
            now_ms,
        );
        (key.encode(), value.encode())
    }

    fn offset_and_metadata(&mut self, entry: &OffsetCommitEntry, now_ms: i64) -> OffsetAndMetadata {
        OffsetAndMetadata {
            committed_offset: entry.offset,
            leader_epoch: entry.leader_epoch,
            metadata: entry.metadata.clone(),
            commit_timestamp_ms: now_ms,
            commit_order: self.take_commit_order(),
        }
    }

    fn take_commit_order(&mut self) -> u64 {
        let n = self.next_commit_order;
        self.next_commit_order = self.next_commit_order.saturating_add(1);
        n
    }

    /// `OffsetMetadataManager.replay` for a value: no producer id → committed at once;
    /// else pending under that producer.
    fn replay_commit(
        &mut self,
        group: &str,
        tp: &TopicPartition,
        producer_id: i64,
        om: OffsetAndMetadata,
    ) {
        if producer_id == NO_PRODUCER_ID {
            self.offsets
                .entry(group.to_string())
                .or_default()
                .insert(tp.clone(), om);
        } else {
            self.pending
                .entry(producer_id)
                .or_default()
                .entry(group.to_string())
                .or_default()
                .insert(tp.clone(), om);
            self.open_transactions_by_group
                .entry(group.to_string())
                .or_default()
                .insert(producer_id);
        }
    }

    /// `OffsetMetadataManager.replay` for a tombstone: the committed offset and every
    /// pending one of that partition go.
    fn replay_tombstone(&mut self, group: &str, tp: &TopicPartition) {
        if let Some(m) = self.offsets.get_mut(group) {
            m.remove(tp);
            if m.is_empty() {
                self.offsets.remove(group);
            }
        }
        for pid in self
            .open_transactions_by_group
            .get(group)
            .into_iter()
            .flatten()
        {
            if let Some(m) = self.pending.get_mut(pid).and_then(|g| g.get_mut(group)) {
                m.remove(tp);
            }
        }
    }
}
