//! Stopping and starting a broker: a clean stop snapshots producer state, a crash
//! loses memory only, and a start opens every partition folder and rebuilds producer
//! state (Kafka's `LogManager.shutdown` / `loadLogs`, simplified to one log dir).

use super::broker::{Broker, BrokerEvent};
use super::producer_id_manager::ProducerIdManager;
use crate::coordinator::group::GroupCoordinator;
use crate::coordinator::internal_topics::is_internal;
use crate::coordinator::transaction::TransactionCoordinator;
use crate::log::{LogConfig, TopicPartition, UnifiedLog};

impl Broker {
    /// Whether the broker's last stop was clean: a broker that registers after an
    /// unclean one leaves every ELR (KIP-966).
    pub fn stopped_cleanly(&self) -> bool {
        self.stopped_cleanly
    }

    /// Stops the broker. A clean stop closes every log (snapshot at the log end);
    /// a crash loses memory only — the disk keeps what was written.
    pub fn stop(&mut self, clean: bool) -> BrokerEvent {
        self.windows_at_stop = self
            .logs
            .keys()
            .map(|tp| {
                let sizes = self
                    .windows(tp)
                    .iter()
                    .map(|(p, w)| (*p, w.len()))
                    .collect();
                (tp.clone(), sizes)
            })
            .collect();
        let mut snapshots = Vec::new();
        self.stopped_cleanly = clean;
        if clean {
            // `LogManager.shutdown` checkpoints the log start offsets.
            self.checkpoint_log_start_offsets();
            // `ReplicaManager.shutdown(checkpointHW = true)`.
            self.checkpoint_high_watermarks();
            for log in self.logs.values_mut() {
                if let Ok(Some(path)) = log.close(&mut self.fs) {
                    snapshots.push(path);
                }
            }
        }
        self.logs.clear();
        self.producer_ids = ProducerIdManager::default();
        self.txn_coordinator = TransactionCoordinator::new(self.txn_config());
        self.group_coordinator = GroupCoordinator::new(self.group_coordinator.num_partitions());
        self.pending_verifications.clear();
        self.pending_markers.clear();
        self.markers_for_unknown_broker.clear();
        // The metadata (which ISRs are short) survives: a restarted broker replays it.
        self.marker_isr.refused.clear();
        self.marker_isr.retried.clear();
        self.pending_offset_commits.clear();
        self.marker_results.clear();
        // Replication state is memory: the controller's metadata rebuilds it at start.
        self.partitions.clear();
        self.delayed_produces.clear();
        self.delayed_delete_records.clear();
        self.delayed_txn_writes.clear();
        self.parked_fetches.clear();
        self.next_isr_check_ms = 0;
        self.coordinator_loads.clear();
        self.online = false;
        BrokerEvent::Stopped { clean, snapshots }
    }

    /// Starts the broker: every partition folder on disk is opened and recovered.
    /// Each partition comes with its topic's log config (topic configs live in the
    /// cluster metadata, not in broker memory). A single-replica internal partition
    /// is loaded by its coordinator at once; a replicated one (in `replicated`) only
    /// once the controller's metadata says this broker leads it.
    pub fn start(
        &mut self,
        partitions: &[(TopicPartition, LogConfig)],
        replicated: &[TopicPartition],
        now_ms: i64,
    ) -> Vec<BrokerEvent> {
        self.online = true;
        let mut events = Vec::new();
        for (tp, config) in partitions {
            let dir = Self::partition_dir(tp);
            let log_start = self.checkpointed_log_start(tp);
            match UnifiedLog::open_after_stop(
                &mut self.fs,
                &dir,
                tp.clone(),
                config.clone(),
                log_start,
                self.stopped_cleanly,
                Some(now_ms),
            ) {
                Ok((log, report)) => {
                    let empty_internal = is_internal(&tp.topic) && log.log_end_offset() == 0;
                    self.logs.insert(tp.clone(), log);
                    if !empty_internal {
                        events.push(BrokerEvent::Recovered {
                            tp: tp.clone(),
                            report,
                            windows: self.windows(tp),
                            windows_before: self.windows_at_stop.remove(tp).unwrap_or_default(),
                        });
                    }
                    if !replicated.contains(tp) {
                        events.extend(self.load_internal_partition(tp, now_ms));
                    }
                }
                Err(_) => {
                    let _ = self.create_partition(tp.clone());
                }
            }
        }
        events
    }
}
