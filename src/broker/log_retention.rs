//! The log start offset on a broker (Kafka 4.0, trunk 1eb7644): DeleteRecords
//! (`ReplicaManager.deleteRecords`, `Partition.deleteRecordsOnLeader`), the retention
//! check (`LogManager.cleanupLogs` every `log.retention.check.interval.ms`) and the
//! `log-start-offset-checkpoint` file (`LogManager.checkpointLogStartOffsets`).
//!
//! On a replicated partition the answer waits until every follower's log start
//! reached the offset (`DelayedDeleteRecords`, the "low watermark"): see
//! `delayed_delete_records.rs`. Followers copy the leader's log start from their next
//! fetch answer and report theirs in the fetch after it.

use super::broker::{Broker, BrokerEvent, Handled, LOG_DIR};
use crate::coordinator::internal_topics::is_internal;
use crate::log::{LogConfig, LogStartOffsetIncrementReason, TopicPartition};
use crate::protocol::errors::Errors;

/// `DeleteRecordsRequest.HIGH_WATERMARK`: delete everything below the HW.
pub const HIGH_WATERMARK: i64 = -1;

/// The file a broker keeps its partitions' log start offsets in, at its log dir.
pub const LOG_START_OFFSET_CHECKPOINT: &str = "log-start-offset-checkpoint";

impl Broker {
    /// DeleteRecords: for each partition, the new low watermark or the error; on a
    /// replicated partition the answer may wait for the followers.
    pub(super) fn handle_delete_records(
        &mut self,
        partitions: Vec<(TopicPartition, i64)>,
        timeout_ms: i32,
        token: u64,
        now_ms: i64,
    ) -> Handled {
        let mut handled = Handled::default();
        let results = partitions
            .into_iter()
            .map(
                |(tp, offset)| match self.delete_records_on_leader(&tp, offset) {
                    Ok((required, low_watermark, event)) => {
                        handled.events.extend(event);
                        (tp, required, low_watermark, Errors::None)
                    }
                    Err(error) => (tp, offset, -1, error),
                },
            )
            .collect();
        self.maybe_delay_delete_records(results, timeout_ms, token, now_ms, &mut handled);
        handled
    }

    /// `deleteRecordsOnLocalLog` + `deleteRecordsOnLeader`: internal topics are
    /// refused (INVALID_TOPIC_EXCEPTION), then a follower (NOT_LEADER_OR_FOLLOWER), a
    /// compacted topic (POLICY_VIOLATION), an offset below 0 after -1 became the HW
    /// or above the HW (OFFSET_OUT_OF_RANGE). Not an error: an offset at or below
    /// the log start (nothing moves).
    fn delete_records_on_leader(
        &mut self,
        tp: &TopicPartition,
        offset: i64,
    ) -> Result<(i64, i64, Option<BrokerEvent>), Errors> {
        if is_internal(&tp.topic) {
            return Err(Errors::InvalidTopicException);
        }
        if !self.leads(tp) {
            return Err(Errors::NotLeaderOrFollower);
        }
        let log = self
            .logs
            .get_mut(tp)
            .ok_or(Errors::UnknownTopicOrPartition)?;
        if !log.config().cleanup_policy_delete {
            return Err(Errors::PolicyViolation);
        }
        let converted = if offset == HIGH_WATERMARK {
            log.high_watermark()
        } else {
            offset
        };
        if converted < 0 {
            return Err(Errors::OffsetOutOfRange);
        }
        let from = log.log_start_offset();
        let reason = LogStartOffsetIncrementReason::ClientRecordDeletion;
        let moved = log.maybe_increment_log_start_offset(&mut self.fs, converted, reason)?;
        let event = moved.then(|| BrokerEvent::LogStartOffsetIncremented {
            tp: tp.clone(),
            from,
            to: log.log_start_offset(),
            reason,
        });
        let low_watermark = self
            .low_watermark_if_leader(tp)
            .ok_or(Errors::NotLeaderOrFollower)?;
        Ok((converted, low_watermark, event))
    }

    /// `log.retention.check.interval.ms` is broker-wide: every partition follows.
    pub fn set_log_retention_check_interval(&mut self, config: &LogConfig) {
        for log in self.logs.values_mut() {
            log.set_retention_check_interval(config.retention_check_interval_ms);
        }
    }

    /// `LogManager.cleanupLogs`: `deleteOldSegments` on every partition; one event
    /// per partition and rule that deleted something.
    pub fn cleanup_logs(&mut self, now_ms: i64) -> Vec<BrokerEvent> {
        let mut events = Vec::new();
        for (tp, log) in self.logs.iter_mut() {
            let Ok(done) = log.delete_old_segments(&mut self.fs, now_ms) else {
                continue;
            };
            events.extend(done.into_iter().map(|d| BrokerEvent::SegmentsDeleted {
                tp: tp.clone(),
                reason: d.reason,
                segments: d.segments,
                log_start_offset: d.log_start_offset,
                rolled_segment: d.rolled_segment,
            }));
        }
        events
    }

    /// When the retention check would next delete something here, if ever.
    pub fn next_retention_work_ms(&self, now_ms: i64) -> Option<i64> {
        self.logs
            .values()
            .filter_map(|l| l.next_retention_work_ms(now_ms))
            .min()
    }

    /// The `log-start-offset-checkpoint` text (`OffsetCheckpointFile`: version 0,
    /// the count, `topic partition offset` lines): only the partitions whose log
    /// start is above their first segment's base, as Kafka writes it.
    fn log_start_checkpoint_text(&self) -> String {
        let entries: Vec<String> = self
            .logs
            .iter()
            .filter(|(_, l)| {
                l.segments().first().map_or(0, |s| s.base_offset) < l.log_start_offset()
            })
            .map(|(tp, l)| format!("{} {} {}\n", tp.topic, tp.partition, l.log_start_offset()))
            .collect();
        format!("0\n{}\n{}", entries.len(), entries.concat())
    }

    fn log_start_checkpoint_path() -> String {
        format!("{LOG_DIR}/{LOG_START_OFFSET_CHECKPOINT}")
    }

    /// Whether the checkpoint on disk differs from the logs (the periodic
    /// `kafka-log-start-offset-checkpoint` task has something to write).
    /// Asked at every clock jump, so the text is compared as it is formatted.
    pub fn log_start_checkpoint_stale(&self) -> bool {
        let on_disk = self.fs.read(&Self::log_start_checkpoint_path()).ok();
        let entries = self
            .logs
            .iter()
            .filter(|(_, l)| {
                l.segments().first().map_or(0, |s| s.base_offset) < l.log_start_offset()
            })
            .map(|(tp, l)| (tp, l.log_start_offset()));
        match on_disk {
            Some(bytes) => !super::hw_checkpoint::checkpoint_text_is(bytes, entries),
            None => entries.count() != 0,
        }
    }

    /// `checkpointLogStartOffsets`: writes the file (every
    /// `log.flush.start.offset.checkpoint.interval.ms` and at a clean stop).
    pub fn checkpoint_log_start_offsets(&mut self) {
        if self.log_start_checkpoint_stale() {
            let text = self.log_start_checkpoint_text();
            let _ = self
                .fs
                .write(&Self::log_start_checkpoint_path(), text.as_bytes());
        }
    }

    /// The checkpointed log start of `tp` (0 when none), read at start-up.
    pub(super) fn checkpointed_log_start(&self, tp: &TopicPartition) -> i64 {
        let Ok(bytes) = self.fs.read(&Self::log_start_checkpoint_path()) else {
            return 0;
        };
        super::hw_checkpoint::checkpoint_offset(bytes, tp).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Response;
    use crate::record::RecordBatch;

    fn broker_with_records(n: i32) -> (Broker, TopicPartition) {
        let mut b = Broker::new(1, LogConfig::default());
        let tp = TopicPartition::new("orders", 0);
        b.create_partition(tp.clone()).unwrap();
        for seq in 0..n {
            let kvs = vec![(None, Some(b"v".to_vec()))];
            let batch = RecordBatch::new_data(0, 7, 0, seq, false, 0, kvs);
            let log = b.logs.get_mut(&tp).unwrap();
            log.append_as_leader(&mut b.fs, batch, 0).unwrap();
        }
        (b, tp)
    }

    fn delete(b: &mut Broker, tp: &TopicPartition, offset: i64) -> (i64, Errors) {
        match b
            .handle_delete_records(vec![(tp.clone(), offset)], 60_000, 0, 0)
            .response
        {
            Some(Response::DeleteRecords { results }) => (results[0].1, results[0].2),
            other => panic!("{other:?}"),
        }
    }

    /// `DeleteRecordsRequestTest`: -1 is the HW, above it OFFSET_OUT_OF_RANGE, below
    /// the log start the current low watermark; `Partition.deleteRecordsOnLeader`
    /// refuses a compacted topic.
    #[test]
    fn delete_records_answers_like_kafka() {
        let (mut b, tp) = broker_with_records(4);
        assert_eq!(delete(&mut b, &tp, 5), (-1, Errors::OffsetOutOfRange));
        assert_eq!(delete(&mut b, &tp, -2), (-1, Errors::OffsetOutOfRange));
        assert_eq!(delete(&mut b, &tp, 2), (2, Errors::None));
        assert_eq!(delete(&mut b, &tp, 1), (2, Errors::None));
        assert_eq!(delete(&mut b, &tp, HIGH_WATERMARK), (4, Errors::None));
        let internal = TopicPartition::new("__consumer_offsets", 0);
        assert_eq!(
            delete(&mut b, &internal, 0),
            (-1, Errors::InvalidTopicException)
        );
        let mut compacted = Broker::new(
            2,
            LogConfig {
                cleanup_policy_delete: false,
                ..LogConfig::default()
            },
        );
        compacted.create_partition(tp.clone()).unwrap();
        assert_eq!(
            delete(&mut compacted, &tp, 0),
            (-1, Errors::PolicyViolation)
        );
    }

    /// `OffsetCheckpointFile` lines, only for logs whose start is above their first
    /// segment, read back at start-up.
    #[test]
    fn the_checkpoint_holds_moved_log_starts_only() {
        let (mut b, tp) = broker_with_records(3);
        b.create_partition(TopicPartition::new("other", 0)).unwrap();
        assert!(!b.log_start_checkpoint_stale());
        delete(&mut b, &tp, 2);
        assert!(b.log_start_checkpoint_stale());
        b.checkpoint_log_start_offsets();
        assert!(!b.log_start_checkpoint_stale());
        let text = b.fs.read(&Broker::log_start_checkpoint_path()).unwrap();
        assert_eq!(text, b"0\n1\norders 0 2\n");
        assert_eq!(b.checkpointed_log_start(&tp), 2);
        assert_eq!(
            b.checkpointed_log_start(&TopicPartition::new("other", 0)),
            0
        );
    }
}
