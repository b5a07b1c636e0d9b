//! Errors as catalog messages: the broker's `errorMessage` ([`ErrorDetail`],
//! `detail.*`), why an action was not applied ([`SimError`], `error.*`), with the
//! client's config (`config.*`) and call errors (`kafka.txn.*`).

use crate::client::transaction_manager::TxnCallError;
use crate::coordinator::internal_topics::{InvalidTopicName, MAX_TOPIC_NAME_LENGTH};
use crate::i18n::message::Msg;
use crate::msg;
use crate::protocol::config_error::{ConfigError, ConfigRule, ConfigScope};
use crate::protocol::ErrorDetail;
#[cfg(feature = "topic-admin")]
use crate::sim::error::ReplicaAssignmentError;
use crate::sim::{SimError, SimErrorKind};

/// Kafka's exception message for a refused batch or marker, with our numbers: one arm a
/// family, each worded by its family's function below.
pub(in crate::i18n) fn detail(d: &ErrorDetail) -> Msg {
    match d {
        ErrorDetail::EpochTooOld { .. }
        | ErrorDetail::NewEpochSequence { .. }
        | ErrorDetail::OutOfOrderSequence { .. }
        | ErrorDetail::BelowVerifiedSequence { .. }
        | ErrorDetail::MarkerEpochNotNewer { .. }
        | ErrorDetail::CoordinatorEpochFenced { .. }
        | ErrorDetail::InvalidSequence { .. } => sequence_detail(d),
        ErrorDetail::ExpectedTransactionalWrite { .. }
        | ErrorDetail::EpochTooOldForVerification { .. }
        | ErrorDetail::NoTransactionCoordinator
        | ErrorDetail::MissingTransactionalId
        | ErrorDetail::PartitionNotAdded
        | ErrorDetail::VerificationNotCompleted { .. } => transaction_detail(d),
        ErrorDetail::OneBatchPerRequest
        | ErrorDetail::InvalidBatch(_)
        | ErrorDetail::ControlRecordsFromClient
        | ErrorDetail::CompactedTopicWithoutKey { .. }
        | ErrorDetail::BatchTooLarge { .. }
        | ErrorDetail::BatchLargerThanSegment { .. }
        | ErrorDetail::Storage(_)
        | ErrorDetail::NotEnoughReplicas { .. }
        | ErrorDetail::OutOfOrderOffsets { .. }
        | ErrorDetail::DeliveryTimeout { .. } => batch_detail(d),
    }
}

/// The producer state refused a batch or marker: its epoch or sequence is not the next.
fn sequence_detail(d: &ErrorDetail) -> Msg {
    match d {
        ErrorDetail::EpochTooOld {
            producer_id,
            offset,
            partition,
            epoch,
            current_epoch,
        }
        | ErrorDetail::MarkerEpochNotNewer {
            producer_id,
            offset,
            partition,
            epoch,
            current_epoch,
        } => Msg::new(if matches!(d, ErrorDetail::EpochTooOld { .. }) {
            "detail.epoch-too-old"
        } else {
            "detail.marker-epoch-not-newer"
        })
        .arg("producer_id", producer_id)
        .arg("offset", offset)
        .arg("partition", partition)
        .arg("epoch", epoch)
        .arg("current_epoch", current_epoch),
        ErrorDetail::NewEpochSequence {
            producer_id,
            offset,
            partition,
            epoch,
            first_seq,
            current_epoch,
        } => msg!(
            "detail.new-epoch-sequence",
            producer_id = producer_id,
            offset = offset,
            partition = partition,
            epoch = epoch,
            first_seq = first_seq,
            current_epoch = current_epoch
        ),
        ErrorDetail::OutOfOrderSequence {
            producer_id,
            offset,
            partition,
            first_seq,
            last_seq,
        } => msg!(
            "detail.out-of-order-sequence",
            producer_id = producer_id,
            offset = offset,
            partition = partition,
            first_seq = first_seq,
            last_seq = last_seq
        ),
        ErrorDetail::BelowVerifiedSequence {
            producer_id,
            offset,
            partition,
            first_seq,
            lowest_seq,
        } => msg!(
            "detail.below-verified-sequence",
            producer_id = producer_id,
            offset = offset,
            partition = partition,
            first_seq = first_seq,
            lowest_seq = lowest_seq
        ),
        ErrorDetail::CoordinatorEpochFenced {
            producer_id,
            offset,
            partition,
            coordinator_epoch,
            current_coordinator_epoch,
        } => msg!(
            "detail.coordinator-epoch-fenced",
            producer_id = producer_id,
            offset = offset,
            partition = partition,
            coordinator_epoch = coordinator_epoch,
            current = current_coordinator_epoch
        ),
        ErrorDetail::InvalidSequence {
            base_sequence,
            producer_id,
            partition,
        } => msg!(
            "detail.invalid-sequence",
            base_sequence = base_sequence,
            producer_id = producer_id,
            partition = partition
        ),
        _ => super::unworded(),
    }
}

/// A transactional write refused: not verified with the coordinator, or not part of
/// a transaction the producer began.
fn transaction_detail(d: &ErrorDetail) -> Msg {
    match d {
        ErrorDetail::ExpectedTransactionalWrite {
            producer_id,
            offset,
            partition,
        } => msg!(
            "detail.expected-transactional-write",
            producer_id = producer_id,
            offset = offset,
            partition = partition
        ),
        ErrorDetail::EpochTooOldForVerification {
            producer_id,
            epoch,
            current_epoch,
        } => msg!(
            "detail.epoch-too-old-for-verification",
            producer_id = producer_id,
            epoch = epoch,
            current_epoch = current_epoch
        ),
        ErrorDetail::NoTransactionCoordinator => Msg::new("detail.no-transaction-coordinator"),
        ErrorDetail::MissingTransactionalId => Msg::new("detail.missing-transactional-id"),
        ErrorDetail::PartitionNotAdded => Msg::new("detail.partition-not-added"),
        ErrorDetail::VerificationNotCompleted { underlying } => msg!(
            "detail.verification-not-completed",
            error = underlying.name()
        ),

        _ => super::unworded(),
    }
}

/// The batch itself, the log or the replicas refused it, or the client gave up on it.
fn batch_detail(d: &ErrorDetail) -> Msg {
    match d {
        ErrorDetail::OneBatchPerRequest => Msg::new("detail.one-batch-per-request"),
        ErrorDetail::InvalidBatch(e) => msg!("plain", text = e),
        ErrorDetail::ControlRecordsFromClient => Msg::new("detail.control-records-from-client"),
        ErrorDetail::CompactedTopicWithoutKey { partition } => {
            Msg::new("detail.compacted-topic-without-key").arg("tp", partition.as_str())
        }
        ErrorDetail::BatchTooLarge {
            size,
            max_message_bytes,
        } => {
            msg!(
                "detail.batch-too-large",
                size = size,
                max = max_message_bytes
            )
        }
        ErrorDetail::BatchLargerThanSegment {
            size,
            segment_bytes,
        } => {
            msg!(
                "detail.batch-larger-than-segment",
                size = size,
                segment_bytes = segment_bytes
            )
        }
        ErrorDetail::Storage(e) => msg!("detail.storage", error = e),
        ErrorDetail::NotEnoughReplicas {
            isr,
            min_insync_replicas,
        } => msg!(
            "detail.not-enough-replicas",
            isr = format!("{isr:?}"),
            min_isr = min_insync_replicas
        ),
        ErrorDetail::OutOfOrderOffsets { expected, got } => {
            msg!(
                "detail.out-of-order-offsets",
                expected = expected,
                got = got
            )
        }
        ErrorDetail::DeliveryTimeout {
            records,
            partition,
            elapsed_ms,
        } => msg!(
            "detail.delivery-timeout",
            records = records,
            partition = partition,
            elapsed_ms = elapsed_ms
        ),
        _ => super::unworded(),
    }
}

/// Why an action was not applied: Kafka's error name first when there is one.
pub(in crate::i18n) fn sim_error(e: &SimError) -> Msg {
    match e.error {
        Some(k) => msg!("error.with-name", name = k.name(), text = kind(&e.kind)),
        None => kind(&e.kind),
    }
}

/// What was wrong with an action, without Kafka's error name: one arm a family, each
/// worded by its family's function below.
fn kind(k: &SimErrorKind) -> Msg {
    match k {
        SimErrorKind::UnknownPartition { .. }
        | SimErrorKind::NoOpenTransactionAt { .. }
        | SimErrorKind::NotTransactional { .. }
        | SimErrorKind::NoProducer { .. }
        | SimErrorKind::NoConsumer { .. }
        | SimErrorKind::NoGroupId { .. }
        | SimErrorKind::SubscribeWithoutGroupId { .. }
        | SimErrorKind::UnstableOffsets { .. }
        | SimErrorKind::NegativeSeekOffset { .. }
        | SimErrorKind::NotAssigned { .. }
        | SimErrorKind::ReservedName { .. }
        | SimErrorKind::ProducerExists { .. }
        | SimErrorKind::ClientExists { .. }
        | SimErrorKind::Config(_)
        | SimErrorKind::EmptySend
        | SimErrorKind::EmptyBatch => client_error(k),
        #[cfg(feature = "set-epoch")]
        SimErrorKind::EpochNotSettable { .. } => client_error(k),
        SimErrorKind::NotCompacted { .. }
        | SimErrorKind::TruncateLeader { .. }
        | SimErrorKind::NoSuchFile { .. }
        | SimErrorKind::TimeBackwards
        | SimErrorKind::RunTooLong { .. }
        | SimErrorKind::Storage(_) => log_error(k),
        SimErrorKind::IllegalTopicName { .. }
        | SimErrorKind::TopicExists { .. }
        | SimErrorKind::TopicCollision { .. }
        | SimErrorKind::PartitionCount { .. }
        | SimErrorKind::ReplicationFactor { .. }
        | SimErrorKind::AllBrokersFenced { .. }
        | SimErrorKind::InternalTopic { .. } => topic_error(k),
        #[cfg(feature = "topic-admin")]
        SimErrorKind::DeleteInternalTopic { .. }
        | SimErrorKind::UnknownTopic { .. }
        | SimErrorKind::UnknownTopicConfig { .. }
        | SimErrorKind::PartitionsNotIncreased { .. }
        | SimErrorKind::ReplicaAssignment(_)
        | SimErrorKind::ReassignUnknown { .. }
        | SimErrorKind::NoReassignmentInProgress => topic_admin_error(k),
        SimErrorKind::NoBroker { .. }
        | SimErrorKind::BrokerAlreadyStopped { .. }
        | SimErrorKind::BrokerAlreadyRunning { .. }
        | SimErrorKind::NoController { .. }
        | SimErrorKind::ControllerState { .. }
        | SimErrorKind::BrokerRegistering { .. }
        | SimErrorKind::NoBrokerFor { .. } => cluster_error(k),
    }
}

/// A client step refused: no such client, partition or transaction, a name taken, a
/// config or call the client would refuse.
fn client_error(k: &SimErrorKind) -> Msg {
    match k {
        SimErrorKind::UnknownPartition { tp } => msg!("error.unknown-partition", tp = tp),
        SimErrorKind::NoOpenTransactionAt { tp, start_offset } => {
            msg!(
                "error.no-open-transaction-at",
                start_offset = start_offset,
                tp = tp
            )
        }
        SimErrorKind::NotTransactional { producer } => {
            msg!("error.not-transactional", producer = producer)
        }
        SimErrorKind::NoProducer { name } => msg!("error.no-producer", name = name),
        SimErrorKind::NoConsumer { name } => msg!("error.no-consumer", name = name),
        SimErrorKind::NoGroupId { consumer } => msg!("error.no-group-id", consumer = consumer),
        SimErrorKind::SubscribeWithoutGroupId { consumer } => {
            msg!("error.subscribe-without-group-id", consumer = consumer)
        }
        #[cfg(feature = "set-epoch")]
        SimErrorKind::EpochNotSettable { name } => msg!("error.epoch-not-settable", name = name),
        SimErrorKind::UnstableOffsets { group } => msg!("error.unstable-offsets", group = group),
        SimErrorKind::NegativeSeekOffset { offset } => {
            msg!("error.negative-seek", offset = offset)
        }
        SimErrorKind::NotAssigned { consumer, tp } => {
            msg!("error.not-assigned", consumer = consumer, tp = tp)
        }
        SimErrorKind::ReservedName { name } => msg!("error.reserved-name", name = name),
        SimErrorKind::ProducerExists { name } => msg!("error.producer-exists", name = name),
        SimErrorKind::ClientExists { name } => msg!("error.client-exists", name = name),
        SimErrorKind::Config(c) => config(c),
        SimErrorKind::EmptySend => Msg::new("error.empty-send"),
        SimErrorKind::EmptyBatch => Msg::new("error.empty-batch"),
        _ => super::unworded(),
    }
}

/// A step on a log or the clock refused: a log not compacted, a leader's log to
/// truncate, no such file, time going back, a run too long, the storage failing.
fn log_error(k: &SimErrorKind) -> Msg {
    match k {
        SimErrorKind::NotCompacted { tp } => msg!("error.not-compacted", tp = tp),
        SimErrorKind::TruncateLeader { broker, tp } => {
            msg!("error.truncate-leader", broker = broker, tp = tp)
        }
        SimErrorKind::NoSuchFile { broker, path } => {
            msg!("error.no-such-file", broker = broker, path = path.as_str())
        }
        SimErrorKind::TimeBackwards => Msg::new("error.time-backwards"),
        SimErrorKind::RunTooLong { ms } => msg!("error.run-too-long", ms = ms),
        // Kafka's `Topic.validate` wording (InvalidTopicException).
        SimErrorKind::Storage(e) => msg!("plain", text = e),
        _ => super::unworded(),
    }
}

/// A topic refused at creation: its name, a collision, its partitions or replication
/// factor, no unfenced brokers, an internal topic's name.
fn topic_error(k: &SimErrorKind) -> Msg {
    match k {
        SimErrorKind::IllegalTopicName { name, reason } => msg!(
            "kafka.topic.invalid",
            reason = match reason {
                InvalidTopicName::Empty => Msg::new("kafka.topic.empty"),
                InvalidTopicName::Dot => Msg::new("kafka.topic.dot"),
                InvalidTopicName::DotDot => Msg::new("kafka.topic.dot-dot"),
                InvalidTopicName::TooLong => {
                    msg!(
                        "kafka.topic.too-long",
                        name = name,
                        max = MAX_TOPIC_NAME_LENGTH
                    )
                }
                InvalidTopicName::IllegalCharacter =>
                    msg!("kafka.topic.illegal-character", name = name),
            }
        ),
        SimErrorKind::TopicExists { name } => msg!("kafka.topic.exists", name = name),
        SimErrorKind::TopicCollision { name, existing } => {
            msg!("kafka.topic.collides", name = name, existing = existing)
        }
        SimErrorKind::PartitionCount { partitions } => {
            msg!("error.partition-count", partitions = partitions)
        }
        SimErrorKind::ReplicationFactor {
            replication_factor,
            brokers,
        } => msg!(
            "error.replication-factor",
            replication_factor = replication_factor,
            brokers = brokers
        ),
        SimErrorKind::AllBrokersFenced { replication_factor } => msg!(
            "error.all-brokers-fenced",
            replication_factor = replication_factor
        ),
        SimErrorKind::InternalTopic { name } => msg!("error.internal-topic", name = name),
        _ => super::unworded(),
    }
}

/// The admin client's topic changes refused: deleting an internal topic, an unknown
/// topic or config, partitions not increased, a bad assignment or reassignment.
#[cfg(feature = "topic-admin")]
fn topic_admin_error(k: &SimErrorKind) -> Msg {
    match k {
        SimErrorKind::DeleteInternalTopic { name } => {
            msg!("error.delete-internal-topic", name = name)
        }
        SimErrorKind::UnknownTopic { name } => msg!("kafka.topic.unknown", name = name),
        SimErrorKind::UnknownTopicConfig { key } => msg!("kafka.config.unknown-topic", key = key),
        SimErrorKind::PartitionsNotIncreased {
            topic,
            current,
            requested,
        } => {
            if current == requested {
                msg!("kafka.partitions.already", current = current)
            } else {
                msg!(
                    "kafka.partitions.not-an-increase",
                    topic = topic,
                    current = current,
                    requested = requested
                )
            }
        }
        SimErrorKind::ReplicaAssignment(e) => replica_assignment(e),
        SimErrorKind::ReassignUnknown { topic, partition } => match partition {
            None => msg!("kafka.reassign.unknown-topic", topic = topic),
            Some(p) => msg!(
                "kafka.reassign.unknown-partition",
                topic = topic,
                partition = p
            ),
        },
        SimErrorKind::NoReassignmentInProgress => Msg::new("kafka.reassign.none-in-progress"),
        _ => super::unworded(),
    }
}

/// A broker or controller step refused: no such node, already stopped or running, still
/// registering, or no broker to send an API to.
fn cluster_error(k: &SimErrorKind) -> Msg {
    match k {
        SimErrorKind::NoBroker { id } => msg!("error.no-broker", id = id),
        SimErrorKind::BrokerAlreadyStopped { id } => msg!("error.broker-already-stopped", id = id),
        SimErrorKind::BrokerAlreadyRunning { id } => msg!("error.broker-already-running", id = id),
        SimErrorKind::NoController { id, voters } => msg!(
            "error.no-controller",
            id = id,
            voters = voters
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        SimErrorKind::ControllerState { id, running: true } => {
            msg!("error.controller-already-running", id = id)
        }
        SimErrorKind::ControllerState { id, running: false } => {
            msg!("error.controller-already-stopped", id = id)
        }
        SimErrorKind::BrokerRegistering { id } => msg!("error.broker-registering", id = id),
        SimErrorKind::NoBrokerFor { api } => msg!("error.no-broker-for", api = api),

        _ => super::unworded(),
    }
}

/// Kafka's `InvalidReplicaAssignmentException` messages (CreatePartitions).
#[cfg(feature = "topic-admin")]
fn replica_assignment(e: &ReplicaAssignmentError) -> Msg {
    match e {
        ReplicaAssignmentError::Count { additional, given } => msg!(
            "kafka.assignment.count",
            additional = additional,
            given = given
        ),
        ReplicaAssignmentError::Empty => Msg::new("kafka.assignment.empty"),
        ReplicaAssignmentError::UnknownBroker { broker } => {
            msg!("kafka.assignment.unknown-broker", broker = broker)
        }
        ReplicaAssignmentError::Duplicate { broker } => {
            msg!("kafka.assignment.duplicate", broker = broker)
        }
        ReplicaAssignmentError::ReplicationFactor { given, expected } => msg!(
            "kafka.assignment.replication-factor",
            given = given,
            expected = expected
        ),
        ReplicaAssignmentError::AllFenced { partition } => {
            msg!("kafka.assignment.all-fenced", partition = partition)
        }
        ReplicaAssignmentError::RevertUnclean { topic, partition } => msg!(
            "kafka.reassign.revert-unclean",
            topic = topic,
            partition = partition
        ),
    }
}

/// Kafka's `ConfigException` messages.
fn config(e: &ConfigError) -> Msg {
    match e {
        ConfigError::InvalidValue { key, value, rule } => match rule {
            None => msg!("kafka.config.invalid-value", value = value, key = key),
            Some(rule) => msg!(
                "kafka.config.invalid-value-rule",
                value = value,
                key = key,
                rule = config_rule(rule)
            ),
        },
        ConfigError::Unknown { scope, key } => match scope {
            ConfigScope::Producer => msg!("config.unknown-producer", key = key),
            ConfigScope::Consumer => msg!("config.unknown-consumer", key = key),
            ConfigScope::Cluster => msg!("config.unknown", key = key),
        },
        ConfigError::TransactionalIdNeedsIdempotence => {
            Msg::new("kafka.config.transactional-id-needs-idempotence")
        }
        ConfigError::IdempotenceNeedsAcksAll => Msg::new("kafka.config.idempotence-needs-acks-all"),
        ConfigError::IdempotenceMaxInFlight => Msg::new("kafka.config.idempotence-max-in-flight"),
        ConfigError::IdempotenceNeedsRetries => Msg::new("kafka.config.idempotence-needs-retries"),
        ConfigError::DeliveryTimeoutBelowRequestTimeout => {
            Msg::new("kafka.config.delivery-timeout-below-request-timeout")
        }
    }
}

fn config_rule(rule: &ConfigRule) -> Msg {
    match rule {
        ConfigRule::OneOf(values) => msg!("kafka.config.one-of", values = values.join(", ")),
        ConfigRule::AtLeast(min) => msg!("kafka.config.at-least", min = min),
        ConfigRule::NotANumber => Msg::new("config.not-a-number"),
        ConfigRule::NotNumberOfType(t) => msg!("kafka.config.not-number-of-type", kind = t),
        ConfigRule::NotNumberBetween { kind, min, max } => msg!(
            "config.not-number-between",
            kafka = msg!("kafka.config.not-number-of-type", kind = kind),
            min = min,
            max = max
        ),
        ConfigRule::NoMoreThan(max) => msg!("kafka.config.no-more-than", max = max),
        ConfigRule::NonEmpty => Msg::new("kafka.config.non-empty"),
        ConfigRule::Boolean => Msg::new("kafka.config.boolean"),
        ConfigRule::TrueOrFalse => Msg::new("config.true-or-false"),
        ConfigRule::AutoCommitNotSimulated => Msg::new("config.auto-commit-not-simulated"),
    }
}

/// Kafka's message of the exception a transactional call throws at once, word for
/// word (Kafka 4.0's `TransactionManager` and `KafkaProducer`).
pub(in crate::i18n) fn txn_exception(e: &TxnCallError) -> Msg {
    match e {
        TxnCallError::NoTransactionManager => Msg::new("kafka.txn.no-transaction-manager"),
        TxnCallError::NotTransactional => Msg::new("kafka.txn.not-transactional"),
        TxnCallError::InvalidTransition {
            transactional_id,
            from,
            to,
        } => msg!(
            "kafka.txn.invalid-transition",
            transactional_id = transactional_id,
            from = from.name(),
            to = to.name()
        ),
        TxnCallError::PendingCall { call, pending } => {
            msg!("kafka.txn.pending-call", call = call, pending = pending)
        }
        TxnCallError::AddPartitionBeforeInit { tp } => {
            msg!("kafka.txn.add-partition-before-init", tp = tp)
        }
        TxnCallError::AddPartitionNotInTransaction { tp, state } => {
            msg!(
                "kafka.txn.add-partition-not-in-transaction",
                tp = tp,
                state = state.name()
            )
        }
        TxnCallError::OffsetsWithoutTransaction { state } => {
            msg!(
                "kafka.txn.offsets-without-transaction",
                state = state.name()
            )
        }
        TxnCallError::Fenced {
            transactional_id,
            producer_id,
            producer_epoch,
        } => msg!(
            "kafka.txn.fenced",
            transactional_id = transactional_id,
            producer_id = producer_id,
            epoch = producer_epoch
        ),
        TxnCallError::OldEpoch {
            transactional_id,
            producer_id,
            producer_epoch,
            ..
        } => msg!(
            "kafka.txn.old-epoch",
            transactional_id = transactional_id,
            producer_id = producer_id,
            epoch = producer_epoch
        ),
        TxnCallError::InErrorState { .. } => Msg::new("kafka.txn.in-error-state"),
    }
}
