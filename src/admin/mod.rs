//! Kafka's admin tools, run against the world as an operator runs them against a
//! cluster: `kafka-transactions.sh` (describe-producers, find-hanging, abort) and
//! `kafka-delete-records.sh`, `kafka-leader-election.sh`, and the topic tools
//! (`topics.rs`). Each sends the tool's requests through the world's
//! network and prints what the tool prints; the scenario actions `admin abort` and
//! `admin delete-records` reach them through `World::apply`.

mod delete_records;
mod topics;
pub mod transactions;

use crate::sim::{Action, SimError, World};

pub use transactions::{OpenTransaction, MAX_TRANSACTION_TIMEOUT_MS};

impl World {
    /// The transaction and record tools, and leader election; `World::apply` sends
    /// only these here.
    pub(crate) fn apply_admin(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::AdminAbortTransaction {
                topic_partition,
                start_offset,
            } => self.admin_abort_transaction(topic_partition, *start_offset),
            Action::AdminDeleteRecords {
                topic_partition,
                offset,
            } => self.admin_delete_records(topic_partition, *offset),
            Action::AdminElectLeaders {
                election,
                partitions,
            } => Ok(self.admin_elect_leaders(*election, partitions)),
            _ => Ok(vec![]),
        }
    }
}
