//! The world: a logical clock, the brokers, the controller, the clients and the
//! network between them. Only the world moves messages; brokers and clients are
//! state machines that take a message and return messages (sans-IO).
//!
//! Deterministic by construction: no wall clock, no threads, seeded RNGs (each
//! producer's retry jitter), and a total order on everything that happens
//! (delivery time, then message id).

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

use serde::Serialize;

use super::action::Action;
use super::error::{SimError, SimErrorKind};
use super::event::{Event, EventKind, FaultChange};
use super::network::{Fault, Network, Node};
use crate::broker::broker::{Broker, BrokerEvent};
use crate::client::consumer::Consumer;
use crate::client::producer::{Producer, ProducerConfig};
use crate::client::transaction_manager::{Begun, TxnCall};
use crate::controller::ProducerIdControlManager;
use crate::log::{LogConfig, TopicPartition};
use crate::protocol::OffsetEntry;
use crate::protocol::{Errors, Request, Response};
use crate::util::ordered::CollectSorted;

pub(crate) use super::config::apply_log_config;
pub use super::config::ClusterConfig;

/// The largest cluster (replication needs up to five brokers).
pub const MAX_BROKERS: i32 = 5;
/// The logical clock starts here (2023-11-14T22:13:20Z), so timestamps look real.
pub const START_MS: i64 = 1_700_000_000_000;
/// The name of the hand-driven "bare socket" client.
pub const RAW_CLIENT: &str = "raw";
/// How long a broker waits for another broker's answer before sending again
/// (`request.timeout.ms`).
pub const INTER_BROKER_TIMEOUT_MS: i64 = 30_000;
/// `transaction.abort.timed.out.transaction.cleanup.interval.ms` (Kafka's default).
pub const TXN_CLEANUP_INTERVAL_MS: i64 = 10_000;
/// The API whose requests `hold markers` keeps in the network.
pub const WRITE_TXN_MARKERS: &str = "WriteTxnMarkers";
/// The furthest one step jumps the clock (an int of milliseconds, ≈ 24.8 days).
pub const MAX_WAIT_MS: i64 = i32::MAX as i64;
/// A run stops after this many steps even if something is still going on.
pub const MAX_STEPS_PER_RUN: usize = 20_000;

/// A topic and where its partitions live.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopicInfo {
    pub name: String,
    pub partitions: i32,
    /// Leader broker of each partition (-1: none), as the controller last decided.
    pub leaders: Vec<i32>,
    pub config: LogConfig,
    /// `replication.factor`, `min.insync.replicas`, `unclean.leader.election.enable`.
    pub replication: crate::controller::ReplicationConfig,
    /// The controller's record of each partition: replicas, leader, epoch, ISR.
    pub registrations: Vec<crate::controller::PartitionRegistration>,
}

/// The answer to a raw request, for the transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RawOutcome {
    /// The retries before the answer, worded by the edge in the reader's language
    /// (`i18n::transcript::raw_lines`) before `lines`.
    pub retries: Vec<RawRetry>,
    /// The answer as Kafka's tools print it.
    pub lines: Vec<String>,
    pub response: Option<Response>,
}

/// A raw request the broker answered with a retriable error: the client waits
/// `retry.backoff.ms` and asks again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RawRetry {
    pub error: Errors,
    pub backoff_ms: i64,
}

#[derive(Clone, Debug)]
pub struct World {
    pub(super) config: ClusterConfig,
    pub(super) clock_ms: i64,
    pub(crate) brokers: SortedMap<i32, Broker>,
    pub(crate) controller: ProducerIdControlManager,
    pub(crate) topics: SortedMap<String, TopicInfo>,
    pub(super) producers: SortedMap<String, Producer>,
    pub(super) consumers: SortedMap<String, Consumer>,
    /// Fetches in flight for consumers: correlation id → (consumer, partition).
    pub(super) consumer_fetches: SortedMap<u64, (String, TopicPartition)>,
    pub(super) network: Network,
    pub(super) events: Vec<Event>,
    /// Broker-wide defaults for new topics, and the snapshot switch.
    pub(super) broker_defaults: LogConfig,
    pub(super) next_correlation_id: u64,
    /// Inter-broker requests waiting for an answer: (from, tag) → (to, request, retry time).
    pub(super) inter_broker: SortedMap<(i32, u64), (i32, Request, i64)>,
    /// When the coordinators next look for timed-out transactions.
    pub(super) next_txn_cleanup_ms: i64,
    /// The next `PeriodicProducerExpirationCheck` tick (every
    /// `producer.id.expiration.check.interval.ms`).
    pub(super) next_producer_expiry_check_ms: i64,
    /// The next `transactionalId-expiration` tick (every
    /// `transaction.remove.expired.transaction.cleanup.interval.ms`).
    pub(super) next_txn_id_expiration_ms: i64,
    /// The next `kafka-log-retention` tick (`LogManager.cleanupLogs`, every
    /// `log.retention.check.interval.ms`).
    pub(super) next_retention_check_ms: i64,
    /// The next `kafka-log-start-offset-checkpoint` tick (every
    /// `log.flush.start.offset.checkpoint.interval.ms`).
    pub(super) next_log_start_checkpoint_ms: i64,
    /// The next `highwatermark-checkpoint` tick.
    pub(super) next_hw_checkpoint_ms: i64,
    /// Who is waiting for the answer to a request a broker is handling, by token.
    pub(super) reply_to: SortedMap<u64, (Node, u64)>,
    pub(super) next_reply_token: u64,
    /// Responses delivered to the raw client, by correlation id.
    pub(super) raw_inbox: SortedMap<u64, Response>,
    /// Producers to poll at the current time: touched since their last poll (an action, a
    /// response), or still making progress. Polling only these keeps a step's cost
    /// independent of how many producers sit idle.
    pub(crate) ready: SortedSet<String>,
    /// Each idle producer's next timer (a retry, a request timeout), by time.
    pub(super) wakeups: SortedSet<(i64, String)>,
    pub(super) wake_of: SortedMap<String, i64>,
    /// NOT KAFKA: the "break it" switches that are on (all off: Kafka).
    pub(super) breaks: crate::breaks::Breaks,
    /// Some topic has more than one replica: replication runs (off, the world is
    /// exactly the single-replica one).
    pub(crate) replicated: bool,
    /// Brokers the controller has fenced: stopped (a controlled shutdown at once, a
    /// crash once its session ran out), or running but cut off from it past its
    /// session. A broker leaves the set when it registers again.
    pub(crate) fenced: SortedSet<i32>,
    /// Brokers whose heartbeats stopped (crashed, or cut off from the controller) and
    /// that the controller has not fenced yet: their last heartbeat, and the number of
    /// events before it (brokers silent since the same millisecond are fenced in the
    /// order they fell silent). The controller fences them once
    /// `broker.session.timeout.ms` has passed.
    pub(crate) session_cut_at: SortedMap<i32, (i64, usize)>,
    /// Brokers started again while their previous incarnation's session still ran:
    /// the controller refused their registration, and they ask again later.
    pub(crate) pending_registrations: SortedMap<i32, crate::controller::PendingRegistration>,
    /// Connections between brokers that failed in a row, by (from, to): the next
    /// reconnect waits longer (`reconnect.backoff.ms` doubling). A delivery clears it.
    pub(super) reconnect_failures: SortedMap<(i32, i32), u32>,
    /// When the controller next tries to give partitions back to their preferred
    /// leaders (`maybeBalancePartitionLeaders`), if some leader is not preferred.
    pub(crate) leader_balance_due_ms: Option<i64>,
    /// When the controller next looks for leaderless partitions to elect uncleanly
    /// (`maybeElectUncleanLeaders`), while some partition has no leader.
    #[cfg(feature = "topic-admin")]
    pub(crate) unclean_election_due_ms: Option<i64>,
    /// Brokers in controlled shutdown: their leaderships moved away, they leave
    /// every ISR and may not rejoin one until they register again.
    pub(crate) shutting_down: SortedSet<i32>,
    /// Each broker's epoch: bumped at every registration (a start).
    pub(crate) broker_epochs: SortedMap<i32, i64>,
    /// `offsets.topic.replication.factor`, `transaction.state.log.*`.
    pub(super) internal_topics: super::internal_topics::InternalTopicsConfig,
    /// Internal topics whose creation was refused (said once until a setting changes).
    pub(super) internal_create_refused: SortedSet<String>,
    /// The controller's decisions as records of `__cluster_metadata`.
    #[cfg(feature = "metadata-log")]
    pub(crate) metadata_log: crate::controller::metadata_log::MetadataLog,
    /// The controllers as a Raft quorum (`controllers` on the `cluster` line).
    #[cfg(feature = "metadata-log")]
    pub(crate) quorum: crate::controller::quorum::ControllerQuorum,
    /// The last leader the brokers heard of, addressed while an election runs.
    #[cfg(feature = "metadata-log")]
    pub(crate) last_known_controller: i32,
    /// Brokers' requests waiting for a controller to lead (`NodeToControllerChannelManager`).
    #[cfg(feature = "metadata-log")]
    pub(crate) controller_queue: Vec<(i32, crate::protocol::Request)>,
}

impl World {
    pub fn new(config: ClusterConfig) -> Self {
        let brokers = config.brokers.clamp(1, MAX_BROKERS);
        let broker_defaults = LogConfig::default();
        let first_expiry_check =
            START_MS + broker_defaults.producer_id_expiration_check_interval_ms;
        let mut world = World {
            clock_ms: START_MS,
            brokers: (1..=brokers)
                .map(|id| {
                    let mut b = Broker::new(id, broker_defaults.clone());
                    b.set_txn_features(config.txn_features());
                    b.set_internal_topic_partitions(
                        config.offsets_topic_num_partitions,
                        config.transaction_state_log_num_partitions,
                    );
                    (id, b)
                })
                .collect_map(),
            controller: ProducerIdControlManager::default(),
            topics: SortedMap::new(),
            producers: SortedMap::new(),
            consumers: SortedMap::new(),
            consumer_fetches: SortedMap::new(),
            network: Network::new(config.latency_ms.max(0)),
            events: Vec::new(),
            broker_defaults,
            next_correlation_id: 1,
            reply_to: SortedMap::new(),
            next_txn_cleanup_ms: START_MS + TXN_CLEANUP_INTERVAL_MS,
            next_producer_expiry_check_ms: first_expiry_check,
            next_txn_id_expiration_ms: START_MS
                + crate::coordinator::transaction::TransactionConfig::default()
                    .remove_expired_transactional_ids_interval_ms,
            next_retention_check_ms: START_MS + super::housekeeping::LOG_INITIAL_TASK_DELAY_MS,
            next_log_start_checkpoint_ms: START_MS + super::housekeeping::LOG_INITIAL_TASK_DELAY_MS,
            next_hw_checkpoint_ms: START_MS
                + crate::broker::hw_checkpoint::HW_CHECKPOINT_INTERVAL_MS,
            inter_broker: SortedMap::new(),
            next_reply_token: 1,
            raw_inbox: SortedMap::new(),
            ready: SortedSet::new(),
            wakeups: SortedSet::new(),
            wake_of: SortedMap::new(),
            breaks: crate::breaks::Breaks::default(),
            replicated: false,
            fenced: SortedSet::new(),
            session_cut_at: SortedMap::new(),
            pending_registrations: SortedMap::new(),
            reconnect_failures: SortedMap::new(),
            leader_balance_due_ms: None,
            #[cfg(feature = "topic-admin")]
            unclean_election_due_ms: None,
            shutting_down: SortedSet::new(),
            broker_epochs: (1..=brokers).map(|id| (id, i64::from(id))).collect_map(),
            internal_topics: Default::default(),
            internal_create_refused: SortedSet::new(),
            #[cfg(feature = "metadata-log")]
            metadata_log: Default::default(),
            #[cfg(feature = "metadata-log")]
            quorum: crate::controller::quorum::ControllerQuorum::new(
                &crate::controller::quorum::voter_ids(config.controllers),
                config.seed,
                START_MS,
            ),
            #[cfg(feature = "metadata-log")]
            last_known_controller: crate::controller::quorum::voter_ids(config.controllers)[0],
            #[cfg(feature = "metadata-log")]
            controller_queue: Vec::new(),
            config: ClusterConfig { brokers, ..config },
        };
        world.publish_broker_registrations();
        #[cfg(feature = "metadata-log")]
        world.write_metadata();
        world
    }

    // The read API: what views, the checker, the CLI and tests may see of the world.
    // Only the world (and the controller's and admin tools' duties on it) changes these,
    // so an invariant such as a clock that only moves forward has one owner.

    /// The logical clock, in milliseconds (Kafka's `Time.milliseconds()`).
    pub fn clock_ms(&self) -> i64 {
        self.clock_ms
    }

    /// The cluster's settings (brokers, seed, latency, `transaction.version`).
    pub fn config(&self) -> &ClusterConfig {
        &self.config
    }

    /// Every broker, by id.
    pub fn brokers(&self) -> &SortedMap<i32, Broker> {
        &self.brokers
    }

    /// One broker, by id.
    pub fn broker(&self, id: i32) -> Option<&Broker> {
        self.brokers.get(&id)
    }

    /// Every topic, by name, as the controller's metadata has it.
    pub fn topics(&self) -> &SortedMap<String, TopicInfo> {
        &self.topics
    }

    /// One topic, by name.
    pub fn topic(&self, name: &str) -> Option<&TopicInfo> {
        self.topics.get(name)
    }

    /// Every producer client, by name.
    pub fn producers(&self) -> &SortedMap<String, Producer> {
        &self.producers
    }

    /// One producer client, by name.
    pub fn producer(&self, name: &str) -> Option<&Producer> {
        self.producers.get(name)
    }

    /// Every consumer client, by name.
    pub fn consumers(&self) -> &SortedMap<String, Consumer> {
        &self.consumers
    }

    /// One consumer client, by name.
    pub fn consumer(&self, name: &str) -> Option<&Consumer> {
        self.consumers.get(name)
    }

    /// The network between the nodes: messages in flight, held, and the faults on.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// Everything that happened, in order (an event's `seq` is its index).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The broker-wide defaults new topics start from (`log.*`, `producer.id.*`).
    pub fn broker_defaults(&self) -> &LogConfig {
        &self.broker_defaults
    }

    /// A consumer to tamper with, for the checker's tests (a hand-made poll).
    #[cfg(test)]
    pub(crate) fn consumer_mut(&mut self, name: &str) -> Option<&mut Consumer> {
        self.consumers.get_mut(name)
    }

    pub(crate) fn emit(&mut self, kind: EventKind) {
        let seq = self.events.len() as u64;
        self.events.push(Event {
            seq,
            at_ms: self.clock_ms,
            kind,
        });
    }

    /// The leader broker of a partition, if the topic exists.
    pub fn leader_of(&self, tp: &TopicPartition) -> Option<i32> {
        self.topics
            .get(&tp.topic)?
            .leaders
            .get(usize::try_from(tp.partition).ok()?)
            .copied()
    }

    /// Every partition with the broker that leads it, topic by topic.
    pub fn partition_leaders(&self) -> impl Iterator<Item = (TopicPartition, i32)> + '_ {
        self.topics.values().flat_map(|t| {
            t.leaders
                .iter()
                .enumerate()
                .map(|(p, l)| (TopicPartition::new(t.name.clone(), p as i32), *l))
        })
    }

    pub(super) fn check_partition(&self, tp: &TopicPartition) -> Result<i32, SimError> {
        self.leader_of(tp)
            .ok_or_else(|| SimError::from(SimErrorKind::UnknownPartition { tp: tp.clone() }))
    }

    /// Applies one action. On error nothing has changed. Returns transcript lines.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        let result = self.apply_action(action);
        // What the controller decided that no other write carried (a topic of one
        // replica, a config, a deletion) is written when the action ends.
        #[cfg(feature = "metadata-log")]
        self.write_metadata();
        result
    }

    fn apply_action(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::SetBrokerConfig { key, value }
                if key == "transactional.id.expiration.ms"
                    || key == "transaction.remove.expired.transaction.cleanup.interval.ms" =>
            {
                self.set_transactional_id_expiration(key, value)?;
                self.emit(EventKind::ConfigChanged {
                    key: key.clone(),
                    value: value.clone(),
                });
                Ok(vec![])
            }
            Action::SetBrokerConfig { key, value } if key == "transaction.max.timeout.ms" => {
                let parsed = crate::protocol::config_def::parse(
                    crate::protocol::config_def::Place::Broker,
                    key,
                    value,
                )?;
                // An INT key with `atLeast(1)`: it fits an i32.
                let max_ms = i32::try_from(parsed.number()).unwrap_or(i32::MAX);
                for b in self.brokers.values_mut() {
                    b.set_max_transaction_timeout(max_ms);
                }
                self.emit(EventKind::ConfigChanged {
                    key: key.clone(),
                    value: value.clone(),
                });
                Ok(vec![])
            }
            Action::SetBrokerConfig { key, value }
                if super::internal_topics::InternalTopicsConfig::KEYS.contains(&key.as_str()) =>
            {
                self.set_internal_topic_config(key, value)?;
                Ok(vec![])
            }
            Action::SetBrokerConfig { key, value } => {
                let mut config = self.broker_defaults.clone();
                apply_log_config(&mut config, key, value)?;
                self.broker_defaults = config.clone();
                if key == "producer.id.expiration.check.interval.ms" {
                    self.next_producer_expiry_check_ms = self
                        .clock_ms
                        .saturating_add(config.producer_id_expiration_check_interval_ms);
                }
                if key == "log.retention.check.interval.ms" {
                    self.next_retention_check_ms = self
                        .clock_ms
                        .saturating_add(config.retention_check_interval_ms);
                }
                for broker in self.brokers.values_mut() {
                    broker.log_config = config.clone();
                    if key == "producer.snapshots" {
                        broker.set_producer_snapshots(config.producer_snapshots);
                    }
                    // Broker-wide in Kafka: every partition follows at once.
                    broker.set_producer_id_expiration(&config);
                    broker.set_log_retention_check_interval(&config);
                }
                for topic in self.topics.values_mut() {
                    if key == "producer.snapshots" {
                        topic.config.producer_snapshots = config.producer_snapshots;
                    }
                    topic.config.producer_id_expiration_ms = config.producer_id_expiration_ms;
                    topic.config.producer_id_expiration_check_interval_ms =
                        config.producer_id_expiration_check_interval_ms;
                    topic.config.retention_check_interval_ms = config.retention_check_interval_ms;
                }
                self.emit(EventKind::ConfigChanged {
                    key: key.clone(),
                    value: value.clone(),
                });
                Ok(vec![])
            }
            Action::CreateTopic {
                name,
                partitions,
                configs,
            } => self.create_topic(name, *partitions, configs),
            #[cfg(feature = "topic-admin")]
            Action::AlterTopicConfigs { name, configs } => self.alter_topic_configs(name, configs),
            #[cfg(feature = "topic-admin")]
            Action::CreatePartitions {
                name,
                partitions,
                assignment,
            } => self.create_partitions(name, *partitions, assignment),
            #[cfg(feature = "topic-admin")]
            Action::DeleteTopic { name } => self.delete_topic(name),
            #[cfg(feature = "topic-admin")]
            Action::ReassignPartition {
                topic_partition,
                replicas,
            } => self.alter_partition_reassignment(topic_partition, replicas.as_deref()),
            #[cfg(feature = "topic-admin")]
            Action::ListReassignments { partitions } => {
                Ok(self.list_partition_reassignments(partitions))
            }
            Action::CreateProducer { name, configs } => {
                if name == RAW_CLIENT || name.is_empty() {
                    return Err(SimErrorKind::ReservedName { name: name.clone() }.into());
                }
                if self.producers.contains_key(name) {
                    return Err(SimErrorKind::ProducerExists { name: name.clone() }.into());
                }
                let config = ProducerConfig::from_pairs_with(name, configs, self.breaks)?;
                let mut producer = Producer::new(config);
                producer.seed_retry_jitter(self.config.seed);
                producer.set_transaction_v2(self.config.txn_features().v2());
                self.producers.insert(name.clone(), producer);
                self.ready.insert(name.clone());
                Ok(vec![])
            }
            Action::Send {
                producer,
                topic_partition,
                values,
            } => {
                self.check_partition(topic_partition)?;
                if values.is_empty() {
                    return Err(SimErrorKind::EmptySend.into());
                }
                let now = self.clock_ms;
                // Kafka appends the record before `maybeAddPartition` throws; here a
                // refused record is not kept, so it cannot slip into a later transaction.
                let call = TxnCall::Send {
                    tp: topic_partition.clone(),
                };
                if self.txn_call(producer, call)?.is_none() {
                    return Ok(vec![]);
                }
                let event =
                    self.producer_mut(producer)?
                        .send(topic_partition.clone(), values.clone(), now);
                self.emit(EventKind::Producer {
                    client: producer.clone(),
                    event,
                });
                Ok(vec![])
            }
            Action::Flush { producer } => {
                self.producer_mut(producer)?;
                self.run_while(|w| w.producers.get(producer).is_some_and(|p| p.has_pending()));
                Ok(vec![])
            }
            Action::HoldMarkers => Ok(self.hold_requests(WRITE_TXN_MARKERS)),
            Action::ReleaseMarkers => Ok(self.release_requests(WRITE_TXN_MARKERS)),
            Action::HoldRequests { api } => Ok(self.hold_requests(api)),
            Action::ReleaseRequests { api } => Ok(self.release_requests(api)),
            Action::AdminAbortTransaction {
                topic_partition,
                start_offset,
            } => self.admin_abort_transaction(topic_partition, *start_offset),
            Action::AdminDeleteRecords {
                topic_partition,
                offset,
            } => self.admin_delete_records(topic_partition, *offset),
            Action::AdminElectLeaders {
                election,
                partitions,
            } => Ok(self.admin_elect_leaders(*election, partitions)),
            #[cfg(feature = "log-cleaner")]
            Action::CleanLog { topic_partition } => self.clean_log(topic_partition),
            #[cfg(feature = "log-cleaner")]
            Action::TakeSnapshot { topic_partition } => {
                self.take_producer_snapshots(topic_partition)
            }
            #[cfg(feature = "log-cleaner")]
            Action::TruncateLog {
                broker,
                topic_partition,
                offset,
            } => self.truncate_replica(*broker, topic_partition, *offset),
            #[cfg(feature = "set-epoch")]
            Action::SetTxnEpoch {
                transactional_id,
                epoch,
            } => self.set_txn_epoch(transactional_id, *epoch),
            #[cfg(feature = "set-epoch")]
            Action::SetProducerEpoch { producer, epoch } => {
                self.set_producer_epoch(producer, *epoch)
            }
            #[cfg(feature = "log-cleaner")]
            Action::CorruptFile {
                broker,
                path,
                position,
            } => self.corrupt_file(*broker, path, *position),
            Action::CreateConsumer { name, configs } => self.create_consumer(name, configs),
            Action::Assign {
                consumer,
                partitions,
            } => self.assign(consumer, partitions),
            Action::Poll { consumer } => self.poll(consumer),
            Action::Transform {
                producer,
                consumer,
                topic,
            } => self.transform(producer, consumer, topic),
            Action::Seek {
                consumer,
                topic_partition,
                offset,
            } => self.seek(consumer, topic_partition, *offset),
            Action::InitTransactions { producer } => {
                let call = TxnCall::InitTransactions;
                if let Some(begun) = self.txn_call(producer, call.clone())? {
                    let started = self.clock_ms;
                    self.await_txn_call(producer, call, begun);
                    let took = self.clock_ms - started;
                    self.producer_mut(producer)?.set_last_call_ms(took);
                }
                Ok(vec![])
            }
            Action::BeginTransaction { producer } => {
                self.txn_call(producer, TxnCall::BeginTransaction)?;
                Ok(vec![])
            }
            Action::CommitTransaction { producer } => {
                let call = TxnCall::CommitTransaction;
                if let Some(begun) = self.txn_call(producer, call.clone())? {
                    self.await_txn_call(producer, call, begun);
                }
                Ok(vec![])
            }
            Action::AbortTransaction { producer } => {
                let call = TxnCall::AbortTransaction;
                if let Some(begun) = self.txn_call(producer, call.clone())? {
                    if begun == Begun::Started {
                        let events = self.producer_mut(producer)?.abort_transaction();
                        self.emit_producer_events(producer, events);
                    }
                    self.await_txn_call(producer, call, begun);
                }
                Ok(vec![])
            }
            Action::SendOffsetsToTransaction {
                producer,
                group_id,
                offsets,
            } => {
                let call = TxnCall::SendOffsetsToTransaction;
                if self.txn_call(producer, call)?.is_none() {
                    return Ok(vec![]);
                }
                let entries = offsets
                    .iter()
                    .map(|(tp, offset)| OffsetEntry {
                        topic_partition: tp.clone(),
                        offset: *offset,
                    })
                    .collect();
                if let Some(tm) = self.producer_mut(producer)?.txn.as_mut() {
                    tm.send_offsets(group_id.clone(), entries);
                }
                self.run_while(|w| {
                    w.producers
                        .get(producer)
                        .and_then(|p| p.txn.as_ref())
                        .is_some_and(|t| t.has_pending_offsets())
                });
                Ok(vec![])
            }
            // The answer's lines: a front end that shows the retries words them
            // (`i18n::transcript::raw_lines`).
            Action::RawInitProducerId => Ok(self.raw_init_producer_id().lines),
            Action::RawRequest { broker, request } => self.raw(*broker, request.clone()),
            Action::RawProduce {
                topic_partition,
                producer_id,
                producer_epoch,
                base_sequence,
                transactional_id,
                values,
                label,
            } => Ok(self
                .raw_produce(
                    topic_partition,
                    *producer_id,
                    *producer_epoch,
                    *base_sequence,
                    transactional_id.as_deref(),
                    values,
                    label.as_deref(),
                )?
                .lines),
            Action::DropNextRequest { from } => {
                let fault = Fault::DropNextRequest { from: from.clone() };
                let _ = self.network.arm(fault.clone());
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Armed(fault),
                });
                Ok(vec![])
            }
            Action::DropNextResponse { to } => {
                let fault = Fault::DropNextResponse { to: to.clone() };
                let _ = self.network.arm(fault.clone());
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Armed(fault),
                });
                Ok(vec![])
            }
            Action::ArmFault { fault } => {
                // A link to a broker the cluster does not have would be cut in silence.
                if let Fault::Cut { a, b } = fault {
                    for n in [a, b] {
                        if let Node::Broker(id) = n {
                            if !self.brokers.contains_key(id) {
                                return Err(SimErrorKind::NoBroker { id: *id }.into());
                            }
                        }
                    }
                }
                // The quorum catches up to now before a link it uses may be cut.
                self.poll_quorum();
                self.arm_fault(fault.clone());
                self.poll_quorum();
                self.sync_controller_links();
                Ok(vec![])
            }
            Action::ReleaseHeld { api } => {
                let released = self.network.release(api, self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Released {
                        api: api.clone(),
                        released,
                    },
                });
                Ok(vec![])
            }
            Action::ReleaseMessage { id } => {
                let released = self.network.release_id(*id, self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::ReleasedMessage { id: *id, released },
                });
                Ok(vec![])
            }
            Action::HealLink { a, b } => {
                let was_cut = self.network.heal(a, b);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Healed {
                        a: a.clone(),
                        b: b.clone(),
                        was_cut,
                    },
                });
                self.poll_quorum();
                self.sync_controller_links();
                Ok(vec![])
            }
            Action::DisarmFault { fault } => {
                let released = self.network.disarm(fault, self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Disarmed {
                        fault: fault.clone(),
                        was_armed: released.is_some(),
                        released: released.unwrap_or(0),
                    },
                });
                Ok(vec![])
            }
            Action::ClearFaults => {
                let (faults, released) = self.network.clear(self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Cleared { faults, released },
                });
                self.poll_quorum();
                self.sync_controller_links();
                Ok(vec![])
            }
            Action::Break { switch, on } => {
                self.set_break(*switch, *on);
                Ok(vec![])
            }
            Action::Step => {
                self.step();
                Ok(vec![])
            }
            Action::RunUntilIdle => {
                self.run_until_idle();
                Ok(vec![])
            }
            Action::Advance { ms } => {
                if *ms < 0 {
                    return Err(SimErrorKind::TimeBackwards.into());
                }
                // An int of milliseconds (≈ 24.8 days), as Kafka's timeouts: the clock
                // stays far from overflow whatever a link asks for.
                if *ms > i64::from(i32::MAX) {
                    return Err(SimErrorKind::RunTooLong { ms: *ms }.into());
                }
                self.advance(*ms);
                Ok(vec![])
            }
            Action::RestartBroker { broker, clean } => {
                self.stop_broker(*broker, *clean)?;
                self.start_broker(*broker)
            }
            Action::StopBroker { broker, clean } => self.stop_broker(*broker, *clean),
            Action::StartBroker { broker } => self.start_broker(*broker),
            #[cfg(feature = "metadata-log")]
            Action::StopController { controller } => {
                self.stop_controller(*controller).map(|()| vec![])
            }
            #[cfg(feature = "metadata-log")]
            Action::StartController { controller } => {
                self.start_controller(*controller).map(|()| vec![])
            }
        }
    }

    /// NOT KAFKA: the "break it" switches that are on.
    pub fn breaks(&self) -> crate::breaks::Breaks {
        self.breaks
    }

    /// Hands a switch to every place that reads it: the brokers and their logs, the
    /// topics' configs (for logs opened later), and the consumers.
    fn set_break(&mut self, switch: crate::breaks::BreakSwitch, on: bool) {
        self.breaks.set(switch, on);
        let breaks = self.breaks;
        self.broker_defaults.breaks = breaks;
        for broker in self.brokers.values_mut() {
            broker.set_breaks(breaks);
        }
        for topic in self.topics.values_mut() {
            topic.config.breaks = breaks;
        }
        for consumer in self.consumers.values_mut() {
            consumer.breaks = breaks;
        }
        self.emit(EventKind::BreakSwitched { switch, on });
    }

    /// The most recent broker decision on a partition (append, duplicate or rejection).
    pub fn last_verdict(&self, tp: &TopicPartition) -> Option<&BrokerEvent> {
        self.last_verdict_index(tp)
            .and_then(|i| match &self.events[i].kind {
                EventKind::Broker { event, .. } => Some(event),
                _ => None,
            })
    }

    /// Where in [`World::events`] the partition's last verdict is.
    pub fn last_verdict_index(&self, tp: &TopicPartition) -> Option<usize> {
        self.events.iter().rposition(|e| match &e.kind {
            EventKind::Broker { event, .. } => matches!(
                event,
                BrokerEvent::BatchAppended { tp: t, .. }
                | BrokerEvent::BatchDuplicate { tp: t, .. }
                | BrokerEvent::BatchRejected { tp: t, .. }
                    if t == tp
            ),
            _ => false,
        })
    }

    /// Writes every broker's disk to a real folder in Kafka's layout
    /// (`DIR/TOPIC-PARTITION/…` with one broker, `DIR/broker-N/…` with more).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn export(&self, dir: &std::path::Path) -> std::io::Result<usize> {
        let mut written = 0;
        for (id, broker) in &self.brokers {
            let target = if self.brokers.len() == 1 {
                dir.to_path_buf()
            } else {
                dir.join(format!("broker-{id}"))
            };
            written += broker
                .fs
                .export_to(crate::broker::broker::LOG_DIR, &target)?;
        }
        Ok(written)
    }
}
