//! The `Sender` side: draining batches into requests, timeouts and retries, and
//! what each response or disconnect does to the batches in flight.

use super::*;

impl Producer {
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
        self.settle_sequences(&mut events);
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
                        producer_id: -1,
                        producer_epoch: -1,
                    },
                });
            }
        }
        self.abort_batches_in_error(&mut events);
        let batches_pending = self.batches_pending();
        let (pid, epoch) = (self.producer_id, self.producer_epoch);
        if let Some(tm) = self.txn.as_mut() {
            if let Some(outcome) = tm.complete_without_end_txn(pid, epoch, batches_pending) {
                self.last_txn_outcome = Some(outcome.clone());
                events.push(ProducerEvent::Transaction(outcome));
            }
        }
        if let Some(tm) = self.txn.as_mut() {
            if let Some((target, request, kind)) =
                tm.next_request(now_ms, pid, epoch, batches_pending)
            {
                let broker = match target {
                    Target::Bootstrap => bootstrap,
                    Target::Broker(b) => b,
                };
                let correlation_id = take(next_correlation_id);
                tm.request_sent(correlation_id);
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
        if self.can_drain() {
            self.drain(
                now_ms,
                leader_of,
                next_correlation_id,
                &mut out,
                &mut events,
            );
        }
        self.expire_batches(now_ms, &mut events);
        // The Sender's next `runOnce` follows at once: settle what expiry left.
        self.settle_sequences(&mut events);
        (out, events)
    }

    /// `Sender.runOnce` in an error state: in FATAL_ERROR every queued batch fails
    /// with the error (`maybeAbortBatches`); in ABORTABLE_ERROR, once no
    /// transactional request is in flight, the batches never drained fail with it
    /// (`abortUndrainedBatches`), at once rather than at their delivery timeout. The
    /// transaction manager is not told again: the error is already its own.
    fn abort_batches_in_error(&mut self, events: &mut Vec<ProducerEvent>) {
        use crate::client::transaction_manager::TxnState;
        let Some(tm) = self.txn.as_ref() else {
            return;
        };
        let all = match tm.state() {
            TxnState::FatalError => true,
            TxnState::AbortableError if tm.in_flight().is_none() => false,
            _ => return,
        };
        let error = tm.last_error().unwrap_or(Errors::UnknownServerError);
        let failed = &mut self.failed;
        for q in self.accumulator.values_mut() {
            q.retain(|b| {
                let keep = !all && b.base_sequence.is_some();
                if !keep {
                    events.push(ProducerEvent::Failed {
                        batch: b.id,
                        tp: b.tp.clone(),
                        error,
                        detail: None,
                    });
                    failed.push((b.id, b.tp.clone(), error));
                }
                keep
            });
        }
    }

    /// `runOnce`'s first steps: `maybeResolveSequences`, then
    /// `bumpIdempotentEpochAndResetIdIfNeeded`.
    fn settle_sequences(&mut self, events: &mut Vec<ProducerEvent>) {
        self.resolve_sequences(events);
        self.bump_idempotent_epoch_if_needed(events);
    }

    /// `RecordAccumulator.drain` and `Sender.sendProduceRequests`: close the open
    /// batches and send them, in order, while each connection has room.
    fn drain(
        &mut self,
        now_ms: i64,
        leader_of: &dyn Fn(&TopicPartition) -> Option<i32>,
        next_correlation_id: &mut u64,
        out: &mut Vec<Outgoing>,
        events: &mut Vec<ProducerEvent>,
    ) {
        self.abort_undrained_batches(events);
        self.open.clear();
        let partitions: Vec<TopicPartition> = self.accumulator.keys().cloned().collect();
        for tp in partitions {
            let Some(broker) = leader_of(&tp) else {
                continue;
            };
            if self.txn.as_ref().is_some_and(|t| !t.send_allowed(&tp)) {
                continue;
            }
            while let Some((batch, skipped)) = self.next_batch_to_drain(&tp, broker, now_ms) {
                let batch = self.close_batch(batch, skipped, events);
                let correlation_id = take(next_correlation_id);
                self.send_batch(batch, broker, correlation_id, now_ms, out, events);
            }
        }
    }

    /// `abortUndrainedBatches`: while aborting, a batch back in the queue (its
    /// request timed out) is dropped, not sent again.
    fn abort_undrained_batches(&mut self, events: &mut Vec<ProducerEvent>) {
        use crate::client::transaction_manager::TxnState;
        if !self
            .txn
            .as_ref()
            .is_some_and(|t| t.state() == TxnState::AbortingTransaction)
        {
            return;
        }
        let count: usize = self.accumulator.values().map(|q| q.len()).sum();
        if count > 0 {
            for q in self.accumulator.values_mut() {
                q.clear();
            }
            events.push(ProducerEvent::UndrainedBatchesAborted { count });
        }
    }

    /// `RecordAccumulator.drainBatchesForOneNode` for one partition: its first batch,
    /// unless the connection to `broker` is full (`max.in.flight.requests.per.connection`),
    /// the batch is backing off, or `shouldStopDrainBatchesForPartition` holds (an
    /// earlier-numbered batch in flight, a sequence not settled). Also returns the
    /// leader epoch whose change let a retry skip its backoff.
    fn next_batch_to_drain(
        &mut self,
        tp: &TopicPartition,
        broker: i32,
        now_ms: i64,
    ) -> Option<(ProducerBatch, Option<i32>)> {
        let in_flight_to_broker =
            self.in_flight.iter().filter(|f| f.broker == broker).count() as u32;
        if in_flight_to_broker >= self.config.max_in_flight {
            return None;
        }
        let front = self.accumulator.get(tp).and_then(|q| q.front())?;
        if front.should_backoff(now_ms) {
            return None;
        }
        let skipped = (front.attempts > 0 && now_ms < front.retry_at_ms)
            .then_some(front.current_leader_epoch)
            .flatten();
        match front.base_sequence {
            // A numbered batch waits while an earlier-numbered one is still in flight.
            Some(s) => {
                let earlier_in_flight = self.in_flight.iter().any(|f| match &f.what {
                    InFlightKind::Produce(o) => {
                        o.tp == *tp && o.base_sequence.is_some_and(|os| os < s)
                    }
                    _ => false,
                });
                if earlier_in_flight {
                    return None;
                }
            }
            // Nor while its sequence is unresolved or its epoch bump still waits
            // for other numbered batches (Kafka bumps at once, before the drain).
            None => {
                if self.stale_partition_blocks(tp)
                    || self.sequence_unresolved(tp)
                    || self.epoch_bump_partitions.contains(tp)
                {
                    return None;
                }
            }
        }
        let batch = self.accumulator.get_mut(tp).and_then(|q| q.pop_front())?;
        Some((batch, skipped))
    }

    /// The drained batch is closed for sending (`ProducerBatch.close()`): at its first
    /// drain it takes the producer id, epoch and next sequence of its partition
    /// (`drainBatchesForOneNode`'s `setProducerState`), and counts one more attempt.
    fn close_batch(
        &mut self,
        mut batch: ProducerBatch,
        skipped: Option<i32>,
        events: &mut Vec<ProducerEvent>,
    ) -> ProducerBatch {
        // Renumbered by an epoch bump and sent again with those numbers (not the
        // batches numbered afresh here, after a new producer id).
        let renumbered = batch.base_sequence.is_some() && batch.sequence_reset;
        if batch.base_sequence.is_none() && self.id_state == IdState::Ready {
            self.assign_sequence(&mut batch, events);
        }
        if let Some(leader_epoch) = skipped {
            events.push(ProducerEvent::BackoffSkipped {
                batch: batch.id,
                tp: batch.tp.clone(),
                leader_epoch,
            });
        }
        batch.attempts += 1;
        let renumbered = renumbered.then_some(batch.producer_epoch);
        // `ProducerBatch.close()` at drain clears `reopened`: only an answer to a
        // request sent before the renumbering finds the sequence reset.
        batch.sequence_reset = false;
        events.push(ProducerEvent::BatchSent {
            batch: batch.id,
            tp: batch.tp.clone(),
            attempt: batch.attempts,
            first_seq: batch.base_sequence,
            last_seq: batch.last_sequence(),
            renumbered,
        });
        batch
    }

    /// `setProducerState` with `TransactionManager.sequenceNumber`, then
    /// `incrementSequenceNumber`: the batch's numbers, once and for all its retries.
    fn assign_sequence(&mut self, batch: &mut ProducerBatch, events: &mut Vec<ProducerEvent>) {
        let tp = batch.tp.clone();
        let seq = self.next_sequence.get(&tp).copied().unwrap_or(0);
        batch.producer_id = self.producer_id;
        batch.producer_epoch = self.producer_epoch;
        batch.base_sequence = Some(seq);
        self.sequence_ids
            .insert(tp.clone(), (self.producer_id, self.producer_epoch));
        let n = batch.values.len() as i32;
        self.next_sequence.insert(
            tp.clone(),
            crate::log::producer_state::increment_sequence(seq, n),
        );
        events.push(ProducerEvent::SequenceAssigned {
            batch: batch.id,
            tp,
            producer_id: batch.producer_id,
            producer_epoch: batch.producer_epoch,
            first_seq: seq,
            last_seq: batch.last_sequence().unwrap_or(seq),
        });
    }

    /// `Sender.sendProduceRequest`: the batch goes to its leader and waits for the
    /// answer; with `acks=0` nothing comes back and the send counts as done.
    fn send_batch(
        &mut self,
        batch: ProducerBatch,
        broker: i32,
        correlation_id: u64,
        now_ms: i64,
        out: &mut Vec<Outgoing>,
        events: &mut Vec<ProducerEvent>,
    ) {
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
                topic_partition: batch.tp.clone(),
                records: batch.encode(),
            },
        });
        if self.config.acks == 0 {
            // acks=0: the offset stays unknown.
            events.push(ProducerEvent::Acknowledged {
                batch: batch.id,
                tp: batch.tp.clone(),
                base_offset: -1,
                values: batch.values.clone(),
            });
            self.acknowledged
                .push((batch.id, batch.tp, -1, batch.values));
            return;
        }
        self.in_flight.push(InFlight {
            correlation_id,
            broker,
            deadline_ms: now_ms.saturating_add(self.config.request_timeout_ms),
            what: InFlightKind::Produce(batch),
        });
    }

    /// Requests past `request.timeout.ms`: Kafka closes the connection, which fails
    /// every request on it; their batches go back to the front of their queues, in
    /// sequence order, keeping their sequence numbers.
    pub(super) fn expire_requests(&mut self, now_ms: i64, events: &mut Vec<ProducerEvent>) {
        let timed_out: Vec<i32> = self
            .in_flight
            .iter()
            .filter(|f| f.deadline_ms <= now_ms)
            .map(|f| f.broker)
            .collect();
        if !timed_out.is_empty() {
            self.close_connections(&timed_out, false, now_ms, events);
        }
    }

    /// Fails every request on the connections to `brokers` (closed at the request
    /// timeout, or by the broker: `disconnected`, answered as NETWORK_EXCEPTION).
    fn close_connections(
        &mut self,
        brokers: &[i32],
        disconnected: bool,
        now_ms: i64,
        events: &mut Vec<ProducerEvent>,
    ) {
        let (failed, kept): (Vec<InFlight>, Vec<InFlight>) = std::mem::take(&mut self.in_flight)
            .into_iter()
            .partition(|f| brokers.contains(&f.broker));
        self.in_flight = kept;
        let mut requeue: Vec<ProducerBatch> = Vec::new();
        for f in failed {
            match f.what {
                InFlightKind::InitProducerId => {
                    events.push(ProducerEvent::RequestTimedOut {
                        batch: None,
                        broker: f.broker,
                        timeout_ms: self.config.request_timeout_ms,
                        disconnected,
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
                        disconnected,
                    });
                    requeue.push(batch);
                }
                // The batch already failed at its delivery timeout.
                InFlightKind::Expired { .. } => {}
                InFlightKind::Txn(_) => {
                    events.push(ProducerEvent::RequestTimedOut {
                        batch: None,
                        broker: f.broker,
                        timeout_ms: self.config.request_timeout_ms,
                        disconnected,
                    });
                    if let Some(tm) = self.txn.as_mut() {
                        tm.request_disconnected(now_ms, self.config.retry_backoff_ms);
                    }
                }
            }
        }
        let error = if disconnected {
            Errors::NetworkException
        } else {
            Errors::RequestTimedOut
        };
        for mut batch in requeue {
            self.retry_or_fail(&mut batch, error, now_ms, events);
        }
    }

    /// `completeBatch` for a retriable error: retried if `canRetry` allows, else failed.
    pub(super) fn retry_or_fail(
        &mut self,
        batch: &mut ProducerBatch,
        error: Errors,
        now_ms: i64,
        events: &mut Vec<ProducerEvent>,
    ) {
        if self.may_retry(batch, now_ms) {
            self.schedule_retry(batch, error, now_ms, events);
        } else {
            // Failing with retries left adjusts the sequences (`adjustSequenceNumbers`).
            let retries_left = batch.attempts <= self.config.retries;
            self.fail_batch(batch, error, None, retries_left, events);
        }
    }

    /// `Sender.canRetry`'s first part: not past the delivery timeout, and retries left.
    pub(super) fn may_retry(&self, batch: &ProducerBatch, now_ms: i64) -> bool {
        batch.attempts <= self.config.retries && self.delivery_deadline(batch) > now_ms
    }

    /// `RecordAccumulator.reenqueue` and `shouldBackoff`: the wait before the next
    /// attempt is `retryBackoff.backoff(attempts - 1)`, with `attempts` the retries so
    /// far counting this one (here: the sends so far).
    fn schedule_retry(
        &mut self,
        batch: &mut ProducerBatch,
        error: Errors,
        now_ms: i64,
        events: &mut Vec<ProducerEvent>,
    ) {
        let backoff_ms = self
            .retry_backoff
            .backoff(batch.attempts.saturating_sub(1), &mut self.retry_rng);
        batch.retry_at_ms = now_ms.saturating_add(backoff_ms);
        events.push(ProducerEvent::RetryScheduled {
            batch: batch.id,
            tp: batch.tp.clone(),
            error,
            attempt: batch.attempts + 1,
            backoff_ms,
        });
        self.requeue(batch.clone());
    }

    /// Puts a batch back in its queue in sequence order, ahead of batches that have no
    /// sequence yet, so retries reach the broker in the order they were numbered.
    pub(super) fn requeue(&mut self, batch: ProducerBatch) {
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

    /// `TransactionManager.canRetry` for OUT_OF_ORDER_SEQUENCE_NUMBER (Kafka 4.0): a
    /// batch that is not the next after the last acknowledged one (an earlier batch has
    /// not landed yet), or one renumbered since it was sent, is retried as it is. The
    /// next batch is a real gap: an idempotent producer asks for an epoch bump and
    /// retries it — unless the partition's sequence is unresolved and the batch is not
    /// the one right after the unresolved ones, which then only waits. A
    /// transactional producer fails it (an abortable error; the abort bumps the epoch).
    pub(super) fn can_retry_out_of_order(&mut self, batch: &ProducerBatch) -> bool {
        // Without a sequence: not idempotent (OUT_OF_ORDER is not retriable), or renumbered
        // while its producer id is being replaced (`sequence_reset`).
        let Some(seq) = batch.base_sequence else {
            return batch.sequence_reset;
        };
        let unresolved = self.unresolved_sequences.get(&batch.tp).copied();
        let last_acked = self
            .last_acked_sequence
            .get(&batch.tp)
            .copied()
            .unwrap_or(-1);
        let is_next = seq.wrapping_sub(last_acked) == 1;
        if unresolved.is_none() && (batch.sequence_reset || !is_next) {
            return true;
        }
        if self.txn.is_some() {
            return false;
        }
        if unresolved.is_none_or(|u| u == seq) {
            self.request_epoch_bump(&batch.tp, Errors::OutOfOrderSequenceNumber, false, true);
        }
        true
    }

    /// `TransactionManager.canRetry` for UNKNOWN_PRODUCER_ID (Kafka 4.0, mirror commit
    /// 1eb7644): the broker lost this producer's state. Without a log start offset in
    /// the answer, or for a batch already renumbered, retry as it is. When the log
    /// start passed the last acknowledged offset (retention removed the producer's
    /// batches), a transactional producer renumbers the partition's batches from 0 and
    /// keeps its transaction, an idempotent one bumps its epoch. Otherwise an
    /// idempotent producer bumps its epoch and retries; a transactional one fails the
    /// batch (an abortable error that requires an epoch bump).
    pub(super) fn can_retry_unknown_producer_id(
        &mut self,
        batch: &ProducerBatch,
        log_start_offset: i64,
    ) -> bool {
        if log_start_offset == -1 || batch.sequence_reset {
            return true;
        }
        let last_acked = self.last_acked_offset.get(&batch.tp).copied().unwrap_or(-1);
        if last_acked < log_start_offset {
            if self.txn.is_some() {
                self.start_sequences_at_beginning(&batch.tp);
            } else {
                self.request_epoch_bump(&batch.tp, Errors::UnknownProducerId, false, true);
            }
            return true;
        }
        if self.txn.is_none() {
            self.request_epoch_bump(&batch.tp, Errors::UnknownProducerId, false, true);
            return true;
        }
        false
    }

    /// A response arrived from the network (`Sender.handleProduceResponse`, or the
    /// completion handler of the transactional or InitProducerId request it answers).
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
                self.handle_txn_response(&kind, &response, now_ms, &mut events)
            }
            (
                InFlightKind::InitProducerId,
                Response::InitProducerId {
                    error,
                    producer_id,
                    producer_epoch,
                },
            ) => self.handle_init_producer_id_response(
                error,
                (producer_id, producer_epoch),
                now_ms,
                &mut events,
            ),
            (
                InFlightKind::Produce(batch),
                Response::Produce {
                    error,
                    base_offset,
                    log_start_offset,
                    error_message,
                    ..
                },
            ) => self.complete_batch(
                batch,
                error,
                (base_offset, log_start_offset),
                error_message,
                now_ms,
                &mut events,
            ),
            (
                InFlightKind::Expired {
                    tp, last_sequence, ..
                },
                response,
            ) => {
                if let Response::Produce {
                    error: Errors::None | Errors::DuplicateSequenceNumber,
                    ..
                } = response
                {
                    self.ack_sequence(&tp, last_sequence);
                }
                events.push(ProducerEvent::StaleResponse {
                    correlation_id,
                    api: response.api_name().to_string(),
                });
            }
            (_, other) => events.push(ProducerEvent::StaleResponse {
                correlation_id,
                api: other.api_name().to_string(),
            }),
        }
        events
    }

    /// The answer to a transactional request goes to the transaction manager's
    /// handler; the producer adopts the id and epoch it carries (a new epoch restarts
    /// every sequence at 0) and reports the outcome.
    fn handle_txn_response(
        &mut self,
        kind: &TxnRequestKind,
        response: &Response,
        now_ms: i64,
        events: &mut Vec<ProducerEvent>,
    ) {
        let backoff = self.config.retry_backoff_ms;
        let Some(tm) = self.txn.as_mut() else {
            return;
        };
        let bump_before = tm.epoch_bump();
        let (outcome, ids) = tm.on_response(kind, response, now_ms, backoff);
        let bump_required = match &outcome {
            Some(TxnOutcome::Failed { error, .. })
                if bump_before == EpochBump::NotRequired
                    && tm.epoch_bump() == EpochBump::Required =>
            {
                Some(ProducerEvent::TxnEpochBumpRequired { error: *error })
            }
            _ => None,
        };
        if let Some((producer_id, producer_epoch)) = ids {
            // A new epoch (TV2 bumps it on every EndTxn) restarts every sequence at 0.
            if (producer_id, producer_epoch) != (self.producer_id, self.producer_epoch) {
                self.reset_sequence_numbers();
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
        events.extend(bump_required);
    }

    /// An idempotent producer's InitProducerId answered (Kafka's `InitProducerIdHandler`
    /// with no transactional.id): the id and epoch to number batches with, or another
    /// try after the backoff.
    fn handle_init_producer_id_response(
        &mut self,
        error: Errors,
        (producer_id, producer_epoch): (i64, i16),
        now_ms: i64,
        events: &mut Vec<ProducerEvent>,
    ) {
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

    /// `Sender.completeBatch`: a batch's answer acknowledges it (DUPLICATE_SEQUENCE_NUMBER
    /// too: the broker has it), splits it when too large, retries it when `canRetry`
    /// allows, or fails it.
    fn complete_batch(
        &mut self,
        mut batch: ProducerBatch,
        error: Errors,
        (base_offset, log_start_offset): (i64, i64),
        error_message: Option<ErrorDetail>,
        now_ms: i64,
        events: &mut Vec<ProducerEvent>,
    ) {
        match error {
            Errors::None | Errors::DuplicateSequenceNumber => {
                self.ack_sequence(&batch.tp, batch.last_sequence());
                self.ack_offset(&batch.tp, base_offset, batch.values.len());
                events.push(ProducerEvent::Acknowledged {
                    batch: batch.id,
                    tp: batch.tp.clone(),
                    base_offset,
                    values: batch.values.clone(),
                });
                self.acknowledged
                    .push((batch.id, batch.tp.clone(), base_offset, batch.values));
            }
            e if e.is_retriable() => self.retry_or_fail(&mut batch, e, now_ms, events),
            Errors::UnknownProducerId
                if self.may_retry(&batch, now_ms)
                    && self.can_retry_unknown_producer_id(&batch, log_start_offset) =>
            {
                self.schedule_retry(&mut batch, Errors::UnknownProducerId, now_ms, events)
            }
            Errors::OutOfOrderSequenceNumber
                if self.may_retry(&batch, now_ms) && self.can_retry_out_of_order(&batch) =>
            {
                self.schedule_retry(&mut batch, Errors::OutOfOrderSequenceNumber, now_ms, events)
            }
            // A part of one record that is still too large fails below.
            Errors::MessageTooLarge if batch.values.len() > 1 => {
                self.split_and_reenqueue(batch, events)
            }
            e => {
                // `failBatch(batch, response, attempts < retries)`.
                // (`attempts` here counts sends, Kafka's counts retries.)
                let adjust = batch.attempts <= self.config.retries;
                self.fail_batch(&batch, e, error_message, adjust, events);
            }
        }
    }

    /// The connection to a broker broke (the broker stopped): in-flight requests fail
    /// at once and their batches are retried, as after a timeout.
    pub fn on_disconnect(&mut self, broker: i32, now_ms: i64) -> Vec<ProducerEvent> {
        let mut events = Vec::new();
        if self.in_flight.iter().any(|f| f.broker == broker) {
            self.close_connections(&[broker], true, now_ms, &mut events);
        }
        events
    }
}
