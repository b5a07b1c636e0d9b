//! The idempotence page (the first page): the producer, the partition's verdict,
//! dedup window and log, the events, and the tools (time travel, lessons, raw
//! produce, broker restarts).

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::sim::World;
use crate::view::idempotence_page::{expected_sequence, idempotence_views, IdempotenceViews};
pub(super) use crate::view::idempotence_page::{last_verdict, marks, shown_tp};
use crate::view::page::Setup;

use super::app::time_travel;
use super::components::broker_panel::BrokerPanel;
use super::components::cluster_panel::ClusterPanel;
use super::components::event_list::EventList;
use super::components::lesson_panel::{LessonInfo, LessonPanel};
use super::components::log_table::LogTable;
use super::components::producer_panel::ProducerPanel;
use super::components::raw_panel::RawPanel;
use super::components::replicas_view::ReplicasView;
use super::components::verdict::Verdict;
use super::components::window_table::WindowTable;
use super::deferred::Deferred;
use super::intents::Intents;
use super::state::{AppState, Msg, Page, Panel};
use crate::i18n::{t, tf, Key};
pub(super) use crate::view::cluster::ClusterViews;

/// The cluster panel and the replicas view of one page, when the world has them.
pub(super) fn cluster_html(
    cluster: &Option<ClusterViews>,
    page: Page,
    disabled: bool,
    intents: &Intents,
) -> (Html, Html) {
    match cluster {
        None => (Html::default(), Html::default()),
        Some(c) => (
            html! { <ClusterPanel brokers={c.brokers.clone()} {disabled} on_act={intents.act(page)} /> },
            c.replicas
                .clone()
                .map_or_else(Html::default, |panel| html! { <ReplicasView {panel} /> }),
        ),
    }
}

/// A page's header: its title, what it shows (the playground, or the lesson loaded,
/// which locks the page), the logical clock and the reset button (`reset_id`).
pub(super) fn page_header(
    [title, subtitle]: [Key; 2],
    lesson: Option<&LessonInfo>,
    clock: i64,
    reset: Callback<MouseEvent>,
    reset_id: &'static str,
) -> Html {
    let locked = lesson.is_some();
    let showing = match lesson {
        Some(l) => tf(Key::ShowingLesson, &[&l.title]),
        None => t(Key::ShowingPlayground).to_string(),
    };
    html! {
        <header class="layout-header pg-header">
            <div>
                <h1>{ t(title) }</h1>
                <p class="muted subtitle">{ t(subtitle) }</p>
            </div>
            <div class="header-status cluster">
                <span class={if locked { "badge info" } else { "badge" }} data-testid="showing">{ showing }</span>
                <span class="mono clock" data-testid="clock">{ tf(Key::Clock, &[&clock.to_string()]) }</span>
                <button type="button" onclick={reset} disabled={locked} title={t(Key::ResetHint)} data-testid={reset_id}>{ t(Key::ResetPlayground) }</button>
            </div>
        </header>
    }
}

/// The playground's choices for a page's world (hidden while a lesson is loaded): the
/// page's own cluster or three brokers with the topic at replication.factor=3, and on
/// the transactions page the transaction rules (TV2, TV1, TV1 without verification).
/// Either change starts the page afresh.
pub(super) fn cluster_choice(
    page: Page,
    setup: Setup,
    locked: bool,
    dispatch: &Callback<Msg>,
) -> Html {
    if locked {
        return Html::default();
    }
    let choose = |f: fn(Setup, &str) -> Setup| {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                dispatch.emit(Msg::SetSetup(page, f(setup, &select.value())));
            }
        })
    };
    let own = match page {
        Page::Idempotence => 1,
        Page::Transactions => crate::view::page::txn_cluster().brokers,
    };
    let rules = (page == Page::Transactions).then(|| {
        let onchange = choose(|s, v| {
            let i: usize = v.parse().unwrap_or(0);
            let (transaction_version, verification) =
                Setup::RULES.get(i).copied().unwrap_or((2, true));
            Setup {
                transaction_version,
                verification,
                ..s
            }
        });
        let labels = [
            Key::TxnRulesTv2,
            Key::TxnRulesTv1,
            Key::TxnRulesTv1Unverified,
        ];
        let options = Setup::RULES
            .iter()
            .zip(labels)
            .enumerate()
            .map(|(i, (r, key))| {
                let selected = *r == (setup.transaction_version, setup.verification);
                html! { <option value={i.to_string()} {selected}>{ t(key) }</option> }
            });
        html! {
            <label class="stack">
                <span>{ t(Key::TxnRules) }</span>
                <select {onchange} data-testid="txn-rules" aria-describedby="cluster-size-hint">
                    { for options }
                </select>
            </label>
        }
    });
    let onchange = choose(|s, v| Setup {
        replicated: v == "3",
        ..s
    });
    html! {
        <div class="panel stack cluster-choice">
            <label class="stack">
                <span>{ t(Key::ClusterSize) }</span>
                <select {onchange} data-testid="cluster-size" aria-describedby="cluster-size-hint">
                    <option value="1" selected={!setup.replicated}>{ tf(Key::ClusterSizeOne, &[&own.to_string()]) }</option>
                    <option value="3" selected={setup.replicated}>{ t(Key::ClusterSizeThree) }</option>
                </select>
            </label>
            { rules.unwrap_or_default() }
            <p id="cluster-size-hint" class="muted small">{ t(Key::ClusterSizeHint) }</p>
        </div>
    }
}

/// The page's views of the shown world (`view::idempotence_page`), in the page's
/// language, on the partition the learner chose.
pub(super) fn views(state: &AppState, world: &World) -> IdempotenceViews {
    let selected = state.panels.selected_tp.as_ref();
    idempotence_views(world, selected, crate::i18n::ui_lang())
}

/// The idempotence page (the first page).
pub(super) fn idempotence_page(
    state: &AppState,
    intents: &Intents,
    lesson: Option<LessonInfo>,
    lessons: Vec<(&'static str, &'static str)>,
) -> Html {
    let v = state.with_world(Page::Idempotence, |w| views(state, w));
    let dispatch = &intents.dispatch;
    let act = intents.act(Page::Idempotence);
    let locked = lesson.is_some();
    let page = state.page_state(Page::Idempotence);
    let error = page.error.as_ref().map(|(_, e)| e.clone());

    let expect = {
        let windows = v.windows.clone();
        Callback::from(move |pid: String| expected_sequence(&windows, &pid, crate::i18n::ui_lang()))
    };
    let reset = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Msg::Reset))
    };
    let (cluster_panel, replicas_view) =
        cluster_html(&v.cluster, Page::Idempotence, locked, intents);
    let many = v.cluster.is_some();

    html! {
        <div class={class_list(&["pg", "playground", on(locked, "lesson-on")])} data-testid="playground" data-changed={lesson.as_ref().map(|l| l.changed.join(" "))}>
            if !locked {
                <div class="pg-course">
                    <super::components::course::Course intents={intents.lesson.clone()} />
                </div>
            }
            { page_header([Key::Title, Key::Subtitle], lesson.as_ref(), v.clock, reset, "reset") }
            if locked {
                // The lesson leads: the player is the main column's head.
                <div class="pg-lesson">
                    <LessonPanel lessons={lessons.clone()} loaded={lesson.clone()} intents={intents.lesson.clone()} playing={state.panels.playing} file_error={state.notices.file_error.clone()} />
                </div>
            }
            <div class="pg-producer">
                <ProducerPanel info={v.producer.clone()} step_mode={state.panels.step_mode} disabled={locked} {error} on_act={act.clone()} on_step_mode={intents.step_mode.clone()} />
            </div>
            <div class="pg-main stack" id="main" tabindex="-1">
                { partition_section(&v, locked, state.panels.selected_batch, dispatch) }
                { replicas_view }
            </div>
            <Deferred class="pg-events">
                <EventList events={v.events.clone()} />
            </Deferred>
            // Keyed by the lesson, as on the transactions page: the lesson panel moves.
            <Deferred class="pg-tools stack" key={if locked { "tools-in-lesson" } else { "tools" }}>
                if !locked {
                    { time_travel(state, intents) }
                }
                if !locked {
                    <super::components::challenges::Challenges items={v.challenges.clone()} />
                    <LessonPanel {lessons} loaded={lesson.clone()} intents={intents.lesson.clone()} playing={state.panels.playing} file_error={state.notices.file_error.clone()} />
                    <RawPanel disabled={locked} lines={page.output.clone()} {expect} on_act={act.clone()} />
                }
                { cluster_choice(Page::Idempotence, page.setup, locked, dispatch) }
                { cluster_panel }
                if !many {
                <BrokerPanel online={v.online} snapshots={v.snapshots} recovery={v.recovery.clone()} disabled={locked} on_act={act} />
                }
            </Deferred>
        </div>
    }
}

/// The shown partition: its menu (more than one), the broker's last verdict, the dedup
/// window and the log (a batch `selected` opens its records), each verdict marked where
/// it happened.
fn partition_section(
    v: &IdempotenceViews,
    locked: bool,
    selected: Option<(i64, u64)>,
    dispatch: &Callback<Msg>,
) -> Html {
    let (slot_mark, log_mark) = marks(&v.verdict);
    let on_select = {
        let dispatch = dispatch.clone();
        Callback::from(move |b: Option<(i64, u64)>| dispatch.emit(Msg::Open(Panel::Batch(b))))
    };
    let on_partition = {
        let dispatch = dispatch.clone();
        let parts = v.partitions.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                if let Some(tp) = select
                    .value()
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| parts.get(i))
                {
                    dispatch.emit(Msg::Open(Panel::Partition(tp.clone())));
                }
            }
        })
    };
    let tp_name = v.tp.as_ref().map(|tp| tp.to_string()).unwrap_or_default();
    html! {
        <section class="panel stack partition-panel" aria-labelledby="partition-heading">
            <div class="panel-head">
                <h2 id="partition-heading">{ tf(Key::PartitionHeading, &[&tp_name]) }</h2>
                if v.partitions.len() > 1 {
                    <label class="inline">
                        { t(Key::PartitionSelect) }{ " " }
                        <select onchange={on_partition} data-testid="partition-select">
                            { for v.partitions.iter().enumerate().map(|(i, p)| html! {
                                <option value={i.to_string()} selected={v.tp.as_ref() == Some(p)}>{ p.to_string() }</option>
                            }) }
                        </select>
                    </label>
                }
            </div>
            <h3 class="small-heading">{ t(Key::VerdictHeading) }</h3>
            <Verdict verdict={v.verdict.clone()} in_lesson={locked} />
            <h3>{ t(Key::WindowHeading) }</h3>
            <WindowTable windows={v.windows.clone()} mark={slot_mark} recovered={v.recovery.is_some()} />
            if let Some(note) = v.restart_note.clone() {
                <p class="muted small" data-testid="restart-note">{ note }</p>
            }
            <h3>{ t(Key::LogHeading) }</h3>
            if let Some(log) = v.log.clone() {
                <LogTable {log} selected={selected} mark={log_mark} {on_select} />
            } else {
                <p class="muted">{ t(Key::NoPartition) }</p>
            }
        </section>
    }
}
