//! The cluster's metadata as the controller records it and the world holds it
//! (Kafka's `org.apache.kafka.metadata` and `org.apache.kafka.image`, with the
//! records of `org.apache.kafka.common.metadata`): each partition's registration and
//! the pure changes made to it, a topic's replication settings, the producer-id
//! blocks, and the metadata log `__cluster_metadata`. Plain state and pure functions,
//! no world: the controller's duties (`crate::controller`, above the world) decide
//! and carry the decisions out, and the world's fields and events (`crate::sim`)
//! hold these types.
//!
//! Its files: `partition_registration` (`PartitionRegistration` and its changes:
//! AlterPartition, fencing, elections), `partition_reassignment` (a reassignment's
//! steps on one registration, feature `topic-admin`), `replication_config` (a
//! topic's `replication.factor`, `min.insync.replicas`,
//! `unclean.leader.election.enable`), `producer_ids` (`ProducerIdControlManager`) and
//! `metadata_log` (the records, the image they replay to, and the log: feature
//! `metadata-log`).

#[cfg(feature = "metadata-log")]
pub mod metadata_log;
#[cfg(feature = "topic-admin")]
mod partition_reassignment;
mod partition_registration;
mod producer_ids;
mod replication_config;

#[cfg(feature = "topic-admin")]
pub use partition_reassignment::RevertError;
pub use partition_registration::{
    AlterPartitionData, ChangeRules, Election, LeaderChange, PartitionRegistration, NO_LEADER,
};
pub use producer_ids::{ProducerIdControlManager, PRODUCER_ID_BLOCK_SIZE};
pub use replication_config::ReplicationConfig;
