//! Unclean elections and where each one truncated a partition: what the checker's
//! allowances ([`Checker::expected`](super::Checker::expected)) are measured against.
//!
//! An out-of-sync replica that leads keeps its own log; every other replica truncates
//! to it by the Fetch answer's diverging epoch (`AbstractFetcherThread`, Kafka 4.0,
//! mirror commit 1eb7644). What it loses starts at the smaller of the new leader's log
//! end and the first offset written in an epoch the new leader never fetched: a
//! replica that led an older epoch and leads again (a second unclean election back to
//! it) diverges where the first epoch it lacks began, below its own log end.

use std::collections::BTreeMap;

use super::{Anomaly, Violation};
use crate::broker::broker::BrokerEvent;
use crate::broker::partition::ReplicationEvent;
use crate::log::TopicPartition;
use crate::metadata::Election;
use crate::sim::{Event, EventKind, World};

/// An unclean election: its event, the new leader, and the first offset its log may
/// not share with the previous leaders' (`i64::MAX` until its broker says it leads).
pub(super) type UncleanElection = (u64, i32, i64);

/// What kind of finding an unclean election explains: each is what Kafka does, named
/// apart so a learner reads which rule allowed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// An acknowledged record the new leader never had is truncated from every
    /// replica; its offset may hold another record later (`lost-write`,
    /// `inconsistent-offsets`, `nonmonotonic-send`, `unseen`, a missing
    /// consume-transform-produce output).
    RecordTruncated,
    /// The truncation took a transaction's marker (or the batches of a newer producer
    /// epoch): the new leader holds the transaction open again, the coordinator has
    /// completed it and sends no marker (`hanging-transaction`, for `admin abort`, as
    /// KIP-664 says), and the leader's producer state knows only the older epoch, so it
    /// takes that epoch's writes again (`fenced-write`).
    TransactionReopened,
}

impl Allowance {
    /// The category of an expected finding, from its anomaly.
    pub fn of(anomaly: Anomaly) -> Allowance {
        match anomaly {
            Anomaly::HangingTransaction | Anomaly::FencedWrite => Allowance::TransactionReopened,
            _ => Allowance::RecordTruncated,
        }
    }
}

/// Every partition's unclean elections, the leader epochs' start offsets, and the
/// markers written, read from the world's events.
#[derive(Clone, Debug, Default)]
pub(crate) struct UncleanElections {
    elections: BTreeMap<TopicPartition, Vec<UncleanElection>>,
    /// Where each leader epoch began: its leader's log end as it took over.
    epoch_starts: BTreeMap<TopicPartition, BTreeMap<i32, i64>>,
    /// Markers written per partition and producer id: offset and event.
    markers: BTreeMap<(TopicPartition, i64), Vec<(i64, u64)>>,
}

impl UncleanElections {
    pub(super) fn on_event(&mut self, world: &World, event: &Event) {
        match &event.kind {
            EventKind::LeaderElected { tp, change }
                if matches!(
                    change.election,
                    Some(Election::Unclean | Election::UncleanRequested)
                ) =>
            {
                self.elections.entry(tp.clone()).or_default().push((
                    event.seq,
                    change.leader,
                    i64::MAX,
                ));
            }
            EventKind::Broker {
                broker,
                event:
                    BrokerEvent::Replication(ReplicationEvent::RoleChanged {
                        tp,
                        leader,
                        leader_epoch,
                        log_end_offset,
                        ..
                    }),
            } if broker == leader => {
                let starts = self.epoch_starts.entry(tp.clone()).or_default();
                starts.insert(*leader_epoch, *log_end_offset);
                let Some(last) = self.elections.get_mut(tp).and_then(|u| u.last_mut()) else {
                    return;
                };
                if last.1 != *leader || last.2 != i64::MAX {
                    return;
                }
                // The newest epoch the new leader fetched before this one: records of
                // any later epoch (before this one) are not in its log.
                let known = world
                    .brokers()
                    .get(leader)
                    .and_then(|b| b.logs().get(tp))
                    .and_then(|log| {
                        log.epochs()
                            .iter()
                            .rev()
                            .map(|(e, _)| *e)
                            .find(|e| e < leader_epoch)
                    })
                    .unwrap_or(-1);
                let diverged = starts
                    .range(known + 1..*leader_epoch)
                    .map(|(_, start)| *start)
                    .min()
                    .unwrap_or(i64::MAX);
                last.2 = (*log_end_offset).min(diverged);
            }
            EventKind::Broker {
                event:
                    BrokerEvent::MarkerWritten {
                        tp,
                        producer_id,
                        offset,
                        ..
                    },
                ..
            } => {
                self.markers
                    .entry((tp.clone(), *producer_id))
                    .or_default()
                    .push((*offset, event.seq));
            }
            _ => {}
        }
    }

    /// The elections of a partition, oldest first.
    pub(super) fn of(&self, tp: &TopicPartition) -> &[UncleanElection] {
        self.elections.get(tp).map_or(&[], Vec::as_slice)
    }

    /// The unclean election that explains a finding at offsets up to `last` of `tp`
    /// about values sent at or before event `sent`: one after the send that truncated
    /// at or below `last`. Returns where it truncated.
    pub(super) fn truncated(&self, tp: &TopicPartition, last: i64, sent: u64) -> Option<i64> {
        self.of(tp)
            .iter()
            .find(|(at, _, from)| *at > sent && *from <= last)
            .map(|(_, _, from)| *from)
    }

    /// A write at `offset` (event `written`) that a later unclean election before
    /// event `before` truncated: where it truncated.
    pub(super) fn took(
        &self,
        tp: &TopicPartition,
        offset: i64,
        written: u64,
        before: u64,
    ) -> Option<i64> {
        self.of(tp)
            .iter()
            .find(|(at, _, from)| *at > written && *at < before && *from <= offset)
            .map(|(_, _, from)| *from)
    }

    /// A transaction of `producer_id` open in `tp` from `first_offset` whose marker an
    /// unclean election truncated (the transaction's start survived, its end did not):
    /// where it truncated.
    pub(super) fn marker_truncated(
        &self,
        tp: &TopicPartition,
        producer_id: i64,
        first_offset: i64,
    ) -> Option<i64> {
        let markers = self.markers.get(&(tp.clone(), producer_id))?;
        self.of(tp).iter().find_map(|(at, _, from)| {
            let took_marker = markers
                .iter()
                .any(|(offset, written)| written < at && offset >= from && *offset > first_offset);
            (first_offset < *from && took_marker).then_some(*from)
        })
    }
}

/// Files a finding as expected, with where the election truncated.
pub(super) fn expected(mut v: Violation, from: i64) -> Violation {
    v.numbers.push(("unclean_from", from));
    v
}
