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
    /// A number at least this large (`Range`: `Value must be at least`).
    AtLeast(i64),
    /// A number no larger than this (`Range.between`: `Value must be no more than`).
    NoMoreThan(i64),
    NotANumber,
    /// Does not parse as Kafka's `Type.INT` / `Type.LONG` (`ConfigDef.parseType`).
    NotNumberOfType(&'static str),
    /// As `NotNumberOfType`, for a key whose validator has both bounds: the range too.
    NotNumberBetween {
        kind: &'static str,
        min: i64,
        max: i64,
    },
    /// Kafka's `NonEmptyString`.
    NonEmpty,
    /// `true` or `false` (Kafka's wording).
    Boolean,
    /// `true` or `false` (on/off accepted too).
    TrueOrFalse,
    /// Auto commit is not simulated: offsets are committed explicitly.
    AutoCommitNotSimulated,
}

impl ConfigError {
    /// `Invalid value V for configuration K` with no rule named.
    pub fn invalid(key: &str, value: &str, rule: Option<ConfigRule>) -> Self {
        ConfigError::InvalidValue {
            key: key.to_string(),
            value: value.to_string(),
            rule,
        }
    }
}
