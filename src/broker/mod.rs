//! The broker: requests and responses, producer-id blocks, and one broker handling
//! requests against its partitions.

#[allow(clippy::module_inception)]
pub mod broker;
mod coordinator_election;
mod delayed_delete_records;
mod delayed_produce;
mod delayed_txn_write;
mod event;
mod fetch;
mod group_apis;
mod internal_log;
pub mod log_retention;
pub mod partition;
mod produce;
mod producer_expiry;
pub mod producer_id_manager;
mod replica_fetcher;
pub mod replica_manager;
mod restart;
mod txn_apis;
mod txn_leader;

pub use broker::{Broker, BrokerEvent, LOG_DIR};
