//! Printing the `admin …` steps (`World::apply_admin`).

use crate::protocol::ElectionType;
use crate::sim::Action;

/// `admin …`: the admin tools.
pub(super) fn print_admin_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::AdminAbortTransaction {
            topic_partition,
            start_offset,
        } => format!("admin abort {topic_partition} start-offset={start_offset}"),
        Action::AdminElectLeaders {
            election,
            partitions,
        } => {
            let mut words: Vec<String> = partitions.iter().map(|tp| tp.to_string()).collect();
            if words.is_empty() {
                words.push("all".into());
            }
            if *election != ElectionType::Preferred {
                words.push(format!("election-type={}", election.name()));
            }
            format!("admin elect-leaders {}", words.join(" "))
        }
        Action::AdminDeleteRecords {
            topic_partition,
            offset,
        } => format!("admin delete-records {topic_partition} offset={offset}"),
        _ => return super::other_family("admin", action),
    })
}
