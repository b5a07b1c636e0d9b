//! Time travel on a playground page: the learner's recorded actions as a timeline
//! (a slider and a list with each action's scenario text), Back / Forward / Play, and
//! what happens to the future when a new action is done after stepping back.

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::ui::state::Travel;

#[derive(Properties, PartialEq)]
pub struct TimeTravelProps {
    /// The scenario text of every recorded action, oldest first.
    pub entries: Vec<String>,
    /// How many of them the shown world has played.
    pub cursor: usize,
    /// The last action dropped this many recorded actions (a new branch).
    pub forked: Option<usize>,
    pub playing: bool,
    /// Move to a point of the recorded actions (`Msg::Travel`).
    pub on_travel: Callback<Travel>,
    /// Start or stop Play (`Msg::TogglePlay`).
    pub on_play: Callback<()>,
}

#[function_component(TimeTravel)]
pub fn time_travel(p: &TimeTravelProps) -> Html {
    let travel = |to: Travel| p.on_travel.reform(move |_: MouseEvent| to);
    let total = p.entries.len();
    let on_slider = {
        let on_travel = p.on_travel.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                if let Ok(to) = input.value().parse::<usize>() {
                    on_travel.emit(Travel::To(to));
                }
            }
        })
    };
    let position = match p.cursor.checked_sub(1).and_then(|i| p.entries.get(i)) {
        Some(text) => tf(
            Key::TtAt,
            &[&p.cursor.to_string(), &total.to_string(), text],
        ),
        None => tf(Key::TtAtStart, &[&total.to_string()]),
    };
    let item = |n: usize, text: String| {
        let current = n == p.cursor;
        let class = class_list(&[
            "tt-item",
            on(current, "tt-current"),
            on(n > p.cursor, "tt-future"),
        ]);
        // Keyed by position: a new action appends one item and leaves the others (an
        // unkeyed list is matched from its end, so each item took the next one's text).
        html! {
            <li key={n}>
                <button type="button" {class} aria-current={current.then_some("step")}
                        data-testid={format!("tt-item-{n}")} onclick={travel(Travel::To(n))}>
                    <span class="tt-n">{ n }</span>{ " " }<span class="mono">{ text }</span>
                </button>
            </li>
        }
    };
    let items: Html = std::iter::once(item(0, t(Key::TtStartItem).to_string()))
        .chain(
            p.entries
                .iter()
                .enumerate()
                .map(|(i, text)| item(i + 1, text.clone())),
        )
        .collect();
    html! {
        <section class="panel stack time-travel" aria-labelledby="tt-heading" data-testid="time-travel">
            <h2 id="tt-heading">{ t(Key::TtHeading) }</h2>
            if let Some(n) = p.forked {
                <p class="notice small" role="status" data-testid="tt-forked">{ tf(Key::TtForked, &[&n.to_string()]) }</p>
            }
            if total == 0 {
                <p class="muted small" data-testid="tt-empty">{ t(Key::TtEmpty) }</p>
            } else {
                <p class="small tt-position" aria-live="polite" data-testid="tt-position">{ position.clone() }</p>
                <div class="cluster">
                    <button type="button" data-testid="tt-back" disabled={p.cursor == 0} onclick={travel(Travel::Back)}>{ t(Key::TtBack) }</button>
                    <button type="button" data-testid="tt-forward" disabled={p.cursor >= total} onclick={travel(Travel::Forward)}>{ t(Key::TtForward) }</button>
                    <button type="button" data-testid="tt-play" aria-pressed={if p.playing { "true" } else { "false" }} onclick={p.on_play.reform(|_: MouseEvent| ())}>
                        { if p.playing { t(Key::TtPause) } else { t(Key::TtPlay) } }
                    </button>
                </div>
                <input type="range" class="tt-slider" min="0" max={total.to_string()} value={p.cursor.to_string()}
                       aria-label={t(Key::TtSlider)} aria-valuetext={position} data-testid="tt-slider" oninput={on_slider} />
                <ol class="tt-list small" data-testid="tt-list">{ items }</ol>
                if p.cursor < total {
                    <p class="small tt-branch" data-testid="tt-branch">{ tf(Key::TtBranchWarn, &[&(total - p.cursor).to_string()]) }</p>
                }
            }
            <p class="muted small">{ t(Key::TtKeysHint) }</p>
        </section>
    }
}
