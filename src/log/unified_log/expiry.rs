//! Producer-id expiry on a partition (`UnifiedLog.removeExpiredProducers`, run by
//! the `PeriodicProducerExpirationCheck` task every
//! `producer.id.expiration.check.interval.ms`; Kafka 4.0, trunk 1eb7644).

use super::{LogConfig, UnifiedLog};

impl UnifiedLog {
    /// Takes the broker-wide expiry settings from `config`.
    pub fn set_producer_id_expiration(&mut self, config: &LogConfig) {
        self.config.producer_id_expiration_ms = config.producer_id_expiration_ms;
        self.config.producer_id_expiration_check_interval_ms =
            config.producer_id_expiration_check_interval_ms;
    }

    /// `log.retention.check.interval.ms` (broker-wide) changed.
    pub fn set_retention_check_interval(&mut self, interval_ms: i64) {
        self.config.retention_check_interval_ms = interval_ms;
    }

    /// Forgets the producers idle for `producer.id.expiration.ms` without an open
    /// transaction here; returns their ids.
    pub fn remove_expired_producers(&mut self, now_ms: i64) -> Vec<i64> {
        let expiration_ms = self.config.producer_id_expiration_ms;
        self.producer_state
            .remove_expired_producers(now_ms, expiration_ms)
    }

    /// When the first producer of this partition becomes expired, if any can.
    pub fn next_producer_expiry_ms(&self) -> Option<i64> {
        self.producer_state
            .next_expiry_ms(self.config.producer_id_expiration_ms)
    }
}
