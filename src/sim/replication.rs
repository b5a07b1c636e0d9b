//! The brokers' replication work the world drives (follower fetches, held fetches,
//! the ISR check) and the read API of a partition's replicas. The controller's side
//! (registrations, AlterPartition, fencing, elections) is `crate::controller`.

use super::network::{Body, Node};
use super::world::World;
use crate::broker::broker::{Handled, Outbound};
use crate::log::TopicPartition;

impl World {
    /// Sends a follower's Fetch to its leader.
    pub(super) fn apply_replication_outbound(&mut self, from: i32, out: Outbound) {
        if let Outbound::ReplicaFetch {
            leader,
            tag,
            request,
        } = out
        {
            self.send(
                Node::Broker(from),
                Node::Broker(leader),
                tag,
                Body::Request(request),
            );
        }
    }

    /// Lets every online broker do its replication work due now. Returns whether
    /// anything happened.
    pub(super) fn poll_replicas(&mut self) -> bool {
        if !self.replicated {
            return false;
        }
        let now = self.clock_ms;
        let mut progressed = false;
        if self.next_controller_timer_ms().is_some_and(|t| t <= now) {
            self.sync_controller_links();
            progressed |= self.retry_registrations();
        }
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            let Some(broker) = self.brokers.get_mut(&id) else {
                continue;
            };
            let handled: Handled = broker.poll_replication(now);
            if !handled.is_empty() {
                progressed = true;
                self.apply_handled(id, None, handled);
            }
        }
        progressed
    }

    /// The next replication time: (a client waits on it, any timer). See
    /// [`crate::broker::Broker::next_replication_ms`].
    pub(super) fn next_replication_ms(&self) -> (Option<i64>, Option<i64>) {
        if !self.replicated {
            return (None, None);
        }
        let now = self.clock_ms;
        let mut work = None::<i64>;
        let mut timers = None::<i64>;
        for b in self.brokers.values().filter(|b| b.is_online()) {
            let (w, t) = b.next_replication_ms(now);
            work = match (work, w) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            timers = match (timers, t) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        (work, timers)
    }
}

/// One replica of a partition, read from its broker (for `print replicas` and the UI).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReplicaView {
    pub broker: i32,
    pub online: bool,
    pub leader: bool,
    pub in_isr: bool,
    /// An eligible leader replica (KIP-966).
    pub in_elr: bool,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub last_stable_offset: i64,
    /// The leader-epoch cache: (epoch, start offset).
    pub epochs: Vec<(i32, i64)>,
    /// Its batches are byte for byte the leader's, as far as it has them.
    pub matches_leader: bool,
}

/// A partition's replicas as the controller and the brokers see them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReplicasView {
    pub tp: TopicPartition,
    pub leader: i32,
    pub leader_epoch: i32,
    /// Bumped by every change the controller makes (leader or ISR).
    pub partition_epoch: i32,
    pub isr: Vec<i32>,
    /// The eligible leader replicas, when the cluster keeps them
    /// (`eligible.leader.replicas.enable`); `None` when it does not.
    pub elr: Option<Vec<i32>>,
    /// The last known leader kept for a recovery (`LastKnownElr`), if any.
    pub last_known_elr: Vec<i32>,
    /// RECOVERING after an unclean election until the leader reports it recovered.
    pub leader_recovery_state: crate::protocol::LeaderRecoveryState,
    /// A reassignment in progress: the replicas it adds and those it will remove.
    #[cfg(feature = "topic-admin")]
    pub adding: Vec<i32>,
    #[cfg(feature = "topic-admin")]
    pub removing: Vec<i32>,
    pub replicas: Vec<ReplicaView>,
}

impl World {
    /// The batches of `tp` on broker `id`, as their bytes: from the open log, or from
    /// the disk of a stopped broker.
    pub fn replica_raw_batches(&self, tp: &TopicPartition, id: i32) -> Option<Vec<Vec<u8>>> {
        let b = self.brokers.get(&id)?;
        if let Some(l) = b.logs().get(tp) {
            return Some(l.read_all(&b.fs).into_iter().map(|s| s.raw).collect());
        }
        let mut out = Vec::new();
        for bytes in stopped_log_files(b, tp)? {
            for (pos, batch) in crate::record::decode_all(bytes).ok()? {
                let end = (pos as usize).saturating_add(batch.size_in_bytes());
                out.push(bytes.get(pos as usize..end).unwrap_or_default().to_vec());
            }
        }
        Some(out)
    }

    /// The batches of `tp` on broker `id` as slices of its disk, in the order
    /// [`World::replica_raw_batches`] gives them, found by each batch's batchLength
    /// without decoding or copying them (the broker validated every batch before it
    /// wrote it): what the page reads on each render, where decoding 10,000 batches
    /// per replica cost most of a click.
    pub fn replica_batch_slices(&self, tp: &TopicPartition, id: i32) -> Option<Vec<&[u8]>> {
        let b = self.brokers.get(&id)?;
        if let Some(l) = b.logs().get(tp) {
            let segments = l.segments().iter();
            let files = segments.filter_map(|s| b.fs.read(&s.log_path(l.dir())).ok());
            return Some(files.flat_map(crate::record::split_batches).collect());
        }
        let files = stopped_log_files(b, tp)?;
        Some(
            files
                .into_iter()
                .flat_map(crate::record::split_batches)
                .collect(),
        )
    }

    /// Every replica of `tp`: LEO, HW, LSO, epochs, ISR membership, and whether its
    /// bytes equal the leader's (read from each broker's disk).
    pub fn replicas_view(&self, tp: &TopicPartition) -> Option<ReplicasView> {
        let mut view = self.replicas_summary(tp)?;
        let batches = |id: i32| self.replica_raw_batches(tp, id);
        let leader_batches = batches(view.leader).unwrap_or_default();
        for r in &mut view.replicas {
            let own = batches(r.broker).unwrap_or_default();
            // Compared offset by offset: the two logs may start at different
            // offsets (segments deleted on one replica before the other).
            r.matches_leader = matches_where_both_have(&own, &leader_batches);
        }
        Some(view)
    }

    /// [`World::replicas_view`] without comparing any bytes (`matches_leader` stays
    /// true): the page compares the offsets it shows itself.
    pub fn replicas_summary(&self, tp: &TopicPartition) -> Option<ReplicasView> {
        let reg = self.registration(tp)?;
        let replicas = reg
            .replicas()
            .iter()
            .map(|id| {
                let broker = self.brokers.get(id);
                let log = broker.and_then(|b| b.logs().get(tp));
                ReplicaView {
                    broker: *id,
                    online: broker.is_some_and(|b| b.is_online()),
                    leader: *id == reg.leader(),
                    in_isr: reg.isr().contains(id),
                    in_elr: reg.elr().contains(id),
                    log_end_offset: log.map_or_else(
                        || {
                            // A stopped broker: after its last batch on disk.
                            self.replica_batch_slices(tp, *id)
                                .and_then(|batches| batches.last().copied())
                                .and_then(|raw| crate::record::RecordBatch::decode(raw).ok())
                                .map_or(0, |(b, _)| b.next_offset())
                        },
                        |l| l.log_end_offset(),
                    ),
                    high_watermark: log.map_or(-1, |l| l.high_watermark()),
                    last_stable_offset: log.map_or(-1, |l| l.last_stable_offset()),
                    epochs: match (log, broker) {
                        (Some(l), _) => l.epochs().to_vec(),
                        (None, Some(b)) => crate::log::unified_log::read_epoch_checkpoint(
                            &b.fs,
                            &crate::broker::Broker::partition_dir(tp),
                        ),
                        (None, None) => Vec::new(),
                    },
                    matches_leader: true,
                }
            })
            .collect();
        Some(ReplicasView {
            tp: tp.clone(),
            leader: reg.leader(),
            leader_epoch: reg.leader_epoch(),
            partition_epoch: reg.partition_epoch(),
            isr: reg.isr().to_vec(),
            elr: self
                .config
                .eligible_leader_replicas
                .then(|| reg.elr().to_vec()),
            last_known_elr: reg.last_known_elr().to_vec(),
            leader_recovery_state: reg.leader_recovery_state(),
            #[cfg(feature = "topic-admin")]
            adding: reg.adding_replicas().to_vec(),
            #[cfg(feature = "topic-admin")]
            removing: reg.removing_replicas().to_vec(),
            replicas,
        })
    }
}

/// True when each of `own`'s batches equals the leader's batch with the same base offset,
/// where the leader has one. Both are a log's batches, in offset order, so one walk
/// serves (a search per batch was quadratic: ≈ 270 ms a click in the page with 10,000
/// batches on three replicas).
fn matches_where_both_have(own: &[Vec<u8>], leader: &[Vec<u8>]) -> bool {
    let base = |b: &[u8]| {
        b.get(..8)
            .map(|k| k.iter().fold(0i64, |o, x| o << 8 | i64::from(*x)))
    };
    let mut theirs = leader.iter().peekable();
    own.iter().all(|a| {
        let at = base(a);
        while theirs.next_if(|b| base(b) < at).is_some() {}
        match theirs.peek() {
            Some(b) if base(b) == at => a == *b,
            _ => true,
        }
    })
}

/// The `.log` files of `tp` on a broker that is not running (no open log), in offset
/// order: read straight from its disk.
fn stopped_log_files<'a>(
    b: &'a crate::broker::Broker,
    tp: &TopicPartition,
) -> Option<Vec<&'a [u8]>> {
    let dir = crate::broker::Broker::partition_dir(tp);
    let names = b.fs.list_dir(&dir).ok()?;
    let mut bases: Vec<i64> = names
        .iter()
        .filter_map(|n| crate::log::segment::offset_from_file_name(n))
        .filter(|(_, s)| *s == ".log")
        .map(|(o, _)| o)
        .collect();
    crate::util::ordered::sort_by(&mut bases, i64::cmp);
    bases
        .into_iter()
        .map(|base| {
            let path = format!("{dir}/{}", crate::log::segment::file_name(base, ".log"));
            b.fs.read(&path).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::matches_where_both_have;

    /// A stand-in batch: its base offset in the first 8 bytes, then one byte of content.
    fn batch(base: i64, content: u8) -> Vec<u8> {
        let mut b = base.to_be_bytes().to_vec();
        b.push(content);
        b
    }

    #[test]
    fn replicas_match_where_both_logs_have_the_offset() {
        let leader = vec![batch(0, 1), batch(1, 2), batch(2, 3)];
        assert!(matches_where_both_have(&leader, &leader));
        // A follower that lags, or whose older segments were deleted: still matching.
        assert!(matches_where_both_have(&leader[..2], &leader));
        assert!(matches_where_both_have(&leader[1..], &leader));
        // A follower ahead of a leader that lost its tail (before truncation).
        assert!(matches_where_both_have(
            &[batch(0, 1), batch(5, 9)],
            &leader
        ));
        // A different batch at an offset both have: diverged.
        assert!(!matches_where_both_have(
            &[batch(0, 1), batch(1, 7)],
            &leader
        ));
        assert!(!matches_where_both_have(&[batch(2, 0)], &leader));
        assert!(matches_where_both_have(&[], &leader));
        assert!(matches_where_both_have(&leader, &[]));
    }
}
