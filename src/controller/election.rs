//! Leader elections the controller starts itself or is asked for: the changes a
//! fence or unfence makes to every partition, announced to the brokers and the
//! producers; preferred and unclean elections by admin command (`ElectLeaders`) and the
//! automatic leader rebalance (`auto.leader.rebalance.enable`).

use crate::log::TopicPartition;
use crate::metadata::{ChangeRules, LeaderChange, PartitionRegistration};
use crate::protocol::errors::Errors;
use crate::protocol::ElectionType;
use crate::sim::event::EventKind;
use crate::sim::world::World;

/// `leader.imbalance.check.interval.seconds` (300, Kafka's default) in ms: how long
/// after a partition's leader stops being its preferred replica the controller
/// tries to move it back (`auto.leader.rebalance.enable`, on by default).
pub const LEADER_IMBALANCE_CHECK_INTERVAL_MS: i64 = 300_000;
impl World {
    /// `kafka-leader-election.sh --election-type PREFERRED|UNCLEAN` (`ElectLeaders`,
    /// Kafka 4.0 `ReplicationControlManager.electLeaders`): the named partitions, or
    /// with none every partition (then the ones that need no election are left out).
    /// The tool's lines: the partitions elected, those that need no election, and one
    /// error line per failed partition, with the controller's message where it gives
    /// one (an unknown topic or partition).
    pub fn admin_elect_leaders(
        &mut self,
        election: ElectionType,
        partitions: &[TopicPartition],
    ) -> Vec<String> {
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
        let elr = self.config().eligible_leader_replicas;
        let mut changes = Vec::new();
        let mut results = Vec::new();
        for tp in asked {
            let is_alive = |b| alive.contains(&b);
            let result = match self.topics.get_mut(&tp.topic) {
                None => Err((
                    Errors::UnknownTopicOrPartition,
                    format!("No such topic as {}", tp.topic),
                )),
                Some(t) => {
                    let reg = usize::try_from(tp.partition)
                        .ok()
                        .and_then(|p| t.registrations.get_mut(p));
                    match reg {
                        None => Err((
                            Errors::UnknownTopicOrPartition,
                            format!("No such partition as {tp}"),
                        )),
                        Some(r) => {
                            let rules = t.replication.change_rules(r.replicas().len(), elr);
                            match election {
                                ElectionType::Preferred => r.elect_preferred_requested(&is_alive),
                                ElectionType::Unclean => {
                                    r.elect_unclean_requested(&is_alive, rules)
                                }
                            }
                            .map_err(|e| (e, e.message().to_string()))
                        }
                    }
                }
            };
            match result {
                Ok(change) => {
                    changes.push((tp.clone(), change));
                    results.push((tp, Errors::None, String::new()));
                }
                Err((Errors::ElectionNotNeeded, _)) if all => {}
                Err((error, message)) => results.push((tp, error, message)),
            }
        }
        self.announce(changes);
        let names = |want: &dyn Fn(Errors) -> bool| {
            let list: Vec<String> = results
                .iter()
                .filter(|(_, e, _)| want(*e))
                .map(|(tp, ..)| tp.to_string())
                .collect();
            list.join(", ")
        };
        let kind = election.name();
        let mut lines = Vec::new();
        let elected = names(&|e| e == Errors::None);
        if !elected.is_empty() {
            lines.push(format!(
                "Successfully completed leader election ({kind}) for partitions {elected}"
            ));
        }
        let noop = names(&|e| e == Errors::ElectionNotNeeded);
        if !noop.is_empty() {
            lines.push(format!(
                "Valid replica already elected for partitions {noop}"
            ));
        }
        for (tp, error, message) in &results {
            if !matches!(error, Errors::None | Errors::ElectionNotNeeded) {
                lines.push(format!(
                    "Error completing leader election ({kind}) for partition: {tp}: org.apache.kafka.common.errors.{}: {message}",
                    error.exception_name(),
                ));
            }
        }
        lines
    }

    pub(super) fn change_registrations(
        &mut self,
        f: impl Fn(&mut PartitionRegistration, ChangeRules) -> Option<LeaderChange>,
    ) -> Vec<(TopicPartition, LeaderChange)> {
        let mut changes = Vec::new();
        let elr = self.config().eligible_leader_replicas;
        for topic in self.topics.values_mut() {
            for (p, reg) in topic.registrations.iter_mut().enumerate() {
                let rules = topic.replication.change_rules(reg.replicas().len(), elr);
                if let Some(change) = f(reg, rules) {
                    changes.push((TopicPartition::new(topic.name.clone(), p as i32), change));
                }
            }
        }
        changes
    }

    pub(super) fn announce(&mut self, changes: Vec<(TopicPartition, LeaderChange)>) {
        // A metadata update wakes every producer's Sender: a batch waiting out its
        // retry backoff for a partition with a new leader goes at once (KIP-951).
        if !changes.is_empty() {
            let names: Vec<String> = self.producers().keys().cloned().collect();
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
        #[cfg(feature = "topic-admin")]
        self.maybe_schedule_unclean_election();
    }

    /// `maybeScheduleNextBalancePartitionLeaders` (KRaft, Kafka 4.0): once a replicated
    /// partition's leader is not its preferred replica, the controller looks again
    /// `leader.imbalance.check.interval.seconds` later.
    fn maybe_schedule_leader_balance(&mut self) {
        if self.leader_balance_due_ms.is_some() || !self.config().auto_leader_rebalance {
            return;
        }
        let imbalanced = self.topics.values().any(|t| {
            t.registrations
                .iter()
                .any(|r| r.replicas().len() > 1 && !r.has_preferred_leader())
        });
        if imbalanced {
            self.leader_balance_due_ms = Some(
                self.clock_ms()
                    .saturating_add(LEADER_IMBALANCE_CHECK_INTERVAL_MS),
            );
        }
    }

    /// `maybeBalancePartitionLeaders`: every partition whose preferred replica is
    /// alive, unfenced and in the ISR gets it back as leader (`Election.PREFERRED`);
    /// partitions still imbalanced are looked at again one interval later.
    pub(crate) fn run_leader_balance(&mut self) {
        if self
            .leader_balance_due_ms
            .is_none_or(|t| t > self.clock_ms())
        {
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
