//! Settings: the cluster-wide ones fixed when the world is made (`ClusterConfig`) and
//! the log-level keys a topic or broker config step may set, with Kafka's names and
//! limits.

use serde::Serialize;

use super::error::SimError;
use super::event::EventKind;
use super::world::World;
use crate::coordinator::transaction::{TransactionVersion, TxnFeatures};
use crate::log::LogConfig;
use crate::protocol::config_def::{self, Place};
use crate::protocol::config_error::{ConfigError, ConfigScope};

/// Cluster-wide settings fixed when the world is made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ClusterConfig {
    pub brokers: i32,
    /// One-way network latency for every message.
    pub latency_ms: i64,
    pub seed: u64,
    /// The finalized feature level `transaction.version` (0, 1 or 2; Kafka 4.0's
    /// default is 2). Clients negotiate it as Kafka 4.0's do: TV2 if it is ≥ 2.
    #[serde(default = "default_transaction_version")]
    pub transaction_version: i16,
    /// `transaction.partition.verification.enable` (KIP-890 part 1, default true).
    #[serde(default = "default_true")]
    pub transaction_verification: bool,
    /// `offsets.topic.num.partitions` (default 50): `__consumer_offsets`' partitions.
    #[serde(default = "default_internal_partitions")]
    pub offsets_topic_num_partitions: i32,
    /// `transaction.state.log.num.partitions` (default 50): `__transaction_state`'s.
    #[serde(default = "default_internal_partitions")]
    pub transaction_state_log_num_partitions: i32,
    /// `auto.leader.rebalance.enable` (default true): the controller gives each
    /// partition back to its preferred replica once it is in sync again.
    #[serde(default = "default_true")]
    pub auto_leader_rebalance: bool,
    /// `eligible.leader.replicas.enable` (KIP-966, default false in Kafka 4.0): the
    /// controller keeps the replicas that left an ISR below `min.insync.replicas` as
    /// eligible leaders (ELR) and may elect one when the ISR is empty.
    #[serde(default)]
    pub eligible_leader_replicas: bool,
    /// How many KRaft controllers vote in the metadata quorum (1 to 5; the
    /// playground's, Kafka lists them in `controller.quorum.voters`). One is always
    /// active; a larger quorum can lose its leader and elect another (feature
    /// `metadata-log`).
    #[serde(default = "default_controllers")]
    pub controllers: i32,
}

fn default_controllers() -> i32 {
    1
}

fn default_internal_partitions() -> i32 {
    crate::coordinator::internal_topics::INTERNAL_TOPIC_PARTITIONS
}

fn default_transaction_version() -> i16 {
    2
}

fn default_true() -> bool {
    true
}

impl ClusterConfig {
    /// How many partitions the internal topic `topic` gets.
    pub fn internal_topic_partitions(&self, topic: &str) -> i32 {
        if topic == crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC {
            self.transaction_state_log_num_partitions
        } else {
            self.offsets_topic_num_partitions
        }
    }

    /// What every broker is told: the finalized `transaction.version` and the
    /// verification switch.
    pub fn txn_features(&self) -> TxnFeatures {
        TxnFeatures {
            transaction_version: TransactionVersion(self.transaction_version.clamp(0, 2)),
            verification: self.transaction_verification,
        }
    }
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            brokers: 1,
            latency_ms: 2,
            seed: 1,
            transaction_version: 2,
            transaction_verification: true,
            offsets_topic_num_partitions: default_internal_partitions(),
            transaction_state_log_num_partitions: default_internal_partitions(),
            auto_leader_rebalance: true,
            eligible_leader_replicas: false,
            controllers: 1,
        }
    }
}

/// Applies one log-level config key, typed and validated by Kafka's `ConfigDef`
/// ([`crate::protocol::config_def`]).
pub(crate) fn apply_log_config(
    config: &mut LogConfig,
    key: &str,
    value: &str,
) -> Result<(), SimError> {
    let parsed = config_def::parse(Place::Log, key, value)?;
    let n = parsed.number();
    match key {
        // Kafka's INT keys hold byte counts and milliseconds that are never negative
        // once validated (`atLeast(0)` or more).
        "segment.bytes" => config.segment_bytes = n.unsigned_abs(),
        "index.interval.bytes" => config.index_interval_bytes = n.unsigned_abs(),
        "max.message.bytes" => config.max_message_bytes = n.unsigned_abs(),
        "producer.id.expiration.ms" => config.producer_id_expiration_ms = n,
        "producer.id.expiration.check.interval.ms" => {
            config.producer_id_expiration_check_interval_ms = n
        }
        // A negative retention is no limit (Kafka's -1; any other negative reads the same).
        "retention.ms" | "log.retention.ms" => config.retention_ms = n,
        "retention.bytes" | "log.retention.bytes" => config.retention_bytes = n,
        "log.retention.check.interval.ms" => config.retention_check_interval_ms = n,
        "cleanup.policy" => {
            config.cleanup_policy_delete = parsed.list().any(|p| p == "delete");
            config.cleanup_policy_compact = parsed.list().any(|p| p == "compact");
        }
        "delete.retention.ms" | "log.cleaner.delete.retention.ms" => config.delete_retention_ms = n,
        "producer.snapshots" => config.producer_snapshots = parsed.boolean(),
        // The table knows a key this match does not: a key added there without its
        // effect here is refused rather than ignored.
        _ => {
            return Err(ConfigError::Unknown {
                scope: ConfigScope::Cluster,
                key: key.to_string(),
            }
            .into())
        }
    }
    Ok(())
}

impl World {
    /// `config KEY=VALUE` for the whole cluster: a coordinator setting, an internal
    /// topic's setting, or a log-level default every broker and topic follows at once.
    pub(super) fn apply_broker_config(
        &mut self,
        key: &str,
        value: &str,
    ) -> Result<Vec<String>, SimError> {
        if key == "transactional.id.expiration.ms"
            || key == "transaction.remove.expired.transaction.cleanup.interval.ms"
        {
            self.set_transactional_id_expiration(key, value)?;
            self.emit(EventKind::ConfigChanged {
                key: key.to_string(),
                value: value.to_string(),
            });
            return Ok(vec![]);
        }
        if key == "transaction.max.timeout.ms" {
            let parsed = config_def::parse(Place::Broker, key, value)?;
            // An INT key with `atLeast(1)`: it fits an i32.
            let max_ms = i32::try_from(parsed.number()).unwrap_or(i32::MAX);
            for b in self.brokers.values_mut() {
                b.set_max_transaction_timeout(max_ms);
            }
            self.emit(EventKind::ConfigChanged {
                key: key.to_string(),
                value: value.to_string(),
            });
            return Ok(vec![]);
        }
        if super::internal_topics::InternalTopicsConfig::KEYS.contains(&key) {
            self.set_internal_topic_config(key, value)?;
            return Ok(vec![]);
        }
        let mut config = self.broker_defaults.clone();
        apply_log_config(&mut config, key, value)?;
        self.broker_defaults = config.clone();
        if key == "producer.id.expiration.check.interval.ms" {
            self.next_producer_expiry_check_ms = self
                .clock_ms
                .saturating_add(config.producer_id_expiration_check_interval_ms);
        }
        if key == "log.retention.check.interval.ms" {
            self.next_retention_check_ms = self
                .clock_ms
                .saturating_add(config.retention_check_interval_ms);
        }
        for broker in self.brokers.values_mut() {
            broker.log_config = config.clone();
            if key == "producer.snapshots" {
                broker.set_producer_snapshots(config.producer_snapshots);
            }
            // Broker-wide in Kafka: every partition follows at once.
            broker.set_producer_id_expiration(&config);
            broker.set_log_retention_check_interval(&config);
        }
        for topic in self.topics.values_mut() {
            if key == "producer.snapshots" {
                topic.config.producer_snapshots = config.producer_snapshots;
            }
            topic.config.producer_id_expiration_ms = config.producer_id_expiration_ms;
            topic.config.producer_id_expiration_check_interval_ms =
                config.producer_id_expiration_check_interval_ms;
            topic.config.retention_check_interval_ms = config.retention_check_interval_ms;
        }
        self.emit(EventKind::ConfigChanged {
            key: key.to_string(),
            value: value.to_string(),
        });
        Ok(vec![])
    }
}
