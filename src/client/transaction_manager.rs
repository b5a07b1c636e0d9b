//! The transactional part of the producer (Kafka's `TransactionManager`, client side,
//! transaction version 2): find the coordinator, InitProducerId with the
//! transactional.id, begin, EndTxn on commit or abort, offsets sent to the transaction.
//!
//! Under TV2 the client sends no AddPartitionsToTxn: it only remembers which
//! partitions it wrote to; the partition leaders add them with the coordinator. The
//! EndTxn answer carries the bumped epoch, which the producer adopts, restarting its
//! sequences at 0.
//!
//! Before TV2 (the cluster's finalized `transaction.version` below 2, read as Kafka
//! 4.0's client reads it from ApiVersions: `isTransactionV2Enabled`), the client
//! adds each new partition itself with AddPartitionsToTxn, and a batch for a
//! partition waits until the coordinator has added it (`isSendToPartitionAllowed`).
//! EndTxn keeps the epoch.
//!
//! After an abortable error, a producer that cannot tell what the partitions kept
//! (OUT_OF_ORDER_SEQUENCE_NUMBER, UNKNOWN_PRODUCER_ID, a lost batch) must not reuse
//! its epoch: KIP-360's epoch bump, in [`epoch_bump`] (before TV2 the abort ends with
//! InitProducerId carrying the producer's id and epoch; under TV2 EndTxn bumps it).
//!
//! Simplified: requests to the coordinator go one at a time (Kafka's priority queue
//! has the same effect here); the finalized level is given when the producer is
//! made, not fetched with ApiVersions.

use crate::util::sorted_set::SortedSet;

use serde::Serialize;

pub mod epoch_bump;
pub use epoch_bump::EpochBump;
pub(crate) mod handler_errors;
mod handlers;
pub mod transaction_calls;

use crate::client::consumer::ConsumerGroupMetadata;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{CoordinatorType, OffsetEntry, Request};
use transaction_calls::{batch_error_state, PendingStateTransition};
pub use transaction_calls::{Begun, TxnCall, TxnCallError, TxnState};

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
    /// `epoch_bump`: InitProducerId with the producer's own id and epoch, ending an
    /// abort (KIP-360, Kafka's `InitProducerIdHandler.isEpochBump`).
    InitProducerId {
        epoch_bump: bool,
    },
    /// Before TV2: the client adds these partitions itself.
    AddPartitionsToTxn {
        partitions: Vec<TopicPartition>,
    },
    /// Before TV2: the group's offsets partition joins the transaction first.
    AddOffsetsToTxn {
        group_id: String,
    },
    EndTxn {
        committed: bool,
    },
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
    /// Before TV2: commit or abort done, the epoch unchanged (sequences go on).
    EndedKeepingEpoch {
        committed: bool,
        producer_id: i64,
        producer_epoch: i16,
    },
    /// Commit or abort of a transaction that never started (nothing sent, no offsets
    /// added): done without an EndTxn, the epoch unchanged.
    EndedWithoutEndTxn {
        committed: bool,
        producer_id: i64,
        producer_epoch: i16,
    },
    OffsetsSent {
        group_id: String,
    },
    /// A call failed with this Kafka error; `exception` is the class the application
    /// catches (Kafka's handler picks it: `CommitFailedException` for a stale group
    /// member, a plain `KafkaException` for an error the handler does not name).
    Failed {
        operation: String,
        error: Errors,
        exception: String,
    },
    /// The client refused the call at once and sent nothing (Kafka throws, or for a
    /// `send()` fails its Future): what the application catches.
    Refused {
        call: TxnCall,
        error: TxnCallError,
    },
    /// The same blocking call again while the earlier one has not returned: Kafka
    /// hands back the earlier call's result and sends nothing new.
    Resumed {
        call: TxnCall,
    },
    /// A retriable answer: the request goes again after the backoff.
    Retrying {
        api: String,
        error: Errors,
    },
}

impl TxnOutcome {
    /// The exception the application caught, if the call failed or was refused.
    pub fn exception_name(&self) -> Option<String> {
        match self {
            TxnOutcome::Failed { exception, .. } => Some(exception.clone()),
            TxnOutcome::Refused { error, .. } => Some(error.exception_class().to_string()),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransactionManager {
    transactional_id: String,
    transaction_timeout_ms: i32,
    state: TxnState,
    coordinator: Option<i32>,
    group_coordinator: Option<i32>,
    last_error: Option<Errors>,
    /// The class of the exception a handler made for `last_error` when it is not the
    /// error's own (`CommitFailedException`, a plain `KafkaException`); ignored once
    /// `last_error` changes.
    last_exception: Option<(Errors, String)>,
    /// Partitions written in this transaction (TV2: tracked locally only).
    partitions_in_transaction: SortedSet<TopicPartition>,
    /// Whether the cluster speaks TV2 (`isTransactionV2Enabled`).
    transaction_v2: bool,
    /// Before TV2: the partitions the coordinator has added to this transaction.
    added_partitions: SortedSet<TopicPartition>,
    /// Offsets waiting to be sent with `sendOffsetsToTransaction`.
    pending_offsets: Option<(ConsumerGroupMetadata, Vec<OffsetEntry>)>,
    /// Before TV2: AddOffsetsToTxn answered for the pending offsets, so their
    /// TxnOffsetCommit may go.
    offsets_added: bool,
    /// The request waiting for an answer, if any.
    in_flight: Option<u64>,
    retry_at_ms: i64,
    /// The blocking call (init, commit, abort) that has not returned yet.
    pending: Option<PendingStateTransition>,
    /// `transactionStarted`: a partition (TV2: at the first send; before TV2: once
    /// AddPartitionsToTxn answered) or offsets joined this transaction, so its end
    /// needs an EndTxn.
    transaction_started: bool,
    /// Whether the abort must bump the epoch (KIP-360), and how far it got.
    epoch_bump: EpochBump,
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
            last_exception: None,
            partitions_in_transaction: SortedSet::new(),
            transaction_v2: true,
            added_partitions: SortedSet::new(),
            pending_offsets: None,
            offsets_added: false,
            in_flight: None,
            retry_at_ms: 0,
            pending: None,
            transaction_started: false,
            epoch_bump: EpochBump::NotRequired,
        }
    }

    /// The `transactional.id` this manager speaks for.
    pub fn transactional_id(&self) -> &str {
        &self.transactional_id
    }

    /// The client's transaction state (`currentState`).
    pub fn state(&self) -> TxnState {
        self.state
    }

    /// The error that left the transaction abortable or the producer fenced (`lastError`).
    pub fn last_error(&self) -> Option<Errors> {
        self.last_error
    }

    /// The partitions this transaction wrote to.
    pub fn partitions_in_transaction(&self) -> &SortedSet<TopicPartition> {
        &self.partitions_in_transaction
    }

    /// The correlation id of the transactional request waiting for an answer.
    pub fn in_flight(&self) -> Option<u64> {
        self.in_flight
    }

    /// When the next transactional request may go (after a retriable error's backoff).
    pub fn retry_at_ms(&self) -> i64 {
        self.retry_at_ms
    }

    /// The cluster's finalized `transaction.version` as this client negotiates it:
    /// 2 and above is TV2 (`isTransactionV2Enabled`).
    pub fn set_transaction_v2(&mut self, v2: bool) {
        self.transaction_v2 = v2;
    }

    /// The Sender sent the request `next_request` gave it under this correlation id
    /// (`inFlightRequestCorrelationId`).
    pub fn request_sent(&mut self, correlation_id: u64) {
        self.in_flight = Some(correlation_id);
    }

    /// The connection carrying the transactional request closed before it answered
    /// (`TxnRequestHandler.onComplete` with `wasDisconnected`, or the request timed
    /// out): look the coordinator up again, then retry after the backoff.
    pub fn request_disconnected(&mut self, now_ms: i64, backoff_ms: i64) {
        self.in_flight = None;
        self.coordinator = None;
        self.retry_at_ms = now_ms.saturating_add(backoff_ms);
    }

    /// `nextRequest`'s shortcut for an EndTxn of a transaction that never started:
    /// the coordinator has nothing to end, so the commit or abort completes here and
    /// nothing is sent (Kafka's client since KAFKA-18401, 4.0.0, under every
    /// transaction.version; before TV2 the coordinator would answer such an EndTxn
    /// INVALID_TXN_STATE). With a KIP-360 bump due, InitProducerId still follows.
    pub fn complete_without_end_txn(
        &mut self,
        producer_id: i64,
        producer_epoch: i16,
        batches_pending: bool,
    ) -> Option<TxnOutcome> {
        let completing = matches!(
            self.state,
            TxnState::CommittingTransaction | TxnState::AbortingTransaction
        );
        if !completing
            || self.abort_failed()
            || self.transaction_started
            || batches_pending
            || self.in_flight.is_some()
            || self.pending_offsets.is_some()
            || !self.partitions_to_add().is_empty()
        {
            return None;
        }
        let committed = self.state == TxnState::CommittingTransaction;
        if self.epoch_bump == EpochBump::Required {
            self.end_txn_done_before_bump();
            return None;
        }
        self.state = TxnState::Ready;
        self.partitions_in_transaction.clear();
        self.added_partitions.clear();
        self.last_error = None;
        self.mark_reported(end_txn_call(committed));
        Some(TxnOutcome::EndedWithoutEndTxn {
            committed,
            producer_id,
            producer_epoch,
        })
    }

    /// A send of this transaction failed (`maybeTransitionToErrorState`). Returns
    /// true when this error made the abort's epoch bump necessary (KIP-360).
    pub fn on_batch_error(&mut self, error: Errors) -> bool {
        let before = self.state;
        let state = batch_error_state(self.state, error);
        if state == TxnState::AbortableError || handler_errors::send_error_is_fatal(error) {
            self.last_error = Some(error);
            self.last_exception = None;
        }
        self.state = state;
        state == TxnState::AbortableError && self.require_epoch_bump_after_send(before)
    }

    /// `sendOffsetsToTransaction(offsets, groupMetadata)`: the offsets wait to be sent,
    /// with TxnOffsetCommit carrying the group metadata; before TV2, AddOffsetsToTxn to
    /// the transaction coordinator goes first, on every call (KIP-890 part 2 drops it:
    /// the group coordinator adds the partition itself).
    pub fn send_offsets(&mut self, group: ConsumerGroupMetadata, offsets: Vec<OffsetEntry>) {
        self.pending_offsets = Some((group, offsets));
        self.offsets_added = false;
    }

    /// Offsets of `sendOffsetsToTransaction` not yet committed to the group coordinator.
    pub fn has_pending_offsets(&self) -> bool {
        self.pending_offsets.is_some()
    }

    /// The class of the exception kept with the last error (`lastError`).
    pub fn last_exception_name(&self) -> Option<String> {
        let error = self.last_error?;
        Some(match &self.last_exception {
            Some((e, name)) if *e == error => name.clone(),
            _ => error.exception_name(),
        })
    }

    /// An abort whose request failed with an abortable error (EndTxn's
    /// UNKNOWN_PRODUCER_ID, say): `abortableError` fails `abortTransaction()`, and
    /// `transitionToAbortableError` skips a transaction already ABORTING_TRANSACTION
    /// ("Skipping transition to abortable error state since the transaction is already
    /// being aborted"), so it stays there with nothing queued; another
    /// `abortTransaction()` is an invalid transition (TransactionManagerTest
    /// `testAbortableErrorWhileAbortInProgress` asserts the skip). TRANSACTION_ABORTABLE
    /// on an abort's EndTxn is fatal instead (Kafka 4.1, KAFKA-19250).
    fn abort_failed(&self) -> bool {
        self.state == TxnState::AbortingTransaction
            && self.pending.as_ref().is_none_or(|p| p.reported)
    }

    /// Whether a transactional request is due (now or after the backoff).
    pub fn wants_request(&self) -> bool {
        // Partitions still to add (AddPartitionsToTxn, before transaction.version 2)
        // count too: after a lost connection the retry, with its FindCoordinator, is
        // due at `retry_at_ms` whether the world runs or a `flush` drives the client.
        self.pending_offsets.is_some()
            || !self.partitions_to_add().is_empty()
            || (matches!(
                self.state,
                TxnState::Initializing
                    | TxnState::CommittingTransaction
                    | TxnState::AbortingTransaction
            ) && !self.abort_failed())
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

    /// `isSendToPartitionAllowed`: before TV2, only once the partition was added.
    pub fn send_allowed(&self, tp: &TopicPartition) -> bool {
        self.transaction_v2 || self.added_partitions.contains(tp)
    }

    /// Before TV2, in a transaction: the partitions sent to but not added yet.
    fn partitions_to_add(&self) -> Vec<TopicPartition> {
        if self.transaction_v2
            || !matches!(
                self.state,
                TxnState::InTransaction | TxnState::CommittingTransaction
            )
        {
            return Vec::new();
        }
        self.partitions_in_transaction
            .difference(&self.added_partitions)
            .cloned()
            .collect()
    }

    /// The next transactional request to send, if any (`nextRequest`).
    pub fn next_request(
        &mut self,
        now_ms: i64,
        producer_id: i64,
        producer_epoch: i16,
        batches_pending: bool,
    ) -> Option<(Target, Request, TxnRequestKind)> {
        if self.in_flight.is_some() || self.retry_at_ms > now_ms || self.abort_failed() {
            return None;
        }
        let to_add = self.partitions_to_add();
        let needs_coordinator = matches!(
            self.state,
            TxnState::Initializing
                | TxnState::CommittingTransaction
                | TxnState::AbortingTransaction
        ) || self.pending_offsets.is_some()
            || !to_add.is_empty();
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
        if !to_add.is_empty() {
            return Some((
                Target::Broker(coordinator),
                Request::AddPartitionsToTxn {
                    transactional_id: self.transactional_id.clone(),
                    producer_id,
                    producer_epoch,
                    partitions: to_add.clone(),
                    verify_only: false,
                },
                TxnRequestKind::AddPartitionsToTxn { partitions: to_add },
            ));
        }
        if let Some((group, offsets)) = self.pending_offsets.clone() {
            let group_id = group.group_id;
            if !self.transaction_v2 && !self.offsets_added {
                return Some((
                    Target::Broker(coordinator),
                    Request::AddOffsetsToTxn {
                        transactional_id: self.transactional_id.clone(),
                        producer_id,
                        producer_epoch,
                        group_id: group_id.clone(),
                    },
                    TxnRequestKind::AddOffsetsToTxn { group_id },
                ));
            }
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
            // Under TV2 the group coordinator adds the offsets partition to the
            // transaction (before TV2 the start was marked at AddOffsetsToTxn's answer).
            self.transaction_started = true;
            return Some((
                Target::Broker(group_coordinator),
                Request::TxnOffsetCommit {
                    transactional_id: self.transactional_id.clone(),
                    group_id,
                    producer_id,
                    producer_epoch,
                    offsets,
                    generation_id: group.generation_id,
                    member_id: group.member_id,
                    group_instance_id: group.group_instance_id,
                    // `TxnOffsetCommitRequest.Builder`: the latest version under TV2,
                    // else at most 4 (`LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2`).
                    version: Some(if self.transaction_v2 { 5 } else { 4 }),
                },
                TxnRequestKind::TxnOffsetCommit,
            ));
        }
        if let Some((request, kind)) = self.epoch_bump_request(producer_id, producer_epoch) {
            return Some((Target::Broker(coordinator), request, kind));
        }
        match self.state {
            TxnState::Initializing => Some((
                Target::Broker(coordinator),
                Request::InitProducerId {
                    transactional_id: Some(self.transactional_id.clone()),
                    transaction_timeout_ms: self.transaction_timeout_ms,
                    producer_id: -1,
                    producer_epoch: -1,
                },
                TxnRequestKind::InitProducerId { epoch_bump: false },
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
                        version: None,
                    },
                    TxnRequestKind::EndTxn { committed },
                ))
            }
            _ => None,
        }
    }
}

fn end_txn_call(committed: bool) -> &'static str {
    if committed {
        "commitTransaction"
    } else {
        "abortTransaction"
    }
}

#[cfg(test)]
mod tests;
