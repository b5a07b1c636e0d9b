//! A broker's disk by hand: a producer-state snapshot now, a follower's log cut to an
//! offset, and a byte of a file flipped (a disk fault) that the next start finds.

use super::broker::{Broker, BrokerEvent, LOG_DIR};
use crate::fs::FsError;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;

impl Broker {
    /// `ProducerStateManager.takeSnapshot` now (Kafka takes one at every roll and at a
    /// clean shutdown): the event names the file, or None with snapshots off.
    pub fn take_producer_snapshot(&mut self, tp: &TopicPartition) -> Option<BrokerEvent> {
        let log = self.logs.get_mut(tp)?;
        let path = log.take_snapshot(&mut self.fs).ok()??;
        Some(BrokerEvent::SnapshotTaken {
            tp: tp.clone(),
            offset: log.log_end_offset(),
            snapshot: path,
        })
    }

    /// `UnifiedLog.truncateTo` on a follower's replica, as its fetcher does after a
    /// diverging epoch; the next fetch brings the batches back from the leader. A
    /// leader's log is never truncated so (NOT_LEADER_OR_FOLLOWER's opposite: refused).
    pub fn truncate_replica(
        &mut self,
        tp: &TopicPartition,
        offset: i64,
    ) -> Result<BrokerEvent, Errors> {
        if self.leads(tp) {
            return Err(Errors::NotLeaderOrFollower);
        }
        let log = self
            .logs
            .get_mut(tp)
            .ok_or(Errors::UnknownTopicOrPartition)?;
        let from = log.log_end_offset();
        let removed = log
            .truncate_to(&mut self.fs, offset)
            .map_err(|_| Errors::UnknownServerError)?;
        Ok(BrokerEvent::LogTruncated {
            tp: tp.clone(),
            from,
            to: log.log_end_offset(),
            removed_batches: removed,
        })
    }

    /// A disk fault: flips every bit of one byte of a file under the log dir (the
    /// last byte unless `position` names one). Nothing reads the file until it is
    /// needed: a start reads every `.log` and the latest `.snapshot`.
    pub fn corrupt_file(
        &mut self,
        relative_path: &str,
        position: Option<u64>,
    ) -> Result<BrokerEvent, FsError> {
        let path = format!("{LOG_DIR}/{relative_path}");
        let mut bytes = self.fs.read(&path)?.to_vec();
        let at = position.unwrap_or(bytes.len().saturating_sub(1) as u64);
        let byte = usize::try_from(at)
            .ok()
            .and_then(|i| bytes.get_mut(i))
            .ok_or_else(|| FsError::NotFound(format!("{path}@{at}")))?;
        *byte ^= 0xFF;
        self.fs.write(&path, &bytes)?;
        Ok(BrokerEvent::FileCorrupted {
            path: relative_path.to_string(),
            position: at,
        })
    }
}
