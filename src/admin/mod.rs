//! Kafka's admin tools, run against the world as an operator runs them against a
//! cluster: `kafka-transactions.sh` (describe-producers, find-hanging, abort) and
//! `kafka-delete-records.sh`. Each sends the tool's requests through the world's
//! network and prints what the tool prints; the scenario actions `admin abort` and
//! `admin delete-records` reach them through `World::apply`.

mod delete_records;
pub mod transactions;

pub use transactions::{OpenTransaction, MAX_TRANSACTION_TIMEOUT_MS};
