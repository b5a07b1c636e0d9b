//! The sequence diagram of the newest network messages: one lifeline per producer,
//! broker (with its role: partition leader, transaction coordinator), controller and
//! consumer; one row per message, oldest at the top. Requests are solid arrows,
//! responses dashed, errors red with their name, lost messages broken with ✗.
//! Drawn with a CSS grid, so it reflows with the width and its text stays text; on a
//! narrow screen it becomes a list, each message with its route written out.
//! While the reader is at the newest end of its bottom-anchored box (where each click's
//! messages land and move every drawn row up) only the newest rows are drawn
//! (`TIMELINE_NEWEST`), all of them once the reader scrolls up (`ui::newest_end`).
//!
//! A message still on its way (▸) or held (‖) is a button: it opens a small menu under
//! its row — drop, delay by N ms, duplicate, hold, or release a held one — whose choice
//! is one engine action (`fault drop id=N`, …), applied through the page's normal path.
//! The menu is a group of buttons; Esc or Close shuts it and gives focus back.
//!
//! With replication the followers' Fetch requests and answers would fill the diagram, so
//! (when the view is built folded) each run of plain follower fetches is one row, "N
//! follower fetches", a button that shows the run's messages under it and hides them
//! again; a fetch a fault touched or an error marks always has its own row.

use crate::ui::class::{class_list, on};
use crate::ui::newest_end::use_newest_end;
use yew::prelude::*;
use yew::virtual_dom::VList;

use crate::i18n::{t, tf, ui_lang, Key};
use crate::sim::{Action, FaultMark};
use crate::view::alt::{message_label, timeline_alt};
use crate::view::timeline::{
    choice_action, FetchFold, MessageChoice, TimelineMessage, TimelineRow, TimelineView,
    TIMELINE_NEWEST,
};

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub view: TimelineView,
    /// Applies a fault to a message; `None` (a lesson is loaded, or the compact view):
    /// the messages are not clickable.
    #[prop_or_default]
    pub on_act: Option<Callback<Action>>,
}

/// The delay the menu proposes, in ms (past the producer's 30 s request.timeout.ms it
/// would look like a loss, so a short one).
const DEFAULT_DELAY_MS: &str = "500";

/// Scrolled up by more than this (three rows of ≈ 32 px), the timeline draws every
/// row: the newest [`TIMELINE_NEWEST`] reach ≈ 9 rows above the ≈ 15 its box shows.
const AWAY_PX: i32 = 96;

fn label(m: &TimelineMessage) -> String {
    message_label(m, ui_lang())
}

fn choice_key(c: MessageChoice) -> Key {
    match c {
        MessageChoice::Drop => Key::TlStrikeDrop,
        MessageChoice::Delay => Key::TlStrikeDelay,
        MessageChoice::Duplicate => Key::TlStrikeDuplicate,
        MessageChoice::Hold => Key::TlStrikeHold,
        MessageChoice::Release => Key::TlStrikeRelease,
    }
}

fn choice_id(c: MessageChoice) -> &'static str {
    match c {
        MessageChoice::Drop => "tl-strike-drop",
        MessageChoice::Delay => "tl-strike-delay",
        MessageChoice::Duplicate => "tl-strike-duplicate",
        MessageChoice::Hold => "tl-strike-hold",
        MessageChoice::Release => "tl-strike-release",
    }
}

/// One row of the diagram, keyed: Yew matches unkeyed siblings from the end, so opening a
/// fold (rows inserted under it) would otherwise rebuild its button and lose the focus.
fn keyed(key: String, row: Html) -> Html {
    VList::with_children(vec![row], Some(key.into())).into()
}

/// Gives focus to the element with this id, if it is on the page.
fn focus_id(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(e) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = e.focus();
    }
}

#[derive(Properties, PartialEq)]
struct MenuProps {
    message: TimelineMessage,
    route: String,
    on_act: Callback<Action>,
    on_close: Callback<()>,
}

/// The menu of one message, as a full-width row under it.
#[function_component(MessageMenu)]
fn message_menu(p: &MenuProps) -> Html {
    let delay = use_state(|| DEFAULT_DELAY_MS.to_string());
    let first = use_node_ref();
    {
        // Focus goes to the menu's first button when it opens.
        let first = first.clone();
        use_effect_with(p.message.id, move |_| {
            if let Some(b) = first.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
        });
    }
    let m = &p.message;
    let onkeydown = {
        let close = p.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                e.stop_propagation();
                close.emit(());
            }
        })
    };
    let delay_ms: Option<i64> = delay.trim().parse::<i64>().ok().filter(|ms| *ms >= 0);
    let buttons: Html = m
        .choices()
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let onclick = {
                let (act, close, id) = (p.on_act.clone(), p.on_close.clone(), m.id);
                Callback::from(move |_: MouseEvent| {
                    act.emit(choice_action(id, c, delay_ms.unwrap_or(0)));
                    close.emit(());
                })
            };
            let node_ref = if i == 0 { first.clone() } else { NodeRef::default() };
            let disabled = c == MessageChoice::Delay && delay_ms.is_none();
            html! {
                <>
                    <button type="button" ref={node_ref} data-testid={choice_id(c)} {onclick} {disabled}>{ t(choice_key(c)) }</button>
                    if c == MessageChoice::Delay {
                        <label class="tl-delay small">
                            { t(Key::TlDelayMs) }
                            <input type="number" min="0" step="100" inputmode="numeric" data-testid="tl-delay-ms" value={(*delay).clone()}
                                oninput={{
                                    let delay = delay.clone();
                                    Callback::from(move |e: InputEvent| {
                                        use wasm_bindgen::JsCast;
                                        if let Some(i) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                            delay.set(i.value());
                                        }
                                    })
                                }} />
                        </label>
                    }
                </>
            }
        })
        .collect();
    let close = {
        let close = p.on_close.clone();
        Callback::from(move |_: MouseEvent| close.emit(()))
    };
    let heading = tf(
        Key::TlMenuHeading,
        &[&m.id.to_string(), &format!("{}, {}", p.route, label(m))],
    );
    html! {
        <div class="tl-menu stack" role="group" aria-labelledby="tl-menu-heading" data-testid="tl-menu"
            {onkeydown}>
            <p id="tl-menu-heading" class="small"><strong>{ heading }</strong></p>
            <div class="cluster">
                { buttons }
                <button type="button" data-testid="tl-menu-close" onclick={close}>{ t(Key::TlMenuClose) }</button>
            </div>
            <p class="small muted">{ t(Key::TlMenuHint) }</p>
        </div>
    }
}

#[function_component(Timeline)]
pub fn timeline(p: &TimelineProps) -> Html {
    let v = &p.view;
    let open = use_state(|| None::<u64>);
    // Messages new since the last render are drawn travelling from sender to receiver
    // (a dot along the arrow; none under prefers-reduced-motion). The first render
    // draws none: nothing moved yet.
    let seen = use_mut_ref(|| None::<u64>);
    let newest = v.messages.iter().map(|m| m.id).max().unwrap_or(0);
    let new_after = *seen.borrow();
    *seen.borrow_mut() = Some(newest.max(new_after.unwrap_or(0)));
    // The follower-fetch runs the learner opened, by the id of their first message.
    let open_folds = use_state(Vec::<u64>::new);
    // The open menu's message, if it can still be struck (a step may have delivered it)
    // and is on screen (not inside a closed fold).
    let open_msg = (*open).and_then(|id| {
        let i = v
            .messages
            .iter()
            .position(|m| m.id == id && m.strikeable())
            .filter(|_| p.on_act.is_some())?;
        let hidden = v.folded
            && v.rows(|k| open_folds.contains(&k))
                .iter()
                .all(|r| *r != TimelineRow::Message(i));
        (!hidden).then_some(i)
    });
    // At the newest end (where the clicks land) only the newest rows are drawn; all of
    // them once the reader scrolls up, while the focus is in the diagram or while a
    // message's menu is open.
    let newest = use_newest_end();
    let (onfocusin, onfocusout) = newest.on_focus(AWAY_PX);
    let keep = if newest.away() || open_msg.is_some() {
        usize::MAX
    } else {
        TIMELINE_NEWEST
    };
    let rows = RowContext {
        p,
        open: &open,
        open_msg,
        new_after,
    };
    let n = v.lifelines.len().max(1);
    let columns = format!("grid-template-columns: max-content repeat({n}, minmax(0, 1fr));");
    // Out of the grid's flow (absolutely placed in their column, from under the heads
    // to the bottom), so they take no cells and need no row count.
    let lines: Html = (0..n)
        .map(|i| html! { <div class="lifeline" style={format!("grid-column: {};", i + 2)}></div> })
        .collect();
    html! {
        <section class="panel stack timeline-panel" aria-labelledby="timeline-heading">
            { timeline_intro(p) }
            <div class="tl-scroll" tabindex="0" role="region" aria-label={t(Key::TlScrollLabel)} onscroll={newest.on_scroll(AWAY_PX)} {onfocusin} {onfocusout}>
                <div class="timeline" style={columns} data-testid="timeline">
                    { lines }
                    <div class="lifeline-head tl-corner" style="grid-column: 1;" aria-hidden="true"></div>
                    { lifeline_heads(v) }
                    { diagram_rows(&rows, &open_folds, keep) }
                </div>
            </div>
        </section>
    }
}

/// The panel's heading, how many messages it shows, what it is, the hint that a
/// message can be struck, and the diagram in words for a screen reader.
fn timeline_intro(p: &TimelineProps) -> Html {
    let v = &p.view;
    let any_clickable = p.on_act.is_some() && v.messages.iter().any(|m| m.strikeable());
    html! {
        <>
            <div class="panel-head">
                <h2 id="timeline-heading">{ t(Key::TlHeading) }</h2>
                <span class="small muted">{ tf(Key::TlShowing, &[&v.messages.len().to_string(), &v.total.to_string()]) }</span>
            </div>
            <p class="small muted">{ t(Key::TlIntro) }</p>
            if p.on_act.is_some() {
                <p class={class_list(&["small", on(!any_clickable, "muted")])} data-testid="tl-strike-hint">{ t(Key::TlStrikeHint) }</p>
            }
            if v.messages.is_empty() {
                <p class="muted">{ t(Key::TlEmpty) }</p>
            }
            if !v.messages.is_empty() {
                // The diagram in words (`view::alt`); the rows below stay text and buttons.
                <p class="visually-hidden" data-testid="timeline-alt">{ timeline_alt(v, ui_lang()) }</p>
            }
        </>
    }
}

/// One head a lifeline: its name and its roles.
fn lifeline_heads(v: &TimelineView) -> Html {
    v.lifelines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            html! {
                <div class="lifeline-head" style={format!("grid-column: {};", i + 2)}>
                    <strong>{ l.label.clone() }</strong>
                    { for l.roles.iter().map(|r| html! { <span class="muted small role">{ r.clone() }</span> }) }
                </div>
            }
        })
        .collect()
}

/// What a message row needs from the component: its props, the open menu's state and
/// row, and the newest message of the previous render.
struct RowContext<'a> {
    p: &'a TimelineProps,
    open: &'a UseStateHandle<Option<u64>>,
    open_msg: Option<usize>,
    new_after: Option<u64>,
}

/// The diagram's rows, oldest first: a message each, or a fold of follower fetches;
/// the newest `keep` (`TimelineView::newest_rows`).
fn diagram_rows(rows: &RowContext, open_folds: &UseStateHandle<Vec<u64>>, keep: usize) -> Html {
    let v = &rows.p.view;
    let mut new_index = 0usize;
    let mut drawn = Vec::new();
    for row in v.newest_rows(|k| open_folds.contains(&k), keep) {
        match row {
            TimelineRow::Fold(f) => {
                drawn.push(keyed(format!("f{}", f.key), fold_row(&f, open_folds)))
            }
            TimelineRow::Message(i) => {
                if let Some(m) = v.messages.get(i) {
                    // The open menu takes the row under its message.
                    drawn.push(keyed(
                        format!("m{}", m.id),
                        message_row(rows, i, m, &mut new_index),
                    ));
                }
            }
        }
    }
    drawn.into_iter().collect()
}

/// The name of lifeline `i`.
fn lane(v: &TimelineView, i: usize) -> &str {
    v.lifelines.get(i).map(|l| l.label.as_str()).unwrap_or("")
}

/// One message's row: its time and its arrow, and its menu under it when open.
///
/// Each row is its own grid on the diagram's columns (`subgrid`), placed by the
/// browser one under the other: nothing in a row depends on where it sits, so when the
/// newest messages move the window on, the rows that stay are left as they are.
fn message_row(rows: &RowContext, row: usize, m: &TimelineMessage, new_index: &mut usize) -> Html {
    let v = &rows.p.view;
    let self_msg = m.from == m.to;
    let label = label(m);
    // New messages set off one after another, in the order they were sent.
    let fresh = rows.new_after.is_some_and(|s| m.id > s);
    let delay = if fresh {
        *new_index += 1;
        format!(" --travel-order: {};", (*new_index - 1).min(8))
    } else {
        String::new()
    };
    let route = format!("{} → {}", lane(v, m.from), lane(v, m.to));
    let body = html! {
        <>
            // Said by the arrow on a wide screen; written out on a narrow one.
            <span class="msg-route">{ format!("{route}: ") }</span>
            <span class="msg-label">{ super::prose::breakable(&label) }</span>
        </>
    };
    let content = if rows.p.on_act.is_some() && m.strikeable() {
        message_button(rows, row, m, &route, &label, body)
    } else {
        body
    };
    html! {
        <>
            <div class="tl-row">
                <div class="tl-time mono">{ format!("{} ms", m.at_ms) }</div>
                <div class={message_class(m, fresh && !self_msg)} style={message_style(m, &delay)} title={format!("#{} {route}: {label}", m.id)} data-msg-id={m.id.to_string()}>
                    { content }
                </div>
            </div>
            { message_menu(rows, row, m, &route) }
        </>
    }
}

/// An arrow's classes: request or response, its direction, and what happened to it.
fn message_class(m: &TimelineMessage, new: bool) -> Option<String> {
    let struck = matches!(
        m.mark,
        Some(FaultMark::Delayed { .. } | FaultMark::Duplicated { .. })
    );
    class_list(&[
        "msg",
        if m.response {
            "msg-response"
        } else {
            "msg-request"
        },
        if m.to >= m.from {
            "msg-right"
        } else {
            "msg-left"
        },
        on(m.from == m.to, "msg-self"),
        on(m.error.is_some(), "msg-error"),
        on(m.dropped, "msg-dropped"),
        on(m.held, "msg-held"),
        on(m.on_wire && !m.held, "msg-on-wire"),
        on(struck, "msg-struck"),
        on(new, "msg-new"),
        &format!("api-{}", m.api.to_ascii_lowercase()),
    ])
}

/// Where an arrow sits: from the middle of one lifeline column to the middle of the
/// other (`delay`: its place among the new messages setting off).
fn message_style(m: &TimelineMessage, delay: &str) -> String {
    let (lo, hi) = (m.from.min(m.to), m.from.max(m.to));
    let span = hi - lo + 1;
    if m.from == m.to {
        format!("grid-column: {};", lo + 2)
    } else {
        format!(
            "grid-column: {} / span {span}; margin-left: calc(100% / {}); margin-right: calc(100% / {});{delay}",
            lo + 2,
            2 * span,
            2 * span
        )
    }
}

/// A message that can still be struck: a button that opens (or shuts) its menu.
fn message_button(
    rows: &RowContext,
    row: usize,
    m: &TimelineMessage,
    route: &str,
    label: &str,
    body: Html,
) -> Html {
    let expanded = rows.open_msg == Some(row);
    let onclick = {
        let (open, id) = (rows.open.clone(), m.id);
        Callback::from(move |_: MouseEvent| {
            open.set(if *open == Some(id) { None } else { Some(id) });
        })
    };
    html! {
        <button type="button" class="msg-button" id={format!("tl-msg-{}", m.id)} data-testid={format!("tl-msg-{}", m.id)}
            aria-expanded={expanded.to_string()} aria-label={tf(Key::TlOpenMenu, &[&m.id.to_string(), &format!("{route}: {label}")])} {onclick}>
            { body }
        </button>
    }
}

/// The menu under message row `row`, when it is the open one.
fn message_menu(rows: &RowContext, row: usize, m: &TimelineMessage, route: &str) -> Html {
    match (rows.open_msg, &rows.p.on_act) {
        (Some(o), Some(on_act)) if o == row => {
            let on_close = {
                let (open, id) = (rows.open.clone(), m.id);
                Callback::from(move |()| {
                    open.set(None);
                    focus_id(&format!("tl-msg-{id}"));
                })
            };
            html! { <MessageMenu message={m.clone()} route={route.to_string()} on_act={on_act.clone()} {on_close} /> }
        }
        _ => Html::default(),
    }
}

/// A run of plain follower fetches as one row: a button that shows its messages under
/// it, or hides them again.
fn fold_row(f: &FetchFold, open_folds: &UseStateHandle<Vec<u64>>) -> Html {
    let (lo, hi) = f.lanes;
    let text = tf(
        Key::TlFollowerFetches,
        &[
            &f.len.to_string(),
            &f.from_ms.to_string(),
            &f.to_ms.to_string(),
        ],
    );
    let action = t(if f.expanded {
        Key::TlFoldHide
    } else {
        Key::TlFoldShow
    });
    let onclick = {
        let (folds, key) = (open_folds.clone(), f.key);
        Callback::from(move |_: MouseEvent| {
            let mut next = (*folds).clone();
            if let Some(i) = next.iter().position(|k| *k == key) {
                next.remove(i);
            } else {
                next.push(key);
            }
            folds.set(next);
        })
    };
    html! {
        <div class="tl-row">
            <div class="tl-time mono">{ format!("{} ms", f.from_ms) }</div>
            <div class="msg msg-fold" style={format!("grid-column: {} / span {};", lo + 2, hi - lo + 1)}>
                <button type="button" class="msg-button fold-button" data-testid="tl-fold" data-fold-key={f.key.to_string()}
                    aria-expanded={f.expanded.to_string()} aria-label={format!("{text} — {action}")} {onclick}>
                    <span class="msg-label">{ format!("{} {text}", if f.expanded { "▾" } else { "▸" }) }</span>
                </button>
            </div>
        </div>
    }
}
