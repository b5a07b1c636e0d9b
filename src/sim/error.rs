//! Why an action could not be applied, as data: the kind of refusal and its values.
//! The catalog (`crate::i18n`) words it; `Display` is the English text.

use serde::Serialize;

use crate::coordinator::internal_topics::InvalidTopicName;
use crate::fs::FsError;
use crate::log::TopicPartition;
use crate::protocol::config_error::ConfigError;
use crate::protocol::errors::Errors;

/// Why an action could not be applied. Nothing in the world changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SimError {
    /// Kafka's error when there is one (e.g. `UNKNOWN_TOPIC_OR_PARTITION`).
    pub error: Option<Errors>,
    pub kind: SimErrorKind,
}

/// What was refused, with the values a sentence needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SimErrorKind {
    UnknownPartition {
        tp: TopicPartition,
    },
    /// `kafka-transactions.sh abort`: no open transaction starts at that offset.
    NoOpenTransactionAt {
        tp: TopicPartition,
        start_offset: i64,
    },
    NotTransactional {
        producer: String,
    },
    NoProducer {
        name: String,
    },
    NoConsumer {
        name: String,
    },
    /// `seek()` to a negative offset (`IllegalArgumentException`).
    NegativeSeekOffset {
        offset: i64,
    },
    /// `seek()` on a partition the consumer is not assigned (`IllegalStateException`).
    NotAssigned {
        consumer: String,
        tp: TopicPartition,
    },
    /// The name is reserved (the raw client's).
    ReservedName {
        name: String,
    },
    ProducerExists {
        name: String,
    },
    ClientExists {
        name: String,
    },
    Config(ConfigError),
    EmptySend,
    EmptyBatch,
    TimeBackwards,
    /// `run MS` beyond an int of milliseconds.
    RunTooLong {
        ms: i64,
    },
    IllegalTopicName {
        name: String,
        reason: InvalidTopicName,
    },
    TopicExists {
        name: String,
    },
    /// `Topic.hasCollision`: the name equals an existing topic's once `.` and `_` are
    /// read as one character (metric names would clash).
    TopicCollision {
        name: String,
        existing: String,
    },
    PartitionCount {
        partitions: i32,
    },
    /// `replication.factor` larger than the cluster.
    ReplicationFactor {
        replication_factor: i32,
        brokers: i32,
    },
    /// CreateTopics with every broker fenced or in controlled shutdown: no replica
    /// could be in the ISR (`ReplicationControlManager.createTopic`, Kafka 4.0).
    AllBrokersFenced {
        replication_factor: i32,
    },
    InternalTopic {
        name: String,
    },
    /// An admin request (IncrementalAlterConfigs, CreatePartitions, DeleteTopics) for a
    /// topic the controller does not know.
    #[cfg(feature = "topic-admin")]
    UnknownTopic {
        name: String,
    },
    /// IncrementalAlterConfigs with a key that is not a topic config
    /// (`LogConfig.validateNames`: INVALID_CONFIG).
    #[cfg(feature = "topic-admin")]
    UnknownTopicConfig {
        key: String,
    },
    /// CreatePartitions with a count that is not larger than the topic's.
    #[cfg(feature = "topic-admin")]
    PartitionsNotIncreased {
        topic: String,
        current: i32,
        requested: i32,
    },
    /// NOT KAFKA: DeleteTopics on an internal topic (the coordinators' own logs are
    /// not deleted here).
    #[cfg(feature = "topic-admin")]
    DeleteInternalTopic {
        name: String,
    },
    /// CreatePartitions with a manual assignment the controller refuses
    /// (`ReplicationControlManager.validateManualPartitionAssignment`).
    #[cfg(feature = "topic-admin")]
    ReplicaAssignment(ReplicaAssignmentError),
    /// AlterPartitionReassignments for a topic or partition the controller does not
    /// know (UNKNOWN_TOPIC_OR_PARTITION, with the controller's own message).
    #[cfg(feature = "topic-admin")]
    ReassignUnknown {
        topic: String,
        partition: Option<i32>,
    },
    /// A cancel with no reassignment in progress.
    #[cfg(feature = "topic-admin")]
    NoReassignmentInProgress,
    /// `truncate broker-N TOPIC-P`: only a follower's log is truncated (by its fetcher).
    TruncateLeader {
        broker: i32,
        tp: TopicPartition,
    },
    /// `fault corrupt`: the broker has no such file (or no byte at that position).
    NoSuchFile {
        broker: i32,
        path: String,
    },
    /// `clean TOPIC-P` on a topic whose `cleanup.policy` lacks `compact`: Kafka's
    /// cleaner never cleans it.
    NotCompacted {
        tp: TopicPartition,
    },
    /// A broker's disk refused to create a partition.
    Storage(FsError),
    NoBroker {
        id: i32,
    },
    BrokerAlreadyStopped {
        id: i32,
    },
    BrokerAlreadyRunning {
        id: i32,
    },
    /// `controller N stop|start` for a voter the quorum does not have.
    NoController {
        id: i32,
        voters: Vec<i32>,
    },
    /// `controller N stop` on a stopped voter (`running: false`), or `start` on a
    /// running one.
    ControllerState {
        id: i32,
        running: bool,
    },
    /// A restarted broker still waits for the controller to accept its registration.
    BrokerRegistering {
        id: i32,
    },
    /// A raw request whose partition no broker leads.
    NoBrokerFor {
        api: &'static str,
    },
    /// `set-epoch`: a transactional id with a transaction open (or whose coordinator
    /// does not answer), or a producer that is transactional, has no producer id or
    /// has batches not yet acknowledged.
    #[cfg(feature = "set-epoch")]
    EpochNotSettable {
        name: String,
    },
    /// A consume-transform-produce round with a consumer that has no `group.id`
    /// (`KafkaConsumer.groupMetadata` throws `InvalidGroupIdException`).
    NoGroupId {
        consumer: String,
    },
    /// `subscribe()` by a consumer without a `group.id` (`InvalidGroupIdException`:
    /// group management needs a group).
    SubscribeWithoutGroupId {
        consumer: String,
    },
    /// A consume-transform-produce round found the group's offsets unstable: a
    /// transaction with new offsets is undecided (OffsetFetch with `require_stable`).
    UnstableOffsets {
        group: String,
    },
}

/// Why a manual partition assignment is refused (Kafka 4.0's
/// `InvalidReplicaAssignmentException` messages).
#[cfg(feature = "topic-admin")]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ReplicaAssignmentError {
    /// Not one replica list per new partition.
    Count {
        additional: i32,
        given: i32,
    },
    Empty,
    UnknownBroker {
        broker: i32,
    },
    Duplicate {
        broker: i32,
    },
    /// Not as many replicas as the topic's other partitions.
    ReplicationFactor {
        given: i32,
        expected: i32,
    },
    /// Every broker of the list is fenced or in controlled shutdown.
    AllFenced {
        partition: i32,
    },
    /// Reverting a reassignment would leave only replicas it was adding in the ISR:
    /// an unclean election, refused unless the topic allows one.
    RevertUnclean {
        topic: String,
        partition: i32,
    },
}

impl SimErrorKind {
    /// Kafka's error code for this refusal, when Kafka has one.
    fn kafka_error(&self) -> Option<Errors> {
        match self {
            SimErrorKind::UnknownPartition { .. } => Some(Errors::UnknownTopicOrPartition),
            SimErrorKind::Config(_) => Some(Errors::InvalidConfig),
            #[cfg(feature = "topic-admin")]
            SimErrorKind::UnknownTopic { .. } => Some(Errors::UnknownTopicOrPartition),
            #[cfg(feature = "topic-admin")]
            SimErrorKind::UnknownTopicConfig { .. } => Some(Errors::InvalidConfig),
            #[cfg(feature = "topic-admin")]
            SimErrorKind::PartitionsNotIncreased { .. } => Some(Errors::InvalidPartitions),
            #[cfg(feature = "topic-admin")]
            SimErrorKind::ReplicaAssignment(_) => Some(Errors::InvalidReplicaAssignment),
            #[cfg(feature = "topic-admin")]
            SimErrorKind::ReassignUnknown { .. } => Some(Errors::UnknownTopicOrPartition),
            #[cfg(feature = "topic-admin")]
            SimErrorKind::NoReassignmentInProgress => Some(Errors::NoReassignmentInProgress),
            SimErrorKind::IllegalTopicName { .. }
            | SimErrorKind::InternalTopic { .. }
            | SimErrorKind::TopicCollision { .. } => Some(Errors::InvalidTopicException),
            SimErrorKind::TopicExists { .. } => Some(Errors::TopicAlreadyExists),
            SimErrorKind::PartitionCount { .. } => Some(Errors::InvalidPartitions),
            SimErrorKind::ReplicationFactor { .. } | SimErrorKind::AllBrokersFenced { .. } => {
                Some(Errors::InvalidReplicationFactor)
            }
            SimErrorKind::UnstableOffsets { .. } => Some(Errors::UnstableOffsetCommit),
            _ => None,
        }
    }
}

impl From<SimErrorKind> for SimError {
    fn from(kind: SimErrorKind) -> Self {
        SimError {
            error: kind.kafka_error(),
            kind,
        }
    }
}

impl From<ConfigError> for SimError {
    fn from(e: ConfigError) -> Self {
        SimErrorKind::Config(e).into()
    }
}
