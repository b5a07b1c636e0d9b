//! The client side of each call (`PulsarClientImpl`, `TransactionImpl`,
//! `TransactionCoordinatorClientImpl`): a transaction registers a partition or a
//! subscription with its coordinator before the first send or ack there, and checks
//! its own state (OPEN, or TIME_OUT after its timer) before any call.
//!
//! `TransactionImpl` tracks each send and ack future of the transaction; `commit()`
//! waits for them, and if one failed it aborts the transaction and fails with
//! `TransactionHasOperationFailedException` (Pulsar 2.10.5, 2.11.2 and 3.x; before
//! that the abort was skipped). A call here returns only once it is answered or timed
//! out, so every operation is complete by the time of a commit.
//!
//! A coordinator request answered TransactionCoordinatorNotFound while that coordinator
//! loads is sent again after a backoff (`TransactionMetaStoreHandler
//! .checkIfNeedRetryByError`; 100 ms doubling, the client's initialBackoffInterval,
//! without Backoff's jitter) until `operationTimeoutMs`. A crashed coordinator that
//! nobody loads answers once: in Pulsar its partition of
//! transaction_coordinator_assign would move to a broker that loads it, which is the
//! step `pulsar tc N recover` here.

use super::action::Outcome;
use super::event::PulsarEventKind;
use super::world::{ClientTxn, ClientTxnState, ConsumerState, PersistentSubscription, TXN_CLIENT};
use super::{
    Command, Position, PulsarError, PulsarStepError, PulsarWorld, TransactionSubscription,
};
use crate::sim::Node;

/// The first retry's backoff (`initialBackoffIntervalNanos`: 100 ms).
pub const INITIAL_BACKOFF_MS: i64 = 100;
/// The longest backoff (`maxBackoffIntervalNanos`: 60 s).
pub const MAX_BACKOFF_MS: i64 = 60_000;

/// How a send goes besides its values and transaction.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SendOpts {
    /// An explicit sequence id for the first value (a resend).
    pub sequence_id: Option<i64>,
    /// `deliverAt`, logical ms.
    pub deliver_at: Option<i64>,
    /// The values go in one batch entry.
    pub batch: bool,
}

impl PulsarWorld {
    /// A request to coordinator `tc`, retried while it loads.
    fn tc_call(
        &mut self,
        tc: u64,
        body: Command,
        step: Option<&'static str>,
    ) -> Result<Command, PulsarError> {
        let deadline = self
            .clock_ms()
            .saturating_add(self.config().operation_timeout_ms);
        let mut backoff = INITIAL_BACKOFF_MS;
        for _ in 0..64 {
            let broker = self.tc_broker(tc);
            let answer = self.call(TXN_CLIENT, broker, body.clone(), step)?;
            let loading = self
                .coordinators
                .get(tc as usize)
                .is_some_and(|c| c.loading_until.is_some());
            if answer.tc_error() != Some(PulsarError::CoordinatorNotFoundException) || !loading {
                return Ok(answer);
            }
            let at = self.clock_ms().saturating_add(backoff);
            if at >= deadline {
                self.run_until(deadline);
                let error = PulsarError::TimeoutException;
                let kind = PulsarEventKind::CallFailed {
                    client: TXN_CLIENT.to_string(),
                    call: body.name(),
                    error,
                };
                self.emit(None, kind);
                return Err(error);
            }
            let kind = PulsarEventKind::ClientRetry {
                call: body.name(),
                backoff_ms: backoff,
            };
            self.emit(None, kind);
            self.run_until(at);
            backoff = backoff.saturating_mul(2).min(MAX_BACKOFF_MS);
        }
        Err(PulsarError::TimeoutException)
    }

    pub(super) fn subscribe(
        &mut self,
        consumer: &str,
        topic: &str,
        subscription: &str,
        sub_type: super::SubscriptionType,
        max_redeliver_count: Option<u32>,
    ) -> Result<Outcome, PulsarStepError> {
        if self.consumer(consumer).is_some() {
            return Err(PulsarStepError::ConsumerAlreadyExists {
                consumer: consumer.to_string(),
            });
        }
        if max_redeliver_count == Some(0) {
            // `DeadLetterPolicy` wants maxRedeliverCount > 0 (checkArgument).
            return Err(PulsarStepError::MaxRedeliverTooLow);
        }
        let t = self
            .topics
            .get_mut(topic)
            .ok_or_else(|| PulsarStepError::TopicNotFound {
                topic: topic.to_string(),
            })?;
        let ledger_id = t.ledger.ledger_id();
        t.subscriptions
            .entry(subscription.to_string())
            .or_insert_with(|| PersistentSubscription::new(ledger_id, sub_type));
        self.consumers_mut().insert(
            consumer.to_string(),
            ConsumerState {
                topic: topic.to_string(),
                subscription: subscription.to_string(),
                sub_type,
                received: Vec::new(),
                max_redeliver_count,
                possible_dead_letter: Default::default(),
            },
        );
        self.emit(
            None,
            PulsarEventKind::Subscribed {
                topic: topic.to_string(),
                subscription: subscription.to_string(),
                consumer: consumer.to_string(),
            },
        );
        Ok(Outcome::Done)
    }

    /// A transaction usable for a send or an ack: the client checks OPEN itself.
    fn open_txn(&self, name: &str) -> Result<Result<ClientTxn, PulsarError>, PulsarStepError> {
        let t = self.client_txn(name)?;
        Ok(if t.state == ClientTxnState::Open {
            Ok(t)
        } else {
            Err(PulsarError::InvalidTxnStatusException)
        })
    }

    pub(super) fn produce(
        &mut self,
        producer: &str,
        topic: &str,
        values: &[String],
        txn: Option<&str>,
        opts: SendOpts,
    ) -> Result<Outcome, PulsarStepError> {
        let SendOpts {
            sequence_id,
            deliver_at,
            batch,
        } = opts;
        if self.topic(topic).is_none() {
            return Err(PulsarStepError::TopicNotFound {
                topic: topic.to_string(),
            });
        }
        let mut txn_id = None;
        if let Some(name) = txn {
            let t = match self.open_txn(name)? {
                Ok(t) => t,
                Err(e) => {
                    return Ok(Outcome::Sent(
                        values.iter().map(|v| (v.clone(), Err(e))).collect(),
                    ))
                }
            };
            txn_id = Some(t.id);
            // 2.1.1 … 2.1.4: the partition joins the transaction first.
            if !t.partitions.contains(topic) {
                let body = Command::AddPartitionToTxn {
                    txn: t.id,
                    partitions: vec![topic.to_string()],
                };
                let result = match self.tc_call(t.id.most_sig_bits(), body, Some("2.1.1")) {
                    Ok(Command::AddPartitionToTxnResponse { result, .. }) => result,
                    Ok(_) => Err(PulsarError::TimeoutException),
                    Err(e) => Err(e),
                };
                if let Err(e) = result {
                    return Ok(Outcome::Sent(
                        values.iter().map(|v| (v.clone(), Err(e))).collect(),
                    ));
                }
                let mut t = t;
                t.partitions.insert(topic.to_string());
                self.set_client_txn(name, t);
            }
        }
        let broker = self.topic_broker(topic);
        let mut out = Vec::new();
        // A batch: one Send, one entry, its messages named by batch index; its
        // sequence id is the last message's (`highest_sequence_id`, what dedup checks).
        let groups: Vec<Vec<String>> = if batch && values.len() > 1 {
            vec![values.to_vec()]
        } else {
            values.iter().map(|v| vec![v.clone()]).collect()
        };
        let mut i = 0i64;
        for group in groups {
            let mut seq = 0;
            for _ in &group {
                seq = self.next_sequence_id(producer, sequence_id.map(|s| s.saturating_add(i)));
                i = i.saturating_add(1);
            }
            let batched = group.len() > 1;
            let body = Command::Send {
                topic: topic.to_string(),
                producer_name: producer.to_string(),
                sequence_id: seq,
                txn: txn_id,
                value: if batched {
                    format!("[{}]", group.join(" "))
                } else {
                    group.concat()
                },
                deliver_at,
                batch: if batched { group.clone() } else { Vec::new() },
            };
            let step = txn_id.map(|_| "2.2.1");
            let result = match self.call(producer, broker, body, step) {
                Ok(Command::SendReceipt { result, .. }) => result,
                Ok(_) => Err(PulsarError::TimeoutException),
                Err(e) => Err(e),
            };
            if let (Some(name), Err(_)) = (txn, &result) {
                self.op_failed(name);
            }
            for (k, value) in (0u32..).zip(&group) {
                let r = match result {
                    // A duplicate (`-1:-1`) stays as it is.
                    Ok(p) if batched && p.entry_id >= 0 => {
                        Ok(super::Position::batch(p.ledger_id, p.entry_id, k))
                    }
                    r => r,
                };
                out.push((value.clone(), r));
            }
        }
        Ok(Outcome::Sent(out))
    }

    /// The named consumer, or UnknownConsumer: every consumer step starts here.
    fn known_consumer(&self, consumer: &str) -> Result<ConsumerState, PulsarStepError> {
        self.consumer(consumer)
            .cloned()
            .ok_or_else(|| PulsarStepError::UnknownConsumer {
                consumer: consumer.to_string(),
            })
    }

    pub(super) fn receive(
        &mut self,
        consumer: &str,
        permits: u32,
    ) -> Result<Outcome, PulsarStepError> {
        let c = self.known_consumer(consumer)?;
        let broker = self.topic_broker(&c.topic);
        let body = Command::Flow {
            topic: c.topic.clone(),
            subscription: c.subscription.clone(),
            permits,
        };
        let (entries, counts) = match self.call(consumer, broker, body, None) {
            Ok(Command::Message {
                entries,
                redelivery_counts,
            }) => (entries, redelivery_counts),
            _ => Default::default(),
        };
        // `ConsumerImpl.messageReceived`: at the maximum a message may still be
        // processed (its next redelivery goes to the dead-letter topic); past it, it
        // goes there at once.
        let mut kept = Vec::new();
        let mut past = Vec::new();
        for (p, v) in entries {
            let count = counts.get(&p).copied().unwrap_or(0);
            match c.max_redeliver_count {
                Some(max) if count >= max => {
                    if let Some(state) = self.consumers_mut().get_mut(consumer) {
                        state.possible_dead_letter.insert(p, (v.clone(), count));
                    }
                    if count > max {
                        past.push(p);
                        continue;
                    }
                }
                _ => {}
            }
            kept.push((p, v));
        }
        if let Some(state) = self.consumers_mut().get_mut(consumer) {
            state.received.extend(kept.iter().cloned());
        }
        let mut dead_lettered = Vec::new();
        for p in past {
            if let Some(d) = self.dead_letter(consumer, p) {
                dead_lettered.push(d);
            }
        }
        Ok(Outcome::Received {
            consumer: consumer.to_string(),
            entries: kept,
            dead_lettered,
        })
    }

    /// `processPossibleToDLQ`: the dead-letter producer sends the message to
    /// `TOPIC-SUBSCRIPTION-DLQ` (made on first use), then the original is acknowledged.
    /// If that send fails, the message stays unacknowledged and is redelivered.
    fn dead_letter(&mut self, consumer: &str, p: Position) -> Option<(Position, String, Position)> {
        let c = self.consumer(consumer)?.clone();
        let (value, count) = c.possible_dead_letter.get(&p)?.clone();
        let dlq = format!("{}-{}-DLQ", c.topic, c.subscription);
        self.ensure_topic(&dlq);
        let producer = format!("{consumer}-DLQ");
        let sent = match self.produce(&producer, &dlq, &[value], None, SendOpts::default()) {
            Ok(Outcome::Sent(v)) => v.into_iter().next().and_then(|(_, r)| r.ok()),
            _ => None,
        };
        let Some(at) = sent else {
            self.send_redeliver(consumer, &c, vec![p]);
            return None;
        };
        if let Some(state) = self.consumers_mut().get_mut(consumer) {
            state.possible_dead_letter.remove(&p);
        }
        let kind = PulsarEventKind::DeadLettered {
            consumer: consumer.to_string(),
            position: p,
            redelivery_count: count,
            dead_letter_topic: dlq.clone(),
            dead_letter_position: at,
        };
        self.emit(None, kind);
        let body = Command::Ack {
            topic: c.topic.clone(),
            subscription: c.subscription.clone(),
            positions: vec![p],
            txn: None,
            cumulative: false,
        };
        self.send_unanswered(consumer, &c.topic, body);
        Some((p, dlq, at))
    }

    fn send_redeliver(&mut self, consumer: &str, c: &ConsumerState, positions: Vec<Position>) {
        let body = Command::RedeliverUnacknowledged {
            topic: c.topic.clone(),
            subscription: c.subscription.clone(),
            positions,
        };
        self.send_unanswered(consumer, &c.topic, body);
    }

    /// A consumer's command that gets no answer (a plain ack, a redelivery request):
    /// sent to the topic's broker and left to land.
    fn send_unanswered(&mut self, consumer: &str, topic: &str, body: Command) {
        let broker = self.topic_broker(topic);
        self.send(
            Node::Client(consumer.to_string()),
            Node::Broker(broker),
            body,
            None,
        );
        self.settle();
    }

    /// `negativeAcknowledge`: each message seen at `maxRedeliverCount` goes to the
    /// dead-letter topic; the broker redelivers the others. Simplified: the request
    /// goes at once (Pulsar waits `negativeAckRedeliveryDelay`, 1 min, first).
    pub(super) fn negative_acknowledge(
        &mut self,
        consumer: &str,
        positions: &[Position],
    ) -> Result<Outcome, PulsarStepError> {
        let c = self.known_consumer(consumer)?;
        let mut redelivered = Vec::new();
        let mut dead_lettered = Vec::new();
        for &p in positions {
            if c.possible_dead_letter.contains_key(&p) {
                if let Some(d) = self.dead_letter(consumer, p) {
                    dead_lettered.push(d);
                }
            } else {
                redelivered.push(p);
            }
        }
        if !redelivered.is_empty() {
            self.send_redeliver(consumer, &c, redelivered.clone());
        }
        Ok(Outcome::Nacked {
            redelivered,
            dead_lettered,
        })
    }

    pub(super) fn acknowledge(
        &mut self,
        consumer: &str,
        positions: &[Position],
        txn: Option<&str>,
        cumulative: bool,
    ) -> Result<Outcome, PulsarStepError> {
        let c = self.known_consumer(consumer)?;
        if cumulative && positions.len() != 1 {
            return Err(PulsarStepError::CumulativeAckOnePosition);
        }
        // `acknowledgeCumulativeAsync` checks the subscription type before anything.
        if cumulative && !c.sub_type.allows_cumulative_ack() {
            let error = PulsarError::InvalidConfigurationException;
            if let Some(name) = txn {
                self.op_failed(name);
            }
            return Ok(Outcome::Acked { result: Err(error) });
        }
        let broker = self.topic_broker(&c.topic);
        let Some(name) = txn else {
            // A plain ack has no answer: send it and let it land.
            let body = Command::Ack {
                topic: c.topic.clone(),
                subscription: c.subscription.clone(),
                positions: positions.to_vec(),
                txn: None,
                cumulative,
            };
            self.send_unanswered(consumer, &c.topic, body);
            return Ok(Outcome::Acked { result: Ok(()) });
        };
        let t = match self.open_txn(name)? {
            Ok(t) => t,
            Err(e) => return Ok(Outcome::Acked { result: Err(e) }),
        };
        let sub = TransactionSubscription {
            topic: c.topic.clone(),
            subscription: c.subscription.clone(),
        };
        // 3.1.1 … 3.1.4: the subscription joins the transaction first.
        if !t.subscriptions.contains(&sub) {
            let body = Command::AddSubscriptionToTxn {
                txn: t.id,
                subscriptions: vec![sub.clone()],
            };
            let result = match self.tc_call(t.id.most_sig_bits(), body, Some("3.1.1")) {
                Ok(Command::AddSubscriptionToTxnResponse { result, .. }) => result,
                Ok(_) => Err(PulsarError::TimeoutException),
                Err(e) => Err(e),
            };
            if result.is_err() {
                return Ok(Outcome::Acked { result });
            }
            let mut t = t.clone();
            t.subscriptions.insert(sub);
            self.set_client_txn(name, t);
        }
        let body = Command::Ack {
            topic: c.topic.clone(),
            subscription: c.subscription.clone(),
            positions: positions.to_vec(),
            txn: Some(t.id),
            cumulative,
        };
        let result = match self.call(consumer, broker, body, Some("3.2")) {
            Ok(Command::AckResponse { result, .. }) => result,
            Ok(_) => Err(PulsarError::TimeoutException),
            Err(e) => Err(e),
        };
        if result.is_err() {
            self.op_failed(name);
        }
        Ok(Outcome::Acked { result })
    }

    /// `registerSendOp` / `registerAckOp` saw the future fail (`hasOpsFailed`).
    fn op_failed(&mut self, name: &str) {
        if let Ok(mut t) = self.client_txn(name) {
            t.failed_ops = t.failed_ops.saturating_add(1);
            self.set_client_txn(name, t);
        }
    }

    pub(super) fn new_txn(
        &mut self,
        name: &str,
        timeout_ms: Option<i64>,
    ) -> Result<Outcome, PulsarStepError> {
        if self.txn(name).is_some() {
            return Err(PulsarStepError::TransactionAlreadyExists {
                name: name.to_string(),
            });
        }
        let ttl = timeout_ms.unwrap_or(self.config().transaction_timeout_ms);
        if !(0..=i64::from(i32::MAX)).contains(&ttl) {
            return Err(PulsarStepError::TimeoutOutOfRange);
        }
        let tc = self.take_round_robin_tc();
        let failed = |e| {
            Ok(Outcome::TxnOpened {
                name: name.to_string(),
                result: Err(e),
            })
        };
        // 1.1: find the coordinator: who serves this partition of the assign topic.
        if !self.is_looked_up(tc) {
            let topic = format!("transaction_coordinator_assign-partition-{tc}");
            match self.call(TXN_CLIENT, 0, Command::LookupTopic { topic }, Some("1.1")) {
                Ok(Command::LookupTopicResponse {
                    broker: Some(_), ..
                }) => self.mark_looked_up(tc),
                Ok(_) => return failed(PulsarError::CoordinatorNotFoundException),
                Err(e) => return failed(e),
            }
        }
        let body = Command::NewTxn {
            tc_id: tc,
            txn_ttl_ms: ttl,
        };
        let result = match self.tc_call(tc, body, Some("1.1")) {
            Ok(Command::NewTxnResponse { result }) => result,
            Ok(_) => Err(PulsarError::TimeoutException),
            Err(e) => Err(e),
        };
        if let Ok(id) = result {
            let txn = ClientTxn {
                id,
                state: ClientTxnState::Open,
                timeout_at: self.clock_ms().saturating_add(ttl),
                failed_ops: 0,
                partitions: Default::default(),
                subscriptions: Default::default(),
            };
            self.set_client_txn(name, txn);
            // The client's timer (`TransactionImpl` is a TimerTask) is due at once for
            // a zero timeout.
            self.fire_timeouts();
        }
        Ok(Outcome::TxnOpened {
            name: name.to_string(),
            result,
        })
    }

    pub(super) fn end_txn(&mut self, name: &str, commit: bool) -> Result<Outcome, PulsarStepError> {
        let mut t = self.client_txn(name)?;
        let ended = |result| {
            Ok(Outcome::Ended {
                name: name.to_string(),
                commit,
                result,
            })
        };
        // TransactionImpl.checkState: only an OPEN transaction (or one whose end was
        // already asked the same way) may end.
        let again = (commit && t.state == ClientTxnState::Committing)
            || (!commit && t.state == ClientTxnState::Aborting);
        if t.state != ClientTxnState::Open && !again {
            return ended(Err(PulsarError::InvalidTxnStatusException));
        }
        t.state = if commit {
            ClientTxnState::Committing
        } else {
            ClientTxnState::Aborting
        };
        self.set_client_txn(name, t.clone());
        // The operations are complete; one failed: abort instead of the commit.
        let refused = commit && t.failed_ops > 0;
        if refused {
            let (txn, failed) = (t.id, t.failed_ops);
            self.emit(
                None,
                PulsarEventKind::CommitAbortsForFailedOps { txn, failed },
            );
            t.state = ClientTxnState::Aborting;
            self.set_client_txn(name, t.clone());
        }
        let commit = commit && !refused;
        let body = Command::EndTxn { txn: t.id, commit };
        let result = match self.tc_call(t.id.most_sig_bits(), body, Some("4.1.1")) {
            Ok(Command::EndTxnResponse { result, .. }) => result,
            Ok(_) => Err(PulsarError::TimeoutException),
            Err(e) => Err(e),
        };
        t.state = match result {
            Ok(()) if commit => ClientTxnState::Committed,
            Ok(()) => ClientTxnState::Aborted,
            Err(
                PulsarError::TransactionNotFoundException | PulsarError::InvalidTxnStatusException,
            ) => ClientTxnState::Error,
            Err(_) => t.state,
        };
        self.set_client_txn(name, t);
        if refused {
            return ended(Err(PulsarError::TransactionHasOperationFailedException));
        }
        ended(result)
    }
}
