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
//! queued markers. Simplified: loading is instant, so clients never see
//! COORDINATOR_LOAD_IN_PROGRESS; they see NOT_COORDINATOR from the old leader.

use super::broker::{Broker, Handled};
use crate::coordinator::internal_topics::{GROUP_METADATA_TOPIC, TRANSACTION_STATE_TOPIC};
use crate::coordinator::transaction::CoordinatorOutput;
use crate::log::TopicPartition;

impl Broker {
    /// Whether this broker serves the coordinator of `tp`: it holds the internal
    /// partition and leads it (a follower's copy is not a coordinator).
    pub(super) fn is_coordinator_partition(&self, tp: &TopicPartition) -> bool {
        self.logs.contains_key(tp) && self.leads(tp)
    }

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
            let owned = self
                .txn_coordinator
                .owned_partitions()
                .contains_key(&tp.partition);
            if leads {
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
            } else if owned {
                let mut outputs = self.txn_coordinator.unload_partition(tp.partition);
                outputs.retain(|o| !is_routine(o));
                self.process_coordinator_outputs(outputs, now_ms, handled);
            }
        } else if tp.topic == GROUP_METADATA_TOPIC {
            if leads {
                self.load_group_partition(tp);
            } else {
                self.group_coordinator.unload_partition(tp.partition);
            }
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
