//! eos-playground: a Kafka-style broker, transaction coordinator and clients in one
//! deterministic world, for learning exactly-once semantics.
//!
//! Layers, from the bottom: [`fs`] (the in-memory disk) → [`record`] (Kafka's record
//! batch v2 bytes) → [`log`] (segments, producer state, the partition log) →
//! [`broker`] and [`client`] (sans-IO state machines) → [`sim`] (the world that moves
//! messages) → [`scenario`] (the lesson language) → `cli` and `ui`.

pub mod broker;
pub mod bytes;
pub mod client;
pub mod coordinator;
pub mod errors;
pub mod fs;
pub mod group;
pub mod internal_topics;
pub mod json;
pub mod log;
pub mod lzss;
pub mod ordered;
pub mod record;
pub mod scenario;
pub mod share;
pub mod sim;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod ui;
