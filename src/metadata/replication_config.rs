//! A topic's replication settings (`replication.factor`, and the topic configs
//! `min.insync.replicas` and `unclean.leader.election.enable`), held by the world's
//! topics and read by the controller for each change to a partition.

use super::partition_registration::ChangeRules;

/// The replication settings of a topic (`replication.factor` is fixed at creation;
/// the other two are topic configs, Kafka's names).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ReplicationConfig {
    pub replication_factor: i32,
    /// `min.insync.replicas` (default 1).
    pub min_insync_replicas: i32,
    /// `unclean.leader.election.enable` (default false).
    pub unclean_leader_election: bool,
}

impl ReplicationConfig {
    /// The rules a change to one of this topic's partitions follows, for a partition
    /// with `replicas` replicas and the cluster's ELR switch.
    pub fn change_rules(&self, replicas: usize, elr: bool) -> ChangeRules {
        ChangeRules {
            unclean: self.unclean_leader_election,
            min_isr: self
                .min_insync_replicas
                .min(i32::try_from(replicas).unwrap_or(i32::MAX)),
            elr,
        }
    }
}

impl Default for ReplicationConfig {
    fn default() -> Self {
        ReplicationConfig {
            replication_factor: 1,
            min_insync_replicas: 1,
            unclean_leader_election: false,
        }
    }
}
