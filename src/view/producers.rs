//! The transactional producers on the transactions page: their producer id and epoch,
//! the `TransactionManager` state, the partitions in the open transaction, and how the
//! application's last transaction call (`initTransactions`, `commitTransaction`, …)
//! ended — what a learner's code would see.

use crate::client::transaction_manager::{TxnCallError, TxnOutcome, TxnState};
use crate::sim::World;

/// How the last transaction call of a producer ended.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeView {
    /// false: the call failed (the text names the exception).
    pub ok: bool,
    /// e.g. `commitTransaction`, `initTransactions`.
    pub operation: String,
    /// The Java exception the application would catch, when it failed.
    pub exception: Option<String>,
    /// Kafka's error name, when it failed.
    pub error: Option<String>,
    pub producer_id: Option<i64>,
    pub producer_epoch: Option<i16>,
    /// The client refused the call itself (nothing was sent): word it with
    /// `i18n::narration::txn_exception`.
    pub refusal: Option<TxnCallError>,
}

impl OutcomeView {
    /// The call an outcome ends; None for the steps in between (offsets sent, retries).
    fn of(outcome: &TxnOutcome) -> Option<Self> {
        let done = |operation: &str, producer_id: i64, producer_epoch: i16| OutcomeView {
            ok: true,
            operation: operation.to_string(),
            exception: None,
            error: None,
            producer_id: (producer_id >= 0).then_some(producer_id),
            producer_epoch: (producer_epoch >= 0).then_some(producer_epoch),
            refusal: None,
        };
        match outcome {
            TxnOutcome::Initialized {
                producer_id,
                producer_epoch,
            } => Some(done("initTransactions", *producer_id, *producer_epoch)),
            TxnOutcome::Committed {
                producer_id,
                producer_epoch,
            } => Some(done("commitTransaction", *producer_id, *producer_epoch)),
            TxnOutcome::Aborted {
                producer_id,
                producer_epoch,
            } => Some(done("abortTransaction", *producer_id, *producer_epoch)),
            TxnOutcome::EndedKeepingEpoch {
                committed,
                producer_id,
                producer_epoch,
            }
            | TxnOutcome::EndedWithoutEndTxn {
                committed,
                producer_id,
                producer_epoch,
            } => Some(done(
                if *committed {
                    "commitTransaction"
                } else {
                    "abortTransaction"
                },
                *producer_id,
                *producer_epoch,
            )),
            TxnOutcome::Failed {
                operation,
                error,
                exception,
            } => Some(OutcomeView {
                ok: false,
                operation: operation.clone(),
                exception: Some(exception.clone()),
                error: Some(error.name().to_string()),
                producer_id: None,
                producer_epoch: None,
                refusal: None,
            }),
            TxnOutcome::Refused { call, error } => Some(OutcomeView {
                ok: false,
                operation: call.name().to_string(),
                exception: Some(error.exception_class().to_string()),
                error: error.cause().map(|e| e.name().to_string()),
                producer_id: None,
                producer_epoch: None,
                refusal: Some(error.clone()),
            }),
            TxnOutcome::OffsetsSent { .. }
            | TxnOutcome::Retrying { .. }
            | TxnOutcome::Resumed { .. } => None,
        }
    }
}

/// A transactional producer.
#[derive(Clone, Debug, PartialEq)]
pub struct ProducerView {
    pub name: String,
    pub transactional_id: String,
    /// (producerId, epoch) once it has one.
    pub id: Option<(i64, i16)>,
    /// `TransactionManager` state, e.g. `IN_TRANSACTION`.
    pub state: &'static str,
    pub in_transaction: bool,
    pub last_error: Option<String>,
    pub partitions: Vec<String>,
    pub outcome: Option<OutcomeView>,
    /// Batches in the accumulator or in flight.
    pub pending: usize,
    /// The coordinator's epoch for this transactional.id, when it is above the
    /// producer's own: a newer instance fenced it, and it does not know yet (it learns
    /// at its next request, as Kafka's client does).
    pub fenced_by_epoch: Option<i16>,
}

/// Every producer with a `transactional.id`, by name.
pub fn producers(world: &World) -> Vec<ProducerView> {
    world
        .transactional_producers()
        .map(|(name, p, txn)| ProducerView {
            name: name.to_string(),
            transactional_id: txn.transactional_id().to_string(),
            id: (p.producer_id() >= 0).then_some((p.producer_id(), p.producer_epoch())),
            state: txn.state().name(),
            in_transaction: txn.state() == TxnState::InTransaction,
            last_error: txn.last_error().map(|e| e.exception_name()),
            partitions: txn
                .partitions_in_transaction()
                .iter()
                .map(|tp| tp.to_string())
                .collect(),
            outcome: p.last_txn_outcome().and_then(OutcomeView::of),
            pending: p.pending_batches(),
            fenced_by_epoch: world
                .coordinated_transactions()
                .iter()
                .filter(|c| c.metadata.transactional_id() == txn.transactional_id())
                .filter(|c| c.metadata.producer_id() == p.producer_id())
                .map(|c| c.metadata.producer_epoch())
                .max()
                .filter(|e| {
                    p.producer_id() >= 0
                        && *e > p.producer_epoch()
                        && txn.state() != TxnState::FatalError
                }),
        })
        .collect()
}
