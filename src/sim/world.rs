//! The world: a logical clock, the brokers, the controller, the clients and the
//! network between them. Only the world moves messages; brokers and clients are
//! state machines that take a message and return messages (sans-IO).
//!
//! Deterministic by construction: no wall clock, no threads, a seeded RNG, and a
//! total order on everything that happens (delivery time, then message id).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::action::Action;
use super::error::{SimError, SimErrorKind};
use super::event::{Event, EventKind, FaultChange};
use super::network::{error_response, Body, Envelope, Fault, Network, Node};
use super::rng::Rng;
use crate::broker::broker::{Broker, BrokerEvent, Handled, Outbound};
use crate::broker::producer_id_manager::ProducerIdControlManager;
use crate::client::config_error::{ConfigError, ConfigRule, ConfigScope};
use crate::client::consumer::Consumer;
use crate::client::producer::{Producer, ProducerConfig, ProducerEvent};
use crate::client::transaction_manager::{Begun, TxnCall, TxnCallError, TxnOutcome, TxnState};
use crate::coordinator::transaction::{TransactionVersion, TxnFeatures};
use crate::fs::FsError;
use crate::log::{LogConfig, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::OffsetEntry;
use crate::protocol::{Request, Response};
use crate::record::RecordBatch;
use crate::util::ordered::CollectSorted;

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

/// Cluster-wide settings fixed when the world is made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ClusterConfig {
    pub brokers: i32,
    /// One-way network latency for every message.
    pub latency_ms: i64,
    pub seed: u64,
    /// The finalized feature level `transaction.version` (0, 1 or 2; Kafka 4.0's
    /// default is 2). Clients negotiate it as Kafka 4.0's do: TV2 if it is ≥ 2.
    #[serde(default = "default_transaction_version")]
    pub transaction_version: i16,
    /// `transaction.partition.verification.enable` (KIP-890 part 1, default true).
    #[serde(default = "default_true")]
    pub transaction_verification: bool,
}

fn default_transaction_version() -> i16 {
    2
}

fn default_true() -> bool {
    true
}

impl ClusterConfig {
    /// What every broker is told: the finalized `transaction.version` and the
    /// verification switch.
    pub fn txn_features(&self) -> TxnFeatures {
        TxnFeatures {
            transaction_version: TransactionVersion(self.transaction_version.clamp(0, 2)),
            verification: self.transaction_verification,
        }
    }
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            brokers: 1,
            latency_ms: 2,
            seed: 1,
            transaction_version: 2,
            transaction_verification: true,
        }
    }
}

/// A topic and where its partitions live.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopicInfo {
    pub name: String,
    pub partitions: i32,
    /// Leader broker of each partition.
    pub leaders: Vec<i32>,
    pub config: LogConfig,
}

/// The answer to a raw request, for the transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RawOutcome {
    pub lines: Vec<String>,
    pub response: Option<Response>,
}

#[derive(Clone, Debug)]
pub struct World {
    pub config: ClusterConfig,
    pub clock_ms: i64,
    pub rng: Rng,
    pub brokers: BTreeMap<i32, Broker>,
    pub controller: ProducerIdControlManager,
    pub topics: BTreeMap<String, TopicInfo>,
    pub producers: BTreeMap<String, Producer>,
    pub consumers: BTreeMap<String, Consumer>,
    /// Fetches in flight for consumers: correlation id → (consumer, partition).
    pub(super) consumer_fetches: BTreeMap<u64, (String, TopicPartition)>,
    pub network: Network,
    pub events: Vec<Event>,
    /// Broker-wide defaults for new topics, and the snapshot switch.
    pub broker_defaults: LogConfig,
    next_correlation_id: u64,
    /// Inter-broker requests waiting for an answer: (from, tag) → (to, request, retry time).
    inter_broker: BTreeMap<(i32, u64), (i32, Request, i64)>,
    /// When the coordinators next look for timed-out transactions.
    next_txn_cleanup_ms: i64,
    /// Who is waiting for the answer to a request a broker is handling, by token.
    reply_to: BTreeMap<u64, (Node, u64)>,
    next_reply_token: u64,
    /// Responses delivered to the raw client, by correlation id.
    raw_inbox: BTreeMap<u64, Response>,
    /// Producers to poll at the current time: touched since their last poll (an action, a
    /// response), or still making progress. Polling only these keeps a step's cost
    /// independent of how many producers sit idle.
    ready: BTreeSet<String>,
    /// Each idle producer's next timer (a retry, a request timeout), by time.
    wakeups: BTreeSet<(i64, String)>,
    wake_of: BTreeMap<String, i64>,
}

impl World {
    pub fn new(config: ClusterConfig) -> Self {
        let brokers = config.brokers.clamp(1, 3);
        let broker_defaults = LogConfig::default();
        World {
            clock_ms: START_MS,
            rng: Rng::new(config.seed),
            brokers: (1..=brokers)
                .map(|id| {
                    let mut b = Broker::new(id, broker_defaults.clone());
                    b.set_txn_features(config.txn_features());
                    (id, b)
                })
                .collect_map(),
            controller: ProducerIdControlManager::default(),
            topics: BTreeMap::new(),
            producers: BTreeMap::new(),
            consumers: BTreeMap::new(),
            consumer_fetches: BTreeMap::new(),
            network: Network::new(config.latency_ms.max(0)),
            events: Vec::new(),
            broker_defaults,
            next_correlation_id: 1,
            reply_to: BTreeMap::new(),
            next_txn_cleanup_ms: START_MS + TXN_CLEANUP_INTERVAL_MS,
            inter_broker: BTreeMap::new(),
            next_reply_token: 1,
            raw_inbox: BTreeMap::new(),
            ready: BTreeSet::new(),
            wakeups: BTreeSet::new(),
            wake_of: BTreeMap::new(),
            config: ClusterConfig { brokers, ..config },
        }
    }

    pub(super) fn emit(&mut self, kind: EventKind) {
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

    pub(super) fn check_partition(&self, tp: &TopicPartition) -> Result<i32, SimError> {
        self.leader_of(tp)
            .ok_or_else(|| SimError::from(SimErrorKind::UnknownPartition { tp: tp.clone() }))
    }

    /// A transactional call, checked as Kafka's client checks it. A refusal is the
    /// outcome of a valid action, so it is an event (and the action is recorded), not
    /// a `SimError`; `None` then. `Resumed` means the same blocking call was pending.
    fn txn_call(&mut self, name: &str, call: TxnCall) -> Result<Option<Begun>, SimError> {
        let p = self.producer_mut(name)?;
        let ids = (p.producer_id, p.producer_epoch);
        let idempotent = p.config.enable_idempotence;
        let result = match p.txn.as_mut() {
            Some(tm) => tm.call(&call, ids),
            // A send on a producer without transactions has nothing to check.
            None if matches!(call, TxnCall::Send { .. }) => Ok(Begun::Started),
            None if idempotent => Err(TxnCallError::NotTransactional),
            None => Err(TxnCallError::NoTransactionManager),
        };
        match result {
            Ok(begun) => Ok(Some(begun)),
            Err(error) => {
                self.finish_txn_call(name, TxnOutcome::Refused { call, error });
                Ok(None)
            }
        }
    }

    /// The application blocks in init, commit or abort until the call finishes (or
    /// the run's bound: then the call stays pending, as after Kafka's `max.block.ms`).
    fn await_txn_call(&mut self, name: &str, call: TxnCall, begun: Begun) {
        if begun == Begun::Resumed {
            // A step, not an ending: the application's last outcome stays as it is.
            self.emit(EventKind::Producer {
                client: name.to_string(),
                event: ProducerEvent::Transaction(TxnOutcome::Resumed { call }),
            });
        }
        let waiting = |w: &World| {
            w.producers
                .get(name)
                .and_then(|p| p.txn.as_ref())
                .is_some_and(|t| t.is_waiting())
        };
        self.run_while(waiting);
        let failed = self
            .touch_producer(name)
            .and_then(|p| p.txn.as_mut())
            .and_then(|t| t.ack());
        if let Some(outcome) = failed {
            self.finish_txn_call(name, outcome);
        }
    }

    fn hold_requests(&mut self, api: &str) -> Vec<String> {
        let fault = Fault::HoldRequests {
            api: api.to_string(),
        };
        self.network.arm(fault.clone());
        self.emit(EventKind::FaultArmed {
            fault: FaultChange::Armed(fault),
        });
        vec![]
    }

    fn release_requests(&mut self, api: &str) -> Vec<String> {
        let released = self.network.release(api, self.clock_ms);
        self.emit(EventKind::FaultArmed {
            fault: FaultChange::Released {
                api: api.to_string(),
                released,
            },
        });
        vec![]
    }

    /// The cluster's `transaction.version` and verification switch (the rules in
    /// force: see `coordinator::transaction::version`).
    pub fn txn_features(&self) -> TxnFeatures {
        self.config.txn_features()
    }

    /// A producer's client-side transaction state.
    pub fn txn_state(&self, producer: &str) -> Option<TxnState> {
        self.producers.get(producer)?.txn.as_ref().map(|t| t.state)
    }

    fn finish_txn_call(&mut self, producer: &str, outcome: TxnOutcome) {
        if let Some(p) = self.touch_producer(producer) {
            p.last_txn_outcome = Some(outcome.clone());
        }
        self.emit(EventKind::Producer {
            client: producer.to_string(),
            event: ProducerEvent::Transaction(outcome),
        });
    }

    /// Steps while `cond` holds (a blocking client call), bounded.
    /// Steps while `cond` holds and something is left to do (every blocking call and
    /// `run` go through here). At most [`MAX_STEPS_PER_RUN`] steps: when the limit rather
    /// than the work ends it, a `RunLimitReached` event says so. Returns the steps taken.
    pub(super) fn run_while(&mut self, cond: impl Fn(&World) -> bool) -> usize {
        let mut steps = 0;
        while cond(self) {
            if steps == MAX_STEPS_PER_RUN {
                let in_flight = self.network.in_flight().count();
                self.emit(EventKind::RunLimitReached {
                    steps: MAX_STEPS_PER_RUN,
                    in_flight,
                });
                break;
            }
            if !self.step() {
                break;
            }
            steps += 1;
        }
        steps
    }

    fn producer_mut(&mut self, name: &str) -> Result<&mut Producer, SimError> {
        self.touch_producer(name).ok_or_else(|| {
            SimError::from(SimErrorKind::NoProducer {
                name: name.to_string(),
            })
        })
    }

    /// Applies one action. On error nothing has changed. Returns transcript lines.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::SetBrokerConfig { key, value } => {
                let mut config = self.broker_defaults.clone();
                apply_log_config(&mut config, key, value)?;
                self.broker_defaults = config.clone();
                for broker in self.brokers.values_mut() {
                    broker.log_config = config.clone();
                    if key == "producer.snapshots" {
                        broker.set_producer_snapshots(config.producer_snapshots);
                    }
                }
                for topic in self.topics.values_mut() {
                    if key == "producer.snapshots" {
                        topic.config.producer_snapshots = config.producer_snapshots;
                    }
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
            Action::CreateProducer { name, configs } => {
                if name == RAW_CLIENT || name.is_empty() {
                    return Err(SimErrorKind::ReservedName { name: name.clone() }.into());
                }
                if self.producers.contains_key(name) {
                    return Err(SimErrorKind::ProducerExists { name: name.clone() }.into());
                }
                let config = ProducerConfig::from_pairs(name, configs)?;
                let mut producer = Producer::new(config);
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
            Action::CreateConsumer { name, configs } => self.create_consumer(name, configs),
            Action::Assign {
                consumer,
                partitions,
            } => self.assign(consumer, partitions),
            Action::Poll { consumer } => self.poll(consumer),
            Action::InitTransactions { producer } => {
                let call = TxnCall::InitTransactions;
                if let Some(begun) = self.txn_call(producer, call.clone())? {
                    let started = self.clock_ms;
                    self.await_txn_call(producer, call, begun);
                    let took = self.clock_ms - started;
                    self.producer_mut(producer)?.last_call_ms = took;
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
                    tm.pending_offsets = Some((group_id.clone(), entries));
                }
                self.run_while(|w| {
                    w.producers
                        .get(producer)
                        .and_then(|p| p.txn.as_ref())
                        .is_some_and(|t| t.pending_offsets.is_some())
                });
                Ok(vec![])
            }
            Action::RawInitProducerId => Ok(self.raw_init_producer_id().lines),
            Action::RawRequest { broker, request } => self.raw(*broker, request.clone()),
            Action::RawProduce {
                topic_partition,
                producer_id,
                producer_epoch,
                base_sequence,
                values,
                label,
            } => Ok(self
                .raw_produce(
                    topic_partition,
                    *producer_id,
                    *producer_epoch,
                    *base_sequence,
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
                self.arm_fault(fault.clone());
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
                Ok(vec![])
            }
            Action::ClearFaults => {
                let (faults, released) = self.network.clear(self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Cleared { faults, released },
                });
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
        }
    }

    fn create_topic(
        &mut self,
        name: &str,
        partitions: i32,
        configs: &[(String, String)],
    ) -> Result<Vec<String>, SimError> {
        if let Some(reason) = crate::coordinator::internal_topics::detect_invalid_topic(name) {
            return Err(SimErrorKind::IllegalTopicName {
                name: name.to_string(),
                reason,
            }
            .into());
        }
        if self.topics.contains_key(name) {
            return Err(SimErrorKind::TopicExists {
                name: name.to_string(),
            }
            .into());
        }
        if !(1..=64).contains(&partitions) {
            return Err(SimErrorKind::PartitionCount { partitions }.into());
        }
        if crate::coordinator::internal_topics::is_internal(name) {
            return Err(SimErrorKind::InternalTopic {
                name: name.to_string(),
            }
            .into());
        }
        let mut config = self.broker_defaults.clone();
        for (k, v) in configs {
            apply_log_config(&mut config, k, v)?;
        }
        self.add_topic(name, partitions, config)
            .map_err(SimErrorKind::Storage)?;
        Ok(vec![])
    }

    /// Creates a topic's partitions on their leaders and tells every broker where the
    /// partitions live (the controller's metadata propagation).
    fn add_topic(&mut self, name: &str, partitions: i32, config: LogConfig) -> Result<(), FsError> {
        let n = self.config.brokers;
        let leaders: Vec<i32> = (0..partitions).map(|p| p % n + 1).collect();
        for (p, leader) in leaders.iter().enumerate() {
            let tp = TopicPartition::new(name, p as i32);
            if let Some(broker) = self.brokers.get_mut(leader) {
                let saved = std::mem::replace(&mut broker.log_config, config.clone());
                let created = broker.create_partition(tp);
                broker.log_config = saved;
                created?;
            }
        }
        self.topics.insert(
            name.to_string(),
            TopicInfo {
                name: name.to_string(),
                partitions,
                leaders: leaders.clone(),
                config,
            },
        );
        for broker in self.brokers.values_mut() {
            for (p, leader) in leaders.iter().enumerate() {
                broker.update_metadata(TopicPartition::new(name, p as i32), *leader);
            }
        }
        if crate::coordinator::internal_topics::is_internal(name) {
            let now = self.clock_ms;
            for (p, leader) in leaders.iter().enumerate() {
                let tp = TopicPartition::new(name, p as i32);
                let events = self
                    .brokers
                    .get_mut(leader)
                    .map(|b| b.load_internal_partition(&tp, now))
                    .unwrap_or_default();
                for event in events {
                    self.emit(EventKind::Broker {
                        broker: *leader,
                        event,
                    });
                }
            }
        }
        self.emit(EventKind::TopicCreated {
            topic: name.to_string(),
            partitions,
            leaders,
        });
        Ok(())
    }

    /// Auto-creation of `__transaction_state` / `__consumer_offsets` on first use.
    fn create_internal_topic(&mut self, name: &str) {
        if self.topics.contains_key(name) {
            return;
        }
        let config = LogConfig {
            producer_snapshots: true,
            ..LogConfig::default()
        };
        let _ = self.add_topic(
            name,
            crate::coordinator::internal_topics::INTERNAL_TOPIC_PARTITIONS,
            config,
        );
    }

    fn partitions_on(&self, broker: i32) -> Vec<(TopicPartition, LogConfig)> {
        self.topics
            .values()
            .flat_map(|t| {
                t.leaders
                    .iter()
                    .enumerate()
                    .filter(move |(_, l)| **l == broker)
                    .map(move |(p, _)| {
                        (
                            TopicPartition::new(t.name.clone(), p as i32),
                            t.config.clone(),
                        )
                    })
            })
            .collect()
    }

    fn stop_broker(&mut self, id: i32, clean: bool) -> Result<Vec<String>, SimError> {
        let broker = self
            .brokers
            .get_mut(&id)
            .ok_or_else(|| SimError::from(SimErrorKind::NoBroker { id }))?;
        if !broker.online {
            return Err(SimErrorKind::BrokerAlreadyStopped { id }.into());
        }
        let event = broker.stop(clean);
        self.emit(EventKind::Broker { broker: id, event });
        // Messages to or from the broker are lost with its connections.
        let lost = self.network.disconnect(&Node::Broker(id));
        self.inter_broker.retain(|(from, _), _| *from != id);
        for env in lost {
            self.emit(EventKind::MessageRefused {
                id: env.id,
                from: env.from,
                to: env.to,
                api: env.body.api_name().into(),
            });
        }
        let now = self.clock_ms;
        let names: Vec<String> = self.producers.keys().cloned().collect();
        for name in names {
            let events = self
                .touch_producer(&name)
                .map(|p| p.on_disconnect(id, now))
                .unwrap_or_default();
            self.emit_producer_events(&name, events);
        }
        Ok(vec![])
    }

    fn start_broker(&mut self, id: i32) -> Result<Vec<String>, SimError> {
        let partitions = self.partitions_on(id);
        let broker = self
            .brokers
            .get_mut(&id)
            .ok_or_else(|| SimError::from(SimErrorKind::NoBroker { id }))?;
        if broker.online {
            return Err(SimErrorKind::BrokerAlreadyRunning { id }.into());
        }
        let now = self.clock_ms;
        let events = broker.start(&partitions, now);
        let outbound = std::mem::take(&mut broker.startup_outbound);
        for event in events {
            self.emit(EventKind::Broker { broker: id, event });
        }
        self.apply_handled(
            id,
            None,
            Handled {
                outbound,
                ..Handled::default()
            },
        );
        Ok(vec![])
    }

    fn emit_producer_events(&mut self, client: &str, events: Vec<ProducerEvent>) {
        for event in events {
            self.emit(EventKind::Producer {
                client: client.to_string(),
                event,
            });
        }
    }

    pub(super) fn send(&mut self, from: Node, to: Node, correlation_id: u64, body: Body) {
        let api = body.api_name().to_string();
        let response = body.is_response();
        let error = match &body {
            Body::Response(r) => Some(r.error()),
            Body::Request(_) => None,
        };
        let (env, struck) = self.network.send(
            from.clone(),
            to.clone(),
            correlation_id,
            body,
            self.clock_ms,
        );
        self.emit(EventKind::MessageSent {
            id: env.id,
            from: from.clone(),
            to: to.clone(),
            api: api.clone(),
            response,
            error,
        });
        let Some(struck) = struck else {
            return;
        };
        if struck.fault.is_legacy() {
            if struck.lost() {
                self.emit(EventKind::MessageDropped {
                    id: env.id,
                    from,
                    to,
                    api,
                    response,
                });
            }
            return;
        }
        self.emit(EventKind::FaultStruck {
            id: env.id,
            from,
            to,
            api,
            response,
            mark: struck.mark,
            fault: struck.fault,
        });
        if let Some(copy) = struck.copy {
            self.emit(EventKind::MessageSent {
                id: copy.id,
                from: copy.from,
                to: copy.to,
                api: copy.body.api_name().to_string(),
                response,
                error,
            });
        }
    }

    /// Arms a fault and says so; a fault on one message by id strikes it on the spot.
    fn arm_fault(&mut self, fault: Fault) {
        if let Fault::Message { id, strike } = fault {
            let now = self.clock_ms;
            let Some((env, struck)) = self.network.strike_message(id, strike, now) else {
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::NotOnTheWire { id },
                });
                return;
            };
            let response = env.body.is_response();
            let api = env.body.api_name().to_string();
            self.emit(EventKind::FaultStruck {
                id,
                from: env.from,
                to: env.to,
                api,
                response,
                mark: struck.mark,
                fault: struck.fault,
            });
            if let Some(copy) = struck.copy {
                let error = match &copy.body {
                    Body::Response(r) => Some(r.error()),
                    Body::Request(_) => None,
                };
                self.emit(EventKind::MessageSent {
                    id: copy.id,
                    from: copy.from,
                    to: copy.to,
                    api: copy.body.api_name().to_string(),
                    response,
                    error,
                });
            }
            return;
        }
        if self.network.arm(fault.clone()) {
            self.emit(EventKind::FaultArmed {
                fault: FaultChange::Armed(fault),
            });
        }
    }

    /// Carries out what a broker decided: events, requests to other nodes, answers
    /// (now, for `token`, or later, for earlier tokens).
    fn apply_handled(&mut self, id: i32, token: Option<u64>, handled: Handled) {
        for event in handled.events {
            self.emit(EventKind::Broker { broker: id, event });
        }
        for out in handled.outbound {
            match out {
                Outbound::ToController(req) => {
                    let cid = self.take_correlation_id();
                    self.send(Node::Broker(id), Node::Controller, cid, Body::Request(req));
                }
                Outbound::ToBroker {
                    broker,
                    tag,
                    request,
                } => {
                    let deadline = self.clock_ms + INTER_BROKER_TIMEOUT_MS;
                    self.inter_broker
                        .insert((id, tag), (broker, request.clone(), deadline));
                    self.send(
                        Node::Broker(id),
                        Node::Broker(broker),
                        tag,
                        Body::Request(request),
                    );
                }
                Outbound::CreateInternalTopic(name) => self.create_internal_topic(&name),
            }
        }
        let answers = token
            .zip(handled.response)
            .into_iter()
            .chain(handled.deferred);
        for (token, response) in answers {
            if let Some((to, correlation_id)) = self.reply_to.remove(&token) {
                self.send(
                    Node::Broker(id),
                    to,
                    correlation_id,
                    Body::Response(response),
                );
            }
        }
        // A request answered later keeps its token until then.
    }

    pub(super) fn take_correlation_id(&mut self) -> u64 {
        let id = self.next_correlation_id;
        self.next_correlation_id += 1;
        id
    }

    /// A producer about to change: it is polled at the next step.
    fn touch_producer(&mut self, name: &str) -> Option<&mut Producer> {
        let p = self.producers.get_mut(name)?;
        self.ready.insert(name.to_string());
        Some(p)
    }

    /// Lets the producers act at the current time: those touched or still making
    /// progress, and those whose timer fell due. A producer left alone since a poll that
    /// did nothing would do nothing again, so it waits for its timer. Returns whether
    /// anything happened.
    fn poll_clients(&mut self) -> bool {
        let now = self.clock_ms;
        while let Some((t, _)) = self.wakeups.first() {
            if *t > now {
                break;
            }
            if let Some((_, name)) = self.wakeups.pop_first() {
                self.wake_of.remove(&name);
                self.ready.insert(name);
            }
        }
        if self.ready.is_empty() {
            return false;
        }
        let mut progressed = false;
        let names = std::mem::take(&mut self.ready);
        let bootstrap = self.brokers.keys().next().copied().unwrap_or(1);
        let leaders: BTreeMap<TopicPartition, i32> = self
            .topics
            .values()
            .flat_map(|t| {
                t.leaders
                    .iter()
                    .enumerate()
                    .map(|(p, l)| (TopicPartition::new(t.name.clone(), p as i32), *l))
            })
            .collect_map();
        for name in names {
            let mut cid = self.next_correlation_id;
            let Some(producer) = self.producers.get_mut(&name) else {
                continue;
            };
            let (out, events) =
                producer.poll(now, bootstrap, &|tp| leaders.get(tp).copied(), &mut cid);
            let wake = producer.next_wakeup(now);
            self.next_correlation_id = cid;
            let acted = !out.is_empty() || !events.is_empty();
            progressed |= acted;
            if acted {
                self.ready.insert(name.clone());
            }
            if let Some(old) = self.wake_of.remove(&name) {
                self.wakeups.remove(&(old, name.clone()));
            }
            if let Some(t) = wake {
                self.wake_of.insert(name.clone(), t);
                self.wakeups.insert((t, name.clone()));
            }
            self.emit_producer_events(&name, events);
            for o in out {
                self.send(
                    Node::Client(name.clone()),
                    Node::Broker(o.broker),
                    o.correlation_id,
                    Body::Request(o.request),
                );
            }
        }
        progressed
    }

    /// The next time something is due: a message delivery or a producer timer.
    fn next_due(&self) -> Option<i64> {
        let now = self.clock_ms;
        // Every producer was polled (and its timer set) before time may move on.
        let timers = self.wakeups.iter().map(|(t, _)| *t).find(|t| *t > now);
        // Held requests are not waiting for a retry: they wait for `release markers`.
        let retries = self
            .inter_broker
            .iter()
            .filter(|((from, tag), _)| !self.network.is_held(&Node::Broker(*from), *tag))
            .map(|(_, (_, _, deadline))| *deadline);
        // A timer further off than an int of milliseconds (a `retry.backoff.ms` of
        // Long.MAX_VALUE, say) is never: `run` stops rather than jump the clock there.
        let horizon = now.saturating_add(MAX_WAIT_MS);
        self.network
            .next_delivery_ms()
            .into_iter()
            .chain(timers)
            .chain(retries)
            .filter(|t| *t <= horizon)
            .min()
    }

    /// One thing happens: clients act now, or the next message is delivered, or the
    /// clock jumps to the next timer. Returns false when there is nothing left to do.
    pub fn step(&mut self) -> bool {
        if self.poll_clients() {
            return true;
        }
        let Some(next) = self.next_due() else {
            return false;
        };
        self.clock_ms = self.clock_ms.max(next);
        self.run_txn_cleanup();
        self.retry_inter_broker();
        if let Some(env) = self.network.pop_due(self.clock_ms) {
            self.deliver(env);
        } else {
            self.poll_clients();
        }
        true
    }

    /// Every `transaction.abort.timed.out.transaction.cleanup.interval.ms` (10 s) of
    /// logical time, each coordinator aborts transactions open past their timeout.
    /// It is not "work to do" for `run`: only time passing for other reasons (or
    /// `advance`) triggers it, so an open transaction is not aborted behind your back.
    /// An inter-broker request with no answer by its deadline is sent again (the
    /// marker sender and the AddPartitionsToTxn sender retry until they hear back).
    fn retry_inter_broker(&mut self) {
        let now = self.clock_ms;
        let due: Vec<((i32, u64), i32, Request)> = self
            .inter_broker
            .iter()
            .filter(|(_, (_, _, deadline))| *deadline <= now)
            .map(|(k, (to, req, _))| (*k, *to, req.clone()))
            .collect();
        for ((from, tag), to, request) in due {
            if !self.brokers.get(&from).is_some_and(|b| b.online) {
                self.inter_broker.remove(&(from, tag));
                continue;
            }
            // A held request is still on its way: sending copies would only pile up.
            if self.network.is_held(&Node::Broker(from), tag) {
                self.inter_broker
                    .insert((from, tag), (to, request, now + INTER_BROKER_TIMEOUT_MS));
                continue;
            }
            self.inter_broker.insert(
                (from, tag),
                (to, request.clone(), now + INTER_BROKER_TIMEOUT_MS),
            );
            self.emit(EventKind::InterBrokerRetry {
                from,
                to,
                api: request.api_name().to_string(),
            });
            self.send(
                Node::Broker(from),
                Node::Broker(to),
                tag,
                Body::Request(request),
            );
        }
    }

    /// Runs the cleanup once if a tick fell due (several ticks that fell due at once all
    /// see the same clock, so one call does what they would), then schedules the next
    /// tick on the same 10 s grid.
    fn run_txn_cleanup(&mut self) {
        if self.clock_ms < self.next_txn_cleanup_ms {
            return;
        }
        self.schedule_next_cleanup_after_now();
        let now = self.clock_ms;
        let ids: Vec<i32> = self
            .brokers
            .iter()
            .filter(|(_, b)| b.online)
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            if let Some(broker) = self.brokers.get_mut(&id) {
                let handled = broker.abort_timed_out_transactions(now);
                self.apply_handled(id, None, handled);
            }
        }
    }

    /// Moves the next cleanup tick to the first one on its 10 s grid after the clock.
    fn schedule_next_cleanup_after_now(&mut self) {
        if self.clock_ms >= self.next_txn_cleanup_ms {
            let behind = (self.clock_ms - self.next_txn_cleanup_ms) / TXN_CLEANUP_INTERVAL_MS;
            self.next_txn_cleanup_ms = self
                .next_txn_cleanup_ms
                .saturating_add((behind + 1).saturating_mul(TXN_CLEANUP_INTERVAL_MS));
        }
    }

    /// The first cleanup tick at which some coordinator has something to do, if any:
    /// ticks before it would find nothing, so time can jump over them.
    fn next_useful_cleanup_ms(&self) -> Option<i64> {
        let work = self
            .brokers
            .values()
            .filter(|b| b.online)
            .filter_map(|b| b.next_timeout_work_ms())
            .min()?;
        let first = self.next_txn_cleanup_ms;
        if work <= first {
            return Some(first);
        }
        let ticks =
            (work - first).saturating_add(TXN_CLEANUP_INTERVAL_MS - 1) / TXN_CLEANUP_INTERVAL_MS;
        Some(first.saturating_add(ticks.saturating_mul(TXN_CLEANUP_INTERVAL_MS)))
    }

    /// Steps until nothing is left (bounded by [`MAX_STEPS_PER_RUN`]). Returns the steps taken.
    pub fn run_until_idle(&mut self) -> usize {
        self.run_while(|_| true)
    }

    /// Moves the clock forward by `ms`, doing everything that falls due on the way: it
    /// jumps from one due thing to the next (a delivery, a client timer, a cleanup tick
    /// that has a transaction to abort), so a long quiet stretch costs nothing. Returns
    /// the steps taken.
    pub fn advance(&mut self, ms: i64) -> usize {
        let until = self.clock_ms.saturating_add(ms);
        let mut steps = 0;
        while steps < MAX_STEPS_PER_RUN {
            if self.poll_clients() {
                steps += 1;
                continue;
            }
            let due = match (self.next_due(), self.next_useful_cleanup_ms()) {
                (Some(a), Some(b)) => a.min(b),
                (a, b) => match a.or(b) {
                    Some(t) => t,
                    None => break,
                },
            };
            if due > until {
                break;
            }
            self.clock_ms = self.clock_ms.max(due);
            self.run_txn_cleanup();
            // An inter-broker request lost to a fault is sent again here too, as `step`
            // does (its deadline is among `next_due`'s times).
            self.retry_inter_broker();
            if let Some(env) = self.network.pop_due(self.clock_ms) {
                self.deliver(env);
            }
            steps += 1;
        }
        self.clock_ms = self.clock_ms.max(until);
        // Ticks passed over found nothing to do; the next one is on the grid after now.
        if self.clock_ms >= self.next_txn_cleanup_ms
            && self
                .next_useful_cleanup_ms()
                .is_none_or(|t| t > self.clock_ms)
        {
            self.schedule_next_cleanup_after_now();
        }
        steps
    }

    fn deliver(&mut self, env: Envelope) {
        let api = env.body.api_name().to_string();
        if let Node::Broker(id) = env.to {
            if !self.brokers.get(&id).is_some_and(|b| b.online) {
                self.emit(EventKind::MessageRefused {
                    id: env.id,
                    from: env.from.clone(),
                    to: env.to.clone(),
                    api,
                });
                if let Node::Client(name) = &env.from {
                    let now = self.clock_ms;
                    let events = self
                        .touch_producer(name)
                        .map(|p| p.on_disconnect(id, now))
                        .unwrap_or_default();
                    self.emit_producer_events(name, events);
                }
                return;
            }
        }
        self.emit(EventKind::MessageDelivered {
            id: env.id,
            from: env.from.clone(),
            to: env.to.clone(),
            api: api.clone(),
            response: env.body.is_response(),
        });
        if let (Some(error), Body::Request(request)) = (env.injected_error, &env.body) {
            // An error fault: the network in front of the receiver answers for it.
            let response = error_response(request, error);
            self.emit(EventKind::ErrorInjected {
                id: env.id,
                from: env.from.clone(),
                to: env.to.clone(),
                api,
                error,
            });
            self.send(
                env.to,
                env.from,
                env.correlation_id,
                Body::Response(response),
            );
            return;
        }
        match (env.to.clone(), env.body) {
            (Node::Broker(id), Body::Request(request)) => {
                let now = self.clock_ms;
                let Some(broker) = self.brokers.get_mut(&id) else {
                    return;
                };
                let token = self.next_reply_token;
                self.next_reply_token += 1;
                self.reply_to
                    .insert(token, (env.from.clone(), env.correlation_id));
                let handled = broker.handle(request, token, now);
                self.apply_handled(id, Some(token), handled);
            }
            (Node::Broker(id), Body::Response(response)) => {
                let now = self.clock_ms;
                let Some(broker) = self.brokers.get_mut(&id) else {
                    return;
                };
                if env.from == Node::Controller {
                    let events = broker.handle_controller_response(response);
                    for event in events {
                        self.emit(EventKind::Broker { broker: id, event });
                    }
                } else {
                    self.inter_broker.remove(&(id, env.correlation_id));
                    let Some(broker) = self.brokers.get_mut(&id) else {
                        return;
                    };
                    let handled = broker.handle_broker_response(env.correlation_id, response, now);
                    self.apply_handled(id, None, handled);
                }
            }
            (Node::Controller, Body::Request(Request::AllocateProducerIds { .. })) => {
                let (start, len) = self.controller.generate_next_block();
                let response = Response::AllocateProducerIds {
                    error: Errors::None,
                    producer_id_start: start,
                    producer_id_len: len,
                };
                self.send(
                    Node::Controller,
                    env.from,
                    env.correlation_id,
                    Body::Response(response),
                );
            }
            (Node::Client(name), Body::Response(response)) => {
                if self.consumers.contains_key(&name) {
                    self.on_consumer_response(env.correlation_id, response);
                } else if name == RAW_CLIENT {
                    self.raw_inbox.insert(env.correlation_id, response);
                } else {
                    let now = self.clock_ms;
                    let events = self
                        .touch_producer(&name)
                        .map(|p| p.on_response(env.correlation_id, response, now))
                        .unwrap_or_default();
                    self.emit_producer_events(&name, events);
                }
            }
            _ => {}
        }
    }

    /// Sends one request from the raw client and runs the world until its answer
    /// arrives (or nothing more can happen, when the request or answer was lost).
    pub(super) fn raw_request(&mut self, broker: i32, request: Request) -> Option<Response> {
        let cid = self.take_correlation_id();
        self.send(
            Node::Client(RAW_CLIENT.into()),
            Node::Broker(broker),
            cid,
            Body::Request(request),
        );
        self.run_while(|w| !w.raw_inbox.contains_key(&cid));
        self.raw_inbox.remove(&cid)
    }

    /// InitProducerId by hand, retrying after `retry.backoff.ms` (100) while the broker
    /// answers with a retriable error — seed 000's first two lines.
    pub fn raw_init_producer_id(&mut self) -> RawOutcome {
        let bootstrap = self.brokers.keys().next().copied().unwrap_or(1);
        let mut lines = Vec::new();
        for _ in 0..10 {
            let request = Request::InitProducerId {
                transactional_id: None,
                transaction_timeout_ms: 60_000,
            };
            match self.raw_request(bootstrap, request) {
                Some(Response::InitProducerId {
                    error,
                    producer_id,
                    producer_epoch,
                }) if error == Errors::None => {
                    lines.push(format!("InitProducerId: error=NONE producerId={producer_id} epoch={producer_epoch}"));
                    return RawOutcome {
                        lines,
                        response: Some(Response::InitProducerId {
                            error,
                            producer_id,
                            producer_epoch,
                        }),
                    };
                }
                Some(r) if r.error().is_retriable() => {
                    lines.push(format!(
                        "InitProducerId: {}, retrying in 100 ms",
                        r.error().name()
                    ));
                    self.advance(100);
                }
                Some(r) => {
                    lines.push(format!("InitProducerId: error={}", r.error().name()));
                    return RawOutcome {
                        lines,
                        response: Some(r),
                    };
                }
                None => {
                    lines.push(
                        "InitProducerId: no response (the request or its answer was lost)".into(),
                    );
                    return RawOutcome {
                        lines,
                        response: None,
                    };
                }
            }
        }
        RawOutcome {
            lines,
            response: None,
        }
    }

    /// A Produce (v12, acks=-1) of one idempotent batch with explicit numbers — the
    /// seed's `MemoryRecords.withIdempotentRecords` example.
    pub fn raw_produce(
        &mut self,
        tp: &TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        base_sequence: i32,
        values: &[String],
        label: Option<&str>,
    ) -> Result<RawOutcome, SimError> {
        let leader = self.check_partition(tp)?;
        if values.is_empty() {
            return Err(SimErrorKind::EmptyBatch.into());
        }
        let kvs = values
            .iter()
            .map(|v| (None, Some(v.as_bytes().to_vec())))
            .collect();
        let batch = RecordBatch::new_data(
            0,
            producer_id,
            producer_epoch,
            base_sequence,
            false,
            self.clock_ms,
            kvs,
        );
        let last = batch.last_sequence();
        let request = Request::Produce {
            transactional_id: None,
            acks: -1,
            timeout_ms: 30_000,
            topic_partition: tp.clone(),
            records: batch.encode(),
        };
        let response = self.raw_request(leader, request);
        let label = label.map(|l| format!("({l})")).unwrap_or_default();
        let line = match &response {
            Some(Response::Produce {
                error, base_offset, ..
            }) => format!(
                "seq {base_sequence:>2}..{last:>2} {label:<35}-> error={} baseOffset={base_offset}",
                error.name()
            ),
            _ => format!("seq {base_sequence:>2}..{last:>2} {label:<35}-> no response (lost)"),
        };
        Ok(RawOutcome {
            lines: vec![line],
            response,
        })
    }

    /// The most recent broker decision on a partition (append, duplicate or rejection).
    pub fn last_verdict(&self, tp: &TopicPartition) -> Option<&BrokerEvent> {
        self.events.iter().rev().find_map(|e| match &e.kind {
            EventKind::Broker { event, .. } => match event {
                BrokerEvent::BatchAppended { tp: t, .. }
                | BrokerEvent::BatchDuplicate { tp: t, .. }
                | BrokerEvent::BatchRejected { tp: t, .. }
                    if t == tp =>
                {
                    Some(event)
                }
                _ => None,
            },
            _ => None,
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

/// Applies one log-level config key with Kafka's name and limits.
fn apply_log_config(config: &mut LogConfig, key: &str, value: &str) -> Result<(), SimError> {
    let invalid = |rule: ConfigRule| SimError::from(ConfigError::invalid(key, value, Some(rule)));
    let number = |min: u64| -> Result<u64, SimError> {
        let n: u64 = value.parse().map_err(|_| invalid(ConfigRule::NotANumber))?;
        if n < min {
            return Err(invalid(ConfigRule::AtLeast(min)));
        }
        Ok(n)
    };
    match key {
        // Kafka's minimum is far larger; small segments make rolls visible here.
        "segment.bytes" => config.segment_bytes = number(128)?,
        "index.interval.bytes" => config.index_interval_bytes = number(0)?,
        "max.message.bytes" => config.max_message_bytes = number(64)?,
        "producer.snapshots" => {
            config.producer_snapshots = match value {
                "true" | "on" => true,
                "false" | "off" => false,
                _ => return Err(invalid(ConfigRule::TrueOrFalse)),
            }
        }
        _ => {
            return Err(ConfigError::Unknown {
                scope: ConfigScope::Cluster,
                key: key.to_string(),
            }
            .into())
        }
    }
    Ok(())
}
