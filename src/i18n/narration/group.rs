//! What the group coordinator and a group's members did — member ids, rebalances,
//! generations, assignments, expired sessions, refused offset commits — as catalog
//! messages (`group.*`, `member.*`).

use crate::coordinator::group::GroupEvent;
#[cfg(feature = "group-membership")]
use crate::coordinator::group::{RebalanceReason, RemovalReason};
use crate::i18n::message::Msg;
#[cfg(feature = "group-membership")]
use crate::i18n::message::{list, Arg};
#[cfg(feature = "group-membership")]
use crate::log::TopicPartition;
use crate::msg;
#[cfg(feature = "group-membership")]
use crate::sim::groups::MemberEvent;

#[cfg(feature = "group-membership")]
fn partitions(tps: &[TopicPartition]) -> Arg {
    if tps.is_empty() {
        return Arg::Msg(msg!("group.no-partitions"));
    }
    list(tps.iter().map(|tp| Arg::Text(tp.to_string())))
}

#[cfg(feature = "group-membership")]
fn reason(r: &RebalanceReason) -> Msg {
    match r {
        RebalanceReason::MemberJoined { member_id } => {
            msg!("group.reason.joined", member_id = member_id)
        }
        RebalanceReason::MemberRejoined { member_id } => {
            msg!("group.reason.rejoined", member_id = member_id)
        }
        RebalanceReason::MemberLeft { member_id } => {
            msg!("group.reason.left", member_id = member_id)
        }
        RebalanceReason::MemberExpired { member_id } => {
            msg!("group.reason.expired", member_id = member_id)
        }
    }
}

pub(super) fn event(broker: i32, e: &GroupEvent) -> Msg {
    match e {
        #[cfg(feature = "group-membership")]
        GroupEvent::MemberIdRequired { group, member_id } => msg!(
            "group.member-id-required",
            broker = broker,
            group = group,
            member_id = member_id
        ),
        #[cfg(feature = "group-membership")]
        GroupEvent::RebalancePrepared {
            group,
            generation,
            reason: r,
        } => msg!(
            "group.rebalance",
            broker = broker,
            group = group,
            generation = generation,
            reason = reason(r)
        ),
        #[cfg(feature = "group-membership")]
        GroupEvent::JoinCompleted {
            group,
            generation,
            leader,
            members,
        } => msg!(
            "group.join-completed",
            broker = broker,
            group = group,
            generation = generation,
            leader = leader,
            members = list(members.iter().map(|m| Arg::Text(m.clone())))
        ),
        #[cfg(feature = "group-membership")]
        GroupEvent::GroupEmptied { group, generation } => msg!(
            "group.emptied",
            broker = broker,
            group = group,
            generation = generation
        ),
        #[cfg(feature = "group-membership")]
        GroupEvent::GroupStabilized {
            group,
            generation,
            assignment,
        } => msg!(
            "group.stabilized",
            broker = broker,
            group = group,
            generation = generation,
            assignment = list(assignment.iter().map(|(m, tps)| {
                Arg::Msg(msg!(
                    "group.assignment-item",
                    member_id = m,
                    partitions = partitions(tps)
                ))
            }))
        ),
        #[cfg(feature = "group-membership")]
        GroupEvent::MemberRemoved {
            group,
            member_id,
            reason,
        } => msg!(
            "group.member-removed",
            broker = broker,
            group = group,
            member_id = member_id,
            reason = match reason {
                RemovalReason::Left => msg!("group.removed.left"),
                RemovalReason::SessionExpired => msg!("group.removed.expired"),
                RemovalReason::NotRejoined => msg!("group.removed.not-rejoined"),
            }
        ),
        GroupEvent::OffsetCommitRefused {
            group,
            member_id,
            generation,
            group_generation,
            transactional,
            error,
        } => msg!(
            "group.commit-refused",
            broker = broker,
            api = if *transactional {
                "TxnOffsetCommit"
            } else {
                "OffsetCommit"
            },
            group = group,
            member_id = member_id,
            generation = generation,
            group_generation = group_generation,
            error = error.name()
        ),
    }
}

#[cfg(feature = "group-membership")]
pub(super) fn member(client: &str, e: &MemberEvent) -> Msg {
    match e {
        MemberEvent::Assigned {
            group,
            generation,
            member_id,
            partitions: tps,
        } => msg!(
            "member.assigned",
            client = client,
            group = group,
            generation = generation,
            member_id = member_id,
            partitions = partitions(tps)
        ),
        MemberEvent::Rejoining { group, member_id } => msg!(
            "member.rejoining",
            client = client,
            group = group,
            member_id = member_id
        ),
        MemberEvent::Lost { group, error } => msg!(
            "member.lost",
            client = client,
            group = group,
            error = error.name()
        ),
    }
}
