//! Coordinators follow the leaders of their internal partitions (Kafka 4.0, mirror
//! commit 1eb7644: `BrokerMetadataPublisher.updateCoordinator` calls
//! `TransactionCoordinator.onElection` / `onResignation`, and the group coordinator's
//! equivalents, when a broker starts or stops leading a partition of
//! `__transaction_state` / `__consumer_offsets`).
//!
//! On election the coordinator epoch is the partition's leader epoch: the new
//! coordinator drops whatever markers it still had queued for the partition
//! (`removeMarkersForTxnTopicPartition`), replays the partition to its log end
//! (`loadTransactionsForTxnTopicPartition` reads with `FetchIsolation.LOG_END`) and
//! completes every transaction it finds in PrepareCommit/PrepareAbort by sending the
//! markers again, stamped with its own epoch. On resignation it forgets the
//! partition's transactions (`removeTransactionsForTxnTopicPartition`) and their
//! queued markers. The load takes logical time, during which the new coordinator
//! answers COORDINATOR_LOAD_IN_PROGRESS (`coordinator_load.rs`); the old leader
//! answers NOT_COORDINATOR.

use super::broker::{Broker, Handled};
use crate::coordinator::internal_topics::{GROUP_METADATA_TOPIC, TRANSACTION_STATE_TOPIC};
use crate::coordinator::transaction::CoordinatorOutput;
use crate::log::TopicPartition;

impl Broker {
    /// The leadership of a replicated internal partition changed on this broker
    /// (`makeLeader` / `makeFollower` of an internal topic): elect or resign its
    /// coordinator.
    pub(super) fn on_internal_leadership(
        &mut self,
        tp: &TopicPartition,
        leads: bool,
        leader_epoch: i32,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        if tp.topic == TRANSACTION_STATE_TOPIC {
            self.remove_markers_for_partition(tp.partition);
        }
        if leads {
            // `loadTransactionsForTxnTopicPartition` / the group coordinator's
            // `onElection`: the load takes time (see `coordinator_load.rs`).
            self.begin_coordinator_load(tp, leader_epoch, now_ms, handled);
            return;
        }
        self.cancel_coordinator_load(tp);
        if tp.topic == TRANSACTION_STATE_TOPIC {
            let owned = self
                .txn_coordinator
                .owned_partitions()
                .contains_key(&tp.partition);
            if owned {
                let mut outputs = self.txn_coordinator.unload_partition(tp.partition);
                outputs.retain(|o| !is_routine(o));
                self.process_coordinator_outputs(outputs, now_ms, handled);
            }
        } else if tp.topic == GROUP_METADATA_TOPIC {
            self.group_coordinator.unload_partition(tp.partition);
        }
    }

    /// The load of an internal partition ends: its coordinator takes it over at
    /// `leader_epoch` (the transaction coordinator replays it to its log end and
    /// sends the markers of the transactions it finds in Prepare*).
    pub(super) fn finish_coordinator_load(
        &mut self,
        tp: &TopicPartition,
        leader_epoch: i32,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        if tp.topic == TRANSACTION_STATE_TOPIC {
            let records = self
                .logs
                .get(tp)
                .map(|log| super::txn_apis::records_of(log, &self.fs))
                .unwrap_or_default();
            let mut outputs = self.txn_coordinator.load_partition_at_epoch(
                tp.partition,
                leader_epoch,
                records,
                now_ms,
            );
            // Taking over an empty partition is routine (fifty of them at once):
            // keep the event list for the partitions that hold transactions.
            outputs.retain(|o| !is_routine(o));
            self.process_coordinator_outputs(outputs, now_ms, handled);
        } else if tp.topic == GROUP_METADATA_TOPIC {
            self.load_group_partition(tp);
        }
    }

    /// `GroupMetadataManager.loadGroupsAndOffsets`: the committed offsets of one
    /// `__consumer_offsets` partition, from its records.
    pub(super) fn load_group_partition(&mut self, tp: &TopicPartition) {
        if let Some(log) = self.logs.get(tp) {
            let batches: Vec<crate::record::RecordBatch> = log
                .read_all(&self.fs)
                .into_iter()
                .map(|s| s.batch)
                .collect();
            let _ = self
                .group_coordinator
                .load_partition(tp.partition, &batches);
        }
    }

    /// `TransactionMarkerChannelManager.removeMarkersForTxnTopicPartition`: markers
    /// queued or in flight for the transactions of a `__transaction_state` partition
    /// are dropped; their answers, if any still come, are ignored.
    fn remove_markers_for_partition(&mut self, partition: i32) {
        let n = self.txn_coordinator.config().num_partitions;
        let mine =
            |id: &str| crate::coordinator::internal_topics::partition_for(id, n) == partition;
        self.pending_markers
            .retain(|_, send| !mine(&send.transactional_id));
        self.markers_for_unknown_broker
            .retain(|m| !mine(&m.transactional_id));
        self.marker_results.retain(|(id, _, _), _| !mine(id));
    }
}

/// Whether a coordinator output is the routine loading or unloading of a partition
/// that holds no transaction.
fn is_routine(output: &CoordinatorOutput) -> bool {
    use crate::coordinator::transaction::CoordinatorEvent;
    matches!(
        output,
        CoordinatorOutput::Event(
            CoordinatorEvent::Loaded {
                transactions: 0,
                pending_completions: 0,
                skipped_records: 0,
                ..
            } | CoordinatorEvent::Unloaded {
                transactions: 0,
                ..
            }
        )
    )
}
