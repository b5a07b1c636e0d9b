//! The log cleaner on a broker (Kafka 4.0's `LogCleaner`): one pass over a
//! compacted partition's log when a step asks, where Kafka's cleaner threads pick the
//! dirtiest log on their own. The cleaning itself is `UnifiedLog::clean`.

use super::broker::{Broker, BrokerEvent};
use crate::log::TopicPartition;

impl Broker {
    /// Cleans this broker's replica of `tp`, if it has one; the event says what the
    /// pass did, or why it found nothing to clean.
    pub fn clean_log(&mut self, tp: &TopicPartition, now_ms: i64) -> Option<BrokerEvent> {
        let log = self.logs.get_mut(tp)?;
        match log.clean(&mut self.fs, now_ms) {
            Ok(Ok(stats)) => Some(BrokerEvent::LogCleaned {
                tp: tp.clone(),
                bounded_by_lso: log.first_uncleanable_offset().1,
                stats,
            }),
            Ok(Err(nothing)) => Some(BrokerEvent::NothingToClean {
                tp: tp.clone(),
                first_uncleanable_offset: nothing.first_uncleanable_offset,
                bounded_by_lso: nothing.bounded_by_lso,
            }),
            // Kafka marks a partition whose cleaning failed uncleanable; here the
            // disk is in memory and does not fail.
            Err(_) => None,
        }
    }
}
