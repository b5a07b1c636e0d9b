//! The idempotent producer as a sans-IO state machine: Kafka's `KafkaProducer` with its
//! `RecordAccumulator` and `Sender`; its transactional part is in
//! [`super::transaction_manager`].
//!
//! Records accumulate into one open batch per partition. A batch gets its producer id,
//! epoch and base sequence once, when it is drained; a retry resends the very same
//! numbers, which is what lets the broker recognise it. At most
//! `max.in.flight.requests.per.connection` requests wait for an answer at once.
//!
//! Simplified: one connection per broker, `linger.ms` is "until the world runs",
//! no `delivery.timeout.ms`, no epoch bump after an unresolved sequence.

use std::collections::{BTreeMap, VecDeque};

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{ErrorDetail, Request, Response};
use crate::record::RecordBatch;

use super::config_error::{ConfigError, ConfigRule, ConfigScope};
use super::transaction_manager::{Target, TransactionManager, TxnOutcome, TxnRequestKind};

/// The producer settings that matter for idempotence (`ProducerConfig`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerConfig {
    pub client_id: String,
    /// `enable.idempotence` (default true since Kafka 3.0).
    pub enable_idempotence: bool,
    /// `acks`: -1 is "all" (the default).
    pub acks: i16,
    /// `max.in.flight.requests.per.connection` (default 5).
    pub max_in_flight: u32,
    /// `request.timeout.ms` (default 30000).
    pub request_timeout_ms: i64,
    /// `retry.backoff.ms` (default 100).
    pub retry_backoff_ms: i64,
    /// `batch.size` (default 16384): a batch takes no more records once it holds this
    /// many bytes (one record larger than that still gets a batch of its own).
    pub batch_size: usize,
    /// `retries` (default i32::MAX).
    pub retries: u32,
    /// Whether the user wrote `enable.idempotence` explicitly (Kafka only refuses
    /// conflicting settings then; otherwise it quietly turns idempotence off).
    pub idempotence_set_explicitly: bool,
    /// `transactional.id`: makes the producer transactional.
    pub transactional_id: Option<String>,
    /// `transaction.timeout.ms` (default 60000).
    pub transaction_timeout_ms: i32,
}

impl ProducerConfig {
    pub fn new(client_id: &str) -> Self {
        ProducerConfig {
            client_id: client_id.to_string(),
            enable_idempotence: true,
            acks: -1,
            max_in_flight: 5,
            request_timeout_ms: 30_000,
            retry_backoff_ms: 100,
            batch_size: 16_384,
            retries: u32::MAX,
            idempotence_set_explicitly: false,
            transactional_id: None,
            transaction_timeout_ms: 60_000,
        }
    }

    /// Applies `key=value` settings with Kafka's names, then validates them as
    /// `ProducerConfig.postProcessAndValidateIdempotenceConfigs` does.
    pub fn from_pairs(client_id: &str, pairs: &[(String, String)]) -> Result<Self, ConfigError> {
        let mut c = ProducerConfig::new(client_id);
        for (k, v) in pairs {
            let bad = || ConfigError::invalid(k, v, None);
            match k.as_str() {
                "enable.idempotence" => {
                    c.enable_idempotence = v.parse().map_err(|_| bad())?;
                    c.idempotence_set_explicitly = true;
                }
                "acks" => {
                    c.acks = match v.as_str() {
                        "all" | "-1" => -1,
                        "0" => 0,
                        "1" => 1,
                        _ => {
                            return Err(ConfigError::invalid(
                                k,
                                v,
                                Some(ConfigRule::OneOf(&["all", "-1", "0", "1"])),
                            ))
                        }
                    }
                }
                // Types and bounds as Kafka 4.0's ProducerConfig defines them.
                "max.in.flight.requests.per.connection" => {
                    c.max_in_flight = ConfigError::parse_int(k, v, 1)?.unsigned_abs();
                }
                "request.timeout.ms" => {
                    c.request_timeout_ms = ConfigError::parse_int(k, v, 0)?.into();
                }
                "retry.backoff.ms" => c.retry_backoff_ms = ConfigError::parse_long(k, v, 0)?,
                "batch.size" => {
                    c.batch_size = ConfigError::parse_int(k, v, 0)?.unsigned_abs() as usize
                }
                "retries" => c.retries = v.parse().map_err(|_| bad())?,
                "client.id" => c.client_id = v.clone(),
                "transactional.id" => {
                    if v.is_empty() {
                        return Err(bad());
                    }
                    c.transactional_id = Some(v.clone());
                }
                "transaction.timeout.ms" => {
                    c.transaction_timeout_ms = ConfigError::parse_int(k, v, 1)?
                }
                other => {
                    return Err(ConfigError::Unknown {
                        scope: ConfigScope::Producer,
                        key: other.to_string(),
                    })
                }
            }
        }
        c.validate()?;
        Ok(c)
    }

    fn validate(&mut self) -> Result<(), ConfigError> {
        if self.transactional_id.is_some() && !self.enable_idempotence {
            return Err(ConfigError::TransactionalIdNeedsIdempotence);
        }
        if !self.enable_idempotence {
            return Ok(());
        }
        let conflict = if self.acks != -1 {
            Some(ConfigError::IdempotenceNeedsAcksAll)
        } else if self.max_in_flight > 5 {
            Some(ConfigError::IdempotenceMaxInFlight)
        } else if self.retries == 0 {
            Some(ConfigError::IdempotenceNeedsRetries)
        } else {
            None
        };
        match conflict {
            Some(e) if self.idempotence_set_explicitly => Err(e),
            // Idempotence was only on by default: Kafka logs and turns it off.
            Some(_) => {
                self.enable_idempotence = false;
                Ok(())
            }
            None => Ok(()),
        }
    }
}

/// One batch as the producer tracks it (Kafka's `ProducerBatch`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerBatch {
    /// Local id, for the UI and events.
    pub id: u64,
    pub tp: TopicPartition,
    pub values: Vec<String>,
    pub created_ms: i64,
    /// Set at the first drain and never changed (producer id, epoch, base sequence).
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: Option<i32>,
    pub attempts: u32,
    /// Not sent again before this time (retry backoff).
    pub retry_at_ms: i64,
    /// Part of a transaction (the batch header's isTransactional bit).
    pub transactional: bool,
    /// The v2 bytes the batch will take, kept as records join (Kafka's
    /// `MemoryRecordsBuilder.estimatedBytesWritten`, exact without compression).
    pub size_in_bytes: usize,
}

impl ProducerBatch {
    /// The bytes the next record would add (`DefaultRecord.sizeInBytes`: no key, no
    /// headers, the batch's timestamp).
    fn next_record_size(&self, value: &str) -> usize {
        crate::record::Record {
            attributes: 0,
            timestamp_delta: 0,
            offset_delta: i32::try_from(self.values.len()).unwrap_or(i32::MAX),
            key: None,
            value: Some(value.as_bytes().to_vec()),
            headers: Vec::new(),
        }
        .size_in_bytes()
    }

    pub fn last_sequence(&self) -> Option<i32> {
        self.base_sequence.map(|s| {
            crate::log::producer_state::increment_sequence(s, self.values.len() as i32 - 1)
        })
    }

    /// The v2 bytes that go on the wire.
    pub fn encode(&self) -> Vec<u8> {
        let kvs = self
            .values
            .iter()
            .map(|v| (None, Some(v.as_bytes().to_vec())))
            .collect();
        RecordBatch::new_data(
            0,
            self.producer_id,
            self.producer_epoch,
            self.base_sequence.unwrap_or(crate::record::NO_SEQUENCE),
            self.transactional,
            self.created_ms,
            kvs,
        )
        .encode()
    }
}

/// A request waiting for its response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InFlight {
    pub correlation_id: u64,
    pub broker: i32,
    pub deadline_ms: i64,
    pub what: InFlightKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum InFlightKind {
    InitProducerId,
    Produce(ProducerBatch),
    Txn(TxnRequestKind),
}

/// Where the producer is in getting its producer id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum IdState {
    /// Not idempotent: batches carry producer id -1.
    Disabled,
    /// Transactional: the id comes from `initTransactions()`.
    AwaitingInitTransactions,
    /// Needs an id; may ask after `retry_at_ms`.
    Uninitialized {
        retry_at_ms: i64,
    },
    Initializing,
    Ready,
}

/// A request the producer wants sent now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub correlation_id: u64,
    pub broker: i32,
    pub request: Request,
}

/// What the producer did, for narration and the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ProducerEvent {
    Accumulated {
        tp: TopicPartition,
        values: Vec<String>,
    },
    /// A batch got its sequence at drain time (first attempt only).
    SequenceAssigned {
        batch: u64,
        tp: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        first_seq: i32,
        last_seq: i32,
    },
    BatchSent {
        batch: u64,
        tp: TopicPartition,
        attempt: u32,
        first_seq: Option<i32>,
        last_seq: Option<i32>,
    },
    InitProducerIdRetry {
        error: Errors,
        backoff_ms: i64,
    },
    ProducerIdReceived {
        producer_id: i64,
        producer_epoch: i16,
    },
    /// No answer before `request.timeout.ms`: the batch will be retried with the same sequence.
    RequestTimedOut {
        batch: Option<u64>,
        broker: i32,
        timeout_ms: i64,
    },
    RetryScheduled {
        batch: u64,
        tp: TopicPartition,
        error: Errors,
        attempt: u32,
    },
    /// The application's send completed.
    Acknowledged {
        batch: u64,
        tp: TopicPartition,
        base_offset: i64,
        values: Vec<String>,
    },
    Failed {
        batch: u64,
        tp: TopicPartition,
        error: Errors,
        /// The broker's `errorMessage`, as data.
        detail: Option<ErrorDetail>,
    },
    /// A transactional call progressed or finished.
    Transaction(TxnOutcome),
    /// `abortTransaction()` dropped batches that were never sent.
    BatchesAbortedLocally {
        count: usize,
    },
    /// While aborting, batches back in the queue after a timed-out request were
    /// dropped (`abortUndrainedBatches`): the request itself may still be on its way.
    UndrainedBatchesAborted {
        count: usize,
    },
    /// A response for a request the producer already gave up on.
    StaleResponse {
        correlation_id: u64,
        api: String,
    },
}

/// A producer client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Producer {
    pub config: ProducerConfig,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub id_state: IdState,
    /// Closed and open batches waiting to be sent, per partition, in order.
    pub accumulator: BTreeMap<TopicPartition, VecDeque<ProducerBatch>>,
    /// The open batch per partition still takes records until the next drain.
    pub open: BTreeMap<TopicPartition, bool>,
    /// Next sequence per partition (`TransactionManager.sequenceNumber`).
    pub next_sequence: BTreeMap<TopicPartition, i32>,
    pub in_flight: Vec<InFlight>,
    pub acknowledged: Vec<(u64, TopicPartition, i64, Vec<String>)>,
    pub failed: Vec<(u64, TopicPartition, Errors)>,
    /// The transactional part, when `transactional.id` is set.
    pub txn: Option<TransactionManager>,
    /// How the last transactional call ended (for the application's view).
    pub last_txn_outcome: Option<TxnOutcome>,
    /// How long (logical ms) the last blocking call took, e.g. `initTransactions()`.
    pub last_call_ms: i64,
    next_batch_id: u64,
}

impl Producer {
    /// Batches in the accumulator or in flight.
    pub fn pending_batches(&self) -> usize {
        self.accumulator.values().map(|q| q.len()).sum::<usize>() + self.in_flight.len()
    }

    pub fn new(config: ProducerConfig) -> Self {
        let txn = config
            .transactional_id
            .clone()
            .map(|id| TransactionManager::new(id, config.transaction_timeout_ms));
        let id_state = if txn.is_some() {
            IdState::AwaitingInitTransactions
        } else if config.enable_idempotence {
            IdState::Uninitialized { retry_at_ms: 0 }
        } else {
            IdState::Disabled
        };
        Producer {
            config,
            producer_id: -1,
            producer_epoch: -1,
            id_state,
            accumulator: BTreeMap::new(),
            open: BTreeMap::new(),
            next_sequence: BTreeMap::new(),
            in_flight: Vec::new(),
            acknowledged: Vec::new(),
            failed: Vec::new(),
            txn,
            last_txn_outcome: None,
            last_call_ms: 0,
            next_batch_id: 1,
        }
    }

    /// `send()`, once per value: a record goes into the open batch of its partition while
    /// that batch has room under `batch.size` (`MemoryRecordsBuilder.hasRoomFor`: the first
    /// record always fits); otherwise the batch is closed and a new one opened.
    pub fn send(&mut self, tp: TopicPartition, values: Vec<String>, now_ms: i64) -> ProducerEvent {
        let batch_size = self.config.batch_size;
        let transactional = self.txn.is_some();
        let queue = self.accumulator.entry(tp.clone()).or_default();
        for value in &values {
            let open = self.open.get(&tp).copied().unwrap_or(false);
            let has_room = |b: &ProducerBatch| {
                b.size_in_bytes.saturating_add(b.next_record_size(value)) <= batch_size
            };
            match queue.back_mut() {
                Some(batch) if open && has_room(batch) => {
                    batch.size_in_bytes += batch.next_record_size(value);
                    batch.values.push(value.clone());
                }
                _ => {
                    let id = self.next_batch_id;
                    self.next_batch_id += 1;
                    let mut batch = ProducerBatch {
                        id,
                        tp: tp.clone(),
                        values: Vec::new(),
                        created_ms: now_ms,
                        producer_id: -1,
                        producer_epoch: -1,
                        base_sequence: None,
                        attempts: 0,
                        retry_at_ms: now_ms,
                        transactional,
                        size_in_bytes: crate::record::RECORD_BATCH_OVERHEAD,
                    };
                    batch.size_in_bytes += batch.next_record_size(value);
                    batch.values.push(value.clone());
                    queue.push_back(batch);
                    self.open.insert(tp.clone(), true);
                }
            }
        }
        ProducerEvent::Accumulated { tp, values }
    }

    /// Whether anything is waiting to be sent or acknowledged.
    pub fn has_pending(&self) -> bool {
        !self.in_flight.is_empty() || self.accumulator.values().any(|q| !q.is_empty())
    }

    /// The earliest time the producer has something to do (a retry or a timeout).
    /// Only future times count: what is due now happens in the next `poll`.
    pub fn next_wakeup(&self, now_ms: i64) -> Option<i64> {
        let mut t: Option<i64> = None;
        let mut consider = |x: i64| {
            if x > now_ms {
                t = Some(t.map_or(x, |y| y.min(x)));
            }
        };
        for f in &self.in_flight {
            consider(f.deadline_ms);
        }
        if let IdState::Uninitialized { retry_at_ms } = self.id_state {
            consider(retry_at_ms.max(now_ms));
        }
        if let Some(tm) = self
            .txn
            .as_ref()
            .filter(|t| t.in_flight.is_none() && t.wants_request())
        {
            consider(tm.retry_at_ms.max(now_ms));
        }
        if self.can_drain() {
            for q in self.accumulator.values() {
                if let Some(b) = q.front() {
                    consider(b.retry_at_ms.max(now_ms));
                }
            }
        }
        t
    }

    fn can_drain(&self) -> bool {
        matches!(self.id_state, IdState::Ready | IdState::Disabled)
            && self.txn.as_ref().is_none_or(|t| t.can_send_batches())
    }

    /// `(producerId=0, epoch=2)`, as the seed's helper prints a producer.
    pub fn id_text(&self) -> String {
        format!(
            "(producerId={}, epoch={})",
            self.producer_id, self.producer_epoch
        )
    }

    /// Whether batches are queued or waiting for an answer.
    pub fn batches_pending(&self) -> bool {
        self.accumulator.values().any(|q| !q.is_empty())
            || self
                .in_flight
                .iter()
                .any(|f| matches!(f.what, InFlightKind::Produce(_)))
    }

    /// The cluster's finalized `transaction.version` as this client negotiates it.
    pub fn set_transaction_v2(&mut self, v2: bool) {
        if let Some(tm) = self.txn.as_mut() {
            tm.transaction_v2 = v2;
        }
    }

    /// `abortTransaction()` once the transaction manager took it: batches never sent
    /// are dropped here; then EndTxn(abort) goes once the in-flight ones are answered.
    pub fn abort_transaction(&mut self) -> Vec<ProducerEvent> {
        let count: usize = self
            .accumulator
            .values()
            .map(|q| q.iter().filter(|b| b.base_sequence.is_none()).count())
            .sum();
        for q in self.accumulator.values_mut() {
            q.retain(|b| b.base_sequence.is_some());
        }
        if count > 0 {
            vec![ProducerEvent::BatchesAbortedLocally { count }]
        } else {
            vec![]
        }
    }

    /// `Sender.runOnce`: time out stale requests, get a producer id, drain batches.
    /// `leader_of` tells which broker leads a partition; `bootstrap` is any broker.
    pub fn poll(
        &mut self,
        now_ms: i64,
        bootstrap: i32,
        leader_of: &dyn Fn(&TopicPartition) -> Option<i32>,
        next_correlation_id: &mut u64,
    ) -> (Vec<Outgoing>, Vec<ProducerEvent>) {
        let mut out = Vec::new();
        let mut events = Vec::new();
        self.expire_requests(now_ms, &mut events);
        if let IdState::Uninitialized { retry_at_ms } = self.id_state {
            if retry_at_ms <= now_ms {
                let correlation_id = take(next_correlation_id);
                self.id_state = IdState::Initializing;
                self.in_flight.push(InFlight {
                    correlation_id,
                    broker: bootstrap,
                    deadline_ms: now_ms.saturating_add(self.config.request_timeout_ms),
                    what: InFlightKind::InitProducerId,
                });
                out.push(Outgoing {
                    correlation_id,
                    broker: bootstrap,
                    request: Request::InitProducerId {
                        transactional_id: None,
                        transaction_timeout_ms: 60_000,
                    },
                });
            }
        }
        let batches_pending = self.batches_pending();
        let (pid, epoch) = (self.producer_id, self.producer_epoch);
        if let Some(tm) = self.txn.as_mut() {
            if let Some((target, request, kind)) =
                tm.next_request(now_ms, pid, epoch, batches_pending)
            {
                let broker = match target {
                    Target::Bootstrap => bootstrap,
                    Target::Broker(b) => b,
                };
                let correlation_id = take(next_correlation_id);
                tm.in_flight = Some(correlation_id);
                self.in_flight.push(InFlight {
                    correlation_id,
                    broker,
                    deadline_ms: now_ms.saturating_add(self.config.request_timeout_ms),
                    what: InFlightKind::Txn(kind),
                });
                out.push(Outgoing {
                    correlation_id,
                    broker,
                    request,
                });
            }
        }
        if !self.can_drain() {
            return (out, events);
        }
        // `abortUndrainedBatches`: while aborting, a batch back in the queue (its
        // request timed out) is dropped, not sent again.
        if self
            .txn
            .as_ref()
            .is_some_and(|t| t.state == super::transaction_manager::TxnState::AbortingTransaction)
        {
            let count: usize = self.accumulator.values().map(|q| q.len()).sum();
            if count > 0 {
                for q in self.accumulator.values_mut() {
                    q.clear();
                }
                events.push(ProducerEvent::UndrainedBatchesAborted { count });
            }
        }
        // Drain: close open batches and send, in order, while the connection has room.
        self.open.clear();
        let partitions: Vec<TopicPartition> = self.accumulator.keys().cloned().collect();
        for tp in partitions {
            let Some(broker) = leader_of(&tp) else {
                continue;
            };
            if self.txn.as_ref().is_some_and(|t| !t.send_allowed(&tp)) {
                continue;
            }
            loop {
                let in_flight_to_broker =
                    self.in_flight.iter().filter(|f| f.broker == broker).count() as u32;
                if in_flight_to_broker >= self.config.max_in_flight {
                    break;
                }
                let ready = self
                    .accumulator
                    .get(&tp)
                    .and_then(|q| q.front())
                    .is_some_and(|b| b.retry_at_ms <= now_ms);
                if !ready {
                    break;
                }
                // A numbered batch waits while an earlier-numbered one is still in flight.
                let blocked = self
                    .accumulator
                    .get(&tp)
                    .and_then(|q| q.front())
                    .and_then(|b| b.base_sequence)
                    .is_some_and(|s| {
                        self.in_flight.iter().any(|f| match &f.what {
                            InFlightKind::Produce(o) => {
                                o.tp == tp && o.base_sequence.is_some_and(|os| os < s)
                            }
                            _ => false,
                        })
                    });
                if blocked {
                    break;
                }
                let Some(mut batch) = self.accumulator.get_mut(&tp).and_then(|q| q.pop_front())
                else {
                    break;
                };
                if batch.base_sequence.is_none() && self.id_state == IdState::Ready {
                    let seq = self.next_sequence.get(&tp).copied().unwrap_or(0);
                    batch.producer_id = self.producer_id;
                    batch.producer_epoch = self.producer_epoch;
                    batch.base_sequence = Some(seq);
                    let n = batch.values.len() as i32;
                    self.next_sequence.insert(
                        tp.clone(),
                        crate::log::producer_state::increment_sequence(seq, n),
                    );
                    events.push(ProducerEvent::SequenceAssigned {
                        batch: batch.id,
                        tp: tp.clone(),
                        producer_id: batch.producer_id,
                        producer_epoch: batch.producer_epoch,
                        first_seq: seq,
                        last_seq: batch.last_sequence().unwrap_or(seq),
                    });
                }
                batch.attempts += 1;
                let correlation_id = take(next_correlation_id);
                events.push(ProducerEvent::BatchSent {
                    batch: batch.id,
                    tp: tp.clone(),
                    attempt: batch.attempts,
                    first_seq: batch.base_sequence,
                    last_seq: batch.last_sequence(),
                });
                out.push(Outgoing {
                    correlation_id,
                    broker,
                    request: Request::Produce {
                        transactional_id: if batch.transactional {
                            self.config.transactional_id.clone()
                        } else {
                            None
                        },
                        acks: self.config.acks,
                        timeout_ms: self.config.request_timeout_ms as i32,
                        topic_partition: tp.clone(),
                        records: batch.encode(),
                    },
                });
                if self.config.acks == 0 {
                    // acks=0: nothing comes back; the send counts as done, offset unknown.
                    events.push(ProducerEvent::Acknowledged {
                        batch: batch.id,
                        tp: tp.clone(),
                        base_offset: -1,
                        values: batch.values.clone(),
                    });
                    self.acknowledged
                        .push((batch.id, tp.clone(), -1, batch.values));
                    continue;
                }
                self.in_flight.push(InFlight {
                    correlation_id,
                    broker,
                    deadline_ms: now_ms.saturating_add(self.config.request_timeout_ms),
                    what: InFlightKind::Produce(batch),
                });
            }
        }
        (out, events)
    }

    /// Requests past `request.timeout.ms`: Kafka closes the connection, which fails
    /// every request on it; their batches go back to the front of their queues, in
    /// sequence order, keeping their sequence numbers.
    fn expire_requests(&mut self, now_ms: i64, events: &mut Vec<ProducerEvent>) {
        let expired_brokers: Vec<i32> = self
            .in_flight
            .iter()
            .filter(|f| f.deadline_ms <= now_ms)
            .map(|f| f.broker)
            .collect();
        if expired_brokers.is_empty() {
            return;
        }
        let (failed, kept): (Vec<InFlight>, Vec<InFlight>) = std::mem::take(&mut self.in_flight)
            .into_iter()
            .partition(|f| expired_brokers.contains(&f.broker));
        self.in_flight = kept;
        let mut requeue: Vec<ProducerBatch> = Vec::new();
        for f in failed {
            match f.what {
                InFlightKind::InitProducerId => {
                    events.push(ProducerEvent::RequestTimedOut {
                        batch: None,
                        broker: f.broker,
                        timeout_ms: self.config.request_timeout_ms,
                    });
                    self.id_state = IdState::Uninitialized {
                        retry_at_ms: now_ms.saturating_add(self.config.retry_backoff_ms),
                    };
                }
                InFlightKind::Produce(batch) => {
                    events.push(ProducerEvent::RequestTimedOut {
                        batch: Some(batch.id),
                        broker: f.broker,
                        timeout_ms: self.config.request_timeout_ms,
                    });
                    requeue.push(batch);
                }
                InFlightKind::Txn(_) => {
                    events.push(ProducerEvent::RequestTimedOut {
                        batch: None,
                        broker: f.broker,
                        timeout_ms: self.config.request_timeout_ms,
                    });
                    if let Some(tm) = self.txn.as_mut() {
                        tm.in_flight = None;
                        tm.coordinator = None;
                        tm.retry_at_ms = now_ms.saturating_add(self.config.retry_backoff_ms);
                    }
                }
            }
        }
        for mut batch in requeue {
            self.retry_or_fail(&mut batch, Errors::RequestTimedOut, now_ms, events);
        }
    }

    fn retry_or_fail(
        &mut self,
        batch: &mut ProducerBatch,
        error: Errors,
        now_ms: i64,
        events: &mut Vec<ProducerEvent>,
    ) {
        if batch.attempts > self.config.retries {
            events.push(ProducerEvent::Failed {
                batch: batch.id,
                tp: batch.tp.clone(),
                error,
                detail: None,
            });
            self.failed.push((batch.id, batch.tp.clone(), error));
            return;
        }
        batch.retry_at_ms = now_ms.saturating_add(self.config.retry_backoff_ms);
        events.push(ProducerEvent::RetryScheduled {
            batch: batch.id,
            tp: batch.tp.clone(),
            error,
            attempt: batch.attempts + 1,
        });
        self.requeue(batch.clone());
    }

    /// Puts a batch back in its queue in sequence order, ahead of batches that have no
    /// sequence yet, so retries reach the broker in the order they were numbered.
    fn requeue(&mut self, batch: ProducerBatch) {
        let queue = self.accumulator.entry(batch.tp.clone()).or_default();
        let seq = batch.base_sequence;
        let at = queue
            .iter()
            .position(|b| match (b.base_sequence, seq) {
                (None, _) => true,
                (Some(other), Some(mine)) => other > mine,
                (Some(_), None) => false,
            })
            .unwrap_or(queue.len());
        queue.insert(at, batch);
    }

    /// Whether an earlier-numbered batch of this partition is still unresolved: then an
    /// OUT_OF_ORDER answer only means that batch has not landed yet (Kafka's
    /// `TransactionManager.canRetry`), and a retry must wait for it.
    fn earlier_unresolved(&self, tp: &TopicPartition, seq: i32) -> bool {
        let in_flight = self.in_flight.iter().any(|f| match &f.what {
            InFlightKind::Produce(b) => b.tp == *tp && b.base_sequence.is_some_and(|s| s < seq),
            _ => false,
        });
        let queued = self
            .accumulator
            .get(tp)
            .is_some_and(|q| q.iter().any(|b| b.base_sequence.is_some_and(|s| s < seq)));
        in_flight || queued
    }

    /// A response arrived from the network.
    pub fn on_response(
        &mut self,
        correlation_id: u64,
        response: Response,
        now_ms: i64,
    ) -> Vec<ProducerEvent> {
        let mut events = Vec::new();
        let Some(pos) = self
            .in_flight
            .iter()
            .position(|f| f.correlation_id == correlation_id)
        else {
            events.push(ProducerEvent::StaleResponse {
                correlation_id,
                api: response.api_name().to_string(),
            });
            return events;
        };
        let inflight = self.in_flight.remove(pos);
        match (inflight.what, response) {
            (InFlightKind::Txn(kind), response) => {
                let backoff = self.config.retry_backoff_ms;
                let Some(tm) = self.txn.as_mut() else {
                    return events;
                };
                let (outcome, ids) = tm.on_response(&kind, &response, now_ms, backoff);
                if let Some((producer_id, producer_epoch)) = ids {
                    // A new epoch (TV2 bumps it on every EndTxn) restarts every sequence at 0.
                    if (producer_id, producer_epoch) != (self.producer_id, self.producer_epoch) {
                        self.next_sequence.clear();
                    }
                    self.producer_id = producer_id;
                    self.producer_epoch = producer_epoch;
                    self.id_state = IdState::Ready;
                }
                if let Some(outcome) = outcome {
                    if !matches!(outcome, TxnOutcome::Retrying { .. }) {
                        self.last_txn_outcome = Some(outcome.clone());
                    }
                    events.push(ProducerEvent::Transaction(outcome));
                }
            }
            (
                InFlightKind::InitProducerId,
                Response::InitProducerId {
                    error,
                    producer_id,
                    producer_epoch,
                },
            ) => {
                if error == Errors::None {
                    self.producer_id = producer_id;
                    self.producer_epoch = producer_epoch;
                    self.id_state = IdState::Ready;
                    events.push(ProducerEvent::ProducerIdReceived {
                        producer_id,
                        producer_epoch,
                    });
                } else {
                    let backoff = self.config.retry_backoff_ms;
                    self.id_state = IdState::Uninitialized {
                        retry_at_ms: now_ms.saturating_add(backoff),
                    };
                    events.push(ProducerEvent::InitProducerIdRetry {
                        error,
                        backoff_ms: backoff,
                    });
                }
            }
            (
                InFlightKind::Produce(mut batch),
                Response::Produce {
                    error,
                    base_offset,
                    error_message,
                    ..
                },
            ) => match error {
                Errors::None | Errors::DuplicateSequenceNumber => {
                    events.push(ProducerEvent::Acknowledged {
                        batch: batch.id,
                        tp: batch.tp.clone(),
                        base_offset,
                        values: batch.values.clone(),
                    });
                    self.acknowledged
                        .push((batch.id, batch.tp.clone(), base_offset, batch.values));
                }
                e if e.is_retriable() => self.retry_or_fail(&mut batch, e, now_ms, &mut events),
                Errors::OutOfOrderSequenceNumber
                    if batch
                        .base_sequence
                        .is_some_and(|s| self.earlier_unresolved(&batch.tp, s)) =>
                {
                    self.retry_or_fail(
                        &mut batch,
                        Errors::OutOfOrderSequenceNumber,
                        now_ms,
                        &mut events,
                    )
                }
                e => {
                    events.push(ProducerEvent::Failed {
                        batch: batch.id,
                        tp: batch.tp.clone(),
                        error: e,
                        detail: error_message,
                    });
                    self.failed.push((batch.id, batch.tp.clone(), e));
                    if let Some(tm) = self.txn.as_mut() {
                        tm.on_batch_error(e);
                    }
                }
            },
            (_, other) => events.push(ProducerEvent::StaleResponse {
                correlation_id,
                api: other.api_name().to_string(),
            }),
        }
        events
    }

    /// The connection to a broker broke (the broker stopped): in-flight requests fail
    /// at once and their batches are retried, as after a timeout.
    pub fn on_disconnect(&mut self, broker: i32, now_ms: i64) -> Vec<ProducerEvent> {
        let mut events = Vec::new();
        for f in self.in_flight.iter_mut().filter(|f| f.broker == broker) {
            f.deadline_ms = now_ms;
        }
        self.expire_requests(now_ms, &mut events);
        events
    }
}

fn take(counter: &mut u64) -> u64 {
    let v = *counter;
    *counter += 1;
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(kv: &[(&str, &str)]) -> Vec<(String, String)> {
        kv.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn explicit_idempotence_with_acks_1_is_refused() {
        let err = ProducerConfig::from_pairs(
            "p",
            &pairs(&[("enable.idempotence", "true"), ("acks", "1")]),
        )
        .unwrap_err();
        assert_eq!(err, ConfigError::IdempotenceNeedsAcksAll);
        let err = ProducerConfig::from_pairs(
            "p",
            &pairs(&[
                ("enable.idempotence", "true"),
                ("max.in.flight.requests.per.connection", "6"),
            ]),
        )
        .unwrap_err();
        assert_eq!(err, ConfigError::IdempotenceMaxInFlight);
    }

    #[test]
    fn default_idempotence_is_quietly_dropped_by_acks_1() {
        let c = ProducerConfig::from_pairs("p", &pairs(&[("acks", "1")])).unwrap();
        assert!(!c.enable_idempotence);
    }

    #[test]
    fn sequence_is_assigned_once_at_drain_and_kept_on_retry() {
        let mut p = Producer::new(ProducerConfig::new("p"));
        p.id_state = IdState::Ready;
        p.producer_id = 7;
        p.producer_epoch = 0;
        let tp = TopicPartition::new("t", 0);
        p.send(tp.clone(), vec!["a".into(), "b".into()], 0);
        p.send(tp.clone(), vec!["c".into()], 0);
        let mut cid = 1;
        let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
        assert_eq!(out.len(), 1, "records sent before a drain share one batch");
        // No answer: after request.timeout.ms the same batch goes again.
        let (out2, events) = p.poll(30_000, 1, &|_| Some(1), &mut cid);
        assert!(out2.is_empty(), "retry waits for retry.backoff.ms");
        assert!(events
            .iter()
            .any(|e| matches!(e, ProducerEvent::RequestTimedOut { .. })));
        let (out3, _) = p.poll(30_100, 1, &|_| Some(1), &mut cid);
        let seq_of = |o: &Outgoing| match &o.request {
            Request::Produce { records, .. } => {
                RecordBatch::decode(records).unwrap().0.base_sequence
            }
            _ => -9,
        };
        assert_eq!(seq_of(&out[0]), 0);
        assert_eq!(seq_of(&out3[0]), 0);
        p.send(tp.clone(), vec!["d".into()], 30_100);
        let (out4, _) = p.poll(30_100, 1, &|_| Some(1), &mut cid);
        assert_eq!(seq_of(&out4[0]), 3);
    }

    #[test]
    fn at_most_max_in_flight_requests_per_connection() {
        let mut p = Producer::new(ProducerConfig::new("p"));
        p.id_state = IdState::Ready;
        p.producer_id = 1;
        p.producer_epoch = 0;
        let tp = TopicPartition::new("t", 0);
        let mut cid = 1;
        for i in 0..7 {
            p.send(tp.clone(), vec![format!("v{i}")], 0);
            p.open.clear();
        }
        let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
        assert_eq!(out.len(), 5);
        assert_eq!(p.accumulator[&tp].len(), 2);
    }
}
