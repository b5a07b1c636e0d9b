//! AlterPartitionReassignments carried out (Kafka 4.0, mirror commit 1eb7644:
//! `ReplicationControlManager.alterPartitionReassignments` and
//! `listPartitionReassignments`): the target checked, each partition's replicas
//! changed by the pure steps of `crate::metadata`'s `partition_reassignment`, the
//! brokers told, the removed replicas stopped and deleted.
//!
//! Feature `topic-admin` (the CLI and the native tests, not the web pages).

use crate::controller::topic_changes::{assignment_error, unknown_topic};
use crate::log::TopicPartition;
use crate::metadata::{LeaderChange, RevertError};
use crate::protocol::errors::Errors;
use crate::sim::error::{ReplicaAssignmentError, SimError, SimErrorKind};
use crate::sim::event::EventKind;
use crate::sim::world::World;

impl World {
    /// AlterPartitionReassignments for one partition (`alterPartitionReassignment`):
    /// an unknown topic or partition is UNKNOWN_TOPIC_OR_PARTITION; a target list is
    /// checked as a manual assignment (`validateManualPartitionAssignment`: not
    /// empty, registered brokers, each once; a fenced broker is accepted), none
    /// cancels.
    pub(crate) fn alter_partition_reassignment(
        &mut self,
        tp: &TopicPartition,
        target: Option<&[i32]>,
    ) -> Result<Vec<String>, SimError> {
        let topic = self.topics.get(&tp.topic).ok_or_else(|| {
            SimError::from(SimErrorKind::ReassignUnknown {
                topic: tp.topic.clone(),
                partition: None,
            })
        })?;
        let before = usize::try_from(tp.partition)
            .ok()
            .and_then(|p| topic.registrations.get(p))
            .cloned()
            .ok_or_else(|| {
                SimError::from(SimErrorKind::ReassignUnknown {
                    topic: tp.topic.clone(),
                    partition: Some(tp.partition),
                })
            })?;
        if let Some(target) = target {
            self.validate_manual_assignment(target, None)?;
        }
        let active = self.active_brokers();
        let elr = self.config().eligible_leader_replicas;
        let rules = self
            .topics
            .get(&tp.topic)
            .map(|t| t.replication.change_rules(before.replicas().len(), elr))
            .unwrap_or_default();
        // The change is made on a copy: a refused one leaves nothing behind.
        let mut after = before.clone();
        let acceptable = |b: i32| active.contains(&b);
        let change = match target {
            Some(target) => after.reassign(target, &acceptable, rules),
            None => after
                .cancel_reassignment(&acceptable, rules)
                .map_err(|e| match e {
                    RevertError::NoReassignment => {
                        SimError::from(SimErrorKind::NoReassignmentInProgress)
                    }
                    RevertError::Unclean => {
                        assignment_error(ReplicaAssignmentError::RevertUnclean {
                            topic: tp.topic.clone(),
                            partition: tp.partition,
                        })
                    }
                })?,
        };
        if change.is_some() && before.replicas().len() == 1 {
            // A single-replica partition's leader has kept no replication state: it
            // learns its registration first, so gaining followers changes no role.
            self.propagate_partition(tp);
        }
        let Some(reg) = self
            .topics
            .get_mut(&tp.topic)
            .and_then(|t| t.registrations.get_mut(usize::try_from(tp.partition).ok()?))
        else {
            return Err(unknown_topic(&tp.topic));
        };
        *reg = after.clone();
        let removed: Vec<i32> = before
            .replicas()
            .iter()
            .copied()
            .filter(|b| !after.replicas().contains(b))
            .collect();
        if target.is_none() {
            self.emit(EventKind::ReassignmentCancelled {
                tp: tp.clone(),
                replicas: after.replicas().to_vec(),
                removed: removed.clone(),
            });
        } else if after.is_reassigning() {
            self.emit(EventKind::ReassignmentStarted {
                tp: tp.clone(),
                replicas: after.replicas().to_vec(),
                adding: after.adding_replicas().to_vec(),
                removing: after.removing_replicas().to_vec(),
            });
        } else if change.is_some() {
            self.emit(EventKind::ReassignmentCompleted {
                tp: tp.clone(),
                replicas: after.replicas().to_vec(),
                removed: removed.clone(),
            });
        }
        if let Some(change) = change {
            self.apply_assignment_change(tp, change, &removed);
        }
        Ok(vec![])
    }

    /// After an AlterPartition the controller accepted: completes a reassignment
    /// whose target replicas are all in the new ISR. Returns whether the leader
    /// moved (the asker then hears NEW_LEADER_ELECTED).
    pub(super) fn maybe_complete_reassignment(&mut self, tp: &TopicPartition) -> Option<bool> {
        let active = self.active_brokers();
        let elr = self.config().eligible_leader_replicas;
        let topic = self.topics.get_mut(&tp.topic)?;
        let reg = topic
            .registrations
            .get_mut(usize::try_from(tp.partition).ok()?)?;
        let rules = topic.replication.change_rules(reg.replicas().len(), elr);
        let (change, removed) =
            reg.complete_reassignment_if_needed(&|b| active.contains(&b), rules)?;
        let replicas = reg.replicas().to_vec();
        let moved = change.leader != change.old_leader;
        self.emit(EventKind::ReassignmentCompleted {
            tp: tp.clone(),
            replicas,
            removed: removed.clone(),
        });
        self.apply_assignment_change(tp, change, &removed);
        Some(moved)
    }

    /// The brokers replay the change: the replicas' brokers get the new registration
    /// (a new one creates its replica and starts fetching), and the brokers `removed`
    /// stop and delete theirs.
    fn apply_assignment_change(
        &mut self,
        tp: &TopicPartition,
        change: LeaderChange,
        removed: &[i32],
    ) {
        if self
            .registration(tp)
            .is_some_and(|r| r.replicas().len() > 1)
        {
            self.replicated = true;
        }
        self.announce(vec![(tp.clone(), change)]);
        let now = self.clock_ms();
        for id in removed {
            let Some(broker) = self.brokers.get_mut(id) else {
                continue;
            };
            let mut handled = crate::broker::broker::Handled::default();
            broker.remove_replica(tp, now, &mut handled);
            self.apply_handled(*id, None, handled);
        }
    }

    /// ListPartitionReassignments, as `kafka-reassign-partitions.sh --list` prints
    /// it: every partition with a reassignment in progress (or those of `partitions`
    /// that have one), its replicas, the ones being added and those being removed.
    pub(crate) fn list_partition_reassignments(
        &self,
        partitions: &[TopicPartition],
    ) -> Vec<String> {
        let join = |l: &[i32]| {
            l.iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut lines = Vec::new();
        for topic in self.topics.values() {
            for (p, reg) in topic.registrations.iter().enumerate() {
                let tp = TopicPartition::new(topic.name.clone(), p as i32);
                if !reg.is_reassigning() || !(partitions.is_empty() || partitions.contains(&tp)) {
                    continue;
                }
                let mut line = format!("{tp}: replicas: {}.", join(reg.replicas()));
                if !reg.adding_replicas().is_empty() {
                    line.push_str(&format!(" adding: {}.", join(reg.adding_replicas())));
                }
                if !reg.removing_replicas().is_empty() {
                    line.push_str(&format!(" removing: {}.", join(reg.removing_replicas())));
                }
                lines.push(line);
            }
        }
        if lines.is_empty() {
            return vec!["No partition reassignments found.".to_string()];
        }
        lines.insert(0, "Current partition reassignments:".to_string());
        lines
    }
}

/// The error an AlterPartition that completed a reassignment and moved the leader
/// answers (`NEW_LEADER_ELECTED`, AlterPartition v2+): the state changed, and the
/// asker must read the new metadata.
pub(super) const NEW_LEADER_ELECTED: Errors = Errors::NewLeaderElected;
