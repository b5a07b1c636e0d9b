//! Printing the `producer NAME create|send|flush` steps (`World::apply_producer`).

use super::{options, quote, words};
use crate::sim::Action;

/// `producer NAME VERB`: how every producer step begins (the transactional ones too).
pub(super) fn producer_step(name: &str, verb: &str) -> String {
    format!("producer {} {verb}", quote(name))
}

/// `producer NAME create|send|flush`: the client.
pub(super) fn print_producer_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::CreateProducer { name, configs } => {
            format!("{}{}", producer_step(name, "create"), options(configs))
        }
        Action::Send {
            producer,
            topic_partition,
            values,
        } => format!(
            "{} {topic_partition} {}",
            producer_step(producer, "send"),
            words(values)
        ),
        Action::Flush { producer } => producer_step(producer, "flush"),
        _ => return super::other_family("producer", action),
    })
}
