//! The simulated world: clock, network, actions, events and cluster config.

pub mod action;
mod brokers;
mod config;
mod consumers;
mod delivery;
mod disk;
pub mod error;
pub mod event;
pub mod fault;
#[cfg(feature = "group-membership")]
pub mod groups;
mod housekeeping;
pub mod internal_topics;
#[cfg(feature = "log-cleaner")]
mod log_cleaner;
pub mod network;
mod producers;
pub mod raw;
pub mod replication;
/// The seeded RNG lives in `util` (the producers draw their retry jitter from one too).
pub use crate::util::rng;
mod scheduling;
#[cfg(feature = "set-epoch")]
mod set_epoch;
mod transactions;
pub mod transform;
pub(crate) mod txn_views;
pub mod view;
pub mod world;

pub use action::Action;
pub use consumers::CommittedOffsets;
pub use error::{SimError, SimErrorKind};
pub use event::{Event, EventKind};
pub use network::{Direction, Fault, FaultMark, MessageMatch, MessageStrike, Node};
pub use txn_views::{CoordinatedTransaction, TxnLogUnreadable};
pub use world::{
    ClusterConfig, RawOutcome, RawRetry, World, RAW_CLIENT, START_MS, WRITE_TXN_MARKERS,
};
