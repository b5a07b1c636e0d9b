//! The transaction coordinator of one broker, as a sans-IO state machine.
//!
//! Every request handler takes the current logical time and a [`TxnLogWriter`]
//! (the broker's `__transaction_state` partitions and producer-id block) and
//! returns the response plus [`CoordinatorOutput`]s: markers to send and events
//! that narrate what happened. Kafka's asynchronous "append, then in the callback
//! complete the transition" becomes "append; if `Ok`, complete" here, so memory
//! still changes only after the record is in the log.

use std::collections::{BTreeMap, BTreeSet};

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
/// Simplified: transaction.version 2 clients only (no TV1 EndTxn path, no
/// AddOffsetsToTxn); log writes are synchronous; no transactional-id expiration
/// (`Dead` is never reached); no 2PC (KIP-939); markers are an output, their
/// grouping by leader and retries are the broker's job.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TransactionCoordinator {
    config: TransactionConfig,
    /// Owned `__transaction_state` partitions → coordinator epoch.
    owned: BTreeMap<i32, i32>,
    transactions: BTreeMap<String, TransactionMetadata>,
    pending: BTreeMap<String, PendingCompletion>,
}

type Out = Vec<CoordinatorOutput>;

fn event(out: &mut Out, e: CoordinatorEvent) {
    out.push(CoordinatorOutput::Event(e));
}

/// `appendTransactionToLog`'s translation of produce errors for the client.
fn map_append_error(e: Errors) -> Errors {
    match e {
        Errors::UnknownTopicOrPartition | Errors::RequestTimedOut => {
            Errors::CoordinatorNotAvailable
        }
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

    /// `partitionFor` with this coordinator's partition count.
    pub fn partition_for(&self, transactional_id: &str) -> i32 {
        partition_for(transactional_id, self.config.num_partitions)
    }

    /// Owned partitions and their coordinator epochs.
    pub fn owned_partitions(&self) -> &BTreeMap<i32, i32> {
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

    /// `getTransactionState`'s checks: the id is ours to serve.
    fn check_owner(&self, transactional_id: &str) -> Result<i32, Errors> {
        let partition = self.partition_for(transactional_id);
        self.owned
            .get(&partition)
            .copied()
            .ok_or(Errors::NotCoordinator)
    }

    /// The version clients speak. Simplified: Kafka reads it from the request
    /// version (EndTxn v5+, AddPartitionsToTxn from a broker = TV2); every client here
    /// negotiates the cluster's finalized level, so the coordinator takes that.
    fn client_version(&self) -> TransactionVersion {
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

    /// InitProducerId for a transactional producer (no KIP-360 expected epoch).
    pub fn handle_init_producer_id(
        &mut self,
        transactional_id: &str,
        txn_timeout_ms: i32,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> (InitProducerIdResult, Out) {
        self.handle_init_producer_id_with_expected(transactional_id, txn_timeout_ms, None, now, log)
    }

    /// `handleInitProducerId`: a new id gets a producer id and epoch 0; a known one
    /// gets its epoch bumped (fencing any older producer); an `Ongoing`
    /// transaction is aborted first and the caller told CONCURRENT_TRANSACTIONS.
    /// `expected` is the (producer id, epoch) of InitProducerId v3+ (KIP-360).
    pub fn handle_init_producer_id_with_expected(
        &mut self,
        transactional_id: &str,
        txn_timeout_ms: i32,
        expected: Option<(i64, i16)>,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> (InitProducerIdResult, Out) {
        let mut out = Vec::new();
        let result = self.init_producer_id(
            transactional_id,
            txn_timeout_ms,
            expected,
            now,
            log,
            &mut out,
        );
        let result = match result {
            Ok((producer_id, producer_epoch)) => InitProducerIdResult {
                error: Errors::None,
                producer_id,
                producer_epoch,
            },
            Err(error) => {
                Self::reject(&mut out, transactional_id, "InitProducerId", error);
                InitProducerIdResult {
                    error,
                    producer_id: NO_PRODUCER_ID,
                    producer_epoch: NO_PRODUCER_EPOCH,
                }
            }
        };
        (result, out)
    }

    fn init_producer_id(
        &mut self,
        transactional_id: &str,
        txn_timeout_ms: i32,
        expected: Option<(i64, i16)>,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> Result<(i64, i16), Errors> {
        if transactional_id.is_empty() {
            return Err(Errors::InvalidRequest);
        }
        if txn_timeout_ms <= 0 || txn_timeout_ms > self.config.max_txn_timeout_ms {
            return Err(Errors::InvalidTransactionTimeout);
        }
        self.check_owner(transactional_id)?;
        if !self.transactions.contains_key(transactional_id) {
            // Kafka caches the new metadata before writing anything; a failed write
            // leaves it there with epoch -1 and the retry bumps it to 0.
            let producer_id = log.generate_producer_id()?;
            self.transactions.insert(
                transactional_id.to_string(),
                TransactionMetadata::new(transactional_id, producer_id, txn_timeout_ms, now),
            );
        }
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return Err(Errors::NotCoordinator);
        };
        if meta.pending_transition_in_progress() {
            return Err(Errors::ConcurrentTransactions);
        }
        if let Some((expected_id, expected_epoch)) = expected {
            let valid = meta.producer_epoch() == NO_PRODUCER_EPOCH
                || expected_id == meta.producer_id()
                || (expected_id == meta.previous_producer_id()
                    && TransactionMetadata::is_epoch_exhausted(expected_epoch));
            if !valid {
                return Err(Errors::ProducerFenced);
            }
        }
        let transit = match meta.state() {
            TransactionState::PrepareAbort | TransactionState::PrepareCommit => {
                return Err(Errors::ConcurrentTransactions)
            }
            TransactionState::Empty
            | TransactionState::CompleteAbort
            | TransactionState::CompleteCommit => {
                let rotate = meta.is_producer_epoch_exhausted()
                    && expected.is_none_or(|(_, e)| e == meta.producer_epoch());
                let prepared = if rotate {
                    let new_id = log.generate_producer_id()?;
                    meta.prepare_producer_id_rotation(
                        new_id,
                        txn_timeout_ms,
                        now,
                        expected.is_some(),
                    )
                } else {
                    meta.prepare_increment_producer_epoch(
                        txn_timeout_ms,
                        expected.map(|(_, e)| e),
                        now,
                    )
                };
                prepared.map_err(|e| e.to_errors())?
            }
            TransactionState::Ongoing => {
                // Fence: bump the epoch so the old producer's requests fail, abort its
                // transaction ourselves, and make the new producer retry until the
                // abort completes (its retry then bumps the epoch once more).
                let old_epoch = meta.producer_epoch();
                let fence = meta
                    .prepare_fence_producer_epoch()
                    .map_err(|e| e.to_errors())?;
                event(
                    out,
                    CoordinatorEvent::Fenced {
                        transactional_id: transactional_id.to_string(),
                        producer_id: fence.producer_id,
                        old_epoch,
                        fence_epoch: fence.producer_epoch,
                    },
                );
                let r = self.abort_fenced(transactional_id, &fence, now, log, out);
                return Err(if r.error == Errors::None {
                    Errors::ConcurrentTransactions
                } else {
                    r.error
                });
            }
            TransactionState::Dead | TransactionState::PrepareEpochFence => {
                let state = meta.state();
                return Err(Self::internal_error(
                    transactional_id,
                    InternalError::StateNeverCurrent(state),
                    out,
                ));
            }
        };
        self.write_transit(transactional_id, &transit, false, now, log, out)?;
        Ok((transit.producer_id, transit.producer_epoch))
    }

    fn internal_error(transactional_id: &str, detail: InternalError, out: &mut Out) -> Errors {
        event(
            out,
            CoordinatorEvent::InternalError {
                transactional_id: transactional_id.to_string(),
                detail,
            },
        );
        Errors::InvalidTxnState
    }

    // ------------------------------------------------------------ AddPartitionsToTxn

    /// AddPartitionsToTxn, as the partition leader sends it for a TV2 producer
    /// (`handleAddPartitionsToTransaction`), or with `verify_only` the older
    /// "is this partition already in the transaction?" check
    /// (`handleVerifyPartitionsInTransaction`). Every partition gets an error.
    #[allow(clippy::too_many_arguments)]
    pub fn handle_add_partitions(
        &mut self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        partitions: Vec<TopicPartition>,
        verify_only: bool,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> (Vec<(TopicPartition, Errors)>, Out) {
        let mut out = Vec::new();
        let wanted = partitions.into_iter().collect_set();
        let per_partition = if verify_only {
            self.verify_partitions(transactional_id, producer_id, producer_epoch, &wanted)
        } else {
            self.add_partitions(
                transactional_id,
                producer_id,
                producer_epoch,
                &wanted,
                now,
                log,
                &mut out,
            )
            .map(|()| wanted.iter().map(|tp| (tp.clone(), Errors::None)).collect())
        };
        let result = match per_partition {
            Ok(list) => list,
            Err(error) => {
                Self::reject(&mut out, transactional_id, "AddPartitionsToTxn", error);
                wanted.iter().map(|tp| (tp.clone(), error)).collect()
            }
        };
        (result, out)
    }

    /// The checks every per-producer request starts with: a known id that this
    /// coordinator owns, the same producer id, the current epoch.
    fn check_producer(
        &self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
    ) -> Result<&TransactionMetadata, Errors> {
        if transactional_id.is_empty() {
            return Err(Errors::InvalidRequest);
        }
        self.check_owner(transactional_id)?;
        let meta = self
            .transactions
            .get(transactional_id)
            .ok_or(Errors::InvalidProducerIdMapping)?;
        if meta.producer_id() != producer_id {
            return Err(Errors::InvalidProducerIdMapping);
        }
        if meta.producer_epoch() != producer_epoch {
            return Err(Errors::ProducerFenced);
        }
        Ok(meta)
    }

    #[allow(clippy::too_many_arguments)]
    fn add_partitions(
        &mut self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        wanted: &BTreeSet<TopicPartition>,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> Result<(), Errors> {
        self.check_producer(transactional_id, producer_id, producer_epoch)?;
        let client_version = self.client_version();
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return Err(Errors::InvalidProducerIdMapping);
        };
        if meta.pending_transition_in_progress() || meta.state().is_prepare() {
            return Err(Errors::ConcurrentTransactions);
        }
        if wanted.is_empty()
            || (meta.state() == TransactionState::Ongoing
                && wanted.is_subset(meta.topic_partitions()))
        {
            // Already in the transaction: answer at once, nothing to write.
            return Ok(());
        }
        let transit = meta
            .prepare_add_partitions(wanted, now, client_version)
            .map_err(|e| e.to_errors())?;
        self.write_transit(transactional_id, &transit, false, now, log, out)
    }

    fn verify_partitions(
        &self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        wanted: &BTreeSet<TopicPartition>,
    ) -> Result<Vec<(TopicPartition, Errors)>, Errors> {
        let meta = self.check_producer(transactional_id, producer_id, producer_epoch)?;
        if meta.state().is_prepare() {
            return Err(Errors::ConcurrentTransactions);
        }
        Ok(wanted
            .iter()
            .map(|tp| {
                let e = if meta.topic_partitions().contains(tp) {
                    Errors::None
                } else {
                    TRANSACTION_ABORTABLE
                };
                (tp.clone(), e)
            })
            .collect())
    }

    // ------------------------------------------------------------ EndTxn

    /// EndTxn from a client (`handleEndTransaction`): writes Prepare* (TV2: with the
    /// epoch bumped), answers at once with the epoch, and asks for markers.
    #[allow(clippy::too_many_arguments)]
    pub fn handle_end_txn(
        &mut self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        commit: bool,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> (EndTxnResult, Out) {
        let mut out = Vec::new();
        let result = if commit {
            TxnResult::Commit
        } else {
            TxnResult::Abort
        };
        let r = self.end_transaction(
            transactional_id,
            producer_id,
            producer_epoch,
            result,
            true,
            self.client_version(),
            now,
            log,
            &mut out,
        );
        if r.error != Errors::None {
            Self::reject(&mut out, transactional_id, "EndTxn", r.error);
        }
        (r, out)
    }

    /// Kafka's TV2 `endTransaction`, shared by EndTxn, the fence in InitProducerId
    /// (`from_client = false`) and the timeout abort.
    ///
    /// Retries, where `producer_epoch` is one less than the stored epoch (TV2 bumped
    /// it), for Empty/Complete* (PF = PRODUCER_FENCED, ITS = INVALID_TXN_STATE,
    /// EB = a new empty transaction with an epoch bump):
    ///
    /// | state | abort retry | abort current | commit retry | commit current |
    /// |---|---|---|---|---|
    /// | Empty | PF | EB | PF | EB |
    /// | CompleteAbort | NONE | EB | ITS | EB |
    /// | CompleteCommit | ITS | EB | NONE | EB |
    ///
    /// (An empty *commit* bumping the epoch is the trunk behaviour the seed
    /// describes — `PREPARE_COMMIT` may follow Empty/Complete*; 4.4.0 answered ITS.)
    #[allow(clippy::too_many_arguments)]
    fn end_transaction(
        &mut self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        result: TxnResult,
        from_client: bool,
        tv: TransactionVersion,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> EndTxnResult {
        if transactional_id.is_empty() {
            return err_result(Errors::InvalidRequest);
        }
        let coordinator_epoch = match self.check_owner(transactional_id) {
            Ok(e) => e,
            Err(e) => return err_result(e),
        };
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return err_result(Errors::InvalidProducerIdMapping);
        };
        let current_id = meta.producer_id();
        let current_epoch = meta.producer_epoch();
        let is_epoch_fence = meta.pending_state() == Some(TransactionState::PrepareEpochFence);
        // The client retried an EndTxn that overflowed the epoch; the new id is stored.
        let retry_on_overflow = !is_epoch_fence
            && meta.previous_producer_id() == producer_id
            && producer_epoch == i16::MAX - 1
            && meta.producer_epoch() == 0;
        // The client retried an EndTxn whose bumped epoch is stored.
        let retry_on_epoch_bump =
            !is_epoch_fence && i32::from(meta.producer_epoch()) == i32::from(producer_epoch) + 1;
        // Before TV2 the epoch never moves at EndTxn: a Complete* state with the same
        // epoch and result is the retry.
        let v1 = is_epoch_fence || !tv.supports_epoch_bump();
        let is_valid_epoch = if v1 {
            version::v1_valid_epoch(from_client, producer_epoch, meta.producer_epoch())
        } else {
            version::v2_valid_epoch(
                meta.state(),
                producer_epoch,
                meta.producer_epoch(),
                retry_on_epoch_bump,
                retry_on_overflow,
            )
        };
        let is_retry = if v1 && !is_epoch_fence {
            matches!(
                meta.state(),
                TransactionState::CompleteCommit | TransactionState::CompleteAbort
            )
        } else {
            retry_on_epoch_bump || retry_on_overflow
        };

        if meta.producer_id() != producer_id && !retry_on_overflow {
            return err_result(Errors::InvalidProducerIdMapping);
        }
        if meta.pending_transition_in_progress() && !is_epoch_fence {
            return err_result(Errors::ConcurrentTransactions);
        }
        if !is_valid_epoch {
            if from_client {
                event(
                    out,
                    CoordinatorEvent::EndTxnEpochFenced {
                        transactional_id: transactional_id.to_string(),
                        epoch: producer_epoch,
                        current_epoch,
                        state: meta.state(),
                        transaction_v2: !v1,
                    },
                );
            }
            return err_result(Errors::ProducerFenced);
        }

        use TransactionState as S;
        // (next state, no partition added) or an immediate answer.
        let next: Result<(TransactionState, bool), Errors> = match (meta.state(), result) {
            (S::Ongoing, r) => Ok((r.prepare_state(), false)),
            (S::CompleteCommit, TxnResult::Commit) | (S::CompleteAbort, TxnResult::Abort)
                if is_retry =>
            {
                return ok_result(Errors::None, current_id, current_epoch);
            }
            (S::CompleteCommit, TxnResult::Abort) | (S::CompleteAbort, TxnResult::Commit)
                if is_retry =>
            {
                Err(Errors::InvalidTxnState)
            }
            // Before TV2 only an Ongoing transaction can end: no empty transactions.
            (S::CompleteCommit | S::CompleteAbort | S::Empty, _) if v1 => {
                Err(Errors::InvalidTxnState)
            }
            (S::CompleteCommit | S::CompleteAbort | S::Empty, r) => Ok((r.prepare_state(), true)),
            (S::PrepareCommit, TxnResult::Commit) | (S::PrepareAbort, TxnResult::Abort) => {
                Err(Errors::ConcurrentTransactions)
            }
            (S::PrepareCommit, TxnResult::Abort) | (S::PrepareAbort, TxnResult::Commit) => {
                Err(Errors::InvalidTxnState)
            }
            (S::Dead | S::PrepareEpochFence, _) => {
                let state = meta.state();
                let e = Self::internal_error(
                    transactional_id,
                    InternalError::StateNeverCurrent(state),
                    out,
                );
                return err_result(e);
            }
        };
        let (next_state, no_partition_added) = match next {
            Ok(n) => n,
            Err(e) => return err_result(e),
        };

        if is_epoch_fence {
            // Make way for PrepareAbort. Since KAFKA-19367 the fence epoch is not put
            // into memory: prepare_abort_or_commit bumps once, so the epoch goes up by
            // one in total, not two.
            meta.clear_pending();
        }
        // An exhausted epoch moves to a new producer id at Complete* (KAFKA-20090:
        // also on the fence path).
        let next_producer_id = if meta.is_producer_epoch_exhausted() {
            match log.generate_producer_id() {
                Ok(id) => id,
                Err(e) => return err_result(e),
            }
        } else {
            NO_PRODUCER_ID
        };
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return err_result(Errors::NotCoordinator);
        };
        let transit = match meta.prepare_abort_or_commit(
            next_state,
            tv,
            next_producer_id,
            now,
            no_partition_added,
        ) {
            Ok(t) => t,
            Err(e) => return err_result(Self::transition_failed(transactional_id, &e, out)),
        };
        if let Err(e) = self.write_transit(transactional_id, &transit, false, now, log, out) {
            return err_result(e);
        }

        // The Prepare* record is durable: prepare the completion and send markers.
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return err_result(Errors::NotCoordinator);
        };
        let complete = match meta.prepare_complete(now) {
            Ok(t) => t,
            Err(e) => return err_result(Self::transition_failed(transactional_id, &e, out)),
        };
        let marker_id = meta.producer_id();
        let marker_epoch = meta.producer_epoch();
        let partitions: Vec<TopicPartition> = meta.topic_partitions().iter().cloned().collect();
        let response = ok_result(Errors::None, complete.producer_id, complete.producer_epoch);
        self.pending.insert(
            transactional_id.to_string(),
            PendingCompletion {
                coordinator_epoch,
                result,
                complete,
                abandoned: false,
            },
        );
        if partitions.is_empty() {
            // Nothing to mark: the transaction completes right away.
            self.try_complete(transactional_id, now, log, out);
        } else {
            out.push(CoordinatorOutput::SendMarkers {
                transactional_id: transactional_id.to_string(),
                producer_id: marker_id,
                producer_epoch: marker_epoch,
                result,
                coordinator_epoch,
                partitions,
            });
        }
        response
    }

    /// A transition the state table refuses: tell the learner, answer its error.
    fn transition_failed(transactional_id: &str, e: &TransitionError, out: &mut Out) -> Errors {
        event(
            out,
            CoordinatorEvent::InternalError {
                transactional_id: transactional_id.to_string(),
                detail: InternalError::Transition(e.clone()),
            },
        );
        e.to_errors()
    }

    // ------------------------------------------------------------ markers

    /// WriteTxnMarkers answers for a transaction (`TransactionMarkerRequestCompletionHandler`):
    /// written partitions leave the transaction; retriable errors are sent again; a
    /// non-retriable one (e.g. INVALID_PRODUCER_EPOCH) stops the sending. When no
    /// partition is left, Complete* is written.
    pub fn handle_markers_written(
        &mut self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        results: Vec<(TopicPartition, Errors)>,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> Out {
        let mut out = Vec::new();
        let (Some(meta), Some(pending)) = (
            self.transactions.get_mut(transactional_id),
            self.pending.get_mut(transactional_id),
        ) else {
            return out; // nothing pending: a late or duplicate answer
        };
        if meta.producer_id() != producer_id
            || meta.producer_epoch() != producer_epoch
            || !meta.state().is_prepare()
        {
            return out; // answers for an older transaction
        }
        let mut retry = Vec::new();
        for (tp, error) in results {
            if !meta.topic_partitions().contains(&tp) {
                continue;
            }
            match error {
                Errors::None => {
                    meta.remove_partition(&tp);
                }
                e if e.is_retriable() => retry.push(tp),
                e => {
                    pending.abandoned = true;
                    event(
                        &mut out,
                        CoordinatorEvent::MarkersAbandoned {
                            transactional_id: transactional_id.to_string(),
                            partition: tp,
                            error: e,
                        },
                    );
                }
            }
        }
        if pending.abandoned {
            return out;
        }
        if !retry.is_empty() {
            out.push(CoordinatorOutput::SendMarkers {
                transactional_id: transactional_id.to_string(),
                producer_id,
                producer_epoch,
                result: pending.result,
                coordinator_epoch: pending.coordinator_epoch,
                partitions: retry,
            });
        }
        if meta.topic_partitions().is_empty() {
            self.try_complete(transactional_id, now, log, &mut out);
        }
        out
    }

    /// Writes the Complete* record of a transaction whose markers are all written.
    /// On failure everything stays pending for [`Self::retry_pending_completions`].
    fn try_complete(
        &mut self,
        transactional_id: &str,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) {
        let Some(pending) = self.pending.get(transactional_id) else {
            return;
        };
        let complete = pending.complete.clone();
        if self
            .write_transit(transactional_id, &complete, true, now, log, out)
            .is_ok()
        {
            self.pending.remove(transactional_id);
        }
    }

    /// Retries Complete* writes that failed or were found pending at load time with
    /// no partition left to mark.
    pub fn retry_pending_completions(&mut self, now: i64, log: &mut dyn TxnLogWriter) -> Out {
        let mut out = Vec::new();
        let ready: Vec<String> = self
            .pending
            .iter()
            .filter(|(id, p)| {
                !p.abandoned
                    && self
                        .transactions
                        .get(id.as_str())
                        .is_some_and(|m| m.topic_partitions().is_empty())
            })
            .map(|(id, _)| id.clone())
            .collect();
        for id in ready {
            self.try_complete(&id, now, log, &mut out);
        }
        out
    }

    // ------------------------------------------------------------ timeouts

    /// The earliest time at which [`Self::abort_timed_out_transactions`] would change
    /// anything: now, when a completion waits to be retried; else just after the first
    /// `Ongoing` transaction's deadline (`start + timeout < now`); `None` when no call
    /// can do anything. Lets the world jump over cleanup ticks that would find nothing.
    pub fn next_timeout_work_ms(&self) -> Option<i64> {
        let retry_waits = self.pending.iter().any(|(id, p)| {
            !p.abandoned
                && self
                    .transactions
                    .get(id.as_str())
                    .is_some_and(|m| m.topic_partitions().is_empty())
        });
        if retry_waits {
            return Some(i64::MIN);
        }
        self.transactions
            .values()
            .filter(|m| {
                m.state() == TransactionState::Ongoing && !m.pending_transition_in_progress()
            })
            .map(|m| {
                m.txn_start_timestamp()
                    .saturating_add(i64::from(m.txn_timeout_ms()))
                    .saturating_add(1)
            })
            .min()
    }

    /// `timedOutTransactions` + `abortTimedOutTransactions`: every `Ongoing`
    /// transaction older than its timeout is fenced and aborted (its epoch goes up
    /// by one). The broker calls this every `abort_timed_out_cleanup_interval_ms`.
    pub fn abort_timed_out_transactions(&mut self, now: i64, log: &mut dyn TxnLogWriter) -> Out {
        let mut out = self.retry_pending_completions(now, log);
        let timed_out: Vec<String> = self
            .transactions
            .values()
            .filter(|m| {
                m.state() == TransactionState::Ongoing
                    && !m.pending_transition_in_progress()
                    && m.txn_start_timestamp()
                        .saturating_add(i64::from(m.txn_timeout_ms()))
                        < now
            })
            .map(|m| m.transactional_id().to_string())
            .collect();
        for id in timed_out {
            let Some(meta) = self.transactions.get_mut(&id) else {
                continue;
            };
            event(
                &mut out,
                CoordinatorEvent::TimedOut {
                    transactional_id: id.clone(),
                    producer_id: meta.producer_id(),
                    producer_epoch: meta.producer_epoch(),
                    txn_start_timestamp: meta.txn_start_timestamp(),
                    txn_timeout_ms: meta.txn_timeout_ms(),
                },
            );
            let fence = match meta.prepare_fence_producer_epoch() {
                Ok(t) => t,
                Err(e) => {
                    Self::internal_error(&id, InternalError::Transition(e), &mut out);
                    continue;
                }
            };
            self.abort_fenced(&id, &fence, now, log, &mut out);
        }
        out
    }

    /// The coordinator's own abort at the fenced epoch (a zombie's open transaction at
    /// InitProducerId, or a timed-out one), as Kafka's `endTransaction` with
    /// `isFromClient = false`.
    fn abort_fenced(
        &mut self,
        transactional_id: &str,
        fence: &TxnTransitMetadata,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> EndTxnResult {
        let tv = self.config.transaction_version;
        let r = self.end_transaction(
            transactional_id,
            fence.producer_id,
            fence.producer_epoch,
            TxnResult::Abort,
            false,
            tv,
            now,
            log,
            out,
        );
        self.drop_stale_fence(transactional_id);
        r
    }

    /// A fence whose abort was refused before it got going must not stay pending
    /// (it would block the transactional id with CONCURRENT_TRANSACTIONS forever).
    fn drop_stale_fence(&mut self, transactional_id: &str) {
        if let Some(m) = self.transactions.get_mut(transactional_id) {
            if m.pending_state() == Some(TransactionState::PrepareEpochFence) {
                m.clear_pending();
            }
        }
    }

    // ------------------------------------------------------------ load / unload

    /// [`Self::load_partition_at_epoch`] at coordinator epoch 0.
    pub fn load_partition(
        &mut self,
        partition: i32,
        records: Vec<(Vec<u8>, Option<Vec<u8>>)>,
        now: i64,
    ) -> Out {
        self.load_partition_at_epoch(partition, 0, records, now)
    }

    /// `loadTransactionsForTxnTopicPartition`: become the coordinator of a
    /// `__transaction_state` partition, rebuilding every transactional id's
    /// metadata from its last record (a tombstone removes it). Transactions found
    /// in Prepare* get their markers sent again.
    pub fn load_partition_at_epoch(
        &mut self,
        partition: i32,
        coordinator_epoch: i32,
        records: Vec<(Vec<u8>, Option<Vec<u8>>)>,
        now: i64,
    ) -> Out {
        let mut out = Vec::new();
        self.forget_partition(partition);
        let mut latest: BTreeMap<String, Option<TransactionLogValue>> = BTreeMap::new();
        let mut skipped = 0;
        for (key, value) in records {
            let Ok(id) = decode_key(&key) else {
                skipped += 1;
                continue;
            };
            match value {
                None => {
                    latest.insert(id, None);
                }
                Some(bytes) => match decode_value(&bytes) {
                    Ok(v) if v.state().is_some() => {
                        latest.insert(id, Some(v));
                    }
                    _ => skipped += 1,
                },
            }
        }
        let mut loaded = 0;
        for (id, value) in latest {
            let Some(v) = value else { continue };
            let Some(state) = v.state() else { continue };
            let topic_partitions = if state == TransactionState::Empty {
                BTreeSet::new()
            } else {
                v.transaction_partitions
                    .iter()
                    .flatten()
                    .flat_map(|p| {
                        p.partition_ids
                            .iter()
                            .map(|id| TopicPartition::new(p.topic.clone(), *id))
                    })
                    .collect_set()
            };
            let meta = TransactionMetadata::from_log(
                &id,
                &TxnTransitMetadata {
                    producer_id: v.producer_id,
                    prev_producer_id: v.previous_producer_id,
                    next_producer_id: v.next_producer_id,
                    producer_epoch: v.producer_epoch,
                    last_producer_epoch: v.last_producer_epoch,
                    txn_timeout_ms: v.transaction_timeout_ms,
                    txn_state: state,
                    topic_partitions,
                    txn_start_timestamp: v.transaction_start_timestamp_ms,
                    txn_last_update_timestamp: v.transaction_last_update_timestamp_ms,
                    client_transaction_version: TransactionVersion(v.client_transaction_version),
                },
            );
            self.transactions.insert(id, meta);
            loaded += 1;
        }
        self.owned.insert(partition, coordinator_epoch);

        let mut pending_count = 0;
        let ids: Vec<String> = self
            .transactions
            .values()
            .filter(|m| {
                m.state().is_prepare() && self.partition_for(m.transactional_id()) == partition
            })
            .map(|m| m.transactional_id().to_string())
            .collect();
        for id in ids {
            let Some(meta) = self.transactions.get_mut(&id) else {
                continue;
            };
            let result = if meta.state() == TransactionState::PrepareCommit {
                TxnResult::Commit
            } else {
                TxnResult::Abort
            };
            let Ok(complete) = meta.prepare_complete(now) else {
                continue;
            };
            pending_count += 1;
            if !meta.topic_partitions().is_empty() {
                out.push(CoordinatorOutput::SendMarkers {
                    transactional_id: id.clone(),
                    producer_id: meta.producer_id(),
                    producer_epoch: meta.producer_epoch(),
                    result,
                    coordinator_epoch,
                    partitions: meta.topic_partitions().iter().cloned().collect(),
                });
            }
            self.pending.insert(
                id,
                PendingCompletion {
                    coordinator_epoch,
                    result,
                    complete,
                    abandoned: false,
                },
            );
        }
        event(
            &mut out,
            CoordinatorEvent::Loaded {
                partition,
                coordinator_epoch,
                transactions: loaded,
                pending_completions: pending_count,
                skipped_records: skipped,
            },
        );
        out
    }

    fn forget_partition(&mut self, partition: i32) -> usize {
        let n = self.config.num_partitions;
        let ids: Vec<String> = self
            .transactions
            .keys()
            .filter(|id| partition_for(id, n) == partition)
            .cloned()
            .collect();
        for id in &ids {
            self.transactions.remove(id);
            self.pending.remove(id);
        }
        ids.len()
    }

    /// `removeTransactionsForTxnTopicPartition`: no longer the coordinator of this
    /// partition; its transactions and pending markers are forgotten.
    pub fn unload_partition(&mut self, partition: i32) -> Out {
        let mut out = Vec::new();
        let transactions = self.forget_partition(partition);
        self.owned.remove(&partition);
        event(
            &mut out,
            CoordinatorEvent::Unloaded {
                partition,
                transactions,
            },
        );
        out
    }

    // ------------------------------------------------------------ admin

    /// DescribeTransactions (`handleDescribeTransactions`).
    pub fn describe(&self, transactional_id: &str) -> Result<TransactionDescription, Errors> {
        if transactional_id.is_empty() {
            return Err(Errors::InvalidRequest);
        }
        self.check_owner(transactional_id)?;
        let meta = self
            .transactions
            .get(transactional_id)
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
        self.transactions
            .values()
            .filter(|m| m.state() != TransactionState::Dead)
            .map(|m| TransactionListing {
                transactional_id: m.transactional_id().to_string(),
                producer_id: m.producer_id(),
                state: m.state(),
            })
            .collect()
    }
}
