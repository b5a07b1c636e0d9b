//! Taking over and giving up `__transaction_state` partitions: loading the
//! transactions a partition holds, and forgetting them on unload.

use super::*;

impl TransactionCoordinator {
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
        let mut latest: SortedMap<String, Option<TransactionLogValue>> = SortedMap::new();
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
                SortedSet::new()
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
                    transaction_version: meta.client_transaction_version(),
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

    pub(super) fn forget_partition(&mut self, partition: i32) -> usize {
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
}
