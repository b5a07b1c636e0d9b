//! End-to-end exactly-once of consume-transform-produce apps (KIP-98's promise for
//! `sendOffsetsToTransaction`): the input position commits in the same transaction as
//! the output, so every input record below the group's committed offset is reflected
//! exactly once in the committed output, and none at or past it.
//!
//! Which output belongs to which input follows the transform's convention
//! (`crate::sim::transform`): the output value is the input value with
//! [`OUTPUT_SUFFIX`]. A group's partition is checked when the group has a committed
//! offset there and at least one of its records has an output anywhere (committed or
//! not) — a group that only commits offsets, with no transform, is not a CTP app.
//! Values are unique per send, as everywhere in the checker. Checked at the end of a
//! run, when every transaction had its time to be decided. An input value at two
//! offsets (written twice) is expected once per copy below the committed offset. A
//! finding's witness: the group, the input value, its offsets followed by the offsets
//! of its committed outputs, the committed offset and the copies found and expected.

use std::collections::BTreeMap;

use super::oracle::Status;
use super::{Anomaly, Ctx};
use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC;
use crate::log::TopicPartition;
use crate::sim::transform::OUTPUT_SUFFIX;

/// Where outputs sit: input value → (partition, offset, committed) of each output.
type Outputs = BTreeMap<String, Vec<(TopicPartition, i64, bool)>>;

/// Whether an unclean election explains a missing output of this input (partition,
/// offsets, value): the new leader's log end then, as `ClientHistory::ctp_truncated`
/// answers it.
pub(super) type Truncated<'a> = dyn Fn(&TopicPartition, &[i64], &str) -> Option<i64> + 'a;

pub(super) fn finish(ctx: &mut Ctx<'_>, truncated: &Truncated<'_>) {
    let world = ctx.world;
    let mut outputs: Outputs = BTreeMap::new();
    for ((id, tp), records) in ctx.replicas.iter() {
        if world.leader_of(tp) != Some(*id) {
            continue;
        }
        for (offset, r) in &records.records {
            if let Some(input) = r.value.strip_suffix(OUTPUT_SUFFIX) {
                outputs.entry(input.to_string()).or_default().push((
                    tp.clone(),
                    *offset,
                    r.committed(),
                ));
            }
        }
    }
    if outputs.is_empty() {
        return;
    }
    let mut found = Vec::new();
    for (group, tp, committed_offset) in committed_offsets(ctx) {
        let Some(input) = ctx.leader_records(&tp) else {
            continue;
        };
        if !input
            .records
            .values()
            .any(|r| outputs.contains_key(&r.value))
        {
            continue;
        }
        // Per input value: one copy of it in the input (say a duplicate an idempotent
        // producer's epoch bump wrote) is transformed once per copy below the position.
        let mut inputs: BTreeMap<&str, (Vec<i64>, usize)> = BTreeMap::new();
        for (offset, r) in &input.records {
            let (offsets, expected) = inputs.entry(r.value.as_str()).or_default();
            offsets.push(*offset);
            // read_committed (the CTP consumer) never hands out an aborted input.
            let readable = matches!(r.status, Status::Plain | Status::Committed);
            *expected += usize::from(*offset < committed_offset && readable);
        }
        for (value, (offsets, expected)) in inputs {
            let copies: Vec<&(TopicPartition, i64, bool)> = outputs
                .get(value)
                .map(|o| o.iter().filter(|(_, _, c)| *c).collect())
                .unwrap_or_default();
            if copies.len() == expected {
                continue;
            }
            let mut v = ctx.violation(Anomaly::CtpExactlyOnce, Some(&tp));
            v.who = Some(group.clone());
            v.values = vec![value.to_string()];
            v.offsets = offsets.clone();
            v.offsets.extend(copies.iter().map(|(_, o, _)| *o));
            v.numbers = vec![
                ("committed_offset", committed_offset),
                ("copies", copies.len() as i64),
                ("expected", expected as i64),
            ];
            // Fewer copies (never more) after an unclean election truncated the
            // output or the input: Kafka allows it.
            let explained = (copies.len() < expected)
                .then(|| truncated(&tp, &offsets, value))
                .flatten();
            match explained {
                Some(from) => {
                    v.numbers.push(("unclean_from", from));
                    ctx.expected.push(v);
                }
                None => found.push(v),
            }
        }
    }
    ctx.found.extend(found);
}

/// Every group's committed offsets, as its coordinator (the leader of the group's
/// `__consumer_offsets` partition) holds them: group, partition, offset.
fn committed_offsets(ctx: &Ctx<'_>) -> Vec<(String, TopicPartition, i64)> {
    let world = ctx.world;
    let mut groups: Vec<String> = world
        .brokers()
        .values()
        .filter(|b| b.is_online())
        .flat_map(|b| b.group_coordinator().groups())
        .collect();
    groups.sort();
    groups.dedup();
    let mut out = Vec::new();
    for group in groups {
        let gtp = world.internal_partition_for(GROUP_METADATA_TOPIC, &group);
        let Some(broker) = world.leader_of(&gtp).and_then(|b| world.brokers().get(&b)) else {
            continue;
        };
        for f in broker.group_coordinator().fetch_all_offsets(&group, false) {
            if f.committed_offset >= 0 {
                out.push((group.clone(), f.topic_partition, f.committed_offset));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Anomaly, Checker, Violation};
    use crate::scenario::{parse, Runner};

    /// Runs a scenario (refused steps are skipped, as chaos does) and returns what the
    /// checker finds at the end.
    fn findings(steps: &str) -> Vec<Violation> {
        let src = format!(
            "cluster brokers=1\ntopic create in partitions=1\ntopic create out partitions=1\n\
             producer src create\nproducer src send in-0 i1 i2 i3\nproducer src flush\n\
             producer app create transactional.id=app\nproducer app init-transactions\n\
             consumer cin create group.id=g isolation.level=read_committed \
             auto.offset.reset=earliest\nconsumer cin assign in-0\n{steps}"
        );
        let mut runner = Runner::watched(parse(&src).expect("parses"), Some(crate::checker::watch));
        let mut checker = Checker::new();
        let mut step = 0;
        while !runner.is_done() {
            if runner.step().is_err() {
                runner.skip();
            }
            step += 1;
            checker.observe(&runner.world, step);
        }
        checker.finish(&runner.world, step).to_vec();
        checker
            .violations()
            .iter()
            .filter(|v| v.anomaly == Anomaly::CtpExactlyOnce)
            .cloned()
            .collect()
    }

    fn witnesses(found: &[Violation]) -> Vec<(String, Vec<i64>, i64)> {
        found
            .iter()
            .map(|v| {
                let copies = v.numbers.iter().find(|(n, _)| *n == "copies").map(|n| n.1);
                (v.values.join(","), v.offsets.clone(), copies.unwrap_or(-1))
            })
            .collect()
    }

    #[test]
    fn a_committed_round_is_exactly_once() {
        let found =
            findings("producer app begin\nproducer app transform cin out\nproducer app commit\n");
        assert_eq!(witnesses(&found), vec![]);
    }

    #[test]
    fn an_aborted_round_read_again_is_exactly_once() {
        // The abort drops i1.t..i3.t and the offsets; the next round starts again from
        // the committed position (none: the earliest) and commits each input once.
        let found = findings(
            "producer app begin\nproducer app transform cin out\nproducer app abort\n\
             producer app begin\nproducer app transform cin out\nproducer app commit\n",
        );
        assert_eq!(witnesses(&found), vec![]);
    }

    #[test]
    fn an_open_round_at_the_end_is_not_flagged() {
        // Neither its outputs nor its offsets are committed: still consistent.
        let found = findings(
            "producer app begin\nproducer app transform cin out\nproducer app commit\n\
             producer src send in-0 i4\nproducer src flush\n\
             producer app begin\nproducer app transform cin out\n",
        );
        assert_eq!(witnesses(&found), vec![]);
    }

    #[test]
    fn an_input_transformed_twice_is_flagged() {
        // By hand: i1's output is sent again in a second committed transaction.
        let found = findings(
            "producer app begin\nproducer app transform cin out\nproducer app commit\n\
             producer app begin\nproducer app send out-0 i1.t\nproducer app commit\n",
        );
        assert_eq!(witnesses(&found), vec![("i1".into(), vec![0, 0, 4], 2)]);
    }

    #[test]
    fn offsets_committed_without_their_output_are_flagged() {
        // The app commits position 2 but wrote only i1's output: i2 is lost.
        let found = findings(
            "producer app begin\nproducer app send out-0 i1.t\n\
             producer app send-offsets group=g in-0=2\nproducer app commit\n",
        );
        assert_eq!(witnesses(&found), vec![("i2".into(), vec![1], 0)]);
    }

    #[test]
    fn output_committed_past_the_committed_offset_is_flagged() {
        // i3's output commits, but the group's position stays at 2: a restart would
        // transform i3 again.
        let found = findings(
            "producer app begin\nproducer app send out-0 i1.t i2.t i3.t\n\
             producer app send-offsets group=g in-0=2\nproducer app commit\n",
        );
        assert_eq!(witnesses(&found), vec![("i3".into(), vec![2, 2], 1)]);
    }
}
