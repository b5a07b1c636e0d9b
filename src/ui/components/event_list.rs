//! The narrated event list, newest first, with the logical time of each event.

use yew::prelude::*;

use crate::i18n::{t, Key};

/// One narrated event.
#[derive(Clone, PartialEq)]
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

#[derive(Properties, PartialEq)]
pub struct EventListProps {
    /// Oldest first (the list shows them newest first).
    pub events: Vec<EventItem>,
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
    let items: Html = p
        .events
        .iter()
        .rev()
        .filter(|e| *show_network || !e.network)
        .map(|e| {
            html! {
                <li key={e.seq} class={classes!("event", (!e.tone.is_empty()).then(|| format!("event-{}", e.tone)))}>
                    <span class="event-time mono">{ format!("{} ms", e.at_ms) }</span>
                    <span class="event-text">{ e.text.clone() }</span>
                </li>
            }
        })
        .collect();
    html! {
        <section class="panel stack events-panel" aria-labelledby="events-heading">
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
            <ol class="event-list" data-testid="events" aria-live="polite" aria-relevant="additions" reversed=true tabindex="0" aria-label={t(Key::EventsHeading)}>
                { items }
            </ol>
        </section>
    }
}
