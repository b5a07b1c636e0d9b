//! Apache Pulsar's transactions (PIP-31) on the same kind of deterministic world as the
//! Kafka engine, so a learner can play both and compare. Pulsar's names throughout;
//! rules read from apache/pulsar (MLTransactionMetadataStore at 30dd4f34,
//! PendingAckHandleImpl at 033a3b6e, TxnID, TransactionUtil, PulsarTransactionMetadata
//! .proto), i.e. Pulsar 2.10–3.x behaviour.
//!
//! - [`txn_id`]: `TxnID` (coordinator id + counter), printed `(most,least)`.
//! - [`managed_ledger`]: entries at `ledgerId:entryId`, the subscription cursor.
//! - [`transaction_buffer`]: per partition: ongoing/aborted ids, `maxReadPosition`.
//! - [`pending_ack`]: per subscription: acks held until the transaction ends.
//! - [`coordinator`]: the coordinator's store and its transaction log (replayable).
//! - [`command`]: the commands on the wire and the client exceptions.
//! - [`network`]: the Pulsar side's network, struck by `sim::Fault`.
//! - [`step_error`]: why the world refused a step, as data.
//! - [`world`], `client`, `broker`, `coordinator_service`, `topic_load`: the world and
//!   who does what.
//! - [`event`], [`action`]: what happened (data) and what can be done.

pub mod action;
mod broker;
mod client;
pub mod command;
pub mod coordinator;
mod coordinator_service;
pub mod event;
pub mod managed_ledger;
pub mod network;
pub mod pending_ack;
pub mod step_error;
mod topic_load;
pub mod transaction_buffer;
pub mod txn_id;
pub mod world;

pub use action::{Outcome, PulsarAction, SubscriptionType};
pub use command::{Command, PulsarError};
pub use coordinator::{
    MLTransactionMetadataStore, TransactionLog, TransactionMetadataEntry, TransactionSubscription,
    TxnMeta, TxnStatus,
};
pub use event::{PulsarEvent, PulsarEventKind};
pub use managed_ledger::{Entry, EntryData, ManagedCursor, ManagedLedger, Position};
pub use pending_ack::PendingAckHandle;
pub use step_error::PulsarStepError;
pub use transaction_buffer::{TopicTransactionBuffer, TransactionBufferState};
pub use txn_id::{TransactionCoordinatorID, TxnID};
pub use world::{ClientTxnState, PulsarConfig, PulsarWorld};
