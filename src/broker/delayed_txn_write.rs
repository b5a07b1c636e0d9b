//! The transaction coordinator's writes wait for `acks=all` on a replicated
//! `__transaction_state` partition (Kafka 4.0, mirror commit 1eb7644:
//! `TransactionStateManager.appendTransactionToLog` appends with
//! `TransactionLog.EnforcedRequiredAcks` and a timeout of the transaction's
//! `transaction.timeout.ms`; its callback answers the client and queues the markers
//! only once the HW passed the record).
//!
//! The partition leader's WriteTxnMarkers answer waits the same way (`requiredAcks =
//! -1` in `KafkaApis.handleWriteTxnMarkersRequest`).
//!
//! Here the answer and the WriteTxnMarkers requests the write led to are held until the
//! HW of the partition reaches the record; the leader losing the partition answers
//! NOT_COORDINATOR (NOT_LEADER_OR_FOLLOWER, mapped) and drops the markers; the timeout
//! answers COORDINATOR_NOT_AVAILABLE (REQUEST_TIMED_OUT, mapped) — the client retries.
//! Simplified: the coordinator's memory moved to the new state when the record was
//! appended (Kafka keeps it pending until the callback), so a timed-out write is not
//! rolled back in memory; the partition's next leader replays only what replicated.

use serde::Serialize;

use super::broker::{Broker, Handled, Outbound};
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// The producer's default `transaction.timeout.ms`: the timeout of a coordinator write
/// that has no transaction's own (the coordinator's completions and cleanups).
pub(super) const DEFAULT_TXN_TIMEOUT_MS: i64 = 60_000;
/// `request.timeout.ms`: how long a leader's WriteTxnMarkers append waits for the ISR.
const MARKER_TIMEOUT_MS: i64 = 30_000;

/// A coordinator answer (and its markers), or a leader's WriteTxnMarkers answer,
/// waiting for the HW to pass what it wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DelayedTxnWrite {
    /// The request's token; `None` for a write of the coordinator's own (a marker
    /// completion, a timeout abort).
    pub token: Option<u64>,
    /// Each partition written and the log end offset after the write: the HW of every
    /// one must reach it.
    pub waits: Vec<(TopicPartition, i64)>,
    pub deadline_ms: i64,
    /// The answer's error when a partition's leadership moves away (NOT_COORDINATOR
    /// for the coordinator, NOT_LEADER_OR_FOLLOWER for markers) and on timeout
    /// (COORDINATOR_NOT_AVAILABLE, REQUEST_TIMED_OUT).
    pub on_resign: Errors,
    pub on_timeout: Errors,
    #[serde(skip)]
    pub response: Option<Response>,
    #[serde(skip)]
    pub markers: Vec<Outbound>,
}

/// The same answer with `error` and nothing else.
fn with_error(response: Response, error: Errors) -> Response {
    match response {
        Response::InitProducerId { .. } => Response::InitProducerId {
            error,
            producer_id: -1,
            producer_epoch: -1,
        },
        Response::EndTxn { .. } => Response::EndTxn {
            error,
            producer_id: -1,
            producer_epoch: -1,
        },
        Response::AddPartitionsToTxn { results } => Response::AddPartitionsToTxn {
            results: results.into_iter().map(|(tp, _)| (tp, error)).collect(),
        },
        Response::WriteTxnMarkers { results } => Response::WriteTxnMarkers {
            results: results
                .into_iter()
                .map(|(pid, tp, _)| (pid, tp, error))
                .collect(),
        },
        other => other,
    }
}

impl Broker {
    /// The LEOs of the replicated `__transaction_state` partitions this broker leads,
    /// taken before a coordinator call.
    pub(super) fn txn_log_ends(&self) -> Vec<(TopicPartition, i64)> {
        (0..self.internal_partitions(TRANSACTION_STATE_TOPIC))
            .map(|p| TopicPartition::new(TRANSACTION_STATE_TOPIC, p))
            .filter(|tp| {
                self.partitions
                    .get(tp)
                    .is_some_and(|p| p.is_replicated() && p.leader == self.id)
            })
            .filter_map(|tp| {
                let leo = self.logs.get(&tp)?.log_end_offset();
                Some((tp, leo))
            })
            .collect()
    }

    /// After a coordinator call: if it appended to a replicated partition whose HW
    /// has not reached the record yet, hold the answer and the marker requests.
    pub(super) fn hold_until_replicated(
        &mut self,
        before: &[(TopicPartition, i64)],
        token: Option<u64>,
        timeout_ms: i64,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        let grown = before.iter().find_map(|(tp, leo)| {
            let log = self.logs.get(tp)?;
            (log.log_end_offset() > *leo && log.high_watermark() < log.log_end_offset())
                .then(|| (tp.clone(), log.log_end_offset()))
        });
        let Some(wait) = grown else {
            return;
        };
        let (markers, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut handled.outbound)
            .into_iter()
            .partition(|o| {
                matches!(
                    o,
                    Outbound::ToBroker {
                        request: Request::WriteTxnMarkers { .. },
                        ..
                    }
                )
            });
        handled.outbound = rest;
        // NOT KAFKA: break early-markers — the markers leave before the record is
        // replicated (Kafka sends them from `appendTransactionToLog`'s callback).
        let markers = if self.log_config.breaks.early_markers() {
            handled.outbound.extend(markers);
            Vec::new()
        } else {
            markers
        };
        self.delayed_txn_writes.push(DelayedTxnWrite {
            token,
            waits: vec![wait],
            deadline_ms: now_ms.saturating_add(timeout_ms.max(0)),
            on_resign: Errors::NotCoordinator,
            on_timeout: Errors::CoordinatorNotAvailable,
            response: handled.response.take(),
            markers,
        });
    }

    /// The LEOs of the replicated partitions a WriteTxnMarkers names that this broker
    /// leads, taken before writing the markers.
    pub(super) fn marker_log_ends(
        &self,
        partitions: &[TopicPartition],
    ) -> Vec<(TopicPartition, i64)> {
        partitions
            .iter()
            .filter(|tp| {
                self.partitions
                    .get(tp)
                    .is_some_and(|p| p.is_replicated() && p.leader == self.id)
            })
            .filter_map(|tp| Some((tp.clone(), self.logs.get(tp)?.log_end_offset())))
            .collect()
    }

    /// `handleWriteTxnMarkersRequest` appends with `requiredAcks = -1`: the answer
    /// waits until the HW of every replicated partition passed its marker (up to
    /// `request.timeout.ms`), so the coordinator writes Complete* only for markers
    /// that survive a leader change; a leader that loses the partition first answers
    /// NOT_LEADER_OR_FOLLOWER and the coordinator sends the marker to the new one.
    pub(super) fn hold_markers_until_replicated(
        &mut self,
        before: &[(TopicPartition, i64)],
        token: u64,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        let waits: Vec<(TopicPartition, i64)> = before
            .iter()
            .filter_map(|(tp, leo)| {
                let log = self.logs.get(tp)?;
                (log.log_end_offset() > *leo && log.high_watermark() < log.log_end_offset())
                    .then(|| (tp.clone(), log.log_end_offset()))
            })
            .collect();
        if waits.is_empty() {
            return;
        }
        self.delayed_txn_writes.push(DelayedTxnWrite {
            token: Some(token),
            waits,
            deadline_ms: now_ms.saturating_add(MARKER_TIMEOUT_MS),
            on_resign: Errors::NotLeaderOrFollower,
            on_timeout: Errors::RequestTimedOut,
            response: handled.response.take(),
            markers: Vec::new(),
        });
    }

    /// The HW of `tp` moved: answer the writes it now covers and send their markers.
    pub(super) fn complete_delayed_txn_writes(
        &mut self,
        tp: &TopicPartition,
        handled: &mut Handled,
    ) {
        let hw = |tp: &TopicPartition| self.logs.get(tp).map_or(-1, |l| l.high_watermark());
        let (done, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed_txn_writes)
            .into_iter()
            .partition(|d| {
                d.waits.iter().any(|(t, _)| t == tp)
                    && d.waits.iter().all(|(t, required)| hw(t) >= *required)
            });
        self.delayed_txn_writes = kept;
        for d in done {
            if let (Some(token), Some(response)) = (d.token, d.response) {
                handled.deferred.push((token, response));
            }
            handled.outbound.extend(d.markers);
        }
    }

    /// The writes `pick` chooses fail: this broker stopped leading one of their
    /// partitions (`resigned`), or they timed out.
    fn fail_delayed_txn_writes(
        &mut self,
        pick: impl Fn(&DelayedTxnWrite) -> bool,
        resigned: bool,
        handled: &mut Handled,
    ) {
        let (failed, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed_txn_writes)
            .into_iter()
            .partition(pick);
        self.delayed_txn_writes = kept;
        for d in failed {
            let error = if resigned { d.on_resign } else { d.on_timeout };
            if let (Some(token), Some(response)) = (d.token, d.response) {
                handled.deferred.push((token, with_error(response, error)));
            }
        }
    }

    /// Leadership of `tp` moved away.
    pub(super) fn resign_delayed_txn_writes(&mut self, tp: &TopicPartition, handled: &mut Handled) {
        self.fail_delayed_txn_writes(|d| d.waits.iter().any(|(t, _)| t == tp), true, handled);
    }

    /// Writes past their timeout.
    pub(super) fn expire_delayed_txn_writes(&mut self, now_ms: i64, handled: &mut Handled) {
        self.fail_delayed_txn_writes(|d| d.deadline_ms <= now_ms, false, handled);
    }

    /// The earliest timeout among the held writes.
    pub(super) fn next_txn_write_deadline(&self) -> Option<i64> {
        self.delayed_txn_writes.iter().map(|d| d.deadline_ms).min()
    }
}
