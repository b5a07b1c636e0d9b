//! The high-watermark checkpoint (Kafka 4.0, mirror commit 1eb7644:
//! `ReplicaManager.checkpointHighWatermarks`, run by the `highwatermark-checkpoint` task
//! every `replica.high-watermark.checkpoint.interval.ms` = 5000 and at a clean
//! shutdown; `Partition.createLogIfNotExists` reads it back).
//!
//! The file `replication-offset-checkpoint` in the log dir is an `OffsetCheckpointFile`:
//! a version line (`0`), a count line, then one `topic partition offset` line per
//! partition with a local log, leader or follower. A restarted broker starts each
//! replicated partition's HW from it (within the log's start and end) instead of at its
//! log end, so a follower does not claim records are committed before the leader says
//! so. Simplified: one grid of ticks for the cluster; lines sorted by topic and
//! partition (Kafka's order is a hash map's); the file is written only when its text
//! changes (the bytes would be the same).

use super::broker::{Broker, LOG_DIR};
use crate::log::TopicPartition;

/// The file's name in the log dir.
pub const REPLICATION_OFFSET_CHECKPOINT: &str = "replication-offset-checkpoint";

/// `replica.high-watermark.checkpoint.interval.ms` (5 s).
pub const HW_CHECKPOINT_INTERVAL_MS: i64 = 5_000;

impl Broker {
    fn hw_checkpoint_path() -> String {
        format!("{LOG_DIR}/{REPLICATION_OFFSET_CHECKPOINT}")
    }

    /// The checkpoint's text for the logs here now.
    fn hw_checkpoint_text(&self) -> String {
        let lines: Vec<String> = self
            .logs
            .iter()
            .map(|(tp, l)| format!("{} {} {}\n", tp.topic, tp.partition, l.high_watermark()))
            .collect();
        format!("0\n{}\n{}", lines.len(), lines.concat())
    }

    /// Whether the task has something to write (the file differs from the logs).
    pub fn hw_checkpoint_stale(&self) -> bool {
        if self.logs.is_empty() {
            return false;
        }
        let text = self.hw_checkpoint_text();
        self.fs
            .read(&Self::hw_checkpoint_path())
            .ok()
            .is_none_or(|bytes| bytes != text.as_bytes())
    }

    /// `checkpointHighWatermarks`: writes every local log's HW.
    pub fn checkpoint_high_watermarks(&mut self) {
        if self.hw_checkpoint_stale() {
            let text = self.hw_checkpoint_text();
            let _ = self.fs.write(&Self::hw_checkpoint_path(), text.as_bytes());
        }
    }

    /// The checkpointed HW of `tp`, read at start-up (`offsetCheckpoints.fetch`).
    pub(super) fn checkpointed_high_watermark(&self, tp: &TopicPartition) -> Option<i64> {
        let bytes = self.fs.read(&Self::hw_checkpoint_path()).ok()?;
        checkpoint_offset(bytes, tp)
    }
}

/// The offset of `tp` in a file of Kafka's `OffsetCheckpointFile` format (a version
/// line, a count line, then `topic partition offset` lines; the last line wins).
/// Shared by `replication-offset-checkpoint` and `log-start-offset-checkpoint`.
pub(super) fn checkpoint_offset(bytes: &[u8], tp: &TopicPartition) -> Option<i64> {
    String::from_utf8_lossy(bytes)
        .lines()
        .skip(2)
        .filter_map(|line| {
            let mut parts = line.split(' ');
            let (topic, partition, offset) = (parts.next()?, parts.next()?, parts.next()?);
            (topic == tp.topic && partition.parse::<i32>().ok()? == tp.partition)
                .then(|| offset.parse::<i64>().ok())
                .flatten()
        })
        .last()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::LogConfig;
    use crate::record::RecordBatch;

    // The format of Kafka 4.0's OffsetCheckpointFile (CheckpointFileWithFailureHandler,
    // OffsetCheckpointFileWithFailureHandlerTest): version, count, one line a partition.
    #[test]
    fn the_file_lists_each_local_logs_high_watermark() {
        let mut b = Broker::new(1, LogConfig::default());
        let tp = TopicPartition::new("orders", 0);
        b.create_partition(tp.clone()).unwrap();
        b.create_partition(TopicPartition::new("audit", 1)).unwrap();
        let kvs = vec![(None, Some(b"v".to_vec()))];
        let batch = RecordBatch::new_data(0, 7, 0, 0, false, 0, kvs);
        b.logs
            .get_mut(&tp)
            .unwrap()
            .append_as_leader(&mut b.fs, batch, 0)
            .unwrap();
        assert!(b.hw_checkpoint_stale());
        b.checkpoint_high_watermarks();
        let text = String::from_utf8(b.fs.read(&Broker::hw_checkpoint_path()).unwrap().to_vec());
        assert_eq!(text.unwrap(), "0\n2\naudit 1 0\norders 0 1\n");
        assert!(!b.hw_checkpoint_stale());
        assert_eq!(b.checkpointed_high_watermark(&tp), Some(1));
        assert_eq!(
            b.checkpointed_high_watermark(&TopicPartition::new("x", 0)),
            None
        );
    }
}
