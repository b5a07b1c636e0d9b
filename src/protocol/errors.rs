//! Kafka's error codes, by name (mirrors `org.apache.kafka.common.protocol.Errors`).
//!
//! Only the errors the playground can produce are listed; names, codes and the
//! one-line messages are Kafka's, so a learner can search the real source for them.

use serde::{Deserialize, Serialize};

macro_rules! errors {
    ($($(#[$attr:meta])* $variant:ident = $code:expr, $name:literal, $msg:literal, $retriable:expr;)*) => {
        /// An error code carried in a response (`Errors` in Kafka).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum Errors { $($(#[$attr])* $variant),* }

        impl Errors {
            /// Every error the playground knows, in code order of declaration.
            pub const ALL: &'static [Errors] = &[$($(#[$attr])* Errors::$variant),*];
            /// The numeric code on the wire.
            pub fn code(self) -> i16 { match self { $($(#[$attr])* Errors::$variant => $code),* } }
            /// Kafka's constant name, e.g. `OUT_OF_ORDER_SEQUENCE_NUMBER`.
            pub fn name(self) -> &'static str { match self { $($(#[$attr])* Errors::$variant => $name),* } }
            /// Kafka's default message for the error.
            pub fn message(self) -> &'static str { match self { $($(#[$attr])* Errors::$variant => $msg),* } }
            /// Whether a client retries the request on its own (Kafka's `RetriableException`).
            pub fn is_retriable(self) -> bool { match self { $($(#[$attr])* Errors::$variant => $retriable),* } }
        }
    };
}

errors! {
    UnknownServerError = -1, "UNKNOWN_SERVER_ERROR", "The server experienced an unexpected error when processing the request.", false;
    None = 0, "NONE", "", false;
    OffsetOutOfRange = 1, "OFFSET_OUT_OF_RANGE", "The requested offset is not within the range of offsets maintained by the server.", false;
    CorruptMessage = 2, "CORRUPT_MESSAGE", "This message has failed its CRC checksum, exceeds the valid size, has a null key for a compacted topic, or is otherwise corrupt.", true;
    UnknownTopicOrPartition = 3, "UNKNOWN_TOPIC_OR_PARTITION", "This server does not host this topic-partition.", true;
    NotLeaderOrFollower = 6, "NOT_LEADER_OR_FOLLOWER", "For requests intended only for the leader, this error indicates that the broker is not the current leader.", true;
    RequestTimedOut = 7, "REQUEST_TIMED_OUT", "The request timed out.", true;
    NotEnoughReplicas = 19, "NOT_ENOUGH_REPLICAS", "Messages are rejected since there are fewer in-sync replicas than required.", true;
    NotEnoughReplicasAfterAppend = 20, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", "Messages are written to the log, but to fewer in-sync replicas than required.", true;
    FencedLeaderEpoch = 74, "FENCED_LEADER_EPOCH", "The leader epoch in the request is older than the epoch on the broker.", true;
    UnknownLeaderEpoch = 75, "UNKNOWN_LEADER_EPOCH", "The leader epoch in the request is newer than the epoch on the broker.", true;
    OffsetNotAvailable = 78, "OFFSET_NOT_AVAILABLE", "The leader high watermark has not caught up from a recent leader election so the offsets cannot be guaranteed to be monotonically increasing.", true;
    MessageTooLarge = 10, "MESSAGE_TOO_LARGE", "The request included a message larger than the max message size the server will accept.", false;
    RecordListTooLarge = 18, "RECORD_LIST_TOO_LARGE", "The request included message batch larger than the configured segment size on the server.", false;
    NetworkException = 13, "NETWORK_EXCEPTION", "The server disconnected before a response was received.", true;
    CoordinatorLoadInProgress = 14, "COORDINATOR_LOAD_IN_PROGRESS", "The coordinator is loading and hence can't process requests.", true;
    CoordinatorNotAvailable = 15, "COORDINATOR_NOT_AVAILABLE", "The coordinator is not available.", true;
    NotCoordinator = 16, "NOT_COORDINATOR", "This is not the correct coordinator.", true;
    InvalidTopicException = 17, "INVALID_TOPIC_EXCEPTION", "The request attempted to perform an operation on an invalid topic.", false;
    InvalidRequiredAcks = 21, "INVALID_REQUIRED_ACKS", "Produce request specified an invalid value for required acks.", false;
    TopicAlreadyExists = 36, "TOPIC_ALREADY_EXISTS", "Topic with this name already exists.", false;
    InvalidPartitions = 37, "INVALID_PARTITIONS", "Number of partitions is below 1.", false;
    InvalidReplicationFactor = 38, "INVALID_REPLICATION_FACTOR", "Replication factor is below 1 or larger than the number of available brokers.", false;
    // The topic admin steps' (feature `topic-admin`): CreatePartitions, and
    // AddPartitionsToTxn for a partition the metadata lacks.
    #[cfg(feature = "topic-admin")]
    InvalidReplicaAssignment = 39, "INVALID_REPLICA_ASSIGNMENT", "Replica assignment is invalid.", false;
    // Partition reassignment (feature `topic-admin`): a cancel with none in progress,
    // and the answer to an AlterPartition whose ISR completed a reassignment that
    // moved the leader away.
    #[cfg(feature = "topic-admin")]
    NoReassignmentInProgress = 85, "NO_REASSIGNMENT_IN_PROGRESS", "No partition reassignment is in progress.", false;
    #[cfg(feature = "topic-admin")]
    NewLeaderElected = 108, "NEW_LEADER_ELECTED", "The AlterPartition request successfully updated the partition state but the leader has changed.", false;
    InvalidConfig = 40, "INVALID_CONFIG", "Configuration is invalid.", false;
    InvalidRequest = 42, "INVALID_REQUEST", "This most likely occurs because of a request being malformed by the client library or the message was sent to an incompatible broker. See the broker logs for more details.", false;
    OutOfOrderSequenceNumber = 45, "OUT_OF_ORDER_SEQUENCE_NUMBER", "The broker received an out of order sequence number.", false;
    DuplicateSequenceNumber = 46, "DUPLICATE_SEQUENCE_NUMBER", "The broker received a duplicate sequence number.", false;
    InvalidProducerEpoch = 47, "INVALID_PRODUCER_EPOCH", "Producer attempted to produce with an old epoch.", false;
    InvalidTxnState = 48, "INVALID_TXN_STATE", "The producer attempted a transactional operation in an invalid state.", false;
    InvalidProducerIdMapping = 49, "INVALID_PRODUCER_ID_MAPPING", "The producer attempted to use a producer id which is not currently assigned to its transactional id.", false;
    InvalidTransactionTimeout = 50, "INVALID_TRANSACTION_TIMEOUT", "The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).", false;
    ConcurrentTransactions = 51, "CONCURRENT_TRANSACTIONS", "The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing.", true;
    TransactionCoordinatorFenced = 52, "TRANSACTION_COORDINATOR_FENCED", "Indicates that the transaction coordinator sending a WriteTxnMarker is no longer the current coordinator for a given producer.", false;
    PolicyViolation = 44, "POLICY_VIOLATION", "Request parameters do not satisfy the configured policy.", false;
    OperationNotAttempted = 55, "OPERATION_NOT_ATTEMPTED", "The broker did not attempt to execute this operation. This may happen for batched RPCs where some operations in the batch failed, causing the broker to respond without trying the rest.", false;
    UnknownProducerId = 59, "UNKNOWN_PRODUCER_ID", "This exception is raised by the broker if it could not locate the producer metadata associated with the producerId in question. This could happen if, for instance, the producer's records were deleted because their retention time had elapsed. Once the last records of the producerId are removed, the producer's metadata is removed from the broker, and future appends by the producer will return this exception.", false;
    // The classic group protocol's (JoinGroup, SyncGroup, Heartbeat, LeaveGroup) and
    // the generation check of OffsetCommit/TxnOffsetCommit (KIP-447).
    IllegalGeneration = 22, "ILLEGAL_GENERATION", "Specified group generation id is not valid.", false;
    // A TxnOffsetCommit with an empty group id (`GroupCoordinatorService`).
    InvalidGroupId = 24, "INVALID_GROUP_ID", "The configured groupId is invalid.", false;
    UnknownMemberId = 25, "UNKNOWN_MEMBER_ID", "The coordinator is not aware of this member.", false;
    RebalanceInProgress = 27, "REBALANCE_IN_PROGRESS", "The group is rebalancing, so a rejoin is needed.", false;
    MemberIdRequired = 79, "MEMBER_ID_REQUIRED", "The group member needs to have a valid member id before actually entering a consumer group.", false;
    FencedInstanceId = 82, "FENCED_INSTANCE_ID", "The broker rejected this static consumer since another consumer with the same group.instance.id has registered with a different member.id.", false;
    UnstableOffsetCommit = 88, "UNSTABLE_OFFSET_COMMIT", "There are unstable offsets that need to be cleared.", true;
    UnsupportedCompressionType = 76, "UNSUPPORTED_COMPRESSION_TYPE", "The requesting client does not support the compression type of given partition.", false;
    InvalidRecord = 87, "INVALID_RECORD", "This record has failed the validation on broker and hence will be rejected.", false;
    TransactionalIdNotFound = 105, "TRANSACTIONAL_ID_NOT_FOUND", "The transactionalId could not be found.", false;
    TransactionAbortable = 120, "TRANSACTION_ABORTABLE", "The server encountered an error with the transaction. The client can abort the transaction to continue using this transactional ID.", false;
    NotController = 41, "NOT_CONTROLLER", "This is not the correct controller for this cluster.", false;
    StaleBrokerEpoch = 77, "STALE_BROKER_EPOCH", "Broker epoch has changed.", false;
    PreferredLeaderNotAvailable = 80, "PREFERRED_LEADER_NOT_AVAILABLE", "The preferred leader was not available.", true;
    EligibleLeadersNotAvailable = 83, "ELIGIBLE_LEADERS_NOT_AVAILABLE", "Eligible topic partition leaders are not available.", true;
    ElectionNotNeeded = 84, "ELECTION_NOT_NEEDED", "Leader election not needed for topic partition.", false;
    InvalidUpdateVersion = 95, "INVALID_UPDATE_VERSION", "The given update version was invalid.", false;
    DuplicateBrokerRegistration = 101, "DUPLICATE_BROKER_REGISTRATION", "This broker ID is already in use.", false;
    IneligibleReplica = 107, "INELIGIBLE_REPLICA", "The new ISR contains at least one ineligible replica.", false;
    // The other answers Kafka's `TransactionManager` handlers name, so a fault can send
    // them and the client reacts as Kafka's does (ACLs are not modelled: nothing in the
    // engine answers these itself).
    TopicAuthorizationFailed = 29, "TOPIC_AUTHORIZATION_FAILED", "Topic authorization failed.", false;
    GroupAuthorizationFailed = 30, "GROUP_AUTHORIZATION_FAILED", "Group authorization failed.", false;
    ClusterAuthorizationFailed = 31, "CLUSTER_AUTHORIZATION_FAILED", "Cluster authorization failed.", false;
    UnsupportedVersion = 35, "UNSUPPORTED_VERSION", "The version of API is not supported.", false;
    UnsupportedForMessageFormat = 43, "UNSUPPORTED_FOR_MESSAGE_FORMAT", "The message format version on the broker does not support the request.", false;
    TransactionalIdAuthorizationFailed = 53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", "Transactional Id authorization failed.", false;
    ProducerFenced = 90, "PRODUCER_FENCED", "There is a newer producer with the same transactionalId which fences the current one.", false;
}

impl Errors {
    /// The Java exception a Kafka client application catches for this error, e.g.
    /// `InvalidProducerEpochException` (the name is the error's words in CamelCase).
    pub fn exception_name(self) -> String {
        match self {
            Errors::None => "none".into(),
            Errors::UnknownServerError => "UnknownServerException".into(),
            Errors::InvalidTopicException => "InvalidTopicException".into(),
            Errors::RecordListTooLarge => "RecordBatchTooLargeException".into(),
            Errors::NotLeaderOrFollower => "NotLeaderOrFollowerException".into(),
            Errors::RequestTimedOut => "TimeoutException".into(),
            Errors::NetworkException => "NetworkException".into(),
            Errors::OutOfOrderSequenceNumber => "OutOfOrderSequenceException".into(),
            Errors::DuplicateSequenceNumber => "DuplicateSequenceException".into(),
            Errors::CorruptMessage => "CorruptRecordException".into(),
            Errors::MessageTooLarge => "RecordTooLargeException".into(),
            Errors::InvalidTransactionTimeout => "InvalidTxnTimeoutException".into(),
            Errors::InvalidProducerIdMapping => "InvalidPidMappingException".into(),
            Errors::TopicAuthorizationFailed => "TopicAuthorizationException".into(),
            Errors::GroupAuthorizationFailed => "GroupAuthorizationException".into(),
            Errors::ClusterAuthorizationFailed => "ClusterAuthorizationException".into(),
            Errors::TransactionalIdAuthorizationFailed => {
                "TransactionalIdAuthorizationException".into()
            }
            other => {
                let words: String = other
                    .name()
                    .split('_')
                    .map(|w| {
                        let lower = w.to_ascii_lowercase();
                        let mut chars = lower.chars();
                        chars
                            .next()
                            .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                            .unwrap_or_default()
                    })
                    .collect();
                let words = words
                    .strip_suffix("Exception")
                    .map(str::to_string)
                    .unwrap_or(words);
                format!("{words}Exception")
            }
        }
    }
}

impl std::fmt::Display for Errors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({})", self.name(), self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes_match_kafka() {
        assert_eq!(Errors::OutOfOrderSequenceNumber.code(), 45);
        assert_eq!(Errors::InvalidProducerEpoch.code(), 47);
        assert_eq!(
            Errors::CoordinatorLoadInProgress.name(),
            "COORDINATOR_LOAD_IN_PROGRESS"
        );
        assert_eq!(
            Errors::OutOfOrderSequenceNumber.to_string(),
            "OUT_OF_ORDER_SEQUENCE_NUMBER(45)"
        );
        assert!(Errors::CoordinatorLoadInProgress.is_retriable());
        assert!(!Errors::OutOfOrderSequenceNumber.is_retriable());
        assert_eq!(
            Errors::InvalidProducerEpoch.exception_name(),
            "InvalidProducerEpochException"
        );
        assert_eq!(
            Errors::OutOfOrderSequenceNumber.exception_name(),
            "OutOfOrderSequenceException"
        );
        assert_eq!(
            Errors::ProducerFenced.exception_name(),
            "ProducerFencedException"
        );
    }

    #[test]
    fn codes_are_unique() {
        let mut codes: Vec<i16> = Errors::ALL.iter().map(|e| e.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), Errors::ALL.len());
    }
}
