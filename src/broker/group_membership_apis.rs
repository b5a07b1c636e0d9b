//! The broker's side of the classic group protocol: JoinGroup, SyncGroup, Heartbeat and
//! LeaveGroup handed to the group coordinator of the group's `__consumer_offsets`
//! partition (`GroupCoordinatorService`'s classic-group calls), and the group timers
//! (session expiry, the end of a join phase) run when the clock passes them.

use super::broker::{Broker, BrokerEvent, Handled};
use crate::coordinator::group::{GroupOutput, JoinGroupArgs};
use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC;
use crate::protocol::{error_response, Request};

fn handled(out: GroupOutput) -> Handled {
    Handled {
        response: out.response,
        deferred: out.deferred,
        events: out.events.into_iter().map(BrokerEvent::Group).collect(),
        outbound: Vec::new(),
    }
}

impl Broker {
    /// One membership request (JoinGroup, SyncGroup, Heartbeat, LeaveGroup); `token`
    /// answers a parked JoinGroup or SyncGroup later.
    pub(super) fn handle_group_membership(
        &mut self,
        request: Request,
        token: u64,
        now_ms: i64,
    ) -> Handled {
        let group_id = match &request {
            Request::JoinGroup { group_id, .. }
            | Request::SyncGroup { group_id, .. }
            | Request::Heartbeat { group_id, .. }
            | Request::LeaveGroup { group_id, .. } => group_id.clone(),
            other => {
                return Handled::reply(error_response(
                    other,
                    crate::protocol::Errors::InvalidRequest,
                ))
            }
        };
        let gtp = self.internal_partition_for(GROUP_METADATA_TOPIC, &group_id);
        if let Some(error) = self.coordinator_error(&gtp) {
            return Handled::reply(error_response(&request, error));
        }
        let gc = &mut self.group_coordinator;
        let out = match &request {
            Request::JoinGroup {
                member_id,
                client_id,
                session_timeout_ms,
                rebalance_timeout_ms,
                topics,
                ..
            } => gc.join_group(
                &JoinGroupArgs {
                    group_id: &group_id,
                    member_id,
                    client_id,
                    session_timeout_ms: i64::from(*session_timeout_ms),
                    rebalance_timeout_ms: i64::from(*rebalance_timeout_ms),
                    topics,
                },
                token,
                now_ms,
            ),
            Request::SyncGroup {
                generation_id,
                member_id,
                assignments,
                ..
            } => gc.sync_group(
                &group_id,
                *generation_id,
                member_id,
                assignments,
                token,
                now_ms,
            ),
            Request::Heartbeat {
                generation_id,
                member_id,
                ..
            } => GroupOutput {
                response: Some(crate::protocol::Response::Heartbeat {
                    error: gc.heartbeat(&group_id, *generation_id, member_id, now_ms),
                }),
                ..GroupOutput::default()
            },
            Request::LeaveGroup { member_id, .. } => gc.leave_group(&group_id, member_id, now_ms),
            _ => GroupOutput::default(),
        };
        handled(out)
    }

    /// The group timers that fell due by `now_ms`.
    pub fn expire_group_timers(&mut self, now_ms: i64) -> Handled {
        if !self.online {
            return Handled::default();
        }
        handled(self.group_coordinator.expire_group_timers(now_ms))
    }
}
