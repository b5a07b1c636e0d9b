//! The world's controller duties for replication (KRaft's role, simplified: no Raft,
//! decisions apply at once): propagating each partition's registration to the
//! brokers holding a replica, applying the leaders' ISR changes (`AlterPartition`),
//! electing leaders when a broker stops or comes back, and driving the brokers'
//! replication timers (follower fetches, held fetches, the ISR check).

use super::event::EventKind;
use super::network::{Body, Node};
use super::world::World;
use crate::broker::broker::{Handled, Outbound};
use crate::broker::broker_registry::BrokerRegistration;
use crate::broker::replica_manager::PartitionMetadata;
use crate::controller::{
    AlterPartitionData, LeaderChange, PartitionRegistration, BROKER_SESSION_TIMEOUT_MS,
    LEADER_IMBALANCE_CHECK_INTERVAL_MS,
};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// The replication settings of a topic (`replication.factor` is fixed at creation;
/// the other two are topic configs, Kafka's names).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReplicationConfig {
    pub replication_factor: i32,
    /// `min.insync.replicas` (default 1).
    pub min_insync_replicas: i32,
    /// `unclean.leader.election.enable` (default false).
    pub unclean_leader_election: bool,
}

impl Default for ReplicationConfig {
    fn default() -> Self {
        ReplicationConfig {
            replication_factor: 1,
            min_insync_replicas: 1,
            unclean_leader_election: false,
        }
    }
}

impl World {
    /// The controller's record of a partition, if the topic exists.
    pub fn registration(&self, tp: &TopicPartition) -> Option<&PartitionRegistration> {
        self.topics
            .get(&tp.topic)?
            .registrations
            .get(usize::try_from(tp.partition).ok()?)
    }

    /// Tells every online broker holding a replica of `tp` its registration
    /// (the metadata a KRaft broker replays), and the leader map to everyone.
    pub(super) fn propagate_partition(&mut self, tp: &TopicPartition) {
        let Some(topic) = self.topics.get(&tp.topic) else {
            return;
        };
        let Some(reg) = usize::try_from(tp.partition)
            .ok()
            .and_then(|p| topic.registrations.get(p))
        else {
            return;
        };
        let meta = PartitionMetadata {
            replicas: reg.replicas().to_vec(),
            leader: reg.leader(),
            leader_epoch: reg.leader_epoch(),
            partition_epoch: reg.partition_epoch(),
            isr: reg.isr().to_vec(),
            min_insync_replicas: topic.replication.min_insync_replicas,
        };
        let config = topic.config.clone();
        let leader = reg.leader();
        if let Some(slot) = self.topics.get_mut(&tp.topic).and_then(|t| {
            t.leaders
                .get_mut(usize::try_from(tp.partition).unwrap_or(0))
        }) {
            *slot = leader;
        }
        for broker in self.brokers.values_mut() {
            broker.update_metadata(tp.clone(), leader);
        }
        let now = self.clock_ms;
        for id in meta.replicas.clone() {
            let Some(broker) = self.brokers.get_mut(&id).filter(|b| b.online) else {
                continue;
            };
            let mut meta = meta.clone();
            if self.fenced.contains(&id) {
                // A broker cut off from the controller hears nothing new; one that
                // (re)started that way knows of no leader at all.
                if broker.partitions().contains_key(tp) {
                    continue;
                }
                meta.leader = crate::controller::NO_LEADER;
            }
            if let Ok(handled) = broker.apply_partition_metadata(tp, meta, &config, now) {
                self.apply_handled(id, None, handled);
            }
        }
        // Markers refused for a short ISR go again now that the partition changed.
        let effective_min_isr = meta
            .min_insync_replicas
            .min(i32::try_from(meta.replicas.len()).unwrap_or(i32::MAX));
        let isr_short = i32::try_from(meta.isr.len()).unwrap_or(i32::MAX) < effective_min_isr;
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            if self.fenced.contains(&id) {
                continue;
            }
            let Some(broker) = self.brokers.get_mut(&id) else {
                continue;
            };
            let handled = broker.partition_metadata_changed(tp, isr_short);
            if handled != Handled::default() {
                self.apply_handled(id, None, handled);
            }
        }
    }

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

    /// The controller answers a leader's `AlterPartition` (`ReplicationControlManager
    /// .alterPartition`, Kafka 4.0): the broker epoch must be the registered one
    /// (STALE_BROKER_EPOCH), the partition must exist, then
    /// [`PartitionRegistration::alter_partition`] validates; a new member must be an
    /// active broker (running, unfenced, not shutting down). A committed change
    /// reaches every replica's broker as metadata before the answer travels back.
    pub(super) fn controller_alter_partition(&mut self, request: Request) -> Response {
        let Request::AlterPartition {
            broker_id,
            broker_epoch,
            topic_partition: tp,
            leader_epoch,
            partition_epoch,
            new_isr,
        } = request
        else {
            return Response::AlterPartition {
                topic_partition: TopicPartition::new("", 0),
                error: Errors::InvalidRequest,
                leader_id: -1,
                leader_epoch: -1,
                partition_epoch: -1,
                isr: Vec::new(),
            };
        };
        let refuse = |error: Errors| Response::AlterPartition {
            topic_partition: tp.clone(),
            error,
            leader_id: -1,
            leader_epoch: -1,
            partition_epoch: -1,
            isr: Vec::new(),
        };
        if self.broker_epochs.get(&broker_id) != Some(&broker_epoch) {
            return refuse(Errors::StaleBrokerEpoch);
        }
        let active = self.active_brokers();
        let data = AlterPartitionData {
            broker: broker_id,
            broker_epoch,
            leader_epoch,
            partition_epoch,
            new_isr,
        };
        let result = self
            .topics
            .get_mut(&tp.topic)
            .and_then(|t| t.registrations.get_mut(usize::try_from(tp.partition).ok()?))
            .map(|r| r.alter_partition(&data, &|b| active.contains(&b)));
        match result {
            None => refuse(Errors::UnknownTopicOrPartition),
            Some(Err(error)) => refuse(error),
            Some(Ok(changed)) => {
                if changed {
                    self.propagate_partition(&tp);
                }
                let Some(reg) = self.registration(&tp) else {
                    return refuse(Errors::UnknownTopicOrPartition);
                };
                Response::AlterPartition {
                    topic_partition: tp.clone(),
                    error: Errors::None,
                    leader_id: reg.leader(),
                    leader_epoch: reg.leader_epoch(),
                    partition_epoch: reg.partition_epoch(),
                    isr: reg.isr().to_vec(),
                }
            }
        }
    }

    /// Lets every online broker do its replication work due now. Returns whether
    /// anything happened.
    pub(super) fn poll_replicas(&mut self) -> bool {
        if !self.replicated {
            return false;
        }
        let now = self.clock_ms;
        if self.next_session_expiry_ms().is_some_and(|t| t <= now) {
            self.sync_controller_links();
        }
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        let mut progressed = false;
        for id in ids {
            let Some(broker) = self.brokers.get_mut(&id) else {
                continue;
            };
            let handled: Handled = broker.poll_replication(now);
            if handled != Handled::default() {
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
        for b in self.brokers.values().filter(|b| b.online) {
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

    /// A broker stopped: the controller fences it (out of every ISR, a new leader
    /// where it led) and tells the others.
    pub(super) fn fence_broker(&mut self, id: i32) {
        let alive = self.active_brokers();
        let changes = self.change_registrations(|reg, unclean| {
            reg.fence_broker(id, &|b| b != id && alive.contains(&b), unclean)
        });
        self.announce(changes);
    }

    /// The brokers the controller may elect: running and not fenced.
    fn unfenced_online_brokers(&self) -> Vec<i32> {
        self.brokers
            .values()
            .filter(|b| b.online && !self.fenced.contains(&b.id))
            .map(|b| b.id)
            .collect()
    }

    /// `ClusterControlManager.isActive`: running, unfenced and not in controlled
    /// shutdown — the brokers that may lead or join an ISR.
    fn active_brokers(&self) -> Vec<i32> {
        self.unfenced_online_brokers()
            .into_iter()
            .filter(|b| !self.shutting_down.contains(b))
            .collect()
    }

    /// `BrokerHeartbeat` with `wantShutDown` (a clean stop, Kafka 4.0
    /// `BrokerLifecycleManager` and `ReplicationControlManager
    /// .handleBrokerInControlledShutdown`): the controller marks the broker as in
    /// controlled shutdown, takes it out of every ISR (never emptying one) and elects
    /// new leaders where it led; the broker hears the new metadata and becomes a
    /// follower before it stops. A broker cut off from the controller cannot ask: it
    /// just stops.
    pub(super) fn controlled_shutdown(&mut self, id: i32) {
        if !self.replicated
            || self.fenced.contains(&id)
            || self.network.is_cut(&Node::Broker(id), &Node::Controller)
        {
            return;
        }
        self.shutting_down.insert(id);
        self.emit(EventKind::ControlledShutdown { broker: id });
        self.publish_broker_registrations();
        self.fence_broker(id);
    }

    /// `kafka-leader-election.sh --election-type PREFERRED` (`ElectLeaders`, Kafka
    /// 4.0 `ReplicationControlManager.electLeaders`): the named partitions, or with
    /// none every partition (then the ones that need no election are left out). The
    /// tool's lines: the partitions elected, those whose preferred replica already
    /// leads, and one error line per failed partition.
    pub fn admin_elect_leaders(&mut self, partitions: &[TopicPartition]) -> Vec<String> {
        let alive = self.active_brokers();
        let all = partitions.is_empty();
        let asked: Vec<TopicPartition> = if all {
            self.topics
                .values()
                .flat_map(|t| (0..t.partitions).map(|p| TopicPartition::new(t.name.clone(), p)))
                .collect()
        } else {
            partitions.to_vec()
        };
        let mut changes = Vec::new();
        let mut results = Vec::new();
        for tp in asked {
            let result = self
                .topics
                .get_mut(&tp.topic)
                .and_then(|t| t.registrations.get_mut(usize::try_from(tp.partition).ok()?))
                .map_or(Err(Errors::UnknownTopicOrPartition), |r| {
                    r.elect_preferred_requested(&|b| alive.contains(&b))
                });
            match result {
                Ok(change) => {
                    changes.push((tp.clone(), change));
                    results.push((tp, Errors::None));
                }
                Err(Errors::ElectionNotNeeded) if all => {}
                Err(error) => results.push((tp, error)),
            }
        }
        self.announce(changes);
        let names = |want: &dyn Fn(Errors) -> bool| {
            let list: Vec<String> = results
                .iter()
                .filter(|(_, e)| want(*e))
                .map(|(tp, _)| tp.to_string())
                .collect();
            list.join(", ")
        };
        let mut lines = Vec::new();
        let elected = names(&|e| e == Errors::None);
        if !elected.is_empty() {
            lines.push(format!(
                "Successfully completed leader election (PREFERRED) for partitions {elected}"
            ));
        }
        let noop = names(&|e| e == Errors::ElectionNotNeeded);
        if !noop.is_empty() {
            lines.push(format!(
                "Valid replica already elected for partitions {noop}"
            ));
        }
        for (tp, error) in &results {
            if !matches!(error, Errors::None | Errors::ElectionNotNeeded) {
                lines.push(format!(
                    "Error completing leader election (PREFERRED) for partition: {tp}: org.apache.kafka.common.errors.{}: {}",
                    error.exception_name(),
                    error.message()
                ));
            }
        }
        lines
    }

    /// A broker is back: leaderless partitions may elect it.
    pub(super) fn unfence_broker(&mut self) {
        let alive = self.active_brokers();
        let changes = self.change_registrations(|reg, unclean| {
            reg.unfence_broker(&|b| alive.contains(&b), unclean)
        });
        self.announce(changes);
    }

    /// The controller's broker registrations (epoch, fenced) reach every broker that
    /// hears it: online and not cut off (Kafka's `RegisterBrokerRecord` /
    /// `BrokerRegistrationChangeRecord` replayed into each `KRaftMetadataCache`).
    pub(super) fn publish_broker_registrations(&mut self) {
        let registrations: crate::util::sorted_map::SortedMap<i32, BrokerRegistration> = self
            .brokers
            .values()
            .map(|b| {
                let registration = BrokerRegistration {
                    epoch: self.broker_epochs.get(&b.id).copied().unwrap_or(-1),
                    fenced: !b.online || self.fenced.contains(&b.id),
                    in_controlled_shutdown: self.shutting_down.contains(&b.id),
                };
                (b.id, registration)
            })
            .collect();
        for b in self.brokers.values_mut() {
            if self.fenced.contains(&b.id) {
                continue;
            }
            if let Some(epoch) = self.broker_epochs.get(&b.id) {
                b.set_own_broker_epoch(*epoch);
            }
            if b.online {
                b.set_broker_registrations(registrations.clone());
            }
        }
        self.drain_unknown_broker_markers();
    }

    /// A broker (re)started and registers: a new broker epoch, above every one given.
    pub(super) fn register_broker(&mut self, id: i32) {
        self.shutting_down.remove(&id);
        let next = self.broker_epochs.values().max().copied().unwrap_or(0) + 1;
        self.broker_epochs.insert(id, next);
        self.publish_broker_registrations();
    }

    /// A running broker whose link to the controller is cut stops heartbeating; the
    /// controller fences it once `broker.session.timeout.ms` (9 s) has passed since
    /// its last heartbeat, taken here as the moment of the cut (Kafka 4.0
    /// `BrokerHeartbeatManager`). Until then it stays leader and in the ISRs. Fenced,
    /// it leaves the ISRs and loses its leaderships, though it keeps running and, until
    /// it hears from the controller again, still believes it leads. When the link
    /// heals it registers again and learns the current metadata.
    pub(super) fn sync_controller_links(&mut self) {
        if !self.replicated {
            return;
        }
        let now = self.clock_ms;
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            let online = self.brokers.get(&id).is_some_and(|b| b.online);
            let cut = self.network.is_cut(&Node::Broker(id), &Node::Controller);
            if online && cut && !self.fenced.contains(&id) {
                let since = *self.session_cut_at.entry(id).or_insert(now);
                if now.saturating_sub(since) >= BROKER_SESSION_TIMEOUT_MS {
                    self.session_cut_at.remove(&id);
                    self.fenced.insert(id);
                    self.emit(EventKind::BrokerFenced {
                        broker: id,
                        fenced: true,
                    });
                    self.publish_broker_registrations();
                    self.fence_broker(id);
                }
            } else {
                self.session_cut_at.remove(&id);
                if !cut && self.fenced.remove(&id) {
                    self.emit(EventKind::BrokerFenced {
                        broker: id,
                        fenced: false,
                    });
                    self.publish_broker_registrations();
                    self.reregister_broker(id);
                }
            }
        }
    }

    /// When the controller next fences a broker whose session runs out, if any.
    pub(super) fn next_session_expiry_ms(&self) -> Option<i64> {
        self.session_cut_at
            .values()
            .map(|t| t.saturating_add(BROKER_SESSION_TIMEOUT_MS))
            .min()
    }

    /// A broker registers again (restarted, or back in touch with the controller): it
    /// learns the state of its replicated partitions, and a partition left without a
    /// leader may elect it.
    pub(super) fn reregister_broker(&mut self, id: i32) {
        let held: Vec<TopicPartition> = self
            .partitions_on(id)
            .into_iter()
            .map(|(tp, _)| tp)
            .filter(|tp| {
                self.registration(tp)
                    .is_some_and(|r| r.replicas().len() > 1)
            })
            .collect();
        for tp in held {
            self.propagate_partition(&tp);
        }
        self.unfence_broker();
    }

    fn change_registrations(
        &mut self,
        f: impl Fn(&mut PartitionRegistration, bool) -> Option<LeaderChange>,
    ) -> Vec<(TopicPartition, LeaderChange)> {
        let mut changes = Vec::new();
        for topic in self.topics.values_mut() {
            let unclean = topic.replication.unclean_leader_election;
            for (p, reg) in topic.registrations.iter_mut().enumerate() {
                if let Some(change) = f(reg, unclean) {
                    changes.push((TopicPartition::new(topic.name.clone(), p as i32), change));
                }
            }
        }
        changes
    }

    fn announce(&mut self, changes: Vec<(TopicPartition, LeaderChange)>) {
        // A metadata update wakes every producer's Sender: a batch waiting out its
        // retry backoff for a partition with a new leader goes at once (KIP-951).
        if !changes.is_empty() {
            let names: Vec<String> = self.producers.keys().cloned().collect();
            self.ready.extend(names);
        }
        for (tp, change) in changes {
            if change.leader != change.old_leader {
                self.emit(EventKind::LeaderElected {
                    tp: tp.clone(),
                    change,
                });
            }
            self.propagate_partition(&tp);
        }
        self.drain_unknown_broker_markers();
        self.maybe_schedule_leader_balance();
    }

    /// `maybeScheduleNextBalancePartitionLeaders` (KRaft, Kafka 4.0): once a replicated
    /// partition's leader is not its preferred replica, the controller looks again
    /// `leader.imbalance.check.interval.seconds` later.
    fn maybe_schedule_leader_balance(&mut self) {
        if self.leader_balance_due_ms.is_some() || !self.config.auto_leader_rebalance {
            return;
        }
        let imbalanced = self.topics.values().any(|t| {
            t.registrations
                .iter()
                .any(|r| r.replicas().len() > 1 && !r.has_preferred_leader())
        });
        if imbalanced {
            self.leader_balance_due_ms = Some(
                self.clock_ms
                    .saturating_add(LEADER_IMBALANCE_CHECK_INTERVAL_MS),
            );
        }
    }

    /// `maybeBalancePartitionLeaders`: every partition whose preferred replica is
    /// alive, unfenced and in the ISR gets it back as leader (`Election.PREFERRED`);
    /// partitions still imbalanced are looked at again one interval later.
    pub(super) fn run_leader_balance(&mut self) {
        if self.leader_balance_due_ms.is_none_or(|t| t > self.clock_ms) {
            return;
        }
        self.leader_balance_due_ms = None;
        let alive = self.active_brokers();
        let changes = self.change_registrations(|reg, _| {
            (reg.replicas().len() > 1)
                .then(|| reg.elect_preferred(&|b| alive.contains(&b)))
                .flatten()
        });
        self.announce(changes);
        self.maybe_schedule_leader_balance();
    }
}

/// One replica of a partition, read from its broker (for `print replicas` and the UI).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReplicaView {
    pub broker: i32,
    pub online: bool,
    pub leader: bool,
    pub in_isr: bool,
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
                    online: broker.is_some_and(|b| b.online),
                    leader: *id == reg.leader(),
                    in_isr: reg.isr().contains(id),
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
            replicas,
        })
    }
}

impl World {
    /// Whether the controller fenced this running broker (cut off from it).
    pub fn is_fenced(&self, broker: i32) -> bool {
        self.fenced.contains(&broker)
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
    bases.sort_unstable();
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
