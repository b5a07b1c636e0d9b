//! The transactions page: transactional producers (and a second one that fences the
//! first), the partition with committed, aborted and open data, markers and the LSO,
//! two consumers (read_committed next to read_uncommitted), the coordinator's state
//! and `__transaction_state`, the request timeline, and the narrated events.
//!
//! `view::txn_page::txn_views` reads everything the page needs from the shown world once
//! per render;
//! [`TransactionsPage`] lays the panels out and hands each its slice.

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::view::events::EVENT_REST_ROWS;
use crate::view::page::Setup;

use super::components::event_list::EventList;
use super::components::lesson_panel::{LessonInfo, LessonPanel};
use super::components::network_panel::NetworkPanel;
use super::components::rules_panel::RulesPanel;
use super::components::timeline::Timeline;
use super::components::txn_admin::TxnAdmin;
use super::components::txn_consumers::TxnConsumers;
use super::components::txn_coordinator::TxnCoordinator;
use super::components::txn_log::TxnLog;
use super::components::txn_producer::TxnProducer;
use super::deferred::Deferred;
use super::intents::Intents;
use super::state::{ErrorAt, Msg, Page, ADVANCE_MS, ADVANCE_STEP_MS, TXN_ID, TXN_PRODUCER_2};
use crate::i18n::{t, tf, Key};
use crate::sim::Action;

pub use crate::view::txn_page::TxnViews;

#[derive(Properties, PartialEq)]
pub struct TransactionsPageProps {
    pub views: std::rc::Rc<TxnViews>,
    /// A lesson is loaded: the panels show its world and the controls pause.
    pub lesson: Option<LessonInfo>,
    pub lessons: Vec<(&'static str, &'static str)>,
    pub error: Option<(ErrorAt, String)>,
    /// The panels' callbacks (`ui::intents`).
    pub intents: Intents,
    /// The time-travel panel (only while no lesson is loaded).
    #[prop_or_default]
    pub time_travel: Html,
    /// Auto-play is on.
    #[prop_or_default]
    pub playing: bool,
    /// Why the author's lesson file could not be played.
    #[prop_or_default]
    pub file_error: Option<String>,
    /// The cluster and transaction rules the learner chose.
    #[prop_or_default]
    pub setup: Setup,
    /// "Pause after each click" (the app's step mode).
    #[prop_or_default]
    pub step_mode: bool,
}

/// A click that applies `action` to the page.
fn click(act: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let act = act.clone();
    Callback::from(move |_: MouseEvent| act.emit(action.clone()))
}

/// The message of the refused call made at `at`, if the last refusal was there.
fn error_at(error: &Option<(ErrorAt, String)>, at: &ErrorAt) -> Option<String> {
    error
        .as_ref()
        .filter(|(a, _)| a == at)
        .map(|(_, e)| e.clone())
}

#[function_component(TransactionsPage)]
pub fn transactions_page(p: &TransactionsPageProps) -> Html {
    let v = &p.views;
    let locked = p.lesson.is_some();
    let reset = {
        let dispatch = p.intents.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Msg::Reset))
    };
    // A click on a message in flight on the timeline (paused while a lesson is loaded).
    // Kept from render to render (`ui::intents`), as the batch table's scroll callback:
    // a new callback would re-render the timeline on every click, its rows unchanged.
    let act = p.intents.act(Page::Transactions);
    let on_act = (!locked).then(|| act.clone());
    let (lso, hw) = v
        .part
        .as_ref()
        .map_or((0, 0), |x| (x.last_stable_offset, x.high_watermark));
    let consumer_error = p.error.as_ref().and_then(|(a, e)| match a {
        ErrorAt::Consumer(c) => Some((c.clone(), e.clone())),
        _ => None,
    });
    let (cluster_panel, replicas_view) =
        super::idempotence::cluster_html(&v.cluster, Page::Transactions, locked, &p.intents);
    let choice = super::idempotence::cluster_choice(
        Page::Transactions,
        p.setup,
        locked,
        &p.intents.dispatch,
    );
    let lesson_panel = || {
        html! {
            <LessonPanel lessons={p.lessons.clone()} loaded={p.lesson.clone()} intents={p.intents.lesson.clone()} playing={p.playing} file_error={p.file_error.clone()} />
        }
    };

    html! {
        <div class={class_list(&["pg", "txn-page", on(locked, "lesson-on")])} data-testid="page-transactions" data-changed={p.lesson.as_ref().map(|l| l.changed.join(" "))}>
            { super::idempotence::page_header([Key::TxTitle, Key::TxSubtitle], p.lesson.as_ref(), v.clock, reset, "txn-reset") }
            if locked {
                // The lesson leads: the player is the main column's head.
                <div class="pg-lesson">
                    { lesson_panel() }
                </div>
            }
            <div class="tx-producers stack">
                if locked {
                    <p class="notice">{ t(Key::TxLessonLocks) }</p>
                }
                if v.producers.is_empty() {
                    <p class="panel muted">{ t(Key::TxNoProducers) }</p>
                }
                <div class="stack tx-cards">{ producer_cards(v, locked, &p.error, &act) }</div>
                <Deferred class="stack tx-controls">
                if !locked {
                    { fence_box(v, &p.error, &act) }
                }
                { markers_panel(v, locked, error_at(&p.error, &ErrorAt::Cluster), &act) }
                <NetworkPanel view={v.network.clone()} on_wire={v.on_wire} step_mode={p.step_mode} {locked} on_act={act.clone()} on_step_mode={p.intents.step_mode.clone()} />
                </Deferred>
            </div>
            <div class="tx-main stack" id="main" tabindex="-1">
                { partition_section(v, &p.intents.scroll_log) }
                <Deferred class="stack">
                    { replicas_view }
                    <TxnConsumers consumers={v.consumers.clone()} {lso} {hw} disabled={locked} error={consumer_error} on_act={act.clone()} />
                    <TxnAdmin view={v.admin.clone()} {lso} {locked} on_act={act.clone()} />
                </Deferred>
            </div>
            <div class="tx-coord stack">
                { choice }
                { cluster_panel }
                <Deferred class="stack">
                    <TxnCoordinator views={v.coordinators.clone()} />
                    <RulesPanel view={v.rules.clone()} />
                </Deferred>
            </div>
            <Deferred class="tx-timeline">
                <Timeline view={v.timeline.clone()} {on_act} />
            </Deferred>
            <Deferred class="tx-events">
                <EventList events={v.events.clone()} rest={EVENT_REST_ROWS} />
            </Deferred>
            // Keyed by the lesson: opening or closing one moves the lesson panel between
            // here and the column's head, so the box is made anew and renders at once
            // (never the panel in both places, or in neither, for a frame).
            <Deferred class="tx-tools stack" key={if locked { "tools-in-lesson" } else { "tools" }}>
                { p.time_travel.clone() }
                if !locked {
                    <super::components::challenges::Challenges items={v.challenges.clone()} />
                    { lesson_panel() }
                }
            </Deferred>
        </div>
    }
}

/// One card a transactional producer, keyed by its name; each card's data-testids end
/// in `-N` from the second on.
fn producer_cards(
    v: &TxnViews,
    locked: bool,
    error: &Option<(ErrorAt, String)>,
    act: &Callback<Action>,
) -> Html {
    // A producer that can only be closed is replaced by a new one: the first free name.
    let replacement = (1..)
        .map(|n| format!("producer-{n}"))
        .find(|n| v.producers.iter().all(|x| x.name != *n))
        .unwrap_or_default();
    v.producers
        .iter()
        .enumerate()
        .map(|(i, pv)| {
            let suffix = if i == 0 {
                String::new()
            } else {
                format!("-{}", i + 1)
            };
            let defaults = ["c1, c2", "y1", "w1"];
            html! {
                <TxnProducer
                    key={pv.name.clone()}
                    view={pv.clone()}
                    suffix={suffix}
                    default_records={*defaults.get(i).unwrap_or(&"v1")}
                    disabled={locked}
                    error={error_at(error, &ErrorAt::Producer(pv.name.clone()))}
                    replacement={replacement.clone()}
                    on_act={act.clone()}
                />
            }
        })
        .collect()
}

/// The button that starts a second producer with the same transactional.id (which
/// fences the first), and why it was refused.
fn fence_box(v: &TxnViews, error: &Option<(ErrorAt, String)>, act: &Callback<Action>) -> Html {
    let has_second = v.producers.iter().any(|x| x.name == TXN_PRODUCER_2);
    let create = Action::CreateProducer {
        name: TXN_PRODUCER_2.into(),
        configs: vec![("transactional.id".into(), TXN_ID.into())],
    };
    html! {
        <div class="panel stack fence-box">
            <button type="button" class="mono-button" data-testid="txn-fence" onclick={click(act, create)}>
                { if has_second { t(Key::FenceAgain) } else { t(Key::FenceButton) } }
            </button>
            <p class="small muted">{ t(Key::FenceHint) }</p>
            if !has_second {
                if let Some(e) = error_at(error, &ErrorAt::Producer(TXN_PRODUCER_2.into())) {
                    <p class="action-error" role="alert">{ tf(Key::ActionFailed, &[&e]) }</p>
                }
            }
        </div>
    }
}

/// Whether WriteTxnMarkers are held, the hold/release and clock buttons, and why the
/// last of them was refused (`cluster_error`).
fn markers_panel(
    v: &TxnViews,
    locked: bool,
    cluster_error: Option<String>,
    act: &Callback<Action>,
) -> Html {
    html! {
        <section class="panel stack markers-panel" aria-labelledby="markers-heading">
            <h2 id="markers-heading">{ t(Key::MarkersHeading) }</h2>
            <p class="small" data-testid="markers-status">
                if v.holding {
                    <span class="badge warn">{ t(Key::MarkersHolding) }</span>{ " " }{ tf(Key::MarkersHeld, &[&v.held.to_string()]) }
                } else {
                    { t(Key::MarkersFlowing) }
                }
            </p>
            if !locked {
                <div class="cluster">
                    <button type="button" data-testid="txn-hold-markers" disabled={v.holding} onclick={click(act, Action::HoldMarkers)}>{ t(Key::HoldMarkers) }</button>
                    <button type="button" data-testid="txn-release-markers" disabled={!v.holding} onclick={click(act, Action::ReleaseMarkers)}>{ t(Key::ReleaseMarkers) }</button>
                </div>
                <p class="small muted">{ t(Key::HoldHint) }</p>
                <div class="cluster">
                    <button type="button" data-testid="txn-advance-step" onclick={click(act, Action::Advance { ms: ADVANCE_STEP_MS })}>{ tf(Key::AdvanceButton, &["10"]) }</button>
                    <button type="button" data-testid="txn-advance" onclick={click(act, Action::Advance { ms: ADVANCE_MS })}>{ tf(Key::AdvanceButton, &[&(ADVANCE_MS / 1000).to_string()]) }</button>
                </div>
                <p class="small muted">{ t(Key::AdvanceHint) }</p>
            }
            if let Some(e) = cluster_error {
                <p class="action-error" role="alert">{ tf(Key::ActionFailed, &[&e]) }</p>
            }
        </section>
    }
}

/// The partition's heading, its leader and the batch table (scrolled by `scroll_log`
/// when it holds more batches than it shows).
fn partition_section(v: &TxnViews, scroll_log: &Callback<usize>) -> Html {
    let tp_name = v
        .part
        .as_ref()
        .map(|x| x.tp.to_string())
        .unwrap_or_default();
    let leader = v
        .part
        .as_ref()
        .map(|x| x.leader.to_string())
        .unwrap_or_default();
    html! {
        <section class="panel stack partition-panel" aria-labelledby="tx-partition-heading">
            <div class="panel-head">
                <h2 id="tx-partition-heading">{ tf(Key::PartitionHeading, &[&tp_name]) }</h2>
                if !leader.is_empty() {
                    <span class="small muted">{ tf(Key::TxLeaderIs, &[&leader]) }</span>
                }
            </div>
            if let Some(part) = v.part.clone() {
                <TxnLog on_back={(part.total_batches > part.batches.len()).then(|| scroll_log.clone())} {part} />
            } else {
                <p class="muted">{ t(Key::NoPartition) }</p>
            }
        </section>
    }
}
