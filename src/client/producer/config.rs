//! The producer's settings (`ProducerConfig`): Kafka's names, defaults and the
//! idempotence rules checked when they are read.

use super::*;
use crate::protocol::config_def::{self, Place};

/// The producer settings that matter for idempotence (`ProducerConfig`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerConfig {
    pub client_id: String,
    /// `enable.idempotence` (default true since Kafka 3.0).
    pub enable_idempotence: bool,
    /// `acks`: -1 is "all" (the default).
    pub acks: i16,
    /// `max.in.flight.requests.per.connection` (default 5).
    pub max_in_flight: u32,
    /// `request.timeout.ms` (default 30000).
    pub request_timeout_ms: i64,
    /// `delivery.timeout.ms` (default 120000): a batch not acknowledged this long after
    /// it was created fails with a `TimeoutException`, in the queue or in flight
    /// (KIP-91, `RecordAccumulator.expiredBatches`, `Sender.getExpiredInflightBatches`).
    pub delivery_timeout_ms: i64,
    /// `retry.backoff.ms` (default 100): the first wait before a batch is retried,
    /// and the fixed wait of the transactional requests' retries.
    pub retry_backoff_ms: i64,
    /// `retry.backoff.max.ms` (default 1000, KIP-580, Kafka 3.7+): a batch's retry
    /// wait doubles from `retry.backoff.ms` up to this (`ExponentialBackoff`).
    pub retry_backoff_max_ms: i64,
    /// `batch.size` (default 16384): a batch takes no more records once it holds this
    /// many bytes (one record larger than that still gets a batch of its own).
    pub batch_size: usize,
    /// `retries` (default i32::MAX).
    pub retries: u32,
    /// Whether the user wrote `enable.idempotence` explicitly (Kafka only refuses
    /// conflicting settings then; otherwise it quietly turns idempotence off).
    pub idempotence_set_explicitly: bool,
    /// `transactional.id`: makes the producer transactional.
    pub transactional_id: Option<String>,
    /// `transaction.timeout.ms` (default 60000).
    pub transaction_timeout_ms: i32,
}

impl ProducerConfig {
    pub fn new(client_id: &str) -> Self {
        ProducerConfig {
            client_id: client_id.to_string(),
            enable_idempotence: true,
            acks: -1,
            max_in_flight: 5,
            request_timeout_ms: 30_000,
            delivery_timeout_ms: 120_000,
            retry_backoff_ms: 100,
            retry_backoff_max_ms: 1000,
            batch_size: 16_384,
            retries: u32::MAX,
            idempotence_set_explicitly: false,
            transactional_id: None,
            transaction_timeout_ms: 60_000,
        }
    }

    /// Applies `key=value` settings with Kafka's names, then validates them as
    /// `ProducerConfig.postProcessAndValidateIdempotenceConfigs` does.
    pub fn from_pairs(client_id: &str, pairs: &[(String, String)]) -> Result<Self, ConfigError> {
        Self::from_pairs_with(client_id, pairs, crate::breaks::Breaks::default())
    }

    /// [`from_pairs`](Self::from_pairs) under the NOT KAFKA switches (`break
    /// in-flight=N` lets idempotence take up to N requests in flight).
    pub fn from_pairs_with(
        client_id: &str,
        pairs: &[(String, String)],
        breaks: crate::breaks::Breaks,
    ) -> Result<Self, ConfigError> {
        let mut c = ProducerConfig::new(client_id);
        let mut delivery_timeout_set = false;
        for (k, v) in pairs {
            // Typed and validated as Kafka 4.0's ProducerConfig defines the key
            // (`crate::protocol::config_def`); an unknown key is refused there.
            let value = config_def::parse(Place::Producer, k, v)?;
            let n = value.number();
            // INT keys: the table checked the value is an int.
            let int = i32::try_from(n).unwrap_or(i32::MAX);
            match k.as_str() {
                "enable.idempotence" => {
                    c.enable_idempotence = value.boolean();
                    c.idempotence_set_explicitly = true;
                }
                "acks" => {
                    c.acks = if value.string() == "all" {
                        -1
                    } else {
                        n_of(value.string())
                    }
                }
                "max.in.flight.requests.per.connection" => c.max_in_flight = int.unsigned_abs(),
                "request.timeout.ms" => c.request_timeout_ms = n,
                "delivery.timeout.ms" => {
                    c.delivery_timeout_ms = n;
                    delivery_timeout_set = true;
                }
                "retry.backoff.ms" => c.retry_backoff_ms = n,
                "retry.backoff.max.ms" => c.retry_backoff_max_ms = n,
                "batch.size" => c.batch_size = int.unsigned_abs() as usize,
                "retries" => c.retries = int.unsigned_abs(),
                "client.id" => c.client_id = value.string().to_string(),
                "transactional.id" => c.transactional_id = Some(value.string().to_string()),
                "transaction.timeout.ms" => c.transaction_timeout_ms = int,
                other => {
                    return Err(ConfigError::Unknown {
                        scope: ConfigScope::Producer,
                        key: other.to_string(),
                    })
                }
            }
        }
        c.configure_delivery_timeout(delivery_timeout_set)?;
        c.validate(breaks)?;
        Ok(c)
    }

    /// `KafkaProducer.configureDeliveryTimeout`: `delivery.timeout.ms` must cover
    /// `linger.ms + request.timeout.ms` (linger is 0 here: a batch goes at the next
    /// drain). Set explicitly below that, it is refused; left at its default, it is
    /// raised to that sum, as Kafka does for older configs.
    fn configure_delivery_timeout(&mut self, set_explicitly: bool) -> Result<(), ConfigError> {
        let linger_and_request_timeout_ms = self.request_timeout_ms;
        if self.delivery_timeout_ms >= linger_and_request_timeout_ms {
            return Ok(());
        }
        if set_explicitly {
            return Err(ConfigError::DeliveryTimeoutBelowRequestTimeout);
        }
        self.delivery_timeout_ms = linger_and_request_timeout_ms;
        Ok(())
    }

    fn validate(&mut self, breaks: crate::breaks::Breaks) -> Result<(), ConfigError> {
        if self.transactional_id.is_some() && !self.enable_idempotence {
            return Err(ConfigError::TransactionalIdNeedsIdempotence);
        }
        if !self.enable_idempotence {
            return Ok(());
        }
        let conflict = if self.acks != -1 {
            Some(ConfigError::IdempotenceNeedsAcksAll)
        // NOT KAFKA: break in-flight=N — more than 5 in flight with idempotence.
        } else if self.max_in_flight > breaks.max_in_flight_with_idempotence() {
            Some(ConfigError::IdempotenceMaxInFlight)
        } else if self.retries == 0 {
            Some(ConfigError::IdempotenceNeedsRetries)
        } else {
            None
        };
        match conflict {
            Some(e) if self.idempotence_set_explicitly => Err(e),
            // Idempotence was only on by default: Kafka logs and turns it off.
            Some(_) => {
                self.enable_idempotence = false;
                Ok(())
            }
            None => Ok(()),
        }
    }
}

/// `acks` as a number: `-1`, `0` or `1` (the table allowed only those and `all`).
fn n_of(acks: &str) -> i16 {
    acks.parse().unwrap_or(-1)
}
