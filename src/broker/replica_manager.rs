//! The leader's side of replication (Kafka 4.0's `ReplicaManager` and `Partition`,
//! mirror commit 1eb7644): becoming leader or follower from the controller's
//! metadata, answering follower fetches (held up to `replica.fetch.wait.max.ms` when
//! there is nothing new), the ISR and the HW, and `acks=all` Produce requests that
//! wait for the HW (`DelayedProduce`).
//!
//! An ISR change is proposed, not applied: the leader sends `AlterPartition` to the
//! controller and, until the controller commits it (its metadata, or its answer),
//! counts the maximal ISR for the HW and proposes nothing else for that partition
//! (`PendingExpandIsr` / `PendingShrinkIsr`). An unanswered AlterPartition goes again
//! after the controller channel's timeout; a refused one waits for new metadata.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled, Outbound};
pub use super::delayed_produce::DelayedProduce;
use super::partition::{
    FetcherState, Partition, PendingIsr, ReplicaState, ReplicationEvent, ISR_CHECK_INTERVAL_MS,
    REPLICA_FETCH_WAIT_MAX_MS, REPLICA_LAG_TIME_MAX_MS,
};
use super::producer_id_manager::CONTROLLER_REQUEST_TIMEOUT_MS;
use crate::fs::FsError;
use crate::log::{FetchIsolation, LogConfig, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::{LeaderRecoveryState, Request, Response};

/// A follower's fetch that found nothing new, held until data arrives or it expires.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParkedFetch {
    pub token: u64,
    pub tp: TopicPartition,
    pub replica_id: i32,
    pub fetch_offset: i64,
    /// The leader epoch the follower fetched with, checked again on completion.
    pub current_leader_epoch: i32,
    pub deadline_ms: i64,
}

/// The controller's word on one partition, as a broker applies it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionMetadata {
    pub replicas: Vec<i32>,
    pub leader: i32,
    pub leader_epoch: i32,
    pub partition_epoch: i32,
    pub isr: Vec<i32>,
    pub min_insync_replicas: i32,
    pub leader_recovery_state: LeaderRecoveryState,
}

impl Broker {
    /// This broker's part in each partition it holds a replica of.
    pub fn partitions(&self) -> &crate::util::sorted_map::SortedMap<TopicPartition, Partition> {
        &self.partitions
    }

    /// Whether this broker leads `tp` (a partition it only follows answers
    /// NOT_LEADER_OR_FOLLOWER to clients).
    pub(super) fn leads(&self, tp: &TopicPartition) -> bool {
        self.partitions.get(tp).is_none_or(|p| p.leader == self.id)
    }

    /// Applies the controller's metadata for a partition this broker holds a replica
    /// of (`ReplicaManager.applyDelta`: `makeLeader` / `makeFollower`). Creates the
    /// log with `config` if it is not here yet.
    pub fn apply_partition_metadata(
        &mut self,
        tp: &TopicPartition,
        meta: PartitionMetadata,
        config: &LogConfig,
        now_ms: i64,
    ) -> Result<Handled, FsError> {
        if !self.logs.contains_key(tp) {
            let saved = std::mem::replace(&mut self.log_config, config.clone());
            let created = self.create_partition(tp.clone());
            self.log_config = saved;
            created?;
        }
        let replicated = meta.replicas.len() > 1;
        let old = self.partitions.get(tp).cloned();
        let role_changed = old
            .as_ref()
            .is_none_or(|p| p.leader != meta.leader || p.leader_epoch != meta.leader_epoch);
        let leads = meta.leader == self.id;
        let mut handled = Handled::default();
        let checkpointed = self.checkpointed_high_watermark(tp);
        let Some(log) = self.logs.get_mut(tp) else {
            return Ok(handled);
        };
        log.set_replicated(replicated);
        // A reassignment gives a single-replica partition followers (`topic-admin`).
        #[cfg(feature = "topic-admin")]
        if old.as_ref().is_some_and(|p| !p.is_replicated()) && replicated && leads && !role_changed
        {
            log.start_epoch_cache(&mut self.fs, meta.leader_epoch)?;
        }
        if old.is_none() && replicated {
            // `Partition.createLogIfNotExists`: a (re)started replica's HW starts at
            // `replication-offset-checkpoint` (0 without one), within the log's bounds.
            log.update_high_watermark(checkpointed.unwrap_or(0));
        }
        if role_changed {
            if leads {
                log.become_leader(&mut self.fs, meta.leader_epoch)?;
            } else {
                log.become_follower(meta.leader_epoch);
            }
        }
        let leo = log.log_end_offset();
        let remote = if leads {
            meta.replicas
                .iter()
                .filter(|b| **b != self.id)
                .map(|b| {
                    let kept = old
                        .as_ref()
                        .filter(|_| !role_changed)
                        .and_then(|p| p.remote.get(b).cloned());
                    // One the controller removed from the ISR counts for the HW again
                    // only while eligible (`maybeIncrementLeaderHW`).
                    let state =
                        kept.unwrap_or_else(|| ReplicaState::reset(meta.isr.contains(b), now_ms));
                    (*b, state)
                })
                .collect()
        } else {
            Default::default()
        };
        let fetcher = match (&old, role_changed) {
            (Some(p), false) => p.fetcher.clone(),
            _ => FetcherState {
                in_flight: None,
                resetting: None,
                next_fetch_ms: now_ms,
                failed: false,
            },
        };
        // Metadata at a new partition epoch overrides a pending change
        // (`Partition.makeLeader`); the same registration sent again does not.
        let pending = old
            .as_ref()
            .filter(|p| !role_changed && p.partition_epoch == meta.partition_epoch)
            .and_then(|p| p.pending.clone());
        // `makeLeader`: a partition marked RECOVERING is marked RECOVERED at once.
        let recovering = meta.leader_recovery_state == LeaderRecoveryState::Recovering;
        let leader_recovery_state = if leads {
            LeaderRecoveryState::Recovered
        } else {
            meta.leader_recovery_state
        };
        self.partitions.insert(
            tp.clone(),
            Partition {
                replicas: meta.replicas,
                leader: meta.leader,
                leader_epoch: meta.leader_epoch,
                partition_epoch: meta.partition_epoch,
                pending,
                isr: meta.isr.clone(),
                leader_recovery_state,
                min_insync_replicas: meta.min_insync_replicas,
                remote,
                fetcher,
            },
        );
        if leads && self.next_isr_check_ms == 0 {
            self.next_isr_check_ms = now_ms + ISR_CHECK_INTERVAL_MS;
        }
        // Fifty internal partitions change hands at once; the empty ones are routine.
        let routine = leo == 0 && crate::coordinator::internal_topics::is_internal(&tp.topic);
        if role_changed && replicated && !routine {
            handled
                .events
                .push(BrokerEvent::Replication(ReplicationEvent::RoleChanged {
                    tp: tp.clone(),
                    leader: meta.leader,
                    leader_epoch: meta.leader_epoch,
                    isr: meta.isr,
                    log_end_offset: leo,
                }));
        }
        if leads && recovering && role_changed {
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::LeaderRecovered {
                    tp: tp.clone(),
                    leader_epoch: meta.leader_epoch,
                },
            ));
        }
        if role_changed && !leads {
            // `makeFollower`: requests waiting on this replica as leader fail over.
            self.fail_waiting(tp, Errors::NotLeaderOrFollower, &mut handled);
            self.resign_delayed_txn_writes(tp, &mut handled);
        }
        let was_leader = old.as_ref().is_some_and(|p| p.leader == self.id);
        // A reassignment may leave an internal partition with one replica: its new
        // leader still loads the coordinator.
        if role_changed
            && (replicated
                || cfg!(feature = "topic-admin") && old.as_ref().is_some_and(|p| p.is_replicated()))
            && (leads || was_leader)
            && crate::coordinator::internal_topics::is_internal(&tp.topic)
        {
            self.on_internal_leadership(tp, leads, meta.leader_epoch, now_ms, &mut handled);
        }
        if leads && replicated {
            self.maybe_increment_leader_hw(tp, now_ms, &mut handled);
            self.complete_delayed_delete_records(tp, &mut handled);
        }
        Ok(handled)
    }

    /// Answers every request waiting on `tp` with `error` (leadership moved away).
    pub(super) fn fail_waiting(
        &mut self,
        tp: &TopicPartition,
        error: Errors,
        handled: &mut Handled,
    ) {
        let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed_produces)
            .into_iter()
            .partition(|d| &d.tp == tp);
        self.delayed_produces = kept;
        for d in gone {
            handled
                .deferred
                .push((d.token, Response::produce(tp, error, -1, None)));
        }
        let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.parked_fetches)
            .into_iter()
            .partition(|f| &f.tp == tp);
        self.parked_fetches = kept;
        for f in gone {
            // `DelayedFetch.onComplete` reads again through `Partition.fetchRecords`:
            // a leader epoch that moved on answers FENCED_LEADER_EPOCH before the
            // leadership check (`localLogWithEpochOrThrow`).
            let error = match self.leader_log(tp, f.current_leader_epoch) {
                Err(Errors::FencedLeaderEpoch) => Errors::FencedLeaderEpoch,
                _ => error,
            };
            handled.deferred.push((f.token, fetch_error(tp, error)));
        }
        self.fail_delayed_delete_records(tp, error, handled);
    }

    /// `Partition.maybeIncrementLeaderHW`: the smallest LEO among the leader and the
    /// followers in the ISR (or caught up enough to join it); nothing moves while the
    /// ISR is below `min.insync.replicas` (Kafka ≥ 3.7, KIP-966 part 1).
    pub(super) fn maybe_increment_leader_hw(
        &mut self,
        tp: &TopicPartition,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        let Some(p) = self.partitions.get(tp) else {
            return;
        };
        if p.leader != self.id || !p.is_replicated() {
            return;
        }
        let Some(log) = self.logs.get_mut(tp) else {
            return;
        };
        let leo = log.log_end_offset();
        if p.is_under_min_isr() {
            if leo > log.high_watermark() {
                handled.events.push(BrokerEvent::Replication(
                    ReplicationEvent::HighWatermarkHeld {
                        tp: tp.clone(),
                        high_watermark: log.high_watermark(),
                        log_end_offset: leo,
                        isr: p.isr.clone(),
                        min_insync_replicas: p.effective_min_isr(),
                    },
                ));
            }
            return;
        }
        // `maybeIncrementLeaderHW` (Kafka 4.0): every member of the maximal ISR, and a
        // caught-up replica outside it that may join (`isReplicaIsrEligible`).
        let maximal = p.maximal_isr();
        let registry = &self.registry;
        let new_hw = p
            .remote
            .iter()
            .filter(|(b, r)| {
                maximal.contains(b)
                    || r.is_caught_up(leo, now_ms)
                        && r.log_end_offset() >= 0
                        && registry.isr_eligibility(**b, r.broker_epoch()).is_ok()
            })
            .map(|(_, r)| r.log_end_offset().max(0))
            .fold(leo, i64::min);
        let isr = p.isr.clone();
        if let Some(old) = log.maybe_increment_high_watermark(new_hw) {
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::HighWatermarkAdvanced {
                    tp: tp.clone(),
                    old,
                    new: new_hw,
                    isr,
                },
            ));
            self.complete_delayed_produces(tp, handled);
            self.complete_delayed_txn_writes(tp, handled);
        }
    }

    /// `Partition.appendRecordsToLeader` ends with `maybeIncrementLeaderHW` whatever
    /// wrote the batch: a client, a marker, or a coordinator writing
    /// `__transaction_state` or `__consumer_offsets`. After a request this broker
    /// handled, every replicated partition it leads whose LEO is above its HW gets that
    /// check (a leader alone in its ISR moves its HW at once). Partitions below
    /// `min.insync.replicas` are left to the call sites that say why they hold.
    pub(super) fn maybe_increment_leader_hws(&mut self, now_ms: i64, handled: &mut Handled) {
        let behind: Vec<TopicPartition> = self
            .partitions
            .iter()
            .filter(|(_, p)| p.leader == self.id && p.is_replicated() && !p.is_under_min_isr())
            .filter(|(tp, _)| {
                self.logs
                    .get(tp)
                    .is_some_and(|l| l.log_end_offset() > l.high_watermark())
            })
            .map(|(tp, _)| tp.clone())
            .collect();
        for tp in behind {
            self.maybe_increment_leader_hw(&tp, now_ms, handled);
        }
    }

    /// Fetch from a follower, on the leader (`ReplicaManager.fetchMessages` for a
    /// replica): check the epoch, say where the logs diverge, record the follower's
    /// LEO, maybe grow the ISR and the HW, then answer with the batches after the
    /// follower's LEO — or hold the fetch if there are none.
    pub(super) fn handle_replica_fetch(
        &mut self,
        request: crate::protocol::Request,
        token: u64,
        now_ms: i64,
    ) -> Handled {
        let crate::protocol::Request::ReplicaFetch {
            topic_partition: tp,
            replica_id,
            replica_epoch,
            fetch_offset,
            current_leader_epoch,
            last_fetched_epoch,
            max_bytes,
            log_start_offset,
        } = request
        else {
            return Handled::default();
        };
        // `Partition.fetchRecords` for a follower: the leader epoch first, then
        // leadership (`localLogWithEpochOrThrow`), then the replica
        // (`followerReplicaOrThrow`).
        let log = match self.leader_log(&tp, current_leader_epoch) {
            Ok(log) => log,
            Err(error) => return Handled::reply(fetch_error(&tp, error)),
        };
        let known_replica = self
            .partitions
            .get(&tp)
            .is_some_and(|p| p.remote.contains_key(&replica_id));
        if !known_replica {
            // Epochs agree but the replica is not (yet) in the set, as when a
            // reassignment adds it: UNKNOWN_LEADER_EPOCH makes it retry; a request
            // without an epoch cannot tell whose state is stale.
            let error = if current_leader_epoch >= 0 {
                Errors::UnknownLeaderEpoch
            } else {
                Errors::NotLeaderOrFollower
            };
            return Handled::reply(fetch_error(&tp, error));
        }
        if let Some(epoch) = last_fetched_epoch {
            let (end_epoch, end_offset) = log.end_offset_for_epoch(epoch);
            if end_epoch < epoch || end_offset < fetch_offset {
                return Handled::reply(Response::ReplicaFetch {
                    topic_partition: tp,
                    error: Errors::None,
                    high_watermark: log.high_watermark(),
                    log_start_offset: log.log_start_offset(),
                    diverging_epoch: Some((end_epoch, end_offset)),
                    records: Vec::new(),
                });
            }
        }
        if fetch_offset > log.log_end_offset() {
            return Handled::reply(fetch_error(&tp, Errors::OffsetOutOfRange));
        }
        // `Replica.updateFetchStateOrThrow` (Kafka 4.0, KIP-903): a Fetch from before
        // the follower's latest registration is stale; it updates nothing.
        let registered = self.registry.get(replica_id).map_or(-1, |r| r.epoch);
        if replica_epoch != -1 && registered > replica_epoch {
            let mut handled = Handled::reply(fetch_error(&tp, Errors::NotLeaderOrFollower));
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::StaleFetchRefused {
                    tp,
                    replica: replica_id,
                    fetched_epoch: replica_epoch,
                    registered_epoch: registered,
                },
            ));
            return handled;
        }
        let leo = log.log_end_offset();
        let mut handled = Handled::default();
        if let Some(r) = self
            .partitions
            .get_mut(&tp)
            .and_then(|p| p.remote.get_mut(&replica_id))
        {
            r.on_fetch((fetch_offset, log_start_offset), replica_epoch, leo, now_ms);
        }
        self.maybe_expand_isr(&tp, replica_id, now_ms, &mut handled);
        self.maybe_increment_leader_hw(&tp, now_ms, &mut handled);
        self.complete_delayed_delete_records(&tp, &mut handled);
        if fetch_offset == leo {
            self.parked_fetches.push(ParkedFetch {
                token,
                tp,
                replica_id,
                fetch_offset,
                current_leader_epoch,
                deadline_ms: now_ms + REPLICA_FETCH_WAIT_MAX_MS,
            });
            return handled;
        }
        handled.response = Some(self.replica_fetch_answer(&tp, fetch_offset, max_bytes));
        handled
    }

    /// `Partition.lastOffsetForLeaderEpoch` (Kafka 4.0, from the leader only): the
    /// current leader epoch is checked as a Fetch's (FENCED_LEADER_EPOCH below,
    /// UNKNOWN_LEADER_EPOCH above), then the leader-epoch cache answers.
    pub(super) fn handle_offsets_for_leader_epoch(
        &self,
        tp: TopicPartition,
        current_leader_epoch: i32,
        leader_epoch: i32,
    ) -> Response {
        let answer = |error: Errors, (leader_epoch, end_offset): (i32, i64)| {
            Response::OffsetsForLeaderEpoch {
                topic_partition: tp.clone(),
                error,
                leader_epoch,
                end_offset,
            }
        };
        let Some(log) = self.logs.get(&tp) else {
            return answer(Errors::UnknownTopicOrPartition, (-1, -1));
        };
        let epoch = match self.partitions.get(&tp) {
            Some(p) if p.leader != self.id => {
                return answer(Errors::NotLeaderOrFollower, (-1, -1));
            }
            Some(p) => p.leader_epoch,
            None => log.leader_epoch(),
        };
        if current_leader_epoch >= 0 && current_leader_epoch < epoch {
            return answer(Errors::FencedLeaderEpoch, (-1, -1));
        }
        if current_leader_epoch > epoch {
            return answer(Errors::UnknownLeaderEpoch, (-1, -1));
        }
        answer(Errors::None, log.end_offset_for_epoch(leader_epoch))
    }

    fn replica_fetch_answer(
        &self,
        tp: &TopicPartition,
        fetch_offset: i64,
        max_bytes: i32,
    ) -> Response {
        let Some(log) = self.logs.get(tp) else {
            return fetch_error(tp, Errors::NotLeaderOrFollower);
        };
        let max = usize::try_from(max_bytes).unwrap_or(0).max(1);
        match log.read(&self.fs, fetch_offset, max, FetchIsolation::LogEnd) {
            Ok(data) => Response::ReplicaFetch {
                topic_partition: tp.clone(),
                error: Errors::None,
                high_watermark: data.high_watermark,
                log_start_offset: data.log_start_offset,
                diverging_epoch: None,
                records: data.records,
            },
            Err(error) => fetch_error(tp, error),
        }
    }

    /// `Partition.maybeExpandIsr`: a follower whose LEO reached the HW and the start
    /// of the leader's epoch joins the ISR.
    fn maybe_expand_isr(
        &mut self,
        tp: &TopicPartition,
        replica_id: i32,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        let (Some(p), Some(log)) = (self.partitions.get_mut(tp), self.logs.get(tp)) else {
            return;
        };
        // `canAddReplicaToIsr`: not while a change is in flight.
        if p.isr.contains(&replica_id) || p.pending.is_some() {
            return;
        }
        let Some(r) = p.remote.get(&replica_id) else {
            return;
        };
        let epoch_start = log
            .epochs()
            .iter()
            .find(|(e, _)| *e == p.leader_epoch)
            .map_or(0, |(_, s)| *s);
        if r.log_end_offset() < log.high_watermark() || r.log_end_offset() < epoch_start {
            return;
        }
        let follower_leo = r.log_end_offset();
        // `Partition.isReplicaIsrEligible` (KIP-841, Kafka 3.3+): caught up is not
        // enough; a fenced broker, or a Fetch from an older registration, stays out.
        let refusal = self
            .registry
            .isr_eligibility(replica_id, r.broker_epoch())
            .err();
        let changed = p
            .remote
            .get_mut(&replica_id)
            .is_some_and(|r| r.note_isr_refusal(refusal));
        if let Some(reason) = refusal {
            if changed {
                handled.events.push(BrokerEvent::Replication(
                    ReplicationEvent::IsrExpansionRefused {
                        tp: tp.clone(),
                        replica: replica_id,
                        reason,
                        follower_leo,
                    },
                ));
            }
            return;
        }
        // `Partition.prepareIsrExpand`: the ISR plus the new member, appended (the
        // order Kafka sends in AlterPartition and the controller records).
        let mut isr = p.isr.clone();
        isr.push(replica_id);
        handled
            .events
            .push(BrokerEvent::Replication(ReplicationEvent::IsrExpanded {
                tp: tp.clone(),
                added: replica_id,
                isr: isr.clone(),
                follower_leo,
            }));
        let request = self.propose_isr(tp, isr, now_ms);
        handled.outbound.extend(request);
    }

    /// Records `isr` as the pending change of `tp` and builds its `AlterPartition`
    /// (`Partition.submitAlterPartition`).
    fn propose_isr(&mut self, tp: &TopicPartition, isr: Vec<i32>, now_ms: i64) -> Option<Outbound> {
        let broker_epoch = self.registry.own_epoch();
        let p = self.partitions.get_mut(tp)?;
        p.pending = Some(PendingIsr {
            proposed: isr.clone(),
            sent_ms: now_ms,
            refused: None,
        });
        Some(Outbound::ToController(Request::AlterPartition {
            broker_id: self.id,
            broker_epoch,
            topic_partition: tp.clone(),
            leader_epoch: p.leader_epoch,
            partition_epoch: p.partition_epoch,
            new_isr: isr,
            leader_recovery_state: p.leader_recovery_state,
        }))
    }

    /// The controller's answer to an `AlterPartition` (`handleAlterPartitionUpdate` /
    /// `handleAlterPartitionError`, Kafka 4.0). Committed: the ISR and partition epoch
    /// become the controller's (unless this broker already knows a newer one), and the
    /// HW may move. Refused with INELIGIBLE_REPLICA: the change is dropped (the
    /// controller says it applied nothing). Any other refusal: the maximal ISR stays
    /// until new metadata comes.
    pub fn handle_alter_partition_response(&mut self, response: Response, now_ms: i64) -> Handled {
        let mut handled = Handled::default();
        let Response::AlterPartition {
            topic_partition: tp,
            error,
            leader_id,
            leader_epoch,
            partition_epoch,
            isr,
            leader_recovery_state,
        } = response
        else {
            return handled;
        };
        let Some(p) = self.partitions.get_mut(&tp) else {
            return handled;
        };
        let Some(pending) = p.pending.clone() else {
            return handled;
        };
        if error != Errors::None {
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::AlterPartitionRefused {
                    tp: tp.clone(),
                    proposed: pending.proposed.clone(),
                    error,
                    leader_epoch: p.leader_epoch,
                    partition_epoch: p.partition_epoch,
                },
            ));
            p.pending = match error {
                Errors::IneligibleReplica => None,
                _ => Some(PendingIsr {
                    refused: Some(error),
                    ..pending
                }),
            };
            return handled;
        }
        if partition_epoch < p.partition_epoch || leader_id != self.id {
            return handled;
        }
        p.isr = isr;
        p.partition_epoch = partition_epoch;
        p.leader_epoch = leader_epoch;
        p.leader_recovery_state = leader_recovery_state;
        p.pending = None;
        self.maybe_increment_leader_hw(&tp, now_ms, &mut handled);
        self.complete_delayed_delete_records(&tp, &mut handled);
        handled
    }

    /// AlterPartitions sent and never answered (lost on the way to or from the
    /// controller) go again after the controller channel's timeout: Kafka's
    /// `AlterPartitionManager` retries until it has an answer.
    fn resend_unanswered_alter_partitions(&mut self, now_ms: i64, handled: &mut Handled) {
        let due: Vec<(TopicPartition, Vec<i32>)> = self
            .partitions
            .iter()
            .filter(|(_, p)| p.leader == self.id)
            .filter_map(|(tp, p)| {
                let pending = p.pending.as_ref()?;
                (pending.refused.is_none()
                    && pending
                        .sent_ms
                        .saturating_add(CONTROLLER_REQUEST_TIMEOUT_MS)
                        <= now_ms)
                    .then(|| (tp.clone(), pending.proposed.clone()))
            })
            .collect();
        for (tp, isr) in due {
            let request = self.propose_isr(&tp, isr, now_ms);
            handled.outbound.extend(request);
        }
    }

    /// When an unanswered AlterPartition goes again, if one is out.
    fn next_alter_partition_resend_ms(&self) -> Option<i64> {
        self.partitions
            .values()
            .filter(|p| p.leader == self.id)
            .filter_map(|p| p.pending.as_ref())
            .filter(|pending| pending.refused.is_none())
            .map(|pending| {
                pending
                    .sent_ms
                    .saturating_add(CONTROLLER_REQUEST_TIMEOUT_MS)
            })
            .min()
    }

    /// `Partition.maybeShrinkIsr` for every partition this broker leads.
    fn maybe_shrink_isrs(&mut self, now_ms: i64, handled: &mut Handled) {
        let led: Vec<TopicPartition> = self
            .partitions
            .iter()
            .filter(|(_, p)| p.leader == self.id && p.is_replicated())
            .map(|(tp, _)| tp.clone())
            .collect();
        for tp in led {
            let leo = self.logs.get(&tp).map_or(0, |l| l.log_end_offset());
            let Some(p) = self.partitions.get_mut(&tp) else {
                continue;
            };
            // `canRemoveReplicasFromIsr`: not while a change is in flight.
            if p.pending.is_some() {
                continue;
            }
            let out: Vec<(i32, i64)> = p
                .isr
                .iter()
                .filter(|b| **b != self.id)
                .filter_map(|b| {
                    let r = p.remote.get(b)?;
                    (!r.is_caught_up(leo, now_ms)).then_some((*b, now_ms - r.last_caught_up_ms()))
                })
                .collect();
            if out.is_empty() {
                continue;
            }
            // `prepareIsrShrink`: the leader keeps counting them (the maximal ISR)
            // until the controller commits the smaller ISR.
            let mut isr = p.isr.clone();
            isr.retain(|b| !out.iter().any(|(o, _)| o == b));
            handled
                .events
                .push(BrokerEvent::Replication(ReplicationEvent::IsrShrunk {
                    tp: tp.clone(),
                    removed: out.iter().map(|(b, _)| *b).collect(),
                    isr: isr.clone(),
                    lag_ms: out
                        .iter()
                        .map(|(_, l)| *l)
                        .max()
                        .unwrap_or(REPLICA_LAG_TIME_MAX_MS),
                }));
            let request = self.propose_isr(&tp, isr, now_ms);
            handled.outbound.extend(request);
        }
    }

    /// Everything replication does at `now_ms` without a request: answer held fetches
    /// that have data or expired, time out delayed produces, run the ISR check, and
    /// send followers' fetches.
    pub fn poll_replication(&mut self, now_ms: i64) -> Handled {
        let mut handled = Handled::default();
        if !self.online {
            return handled;
        }
        self.complete_parked_fetches(now_ms, &mut handled);
        self.complete_coordinator_loads(now_ms, &mut handled);
        self.expire_delayed_txn_writes(now_ms, &mut handled);
        self.expire_delayed_delete_records(now_ms, &mut handled);
        let (expired, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.delayed_produces)
            .into_iter()
            .partition(|d| d.deadline_ms <= now_ms);
        self.delayed_produces = kept;
        for d in expired {
            // `DelayedProduce.onExpiration`: REQUEST_TIMED_OUT.
            let error = Errors::RequestTimedOut;
            handled
                .deferred
                .push((d.token, Response::produce(&d.tp, error, -1, None)));
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::DelayedProduceCompleted {
                    tp: d.tp,
                    required_offset: d.required_offset,
                    error,
                },
            ));
        }
        if self.next_isr_check_ms > 0 && now_ms >= self.next_isr_check_ms {
            let behind = (now_ms - self.next_isr_check_ms) / ISR_CHECK_INTERVAL_MS;
            self.next_isr_check_ms += (behind + 1) * ISR_CHECK_INTERVAL_MS;
            self.maybe_shrink_isrs(now_ms, &mut handled);
        }
        self.resend_unanswered_alter_partitions(now_ms, &mut handled);
        self.poll_fetchers(now_ms, &mut handled);
        handled
    }

    /// Held follower fetches: answered when their partition has data past the fetch
    /// offset (or lost its leader), or empty at `replica.fetch.wait.max.ms`.
    pub(super) fn complete_parked_fetches(&mut self, now_ms: i64, handled: &mut Handled) {
        if self.parked_fetches.is_empty() {
            return;
        }
        let parked = std::mem::take(&mut self.parked_fetches);
        for f in parked {
            let leo = self.logs.get(&f.tp).map_or(-1, |l| l.log_end_offset());
            if leo > f.fetch_offset || f.deadline_ms <= now_ms {
                let answer = self.replica_fetch_answer(
                    &f.tp,
                    f.fetch_offset,
                    super::partition::REPLICA_FETCH_MAX_BYTES,
                );
                handled.deferred.push((f.token, answer));
            } else {
                self.parked_fetches.push(f);
            }
        }
    }

    /// The next time replication has something to do on its own, and whether a
    /// client waits on it (a delayed produce, a coordinator load): `run` counts only that as work, so an
    /// idle cluster's fetch loop does not keep it going; `run MS` goes through all.
    pub fn next_replication_ms(&self, now_ms: i64) -> (Option<i64>, Option<i64>) {
        let work = self
            .delayed_produces
            .iter()
            .map(|d| d.deadline_ms)
            .chain(self.delayed_delete_records.iter().map(|d| d.deadline_ms))
            .chain(self.next_txn_write_deadline())
            .chain(self.next_coordinator_load_ms())
            .min();
        let fetches = self.parked_fetches.iter().map(|f| f.deadline_ms);
        let fetchers = self
            .partitions
            .values()
            .filter(|p| p.leader != self.id && p.leader >= 0)
            .map(|p| match p.fetcher.in_flight {
                Some((_, sent)) => sent + super::partition::REPLICA_SOCKET_TIMEOUT_MS,
                None => p.fetcher.next_fetch_ms,
            });
        let isr = (self.next_isr_check_ms > 0).then_some(self.next_isr_check_ms);
        let timers = fetches
            .chain(fetchers)
            .chain(isr)
            .chain(self.next_alter_partition_resend_ms())
            .chain(work)
            .filter(|t| *t > now_ms)
            .min();
        (work, timers)
    }
}

pub(super) fn fetch_error(tp: &TopicPartition, error: Errors) -> Response {
    crate::protocol::error_response(
        &crate::protocol::Request::ReplicaFetch {
            topic_partition: tp.clone(),
            replica_id: -1,
            replica_epoch: -1,
            fetch_offset: -1,
            current_leader_epoch: -1,
            last_fetched_epoch: None,
            max_bytes: 0,
            log_start_offset: -1,
        },
        error,
    )
}

#[cfg(test)]
mod tests {
    use super::PartitionMetadata;
    use crate::broker::Broker;
    use crate::log::{LogConfig, TopicPartition};
    use crate::protocol::errors::Errors;
    use crate::protocol::{LeaderRecoveryState, Request};

    /// Broker 1 holding `t-0` (replicas [1, 2, 3]) with `leader` at leader epoch 3.
    fn broker(leader: i32) -> (Broker, TopicPartition) {
        let tp = TopicPartition::new("t", 0);
        let mut b = Broker::new(1, LogConfig::default());
        b.apply_partition_metadata(&tp, meta(leader, 3), &LogConfig::default(), 0)
            .expect("creates the log");
        (b, tp)
    }

    fn meta(leader: i32, leader_epoch: i32) -> PartitionMetadata {
        PartitionMetadata {
            replicas: vec![1, 2, 3],
            leader,
            leader_epoch,
            partition_epoch: leader_epoch,
            isr: vec![1, 2, 3],
            min_insync_replicas: 1,
            leader_recovery_state: LeaderRecoveryState::Recovered,
        }
    }

    fn fetch(tp: &TopicPartition, replica_id: i32, current_leader_epoch: i32) -> Request {
        Request::ReplicaFetch {
            topic_partition: tp.clone(),
            replica_id,
            replica_epoch: -1,
            fetch_offset: 0,
            current_leader_epoch,
            last_fetched_epoch: None,
            max_bytes: 1024,
            log_start_offset: 0,
        }
    }

    fn error(b: &mut Broker, request: Request) -> Option<Errors> {
        b.handle(request, 1, 10).response.map(|r| r.error())
    }

    // Kafka 4.0 Partition.getLocalLog: checkCurrentLeaderEpoch before requireLeader,
    // so a follower's Fetch sent to a broker that does not lead says first whose
    // epoch is stale; only at the same epoch is it NOT_LEADER_OR_FOLLOWER.
    #[test]
    fn a_follower_fetch_checks_the_epoch_before_leadership() {
        let (mut b, tp) = broker(2);
        assert_eq!(
            error(&mut b, fetch(&tp, 3, 2)),
            Some(Errors::FencedLeaderEpoch)
        );
        assert_eq!(
            error(&mut b, fetch(&tp, 3, 4)),
            Some(Errors::UnknownLeaderEpoch)
        );
        assert_eq!(
            error(&mut b, fetch(&tp, 3, 3)),
            Some(Errors::NotLeaderOrFollower)
        );
    }

    // Kafka 4.0 Partition.followerReplicaOrThrow, after the epoch and leadership
    // checks: a replica the leader does not know at a matching epoch is told
    // UNKNOWN_LEADER_EPOCH (it retries); without an epoch, NOT_LEADER_OR_FOLLOWER.
    #[test]
    fn an_unknown_replica_is_checked_after_the_epoch() {
        let (mut b, tp) = broker(1);
        assert_eq!(
            error(&mut b, fetch(&tp, 4, 2)),
            Some(Errors::FencedLeaderEpoch)
        );
        assert_eq!(
            error(&mut b, fetch(&tp, 4, 3)),
            Some(Errors::UnknownLeaderEpoch)
        );
        assert_eq!(
            error(&mut b, fetch(&tp, 4, -1)),
            Some(Errors::NotLeaderOrFollower)
        );
        // A known replica with nothing new to read is held, not refused.
        assert_eq!(error(&mut b, fetch(&tp, 3, 3)), None);
    }

    // DelayedFetch.onComplete reads again through Partition.fetchRecords: a fetch
    // held at epoch 3 when this broker becomes a follower at epoch 4 is answered
    // FENCED_LEADER_EPOCH, the epoch check coming before the leadership one.
    #[test]
    fn a_held_fetch_at_an_older_epoch_completes_fenced() {
        let (mut b, tp) = broker(1);
        assert_eq!(error(&mut b, fetch(&tp, 3, 3)), None);
        let handled = b
            .apply_partition_metadata(&tp, meta(2, 4), &LogConfig::default(), 20)
            .expect("applies");
        let errors: Vec<Errors> = handled.deferred.iter().map(|(_, r)| r.error()).collect();
        assert_eq!(errors, vec![Errors::FencedLeaderEpoch]);
    }

    /// The follower's Fetch for `t-0` that `poll_replication` sends, if any: its tag.
    fn sent_fetch(b: &mut Broker, now_ms: i64) -> Option<u64> {
        b.poll_replication(now_ms)
            .outbound
            .into_iter()
            .find_map(|o| match o {
                crate::broker::broker::Outbound::ReplicaFetch { tag, .. } => Some(tag),
                _ => None,
            })
    }

    // Kafka 4.0 AbstractFetcherThread.processFetchRequest: FENCED_LEADER_EPOCH for a
    // fetch at the follower's current epoch marks the partition failed (no fetch
    // until new leader metadata, onPartitionFenced); NOT_LEADER_OR_FOLLOWER and
    // UNKNOWN_LEADER_EPOCH only back off (replica.fetch.backoff.ms) and retry.
    #[test]
    fn a_fenced_follower_waits_for_new_metadata_and_others_retry() {
        use crate::broker::partition::REPLICA_FETCH_BACKOFF_MS;
        let answer = |tp: &TopicPartition, error: Errors| super::fetch_error(tp, error);
        for (error, retries) in [
            (Errors::NotLeaderOrFollower, true),
            (Errors::UnknownLeaderEpoch, true),
            (Errors::FencedLeaderEpoch, false),
        ] {
            let (mut b, tp) = broker(2);
            let tag = sent_fetch(&mut b, 0).expect("fetches from its leader");
            b.handle_broker_response(tag, answer(&tp, error), 5);
            let later = REPLICA_FETCH_BACKOFF_MS + 10;
            assert_eq!(sent_fetch(&mut b, later).is_some(), retries, "{error:?}");
            if !retries {
                b.apply_partition_metadata(&tp, meta(2, 4), &LogConfig::default(), later)
                    .expect("applies");
                assert!(sent_fetch(&mut b, later + 1).is_some(), "new epoch fetches");
            }
        }
    }
}
