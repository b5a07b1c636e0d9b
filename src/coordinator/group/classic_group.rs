//! One consumer group of the classic protocol (Kafka's `classic/ClassicGroup` and
//! `ClassicGroupMember`): its state, generation, leader and members, and the checks an
//! offset commit passes (`ClassicGroup.validateOffsetCommit`, Kafka 4.0).
//!
//! ```text
//!  Empty ──join──► PreparingRebalance ──all joined / timer──► CompletingRebalance
//!    ▲                  ▲                                          │ leader's SyncGroup
//!    └── last member ───┴──── join, leave, session expiry ◄─── Stable
//! ```
//!
//! Simplified: one protocol (`consumer`, assignor `range`), no static membership
//! (a `group.instance.id` is only checked on offset commits), no group metadata
//! records in `__consumer_offsets` (membership lives in memory only).

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::util::sorted_map::SortedMap;

/// `ClassicGroupState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ClassicGroupState {
    Empty,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
    Dead,
}

impl ClassicGroupState {
    /// Kafka's name, as `kafka-consumer-groups.sh --describe --state` prints it.
    pub fn name(self) -> &'static str {
        match self {
            ClassicGroupState::Empty => "Empty",
            ClassicGroupState::PreparingRebalance => "PreparingRebalance",
            ClassicGroupState::CompletingRebalance => "CompletingRebalance",
            ClassicGroupState::Stable => "Stable",
            ClassicGroupState::Dead => "Dead",
        }
    }
}

/// A member (`ClassicGroupMember`). `awaiting_join`/`awaiting_sync` hold the token of
/// a JoinGroup/SyncGroup the coordinator answers later (Kafka's response futures).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassicGroupMember {
    pub(super) member_id: String,
    pub(super) client_id: String,
    pub(super) session_timeout_ms: i64,
    pub(super) rebalance_timeout_ms: i64,
    /// The topics of its `consumer` protocol metadata (its subscription).
    pub(super) subscription: Vec<String>,
    pub(super) assignment: Vec<TopicPartition>,
    pub(super) awaiting_join: Option<u64>,
    pub(super) awaiting_sync: Option<u64>,
    /// When its session expires unless a heartbeat (or join/sync) comes first.
    pub(super) session_deadline_ms: i64,
}

impl ClassicGroupMember {
    pub fn member_id(&self) -> &str {
        &self.member_id
    }
    pub fn client_id(&self) -> &str {
        &self.client_id
    }
    pub fn subscription(&self) -> &[String] {
        &self.subscription
    }
    pub fn assignment(&self) -> &[TopicPartition] {
        &self.assignment
    }
    pub fn session_deadline_ms(&self) -> i64 {
        self.session_deadline_ms
    }
}

/// The initial rebalance's delay (`group.initial.rebalance.delay.ms`), extended while
/// new members keep joining, up to the rebalance timeout
/// (`tryCompleteInitialRebalanceElseSchedule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(super) struct InitialDelay {
    pub(super) delay_ms: i64,
    pub(super) remaining_ms: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassicGroup {
    pub(super) group_id: String,
    pub(super) state: ClassicGroupState,
    pub(super) generation_id: i32,
    pub(super) protocol_name: Option<String>,
    pub(super) leader_id: Option<String>,
    pub(super) members: SortedMap<String, ClassicGroupMember>,
    /// Member ids handed out with MEMBER_ID_REQUIRED, not joined yet, and when they
    /// expire (KIP-394).
    pub(super) pending_members: SortedMap<String, i64>,
    /// When the join phase completes even if some members have not rejoined (the
    /// rebalance timeout, or the initial delay's next check).
    pub(super) join_deadline_ms: Option<i64>,
    pub(super) initial_delay: Option<InitialDelay>,
    pub(super) new_member_added: bool,
}

impl ClassicGroup {
    /// An Empty group of generation 0: one a JoinGroup creates, or the simple group of
    /// a consumer that only commits offsets.
    pub(super) fn new(group_id: &str) -> Self {
        ClassicGroup {
            group_id: group_id.to_string(),
            state: ClassicGroupState::Empty,
            generation_id: 0,
            protocol_name: None,
            leader_id: None,
            members: SortedMap::new(),
            pending_members: SortedMap::new(),
            join_deadline_ms: None,
            initial_delay: None,
            new_member_added: false,
        }
    }

    pub fn group_id(&self) -> &str {
        &self.group_id
    }
    pub fn state(&self) -> ClassicGroupState {
        self.state
    }
    pub fn generation_id(&self) -> i32 {
        self.generation_id
    }
    pub fn protocol_name(&self) -> Option<&str> {
        self.protocol_name.as_deref()
    }
    pub fn leader_id(&self) -> Option<&str> {
        self.leader_id.as_deref()
    }
    pub fn members(&self) -> impl Iterator<Item = &ClassicGroupMember> {
        self.members.values()
    }
    pub fn member(&self, member_id: &str) -> Option<&ClassicGroupMember> {
        self.members.get(member_id)
    }

    /// `hasAllMembersJoined`: every member has a JoinGroup waiting and no member id
    /// handed out is still to join.
    // Only the membership (feature `group-membership`) makes groups.
    #[cfg_attr(not(feature = "group-membership"), allow(dead_code))]
    pub(super) fn has_all_members_joined(&self) -> bool {
        self.members.values().all(|m| m.awaiting_join.is_some()) && self.pending_members.is_empty()
    }

    /// The largest rebalance timeout of the members (`rebalanceTimeoutMs`).
    // Only the membership (feature `group-membership`) makes groups.
    #[cfg_attr(not(feature = "group-membership"), allow(dead_code))]
    pub(super) fn rebalance_timeout_ms(&self) -> i64 {
        self.members
            .values()
            .map(|m| m.rebalance_timeout_ms)
            .max()
            .unwrap_or(0)
    }

    /// `ClassicGroup.validateOffsetCommit` (Kafka 4.0) for OffsetCommit
    /// (`transactional` false) and TxnOffsetCommit: a commit without generation and
    /// member id is a simple group's, accepted while the group is Empty; a member's
    /// must name a current member and the current generation.
    pub fn validate_offset_commit(
        &self,
        member_id: &str,
        group_instance_id: Option<&str>,
        generation_id: i32,
        transactional: bool,
    ) -> Result<(), Errors> {
        if self.state == ClassicGroupState::Dead {
            return Err(Errors::CoordinatorNotAvailable);
        }
        if generation_id < 0 && self.state == ClassicGroupState::Empty {
            return Ok(());
        }
        if generation_id >= 0 || !member_id.is_empty() || group_instance_id.is_some() {
            self.validate_member(member_id, group_instance_id)?;
            if generation_id != self.generation_id {
                return Err(Errors::IllegalGeneration);
            }
        } else if !transactional && self.state != ClassicGroupState::Empty {
            return Err(Errors::UnknownMemberId);
        }
        if !transactional && self.state == ClassicGroupState::CompletingRebalance {
            return Err(Errors::RebalanceInProgress);
        }
        Ok(())
    }

    /// `ClassicGroup.validateMember`: a `group.instance.id` must belong to this member
    /// id (FENCED_INSTANCE_ID), and the member id must be a member. No member here has
    /// an instance id (no static membership), so any instance id is unknown.
    pub(super) fn validate_member(
        &self,
        member_id: &str,
        group_instance_id: Option<&str>,
    ) -> Result<(), Errors> {
        if group_instance_id.is_some() {
            return Err(Errors::UnknownMemberId);
        }
        if !self.members.contains_key(member_id) {
            return Err(Errors::UnknownMemberId);
        }
        Ok(())
    }
}

/// The range assignor (`RangeAssignor`): per topic, the members subscribed to it in
/// member-id order each take a run of consecutive partitions; the first
/// `partitions % members` take one more.
pub fn range_assign(
    members: &[(String, Vec<String>)],
    partitions_of: &dyn Fn(&str) -> i32,
) -> Vec<(String, Vec<TopicPartition>)> {
    let mut out: SortedMap<String, Vec<TopicPartition>> = members
        .iter()
        .map(|(m, _)| (m.clone(), Vec::new()))
        .collect();
    let mut topics: Vec<&String> = members.iter().flat_map(|(_, t)| t).collect();
    topics.sort();
    topics.dedup();
    for topic in topics {
        let mut subscribed: Vec<&String> = members
            .iter()
            .filter(|(_, t)| t.contains(topic))
            .map(|(m, _)| m)
            .collect();
        subscribed.sort();
        let n = partitions_of(topic).max(0);
        let Ok(m) = i32::try_from(subscribed.len()) else {
            continue;
        };
        if m == 0 {
            continue;
        }
        let (per, extra) = (n / m, n % m);
        let mut next = 0;
        for (i, member) in (0..).zip(subscribed) {
            let count = per + i32::from(i < extra);
            if let Some(list) = out.get_mut(member) {
                list.extend((next..next + count).map(|p| TopicPartition::new(topic.clone(), p)));
            }
            next += count;
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stable_group() -> ClassicGroup {
        let mut g = ClassicGroup::new("g");
        g.state = ClassicGroupState::Stable;
        g.generation_id = 2;
        g.members.insert(
            "c1-1".into(),
            ClassicGroupMember {
                member_id: "c1-1".into(),
                client_id: "c1".into(),
                session_timeout_ms: 45_000,
                rebalance_timeout_ms: 300_000,
                subscription: vec!["in".into()],
                assignment: Vec::new(),
                awaiting_join: None,
                awaiting_sync: None,
                session_deadline_ms: 45_000,
            },
        );
        g
    }

    /// ClassicGroupTest.testValidateOffsetCommit, the cases of a classic group.
    #[test]
    fn test_validate_offset_commit() {
        let mut g = stable_group();
        assert_eq!(g.validate_offset_commit("c1-1", None, 2, false), Ok(()));
        assert_eq!(g.validate_offset_commit("c1-1", None, 2, true), Ok(()));
        assert_eq!(
            g.validate_offset_commit("c1-1", None, 1, true),
            Err(Errors::IllegalGeneration)
        );
        assert_eq!(
            g.validate_offset_commit("gone", None, 2, true),
            Err(Errors::UnknownMemberId)
        );
        // No member id and no generation: refused while the group has members...
        assert_eq!(
            g.validate_offset_commit("", None, -1, false),
            Err(Errors::UnknownMemberId)
        );
        // ...except for a transactional commit, which older clients send that way.
        assert_eq!(g.validate_offset_commit("", None, -1, true), Ok(()));
        g.state = ClassicGroupState::CompletingRebalance;
        assert_eq!(
            g.validate_offset_commit("c1-1", None, 2, false),
            Err(Errors::RebalanceInProgress)
        );
        assert_eq!(g.validate_offset_commit("c1-1", None, 2, true), Ok(()));
        g.state = ClassicGroupState::Dead;
        assert_eq!(
            g.validate_offset_commit("c1-1", None, 2, true),
            Err(Errors::CoordinatorNotAvailable)
        );
    }

    /// A simple group (generation -1, no member id) commits while Empty.
    #[test]
    fn test_validate_offset_commit_simple_group() {
        let g = ClassicGroup::new("g");
        assert_eq!(g.validate_offset_commit("", None, -1, false), Ok(()));
        assert_eq!(g.validate_offset_commit("", None, -1, true), Ok(()));
        assert_eq!(
            g.validate_offset_commit("x", None, 0, true),
            Err(Errors::UnknownMemberId)
        );
    }

    /// RangeAssignorTest.testTwoConsumersOneTopicThreePartitions.
    #[test]
    fn test_range_assignor_two_consumers_three_partitions() {
        let members = vec![
            ("b".to_string(), vec!["t".to_string()]),
            ("a".to_string(), vec!["t".to_string()]),
        ];
        let out = range_assign(&members, &|_| 3);
        let tp = |p| TopicPartition::new("t", p);
        assert_eq!(
            out,
            vec![
                ("a".to_string(), vec![tp(0), tp(1)]),
                ("b".to_string(), vec![tp(2)])
            ]
        );
    }
}
