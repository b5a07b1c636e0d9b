//! The consumer's side of the classic group protocol (Kafka's `ConsumerCoordinator` and
//! `AbstractCoordinator`), as a sans-IO state machine: which request to send next and
//! what an answer means. The world sends the requests and hands back the answers.
//!
//! ```text
//!  Unjoined ──JoinGroup──► Joining ──(MEMBER_ID_REQUIRED: again, with the id)
//!     Joining ──answer──► Syncing (the leader runs the range assignor) ──SyncGroup──►
//!     Stable: Heartbeat every heartbeat.interval.ms
//!        REBALANCE_IN_PROGRESS ──► rejoin (eager: the partitions are revoked first)
//!        UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION ──► partitions lost, member id reset
//! ```
//!
//! Simplified: the eager protocol only (the range assignor), no `group.instance.id`,
//! no auto-commit before a rebalance, and the rejoin after a lost membership waits for
//! the application's next `poll` (as Kafka's does).

use serde::Serialize;

use super::ConsumerGroupMetadata;

use crate::coordinator::group::range_assign;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// `session.timeout.ms` (Kafka 4.0's default 45 s).
pub const DEFAULT_SESSION_TIMEOUT_MS: i64 = 45_000;
/// `heartbeat.interval.ms` (3 s).
pub const DEFAULT_HEARTBEAT_INTERVAL_MS: i64 = 3_000;
/// `max.poll.interval.ms` (5 min), the JoinGroup's rebalance timeout.
pub const DEFAULT_MAX_POLL_INTERVAL_MS: i64 = 300_000;

/// Where the member is (`AbstractCoordinator.MemberState`, with the request in flight).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MemberState {
    Unjoined,
    /// A JoinGroup is in flight.
    Joining,
    /// A SyncGroup is in flight.
    Syncing,
    Stable,
}

/// What an answer asks of the world.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum MemberStep {
    /// Send this request now.
    Send(Request),
    /// The member got its partitions (`onPartitionsAssigned`).
    Assigned(Vec<TopicPartition>),
    /// The member is out of the group (`onPartitionsLost`): why.
    Lost(Errors),
    /// Nothing to do (a heartbeat went through, a stale answer).
    Nothing,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConsumerMembership {
    group_id: String,
    client_id: String,
    subscription: Vec<String>,
    member_id: String,
    generation_id: i32,
    state: MemberState,
    leader: bool,
    assignment: Vec<TopicPartition>,
    session_timeout_ms: i64,
    heartbeat_interval_ms: i64,
    rebalance_timeout_ms: i64,
    /// When the next heartbeat is due (Stable only): an interval after the last one
    /// was sent, answered or not (a lost one is simply followed by the next).
    next_heartbeat_ms: Option<i64>,
}

impl ConsumerMembership {
    /// `subscribe(topics)`: unjoined until the first JoinGroup.
    pub fn new(group_id: &str, client_id: &str, topics: &[String]) -> Self {
        ConsumerMembership {
            group_id: group_id.to_string(),
            client_id: client_id.to_string(),
            subscription: topics.to_vec(),
            member_id: String::new(),
            generation_id: -1,
            state: MemberState::Unjoined,
            leader: false,
            assignment: Vec::new(),
            session_timeout_ms: DEFAULT_SESSION_TIMEOUT_MS,
            heartbeat_interval_ms: DEFAULT_HEARTBEAT_INTERVAL_MS,
            rebalance_timeout_ms: DEFAULT_MAX_POLL_INTERVAL_MS,
            next_heartbeat_ms: None,
        }
    }

    pub fn group_id(&self) -> &str {
        &self.group_id
    }
    pub fn member_id(&self) -> &str {
        &self.member_id
    }
    pub fn generation_id(&self) -> i32 {
        self.generation_id
    }
    pub fn state(&self) -> MemberState {
        self.state
    }
    pub fn is_leader(&self) -> bool {
        self.leader
    }
    pub fn assignment(&self) -> &[TopicPartition] {
        &self.assignment
    }
    pub fn subscription(&self) -> &[String] {
        &self.subscription
    }
    pub fn next_heartbeat_ms(&self) -> Option<i64> {
        self.next_heartbeat_ms
    }
    /// Whether a JoinGroup or SyncGroup is on its way (the member waits for the group).
    pub fn rebalancing(&self) -> bool {
        matches!(self.state, MemberState::Joining | MemberState::Syncing)
    }

    /// `consumer.groupMetadata()`.
    pub fn group_metadata(&self) -> ConsumerGroupMetadata {
        ConsumerGroupMetadata {
            group_id: self.group_id.clone(),
            generation_id: self.generation_id,
            member_id: self.member_id.clone(),
            group_instance_id: None,
        }
    }

    /// `joinGroupIfNeeded`: the JoinGroup (eager: the assignment is revoked first).
    pub fn join_request(&mut self) -> Request {
        self.state = MemberState::Joining;
        self.assignment.clear();
        self.next_heartbeat_ms = None;
        Request::JoinGroup {
            group_id: self.group_id.clone(),
            member_id: self.member_id.clone(),
            client_id: self.client_id.clone(),
            session_timeout_ms: i32::try_from(self.session_timeout_ms).unwrap_or(i32::MAX),
            rebalance_timeout_ms: i32::try_from(self.rebalance_timeout_ms).unwrap_or(i32::MAX),
            topics: self.subscription.clone(),
        }
    }

    /// The Heartbeat due at `now_ms`, if one is.
    pub fn heartbeat_request(&mut self, now_ms: i64) -> Option<Request> {
        let due = self.next_heartbeat_ms()?;
        if due > now_ms || self.state != MemberState::Stable {
            return None;
        }
        self.next_heartbeat_ms = Some(now_ms.saturating_add(self.heartbeat_interval_ms));
        Some(Request::Heartbeat {
            group_id: self.group_id.clone(),
            generation_id: self.generation_id,
            member_id: self.member_id.clone(),
        })
    }

    /// `LeaveGroup` (`maybeLeaveGroup`, on `unsubscribe()`/`close()`): the member
    /// forgets its id and generation at once.
    pub fn leave_request(&mut self) -> Option<Request> {
        if self.member_id.is_empty() {
            return None;
        }
        let request = Request::LeaveGroup {
            group_id: self.group_id.clone(),
            member_id: self.member_id.clone(),
        };
        self.reset();
        Some(request)
    }

    /// A membership request went unanswered (lost on the way): Kafka's client retries
    /// on its next poll; here the member is unjoined until then.
    pub fn on_lost_request(&mut self) {
        if self.rebalancing() {
            self.state = MemberState::Unjoined;
        }
    }

    /// An answer to a JoinGroup, SyncGroup or Heartbeat. `partitions_of` gives a
    /// topic's partition count, for the leader's assignor.
    pub fn on_response(
        &mut self,
        response: Response,
        now_ms: i64,
        partitions_of: &dyn Fn(&str) -> i32,
    ) -> MemberStep {
        match response {
            Response::JoinGroup {
                error,
                generation_id,
                leader,
                member_id,
                members,
                ..
            } => {
                if self.state != MemberState::Joining {
                    return MemberStep::Nothing;
                }
                match error {
                    Errors::None => {
                        self.member_id = member_id;
                        self.generation_id = generation_id;
                        self.leader = leader == self.member_id;
                        self.state = MemberState::Syncing;
                        let assignments = if self.leader {
                            range_assign(&members, partitions_of)
                        } else {
                            Vec::new()
                        };
                        MemberStep::Send(Request::SyncGroup {
                            group_id: self.group_id.clone(),
                            generation_id,
                            member_id: self.member_id.clone(),
                            assignments,
                        })
                    }
                    Errors::MemberIdRequired => {
                        self.member_id = member_id;
                        MemberStep::Send(self.join_request())
                    }
                    Errors::RebalanceInProgress => MemberStep::Send(self.join_request()),
                    other => {
                        if matches!(other, Errors::UnknownMemberId | Errors::IllegalGeneration) {
                            self.reset();
                        } else {
                            self.state = MemberState::Unjoined;
                        }
                        MemberStep::Lost(other)
                    }
                }
            }
            Response::SyncGroup { error, assignment } => {
                if self.state != MemberState::Syncing {
                    return MemberStep::Nothing;
                }
                match error {
                    Errors::None => {
                        self.state = MemberState::Stable;
                        self.assignment = assignment.clone();
                        self.next_heartbeat_ms =
                            Some(now_ms.saturating_add(self.heartbeat_interval_ms));
                        MemberStep::Assigned(assignment)
                    }
                    Errors::RebalanceInProgress => MemberStep::Send(self.join_request()),
                    other => {
                        self.reset();
                        MemberStep::Lost(other)
                    }
                }
            }
            Response::Heartbeat { error } => {
                if self.state != MemberState::Stable {
                    return MemberStep::Nothing;
                }
                match error {
                    Errors::None => MemberStep::Nothing,
                    Errors::RebalanceInProgress => MemberStep::Send(self.join_request()),
                    Errors::UnknownMemberId | Errors::IllegalGeneration => {
                        self.reset();
                        MemberStep::Lost(error)
                    }
                    // Coordinator errors: the next heartbeat tries again.
                    _ => MemberStep::Nothing,
                }
            }
            _ => MemberStep::Nothing,
        }
    }

    /// `resetGenerationOnResponseError`/`resetStateAndGeneration`: no member id, no
    /// generation, no partitions.
    fn reset(&mut self) {
        self.member_id.clear();
        self.generation_id = -1;
        self.leader = false;
        self.assignment.clear();
        self.state = MemberState::Unjoined;
        self.next_heartbeat_ms = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join_ok(member: &str, leader: &str, generation: i32) -> Response {
        Response::JoinGroup {
            error: Errors::None,
            generation_id: generation,
            protocol_name: Some("range".into()),
            leader: leader.into(),
            member_id: member.into(),
            members: if member == leader {
                vec![(member.to_string(), vec!["t".to_string()])]
            } else {
                Vec::new()
            },
        }
    }

    /// The first JoinGroup is answered MEMBER_ID_REQUIRED and sent again with the id;
    /// the leader's SyncGroup carries the range assignment.
    #[test]
    fn test_join_member_id_required_then_sync() {
        let mut m = ConsumerMembership::new("g", "c1", &["t".to_string()]);
        let Request::JoinGroup { member_id, .. } = m.join_request() else {
            panic!("join");
        };
        assert_eq!(member_id, "");
        let step = m.on_response(
            Response::JoinGroup {
                error: Errors::MemberIdRequired,
                generation_id: -1,
                protocol_name: None,
                leader: String::new(),
                member_id: "c1-1".into(),
                members: Vec::new(),
            },
            0,
            &|_| 2,
        );
        assert!(
            matches!(step, MemberStep::Send(Request::JoinGroup { ref member_id, .. }) if member_id == "c1-1")
        );
        let step = m.on_response(join_ok("c1-1", "c1-1", 1), 0, &|_| 2);
        let MemberStep::Send(Request::SyncGroup { assignments, .. }) = step else {
            panic!("sync");
        };
        assert_eq!(
            assignments,
            vec![(
                "c1-1".to_string(),
                vec![TopicPartition::new("t", 0), TopicPartition::new("t", 1)]
            )]
        );
        let step = m.on_response(
            Response::SyncGroup {
                error: Errors::None,
                assignment: vec![TopicPartition::new("t", 0)],
            },
            10,
            &|_| 2,
        );
        assert_eq!(
            step,
            MemberStep::Assigned(vec![TopicPartition::new("t", 0)])
        );
        assert_eq!(m.next_heartbeat_ms(), Some(3_010));
        assert_eq!(m.group_metadata().generation_id, 1);
    }

    /// ConsumerCoordinatorTest: a heartbeat answered UNKNOWN_MEMBER_ID resets the
    /// generation and member id (`groupMetadata()` then carries -1 and "").
    #[test]
    fn test_heartbeat_unknown_member_resets_generation() {
        let mut m = ConsumerMembership::new("g", "c1", &["t".to_string()]);
        m.join_request();
        m.on_response(join_ok("c1-1", "c1-1", 1), 0, &|_| 1);
        m.on_response(
            Response::SyncGroup {
                error: Errors::None,
                assignment: vec![TopicPartition::new("t", 0)],
            },
            0,
            &|_| 1,
        );
        assert!(m.heartbeat_request(3_000).is_some());
        let step = m.on_response(
            Response::Heartbeat {
                error: Errors::UnknownMemberId,
            },
            3_001,
            &|_| 1,
        );
        assert_eq!(step, MemberStep::Lost(Errors::UnknownMemberId));
        assert_eq!(m.group_metadata(), ConsumerGroupMetadata::simple("g"));
        assert!(m.assignment().is_empty());
    }

    /// A heartbeat answered REBALANCE_IN_PROGRESS rejoins with the member id.
    #[test]
    fn test_heartbeat_rebalance_in_progress_rejoins() {
        let mut m = ConsumerMembership::new("g", "c1", &["t".to_string()]);
        m.join_request();
        m.on_response(join_ok("c1-1", "c1-1", 1), 0, &|_| 1);
        m.on_response(
            Response::SyncGroup {
                error: Errors::None,
                assignment: Vec::new(),
            },
            0,
            &|_| 1,
        );
        m.heartbeat_request(3_000);
        let step = m.on_response(
            Response::Heartbeat {
                error: Errors::RebalanceInProgress,
            },
            3_000,
            &|_| 1,
        );
        assert!(
            matches!(step, MemberStep::Send(Request::JoinGroup { ref member_id, .. }) if member_id == "c1-1")
        );
        assert_eq!(m.state(), MemberState::Joining);
    }
}
