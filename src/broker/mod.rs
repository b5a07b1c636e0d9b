//! The broker: requests and responses, producer-id blocks, and one broker handling
//! requests against its partitions.

#[allow(clippy::module_inception)]
pub mod broker;
pub mod producer_id_manager;
pub mod protocol;

pub use broker::{Broker, BrokerEvent, LOG_DIR};
