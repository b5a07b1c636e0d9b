//! Printing the disk steps (`World::apply_disk`).

use crate::sim::Action;

/// `clean`, `snapshot`, `truncate` and `fault corrupt`.
pub(super) fn print_disk_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::CleanLog { topic_partition } => format!("clean {topic_partition}"),
        Action::TakeSnapshot { topic_partition } => format!("snapshot {topic_partition}"),
        Action::TruncateLog {
            broker,
            topic_partition,
            offset,
        } => format!("truncate broker-{broker} {topic_partition} offset={offset}"),
        Action::CorruptFile {
            broker,
            path,
            position,
        } => format!(
            "fault corrupt broker-{broker} {path}{}",
            position.map(|p| format!(" at={p}")).unwrap_or_default()
        ),
        _ => return super::other_family("disk", action),
    })
}
