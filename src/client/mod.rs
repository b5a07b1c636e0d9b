//! Clients: the producer (idempotent, and transactional through its
//! `TransactionManager`) and the consumer (`read_committed` or `read_uncommitted`).

pub mod backoff;
pub mod config_def;
pub mod config_error;
pub mod consumer;
pub mod producer;
pub mod transaction_calls;
pub mod transaction_manager;

pub use config_error::ConfigError;
pub use producer::{Producer, ProducerConfig, ProducerEvent};
