//! The consumer's settings (Kafka's `ConsumerConfig`): isolation level, where a
//! partition without a position starts, and how many records one poll returns.

use serde::{Deserialize, Serialize};

use crate::log::FetchIsolation;
use crate::protocol::config_def::{self, Place};
use crate::protocol::config_error::{ConfigError, ConfigRule, ConfigScope};

/// Kafka's `IsolationLevel`: which records a consumer may see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IsolationLevel {
    /// Everything up to the high watermark, aborted transactions included. Kafka's
    /// default (`ConsumerConfig.DEFAULT_ISOLATION_LEVEL`).
    #[default]
    ReadUncommitted,
    /// Only committed data, and only up to the last stable offset.
    ReadCommitted,
}

impl IsolationLevel {
    /// The config value: `read_uncommitted` or `read_committed`.
    pub fn name(self) -> &'static str {
        match self {
            IsolationLevel::ReadUncommitted => "read_uncommitted",
            IsolationLevel::ReadCommitted => "read_committed",
        }
    }

    /// The byte a Fetch request carries (`IsolationLevel.id()`): 0 or 1.
    pub fn id(self) -> i8 {
        match self {
            IsolationLevel::ReadUncommitted => 0,
            IsolationLevel::ReadCommitted => 1,
        }
    }

    /// Parses the config value (exact, lower case, as Kafka's validator).
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "read_uncommitted" => Some(IsolationLevel::ReadUncommitted),
            "read_committed" => Some(IsolationLevel::ReadCommitted),
            _ => None,
        }
    }

    /// How far the broker reads for this consumer (`FetchIsolation.of`).
    pub fn fetch_isolation(self) -> FetchIsolation {
        match self {
            IsolationLevel::ReadUncommitted => FetchIsolation::HighWatermark,
            IsolationLevel::ReadCommitted => FetchIsolation::TxnCommitted,
        }
    }
}

impl std::fmt::Display for IsolationLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `auto.offset.reset`: where a partition without a position starts. Mirrors Kafka's
/// `OffsetResetStrategy` (without 4.x's `by_duration:`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OffsetResetStrategy {
    /// The end: only records written from now on (Kafka's default).
    #[default]
    Latest,
    /// The log start offset: everything still on disk.
    Earliest,
    /// No reset: the application must seek (`NoOffsetForPartitionException`).
    None,
}

impl OffsetResetStrategy {
    pub fn name(self) -> &'static str {
        match self {
            OffsetResetStrategy::Latest => "latest",
            OffsetResetStrategy::Earliest => "earliest",
            OffsetResetStrategy::None => "none",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "latest" => Some(OffsetResetStrategy::Latest),
            "earliest" => Some(OffsetResetStrategy::Earliest),
            "none" => Some(OffsetResetStrategy::None),
            _ => None,
        }
    }
}

/// The consumer settings that matter for reading transactions (`ConsumerConfig`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerConfig {
    pub client_id: String,
    /// `group.id`: needed only to commit or fetch offsets.
    pub group_id: Option<String>,
    /// `isolation.level` (default `read_uncommitted`).
    pub isolation_level: IsolationLevel,
    /// `auto.offset.reset` (default `latest`).
    pub auto_offset_reset: OffsetResetStrategy,
    /// `max.poll.records` (default 500): at most this many records per `poll()`.
    pub max_poll_records: u32,
    /// `enable.auto.commit`. Kafka's default is true; we only model manual commits,
    /// so this is always false.
    pub enable_auto_commit: bool,
}

/// Kafka's `ConsumerConfig.DEFAULT_MAX_POLL_RECORDS`.
pub const DEFAULT_MAX_POLL_RECORDS: u32 = 500;

impl ConsumerConfig {
    pub fn new(client_id: &str) -> Self {
        ConsumerConfig {
            client_id: client_id.to_string(),
            group_id: None,
            isolation_level: IsolationLevel::default(),
            auto_offset_reset: OffsetResetStrategy::default(),
            max_poll_records: DEFAULT_MAX_POLL_RECORDS,
            enable_auto_commit: false,
        }
    }

    /// Applies `key=value` settings with Kafka's names. Errors read like Kafka's
    /// `ConfigException`: `Invalid value X for configuration K: ...`.
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        client_id: &str,
        pairs: &[(K, V)],
    ) -> Result<Self, ConfigError> {
        let mut c = ConsumerConfig::new(client_id);
        for (k, v) in pairs {
            let (k, v) = (k.as_ref(), v.as_ref());
            // Typed and validated by Kafka's ConfigDef first (`crate::protocol::config_def`):
            // an unknown key is refused there by name.
            let value = config_def::parse(Place::Consumer, k, v)?;
            let invalid = |rule: ConfigRule| ConfigError::invalid(k, v, Some(rule));
            match k {
                "isolation.level" => {
                    c.isolation_level = IsolationLevel::parse(value.string()).ok_or_else(|| {
                        invalid(ConfigRule::OneOf(&["read_committed", "read_uncommitted"]))
                    })?
                }
                "auto.offset.reset" => {
                    c.auto_offset_reset =
                        OffsetResetStrategy::parse(value.string()).ok_or_else(|| {
                            invalid(ConfigRule::OneOf(&["latest", "earliest", "none"]))
                        })?
                }
                // Kafka's Type.INT with atLeast(1) (`crate::protocol::config_def`).
                "max.poll.records" => {
                    c.max_poll_records = u32::try_from(value.number()).unwrap_or(1)
                }
                "enable.auto.commit" => {
                    if value.boolean() {
                        return Err(invalid(ConfigRule::AutoCommitNotSimulated));
                    }
                    c.enable_auto_commit = false
                }
                "group.id" => c.group_id = Some(value.string().to_string()),
                "client.id" => c.client_id = value.string().to_string(),
                other => {
                    return Err(ConfigError::Unknown {
                        scope: ConfigScope::Consumer,
                        key: other.to_string(),
                    })
                }
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_defaults_and_errors() {
        let c = ConsumerConfig::new("c");
        assert_eq!(c.isolation_level, IsolationLevel::ReadUncommitted);
        assert_eq!(c.auto_offset_reset, OffsetResetStrategy::Latest);
        assert_eq!(c.max_poll_records, 500);
        let e =
            ConsumerConfig::from_pairs("c", &[("isolation.level", "serializable")]).unwrap_err();
        assert_eq!(
            e,
            ConfigError::invalid(
                "isolation.level",
                "serializable",
                Some(ConfigRule::OneOf(&["read_committed", "read_uncommitted"]))
            )
        );
        assert_eq!(
            ConsumerConfig::from_pairs("c", &[("enable.auto.commit", "true")]).unwrap_err(),
            ConfigError::invalid(
                "enable.auto.commit",
                "true",
                Some(ConfigRule::AutoCommitNotSimulated)
            )
        );
        assert!(ConsumerConfig::from_pairs("c", &[("max.poll.records", "0")]).is_err());
    }
}
