//! Partition reassignment's pure steps on one registration, as Kafka 4.0's controller
//! takes them (mirror commit 1eb7644: `PartitionReassignmentReplicas`,
//! `PartitionReassignmentRevert`, `PartitionChangeBuilder.completeReassignmentIfNeeded`);
//! the controller's `reassignment` duty (`crate::controller`) carries them out
//! (`ReplicationControlManager.alterPartitionReassignments`).
//!
//! A reassignment goes in three stages. First the replicas become the target followed
//! by the current replicas it drops (`removing`), and the target's new brokers
//! (`adding`) create the replica and fetch from the leader, from its log start. Then
//! the leader's AlterPartition adds each caught-up one to the ISR. The change that
//! puts the last target replica in the ISR also completes the reassignment: the
//! `removing` replicas leave the replicas and the ISR (their brokers stop and delete
//! the replica), a removed leader is replaced by the first target replica in the ISR,
//! and the leader epoch rises whenever a replica left. A target the ISR already holds
//! (a reordering, a shrink) completes at once. A cancel puts back the replicas from
//! before, keeping what the ISR holds of them.
//!
//! Feature `topic-admin` (the CLI and the native tests, not the web pages).

use super::partition_registration::{ChangeRules, LeaderChange, PartitionRegistration};

/// Why a cancel was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RevertError {
    /// NO_REASSIGNMENT_IN_PROGRESS.
    NoReassignment,
    /// Only replicas being added are in the ISR, and the topic refuses an unclean
    /// election.
    Unclean,
}

/// `a` without the members of `b`, sorted (Kafka computes them in a `TreeSet`).
fn sorted_difference(a: &[i32], b: &[i32]) -> Vec<i32> {
    let mut out: Vec<i32> = a.iter().copied().filter(|x| !b.contains(x)).collect();
    crate::util::ordered::sort_by(&mut out, |x, y| x.cmp(y));
    out.dedup();
    out
}

impl PartitionRegistration {
    /// The replicas a reassignment in progress adds (`addingReplicas`).
    pub fn adding_replicas(&self) -> &[i32] {
        &self.adding
    }

    /// The replicas a reassignment in progress removes (`removingReplicas`).
    pub fn removing_replicas(&self) -> &[i32] {
        &self.removing
    }

    /// `isReassignmentInProgress`.
    pub fn is_reassigning(&self) -> bool {
        !self.adding.is_empty() || !self.removing.is_empty()
    }

    /// `changePartitionReassignment` (the target was validated): the replicas become
    /// the target followed by the current replicas it drops
    /// (`PartitionReassignmentReplicas`), and the change is built as any other, so a
    /// target already in the ISR completes at once. `acceptable`: may lead.
    pub fn reassign(
        &mut self,
        target: &[i32],
        acceptable: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Option<LeaderChange> {
        let removing = sorted_difference(&self.replicas, target);
        let adding = sorted_difference(target, &self.replicas);
        let mut replicas = target.to_vec();
        replicas.extend(removing.iter().copied());
        let isr = self.isr.clone();
        self.change_assignment(replicas, adding, removing, isr, acceptable, rules)
    }

    /// `cancelPartitionReassignment` with `PartitionReassignmentRevert`: the replicas
    /// from before the reassignment (the current ones without those being added),
    /// the ISR without them too; if that empties the ISR, the first replica left is
    /// put in it, which is an unclean election and needs the topic's
    /// `unclean.leader.election.enable`.
    pub fn cancel_reassignment(
        &mut self,
        acceptable: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Result<Option<LeaderChange>, RevertError> {
        if !self.is_reassigning() {
            return Err(RevertError::NoReassignment);
        }
        let replicas: Vec<i32> = self
            .replicas
            .iter()
            .copied()
            .filter(|b| !self.adding.contains(b))
            .collect();
        let mut isr: Vec<i32> = self
            .isr
            .iter()
            .copied()
            .filter(|b| !self.adding.contains(b))
            .collect();
        if isr.is_empty() {
            let first = *replicas.first().ok_or(RevertError::Unclean)?;
            if !rules.unclean {
                return Err(RevertError::Unclean);
            }
            isr.push(first);
        }
        Ok(self.change_assignment(replicas, Vec::new(), Vec::new(), isr, acceptable, rules))
    }

    /// The last stage, after an AlterPartition the controller accepted: when the new
    /// ISR holds every target replica, the reassignment completes within that same
    /// change (one partition epoch). Returns the change and the replicas removed.
    pub fn complete_reassignment_if_needed(
        &mut self,
        acceptable: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Option<(LeaderChange, Vec<i32>)> {
        if !self.is_reassigning() {
            return None;
        }
        let before = self.replicas.clone();
        let partition_epoch = self.partition_epoch;
        let (replicas, adding, removing) = (
            self.replicas.clone(),
            self.adding.clone(),
            self.removing.clone(),
        );
        let isr = self.isr.clone();
        let mut change =
            self.change_assignment(replicas, adding, removing, isr, acceptable, rules)?;
        self.partition_epoch = partition_epoch;
        change.partition_epoch = partition_epoch;
        Some((change, sorted_difference(&before, &self.replicas)))
    }

    /// `PartitionChangeBuilder.build` with target replicas, adding and removing:
    /// `completeReassignmentIfNeeded` first (every target replica in the target ISR:
    /// the removing ones leave both), then the election among the new replicas in
    /// their order (the current leader stays while it is in the ISR), then
    /// `triggerLeaderEpochBumpForReplicaReassignmentIfNeeded` (a replica left: the
    /// leader epoch rises even if the leader stays). Any change bumps the partition
    /// epoch once.
    fn change_assignment(
        &mut self,
        mut replicas: Vec<i32>,
        mut adding: Vec<i32>,
        mut removing: Vec<i32>,
        mut isr: Vec<i32>,
        acceptable: &dyn Fn(i32) -> bool,
        rules: ChangeRules,
    ) -> Option<LeaderChange> {
        // `PartitionReassignmentReplicas.maybeCompleteReassignment`.
        if !adding.is_empty() || !removing.is_empty() {
            let kept_isr: Vec<i32> = isr
                .iter()
                .copied()
                .filter(|b| !removing.contains(b))
                .collect();
            let kept: Vec<i32> = replicas
                .iter()
                .copied()
                .filter(|b| !removing.contains(b))
                .collect();
            if !kept_isr.is_empty() && !kept.is_empty() && kept.iter().all(|b| kept_isr.contains(b))
            {
                isr = kept_isr;
                replicas = kept;
                adding.clear();
                removing.clear();
            }
        }
        let old = self.clone();
        self.replicas = replicas;
        self.adding = adding;
        self.removing = removing;
        let built = self.build(isr, acceptable, rules, None);
        let replica_left = old.replicas.iter().any(|b| !self.replicas.contains(b));
        if replica_left && self.leader == old.leader {
            self.leader_epoch += 1;
        }
        let assignment_changed = self.replicas != old.replicas
            || self.adding != old.adding
            || self.removing != old.removing;
        if built.is_none() && !assignment_changed {
            return None;
        }
        if built.is_none() {
            self.partition_epoch += 1;
        }
        Some(self.change(old.leader, built.and_then(|c| c.election)))
    }
}

#[cfg(test)]
mod tests {
    //! After Kafka 4.0's `PartitionReassignmentReplicasTest`,
    //! `PartitionReassignmentRevertTest` and the reassignment cases of
    //! `PartitionChangeBuilderTest`.

    use super::*;

    fn all(_: i32) -> bool {
        true
    }

    /// A partition on `replicas` with `isr`, led by the first ISR member.
    fn partition(replicas: &[i32], isr: &[i32]) -> PartitionRegistration {
        let mut reg = PartitionRegistration::new(replicas.to_vec());
        reg.isr = isr.to_vec();
        reg.leader = isr[0];
        reg
    }

    /// (replicas, adding, removing) after a reassignment to `target`, with an ISR
    /// that holds only `isr` so that nothing completes.
    fn started(current: &[i32], isr: &[i32], target: &[i32]) -> (Vec<i32>, Vec<i32>, Vec<i32>) {
        let mut reg = partition(current, isr);
        reg.reassign(target, &all, ChangeRules::default());
        (
            reg.replicas.clone(),
            reg.adding.clone(),
            reg.removing.clone(),
        )
    }

    #[test]
    fn replicas_are_the_target_then_the_removed_ones_sorted() {
        // testAdditions, testRemovals, testAdditionsAndRemovals.
        assert_eq!(
            started(&[3, 2, 1], &[3], &[3, 6, 2, 1, 5]),
            (vec![3, 6, 2, 1, 5], vec![5, 6], vec![])
        );
        assert_eq!(
            started(&[3, 2, 1, 0], &[2], &[3, 1]),
            (vec![3, 1, 0, 2], vec![], vec![0, 2])
        );
        assert_eq!(
            started(&[3, 2, 1, 0], &[3], &[7, 3, 1, 9]),
            (vec![7, 3, 1, 9, 0, 2], vec![7, 9], vec![0, 2])
        );
    }

    #[test]
    fn a_target_the_isr_holds_completes_at_once() {
        // testRearrangement: a reordering; the leader stays, the partition epoch moves.
        let mut reg = partition(&[0, 1, 2, 3], &[0, 1, 2, 3]);
        let change = reg.reassign(&[3, 2, 1, 0], &all, ChangeRules::default());
        assert_eq!(reg.replicas, vec![3, 2, 1, 0]);
        assert!(!reg.is_reassigning());
        assert_eq!(
            (reg.leader, reg.leader_epoch, reg.partition_epoch),
            (0, 0, 1)
        );
        assert!(change.is_some());
        // testNoneAddedOrRemoved: the same target changes nothing.
        assert_eq!(
            reg.reassign(&[3, 2, 1, 0], &all, ChangeRules::default()),
            None
        );
        assert_eq!(reg.partition_epoch, 1);
    }

    #[test]
    fn completes_only_when_every_target_replica_is_in_the_isr() {
        // testDoesNotCompleteReassignment / testDoesCompleteReassignmentAllNewReplicas.
        let mut reg = partition(&[0, 1, 2], &[0, 1, 2]);
        reg.reassign(&[3, 4, 5], &all, ChangeRules::default());
        assert_eq!(reg.replicas, vec![3, 4, 5, 0, 1, 2]);
        reg.isr = vec![0, 1, 2, 3, 4];
        assert_eq!(
            reg.complete_reassignment_if_needed(&all, ChangeRules::default()),
            None
        );
        reg.isr = vec![0, 1, 2, 3, 4, 5];
        let epoch = reg.partition_epoch;
        let (change, removed) = reg
            .complete_reassignment_if_needed(&all, ChangeRules::default())
            .unwrap();
        assert_eq!(
            (reg.replicas.clone(), reg.isr.clone()),
            (vec![3, 4, 5], vec![3, 4, 5])
        );
        assert_eq!(removed, vec![0, 1, 2]);
        // The leader left: the first target replica in the ISR leads, one epoch on,
        // within the AlterPartition's own partition epoch.
        assert_eq!((change.old_leader, change.leader), (0, 3));
        assert_eq!((reg.leader_epoch, reg.partition_epoch), (1, epoch));
        assert!(!reg.is_reassigning());
    }

    #[test]
    fn a_removed_follower_bumps_the_leader_epoch_of_a_leader_that_stays() {
        // testDoesCompleteReassignmentSomeNewReplicas, and
        // triggerLeaderEpochBumpForReplicaReassignmentIfNeeded.
        let mut reg = partition(&[0, 1, 2], &[0, 1, 2]);
        reg.reassign(&[0, 1, 3], &all, ChangeRules::default());
        reg.isr = vec![0, 1, 2, 3];
        let (change, removed) = reg
            .complete_reassignment_if_needed(&all, ChangeRules::default())
            .unwrap();
        assert_eq!(
            (reg.replicas.clone(), reg.isr.clone()),
            (vec![0, 1, 3], vec![0, 1, 3])
        );
        assert_eq!(removed, vec![2]);
        assert_eq!((change.leader, reg.leader_epoch), (0, 1));
    }

    #[test]
    fn a_cancel_puts_back_the_replicas_from_before() {
        // testSomeRemovingAndAdding: [3, 2, 1] to [4, 5, 3, 1] with ISR [4, 5, 2].
        let mut reg = partition(&[3, 2, 1], &[3, 2, 1]);
        reg.reassign(&[4, 5, 3, 1], &all, ChangeRules::default());
        assert_eq!(
            (
                reg.replicas.clone(),
                reg.adding.clone(),
                reg.removing.clone()
            ),
            (vec![4, 5, 3, 1, 2], vec![4, 5], vec![2])
        );
        reg.isr = vec![4, 5, 2];
        reg.leader = 4;
        let change = reg
            .cancel_reassignment(&all, ChangeRules::default())
            .unwrap()
            .unwrap();
        assert_eq!(reg.replicas, vec![3, 1, 2]);
        assert_eq!(reg.isr, vec![2]);
        assert_eq!((change.old_leader, change.leader), (4, 2));
        assert!(!reg.is_reassigning());
        assert_eq!(
            reg.cancel_reassignment(&all, ChangeRules::default()),
            Err(RevertError::NoReassignment)
        );
    }

    #[test]
    fn a_cancel_that_empties_the_isr_is_an_unclean_election() {
        // testIsrSpecialCase: only replicas being added are in the ISR.
        let mut reg = partition(&[3, 2, 1], &[3, 2, 1]);
        reg.reassign(&[4, 5, 3, 1], &all, ChangeRules::default());
        reg.isr = vec![4, 5];
        reg.leader = 4;
        let before = reg.clone();
        assert_eq!(
            reg.cancel_reassignment(&all, ChangeRules::default()),
            Err(RevertError::Unclean)
        );
        assert_eq!(reg, before);
        let unclean = ChangeRules {
            unclean: true,
            ..ChangeRules::default()
        };
        let change = reg.cancel_reassignment(&all, unclean).unwrap().unwrap();
        assert_eq!(
            (reg.replicas.clone(), reg.isr.clone()),
            (vec![3, 1, 2], vec![3])
        );
        assert_eq!(change.leader, 3);
    }
}
