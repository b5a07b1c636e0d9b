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
//! Simplified: the sender thread runs when the metadata changes (a broker stops,
//! starts or is fenced, a leader is elected), which is when the queue can move.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled, Outbound};
use super::txn_apis::MarkerSend;
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::log::TopicPartition;
use crate::protocol::{MarkerResult, Request, TxnMarkerEntry};
use crate::util::sorted_map::SortedMap;

/// Markers for one transaction on their way to the partitions' leaders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueuedMarkers {
    pub transactional_id: String,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub result: MarkerResult,
    pub coordinator_epoch: i32,
    pub partitions: Vec<TopicPartition>,
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

    /// `addTxnMarkersToBrokerQueue`: one WriteTxnMarkers per live leader; the
    /// partitions without one wait in the unknown-broker queue.
    pub(super) fn add_txn_markers_to_broker_queue(
        &mut self,
        markers: QueuedMarkers,
        handled: &mut Handled,
    ) {
        let mut by_leader: SortedMap<i32, Vec<TopicPartition>> = SortedMap::new();
        let mut unknown = Vec::new();
        for tp in &markers.partitions {
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
                ..markers
            });
        }
    }

    /// `TransactionMarkerRequestCompletionHandler.onComplete` with `wasDisconnected`:
    /// the leader's connection is gone. Still this transaction's coordinator at the same
    /// epoch: the markers go again to each partition's current leader. Otherwise they
    /// are dropped.
    pub fn marker_send_disconnected(&mut self, tag: u64) -> Handled {
        let mut handled = Handled::default();
        let Some(send) = self.pending_markers.remove(&tag) else {
            return handled;
        };
        let partition = self.txn_coordinator.partition_for(&send.transactional_id);
        let txn_tp = TopicPartition::new(TRANSACTION_STATE_TOPIC, partition);
        let epoch = self.txn_coordinator.owned_partitions().get(&partition);
        let ours = epoch == Some(&send.coordinator_epoch)
            && !self.coordinator_loads.contains_key(&txn_tp)
            && self
                .txn_coordinator
                .has_pending_markers(&send.transactional_id);
        if !ours {
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
        };
        self.add_txn_markers_to_broker_queue(markers, &mut handled);
        handled
    }

    /// `generateRequests`' first half: the unknown-broker queue is tried again; the
    /// partitions whose leader is now live and known leave.
    pub fn drain_unknown_broker_markers(&mut self) -> Handled {
        let mut handled = Handled::default();
        if !self.online || self.markers_for_unknown_broker.is_empty() {
            return handled;
        }
        let queued = std::mem::take(&mut self.markers_for_unknown_broker);
        for markers in queued {
            if markers
                .partitions
                .iter()
                .all(|tp| self.live_leader(tp).is_none())
            {
                self.markers_for_unknown_broker.push(markers);
                continue;
            }
            self.add_txn_markers_to_broker_queue(markers, &mut handled);
        }
        handled
    }
}
