//! The transaction coordinator's writes wait for `acks=all` on a replicated
//! `__transaction_state` partition (Kafka 4.0, mirror commit 1eb7644:
//! `TransactionStateManager.appendTransactionToLog` appends with
//! `TransactionLog.EnforcedRequiredAcks` and a timeout of the transaction's
//! `transaction.timeout.ms`; its callback answers the client and queues the markers
//! only once the HW passed the record).
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
use crate::coordinator::internal_topics::{INTERNAL_TOPIC_PARTITIONS, TRANSACTION_STATE_TOPIC};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// The producer's default `transaction.timeout.ms`: the timeout of a coordinator write
/// that has no transaction's own (the coordinator's completions and cleanups).
pub(super) const DEFAULT_TXN_TIMEOUT_MS: i64 = 60_000;

/// A coordinator answer (and its markers) waiting for the HW to pass its record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DelayedTxnWrite {
    /// The client request's token; `None` for a write of the coordinator's own
    /// (a marker completion, a timeout abort).
    pub token: Option<u64>,
    pub tp: TopicPartition,
    /// The log end offset after the record: the HW must reach it.
    pub required_offset: i64,
    pub deadline_ms: i64,
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
        other => other,
    }
}

impl Broker {
    /// The LEOs of the replicated `__transaction_state` partitions this broker leads,
    /// taken before a coordinator call.
    pub(super) fn txn_log_ends(&self) -> Vec<(TopicPartition, i64)> {
        (0..INTERNAL_TOPIC_PARTITIONS)
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
        let Some((tp, required_offset)) = grown else {
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
        self.delayed_txn_writes.push(DelayedTxnWrite {
            token,
            tp,
            required_offset,
            deadline_ms: now_ms.saturating_add(timeout_ms.max(0)),
            response: handled.response.take(),
            markers,
        });
    }

    /// The HW of `tp` moved: answer the writes it now covers and send their markers.
    pub(super) fn complete_delayed_txn_writes(
        &mut self,
        tp: &TopicPartition,
        handled: &mut Handled,
    ) {
        let hw = self.logs.get(tp).map_or(-1, |l| l.high_watermark());
        let (done, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed_txn_writes)
            .into_iter()
            .partition(|d| &d.tp == tp && hw >= d.required_offset);
        self.delayed_txn_writes = kept;
        for d in done {
            if let (Some(token), Some(response)) = (d.token, d.response) {
                handled.deferred.push((token, response));
            }
            handled.outbound.extend(d.markers);
        }
    }

    /// The writes of `tp` fail with `error`: this broker stopped leading it
    /// (NOT_COORDINATOR), or they timed out (COORDINATOR_NOT_AVAILABLE).
    fn fail_delayed_txn_writes(
        &mut self,
        pick: impl Fn(&DelayedTxnWrite) -> bool,
        error: Errors,
        handled: &mut Handled,
    ) {
        let (failed, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed_txn_writes)
            .into_iter()
            .partition(pick);
        self.delayed_txn_writes = kept;
        for d in failed {
            if let (Some(token), Some(response)) = (d.token, d.response) {
                handled.deferred.push((token, with_error(response, error)));
            }
        }
    }

    /// Leadership of `tp` moved away.
    pub(super) fn resign_delayed_txn_writes(&mut self, tp: &TopicPartition, handled: &mut Handled) {
        self.fail_delayed_txn_writes(|d| &d.tp == tp, Errors::NotCoordinator, handled);
    }

    /// Writes past their timeout.
    pub(super) fn expire_delayed_txn_writes(&mut self, now_ms: i64, handled: &mut Handled) {
        self.fail_delayed_txn_writes(
            |d| d.deadline_ms <= now_ms,
            Errors::CoordinatorNotAvailable,
            handled,
        );
    }

    /// The earliest timeout among the held writes.
    pub(super) fn next_txn_write_deadline(&self) -> Option<i64> {
        self.delayed_txn_writes.iter().map(|d| d.deadline_ms).min()
    }
}
