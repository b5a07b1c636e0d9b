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

/// What was wrong with an action, without Kafka's error name: one arm a variant, the
/// longer wordings in the functions below. The families: a client step (no such client,
/// partition or transaction, a name taken, a config or call the client would refuse); a
/// step on a log or the clock (a log not compacted, a leader's log to truncate, no such
/// file, time going back, a run too long, the storage failing); a topic refused at
/// creation; the admin client's topic changes; a broker or controller step.
fn kind(k: &SimErrorKind) -> Msg {
    use SimErrorKind as K;
    match k {
        // A client step refused.
        K::UnknownPartition { tp } => msg!("error.unknown-partition", tp = tp),
        K::NoOpenTransactionAt { tp, start_offset } => {
            msg!(
                "error.no-open-transaction-at",
                start_offset = start_offset,
                tp = tp
            )
        }
        K::NotTransactional { producer } => msg!("error.not-transactional", producer = producer),
        K::NoProducer { name } => msg!("error.no-producer", name = name),
        K::NoConsumer { name } => msg!("error.no-consumer", name = name),
        K::NoGroupId { consumer } => msg!("error.no-group-id", consumer = consumer),
        K::SubscribeWithoutGroupId { consumer } => {
            msg!("error.subscribe-without-group-id", consumer = consumer)
        }
        #[cfg(feature = "set-epoch")]
        K::EpochNotSettable { name } => msg!("error.epoch-not-settable", name = name),
        K::UnstableOffsets { group } => msg!("error.unstable-offsets", group = group),
        K::NegativeSeekOffset { offset } => msg!("error.negative-seek", offset = offset),
        K::NotAssigned { consumer, tp } => {
            msg!("error.not-assigned", consumer = consumer, tp = tp)
        }
        K::ReservedName { name } => msg!("error.reserved-name", name = name),
        K::ProducerExists { name } => msg!("error.producer-exists", name = name),
        K::ClientExists { name } => msg!("error.client-exists", name = name),
        K::Config(c) => config(c),
        K::EmptySend => Msg::new("error.empty-send"),
        K::EmptyBatch => Msg::new("error.empty-batch"),
        // A step on a log or the clock refused.
        K::NotCompacted { tp } => msg!("error.not-compacted", tp = tp),
        K::TruncateLeader { broker, tp } => msg!("error.truncate-leader", broker = broker, tp = tp),
        K::NoSuchFile { broker, path } => {
            msg!("error.no-such-file", broker = broker, path = path.as_str())
        }
        K::TimeBackwards => Msg::new("error.time-backwards"),
        K::RunTooLong { ms } => msg!("error.run-too-long", ms = ms),
        // Kafka's `Topic.validate` wording (InvalidTopicException).
        K::Storage(e) => msg!("plain", text = e),
        // A topic refused at creation.
        K::IllegalTopicName { name, reason } => illegal_topic_name(name, reason),
        K::TopicExists { name } => msg!("kafka.topic.exists", name = name),
        K::TopicCollision { name, existing } => {
            msg!("kafka.topic.collides", name = name, existing = existing)
        }
        K::PartitionCount { partitions } => msg!("error.partition-count", partitions = partitions),
        K::ReplicationFactor {
            replication_factor: rf,
            brokers,
        } => {
            msg!(
                "error.replication-factor",
                replication_factor = rf,
                brokers = brokers
            )
        }
        K::AllBrokersFenced {
            replication_factor: rf,
        } => {
            msg!("error.all-brokers-fenced", replication_factor = rf)
        }
        K::InternalTopic { name } => msg!("error.internal-topic", name = name),
        // The admin client's topic changes refused.
        #[cfg(feature = "topic-admin")]
        K::DeleteInternalTopic { name } => msg!("error.delete-internal-topic", name = name),
        #[cfg(feature = "topic-admin")]
        K::UnknownTopic { name } => msg!("kafka.topic.unknown", name = name),
        #[cfg(feature = "topic-admin")]
        K::UnknownTopicConfig { key } => msg!("kafka.config.unknown-topic", key = key),
        #[cfg(feature = "topic-admin")]
        K::PartitionsNotIncreased {
            topic,
            current,
            requested,
        } => partitions_not_increased(topic, current, requested),
        #[cfg(feature = "topic-admin")]
        K::ReplicaAssignment(e) => replica_assignment(e),
        #[cfg(feature = "topic-admin")]
        K::ReassignUnknown { topic, partition } => match partition {
            None => msg!("kafka.reassign.unknown-topic", topic = topic),
            Some(p) => msg!(
                "kafka.reassign.unknown-partition",
                topic = topic,
                partition = p
            ),
        },
        #[cfg(feature = "topic-admin")]
        K::NoReassignmentInProgress => Msg::new("kafka.reassign.none-in-progress"),
        // A broker or controller step refused.
        K::NoBroker { id } => msg!("error.no-broker", id = id),
        K::BrokerAlreadyStopped { id } => msg!("error.broker-already-stopped", id = id),
        K::BrokerAlreadyRunning { id } => msg!("error.broker-already-running", id = id),
        K::NoController { id, voters } => no_controller(id, voters),
        K::ControllerState { id, running: true } => {
            msg!("error.controller-already-running", id = id)
        }
        K::ControllerState { id, running: false } => {
            msg!("error.controller-already-stopped", id = id)
        }
        K::BrokerRegistering { id } => msg!("error.broker-registering", id = id),
        K::NoBrokerFor { api } => msg!("error.no-broker-for", api = api),
    }
}

/// Kafka's `Topic.validate` wording of an illegal topic name (InvalidTopicException).
fn illegal_topic_name(name: &str, reason: &InvalidTopicName) -> Msg {
    let reason = match reason {
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
        InvalidTopicName::IllegalCharacter => msg!("kafka.topic.illegal-character", name = name),
    };
    msg!("kafka.topic.invalid", reason = reason)
}

/// CreatePartitions asked for no more partitions than the topic has.
#[cfg(feature = "topic-admin")]
fn partitions_not_increased(topic: &str, current: &i32, requested: &i32) -> Msg {
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

/// No controller with this id among the quorum's voters.
fn no_controller(id: &i32, voters: &[i32]) -> Msg {
    let voters = voters
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    msg!("error.no-controller", id = id, voters = voters)
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
