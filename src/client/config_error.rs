//! Why a `key=value` setting was refused, as data: Kafka's `ConfigException` cases with
//! the key, the value and the rule broken. The catalog (`crate::i18n`) words them.

use serde::Serialize;

/// A refused configuration (`ConfigException`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ConfigError {
    /// `Invalid value V for configuration K`, with the rule when Kafka names one.
    InvalidValue {
        key: String,
        value: String,
        rule: Option<ConfigRule>,
    },
    /// A key the producer, the consumer or the cluster does not know.
    Unknown { scope: ConfigScope, key: String },
    /// `transactional.id` without `enable.idempotence=true`.
    TransactionalIdNeedsIdempotence,
    /// Idempotence set explicitly with `acks` other than all.
    IdempotenceNeedsAcksAll,
    /// Idempotence with `max.in.flight.requests.per.connection` above 5.
    IdempotenceMaxInFlight,
    /// Idempotence with `retries=0`.
    IdempotenceNeedsRetries,
    /// `delivery.timeout.ms` set below `linger.ms + request.timeout.ms`.
    DeliveryTimeoutBelowRequestTimeout,
}

/// Who reads the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ConfigScope {
    Producer,
    Consumer,
    /// A topic or broker setting of the world.
    Cluster,
}

/// The rule a value broke.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ConfigRule {
    /// The value must be one of these (Kafka's `ValidString`).
    OneOf(&'static [&'static str]),
    /// A number at least this large.
    AtLeast(u64),
    NotANumber,
    /// Does not parse as Kafka's `Type.INT` / `Type.LONG` (`ConfigDef.parseType`).
    NotNumberOfType(&'static str),
    /// `true` or `false` (Kafka's wording).
    Boolean,
    /// `true` or `false` (on/off accepted too).
    TrueOrFalse,
    /// Auto commit is not simulated: offsets are committed explicitly.
    AutoCommitNotSimulated,
}

impl ConfigError {
    /// Kafka's `Type.INT` with `atLeast(min)`: a 32-bit number, so an out-of-range value
    /// is refused as Kafka refuses it, never wrapped.
    pub fn parse_int(key: &str, value: &str, min: i32) -> Result<i32, ConfigError> {
        Self::parse_at_least(key, value, min, min.unsigned_abs().into(), "INT")
    }

    /// Kafka's `Type.LONG` with `atLeast(min)`.
    pub fn parse_long(key: &str, value: &str, min: i64) -> Result<i64, ConfigError> {
        Self::parse_at_least(key, value, min, min.unsigned_abs(), "LONG")
    }

    /// A number of Kafka's type `type_name` that is at least `min` (`min_abs` is `min`
    /// as the rule prints it).
    fn parse_at_least<T: std::str::FromStr + PartialOrd>(
        key: &str,
        value: &str,
        min: T,
        min_abs: u64,
        type_name: &'static str,
    ) -> Result<T, ConfigError> {
        let n: T = value.trim().parse().map_err(|_| {
            ConfigError::invalid(key, value, Some(ConfigRule::NotNumberOfType(type_name)))
        })?;
        if n < min {
            return Err(ConfigError::invalid(
                key,
                value,
                Some(ConfigRule::AtLeast(min_abs)),
            ));
        }
        Ok(n)
    }

    /// `Invalid value V for configuration K` with no rule named.
    pub fn invalid(key: &str, value: &str, rule: Option<ConfigRule>) -> Self {
        ConfigError::InvalidValue {
            key: key.to_string(),
            value: value.to_string(),
            rule,
        }
    }
}
