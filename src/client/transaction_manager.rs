//! The transactional part of the producer (Kafka's `TransactionManager`, client side,
//! transaction version 2): find the coordinator, InitProducerId with the
//! transactional.id, begin, EndTxn on commit or abort, offsets sent to the transaction.
//!
//! Under TV2 the client sends no AddPartitionsToTxn: it only remembers which
//! partitions it wrote to; the partition leaders add them with the coordinator. The
//! EndTxn answer carries the bumped epoch, which the producer adopts, restarting its
//! sequences at 0.
//!
//! Simplified: requests to the coordinator go one at a time (Kafka's priority queue
//! has the same effect here), and there is no `transaction.version` negotiation.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{CoordinatorType, OffsetEntry, Request, Response};

/// The client's transaction state (`TransactionManager.State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TxnState {
    Uninitialized,
    Initializing,
    Ready,
    InTransaction,
    CommittingTransaction,
    AbortingTransaction,
    /// A send failed: the only way on is `abortTransaction()`.
    AbortableError,
    /// Fenced or otherwise unusable: close the producer.
    FatalError,
}

impl TxnState {
    pub fn name(self) -> &'static str {
        match self {
            TxnState::Uninitialized => "UNINITIALIZED",
            TxnState::Initializing => "INITIALIZING",
            TxnState::Ready => "READY",
            TxnState::InTransaction => "IN_TRANSACTION",
            TxnState::CommittingTransaction => "COMMITTING_TRANSACTION",
            TxnState::AbortingTransaction => "ABORTING_TRANSACTION",
            TxnState::AbortableError => "ABORTABLE_ERROR",
            TxnState::FatalError => "FATAL_ERROR",
        }
    }
}

/// Who a transactional request goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Any broker (FindCoordinator).
    Bootstrap,
    Broker(i32),
}

/// The transactional requests the producer can have in flight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TxnRequestKind {
    FindCoordinator(CoordinatorType),
    InitProducerId,
    EndTxn { committed: bool },
    TxnOffsetCommit,
}

/// What the application sees when a transactional call finishes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TxnOutcome {
    Initialized {
        producer_id: i64,
        producer_epoch: i16,
    },
    Committed {
        producer_id: i64,
        producer_epoch: i16,
    },
    Aborted {
        producer_id: i64,
        producer_epoch: i16,
    },
    OffsetsSent {
        group_id: String,
    },
    /// A call failed with this Kafka error (the exception the application would catch).
    Failed {
        operation: String,
        error: Errors,
    },
    /// A retriable answer: the request goes again after the backoff.
    Retrying {
        api: String,
        error: Errors,
    },
}

/// Why a transactional call was refused at once, before any request (Kafka throws).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TxnCallError {
    /// `IllegalStateException: Invalid transition attempted from state S to OPERATION`.
    InvalidTransition {
        state: TxnState,
        operation: &'static str,
    },
    /// A send after an earlier request failed: only abortTransaction() helps.
    SendAfterError { last_error: Option<Errors> },
    /// `IllegalStateException: Cannot add partition P to transaction while in state S`.
    CannotAddPartition { tp: TopicPartition, state: TxnState },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransactionManager {
    pub transactional_id: String,
    pub transaction_timeout_ms: i32,
    pub state: TxnState,
    pub coordinator: Option<i32>,
    pub group_coordinator: Option<i32>,
    pub last_error: Option<Errors>,
    /// Partitions written in this transaction (TV2: tracked locally only).
    pub partitions_in_transaction: BTreeSet<TopicPartition>,
    /// Offsets waiting to be sent with `sendOffsetsToTransaction`.
    pub pending_offsets: Option<(String, Vec<OffsetEntry>)>,
    /// The request waiting for an answer, if any.
    pub in_flight: Option<u64>,
    pub retry_at_ms: i64,
}

impl TransactionManager {
    pub fn new(transactional_id: String, transaction_timeout_ms: i32) -> Self {
        TransactionManager {
            transactional_id,
            transaction_timeout_ms,
            state: TxnState::Uninitialized,
            coordinator: None,
            group_coordinator: None,
            last_error: None,
            partitions_in_transaction: BTreeSet::new(),
            pending_offsets: None,
            in_flight: None,
            retry_at_ms: 0,
        }
    }

    fn illegal(&self, operation: &'static str) -> Result<(), TxnCallError> {
        Err(TxnCallError::InvalidTransition {
            state: self.state,
            operation,
        })
    }

    /// `initTransactions()`.
    pub fn begin_init(&mut self) -> Result<(), TxnCallError> {
        match self.state {
            TxnState::Uninitialized => {
                self.state = TxnState::Initializing;
                Ok(())
            }
            _ => self.illegal("initTransactions"),
        }
    }

    /// `beginTransaction()`: purely local.
    pub fn begin_transaction(&mut self) -> Result<(), TxnCallError> {
        match self.state {
            TxnState::Ready => {
                self.state = TxnState::InTransaction;
                self.partitions_in_transaction.clear();
                Ok(())
            }
            _ => self.illegal("beginTransaction"),
        }
    }

    /// `maybeAddPartition` on send (TV2 branch): remember the partition.
    pub fn on_send(&mut self, tp: &TopicPartition) -> Result<(), TxnCallError> {
        match self.state {
            TxnState::InTransaction => {
                self.partitions_in_transaction.insert(tp.clone());
                Ok(())
            }
            TxnState::AbortableError | TxnState::FatalError => Err(TxnCallError::SendAfterError {
                last_error: self.last_error,
            }),
            _ => Err(TxnCallError::CannotAddPartition {
                tp: tp.clone(),
                state: self.state,
            }),
        }
    }

    /// `commitTransaction()`: fails at once with the stored error after a failed send.
    pub fn begin_commit(&mut self) -> Result<(), Errors> {
        match self.state {
            TxnState::InTransaction => {
                self.state = TxnState::CommittingTransaction;
                Ok(())
            }
            TxnState::AbortableError | TxnState::FatalError => {
                Err(self.last_error.unwrap_or(Errors::InvalidTxnState))
            }
            _ => Err(Errors::InvalidTxnState),
        }
    }

    /// `abortTransaction()`.
    pub fn begin_abort(&mut self) -> Result<(), Errors> {
        match self.state {
            TxnState::InTransaction | TxnState::AbortableError => {
                self.state = TxnState::AbortingTransaction;
                Ok(())
            }
            TxnState::FatalError => Err(self.last_error.unwrap_or(Errors::InvalidTxnState)),
            _ => Err(Errors::InvalidTxnState),
        }
    }

    /// `sendOffsetsToTransaction()` (TV2: straight to the group coordinator with TxnOffsetCommit).
    pub fn send_offsets(
        &mut self,
        group_id: String,
        offsets: Vec<OffsetEntry>,
    ) -> Result<(), TxnCallError> {
        match self.state {
            TxnState::InTransaction => {
                self.pending_offsets = Some((group_id, offsets));
                Ok(())
            }
            _ => self.illegal("sendOffsetsToTransaction"),
        }
    }

    /// A send of this transaction failed: abortable (or fatal when fenced).
    pub fn on_batch_error(&mut self, error: Errors) {
        self.last_error = Some(error);
        if matches!(error, Errors::ProducerFenced) {
            self.state = TxnState::FatalError;
        } else if matches!(
            self.state,
            TxnState::InTransaction | TxnState::CommittingTransaction
        ) {
            self.state = TxnState::AbortableError;
        }
    }

    /// Whether a transactional request is due (now or after the backoff).
    pub fn wants_request(&self) -> bool {
        self.pending_offsets.is_some()
            || matches!(
                self.state,
                TxnState::Initializing
                    | TxnState::CommittingTransaction
                    | TxnState::AbortingTransaction
            )
    }

    /// Whether the producer may drain batches now.
    pub fn can_send_batches(&self) -> bool {
        matches!(
            self.state,
            TxnState::InTransaction
                | TxnState::CommittingTransaction
                | TxnState::AbortingTransaction
        )
    }

    /// The next transactional request to send, if any (`nextRequest`).
    pub fn next_request(
        &mut self,
        now_ms: i64,
        producer_id: i64,
        producer_epoch: i16,
        batches_pending: bool,
    ) -> Option<(Target, Request, TxnRequestKind)> {
        if self.in_flight.is_some() || self.retry_at_ms > now_ms {
            return None;
        }
        let needs_coordinator = matches!(
            self.state,
            TxnState::Initializing
                | TxnState::CommittingTransaction
                | TxnState::AbortingTransaction
        ) || self.pending_offsets.is_some();
        if needs_coordinator && self.coordinator.is_none() {
            let key = self.transactional_id.clone();
            return Some((
                Target::Bootstrap,
                Request::FindCoordinator {
                    key,
                    key_type: CoordinatorType::Transaction,
                },
                TxnRequestKind::FindCoordinator(CoordinatorType::Transaction),
            ));
        }
        let coordinator = self.coordinator?;
        if let Some((group_id, offsets)) = self.pending_offsets.clone() {
            let Some(group_coordinator) = self.group_coordinator else {
                return Some((
                    Target::Bootstrap,
                    Request::FindCoordinator {
                        key: group_id,
                        key_type: CoordinatorType::Group,
                    },
                    TxnRequestKind::FindCoordinator(CoordinatorType::Group),
                ));
            };
            return Some((
                Target::Broker(group_coordinator),
                Request::TxnOffsetCommit {
                    transactional_id: self.transactional_id.clone(),
                    group_id,
                    producer_id,
                    producer_epoch,
                    offsets,
                },
                TxnRequestKind::TxnOffsetCommit,
            ));
        }
        match self.state {
            TxnState::Initializing => Some((
                Target::Broker(coordinator),
                Request::InitProducerId {
                    transactional_id: Some(self.transactional_id.clone()),
                    transaction_timeout_ms: self.transaction_timeout_ms,
                },
                TxnRequestKind::InitProducerId,
            )),
            // EndTxn goes once every batch of the transaction has an answer (flush).
            TxnState::CommittingTransaction | TxnState::AbortingTransaction if !batches_pending => {
                let committed = self.state == TxnState::CommittingTransaction;
                Some((
                    Target::Broker(coordinator),
                    Request::EndTxn {
                        transactional_id: self.transactional_id.clone(),
                        producer_id,
                        producer_epoch,
                        committed,
                    },
                    TxnRequestKind::EndTxn { committed },
                ))
            }
            _ => None,
        }
    }

    /// The answer to a transactional request. Returns what the application sees, and
    /// the producer id/epoch to adopt when the answer carries them.
    pub fn on_response(
        &mut self,
        kind: &TxnRequestKind,
        response: &Response,
        now_ms: i64,
        backoff_ms: i64,
    ) -> (Option<TxnOutcome>, Option<(i64, i16)>) {
        self.in_flight = None;
        let retry = |tm: &mut Self, api: &str, error: Errors| {
            tm.retry_at_ms = now_ms + backoff_ms;
            if matches!(
                error,
                Errors::NotCoordinator | Errors::CoordinatorNotAvailable
            ) {
                tm.coordinator = None;
            }
            (
                Some(TxnOutcome::Retrying {
                    api: api.to_string(),
                    error,
                }),
                None,
            )
        };
        match (kind, response) {
            (TxnRequestKind::FindCoordinator(t), Response::FindCoordinator { error, node_id }) => {
                if *error == Errors::None {
                    match t {
                        CoordinatorType::Transaction => self.coordinator = Some(*node_id),
                        CoordinatorType::Group => self.group_coordinator = Some(*node_id),
                    }
                    (None, None)
                } else {
                    self.retry_at_ms = now_ms + backoff_ms;
                    (
                        Some(TxnOutcome::Retrying {
                            api: "FindCoordinator".into(),
                            error: *error,
                        }),
                        None,
                    )
                }
            }
            (
                TxnRequestKind::InitProducerId,
                Response::InitProducerId {
                    error,
                    producer_id,
                    producer_epoch,
                },
            ) => match error {
                Errors::None => {
                    self.state = TxnState::Ready;
                    let ids = (*producer_id, *producer_epoch);
                    (
                        Some(TxnOutcome::Initialized {
                            producer_id: ids.0,
                            producer_epoch: ids.1,
                        }),
                        Some(ids),
                    )
                }
                e if e.is_retriable() => retry(self, "InitProducerId", *e),
                e => self.fail("initTransactions", *e),
            },
            (
                TxnRequestKind::EndTxn { committed },
                Response::EndTxn {
                    error,
                    producer_id,
                    producer_epoch,
                },
            ) => match error {
                Errors::None => {
                    self.state = TxnState::Ready;
                    self.partitions_in_transaction.clear();
                    self.last_error = None;
                    let ids = (*producer_id, *producer_epoch);
                    let outcome = if *committed {
                        TxnOutcome::Committed {
                            producer_id: ids.0,
                            producer_epoch: ids.1,
                        }
                    } else {
                        TxnOutcome::Aborted {
                            producer_id: ids.0,
                            producer_epoch: ids.1,
                        }
                    };
                    (Some(outcome), (ids.0 >= 0).then_some(ids))
                }
                e if e.is_retriable() => retry(self, "EndTxn", *e),
                e => self.fail(
                    if *committed {
                        "commitTransaction"
                    } else {
                        "abortTransaction"
                    },
                    *e,
                ),
            },
            (TxnRequestKind::TxnOffsetCommit, Response::TxnOffsetCommit { .. }) => {
                let error = response.error();
                match error {
                    Errors::None => {
                        let group_id = self
                            .pending_offsets
                            .take()
                            .map(|(g, _)| g)
                            .unwrap_or_default();
                        (Some(TxnOutcome::OffsetsSent { group_id }), None)
                    }
                    e if e.is_retriable() => {
                        if matches!(e, Errors::NotCoordinator | Errors::CoordinatorNotAvailable) {
                            self.group_coordinator = None;
                        }
                        self.retry_at_ms = now_ms + backoff_ms;
                        (
                            Some(TxnOutcome::Retrying {
                                api: "TxnOffsetCommit".into(),
                                error: e,
                            }),
                            None,
                        )
                    }
                    e => {
                        self.pending_offsets = None;
                        self.on_batch_error(e);
                        (
                            Some(TxnOutcome::Failed {
                                operation: "sendOffsetsToTransaction".into(),
                                error: e,
                            }),
                            None,
                        )
                    }
                }
            }
            _ => (None, None),
        }
    }

    fn fail(&mut self, operation: &str, error: Errors) -> (Option<TxnOutcome>, Option<(i64, i16)>) {
        self.last_error = Some(error);
        self.state = if matches!(
            error,
            Errors::ProducerFenced
                | Errors::InvalidProducerEpoch
                | Errors::InvalidProducerIdMapping
        ) {
            TxnState::FatalError
        } else {
            TxnState::AbortableError
        };
        (
            Some(TxnOutcome::Failed {
                operation: operation.to_string(),
                error,
            }),
            None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_state_machine_refuses_illegal_calls() {
        let mut tm = TransactionManager::new("t".into(), 60_000);
        assert!(
            tm.begin_transaction().is_err(),
            "begin before initTransactions"
        );
        tm.begin_init().unwrap();
        let (target, request, _) = tm.next_request(0, -1, -1, false).unwrap();
        assert_eq!(target, Target::Bootstrap);
        assert!(matches!(request, Request::FindCoordinator { .. }));
        tm.in_flight = Some(1);
        assert!(
            tm.next_request(0, -1, -1, false).is_none(),
            "one request at a time"
        );
        tm.on_response(
            &TxnRequestKind::FindCoordinator(CoordinatorType::Transaction),
            &Response::FindCoordinator {
                error: Errors::None,
                node_id: 1,
            },
            0,
            100,
        );
        let (_, request, kind) = tm.next_request(0, -1, -1, false).unwrap();
        assert!(matches!(
            request,
            Request::InitProducerId {
                transactional_id: Some(_),
                ..
            }
        ));
        let (outcome, ids) = tm.on_response(
            &kind,
            &Response::InitProducerId {
                error: Errors::ConcurrentTransactions,
                producer_id: -1,
                producer_epoch: -1,
            },
            0,
            100,
        );
        assert!(matches!(outcome, Some(TxnOutcome::Retrying { .. })));
        assert_eq!(ids, None);
        assert!(tm.next_request(50, -1, -1, false).is_none(), "backoff");
        let (_, _, kind) = tm.next_request(100, -1, -1, false).unwrap();
        let (_, ids) = tm.on_response(
            &kind,
            &Response::InitProducerId {
                error: Errors::None,
                producer_id: 0,
                producer_epoch: 2,
            },
            100,
            100,
        );
        assert_eq!(ids, Some((0, 2)));
        tm.begin_transaction().unwrap();
        tm.on_send(&TopicPartition::new("t", 0)).unwrap();
        tm.on_batch_error(Errors::InvalidProducerEpoch);
        assert_eq!(
            tm.begin_commit(),
            Err(Errors::InvalidProducerEpoch),
            "commit fails with the send's error"
        );
        assert!(tm.begin_abort().is_ok());
    }
}
