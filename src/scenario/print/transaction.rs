//! Printing a producer's transaction steps and the consume-transform-produce round
//! (`World::apply_transaction`, `World::transform`).

use super::producer::producer_step as p;
use super::quote;
use crate::sim::Action;

/// `producer NAME init-transactions|begin|commit|abort|send-offsets|transform`.
pub(super) fn print_transaction_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::InitTransactions { producer } => p(producer, "init-transactions"),
        Action::BeginTransaction { producer } => p(producer, "begin"),
        Action::CommitTransaction { producer } => p(producer, "commit"),
        Action::AbortTransaction { producer } => p(producer, "abort"),
        Action::SendOffsetsToTransaction {
            producer,
            group_id,
            offsets,
            consumer,
        } => format!(
            "{}{}{}{}",
            p(producer, "send-offsets"),
            if group_id.is_empty() && consumer.is_some() {
                String::new()
            } else {
                format!(" group={}", quote(group_id))
            },
            consumer
                .as_ref()
                .map(|c| format!(" consumer={}", quote(c)))
                .unwrap_or_default(),
            offsets
                .iter()
                .map(|(tp, o)| format!(" {tp}={o}"))
                .collect::<String>()
        ),
        Action::Transform {
            producer,
            consumer,
            topic,
        } => format!(
            "{} {} {}",
            p(producer, "transform"),
            quote(consumer),
            quote(topic)
        ),
        _ => return super::other_family("transaction", action),
    })
}
