//! The transaction coordinator: which broker owns a transactional id, what it
//! remembers about it, how it writes that to `__transaction_state`, and how it
//! drives a transaction from `Empty` through `Ongoing` and `Prepare*` to
//! `Complete*`.
//!
//! A map of the module (Kafka's names in brackets):
//!
//! - [`state`]: the eight states and the transition table (`TransactionState`).
//! - [`metadata`]: per-transactional-id memory and its two-step transitions
//!   (`TransactionMetadata`, `TxnTransitMetadata`, `TransactionVersion`).
//! - [`log_format`]: `__transaction_state` key/value bytes (`TransactionLog`,
//!   `TransactionLogKey`, `TransactionLogValue`).
//! - [`message_formatter`]: the dump-log JSON of those records
//!   (`TransactionLogMessageFormatter`).
//! - [`transaction_coordinator`]: the sans-IO state machine (`TransactionCoordinator` together
//!   with the parts of `TransactionStateManager` and
//!   `TransactionMarkerChannelManager` it needs). Log writes and producer ids go
//!   through [`TxnLogWriter`]; marker sending is an output the broker carries out.
//!
//! - [`version`]: what differs between `transaction.version` 0/1 and 2 (`TxnFeatures`).
//!
//! transaction.version 2 (KIP-890) is the default, as in Kafka 4.x; TV0/TV1 follow
//! Kafka 4.0's rules for them.

pub mod log_format;
pub mod message_formatter;
pub mod metadata;
pub mod state;
pub mod transaction_coordinator;
pub mod version;

pub use log_format::{
    decode_key, decode_value, key_json, key_to_bytes, payload_json, value_json, value_to_bytes,
    PartitionsSchema, TransactionLogValue, TxnLogError,
};
pub use metadata::{
    InternalError, TransactionMetadata, TransactionVersion, TransitionError, TxnTransitMetadata,
};
pub use state::TransactionState;
pub use transaction_coordinator::{
    CoordinatorEvent, CoordinatorOutput, EndTxnResult, InitProducerIdResult,
    TransactionCoordinator, TransactionDescription, TransactionListing, TxnLogWriter, TxnResult,
};
pub use version::TxnFeatures;

use crate::protocol::errors::Errors;

/// Name of the internal topic (`Topic.TRANSACTION_STATE_TOPIC_NAME`).
pub use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;

/// DescribeTransactions for an unknown transactional id.
/// TRANSACTIONAL_ID_NOT_FOUND(105).
pub const TRANSACTIONAL_ID_NOT_FOUND: Errors = Errors::TransactionalIdNotFound;

/// TRANSACTION_ABORTABLE(120).
pub const TRANSACTION_ABORTABLE: Errors = Errors::TransactionAbortable;

/// The coordinator's configuration (Kafka's `TransactionConfig`, from
/// `TransactionLogConfig` / `TransactionStateManagerConfig`). Simplified: no
/// replication or segment settings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TransactionConfig {
    /// `transaction.state.log.num.partitions` (50).
    pub num_partitions: i32,
    /// The producer's `transaction.timeout.ms` default (60000), for callers that
    /// need one.
    pub default_txn_timeout_ms: i32,
    /// `transaction.max.timeout.ms` (900000): InitProducerId above it gets
    /// INVALID_TRANSACTION_TIMEOUT.
    pub max_txn_timeout_ms: i32,
    /// `transaction.abort.timed.out.transaction.cleanup.interval.ms` (10000): how
    /// often the broker should call `abort_timed_out_transactions`.
    pub abort_timed_out_cleanup_interval_ms: i64,
    /// The cluster's finalized `transaction.version` (2). Decides the log value
    /// version and the version used for coordinator-initiated aborts.
    pub transaction_version: TransactionVersion,
    /// `transactional.id.expiration.ms` (7 days): an id with no transaction going on
    /// and no update for this long is forgotten (Dead, then a tombstone).
    pub transactional_id_expiration_ms: i64,
    /// `transaction.remove.expired.transaction.cleanup.interval.ms` (1 hour): how often
    /// the broker should call `remove_expired_transactional_ids`.
    pub remove_expired_transactional_ids_interval_ms: i64,
    /// NOT KAFKA: the "break it" switches the coordinator follows (all off: Kafka).
    pub breaks: crate::breaks::Breaks,
}

impl Default for TransactionConfig {
    fn default() -> Self {
        TransactionConfig {
            num_partitions: 50,
            default_txn_timeout_ms: 60_000,
            max_txn_timeout_ms: 900_000,
            abort_timed_out_cleanup_interval_ms: 10_000,
            transaction_version: TransactionVersion::TV_2,
            transactional_id_expiration_ms: 7 * 24 * 3_600_000,
            remove_expired_transactional_ids_interval_ms: 3_600_000,
            breaks: crate::breaks::Breaks::default(),
        }
    }
}
