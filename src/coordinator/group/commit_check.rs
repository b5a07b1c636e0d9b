//! What the group coordinator tells about its groups (`GroupEvent`), and the generation
//! check of OffsetCommit and TxnOffsetCommit (KIP-447), which every build has: without
//! membership every group is a simple one and every commit passes it.

use serde::Serialize;

use super::{ClassicGroup, GroupCoordinator};
#[cfg(feature = "group-membership")]
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;

/// Why a group prepares a rebalance (Kafka's `reason` strings, as data).
#[cfg(feature = "group-membership")]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum RebalanceReason {
    /// A new member joined.
    MemberJoined { member_id: String },
    /// A member rejoined with another subscription, or the leader rejoined.
    MemberRejoined { member_id: String },
    /// A member left with LeaveGroup.
    MemberLeft { member_id: String },
    /// A member's session expired.
    MemberExpired { member_id: String },
}

/// What the group coordinator did, for narration. Only the commit check's refusal is in
/// every build; the membership events come with the feature `group-membership`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum GroupEvent {
    /// A JoinGroup without a member id got one, with MEMBER_ID_REQUIRED.
    #[cfg(feature = "group-membership")]
    MemberIdRequired { group: String, member_id: String },
    /// The group left Stable/Empty/CompletingRebalance for PreparingRebalance.
    #[cfg(feature = "group-membership")]
    RebalancePrepared {
        group: String,
        generation: i32,
        reason: RebalanceReason,
    },
    /// The join phase ended: a new generation, its leader and members.
    #[cfg(feature = "group-membership")]
    JoinCompleted {
        group: String,
        generation: i32,
        leader: String,
        members: Vec<String>,
    },
    /// The join phase ended with no member left: the group is Empty.
    #[cfg(feature = "group-membership")]
    GroupEmptied { group: String, generation: i32 },
    /// The leader's SyncGroup gave every member its partitions: Stable.
    #[cfg(feature = "group-membership")]
    GroupStabilized {
        group: String,
        generation: i32,
        assignment: Vec<(String, Vec<TopicPartition>)>,
    },
    /// A member left the group.
    #[cfg(feature = "group-membership")]
    MemberRemoved {
        group: String,
        member_id: String,
        reason: RemovalReason,
    },
    /// An OffsetCommit or TxnOffsetCommit refused by the generation check (KIP-447).
    OffsetCommitRefused {
        group: String,
        member_id: String,
        generation: i32,
        group_generation: i32,
        transactional: bool,
        error: Errors,
    },
}

/// Why a member is no longer in its group.
#[cfg(feature = "group-membership")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RemovalReason {
    /// LeaveGroup.
    Left,
    /// No heartbeat within `session.timeout.ms`.
    SessionExpired,
    /// It did not rejoin before the rebalance timeout.
    NotRejoined,
}

impl GroupCoordinator {
    /// The generation check of an OffsetCommit (`transactional` false) or a
    /// TxnOffsetCommit (`OffsetMetadataManager.validateOffsetCommit` /
    /// `validateTransactionalOffsetCommit`, Kafka 4.0): a group unknown here accepts a
    /// commit with generation -1 (a simple group); with a generation it is
    /// ILLEGAL_GENERATION (OffsetCommit before v9's GROUP_ID_NOT_FOUND, as clients send).
    /// A group that has offsets but no membership is the simple group Kafka made when it
    /// replayed them (`OffsetMetadataManager.replay`'s `getOrMaybeCreateClassicGroup`):
    /// Empty, generation 0, no member, so a member id or a generation is
    /// UNKNOWN_MEMBER_ID (OffsetMetadataManagerTest
    /// `testGenericGroupTransactionalOffsetCommitWithUnknownMemberId` against
    /// `…WithUnknownGroupId`). Simplified: the simple group lives as long as its
    /// offsets, committed or pending (Kafka keeps it until its offsets expire).
    pub fn validate_offset_commit(
        &self,
        group_id: &str,
        member: &CommitMember,
        transactional: bool,
    ) -> Result<(), GroupEvent> {
        let refused = |error: Errors, group_generation: i32| GroupEvent::OffsetCommitRefused {
            group: group_id.to_string(),
            member_id: member.member_id.clone(),
            generation: member.generation_id,
            group_generation,
            transactional,
            error,
        };
        let simple;
        let group = match self.groups.get(group_id) {
            Some(g) => g,
            None if member.generation_id < 0 => return Ok(()),
            None if self.has_offsets(group_id) => {
                simple = ClassicGroup::new(group_id);
                &simple
            }
            None => return Err(refused(Errors::IllegalGeneration, -1)),
        };
        group
            .validate_offset_commit(
                &member.member_id,
                member.group_instance_id.as_deref(),
                member.generation_id,
                transactional,
            )
            .map_err(|e| refused(e, group.generation_id))
    }
}

/// Who commits: the generation, member id and `group.instance.id` an OffsetCommit or
/// TxnOffsetCommit carries (a consumer's `ConsumerGroupMetadata`). A simple group's
/// commit has generation -1 and an empty member id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommitMember {
    pub generation_id: i32,
    pub member_id: String,
    pub group_instance_id: Option<String>,
}

impl Default for CommitMember {
    fn default() -> Self {
        CommitMember {
            generation_id: -1,
            member_id: String::new(),
            group_instance_id: None,
        }
    }
}
