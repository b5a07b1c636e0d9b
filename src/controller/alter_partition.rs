//! The controller's side of `AlterPartition`: a leader asks to shrink or expand an
//! ISR; the controller checks the broker epoch and the partition's epochs and, when
//! the change is committed, tells every replica before it answers.

use crate::log::TopicPartition;
use crate::metadata::AlterPartitionData;
use crate::protocol::errors::Errors;
use crate::protocol::{LeaderRecoveryState, Request, Response};
use crate::sim::world::World;

impl World {
    /// The controller answers a leader's `AlterPartition` (`ReplicationControlManager
    /// .alterPartition`, Kafka 4.0): the broker epoch must be the registered one
    /// (STALE_BROKER_EPOCH), the partition must exist, then
    /// [`PartitionRegistration::alter_partition`] validates; a new member must be an
    /// active broker (running, unfenced, not shutting down). A committed change
    /// reaches every replica's broker as metadata before the answer travels back.
    pub(crate) fn controller_alter_partition(&mut self, request: Request) -> Response {
        let Request::AlterPartition {
            broker_id,
            broker_epoch,
            topic_partition: tp,
            leader_epoch,
            partition_epoch,
            new_isr,
            leader_recovery_state,
        } = request
        else {
            return Response::AlterPartition {
                topic_partition: TopicPartition::new("", 0),
                error: Errors::InvalidRequest,
                leader_id: -1,
                leader_epoch: -1,
                partition_epoch: -1,
                isr: Vec::new(),
                leader_recovery_state: LeaderRecoveryState::Recovered,
            };
        };
        let refuse = |error: Errors| Response::AlterPartition {
            topic_partition: tp.clone(),
            error,
            leader_id: -1,
            leader_epoch: -1,
            partition_epoch: -1,
            isr: Vec::new(),
            leader_recovery_state: LeaderRecoveryState::Recovered,
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
            leader_recovery_state,
        };
        let elr = self.config().eligible_leader_replicas;
        let result = self.topics.get_mut(&tp.topic).and_then(|t| {
            let r = t
                .registrations
                .get_mut(usize::try_from(tp.partition).ok()?)?;
            let rules = t.replication.change_rules(r.replicas().len(), elr);
            Some(r.alter_partition(&data, &|b| active.contains(&b), rules))
        });
        match result {
            None => refuse(Errors::UnknownTopicOrPartition),
            Some(Err(error)) => refuse(error),
            Some(Ok(changed)) => {
                #[cfg(feature = "topic-admin")]
                if changed {
                    // The ISR this change commits may complete a reassignment
                    // (`completeReassignmentIfNeeded`, in the same change).
                    match self.maybe_complete_reassignment(&tp) {
                        Some(true) => return refuse(super::reassignment::NEW_LEADER_ELECTED),
                        Some(false) => return self.alter_partition_answer(&tp),
                        None => {}
                    }
                }
                if changed {
                    self.propagate_partition(&tp);
                }
                self.alter_partition_answer(&tp)
            }
        }
    }

    /// The answer to an accepted AlterPartition: the partition as the controller now
    /// records it.
    fn alter_partition_answer(&self, tp: &TopicPartition) -> Response {
        match self.registration(tp) {
            None => Response::AlterPartition {
                topic_partition: tp.clone(),
                error: Errors::UnknownTopicOrPartition,
                leader_id: -1,
                leader_epoch: -1,
                partition_epoch: -1,
                isr: Vec::new(),
                leader_recovery_state: LeaderRecoveryState::Recovered,
            },
            Some(reg) => Response::AlterPartition {
                topic_partition: tp.clone(),
                error: Errors::None,
                leader_id: reg.leader(),
                leader_epoch: reg.leader_epoch(),
                partition_epoch: reg.partition_epoch(),
                isr: reg.isr().to_vec(),
                leader_recovery_state: reg.leader_recovery_state(),
            },
        }
    }
}
