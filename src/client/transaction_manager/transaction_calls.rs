//! Which call the application may make in which `TransactionManager` state, and what
//! Kafka's client throws otherwise — before anything is sent.
//!
//! Read from Kafka 4.0's client (apache/kafka `4.0.0-SNAPSHOT`, commit `1eb7644`,
//! October 2024): `TransactionManager.State.isTransitionValid`, `transitionTo`,
//! `maybeFailWithError`, `throwIfPendingState`, `handleCachedTransactionRequestResult`,
//! `maybeAddPartition`, `sendOffsetsToTransaction`, and `KafkaProducer`'s calls. Each
//! check runs in Kafka's order, so the first failing one names the exception.
//!
//! Simplified: Kafka keeps a pending call until the application's `await` returns
//! (`isAcked`); the world's blocking call acknowledges it when the call finishes, so a
//! pending call is one that did not finish within the world's blocking call.

use serde::Serialize;

use super::{TransactionManager, TxnOutcome};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;

/// The client's transaction state (`TransactionManager.State`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TxnState {
    Uninitialized,
    Initializing,
    Ready,
    InTransaction,
    CommittingTransaction,
    AbortingTransaction,
    /// A request of the transaction failed: the only way on is `abortTransaction()`.
    AbortableError,
    /// Fenced or otherwise unusable: every transactional call throws; close the producer.
    FatalError,
}

impl TxnState {
    pub const ALL: [TxnState; 8] = [
        TxnState::Uninitialized,
        TxnState::Initializing,
        TxnState::Ready,
        TxnState::InTransaction,
        TxnState::CommittingTransaction,
        TxnState::AbortingTransaction,
        TxnState::AbortableError,
        TxnState::FatalError,
    ];

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

    /// `State.isTransitionValid(source, target)`, word for word.
    pub fn can_transition_to(self, target: TxnState) -> bool {
        use TxnState::*;
        match target {
            Uninitialized => matches!(self, Ready | AbortableError),
            Initializing => matches!(self, Uninitialized | AbortingTransaction),
            Ready => matches!(
                self,
                Initializing | CommittingTransaction | AbortingTransaction
            ),
            InTransaction => self == Ready,
            CommittingTransaction => self == InTransaction,
            AbortingTransaction => matches!(self, InTransaction | AbortableError),
            AbortableError => matches!(
                self,
                InTransaction | CommittingTransaction | AbortableError | Initializing
            ),
            FatalError => true,
        }
    }
}

/// A call of the application on the producer that Kafka checks against the state.
/// (`flush()` is not one: Kafka's `flush` makes no transactional check.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TxnCall {
    InitTransactions,
    BeginTransaction,
    /// `send()` of a record to this partition (`maybeAddPartition`).
    Send {
        tp: TopicPartition,
    },
    SendOffsetsToTransaction,
    CommitTransaction,
    AbortTransaction,
}

impl TxnCall {
    /// The Java method's name, as Kafka's messages quote it.
    pub fn name(&self) -> &'static str {
        match self {
            TxnCall::InitTransactions => "initTransactions",
            TxnCall::BeginTransaction => "beginTransaction",
            TxnCall::Send { .. } => "send",
            TxnCall::SendOffsetsToTransaction => "sendOffsetsToTransaction",
            TxnCall::CommitTransaction => "commitTransaction",
            TxnCall::AbortTransaction => "abortTransaction",
        }
    }

    /// The state a blocking call waits in (`PendingStateTransition.state`).
    fn pending_state(&self) -> Option<TxnState> {
        match self {
            TxnCall::InitTransactions => Some(TxnState::Initializing),
            TxnCall::CommitTransaction => Some(TxnState::CommittingTransaction),
            TxnCall::AbortTransaction => Some(TxnState::AbortingTransaction),
            _ => None,
        }
    }
}

/// The exception a call throws at once, as data; the catalog words Kafka's message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TxnCallError {
    /// `KafkaProducer.throwIfNoTransactionManager`: neither idempotent nor transactional.
    NoTransactionManager,
    /// `ensureTransactional`: an idempotent producer without `transactional.id`.
    NotTransactional,
    /// `transitionTo`: "TransactionalId T: Invalid transition attempted from state X to state Y".
    InvalidTransition {
        transactional_id: String,
        from: TxnState,
        to: TxnState,
    },
    /// `throwIfPendingState` / `handleCachedTransactionRequestResult`: an earlier
    /// blocking call has not returned, so only that same call may be made again.
    PendingCall {
        call: &'static str,
        pending: &'static str,
    },
    /// `maybeAddPartition` with no producer id yet.
    AddPartitionBeforeInit { tp: TopicPartition },
    /// `maybeAddPartition` outside a transaction (Kafka's message has two spaces).
    AddPartitionNotInTransaction { tp: TopicPartition, state: TxnState },
    /// `sendOffsetsToTransaction` outside a transaction.
    OffsetsWithoutTransaction { state: TxnState },
    /// `maybeFailWithError` after PRODUCER_FENCED: a new instance, not the stored one.
    Fenced {
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
    },
    /// `maybeFailWithError` after INVALID_PRODUCER_EPOCH.
    OldEpoch {
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        /// In ABORTABLE_ERROR (abortTransaction() goes on), not FATAL_ERROR.
        abortable: bool,
    },
    /// `maybeFailWithError` for any other error: a `KafkaException` caused by it.
    InErrorState {
        cause: Option<Errors>,
        /// The kept exception's class: Kafka keeps the exception the handler made,
        /// e.g. `CommitFailedException` for UNKNOWN_MEMBER_ID.
        cause_exception: Option<String>,
        /// In ABORTABLE_ERROR (abortTransaction() goes on), not FATAL_ERROR.
        abortable: bool,
    },
}

impl TxnCallError {
    /// The Java exception class the application catches.
    pub fn exception_class(&self) -> &'static str {
        match self {
            TxnCallError::Fenced { .. } => "ProducerFencedException",
            TxnCallError::OldEpoch { .. } => "InvalidProducerEpochException",
            TxnCallError::InErrorState { .. } => "KafkaException",
            _ => "IllegalStateException",
        }
    }

    /// The Kafka error behind the exception, when there is one.
    pub fn cause(&self) -> Option<Errors> {
        match self {
            TxnCallError::Fenced { .. } => Some(Errors::ProducerFenced),
            TxnCallError::OldEpoch { .. } => Some(Errors::InvalidProducerEpoch),
            TxnCallError::InErrorState { cause, .. } => *cause,
            _ => None,
        }
    }

    /// An `ApiException`: `send()` does not throw it but returns it in a failed
    /// Future (and the callback), as `KafkaProducer.doSend` catches it.
    pub fn is_api_exception(&self) -> bool {
        matches!(
            self,
            TxnCallError::Fenced { .. } | TxnCallError::OldEpoch { .. }
        )
    }
}

/// What a call that passed Kafka's checks does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begun {
    /// The state changed (and a request will go, for init, commit and abort).
    Started,
    /// The same call was pending: Kafka hands back its result; nothing new is sent.
    Resumed,
}

impl TransactionManager {
    /// Kafka's checks for `call`, in Kafka's order, without changing anything.
    /// `producer` is the producer id and epoch (for the fenced messages).
    pub fn check_call(&self, call: &TxnCall, producer: (i64, i16)) -> Result<Begun, TxnCallError> {
        match call {
            TxnCall::InitTransactions => {
                self.maybe_fail_with_error(producer)?;
                self.cached_or(call, || self.transition_check(TxnState::Initializing))
            }
            TxnCall::BeginTransaction => {
                self.throw_if_pending_state(call)?;
                self.maybe_fail_with_error(producer)?;
                self.transition_check(TxnState::InTransaction)?;
                Ok(Begun::Started)
            }
            TxnCall::CommitTransaction => self.cached_or(call, || {
                self.maybe_fail_with_error(producer)?;
                self.transition_check(TxnState::CommittingTransaction)
            }),
            TxnCall::AbortTransaction => self.cached_or(call, || {
                // Aborting is the way out of ABORTABLE_ERROR, so its error does not throw.
                if self.state != TxnState::AbortableError {
                    self.maybe_fail_with_error(producer)?;
                }
                self.transition_check(TxnState::AbortingTransaction)
            }),
            TxnCall::Send { tp } => {
                self.maybe_fail_with_error(producer)?;
                self.throw_if_pending_state(call)?;
                if producer.0 < 0 {
                    return Err(TxnCallError::AddPartitionBeforeInit { tp: tp.clone() });
                }
                if self.state != TxnState::InTransaction {
                    return Err(TxnCallError::AddPartitionNotInTransaction {
                        tp: tp.clone(),
                        state: self.state,
                    });
                }
                Ok(Begun::Started)
            }
            TxnCall::SendOffsetsToTransaction => {
                self.throw_if_pending_state(call)?;
                self.maybe_fail_with_error(producer)?;
                if self.state != TxnState::InTransaction {
                    return Err(TxnCallError::OffsetsWithoutTransaction { state: self.state });
                }
                Ok(Begun::Started)
            }
        }
    }

    /// `maybeFailWithError`: in ABORTABLE_ERROR or FATAL_ERROR every call throws.
    fn maybe_fail_with_error(
        &self,
        (producer_id, producer_epoch): (i64, i16),
    ) -> Result<(), TxnCallError> {
        if !matches!(self.state, TxnState::AbortableError | TxnState::FatalError) {
            return Ok(());
        }
        let transactional_id = self.transactional_id.clone();
        let abortable = self.state == TxnState::AbortableError;
        Err(match self.last_error {
            Some(Errors::ProducerFenced) => TxnCallError::Fenced {
                transactional_id,
                producer_id,
                producer_epoch,
            },
            Some(Errors::InvalidProducerEpoch) => TxnCallError::OldEpoch {
                transactional_id,
                producer_id,
                producer_epoch,
                abortable,
            },
            cause => TxnCallError::InErrorState {
                cause,
                cause_exception: self.last_exception_name(),
                abortable,
            },
        })
    }

    /// `throwIfPendingState`: a pending blocking call refuses every other call.
    fn throw_if_pending_state(&self, call: &TxnCall) -> Result<(), TxnCallError> {
        match &self.pending {
            Some(p) => Err(TxnCallError::PendingCall {
                call: call.name(),
                pending: p.call.name(),
            }),
            None => Ok(()),
        }
    }

    /// `handleCachedTransactionRequestResult`: the pending call again is handed its
    /// result; another call is refused; with none pending, `start` decides.
    fn cached_or(
        &self,
        call: &TxnCall,
        start: impl FnOnce() -> Result<(), TxnCallError>,
    ) -> Result<Begun, TxnCallError> {
        match &self.pending {
            Some(p) if p.call == *call => Ok(Begun::Resumed),
            Some(p) => Err(TxnCallError::PendingCall {
                call: call.name(),
                pending: p.call.name(),
            }),
            None => start().map(|()| Begun::Started),
        }
    }

    /// `transitionTo(target)`'s check from an application thread (no poisoning).
    fn transition_check(&self, to: TxnState) -> Result<(), TxnCallError> {
        if self.state.can_transition_to(to) {
            Ok(())
        } else {
            Err(TxnCallError::InvalidTransition {
                transactional_id: self.transactional_id.clone(),
                from: self.state,
                to,
            })
        }
    }

    /// Applies a call that passed the checks: the state change, the partition
    /// remembered by a send (TV2 tracks it locally only), the pending blocking call.
    /// `sendOffsetsToTransaction` only passes here; the offsets are queued by the caller.
    pub fn call(&mut self, call: &TxnCall, producer: (i64, i16)) -> Result<Begun, TxnCallError> {
        let begun = self.check_call(call, producer)?;
        if begun == Begun::Resumed {
            return Ok(begun);
        }
        match call {
            TxnCall::BeginTransaction => {
                self.state = TxnState::InTransaction;
                self.partitions_in_transaction.clear();
                self.added_partitions.clear();
                self.transaction_started = false;
            }
            TxnCall::Send { tp } => {
                self.partitions_in_transaction.insert(tp.clone());
                // `maybeAddPartition` under TV2: the partition is in the transaction.
                if self.transaction_v2 {
                    self.transaction_started = true;
                }
            }
            TxnCall::InitTransactions | TxnCall::CommitTransaction | TxnCall::AbortTransaction => {
                self.state = call.pending_state().unwrap_or(self.state);
                self.pending = Some(PendingStateTransition {
                    call: call.clone(),
                    reported: false,
                });
            }
            TxnCall::SendOffsetsToTransaction => {}
        }
        Ok(begun)
    }

    /// Whether the pending blocking call is still waiting for its answer.
    /// An abort that ends with a KIP-360 epoch bump waits in INITIALIZING too.
    pub fn is_waiting(&self) -> bool {
        self.pending.as_ref().is_some_and(|p| {
            // A failed abort stays ABORTING_TRANSACTION, but its call has returned.
            !p.reported
                && (p.call.pending_state() == Some(self.state)
                    || (p.call == TxnCall::AbortTransaction
                        && self.state == TxnState::Initializing))
        })
    }

    /// The application's blocking call returned with the result (`result.await`):
    /// forget the pending call. Returns the failure to report when no answer reported
    /// it (a send's error ended a commit before its EndTxn went).
    pub fn ack(&mut self) -> Option<TxnOutcome> {
        if self.is_waiting() {
            return None;
        }
        let pending = self.pending.take()?;
        let failed = matches!(self.state, TxnState::AbortableError | TxnState::FatalError);
        let error = self.last_error.unwrap_or(Errors::UnknownServerError);
        (failed && !pending.reported).then(|| TxnOutcome::Failed {
            operation: pending.call.name().to_string(),
            error,
            exception: self
                .last_exception_name()
                .unwrap_or_else(|| error.exception_name()),
        })
    }

    /// An answer finished the pending call `operation` and its outcome was reported.
    pub(super) fn mark_reported(&mut self, operation: &str) {
        if let Some(p) = self.pending.as_mut().filter(|p| p.call.name() == operation) {
            p.reported = true;
        }
    }
}

/// `PendingStateTransition`: a blocking call that has not returned to the application.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingStateTransition {
    pub call: TxnCall,
    /// Its result was already reported as an outcome (by an answer).
    pub reported: bool,
}

/// `maybeTransitionToErrorState` for a failed send: fenced, an authorization the
/// producer as a whole lacks, or an unsupported version is fatal; anything else
/// aborts the transaction, unless it is already aborting.
pub(super) fn batch_error_state(state: TxnState, error: Errors) -> TxnState {
    match (state, error) {
        (_, e) if super::handler_errors::send_error_is_fatal(e) => TxnState::FatalError,
        (TxnState::AbortingTransaction | TxnState::FatalError, _) => state,
        (s, _) if s.can_transition_to(TxnState::AbortableError) => TxnState::AbortableError,
        _ => state,
    }
}
