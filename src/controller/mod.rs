//! The controller's view of each partition (KRaft's role, simplified: no Raft log of
//! its own, decisions are applied at once): where the replicas live, who leads, at
//! which leader epoch, who is in sync, and the partition epoch every change bumps.
//! The decisions are pure functions over a `PartitionRegistration` (`crate::metadata`);
//! this module carries them out in the world when a topic is made, a broker stops,
//! starts or shuts down, a leader sends `AlterPartition`, and an admin asks for a
//! preferred election.
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
//! Its files: `topics` (CreateTopics and replica placement), `metadata` (what the
//! brokers are told), `alter_partition` (the leaders' ISR changes),
//! `broker_lifecycle` (registering, fencing, controlled shutdown) and `election`
//! (announcing new leaders, preferred and automatic elections); `topic_changes`
//! alters a topic that exists (its configs, more partitions, its deletion) and
//! `reassignment` moves a partition's replicas (AlterPartitionReassignments): feature
//! `topic-admin`; `metadata_writes` writes every decision to `__cluster_metadata`
//! (feature `metadata-log`: the CLI and the native tests), and `quorum` runs the
//! controllers as a Raft quorum that can fail over (the same feature; without it
//! there is one controller, always active).
//!
//! Kafka's `org.apache.kafka.controller`, above the world as `crate::admin` is: each
//! file adds the methods of one duty to `World` (`crate::sim`), since carrying a
//! decision out moves messages and changes brokers, and the world calls them. What
//! the world holds and the brokers read sits below it: the registrations, a topic's
//! replication settings, producer-id blocks and the metadata log in
//! `crate::metadata`, the quorum's state machine in `crate::raft`, and the brokers'
//! side of registering in `crate::broker`'s `broker_lifecycle_manager`.

mod alter_partition;
mod broker_lifecycle;
mod election;
mod metadata;
#[cfg(feature = "metadata-log")]
mod metadata_writes;
#[cfg(feature = "metadata-log")]
mod quorum;
#[cfg(feature = "topic-admin")]
mod reassignment;
#[cfg(feature = "topic-admin")]
mod topic_changes;
mod topics;

pub use election::LEADER_IMBALANCE_CHECK_INTERVAL_MS;
#[cfg(feature = "topic-admin")]
pub use topic_changes::UNCLEAN_LEADER_ELECTION_CHECK_INTERVAL_MS;
pub use topics::{place_replicas, place_replicas_among};

#[cfg(test)]
mod tests;
