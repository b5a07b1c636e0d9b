//! `clean TOPIC-P`: the log cleaner runs now on every running broker that has a
//! replica of a compacted partition (each replica is cleaned on its own, as Kafka's
//! cleaner threads do), and prints what Kafka's `log-cleaner.log` says of the pass.

use super::error::{SimError, SimErrorKind};
use super::event::EventKind;
use super::world::World;
use crate::broker::BrokerEvent;
use crate::log::TopicPartition;

impl World {
    /// Cleans `tp` on each running broker; refused for a partition that is unknown
    /// or whose topic is not compacted.
    pub fn clean_log(&mut self, tp: &TopicPartition) -> Result<Vec<String>, SimError> {
        self.check_partition(tp)?;
        let compacted = self
            .brokers
            .values()
            .find_map(|b| b.logs().get(tp))
            .is_some_and(|l| l.config().cleanup_policy_compact);
        if !compacted {
            return Err(SimErrorKind::NotCompacted { tp: tp.clone() }.into());
        }
        let now = self.clock_ms;
        let ids = self.online_brokers();
        let mut lines = Vec::new();
        for id in ids {
            let Some(event) = self.brokers.get_mut(&id).and_then(|b| b.clean_log(tp, now)) else {
                continue;
            };
            if let BrokerEvent::LogCleaned { stats, .. } = &event {
                // `LogCleaner.recordStats`, in bytes rather than MB.
                lines.push(format!(
                    "broker-{id}: Log cleaner thread 0 cleaned log {tp} (dirty section = [{}, {}])",
                    stats.start_offset, stats.end_offset
                ));
                lines.push(format!(
                    "\tStart size: {} bytes ({} messages)",
                    stats.bytes_before, stats.records_before
                ));
                lines.push(format!(
                    "\tEnd size: {} bytes ({} messages)",
                    stats.bytes_after, stats.records_after
                ));
            }
            self.emit(EventKind::Broker { broker: id, event });
        }
        Ok(lines)
    }
}
