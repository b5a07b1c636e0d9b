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
use super::event::{Event, EventKind};
use super::network::{Network, Node};
use crate::broker::broker::{Broker, BrokerEvent};
use crate::client::consumer::Consumer;
use crate::client::producer::Producer;
use crate::log::{LogConfig, TopicPartition};
use crate::metadata::ProducerIdControlManager;
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
    pub replication: crate::metadata::ReplicationConfig,
    /// The controller's record of each partition: replicas, leader, epoch, ISR.
    pub registrations: Vec<crate::metadata::PartitionRegistration>,
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
    #[cfg(feature = "group-membership")]
    /// Subscribed consumers' group membership (`ConsumerCoordinator`), by consumer.
    pub(super) memberships: SortedMap<String, crate::client::consumer::ConsumerMembership>,
    #[cfg(feature = "group-membership")]
    /// Membership requests in flight: correlation id → consumer.
    pub(super) member_calls: SortedMap<u64, String>,
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
    pub(crate) pending_registrations:
        SortedMap<i32, crate::broker::broker_lifecycle_manager::PendingRegistration>,
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
    pub(crate) metadata_log: crate::metadata::metadata_log::MetadataLog,
    /// The controllers as a Raft quorum (`controllers` on the `cluster` line).
    #[cfg(feature = "metadata-log")]
    pub(crate) quorum: crate::raft::ControllerQuorum,
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
            #[cfg(feature = "group-membership")]
            memberships: SortedMap::new(),
            #[cfg(feature = "group-membership")]
            member_calls: SortedMap::new(),
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
            quorum: crate::raft::ControllerQuorum::new(
                &crate::raft::voter_ids(config.controllers),
                config.seed,
                START_MS,
            ),
            #[cfg(feature = "metadata-log")]
            last_known_controller: crate::raft::voter_ids(config.controllers)[0],
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

    /// One arm a family: each family's actions are applied beside the rest of its code
    /// (a new action joins its family's arm and its family's `apply_…`).
    fn apply_action(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::SetBrokerConfig { key, value } => self.apply_broker_config(key, value),
            Action::CreateTopic { .. } => self.apply_topic_admin(action),
            #[cfg(feature = "topic-admin")]
            Action::AlterTopicConfigs { .. }
            | Action::CreatePartitions { .. }
            | Action::DeleteTopic { .. }
            | Action::ReassignPartition { .. }
            | Action::ListReassignments { .. } => self.apply_topic_admin(action),
            Action::CreateProducer { .. } | Action::Send { .. } | Action::Flush { .. } => {
                self.apply_producer(action)
            }
            Action::InitTransactions { .. }
            | Action::BeginTransaction { .. }
            | Action::CommitTransaction { .. }
            | Action::AbortTransaction { .. }
            | Action::SendOffsetsToTransaction { .. } => self.apply_transaction(action),
            Action::CreateConsumer { .. }
            | Action::Assign { .. }
            | Action::Poll { .. }
            | Action::Seek { .. } => self.apply_consumer(action),
            #[cfg(feature = "group-membership")]
            Action::Subscribe { .. } | Action::Unsubscribe { .. } => self.apply_consumer(action),
            Action::Transform {
                producer,
                consumer,
                topic,
            } => self.transform(producer, consumer, topic),
            Action::AdminAbortTransaction { .. }
            | Action::AdminDeleteRecords { .. }
            | Action::AdminElectLeaders { .. } => self.apply_admin(action),
            #[cfg(feature = "log-cleaner")]
            Action::CleanLog { .. }
            | Action::TakeSnapshot { .. }
            | Action::TruncateLog { .. }
            | Action::CorruptFile { .. } => self.apply_disk(action),
            #[cfg(feature = "set-epoch")]
            Action::SetTxnEpoch { .. } | Action::SetProducerEpoch { .. } => {
                self.apply_set_epoch(action)
            }
            Action::RawInitProducerId | Action::RawRequest { .. } | Action::RawProduce { .. } => {
                self.apply_raw(action)
            }
            Action::HoldMarkers
            | Action::ReleaseMarkers
            | Action::HoldRequests { .. }
            | Action::ReleaseRequests { .. }
            | Action::DropNextRequest { .. }
            | Action::DropNextResponse { .. }
            | Action::ArmFault { .. }
            | Action::ReleaseHeld { .. }
            | Action::ReleaseMessage { .. }
            | Action::HealLink { .. }
            | Action::DisarmFault { .. }
            | Action::ClearFaults => self.apply_fault(action),
            Action::Break { switch, on } => {
                self.set_break(*switch, *on);
                Ok(vec![])
            }
            Action::Step | Action::RunUntilIdle | Action::Advance { .. } => {
                self.apply_clock(action)
            }
            Action::RestartBroker { .. }
            | Action::StopBroker { .. }
            | Action::StartBroker { .. } => self.apply_broker_lifecycle(action),
            #[cfg(feature = "metadata-log")]
            Action::StopController { .. } | Action::StartController { .. } => {
                self.apply_broker_lifecycle(action)
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
