//! Printing the `consumer NAME …` steps (`World::apply_consumer`).

use super::{options, partitions, quote};
use crate::sim::Action;

/// `consumer NAME …`.
pub(super) fn print_consumer_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::CreateConsumer { name, configs } => {
            format!("consumer {} create{}", quote(name), options(configs))
        }
        Action::Assign {
            consumer,
            partitions: tps,
        } => format!("consumer {} assign {}", quote(consumer), partitions(tps)),
        Action::Poll { consumer } => format!("consumer {} poll", quote(consumer)),
        #[cfg(feature = "group-membership")]
        Action::Subscribe { consumer, topics } => format!(
            "consumer {} subscribe{}",
            quote(consumer),
            topics
                .iter()
                .map(|t| format!(" {}", quote(t)))
                .collect::<String>()
        ),
        #[cfg(feature = "group-membership")]
        Action::Unsubscribe { consumer } => format!("consumer {} unsubscribe", quote(consumer)),
        Action::Seek {
            consumer,
            topic_partition,
            offset,
        } => format!(
            "consumer {} seek {topic_partition} {offset}",
            quote(consumer)
        ),
        _ => return super::other_family("consumer", action),
    })
}
