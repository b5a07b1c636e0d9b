//! Clients: the idempotent producer.

pub mod producer;

pub use producer::{Producer, ProducerConfig, ProducerEvent};
