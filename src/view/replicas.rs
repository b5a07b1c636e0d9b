//! The cluster and replication view: which brokers are up, fenced or stopped; for a
//! partition, every replica's log side by side with offsets aligned, its LEO, HW and
//! LSO, ISR membership, the leader epoch each batch was written in, and where a
//! replica's bytes differ from the leader's.
//!
//! Read-only, from the world's read API (`World::replicas_view`,
//! `World::replica_raw_batches`); nothing is decided twice.

use crate::coordinator::internal_topics::is_internal;
use crate::log::TopicPartition;
use crate::record::RecordBatch;
use crate::sim::World;

/// A broker as the cluster view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokerState {
    Up,
    /// Running, but cut off from the controller and fenced.
    Fenced,
    Stopped,
}

/// One broker card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerCard {
    pub id: i32,
    pub state: BrokerState,
    /// Partitions of the learner's topics it leads, by the controller's record.
    pub leads: Vec<TopicPartition>,
    /// Internal topics (`__transaction_state`, `__consumer_offsets`) and how many of
    /// their 50 partitions it leads: counted, not listed, or they would bury the rest.
    pub leads_internal: Vec<(String, usize)>,
}

/// What one replica holds at one offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Nothing at this offset on this replica (not fetched yet, or truncated away).
    Missing,
    /// A record of a batch: control (a marker) or data, with the batch's leader epoch,
    /// whether it is below this replica's HW, and whether the bytes equal the leader's.
    Record {
        control: bool,
        leader_epoch: i32,
        below_hw: bool,
        same_as_leader: bool,
    },
}

/// One replica's column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaColumn {
    pub broker: i32,
    pub leader: bool,
    pub in_isr: bool,
    pub online: bool,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    /// One slot per offset, from 0 to the largest LEO of any replica.
    pub slots: Vec<Slot>,
}

/// A partition's replicas, side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicasPanel {
    pub tp: TopicPartition,
    pub leader: i32,
    pub leader_epoch: i32,
    pub isr: Vec<i32>,
    pub columns: Vec<ReplicaColumn>,
}

/// The broker cards of the cluster.
pub fn brokers(world: &World) -> Vec<BrokerCard> {
    world
        .brokers
        .values()
        .map(|b| {
            let (internal, leads): (Vec<TopicPartition>, Vec<TopicPartition>) = world
                .partition_leaders()
                .filter(|(_, l)| *l == b.id)
                .map(|(tp, _)| tp)
                .partition(|tp| is_internal(&tp.topic));
            let mut leads_internal: Vec<(String, usize)> = Vec::new();
            for tp in internal {
                match leads_internal.last_mut() {
                    Some((topic, n)) if *topic == tp.topic => *n += 1,
                    _ => leads_internal.push((tp.topic, 1)),
                }
            }
            let state = if !b.online {
                BrokerState::Stopped
            } else if world.is_fenced(b.id) {
                BrokerState::Fenced
            } else {
                BrokerState::Up
            };
            BrokerCard {
                id: b.id,
                state,
                leads,
                leads_internal,
            }
        })
        .collect()
}

/// Each offset's (batch epoch, control, bytes) on one replica.
fn offsets_of(raw: &[Vec<u8>]) -> Vec<Option<(i32, bool, &[u8])>> {
    let mut out = Vec::new();
    for bytes in raw {
        let Ok((batch, _)) = RecordBatch::decode(bytes) else {
            continue;
        };
        let (first, last) = (
            batch.base_offset.max(0) as usize,
            batch.last_offset().max(0) as usize,
        );
        if out.len() <= last {
            out.resize(last + 1, None);
        }
        for slot in out.iter_mut().take(last + 1).skip(first) {
            *slot = Some((
                batch.partition_leader_epoch,
                batch.is_control(),
                bytes.as_slice(),
            ));
        }
    }
    out
}

/// The replicas of `tp` side by side, or `None` for an unknown partition.
pub fn replicas(world: &World, tp: &TopicPartition) -> Option<ReplicasPanel> {
    let view = world.replicas_view(tp)?;
    let raws: Vec<Vec<Vec<u8>>> = view
        .replicas
        .iter()
        .map(|r| world.replica_raw_batches(tp, r.broker).unwrap_or_default())
        .collect();
    let leader_raw = world
        .replica_raw_batches(tp, view.leader)
        .unwrap_or_default();
    let leader_offsets = offsets_of(&leader_raw);
    let per_replica: Vec<_> = raws.iter().map(|r| offsets_of(r)).collect();
    let width = per_replica.iter().map(Vec::len).max().unwrap_or(0);
    let columns = view
        .replicas
        .iter()
        .zip(&per_replica)
        .map(|(r, offsets)| ReplicaColumn {
            broker: r.broker,
            leader: r.leader,
            in_isr: r.in_isr,
            online: r.online,
            log_end_offset: r.log_end_offset,
            high_watermark: r.high_watermark,
            last_stable_offset: r.last_stable_offset,
            slots: (0..width)
                .map(|o| match offsets.get(o).copied().flatten() {
                    None => Slot::Missing,
                    Some((leader_epoch, control, bytes)) => Slot::Record {
                        control,
                        leader_epoch,
                        below_hw: (o as i64) < r.high_watermark,
                        same_as_leader: leader_offsets
                            .get(o)
                            .copied()
                            .flatten()
                            .is_some_and(|(_, _, l)| l == bytes),
                    },
                })
                .collect(),
        })
        .collect();
    Some(ReplicasPanel {
        tp: tp.clone(),
        leader: view.leader,
        leader_epoch: view.leader_epoch,
        isr: view.isr,
        columns,
    })
}

#[cfg(test)]
#[path = "replicas_tests.rs"]
mod tests;
