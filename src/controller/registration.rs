//! A partition as the controller records it (`PartitionRegistration`) and the pure
//! changes made to it (`PartitionChangeBuilder`'s role): AlterPartition, fencing and
//! unfencing a broker, leader elections. No world here: the other files of this
//! module call these when a topic is made, a broker stops, starts or shuts down, a
//! leader sends `AlterPartition`, and an admin asks for a preferred election.

use serde::Serialize;

use crate::protocol::errors::Errors;

/// No leader (`LeaderConstants.NO_LEADER`).
pub const NO_LEADER: i32 = -1;

/// One partition as the controller records it (`PartitionRegistration`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionRegistration {
    replicas: Vec<i32>,
    isr: Vec<i32>,
    leader: i32,
    leader_epoch: i32,
    /// Bumped by every change to the registration (`PartitionRegistration.merge`):
    /// leader or ISR. A leader's AlterPartition names the partition epoch it knows,
    /// so a change built on an ISR the controller has since changed is refused.
    partition_epoch: i32,
}

/// What the leader asks in `AlterPartition` for one partition
/// (`AlterPartitionRequestData.PartitionData`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AlterPartitionData {
    /// The broker asking, and the broker epoch it registered with.
    pub broker: i32,
    pub broker_epoch: i64,
    pub leader_epoch: i32,
    pub partition_epoch: i32,
    pub new_isr: Vec<i32>,
}

/// How a new leader was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Election {
    /// From the ISR: nothing acknowledged with acks=all is lost.
    Clean,
    /// `unclean.leader.election.enable`: an out-of-sync replica leads; records the
    /// old ISR had and it lacks are gone.
    Unclean,
    /// `Election.PREFERRED`: leadership goes back to the first replica of the
    /// assignment, which is alive and in the ISR (automatic leader rebalance).
    Preferred,
    /// `Election.PREFERRED` asked for by an admin (`ElectLeaders`,
    /// `kafka-leader-election.sh --election-type PREFERRED`).
    PreferredRequested,
}

/// What a change did to a partition, for the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaderChange {
    pub old_leader: i32,
    pub leader: i32,
    pub leader_epoch: i32,
    pub partition_epoch: i32,
    pub isr: Vec<i32>,
    pub election: Option<Election>,
}

impl PartitionRegistration {
    /// A new partition: every replica in sync, the first one leads at epoch 0.
    pub fn new(replicas: Vec<i32>) -> Self {
        PartitionRegistration {
            leader: replicas.first().copied().unwrap_or(NO_LEADER),
            isr: replicas.clone(),
            replicas,
            leader_epoch: 0,
            partition_epoch: 0,
        }
    }

    pub fn replicas(&self) -> &[i32] {
        &self.replicas
    }

    pub fn isr(&self) -> &[i32] {
        &self.isr
    }

    /// The leader's broker id, or [`NO_LEADER`].
    pub fn leader(&self) -> i32 {
        self.leader
    }

    pub fn leader_epoch(&self) -> i32 {
        self.leader_epoch
    }

    /// The partition epoch: bumped by every change, leader or ISR.
    pub fn partition_epoch(&self) -> i32 {
        self.partition_epoch
    }

    /// `ReplicationControlManager.validateAlterPartitionData` (Kafka 4.0, mirror commit
    /// 1eb7644), in Kafka's order: a leader or partition epoch above the controller's
    /// is NOT_CONTROLLER; a lower leader epoch is FENCED_LEADER_EPOCH (the asker was
    /// replaced as leader); an asker that is not the leader, or an ISR that names a
    /// non-replica or leaves the leader out, is INVALID_REQUEST; a lower partition
    /// epoch is INVALID_UPDATE_VERSION (the ISR changed since the leader last heard);
    /// a member `eligible` refuses is INELIGIBLE_REPLICA. Valid, the ISR becomes the
    /// one sent (a new member appended, as the leader sent it) at the next partition
    /// epoch; the leader epoch stays (no bump on a shrink since metadata 3.6).
    pub fn alter_partition(
        &mut self,
        request: &AlterPartitionData,
        eligible: &dyn Fn(i32) -> bool,
    ) -> Result<bool, Errors> {
        if request.leader_epoch > self.leader_epoch
            || request.partition_epoch > self.partition_epoch
        {
            return Err(Errors::NotController);
        }
        if request.leader_epoch < self.leader_epoch {
            return Err(Errors::FencedLeaderEpoch);
        }
        if request.broker != self.leader {
            return Err(Errors::InvalidRequest);
        }
        if request.partition_epoch < self.partition_epoch {
            return Err(Errors::InvalidUpdateVersion);
        }
        let isr = &request.new_isr;
        let duplicate = isr.iter().enumerate().any(|(i, b)| isr[..i].contains(b));
        if isr.is_empty()
            || duplicate
            || !isr.iter().all(|b| self.replicas.contains(b))
            || !isr.contains(&self.leader)
        {
            return Err(Errors::InvalidRequest);
        }
        if isr.iter().any(|b| !self.isr.contains(b) && !eligible(*b)) {
            return Err(Errors::IneligibleReplica);
        }
        if *isr == self.isr {
            return Ok(false);
        }
        self.isr = isr.clone();
        self.partition_epoch += 1;
        Ok(true)
    }

    /// An ISR change the controller applies for a leader (tests and setups): the
    /// leader's AlterPartition at the current epochs.
    pub fn alter_isr(&mut self, leader_epoch: i32, isr: &[i32]) -> bool {
        let request = AlterPartitionData {
            broker: self.leader,
            broker_epoch: -1,
            leader_epoch,
            partition_epoch: self.partition_epoch,
            new_isr: isr.to_vec(),
        };
        self.alter_partition(&request, &|_| true).unwrap_or(false)
    }

    /// A broker is fenced (it stopped, or lost the controller): it leaves the ISR
    /// unless it is the last member, and if it led, a new leader is elected from the
    /// ISR among `alive` brokers (or, with `unclean`, any alive replica).
    pub fn fence_broker(
        &mut self,
        broker: i32,
        alive: &dyn Fn(i32) -> bool,
        unclean: bool,
    ) -> Option<LeaderChange> {
        if !self.replicas.contains(&broker) {
            return None;
        }
        let old_leader = self.leader;
        let old_isr = self.isr.clone();
        if self.isr.len() > 1 {
            self.isr.retain(|b| *b != broker);
        }
        if self.leader == broker {
            self.leader = NO_LEADER;
        }
        let mut election = None;
        if self.leader == NO_LEADER {
            election = self.elect(alive, unclean);
        }
        if old_leader == self.leader && old_isr == self.isr {
            return None;
        }
        if old_leader != self.leader {
            self.leader_epoch += 1;
        }
        self.partition_epoch += 1;
        Some(self.change(old_leader, election))
    }

    /// A broker is back: a partition without a leader elects one (the back broker may
    /// be the last ISR member; with `unclean`, any alive replica).
    pub fn unfence_broker(
        &mut self,
        alive: &dyn Fn(i32) -> bool,
        unclean: bool,
    ) -> Option<LeaderChange> {
        if self.leader != NO_LEADER {
            return None;
        }
        let election = self.elect(alive, unclean)?;
        self.leader_epoch += 1;
        self.partition_epoch += 1;
        Some(self.change(NO_LEADER, Some(election)))
    }

    /// `hasPreferredLeader`: the leader is the first replica of the assignment.
    pub fn has_preferred_leader(&self) -> bool {
        self.replicas.first() == Some(&self.leader)
    }

    /// `PartitionChangeBuilder.electPreferredLeader` (Kafka 4.0): the preferred
    /// replica leads, at a new epoch, if it is in the ISR and `alive` (unfenced);
    /// otherwise nothing changes.
    pub fn elect_preferred(&mut self, alive: &dyn Fn(i32) -> bool) -> Option<LeaderChange> {
        self.move_to_preferred(alive, Election::Preferred)
    }

    /// `ReplicationControlManager.electLeader` with `ElectionType.PREFERRED` (Kafka
    /// 4.0): ELECTION_NOT_NEEDED when the preferred replica already leads,
    /// PREFERRED_LEADER_NOT_AVAILABLE when it is not alive or not in the ISR.
    pub fn elect_preferred_requested(
        &mut self,
        alive: &dyn Fn(i32) -> bool,
    ) -> Result<LeaderChange, Errors> {
        if self.has_preferred_leader() {
            return Err(Errors::ElectionNotNeeded);
        }
        self.move_to_preferred(alive, Election::PreferredRequested)
            .ok_or(Errors::PreferredLeaderNotAvailable)
    }

    fn move_to_preferred(
        &mut self,
        alive: &dyn Fn(i32) -> bool,
        election: Election,
    ) -> Option<LeaderChange> {
        let preferred = *self.replicas.first()?;
        if preferred == self.leader || !self.isr.contains(&preferred) || !alive(preferred) {
            return None;
        }
        let old = std::mem::replace(&mut self.leader, preferred);
        self.leader_epoch += 1;
        self.partition_epoch += 1;
        Some(self.change(old, Some(election)))
    }

    /// `PartitionChangeBuilder.electLeader`: the first alive ISR member in assignment
    /// order; else, if allowed, the first alive replica, which then is the whole ISR.
    fn elect(&mut self, alive: &dyn Fn(i32) -> bool, unclean: bool) -> Option<Election> {
        if let Some(b) = self
            .replicas
            .iter()
            .copied()
            .find(|b| self.isr.contains(b) && alive(*b))
        {
            self.leader = b;
            return Some(Election::Clean);
        }
        if unclean {
            if let Some(b) = self.replicas.iter().copied().find(|b| alive(*b)) {
                self.leader = b;
                self.isr = vec![b];
                return Some(Election::Unclean);
            }
        }
        None
    }

    fn change(&self, old_leader: i32, election: Option<Election>) -> LeaderChange {
        LeaderChange {
            old_leader,
            leader: self.leader,
            leader_epoch: self.leader_epoch,
            partition_epoch: self.partition_epoch,
            isr: self.isr.clone(),
            election,
        }
    }
}
