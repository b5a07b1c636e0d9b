//! A broker's part in changing a topic (Kafka 4.0, mirror commit 1eb7644): a topic
//! config change reaches its logs (`TopicConfigHandler.updateLogConfig`), and a
//! deleted topic's replicas are dropped (`ReplicaManager.stopPartitions` with
//! `deletePartition`, then `LogManager.asyncDelete`; here the directory goes at once),
//! as is a replica a reassignment removed from this broker.

use super::broker::{Broker, Handled};
use crate::log::{LogConfig, TopicPartition};
use crate::protocol::errors::Errors;

impl Broker {
    /// The topic's configs changed: the replica's log and its `min.insync.replicas`
    /// follow from their next use (nothing is re-checked now).
    pub fn update_topic_config(
        &mut self,
        tp: &TopicPartition,
        config: &LogConfig,
        min_insync_replicas: i32,
    ) {
        if let Some(log) = self.logs.get_mut(tp) {
            log.set_topic_config(config);
        }
        if let Some(p) = self.partitions.get_mut(tp) {
            p.min_insync_replicas = min_insync_replicas;
        }
    }

    /// The controller removed `tp`'s topic: a request waiting on it is answered
    /// UNKNOWN_TOPIC_OR_PARTITION, its log directory is deleted, and the metadata
    /// remembers it as deleted (markers for it are skipped).
    pub fn delete_partition(&mut self, tp: &TopicPartition, handled: &mut Handled) {
        self.fail_waiting(tp, Errors::UnknownTopicOrPartition, handled);
        self.drop_replica(tp);
        self.metadata.remove(tp);
        self.deleted.insert(tp.clone());
    }

    /// A reassignment removed this broker from `tp`'s replicas (`ReplicaManager
    /// .applyDelta`: a partition no longer assigned here is stopped and deleted). Its
    /// fetcher stops with the partition; as leader it resigns first: requests waiting
    /// on it are answered NOT_LEADER_OR_FOLLOWER and a coordinator on it unloads.
    pub fn remove_replica(&mut self, tp: &TopicPartition, now_ms: i64, handled: &mut Handled) {
        if let Some(p) = self.partitions.get(tp) {
            let (led, epoch) = (p.leader == self.id, p.leader_epoch);
            if led && crate::coordinator::internal_topics::is_internal(&tp.topic) {
                self.on_internal_leadership(tp, false, epoch, now_ms, handled);
            }
        }
        self.fail_waiting(tp, Errors::NotLeaderOrFollower, handled);
        self.resign_delayed_txn_writes(tp, handled);
        self.drop_replica(tp);
        // A stopped broker's folder goes too (Kafka deletes it as a stray log when
        // the broker is back).
        let _ = self.fs.remove_dir_all(&Self::partition_dir(tp));
    }

    fn drop_replica(&mut self, tp: &TopicPartition) {
        self.partitions.remove(tp);
        if self.logs.remove(tp).is_some() {
            // A directory the broker made itself: nothing is lost if it is gone.
            let _ = self.fs.remove_dir_all(&Self::partition_dir(tp));
        }
        self.windows_at_stop.remove(tp);
        self.marker_isr.short.remove(tp);
        self.marker_isr.refused.remove(tp);
        self.marker_isr.retried.remove(tp);
    }
}
