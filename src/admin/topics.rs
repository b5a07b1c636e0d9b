//! The topic tools an operator runs: `kafka-topics.sh --create/--alter/--delete`,
//! `kafka-configs.sh --alter` on a topic and `kafka-reassign-partitions.sh`. Each
//! reaches the controller (`crate::controller`), which decides and tells the brokers.

use crate::sim::{Action, SimError, World};

impl World {
    /// The topic actions; `World::apply` sends only these here.
    pub(crate) fn apply_topic_admin(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::CreateTopic {
                name,
                partitions,
                configs,
            } => self.create_topic(name, *partitions, configs),
            #[cfg(feature = "topic-admin")]
            Action::AlterTopicConfigs { name, configs } => self.alter_topic_configs(name, configs),
            #[cfg(feature = "topic-admin")]
            Action::CreatePartitions {
                name,
                partitions,
                assignment,
            } => self.create_partitions(name, *partitions, assignment),
            #[cfg(feature = "topic-admin")]
            Action::DeleteTopic { name } => self.delete_topic(name),
            #[cfg(feature = "topic-admin")]
            Action::ReassignPartition {
                topic_partition,
                replicas,
            } => self.alter_partition_reassignment(topic_partition, replicas.as_deref()),
            #[cfg(feature = "topic-admin")]
            Action::ListReassignments { partitions } => {
                Ok(self.list_partition_reassignments(partitions))
            }
            _ => Ok(vec![]),
        }
    }
}
