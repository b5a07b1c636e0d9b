//! The transaction coordinator of one broker, as a sans-IO state machine.
//!
//! Every request handler takes the current logical time and a [`TxnLogWriter`]
//! (the broker's `__transaction_state` partitions and producer-id block) and
//! returns the response plus [`CoordinatorOutput`]s: markers to send and events
//! that narrate what happened. Kafka's asynchronous "append, then in the callback
//! complete the transition" becomes "append; if `Ok`, complete" here, so memory
//! still changes only after the record is in the log.

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

use serde::Serialize;

use super::log_format::{
    decode_key, decode_value, key_to_bytes, value_json, value_to_bytes, TransactionLogValue,
};
use super::metadata::{
    InternalError, TransactionMetadata, TransactionVersion, TransitionError, TxnTransitMetadata,
};
use super::state::TransactionState;
use super::version;
use super::{TransactionConfig, TRANSACTIONAL_ID_NOT_FOUND, TRANSACTION_ABORTABLE};
use crate::coordinator::internal_topics::partition_for;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::record::{NO_PRODUCER_EPOCH, NO_PRODUCER_ID};
use crate::util::ordered::CollectSorted;

mod completion;
mod expiration;
mod handlers;
mod loading;
mod timeouts;

/// What the coordinator needs from its broker.
/// `append` writes one record to `__transaction_state-{partition}` on this broker
/// (`Err`, e.g. `Errors::NotCoordinator`, when it cannot).
pub trait TxnLogWriter: crate::coordinator::internal_topics::InternalLogWriter {
    /// A fresh producer id from the broker's block (`Err(COORDINATOR_LOAD_IN_PROGRESS)`
    /// while a block is fetched).
    fn generate_producer_id(&mut self) -> Result<i64, Errors>;
}

/// Commit or abort (Kafka's `TransactionResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TxnResult {
    Commit,
    Abort,
}

impl TxnResult {
    /// `COMMIT` / `ABORT`, as kafka-dump-log prints `endTxnMarker`.
    pub fn name(self) -> &'static str {
        match self {
            TxnResult::Commit => "COMMIT",
            TxnResult::Abort => "ABORT",
        }
    }

    fn prepare_state(self) -> TransactionState {
        match self {
            TxnResult::Commit => TransactionState::PrepareCommit,
            TxnResult::Abort => TransactionState::PrepareAbort,
        }
    }
}

/// What the coordinator asks the broker to do or tells the learner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum CoordinatorOutput {
    /// Send WriteTxnMarkers for these partitions (the broker groups them by leader);
    /// marker epoch = the Prepare* epoch. Answer with
    /// [`TransactionCoordinator::handle_markers_written`].
    SendMarkers {
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        result: TxnResult,
        coordinator_epoch: i32,
        partitions: Vec<TopicPartition>,
        /// The transaction's `clientTransactionVersion`: the leader checks the
        /// marker's epoch by it (KIP-1228).
        transaction_version: TransactionVersion,
    },
    Event(CoordinatorEvent),
}

/// What happened inside the coordinator, for the event list and the tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum CoordinatorEvent {
    /// EndTxn from a client with an epoch the version's rule refuses
    /// (`version::v1_valid_epoch` / `v2_valid_epoch`): answered PRODUCER_FENCED.
    EndTxnEpochFenced {
        transactional_id: String,
        epoch: i16,
        current_epoch: i16,
        state: TransactionState,
        transaction_v2: bool,
    },
    /// `transactional.id.expiration.ms` passed without a transaction: the id went to
    /// Dead, its tombstone was written and the coordinator forgot it (the next
    /// InitProducerId gets a new producer id).
    TransactionalIdExpired {
        transactional_id: String,
        producer_id: i64,
        partition: i32,
        expiration_ms: i64,
    },
    /// A record was written to `__transaction_state` and memory followed it.
    StateChanged {
        transactional_id: String,
        partition: i32,
        from: TransactionState,
        to: TransactionState,
        producer_id: i64,
        producer_epoch: i16,
        /// [`value_json`] of the record written.
        record_json: String,
    },
    /// InitProducerId found the transaction `Ongoing`: the old producer is fenced
    /// and its transaction aborted by the coordinator (`prepareFenceProducerEpoch`).
    Fenced {
        transactional_id: String,
        producer_id: i64,
        old_epoch: i16,
        fence_epoch: i16,
    },
    /// A transaction was `Ongoing` longer than its timeout and is being aborted.
    TimedOut {
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        txn_start_timestamp: i64,
        txn_timeout_ms: i32,
    },
    /// A `__transaction_state` partition was loaded from its records.
    Loaded {
        partition: i32,
        coordinator_epoch: i32,
        transactions: usize,
        /// Transactions found in Prepare*, whose markers are sent again.
        pending_completions: usize,
        /// Records that could not be decoded and were skipped.
        skipped_records: usize,
    },
    /// A partition was given up; its transactions are forgotten.
    Unloaded { partition: i32, transactions: usize },
    /// A request was answered with an error.
    Rejected {
        transactional_id: String,
        api: &'static str,
        error: Errors,
    },
    /// Writing a record failed; memory is unchanged.
    AppendFailed {
        transactional_id: String,
        target: TransactionState,
        error: Errors,
    },
    /// A partition answered the marker with a non-retriable error; the coordinator
    /// stops sending this transaction's markers (until the partition is reloaded).
    MarkersAbandoned {
        transactional_id: String,
        partition: TopicPartition,
        error: Errors,
    },
    /// A rule Kafka treats as "this should not happen" fired (an
    /// `IllegalStateException` there); the request failed instead.
    InternalError {
        transactional_id: String,
        detail: InternalError,
    },
}

/// Response of InitProducerId (Kafka's `InitProducerIdResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct InitProducerIdResult {
    pub error: Errors,
    pub producer_id: i64,
    pub producer_epoch: i16,
}

/// Response of EndTxn v5+ (TV2 returns the producer id and the new epoch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EndTxnResult {
    pub error: Errors,
    pub producer_id: i64,
    pub producer_epoch: i16,
}

fn ok_result(error: Errors, producer_id: i64, producer_epoch: i16) -> EndTxnResult {
    EndTxnResult {
        error,
        producer_id,
        producer_epoch,
    }
}

fn err_result(error: Errors) -> EndTxnResult {
    ok_result(error, NO_PRODUCER_ID, NO_PRODUCER_EPOCH)
}

/// One DescribeTransactions row (`DescribeTransactionsResponseData.TransactionState`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransactionDescription {
    pub transactional_id: String,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub state: TransactionState,
    pub transaction_timeout_ms: i32,
    pub transaction_start_time_ms: i64,
    pub topic_partitions: Vec<TopicPartition>,
}

/// One ListTransactions row (`ListTransactionsResponseData.TransactionState`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TransactionListing {
    pub transactional_id: String,
    pub producer_id: i64,
    pub state: TransactionState,
}

/// Markers sent for a transaction in Prepare*, and the Complete* record to write
/// once they are all acknowledged (Kafka's `PendingCompleteTxn`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct PendingCompletion {
    coordinator_epoch: i32,
    result: TxnResult,
    complete: TxnTransitMetadata,
    abandoned: bool,
}

/// The transaction coordinator of one broker (Kafka's `TransactionCoordinator`,
/// with the cache of `TransactionStateManager` and the completion bookkeeping of
/// `TransactionMarkerChannelManager`).
///
/// Serves transaction.version 0, 1 and 2 (what differs sits in `version.rs`), and
/// expires idle transactional ids to `Dead` (`transaction_coordinator/expiration.rs`).
/// AddOffsetsToTxn reaches it as AddPartitionsToTxn of the group's offsets partition
/// (the broker picks the partition, as `KafkaApis` does). Simplified: log writes are synchronous (on a replicated
/// partition the broker holds the answer until the HW passes the record); no 2PC
/// (KIP-939); markers are an output, their grouping by leader and retries are the
/// broker's job.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TransactionCoordinator {
    config: TransactionConfig,
    /// Owned `__transaction_state` partitions → coordinator epoch.
    owned: SortedMap<i32, i32>,
    transactions: SortedMap<String, TransactionMetadata>,
    pending: SortedMap<String, PendingCompletion>,
}

type Out = Vec<CoordinatorOutput>;

fn event(out: &mut Out, e: CoordinatorEvent) {
    out.push(CoordinatorOutput::Event(e));
}

/// `appendTransactionToLog`'s translation of produce errors for the client (Kafka 4.0,
/// TransactionStateManager): a record above `__transaction_state`'s
/// `max.message.bytes` (the broker default) is UNKNOWN_SERVER_ERROR; a write the ISR
/// cannot take (below `transaction.state.log.min.isr`) is COORDINATOR_NOT_AVAILABLE,
/// so the client retries; a replica that no longer leads is NOT_COORDINATOR.
fn map_append_error(e: Errors) -> Errors {
    match e {
        Errors::UnknownTopicOrPartition
        | Errors::NotEnoughReplicas
        | Errors::NotEnoughReplicasAfterAppend
        | Errors::RequestTimedOut => Errors::CoordinatorNotAvailable,
        Errors::NotLeaderOrFollower => Errors::NotCoordinator,
        Errors::MessageTooLarge | Errors::RecordListTooLarge => Errors::UnknownServerError,
        other => other,
    }
}

impl TransactionCoordinator {
    /// A coordinator that owns no partition yet; call [`Self::load_partition`] for
    /// each `__transaction_state` partition this broker leads.
    pub fn new(config: TransactionConfig) -> Self {
        TransactionCoordinator {
            config,
            ..Default::default()
        }
    }

    /// A coordinator owning every partition at coordinator epoch 0 (a one-broker
    /// cluster whose `__transaction_state` is empty).
    pub fn owning_all(config: TransactionConfig) -> Self {
        let owned = (0..config.num_partitions.max(0))
            .map(|p| (p, 0))
            .collect_map();
        TransactionCoordinator {
            config,
            owned,
            ..Default::default()
        }
    }

    pub fn config(&self) -> &TransactionConfig {
        &self.config
    }

    /// NOT KAFKA: the "break it" switches changed.
    pub fn set_breaks(&mut self, breaks: crate::breaks::Breaks) {
        self.config.breaks = breaks;
    }

    /// `partitionFor` with this coordinator's partition count.
    pub fn partition_for(&self, transactional_id: &str) -> i32 {
        partition_for(transactional_id, self.config.num_partitions)
    }

    /// Owned partitions and their coordinator epochs.
    pub fn owned_partitions(&self) -> &SortedMap<i32, i32> {
        &self.owned
    }

    /// Read access to a transactional id's metadata.
    pub fn metadata(&self, transactional_id: &str) -> Option<&TransactionMetadata> {
        self.transactions.get(transactional_id)
    }

    /// Every cached transactional id, sorted.
    pub fn transactions(&self) -> impl Iterator<Item = &TransactionMetadata> {
        self.transactions.values()
    }

    /// Whether the transaction's Complete* record is waiting for markers.
    pub fn has_pending_markers(&self, transactional_id: &str) -> bool {
        self.pending.contains_key(transactional_id)
    }

    /// `getTransactionState`'s checks: the id is ours to serve (NOT_COORDINATOR
    /// otherwise); answers the coordinator epoch of its partition.
    fn check_owner(&self, transactional_id: &str) -> Result<i32, Errors> {
        let partition = self.partition_for(transactional_id);
        self.owned
            .get(&partition)
            .copied()
            .ok_or(Errors::NotCoordinator)
    }

    /// `getTransactionState`: the coordinator epoch and the cached metadata of an id
    /// this coordinator owns (`None` when it does not know the id). The one lookup
    /// every request handler starts with.
    pub(super) fn owned_metadata(
        &self,
        transactional_id: &str,
    ) -> Result<(i32, Option<&TransactionMetadata>), Errors> {
        let coordinator_epoch = self.check_owner(transactional_id)?;
        Ok((coordinator_epoch, self.transactions.get(transactional_id)))
    }

    /// [`Self::owned_metadata`] for a handler that goes on to change the metadata.
    pub(super) fn owned_metadata_mut(
        &mut self,
        transactional_id: &str,
    ) -> Result<(i32, Option<&mut TransactionMetadata>), Errors> {
        let coordinator_epoch = self.check_owner(transactional_id)?;
        Ok((
            coordinator_epoch,
            self.transactions.get_mut(transactional_id),
        ))
    }

    /// The version clients speak. Simplified: Kafka reads it from the request
    /// version (EndTxn v5+, AddPartitionsToTxn from a broker = TV2); every client here
    /// negotiates the cluster's finalized level, so the coordinator takes that.
    /// The transaction version a client of this cluster negotiates.
    pub fn client_version(&self) -> TransactionVersion {
        self.config.transaction_version.client_version()
    }

    fn log_value_version(&self) -> i16 {
        self.config
            .transaction_version
            .transaction_log_value_version()
    }

    /// Writes `transit` and, if the log took it, completes the transition. On a
    /// failed write the pending state is cleared unless `keep_pending` (the
    /// completion path retries the same record later).
    fn write_transit(
        &mut self,
        transactional_id: &str,
        transit: &TxnTransitMetadata,
        keep_pending: bool,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> Result<(), Errors> {
        let partition = self.partition_for(transactional_id);
        let value = TransactionLogValue::from_transit(transit, self.log_value_version());
        let appended = log.append(
            partition,
            key_to_bytes(transactional_id),
            Some(value_to_bytes(&value)),
            now,
        );
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return Err(Errors::NotCoordinator);
        };
        if let Err(e) = appended {
            if !keep_pending {
                meta.clear_pending();
            }
            let error = map_append_error(e);
            event(
                out,
                CoordinatorEvent::AppendFailed {
                    transactional_id: transactional_id.to_string(),
                    target: transit.txn_state,
                    error,
                },
            );
            return Err(error);
        }
        let from = meta.state();
        if let Err(e) = meta.complete_transition_to(transit) {
            meta.clear_pending();
            let error = e.to_errors();
            event(
                out,
                CoordinatorEvent::InternalError {
                    transactional_id: transactional_id.to_string(),
                    detail: InternalError::Transition(e.clone()),
                },
            );
            return Err(error);
        }
        event(
            out,
            CoordinatorEvent::StateChanged {
                transactional_id: transactional_id.to_string(),
                partition,
                from,
                to: transit.txn_state,
                producer_id: transit.producer_id,
                producer_epoch: transit.producer_epoch,
                record_json: value_json(&value),
            },
        );
        Ok(())
    }

    fn reject(out: &mut Out, transactional_id: &str, api: &'static str, error: Errors) {
        event(
            out,
            CoordinatorEvent::Rejected {
                transactional_id: transactional_id.to_string(),
                api,
                error,
            },
        );
    }

    // ------------------------------------------------------------ InitProducerId

    /// DescribeTransactions (`handleDescribeTransactions`).
    pub fn describe(&self, transactional_id: &str) -> Result<TransactionDescription, Errors> {
        if transactional_id.is_empty() {
            return Err(Errors::InvalidRequest);
        }
        let meta = self
            .owned_metadata(transactional_id)?
            .1
            .filter(|m| m.state() != TransactionState::Dead)
            .ok_or(TRANSACTIONAL_ID_NOT_FOUND)?;
        Ok(TransactionDescription {
            transactional_id: transactional_id.to_string(),
            producer_id: meta.producer_id(),
            producer_epoch: meta.producer_epoch(),
            state: meta.state(),
            transaction_timeout_ms: meta.txn_timeout_ms(),
            transaction_start_time_ms: meta.txn_start_timestamp(),
            topic_partitions: meta.topic_partitions().iter().cloned().collect(),
        })
    }

    /// ListTransactions (`listTransactionStates` without filters), sorted by id.
    pub fn list(&self) -> Vec<TransactionListing> {
        self.list_filtered(&[], &[], -1, 0).0
    }

    /// `TransactionStateManager.listTransactionStates` (Kafka 4.0): `Dead` never
    /// shows; a non-empty producer-id or state filter keeps only the matches (a
    /// state name Kafka does not know matches nothing and is answered back as an
    /// unknown filter); a duration filter of 0 or more keeps the transactions whose
    /// start (`txnStartTimestamp`, -1 before any) is more than that many ms ago.
    pub fn list_filtered(
        &self,
        state_names: &[String],
        producer_ids: &[i64],
        duration_filter_ms: i64,
        now_ms: i64,
    ) -> (Vec<TransactionListing>, Vec<String>) {
        // The request's filters are sets: an unknown name is answered back once.
        let mut unknown: Vec<String> = Vec::new();
        for n in state_names {
            if TransactionState::from_name(n).is_none() && !unknown.contains(n) {
                unknown.push(n.clone());
            }
        }
        let listed = self
            .transactions
            .values()
            .filter(|m| m.state() != TransactionState::Dead)
            .filter(|m| producer_ids.is_empty() || producer_ids.contains(&m.producer_id()))
            .filter(|m| {
                state_names.is_empty()
                    || state_names
                        .iter()
                        .any(|n| TransactionState::from_name(n) == Some(m.state()))
            })
            .filter(|m| {
                duration_filter_ms < 0
                    || now_ms.saturating_sub(m.txn_start_timestamp()) > duration_filter_ms
            })
            .map(|m| TransactionListing {
                transactional_id: m.transactional_id().to_string(),
                producer_id: m.producer_id(),
                state: m.state(),
            })
            .collect();
        (listed, unknown)
    }
}
