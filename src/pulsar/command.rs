//! What Pulsar clients and brokers say to each other (PulsarApi.proto's `Command*`),
//! and the exceptions a client sees (`ServerError` mapped by the client).

use serde::{Deserialize, Serialize};

use super::{Position, TransactionSubscription, TxnID};

/// The exception a client call ends with (the names of Pulsar's client exceptions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PulsarError {
    /// `ServerError.TransactionConflict`: the position is acked or pending in a txn.
    TransactionConflictException,
    /// `ServerError.InvalidTxnStatus`: the transaction is not in a state for this.
    InvalidTxnStatusException,
    /// `ServerError.TransactionNotFound`: the coordinator does not know (any more) the id.
    TransactionNotFoundException,
    /// `ServerError.TransactionCoordinatorNotFound`: no coordinator serves this id now
    /// (crashed, not loaded, or `transactionCoordinatorEnabled=false`).
    CoordinatorNotFoundException,
    /// `NotAllowedError`: e.g. a transactional call with transactions disabled.
    NotAllowedException,
    /// No answer within `operationTimeoutMs`.
    TimeoutException,
    /// `InvalidConfigurationException`: the client refuses a call its configuration
    /// does not allow (a cumulative ack on a Shared or Key_Shared subscription).
    InvalidConfigurationException,
    /// `TransactionHasOperationFailedException`: a commit refused by the client itself
    /// because a send or an ack of the transaction failed; the client aborts instead.
    TransactionHasOperationFailedException,
    /// `ServerError.PersistenceError` (`BrokerPersistenceException`): the managed
    /// ledger refused the write (a send, or a transactional ack's pending-ack record).
    BrokerPersistenceException,
}

impl PulsarError {
    pub fn name(self) -> &'static str {
        match self {
            PulsarError::TransactionConflictException => "TransactionConflictException",
            PulsarError::InvalidTxnStatusException => "InvalidTxnStatusException",
            PulsarError::TransactionNotFoundException => "TransactionNotFoundException",
            PulsarError::CoordinatorNotFoundException => "CoordinatorNotFoundException",
            PulsarError::NotAllowedException => "NotAllowedException",
            PulsarError::TimeoutException => "TimeoutException",
            PulsarError::InvalidConfigurationException => "InvalidConfigurationException",
            PulsarError::TransactionHasOperationFailedException => {
                "TransactionHasOperationFailedException"
            }
            PulsarError::BrokerPersistenceException => "BrokerPersistenceException",
        }
    }
}

impl std::fmt::Display for PulsarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One command on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Finds the broker serving a partition of `transaction_coordinator_assign`.
    LookupTopic {
        topic: String,
    },
    LookupTopicResponse {
        topic: String,
        broker: Option<i32>,
    },
    NewTxn {
        tc_id: u64,
        txn_ttl_ms: i64,
    },
    NewTxnResponse {
        result: Result<TxnID, PulsarError>,
    },
    AddPartitionToTxn {
        txn: TxnID,
        partitions: Vec<String>,
    },
    AddPartitionToTxnResponse {
        txn: TxnID,
        result: Result<(), PulsarError>,
    },
    AddSubscriptionToTxn {
        txn: TxnID,
        subscriptions: Vec<TransactionSubscription>,
    },
    AddSubscriptionToTxnResponse {
        txn: TxnID,
        result: Result<(), PulsarError>,
    },
    /// A message, in a transaction or not, with the producer's sequence id.
    Send {
        topic: String,
        producer_name: String,
        sequence_id: i64,
        txn: Option<TxnID>,
        value: String,
        /// `MessageMetadata.deliver_at_time` (`deliverAfter`/`deliverAt`), logical ms.
        #[serde(default)]
        deliver_at: Option<i64>,
        /// A batch of messages in one entry (`value` then lists them); empty for one.
        #[serde(default)]
        batch: Vec<String>,
    },
    /// `CommandSendReceipt`; a deduplicated message gets `-1:-1`.
    SendReceipt {
        sequence_id: i64,
        result: Result<Position, PulsarError>,
    },
    /// Permits for a consumer: the broker dispatches what it may.
    Flow {
        topic: String,
        subscription: String,
        permits: u32,
    },
    /// `CommandMessage`s of one dispatch, with each redelivered one's
    /// `redelivery_count` (absent: 0).
    Message {
        entries: Vec<(Position, String)>,
        #[serde(default)]
        redelivery_counts: std::collections::BTreeMap<Position, u32>,
    },
    /// `CommandRedeliverUnacknowledgedMessages` with message ids (a negative ack).
    RedeliverUnacknowledged {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
    },
    Ack {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
        txn: Option<TxnID>,
        cumulative: bool,
    },
    /// Sent only for a transactional ack.
    AckResponse {
        txn: TxnID,
        result: Result<(), PulsarError>,
    },
    EndTxn {
        txn: TxnID,
        commit: bool,
    },
    EndTxnResponse {
        txn: TxnID,
        result: Result<(), PulsarError>,
    },
    /// `CommandEndTxnOnPartition`, with the coordinator's `txnidLeastBitsOfLowWatermark`.
    EndTxnOnPartition {
        txn: TxnID,
        topic: String,
        commit: bool,
        low_water_mark: i64,
    },
    EndTxnOnPartitionResponse {
        txn: TxnID,
        topic: String,
    },
    /// `CommandEndTxnOnSubscription`, with the low water mark as above.
    EndTxnOnSubscription {
        txn: TxnID,
        subscription: TransactionSubscription,
        commit: bool,
        low_water_mark: i64,
    },
    EndTxnOnSubscriptionResponse {
        txn: TxnID,
        subscription: TransactionSubscription,
    },
}

impl Command {
    /// Pulsar's command name without `Command` (what faults match on).
    pub fn name(&self) -> &'static str {
        match self {
            Command::LookupTopic { .. } => "LookupTopic",
            Command::LookupTopicResponse { .. } => "LookupTopicResponse",
            Command::NewTxn { .. } => "NewTxn",
            Command::NewTxnResponse { .. } => "NewTxnResponse",
            Command::AddPartitionToTxn { .. } => "AddPartitionToTxn",
            Command::AddPartitionToTxnResponse { .. } => "AddPartitionToTxnResponse",
            Command::AddSubscriptionToTxn { .. } => "AddSubscriptionToTxn",
            Command::AddSubscriptionToTxnResponse { .. } => "AddSubscriptionToTxnResponse",
            Command::Send { .. } => "Send",
            Command::SendReceipt { .. } => "SendReceipt",
            Command::Flow { .. } => "Flow",
            Command::Message { .. } => "Message",
            Command::Ack { .. } => "Ack",
            Command::RedeliverUnacknowledged { .. } => "RedeliverUnacknowledgedMessages",
            Command::AckResponse { .. } => "AckResponse",
            Command::EndTxn { .. } => "EndTxn",
            Command::EndTxnResponse { .. } => "EndTxnResponse",
            Command::EndTxnOnPartition { .. } => "EndTxnOnPartition",
            Command::EndTxnOnPartitionResponse { .. } => "EndTxnOnPartitionResponse",
            Command::EndTxnOnSubscription { .. } => "EndTxnOnSubscription",
            Command::EndTxnOnSubscriptionResponse { .. } => "EndTxnOnSubscriptionResponse",
        }
    }
    /// The topic partition a broker command is about (it waits while that topic's
    /// transaction buffer recovers).
    pub fn topic(&self) -> Option<&str> {
        match self {
            Command::Send { topic, .. }
            | Command::Flow { topic, .. }
            | Command::Ack { topic, .. }
            | Command::RedeliverUnacknowledged { topic, .. }
            | Command::EndTxnOnPartition { topic, .. } => Some(topic),
            Command::EndTxnOnSubscription { subscription, .. } => Some(&subscription.topic),
            _ => None,
        }
    }
    /// The coordinator's answer in a response to a coordinator request.
    pub fn tc_error(&self) -> Option<PulsarError> {
        match self {
            Command::NewTxnResponse { result: Err(e) }
            | Command::AddPartitionToTxnResponse { result: Err(e), .. }
            | Command::AddSubscriptionToTxnResponse { result: Err(e), .. }
            | Command::EndTxnResponse { result: Err(e), .. } => Some(*e),
            _ => None,
        }
    }
    /// The request API a message belongs to (a response's request), for fault matching.
    pub fn api(&self) -> &'static str {
        let name = self.name();
        match self {
            Command::SendReceipt { .. } => "Send",
            Command::Message { .. } => "Flow",
            _ => name.strip_suffix("Response").unwrap_or(name),
        }
    }
    pub fn is_response(&self) -> bool {
        matches!(
            self,
            Command::LookupTopicResponse { .. }
                | Command::NewTxnResponse { .. }
                | Command::AddPartitionToTxnResponse { .. }
                | Command::AddSubscriptionToTxnResponse { .. }
                | Command::SendReceipt { .. }
                | Command::Message { .. }
                | Command::AckResponse { .. }
                | Command::EndTxnResponse { .. }
                | Command::EndTxnOnPartitionResponse { .. }
                | Command::EndTxnOnSubscriptionResponse { .. }
        )
    }
}
