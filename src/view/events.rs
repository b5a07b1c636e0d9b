//! The narrated event list of a page: the newest events, each with its logical time,
//! its words in the reader's language and its tone (`view::tone`).

use crate::i18n::{narrate, Lang};
use crate::sim::{Event, World, START_MS};

/// One narrated event.
#[derive(Clone, Debug, PartialEq)]
pub struct EventItem {
    pub seq: u64,
    /// Logical ms since the world started.
    pub at_ms: i64,
    pub text: String,
    /// "append", "dup", "bad" (broker decisions), "ok", "warn", "danger", "info" or ""
    /// (the text always says what happened; the tone only colours it).
    pub tone: &'static str,
    /// A plain network send/delivery (hidden unless asked for).
    pub network: bool,
}

/// The newest `max` events, narrated, each with the tone a page gives it.
pub fn event_items(
    world: &World,
    max: usize,
    tone: fn(&Event) -> (&'static str, bool),
    lang: Lang,
) -> Vec<EventItem> {
    let start = world.events().len().saturating_sub(max);
    world
        .events()
        .get(start..)
        .unwrap_or_default()
        .iter()
        .map(|e| {
            let (tone, network) = tone(e);
            EventItem {
                seq: e.seq,
                at_ms: e.at_ms - START_MS,
                text: narrate(e, lang),
                tone,
                network,
            }
        })
        .collect()
}
