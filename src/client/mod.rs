//! Clients: the producer (idempotent, and transactional through its
//! `TransactionManager`) and the consumer (`read_committed` or `read_uncommitted`).

pub mod backoff;
pub mod consumer;
pub mod producer;
pub mod transaction_manager;

pub use crate::protocol::config_error::ConfigError;
pub use producer::{Producer, ProducerConfig, ProducerEvent};
