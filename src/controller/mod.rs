//! The controller's view of each partition (KRaft's role, simplified: no Raft log of
//! its own, decisions are applied at once): where the replicas live, who leads, at
//! which leader epoch, who is in sync, and the partition epoch every change bumps.
//! Pure functions over a [`PartitionRegistration`]; the world calls them when a topic
//! is made, a broker stops, starts or shuts down, a leader sends `AlterPartition`, and
//! an admin asks for a preferred election.
//!
//! Follows Kafka 4.0 (mirror commit 1eb7644): `StripedReplicaPlacer` (simplified to
//! one rack: replica `i` of partition `p` on broker `(p + i) mod n`),
//! `PartitionChangeBuilder.electLeader` (the first alive replica of the assignment
//! that is in the ISR; with `unclean.leader.election.enable`, else the first alive
//! replica), `ReplicationControlManager.validateAlterPartitionData` and
//! `electLeader`, and the rule that fencing a broker (or its controlled shutdown)
//! removes it from every ISR but never empties one without ELR (the last member
//! stays, with no leader). With `eligible.leader.replicas.enable`, KIP-966's eligible
//! leader replicas and last known leader. An unclean election marks the partition
//! RECOVERING until its leader's AlterPartition says RECOVERED (KIP-704, Kafka 3.2+).
//!
//! Its files: `registration` (the pure changes to one partition), `topics`
//! (CreateTopics and replica placement), `metadata` (what the brokers are told),
//! `alter_partition` (the leaders' ISR changes), `broker_lifecycle` (registering,
//! fencing, controlled shutdown) and `election` (announcing new leaders, preferred
//! and automatic elections); `producer_ids` hands out producer-id blocks;
//! `topic_changes` alters a topic that exists (its configs, more partitions, its
//! deletion) and `reassignment` moves a partition's replicas (AlterPartition
//! Reassignments): feature `topic-admin`; `metadata_log` writes every decision to
//! `__cluster_metadata` (feature `metadata-log`: the CLI and the native tests), and
//! `quorum` runs the controllers as a Raft quorum that can fail over (the same
//! feature; without it there is one controller, always active).

mod alter_partition;
mod broker_lifecycle;
mod election;
mod metadata;
#[cfg(feature = "metadata-log")]
pub mod metadata_log;
mod producer_ids;
#[cfg(feature = "metadata-log")]
pub mod quorum;
#[cfg(feature = "topic-admin")]
mod reassignment;
mod registration;
#[cfg(feature = "topic-admin")]
mod topic_changes;
mod topics;

pub use broker_lifecycle::{
    registration_backoff_ms, PendingRegistration, BROKER_SESSION_TIMEOUT_MS,
    REGISTRATION_BACKOFF_MS,
};
pub use election::LEADER_IMBALANCE_CHECK_INTERVAL_MS;
pub use producer_ids::{ProducerIdControlManager, PRODUCER_ID_BLOCK_SIZE};
pub use registration::{
    AlterPartitionData, ChangeRules, Election, LeaderChange, PartitionRegistration, NO_LEADER,
};
#[cfg(feature = "topic-admin")]
pub use topic_changes::UNCLEAN_LEADER_ELECTION_CHECK_INTERVAL_MS;
pub use topics::{place_replicas, place_replicas_among, ReplicationConfig};

#[cfg(test)]
mod tests;
