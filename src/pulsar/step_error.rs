//! Why the Pulsar world refused a step, as data: a name it does not have, a number
//! outside what a setting takes, a step out of order. A refused step changes nothing.
//! Pulsar's own name where Pulsar has one (`TopicNotFound`, `SubscriptionNotFound`,
//! `CoordinatorNotFoundException`); the words are in the catalog (`pulsar.refused.*`),
//! worded at the edge (`i18n::narration::pulsar_step_error_msg`).

use super::Position;

/// A Pulsar step the Pulsar world (or the scenario runner driving it) refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PulsarStepError {
    /// Pulsar's `ServerError.TopicNotFound`: no such topic partition.
    TopicNotFound { topic: String },
    /// Pulsar's `ServerError.SubscriptionNotFound`.
    SubscriptionNotFound { topic: String, subscription: String },
    /// `CoordinatorNotFoundException`: no transaction coordinator with this id.
    CoordinatorNotFound { tc: u64 },
    /// A consumer name no `pulsar subscribe` made.
    UnknownConsumer { consumer: String },
    /// A transaction name no `pulsar txn new` opened.
    UnknownTransaction { name: String },
    /// The admin's `ConflictException`: a partition of the topic exists.
    TopicAlreadyExists { topic: String },
    /// A second `pulsar subscribe` with a consumer name already in use.
    ConsumerAlreadyExists { consumer: String },
    /// A second `pulsar txn new` with a transaction name already in use.
    TransactionAlreadyExists { name: String },
    /// `transactionCoordinatorEnabled=false`: there is no coordinator to recover.
    CoordinatorDisabled,
    /// A recovery asked of a coordinator that runs.
    CoordinatorRunning { tc: u64 },
    /// A recovery asked of a coordinator still replaying its log.
    CoordinatorLoading { tc: u64 },
    /// An unload asked of a topic still loading.
    TopicLoading { topic: String },
    /// A snapshot asked of a transaction buffer that is not Ready
    /// (`TopicTransactionBuffer`'s `checkIfReady`); the state's Pulsar name.
    BufferNotReady { topic: String, state: &'static str },
    /// A batch index that names no message of a batch entry of the ledger.
    NotInBatch { position: Position, ledger: String },
    /// A fault the Pulsar network has no use for (an injected Kafka error, a message
    /// by its Kafka id).
    FaultNotAvailable,
    /// A cumulative ack with more than one position.
    CumulativeAckOnePosition,
    /// A cumulative ack of a batch index: it takes an entry's position.
    CumulativeAckEntryPosition,
    /// `pulsar topic create … partitions=` outside 1 to 8.
    PartitionsOutOfRange,
    /// A transaction timeout outside 0 to `i32::MAX` ms.
    TimeoutOutOfRange,
    /// `replay.ms` outside 0 to `i32::MAX`.
    ReplayOutOfRange,
    /// `deliver.after` outside 0 to `i32::MAX` ms.
    DeliverAfterOutOfRange,
    /// `pulsar run` outside 0 to `i32::MAX` ms.
    RunOutOfRange,
    /// `dlq.max.redeliver` below 1.
    MaxRedeliverTooLow,
    /// `pulsar cluster` after another Pulsar step: the world is made already.
    ClusterNotFirst,
}
