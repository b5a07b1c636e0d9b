//! The consumers of the shown partition side by side (read_committed next to
//! read_uncommitted): what each poll() delivered, where each stands, and why offsets
//! are missing (markers are never delivered; read_committed skips aborted batches and
//! stops at the LSO).

use crate::ui::class::class_list;
use yew::prelude::*;

use super::txn_log::kind_word;
use crate::client::consumer::IsolationLevel;
use crate::i18n::{t, tf, Key};
use crate::sim::Action;
use crate::view::consumers::ConsumerView;

#[derive(Properties, PartialEq)]
pub struct TxnConsumersProps {
    pub consumers: Vec<ConsumerView>,
    pub lso: i64,
    pub hw: i64,
    pub disabled: bool,
    /// (consumer, why its poll was refused).
    pub error: Option<(String, String)>,
    /// A click's engine action, applied to the page (`Msg::Act`).
    pub on_act: Callback<Action>,
}

fn range(a: i64, b: i64) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}..{b}")
    }
}

#[function_component(TxnConsumers)]
pub fn txn_consumers(p: &TxnConsumersProps) -> Html {
    // read_committed first: the interesting one sits on the left.
    let mut list: Vec<&ConsumerView> = p.consumers.iter().collect();
    crate::util::ordered::sort_by(&mut list, |a, b| {
        let rank = |c: &ConsumerView| c.isolation != IsolationLevel::ReadCommitted;
        (rank(a), &a.name).cmp(&(rank(b), &b.name))
    });
    let mut seen_rc = false;
    let mut seen_ru = false;
    let cards: Html = list
        .iter()
        .map(|c| {
            let rc = c.isolation == IsolationLevel::ReadCommitted;
            let first = if rc { !std::mem::replace(&mut seen_rc, true) } else { !std::mem::replace(&mut seen_ru, true) };
            let short = if rc { "rc" } else { "ru" };
            let testid = if first { format!("consumer-{short}") } else { format!("consumer-{short}-{}", c.name) };
            let poll_id = if first { format!("poll-{short}") } else { format!("poll-{short}-{}", c.name) };
            let onclick = {
                let (on_act, name) = (p.on_act.clone(), c.name.clone());
                Callback::from(move |_: MouseEvent| on_act.emit(Action::Poll {
                        consumer: name.clone(),
                    }))
            };
            let (limit_key, limit) = if rc { (Key::ConsumerReadsToLso, p.lso) } else { (Key::ConsumerReadsToHw, p.hw) };
            let position = c.position.map_or_else(|| "—".to_string(), |x| x.to_string());
            let waiting = rc && c.position == Some(p.lso) && p.lso < p.hw;
            let error = p.error.as_ref().filter(|(n, _)| *n == c.name).map(|(_, e)| e.clone());
            html! {
                <section class={class_list(&["consumer-card", if rc { "consumer-rc" } else { "consumer-ru" }])} data-testid={testid} aria-label={c.name.clone()}>
                    <div class="panel-head">
                        <h3 class="consumer-name">{ c.name.clone() }</h3>
                        <span class={if rc { "badge info" } else { "badge" }}>{ c.isolation.name() }</span>
                    </div>
                    <p class="small muted">{ tf(limit_key, &[&limit.to_string()]) }</p>
                    if !p.disabled {
                        <div class="cluster">
                            <button type="button" class="mono-button" data-testid={poll_id} {onclick}>{ t(Key::PollButton) }</button>
                        </div>
                    }
                    if let Some(e) = error {
                        <p class="action-error" role="alert">{ tf(Key::ActionFailed, &[&e]) }</p>
                    }
                    <p class="small">
                        { t(Key::ConsumerPosition) }{ " " }<strong class="mono" data-testid="consumer-position">{ position }</strong>
                        { " · " }{ tf(Key::ConsumerGot, &[&c.total.to_string()]) }
                    </p>
                    if c.records.is_empty() {
                        <p class="small muted">{ t(Key::ConsumerNothing) }</p>
                    } else {
                        <ol class="record-chips mono small" aria-label={t(Key::ConsumerRecordsLabel)} data-testid="consumer-records">
                            if c.total > c.records.len() {
                                <li class="chip chip-more">{ tf(Key::ConsumerMore, &[&(c.total - c.records.len()).to_string()]) }</li>
                            }
                            { for c.records.iter().map(|(o, v)| html! { <li class="chip">{ format!("{v}@{o}") }</li> }) }
                        </ol>
                    }
                    if !c.skipped.is_empty() {
                        <div class="small">
                            <p class="gaps-title">{ t(Key::ConsumerGaps) }</p>
                            <ul class="gaps" data-testid="consumer-gaps">
                                { for c.skipped.iter().map(|(a, b, k)| html! {
                                    <li class={format!("kind-{}", k.css())}>{ format!("{} — {}", range(*a, *b), kind_word(*k)) }</li>
                                }) }
                            </ul>
                        </div>
                    }
                    if waiting {
                        <p class="small notice">{ tf(Key::ConsumerWaitsAtLso, &[&p.lso.to_string(), &p.hw.to_string()]) }</p>
                    }
                </section>
            }
        })
        .collect();
    html! {
        <section class="panel stack consumers-panel" aria-labelledby="consumers-heading">
            <h2 id="consumers-heading">{ t(Key::ConsumersHeading) }</h2>
            <p class="small muted">{ t(Key::ConsumersIntro) }</p>
            if p.consumers.is_empty() {
                <p class="muted">{ t(Key::ConsumersNone) }</p>
            }
            <div class="consumer-grid">{ cards }</div>
            { super::limits_help("consumers") }
        </section>
    }
}
