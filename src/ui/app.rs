//! The page: the reducer lives here; every panel gets views of the shown world.

use yew::prelude::*;

use crate::broker::broker::BrokerEvent;
use crate::log::TopicPartition;
use crate::scenario;
use crate::sim::{EventKind, World, START_MS};

use super::components::broker_panel::{BrokerPanel, RecoveryInfo};
use super::components::event_list::{EventItem, EventList};
use super::components::lesson_panel::{LessonInfo, LessonPanel};
use super::components::log_table::LogTable;
use super::components::page_nav::PageNav;
use super::components::producer_panel::{ProducerInfo, ProducerPanel};
use super::components::raw_panel::RawPanel;
use super::components::share_box::ShareBox;
use super::components::shortcuts::Shortcuts;
use super::components::time_travel::TimeTravel;
use super::components::timeline::Timeline;
use super::components::txn_consumers::TxnConsumers;
use super::components::txn_coordinator::TxnCoordinator;
use super::components::verdict::Verdict;
use super::components::window_table::{SlotMark, WindowTable};
use super::embed::{self, HostCommand};
use super::link;
use super::state::{AppState, Msg, Page, Panel, Travel, PRODUCER, TOPIC};
use super::transactions::{txn_views, TransactionsPage};
use crate::i18n::{narrate, t, tf, Key, Lang};

/// How many events the list keeps on screen.
const MAX_EVENTS: usize = 400;

/// The latest APPEND / DUPLICATE / rejection on `tp`, with its logical time.
pub fn last_verdict(world: &World, tp: &TopicPartition) -> Option<(i64, BrokerEvent)> {
    world.events.iter().rev().find_map(|e| match &e.kind {
        EventKind::Broker { event, .. } => match event {
            BrokerEvent::BatchAppended { tp: t, .. }
            | BrokerEvent::BatchDuplicate { tp: t, .. }
            | BrokerEvent::BatchRejected { tp: t, .. }
                if t == tp =>
            {
                Some((e.at_ms - START_MS, event.clone()))
            }
            _ => None,
        },
        _ => None,
    })
}

/// The last restart of the partition's broker: how it stopped and how it recovered.
fn last_recovery(world: &World, tp: &TopicPartition) -> Option<RecoveryInfo> {
    let (i, e) = world.events.iter().enumerate().rev().find(|(_, e)| {
        matches!(&e.kind, EventKind::Broker { event: BrokerEvent::Recovered { tp: t, .. }, .. } if t == tp)
    })?;
    let EventKind::Broker {
        event: BrokerEvent::Recovered {
            report, windows, ..
        },
        ..
    } = &e.kind
    else {
        return None;
    };
    let stopped = world
        .events
        .get(..i)
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(|e| match &e.kind {
            EventKind::Broker {
                event: BrokerEvent::Stopped { clean, snapshots },
                ..
            } => Some((*clean, snapshots.len())),
            _ => None,
        });
    Some(RecoveryInfo {
        at_ms: e.at_ms - START_MS,
        stopped,
        report: report.clone(),
        windows: windows.clone(),
    })
}

/// The newest `max` events, narrated, each with the tone a page gives it.
pub(crate) fn event_items(
    world: &World,
    max: usize,
    tone: fn(&crate::sim::Event) -> (&'static str, bool),
) -> Vec<EventItem> {
    let start = world.events.len().saturating_sub(max);
    world
        .events
        .get(start..)
        .unwrap_or_default()
        .iter()
        .map(|e| {
            let (tone, network) = tone(e);
            EventItem {
                seq: e.seq,
                at_ms: e.at_ms - START_MS,
                text: narrate(e, Lang::En),
                tone,
                network,
            }
        })
        .collect()
}

fn tone(e: &crate::sim::Event) -> (&'static str, bool) {
    match &e.kind {
        EventKind::Broker { event, .. } => match event {
            BrokerEvent::BatchAppended { .. } => ("append", false),
            BrokerEvent::BatchDuplicate { .. } => ("dup", false),
            BrokerEvent::BatchRejected { .. } => ("bad", false),
            BrokerEvent::Recovered { .. }
            | BrokerEvent::Stopped { .. }
            | BrokerEvent::SegmentRolled { .. } => ("info", false),
            _ => ("", false),
        },
        EventKind::Producer { event, .. } => match event {
            crate::client::producer::ProducerEvent::Acknowledged { .. } => ("ok", false),
            crate::client::producer::ProducerEvent::RequestTimedOut { .. }
            | crate::client::producer::ProducerEvent::RetryScheduled { .. } => ("warn", false),
            crate::client::producer::ProducerEvent::Failed { .. } => ("danger", false),
            _ => ("", false),
        },
        EventKind::MessageDropped { .. } | EventKind::MessageRefused { .. } => ("danger", false),
        EventKind::FaultArmed { .. } => ("warn", false),
        EventKind::MessageSent { .. } | EventKind::MessageDelivered { .. } => ("", true),
        _ => ("", false),
    }
}

/// Everything the panels need from the shown world, computed once per render.
struct Views {
    clock: i64,
    tp: Option<TopicPartition>,
    partitions: Vec<TopicPartition>,
    log: Option<crate::sim::view::LogView>,
    windows: Vec<crate::sim::view::WindowView>,
    verdict: Option<(i64, BrokerEvent)>,
    recovery: Option<RecoveryInfo>,
    online: bool,
    snapshots: bool,
    producer: ProducerInfo,
    events: Vec<EventItem>,
}

fn views(state: &AppState, world: &World) -> Views {
    let tp = state.shown_tp(world);
    let producer = world
        .producers
        .get(PRODUCER)
        .map(|p| ProducerInfo {
            id: (p.producer_id >= 0).then(|| {
                (
                    p.producer_id,
                    p.producer_epoch,
                    p.next_sequence
                        .get(&TopicPartition::new(TOPIC, 0))
                        .copied()
                        .unwrap_or(0),
                )
            }),
            in_network: world.network.in_flight().count(),
            pending: p.pending_batches(),
            faults: world
                .network
                .faults()
                .iter()
                .map(|f| match f {
                    crate::sim::Fault::DropNextRequest { from } => format!(
                        "{} ({})",
                        t(Key::DropRequestButton),
                        from.as_deref().unwrap_or("*")
                    ),
                    crate::sim::Fault::DropNextResponse { to } => format!(
                        "{} ({})",
                        t(Key::DropAckButton),
                        to.as_deref().unwrap_or("*")
                    ),
                    // Not armed from this page (the transactions page shows its holds).
                    crate::sim::Fault::HoldRequests { api } => api.clone(),
                })
                .collect(),
        })
        .unwrap_or_default();
    let events = event_items(world, MAX_EVENTS, tone);
    let leader = tp.as_ref().and_then(|tp| world.leader_of(tp)).unwrap_or(1);
    Views {
        clock: world.clock_ms - START_MS,
        partitions: world.partitions(),
        log: tp.as_ref().and_then(|tp| world.log_view(tp)),
        windows: tp.as_ref().map(|tp| world.windows(tp)).unwrap_or_default(),
        verdict: tp.as_ref().and_then(|tp| last_verdict(world, tp)),
        recovery: tp.as_ref().and_then(|tp| last_recovery(world, tp)),
        online: world.brokers.get(&leader).is_some_and(|b| b.online),
        snapshots: world.broker_defaults.producer_snapshots,
        producer,
        events,
        tp,
    }
}

/// The narration for the step just played: its `## Title` and `> text` paragraphs, or
/// those of the nearest step above it that has some (steps under one heading share it).
fn narration_for(steps: &[scenario::Step], done: usize) -> Vec<String> {
    let Some(last) = done.checked_sub(1) else {
        return Vec::new();
    };
    steps
        .get(..=last)
        .unwrap_or_default()
        .iter()
        .rev()
        .find(|s| s.title.is_some() || !s.narration.is_empty())
        .map(|s| {
            s.title
                .iter()
                .map(|t| format!("{t}:"))
                .chain(s.narration.iter().cloned())
                .collect()
        })
        .unwrap_or_default()
}

/// Before the first step: the first step's narration introduces the lesson.
fn introduction(steps: &[scenario::Step]) -> Vec<String> {
    steps
        .first()
        .map(|s| {
            s.title
                .iter()
                .map(|t| format!("{t}:"))
                .chain(s.narration.iter().cloned())
                .collect()
        })
        .unwrap_or_default()
}

fn lesson_info(state: &AppState) -> Option<LessonInfo> {
    let lesson = state.lesson.borrow();
    let l = lesson.as_ref()?;
    let title = l.title.clone();
    let done = l.replay.at();
    let steps = &l.replay.scenario().steps;
    let why = if done == 0 {
        introduction(steps)
    } else {
        narration_for(steps, done)
    };
    Some(LessonInfo {
        why,
        index: l.index,
        title,
        steps: steps.iter().map(|s| (s.line, s.text.clone())).collect(),
        done_steps: done,
        output: l
            .replay
            .outputs()
            .last()
            .map(|o| o.lines.clone())
            .unwrap_or_default(),
        error: l.replay.error().map(str::to_string),
    })
}

/// Where the last verdict happened: the window slot and the log batch to mark.
fn marks(verdict: &Option<(i64, BrokerEvent)>) -> (Option<SlotMark>, Option<(i64, bool)>) {
    match verdict {
        Some((
            _,
            BrokerEvent::BatchAppended {
                producer_id,
                first_seq,
                first_offset,
                ..
            },
        )) => (
            Some(SlotMark {
                producer_id: *producer_id,
                first_seq: *first_seq,
                duplicate: false,
            }),
            Some((*first_offset, false)),
        ),
        Some((
            _,
            BrokerEvent::BatchDuplicate {
                producer_id,
                first_seq,
                first_offset,
                ..
            },
        )) => (
            Some(SlotMark {
                producer_id: *producer_id,
                first_seq: *first_seq,
                duplicate: true,
            }),
            Some((*first_offset, true)),
        ),
        _ => (None, None),
    }
}

/// The idempotence page (the first page).
fn idempotence_page(
    state: &AppState,
    dispatch: &Callback<Msg>,
    lesson: Option<LessonInfo>,
    lessons: Vec<(&'static str, &'static str)>,
) -> Html {
    let v = state.with_world(Page::Idempotence, |w| views(state, w));
    let locked = lesson.is_some();
    let page = state.page_state(Page::Idempotence);
    let error = page.error.as_ref().map(|(_, e)| e.clone());

    // Verdict marks for the window and the log: where the decision happened.
    let (slot_mark, log_mark) = marks(&v.verdict);

    let expect = {
        let windows = v.windows.clone();
        Callback::from(move |pid: String| -> Option<String> {
            let pid: i64 = pid.trim().parse().ok()?;
            Some(
                match windows
                    .iter()
                    .find(|w| w.producer_id == pid)
                    .and_then(|w| w.batches.last())
                {
                    Some(b) => tf(
                        Key::RawExpectedNext,
                        &[
                            &crate::log::producer_state::increment_sequence(b.last_seq, 1)
                                .to_string(),
                            &pid.to_string(),
                        ],
                    ),
                    None => tf(Key::RawExpectedFirst, &[&pid.to_string()]),
                },
            )
        })
    };
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
    let reset = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Msg::Reset))
    };
    let showing = match &lesson {
        Some(l) => tf(Key::ShowingLesson, &[&l.title]),
        None => t(Key::ShowingPlayground).to_string(),
    };
    let tp_name = v.tp.as_ref().map(|tp| tp.to_string()).unwrap_or_default();

    html! {
        <div class="pg playground" data-testid="playground">
            <header class="layout-header pg-header">
                <div>
                    <h1>{ t(Key::Title) }</h1>
                    <p class="muted subtitle">{ t(Key::Subtitle) }</p>
                </div>
                <div class="header-status cluster">
                    <span class={if locked { "badge info" } else { "badge" }} data-testid="showing">{ showing }</span>
                    <span class="mono clock" data-testid="clock">{ tf(Key::Clock, &[&v.clock.to_string()]) }</span>
                    <button type="button" onclick={reset} disabled={locked} data-testid="reset">{ t(Key::ResetPlayground) }</button>
                </div>
            </header>
            <div class="pg-producer">
                <ProducerPanel info={v.producer.clone()} step_mode={state.panels.step_mode} disabled={locked} {error} dispatch={dispatch.clone()} />
            </div>
            <div class="pg-main stack">
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
                    <Verdict verdict={v.verdict.clone()} />
                    <h3>{ t(Key::WindowHeading) }</h3>
                    <WindowTable windows={v.windows.clone()} mark={slot_mark} />
                    <h3>{ t(Key::LogHeading) }</h3>
                    if let Some(log) = v.log.clone() {
                        <LogTable {log} selected={state.panels.selected_batch} mark={log_mark} {on_select} />
                    } else {
                        <p class="muted">{ t(Key::NoPartition) }</p>
                    }
                </section>
            </div>
            <div class="pg-events">
                <EventList events={v.events.clone()} />
            </div>
            <div class="pg-tools stack">
                if !locked {
                    { time_travel(state, dispatch) }
                }
                <LessonPanel {lessons} loaded={lesson.clone()} dispatch={dispatch.clone()} playing={state.panels.playing} file_error={state.notices.file_error.clone()} />
                if !locked {
                    <RawPanel disabled={locked} lines={page.output.clone()} {expect} dispatch={dispatch.clone()} />
                }
                <BrokerPanel online={v.online} snapshots={v.snapshots} recovery={v.recovery.clone()} disabled={locked} dispatch={dispatch.clone()} />
            </div>
        </div>
    }
}

/// The verdict word for host pages: `APPEND`, `DUPLICATE` or the refusal's error name.
fn verdict_word(state: &AppState, world: &World) -> Option<String> {
    let tp = state.shown_tp(world)?;
    Some(match last_verdict(world, &tp)?.1 {
        BrokerEvent::BatchAppended { .. } => "APPEND".to_string(),
        BrokerEvent::BatchDuplicate { .. } => "DUPLICATE".to_string(),
        BrokerEvent::BatchRejected { error, .. } => error.name().to_string(),
        _ => return None,
    })
}

/// The compact view for an iframe (`?embed=1`): only the chosen panels, in order.
fn embed_page(
    state: &AppState,
    dispatch: &Callback<Msg>,
    panels: &[String],
    lesson: Option<LessonInfo>,
    lessons: Vec<(&'static str, &'static str)>,
) -> Html {
    let v = state.with_world(Page::Idempotence, |w| views(state, w));
    let needs_txn = panels
        .iter()
        .any(|p| matches!(p.as_str(), "coordinator" | "consumers" | "timeline"));
    let tv = needs_txn.then(|| state.with_world(Page::Transactions, txn_views));
    let error = state
        .page_state(Page::Idempotence)
        .error
        .as_ref()
        .map(|(_, e)| e.clone());
    let locked = lesson.is_some();
    let (slot_mark, log_mark) = marks(&v.verdict);
    let tp_name = v.tp.as_ref().map(|tp| tp.to_string()).unwrap_or_default();
    let on_select = {
        let dispatch = dispatch.clone();
        Callback::from(move |b: Option<(i64, u64)>| dispatch.emit(Msg::Open(Panel::Batch(b))))
    };
    let panel = |name: &str| -> Html {
        match name {
            "lesson" => html! {
                <LessonPanel lessons={lessons.clone()} loaded={lesson.clone()} dispatch={dispatch.clone()} playing={state.panels.playing} file_error={state.notices.file_error.clone()} />
            },
            "producer" => html! {
                <ProducerPanel info={v.producer.clone()} step_mode={state.panels.step_mode} disabled={locked} error={error.clone()} dispatch={dispatch.clone()} />
            },
            "verdict" => html! {
                <section class="panel stack" aria-label={t(Key::VerdictHeading)}>
                    <h2 class="small-heading">{ tf(Key::PartitionHeading, &[&tp_name]) }{ " · " }{ t(Key::VerdictHeading) }</h2>
                    <Verdict verdict={v.verdict.clone()} />
                </section>
            },
            "window" => html! {
                <section class="panel stack" aria-label={t(Key::WindowHeading)}>
                    <h2>{ t(Key::WindowHeading) }</h2>
                    <WindowTable windows={v.windows.clone()} mark={slot_mark.clone()} />
                </section>
            },
            "log" => html! {
                <section class="panel stack" aria-label={t(Key::LogHeading)}>
                    <h2>{ t(Key::LogHeading) }{ " · " }{ tp_name.clone() }</h2>
                    if let Some(log) = v.log.clone() {
                        <LogTable {log} selected={state.panels.selected_batch} mark={log_mark} on_select={on_select.clone()} />
                    } else {
                        <p class="muted">{ t(Key::NoPartition) }</p>
                    }
                </section>
            },
            "events" => html! { <EventList events={v.events.clone()} /> },
            "coordinator" => match &tv {
                Some(tv) => html! { <TxnCoordinator views={tv.coordinators.clone()} /> },
                None => Html::default(),
            },
            "consumers" => match &tv {
                Some(tv) => {
                    let (lso, hw) = tv
                        .part
                        .as_ref()
                        .map_or((0, 0), |x| (x.last_stable_offset, x.high_watermark));
                    html! { <TxnConsumers consumers={tv.consumers.clone()} {lso} {hw} disabled={locked} error={None::<(String, String)>} dispatch={dispatch.clone()} /> }
                }
                None => Html::default(),
            },
            "timeline" => match &tv {
                Some(tv) => html! { <Timeline view={tv.timeline.clone()} /> },
                None => Html::default(),
            },
            _ => Html::default(),
        }
    };
    html! {
        <div class="embed stack" data-testid="embed">
            { for panels.iter().map(|p| panel(p)) }
        </div>
    }
}

/// The postMessage API (docs/embedding.md), on while the page is in a frame: host
/// commands in, `eos:ready` / `eos:state` / `eos:complete` / `eos:resize` out.
#[hook]
fn use_embed_api(state: &AppState, dispatch: Callback<Msg>, origins: Vec<String>) {
    let framed = use_memo((), |_| embed::framed());
    let framed = *framed;
    // Host commands.
    use_effect_with((), move |_| {
        let window = web_sys::window().filter(|_| framed);
        let own = embed::own_origin();
        listen_on(window, "message", move |e: &web_sys::Event| {
            let (origin, size, message) = embed::read_event(e.as_ref());
            match embed::host_command(&origin, &own, &origins, size, message.as_ref()) {
                Ok(cmd) => host_command(cmd, &dispatch),
                Err(why) => embed::warn(&why.to_string()),
            }
        })
    });
    // Height changes (ResizeObserver on <body>, created through JS reflection).
    use_effect_with((), move |_| {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        let body = web_sys::window()
            .filter(|_| framed)
            .and_then(|w| w.document())
            .and_then(|d| d.body());
        let last = std::cell::Cell::new(-1.0);
        let measure = {
            let body = body.clone();
            Closure::<dyn Fn()>::new(move || {
                if let Some(b) = &body {
                    let h = f64::from(b.offset_height());
                    if h != last.get() {
                        last.set(h);
                        embed::post_height(h);
                    }
                }
            })
        };
        let observer = body.as_ref().and_then(|b| {
            let ctor = js_sys::Reflect::get(&js_sys::global(), &"ResizeObserver".into())
                .ok()?
                .dyn_into::<js_sys::Function>()
                .ok()?;
            let args = js_sys::Array::of1(measure.as_ref());
            let observer = js_sys::Reflect::construct(&ctor, &args).ok()?;
            let observe = js_sys::Reflect::get(&observer, &"observe".into())
                .ok()?
                .dyn_into::<js_sys::Function>()
                .ok()?;
            observe.call1(&observer, b).ok()?;
            Some(observer)
        });
        move || {
            if let Some(o) = &observer {
                if let Ok(f) = js_sys::Reflect::get(o, &"disconnect".into())
                    .and_then(|f| f.dyn_into::<js_sys::Function>())
                {
                    let _ = f.call0(o);
                }
            }
            drop(measure);
        }
    });
    // ready once, then state after every step, and complete at the end.
    let lesson = state.lesson_name();
    let (step, steps) = state.position();
    let (verdict, last_event) = if framed {
        state.with_world(Page::Idempotence, |w| {
            (
                verdict_word(state, w),
                w.events.last().map(|e| narrate(e, Lang::En)),
            )
        })
    } else {
        (None, None)
    };
    let ready = use_mut_ref(|| false);
    use_effect_with((lesson, step, steps), move |(lesson, step, steps)| {
        if framed {
            let name: wasm_bindgen::JsValue =
                lesson.map_or(wasm_bindgen::JsValue::NULL, Into::into);
            let text = |v: Option<String>| v.map_or(wasm_bindgen::JsValue::NULL, Into::into);
            let (step, steps) = (*step as f64, *steps as f64);
            if !*ready.borrow() {
                *ready.borrow_mut() = true;
                embed::post(&embed::object(&[
                    ("type", "eos:ready".into()),
                    ("version", embed::API_VERSION.into()),
                    ("lesson", name.clone()),
                    ("step", step.into()),
                    ("steps", steps.into()),
                ]));
            } else {
                embed::post(&embed::object(&[
                    ("type", "eos:state".into()),
                    ("lesson", name.clone()),
                    ("step", step.into()),
                    ("steps", steps.into()),
                    ("verdict", text(verdict)),
                    ("lastEvent", text(last_event)),
                ]));
                if steps > 0.0 && step >= steps {
                    embed::post(&embed::object(&[
                        ("type", "eos:complete".into()),
                        ("lesson", name),
                        ("steps", steps.into()),
                    ]));
                }
            }
        }
    });
}

/// Carries out a host page's command.
fn host_command(cmd: HostCommand, dispatch: &Callback<Msg>) {
    match cmd {
        HostCommand::Next => dispatch.emit(Msg::Travel(Travel::Forward)),
        HostCommand::Prev => dispatch.emit(Msg::Travel(Travel::Back)),
        HostCommand::To(n) => dispatch.emit(Msg::Travel(Travel::To(n))),
        HostCommand::Reset => dispatch.emit(Msg::Travel(Travel::To(0))),
        HostCommand::LoadLesson(name) => {
            match scenario::lessons().iter().position(|l| l.name == name) {
                Some(i) => dispatch.emit(Msg::LoadLesson(Some(i))),
                None => post_error(&tf(Key::EmbedNoLesson, &[&name])),
            }
        }
        HostCommand::LoadScenario(source) => match scenario::parse(&source) {
            Ok(_) => dispatch.emit(Msg::LoadScenario {
                title: t(Key::EmbedHostLesson).to_string(),
                source,
            }),
            Err(e) => post_error(&e.to_string()),
        },
    }
}

/// `{ type: "eos:error", message }` to the host page.
fn post_error(message: &str) {
    embed::post(&embed::object(&[
        ("type", "eos:error".into()),
        ("message", message.into()),
    ]));
}

/// The time-travel panel of the page shown (its recorded actions).
fn time_travel(state: &AppState, dispatch: &Callback<Msg>) -> Html {
    let page = state.page_state(state.page);
    let entries: Vec<String> = page
        .history
        .entries
        .iter()
        .map(|e| e.text.clone())
        .collect();
    html! {
        <TimeTravel {entries} cursor={page.history.cursor} forked={page.forked} playing={state.panels.playing} dispatch={dispatch.clone()} />
    }
}

/// Listens for the keyboard shortcuts on the whole page (see [`super::keys`]).
#[hook]
fn use_shortcuts(dispatch: Callback<Msg>) {
    use_effect_with((), move |_| {
        use wasm_bindgen::JsCast;
        listen_on(web_sys::window(), "keydown", move |e: &web_sys::Event| {
            let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            if let Some(msg) = super::keys::event_msg(e) {
                if msg == Msg::TogglePlay {
                    // Space would scroll the page too.
                    e.prevent_default();
                }
                dispatch.emit(msg);
            }
        })
    });
}

/// Listens to `event` on `window` (none: does nothing) with gloo-events; returns the
/// effect's cleanup, which drops the listener (gloo removes it and frees the closure).
/// Not passive (gloo's default is passive): the keydown listener stops space scrolling.
fn listen_on(
    window: Option<web_sys::Window>,
    event: &'static str,
    callback: impl FnMut(&web_sys::Event) + 'static,
) -> impl FnOnce() {
    use gloo_events::{EventListener, EventListenerOptions};
    let options = EventListenerOptions::enable_prevent_default();
    let listener = window.map(|w| EventListener::new_with_options(&w, event, options, callback));
    move || drop(listener)
}

/// Auto-play: while playing, one step a second (a timer per step, so a manual step in
/// between restarts the second).
#[hook]
fn use_autoplay(playing: bool, version: u64, dispatch: Callback<Msg>) {
    use_effect_with((playing, version), move |(playing, _)| {
        // Dropping a gloo `Timeout` clears it.
        let timeout = playing.then(|| {
            gloo_timers::callback::Timeout::new(1000, move || dispatch.emit(Msg::PlayTick))
        });
        move || drop(timeout)
    });
}

/// Reads `window.location[field]` (`hash`, `search`) without extra web-sys features.
pub(super) fn location_field(field: &str) -> Option<String> {
    let window = web_sys::window()?;
    let location = js_sys::Reflect::get(&window, &"location".into()).ok()?;
    js_sys::Reflect::get(&location, &field.into())
        .ok()?
        .as_string()
}

/// `?bench=N` in the page URL: preload N batches into the transactions page.
fn bench_param() -> Option<usize> {
    let search = location_field("search")?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("bench="))
        .and_then(|n| n.parse::<usize>().ok())
        .map(|n| n.min(100_000))
}

/// Stores `performance.now()` in `window.__eosRenderedAt` and counts renders in
/// `window.__eosRenders`: the e2e test times a click until the page has rendered.
fn mark_rendered() {
    use wasm_bindgen::JsCast;
    let global = js_sys::global();
    let Ok(perf) = js_sys::Reflect::get(&global, &"performance".into()) else {
        return;
    };
    let Ok(now) = js_sys::Reflect::get(&perf, &"now".into()) else {
        return;
    };
    let Ok(now) = now.dyn_into::<js_sys::Function>() else {
        return;
    };
    if let Ok(at) = now.call0(&perf) {
        let _ = js_sys::Reflect::set(&global, &"__eosRenderedAt".into(), &at);
    }
    let renders = js_sys::Reflect::get(&global, &"__eosRenders".into())
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let _ = js_sys::Reflect::set(&global, &"__eosRenders".into(), &(renders + 1.0).into());
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The page to start on; None: the URL fragment decides (`#transactions`).
    #[prop_or_default]
    pub page: Option<Page>,
}

/// The playground: the page tabs and the page shown. The one reducer lives here.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let start = props.page;
    let state = use_reducer(move || {
        let options = embed::parse_options(&location_field("search").unwrap_or_default());
        let lesson = options
            .lesson
            .as_deref()
            .and_then(|name| scenario::lessons().iter().position(|l| l.name == name));
        // A lesson's own page, unless `page=` says otherwise.
        let lesson_page = lesson.map(|i| {
            if i < 2 {
                Page::Idempotence
            } else {
                Page::Transactions
            }
        });
        let page = start.unwrap_or_else(|| {
            options
                .page
                .or(lesson_page)
                .unwrap_or_else(|| Page::from_fragment(&location_field("hash").unwrap_or_default()))
        });
        let hash = location_field("hash").unwrap_or_default();
        let mut state = AppState::new(page, bench_param());
        if let (None, Some(i)) = (start, lesson) {
            state.start_lesson(i, options.step.unwrap_or(0));
        } else if start.is_none() && link::is_link(&hash) {
            // A share link restores its page, scenario and step — or explains why not.
            state.open_link(hash.trim_start_matches('#'));
        }
        state
    });
    let options = use_memo((), |_| {
        embed::parse_options(&location_field("search").unwrap_or_default())
    });
    let embedded = props.page.is_none() && options.embed;
    let dispatch = {
        let state = state.clone();
        Callback::from(move |m: Msg| state.dispatch(m))
    };
    // Back/forward and typed fragments switch pages too.
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            listen_on(web_sys::window(), "hashchange", move |_| {
                let hash = location_field("hash").unwrap_or_default();
                if link::is_link(&hash) {
                    dispatch.emit(Msg::OpenLink(hash.trim_start_matches('#').to_string()));
                } else {
                    dispatch.emit(Msg::SetPage(Page::from_fragment(&hash)));
                }
            })
        });
    }
    {
        let bench = state.bench.is_some();
        use_effect(move || {
            if bench {
                mark_rendered();
            }
        });
    }
    use_shortcuts(dispatch.clone());
    let copy_link = {
        let state = state.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| link::copy_link(&state, dispatch.clone()))
    };
    use_embed_api(&state, dispatch.clone(), options.origins.clone());
    use_autoplay(state.panels.playing, state.version, dispatch.clone());
    let lesson = lesson_info(&state);
    let lessons: Vec<(&'static str, &'static str)> = scenario::lessons()
        .iter()
        .map(|l| (l.name, l.title))
        .collect();
    if embedded {
        return html! {
            <>
                { embed_page(&state, &dispatch, &options.panels, lesson, lessons) }
                if state.panels.shortcuts_open {
                    <Shortcuts dispatch={dispatch.clone()} />
                }
            </>
        };
    }
    let page = match state.page {
        Page::Idempotence => idempotence_page(&state, &dispatch, lesson, lessons),
        Page::Transactions => {
            let views = std::rc::Rc::new(state.with_world(Page::Transactions, txn_views));
            let error = state.page_state(Page::Transactions).error.clone();
            let time_travel = if lesson.is_none() {
                time_travel(&state, &dispatch)
            } else {
                Html::default()
            };
            html! {
                <TransactionsPage {views} {lesson} {lessons} {error} dispatch={dispatch.clone()} {time_travel} playing={state.panels.playing} file_error={state.notices.file_error.clone()} />
            }
        }
    };
    html! {
        <>
            <PageNav current={state.page} dispatch={dispatch.clone()} on_copy_link={copy_link} />
            <ShareBox link={state.notices.link.clone()} error={state.notices.link_error.clone()} refused={state.notices.link_refused.clone()} dispatch={dispatch.clone()} />
            { page }
            if state.panels.shortcuts_open {
                <Shortcuts dispatch={dispatch.clone()} />
            }
        </>
    }
}
