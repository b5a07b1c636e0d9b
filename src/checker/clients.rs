//! The client-side history and Jepsen's anomalies over it: what producers had
//! acknowledged, and what each consumer's polls returned, in order.
//!
//! A "poll" here is one batch of records handed to the application
//! (`ConsumerEvent::RecordsDelivered`), as one `poll()` returns them; "int-" kinds look
//! inside one, the others across two consecutive ones of the same consumer and
//! partition. Re-assigning a partition (a new position) starts over, as an `assign` does
//! in Jepsen's `poll-skip+nonmonotonic-cases-per-process`.

use std::collections::BTreeMap;

use super::oracle::{PartitionRecords, Status};
use super::unclean::UncleanElections;
use super::{Anomaly, Ctx, Violation};
use crate::client::consumer::{ConsumerEvent, IsolationLevel};
use crate::client::producer::ProducerEvent;
use crate::log::TopicPartition;
use crate::sim::transform::OUTPUT_SUFFIX;
use crate::sim::{Event, EventKind};

/// An acknowledged send of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ack {
    producer: String,
    tp: TopicPartition,
    offset: i64,
    value: String,
    event: u64,
}

/// A record a read_committed consumer got while its transaction was undecided; checked
/// again until the marker settles it (an abort makes it `G1a`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pending {
    consumer: String,
    tp: TopicPartition,
    offset: i64,
    value: String,
    event: u64,
}

/// An acknowledged batch: first offset, last offset, the event.
type AckedBatch = (i64, i64, u64);

#[derive(Clone, Debug, Default)]
pub(super) struct ClientHistory {
    /// How many of each consumer's delivered records were read already.
    delivered_seen: BTreeMap<String, usize>,
    /// The LSO of the last Fetch answer per consumer and partition.
    fetch_lso: BTreeMap<(String, TopicPartition), i64>,
    /// The last offset each consumer's previous poll of a partition ended at.
    last_read: BTreeMap<(String, TopicPartition), (i64, u64)>,
    /// The lowest position each consumer read a partition from.
    first_position: BTreeMap<(String, TopicPartition), i64>,
    /// Per partition, each offset read and the value seen there (first reader).
    reads: BTreeMap<TopicPartition, BTreeMap<i64, (String, u64)>>,
    /// How many times the application sent each value to a partition.
    sent: BTreeMap<TopicPartition, BTreeMap<String, usize>>,
    acks: Vec<Ack>,
    /// Each producer's acknowledged batches per partition, in send order (batch id):
    /// first offset, last offset, event.
    acked_batches: BTreeMap<(String, TopicPartition), BTreeMap<u64, AckedBatch>>,
    pending: Vec<Pending>,
    /// Each partition's leader, log end and log start when duplicates were last
    /// looked for.
    dup_checked: BTreeMap<TopicPartition, (i32, i64, i64)>,
    /// When each value was first handed to a producer, per partition (event).
    sent_at: BTreeMap<(TopicPartition, String), u64>,
}

impl ClientHistory {
    pub(super) fn on_event(&mut self, ctx: &mut Ctx<'_>, event: &Event) {
        match &event.kind {
            EventKind::Producer { client, event: e } => self.on_producer(ctx, client, e, event),
            EventKind::Consumer { client, event: e } => self.on_consumer(ctx, client, e, event),
            _ => {}
        }
    }

    /// A consume-transform-produce input without its output: explained if an unclean
    /// election of an output partition came after the output was sent, or one of the
    /// input partition may have truncated the input at these offsets.
    pub(super) fn ctp_truncated(
        &self,
        unclean: &UncleanElections,
        tp: &TopicPartition,
        offsets: &[i64],
        value: &str,
    ) -> Option<i64> {
        let output = format!("{value}{OUTPUT_SUFFIX}");
        let by_output = self
            .sent_at
            .iter()
            .filter(|((_, v), _)| *v == output)
            .find_map(|((out, _), sent)| unclean.truncated(out, i64::MAX, *sent));
        let last = offsets.iter().copied().max().unwrap_or(-1);
        by_output.or_else(|| {
            unclean
                .of(tp)
                .iter()
                .find(|(_, _, from)| *from <= last)
                .map(|(_, _, from)| *from)
        })
    }

    /// When the first of these values was handed to a producer (the earliest event).
    fn first_sent(&self, tp: &TopicPartition, values: &[String]) -> u64 {
        values
            .iter()
            .filter_map(|v| self.sent_at.get(&(tp.clone(), v.clone())).copied())
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Files a finding as a violation, or as expected when an unclean election
    /// truncated what it is about (`Checker::expected`).
    fn file(&self, ctx: &mut Ctx<'_>, mut v: Violation, last: i64, values: &[String]) {
        let explained =
            v.tp.as_ref()
                .and_then(|tp| ctx.unclean.truncated(tp, last, self.first_sent(tp, values)));
        match explained {
            Some(from) => {
                v.numbers.push(("unclean_from", from));
                ctx.expected.push(v);
            }
            None => ctx.found.push(v),
        }
    }

    fn on_producer(&mut self, ctx: &mut Ctx<'_>, client: &str, e: &ProducerEvent, ev: &Event) {
        match e {
            ProducerEvent::Accumulated { tp, values } => {
                for v in values {
                    self.sent_at
                        .entry((tp.clone(), v.clone()))
                        .or_insert(ev.seq);
                }
                let sent = self.sent.entry(tp.clone()).or_default();
                for v in values {
                    match sent.get_mut(v.as_str()) {
                        Some(n) => *n += 1,
                        None => {
                            sent.insert(v.clone(), 1);
                        }
                    }
                }
            }
            ProducerEvent::Acknowledged {
                batch,
                tp,
                base_offset,
                values,
            } => {
                let idempotent = ctx
                    .world
                    .producers()
                    .get(client)
                    .is_some_and(|p| p.config.enable_idempotence);
                let last = base_offset + values.len() as i64 - 1;
                // Sends are pipelined, so acks may arrive out of order; what must hold
                // is that a later send (a later batch) lands later in the log.
                let batches = self
                    .acked_batches
                    .entry((client.to_string(), tp.clone()))
                    .or_default();
                let before = batches.range(..*batch).next_back();
                let after = batches.range(batch + 1..).next();
                let out_of_order = before
                    .filter(|(_, (_, prev_last, _))| *prev_last >= *base_offset)
                    .or(after.filter(|(_, (next_first, _, _))| *next_first <= last))
                    .map(|(_, b)| *b);
                if let (true, Some((other_first, other_last, other_event))) =
                    (idempotent, out_of_order)
                {
                    let mut v = ctx.violation(Anomaly::NonmonotonicSend, Some(tp));
                    v.who = Some(client.to_string());
                    v.values = values.clone();
                    v.offsets = vec![other_first, *base_offset];
                    v.events = vec![other_event, ev.seq];
                    // The earlier acknowledgement's records may be gone: allowed if an
                    // unclean election after it truncated them.
                    let (earlier_last, earlier_event) = (other_last, other_event);
                    let explained = ctx.unclean.took(tp, earlier_last, earlier_event, ev.seq);
                    match explained {
                        Some(from) => {
                            v.numbers.push(("unclean_from", from));
                            ctx.expected.push(v);
                        }
                        None => ctx.found.push(v),
                    }
                }
                self.acked_batches
                    .entry((client.to_string(), tp.clone()))
                    .or_default()
                    .insert(*batch, (*base_offset, last, ev.seq));
                for (i, value) in values.iter().enumerate() {
                    let ack = Ack {
                        producer: client.to_string(),
                        tp: tp.clone(),
                        offset: base_offset + i as i64,
                        value: value.clone(),
                        event: ev.seq,
                    };
                    self.check_ack(ctx, &ack);
                    self.acks.push(ack);
                }
            }
            _ => {}
        }
    }

    fn on_consumer(&mut self, ctx: &mut Ctx<'_>, client: &str, e: &ConsumerEvent, ev: &Event) {
        let key = |tp: &TopicPartition| (client.to_string(), tp.clone());
        match e {
            ConsumerEvent::FetchReceived {
                tp,
                last_stable_offset,
                ..
            } => {
                self.fetch_lso.insert(key(tp), *last_stable_offset);
            }
            ConsumerEvent::PositionSet { tp, offset, .. } => {
                self.last_read.remove(&key(tp));
                let first = self.first_position.entry(key(tp)).or_insert(*offset);
                *first = (*first).min(*offset);
            }
            // KIP-320: the position went back to where the log diverged, as a seek.
            ConsumerEvent::TruncationDetected { tp, .. } => {
                self.last_read.remove(&key(tp));
            }
            ConsumerEvent::RecordsDelivered { tp, count, .. } => {
                self.on_poll(ctx, client, tp, *count, ev.seq);
            }
            _ => {}
        }
    }

    /// One poll's records for a partition: the next `count` the consumer handed out.
    fn on_poll(
        &mut self,
        ctx: &mut Ctx<'_>,
        client: &str,
        tp: &TopicPartition,
        count: usize,
        seq: u64,
    ) {
        let Some(consumer) = ctx.world.consumers().get(client) else {
            return;
        };
        let seen = self.delivered_seen.entry(client.to_string()).or_default();
        let records = consumer
            .records()
            .get(*seen..*seen + count)
            .unwrap_or_default();
        *seen += count;
        let read_committed = consumer.isolation_level() == IsolationLevel::ReadCommitted;
        let key = (client.to_string(), tp.clone());
        let lso = self.fetch_lso.get(&key).copied();
        let mut previous = self.last_read.get(&key).copied();
        let empty = PartitionRecords::default();
        let log = ctx.leader_records(tp).unwrap_or(&empty);
        for (i, record) in records.iter().enumerate() {
            let offset = record.offset;
            let value = record.value_text();
            // Order against the previous record read (in this poll: int-).
            if let Some((prev, prev_event)) = previous {
                let inside = i > 0;
                if offset <= prev {
                    let kind = if inside {
                        Anomaly::IntNonmonotonicPoll
                    } else {
                        Anomaly::NonmonotonicPoll
                    };
                    let mut v = ctx.violation(kind, Some(tp));
                    v.who = Some(client.to_string());
                    v.offsets = vec![prev, offset];
                    v.events = vec![prev_event, seq];
                    ctx.found.push(v);
                } else {
                    let skipped = log.visible_between(prev, offset, read_committed);
                    if !skipped.is_empty() {
                        let kind = if inside {
                            Anomaly::IntPollSkip
                        } else {
                            Anomaly::PollSkip
                        };
                        let mut v = ctx.violation(kind, Some(tp));
                        v.who = Some(client.to_string());
                        v.values = skipped
                            .iter()
                            .filter_map(|o| log.records.get(o).map(|r| r.value.clone()))
                            .collect();
                        v.offsets = vec![prev, offset];
                        v.events = vec![prev_event, seq];
                        ctx.found.push(v);
                    }
                }
            }
            previous = Some((offset, seq));
            // One offset, one value. After a finding the newest value read stands
            // for the offset (an unclean election's truncation rewrote it, and a
            // consumer that went back by KIP-320 reads what is there now).
            let by_offset = self.reads.entry(tp.clone()).or_default();
            let across_reads = match by_offset.get(&offset).cloned() {
                Some((other, other_event)) if other != value => {
                    let mut v = ctx.violation(Anomaly::InconsistentOffsets, Some(tp));
                    v.who = Some(client.to_string());
                    v.values = vec![other, value.clone()];
                    v.offsets = vec![offset];
                    v.events = vec![other_event, seq];
                    by_offset.insert(offset, (value.clone(), seq));
                    Some(v)
                }
                Some(_) => None,
                None => {
                    by_offset.insert(offset, (value.clone(), seq));
                    None
                }
            };
            if let Some(v) = across_reads {
                let values = v.values.clone();
                self.file(ctx, v, offset, &values);
            }
            if let Some(logged) = log.records.get(&offset) {
                if logged.value != value {
                    let mut v = ctx.violation(Anomaly::InconsistentOffsets, Some(tp));
                    v.who = Some(client.to_string());
                    v.values = vec![logged.value.clone(), value.clone()];
                    v.offsets = vec![offset];
                    v.events = vec![seq];
                    let values = v.values.clone();
                    self.file(ctx, v, offset, &values);
                }
                if read_committed && logged.status != Status::Plain {
                    if lso.is_some_and(|lso| offset >= lso) {
                        let mut v = ctx.violation(Anomaly::PrecommittedRead, Some(tp));
                        v.who = Some(client.to_string());
                        v.values = vec![value.clone()];
                        v.offsets = vec![offset];
                        v.events = vec![seq];
                        v.numbers = vec![("lso", lso.unwrap_or_default())];
                        ctx.found.push(v);
                    }
                    self.pending.push(Pending {
                        consumer: client.to_string(),
                        tp: tp.clone(),
                        offset,
                        value: value.clone(),
                        event: seq,
                    });
                }
            }
        }
        if let Some(last) = previous {
            self.last_read.insert(key, last);
        }
    }

    /// Checks that need the logs as they are now: reads whose transaction got its marker
    /// since, and duplicates in the logs.
    pub(super) fn after_events(&mut self, ctx: &mut Ctx<'_>) {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let status = ctx
                .leader_records(&p.tp)
                .and_then(|r| r.records.get(&p.offset))
                .map(|r| r.status);
            match status {
                Some(Status::Open) => self.pending.push(p),
                Some(Status::Aborted) => {
                    let mut v = ctx.violation(Anomaly::G1a, Some(&p.tp));
                    v.who = Some(p.consumer.clone());
                    v.values = vec![p.value.clone()];
                    v.offsets = vec![p.offset];
                    v.events = vec![p.event];
                    ctx.found.push(v);
                }
                _ => {}
            }
        }
        self.check_duplicates(ctx);
    }

    /// `duplicate`: a value at more offsets of a partition (outside aborted
    /// transactions) than the application sent it. A partition is looked at again only
    /// when its leader's log changed: more sends can only clear a finding, and each is
    /// reported once.
    fn check_duplicates(&mut self, ctx: &mut Ctx<'_>) {
        let world = ctx.world;
        let mut found = Vec::new();
        // Internal topics have no records here (the replicas leave them out).
        for tp in world
            .topics()
            .values()
            .filter(|t| !t.name.starts_with("__"))
            .flat_map(|t| (0..t.partitions).map(|p| TopicPartition::new(&t.name, p)))
        {
            let Some(log) = ctx.leader_records(&tp) else {
                continue;
            };
            let seen = (
                world.leader_of(&tp).unwrap_or(-1),
                log.log_end_offset,
                log.log_start_offset,
            );
            if self.dup_checked.get(&tp) == Some(&seen) {
                continue;
            }
            self.dup_checked.insert(tp.clone(), seen);
            // Each copy with the idempotent producer id and epoch that wrote it (None for
            // transactional and plain records).
            let mut copies: BTreeMap<&str, Vec<ValueCopy>> = BTreeMap::new();
            for (offset, r) in &log.records {
                if r.status != Status::Aborted {
                    let ids = (r.status == Status::Plain && r.producer_id >= 0)
                        .then_some((r.producer_id, r.producer_epoch));
                    copies
                        .entry(r.value.as_str())
                        .or_default()
                        .push((*offset, ids));
                }
            }
            let sent_here = self.sent.get(&tp);
            for (value, copies) in copies {
                let sent = sent_here.and_then(|s| s.get(value)).copied().unwrap_or(0);
                if sent > 0 && copies.len() > sent && !across_epoch_bump(&copies, sent) {
                    let offsets = copies.iter().map(|(o, _)| *o).collect();
                    let mut v = ctx.violation(Anomaly::Duplicate, Some(&tp));
                    v.values = vec![value.to_string()];
                    v.offsets = offsets;
                    v.numbers = vec![("sent", sent as i64)];
                    found.push(v);
                }
            }
        }
        ctx.found.extend(found);
    }

    /// Jepsen's end-of-run kinds: `unseen` (acknowledged, committed, read by no one)
    /// and `lost-write` (the same, though a consumer read past it from before it).
    pub(super) fn finish(&mut self, ctx: &mut Ctx<'_>) {
        let mut found = Vec::new();
        for ack in &self.acks {
            self.check_ack(ctx, ack);
            let Some(log) = ctx.leader_records(&ack.tp) else {
                continue;
            };
            let Some(logged) = log.records.get(&ack.offset) else {
                continue;
            };
            if logged.value != ack.value || !logged.committed() {
                continue;
            }
            let reads = self.reads.get(&ack.tp);
            if reads.is_none_or(|r| r.is_empty()) {
                continue;
            }
            let read = reads.is_some_and(|r| r.values().any(|(v, _)| *v == ack.value));
            if read {
                continue;
            }
            let passed = self.first_position.iter().any(|((c, tp), first)| {
                tp == &ack.tp
                    && *first <= ack.offset
                    && self
                        .last_read
                        .get(&(c.clone(), tp.clone()))
                        .is_some_and(|(last, _)| *last > ack.offset)
            });
            let kind = if passed {
                Anomaly::LostWrite
            } else {
                Anomaly::Unseen
            };
            let mut v = ctx.violation(kind, Some(&ack.tp));
            v.who = Some(ack.producer.clone());
            v.values = vec![ack.value.clone()];
            v.offsets = vec![ack.offset];
            v.events = vec![ack.event];
            found.push(v);
        }
        ctx.found.extend(found);
    }
}

impl ClientHistory {
    /// An acknowledgement against the leader's log: another value at that offset is
    /// `inconsistent-offsets`; a log that no longer reaches it is a `lost-write` (both
    /// expected if an unclean election after the send truncated it).
    fn check_ack(&self, ctx: &mut Ctx<'_>, ack: &Ack) {
        let Some(log) = ctx.leader_records(&ack.tp) else {
            return;
        };
        let found = match log.records.get(&ack.offset) {
            Some(r) if r.value != ack.value => {
                let mut v = ctx.violation(Anomaly::InconsistentOffsets, Some(&ack.tp));
                v.values = vec![ack.value.clone(), r.value.clone()];
                v
            }
            None if ack.offset >= log.log_end_offset => {
                let mut v = ctx.violation(Anomaly::LostWrite, Some(&ack.tp));
                v.values = vec![ack.value.clone()];
                v.numbers = vec![("log_end_offset", log.log_end_offset)];
                v
            }
            _ => return,
        };
        let mut v = found;
        v.who = Some(ack.producer.clone());
        v.offsets = vec![ack.offset];
        v.events = vec![ack.event];
        self.file(ctx, v, ack.offset, std::slice::from_ref(&ack.value));
    }
}

/// One copy of a value: its offset, and the idempotent producer id and epoch that wrote
/// it (None for transactional and plain records).
type ValueCopy = (i64, Option<(i64, i16)>);

/// Copies of a value that Kafka's idempotence does not promise to keep apart: all from
/// one idempotent producer id, no more than `sent` under any one epoch. Dedup is per
/// producer id and epoch; after OUT_OF_ORDER_SEQUENCE_NUMBER an idempotent producer
/// bumps its own epoch and renumbers its unacknowledged batches (KIP-360, Kafka 4.0
/// `TransactionManager.canRetry` → `startSequencesAtBeginning`), so a batch the broker
/// already wrote under the old epoch is written again under the new one. Kafka's
/// client does this on purpose, so it is in the allowed list (`super::anomaly`).
fn across_epoch_bump(copies: &[ValueCopy], sent: usize) -> bool {
    let Some(Some((pid, _))) = copies.first().map(|(_, ids)| *ids) else {
        return false;
    };
    let mut per_epoch: BTreeMap<i16, usize> = BTreeMap::new();
    for (_, ids) in copies {
        match ids {
            Some((p, epoch)) if *p == pid => *per_epoch.entry(*epoch).or_default() += 1,
            _ => return false,
        }
    }
    per_epoch.len() > 1 && per_epoch.values().all(|&n| n <= sent)
}
