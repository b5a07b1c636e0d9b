//! Placement and election as Kafka 4.0's controller does them (after
//! `PartitionChangeBuilderTest` and `ReplicationControlManagerTest`).

use super::*;
use crate::metadata::{
    AlterPartitionData, ChangeRules, Election, PartitionRegistration, NO_LEADER,
};
use crate::protocol::errors::Errors;
use crate::protocol::LeaderRecoveryState;

const UNCLEAN: ChangeRules = ChangeRules {
    unclean: true,
    min_isr: 1,
    elr: false,
};

#[test]
fn replicas_go_round_the_brokers_from_the_partition_number() {
    assert_eq!(place_replicas(0, 3, 3), vec![1, 2, 3]);
    assert_eq!(place_replicas(1, 3, 3), vec![2, 3, 1]);
    assert_eq!(place_replicas(4, 2, 5), vec![5, 1]);
    assert_eq!(
        place_replicas(0, 4, 3),
        vec![1, 2, 3],
        "at most one per broker"
    );
    assert_eq!(
        place_replicas(2, 1, 3),
        vec![3],
        "RF 1: p mod n + 1, as before"
    );
}

#[test]
fn fencing_the_leader_elects_the_first_alive_isr_member_and_bumps_the_epoch() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    let alive = |b: i32| b != 1;
    let change = p.fence_broker(1, &alive, ChangeRules::default()).unwrap();
    assert_eq!(change.old_leader, 1);
    assert_eq!(change.leader, 2);
    assert_eq!(change.leader_epoch, 1);
    assert_eq!(change.isr, vec![2, 3]);
    assert_eq!(change.election, Some(Election::Clean));
}

#[test]
fn fencing_a_follower_shrinks_the_isr_without_a_new_epoch() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    let change = p
        .fence_broker(3, &|b| b != 3, ChangeRules::default())
        .unwrap();
    assert_eq!((change.leader, change.leader_epoch), (1, 0));
    assert_eq!(change.isr, vec![1, 2]);
    assert_eq!(change.election, None);
}

#[test]
fn the_last_isr_member_stays_and_the_partition_goes_leaderless() {
    let mut p = PartitionRegistration::new(vec![1, 2]);
    assert!(p.alter_isr(0, &[1]));
    let change = p
        .fence_broker(1, &|b| b == 2, ChangeRules::default())
        .unwrap();
    assert_eq!(change.leader, NO_LEADER);
    assert_eq!(change.isr, vec![1], "the ISR is never emptied (no ELR)");
    // Broker 1 comes back: it is the ISR, so it leads again.
    let back = p.unfence_broker(&|_| true, ChangeRules::default()).unwrap();
    assert_eq!((back.leader, back.leader_epoch), (1, 2));
}

#[test]
fn unclean_election_lets_an_out_of_sync_replica_lead() {
    let mut p = PartitionRegistration::new(vec![1, 2]);
    assert!(p.alter_isr(0, &[1]));
    let change = p.fence_broker(1, &|b| b == 2, UNCLEAN).unwrap();
    assert_eq!(change.leader, 2);
    assert_eq!(change.isr, vec![2]);
    assert_eq!(change.election, Some(Election::Unclean));
}

#[test]
fn alter_isr_from_a_stale_epoch_or_without_the_leader_is_refused() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    assert!(!p.alter_isr(1, &[1, 2]), "stale epoch");
    assert!(!p.alter_isr(0, &[2, 3]), "the leader must stay in its ISR");
    assert!(!p.alter_isr(0, &[1, 4]), "4 is no replica");
    assert!(p.alter_isr(0, &[1, 3]));
    assert!(p.alter_isr(0, &[1, 3, 2]));
    assert_eq!(
        p.isr(),
        &[1, 3, 2],
        "in the leader's order: a new member is appended"
    );
}

fn ask(broker: i32, leader_epoch: i32, partition_epoch: i32, isr: &[i32]) -> AlterPartitionData {
    AlterPartitionData {
        broker,
        broker_epoch: 1,
        leader_epoch,
        partition_epoch,
        new_isr: isr.to_vec(),
        leader_recovery_state: LeaderRecoveryState::Recovered,
    }
}

// ReplicationControlManagerTest (Kafka 4.0): testAlterPartitionHandleUnknownTopicIdOrName
// and its neighbours check the same order of refusals.
#[test]
fn alter_partition_is_checked_in_kafkas_order() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    let all = |_: i32| true;
    assert_eq!(
        p.alter_partition(&ask(1, 1, 0, &[1, 2]), &all, ChangeRules::default()),
        Err(Errors::NotController)
    );
    assert_eq!(
        p.alter_partition(&ask(1, 0, 1, &[1, 2]), &all, ChangeRules::default()),
        Err(Errors::NotController)
    );
    assert_eq!(
        p.alter_partition(&ask(2, 0, 0, &[1, 2]), &all, ChangeRules::default()),
        Err(Errors::InvalidRequest)
    );
    assert_eq!(
        p.alter_partition(&ask(1, 0, 0, &[2, 3]), &all, ChangeRules::default()),
        Err(Errors::InvalidRequest)
    );
    assert_eq!(
        p.alter_partition(&ask(1, 0, 0, &[1, 4]), &all, ChangeRules::default()),
        Err(Errors::InvalidRequest)
    );
    assert_eq!(
        p.alter_partition(&ask(1, 0, 0, &[1, 2]), &all, ChangeRules::default()),
        Ok(true)
    );
    assert_eq!(
        (p.partition_epoch(), p.leader_epoch()),
        (1, 0),
        "a shrink keeps the leader epoch"
    );
    assert_eq!(
        p.alter_partition(&ask(1, 0, 0, &[1, 2, 3]), &all, ChangeRules::default()),
        Err(Errors::InvalidUpdateVersion),
        "built on the ISR before the last change"
    );
    assert_eq!(
        p.alter_partition(
            &ask(1, 0, 1, &[1, 2, 3]),
            &|b| b != 3,
            ChangeRules::default()
        ),
        Err(Errors::IneligibleReplica),
        "a new member must be active"
    );
    assert_eq!(
        p.alter_partition(&ask(1, 0, 1, &[1, 2, 3]), &all, ChangeRules::default()),
        Ok(true)
    );
    assert_eq!(p.isr(), &[1, 2, 3]);
    // A new leader: the old one's leader epoch is fenced.
    p.fence_broker(1, &|b| b != 1, ChangeRules::default());
    assert_eq!(
        p.alter_partition(&ask(1, 0, 3, &[1, 2]), &all, ChangeRules::default()),
        Err(Errors::FencedLeaderEpoch)
    );
}

#[test]
fn every_change_bumps_the_partition_epoch() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    p.fence_broker(3, &|b| b != 3, ChangeRules::default());
    assert_eq!(p.partition_epoch(), 1);
    p.fence_broker(1, &|b| b == 2, ChangeRules::default());
    assert_eq!(
        (p.leader(), p.leader_epoch(), p.partition_epoch()),
        (2, 1, 2)
    );
    assert!(p.alter_isr(1, &[2, 1]));
    assert_eq!(p.partition_epoch(), 3);
    let change = p.elect_preferred(&|_| true).expect("1 is back in the ISR");
    assert_eq!(
        (change.leader, change.leader_epoch, change.partition_epoch),
        (1, 2, 4)
    );
}

// ReplicationControlManager.electLeader with ElectionType.PREFERRED.
#[test]
fn a_requested_preferred_election_says_why_it_did_nothing() {
    let mut p = PartitionRegistration::new(vec![1, 2]);
    assert_eq!(
        p.elect_preferred_requested(&|_| true).map(|c| c.leader),
        Err(Errors::ElectionNotNeeded)
    );
    p.fence_broker(1, &|b| b == 2, ChangeRules::default());
    assert_eq!(
        p.elect_preferred_requested(&|b| b == 2).map(|c| c.leader),
        Err(Errors::PreferredLeaderNotAvailable),
        "broker 1 is out of the ISR"
    );
    assert!(p.alter_isr(1, &[2, 1]));
    let change = p.elect_preferred_requested(&|_| true).expect("elected");
    assert_eq!(change.election, Some(Election::PreferredRequested));
    assert_eq!((change.leader, change.leader_epoch), (1, 2));
}

// ReplicationControlManager.electLeader with ElectionType.UNCLEAN
// (testElectUncleanLeaders_WithoutElr): only a leaderless partition, out of sync
// although the topic's unclean.leader.election.enable is false, and nothing changes
// when no replica is alive.
#[test]
fn a_requested_unclean_election_needs_a_leaderless_partition_and_an_alive_replica() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    assert_eq!(
        p.elect_unclean_requested(&|_| true, ChangeRules::default())
            .map(|c| c.leader),
        Err(Errors::ElectionNotNeeded)
    );
    assert!(p.alter_isr(0, &[1]));
    p.fence_broker(1, &|b| b != 1, ChangeRules::default());
    assert_eq!((p.leader(), p.isr()), (NO_LEADER, &[1][..]));
    let before = p.clone();
    assert_eq!(
        p.elect_unclean_requested(&|_| false, ChangeRules::default())
            .map(|c| c.leader),
        Err(Errors::EligibleLeadersNotAvailable)
    );
    assert_eq!(p, before, "a refused election changes nothing");
    let change = p
        .elect_unclean_requested(&|b| b == 3, ChangeRules::default())
        .expect("elected");
    assert_eq!(change.election, Some(Election::UncleanRequested));
    assert_eq!((change.leader, change.isr), (3, vec![3]));
    assert_eq!(
        change.leader_recovery_state,
        LeaderRecoveryState::Recovering
    );
}

const ELR: ChangeRules = ChangeRules {
    unclean: false,
    min_isr: 2,
    elr: true,
};

/// `PartitionChangeBuilderTest.testEligibleLeaderReplicas_*` (Kafka 4.0): members that
/// leave an ISR below min.insync.replicas go into the ELR; with ELR on the ISR may
/// empty, and an ELR member that comes back leads alone in the ISR.
#[test]
fn replicas_leaving_an_isr_below_min_isr_become_eligible_leaders() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    let change = p.fence_broker(3, &|b| b != 3, ELR).unwrap();
    assert_eq!(
        (change.isr, change.elr),
        (vec![1, 2], vec![]),
        "still at min ISR"
    );
    let change = p.fence_broker(2, &|b| b == 1, ELR).unwrap();
    assert_eq!((change.isr, change.elr), (vec![1], vec![2]));
    let change = p.fence_broker(1, &|_| false, ELR).unwrap();
    assert_eq!(change.leader, NO_LEADER);
    assert!(change.isr.is_empty(), "ELR lets the ISR empty");
    assert_eq!(change.elr, vec![1, 2]);
    let back = p.unfence_broker(&|b| b == 2, ELR).unwrap();
    assert_eq!(back.election, Some(Election::Elr));
    assert_eq!((back.leader, back.isr, back.elr), (2, vec![2], vec![1]));
    assert_eq!(back.leader_epoch, 2, "two leader changes since epoch 0");
}

#[test]
fn without_elr_the_last_isr_member_stays_and_no_other_replica_is_elected() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    let off = ChangeRules { elr: false, ..ELR };
    p.fence_broker(3, &|b| b != 3, off);
    p.fence_broker(2, &|b| b == 1, off);
    let change = p.fence_broker(1, &|_| false, off).unwrap();
    assert_eq!((change.leader, change.isr), (NO_LEADER, vec![1]));
    assert!(change.elr.is_empty());
    assert_eq!(p.unfence_broker(&|b| b == 2, off), None);
}

#[test]
fn an_unclean_shutdown_takes_a_replica_out_of_the_elr() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    p.fence_broker(3, &|b| b != 3, ELR);
    p.fence_broker(2, &|b| b == 1, ELR);
    p.fence_broker(1, &|_| false, ELR);
    assert_eq!(p.elr(), [1, 2]);
    let change = p.unclean_shutdown(2, &|b| b == 2, ELR).unwrap();
    assert_eq!((change.leader, change.elr), (NO_LEADER, vec![1]));
    assert_eq!(p.unfence_broker(&|b| b == 2 || b == 3, ELR), None);
    assert_eq!(
        p.unclean_shutdown(3, &|_| true, ELR),
        None,
        "3 was in neither"
    );
}

#[test]
fn an_isr_back_at_min_isr_clears_the_elr() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    let shrink = AlterPartitionData {
        broker: 1,
        broker_epoch: -1,
        leader_epoch: 0,
        partition_epoch: 0,
        new_isr: vec![1],
        leader_recovery_state: LeaderRecoveryState::Recovered,
    };
    assert_eq!(p.alter_partition(&shrink, &|_| true, ELR), Ok(true));
    assert_eq!(p.elr(), [2, 3]);
    let grow = AlterPartitionData {
        partition_epoch: 1,
        new_isr: vec![1, 3],
        ..shrink
    };
    assert_eq!(p.alter_partition(&grow, &|_| true, ELR), Ok(true));
    assert_eq!((p.isr(), p.elr()), (&[1, 3][..], &[][..]));
}

/// `PartitionChangeBuilderTest.testUncleanSetsLeaderRecoveringState` and
/// `testChangeInLeadershipDoesNotChangeRecoveryState` (Kafka 4.0): an unclean election
/// marks the partition RECOVERING; a clean election or a leader going offline keeps it.
#[test]
fn unclean_election_marks_the_partition_recovering_until_the_leader_says_recovered() {
    let mut p = PartitionRegistration::new(vec![1, 2, 3]);
    assert!(p.alter_isr(0, &[1]));
    let change = p.fence_broker(1, &|b| b == 2, UNCLEAN).unwrap();
    assert_eq!(change.election, Some(Election::Unclean));
    assert_eq!(
        change.leader_recovery_state,
        LeaderRecoveryState::Recovering
    );
    assert_eq!(p.isr(), [2]);
    // The leader goes offline and comes back: still RECOVERING.
    let gone = p.fence_broker(2, &|_| false, UNCLEAN).unwrap();
    assert_eq!((gone.leader, gone.isr.as_slice()), (NO_LEADER, &[2][..]));
    assert_eq!(p.leader_recovery_state(), LeaderRecoveryState::Recovering);
    let back = p.unfence_broker(&|_| true, UNCLEAN).unwrap();
    assert_eq!((back.leader, back.election), (2, Some(Election::Clean)));
    assert_eq!(p.leader_recovery_state(), LeaderRecoveryState::Recovering);
    // `ReplicationControlManagerTest.testInvalidAlterPartitionRequests`: RECOVERING
    // with a follower in the ISR is invalid; RECOVERED with the follower commits.
    let epochs = (p.leader_epoch(), p.partition_epoch());
    let mut recovering = ask(2, epochs.0, epochs.1, &[2, 3]);
    recovering.leader_recovery_state = LeaderRecoveryState::Recovering;
    assert_eq!(
        p.alter_partition(&recovering, &|_| true, UNCLEAN),
        Err(Errors::InvalidRequest)
    );
    // RECOVERING with the leader alone is a valid no-op.
    recovering.new_isr = vec![2];
    assert_eq!(
        p.alter_partition(&recovering, &|_| true, UNCLEAN),
        Ok(false)
    );
    let recovered = ask(2, epochs.0, epochs.1, &[2, 3]);
    assert_eq!(p.alter_partition(&recovered, &|_| true, UNCLEAN), Ok(true));
    assert_eq!(p.leader_recovery_state(), LeaderRecoveryState::Recovered);
    // No way back to RECOVERING, even alone in the ISR.
    let mut back = ask(2, p.leader_epoch(), p.partition_epoch(), &[2]);
    back.leader_recovery_state = LeaderRecoveryState::Recovering;
    assert_eq!(
        p.alter_partition(&back, &|_| true, UNCLEAN),
        Err(Errors::InvalidRequest)
    );
}

/// `StripedReplicaPlacer` prefers active brokers (Kafka 4.0): with broker 3 fenced, the
/// round of partition 2 (3, 1, 2) places 1 and 2 first; a single replica skips it.
#[test]
fn placement_puts_active_brokers_first_and_the_isr_holds_only_them() {
    let active = |b: i32| b != 3;
    assert_eq!(place_replicas_among(2, 3, 3, &active), vec![1, 2, 3]);
    assert_eq!(place_replicas_among(2, 1, 3, &active), vec![1]);
    assert_eq!(
        place_replicas_among(1, 2, 3, &|_| true),
        place_replicas(1, 2, 3)
    );
    let reg = PartitionRegistration::created(vec![1, 2, 3], &active);
    assert_eq!((reg.leader(), reg.isr()), (1, &[1, 2][..]));
}
