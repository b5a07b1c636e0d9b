//! Clients: the idempotent producer.

pub mod consumer;
pub mod producer;
pub mod transaction_manager;

pub use producer::{Producer, ProducerConfig, ProducerEvent};
