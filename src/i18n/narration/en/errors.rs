//! English text of errors: the broker's `errorMessage` ([`ErrorDetail`]) and why an
//! action was not applied ([`SimError`]), with the client's config and call errors.

use crate::client::config_error::{ConfigError, ConfigRule, ConfigScope};
use crate::client::transaction_manager::TxnCallError;
use crate::coordinator::internal_topics::{InvalidTopicName, MAX_TOPIC_NAME_LENGTH};
use crate::protocol::ErrorDetail;
use crate::sim::{SimError, SimErrorKind};

/// Kafka's exception message for a refused batch or marker, with our numbers.
pub(in crate::i18n::narration) fn detail(d: &ErrorDetail) -> String {
    match d {
        ErrorDetail::EpochTooOld { producer_id, offset, partition, epoch, current_epoch } => format!(
            "Epoch of producer {producer_id} at offset {offset} in {partition} is {epoch}, which is smaller than the last seen epoch {current_epoch}"
        ),
        ErrorDetail::NewEpochSequence { producer_id, offset, partition, epoch, first_seq, current_epoch } => format!(
            "Invalid sequence number for new epoch of producer {producer_id} at offset {offset} in partition {partition}: {epoch} (request epoch), {first_seq} (seq. number), {current_epoch} (current producer epoch)"
        ),
        ErrorDetail::OutOfOrderSequence { producer_id, offset, partition, first_seq, last_seq } => format!(
            "Out of order sequence number for producer {producer_id} at offset {offset} in partition {partition}: {first_seq} (incoming seq. number), {last_seq} (current end sequence number)"
        ),
        ErrorDetail::MarkerEpochNotNewer { producer_id, offset, partition, epoch, current_epoch } => format!(
            "Epoch of producer {producer_id} at offset {offset} in {partition} is {epoch}, which is not newer than the last seen epoch {current_epoch} (transaction markers must bump the epoch)"
        ),
        ErrorDetail::CoordinatorEpochFenced { producer_id, offset, partition, coordinator_epoch, current_coordinator_epoch } => format!(
            "Invalid coordinator epoch for producerId {producer_id} at offset {offset} in partition {partition}: {coordinator_epoch} (zombie), {current_coordinator_epoch} (current)"
        ),
        ErrorDetail::ExpectedTransactionalWrite { producer_id, offset, partition } => format!(
            "Expected transactional write from producer {producer_id} at offset {offset} in partition {partition}"
        ),
        ErrorDetail::EpochTooOldForVerification { producer_id, epoch, current_epoch } => format!(
            "Epoch of producer {producer_id} is {epoch}, which is smaller than the last seen epoch {current_epoch}"
        ),
        ErrorDetail::OneBatchPerRequest => {
            "A Produce request carries exactly one batch per partition here".to_string()
        }
        ErrorDetail::InvalidBatch(e) => e.to_string(),
        ErrorDetail::NoTransactionCoordinator => {
            "No transaction coordinator is known yet".to_string()
        }
        ErrorDetail::ControlRecordsFromClient => {
            "Clients are not allowed to write control records".to_string()
        }
        ErrorDetail::InvalidSequence { base_sequence, producer_id, partition } => format!(
            "Invalid sequence number {base_sequence} in record batch with producerId {producer_id} in topic partition {partition}"
        ),
        ErrorDetail::BatchTooLarge { size, max_message_bytes } => format!(
            "The batch is {size} bytes, larger than max.message.bytes ({max_message_bytes})"
        ),
        ErrorDetail::BatchLargerThanSegment { size, segment_bytes } => format!(
            "The batch is {size} bytes, larger than segment.bytes ({segment_bytes})"
        ),
        ErrorDetail::Storage(e) => format!("storage: {e}"),
        ErrorDetail::NotEnoughReplicas {
            isr,
            min_insync_replicas,
        } => format!(
            "The ISR {isr:?} has fewer than min.insync.replicas={min_insync_replicas} replicas"
        ),
        ErrorDetail::OutOfOrderOffsets { expected, got } => format!(
            "The leader's batches start at offset {got}, but this replica's log ends at {expected}"
        ),
        ErrorDetail::MissingTransactionalId => {
            "A transactional batch needs its transactional.id".to_string()
        }
        ErrorDetail::PartitionNotAdded => {
            "The transaction coordinator refused to add the partition".to_string()
        }
    }
}

/// Why an action was not applied: Kafka's error name first when there is one.
pub(in crate::i18n::narration) fn sim_error(e: &SimError) -> String {
    let text = kind(&e.kind);
    match e.error {
        Some(k) => format!("{}: {text}", k.name()),
        None => text,
    }
}

fn kind(k: &SimErrorKind) -> String {
    match k {
        SimErrorKind::UnknownPartition { tp } => format!("{tp} does not exist"),
        SimErrorKind::NoOpenTransactionAt { tp, start_offset } => format!(
            "Could not find any open transactions starting at offset {start_offset} on partition {tp}"
        ),
        SimErrorKind::NotTransactional { producer } => {
            format!("{producer} has no transactional.id: it cannot use transactions")
        }
        SimErrorKind::NoProducer { name } => format!("no producer named {name}"),
        SimErrorKind::NoConsumer { name } => format!("no consumer named {name}"),
        SimErrorKind::ReservedName { name } => format!("'{name}' cannot name a producer"),
        SimErrorKind::ProducerExists { name } => format!("a producer named {name} already exists"),
        SimErrorKind::ClientExists { name } => format!("a client named {name} already exists"),
        SimErrorKind::Config(c) => config(c),
        SimErrorKind::EmptySend => "send needs at least one value".to_string(),
        SimErrorKind::EmptyBatch => "a batch needs at least one record".to_string(),
        SimErrorKind::TimeBackwards => "time only moves forward: ms must be ≥ 0".to_string(),
        SimErrorKind::RunTooLong { ms } => {
            format!("run takes 0 to 2147483647 ms (an int, about 24.8 days), got {ms}")
        }
        // Kafka's `Topic.validate` wording (InvalidTopicException).
        SimErrorKind::IllegalTopicName { name, reason } => format!(
            "Topic name is invalid: {}",
            match reason {
                InvalidTopicName::Empty => "the empty string is not allowed".to_string(),
                InvalidTopicName::Dot => "'.' is not allowed".to_string(),
                InvalidTopicName::DotDot => "'..' is not allowed".to_string(),
                InvalidTopicName::TooLong => format!(
                    "the length of '{name}' is longer than the max allowed length {MAX_TOPIC_NAME_LENGTH}"
                ),
                InvalidTopicName::IllegalCharacter => format!(
                    "'{name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"
                ),
            }
        ),
        SimErrorKind::TopicExists { name } => format!("Topic '{name}' already exists."),
        SimErrorKind::ReplicationFactor {
            replication_factor,
            brokers,
        } => format!(
            "replication.factor={replication_factor} is larger than the {brokers} broker(s) of the cluster"
        ),
        SimErrorKind::PartitionCount { partitions } => {
            format!("{partitions} partitions: choose 1 to 64")
        }
        SimErrorKind::InternalTopic { name } => {
            format!("{name} is an internal topic: the brokers create it when it is first needed")
        }
        SimErrorKind::Storage(e) => e.to_string(),
        SimErrorKind::NoBroker { id } => format!("no broker {id}"),
        SimErrorKind::BrokerAlreadyStopped { id } => format!("broker {id} is already stopped"),
        SimErrorKind::BrokerAlreadyRunning { id } => format!("broker {id} is already running"),
        SimErrorKind::NoBrokerFor { api } => {
            format!("no broker to send {api} to (does the topic exist?)")
        }
    }
}

/// Kafka's `ConfigException` messages.
fn config(e: &ConfigError) -> String {
    match e {
        ConfigError::InvalidValue { key, value, rule } => match rule {
            None => format!("Invalid value {value} for configuration {key}"),
            Some(rule) => {
                format!("Invalid value {value} for configuration {key}: {}", config_rule(rule))
            }
        },
        ConfigError::Unknown { scope, key } => match scope {
            ConfigScope::Producer => format!("Unknown producer config {key}"),
            ConfigScope::Consumer => format!("Unknown consumer config {key}"),
            ConfigScope::Cluster => format!("Unknown config {key}"),
        },
        ConfigError::TransactionalIdNeedsIdempotence => {
            "ConfigException: Cannot set a transactional.id without also enabling idempotence."
                .to_string()
        }
        ConfigError::IdempotenceNeedsAcksAll => "ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.".to_string(),
        ConfigError::IdempotenceMaxInFlight => "ConfigException: Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer.".to_string(),
        ConfigError::IdempotenceNeedsRetries => {
            "ConfigException: Must set retries to non-zero when using the idempotent producer."
                .to_string()
        }
    }
}

fn config_rule(rule: &ConfigRule) -> String {
    match rule {
        ConfigRule::OneOf(values) => format!("String must be one of: {}", values.join(", ")),
        ConfigRule::AtLeast(min) => format!("Value must be at least {min}"),
        ConfigRule::NotANumber => "not a number".to_string(),
        ConfigRule::NotNumberOfType(t) => format!("Not a number of type {t}"),
        ConfigRule::Boolean => "Expected value to be either true or false".to_string(),
        ConfigRule::TrueOrFalse => "use true or false".to_string(),
        ConfigRule::AutoCommitNotSimulated => {
            "auto commit is not simulated here; set it to false and commit offsets explicitly"
                .to_string()
        }
    }
}

/// Kafka's message of the exception a transactional call throws at once, word for
/// word (Kafka 4.0's `TransactionManager` and `KafkaProducer`).
pub(in crate::i18n::narration) fn txn_exception(e: &TxnCallError) -> String {
    match e {
        TxnCallError::NoTransactionManager => "Cannot use transactional methods without enabling transactions by setting the transactional.id configuration property".to_string(),
        TxnCallError::NotTransactional => "Transactional method invoked on a non-transactional producer.".to_string(),
        TxnCallError::InvalidTransition { transactional_id, from, to } => format!(
            "TransactionalId {transactional_id}: Invalid transition attempted from state {} to state {}",
            from.name(),
            to.name()
        ),
        TxnCallError::PendingCall { call, pending } => format!(
            "Cannot attempt operation `{call}` because the previous call to `{pending}` timed out and must be retried"
        ),
        TxnCallError::AddPartitionBeforeInit { tp } => format!(
            "Cannot add partition {tp} to transaction before completing a call to initTransactions"
        ),
        // Two spaces before the state, as in Kafka's source.
        TxnCallError::AddPartitionNotInTransaction { tp, state } => format!(
            "Cannot add partition {tp} to transaction while in state  {}",
            state.name()
        ),
        TxnCallError::OffsetsWithoutTransaction { state } => format!(
            "Cannot send offsets if a transaction is not in progress (currentState= {})",
            state.name()
        ),
        TxnCallError::Fenced { transactional_id, producer_id, producer_epoch } => format!(
            "Producer with transactionalId '{transactional_id}' and (producerId={producer_id}, epoch={producer_epoch}) has been fenced by another producer with the same transactionalId"
        ),
        TxnCallError::OldEpoch { transactional_id, producer_id, producer_epoch, .. } => format!(
            "Producer with transactionalId '{transactional_id}' and (producerId={producer_id}, epoch={producer_epoch}) attempted to produce with an old epoch"
        ),
        TxnCallError::InErrorState { .. } => {
            "Cannot execute transactional method because we are in an error state".to_string()
        }
    }
}
