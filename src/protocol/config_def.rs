//! Kafka's `ConfigDef`: every `key=value` setting a scenario can write, with its type,
//! default and validator, in one table. The parsers of the cluster line, `topic create`,
//! `broker config`, `producer … create` and `consumer … create` read values through it,
//! and docs/scenarios.md prints the same table (a test compares them).
//!
//! Types, validators and their wording follow Kafka 4.0 (apache/kafka 1eb7644):
//! `ConfigDef.parseType` (`Not a number of type INT`), `Range.atLeast` / `Range.between`
//! (`Value must be at least 14`, `Value must be no more than 5`), `ValidString.in`,
//! `ValidList.in`, `NonEmptyString`; the keys as `LogConfig`, `TransactionLogConfig`,
//! `TransactionStateManagerConfig`, `GroupCoordinatorConfig`, `ProducerConfig` and
//! `ConsumerConfig` define them. Keys that are the playground's own (the cluster's shape)
//! say so; where the playground caps a Kafka key lower, the cap is the validator's upper
//! bound and the table says why.

use super::config_error::{ConfigError, ConfigRule, ConfigScope};

/// `ConfigDef.Type`, the ones these keys use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Long,
    Short,
    Boolean,
    String,
    List,
}

impl Type {
    /// Kafka's name of the type, as its error messages print it.
    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "INT",
            Type::Long => "LONG",
            Type::Short => "SHORT",
            Type::Boolean => "BOOLEAN",
            Type::String => "STRING",
            Type::List => "LIST",
        }
    }

    /// The range of the number type (`Integer.MIN_VALUE..MAX_VALUE` for INT).
    fn bounds(self) -> Option<(i64, i64)> {
        match self {
            Type::Int => Some((i32::MIN.into(), i32::MAX.into())),
            Type::Long => Some((i64::MIN, i64::MAX)),
            Type::Short => Some((i16::MIN.into(), i16::MAX.into())),
            _ => None,
        }
    }
}

/// A `ConfigDef.Validator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validator {
    None,
    /// `Range.atLeast(min)`.
    AtLeast(i32),
    /// `Range.between(min, max)`, both inclusive.
    Between(i32, i32),
    /// `ValidString.in(…)`.
    In(&'static [&'static str]),
    /// `ValidList.in(…)`: every item of the list is one of these.
    ValidList(&'static [&'static str]),
    /// `NonEmptyString`.
    NonEmptyString,
}

/// Where a key may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The `cluster` line (fixed when the world is made).
    Cluster,
    /// `topic create … KEY=VALUE` and `broker config KEY=VALUE` (a log setting: the
    /// broker's value is every new topic's default).
    Log,
    /// `topic create … KEY=VALUE` only (what CreateTopics carries beside the configs,
    /// and the topic's replication settings).
    Topic,
    /// `broker config KEY=VALUE` only.
    Broker,
    Producer,
    Consumer,
    /// The `pulsar cluster` line (fixed when the Pulsar world is made): Pulsar's names.
    PulsarCluster,
}

impl Place {
    /// Where the docs' table says the key is written.
    #[cfg(not(target_arch = "wasm32"))]
    fn name(self) -> &'static str {
        match self {
            Place::Cluster => "cluster",
            Place::Log => "topic, broker",
            Place::Topic => "topic",
            Place::Broker => "broker",
            Place::Producer => "producer",
            Place::Consumer => "consumer",
            Place::PulsarCluster => "pulsar cluster",
        }
    }
}

/// One key: `ConfigDef.define(name, type, default, validator, …)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigKey {
    pub name: &'static str,
    pub place: Place,
    pub ty: Type,
    /// The playground's default, as Kafka writes values (empty: none); where it is not
    /// Kafka's, the table's comment says so. Only the docs' table reads it, so the
    /// page's wasm leaves it out.
    #[cfg(not(target_arch = "wasm32"))]
    pub default: &'static str,
    pub validator: Validator,
}

/// A value of the key's type (text borrowed from what was written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// INT, LONG and SHORT, checked against their type's range.
    Number(i64),
    Boolean(bool),
    String(&'a str),
    /// A LIST as written (trimmed): its items are the parts between commas.
    List(&'a str),
}

impl Value<'_> {
    /// The number of an INT, LONG or SHORT key (0 for any other: the table decides the
    /// type, so a caller reads the accessor its key's type has).
    pub fn number(&self) -> i64 {
        match self {
            Value::Number(n) => *n,
            _ => 0,
        }
    }
    pub fn boolean(&self) -> bool {
        matches!(self, Value::Boolean(true))
    }
    pub fn string(&self) -> &str {
        match self {
            Value::String(s) => s,
            _ => "",
        }
    }
    /// A LIST's items (`COMMA_WITH_WHITESPACE`: the spaces around commas dropped).
    pub fn list(&self) -> impl Iterator<Item = &str> {
        let text = match self {
            Value::List(l) => l,
            _ => "",
        };
        text.split(',')
            .map(str::trim)
            .filter(move |_| !text.is_empty())
    }
}

const fn key(
    name: &'static str,
    place: Place,
    ty: Type,
    default: &'static str,
    validator: Validator,
) -> ConfigKey {
    #[cfg(target_arch = "wasm32")]
    let _ = default;
    ConfigKey {
        name,
        place,
        ty,
        #[cfg(not(target_arch = "wasm32"))]
        default,
        validator,
    }
}

use Place::{Broker, Cluster, Consumer, Log, Producer, PulsarCluster, Topic};
use Type::{Boolean, Int, List, Long, Short};
use Validator::{AtLeast, Between, In, NonEmptyString, ValidList};

const INT_MAX: i32 = i32::MAX;

/// Every key a scenario may set, in the order docs/scenarios.md lists them (one line a
/// key, as a table reads; the comment names the Kafka class that defines it, or how
/// the playground differs).
#[rustfmt::skip]
pub const CONFIG_KEYS: &[ConfigKey] = &[
    // The cluster line.
    key("brokers", Cluster, Int, "1", Between(1, 5)), // the playground's (up to 5 brokers)
    key("latency.ms", Cluster, Int, "2", Between(0, INT_MAX)), // the playground's (one-way network latency)
    key("transaction.version", Cluster, Short, "2", Between(0, 2)), // the finalized feature level (Kafka 4.0 knows 0 to 2)
    key("transaction.partition.verification.enable", Cluster, Boolean, "true", Validator::None), // TransactionLogConfig
    key("offsets.topic.num.partitions", Cluster, Int, "50", Between(1, 50)), // GroupCoordinatorConfig, atLeast(1); at most 50 here
    key("transaction.state.log.num.partitions", Cluster, Int, "50", Between(1, 50)), // TransactionLogConfig, atLeast(1); at most 50 here
    key("auto.leader.rebalance.enable", Cluster, Boolean, "true", Validator::None), // ReplicationConfigs (the controller's)
    key("eligible.leader.replicas.enable", Cluster, Boolean, "false", Validator::None), // KRaftConfigs (KIP-966; off by default in 4.0)
    key("controllers", Cluster, Int, "1", Between(1, 5)), // the playground's (the voters of controller.quorum.voters)
    // A topic's own.
    key("replication.factor", Topic, Short, "1", AtLeast(1)), // CreateTopics replicationFactor (no larger than the brokers)
    key("min.insync.replicas", Topic, Int, "1", AtLeast(1)), // LogConfig
    key("unclean.leader.election.enable", Topic, Boolean, "false", Validator::None), // LogConfig
    // Log settings: a topic's, or the broker's default for new topics.
    key("segment.bytes", Log, Int, "1073741824", AtLeast(14)), // LogConfig (atLeast(LegacyRecord.RECORD_OVERHEAD_V0))
    key("index.interval.bytes", Log, Int, "4096", AtLeast(0)), // LogConfig
    key("max.message.bytes", Log, Int, "1048588", AtLeast(0)), // LogConfig
    key("retention.ms", Log, Long, "604800000", AtLeast(-1)), // LogConfig
    key("log.retention.ms", Log, Long, "604800000", Validator::None), // ServerLogConfigs (unset: log.retention.hours, 168)
    key("retention.bytes", Log, Long, "-1", Validator::None), // LogConfig
    key("log.retention.bytes", Log, Long, "-1", Validator::None), // ServerLogConfigs
    key("cleanup.policy", Log, List, "delete", ValidList(&["compact", "delete"])), // LogConfig
    key("delete.retention.ms", Log, Long, "86400000", AtLeast(0)), // LogConfig
    key("log.cleaner.delete.retention.ms", Log, Long, "86400000", AtLeast(0)), // CleanerConfig
    key("producer.id.expiration.ms", Log, Int, "86400000", AtLeast(1)), // TransactionLogConfig
    key("producer.id.expiration.check.interval.ms", Log, Int, "600000", AtLeast(1)), // TransactionLogConfig
    key("log.retention.check.interval.ms", Log, Long, "300000", AtLeast(1)), // ServerLogConfigs
    key("producer.snapshots", Log, Boolean, "true", Validator::None), // NOT KAFKA: false keeps no producer-state snapshots
    // Broker settings.
    key("transactional.id.expiration.ms", Broker, Int, "604800000", AtLeast(1)), // TransactionStateManagerConfig
    key("transaction.max.timeout.ms", Broker, Int, "900000", AtLeast(1)), // TransactionStateManagerConfig
    key("transaction.remove.expired.transaction.cleanup.interval.ms", Broker, Int, "3600000", AtLeast(1)), // TransactionStateManagerConfig
    key("offsets.topic.replication.factor", Broker, Short, "1", AtLeast(1)), // GroupCoordinatorConfig (default 3; 1 as config/server.properties sets it)
    key("transaction.state.log.replication.factor", Broker, Short, "1", AtLeast(1)), // TransactionLogConfig (default 3; 1 as config/server.properties sets it)
    key("transaction.state.log.min.isr", Broker, Int, "1", AtLeast(1)), // TransactionLogConfig (default 2; 1 as config/server.properties sets it)
    // The producer.
    key("acks", Producer, Type::String, "all", In(&["all", "-1", "0", "1"])), // ProducerConfig
    key("enable.idempotence", Producer, Boolean, "true", Validator::None), // ProducerConfig
    key("retries", Producer, Int, "2147483647", Between(0, INT_MAX)), // ProducerConfig
    key("batch.size", Producer, Int, "16384", AtLeast(0)), // ProducerConfig
    key("max.in.flight.requests.per.connection", Producer, Int, "5", AtLeast(1)), // ProducerConfig
    key("request.timeout.ms", Producer, Int, "30000", AtLeast(0)), // ProducerConfig
    key("delivery.timeout.ms", Producer, Int, "120000", AtLeast(0)), // ProducerConfig
    key("retry.backoff.ms", Producer, Long, "100", AtLeast(0)), // ProducerConfig
    key("retry.backoff.max.ms", Producer, Long, "1000", AtLeast(0)), // ProducerConfig
    key("transactional.id", Producer, Type::String, "", NonEmptyString), // ProducerConfig
    key("transaction.timeout.ms", Producer, Int, "60000", Validator::None), // ProducerConfig (the coordinator refuses ≤ 0: INVALID_TRANSACTION_TIMEOUT)
    key("client.id", Producer, Type::String, "", Validator::None), // ProducerConfig
    // The consumer.
    key("isolation.level", Consumer, Type::String, "read_uncommitted", In(&["read_committed", "read_uncommitted"])), // ConsumerConfig
    key("auto.offset.reset", Consumer, Type::String, "latest", In(&["latest", "earliest", "none"])), // ConsumerConfig
    key("max.poll.records", Consumer, Int, "500", AtLeast(1)), // ConsumerConfig
    key("enable.auto.commit", Consumer, Boolean, "false", Validator::None), // ConsumerConfig (default true; auto commit is not simulated, offsets are committed explicitly)
    key("group.id", Consumer, Type::String, "", Validator::None), // ConsumerConfig
    key("client.id", Consumer, Type::String, "", Validator::None), // ConsumerConfig
    // The `pulsar cluster` line (Pulsar 4.0's names).
    key("brokers", PulsarCluster, Int, "1", Between(1, 3)), // the playground's (up to 3 Pulsar brokers)
    key("coordinators", PulsarCluster, Int, "1", Between(1, 4)), // the playground's (transaction coordinators, one __transaction_log_K each)
    key("latency.ms", PulsarCluster, Int, "2", Between(0, INT_MAX)), // the playground's (one-way network latency)
    key("transactionCoordinatorEnabled", PulsarCluster, Boolean, "true", Validator::None), // ServiceConfiguration (default false; on here, the lessons are about it)
    key("brokerDeduplicationEnabled", PulsarCluster, Boolean, "false", Validator::None), // ServiceConfiguration
    key("transactionTimeoutMs", PulsarCluster, Long, "60000", Between(1, INT_MAX)), // TransactionBuilder.withTransactionTimeout (at most 2147483647 here)
    key("operationTimeoutMs", PulsarCluster, Long, "30000", Between(1, INT_MAX)), // ClientConfigurationData (at most 2147483647 here)
];

/// The key `name` where `place` reads keys (a log setting is a broker's too).
pub fn find(place: Place, name: &str) -> Option<&'static ConfigKey> {
    CONFIG_KEYS.iter().find(|k| {
        k.name == name && (k.place == place || (matches!(place, Topic | Broker) && k.place == Log))
    })
}

/// Parses `value` for the key `name` read where `place` reads it: an unknown key is
/// refused by name, a value as `ConfigDef.parseType` and the key's validator refuse it.
pub fn parse<'a>(place: Place, name: &str, value: &'a str) -> Result<Value<'a>, ConfigError> {
    let scope = match place {
        Producer => ConfigScope::Producer,
        Consumer => ConfigScope::Consumer,
        Cluster | Log | Topic | Broker | PulsarCluster => ConfigScope::Cluster,
    };
    let key = find(place, name).ok_or_else(|| ConfigError::Unknown {
        scope,
        key: name.to_string(),
    })?;
    key.parse(value)
}

impl ConfigKey {
    /// `ConfigDef.parseType`, then the validator. Kafka trims the value first.
    pub fn parse<'a>(&self, value: &'a str) -> Result<Value<'a>, ConfigError> {
        let invalid = |rule: ConfigRule| ConfigError::invalid(self.name, value, Some(rule));
        let trimmed = value.trim();
        let parsed = match self.ty {
            Type::Int | Type::Long | Type::Short => {
                let (lo, hi) = self.ty.bounds().unwrap_or((i64::MIN, i64::MAX));
                let n = trimmed
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (lo..=hi).contains(n))
                    .ok_or_else(|| invalid(self.not_a_number()))?;
                Value::Number(n)
            }
            Type::Boolean => {
                if trimmed.eq_ignore_ascii_case("true") {
                    Value::Boolean(true)
                } else if trimmed.eq_ignore_ascii_case("false") {
                    Value::Boolean(false)
                } else {
                    return Err(invalid(ConfigRule::Boolean));
                }
            }
            Type::String => Value::String(trimmed),
            Type::List => Value::List(trimmed),
        };
        self.validate(&parsed).map_err(invalid)?;
        Ok(parsed)
    }

    /// The rule a value that is no number of the type breaks: Kafka's words, and the
    /// range when the key has both bounds (a learner should not have to guess them).
    fn not_a_number(&self) -> ConfigRule {
        match self.validator {
            Between(min, max) => ConfigRule::NotNumberBetween {
                kind: self.ty.name(),
                min: min.into(),
                max: max.into(),
            },
            _ => ConfigRule::NotNumberOfType(self.ty.name()),
        }
    }

    fn validate(&self, value: &Value) -> Result<(), ConfigRule> {
        match (self.validator, value) {
            (AtLeast(min) | Between(min, _), Value::Number(n)) if *n < i64::from(min) => {
                Err(ConfigRule::AtLeast(min.into()))
            }
            (Between(_, max), Value::Number(n)) if *n > i64::from(max) => {
                Err(ConfigRule::NoMoreThan(max.into()))
            }
            (In(valid), Value::String(s)) if !valid.contains(s) => Err(ConfigRule::OneOf(valid)),
            (ValidList(valid), list @ Value::List(_))
                if list.list().any(|i| !valid.contains(&i)) =>
            {
                Err(ConfigRule::OneOf(valid))
            }
            (NonEmptyString, Value::String("")) => Err(ConfigRule::NonEmpty),
            _ => Ok(()),
        }
    }

    /// The validator as Kafka's `toString` writes it (`[14,...]`, `[0,...,2]`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn validator_text(&self) -> String {
        match self.validator {
            Validator::None => String::new(),
            AtLeast(min) => format!("[{min},...]"),
            Between(min, max) => format!("[{min},...,{max}]"),
            In(v) | ValidList(v) => format!("[{}]", v.join(", ")),
            NonEmptyString => "non-empty string".into(),
        }
    }
}

/// The table as docs/scenarios.md shows it (Markdown, one row a key).
#[cfg(not(target_arch = "wasm32"))]
pub fn doc_table() -> String {
    let mut out =
        String::from("| key | where | type | default | valid values |\n|---|---|---|---|---|\n");
    for k in CONFIG_KEYS {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            k.name,
            k.place.name(),
            k.ty.name(),
            if k.default.is_empty() {
                String::new()
            } else {
                format!("`{}`", k.default)
            },
            k.validator_text(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(place: Place, key: &str, value: &str) -> Option<ConfigRule> {
        match parse(place, key, value) {
            Err(ConfigError::InvalidValue { rule, .. }) => rule,
            other => panic!("{key}={value}: {other:?}"),
        }
    }

    #[test]
    fn numbers_are_refused_beyond_their_type() {
        for key in [
            "segment.bytes",
            "index.interval.bytes",
            "max.message.bytes",
            "producer.id.expiration.ms",
        ] {
            assert_eq!(
                rule(Log, key, "2147483648"),
                Some(ConfigRule::NotNumberOfType("INT"))
            );
            assert!(parse(Log, key, "2147483647").is_ok(), "{key}");
        }
        assert_eq!(
            rule(Producer, "retries", "2147483648"),
            Some(ConfigRule::NotNumberBetween {
                kind: "INT",
                min: 0,
                max: INT_MAX.into()
            })
        );
        assert_eq!(
            rule(Cluster, "transaction.version", "32768"),
            Some(ConfigRule::NotNumberBetween {
                kind: "SHORT",
                min: 0,
                max: 2
            })
        );
        assert_eq!(
            rule(Log, "segment.bytes", "-2"),
            Some(ConfigRule::AtLeast(14))
        );
        assert_eq!(
            rule(Log, "segment.bytes", "13"),
            Some(ConfigRule::AtLeast(14))
        );
        assert_eq!(parse(Log, "segment.bytes", "14"), Ok(Value::Number(14)));
        assert_eq!(
            rule(Cluster, "brokers", "6"),
            Some(ConfigRule::NoMoreThan(5))
        );
        assert_eq!(
            parse(Log, "retention.bytes", "-9223372036854775808"),
            Ok(Value::Number(i64::MIN))
        );
        assert_eq!(
            rule(Log, "retention.ms", "9223372036854775808"),
            Some(ConfigRule::NotNumberOfType("LONG"))
        );
    }

    #[test]
    fn booleans_lists_and_strings_as_kafka_reads_them() {
        assert_eq!(
            parse(Producer, "enable.idempotence", " TRUE "),
            Ok(Value::Boolean(true))
        );
        assert_eq!(
            rule(Producer, "enable.idempotence", "yes"),
            Some(ConfigRule::Boolean)
        );
        assert_eq!(
            parse(Log, "cleanup.policy", "compact , delete")
                .unwrap()
                .list()
                .collect::<Vec<_>>(),
            ["compact", "delete"]
        );
        assert!(rule(Log, "cleanup.policy", "compact,nope").is_some());
        assert_eq!(parse(Log, "cleanup.policy", "").unwrap().list().count(), 0);
        assert_eq!(
            rule(Producer, "transactional.id", ""),
            Some(ConfigRule::NonEmpty)
        );
        assert!(matches!(
            parse(Log, "segment.byte", "1"),
            Err(ConfigError::Unknown { .. })
        ));
        // A broker takes a log setting; a topic does not take a broker-only one.
        assert!(parse(Broker, "segment.bytes", "1024").is_ok());
        assert!(parse(Log, "transactional.id.expiration.ms", "1").is_err());
    }
}
