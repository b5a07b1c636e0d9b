//! The dedup window: per producer, the last 5 batches (NUM_BATCHES_TO_RETAIN) the
//! partition remembers, oldest → newest. A new batch pushes the oldest out.

use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::log::NUM_BATCHES_TO_RETAIN;
use crate::sim::view::WindowView;

pub use crate::view::idempotence_page::SlotMark;

#[derive(Properties, PartialEq)]
pub struct WindowTableProps {
    pub windows: Vec<WindowView>,
    #[prop_or_default]
    pub mark: Option<SlotMark>,
    /// The broker rebuilt these windows when it started (a restart, or a folder opened
    /// as a starting broker recovers it): say where they came from and what the row's
    /// bracketed number is.
    #[prop_or_default]
    pub recovered: bool,
}

#[function_component(WindowTable)]
pub fn window_table(p: &WindowTableProps) -> Html {
    let head: Html = (1..=NUM_BATCHES_TO_RETAIN)
        .map(|i| {
            let note = match i {
                1 => Some(t(Key::WindowOldest)),
                NUM_BATCHES_TO_RETAIN => Some(t(Key::WindowNewest)),
                _ => None,
            };
            html! {
                <th scope="col">
                    { tf(Key::WindowSlot, &[&i.to_string()]) }
                    if let Some(n) = note { <span class="muted small th-note">{ n }</span> }
                </th>
            }
        })
        .collect();
    let rows: Html = p
        .windows
        .iter()
        .map(|w| {
            let cells: Html = (0..NUM_BATCHES_TO_RETAIN)
                .map(|i| match w.batches.get(i) {
                    Some(b) => {
                        let mark = p
                            .mark
                            .as_ref()
                            .filter(|m| m.producer_id == w.producer_id && m.first_seq == b.first_seq());
                        let class = mark.map(|m| if m.duplicate { "slot slot-dup" } else { "slot slot-new" }).unwrap_or("slot");
                        html! {
                            <td class={class}>
                                <span class="mono">{ tf(Key::WindowSeq, &[&b.first_seq().to_string(), &b.last_seq.to_string()]) }</span>
                                <span class="small muted slot-offsets">{ tf(Key::WindowOffsets, &[&b.first_offset().to_string(), &b.last_offset.to_string()]) }</span>
                                if let Some(m) = mark {
                                    <span class={if m.duplicate { "badge warn" } else { "badge ok" }}>
                                        { if m.duplicate { t(Key::VerdictDuplicate) } else { t(Key::VerdictAppend) } }
                                    </span>
                                }
                            </td>
                        }
                    }
                    None => html! { <td class="slot slot-empty muted">{ t(Key::WindowEmptySlot) }</td> },
                })
                .collect();
            html! {
                <tr>
                    <th scope="row" class="mono">{ format!("{} ({})", w.producer_id, w.producer_epoch) }</th>
                    { cells }
                </tr>
            }
        })
        .collect();
    html! {
        <>
        // The sentence above the region, not as the table's caption: a caption is as wide
        // as the table, so on a phone it was cut off at the panel's edge.
        <p class="small muted window-caption" aria-hidden="true">{ t(Key::WindowCaption) }</p>
        <div class="scroll-x" tabindex="0" role="region" aria-label={t(Key::WindowCaption)}>
            <table class="window-table" data-testid="window">
                <caption class="visually-hidden">{ t(Key::WindowCaption) }</caption>
                <thead>
                    <tr><th scope="col">{ t(Key::WindowProducer) }</th>{ head }</tr>
                </thead>
                <tbody>
                    if p.windows.is_empty() {
                        <tr><td colspan={(NUM_BATCHES_TO_RETAIN + 1).to_string()} class="muted">{ t(Key::WindowNone) }</td></tr>
                    } else {
                        { rows }
                    }
                </tbody>
            </table>
        </div>
        if p.recovered && !p.windows.is_empty() {
            <p class="small muted" data-testid="window-recovered">{ t(Key::WindowRecovered) }</p>
        }
        </>
    }
}
