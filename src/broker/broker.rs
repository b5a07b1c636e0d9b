//! One broker: its disk, the partitions it leads, and request handling (the role of
//! Kafka's `KafkaApis` + `ReplicaManager` for the requests we model).
//!
//! Every decision a learner should see is returned as a [`BrokerEvent`], with the
//! numbers that explain it.

use crate::util::sorted_map::SortedMap;

use serde::Serialize;

use super::producer_id_manager::{Generated, ProducerIdManager};
use crate::coordinator::group::CommitMember;
use crate::coordinator::group::GroupCoordinator;
use crate::coordinator::internal_topics::{
    topic_partition_for, GROUP_METADATA_TOPIC, INTERNAL_TOPIC_PARTITIONS, TRANSACTION_STATE_TOPIC,
};
use crate::coordinator::transaction::{TransactionConfig, TransactionCoordinator, TxnFeatures};
use crate::fs::{FsError, MemFs};
use crate::log::{LogConfig, TopicPartition, UnifiedLog};
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};
use crate::record::RecordBatch;

/// Where each broker keeps its partitions (Kafka's `log.dirs`).
pub const LOG_DIR: &str = "/kafka-logs";

/// A sequence range as the window shows it: `(first_seq, last_seq)`.
pub type SeqRange = (i32, i32);

pub use super::event::BrokerEvent;

/// A request the broker sends to another node while handling one (e.g. to the controller).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outbound {
    ToController(Request),
    /// An inter-broker request (AddPartitionsToTxn, WriteTxnMarkers); the answer
    /// comes back to [`Broker::handle_broker_response`] with this `tag`.
    ToBroker {
        broker: i32,
        tag: u64,
        request: Request,
    },
    /// Ask the controller to create an internal topic (`__transaction_state`, …).
    CreateInternalTopic(String),
    /// A follower's Fetch to its leader; the answer comes back to
    /// [`Broker::handle_broker_response`] with this `tag`. Not retried by the world:
    /// the fetcher gives up after `replica.socket.timeout.ms` itself.
    ReplicaFetch {
        leader: i32,
        tag: u64,
        request: Request,
    },
}

/// The result of handling one request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handled {
    pub response: Option<Response>,
    /// Answers to earlier requests that were waiting, by their tokens.
    pub deferred: Vec<(u64, Response)>,
    pub events: Vec<BrokerEvent>,
    pub outbound: Vec<Outbound>,
}

impl Handled {
    /// Just a response, no events.
    pub fn reply(response: Response) -> Self {
        Handled {
            response: Some(response),
            ..Handled::default()
        }
    }

    /// Nothing to answer, narrate or send. The world's polls ask this rather than
    /// `== Handled::default()`, which would link `PartialEq` for every request,
    /// response and event into the wasm.
    pub fn is_empty(&self) -> bool {
        self.response.is_none()
            && self.deferred.is_empty()
            && self.events.is_empty()
            && self.outbound.is_empty()
    }
}

/// One broker of the simulated cluster.
#[derive(Clone, Debug)]
pub struct Broker {
    pub id: i32,
    /// This broker's disk. It survives restarts; memory does not.
    pub fs: MemFs,
    /// Running (true) or stopped; only a stop and a start (`restart.rs`) move it.
    pub(super) online: bool,
    /// Defaults for new partitions (`segment.bytes`, …).
    pub log_config: LogConfig,
    pub(super) logs: SortedMap<TopicPartition, UnifiedLog>,
    pub(super) producer_ids: ProducerIdManager,
    /// The transaction coordinator for the `__transaction_state` partitions we lead.
    pub(super) txn_coordinator: TransactionCoordinator,
    /// WriteTxnMarkers requests in flight, by tag.
    pub(super) pending_markers: SortedMap<u64, super::txn_apis::MarkerSend>,
    /// Markers whose partitions have no live leader yet (`markersQueueForUnknownBroker`).
    pub(super) markers_for_unknown_broker: Vec<super::marker_channel::QueuedMarkers>,
    /// Which partitions' markers wait for an ISR to grow back.
    pub(super) marker_isr: super::marker_channel::MarkerIsrWait,
    /// Marker answers gathered per transaction until every leader has answered.
    pub(super) marker_results: SortedMap<(String, i64, i16), Vec<(TopicPartition, Errors)>>,
    /// TxnOffsetCommit requests waiting for AddPartitionsToTxn, by tag.
    pub(super) pending_offset_commits: SortedMap<u64, super::group_apis::PendingTxnOffsetCommit>,
    /// Requests produced outside a request (re-sent markers after loading).
    pub(super) startup_outbound: Vec<Outbound>,
    /// Committed offsets of the groups whose `__consumer_offsets` partitions we lead.
    pub(super) group_coordinator: GroupCoordinator,
    /// Partition leaders as the controller last told us (Kafka's `MetadataCache`).
    pub(super) metadata: SortedMap<TopicPartition, i32>,
    /// Partitions of topics the controller deleted (gone from the `MetadataCache`):
    /// markers for them are skipped.
    #[cfg(feature = "topic-admin")]
    pub(super) deleted: crate::util::sorted_set::SortedSet<TopicPartition>,
    /// Produce requests waiting for AddPartitionsToTxn, by tag.
    pub(super) pending_verifications: SortedMap<u64, PendingProduce>,
    /// Each producer's window size (in batches) when the broker stopped, per partition.
    /// Not Kafka state and never read by a check: kept only so the restart event can
    /// show the learner the window before and after (see `restart.rs`).
    pub(super) windows_at_stop: SortedMap<TopicPartition, Vec<(i64, usize)>>,
    /// Whether the last stop was clean (Kafka's `.kafka_cleanshutdown` marker file):
    /// read at start when a log has no producer snapshot.
    pub(super) stopped_cleanly: bool,
    /// The finalized `transaction.version` and the verification switch.
    pub(super) txn_features: TxnFeatures,
    next_tag: u64,
    /// This broker's part in each partition it holds (leader or follower).
    pub(super) partitions: SortedMap<TopicPartition, super::partition::Partition>,
    /// `acks=all` Produce requests waiting for the HW.
    pub(super) delayed_produces: Vec<super::replica_manager::DelayedProduce>,
    /// Coordinator answers and markers waiting for `__transaction_state`'s HW.
    pub(super) delayed_txn_writes: Vec<super::delayed_txn_write::DelayedTxnWrite>,
    /// DeleteRecords answers waiting for the followers' log starts.
    pub(super) delayed_delete_records: Vec<super::delayed_delete_records::DelayedDeleteRecords>,
    /// Follower fetches held until data arrives.
    pub(super) parked_fetches: Vec<super::replica_manager::ParkedFetch>,
    /// The next run of the ISR expiration task (0: not leading anything yet).
    pub(super) next_isr_check_ms: i64,
    /// The cluster's brokers as the controller last published them.
    pub(super) registry: super::broker_registry::BrokerRegistry,
    /// Coordinator partitions being loaded (Kafka's `loadingPartitions`).
    pub(super) coordinator_loads:
        SortedMap<TopicPartition, super::coordinator_load::CoordinatorLoad>,
}

/// A transactional Produce parked until the coordinator has added its partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingProduce {
    pub token: u64,
    pub acks: i16,
    /// The Produce request's `timeout_ms`: how long `acks=all` may wait for the ISR.
    pub timeout_ms: i64,
    pub tp: TopicPartition,
    #[serde(skip)]
    pub batch: RecordBatch,
}

impl Broker {
    /// The cluster's transaction features (set when the world is made; they survive
    /// restarts, as a finalized feature level does).
    pub fn set_txn_features(&mut self, features: TxnFeatures) {
        self.txn_features = features;
        self.txn_coordinator = TransactionCoordinator::new(self.txn_config());
    }

    pub fn txn_features(&self) -> TxnFeatures {
        self.txn_features
    }

    /// The requests a start produced outside any request (markers re-sent after a
    /// coordinator load), for the world to send; taken once.
    pub fn take_startup_outbound(&mut self) -> Vec<Outbound> {
        std::mem::take(&mut self.startup_outbound)
    }

    /// `offsets.topic.num.partitions` and `transaction.state.log.num.partitions`, as
    /// the world was made with them (both 50 by default).
    pub fn set_internal_topic_partitions(&mut self, offsets: i32, transaction_state: i32) {
        self.group_coordinator = GroupCoordinator::new(offsets);
        let config = TransactionConfig {
            num_partitions: transaction_state,
            ..self.txn_config()
        };
        self.txn_coordinator = TransactionCoordinator::new(config);
    }

    /// How many partitions the internal topic `topic` has.
    pub(super) fn internal_partitions(&self, topic: &str) -> i32 {
        if topic == TRANSACTION_STATE_TOPIC {
            self.txn_coordinator.config().num_partitions
        } else {
            self.group_coordinator.num_partitions()
        }
    }

    /// The internal partition that holds `key` (`partitionFor`): its leader is the
    /// coordinator of that transactional.id or group.id.
    pub(super) fn internal_partition_for(&self, topic: &str, key: &str) -> TopicPartition {
        topic_partition_for(topic, key, self.internal_partitions(topic))
    }

    pub(super) fn txn_config(&self) -> TransactionConfig {
        // The rest (the expiration settings) carries over from the coordinator in place.
        TransactionConfig {
            transaction_version: self.txn_features.transaction_version,
            breaks: self.log_config.breaks,
            ..self.txn_coordinator.config().clone()
        }
    }

    /// The tag [`Broker::take_tag`] gives next.
    pub(super) fn next_tag_peek(&self) -> u64 {
        self.next_tag
    }

    /// A fresh tag for an inter-broker request.
    pub(super) fn take_tag(&mut self) -> u64 {
        let tag = self.next_tag;
        self.next_tag += 1;
        tag
    }

    pub fn new(id: i32, log_config: LogConfig) -> Self {
        let mut fs = MemFs::new();
        let _ = fs.create_dir_all(LOG_DIR);
        Broker {
            id,
            fs,
            online: true,
            log_config,
            logs: SortedMap::new(),
            producer_ids: ProducerIdManager::default(),
            group_coordinator: GroupCoordinator::new(INTERNAL_TOPIC_PARTITIONS),
            txn_coordinator: TransactionCoordinator::new(TransactionConfig::default()),
            pending_markers: SortedMap::new(),
            markers_for_unknown_broker: Vec::new(),
            marker_isr: Default::default(),
            pending_offset_commits: SortedMap::new(),
            marker_results: SortedMap::new(),
            startup_outbound: Vec::new(),
            metadata: SortedMap::new(),
            #[cfg(feature = "topic-admin")]
            deleted: Default::default(),
            pending_verifications: SortedMap::new(),
            windows_at_stop: SortedMap::new(),
            stopped_cleanly: false,
            txn_features: TxnFeatures::default(),
            next_tag: 1,
            partitions: SortedMap::new(),
            delayed_produces: Vec::new(),
            delayed_delete_records: Vec::new(),
            delayed_txn_writes: Vec::new(),
            parked_fetches: Vec::new(),
            next_isr_check_ms: 0,
            coordinator_loads: SortedMap::new(),
            registry: Default::default(),
        }
    }

    /// Whether the broker is running (stopped by a crash or a clean shutdown: false).
    pub fn is_online(&self) -> bool {
        self.online
    }

    /// The partitions this broker holds, by topic partition (`ReplicaManager`'s logs).
    /// Read-only: a log changes only through the requests this broker handles.
    pub fn logs(&self) -> &SortedMap<TopicPartition, UnifiedLog> {
        &self.logs
    }

    /// The transaction coordinator for the `__transaction_state` partitions we lead.
    pub fn txn_coordinator(&self) -> &TransactionCoordinator {
        &self.txn_coordinator
    }

    /// Committed offsets of the groups whose `__consumer_offsets` partitions we lead.
    pub fn group_coordinator(&self) -> &GroupCoordinator {
        &self.group_coordinator
    }

    /// Partition leaders as the controller last told us (Kafka's `MetadataCache`).
    pub fn metadata(&self) -> &SortedMap<TopicPartition, i32> {
        &self.metadata
    }

    /// `UpdateMetadata` from the controller: `leader` now leads `tp`.
    pub fn update_metadata(&mut self, tp: TopicPartition, leader: i32) {
        #[cfg(feature = "topic-admin")]
        self.deleted.remove(&tp);
        self.metadata.insert(tp, leader);
    }

    /// `producer.snapshots` changed: every partition here follows the new setting.
    pub fn set_producer_snapshots(&mut self, on: bool) {
        for log in self.logs.values_mut() {
            log.set_producer_snapshots(on);
        }
    }

    /// NOT KAFKA: the "break it" switches changed; every partition here follows them.
    pub fn set_breaks(&mut self, breaks: crate::breaks::Breaks) {
        self.log_config.breaks = breaks;
        self.txn_coordinator.set_breaks(breaks);
        for log in self.logs.values_mut() {
            log.set_breaks(breaks);
        }
    }

    pub fn partition_dir(tp: &TopicPartition) -> String {
        format!("{LOG_DIR}/{tp}")
    }

    /// Creates an empty partition this broker leads.
    pub fn create_partition(&mut self, tp: TopicPartition) -> Result<(), FsError> {
        if self.logs.contains_key(&tp) {
            return Ok(());
        }
        let dir = Self::partition_dir(&tp);
        let log = UnifiedLog::create(&mut self.fs, &dir, tp.clone(), self.log_config.clone())?;
        self.logs.insert(tp, log);
        Ok(())
    }

    /// Becomes the coordinator of an internal partition this broker leads: loads the
    /// transactions or the committed offsets from its records.
    pub fn load_internal_partition(
        &mut self,
        tp: &TopicPartition,
        now_ms: i64,
    ) -> Vec<BrokerEvent> {
        if tp.topic == TRANSACTION_STATE_TOPIC {
            return self.load_transaction_partition(tp.partition, now_ms);
        }
        if tp.topic == GROUP_METADATA_TOPIC {
            self.load_group_partition(tp);
        }
        Vec::new()
    }

    /// The window of every producer in a partition, oldest batch first.
    pub fn windows(&self, tp: &TopicPartition) -> Vec<(i64, Vec<SeqRange>)> {
        self.logs
            .get(tp)
            .map(|log| {
                log.producer_state()
                    .active_producers()
                    .values()
                    .map(|e| {
                        (
                            e.producer_id(),
                            e.batch_metadata()
                                .iter()
                                .map(|b| (b.first_seq(), b.last_seq))
                                .collect(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    pub(super) fn window_of(&self, tp: &TopicPartition, producer_id: i64) -> Vec<SeqRange> {
        self.windows(tp)
            .into_iter()
            .find(|(p, _)| *p == producer_id)
            .map(|(_, w)| w)
            .unwrap_or_default()
    }

    /// Handles one request (`KafkaApis.handle`).
    /// `token` identifies the request's connection to the world, for an answer that
    /// comes later (a Produce waiting for its transaction to be verified).
    pub fn handle(&mut self, request: Request, token: u64, now_ms: i64) -> Handled {
        let coordinator_call = request
            .coordinator_txn_id()
            .map(|id| self.txn_timeout_of(id, &request));
        let before = coordinator_call.map(|_| self.txn_log_ends());
        let marked = match &request {
            Request::WriteTxnMarkers { markers } => {
                let tps: Vec<TopicPartition> =
                    markers.iter().flat_map(|m| m.partitions.clone()).collect();
                Some(self.marker_log_ends(&tps))
            }
            _ => None,
        };
        let mut handled = self.handle_request(request, token, now_ms);
        self.maybe_increment_leader_hws(now_ms, &mut handled);
        if let Some(marked) = marked {
            self.hold_markers_until_replicated(&marked, token, now_ms, &mut handled);
        }
        if let (Some(timeout_ms), Some(before)) = (coordinator_call, before) {
            self.hold_until_replicated(&before, Some(token), timeout_ms, now_ms, &mut handled);
        }
        // Whatever this request wrote may answer a follower's held fetch.
        self.complete_parked_fetches(now_ms, &mut handled);
        handled
    }

    /// `KafkaApis.handle`: a request to the handler of its API family.
    fn handle_request(&mut self, request: Request, token: u64, now_ms: i64) -> Handled {
        // The transaction coordinator's APIs, when this broker cannot answer for the
        // id's `__transaction_state` partition (NOT_COORDINATOR, loading, …).
        if let Some(error) = request
            .coordinator_txn_id()
            .and_then(|id| self.txn_coordinator_error(id))
        {
            return Handled::reply(crate::protocol::error_response(&request, error));
        }
        match request {
            request @ (Request::InitProducerId { .. }
            | Request::AddPartitionsToTxn { .. }
            | Request::AddOffsetsToTxn { .. }
            | Request::EndTxn { .. }
            | Request::WriteTxnMarkers { .. }
            | Request::DescribeTransactions { .. }
            | Request::ListTransactions { .. }) => self.handle_txn_api(request, now_ms),
            Request::FindCoordinator { key, key_type } => {
                self.handle_find_coordinator(&key, key_type)
            }
            request @ (Request::OffsetCommit { .. }
            | Request::TxnOffsetCommit { .. }
            | Request::OffsetFetch { .. }) => self.handle_offset_api(request, token, now_ms),
            #[cfg(feature = "group-membership")]
            request @ (Request::JoinGroup { .. }
            | Request::SyncGroup { .. }
            | Request::Heartbeat { .. }
            | Request::LeaveGroup { .. }) => self.handle_group_membership(request, token, now_ms),
            request @ (Request::Produce { .. }
            | Request::Fetch { .. }
            | Request::ReplicaFetch { .. }
            | Request::ListOffsets { .. }
            | Request::DeleteRecords { .. }
            | Request::OffsetsForLeaderEpoch { .. }) => {
                self.handle_partition_api(request, token, now_ms)
            }
            other => invalid_request(&other),
        }
    }

    /// The transaction APIs: producer ids, a transaction's partitions and end, the
    /// markers, and the admin's describe and list.
    fn handle_txn_api(&mut self, request: Request, now_ms: i64) -> Handled {
        match request {
            Request::InitProducerId {
                transactional_id: None,
                ..
            } => self.handle_init_producer_id(now_ms),
            Request::InitProducerId {
                transactional_id: Some(id),
                transaction_timeout_ms,
                producer_id,
                producer_epoch,
            } => {
                let expected = (producer_id != -1 || producer_epoch != -1)
                    .then_some((producer_id, producer_epoch));
                self.handle_txn_init_producer_id(id, transaction_timeout_ms, expected, now_ms)
            }
            Request::WriteTxnMarkers { markers } => self.handle_write_txn_markers(markers, now_ms),
            Request::AddPartitionsToTxn {
                transactional_id,
                producer_id,
                producer_epoch,
                partitions,
                verify_only,
            } => self.handle_add_partitions_to_txn(
                transactional_id,
                producer_id,
                producer_epoch,
                partitions,
                verify_only,
                now_ms,
            ),
            Request::AddOffsetsToTxn {
                transactional_id,
                producer_id,
                producer_epoch,
                group_id,
            } => self.handle_add_offsets_to_txn(
                transactional_id,
                (producer_id, producer_epoch),
                &group_id,
                now_ms,
            ),
            Request::EndTxn {
                transactional_id,
                producer_id,
                producer_epoch,
                committed,
                version,
            } => self.handle_end_txn(
                transactional_id,
                (producer_id, producer_epoch),
                committed,
                version,
                now_ms,
            ),
            Request::DescribeTransactions { transactional_ids } => {
                self.handle_describe_transactions(transactional_ids)
            }
            Request::ListTransactions {
                state_filters,
                producer_id_filters,
                duration_filter_ms,
            } => self.handle_list_transactions(
                (&state_filters, &producer_id_filters, duration_filter_ms),
                now_ms,
            ),
            other => invalid_request(&other),
        }
    }

    /// The group coordinator's offset APIs (a transaction's offsets included).
    fn handle_offset_api(&mut self, request: Request, token: u64, now_ms: i64) -> Handled {
        match request {
            Request::OffsetCommit {
                group_id,
                offsets,
                generation_id,
                member_id,
                group_instance_id,
            } => {
                let member = CommitMember {
                    generation_id,
                    member_id,
                    group_instance_id,
                };
                self.handle_offset_commit(group_id, offsets, member, now_ms)
            }
            Request::TxnOffsetCommit {
                transactional_id,
                group_id,
                producer_id,
                producer_epoch,
                offsets,
                generation_id,
                member_id,
                group_instance_id,
                version,
            } => {
                let pending = super::group_apis::PendingTxnOffsetCommit {
                    token,
                    version: version.unwrap_or(if self.txn_features.v2() { 5 } else { 4 }),
                    group_id,
                    producer_id,
                    producer_epoch,
                    offsets,
                    member: CommitMember {
                        generation_id,
                        member_id,
                        group_instance_id,
                    },
                    unknown_partitions: Vec::new(),
                };
                self.handle_txn_offset_commit(transactional_id, pending, now_ms)
            }
            Request::OffsetFetch {
                group_id,
                partitions,
                require_stable,
            } => self.handle_offset_fetch(group_id, partitions, require_stable),
            other => invalid_request(&other),
        }
    }

    /// The partition APIs a leader answers (`ReplicaManager`'s part): produce, the
    /// consumers' and followers' fetches, offsets, DeleteRecords.
    fn handle_partition_api(&mut self, request: Request, token: u64, now_ms: i64) -> Handled {
        match request {
            Request::Produce {
                transactional_id,
                acks,
                timeout_ms,
                topic_partition,
                records,
            } => self.handle_produce(
                acks,
                i64::from(timeout_ms),
                topic_partition,
                records,
                transactional_id,
                token,
                now_ms,
            ),
            Request::Fetch {
                topic_partition,
                fetch_offset,
                max_bytes,
                isolation,
                current_leader_epoch,
            } => self.handle_fetch(
                topic_partition,
                (fetch_offset, current_leader_epoch),
                max_bytes,
                isolation,
            ),
            request @ Request::ReplicaFetch { .. } => {
                self.handle_replica_fetch(request, token, now_ms)
            }
            Request::ListOffsets {
                topic_partition,
                isolation,
                earliest,
                current_leader_epoch,
            } => {
                self.handle_list_offsets(topic_partition, isolation, earliest, current_leader_epoch)
            }
            Request::DeleteRecords {
                partitions,
                timeout_ms,
            } => self.handle_delete_records(partitions, timeout_ms, token, now_ms),
            Request::OffsetsForLeaderEpoch {
                topic_partition,
                current_leader_epoch,
                leader_epoch,
            } => Handled::reply(self.handle_offsets_for_leader_epoch(
                topic_partition,
                current_leader_epoch,
                leader_epoch,
            )),
            other => invalid_request(&other),
        }
    }

    /// The answer to one of our inter-broker requests.
    pub fn handle_broker_response(&mut self, tag: u64, response: Response, now_ms: i64) -> Handled {
        if matches!(response, Response::ReplicaFetch { .. }) {
            return self.handle_replica_fetch_response(tag, response, now_ms);
        }
        if matches!(response, Response::ListOffsets { .. }) {
            return self.handle_offset_reset_response(tag, response, now_ms);
        }
        if self.pending_verifications.contains_key(&tag) {
            let mut handled = self.complete_verification(tag, response, now_ms);
            self.maybe_increment_leader_hws(now_ms, &mut handled);
            self.complete_parked_fetches(now_ms, &mut handled);
            return handled;
        }
        if self.pending_markers.contains_key(&tag) {
            let before = self.txn_log_ends();
            let mut handled = self.complete_marker_send(tag, response, now_ms);
            self.maybe_increment_leader_hws(now_ms, &mut handled);
            let timeout = super::delayed_txn_write::DEFAULT_TXN_TIMEOUT_MS;
            self.hold_until_replicated(&before, None, timeout, now_ms, &mut handled);
            self.complete_parked_fetches(now_ms, &mut handled);
            return handled;
        }
        if self.pending_offset_commits.contains_key(&tag) {
            let mut handled = self.complete_offset_verification(tag, response, now_ms);
            self.maybe_increment_leader_hws(now_ms, &mut handled);
            return handled;
        }
        Handled::default()
    }

    /// The controller's answer to our `AllocateProducerIds`
    /// (`handleAllocateProducerIdsResponse`): a valid block waits as the next one; an
    /// error or an invalid range means asking again after the backoff.
    pub fn handle_controller_response(
        &mut self,
        response: Response,
        now_ms: i64,
    ) -> Vec<BrokerEvent> {
        match response {
            Response::AllocateProducerIds {
                error: Errors::None,
                producer_id_start,
                producer_id_len,
            } if self
                .producer_ids
                .receive_block(producer_id_start, producer_id_len, now_ms) =>
            {
                let last = producer_id_start + i64::from(producer_id_len) - 1;
                vec![BrokerEvent::ProducerIdBlockReceived {
                    first: producer_id_start,
                    last,
                }]
            }
            Response::AllocateProducerIds {
                error: Errors::None,
                ..
            } => Vec::new(),
            _ => {
                self.producer_ids.allocation_failed(now_ms);
                Vec::new()
            }
        }
    }

    /// InitProducerId without a transactional.id: a fresh id, epoch 0. The id at
    /// 90 % of the block also asks the controller for the next block.
    fn handle_init_producer_id(&mut self, now_ms: i64) -> Handled {
        let generated = self.producer_ids.generate_producer_id(now_ms);
        let (Generated::Id { ask_controller, .. } | Generated::NotYet { ask_controller }) =
            generated;
        let outbound = if ask_controller {
            vec![Outbound::ToController(Request::AllocateProducerIds {
                broker_id: self.id,
            })]
        } else {
            Vec::new()
        };
        let (error, producer_id, producer_epoch, event) = match generated {
            Generated::Id { id, .. } => (
                Errors::None,
                id,
                0,
                BrokerEvent::ProducerIdAssigned {
                    producer_id: id,
                    producer_epoch: 0,
                },
            ),
            Generated::NotYet { ask_controller } => (
                ProducerIdManager::WAIT_ERROR,
                -1,
                -1,
                BrokerEvent::ProducerIdNotReady {
                    asked_controller: ask_controller,
                },
            ),
        };
        Handled {
            deferred: Vec::new(),
            response: Some(Response::InitProducerId {
                error,
                producer_id,
                producer_epoch,
            }),
            events: vec![event],
            outbound,
        }
    }

    /// The timeout of a coordinator write for this request (`appendTransactionToLog`
    /// waits up to the transaction's `transaction.timeout.ms`).
    fn txn_timeout_of(&self, transactional_id: &str, request: &Request) -> i64 {
        if let Request::InitProducerId {
            transaction_timeout_ms,
            ..
        } = request
        {
            return i64::from(*transaction_timeout_ms);
        }
        self.txn_coordinator
            .metadata(transactional_id)
            .map_or(super::delayed_txn_write::DEFAULT_TXN_TIMEOUT_MS, |m| {
                i64::from(m.txn_timeout_ms())
            })
    }
}

/// A request this handler does not serve: INVALID_REQUEST.
fn invalid_request(request: &Request) -> Handled {
    Handled::reply(crate::protocol::error_response(
        request,
        Errors::InvalidRequest,
    ))
}
