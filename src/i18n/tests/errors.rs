//! Samples of every error detail and refusal (`ErrorDetail`, `SimError`).

use crate::client::transaction_manager::{TxnCallError, TxnState};
use crate::coordinator::internal_topics::InvalidTopicName;
use crate::fs::FsError;
use crate::log::TopicPartition;
use crate::protocol::config_error::{ConfigError, ConfigRule, ConfigScope};
use crate::protocol::{ErrorDetail, Errors};
use crate::record::RecordError;
#[cfg(feature = "topic-admin")]
use crate::sim::error::ReplicaAssignmentError;
use crate::sim::{SimError, SimErrorKind};

use super::events::tp;

pub(super) fn error_details() -> Vec<ErrorDetail> {
    let partition = || "orders-0".to_string();
    vec![
        ErrorDetail::BatchTooLarge {
            size: 2000,
            max_message_bytes: 1000,
        },
        ErrorDetail::EpochTooOld {
            producer_id: 0,
            offset: 2,
            partition: partition(),
            epoch: 0,
            current_epoch: 1,
        },
        ErrorDetail::NewEpochSequence {
            producer_id: 0,
            offset: 2,
            partition: partition(),
            epoch: 1,
            first_seq: 3,
            current_epoch: 0,
        },
        ErrorDetail::OutOfOrderSequence {
            producer_id: 0,
            offset: 2,
            partition: partition(),
            first_seq: 4,
            last_seq: 1,
        },
        ErrorDetail::MarkerEpochNotNewer {
            producer_id: 0,
            offset: 2,
            partition: partition(),
            epoch: 0,
            current_epoch: 0,
        },
        ErrorDetail::EpochTooOldForVerification {
            producer_id: 0,
            epoch: 0,
            current_epoch: 1,
        },
        ErrorDetail::OneBatchPerRequest,
        ErrorDetail::InvalidBatch(RecordError::CorruptMessage {
            stored_crc: 1,
            computed_crc: 2,
        }),
        ErrorDetail::ControlRecordsFromClient,
        ErrorDetail::CompactedTopicWithoutKey {
            partition: "t-0".into(),
        },
        ErrorDetail::InvalidSequence {
            base_sequence: -1,
            producer_id: 0,
            partition: "t-0".into(),
        },
        ErrorDetail::BatchLargerThanSegment {
            size: 2000,
            segment_bytes: 1000,
        },
        ErrorDetail::Storage(FsError::NotFound("/b/data".into())),
        ErrorDetail::NoTransactionCoordinator,
        ErrorDetail::MissingTransactionalId,
        ErrorDetail::PartitionNotAdded,
        ErrorDetail::VerificationNotCompleted {
            underlying: Errors::CoordinatorLoadInProgress,
        },
    ]
}

/// Every exception a transactional call throws at once, in each state it names.
pub(super) fn txn_call_errors() -> Vec<TxnCallError> {
    let id = || "tx".to_string();
    let mut out = vec![
        TxnCallError::NoTransactionManager,
        TxnCallError::NotTransactional,
        TxnCallError::PendingCall {
            call: "beginTransaction",
            pending: "commitTransaction",
        },
        TxnCallError::AddPartitionBeforeInit { tp: tp() },
        TxnCallError::Fenced {
            transactional_id: id(),
            producer_id: 0,
            producer_epoch: 1,
        },
    ];
    for abortable in [true, false] {
        out.push(TxnCallError::OldEpoch {
            transactional_id: id(),
            producer_id: 0,
            producer_epoch: 0,
            abortable,
        });
        out.push(TxnCallError::InErrorState {
            cause: Some(Errors::InvalidTxnState),
            cause_exception: Some("InvalidTxnStateException".into()),
            abortable,
        });
    }
    out.push(TxnCallError::InErrorState {
        cause: None,
        cause_exception: None,
        abortable: false,
    });
    for from in TxnState::ALL {
        for to in TxnState::ALL {
            out.push(TxnCallError::InvalidTransition {
                transactional_id: id(),
                from,
                to,
            });
        }
        out.push(TxnCallError::AddPartitionNotInTransaction {
            tp: tp(),
            state: from,
        });
        out.push(TxnCallError::OffsetsWithoutTransaction { state: from });
    }
    out
}

pub(super) fn sim_errors() -> Vec<SimError> {
    let name = || "producer-1".to_string();
    let invalid = |rule| ConfigError::invalid("acks", "2", rule);
    let configs = [
        invalid(Some(ConfigRule::OneOf(&["all", "-1", "0", "1"]))),
        invalid(Some(ConfigRule::AtLeast(1))),
        invalid(Some(ConfigRule::NoMoreThan(5))),
        invalid(Some(ConfigRule::NotNumberBetween {
            kind: "SHORT",
            min: 0,
            max: 2,
        })),
        invalid(Some(ConfigRule::NonEmpty)),
        invalid(Some(ConfigRule::NotANumber)),
        invalid(Some(ConfigRule::Boolean)),
        invalid(Some(ConfigRule::TrueOrFalse)),
        invalid(Some(ConfigRule::AutoCommitNotSimulated)),
        invalid(None),
        ConfigError::Unknown {
            scope: ConfigScope::Producer,
            key: "x".into(),
        },
        ConfigError::Unknown {
            scope: ConfigScope::Consumer,
            key: "x".into(),
        },
        ConfigError::Unknown {
            scope: ConfigScope::Cluster,
            key: "x".into(),
        },
        ConfigError::TransactionalIdNeedsIdempotence,
        ConfigError::IdempotenceNeedsAcksAll,
        ConfigError::IdempotenceMaxInFlight,
        ConfigError::IdempotenceNeedsRetries,
    ];
    let kinds = [
        SimErrorKind::UnknownPartition {
            tp: TopicPartition::new("orders", 9),
        },
        SimErrorKind::NotTransactional { producer: name() },
        SimErrorKind::NoProducer { name: name() },
        SimErrorKind::NoConsumer { name: name() },
        SimErrorKind::ReservedName { name: name() },
        SimErrorKind::ProducerExists { name: name() },
        SimErrorKind::ClientExists { name: name() },
        SimErrorKind::EmptySend,
        SimErrorKind::EmptyBatch,
        SimErrorKind::TruncateLeader {
            broker: 1,
            tp: TopicPartition::new("orders", 0),
        },
        SimErrorKind::NoSuchFile {
            broker: 1,
            path: "orders-0/00000000000000000009.log".into(),
        },
        SimErrorKind::NotCompacted {
            tp: TopicPartition::new("orders", 0),
        },
        SimErrorKind::TimeBackwards,
        SimErrorKind::RunTooLong { ms: i64::MAX },
        SimErrorKind::IllegalTopicName {
            name: "a b".into(),
            reason: InvalidTopicName::IllegalCharacter,
        },
        SimErrorKind::IllegalTopicName {
            name: ".".into(),
            reason: InvalidTopicName::Dot,
        },
        SimErrorKind::TopicExists {
            name: "orders".into(),
        },
        SimErrorKind::TopicCollision {
            name: "a.b".into(),
            existing: "a_b".into(),
        },
        SimErrorKind::PartitionCount { partitions: 0 },
        SimErrorKind::InternalTopic {
            name: "__transaction_state".into(),
        },
        SimErrorKind::Storage(FsError::AlreadyExists("/b".into())),
        SimErrorKind::NoBroker { id: 9 },
        SimErrorKind::BrokerAlreadyStopped { id: 1 },
        SimErrorKind::BrokerAlreadyRunning { id: 1 },
        SimErrorKind::BrokerRegistering { id: 1 },
        SimErrorKind::NoBrokerFor { api: "Produce" },
        SimErrorKind::NoController {
            id: 7,
            voters: vec![1, 2, 3],
        },
        SimErrorKind::ControllerState {
            id: 1,
            running: true,
        },
        SimErrorKind::ControllerState {
            id: 1,
            running: false,
        },
    ];
    #[cfg(feature = "topic-admin")]
    let kinds = kinds.into_iter().chain([
        SimErrorKind::UnknownTopic {
            name: "orders".into(),
        },
        SimErrorKind::UnknownTopicConfig {
            key: "replication.factor".into(),
        },
        SimErrorKind::PartitionsNotIncreased {
            topic: "orders".into(),
            current: 3,
            requested: 3,
        },
        SimErrorKind::PartitionsNotIncreased {
            topic: "orders".into(),
            current: 3,
            requested: 2,
        },
        SimErrorKind::DeleteInternalTopic {
            name: "__transaction_state".into(),
        },
        SimErrorKind::ReplicaAssignment(ReplicaAssignmentError::Count {
            additional: 2,
            given: 1,
        }),
        SimErrorKind::ReplicaAssignment(ReplicaAssignmentError::Empty),
        SimErrorKind::ReplicaAssignment(ReplicaAssignmentError::UnknownBroker { broker: 9 }),
        SimErrorKind::ReplicaAssignment(ReplicaAssignmentError::Duplicate { broker: 2 }),
        SimErrorKind::ReplicaAssignment(ReplicaAssignmentError::ReplicationFactor {
            given: 3,
            expected: 2,
        }),
        SimErrorKind::ReplicaAssignment(ReplicaAssignmentError::AllFenced { partition: 4 }),
    ]);
    #[cfg(feature = "set-epoch")]
    let kinds = kinds
        .into_iter()
        .chain([SimErrorKind::EpochNotSettable { name: name() }]);
    kinds
        .into_iter()
        .map(SimError::from)
        .chain(configs.into_iter().map(SimError::from))
        .collect()
}

/// One of each Pulsar step refusal.
#[cfg(feature = "pulsar")]
pub(super) fn pulsar_step_errors() -> Vec<crate::pulsar::PulsarStepError> {
    use crate::pulsar::{Position, PulsarStepError as E};
    let topic = || "t-partition-0".to_string();
    let all = vec![
        E::TopicNotFound { topic: topic() },
        E::SubscriptionNotFound {
            topic: topic(),
            subscription: "sub".into(),
        },
        E::CoordinatorNotFound { tc: 7 },
        E::UnknownConsumer {
            consumer: "ghost".into(),
        },
        E::UnknownTransaction { name: "t9".into() },
        E::TopicAlreadyExists { topic: "t".into() },
        E::ConsumerAlreadyExists {
            consumer: "c".into(),
        },
        E::TransactionAlreadyExists { name: "t1".into() },
        E::CoordinatorDisabled,
        E::CoordinatorRunning { tc: 0 },
        E::CoordinatorLoading { tc: 0 },
        E::TopicLoading { topic: topic() },
        E::BufferNotReady {
            topic: topic(),
            state: "Initializing",
        },
        E::NotInBatch {
            position: Position {
                ledger_id: 3,
                entry_id: 0,
                batch_index: Some(5),
            },
            ledger: topic(),
        },
        E::FaultNotAvailable,
        E::CumulativeAckOnePosition,
        E::CumulativeAckEntryPosition,
        E::PartitionsOutOfRange,
        E::TimeoutOutOfRange,
        E::ReplayOutOfRange,
        E::DeliverAfterOutOfRange,
        E::RunOutOfRange,
        E::MaxRedeliverTooLow,
        E::ClusterNotFirst,
    ];
    // A new variant must be added above: this match has no wildcard.
    for e in &all {
        match e {
            E::TopicNotFound { .. }
            | E::SubscriptionNotFound { .. }
            | E::CoordinatorNotFound { .. }
            | E::UnknownConsumer { .. }
            | E::UnknownTransaction { .. }
            | E::TopicAlreadyExists { .. }
            | E::ConsumerAlreadyExists { .. }
            | E::TransactionAlreadyExists { .. }
            | E::CoordinatorDisabled
            | E::CoordinatorRunning { .. }
            | E::CoordinatorLoading { .. }
            | E::TopicLoading { .. }
            | E::BufferNotReady { .. }
            | E::NotInBatch { .. }
            | E::FaultNotAvailable
            | E::CumulativeAckOnePosition
            | E::CumulativeAckEntryPosition
            | E::PartitionsOutOfRange
            | E::TimeoutOutOfRange
            | E::ReplayOutOfRange
            | E::DeliverAfterOutOfRange
            | E::RunOutOfRange
            | E::MaxRedeliverTooLow
            | E::ClusterNotFirst => {}
        }
    }
    all
}
