//! The membership half of the group coordinator for the classic protocol
//! (`GroupMetadataManager.classicGroupJoin`/`classicGroupSync`/`classicGroupHeartbeat`/
//! `classicGroupLeave` and their timers, Kafka 4.0), as a sans-IO state machine: a
//! JoinGroup or SyncGroup that must wait is parked under its token and answered later,
//! in `GroupOutput::deferred`.
//!
//! ```text
//!  JoinGroup(member id "")  ──► MEMBER_ID_REQUIRED + a new member id (KIP-394)
//!  JoinGroup(member id)     ──► parked; the group prepares a rebalance
//!     every member rejoined, or the rebalance timeout / initial delay ran out
//!                           ──► generation + 1, CompletingRebalance, every parked join
//!                               answered (the leader gets the members' subscriptions)
//!  SyncGroup(leader's assignment) ──► Stable, every parked sync answered
//!  Heartbeat in PreparingRebalance ──► REBALANCE_IN_PROGRESS: rejoin
//!  no heartbeat for session.timeout.ms ──► member removed, rebalance
//! ```

use super::classic_group::{ClassicGroup, ClassicGroupMember, ClassicGroupState, InitialDelay};
use super::commit_check::{GroupEvent, RebalanceReason, RemovalReason};
use super::GroupCoordinator;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::Response;

#[cfg(test)]
use super::DEFAULT_INITIAL_REBALANCE_DELAY_MS;

/// The one protocol a consumer offers here (the assignor's name).
pub const RANGE_PROTOCOL: &str = "range";

/// What a membership request or timer produced: the answer now (if any), answers to
/// parked requests by token, and events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupOutput {
    pub response: Option<Response>,
    pub deferred: Vec<(u64, Response)>,
    pub events: Vec<GroupEvent>,
}

impl GroupOutput {
    fn reply(response: Response) -> Self {
        GroupOutput {
            response: Some(response),
            ..GroupOutput::default()
        }
    }
}

/// A JoinGroup's fields (`JoinGroupRequestData`, one `consumer` protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinGroupArgs<'a> {
    pub group_id: &'a str,
    pub member_id: &'a str,
    pub client_id: &'a str,
    pub session_timeout_ms: i64,
    pub rebalance_timeout_ms: i64,
    pub topics: &'a [String],
}

fn join_error(member_id: &str, error: Errors) -> Response {
    Response::JoinGroup {
        error,
        generation_id: -1,
        protocol_name: None,
        leader: String::new(),
        member_id: member_id.to_string(),
        members: Vec::new(),
    }
}

fn sync_error(error: Errors) -> Response {
    Response::SyncGroup {
        error,
        assignment: Vec::new(),
    }
}

impl GroupCoordinator {
    /// A group's membership, if it has any.
    pub fn group(&self, group_id: &str) -> Option<&ClassicGroup> {
        self.groups.get(group_id)
    }

    /// Every group with membership state, by id.
    pub fn classic_groups(&self) -> impl Iterator<Item = &ClassicGroup> {
        self.groups.values()
    }

    /// Whether some JoinGroup or SyncGroup is parked (a client waits for the group).
    pub fn has_parked_requests(&self) -> bool {
        self.groups.values().any(|g| {
            g.members
                .values()
                .any(|m| m.awaiting_join.is_some() || m.awaiting_sync.is_some())
        })
    }

    /// The next time a group timer falls due: a join phase's end, a session's expiry,
    /// a handed-out member id's expiry.
    pub fn next_group_deadline_ms(&self) -> Option<i64> {
        self.groups
            .values()
            .flat_map(|g| {
                g.join_deadline_ms
                    .into_iter()
                    .chain(g.pending_members.values().copied())
                    .chain(
                        g.members
                            .values()
                            .filter(|m| m.awaiting_join.is_none() && m.awaiting_sync.is_none())
                            .map(|m| m.session_deadline_ms),
                    )
            })
            .min()
    }

    /// `classicGroupJoin` for a consumer (dynamic member, JoinGroup v4+).
    pub fn join_group(&mut self, args: &JoinGroupArgs, token: u64, now_ms: i64) -> GroupOutput {
        let initial_delay_ms = self.initial_rebalance_delay_ms;
        let group = self
            .groups
            .entry(args.group_id.to_string())
            .or_insert_with(|| ClassicGroup::new(args.group_id));
        if group.state == ClassicGroupState::Dead {
            return GroupOutput::reply(join_error(args.member_id, Errors::CoordinatorNotAvailable));
        }
        let mut out = GroupOutput::default();
        if args.member_id.is_empty() {
            // generateMemberId: Kafka appends a random UUID; a counter keeps runs
            // deterministic.
            self.next_member_number = self.next_member_number.saturating_add(1);
            let member_id = format!("{}-{}", args.client_id, self.next_member_number);
            group.pending_members.insert(
                member_id.clone(),
                now_ms.saturating_add(args.session_timeout_ms),
            );
            out.events.push(GroupEvent::MemberIdRequired {
                group: args.group_id.to_string(),
                member_id: member_id.clone(),
            });
            out.response = Some(join_error(&member_id, Errors::MemberIdRequired));
            return out;
        }
        let member_id = args.member_id.to_string();
        if group.pending_members.remove(&member_id).is_some() {
            let first = group.members.is_empty();
            group.members.insert(
                member_id.clone(),
                ClassicGroupMember {
                    member_id: member_id.clone(),
                    client_id: args.client_id.to_string(),
                    session_timeout_ms: args.session_timeout_ms,
                    rebalance_timeout_ms: args.rebalance_timeout_ms,
                    subscription: args.topics.to_vec(),
                    assignment: Vec::new(),
                    awaiting_join: Some(token),
                    awaiting_sync: None,
                    session_deadline_ms: now_ms.saturating_add(args.session_timeout_ms),
                },
            );
            if first || group.leader_id.is_none() {
                group.leader_id = Some(member_id.clone());
            }
            // The initial rebalance may be delayed further (`setNewMemberAdded`).
            if group.state == ClassicGroupState::PreparingRebalance && group.initial_delay.is_some()
            {
                group.new_member_added = true;
            }
            let reason = RebalanceReason::MemberJoined { member_id };
            rebalance_or_complete(group, reason, now_ms, initial_delay_ms, &mut out);
            return out;
        }
        let Some(member) = group.members.get_mut(&member_id) else {
            return GroupOutput::reply(join_error(&member_id, Errors::UnknownMemberId));
        };
        let changed = member.subscription != args.topics;
        member.subscription = args.topics.to_vec();
        member.session_timeout_ms = args.session_timeout_ms;
        member.rebalance_timeout_ms = args.rebalance_timeout_ms;
        member.session_deadline_ms = now_ms.saturating_add(args.session_timeout_ms);
        // `classicGroupJoinExistingMember`: in Stable the leader or a changed
        // subscription rebalances; in CompletingRebalance a changed subscription does.
        let is_leader = group.leader_id.as_deref() == Some(member_id.as_str());
        let rebalance = changed || (is_leader && group.state == ClassicGroupState::Stable);
        match group.state {
            ClassicGroupState::PreparingRebalance => {
                member.awaiting_join = Some(token);
                maybe_complete_join(group, now_ms, &mut out);
            }
            ClassicGroupState::CompletingRebalance | ClassicGroupState::Stable if !rebalance => {
                // The member missed its join answer: the current generation again.
                out.response = Some(join_response(group, &member_id));
            }
            ClassicGroupState::CompletingRebalance | ClassicGroupState::Stable => {
                member.awaiting_join = Some(token);
                let reason = RebalanceReason::MemberRejoined { member_id };
                rebalance_or_complete(group, reason, now_ms, initial_delay_ms, &mut out);
            }
            ClassicGroupState::Empty | ClassicGroupState::Dead => {
                out.response = Some(join_error(&member_id, Errors::UnknownMemberId));
            }
        }
        out
    }

    /// `classicGroupSync`: the leader's SyncGroup carries every member's assignment.
    pub fn sync_group(
        &mut self,
        group_id: &str,
        generation_id: i32,
        member_id: &str,
        assignments: &[(String, Vec<TopicPartition>)],
        token: u64,
        now_ms: i64,
    ) -> GroupOutput {
        let Some(group) = self.groups.get_mut(group_id) else {
            return GroupOutput::reply(sync_error(Errors::UnknownMemberId));
        };
        if group.state == ClassicGroupState::Dead {
            return GroupOutput::reply(sync_error(Errors::CoordinatorNotAvailable));
        }
        if let Err(e) = group.validate_member(member_id, None) {
            return GroupOutput::reply(sync_error(e));
        }
        if generation_id != group.generation_id {
            return GroupOutput::reply(sync_error(Errors::IllegalGeneration));
        }
        let mut out = GroupOutput::default();
        match group.state {
            ClassicGroupState::Empty | ClassicGroupState::Dead => {
                out.response = Some(sync_error(Errors::UnknownMemberId));
            }
            ClassicGroupState::PreparingRebalance => {
                out.response = Some(sync_error(Errors::RebalanceInProgress));
            }
            ClassicGroupState::Stable => {
                let assignment = group
                    .members
                    .get_mut(member_id)
                    .map(|m| {
                        m.session_deadline_ms = now_ms.saturating_add(m.session_timeout_ms);
                        m.assignment.clone()
                    })
                    .unwrap_or_default();
                out.response = Some(Response::SyncGroup {
                    error: Errors::None,
                    assignment,
                });
            }
            ClassicGroupState::CompletingRebalance => {
                if let Some(m) = group.members.get_mut(member_id) {
                    m.awaiting_sync = Some(token);
                    m.session_deadline_ms = now_ms.saturating_add(m.session_timeout_ms);
                }
                if group.leader_id.as_deref() != Some(member_id) {
                    return out;
                }
                for m in group.members.values_mut() {
                    m.assignment = assignments
                        .iter()
                        .find(|(id, _)| *id == m.member_id)
                        .map(|(_, tps)| tps.clone())
                        .unwrap_or_default();
                }
                group.state = ClassicGroupState::Stable;
                out.events.push(GroupEvent::GroupStabilized {
                    group: group.group_id.clone(),
                    generation: group.generation_id,
                    assignment: group
                        .members
                        .values()
                        .map(|m| (m.member_id.clone(), m.assignment.clone()))
                        .collect(),
                });
                for m in group.members.values_mut() {
                    let Some(t) = m.awaiting_sync.take() else {
                        continue;
                    };
                    let response = Response::SyncGroup {
                        error: Errors::None,
                        assignment: m.assignment.clone(),
                    };
                    if t == token {
                        out.response = Some(response);
                    } else {
                        out.deferred.push((t, response));
                    }
                }
            }
        }
        out
    }

    /// `classicGroupHeartbeat`: keeps the session alive; REBALANCE_IN_PROGRESS tells
    /// the member to rejoin.
    pub fn heartbeat(
        &mut self,
        group_id: &str,
        generation_id: i32,
        member_id: &str,
        now_ms: i64,
    ) -> Errors {
        let Some(group) = self.groups.get_mut(group_id) else {
            return Errors::UnknownMemberId;
        };
        if group.state == ClassicGroupState::Dead {
            return Errors::CoordinatorNotAvailable;
        }
        if let Err(e) = group.validate_member(member_id, None) {
            return e;
        }
        if generation_id != group.generation_id {
            return Errors::IllegalGeneration;
        }
        if let Some(m) = group.members.get_mut(member_id) {
            m.session_deadline_ms = now_ms.saturating_add(m.session_timeout_ms);
        }
        match group.state {
            ClassicGroupState::Empty | ClassicGroupState::Dead => Errors::UnknownMemberId,
            ClassicGroupState::PreparingRebalance => Errors::RebalanceInProgress,
            ClassicGroupState::CompletingRebalance | ClassicGroupState::Stable => Errors::None,
        }
    }

    /// `classicGroupLeave` for one dynamic member.
    pub fn leave_group(&mut self, group_id: &str, member_id: &str, now_ms: i64) -> GroupOutput {
        let initial_delay_ms = self.initial_rebalance_delay_ms;
        let Some(group) = self.groups.get_mut(group_id) else {
            return GroupOutput::reply(Response::LeaveGroup {
                error: Errors::UnknownMemberId,
            });
        };
        if group.state == ClassicGroupState::Dead {
            return GroupOutput::reply(Response::LeaveGroup {
                error: Errors::CoordinatorNotAvailable,
            });
        }
        let mut out = GroupOutput::default();
        if group.pending_members.remove(member_id).is_some() {
            out.response = Some(Response::LeaveGroup {
                error: Errors::None,
            });
            return out;
        }
        if !group.members.contains_key(member_id) {
            out.response = Some(Response::LeaveGroup {
                error: Errors::UnknownMemberId,
            });
            return out;
        }
        remove_member(
            group,
            member_id,
            RemovalReason::Left,
            now_ms,
            initial_delay_ms,
            &mut out,
        );
        out.response = Some(Response::LeaveGroup {
            error: Errors::None,
        });
        out
    }

    /// The group timers that fell due by `now_ms`: sessions expire, member ids handed
    /// out expire, join phases end (or the initial delay is extended).
    pub fn expire_group_timers(&mut self, now_ms: i64) -> GroupOutput {
        let initial_delay_ms = self.initial_rebalance_delay_ms;
        let mut out = GroupOutput::default();
        for group in self.groups.values_mut() {
            group
                .pending_members
                .retain(|_, deadline| *deadline > now_ms);
            let expired: Vec<String> = group
                .members
                .values()
                .filter(|m| {
                    m.awaiting_join.is_none()
                        && m.awaiting_sync.is_none()
                        && m.session_deadline_ms <= now_ms
                })
                .map(|m| m.member_id.clone())
                .collect();
            for member_id in expired {
                remove_member(
                    group,
                    &member_id,
                    RemovalReason::SessionExpired,
                    now_ms,
                    initial_delay_ms,
                    &mut out,
                );
            }
            if group.join_deadline_ms.is_some_and(|d| d <= now_ms) {
                match group.initial_delay {
                    Some(delay) if group.new_member_added && delay.remaining_ms != 0 => {
                        // tryCompleteInitialRebalanceElseSchedule: extend the delay.
                        group.new_member_added = false;
                        let next = initial_delay_ms.min(delay.remaining_ms);
                        group.initial_delay = Some(InitialDelay {
                            delay_ms: next,
                            remaining_ms: (delay.remaining_ms - delay.delay_ms).max(0),
                        });
                        group.join_deadline_ms = Some(now_ms.saturating_add(next));
                    }
                    _ => complete_join(group, now_ms, &mut out),
                }
            }
        }
        out
    }
}

/// The JoinGroup answer a member gets when the join phase completes: the leader's
/// carries every member's subscription.
fn join_response(group: &ClassicGroup, member_id: &str) -> Response {
    let leader = group.leader_id.clone().unwrap_or_default();
    let members = if leader == member_id {
        group
            .members
            .values()
            .map(|m| (m.member_id.clone(), m.subscription.clone()))
            .collect()
    } else {
        Vec::new()
    };
    Response::JoinGroup {
        error: Errors::None,
        generation_id: group.generation_id,
        protocol_name: group.protocol_name.clone(),
        leader,
        member_id: member_id.to_string(),
        members,
    }
}

/// `prepareRebalance`, or (already preparing) `maybeCompleteJoinElseSchedule`.
fn rebalance_or_complete(
    group: &mut ClassicGroup,
    reason: RebalanceReason,
    now_ms: i64,
    initial_delay_ms: i64,
    out: &mut GroupOutput,
) {
    match group.state {
        ClassicGroupState::PreparingRebalance => maybe_complete_join(group, now_ms, out),
        _ => prepare_rebalance(group, reason, now_ms, initial_delay_ms, out),
    }
}

/// `prepareRebalance`: a CompletingRebalance group's parked syncs are answered
/// REBALANCE_IN_PROGRESS; an Empty group waits `group.initial.rebalance.delay.ms`
/// for more members, any other the rebalance timeout.
fn prepare_rebalance(
    group: &mut ClassicGroup,
    reason: RebalanceReason,
    now_ms: i64,
    initial_delay_ms: i64,
    out: &mut GroupOutput,
) {
    if group.state == ClassicGroupState::CompletingRebalance {
        for m in group.members.values_mut() {
            m.assignment.clear();
            if let Some(t) = m.awaiting_sync.take() {
                out.deferred
                    .push((t, sync_error(Errors::RebalanceInProgress)));
            }
        }
    }
    let initial = group.state == ClassicGroupState::Empty && initial_delay_ms > 0;
    out.events.push(GroupEvent::RebalancePrepared {
        group: group.group_id.clone(),
        generation: group.generation_id,
        reason,
    });
    group.state = ClassicGroupState::PreparingRebalance;
    if initial {
        group.new_member_added = false;
        group.initial_delay = Some(InitialDelay {
            delay_ms: initial_delay_ms,
            remaining_ms: (group.rebalance_timeout_ms() - initial_delay_ms).max(0),
        });
        group.join_deadline_ms = Some(now_ms.saturating_add(initial_delay_ms));
    } else {
        group.initial_delay = None;
        group.join_deadline_ms = Some(now_ms.saturating_add(group.rebalance_timeout_ms()));
        maybe_complete_join(group, now_ms, out);
    }
}

/// `maybeCompleteJoinElseSchedule`: an initial delay always runs out; otherwise the
/// join phase ends as soon as every member rejoined.
fn maybe_complete_join(group: &mut ClassicGroup, now_ms: i64, out: &mut GroupOutput) {
    if group.initial_delay.is_none() && group.has_all_members_joined() {
        complete_join(group, now_ms, out);
    }
}

/// `completeClassicGroupJoin`: members that did not rejoin are removed, then the next
/// generation (`initNextGeneration`) and every parked JoinGroup answered.
fn complete_join(group: &mut ClassicGroup, now_ms: i64, out: &mut GroupOutput) {
    group.join_deadline_ms = None;
    group.initial_delay = None;
    let gone: Vec<String> = group
        .members
        .values()
        .filter(|m| m.awaiting_join.is_none())
        .map(|m| m.member_id.clone())
        .collect();
    for member_id in gone {
        group.members.remove(&member_id);
        out.events.push(GroupEvent::MemberRemoved {
            group: group.group_id.clone(),
            member_id,
            reason: RemovalReason::NotRejoined,
        });
    }
    if group
        .leader_id
        .as_ref()
        .is_none_or(|l| !group.members.contains_key(l))
    {
        group.leader_id = group.members.keys().next().cloned();
    }
    group.generation_id = group.generation_id.saturating_add(1);
    if group.members.is_empty() {
        group.state = ClassicGroupState::Empty;
        group.protocol_name = None;
        group.leader_id = None;
        out.events.push(GroupEvent::GroupEmptied {
            group: group.group_id.clone(),
            generation: group.generation_id,
        });
        return;
    }
    group.state = ClassicGroupState::CompletingRebalance;
    group.protocol_name = Some(RANGE_PROTOCOL.to_string());
    out.events.push(GroupEvent::JoinCompleted {
        group: group.group_id.clone(),
        generation: group.generation_id,
        leader: group.leader_id.clone().unwrap_or_default(),
        members: group.members.keys().cloned().collect(),
    });
    let ids: Vec<String> = group.members.keys().cloned().collect();
    for id in ids {
        let response = join_response(group, &id);
        if let Some(m) = group.members.get_mut(&id) {
            m.session_deadline_ms = now_ms.saturating_add(m.session_timeout_ms);
            if let Some(t) = m.awaiting_join.take() {
                out.deferred.push((t, response));
            }
        }
    }
}

/// `removeMemberAndUpdateClassicGroup`: its parked requests are answered
/// UNKNOWN_MEMBER_ID, then a Stable or CompletingRebalance group rebalances and a
/// preparing one may now be complete.
fn remove_member(
    group: &mut ClassicGroup,
    member_id: &str,
    reason: RemovalReason,
    now_ms: i64,
    initial_delay_ms: i64,
    out: &mut GroupOutput,
) {
    let Some(m) = group.members.remove(member_id) else {
        return;
    };
    if let Some(t) = m.awaiting_join {
        out.deferred
            .push((t, join_error(member_id, Errors::UnknownMemberId)));
    }
    if let Some(t) = m.awaiting_sync {
        out.deferred.push((t, sync_error(Errors::UnknownMemberId)));
    }
    out.events.push(GroupEvent::MemberRemoved {
        group: group.group_id.clone(),
        member_id: member_id.to_string(),
        reason,
    });
    if group.leader_id.as_deref() == Some(member_id) {
        group.leader_id = group.members.keys().next().cloned();
    }
    let why = match reason {
        RemovalReason::SessionExpired => RebalanceReason::MemberExpired {
            member_id: member_id.to_string(),
        },
        _ => RebalanceReason::MemberLeft {
            member_id: member_id.to_string(),
        },
    };
    match group.state {
        ClassicGroupState::Stable | ClassicGroupState::CompletingRebalance => {
            prepare_rebalance(group, why, now_ms, initial_delay_ms, out)
        }
        ClassicGroupState::PreparingRebalance => maybe_complete_join(group, now_ms, out),
        ClassicGroupState::Empty | ClassicGroupState::Dead => {}
    }
}

#[cfg(test)]
mod tests;
