//! Views of the transaction coordinators, as Kafka's tools print them:
//! `kafka-dump-log.sh --transaction-log-decoder` on a `__transaction_state` partition
//! and `kafka-transactions.sh list` / `describe`.

use super::world::World;
use crate::client::producer::Producer;
use crate::client::transaction_manager::TransactionManager;
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::coordinator::transaction::log_format::{
    decode_key, decode_value, value_json, TransactionLogValue,
};
use crate::coordinator::transaction::TransactionMetadata;
use crate::log::TopicPartition;

/// A transaction as an online coordinator holds it in memory (`TransactionMetadata`),
/// with that coordinator and the `__transaction_state` partition the id maps to.
#[derive(Clone, Copy, Debug)]
pub struct CoordinatedTransaction<'a> {
    pub coordinator: i32,
    pub partition: i32,
    pub metadata: &'a TransactionMetadata,
}

/// Why [`World::transaction_log_values`] has nothing to read. Its `line` (and `Display`)
/// is what `txn-states` prints, in English as the tool output around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TxnLogUnreadable {
    /// No broker leads the transactional id's `__transaction_state` partition yet.
    NoCoordinator(String),
    /// The partition's leader has no log for it.
    NotLoaded(TopicPartition),
}

impl TxnLogUnreadable {
    /// The line `txn-states` prints.
    pub fn line(&self) -> String {
        match self {
            TxnLogUnreadable::NoCoordinator(id) => format!("{id}: no coordinator yet"),
            TxnLogUnreadable::NotLoaded(tp) => format!("{tp}: not loaded"),
        }
    }
}

impl std::fmt::Display for TxnLogUnreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line())
    }
}

/// Kafka's `TransactionsCommand` table: every cell left-aligned to its column's
/// widest entry, each followed by a tab.
pub(crate) fn table(header: &[&str], rows: &[Vec<String>]) -> Vec<String> {
    let widths: Vec<usize> = header
        .iter()
        .enumerate()
        .map(|(i, h)| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
                .max(h.len())
        })
        .collect();
    let line = |cells: Vec<String>| -> String {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| {
                // Padded by hand: `format!`'s width is capped at u16::MAX and a
                // transactional.id can be longer (a share link is input).
                let pad = w.saturating_sub(c.chars().count());
                let mut cell = String::with_capacity(c.len() + pad + 1);
                cell.push_str(c);
                cell.extend(std::iter::repeat_n(' ', pad));
                cell.push('\t');
                cell
            })
            .collect()
    };
    std::iter::once(line(header.iter().map(|h| h.to_string()).collect()))
        .chain(rows.iter().map(|r| line(r.clone())))
        .collect()
}

impl World {
    /// The `__transaction_state` partition holding `transactional_id`, its name and
    /// then each record's value as JSON (without the two timestamps, as the seed shows).
    pub fn transaction_log_dump(&self, transactional_id: &str) -> Vec<String> {
        let tp = self.internal_partition_for(TRANSACTION_STATE_TOPIC, transactional_id);
        let Some(log) = self
            .leader_of(&tp)
            .and_then(|b| self.brokers.get(&b))
            .and_then(|b| b.logs().get(&tp).map(|l| (b, l)))
        else {
            return vec![format!(
                "{tp}: not created yet (no transactional producer has found its coordinator)"
            )];
        };
        let (broker, log) = log;
        let mut lines = vec![tp.to_string()];
        for stored in log.read_all(&broker.fs) {
            for record in &stored.batch.records {
                let key = record.key.as_deref().map(decode_key);
                let value = record.value.as_deref().map(decode_value);
                lines.push(match (key, value) {
                    (Some(Ok(_)), Some(Ok(v))) => value_json(&v),
                    (Some(Ok(k)), None) => format!("{k}: <DELETE>"),
                    _ => "(undecodable record)".to_string(),
                });
            }
        }
        lines
    }

    /// Each record of `transactional_id` in its `__transaction_state` partition, decoded,
    /// oldest first, from the partition leader's disk. Err says why there is nothing to
    /// read: no coordinator yet, or the partition is not loaded.
    pub fn transaction_log_values(
        &self,
        transactional_id: &str,
    ) -> Result<Vec<TransactionLogValue>, TxnLogUnreadable> {
        let tp = self.internal_partition_for(TRANSACTION_STATE_TOPIC, transactional_id);
        let Some(broker) = self.leader_of(&tp).and_then(|b| self.brokers.get(&b)) else {
            return Err(TxnLogUnreadable::NoCoordinator(
                transactional_id.to_string(),
            ));
        };
        let Some(log) = broker.logs().get(&tp) else {
            return Err(TxnLogUnreadable::NotLoaded(tp));
        };
        Ok(log
            .read_all(&broker.fs)
            .iter()
            .flat_map(|s| s.batch.records.iter())
            .filter(|r| {
                r.key.as_deref().and_then(|k| decode_key(k).ok()).as_deref()
                    == Some(transactional_id)
            })
            .filter_map(|r| r.value.as_deref().and_then(|v| decode_value(v).ok()))
            .collect())
    }

    /// `Empty(0) → Ongoing(0) → PrepareAbort(1) → …`: each record of the id in its
    /// `__transaction_state` partition, as state(epoch).
    pub fn transaction_states(&self, transactional_id: &str) -> String {
        match self.transaction_log_values(transactional_id) {
            Ok(values) => {
                #[cfg(feature = "set-epoch")]
                let mut last = None;
                values
                    .iter()
                    .map(|v| {
                        let state = v.state().map_or("?", |s| s.name());
                        // A record under a new producer id says so: the epoch ran out
                        // and the id rotated. Only `set-epoch` (feature `set-epoch`)
                        // brings a world there.
                        #[cfg(feature = "set-epoch")]
                        if last
                            .replace(v.producer_id)
                            .is_some_and(|l| l != v.producer_id)
                        {
                            return format!(
                                "{state}({}, producerId={})",
                                v.producer_epoch, v.producer_id
                            );
                        }
                        format!("{state}({})", v.producer_epoch)
                    })
                    .collect::<Vec<_>>()
                    .join(" → ")
            }
            Err(why) => why.line(),
        }
    }

    /// Every transaction the online coordinators hold, by broker id, each coordinator's
    /// in its own order.
    pub fn coordinated_transactions(&self) -> Vec<CoordinatedTransaction<'_>> {
        self.brokers
            .values()
            .filter(|b| b.is_online())
            .flat_map(|b| {
                b.txn_coordinator()
                    .transactions()
                    .map(move |m| CoordinatedTransaction {
                        coordinator: b.id,
                        partition: b.txn_coordinator().partition_for(m.transactional_id()),
                        metadata: m,
                    })
            })
            .collect()
    }

    /// The producers with a `transactional.id`, by name, each with its
    /// `TransactionManager`.
    pub fn transactional_producers(
        &self,
    ) -> impl Iterator<Item = (&str, &Producer, &TransactionManager)> {
        self.producers
            .iter()
            .filter_map(|(name, p)| Some((name.as_str(), p, p.txn.as_ref()?)))
    }

    /// `kafka-transactions.sh list`.
    pub fn transactions_list(&self) -> Vec<String> {
        let rows: Vec<Vec<String>> = self
            .brokers
            .values()
            .filter(|b| b.is_online())
            .flat_map(|b| {
                b.txn_coordinator().list().into_iter().map(move |l| {
                    vec![
                        l.transactional_id,
                        b.id.to_string(),
                        l.producer_id.to_string(),
                        l.state.name().to_string(),
                    ]
                })
            })
            .collect();
        table(
            &[
                "TransactionalId",
                "Coordinator",
                "ProducerId",
                "TransactionState",
            ],
            &rows,
        )
    }

    /// `kafka-transactions.sh describe --transactional-id ID`.
    pub fn transaction_describe(&self, transactional_id: &str) -> Vec<String> {
        let tp = self.internal_partition_for(TRANSACTION_STATE_TOPIC, transactional_id);
        let Some(broker) = self.leader_of(&tp).and_then(|b| self.brokers.get(&b)) else {
            return vec![format!(
                "Transactional id {transactional_id} has no coordinator yet"
            )];
        };
        // `getTransactionState` while the partition loads (see `coordinator_load.rs`).
        let described = if broker.coordinator_loads().contains_key(&tp) {
            Err(crate::protocol::errors::Errors::CoordinatorLoadInProgress)
        } else {
            broker.txn_coordinator().describe(transactional_id)
        };
        let d = match described {
            Ok(d) => d,
            Err(e) => {
                return vec![format!(
                    "Failed to describe transactional id {transactional_id}: {}",
                    e.name()
                )]
            }
        };
        let started = d.transaction_start_time_ms;
        let duration = if started >= 0 {
            (self.clock_ms - started).to_string()
        } else {
            "None".to_string()
        };
        let partitions: Vec<String> = d.topic_partitions.iter().map(|tp| tp.to_string()).collect();
        table(
            &[
                "CoordinatorId",
                "TransactionalId",
                "ProducerId",
                "ProducerEpoch",
                "TransactionState",
                "TransactionTimeoutMs",
                "CurrentTransactionStartTimeMs",
                "TransactionDurationMs",
                "TopicPartitions",
            ],
            &[vec![
                broker.id.to_string(),
                d.transactional_id,
                d.producer_id.to_string(),
                d.producer_epoch.to_string(),
                d.state.name().to_string(),
                d.transaction_timeout_ms.to_string(),
                if started >= 0 {
                    started.to_string()
                } else {
                    "None".to_string()
                },
                duration,
                partitions.join(","),
            ]],
        )
    }
}
