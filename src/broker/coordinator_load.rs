//! Loading a coordinator's partition takes time (Kafka 4.0, mirror commit 1eb7644).
//!
//! When a broker becomes the leader of a `__transaction_state` partition,
//! `TransactionStateManager.loadTransactionsForTxnTopicPartition` puts the partition in
//! `loadingPartitions` and schedules the load on the broker's scheduler thread
//! (`scheduler.scheduleOnce("load-txns-for-partition-…")`); the task reads the log from
//! its start to its end (`FetchIsolation.LOG_END`), fills the cache, takes the
//! partition out of `loadingPartitions` and only then sends the markers of the
//! transactions it found in Prepare*. Meanwhile `getTransactionState` answers
//! COORDINATOR_LOAD_IN_PROGRESS to every request for an id of that partition (and
//! ListTransactions answers it while any partition loads). The group coordinator
//! does the same for `__consumer_offsets`: the `CoordinatorRuntime` keeps a partition
//! in the LOADING state while `CoordinatorLoaderImpl` replays it, and its requests
//! fail with COORDINATOR_LOAD_IN_PROGRESS. FindCoordinator is not affected: it names
//! the partition's leader, loading or not. Clients retry after `retry.backoff.ms`
//! with the same coordinator (`TransactionManager`'s handlers re-enqueue on
//! COORDINATOR_LOAD_IN_PROGRESS without a new FindCoordinator).
//!
//! Simplified: the time a load takes is [`LOAD_MS_PER_RECORD`] of logical time per
//! offset between the partition's log start and its log end (what the load reads); an
//! empty partition loads at once. Kafka's real cost depends on the disk and the
//! scheduler queue; ours is proportional to the records read, so a busy partition
//! stays unavailable longer, as it does in Kafka. A replica that stops leading
//! before its load ends drops the load (`removeTransactionsForTxnTopicPartition`
//! removes it from `loadingPartitions`). A single-replica internal partition opened
//! at broker start still loads at once.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled};
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;

/// Logical milliseconds a coordinator load takes per record it reads.
pub const LOAD_MS_PER_RECORD: i64 = 1;

/// A coordinator partition being loaded (an entry of Kafka's `loadingPartitions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CoordinatorLoad {
    /// The leader epoch the load was scheduled at (the coordinator epoch).
    coordinator_epoch: i32,
    /// When the load finishes.
    done_ms: i64,
}

impl CoordinatorLoad {
    pub fn coordinator_epoch(&self) -> i32 {
        self.coordinator_epoch
    }

    pub fn done_ms(&self) -> i64 {
        self.done_ms
    }
}

impl Broker {
    /// Why this broker cannot serve the coordinator of the internal partition `tp`
    /// now, if it cannot: NOT_COORDINATOR when it does not lead the partition,
    /// COORDINATOR_LOAD_IN_PROGRESS while it loads it.
    pub(super) fn coordinator_error(&self, tp: &TopicPartition) -> Option<Errors> {
        if !(self.logs.contains_key(tp) && self.leads(tp)) {
            Some(Errors::NotCoordinator)
        } else if self.coordinator_loads.contains_key(tp) {
            Some(Errors::CoordinatorLoadInProgress)
        } else {
            None
        }
    }

    /// The coordinator partitions this broker is loading.
    pub fn coordinator_loads(
        &self,
    ) -> &crate::util::sorted_map::SortedMap<TopicPartition, CoordinatorLoad> {
        &self.coordinator_loads
    }

    /// Whether some `__transaction_state` partition is loading (ListTransactions
    /// answers COORDINATOR_LOAD_IN_PROGRESS then).
    pub(super) fn loading_transaction_partitions(&self) -> bool {
        self.coordinator_loads
            .keys()
            .any(|tp| tp.topic == TRANSACTION_STATE_TOPIC)
    }

    /// This broker now leads the internal partition `tp` at `coordinator_epoch`: the
    /// load starts, and ends after [`LOAD_MS_PER_RECORD`] per record to read (at
    /// once for an empty partition).
    pub(super) fn begin_coordinator_load(
        &mut self,
        tp: &TopicPartition,
        coordinator_epoch: i32,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        let records = self
            .logs
            .get(tp)
            .map_or(0, |log| log.log_end_offset() - log.log_start_offset())
            .max(0);
        if records == 0 {
            self.finish_coordinator_load(tp, coordinator_epoch, now_ms, handled);
            return;
        }
        let load_ms = records.saturating_mul(LOAD_MS_PER_RECORD);
        self.coordinator_loads.insert(
            tp.clone(),
            CoordinatorLoad {
                coordinator_epoch,
                done_ms: now_ms.saturating_add(load_ms),
            },
        );
        handled.events.push(BrokerEvent::CoordinatorLoadStarted {
            tp: tp.clone(),
            coordinator_epoch,
            records,
            load_ms,
        });
    }

    /// The partition is no longer ours: a load still running is dropped.
    pub(super) fn cancel_coordinator_load(&mut self, tp: &TopicPartition) {
        self.coordinator_loads.remove(tp);
    }

    /// Loads that are due finish: the coordinator takes the partition over (if this
    /// broker still leads it at the same epoch).
    pub(super) fn complete_coordinator_loads(&mut self, now_ms: i64, handled: &mut Handled) {
        let due: Vec<(TopicPartition, i32)> = self
            .coordinator_loads
            .iter()
            .filter(|(_, l)| l.done_ms <= now_ms)
            .map(|(tp, l)| (tp.clone(), l.coordinator_epoch))
            .collect();
        for (tp, epoch) in due {
            self.coordinator_loads.remove(&tp);
            let current = self
                .partitions
                .get(&tp)
                .is_some_and(|p| p.leader == self.id && p.leader_epoch == epoch);
            if current {
                handled.events.push(BrokerEvent::CoordinatorLoadCompleted {
                    tp: tp.clone(),
                    coordinator_epoch: epoch,
                });
                self.finish_coordinator_load(&tp, epoch, now_ms, handled);
            }
        }
    }

    /// When the next load finishes.
    pub(super) fn next_coordinator_load_ms(&self) -> Option<i64> {
        self.coordinator_loads.values().map(|l| l.done_ms).min()
    }
}
