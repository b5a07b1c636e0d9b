//! DeleteRecords on a replicated partition (Kafka 4.0, trunk 1eb7644:
//! `ReplicaManager.deleteRecords`, `DelayedDeleteRecords`,
//! `Partition.lowWatermarkIfLeader`): the leader moves its own log start at once, but
//! answers only when the partition's low watermark — the smallest log start among the
//! leader and its live followers, which each follower reports in its fetches — has
//! reached the offset asked for. Until then the answer waits; after the request's
//! `timeout_ms` it goes with REQUEST_TIMED_OUT and the low watermark the leader had at
//! the start; a partition whose leadership moved away answers NOT_LEADER_OR_FOLLOWER.
//!
//! Simplified: Kafka counts the followers on brokers alive in its metadata cache
//! (registered and not fenced); here a follower counts while it is in the ISR. A
//! stopped or fenced broker leaves the ISR at once here, so the two differ only for a
//! running follower that fell out of the ISR (its link to the leader cut, say): Kafka
//! keeps waiting for it until the timeout, we answer once the ISR shrinks. Our
//! requests name one partition; the code keeps Kafka's per-partition status anyway.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled};
use super::partition::ReplicationEvent;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::Response;

/// One partition of a waiting DeleteRecords (`DeleteRecordsPartitionStatus`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeleteRecordsStatus {
    pub tp: TopicPartition,
    /// The offset the log start must reach on every replica (-1 already turned into
    /// the HW).
    pub required_offset: i64,
    /// The answer so far: REQUEST_TIMED_OUT with the first low watermark while it waits.
    pub low_watermark: i64,
    pub error: Errors,
    pub acks_pending: bool,
}

/// A DeleteRecords answer waiting in the purgatory (`DelayedDeleteRecords`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DelayedDeleteRecords {
    pub token: u64,
    pub partitions: Vec<DeleteRecordsStatus>,
    pub deadline_ms: i64,
}

impl DelayedDeleteRecords {
    fn response(&self) -> Response {
        Response::DeleteRecords {
            results: self
                .partitions
                .iter()
                .map(|s| (s.tp.clone(), s.low_watermark, s.error))
                .collect(),
        }
    }
}

impl Broker {
    /// `Partition.lowWatermarkIfLeader`: the smallest log start offset of the leader
    /// and its followers in the ISR; None if this broker does not lead `tp`.
    pub(super) fn low_watermark_if_leader(&self, tp: &TopicPartition) -> Option<i64> {
        let log = self.logs.get(tp)?;
        let Some(p) = self.partitions.get(tp) else {
            return Some(log.log_start_offset());
        };
        if p.leader != self.id {
            return None;
        }
        Some(
            p.remote
                .iter()
                .filter(|(b, _)| p.isr.contains(b))
                .map(|(_, r)| r.log_start_offset())
                .fold(log.log_start_offset(), i64::min),
        )
    }

    /// `ReplicaManager.deleteRecords` after the local deletes: answer now when every
    /// partition that succeeded has its low watermark at the offset
    /// (`delayedDeleteRecordsRequired`), else park the answer. `results` holds, per
    /// partition, the offset asked for (after -1 became the HW), the low watermark and
    /// the error of the local step.
    pub(super) fn maybe_delay_delete_records(
        &mut self,
        results: Vec<(TopicPartition, i64, i64, Errors)>,
        timeout_ms: i32,
        token: u64,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        let required = results
            .iter()
            .any(|(_, offset, low, error)| *error == Errors::None && low < offset);
        let partitions: Vec<DeleteRecordsStatus> = results
            .into_iter()
            .map(|(tp, required_offset, low_watermark, error)| {
                let waits = error == Errors::None;
                DeleteRecordsStatus {
                    tp,
                    required_offset,
                    low_watermark,
                    error: if waits {
                        Errors::RequestTimedOut
                    } else {
                        error
                    },
                    acks_pending: waits,
                }
            })
            .collect();
        let mut delayed = DelayedDeleteRecords {
            token,
            partitions,
            deadline_ms: now_ms.saturating_add(i64::from(timeout_ms.max(0))),
        };
        if !required {
            for s in delayed.partitions.iter_mut().filter(|s| s.acks_pending) {
                s.acks_pending = false;
                s.error = Errors::None;
            }
            handled.response = Some(delayed.response());
            return;
        }
        for s in delayed.partitions.iter().filter(|s| s.acks_pending) {
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::DeleteRecordsDelayed {
                    tp: s.tp.clone(),
                    required_offset: s.required_offset,
                    low_watermark: s.low_watermark,
                },
            ));
        }
        self.delayed_delete_records.push(delayed);
    }

    /// `DelayedDeleteRecords.tryComplete` for the requests waiting on `tp`: a
    /// follower's fetch reported its log start.
    pub(super) fn complete_delayed_delete_records(
        &mut self,
        tp: &TopicPartition,
        handled: &mut Handled,
    ) {
        if self.delayed_delete_records.is_empty() {
            return;
        }
        let low = self.low_watermark_if_leader(tp);
        self.settle_delete_records(tp, handled, |s| match low {
            Some(lw) if lw >= s.required_offset => Some((lw, Errors::None)),
            Some(_) => None,
            None => Some((-1, Errors::NotLeaderOrFollower)),
        });
    }

    /// Leadership of `tp` moved away: its waiting partitions answer `error`.
    pub(super) fn fail_delayed_delete_records(
        &mut self,
        tp: &TopicPartition,
        error: Errors,
        handled: &mut Handled,
    ) {
        self.settle_delete_records(tp, handled, |_| Some((-1, error)));
    }

    /// `DelayedOperation` expiry: what is still pending answers REQUEST_TIMED_OUT.
    pub(super) fn expire_delayed_delete_records(&mut self, now_ms: i64, handled: &mut Handled) {
        let (expired, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed_delete_records)
            .into_iter()
            .partition(|d| d.deadline_ms <= now_ms);
        self.delayed_delete_records = kept;
        for d in expired {
            for s in d.partitions.iter().filter(|s| s.acks_pending) {
                handled.events.push(BrokerEvent::Replication(
                    ReplicationEvent::DeleteRecordsCompleted {
                        tp: s.tp.clone(),
                        low_watermark: s.low_watermark,
                        error: s.error,
                    },
                ));
            }
            handled.deferred.push((d.token, d.response()));
        }
    }

    /// Settles the pending partitions `tp` of every waiting request with what
    /// `decide` says (None: still waiting), and answers the requests left with none.
    fn settle_delete_records(
        &mut self,
        tp: &TopicPartition,
        handled: &mut Handled,
        decide: impl Fn(&DeleteRecordsStatus) -> Option<(i64, Errors)>,
    ) {
        let waiting = std::mem::take(&mut self.delayed_delete_records);
        for mut d in waiting {
            for s in d.partitions.iter_mut() {
                if !s.acks_pending || &s.tp != tp {
                    continue;
                }
                if let Some((low_watermark, error)) = decide(s) {
                    s.acks_pending = false;
                    s.low_watermark = low_watermark;
                    s.error = error;
                    handled.events.push(BrokerEvent::Replication(
                        ReplicationEvent::DeleteRecordsCompleted {
                            tp: tp.clone(),
                            low_watermark,
                            error,
                        },
                    ));
                }
            }
            if d.partitions.iter().any(|s| s.acks_pending) {
                self.delayed_delete_records.push(d);
            } else {
                handled.deferred.push((d.token, d.response()));
            }
        }
    }
}
