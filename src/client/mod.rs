//! Clients: the idempotent producer.

pub mod backoff;
pub mod config_def;
pub mod config_error;
pub mod consumer;
pub mod producer;
pub mod transaction_calls;
pub mod transaction_manager;

pub use config_error::ConfigError;
pub use producer::{Producer, ProducerConfig, ProducerEvent};
