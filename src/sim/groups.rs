//! Consumers in a group (classic protocol): `subscribe()` and `unsubscribe()`, the
//! JoinGroup/SyncGroup/Heartbeat/LeaveGroup requests through the network, the
//! assignment that decides what the consumer fetches, the heartbeats and the group
//! coordinator's timers on the logical clock, and `kafka-consumer-groups.sh --describe`.
//!
//! Heartbeats and the coordinator's timers are periodic work: they run when the clock
//! passes them (`run N`), and are a reason for the clock to move only while a member
//! waits for a rebalance (its JoinGroup or SyncGroup parked), as `poll()` would keep
//! Kafka's consumer going. An idle group never keeps `run` from ending.

use super::error::{SimError, SimErrorKind};
use super::event::EventKind;
use super::network::{Body, Node};
use super::world::World;
use crate::client::consumer::{ConsumerMembership, MemberStep};
use crate::coordinator::group::ClassicGroupState;
use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// What happened to a consumer's membership, for narration.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum MemberEvent {
    /// SyncGroup gave it these partitions in this generation (`onPartitionsAssigned`).
    Assigned {
        group: String,
        generation: i32,
        member_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// A rebalance began for it: its partitions are revoked before it rejoins (eager).
    Rejoining { group: String, member_id: String },
    /// It is out of the group (`onPartitionsLost`): its generation and member id reset.
    Lost { group: String, error: Errors },
}

impl World {
    fn no_consumer(name: &str) -> SimError {
        SimErrorKind::NoConsumer {
            name: name.to_string(),
        }
        .into()
    }

    /// `subscribe(topics)` then the first `poll()`'s `ensureActiveGroup`: the consumer
    /// joins its group and runs until it has its partitions (or gives up).
    pub(super) fn subscribe(
        &mut self,
        name: &str,
        topics: &[String],
    ) -> Result<Vec<String>, SimError> {
        let consumer = self
            .consumers
            .get(name)
            .ok_or_else(|| Self::no_consumer(name))?;
        let group = consumer.config.group_id.clone().ok_or_else(|| {
            SimError::from(SimErrorKind::SubscribeWithoutGroupId {
                consumer: name.to_string(),
            })
        })?;
        // A topic that does not exist (yet) is subscribed to all the same: it has no
        // partitions to assign.
        let client_id = consumer.config.client_id.clone();
        // FindCoordinator creates `__consumer_offsets` on first use.
        self.create_internal_topic(GROUP_METADATA_TOPIC);
        let gtp = self.internal_partition_for(GROUP_METADATA_TOPIC, &group);
        self.run_while(|w| w.coordinator_loading(&gtp));
        let mut membership = ConsumerMembership::new(&group, &client_id, topics);
        let request = membership.join_request();
        self.memberships.insert(name.to_string(), membership);
        if let Some(c) = self.consumers.get_mut(name) {
            c.assign(&[]);
        }
        self.send_member_request(name, request);
        self.await_rebalance(name);
        Ok(vec![])
    }

    /// `unsubscribe()`: LeaveGroup, and no partitions.
    pub(super) fn unsubscribe(&mut self, name: &str) -> Result<Vec<String>, SimError> {
        if !self.consumers.contains_key(name) {
            return Err(Self::no_consumer(name));
        }
        let request = self
            .memberships
            .get_mut(name)
            .and_then(|m| m.leave_request());
        if let Some(c) = self.consumers.get_mut(name) {
            c.assign(&[]);
        }
        if let Some(request) = request {
            self.send_member_request(name, request);
            self.run_while(|w| w.member_calls.values().any(|c| c == name));
            self.member_calls.retain(|_, c| c != name);
        }
        self.memberships.remove(name);
        Ok(vec![])
    }

    /// A member's `poll()` first rejoins if it lost its membership (`ensureActiveGroup`).
    pub(super) fn rejoin_if_needed(&mut self, name: &str) {
        let Some(m) = self.memberships.get_mut(name) else {
            return;
        };
        if m.state() != crate::client::consumer::MemberState::Unjoined {
            return;
        }
        let request = m.join_request();
        self.send_member_request(name, request);
        self.await_rebalance(name);
    }

    fn send_member_request(&mut self, name: &str, request: Request) {
        let Some(group) = self.memberships.get(name).map(|m| m.group_id().to_string()) else {
            return;
        };
        let gtp = self.internal_partition_for(GROUP_METADATA_TOPIC, &group);
        let Some(coordinator) = self.leader_of(&gtp) else {
            if let Some(m) = self.memberships.get_mut(name) {
                m.on_lost_request();
            }
            return;
        };
        let cid = self.take_correlation_id();
        self.member_calls.insert(cid, name.to_string());
        self.send(
            Node::Client(name.to_string()),
            Node::Broker(coordinator),
            cid,
            Body::Request(request),
        );
    }

    /// Runs while the member's JoinGroup or SyncGroup is on its way; a request lost on
    /// the way leaves it unjoined (it rejoins at its next poll).
    fn await_rebalance(&mut self, name: &str) {
        self.run_while(|w| w.memberships.get(name).is_some_and(|m| m.rebalancing()));
        let lost = self.memberships.get(name).is_some_and(|m| m.rebalancing());
        if lost {
            self.member_calls.retain(|_, c| c != name);
            if let Some(m) = self.memberships.get_mut(name) {
                m.on_lost_request();
            }
        }
    }

    /// Whether a response with this correlation id answers a membership request.
    pub(super) fn is_member_call(&self, correlation_id: u64) -> bool {
        self.member_calls.contains_key(&correlation_id)
    }

    /// An answer to a JoinGroup, SyncGroup, Heartbeat or LeaveGroup.
    pub(super) fn on_member_response(&mut self, correlation_id: u64, response: Response) {
        let Some(name) = self.member_calls.remove(&correlation_id) else {
            return;
        };
        let now = self.clock_ms;
        let topics = &self.topics;
        let partitions_of = |t: &str| {
            topics
                .get(t)
                .and_then(|i| i32::try_from(i.leaders.len()).ok())
                .unwrap_or(0)
        };
        let Some(m) = self.memberships.get_mut(&name) else {
            return;
        };
        let was_stable = m.state() == crate::client::consumer::MemberState::Stable;
        let member_id = m.member_id().to_string();
        let step = m.on_response(response, now, &partitions_of);
        let group = m.group_id().to_string();
        let generation = m.generation_id();
        let new_member_id = m.member_id().to_string();
        match step {
            MemberStep::Send(request) => {
                if was_stable {
                    if let Some(c) = self.consumers.get_mut(&name) {
                        c.assign(&[]);
                    }
                    self.emit(EventKind::GroupMember {
                        client: name.clone(),
                        event: MemberEvent::Rejoining { group, member_id },
                    });
                }
                self.send_member_request(&name, request);
            }
            MemberStep::Assigned(partitions) => {
                self.emit(EventKind::GroupMember {
                    client: name.clone(),
                    event: MemberEvent::Assigned {
                        group,
                        generation,
                        member_id: new_member_id,
                        partitions: partitions.clone(),
                    },
                });
                // The partitions' positions: the committed offsets, else the reset.
                let _ = self.assign(&name, &partitions);
            }
            MemberStep::Lost(error) => {
                if let Some(c) = self.consumers.get_mut(&name) {
                    c.assign(&[]);
                }
                self.emit(EventKind::GroupMember {
                    client: name,
                    event: MemberEvent::Lost { group, error },
                });
            }
            MemberStep::Nothing => {}
        }
    }

    /// Whether some member waits for its group (a JoinGroup or SyncGroup parked at a
    /// coordinator, or on its way).
    pub(super) fn group_waiting(&self) -> bool {
        self.memberships.values().any(|m| m.rebalancing())
    }

    /// The next heartbeat or group timer, if any.
    pub(super) fn next_group_timer_ms(&self) -> Option<i64> {
        let heartbeats = self
            .memberships
            .values()
            .filter_map(|m| m.next_heartbeat_ms());
        let coordinators = self
            .brokers
            .values()
            .filter(|b| b.is_online())
            .filter_map(|b| b.group_coordinator().next_group_deadline_ms());
        heartbeats.chain(coordinators).min()
    }

    /// Heartbeats due now are sent, and the coordinators' group timers run.
    pub(super) fn run_group_timers(&mut self) {
        if self.memberships.is_empty() {
            return;
        }
        let now = self.clock_ms;
        for id in self.online_brokers() {
            let due = self
                .brokers
                .get(&id)
                .and_then(|b| b.group_coordinator().next_group_deadline_ms())
                .is_some_and(|t| t <= now);
            if !due {
                continue;
            }
            if let Some(b) = self.brokers.get_mut(&id) {
                let handled = b.expire_group_timers(now);
                self.apply_handled(id, None, handled);
            }
        }
        let names: Vec<String> = self.memberships.keys().cloned().collect();
        for name in names {
            let request = self
                .memberships
                .get_mut(&name)
                .and_then(|m| m.heartbeat_request(now));
            if let Some(request) = request {
                self.send_member_request(&name, request);
            }
        }
    }

    /// `kafka-consumer-groups.sh --describe --group G --members` with the group's state
    /// and generation: one line for the group, one per member.
    pub fn describe_group(&self, group_id: &str) -> Vec<String> {
        let gtp = self.internal_partition_for(GROUP_METADATA_TOPIC, group_id);
        let coordinator = self.leader_of(&gtp);
        let group = coordinator
            .and_then(|b| self.brokers.get(&b))
            .and_then(|b| b.group_coordinator().group(group_id));
        let Some(group) = group else {
            return vec![format!("Consumer group '{group_id}' does not exist.")];
        };
        let mut lines = super::txn_views::table(
            &[
                "GROUP",
                "COORDINATOR (ID)",
                "ASSIGNMENT-STRATEGY",
                "STATE",
                "GENERATION",
                "#MEMBERS",
            ],
            &[vec![
                group_id.to_string(),
                coordinator.map_or("-".into(), |c| format!("broker-{c} ({c})")),
                group.protocol_name().unwrap_or("").to_string(),
                group.state().name().to_string(),
                group.generation_id().to_string(),
                group.members().count().to_string(),
            ]],
        );
        if group.state() == ClassicGroupState::Empty {
            return lines;
        }
        let rows: Vec<Vec<String>> = group
            .members()
            .map(|m| {
                let mut by_topic: Vec<(String, Vec<i32>)> = Vec::new();
                for tp in m.assignment() {
                    match by_topic.iter_mut().find(|(t, _)| *t == tp.topic) {
                        Some((_, ps)) => ps.push(tp.partition),
                        None => by_topic.push((tp.topic.clone(), vec![tp.partition])),
                    }
                }
                let assignment: Vec<String> = by_topic
                    .iter()
                    .map(|(t, ps)| {
                        let ps: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                        format!("{t}({})", ps.join(","))
                    })
                    .collect();
                let leader = if group.leader_id() == Some(m.member_id()) {
                    " (leader)"
                } else {
                    ""
                };
                vec![
                    format!("{}{leader}", m.member_id()),
                    m.client_id().to_string(),
                    m.assignment().len().to_string(),
                    if assignment.is_empty() {
                        "-".to_string()
                    } else {
                        assignment.join(",")
                    },
                ]
            })
            .collect();
        lines.extend(super::txn_views::table(
            &["CONSUMER-ID", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT"],
            &rows,
        ));
        lines
    }
}
