//! How a broker's coordinators write to their internal topics: one record, as a
//! non-transactional batch, to the partition they lead (`AppendOrigin.COORDINATOR`).
//!
//! The coordinators append with `acks=all` (Kafka's `TransactionLog.EnforcedRequiredAcks`),
//! so on a replicated internal partition `Partition.appendRecordsToLeader`'s checks
//! apply: only the leader appends (NOT_LEADER_OR_FOLLOWER), and not while the ISR is
//! below `min.insync.replicas` (NOT_ENOUGH_REPLICAS). The coordinators map these to
//! their clients' errors (Kafka 4.0, mirror commit 1eb7644).

use crate::util::sorted_map::SortedMap;

use super::partition::Partition;

use crate::coordinator::internal_topics::InternalLogWriter;
use crate::fs::MemFs;
use crate::log::{TopicPartition, UnifiedLog};
use crate::protocol::errors::Errors;
use crate::record::RecordBatch;

/// The partitions of one internal topic on this broker.
pub(super) struct InternalLog<'a> {
    pub fs: &'a mut MemFs,
    pub logs: &'a mut SortedMap<TopicPartition, UnifiedLog>,
    pub topic: &'static str,
    /// This broker's replication state (no entry: a single-replica partition).
    pub partitions: &'a SortedMap<TopicPartition, Partition>,
    pub broker_id: i32,
}

impl InternalLogWriter for InternalLog<'_> {
    fn append(
        &mut self,
        partition: i32,
        key: Vec<u8>,
        value: Option<Vec<u8>>,
        now_ms: i64,
    ) -> Result<(), Errors> {
        let tp = TopicPartition::new(self.topic, partition);
        let log = self.logs.get_mut(&tp).ok_or(Errors::NotCoordinator)?;
        if let Some(p) = self.partitions.get(&tp) {
            if p.leader != self.broker_id {
                return Err(Errors::NotLeaderOrFollower);
            }
            if p.is_under_min_isr() {
                return Err(Errors::NotEnoughReplicas);
            }
        }
        let batch = RecordBatch::new_plain(0, now_ms, vec![(Some(key), value)]);
        log.append_internal(self.fs, batch)
            .map(|_| ())
            .map_err(|e| e.error())
    }
}
