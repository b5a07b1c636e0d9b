//! The rows of the log table: one per batch, and one per run of offsets no batch holds.
//! Kafka never reuses an offset: when the log cleaner removes records (older values of
//! a key, tombstones past `delete.retention.ms`, aborted transactions' data and their
//! markers), the offsets stay behind as a gap, which read_committed and
//! read_uncommitted consumers both jump over. Below the log start offset nothing is
//! shown, and only the cleaner makes a gap above it (retention and DeleteRecords move
//! the log start; truncation cuts the end).

use crate::sim::view::LogView;
use crate::view::partition::PartitionView;

/// One row of the log table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogRow {
    /// The batch at this index of `LogView::batches`.
    Batch(usize),
    /// Offsets `first..=last` that no batch holds any more: the cleaner removed them.
    Removed { first: i64, last: i64 },
}

/// The rows of a [`LogView`] in offset order. A gap before the first batch counts from
/// the log start offset when every batch is shown, else from the first batch shown
/// (the table shows the newest few, and nothing is known of the offsets before them).
pub fn log_rows(log: &LogView) -> Vec<LogRow> {
    let spans = log.batches.iter().map(|b| (b.base_offset, b.last_offset));
    rows_of(
        log.log_start_offset,
        log.batches.len() == log.total_batches,
        spans,
    )
}

/// The rows of the transactions page's batch table, which renders only a window of
/// the batches (`PartitionView::table_rows`): its first batch's index among all
/// batches, and its rows as [`log_rows`], `LogRow::Batch` indexing into that window.
pub fn window_rows(part: &PartitionView) -> (usize, Vec<LogRow>) {
    let (first, batches) = part.table_rows();
    let spans = batches.iter().map(|b| (b.base_offset, b.last_offset));
    let whole = first == 0 && batches.len() == part.total_batches;
    (first, rows_of(part.log_start_offset, whole, spans))
}

/// How many batch rows the transactions page's table renders while the reader is at
/// its newest end (where every click lands): its box shows ≈ 9 rows (26rem of 44 px
/// rows), and each rendered row is laid out, pre-painted and painted again when a
/// click appends a batch (the rows move up together in the bottom-anchored box).
/// Against the 50–74 decoded rows, ≈ 3 ms less main-thread CPU a click's frame on the
/// 10,000-batch page (docs/performance.md).
pub const NEWEST_ROWS: usize = 24;

/// [`window_rows`] cut to its newest `keep` batches (and the gap rows between them;
/// uncut when it has no more than `keep`):
/// the first batch's index among all batches, how many batches, and the rows, each
/// `LogRow::Batch` indexing into those batches (the last `len` of `table_rows`).
pub fn newest_rows(part: &PartitionView, keep: usize) -> (usize, usize, Vec<LogRow>) {
    let (first, rows) = window_rows(part);
    let len = part.table_rows().1.len();
    let cut = len.saturating_sub(keep);
    if cut == 0 {
        return (first, len, rows);
    }
    // From the first batch kept: a gap before it is not shown, as in a window that
    // starts past the oldest batch (`rows_of`).
    let rows = rows
        .into_iter()
        .skip_while(|r| !matches!(r, LogRow::Batch(i) if *i >= cut))
        .map(|r| match r {
            LogRow::Batch(i) => LogRow::Batch(i - cut),
            gap => gap,
        })
        .collect();
    (first + cut, len - cut, rows)
}

/// Batch rows for `(base offset, last offset)` spans in offset order, with a gap row
/// wherever the next span starts past the offset after the last one.
fn rows_of(log_start: i64, whole: bool, spans: impl Iterator<Item = (i64, i64)>) -> Vec<LogRow> {
    let mut next = whole.then_some(log_start);
    let mut rows = Vec::new();
    for (i, (base, last)) in spans.enumerate() {
        let from = *next.get_or_insert(base);
        if base > from {
            rows.push(LogRow::Removed {
                first: from,
                last: base - 1,
            });
        }
        rows.push(LogRow::Batch(i));
        next = Some(from.max(last.saturating_add(1)));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::TopicPartition;
    use crate::scenario::parse::parse;
    use crate::scenario::Replay;

    fn rows_after(script: &str) -> (LogView, Vec<LogRow>) {
        let mut replay = Replay::new(parse(script).expect("parses"));
        replay.play_to(usize::MAX).expect("runs");
        let log = replay
            .world()
            .log_view(&TopicPartition::new("users", 0))
            .expect("the partition exists");
        let rows = log_rows(&log);
        (log, rows)
    }

    const COMPACTED: &str = "cluster brokers=1\n\
        topic create users partitions=1 cleanup.policy=compact segment.bytes=200\n\
        raw produce users-0 pid=7 seq=0 k1:a k2:b\n\
        raw produce users-0 pid=7 seq=2 k1:c k3:d\n\
        raw produce users-0 pid=7 seq=4 k2:e\n\
        raw produce users-0 pid=7 seq=5 k1:f\n\
        raw produce users-0 pid=7 seq=6 k4:g k4:h k4:i\n";

    #[test]
    fn a_log_without_gaps_has_one_row_per_batch() {
        let (log, rows) = rows_after(COMPACTED);
        assert_eq!(rows.len(), log.batches.len());
        assert!(rows.iter().all(|r| matches!(r, LogRow::Batch(_))));
    }

    #[test]
    fn batches_the_cleaner_removed_leave_one_gap_row() {
        // The second pass removes the batch 0..1 whole (k1@0 and k2@1 both have newer
        // records): offsets 0 and 1 are one gap before the batch at 2.
        let (log, rows) = rows_after(&format!("{COMPACTED}clean users-0\nclean users-0\n"));
        assert_eq!(log.log_start_offset, 0);
        assert_eq!(rows.first(), Some(&LogRow::Removed { first: 0, last: 1 }));
        assert_eq!(rows.get(1), Some(&LogRow::Batch(0)));
        assert_eq!(log.batches.first().map(|b| b.base_offset), Some(2));
        let gaps = rows
            .iter()
            .filter(|r| matches!(r, LogRow::Removed { .. }))
            .count();
        assert_eq!(gaps, 1);
    }

    #[test]
    fn the_newest_rows_keep_their_batches_and_the_gaps_between_them() {
        let script = format!("{COMPACTED}clean users-0\nclean users-0\n");
        let mut replay = Replay::new(parse(&script).expect("parses"));
        replay.play_to(usize::MAX).expect("runs");
        let tp = TopicPartition::new("users", 0);
        let part = crate::view::partition::partition_view(replay.world(), &tp, 50)
            .expect("the partition exists");
        let (first, all) = window_rows(&part);
        let len = part.table_rows().1.len();
        assert!(len >= 3, "{len} batches");
        // Everything kept: the same rows.
        assert_eq!(newest_rows(&part, len + 5), (first, len, all.clone()));
        // The newest two: the rows from the last-but-one batch on, re-indexed.
        let (f2, l2, rows) = newest_rows(&part, 2);
        assert_eq!((f2, l2), (first + len - 2, 2));
        let from = all
            .iter()
            .position(|r| *r == LogRow::Batch(len - 2))
            .expect("the batch's row");
        let expected: Vec<LogRow> = all[from..]
            .iter()
            .map(|r| match r {
                LogRow::Batch(i) => LogRow::Batch(i - (len - 2)),
                g => *g,
            })
            .collect();
        assert_eq!(rows, expected);
        assert_eq!(rows.first(), Some(&LogRow::Batch(0)));
    }

    #[test]
    fn the_newest_batches_alone_count_gaps_from_the_first_shown() {
        let spans = [(5, 6), (9, 9), (10, 12)].into_iter();
        assert_eq!(
            rows_of(0, false, spans.clone()),
            vec![
                LogRow::Batch(0),
                LogRow::Removed { first: 7, last: 8 },
                LogRow::Batch(1),
                LogRow::Batch(2),
            ]
        );
        assert_eq!(
            rows_of(3, true, spans).first(),
            Some(&LogRow::Removed { first: 3, last: 4 })
        );
    }
}
