//! Transactional ids left alone too long: found on their own cleanup tick, moved to
//! Dead and tombstoned in `__transaction_state` (`TransactionStateManager
//! .removeExpiredTransactionalIds`, Kafka 4.0, trunk 1eb7644).

use super::*;

impl TransactionCoordinator {
    /// New `transactional.id.expiration.ms` and cleanup interval (broker-wide).
    pub fn set_transactional_id_expiration(&mut self, expiration_ms: i64, interval_ms: i64) {
        self.config.transactional_id_expiration_ms = expiration_ms;
        self.config.remove_expired_transactional_ids_interval_ms = interval_ms;
    }

    /// New `transaction.max.timeout.ms` (broker-wide): an InitProducerId asking for a
    /// longer `transaction.timeout.ms` gets INVALID_TRANSACTION_TIMEOUT.
    pub fn set_max_transaction_timeout(&mut self, max_ms: i32) {
        self.config.max_txn_timeout_ms = max_ms;
    }

    /// `shouldExpire`: nothing pending, no transaction going on, and no update for
    /// `transactional.id.expiration.ms`.
    fn should_expire(&self, m: &TransactionMetadata, now: i64) -> bool {
        !m.pending_transition_in_progress()
            && m.state().is_expiration_allowed()
            && m.txn_last_update_timestamp()
                <= now.saturating_sub(self.config.transactional_id_expiration_ms)
    }

    /// When the first cached id may expire, if any can (lets the world jump over
    /// ticks that would find nothing).
    pub fn next_expiration_work_ms(&self) -> Option<i64> {
        self.transactions
            .values()
            .filter(|m| !m.pending_transition_in_progress() && m.state().is_expiration_allowed())
            .map(|m| {
                m.txn_last_update_timestamp()
                    .saturating_add(self.config.transactional_id_expiration_ms)
            })
            .min()
    }

    /// `removeExpiredTransactionalIds`: every expired id of a partition we own goes to
    /// Dead (`prepareDead`), its tombstone (the key, no value) is written, and only
    /// after a successful write is it removed from the cache. A failed write leaves
    /// the id as it was (`pendingState = None`). Simplified: one tombstone a write,
    /// not one batch a partition.
    pub fn remove_expired_transactional_ids(
        &mut self,
        now: i64,
        log: &mut dyn TxnLogWriter,
    ) -> Out {
        let mut out = Vec::new();
        let expired: Vec<String> = self
            .transactions
            .values()
            .filter(|m| self.should_expire(m, now))
            .filter(|m| self.check_owner(m.transactional_id()).is_ok())
            .map(|m| m.transactional_id().to_string())
            .collect();
        for id in expired {
            let Some(meta) = self.transactions.get_mut(&id) else {
                continue;
            };
            let producer_id = meta.producer_id();
            if let Err(e) = meta.prepare_dead() {
                Self::transition_failed(&id, &e, &mut out);
                continue;
            }
            let partition = self.partition_for(&id);
            match log.append(partition, key_to_bytes(&id), None, now) {
                Ok(()) => {
                    self.transactions.remove(&id);
                    event(
                        &mut out,
                        CoordinatorEvent::TransactionalIdExpired {
                            transactional_id: id,
                            producer_id,
                            partition,
                            expiration_ms: self.config.transactional_id_expiration_ms,
                        },
                    );
                }
                Err(e) => {
                    if let Some(m) = self.transactions.get_mut(&id) {
                        m.clear_pending();
                    }
                    event(
                        &mut out,
                        CoordinatorEvent::AppendFailed {
                            transactional_id: id,
                            target: TransactionState::Dead,
                            error: map_append_error(e),
                        },
                    );
                }
            }
        }
        out
    }
}
