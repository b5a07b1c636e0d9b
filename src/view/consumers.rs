//! The consumers on the transactions page, reading the shown partition: isolation
//! level, position, the records delivered, and the offsets before the position that
//! were not delivered — grouped by what they are (aborted data and markers for
//! `read_committed`, only markers for `read_uncommitted`), so the difference between
//! the two isolation levels is visible.

use crate::util::sorted_set::SortedSet;

use super::partition::{BatchKind, PartitionView};
use crate::client::consumer::{ConsumerRecord, IsolationLevel};
use crate::sim::World;
use crate::util::ordered::CollectSorted;

/// How many delivered records a consumer card lists (the newest).
pub const CONSUMER_RECORDS: usize = 60;

/// A consumer reading the shown partition.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerView {
    pub name: String,
    pub isolation: IsolationLevel,
    pub position: Option<i64>,
    /// Records delivered from this partition in all.
    pub total: usize,
    /// The newest [`CONSUMER_RECORDS`] delivered: (offset, value).
    pub records: Vec<(i64, String)>,
    /// Offsets before the position that were not delivered, grouped: (first, last, why).
    pub skipped: Vec<(i64, i64, BatchKind)>,
}

/// Runs of equal kinds over consecutive offsets.
fn runs(offsets: impl Iterator<Item = (i64, BatchKind)>) -> Vec<(i64, i64, BatchKind)> {
    let mut out: Vec<(i64, i64, BatchKind)> = Vec::new();
    for (o, k) in offsets {
        match out.last_mut() {
            Some((_, last, kind)) if *last + 1 == o && *kind == k => *last = o,
            _ => out.push((o, o, k)),
        }
    }
    out
}

/// The offsets of the decoded window below `position` that `delivered` (the consumer's
/// records of this partition, oldest first) does not hold, as runs of equal kinds.
fn skipped(
    part: &PartitionView,
    position: i64,
    delivered: &[&ConsumerRecord],
) -> Vec<(i64, i64, BatchKind)> {
    let start = part.window_start();
    let delivered: SortedSet<i64> = delivered
        .iter()
        .rev()
        .map(|r| r.offset)
        .take_while(|o| *o >= start)
        .collect_set();
    runs(
        (start..position)
            .filter(|o| !delivered.contains(o))
            .filter_map(|o| part.kind_at(o).map(|k| (o, k))),
    )
}

/// Every consumer, by name, as it reads `part` (the shown partition).
pub fn consumers(world: &World, part: Option<&PartitionView>) -> Vec<ConsumerView> {
    world
        .consumers()
        .iter()
        .map(|(name, c)| {
            let tp = part.map(|p| &p.tp);
            let position = tp.and_then(|tp| c.position(tp));
            let mine: Vec<&ConsumerRecord> = c
                .records()
                .iter()
                .filter(|r| Some(&r.topic_partition) == tp)
                .collect();
            let records: Vec<(i64, String)> = mine
                .get(mine.len().saturating_sub(CONSUMER_RECORDS)..)
                .unwrap_or_default()
                .iter()
                .map(|r| (r.offset, r.value_text()))
                .collect();
            let skipped = match (part, position) {
                (Some(p), Some(pos)) => skipped(p, pos, &mine),
                _ => vec![],
            };
            ConsumerView {
                name: name.clone(),
                isolation: c.isolation_level(),
                position,
                total: mine.len(),
                records,
                skipped,
            }
        })
        .collect()
}
