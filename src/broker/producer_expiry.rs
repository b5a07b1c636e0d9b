//! The broker's `PeriodicProducerExpirationCheck`: every partition it hosts forgets
//! producers idle for `producer.id.expiration.ms` (Kafka 4.0).

use super::broker::{Broker, BrokerEvent};
use crate::log::LogConfig;

impl Broker {
    /// `producer.id.expiration.ms` and its check interval are broker-wide: every
    /// partition takes the new values.
    pub fn set_producer_id_expiration(&mut self, config: &LogConfig) {
        for log in self.logs.values_mut() {
            log.set_producer_id_expiration(config);
        }
    }

    /// Runs the check on every partition; one event per partition that forgot someone.
    pub fn remove_expired_producers(&mut self, now_ms: i64) -> Vec<BrokerEvent> {
        self.logs
            .iter_mut()
            .filter_map(|(tp, log)| {
                let producer_ids = log.remove_expired_producers(now_ms);
                (!producer_ids.is_empty()).then(|| BrokerEvent::ProducersExpired {
                    tp: tp.clone(),
                    producer_ids,
                    expiration_ms: log.config().producer_id_expiration_ms,
                })
            })
            .collect()
    }

    /// When the first producer on this broker becomes expired, if any can.
    pub fn next_producer_expiry_ms(&self) -> Option<i64> {
        self.logs
            .values()
            .filter_map(|l| l.next_producer_expiry_ms())
            .min()
    }
}
