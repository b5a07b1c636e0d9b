//! The write path of a partition leader: Produce (Kafka's `KafkaApis.handleProduceRequest`
//! and `ReplicaManager.appendRecords`), including the TV2 step where a transactional
//! batch is first added to its transaction by the coordinator
//! (`AddPartitionsToTxnManager`), unless the partition already has that producer's
//! transaction open.

use super::broker::{Broker, BrokerEvent, Handled};
use crate::log::{AppendError, AppendOutcome, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::{ErrorDetail, Response};
use crate::record::RecordBatch;

impl Broker {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn handle_produce(
        &mut self,
        acks: i16,
        timeout_ms: i64,
        tp: TopicPartition,
        records: Vec<u8>,
        transactional_id: Option<String>,
        token: u64,
        now_ms: i64,
    ) -> Handled {
        let reply = |error: Errors, base_offset: i64, message: Option<ErrorDetail>| {
            Response::produce(&tp, error, base_offset, message)
        };
        if !(-1..=1).contains(&acks) {
            return Handled {
                response: Some(reply(Errors::InvalidRequiredAcks, -1, None)),
                ..Handled::default()
            };
        }
        if !self.leads(&tp) {
            return Handled::reply(reply(Errors::NotLeaderOrFollower, -1, None));
        }
        let batch = match RecordBatch::decode(&records) {
            Ok((batch, used)) if used == records.len() => batch,
            Ok(_) => {
                let detail = ErrorDetail::OneBatchPerRequest;
                return Handled {
                    response: Some(reply(Errors::InvalidRecord, -1, Some(detail))),
                    ..Handled::default()
                };
            }
            Err(e) => {
                let error = if e.kafka_code() == 87 {
                    Errors::InvalidRecord
                } else {
                    Errors::CorruptMessage
                };
                return Handled {
                    response: Some(reply(error, -1, Some(ErrorDetail::InvalidBatch(e)))),
                    ..Handled::default()
                };
            }
        };
        if batch.is_transactional() {
            if let Some(handled) = self.maybe_verify_transaction(
                (acks, timeout_ms),
                &tp,
                &batch,
                transactional_id,
                token,
                now_ms,
            ) {
                return handled;
            }
        }
        self.append_batch((acks, timeout_ms), token, tp, batch, now_ms)
    }

    /// Appends a decoded batch as the leader and builds the Produce answer; with
    /// `acks=all` on a replicated partition the answer waits for the HW
    /// (`DelayedProduce`, answered later for `token`).
    pub(super) fn append_batch(
        &mut self,
        (acks, timeout_ms): (i16, i64),
        token: u64,
        tp: TopicPartition,
        batch: RecordBatch,
        now_ms: i64,
    ) -> Handled {
        let reply = |error: Errors, base_offset: i64, message: Option<ErrorDetail>| {
            Response::produce(&tp, error, base_offset, message)
        };
        let (pid, epoch, first_seq, last_seq) = (
            batch.producer_id,
            batch.producer_epoch,
            batch.base_sequence,
            batch.last_sequence(),
        );
        if let Some(detail) = self.check_min_isr(&tp, acks) {
            return Handled::reply(reply(Errors::NotEnoughReplicas, -1, Some(detail)));
        }
        let Some(log) = self.logs.get_mut(&tp) else {
            return Handled {
                response: Some(reply(Errors::UnknownTopicOrPartition, -1, None)),
                ..Handled::default()
            };
        };
        let result = log.append_as_leader(&mut self.fs, batch, now_ms);
        let leo = log.log_end_offset();
        let log_start = log.log_start_offset();
        let mut events = Vec::new();
        let response = match result {
            Ok(info) => {
                if let Some(base_offset) = info.rolled_segment {
                    events.push(BrokerEvent::SegmentRolled {
                        tp: tp.clone(),
                        base_offset,
                        snapshot: info.snapshot_written.clone(),
                    });
                }
                let window = self.window_of(&tp, pid);
                match info.outcome {
                    AppendOutcome::Appended {
                        first_offset,
                        last_offset,
                        ..
                    } => {
                        events.push(BrokerEvent::BatchAppended {
                            tp: tp.clone(),
                            producer_id: pid,
                            producer_epoch: epoch,
                            first_seq,
                            last_seq,
                            first_offset,
                            last_offset,
                            log_end_offset: leo,
                            window,
                        });
                        let mut hw = Handled::default();
                        self.maybe_increment_leader_hw(&tp, now_ms, &mut hw);
                        events.extend(hw.events);
                        match self.acks_all_wait(
                            acks,
                            token,
                            &tp,
                            first_offset,
                            last_offset,
                            timeout_ms,
                            now_ms,
                        ) {
                            None => {
                                return Handled {
                                    events,
                                    deferred: hw.deferred,
                                    ..Handled::default()
                                }
                            }
                            Some(response) => response,
                        }
                    }
                    AppendOutcome::Duplicate(meta) => {
                        events.push(BrokerEvent::BatchDuplicate {
                            tp: tp.clone(),
                            producer_id: pid,
                            producer_epoch: epoch,
                            first_seq,
                            last_seq,
                            first_offset: meta.first_offset(),
                            last_offset: meta.last_offset,
                            log_end_offset: leo,
                            window,
                        });
                        // A duplicate waits for the HW like the original would.
                        let (first, last) = (meta.first_offset(), meta.last_offset);
                        match self.acks_all_wait(acks, token, &tp, first, last, timeout_ms, now_ms)
                        {
                            None => {
                                return Handled {
                                    events,
                                    ..Handled::default()
                                }
                            }
                            Some(response) => response,
                        }
                    }
                }
            }
            Err(err) => {
                let (expected_seq, seq_direction, current_epoch) = match &err {
                    AppendError::Producer(p) => (p.expected_seq, p.seq_direction, p.current_epoch),
                    AppendError::Invalid { .. } => (None, None, None),
                };
                events.push(BrokerEvent::BatchRejected {
                    tp: tp.clone(),
                    producer_id: pid,
                    producer_epoch: epoch,
                    first_seq,
                    last_seq,
                    error: err.error(),
                    expected_seq,
                    seq_direction,
                    current_epoch,
                    detail: err.detail().clone(),
                    log_end_offset: leo,
                });
                reply(err.error(), -1, Some(err.detail().clone()))
            }
        };
        let response = match response {
            Response::Produce {
                topic_partition,
                error,
                base_offset,
                error_message,
                ..
            } => Response::Produce {
                topic_partition,
                error,
                base_offset,
                log_start_offset: log_start,
                error_message,
            },
            other => other,
        };
        // acks=0: the broker writes but sends nothing back.
        Handled {
            response: (acks != 0).then_some(response),
            events,
            ..Handled::default()
        }
    }

    /// `acks=all` on a replicated partition: the answer now if the HW already covers
    /// `first..=last`, or `None` when it waits as a `DelayedProduce`.
    #[allow(clippy::too_many_arguments)]
    fn acks_all_wait(
        &mut self,
        acks: i16,
        token: u64,
        tp: &TopicPartition,
        first: i64,
        last: i64,
        timeout_ms: i64,
        now_ms: i64,
    ) -> Option<Response> {
        if acks != -1 {
            return Some(Response::produce(tp, Errors::None, first, None));
        }
        match self.maybe_delay_produce(tp, token, first, last + 1, timeout_ms, now_ms)? {
            Errors::None => Some(Response::produce(tp, Errors::None, first, None)),
            error => Some(Response::produce(tp, error, -1, None)),
        }
    }
}
