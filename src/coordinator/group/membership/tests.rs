//! After Kafka's `GroupMetadataManagerTest` (classic groups) and
//! `OffsetMetadataManagerTest` (generation checks), Kafka 4.0.

use super::*;
use crate::coordinator::group::CommitMember;

const SESSION: i64 = 45_000;
const REBALANCE: i64 = 300_000;

fn topics() -> Vec<String> {
    vec!["in".to_string()]
}

fn join(
    gc: &mut GroupCoordinator,
    member_id: &str,
    client: &str,
    token: u64,
    now: i64,
) -> GroupOutput {
    let topics = topics();
    gc.join_group(
        &JoinGroupArgs {
            group_id: "g",
            member_id,
            client_id: client,
            session_timeout_ms: SESSION,
            rebalance_timeout_ms: REBALANCE,
            topics: &topics,
        },
        token,
        now,
    )
}

fn new_member_id(out: &GroupOutput) -> String {
    match &out.response {
        Some(Response::JoinGroup {
            error: Errors::MemberIdRequired,
            member_id,
            ..
        }) => member_id.clone(),
        other => panic!("expected MEMBER_ID_REQUIRED, got {other:?}"),
    }
}

fn state(gc: &GroupCoordinator) -> ClassicGroupState {
    gc.group("g").map_or(ClassicGroupState::Dead, |g| g.state())
}

/// One member joined and synced: Stable at generation 1.
fn stable_with_one(gc: &mut GroupCoordinator) -> String {
    let id = new_member_id(&join(gc, "", "c1", 1, 0));
    let out = join(gc, &id, "c1", 2, 0);
    assert!(
        out.response.is_none(),
        "the join waits for the initial delay"
    );
    let out = gc.expire_group_timers(DEFAULT_INITIAL_REBALANCE_DELAY_MS);
    assert!(matches!(
        out.deferred.as_slice(),
        [(
            2,
            Response::JoinGroup {
                error: Errors::None,
                generation_id: 1,
                ..
            }
        )]
    ));
    let assignment = vec![(id.clone(), vec![TopicPartition::new("in", 0)])];
    let out = gc.sync_group("g", 1, &id, &assignment, 3, 3_000);
    assert_eq!(
        out.response,
        Some(Response::SyncGroup {
            error: Errors::None,
            assignment: vec![TopicPartition::new("in", 0)]
        })
    );
    assert_eq!(state(gc), ClassicGroupState::Stable);
    id
}

/// testJoinGroupShouldReceiveErrorIfMemberIdRequired / KIP-394: the first JoinGroup
/// gets a member id and MEMBER_ID_REQUIRED; the group does not change yet.
#[test]
fn test_new_member_id_required() {
    let mut gc = GroupCoordinator::default();
    let out = join(&mut gc, "", "c1", 1, 0);
    assert_eq!(new_member_id(&out), "c1-1");
    assert_eq!(state(&gc), ClassicGroupState::Empty);
    assert_eq!(gc.group("g").map(|g| g.members().count()), Some(0));
}

/// testDelayInitialRebalanceByGroupInitialRebalanceDelayOnEmptyGroup.
#[test]
fn test_delay_initial_rebalance_by_group_initial_rebalance_delay_on_empty_group() {
    let mut gc = GroupCoordinator::default();
    let id = new_member_id(&join(&mut gc, "", "c1", 1, 0));
    join(&mut gc, &id, "c1", 2, 0);
    assert_eq!(state(&gc), ClassicGroupState::PreparingRebalance);
    assert!(gc.expire_group_timers(2_999).deferred.is_empty());
    let out = gc.expire_group_timers(3_000);
    assert_eq!(out.deferred.len(), 1);
    assert_eq!(state(&gc), ClassicGroupState::CompletingRebalance);
    assert_eq!(gc.group("g").map(|g| g.generation_id()), Some(1));
}

/// testResetRebalanceDelayWhenNewMemberJoinsGroupDuringInitialRebalance.
#[test]
fn test_reset_rebalance_delay_when_new_member_joins_during_initial_rebalance() {
    let mut gc = GroupCoordinator::default();
    let a = new_member_id(&join(&mut gc, "", "c1", 1, 0));
    join(&mut gc, &a, "c1", 2, 0);
    let b = new_member_id(&join(&mut gc, "", "c2", 3, 2_000));
    join(&mut gc, &b, "c2", 4, 2_000);
    // At 3 s a member was added during the delay: it is extended by another 3 s.
    assert!(gc.expire_group_timers(3_000).deferred.is_empty());
    let out = gc.expire_group_timers(6_000);
    assert_eq!(out.deferred.len(), 2);
    assert_eq!(state(&gc), ClassicGroupState::CompletingRebalance);
}

/// testSyncGroupFollowerAfterLeader, the other way round: the follower's SyncGroup
/// waits for the leader's, which answers both.
#[test]
fn test_sync_group_follower_waits_for_leader() {
    let mut gc = GroupCoordinator::default();
    let a = new_member_id(&join(&mut gc, "", "c1", 1, 0));
    join(&mut gc, &a, "c1", 2, 0);
    let b = new_member_id(&join(&mut gc, "", "c2", 3, 0));
    join(&mut gc, &b, "c2", 4, 0);
    // `b` joined during the initial delay: it is extended once.
    assert!(gc.expire_group_timers(3_000).deferred.is_empty());
    let out = gc.expire_group_timers(6_000);
    let leader = match &out.deferred[0].1 {
        Response::JoinGroup { leader, .. } => leader.clone(),
        other => panic!("{other:?}"),
    };
    let follower = if leader == a { b.clone() } else { a.clone() };
    let out = gc.sync_group("g", 1, &follower, &[], 5, 6_000);
    assert!(out.response.is_none());
    let assignment = vec![
        (leader.clone(), vec![TopicPartition::new("in", 0)]),
        (follower.clone(), vec![TopicPartition::new("in", 1)]),
    ];
    let out = gc.sync_group("g", 1, &leader, &assignment, 6, 6_000);
    assert!(out.response.is_some());
    assert_eq!(
        out.deferred,
        vec![(
            5,
            Response::SyncGroup {
                error: Errors::None,
                assignment: vec![TopicPartition::new("in", 1)]
            }
        )]
    );
    assert_eq!(state(&gc), ClassicGroupState::Stable);
}

/// A second member joining a Stable group: PreparingRebalance, heartbeats answer
/// REBALANCE_IN_PROGRESS, the join completes once the first member rejoined.
#[test]
fn test_second_member_triggers_rebalance() {
    let mut gc = GroupCoordinator::default();
    let a = stable_with_one(&mut gc);
    let b = new_member_id(&join(&mut gc, "", "c2", 10, 4_000));
    let out = join(&mut gc, &b, "c2", 11, 4_000);
    assert!(out.response.is_none());
    assert_eq!(state(&gc), ClassicGroupState::PreparingRebalance);
    assert_eq!(gc.heartbeat("g", 1, &a, 5_000), Errors::RebalanceInProgress);
    let out = join(&mut gc, &a, "c1", 12, 5_000);
    assert_eq!(out.deferred.len(), 2);
    assert_eq!(state(&gc), ClassicGroupState::CompletingRebalance);
    assert_eq!(gc.group("g").map(|g| g.generation_id()), Some(2));
}

/// testHeartbeatUnknownGroup / testHeartbeatUnknownMemberExistingGroup /
/// testHeartbeatIllegalGeneration.
#[test]
fn test_heartbeat_errors() {
    let mut gc = GroupCoordinator::default();
    assert_eq!(gc.heartbeat("g", 1, "x", 0), Errors::UnknownMemberId);
    let a = stable_with_one(&mut gc);
    assert_eq!(gc.heartbeat("g", 1, "x", 4_000), Errors::UnknownMemberId);
    assert_eq!(gc.heartbeat("g", 0, &a, 4_000), Errors::IllegalGeneration);
    assert_eq!(gc.heartbeat("g", 1, &a, 4_000), Errors::None);
}

/// testHeartbeatExpirationShouldRemoveMember / testSessionTimeoutExpiration: the
/// last member's session expires, the group rebalances to Empty at generation 2.
#[test]
fn test_heartbeat_expiration_should_remove_member() {
    let mut gc = GroupCoordinator::default();
    let a = stable_with_one(&mut gc);
    assert_eq!(gc.next_group_deadline_ms(), Some(3_000 + SESSION));
    let out = gc.expire_group_timers(3_000 + SESSION);
    assert!(out.events.contains(&GroupEvent::MemberRemoved {
        group: "g".into(),
        member_id: a.clone(),
        reason: RemovalReason::SessionExpired
    }));
    assert_eq!(state(&gc), ClassicGroupState::Empty);
    assert_eq!(gc.group("g").map(|g| g.generation_id()), Some(2));
}

/// testHeartbeatExpirationShouldRemovePendingMember.
#[test]
fn test_heartbeat_expiration_should_remove_pending_member() {
    let mut gc = GroupCoordinator::default();
    let id = new_member_id(&join(&mut gc, "", "c1", 1, 0));
    gc.expire_group_timers(SESSION);
    let out = join(&mut gc, &id, "c1", 2, SESSION);
    assert!(matches!(
        out.response,
        Some(Response::JoinGroup {
            error: Errors::UnknownMemberId,
            ..
        })
    ));
}

/// testRebalanceTimeoutExpiration: a member that does not rejoin is removed when the
/// rebalance timeout ends the join phase.
#[test]
fn test_rebalance_timeout_expiration() {
    let mut gc = GroupCoordinator::default();
    let a = stable_with_one(&mut gc);
    let b = new_member_id(&join(&mut gc, "", "c2", 10, 4_000));
    join(&mut gc, &b, "c2", 11, 4_000);
    // `a` keeps heartbeating but never rejoins.
    for t in (7_000..4_000 + REBALANCE).step_by(3_000) {
        gc.heartbeat("g", 1, &a, t);
    }
    let out = gc.expire_group_timers(4_000 + REBALANCE);
    assert!(out.events.contains(&GroupEvent::MemberRemoved {
        group: "g".into(),
        member_id: a,
        reason: RemovalReason::NotRejoined
    }));
    assert_eq!(state(&gc), ClassicGroupState::CompletingRebalance);
}

/// LeaveGroup of the only member: the group is Empty at the next generation.
#[test]
fn test_leave_group_last_member() {
    let mut gc = GroupCoordinator::default();
    let a = stable_with_one(&mut gc);
    let out = gc.leave_group("g", &a, 4_000);
    assert_eq!(
        out.response,
        Some(Response::LeaveGroup {
            error: Errors::None
        })
    );
    assert_eq!(state(&gc), ClassicGroupState::Empty);
    let out = gc.leave_group("g", &a, 4_000);
    assert_eq!(
        out.response,
        Some(Response::LeaveGroup {
            error: Errors::UnknownMemberId
        })
    );
}

/// testGenericGroupTransactionalOffsetCommit and its refusals: a member of the current
/// generation commits; an old generation is ILLEGAL_GENERATION; a removed member is
/// UNKNOWN_MEMBER_ID; a simple group's commit is accepted only where no group has
/// members (testGenericGroupOffsetCommitWithoutMemberIdAndGeneration).
#[test]
fn test_generic_group_transactional_offset_commit_checks() {
    let mut gc = GroupCoordinator::default();
    let simple = CommitMember::default();
    assert_eq!(gc.validate_offset_commit("g", &simple, true), Ok(()));
    let with_generation = CommitMember {
        generation_id: 1,
        member_id: "x".into(),
        group_instance_id: None,
    };
    assert!(gc
        .validate_offset_commit("g", &with_generation, true)
        .is_err());
    let a = stable_with_one(&mut gc);
    let member = |generation_id: i32, member_id: &str| CommitMember {
        generation_id,
        member_id: member_id.to_string(),
        group_instance_id: None,
    };
    assert_eq!(gc.validate_offset_commit("g", &member(1, &a), true), Ok(()));
    let refused = |gc: &GroupCoordinator, e| {
        gc.validate_offset_commit("g", &e, true)
            .err()
            .and_then(|ev| match ev {
                GroupEvent::OffsetCommitRefused { error, .. } => Some(error),
                _ => None,
            })
    };
    assert_eq!(refused(&gc, member(0, &a)), Some(Errors::IllegalGeneration));
    assert_eq!(
        refused(&gc, member(1, "gone")),
        Some(Errors::UnknownMemberId)
    );
    assert_eq!(
        gc.validate_offset_commit("g", &simple, false)
            .err()
            .map(|_| ()),
        Some(())
    );
    gc.leave_group("g", &a, 4_000);
    assert_eq!(refused(&gc, member(1, &a)), Some(Errors::UnknownMemberId));
}
