//! Printing the `topic …` steps (`World::apply_topic_admin`).

use super::{options, quote};
use crate::sim::Action;

/// `topic …`: CreateTopics and the topic admin requests.
pub(super) fn print_topic_admin_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::CreateTopic {
            name,
            partitions: n,
            configs,
        } => {
            format!(
                "topic create {} partitions={n}{}",
                quote(name),
                options(configs)
            )
        }
        #[cfg(feature = "topic-admin")]
        Action::AlterTopicConfigs { name, configs } => {
            format!("topic alter-config {}{}", quote(name), options(configs))
        }
        #[cfg(feature = "topic-admin")]
        Action::ReassignPartition {
            topic_partition,
            replicas,
        } => {
            let target = replicas.as_ref().map_or_else(
                || "cancel".to_string(),
                |r| {
                    r.iter()
                        .map(|b| b.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                },
            );
            format!("topic reassign {topic_partition} replicas={target}")
        }
        #[cfg(feature = "topic-admin")]
        Action::ListReassignments { partitions } => {
            let named: String = partitions.iter().map(|tp| format!(" {tp}")).collect();
            format!("topic list-reassignments{named}")
        }
        #[cfg(feature = "topic-admin")]
        Action::CreatePartitions {
            name,
            partitions: n,
            assignment,
        } => {
            let lists: Vec<String> = assignment
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|b| b.to_string())
                        .collect::<Vec<_>>()
                        .join(":")
                })
                .collect();
            let assignment = if lists.is_empty() {
                String::new()
            } else {
                format!(" assignment={}", lists.join(","))
            };
            format!(
                "topic create-partitions {} partitions={n}{assignment}",
                quote(name)
            )
        }
        #[cfg(feature = "topic-admin")]
        Action::DeleteTopic { name } => format!("topic delete {}", quote(name)),
        _ => return super::other_family("topic admin", action),
    })
}
