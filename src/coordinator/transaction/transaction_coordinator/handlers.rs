//! Requests that build a transaction: InitProducerId (bump or fence an epoch) and
//! AddPartitionsToTxn (with the partition verification of KIP-890).

use super::*;

impl TransactionCoordinator {
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

    pub(super) fn init_producer_id(
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
        if self.owned_metadata(transactional_id)?.1.is_none() {
            // Kafka caches the new metadata before writing anything; a failed write
            // leaves it there with epoch -1 and the retry bumps it to 0.
            let producer_id = log.generate_producer_id()?;
            self.transactions.insert(
                transactional_id.to_string(),
                TransactionMetadata::new(transactional_id, producer_id, txn_timeout_ms, now),
            );
        }
        let breaks = self.config.breaks;
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
                        breaks,
                    )
                };
                prepared.map_err(|e| e.to_errors())?
            }
            // NOT KAFKA: break init-fencing — no fence: the caller joins the open
            // transaction with its id and epoch.
            TransactionState::Ongoing if breaks.no_init_fencing() => {
                return Ok((meta.producer_id(), meta.producer_epoch()));
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

    /// `set-epoch txn=ID epoch=N`, a playground shortcut (no Kafka request does
    /// this): the id's epoch becomes `epoch`, written to `__transaction_state` as the
    /// Empty record of an InitProducerId that bumped it there, so a scenario can start
    /// near `Short.MAX_VALUE` without 32 766 InitProducerIds. A new id gets a producer
    /// id first. Only between transactions (else CONCURRENT_TRANSACTIONS), and at most
    /// 32 766: `isEpochExhausted` keeps 32 767 from every client.
    pub fn set_producer_epoch(
        &mut self,
        transactional_id: &str,
        epoch: i16,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> (Result<(), Errors>, Out) {
        let mut out = Vec::new();
        let r = self.put_epoch(transactional_id, epoch, now, log, &mut out);
        (r, out)
    }

    fn put_epoch(
        &mut self,
        transactional_id: &str,
        epoch: i16,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> Result<(), Errors> {
        if !(0..i16::MAX).contains(&epoch) || transactional_id.is_empty() {
            return Err(Errors::InvalidRequest);
        }
        if self.owned_metadata(transactional_id)?.1.is_none() {
            let producer_id = log.generate_producer_id()?;
            let meta = TransactionMetadata::new(transactional_id, producer_id, 60_000, now);
            self.transactions.insert(transactional_id.to_string(), meta);
        }
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return Err(Errors::NotCoordinator);
        };
        let idle = matches!(
            meta.state(),
            TransactionState::Empty
                | TransactionState::CompleteCommit
                | TransactionState::CompleteAbort
        );
        if meta.pending_transition_in_progress() || !idle {
            return Err(Errors::ConcurrentTransactions);
        }
        let saved = (meta.producer_epoch(), meta.last_producer_epoch());
        meta.put_epoch(epoch - 1, NO_PRODUCER_EPOCH);
        let timeout = meta.txn_timeout_ms();
        let prepared = meta.prepare_increment_producer_epoch(
            timeout,
            None,
            now,
            crate::breaks::Breaks::default(),
        );
        let written = match prepared {
            Ok(transit) => self.write_transit(transactional_id, &transit, false, now, log, out),
            Err(e) => Err(e.to_errors()),
        };
        if written.is_err() {
            if let Some(meta) = self.transactions.get_mut(transactional_id) {
                meta.clear_pending();
                meta.put_epoch(saved.0, saved.1);
            }
        }
        written
    }

    pub(super) fn internal_error(
        transactional_id: &str,
        detail: InternalError,
        out: &mut Out,
    ) -> Errors {
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
    pub(super) fn check_producer(
        &self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
    ) -> Result<&TransactionMetadata, Errors> {
        if transactional_id.is_empty() {
            return Err(Errors::InvalidRequest);
        }
        let meta = self
            .owned_metadata(transactional_id)?
            .1
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
    pub(super) fn add_partitions(
        &mut self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        wanted: &SortedSet<TopicPartition>,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> Result<(), Errors> {
        // A transition in flight first (Kafka 4.0.0, KAFKA-18660): after an EndTxn that
        // overflowed the epoch the producer already uses the new producer id, which
        // only CompleteCommit stores; it must wait, not be told the id is unknown.
        let pending = self
            .owned_metadata(transactional_id)
            .ok()
            .and_then(|(_, m)| m)
            .is_some_and(|m| m.pending_transition_in_progress());
        if pending {
            return Err(Errors::ConcurrentTransactions);
        }
        self.check_producer(transactional_id, producer_id, producer_epoch)?;
        let client_version = self.client_version();
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return Err(Errors::InvalidProducerIdMapping);
        };
        if meta.state().is_prepare() {
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

    pub(super) fn verify_partitions(
        &self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        wanted: &SortedSet<TopicPartition>,
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
}
