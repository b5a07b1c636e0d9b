//! The broker: requests and responses, producer-id blocks, and one broker handling
//! requests against its partitions.

#[allow(clippy::module_inception)]
pub mod broker;
pub mod broker_lifecycle_manager;
pub mod broker_registry;
mod coordinator_election;
pub mod coordinator_load;
mod delayed_delete_records;
mod delayed_produce;
mod delayed_txn_write;
#[cfg(feature = "log-cleaner")]
mod disk;
mod event;
mod fetch;
mod group_apis;
#[cfg(feature = "group-membership")]
mod group_membership_apis;
pub mod hw_checkpoint;
mod internal_log;
#[cfg(feature = "log-cleaner")]
mod log_cleaner;
pub mod log_retention;
pub mod marker_channel;
pub mod partition;
mod produce;
mod producer_expiry;
pub mod producer_id_manager;
mod replica_fetcher;
pub mod replica_manager;
mod restart;
#[cfg(feature = "topic-admin")]
mod topic_changes;
mod txn_apis;
mod txn_leader;

pub use broker::{Broker, BrokerEvent, LOG_DIR};
