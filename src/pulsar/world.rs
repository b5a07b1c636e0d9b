//! The Pulsar world: logical clock, the network, brokers with their topics and
//! transaction coordinators, and the clients' side of each call. Deterministic like
//! `sim::World`: no wall clock, ordered maps, every loop bounded.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::action::{Outcome, PulsarAction};
use super::event::{PulsarEvent, PulsarEventKind};
use super::network::PulsarNetwork;
use super::{
    Command, MLTransactionMetadataStore, ManagedCursor, ManagedLedger, PendingAckHandle, Position,
    PulsarError, PulsarStepError, TopicTransactionBuffer, TransactionCoordinatorID, TransactionLog,
    TransactionSubscription, TxnID,
};
use crate::sim::{Node, START_MS};

/// The most steps one call or run may take.
pub const MAX_STEPS: usize = 20_000;
/// A load's logical time: 0 (at once) up to `i32::MAX` ms.
fn check_replay_ms(ms: i64) -> Result<(), PulsarStepError> {
    if (0..=i64::from(i32::MAX)).contains(&ms) {
        Ok(())
    } else {
        Err(PulsarStepError::ReplayOutOfRange)
    }
}

/// The client that talks to the coordinators (one `PulsarClient`).
pub const TXN_CLIENT: &str = "pulsar-client";

/// The world's shape and Pulsar's settings (broker.conf and client names).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PulsarConfig {
    pub brokers: i32,
    /// Partitions of `transaction_coordinator_assign`: one coordinator each.
    pub coordinators: u64,
    pub latency_ms: i64,
    /// broker.conf `transactionCoordinatorEnabled`.
    pub transaction_coordinator_enabled: bool,
    /// broker.conf `brokerDeduplicationEnabled`.
    pub broker_deduplication_enabled: bool,
    /// The client's `withTransactionTimeout` default (TransactionBuilderImpl: 60 s).
    pub transaction_timeout_ms: i64,
    /// The client's `operationTimeoutMs` (30 s).
    pub operation_timeout_ms: i64,
}

impl Default for PulsarConfig {
    fn default() -> Self {
        PulsarConfig {
            brokers: 1,
            coordinators: 1,
            latency_ms: 2,
            transaction_coordinator_enabled: true,
            broker_deduplication_enabled: false,
            transaction_timeout_ms: 60_000,
            operation_timeout_ms: 30_000,
        }
    }
}

/// One partition: its ledger, transaction buffer, subscriptions and dedup state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersistentTopic {
    pub ledger: ManagedLedger,
    pub buffer: TopicTransactionBuffer,
    pub subscriptions: BTreeMap<String, PersistentSubscription>,
    /// `MessageDeduplication.highestSequencedPersisted` per producer name.
    pub highest_sequenced: BTreeMap<String, i64>,
    pub broker: i32,
    /// While the buffer recovers after a load: when it is done.
    pub recovery_due: Option<i64>,
    /// The managed ledger refuses appends (`pulsar ledger fail`): a send fails with
    /// PersistenceError. Markers are still written (see docs/architecture.md §6).
    pub ledger_failing: bool,
}

impl PersistentTopic {
    fn new(ledger: ManagedLedger, broker: i32) -> PersistentTopic {
        PersistentTopic {
            buffer: TopicTransactionBuffer::new(&ledger),
            ledger,
            subscriptions: BTreeMap::new(),
            highest_sequenced: BTreeMap::new(),
            broker,
            recovery_due: None,
            ledger_failing: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersistentSubscription {
    pub cursor: ManagedCursor,
    pub pending_ack: PendingAckHandle,
    /// The next entry the dispatcher reads.
    pub read_position: Position,
    /// Positions to send again (`redeliverUnacknowledgedMessages`).
    pub redeliver: BTreeSet<Position>,
    /// The type of its first consumer: it picks the dispatcher.
    pub sub_type: super::action::SubscriptionType,
    /// `InMemoryRedeliveryTracker`: how often each position was redelivered. Only the
    /// Shared and Key_Shared dispatcher (`PersistentDispatcherMultipleConsumers`)
    /// counts; the single-active-consumer one keeps none (`RedeliveryTrackerDisabled`).
    pub redelivery_count: BTreeMap<Position, u32>,
    /// `InMemoryDelayedDeliveryTracker`: positions read but held until their
    /// `deliverAt` (Shared and Key_Shared only), as (deliverAt, position).
    pub delayed: BTreeSet<(i64, Position)>,
    /// Its pending-ack log refuses appends (`pulsar ledger fail TOPIC SUB`).
    pub pending_ack_log_failing: bool,
}

impl PersistentSubscription {
    pub(super) fn new(ledger_id: i64, sub_type: super::action::SubscriptionType) -> Self {
        PersistentSubscription {
            cursor: ManagedCursor::new(ledger_id),
            pending_ack: Default::default(),
            read_position: Position::new(ledger_id, 0),
            redeliver: Default::default(),
            sub_type,
            redelivery_count: BTreeMap::new(),
            delayed: BTreeSet::new(),
            pending_ack_log_failing: false,
        }
    }
    /// Whether the multiple-consumers dispatcher serves it (Shared, Key_Shared): the
    /// one that counts redeliveries and holds delayed messages.
    pub fn is_multiple_consumers(&self) -> bool {
        !self.sub_type.allows_cumulative_ack()
    }
    /// `redeliverUnacknowledgedMessages(consumer, positions)`: each goes back to be
    /// dispatched again, counted by the multiple-consumers dispatcher.
    pub(super) fn redeliver_positions(&mut self, positions: &[Position]) {
        for &p in positions {
            self.redeliver.insert(p);
            if self.is_multiple_consumers() {
                let n = self.redelivery_count.entry(p).or_insert(0);
                *n = n.saturating_add(1);
            }
        }
    }
}

/// A transaction coordinator: its log survives a crash, its memory does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coordinator {
    pub log: TransactionLog,
    pub store: Option<MLTransactionMetadataStore>,
    pub broker: i32,
    pub(super) ends: BTreeMap<TxnID, EndOp>,
    /// While it loads its log: when the store is ready.
    pub loading_until: Option<i64>,
}

/// An end in progress: what still has to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EndOp {
    pub commit: bool,
    pub reply: bool,
    pub partitions: BTreeSet<String>,
    pub subscriptions: BTreeSet<TransactionSubscription>,
}

/// The client's `TransactionImpl.State`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientTxnState {
    Open,
    Committing,
    Aborting,
    Committed,
    Aborted,
    Error,
    TimeOut,
}

impl ClientTxnState {
    pub fn name(self) -> &'static str {
        match self {
            ClientTxnState::Open => "OPEN",
            ClientTxnState::Committing => "COMMITTING",
            ClientTxnState::Aborting => "ABORTING",
            ClientTxnState::Committed => "COMMITTED",
            ClientTxnState::Aborted => "ABORTED",
            ClientTxnState::Error => "ERROR",
            ClientTxnState::TimeOut => "TIME_OUT",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientTxn {
    pub id: TxnID,
    pub state: ClientTxnState,
    pub timeout_at: i64,
    /// Sends and acks of this transaction that failed (`hasOpsFailed`): a commit
    /// aborts instead.
    pub failed_ops: u32,
    pub partitions: BTreeSet<String>,
    pub subscriptions: BTreeSet<TransactionSubscription>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerState {
    pub topic: String,
    pub subscription: String,
    pub sub_type: super::action::SubscriptionType,
    /// Everything dispatched to it, in order.
    pub received: Vec<(Position, String)>,
    /// `DeadLetterPolicy.maxRedeliverCount`.
    pub max_redeliver_count: Option<u32>,
    /// `possibleSendToDeadLetterTopicMessages`: received with a redelivery count at or
    /// above the maximum; the next redelivery of one sends it to the dead-letter topic.
    pub possible_dead_letter: BTreeMap<Position, (String, u32)>,
}

#[derive(Clone, Debug)]
pub struct PulsarWorld {
    config: PulsarConfig,
    clock_ms: i64,
    pub(super) net: PulsarNetwork,
    next_ledger_id: i64,
    pub(super) topics: BTreeMap<String, PersistentTopic>,
    pub(super) coordinators: Vec<Coordinator>,
    txns: BTreeMap<String, ClientTxn>,
    consumers: BTreeMap<String, ConsumerState>,
    /// The last sequence id each producer name used.
    producers: BTreeMap<String, i64>,
    inbox: BTreeMap<String, Vec<Command>>,
    /// Coordinators this client already looked up.
    looked_up: BTreeSet<u64>,
    next_tc: u64,
    events: Vec<PulsarEvent>,
}

impl PulsarWorld {
    pub fn new(config: PulsarConfig) -> PulsarWorld {
        let mut config = config;
        config.brokers = config.brokers.clamp(1, 3);
        config.coordinators = config.coordinators.clamp(1, 4);
        let coordinators = (0..config.coordinators)
            .map(|k| Coordinator {
                log: TransactionLog::new(TransactionCoordinatorID(k), k as i64 + 1),
                store: config.transaction_coordinator_enabled.then(|| {
                    MLTransactionMetadataStore::recover(
                        TransactionCoordinatorID(k),
                        &TransactionLog::new(TransactionCoordinatorID(k), k as i64 + 1),
                    )
                }),
                broker: (k % config.brokers as u64) as i32,
                ends: BTreeMap::new(),
                loading_until: None,
            })
            .collect();
        PulsarWorld {
            next_ledger_id: config.coordinators as i64 + 1,
            config,
            clock_ms: START_MS,
            net: PulsarNetwork::default(),
            topics: BTreeMap::new(),
            coordinators,
            txns: BTreeMap::new(),
            consumers: BTreeMap::new(),
            producers: BTreeMap::new(),
            inbox: BTreeMap::new(),
            looked_up: BTreeSet::new(),
            next_tc: 0,
            events: Vec::new(),
        }
    }

    // ---- read API ----
    pub fn config(&self) -> &PulsarConfig {
        &self.config
    }
    pub fn clock_ms(&self) -> i64 {
        self.clock_ms
    }
    pub fn events(&self) -> &[PulsarEvent] {
        &self.events
    }
    pub fn topics(&self) -> &BTreeMap<String, PersistentTopic> {
        &self.topics
    }
    pub fn topic(&self, name: &str) -> Option<&PersistentTopic> {
        self.topics.get(name)
    }
    pub fn coordinators(&self) -> &[Coordinator] {
        &self.coordinators
    }
    pub fn txn(&self, name: &str) -> Option<&ClientTxn> {
        self.txns.get(name)
    }
    pub fn txns(&self) -> &BTreeMap<String, ClientTxn> {
        &self.txns
    }
    pub fn consumer(&self, name: &str) -> Option<&ConsumerState> {
        self.consumers.get(name)
    }
    pub fn network(&self) -> &PulsarNetwork {
        &self.net
    }
    /// The script name of a transaction id, if a client opened it.
    pub fn txn_name(&self, id: TxnID) -> Option<&str> {
        self.txns
            .iter()
            .find(|(_, t)| t.id == id)
            .map(|(n, _)| n.as_str())
    }

    pub(super) fn emit(&mut self, step: Option<&'static str>, kind: PulsarEventKind) {
        self.events.push(PulsarEvent {
            at_ms: self.clock_ms,
            step,
            kind,
        });
    }

    /// Puts a command on the wire and records it on the timeline.
    pub(super) fn send(&mut self, from: Node, to: Node, body: Command, step: Option<&'static str>) {
        let command = body.name();
        let (_, strike) = self.net.send(
            from.clone(),
            to.clone(),
            body,
            step,
            self.clock_ms,
            self.config.latency_ms.max(0),
        );
        self.emit(
            step,
            PulsarEventKind::CommandSent {
                from,
                to,
                command,
                strike,
            },
        );
    }

    /// Applies one action. `Err` is a refusal (an unknown name): nothing changed.
    pub fn apply(&mut self, action: &PulsarAction) -> Result<Outcome, PulsarStepError> {
        match action {
            PulsarAction::CreateTopic { name, partitions } => self.create_topic(name, *partitions),
            PulsarAction::Subscribe {
                consumer,
                topic,
                subscription,
                sub_type,
                max_redeliver_count,
            } => self.subscribe(
                consumer,
                topic,
                subscription,
                *sub_type,
                *max_redeliver_count,
            ),
            PulsarAction::Send {
                producer,
                topic,
                values,
                txn,
                sequence_id,
                deliver_after_ms,
                batch,
            } => {
                if deliver_after_ms.is_some_and(|ms| !(0..=i64::from(i32::MAX)).contains(&ms)) {
                    return Err(PulsarStepError::DeliverAfterOutOfRange);
                }
                let deliver_at = deliver_after_ms.map(|ms| self.clock_ms.saturating_add(ms));
                let opts = super::client::SendOpts {
                    sequence_id: *sequence_id,
                    deliver_at,
                    batch: *batch,
                };
                self.produce(producer, topic, values, txn.as_deref(), opts)
            }
            PulsarAction::Nack {
                consumer,
                positions,
            } => {
                self.check_batch_positions(consumer, positions)?;
                self.negative_acknowledge(consumer, positions)
            }
            PulsarAction::FailLedger {
                topic,
                subscription,
                failing,
            } => self.fail_ledger(topic, subscription, *failing),
            PulsarAction::Receive { consumer, permits } => self.receive(consumer, *permits),
            PulsarAction::Ack {
                consumer,
                positions,
                txn,
                cumulative,
            } => {
                self.check_batch_positions(consumer, positions)?;
                if *cumulative && positions.iter().any(|p| p.batch_index.is_some()) {
                    return Err(PulsarStepError::CumulativeAckEntryPosition);
                }
                self.acknowledge(consumer, positions, txn.as_deref(), *cumulative)
            }
            PulsarAction::NewTxn { name, timeout_ms } => self.new_txn(name, *timeout_ms),
            PulsarAction::EndTxn { name, commit } => self.end_txn(name, *commit),
            PulsarAction::UpdateTxnStatus {
                name,
                new,
                expected,
            } => {
                let txn = self.client_txn(name)?.id;
                let result = self.tc_update_status(txn, *new, *expected);
                Ok(Outcome::StatusUpdated {
                    name: name.clone(),
                    result,
                })
            }
            PulsarAction::CrashCoordinator { tc } => {
                self.crash_coordinator(*tc)?;
                Ok(Outcome::Done)
            }
            PulsarAction::RecoverCoordinator { tc, replay_ms } => {
                check_replay_ms(*replay_ms)?;
                self.recover_coordinator(*tc, *replay_ms)?;
                Ok(Outcome::Done)
            }
            PulsarAction::UnloadTopic { topic, replay_ms } => {
                check_replay_ms(*replay_ms)?;
                self.unload_topic(topic, *replay_ms)?;
                Ok(Outcome::Done)
            }
            PulsarAction::TakeSnapshot { topic } => self.take_buffer_snapshot(topic),
            PulsarAction::Run { ms } => {
                if !(0..=i64::from(i32::MAX)).contains(ms) {
                    return Err(PulsarStepError::RunOutOfRange);
                }
                self.run_until(self.clock_ms.saturating_add(*ms));
                Ok(Outcome::Done)
            }
            PulsarAction::Arm { fault } => {
                self.net.arm(fault.clone())?;
                self.emit(
                    None,
                    PulsarEventKind::FaultArmed {
                        fault: fault.clone(),
                    },
                );
                Ok(Outcome::Done)
            }
            PulsarAction::Release { api } => {
                let count = self.net.release(api, self.clock_ms);
                self.settle();
                Ok(Outcome::Released { count })
            }
            PulsarAction::Heal => {
                self.net.heal();
                Ok(Outcome::Done)
            }
        }
    }

    /// `pulsar topic create NAME partitions=N`: each partition gets its own ledger and
    /// a broker (round robin).
    pub(super) fn create_topic(
        &mut self,
        name: &str,
        partitions: u32,
    ) -> Result<Outcome, PulsarStepError> {
        if !(1..=8).contains(&partitions) {
            return Err(PulsarStepError::PartitionsOutOfRange);
        }
        for p in 0..partitions {
            let topic = format!("{name}-partition-{p}");
            if self.topics.contains_key(&topic) {
                return Err(PulsarStepError::TopicAlreadyExists {
                    topic: name.to_string(),
                });
            }
        }
        for p in 0..partitions {
            let topic = format!("{name}-partition-{p}");
            let ledger = ManagedLedger::new(&topic, self.next_ledger_id);
            self.next_ledger_id += 1;
            let broker = (self.topics.len() as i32) % self.config.brokers;
            self.topics
                .insert(topic, PersistentTopic::new(ledger, broker));
        }
        Ok(Outcome::Done)
    }

    // ---- time ----

    /// When the next thing happens: a delivery, a coordinator's or a client's timeout.
    fn next_due(&self) -> Option<i64> {
        let tc = self
            .coordinators
            .iter()
            .filter_map(|c| c.store.as_ref()?.next_timeout())
            .min();
        let client = self
            .txns
            .values()
            .filter(|t| t.state == ClientTxnState::Open)
            .map(|t| t.timeout_at)
            .min();
        let loads = self
            .coordinators
            .iter()
            .filter_map(|c| c.loading_until)
            .chain(self.topics.values().filter_map(|t| t.recovery_due))
            .min();
        [self.net.next_due(), tc, client, loads]
            .into_iter()
            .flatten()
            .min()
    }

    /// One step: deliver the next due command, or move the clock to the next due time
    /// (not past `limit`) and fire the timeouts there. False when nothing is due.
    fn step(&mut self, limit: i64) -> bool {
        if let Some(env) = self.net.pop_due(self.clock_ms) {
            self.deliver(env);
            return true;
        }
        match self.next_due() {
            Some(t) if t <= limit => {
                self.clock_ms = self.clock_ms.max(t);
                self.fire_timeouts();
                true
            }
            _ => false,
        }
    }

    /// Fires the client timers and coordinator timeouts due now, and finishes the
    /// loads (coordinators, transaction buffers) due now.
    pub(super) fn fire_timeouts(&mut self) {
        let now = self.clock_ms;
        let loaded: Vec<u64> = (self.coordinators.iter().enumerate())
            .filter(|(_, c)| c.loading_until.is_some_and(|t| t <= now))
            .map(|(k, _)| k as u64)
            .collect();
        for tc in loaded {
            self.finish_coordinator_load(tc);
        }
        let recovered: Vec<String> = (self.topics.iter())
            .filter(|(_, t)| t.recovery_due.is_some_and(|d| d <= now))
            .map(|(n, _)| n.clone())
            .collect();
        for topic in recovered {
            self.finish_buffer_recovery(&topic);
        }
        for t in self.txns.values_mut() {
            if t.state == ClientTxnState::Open && t.timeout_at <= now {
                t.state = ClientTxnState::TimeOut;
                let txn = t.id;
                self.events.push(PulsarEvent {
                    at_ms: now,
                    step: None,
                    kind: PulsarEventKind::ClientTxnTimedOut { txn },
                });
            }
        }
        for k in 0..self.coordinators.len() {
            let due = match &self.coordinators[k].store {
                Some(s) => s.timed_out(now),
                None => continue,
            };
            for txn in due {
                self.emit(None, PulsarEventKind::TxnTimedOut { tc: k as u64, txn });
                // A refusal is already on the timeline (CoordinatorRefused).
                let _ = self.tc_end_txn(txn, false, false);
            }
        }
    }

    /// Runs everything due up to `until`, then sets the clock there.
    pub(super) fn run_until(&mut self, until: i64) {
        for _ in 0..MAX_STEPS {
            if !self.step(until) {
                break;
            }
        }
        self.clock_ms = self.clock_ms.max(until);
    }

    /// Delivers what is on the wire now and what it causes (no timeouts beyond).
    pub(super) fn settle(&mut self) {
        for _ in 0..MAX_STEPS {
            let Some(due) = self.net.next_due() else {
                break;
            };
            if !self.step(due) {
                break;
            }
        }
    }

    fn deliver(&mut self, env: super::network::Envelope) {
        // A command for a topic whose buffer recovers waits for it
        // (`checkIfTBRecoverCompletely`).
        let due = env
            .body
            .topic()
            .filter(|_| matches!(env.to, Node::Broker(_)))
            .and_then(|t| Some((t.to_string(), self.topics.get(t)?.recovery_due?)));
        if let Some((topic, due)) = due {
            if due > self.clock_ms {
                self.net.requeue(env, due);
                return;
            }
            self.finish_buffer_recovery(&topic);
        }
        match &env.to {
            Node::Client(name) => self.inbox.entry(name.clone()).or_default().push(env.body),
            Node::Broker(b) => self.handle(*b, env.from, env.body),
            Node::Controller(_) => {}
        }
    }

    /// A blocking client call: sends, then runs the world until the answer (of the same
    /// API) arrives or `operationTimeoutMs` passes.
    pub(super) fn call(
        &mut self,
        client: &str,
        to: i32,
        body: Command,
        step: Option<&'static str>,
    ) -> Result<Command, PulsarError> {
        let api = body.api();
        let call = body.name();
        self.inbox.remove(client);
        self.send(
            Node::Client(client.to_string()),
            Node::Broker(to),
            body,
            step,
        );
        let deadline = self
            .clock_ms
            .saturating_add(self.config.operation_timeout_ms);
        for _ in 0..MAX_STEPS {
            if let Some(inbox) = self.inbox.get_mut(client) {
                if let Some(i) = inbox.iter().position(|c| c.api() == api) {
                    return Ok(inbox.remove(i));
                }
            }
            if !self.step(deadline) {
                break;
            }
        }
        self.clock_ms = self.clock_ms.max(deadline);
        let error = PulsarError::TimeoutException;
        self.emit(
            None,
            PulsarEventKind::CallFailed {
                client: client.to_string(),
                call,
                error,
            },
        );
        Err(error)
    }

    pub(super) fn tc_broker(&self, tc: u64) -> i32 {
        self.coordinators.get(tc as usize).map_or(0, |c| c.broker)
    }
    pub(super) fn topic_broker(&self, topic: &str) -> i32 {
        self.topics.get(topic).map_or(0, |t| t.broker)
    }

    pub(super) fn client_txn(&self, name: &str) -> Result<ClientTxn, PulsarStepError> {
        self.txns
            .get(name)
            .cloned()
            .ok_or_else(|| PulsarStepError::UnknownTransaction {
                name: name.to_string(),
            })
    }
    pub(super) fn set_client_txn(&mut self, name: &str, txn: ClientTxn) {
        self.txns.insert(name.to_string(), txn);
    }
    pub(super) fn next_sequence_id(&mut self, producer: &str, explicit: Option<i64>) -> i64 {
        let seq = explicit.unwrap_or_else(|| self.producers.get(producer).map_or(0, |s| s + 1));
        let last = self.producers.entry(producer.to_string()).or_insert(seq);
        *last = (*last).max(seq);
        seq
    }
    /// A batch index must name a message of a batch entry of the consumer's topic.
    fn check_batch_positions(
        &self,
        consumer: &str,
        positions: &[Position],
    ) -> Result<(), PulsarStepError> {
        let Some(t) = self.consumer(consumer).and_then(|c| self.topic(&c.topic)) else {
            return Ok(());
        };
        match positions
            .iter()
            .find(|p| p.batch_index.is_some() && !t.ledger.is_message(**p))
        {
            Some(p) => Err(PulsarStepError::NotInBatch {
                position: *p,
                ledger: t.ledger.name().to_string(),
            }),
            None => Ok(()),
        }
    }

    /// A topic made on first use (a dead-letter topic), on the first broker.
    pub(super) fn ensure_topic(&mut self, name: &str) {
        if !self.topics.contains_key(name) {
            let ledger = ManagedLedger::new(name, self.next_ledger_id);
            self.next_ledger_id += 1;
            self.topics
                .insert(name.to_string(), PersistentTopic::new(ledger, 0));
        }
    }
    pub(super) fn consumers_mut(&mut self) -> &mut BTreeMap<String, ConsumerState> {
        &mut self.consumers
    }
    pub(super) fn take_round_robin_tc(&mut self) -> u64 {
        let tc = self.next_tc % self.config.coordinators;
        self.next_tc = self.next_tc.wrapping_add(1);
        tc
    }
    pub(super) fn is_looked_up(&self, tc: u64) -> bool {
        self.looked_up.contains(&tc)
    }
    pub(super) fn mark_looked_up(&mut self, tc: u64) {
        self.looked_up.insert(tc);
    }
}
