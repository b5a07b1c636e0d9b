//! The narrated event list, newest first, with the logical time of each event, and
//! beside it a visually hidden live region that holds only the events of the last action
//! (`view::announce`), so a screen reader reads each new event once and never the list.

use std::cell::RefCell;

use yew::prelude::*;

use crate::i18n::{t, Key};
use crate::view::announce::{Announcer, Heard};
pub use crate::view::events::EventItem;
use crate::view::events::{event_window, item_at, EVENT_PX, EVENT_ROWS};

#[derive(Properties, PartialEq)]
pub struct EventListProps {
    /// Oldest first (the list shows them newest first).
    pub events: Vec<EventItem>,
    /// How many items to render at rest, scrolled to the top, where a click's new
    /// events push the others down: more than the list's box shows
    /// (`view::events::EVENT_REST_ROWS`).
    #[prop_or(EVENT_ROWS)]
    pub rest: usize,
}

/// What the screen reader hears of `events` (`view::announce`): the lines of the last
/// action only, keyed, so a new event is a new node and is read even when its words
/// repeat the last one's. The announcer is the component's (`use_mut_ref`).
pub fn announced<'a>(
    announcer: &RefCell<Announcer>,
    events: impl IntoIterator<Item = Heard<'a>>,
) -> Html {
    announcer.borrow_mut().observe(events);
    let lines = announcer
        .borrow()
        .lines
        .iter()
        .map(|(seq, text)| html! { <p key={*seq}>{ text.clone() }</p> })
        .collect();
    lines
}

#[function_component(EventList)]
pub fn event_list(p: &EventListProps) -> Html {
    let show_network = use_state(|| false);
    let toggle = {
        let show_network = show_network.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                show_network.set(input.checked());
            }
        })
    };
    // Windowed: the items near the scrolled position are rendered, the others hold
    // their place as empty items (`view::events::event_window`), so the list
    // scrolls, by mouse or by the arrow keys once focused, through every event while
    // the page lays out ≈ 50 items (`rest` of them at the top, where a click's new
    // events push every rendered item down). Every item's text stays in the view model
    // (`TxnViews::events`), and `aria-setsize` tells a screen reader how many there are.
    let at = use_state_eq(|| 0);
    let onscroll = {
        let at = at.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                // At the bottom, the oldest items whatever their heights (End).
                let top = el.scroll_top();
                let end = top + el.client_height() + 2 >= el.scroll_height();
                at.set(if end { usize::MAX } else { item_at(top) });
            }
        })
    };
    // Home and End jump at once: a smooth scroll stops at the first window swapped in.
    let onkeydown = Callback::from(|e: KeyboardEvent| {
        let Some(el) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        let to = match e.key().as_str() {
            "Home" => 0,
            "End" => el.scroll_height(),
            _ => return,
        };
        e.prevent_default();
        el.set_scroll_top(to);
    });
    let shown: Vec<&EventItem> = p
        .events
        .iter()
        .rev()
        .filter(|e| *show_network || !e.network)
        .collect();
    let len = shown.len();
    let window = event_window(*at, len, p.rest);
    // An empty item holds the place of `n` items not rendered (the list's padding
    // would not count in its scroll height at the bottom).
    let gap = |n: usize| {
        html! {
            if n > 0 {
                <li class="event-gap" aria-hidden="true" style={format!("height:{}px", n * EVENT_PX)}></li>
            }
        }
    };
    // Only a windowed list says how many items it has; a window at the top leaves each
    // item's position to its place in the list, so a click at the top rewrites none.
    let setsize = (len > window.len()).then(|| len.to_string());
    let items: Html = shown
        .get(window.clone())
        .unwrap_or_default()
        .iter()
        .zip(window.start + 1..)
        .map(|(e, at)| {
            html! {
                <li key={e.seq} class={if e.tone.is_empty() { "event".to_string() } else { format!("event event-{}", e.tone) }} aria-setsize={setsize.clone()} aria-posinset={(window.start > 0).then(|| at.to_string())}>
                    <span class="event-time mono">{ format!("{} ms", e.at_ms) }</span>
                    <span class="event-text">{ super::prose::breakable(&e.text) }</span>
                </li>
            }
        })
        .collect();
    let announcer = use_mut_ref(Announcer::default);
    let said = announced(
        &announcer,
        p.events.iter().map(|e| Heard {
            seq: e.seq,
            text: &e.text,
            shown: *show_network || !e.network,
        }),
    );
    html! {
        <section class="panel stack events-panel" aria-labelledby="events-heading">
            // Keyed lines: a new event is a new node, so it is read even when its words
            // repeat the last one's; the old lines leave without being read.
            <div class="visually-hidden" aria-live="polite" aria-relevant="additions" data-testid="events-live">{ said }</div>
            <div class="panel-head">
                <h2 id="events-heading">{ t(Key::EventsHeading) }</h2>
                <label class="check small">
                    <input type="checkbox" checked={*show_network} onchange={toggle} data-testid="show-network" />
                    { t(Key::EventsShowNetwork) }
                </label>
            </div>
            <p class="visually-hidden">{ t(Key::EventsNewestFirst) }</p>
            if p.events.is_empty() {
                <p class="muted">{ t(Key::EventsEmpty) }</p>
            }
            <ol class="event-list" data-testid="events" reversed=true tabindex="0" aria-label={t(Key::EventsHeading)} {onscroll} {onkeydown}>
                { gap(window.start) }
                { items }
                { gap(len - window.end) }
            </ol>
        </section>
    }
}
