//! The answer to each transactional request: one function a `TxnRequestHandler` of
//! Kafka's client `TransactionManager` (`FindCoordinatorHandler`,
//! `InitProducerIdHandler`, `EndTxnHandler`, `AddPartitionsToTxnHandler`,
//! `AddOffsetsToTxnHandler`, `TxnOffsetCommitHandler`), each its `handleResponse`.
//! What an error answer does is decided in [`super::handler_errors`]; [`TransactionManager::react`]
//! carries it out, as the handlers' shared `reenqueue`/`abortableError`/`fatalError` do.

use super::handler_errors::{self, OffsetAnswer, Reaction};
use super::{end_txn_call, EpochBump, TransactionManager, TxnOutcome, TxnRequestKind, TxnState};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{CoordinatorType, Response};

/// What a handler hands back: what the application sees, and the producer id and
/// epoch to adopt when the answer carries them.
type Answer = (Option<TxnOutcome>, Option<(i64, i16)>);

/// The retry backoff and the time of the answer, which every error reaction needs.
#[derive(Clone, Copy)]
struct Clock {
    now_ms: i64,
    backoff_ms: i64,
}

impl TransactionManager {
    /// The answer to a transactional request (`TxnRequestHandler.onComplete`), handed
    /// to the handler of the request's kind. An answer of another kind than the request
    /// changes nothing but the request in flight.
    pub fn on_response(
        &mut self,
        kind: &TxnRequestKind,
        response: &Response,
        now_ms: i64,
        backoff_ms: i64,
    ) -> Answer {
        self.in_flight = None;
        let clock = Clock { now_ms, backoff_ms };
        match (kind, response) {
            (TxnRequestKind::FindCoordinator(t), Response::FindCoordinator { error, node_id }) => {
                self.handle_find_coordinator(*t, *error, *node_id, clock)
            }
            (
                TxnRequestKind::InitProducerId { epoch_bump },
                Response::InitProducerId {
                    error,
                    producer_id,
                    producer_epoch,
                },
            ) => self.handle_init_producer_id(
                *epoch_bump,
                *error,
                (*producer_id, *producer_epoch),
                clock,
            ),
            (
                TxnRequestKind::EndTxn { committed },
                Response::EndTxn {
                    error,
                    producer_id,
                    producer_epoch,
                },
            ) => self.handle_end_txn(*committed, *error, (*producer_id, *producer_epoch), clock),
            (
                TxnRequestKind::AddPartitionsToTxn { partitions },
                Response::AddPartitionsToTxn { results },
            ) => self.handle_add_partitions_to_txn(partitions, results, clock),
            (TxnRequestKind::AddOffsetsToTxn { .. }, Response::AddOffsetsToTxn { error }) => {
                self.handle_add_offsets_to_txn(kind, *error, clock)
            }
            (TxnRequestKind::TxnOffsetCommit, Response::TxnOffsetCommit { results }) => {
                self.handle_txn_offset_commit(results, clock)
            }
            _ => (None, None),
        }
    }

    /// `FindCoordinatorHandler.handleResponse`: the coordinator of that type is known.
    fn handle_find_coordinator(
        &mut self,
        coordinator_type: CoordinatorType,
        error: Errors,
        node_id: i32,
        clock: Clock,
    ) -> Answer {
        if error == Errors::None {
            match coordinator_type {
                CoordinatorType::Transaction => self.coordinator = Some(node_id),
                CoordinatorType::Group => self.group_coordinator = Some(node_id),
            }
            return (None, None);
        }
        let operation = self.call_waiting_for(coordinator_type);
        let mut reaction =
            handler_errors::reaction(&TxnRequestKind::FindCoordinator(coordinator_type), error);
        // While aborting, an abortable answer fails only the lookup's own result
        // (`transitionToAbortableError` skips ABORTING_TRANSACTION); the EndTxn stays
        // queued, finds no coordinator and looks it up again (Kafka 4.0's
        // `Sender.maybeFindCoordinatorAndRetry`), so the abort goes on.
        if matches!(reaction, Reaction::Abortable { .. })
            && self.state == TxnState::AbortingTransaction
        {
            reaction = Reaction::FindCoordinatorAgain(coordinator_type);
        }
        self.react(reaction, "FindCoordinator", operation, error, clock)
    }

    /// `InitProducerIdHandler.handleResponse`: READY with the id and epoch, or, for the
    /// KIP-360 bump that ends an abort (`isEpochBump`), the abort returns.
    fn handle_init_producer_id(
        &mut self,
        epoch_bump: bool,
        error: Errors,
        (producer_id, producer_epoch): (i64, i16),
        clock: Clock,
    ) -> Answer {
        let operation = if epoch_bump {
            "abortTransaction"
        } else {
            "initTransactions"
        };
        if error != Errors::None {
            let reaction =
                handler_errors::reaction(&TxnRequestKind::InitProducerId { epoch_bump }, error);
            return self.react(reaction, "InitProducerId", operation, error, clock);
        }
        if epoch_bump {
            return self.epoch_bumped(producer_id, producer_epoch);
        }
        self.state = TxnState::Ready;
        self.mark_reported(operation);
        (
            Some(TxnOutcome::Initialized {
                producer_id,
                producer_epoch,
            }),
            Some((producer_id, producer_epoch)),
        )
    }

    /// `EndTxnHandler.handleResponse` and `completeTransaction`: READY for the next
    /// transaction (TV2: at the epoch the answer carries), or, with an epoch bump due,
    /// on to INITIALIZING and InitProducerId; the application's call returns after that.
    fn handle_end_txn(
        &mut self,
        committed: bool,
        error: Errors,
        (producer_id, producer_epoch): (i64, i16),
        clock: Clock,
    ) -> Answer {
        let call = end_txn_call(committed);
        if error != Errors::None {
            let reaction = handler_errors::reaction(&TxnRequestKind::EndTxn { committed }, error);
            return self.react(reaction, "EndTxn", call, error, clock);
        }
        if self.epoch_bump == EpochBump::Required {
            self.end_txn_done_before_bump();
            return (None, None);
        }
        self.state = TxnState::Ready;
        self.partitions_in_transaction.clear();
        self.added_partitions.clear();
        self.last_error = None;
        self.mark_reported(call);
        let outcome = if !self.transaction_v2 {
            TxnOutcome::EndedKeepingEpoch {
                committed,
                producer_id,
                producer_epoch,
            }
        } else if committed {
            TxnOutcome::Committed {
                producer_id,
                producer_epoch,
            }
        } else {
            TxnOutcome::Aborted {
                producer_id,
                producer_epoch,
            }
        };
        let ids = (producer_id, producer_epoch);
        (Some(outcome), (producer_id >= 0).then_some(ids))
    }

    /// `AddPartitionsToTxnHandler.handleResponse` (before TV2): the partitions are in
    /// the transaction and their batches may go; an error answer shows its retriable
    /// error first, as the handler's loop ends on it.
    fn handle_add_partitions_to_txn(
        &mut self,
        partitions: &[TopicPartition],
        results: &[(TopicPartition, Errors)],
        clock: Clock,
    ) -> Answer {
        let Some(reaction) = handler_errors::add_partitions(results) else {
            self.added_partitions.extend(partitions.iter().cloned());
            self.transaction_started = true;
            return (None, None);
        };
        let errors = || {
            results
                .iter()
                .map(|(_, e)| *e)
                .filter(|e| *e != Errors::None)
        };
        let shown = errors()
            .find(|e| e.is_retriable())
            .or_else(|| errors().next())
            .unwrap_or(Errors::UnknownServerError);
        let outcome = self.react(reaction, "AddPartitionsToTxn", "send", shown, clock);
        // `maybeOverrideRetryBackoffMs`: the first partition of a transaction
        // answered CONCURRENT_TRANSACTIONS means the previous transaction is
        // still completing; try again after 20 ms (ADD_PARTITIONS_RETRY_BACKOFF_MS),
        // not the full backoff.
        if shown == Errors::ConcurrentTransactions && self.added_partitions.is_empty() {
            self.retry_at_ms = clock.now_ms.saturating_add(clock.backoff_ms.min(20));
        }
        outcome
    }

    /// `AddOffsetsToTxnHandler.handleResponse` (before TV2): TxnOffsetCommit goes
    /// next; `sendOffsetsToTransaction` returns when it answers.
    fn handle_add_offsets_to_txn(
        &mut self,
        kind: &TxnRequestKind,
        error: Errors,
        clock: Clock,
    ) -> Answer {
        if error == Errors::None {
            self.offsets_added = true;
            self.transaction_started = true;
            return (None, None);
        }
        let reaction = handler_errors::reaction(kind, error);
        let op = "sendOffsetsToTransaction";
        self.react(reaction, "AddOffsetsToTxn", op, error, clock)
    }

    /// `TxnOffsetCommitHandler.handleResponse`: the loop stops at the first partition
    /// that fails the call; a retry sends every offset again (the request is built
    /// once), after looking the group coordinator up again when a partition asked for it.
    fn handle_txn_offset_commit(
        &mut self,
        results: &[(TopicPartition, Errors)],
        clock: Clock,
    ) -> Answer {
        let op = "sendOffsetsToTransaction";
        let mut first_retriable = None;
        let mut find_coordinator = false;
        for (_, error) in results {
            match handler_errors::txn_offset_commit(*error) {
                OffsetAnswer::Committed => {}
                OffsetAnswer::Retry {
                    find_coordinator: f,
                } => {
                    find_coordinator |= f;
                    first_retriable.get_or_insert(*error);
                }
                OffsetAnswer::Fail(reaction) => {
                    self.pending_offsets = None;
                    return self.react(reaction, "TxnOffsetCommit", op, *error, clock);
                }
            }
        }
        let Some(error) = first_retriable else {
            let group_id = self
                .pending_offsets
                .take()
                .map(|(g, _)| g.group_id)
                .unwrap_or_default();
            return (Some(TxnOutcome::OffsetsSent { group_id }), None);
        };
        let reaction = if find_coordinator {
            Reaction::FindCoordinatorAgain(CoordinatorType::Group)
        } else {
            Reaction::Retry
        };
        self.react(reaction, "TxnOffsetCommit", op, error, clock)
    }

    /// The call an answer to a FindCoordinator of this type would have let go on: Kafka
    /// fails that call's queued request with the lookup's error
    /// (`maybeTerminateRequestWithError`), or with the fatal error (`transitionToFatalError`).
    fn call_waiting_for(&self, coordinator: CoordinatorType) -> &'static str {
        match (coordinator, self.state) {
            (CoordinatorType::Group, _) => "sendOffsetsToTransaction",
            (_, TxnState::Initializing) if self.epoch_bump == EpochBump::Sending => {
                "abortTransaction"
            }
            (_, TxnState::Initializing) => "initTransactions",
            (_, TxnState::CommittingTransaction) => "commitTransaction",
            (_, TxnState::AbortingTransaction) => "abortTransaction",
            _ => "send",
        }
    }

    /// Carries out a handler's reaction to `error` in the answer to `api`, made for the
    /// application's call `operation`: the retry (after a new coordinator lookup when
    /// asked), or the error state, the error kept for later calls, and the failed call's
    /// outcome with the exception the application catches.
    fn react(
        &mut self,
        reaction: Reaction,
        api: &str,
        operation: &str,
        error: Errors,
        clock: Clock,
    ) -> Answer {
        let (state, kept, exception, bump) = match reaction {
            Reaction::Retry | Reaction::FindCoordinatorAgain(_) => {
                match reaction {
                    Reaction::FindCoordinatorAgain(CoordinatorType::Transaction) => {
                        self.coordinator = None
                    }
                    Reaction::FindCoordinatorAgain(CoordinatorType::Group) => {
                        self.group_coordinator = None
                    }
                    _ => {}
                }
                self.retry_at_ms = clock.now_ms.saturating_add(clock.backoff_ms);
                let outcome = TxnOutcome::Retrying {
                    api: api.to_string(),
                    error,
                };
                return (Some(outcome), None);
            }
            Reaction::Abortable { error, exception } => {
                (TxnState::AbortableError, error, exception, false)
            }
            Reaction::AbortableBumpingEpoch { error } => (
                TxnState::AbortableError,
                error,
                error.exception_name(),
                true,
            ),
            Reaction::Fatal { error, exception } => (TxnState::FatalError, error, exception, false),
        };
        // `transitionToAbortableError` skips a transaction already aborting: the call
        // fails with the error, the state and `lastError` stay, nothing is queued
        // again (see `abort_failed`).
        if !(state == TxnState::AbortableError && self.state == TxnState::AbortingTransaction) {
            self.state = state;
            self.last_error = Some(kept);
            self.last_exception = Some((kept, exception.clone()));
        }
        // Requests queued behind a failed one fail with it (`maybeTerminateRequestWithError`).
        self.pending_offsets = None;
        self.require_epoch_bump_after_abortable_answer(bump);
        self.mark_reported(operation);
        (
            Some(TxnOutcome::Failed {
                operation: operation.to_string(),
                error: kept,
                exception,
            }),
            None,
        )
    }
}
