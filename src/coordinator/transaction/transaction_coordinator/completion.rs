//! Ending a transaction: EndTxn, the Prepare* record, the markers, and the Complete*
//! record once every marker is acknowledged.

use super::*;

impl TransactionCoordinator {
    /// EndTxn from a client (`handleEndTransaction`): writes Prepare* (TV2: with the
    /// epoch bumped), answers at once with the epoch, and asks for markers. The
    /// client speaks the version the cluster's clients negotiate.
    pub fn handle_end_txn(
        &mut self,
        transactional_id: &str,
        producer_id: i64,
        producer_epoch: i16,
        commit: bool,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> (EndTxnResult, Out) {
        let version = self.client_version();
        self.handle_end_txn_from(
            transactional_id,
            (producer_id, producer_epoch),
            commit,
            version,
            now,
            log,
        )
    }

    /// [`Self::handle_end_txn`] from a client of `client_version` (what the EndTxn
    /// request's version says: above 4 is a transaction.version 2 client).
    pub fn handle_end_txn_from(
        &mut self,
        transactional_id: &str,
        (producer_id, producer_epoch): (i64, i16),
        commit: bool,
        client_version: TransactionVersion,
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
            client_version,
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
    /// | CompleteAbort | NONE | EB | PF (KAFKA-20785) | EB |
    /// | CompleteCommit | ITS | EB | NONE | EB |
    ///
    /// (An empty *commit* bumping the epoch is the trunk behaviour the seed
    /// describes — `PREPARE_COMMIT` may follow Empty/Complete*; 4.4.0 answered ITS.)
    ///
    /// Kafka's steps, one function each: the checks up to the new metadata
    /// ([`Self::end_txn_pre_append`]), `appendTransactionToLog` of the Prepare* record,
    /// and the append's callback ([`Self::send_txn_markers_callback`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn end_transaction(
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
        let call = EndTxnCall {
            producer_id,
            producer_epoch,
            result,
            from_client,
            tv,
        };
        let pre = match self.end_txn_pre_append(transactional_id, call, now, log, out) {
            Ok(pre) => pre,
            Err(answer) => return answer,
        };
        if let Err(e) = self.write_transit(transactional_id, &pre.transit, false, now, log, out) {
            // The callback's failed append: a fence below TV2 is remembered as failed
            // (`hasFailedEpochFence`).
            if pre.is_epoch_fence && !tv.supports_epoch_bump() {
                if let Some(meta) = self.transactions.get_mut(transactional_id) {
                    meta.mark_failed_epoch_fence();
                }
            }
            return err_result(e);
        }
        self.send_txn_markers_callback(
            transactional_id,
            pre.coordinator_epoch,
            result,
            now,
            log,
            out,
        )
    }

    /// `endTransaction`'s `preAppendResult`: the checks of the request against the
    /// stored transaction, then the Prepare* metadata to append
    /// (`prepareAbortOrCommit`). `Err` is the answer at once: an error, or NONE for a
    /// retry of a transaction already complete.
    fn end_txn_pre_append(
        &mut self,
        transactional_id: &str,
        call: EndTxnCall,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> Result<PreAppend, EndTxnResult> {
        if transactional_id.is_empty() {
            return Err(err_result(Errors::InvalidRequest));
        }
        let (coordinator_epoch, meta) = self
            .owned_metadata_mut(transactional_id)
            .map_err(err_result)?;
        let meta = meta.ok_or_else(|| err_result(Errors::InvalidProducerIdMapping))?;
        let epochs = EndTxnEpochs::of(meta, &call);
        // A transition in flight is answered first, before the producer id and the
        // epoch (Kafka 4.0.0: KAFKA-18464, so that a TV2 client's empty abort right
        // after its commit waits for the markers instead of fencing itself; KAFKA-18660,
        // so that the new producer id of an overflowing EndTxn waits for CompleteCommit
        // to store it). The fence's own abort has PrepareEpochFence pending.
        if meta.pending_transition_in_progress() && !epochs.is_epoch_fence {
            return Err(err_result(Errors::ConcurrentTransactions));
        }
        if meta.producer_id() != call.producer_id && !epochs.retry_on_overflow {
            return Err(err_result(Errors::InvalidProducerIdMapping));
        }
        if !epochs.is_valid_epoch {
            if call.from_client {
                event(
                    out,
                    CoordinatorEvent::EndTxnEpochFenced {
                        transactional_id: transactional_id.to_string(),
                        epoch: call.producer_epoch,
                        current_epoch: meta.producer_epoch(),
                        state: meta.state(),
                        transaction_v2: epochs.v2,
                    },
                );
            }
            return Err(err_result(Errors::ProducerFenced));
        }
        let (next_state, no_partition_added) =
            end_txn_next_state(transactional_id, meta, &call, &epochs, out)?;

        if epochs.is_epoch_fence {
            if call.tv.supports_epoch_bump() {
                // Make way for PrepareAbort. Since KAFKA-19367 the fence epoch is not put
                // into memory: prepare_abort_or_commit bumps once, so the epoch goes up
                // by one in total, not two.
                meta.clear_pending();
            } else {
                // Below TV2 the epoch never moves at EndTxn: the fence epoch goes into
                // memory now, and PrepareAbort and the markers carry it.
                meta.fence_in_memory(call.producer_epoch);
            }
        }
        // An exhausted epoch moves to a new producer id at Complete*, for a TV2 client
        // only (`clientTransactionVersion.supportsEpochBump()`: below TV2 the next
        // InitProducerId rotates it). Since KAFKA-20090 (apache/kafka#21506, 2026) a TV2
        // fence allocates it too, where Kafka 4.0 did not.
        let next_producer_id =
            if call.tv.supports_epoch_bump() && meta.is_producer_epoch_exhausted() {
                log.generate_producer_id().map_err(err_result)?
            } else {
                NO_PRODUCER_ID
            };
        let breaks = self.config.breaks;
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return Err(err_result(Errors::NotCoordinator));
        };
        let transit = meta
            .prepare_abort_or_commit(
                next_state,
                call.tv,
                (next_producer_id, now),
                no_partition_added,
                breaks,
            )
            .map_err(|e| err_result(Self::transition_failed(transactional_id, &e, out)))?;
        Ok(PreAppend {
            coordinator_epoch,
            transit,
            is_epoch_fence: epochs.is_epoch_fence,
        })
    }

    /// `sendTxnMarkersCallback` once the Prepare* record is durable: prepare the
    /// completion (`prepareComplete`), answer the client with the epoch, and send the
    /// markers (`addTxnMarkersToSend`); with no partition to mark, Complete* follows now.
    fn send_txn_markers_callback(
        &mut self,
        transactional_id: &str,
        coordinator_epoch: i32,
        result: TxnResult,
        now: i64,
        log: &mut dyn TxnLogWriter,
        out: &mut Out,
    ) -> EndTxnResult {
        let Some(meta) = self.transactions.get_mut(transactional_id) else {
            return err_result(Errors::NotCoordinator);
        };
        let complete = match meta.prepare_complete(now) {
            Ok(t) => t,
            Err(e) => return err_result(Self::transition_failed(transactional_id, &e, out)),
        };
        let marker_id = meta.producer_id();
        let marker_epoch = meta.producer_epoch();
        let marker_version = meta.client_transaction_version();
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
                transaction_version: marker_version,
            });
        }
        response
    }

    /// A transition the state table refuses: tell the learner, answer its error.
    pub(super) fn transition_failed(
        transactional_id: &str,
        e: &TransitionError,
        out: &mut Out,
    ) -> Errors {
        Self::internal_error(transactional_id, InternalError::Transition(e.clone()), out);
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
                transaction_version: meta.client_transaction_version(),
            });
        }
        if meta.topic_partitions().is_empty() {
            self.try_complete(transactional_id, now, log, &mut out);
        }
        out
    }

    /// Writes the Complete* record of a transaction whose markers are all written.
    /// On failure everything stays pending for [`Self::retry_pending_completions`].
    pub(super) fn try_complete(
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
}

/// An EndTxn as `endTransaction` takes it: from a client, or the coordinator's own
/// abort (the fence in InitProducerId, a timeout).
#[derive(Clone, Copy)]
struct EndTxnCall {
    producer_id: i64,
    producer_epoch: i16,
    result: TxnResult,
    /// `isFromClient`.
    from_client: bool,
    /// The request's transaction version (`clientTransactionVersion`).
    tv: TransactionVersion,
}

/// What `endTransaction`'s checks hand to the append.
struct PreAppend {
    coordinator_epoch: i32,
    /// The Prepare* metadata to write.
    transit: TxnTransitMetadata,
    /// The abort is the fence an InitProducerId asked for (`isEpochFence`).
    is_epoch_fence: bool,
}

/// How the request's producer id and epoch stand against the stored transaction:
/// the values `endTransaction` computes before its state match.
struct EndTxnEpochs {
    /// `PrepareEpochFence` is pending: this is the fence's abort.
    is_epoch_fence: bool,
    /// The transaction's own version decides the epoch rules, the one it was
    /// written with (`currentTxnMetadataIsAtLeastTransactionsV2`), not the request's:
    /// a TV2 transaction retried by an older client, or a TV0/TV1 one by a TV2 client,
    /// is judged as it began (Kafka 4.0;
    /// TransactionCoordinatorTest.shouldReturnWhenTransactionVersionDowngraded,
    /// shouldReturnCorrectlyWhenTransactionVersionUpgraded).
    v2: bool,
    /// The client retried an EndTxn that overflowed the epoch; the new id is stored
    /// (`retryOnOverflow`).
    retry_on_overflow: bool,
    is_valid_epoch: bool,
    /// The request repeats one already applied.
    is_retry: bool,
}

impl EndTxnEpochs {
    fn of(meta: &TransactionMetadata, call: &EndTxnCall) -> Self {
        let is_epoch_fence = meta.pending_state() == Some(TransactionState::PrepareEpochFence);
        let v2 = !is_epoch_fence && meta.client_transaction_version().supports_epoch_bump();
        let retry_on_overflow = v2
            && meta.previous_producer_id() == call.producer_id
            && call.producer_epoch == i16::MAX - 1
            && meta.producer_epoch() == 0;
        // The client retried an EndTxn whose bumped epoch is stored (`endTxnEpochBumped`).
        let retry_on_epoch_bump =
            v2 && i32::from(meta.producer_epoch()) == i32::from(call.producer_epoch) + 1;
        let is_valid_epoch = if v2 {
            version::v2_valid_epoch(
                meta.state(),
                call.producer_epoch,
                meta.producer_epoch(),
                retry_on_epoch_bump,
                retry_on_overflow,
            )
        } else {
            version::v1_valid_epoch(call.from_client, call.producer_epoch, meta.producer_epoch())
        };
        // Before TV2 the epoch never moves at EndTxn: a Complete* state with the same
        // epoch and result is the retry.
        let is_retry = if !v2 && !is_epoch_fence {
            matches!(
                meta.state(),
                TransactionState::CompleteCommit | TransactionState::CompleteAbort
            )
        } else {
            retry_on_epoch_bump || retry_on_overflow
        };
        EndTxnEpochs {
            is_epoch_fence,
            v2,
            retry_on_overflow,
            is_valid_epoch,
            is_retry,
        }
    }
}

/// `endTransaction`'s match on the current state: the Prepare* state to move to and
/// whether no partition was added (an empty transaction), or the answer at once.
fn end_txn_next_state(
    transactional_id: &str,
    meta: &TransactionMetadata,
    call: &EndTxnCall,
    epochs: &EndTxnEpochs,
    out: &mut Out,
) -> Result<(TransactionState, bool), EndTxnResult> {
    use TransactionState as S;
    let error = match (meta.state(), call.result) {
        (S::Ongoing, r) => return Ok((r.prepare_state(), false)),
        (S::CompleteCommit, TxnResult::Commit) | (S::CompleteAbort, TxnResult::Abort)
            if epochs.is_retry =>
        {
            return Err(ok_result(
                Errors::None,
                meta.producer_id(),
                meta.producer_epoch(),
            ));
        }
        // KAFKA-20785 (trunk, apache/kafka#23204): a TV2 commit at the retry epoch of a
        // CompleteAbort was overtaken by the coordinator's own abort (a timeout or a
        // fence); clients recover from PRODUCER_FENCED, INVALID_TXN_STATE is fatal.
        (S::CompleteAbort, TxnResult::Commit) if epochs.v2 && epochs.is_retry => {
            Errors::ProducerFenced
        }
        (S::CompleteCommit, TxnResult::Abort) | (S::CompleteAbort, TxnResult::Commit)
            if epochs.is_retry =>
        {
            Errors::InvalidTxnState
        }
        // Before TV2 only an Ongoing transaction can end: no empty transactions
        // (the request's version: a TV2 client may end an empty one).
        (S::CompleteCommit | S::CompleteAbort | S::Empty, _)
            if epochs.is_epoch_fence || !call.tv.supports_epoch_bump() =>
        {
            Errors::InvalidTxnState
        }
        (S::CompleteCommit | S::CompleteAbort | S::Empty, r) => {
            return Ok((r.prepare_state(), true))
        }
        (S::PrepareCommit, TxnResult::Commit) | (S::PrepareAbort, TxnResult::Abort) => {
            Errors::ConcurrentTransactions
        }
        (S::PrepareCommit, TxnResult::Abort) | (S::PrepareAbort, TxnResult::Commit) => {
            Errors::InvalidTxnState
        }
        (S::Dead | S::PrepareEpochFence, _) => TransactionCoordinator::internal_error(
            transactional_id,
            InternalError::StateNeverCurrent(meta.state()),
            out,
        ),
    };
    Err(err_result(error))
}
