//! The internal topics' replication settings (broker configs, Kafka's names) and their
//! creation on first use (`AutoTopicCreationManager`, Kafka 4.0, mirror commit 1eb7644).
//!
//! Kafka's code defaults are `offsets.topic.replication.factor=3`,
//! `transaction.state.log.replication.factor=3` and `transaction.state.log.min.isr=2`
//! (`GroupCoordinatorConfig`, `TransactionLogConfig`); Kafka does not scale them down to
//! a smaller cluster — with fewer brokers the controller refuses the topic
//! (INVALID_REPLICATION_FACTOR) and FindCoordinator keeps answering
//! COORDINATOR_NOT_AVAILABLE. The playground starts from the values Kafka ships in
//! `config/server.properties` for a local cluster (1, 1, 1), so a one-broker world works
//! as Kafka's quickstart does; a lesson sets 3 and 2 to replicate the internal topics.

use super::error::SimError;
use super::event::EventKind;
use super::world::World;
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::log::LogConfig;
use crate::metadata::ReplicationConfig;
use crate::protocol::config_def::{self, Place};

/// The broker configs that shape the internal topics when they are created.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InternalTopicsConfig {
    /// `offsets.topic.replication.factor` (for `__consumer_offsets`).
    pub offsets_replication_factor: i32,
    /// `transaction.state.log.replication.factor`.
    pub transaction_replication_factor: i32,
    /// `transaction.state.log.min.isr`: `__transaction_state`'s `min.insync.replicas`
    /// (`TransactionStateManager.transactionTopicConfigs`).
    pub transaction_min_isr: i32,
}

impl Default for InternalTopicsConfig {
    /// Kafka's `config/server.properties` (see the module comment).
    fn default() -> Self {
        InternalTopicsConfig {
            offsets_replication_factor: 1,
            transaction_replication_factor: 1,
            transaction_min_isr: 1,
        }
    }
}

impl InternalTopicsConfig {
    /// The broker config keys this struct holds.
    pub const KEYS: [&'static str; 3] = [
        "offsets.topic.replication.factor",
        "transaction.state.log.replication.factor",
        "transaction.state.log.min.isr",
    ];

    /// Sets one key (`atLeast(1)` as Kafka's `ConfigDef` says).
    fn set(&mut self, key: &str, value: &str) -> Result<(), SimError> {
        // SHORT or INT with `atLeast(1)`: the value fits an i32.
        let n = config_def::parse(Place::Broker, key, value)?.number();
        let n = i32::try_from(n).unwrap_or(i32::MAX);
        match key {
            "offsets.topic.replication.factor" => self.offsets_replication_factor = n,
            "transaction.state.log.replication.factor" => self.transaction_replication_factor = n,
            _ => self.transaction_min_isr = n,
        }
        Ok(())
    }

    /// The replication settings an internal topic is created with. Both coordinators
    /// force `unclean.leader.election.enable=false`; `__consumer_offsets` keeps the
    /// broker's `min.insync.replicas` (1 here).
    fn replication_of(&self, topic: &str) -> ReplicationConfig {
        if topic == TRANSACTION_STATE_TOPIC {
            ReplicationConfig {
                replication_factor: self.transaction_replication_factor,
                min_insync_replicas: self.transaction_min_isr,
                unclean_leader_election: false,
            }
        } else {
            ReplicationConfig {
                replication_factor: self.offsets_replication_factor,
                ..ReplicationConfig::default()
            }
        }
    }
}

impl World {
    /// The internal partition that holds `key` (`partitionFor` over the topic's
    /// `offsets.topic.num.partitions` or `transaction.state.log.num.partitions`).
    pub fn internal_partition_for(&self, topic: &str, key: &str) -> crate::log::TopicPartition {
        crate::coordinator::internal_topics::topic_partition_for(
            topic,
            key,
            self.config.internal_topic_partitions(topic),
        )
    }

    /// `broker config` for one of [`InternalTopicsConfig::KEYS`]: takes effect for an
    /// internal topic created afterwards (an existing topic keeps its replicas).
    pub(super) fn set_internal_topic_config(
        &mut self,
        key: &str,
        value: &str,
    ) -> Result<(), SimError> {
        self.internal_topics.set(key, value)?;
        self.internal_create_refused.clear();
        self.emit(EventKind::ConfigChanged {
            key: key.to_string(),
            value: value.to_string(),
        });
        Ok(())
    }

    /// The internal topics' settings in force.
    pub fn internal_topics_config(&self) -> &InternalTopicsConfig {
        &self.internal_topics
    }

    /// Auto-creation of `__transaction_state` / `__consumer_offsets` on first use. A
    /// replication factor above the cluster's size is refused (the controller's
    /// INVALID_REPLICATION_FACTOR), said once until a setting changes; the broker
    /// keeps answering COORDINATOR_NOT_AVAILABLE.
    pub(super) fn create_internal_topic(&mut self, name: &str) {
        if self.topics.contains_key(name) {
            return;
        }
        let replication = self.internal_topics.replication_of(name);
        let brokers = self.config.brokers;
        if replication.replication_factor > brokers {
            if self.internal_create_refused.insert(name.to_string()) {
                self.emit(EventKind::InternalTopicRefused {
                    topic: name.to_string(),
                    replication_factor: replication.replication_factor,
                    brokers,
                });
            }
            return;
        }
        // Kafka's `transactionTopicConfigs` / `offsetsTopicConfigs` leave
        // `max.message.bytes` at the broker's default (`message.max.bytes`), so an
        // internal-topic append obeys the same limit as any other. Both set
        // `cleanup.policy=compact`: retention never deletes their segments.
        let config = LogConfig {
            producer_snapshots: true,
            max_message_bytes: self.broker_defaults.max_message_bytes,
            cleanup_policy_delete: false,
            cleanup_policy_compact: true,
            retention_check_interval_ms: self.broker_defaults.retention_check_interval_ms,
            ..LogConfig::default()
        };
        let partitions = self.config.internal_topic_partitions(name);
        let _ = self.add_replicated_topic(name, partitions, config, replication);
    }
}
