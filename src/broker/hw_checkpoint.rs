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
    /// Asked at every clock jump (`next_useful_housekeeping_ms`), so the text is
    /// compared with the file as it is formatted, without building it.
    pub fn hw_checkpoint_stale(&self) -> bool {
        if self.logs.is_empty() {
            return false;
        }
        let entries = self.logs.iter().map(|(tp, l)| (tp, l.high_watermark()));
        self.fs
            .read(&Self::hw_checkpoint_path())
            .ok()
            .is_none_or(|bytes| !checkpoint_text_is(bytes, entries))
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

/// Whether `bytes` is exactly the `OffsetCheckpointFile` text of these entries (`0`,
/// the count, one `topic partition offset` line each), as `format!` writes it. Asked
/// at every clock jump for ~100 partitions (the internal topics'), so it compares in
/// place, numbers written on the stack, rather than format the text.
pub(super) fn checkpoint_text_is<'a>(
    bytes: &[u8],
    entries: impl Iterator<Item = (&'a TopicPartition, i64)> + Clone,
) -> bool {
    let mut rest = bytes;
    let mut eat = |part: &[u8]| match rest.strip_prefix(part) {
        Some(r) => {
            rest = r;
            true
        }
        None => false,
    };
    let mut buf = [0u8; 20];
    let count = i64::try_from(entries.clone().count()).unwrap_or(i64::MAX);
    let same = eat(b"0\n")
        && eat(decimal(count, &mut buf))
        && eat(b"\n")
        && entries.into_iter().all(|(tp, offset)| {
            eat(tp.topic.as_bytes())
                && eat(b" ")
                && eat(decimal(i64::from(tp.partition), &mut buf))
                && eat(b" ")
                && eat(decimal(offset, &mut buf))
                && eat(b"\n")
        });
    same && rest.is_empty()
}

/// `n` in decimal as `Display` writes it (a `-` before a negative number).
fn decimal(n: i64, buf: &mut [u8; 20]) -> &[u8] {
    // 19 digits and a sign at most: the buffer always has room.
    let mut at = buf.len();
    let mut u = n.unsigned_abs();
    let mut put = |at: &mut usize, b: u8| {
        *at = at.saturating_sub(1);
        if let Some(slot) = buf.get_mut(*at) {
            *slot = b;
        }
    };
    loop {
        put(&mut at, b'0' + (u % 10) as u8);
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if n < 0 {
        put(&mut at, b'-');
    }
    buf.get(at..).unwrap_or_default()
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
    fn decimal_writes_what_display_writes() {
        let mut buf = [0u8; 20];
        for n in [0, 7, -7, 10, 99, -100, 1_234_567, i64::MAX, i64::MIN] {
            assert_eq!(decimal(n, &mut buf), n.to_string().as_bytes());
        }
        let tp = TopicPartition::new("a", 0);
        let entries = || [(&tp, 5)].into_iter();
        assert!(checkpoint_text_is(b"0\n1\na 0 5\n", entries()));
        for other in [
            &b"0\n1\na 0 6\n"[..],
            b"0\n1\na 0 5\nb",
            b"0\n1\na 0 5",
            b"",
        ] {
            assert!(!checkpoint_text_is(other, entries()));
        }
        assert!(checkpoint_text_is(b"0\n0\n", [].into_iter()));
    }

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
