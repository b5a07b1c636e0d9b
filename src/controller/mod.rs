//! The controller's view of each partition (KRaft's role, simplified: no Raft log of
//! its own, decisions are applied at once): where the replicas live, who leads, at
//! which leader epoch, and who is in sync. Pure functions over a
//! [`PartitionRegistration`]; the world calls them when a topic is made, a broker stops
//! or starts, and a leader reports an ISR change (`AlterPartition`).
//!
//! Follows Kafka 4.0 (mirror commit 1eb7644): `StripedReplicaPlacer` (simplified to
//! one rack: replica `i` of partition `p` on broker `(p + i) mod n`),
//! `PartitionChangeBuilder.electLeader` (the first alive replica of the assignment
//! that is in the ISR; with `unclean.leader.election.enable`, else the first alive
//! replica), and the rule that fencing a broker removes it from every ISR but never
//! empties one (the last member stays, with no leader). ELR (KIP-966) is not modelled.

use serde::Serialize;

/// No leader (`LeaderConstants.NO_LEADER`).
pub const NO_LEADER: i32 = -1;

/// One partition as the controller records it (`PartitionRegistration`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionRegistration {
    replicas: Vec<i32>,
    isr: Vec<i32>,
    leader: i32,
    leader_epoch: i32,
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
}

/// What a change did to a partition, for the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaderChange {
    pub old_leader: i32,
    pub leader: i32,
    pub leader_epoch: i32,
    pub isr: Vec<i32>,
    pub election: Option<Election>,
}

/// `broker.session.timeout.ms` (Kafka's default): a broker that sent no heartbeat for
/// this long is fenced by the controller.
pub const BROKER_SESSION_TIMEOUT_MS: i64 = 9_000;

/// `leader.imbalance.check.interval.seconds` (300, Kafka's default) in ms: how long
/// after a partition's leader stops being its preferred replica the controller
/// tries to move it back (`auto.leader.rebalance.enable`, on by default).
pub const LEADER_IMBALANCE_CHECK_INTERVAL_MS: i64 = 300_000;

/// `StripedReplicaPlacer` on one rack: partition `p`'s replicas start at broker
/// `p mod n` and go round the brokers (ids `1..=n`); the first is the preferred leader.
pub fn place_replicas(partition: i32, replication_factor: i32, brokers: i32) -> Vec<i32> {
    let n = brokers.max(1);
    (0..replication_factor.clamp(1, n))
        .map(|i| (partition + i).rem_euclid(n) + 1)
        .collect()
}

impl PartitionRegistration {
    /// A new partition: every replica in sync, the first one leads at epoch 0.
    pub fn new(replicas: Vec<i32>) -> Self {
        PartitionRegistration {
            leader: replicas.first().copied().unwrap_or(NO_LEADER),
            isr: replicas.clone(),
            replicas,
            leader_epoch: 0,
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

    /// `AlterPartition` from the leader at the current epoch: the new ISR (members
    /// must be replicas and include the leader). Returns whether it changed.
    pub fn alter_isr(&mut self, leader_epoch: i32, isr: &[i32]) -> bool {
        let valid = leader_epoch == self.leader_epoch
            && isr.contains(&self.leader)
            && isr.iter().all(|b| self.replicas.contains(b));
        if !valid || isr == self.isr.as_slice() {
            return false;
        }
        // The order the leader sent (members that stay keep their places; a new one
        // is appended), as KRaft's PartitionChangeBuilder records it.
        self.isr = isr.to_vec();
        true
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
        let preferred = *self.replicas.first()?;
        if preferred == self.leader || !self.isr.contains(&preferred) || !alive(preferred) {
            return None;
        }
        let old = std::mem::replace(&mut self.leader, preferred);
        self.leader_epoch += 1;
        Some(self.change(old, Some(Election::Preferred)))
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
            isr: self.isr.clone(),
            election,
        }
    }
}

#[cfg(test)]
mod tests;

mod producer_ids;
pub use producer_ids::{ProducerIdControlManager, PRODUCER_ID_BLOCK_SIZE};
