//! A partition as the controller records it (`PartitionRegistration`) and the pure
//! changes made to it (`PartitionChangeBuilder`'s role): AlterPartition, fencing and
//! unfencing a broker, leader elections. No world here: the controller's duties
//! (`crate::controller`) call these when a topic is made, a broker stops, starts or
//! shuts down, a leader sends `AlterPartition`, and an admin asks for a preferred
//! election. The changes sit with the registration because they change its private
//! fields, and the world holds the registrations (`TopicInfo::registrations`).

use serde::Serialize;

use crate::protocol::errors::Errors;
use crate::protocol::LeaderRecoveryState;

/// No leader (`LeaderConstants.NO_LEADER`).
pub const NO_LEADER: i32 = -1;

/// One partition as the controller records it (`PartitionRegistration`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionRegistration {
    pub(super) replicas: Vec<i32>,
    pub(super) isr: Vec<i32>,
    /// A reassignment in progress (`addingReplicas`, `removingReplicas`): the
    /// replicas it adds and those it will remove, each sorted (`reassignment.rs`).
    #[cfg(feature = "topic-admin")]
    pub(super) adding: Vec<i32>,
    #[cfg(feature = "topic-admin")]
    pub(super) removing: Vec<i32>,
    /// Eligible leader replicas (KIP-966): replicas that left the ISR while it was
    /// below `min.insync.replicas`, so they hold every record the HW ever passed (the
    /// HW does not move while the ISR is that small). Empty unless ELR is on.
    elr: Vec<i32>,
    /// `LastKnownElr` as Kafka 4.0 uses it (`useLastKnownLeaderInBalancedRecovery`):
    /// the leader the partition had when its ISR emptied, elected when the ELR empties
    /// too. Empty once the partition has a leader again.
    last_known_elr: Vec<i32>,
    pub(super) leader: i32,
    pub(super) leader_epoch: i32,
    /// Bumped by every change to the registration (`PartitionRegistration.merge`):
    /// leader or ISR. A leader's AlterPartition names the partition epoch it knows,
    /// so a change built on an ISR the controller has since changed is refused.
    pub(super) partition_epoch: i32,
    /// RECOVERING after an unclean election (KIP-704) until the leader's
    /// AlterPartition says RECOVERED; meanwhile no other replica joins the ISR.
    leader_recovery_state: LeaderRecoveryState,
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
    pub leader_recovery_state: LeaderRecoveryState,
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
    /// The last known leader (`canElectLastKnownLeader`, KIP-966): ISR and ELR were
    /// both empty, so the controller goes back to the leader the partition had when
    /// its ISR emptied; like an unclean election, it is the ISR alone.
    LastKnownLeader,
    /// From the ELR (KIP-966): the ISR was empty, an eligible leader replica came
    /// back and leads, alone in the ISR; nothing the HW passed is lost.
    Elr,
    /// `Election.PREFERRED` asked for by an admin (`ElectLeaders`,
    /// `kafka-leader-election.sh --election-type PREFERRED`).
    PreferredRequested,
    /// `Election.UNCLEAN` asked for by an admin (`ElectLeaders`,
    /// `kafka-leader-election.sh --election-type UNCLEAN`): an out-of-sync replica
    /// leads although the topic's `unclean.leader.election.enable` may be false.
    UncleanRequested,
}

/// What a change did to a partition, for the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaderChange {
    pub old_leader: i32,
    pub leader: i32,
    pub leader_epoch: i32,
    pub partition_epoch: i32,
    pub isr: Vec<i32>,
    pub elr: Vec<i32>,
    pub election: Option<Election>,
    pub leader_recovery_state: LeaderRecoveryState,
}

/// What a change to a partition needs besides its registration
/// (`PartitionChangeBuilder`'s settings): the topic's `unclean.leader.election.enable`,
/// its effective `min.insync.replicas` (no more than its replicas,
/// `getTopicEffectiveMinIsr`) and the cluster's `eligible.leader.replicas.enable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeRules {
    pub unclean: bool,
    pub min_isr: i32,
    pub elr: bool,
}

impl Default for ChangeRules {
    fn default() -> Self {
        ChangeRules {
            unclean: false,
            min_isr: 1,
            elr: false,
        }
    }
}

impl PartitionRegistration {
    /// A new partition: every replica in sync, the first one leads at epoch 0.
    pub fn new(replicas: Vec<i32>) -> Self {
        PartitionRegistration {
            leader: replicas.first().copied().unwrap_or(NO_LEADER),
            isr: replicas.clone(),
            elr: Vec::new(),
            last_known_elr: Vec::new(),
            #[cfg(feature = "topic-admin")]
            adding: Vec::new(),
            #[cfg(feature = "topic-admin")]
            removing: Vec::new(),
            replicas,
            leader_epoch: 0,
            partition_epoch: 0,
            leader_recovery_state: LeaderRecoveryState::Recovered,
        }
    }

    /// A new partition on a cluster where some brokers are fenced or in controlled
    /// shutdown: only `active` replicas are in the ISR, and the first of them leads
    /// (with none active, every replica, as [`PartitionRegistration::new`]).
    pub fn created(replicas: Vec<i32>, active: &dyn Fn(i32) -> bool) -> Self {
        let mut reg = PartitionRegistration::new(replicas);
        let isr: Vec<i32> = reg
            .replicas
            .iter()
            .copied()
            .filter(|b| active(*b))
            .collect();
        if let Some(leader) = isr.first() {
            reg.leader = *leader;
            reg.isr = isr;
        }
        reg
    }

    /// A registration as a metadata record gives it whole (`PartitionRecord`, replayed
    /// by `metadata::metadata_log`), every field as recorded.
    #[cfg(feature = "metadata-log")]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn replayed(
        replicas: Vec<i32>,
        isr: Vec<i32>,
        elr: Vec<i32>,
        last_known_elr: Vec<i32>,
        leader: i32,
        leader_epoch: i32,
        partition_epoch: i32,
        leader_recovery_state: LeaderRecoveryState,
    ) -> Self {
        PartitionRegistration {
            replicas,
            isr,
            elr,
            last_known_elr,
            leader,
            leader_epoch,
            partition_epoch,
            leader_recovery_state,
            #[cfg(feature = "topic-admin")]
            adding: Vec::new(),
            #[cfg(feature = "topic-admin")]
            removing: Vec::new(),
        }
    }

    pub fn replicas(&self) -> &[i32] {
        &self.replicas
    }

    pub fn isr(&self) -> &[i32] {
        &self.isr
    }

    /// The leader's broker id, or [`NO_LEADER`].
    /// The eligible leader replicas, in assignment order (Kafka keeps them as a set).
    pub fn elr(&self) -> &[i32] {
        &self.elr
    }

    /// The last known leader kept for a recovery (`LastKnownElr`), if any.
    pub fn last_known_elr(&self) -> &[i32] {
        &self.last_known_elr
    }

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

    /// RECOVERING from an unclean election's leader until it reports recovery.
    pub fn leader_recovery_state(&self) -> LeaderRecoveryState {
        self.leader_recovery_state
    }

    /// `ReplicationControlManager.validateAlterPartitionData` (Kafka 4.0, mirror commit
    /// 1eb7644), in Kafka's order: a leader or partition epoch above the controller's
    /// is NOT_CONTROLLER; a lower leader epoch is FENCED_LEADER_EPOCH (the asker was
    /// replaced as leader); an asker that is not the leader, or an ISR that names a
    /// non-replica or leaves the leader out, is INVALID_REQUEST; a lower partition
    /// epoch is INVALID_UPDATE_VERSION (the ISR changed since the leader last heard);
    /// RECOVERING with more than the leader in the ISR, or RECOVERING where the
    /// controller already records RECOVERED, is INVALID_REQUEST (KIP-704); a member
    /// `eligible` refuses is INELIGIBLE_REPLICA. Valid, the ISR becomes the
    /// one sent (a new member appended, as the leader sent it) and the recovery state
    /// the one sent, at the next partition epoch; the leader epoch stays (no bump on a
    /// shrink since metadata 3.6). With ELR on, a shrink below `min.insync.replicas`
    /// moves the members it drops into the ELR, and an ISR back at the minimum clears
    /// it.
    pub fn alter_partition(
        &mut self,
        request: &AlterPartitionData,
        eligible: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
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
        let recovery = request.leader_recovery_state;
        if recovery == LeaderRecoveryState::Recovering
            && (isr.len() > 1 || self.leader_recovery_state == LeaderRecoveryState::Recovered)
        {
            return Err(Errors::InvalidRequest);
        }
        if isr.iter().any(|b| !self.isr.contains(b) && !eligible(*b)) {
            return Err(Errors::IneligibleReplica);
        }
        let elr = self.target_elr(isr, rules, None);
        if *isr == self.isr && elr == self.elr && recovery == self.leader_recovery_state {
            return Ok(false);
        }
        self.isr = isr.clone();
        self.elr = elr;
        self.leader_recovery_state = recovery;
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
            leader_recovery_state: LeaderRecoveryState::Recovered,
        };
        self.alter_partition(&request, &|_| true, ChangeRules::default())
            .unwrap_or(false)
    }

    /// A broker is fenced (it stopped, or lost the controller): it leaves the ISR and,
    /// if it led, a new leader is elected among `alive` brokers
    /// (`ReplicationControlManager.handleBrokerFenced`). Without ELR the last ISR member
    /// stays (Kafka writes no empty ISR then), leaderless; with ELR the ISR may empty.
    pub fn fence_broker(
        &mut self,
        broker: i32,
        alive: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Option<LeaderChange> {
        if !self.replicas.contains(&broker) {
            return None;
        }
        let target: Vec<i32> = self.isr.iter().copied().filter(|b| *b != broker).collect();
        self.build(target, &|b| b != broker && alive(b), rules, None)
    }

    /// A broker is back: a partition without a leader elects one (the back broker may
    /// be the last ISR member, or with ELR an eligible leader replica; with `unclean`,
    /// any alive replica).
    pub fn unfence_broker(
        &mut self,
        alive: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Option<LeaderChange> {
        if self.leader != NO_LEADER {
            return None;
        }
        let target = self.isr.clone();
        self.build(target, alive, rules, None)
    }

    /// A broker registers after an unclean shutdown (KIP-966,
    /// `ReplicationControlManager.handleBrokerUncleanShutdown`): its log may have lost
    /// what it had not flushed, so it leaves the ISR and the ELR and cannot be elected
    /// by this change. Kafka 4.0.0 tells a clean shutdown by the broker epoch the broker
    /// saved at its clean stop (KAFKA-18635; the Oct 2024 trunk of the mirror treated
    /// every new incarnation as unclean). Only with ELR on: without it the change is
    /// empty, as a stopped broker was already out of every ISR but a last member.
    pub fn unclean_shutdown(
        &mut self,
        broker: i32,
        alive: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Option<LeaderChange> {
        if !rules.elr || !(self.isr.contains(&broker) || self.elr.contains(&broker)) {
            return None;
        }
        let target: Vec<i32> = self.isr.iter().copied().filter(|b| *b != broker).collect();
        self.build(target, &|b| b != broker && alive(b), rules, Some(broker))
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

    /// `ReplicationControlManager.electLeader` with `ElectionType.UNCLEAN` (Kafka 4.0,
    /// mirror commit 1eb7644): ELECTION_NOT_NEEDED while the partition has a leader;
    /// otherwise `PartitionChangeBuilder` with `Election.UNCLEAN`, whatever the topic's
    /// `unclean.leader.election.enable`: an alive ISR member (or, with the ISR empty,
    /// ELR member or last known leader) first, and only with none of them the first
    /// alive replica of the assignment, alone in the ISR and RECOVERING (KIP-704).
    /// With no alive replica at all, ELIGIBLE_LEADERS_NOT_AVAILABLE and no change.
    pub fn elect_unclean_requested(
        &mut self,
        alive: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Result<LeaderChange, Errors> {
        if self.leader != NO_LEADER {
            return Err(Errors::ElectionNotNeeded);
        }
        let mut next = self.clone();
        let rules = ChangeRules {
            unclean: true,
            ..rules
        };
        let target = next.isr.clone();
        let mut change = next
            .build(target, alive, rules, None)
            .filter(|c| c.leader != NO_LEADER)
            .ok_or(Errors::EligibleLeadersNotAvailable)?;
        if change.election == Some(Election::Unclean) {
            change.election = Some(Election::UncleanRequested);
        }
        *self = next;
        Ok(change)
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

    /// `PartitionChangeBuilder.maybePopulateTargetElr` (Kafka 4.0): with ELR on and
    /// the target ISR below `min.insync.replicas`, the ELR becomes the old ELR and old
    /// ISR without the target ISR and without a broker that shut down uncleanly; at or
    /// above the minimum (or with ELR off) it is empty.
    fn target_elr(&self, target_isr: &[i32], rules: ChangeRules, unclean: Option<i32>) -> Vec<i32> {
        let size = i32::try_from(target_isr.len()).unwrap_or(i32::MAX);
        if !rules.elr || size >= rules.min_isr {
            return Vec::new();
        }
        self.replicas
            .iter()
            .copied()
            .filter(|b| self.elr.contains(b) || self.isr.contains(b))
            .filter(|b| !target_isr.contains(b) && Some(*b) != unclean)
            .collect()
    }

    /// `PartitionChangeBuilder.build` for a change of ISR with an election
    /// (`electAnyLeader`, `tryElection`, Kafka 4.0): the current leader stays if it is
    /// still valid; else the first replica of the assignment that is in the target ISR
    /// (or, with the ISR empty, in the ELR) and `acceptable`; an ELR member elected
    /// becomes the ISR alone and leaves the ELR. With none and `unclean`, the first
    /// acceptable replica leads alone and the ELR is cleared. The leader epoch rises
    /// with a new leader, the partition epoch with any change. Kafka's last known
    /// leader (`LastKnownElr`) is set when the ISR empties and elected, as an unclean
    /// election, once ISR and ELR are both empty (Kafka 4.0 elects it without asking
    /// whether it is alive: only a broker that registered again can empty the ELR).
    /// Either unclean election marks the partition RECOVERING (`tryElection`, KIP-704,
    /// Kafka 3.2+); any other change leaves the recovery state as it was.
    pub(super) fn build(
        &mut self,
        target_isr: Vec<i32>,
        acceptable: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
        unclean_shutdown: Option<i32>,
    ) -> Option<LeaderChange> {
        let mut elr = self.target_elr(&target_isr, rules, unclean_shutdown);
        let mut isr = target_isr;
        let valid = |b: i32, isr: &[i32], elr: &[i32]| {
            (isr.contains(&b) || (isr.is_empty() && elr.contains(&b))) && acceptable(b)
        };
        let old_leader = self.leader;
        let mut election = None;
        let mut recovery = self.leader_recovery_state;
        if !(old_leader != NO_LEADER && valid(old_leader, &isr, &elr)) {
            let clean = self
                .replicas
                .iter()
                .copied()
                .find(|b| valid(*b, &isr, &elr));
            let unclean = || self.replicas.iter().copied().find(|b| acceptable(*b));
            if let Some(b) = clean {
                if elr.contains(&b) {
                    isr = vec![b];
                    elr.retain(|e| *e != b);
                    election = Some(Election::Elr);
                } else {
                    election = Some(Election::Clean);
                }
                self.leader = b;
            } else if let Some(b) = self
                .last_known_elr
                .first()
                .copied()
                .filter(|_| rules.elr && isr.is_empty() && elr.is_empty())
                .filter(|_| self.last_known_elr.len() == 1)
            {
                isr = vec![b];
                elr.clear();
                election = Some(Election::LastKnownLeader);
                self.leader = b;
                recovery = LeaderRecoveryState::Recovering;
            } else if let Some(b) = unclean().filter(|_| rules.unclean) {
                isr = vec![b];
                elr.clear();
                election = Some(Election::Unclean);
                self.leader = b;
                recovery = LeaderRecoveryState::Recovering;
            } else {
                self.leader = NO_LEADER;
            }
        }
        if isr.is_empty() && !rules.elr {
            isr = self.isr.clone();
        }
        // `maybeUpdateLastKnownLeader`.
        let mut last_known = self.last_known_elr.clone();
        let emptied = rules.elr && isr.is_empty() && !self.isr.is_empty();
        if emptied && old_leader != NO_LEADER && last_known != [old_leader] {
            last_known = vec![old_leader];
        } else if self.leader != NO_LEADER || !rules.elr {
            last_known.clear();
        }
        if old_leader == self.leader
            && isr == self.isr
            && elr == self.elr
            && last_known == self.last_known_elr
            && recovery == self.leader_recovery_state
        {
            return None;
        }
        self.leader_recovery_state = recovery;
        self.isr = isr;
        self.elr = elr;
        self.last_known_elr = last_known;
        if old_leader != self.leader {
            self.leader_epoch += 1;
        }
        self.partition_epoch += 1;
        Some(self.change(old_leader, election))
    }

    pub(super) fn change(&self, old_leader: i32, election: Option<Election>) -> LeaderChange {
        LeaderChange {
            old_leader,
            leader: self.leader,
            leader_epoch: self.leader_epoch,
            partition_epoch: self.partition_epoch,
            isr: self.isr.clone(),
            elr: self.elr.clone(),
            election,
            leader_recovery_state: self.leader_recovery_state,
        }
    }
}
