//! The broker: requests and responses, producer-id blocks, and one broker handling
//! requests against its partitions.

#[allow(clippy::module_inception)]
pub mod broker;
mod fetch;
pub mod producer_id_manager;
pub mod protocol;

pub use broker::{Broker, BrokerEvent, LOG_DIR};
