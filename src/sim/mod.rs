//! The simulated world: clock, network, actions, events and cluster config.

pub mod action;
pub mod event;
pub mod network;
pub mod rng;
pub mod view;
pub mod world;

pub use action::Action;
pub use event::{Event, EventKind};
pub use network::{Fault, Node};
pub use world::{ClusterConfig, SimError, World, RAW_CLIENT, START_MS};
