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

/// The newest events, narrated, each with the tone a page gives it: the newest `max`
/// that the list shows unless asked (its plain network sends between them kept, and
/// hidden), so the list's length stays the same from click to click.
pub fn event_items(
    world: &World,
    max: usize,
    tone: fn(&Event) -> (&'static str, bool),
    lang: Lang,
) -> Vec<EventItem> {
    let events = world.events();
    event_items_of(&events[first_kept(events, max, tone)..], tone, lang)
}

/// Where the newest `max` events that are not plain network sends start.
fn first_kept(events: &[Event], max: usize, tone: fn(&Event) -> (&'static str, bool)) -> usize {
    let mut left = max;
    for (i, e) in events.iter().enumerate().rev() {
        if left == 0 {
            return i + 1;
        }
        left -= usize::from(!tone(e).1);
    }
    0
}

/// `events` narrated, each with its tone.
fn event_items_of(
    events: &[Event],
    tone: fn(&Event) -> (&'static str, bool),
    lang: Lang,
) -> Vec<EventItem> {
    events.iter().map(|e| event_item(e, tone, lang)).collect()
}

/// One event narrated, with its tone.
fn event_item(e: &Event, tone: fn(&Event) -> (&'static str, bool), lang: Lang) -> EventItem {
    let (tone, network) = tone(e);
    EventItem {
        seq: e.seq,
        at_ms: e.at_ms - START_MS,
        text: narrate(e, lang),
        tone,
        network,
    }
}

/// The list's items of the last render, kept with the page's world
/// (`view::txn_page::Kept`): an event never changes once written, so a click narrates
/// only the events it added (narrating the list's ≈ 150 items and the sends between
/// them was most of a click's view models on the 10,000-batch page).
#[derive(Clone, Debug, Default)]
pub struct Narrated {
    lang: Option<Lang>,
    items: Vec<EventItem>,
}

/// [`event_items`], taking the items already narrated in `lang` from `kept` and
/// keeping the new list there.
pub fn event_items_kept(
    world: &World,
    max: usize,
    tone: fn(&Event) -> (&'static str, bool),
    lang: Lang,
    kept: &mut Narrated,
) -> Vec<EventItem> {
    if kept.lang != Some(lang) {
        kept.items.clear();
        kept.lang = Some(lang);
    }
    let events = world.events();
    let items: Vec<EventItem> = events[first_kept(events, max, tone)..]
        .iter()
        .map(
            |e| match kept.items.binary_search_by_key(&e.seq, |i| i.seq) {
                Ok(i) => kept.items[i].clone(),
                Err(_) => event_item(e, tone, lang),
            },
        )
        .collect();
    kept.items.clone_from(&items);
    items
}

/// How many items the list renders at once: more than the tallest list box holds of the
/// shortest (one-line) items, with [`EVENT_OVERSCAN`] of them above it.
pub const EVENT_ROWS: usize = 48;
/// Rendered items above the first one on screen.
pub const EVENT_OVERSCAN: usize = 8;
/// The height the list assumes for an item it does not render (items wrap, so it is an
/// estimate): the place the others hold, and where a scroll position lands.
pub const EVENT_PX: usize = 40;

/// How many items the transactions page's list renders at rest, scrolled to its top:
/// a click inserts its new events there, which moves every rendered item down, and each
/// moved item is laid out, pre-painted and painted again in the click's frame. That
/// list's box (22rem, 351 px at every width) shows at most 12 of the shortest
/// (one-line, 30 px) items; the first page's box is as tall as the window, and it
/// renders [`EVENT_ROWS`] at rest.
pub const EVENT_REST_ROWS: usize = 20;

/// The item at the top of the list's box when it is scrolled `scroll_top` pixels down.
pub fn item_at(scroll_top: i32) -> usize {
    usize::try_from(scroll_top).unwrap_or(0) / EVENT_PX
}

/// The items of a list of `len` that the list renders when item `at` is at the top of
/// its box: from [`EVENT_OVERSCAN`] items above it, [`EVENT_ROWS`] (fewer at the end);
/// at the top, the first `rest` (at most [`EVENT_ROWS`]).
pub fn event_window(at: usize, len: usize, rest: usize) -> std::ops::Range<usize> {
    if at == 0 {
        return 0..rest.min(EVENT_ROWS).min(len);
    }
    let start = at
        .saturating_sub(EVENT_OVERSCAN)
        .min(len.saturating_sub(EVENT_ROWS));
    start..(start + EVENT_ROWS).min(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Replay};

    #[test]
    fn the_list_keeps_the_newest_events_it_shows_and_the_sends_between_them() {
        let src = "topic create t\nproducer p create transactional.id=x\nproducer p init-transactions\nproducer p begin\nproducer p send t-0 a\nproducer p flush\nproducer p commit\nproducer p begin\nproducer p send t-0 b\nproducer p flush\nproducer p abort\n";
        let mut r = Replay::new(parse(src).expect("parses"));
        let tone = crate::view::tone::transactions;
        for step in 0..=r.len() {
            r.play_to(step).expect("runs");
            let events = r.world().events();
            let shown = |from: usize| events[from..].iter().filter(|e| !tone(e).1).count();
            let items = event_items(r.world(), 12, tone, Lang::En);
            let first = items.first().map_or(events.len(), |i| i.seq as usize);
            assert_eq!(items.len(), events.len() - first, "step {step}");
            assert_eq!(shown(first), shown(0).min(12), "step {step}");
            assert!(first == 0 || !tone(&events[first]).1, "step {step}");
        }
        assert!(r.world().events().len() > 12, "the list moved on");
    }

    #[test]
    fn the_window_follows_the_scroll_and_reaches_both_ends() {
        let window = |top: i32, len| event_window(item_at(top), len, EVENT_ROWS);
        assert_eq!(window(0, 10), 0..10);
        assert_eq!(window(0, 150), 0..EVENT_ROWS);
        assert_eq!(window(-30, 150), 0..EVENT_ROWS, "a bounce above the top");
        assert_eq!(window(50 * EVENT_PX as i32 + 7, 150), 42..42 + EVENT_ROWS);
        assert_eq!(window(i32::MAX, 150), 150 - EVENT_ROWS..150);
        // Every item is in some window as the box scrolls down by a screen at a time.
        let mut seen = vec![false; 400];
        let mut top = 0;
        while top < 400 * EVENT_PX as i32 {
            seen[window(top, 400)].iter_mut().for_each(|s| *s = true);
            top += 300;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn at_rest_the_window_is_the_first_rest_items_and_scrolling_widens_it() {
        let window = |top: i32, len| event_window(item_at(top), len, EVENT_REST_ROWS);
        assert_eq!(window(0, 150), 0..EVENT_REST_ROWS);
        assert_eq!(window(0, 5), 0..5);
        assert_eq!(window(EVENT_PX as i32 - 1, 150), 0..EVENT_REST_ROWS);
        // One item down: the whole window from the top.
        assert_eq!(window(EVENT_PX as i32, 150), 0..EVENT_ROWS);
        assert_eq!(window(i32::MAX, 150), 150 - EVENT_ROWS..150);
        assert_eq!(event_window(0, 150, usize::MAX), 0..EVENT_ROWS);
    }
}
