//! Transactions open too long: found on the cleanup tick and aborted with a bumped epoch.

use super::*;

impl TransactionCoordinator {
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
    pub(super) fn abort_fenced(
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
    pub(super) fn drop_stale_fence(&mut self, transactional_id: &str) {
        if let Some(m) = self.transactions.get_mut(transactional_id) {
            if m.pending_state() == Some(TransactionState::PrepareEpochFence) {
                m.clear_pending();
            }
        }
    }

    // ------------------------------------------------------------ load / unload
}
