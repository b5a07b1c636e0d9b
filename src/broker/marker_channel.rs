//! Where WriteTxnMarkers go, and what happens when their destination is gone (Kafka 4.0,
//! mirror commit 1eb7644: `TransactionMarkerChannelManager.addTxnMarkersToBrokerQueue`,
//! `generateRequests`, `TransactionMarkerRequestCompletionHandler.onComplete`).
//!
//! Markers are grouped by each partition's leader as the broker's metadata cache knows
//! it. A leader that is unknown, or known but not alive (fenced, stopped), sends the
//! markers to `markersQueueForUnknownBroker`; every run of the sender thread
//! (`generateRequests`) tries that queue again, so they leave as soon as a metadata
//! update names a live leader. A WriteTxnMarkers whose connection is lost (the leader
//! died: `wasDisconnected`, or no answer within `request.timeout.ms`, after which the
//! client disconnects) is re-enqueued the same way — to the partition's current
//! leader — unless this broker no longer coordinates the transaction at the same
//! coordinator epoch, in which case the markers are dropped (the new coordinator sends
//! its own). Answers with a retriable error (NOT_LEADER_OR_FOLLOWER, …) go back through
//! the coordinator (`handle_markers_written`), which asks for the same re-enqueue.
//!
//! A leader whose ISR is below `min.insync.replicas` refuses markers before writing
//! them (NOT_ENOUGH_REPLICAS, `Partition.appendRecordsToLeader`: markers are appended
//! with `requiredAcks = -1`). Kafka re-enqueues them at once and its sender thread sends
//! them again and again, one round trip after another, until the ISR has grown back;
//! nothing is written meanwhile. Here they wait instead, like the unknown-broker queue,
//! until the partition's metadata changes (its ISR or its leader), the first moment a
//! new send can succeed: the same marker lands at the same moment, without the
//! thousands of identical refusals in between (which would keep `run` busy forever).
//!
//! Simplified: the sender thread runs when the metadata changes (a broker stops,
//! starts or is fenced, a leader is elected, an ISR changes), which is when the queues
//! can move.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled, Outbound};
use super::txn_apis::MarkerSend;
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::log::TopicPartition;
#[cfg(feature = "topic-admin")]
use crate::protocol::errors::Errors;
use crate::protocol::{MarkerResult, Request, TxnMarkerEntry};
use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

/// What the marker channel knows of short ISRs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MarkerIsrWait {
    /// Partitions whose ISR the metadata shows below `min.insync.replicas` (KRaft's
    /// `MetadataCache` carries every partition's ISR).
    pub short: SortedSet<TopicPartition>,
    /// Partitions whose leader refused markers with NOT_ENOUGH_REPLICAS while the
    /// metadata still shows the ISR short: their re-sends wait for a change.
    pub refused: SortedSet<TopicPartition>,
    /// Partitions whose refused markers went again at once since their last metadata
    /// change (the metadata showed the ISR grown back): a second refusal waits too.
    pub retried: SortedSet<TopicPartition>,
}

/// Markers for one transaction on their way to the partitions' leaders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueuedMarkers {
    pub transactional_id: String,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub result: MarkerResult,
    pub coordinator_epoch: i32,
    pub partitions: Vec<TopicPartition>,
    /// Waiting because the leader refused them with NOT_ENOUGH_REPLICAS (not for a
    /// leader): they go when the partition's metadata changes.
    pub awaiting_isr: bool,
    /// The transaction's version, which the leader checks the marker's epoch by.
    pub transaction_version: i16,
}

impl Broker {
    /// The live leader of `tp` as this broker's metadata knows it, if any
    /// (`metadataCache.getPartitionLeaderEndpoint`: `Node.noNode` for a leader that is
    /// not alive).
    fn live_leader(&self, tp: &TopicPartition) -> Option<i32> {
        // A partition the metadata does not list yet is taken to be this broker's,
        // as before any metadata arrived.
        let leader = self.metadata.get(tp).copied().unwrap_or(self.id);
        if leader < 0 {
            return None;
        }
        if leader == self.id {
            return Some(leader);
        }
        // Before the controller published any registration, every broker counts.
        let alive = self
            .registry
            .get(leader)
            .is_none_or(|r| !r.fenced && !r.in_controlled_shutdown);
        alive.then_some(leader)
    }

    /// Whether the metadata says `tp`'s topic was deleted.
    #[cfg(feature = "topic-admin")]
    fn is_deleted(&self, tp: &TopicPartition) -> bool {
        self.deleted.contains(tp)
    }

    #[cfg(not(feature = "topic-admin"))]
    fn is_deleted(&self, _tp: &TopicPartition) -> bool {
        false
    }

    /// `addTxnMarkersToBrokerQueue`: one WriteTxnMarkers per live leader; the
    /// partitions without one wait in the unknown-broker queue.
    pub(super) fn add_txn_markers_to_broker_queue(
        &mut self,
        markers: QueuedMarkers,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        #[cfg(not(feature = "topic-admin"))]
        let _ = now_ms;
        let mut by_leader: SortedMap<i32, Vec<TopicPartition>> = SortedMap::new();
        let mut unknown = Vec::new();
        let mut short_isr = Vec::new();
        #[cfg(feature = "topic-admin")]
        let mut deleted = Vec::new();
        for tp in &markers.partitions {
            #[cfg(feature = "topic-admin")]
            if self.deleted.contains(tp) {
                deleted.push(tp.clone());
                continue;
            }
            if self.marker_isr.refused.contains(tp) {
                short_isr.push(tp.clone());
                continue;
            }
            match self.live_leader(tp) {
                Some(leader) => by_leader.entry(leader).or_default().push(tp.clone()),
                None => unknown.push(tp.clone()),
            }
        }
        for (leader, partitions) in by_leader {
            let tag = self.take_tag();
            self.pending_markers.insert(
                tag,
                MarkerSend {
                    transactional_id: markers.transactional_id.clone(),
                    producer_id: markers.producer_id,
                    producer_epoch: markers.producer_epoch,
                    leader,
                    partitions: partitions.clone(),
                    result: markers.result,
                    coordinator_epoch: markers.coordinator_epoch,
                    transaction_version: markers.transaction_version,
                },
            );
            handled.outbound.push(Outbound::ToBroker {
                broker: leader,
                tag,
                request: Request::WriteTxnMarkers {
                    markers: vec![TxnMarkerEntry {
                        producer_id: markers.producer_id,
                        producer_epoch: markers.producer_epoch,
                        result: markers.result,
                        coordinator_epoch: markers.coordinator_epoch,
                        partitions,
                        transaction_version: markers.transaction_version,
                    }],
                },
            });
        }
        if !unknown.is_empty() {
            handled.events.push(BrokerEvent::MarkersAwaitLeader {
                transactional_id: markers.transactional_id.clone(),
                partitions: unknown.clone(),
            });
            self.markers_for_unknown_broker.push(QueuedMarkers {
                partitions: unknown,
                awaiting_isr: false,
                ..markers.clone()
            });
        }
        if !short_isr.is_empty() {
            handled.events.push(BrokerEvent::MarkersAwaitIsr {
                transactional_id: markers.transactional_id.clone(),
                partitions: short_isr.clone(),
            });
            self.markers_for_unknown_broker.push(QueuedMarkers {
                partitions: short_isr,
                awaiting_isr: true,
                ..markers.clone()
            });
        }
        #[cfg(feature = "topic-admin")]
        if !deleted.is_empty() {
            self.skip_deleted_partitions(&markers, deleted, now_ms, handled);
        }
    }

    /// `addTxnMarkersToBrokerQueue` with no leader for a partition the metadata no
    /// longer has: "likely deleted already and hence can be skipped". The partition
    /// leaves the transaction (`removePartition`) and, if it was the last, the
    /// coordinator writes the Complete* record (`maybeWriteTxnCompletion`).
    #[cfg(feature = "topic-admin")]
    fn skip_deleted_partitions(
        &mut self,
        markers: &QueuedMarkers,
        deleted: Vec<TopicPartition>,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        handled
            .events
            .push(BrokerEvent::MarkersSkippedForDeletedPartitions {
                transactional_id: markers.transactional_id.clone(),
                partitions: deleted.clone(),
            });
        let results = deleted.into_iter().map(|tp| (tp, Errors::None)).collect();
        let ((), more) = self.with_coordinator(now_ms, |c, log| {
            (
                (),
                c.handle_markers_written(
                    &markers.transactional_id,
                    markers.producer_id,
                    markers.producer_epoch,
                    results,
                    now_ms,
                    log,
                ),
            )
        });
        handled.response = handled.response.take().or(more.response);
        handled.deferred.extend(more.deferred);
        handled.events.extend(more.events);
        handled.outbound.extend(more.outbound);
    }

    /// Whether this broker still coordinates `transactional_id` at `coordinator_epoch`
    /// with markers outstanding (else its queued markers are dropped: the new
    /// coordinator sends its own).
    fn still_coordinating(&self, transactional_id: &str, coordinator_epoch: i32) -> bool {
        let partition = self.txn_coordinator.partition_for(transactional_id);
        let txn_tp = TopicPartition::new(TRANSACTION_STATE_TOPIC, partition);
        let epoch = self.txn_coordinator.owned_partitions().get(&partition);
        epoch == Some(&coordinator_epoch)
            && !self.coordinator_loads.contains_key(&txn_tp)
            && self.txn_coordinator.has_pending_markers(transactional_id)
    }

    /// The leader of `tp` refused markers with NOT_ENOUGH_REPLICAS: if the metadata
    /// still shows its ISR short, the re-send waits for it to change; if the ISR has
    /// grown back meanwhile, the re-send goes at once, as in Kafka — once: a second
    /// refusal with no metadata change in between waits as well (this broker's
    /// metadata may be stale).
    pub(super) fn markers_refused_for_short_isr(&mut self, tp: &TopicPartition) {
        if self.marker_isr.short.contains(tp) || !self.marker_isr.retried.insert(tp.clone()) {
            self.marker_isr.refused.insert(tp.clone());
        }
    }

    /// The metadata of `tp` changed (its ISR or its leader; `isr_short`: its ISR is
    /// below `min.insync.replicas`): markers its leader refused with
    /// NOT_ENOUGH_REPLICAS go again (one send per change, never a loop).
    pub fn partition_metadata_changed(
        &mut self,
        tp: &TopicPartition,
        isr_short: bool,
        now_ms: i64,
    ) -> Handled {
        let mut handled = Handled::default();
        if isr_short {
            self.marker_isr.short.insert(tp.clone());
        } else {
            self.marker_isr.short.remove(tp);
        }
        self.marker_isr.retried.remove(tp);
        if !self.online || !self.marker_isr.refused.remove(tp) {
            return handled;
        }
        let queued = std::mem::take(&mut self.markers_for_unknown_broker);
        for mut markers in queued {
            if !markers.awaiting_isr || !markers.partitions.contains(tp) {
                self.markers_for_unknown_broker.push(markers);
                continue;
            }
            if !self.still_coordinating(&markers.transactional_id, markers.coordinator_epoch) {
                continue;
            }
            let (go, stay): (Vec<_>, Vec<_>) = std::mem::take(&mut markers.partitions)
                .into_iter()
                .partition(|p| !self.marker_isr.refused.contains(p));
            if !stay.is_empty() {
                self.markers_for_unknown_broker.push(QueuedMarkers {
                    partitions: stay,
                    ..markers.clone()
                });
            }
            markers.partitions = go;
            markers.awaiting_isr = false;
            self.add_txn_markers_to_broker_queue(markers, now_ms, &mut handled);
        }
        handled
    }

    /// `TransactionMarkerRequestCompletionHandler.onComplete` with `wasDisconnected`:
    /// the leader's connection is gone. Still this transaction's coordinator at the same
    /// epoch: the markers go again to each partition's current leader. Otherwise they
    /// are dropped.
    pub fn marker_send_disconnected(&mut self, tag: u64, now_ms: i64) -> Handled {
        let mut handled = Handled::default();
        let Some(send) = self.pending_markers.remove(&tag) else {
            return handled;
        };
        if !self.still_coordinating(&send.transactional_id, send.coordinator_epoch) {
            return handled;
        }
        handled.events.push(BrokerEvent::MarkersRequeued {
            transactional_id: send.transactional_id.clone(),
            leader: send.leader,
            partitions: send.partitions.clone(),
        });
        let markers = QueuedMarkers {
            transactional_id: send.transactional_id,
            producer_id: send.producer_id,
            producer_epoch: send.producer_epoch,
            result: send.result,
            coordinator_epoch: send.coordinator_epoch,
            partitions: send.partitions,
            awaiting_isr: false,
            transaction_version: send.transaction_version,
        };
        self.add_txn_markers_to_broker_queue(markers, now_ms, &mut handled);
        handled
    }

    /// `generateRequests`' first half: the unknown-broker queue is tried again; the
    /// partitions whose leader is now live and known leave.
    pub fn drain_unknown_broker_markers(&mut self, now_ms: i64) -> Handled {
        let mut handled = Handled::default();
        if !self.online || self.markers_for_unknown_broker.is_empty() {
            return handled;
        }
        let queued = std::mem::take(&mut self.markers_for_unknown_broker);
        for markers in queued {
            if markers.awaiting_isr
                || markers
                    .partitions
                    .iter()
                    .all(|tp| self.live_leader(tp).is_none() && !self.is_deleted(tp))
            {
                self.markers_for_unknown_broker.push(markers);
                continue;
            }
            self.add_txn_markers_to_broker_queue(markers, now_ms, &mut handled);
        }
        handled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::LogConfig;

    fn queued(tp: &TopicPartition) -> QueuedMarkers {
        QueuedMarkers {
            transactional_id: "tx".into(),
            producer_id: 0,
            producer_epoch: 0,
            result: MarkerResult::Abort,
            coordinator_epoch: 0,
            partitions: vec![tp.clone()],
            awaiting_isr: false,
            transaction_version: 2,
        }
    }

    #[test]
    fn a_refusal_waits_only_while_the_metadata_shows_the_isr_short() {
        let tp = TopicPartition::new("t", 0);
        let mut b = Broker::new(1, LogConfig::default());
        b.partition_metadata_changed(&tp, true, 0);
        b.markers_refused_for_short_isr(&tp);
        let mut handled = Handled::default();
        b.add_txn_markers_to_broker_queue(queued(&tp), 0, &mut handled);
        assert!(handled.outbound.is_empty(), "parked while the ISR is short");
        assert!(matches!(
            handled.events.as_slice(),
            [BrokerEvent::MarkersAwaitIsr { .. }]
        ));
        assert!(b.markers_for_unknown_broker[0].awaiting_isr);
        // A change releases the wait (the re-send itself needs a coordinator that
        // still owns the transaction, which this bare broker is not: it is dropped).
        b.partition_metadata_changed(&tp, false, 0);
        assert!(b.marker_isr.refused.is_empty());
        assert!(b.markers_for_unknown_broker.is_empty());
    }

    #[test]
    fn an_isr_grown_back_before_the_answer_gets_one_immediate_resend() {
        let tp = TopicPartition::new("t", 0);
        let mut b = Broker::new(1, LogConfig::default());
        b.partition_metadata_changed(&tp, false, 0);
        b.markers_refused_for_short_isr(&tp);
        let mut handled = Handled::default();
        b.add_txn_markers_to_broker_queue(queued(&tp), 0, &mut handled);
        assert_eq!(
            handled.outbound.len(),
            1,
            "the metadata says the ISR is fine"
        );
        // Refused again with no metadata change in between: this broker's view is
        // stale, so the next re-send waits instead of spinning.
        b.markers_refused_for_short_isr(&tp);
        let mut handled = Handled::default();
        b.add_txn_markers_to_broker_queue(queued(&tp), 0, &mut handled);
        assert!(handled.outbound.is_empty());
        b.partition_metadata_changed(&tp, false, 0);
        assert!(b.marker_isr.retried.is_empty() && b.marker_isr.refused.is_empty());
    }
}
