//! KIP-360 for the transactional producer: after an abortable error the abort ends on
//! a new epoch, so the producer goes on with the same producer id and sequences from 0
//! instead of failing for good.
//!
//! Read in Kafka 4.0.0-SNAPSHOT (apache/kafka trunk `1eb7644`, 2024-10-25), client
//! `TransactionManager`: `maybeTransitionToErrorState` (a failed send of a transaction
//! sets `epochBumpRequired` when the coordinator can bump epochs and the transaction is
//! not completing), `TxnRequestHandler.abortableErrorIfPossible` (UNKNOWN_PRODUCER_ID
//! or INVALID_PRODUCER_ID_MAPPING from EndTxn or AddPartitionsToTxn), `beginAbort` →
//! `beginCompletingTransaction` (EndTxn, then `initializeTransactions(producerIdAndEpoch)`,
//! an `InitProducerIdHandler` with `isEpochBump`), `completeTransaction` (INITIALIZING
//! instead of READY while a bump is due) and `InitProducerIdHandler.handleResponse`
//! (READY, `resetSequenceNumbers`). The coordinator side is
//! `TransactionCoordinator.handleInitProducerId` with an expected id and epoch
//! (`coordinator::transaction::transaction_coordinator::handlers`): epoch + 1, a retry
//! answered with the same epoch, PRODUCER_FENCED for a stale one, and at an exhausted epoch
//! (32766 or more) a new producer id at epoch 0.
//!
//! Which transaction.version: in 1eb7644 `canBumpEpoch()` only asks for InitProducerId
//! v3+ (every broker here speaks it), but that client did not yet adopt the epoch an
//! EndTxn v5 answer carries. Newer Kafka trunk does (as this engine does under TV2),
//! and there the client asks for the bump only when `needToTriggerEpochBumpFromClient()`
//! = `coordinatorSupportsBumpingEpoch && !isTransactionV2Enabled`: under TV2 the
//! coordinator's EndTxn already bumps the epoch. We follow that: TV0/TV1 bump with
//! InitProducerId after EndTxn; TV2 needs nothing more than the EndTxn answer.
//!
//! Simplified: Kafka skips EndTxn after INVALID_PRODUCER_ID_MAPPING, but in 1eb7644
//! `transitionTo(ABORTING_TRANSACTION)` has already cleared `lastError`, so EndTxn
//! goes anyway; so it does here. A Produce answered UNKNOWN_PRODUCER_ID is not retried
//! from sequence 0 when the log start passed the last acknowledged offset (`canRetry`):
//! Kafka 4.0's leader accepts an unknown producer at any sequence and never sends that
//! error, nor does ours, so it only comes from an injected fault, and fails the batch.

use serde::Serialize;

use super::{TransactionManager, TxnOutcome, TxnRequestKind, TxnState};
use crate::protocol::errors::Errors;
use crate::protocol::Request;

/// Where the KIP-360 epoch bump of a transactional producer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum EpochBump {
    NotRequired,
    /// `epochBumpRequired`: the next abort ends with InitProducerId(id, epoch).
    Required,
    /// EndTxn(abort) is done; InitProducerId with the current id and epoch is due or in
    /// flight (the state is INITIALIZING and `abortTransaction()` still blocks).
    Sending,
}

impl TransactionManager {
    /// Where the KIP-360 epoch bump stands.
    pub fn epoch_bump(&self) -> EpochBump {
        self.epoch_bump
    }

    /// `needToTriggerEpochBumpFromClient()`: the coordinator bumps on InitProducerId
    /// v3+ (always here), and under TV2 its EndTxn bumps already.
    fn client_bumps_epoch(&self) -> bool {
        !self.transaction_v2
    }

    /// `maybeTransitionToErrorState` for a send that failed while the state was
    /// `before`: a bump is required unless the transaction was already completing.
    /// Returns true when this error is the one that made it required.
    pub(super) fn require_epoch_bump_after_send(&mut self, before: TxnState) -> bool {
        let completing = matches!(
            before,
            TxnState::CommittingTransaction | TxnState::AbortingTransaction
        );
        if !self.client_bumps_epoch() || completing {
            return false;
        }
        let newly = self.epoch_bump == EpochBump::NotRequired;
        self.epoch_bump = EpochBump::Required;
        newly
    }

    /// `maybeResolveSequences`: sent batches expired and no answer will tell whether
    /// they were written. The abort must bump the epoch (whether or not the transaction
    /// was completing), and the transaction can only abort; one already aborting stays
    /// so (`transitionToAbortableError` skips it). Returns true when this made the bump
    /// required.
    pub fn require_epoch_bump_for_unresolved(&mut self) -> bool {
        let newly = self.client_bumps_epoch() && self.epoch_bump == EpochBump::NotRequired;
        if newly {
            self.epoch_bump = EpochBump::Required;
        }
        if self.state.can_transition_to(TxnState::AbortableError) {
            self.state = TxnState::AbortableError;
            self.last_error.get_or_insert(Errors::RequestTimedOut);
        }
        newly
    }

    /// `abortableErrorIfPossible` (`if_possible`: UNKNOWN_PRODUCER_ID or
    /// INVALID_PRODUCER_ID_MAPPING from EndTxn or AddPartitionsToTxn); and a bump that
    /// failed with an abortable error is tried again by the next abort.
    pub(super) fn require_epoch_bump_after_abortable_answer(&mut self, if_possible: bool) {
        if self.state != TxnState::AbortableError || !self.client_bumps_epoch() {
            return;
        }
        if if_possible || self.epoch_bump == EpochBump::Sending {
            self.epoch_bump = EpochBump::Required;
        }
    }

    /// The InitProducerId of the bump, once EndTxn(abort) is done: the producer's own
    /// id and epoch, so the coordinator bumps them rather than fencing it.
    pub(super) fn epoch_bump_request(
        &self,
        producer_id: i64,
        producer_epoch: i16,
    ) -> Option<(Request, TxnRequestKind)> {
        if self.state != TxnState::Initializing || self.epoch_bump != EpochBump::Sending {
            return None;
        }
        Some((
            Request::InitProducerId {
                transactional_id: Some(self.transactional_id.clone()),
                transaction_timeout_ms: self.transaction_timeout_ms,
                producer_id,
                producer_epoch,
            },
            TxnRequestKind::InitProducerId { epoch_bump: true },
        ))
    }

    /// `completeTransaction` with `epochBumpRequired`: the transaction is over, and
    /// the producer waits in INITIALIZING for its new epoch.
    pub(super) fn end_txn_done_before_bump(&mut self) {
        self.state = TxnState::Initializing;
        self.epoch_bump = EpochBump::Sending;
        self.partitions_in_transaction.clear();
        self.added_partitions.clear();
        self.last_error = None;
    }

    /// The bump's answer: READY at the new epoch (or a new producer id at epoch 0 when
    /// the old one was exhausted); `abortTransaction()` returns now.
    pub(super) fn epoch_bumped(
        &mut self,
        producer_id: i64,
        producer_epoch: i16,
    ) -> (Option<TxnOutcome>, Option<(i64, i16)>) {
        self.state = TxnState::Ready;
        self.epoch_bump = EpochBump::NotRequired;
        self.last_error = None;
        self.mark_reported("abortTransaction");
        (
            Some(TxnOutcome::Aborted {
                producer_id,
                producer_epoch,
            }),
            Some((producer_id, producer_epoch)),
        )
    }
}
