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

/// A broker as the controller sees it (Kafka 4.0 `BrokerHeartbeatManager` and
/// `BrokerRegistration`). The process state alone misleads: a crashed leader stays
/// leader until the controller fences it, and a restart waits for its registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControllerSees {
    /// Registered, heartbeating and unfenced.
    Active,
    /// No heartbeat since it crashed (`running` false) or its link to the controller
    /// was cut: still registered, in its ISRs and leader where it led, until the
    /// controller fences it in `fence_in_ms` (unless a heartbeat comes first).
    SessionRunning { running: bool, fence_in_ms: i64 },
    /// Fenced: out of every ISR, leader of nothing.
    Fenced,
    /// Fenced by its controlled shutdown.
    ControlledShutdown,
    /// Started while its previous session ran: refused DUPLICATE_BROKER_REGISTRATION,
    /// it asks again in `retry_in_ms` and serves nothing until accepted.
    Registering { retry_in_ms: i64 },
}

/// How the controller sees broker `id` (running or not) now.
pub fn controller_sees(world: &World, id: i32, online: bool) -> ControllerSees {
    let now = world.clock_ms();
    if let Some(p) = world.pending_registration(id) {
        return ControllerSees::Registering {
            retry_in_ms: p.next_attempt_ms.saturating_sub(now).max(0),
        };
    }
    if let Some(at) = world.session_expires_at(id) {
        return ControllerSees::SessionRunning {
            running: online,
            fence_in_ms: at.saturating_sub(now).max(0),
        };
    }
    match world.fenced_by_controller(id) {
        (true, true) => ControllerSees::ControlledShutdown,
        (true, false) => ControllerSees::Fenced,
        _ => ControllerSees::Active,
    }
}

/// One broker card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerCard {
    pub id: i32,
    pub state: BrokerState,
    pub controller: ControllerSees,
    /// Partitions of the learner's topics it leads, by the controller's record.
    pub leads: Vec<TopicPartition>,
    /// Internal topics (`__transaction_state`, `__consumer_offsets`) and how many of
    /// their 50 partitions it leads: counted, not listed, or they would bury the rest.
    pub leads_internal: Vec<(String, usize)>,
    /// Up, but out of the ISR of a partition of the learner's topics it replicates: it
    /// is catching up by fetching, and joins the ISR once it reaches the leader's LEO.
    pub catching_up: Vec<TopicPartition>,
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
    /// An eligible leader replica (KIP-966).
    pub in_elr: bool,
    pub online: bool,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    /// One slot per offset, from the panel's `first_offset` to the end of the largest
    /// log of any replica.
    pub slots: Vec<Slot>,
}

/// A partition's replicas, side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicasPanel {
    pub tp: TopicPartition,
    pub leader: i32,
    pub leader_epoch: i32,
    pub partition_epoch: i32,
    pub isr: Vec<i32>,
    /// The leader is down but not fenced yet: the controller still names it, so
    /// requests to it fail until its session runs out in this many ms.
    pub leader_unreachable_ms: Option<i64>,
    /// The eligible leader replicas, when the cluster keeps them.
    pub elr: Option<Vec<i32>>,
    /// The offset of each column's first slot: the offsets before it are not shown
    /// (the table keeps the newest [`REPLICA_ROWS`]).
    pub first_offset: usize,
    pub columns: Vec<ReplicaColumn>,
}

/// The broker cards of the cluster.
pub fn brokers(world: &World) -> Vec<BrokerCard> {
    world
        .brokers()
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
            let state = if !b.is_online() {
                BrokerState::Stopped
            } else if world.is_fenced(b.id) {
                BrokerState::Fenced
            } else {
                BrokerState::Up
            };
            let catching_up = if state == BrokerState::Up {
                world
                    .partition_leaders()
                    .map(|(tp, _)| tp)
                    .filter(|tp| !is_internal(&tp.topic))
                    .filter(|tp| {
                        world.registration(tp).is_some_and(|r| {
                            r.replicas().contains(&b.id) && !r.isr().contains(&b.id)
                        })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            BrokerCard {
                id: b.id,
                state,
                controller: controller_sees(world, b.id, b.is_online()),
                leads,
                leads_internal,
                catching_up,
            }
        })
        .collect()
}

/// How many offsets the replicas table shows: the newest ones, so a long log stays
/// readable (and only those batches are decoded).
pub const REPLICA_ROWS: usize = 40;

/// One batch of a replica's log, from its header: first and last offset (clamped at 0,
/// as the table counts offsets from 0) and its bytes.
struct Span<'a> {
    first: usize,
    last: usize,
    bytes: &'a [u8],
}

fn spans(raw: Vec<&[u8]>) -> Vec<Span<'_>> {
    raw.into_iter()
        .filter_map(|bytes| {
            let (base, last, _, _) = crate::record::header_summary(bytes)?;
            Some(Span {
                first: usize::try_from(base.max(0)).ok()?,
                last: usize::try_from(last.max(0)).ok()?,
                bytes,
            })
        })
        .collect()
}

/// Each offset's (batch epoch, control, bytes) on one replica, for the offsets
/// `from..to`: a later batch covering an offset wins, a batch that does not decode is
/// left out. Only the batches that reach into the window are decoded (CRC checked).
fn offsets_in<'a>(log: &[Span<'a>], from: usize, to: usize) -> Vec<Option<(i32, bool, &'a [u8])>> {
    let mut out = vec![None; to.saturating_sub(from)];
    for span in log.iter().filter(|s| s.last >= from && s.first < to) {
        let Ok(view) = RecordBatch::decode_view(span.bytes) else {
            continue;
        };
        let batch = view.header();
        let slot = Some((batch.partition_leader_epoch, batch.is_control(), span.bytes));
        for o in span.first.max(from)..=span.last.min(to - 1) {
            if let Some(s) = out.get_mut(o - from) {
                *s = slot;
            }
        }
    }
    out
}

/// The replicas of `tp` side by side, or `None` for an unknown partition: the newest
/// [`REPLICA_ROWS`] offsets of the largest log.
///
/// Read on every render of a page with a cluster, so it decodes nothing but the
/// batches it shows: each log's batches are found by their lengths
/// ([`World::replica_batch_slices`]), the bytes borrowed from the brokers' disks. A
/// cached decoding would have to notice truncation, restarts and rewrites; this has
/// nothing to keep.
pub fn replicas(world: &World, tp: &TopicPartition) -> Option<ReplicasPanel> {
    let view = world.replicas_summary(tp)?;
    let logs: Vec<Vec<Span>> = view
        .replicas
        .iter()
        .map(|r| spans(world.replica_batch_slices(tp, r.broker).unwrap_or_default()))
        .collect();
    // The leader is one of the replicas (its log is read once); without a leader,
    // nothing matches.
    let leader_at = view.replicas.iter().position(|r| r.broker == view.leader);
    let leader_online = leader_at
        .and_then(|i| view.replicas.get(i))
        .is_some_and(|r| r.online);
    let other_leader = match leader_at {
        Some(_) => Vec::new(),
        None => spans(
            world
                .replica_batch_slices(tp, view.leader)
                .unwrap_or_default(),
        ),
    };
    let leader_spans = leader_at
        .and_then(|i| logs.get(i))
        .map_or(other_leader.as_slice(), Vec::as_slice);
    // The largest log's end (a replica's column runs to its last batch).
    let width = logs.iter().flatten().map(|s| s.last + 1).max().unwrap_or(0);
    let first = width.saturating_sub(REPLICA_ROWS);
    let leader_offsets = offsets_in(leader_spans, first, width);
    let columns = view
        .replicas
        .iter()
        .zip(&logs)
        .map(|(r, log)| ReplicaColumn {
            broker: r.broker,
            leader: r.leader,
            in_isr: r.in_isr,
            in_elr: r.in_elr,
            online: r.online,
            log_end_offset: r.log_end_offset,
            high_watermark: r.high_watermark,
            last_stable_offset: r.last_stable_offset,
            slots: offsets_in(log, first, width)
                .into_iter()
                .enumerate()
                .map(|(i, at)| match at {
                    None => Slot::Missing,
                    Some((leader_epoch, control, bytes)) => Slot::Record {
                        control,
                        leader_epoch,
                        below_hw: ((first + i) as i64) < r.high_watermark,
                        same_as_leader: leader_offsets
                            .get(i)
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
        partition_epoch: view.partition_epoch,
        isr: view.isr,
        leader_unreachable_ms: match controller_sees(world, view.leader, leader_online) {
            ControllerSees::SessionRunning { fence_in_ms, .. } if !leader_online => {
                Some(fence_in_ms)
            }
            _ => None,
        },
        elr: view.elr,
        first_offset: first,
        columns,
    })
}

#[cfg(test)]
mod tests;
