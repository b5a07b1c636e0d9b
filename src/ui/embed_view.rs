//! The compact view for an iframe (`?embed=1`) and its postMessage API
//! (docs/embedding.md): the chosen panels only, host commands in, events out.

use yew::prelude::*;

use crate::scenario;
use crate::sim::World;

use super::browser::listen_on;
use super::components::event_list::EventList;
use super::components::lesson_panel::{LessonInfo, LessonPanel};
use super::components::log_table::LogTable;
use super::components::producer_panel::ProducerPanel;
use super::components::share_box::ShareBox;
use super::components::timeline::Timeline;
use super::components::txn_consumers::TxnConsumers;
use super::components::txn_coordinator::TxnCoordinator;
use super::components::verdict::Verdict;
use super::components::window_table::WindowTable;
use super::embed::{self, HostCommand};
use super::idempotence::{last_verdict, marks, shown_tp, views};
use super::state::LinkBox;
use super::state::{AppState, Msg, Page, Panel, Travel};
use crate::i18n::{narrate, t, tf, Key};
use crate::view::txn_page::txn_views;

/// The verdict word for host pages: `APPEND`, `DUPLICATE` or the refusal's error name.
fn verdict_word(state: &AppState, world: &World) -> Option<String> {
    let tp = shown_tp(world, state.panels.selected_tp.as_ref())?;
    Some(last_verdict(world, &tp)?.word().to_string())
}

/// The compact view for an iframe (`?embed=1`): only the chosen panels, in order.
pub(super) fn embed_page(
    state: &AppState,
    intents: &super::intents::Intents,
    panels: &[String],
    lesson: Option<LessonInfo>,
    lessons: Vec<(&'static str, &'static str)>,
) -> Html {
    let v = state.with_world(Page::Idempotence, |w| views(state, w));
    let needs_txn = panels
        .iter()
        .any(|p| matches!(p.as_str(), "coordinator" | "consumers" | "timeline"));
    let tv = needs_txn
        .then(|| state.with_world(Page::Transactions, |w| txn_views(w, crate::i18n::ui_lang())));
    let error = state
        .page_state(Page::Idempotence)
        .error
        .as_ref()
        .map(|(_, e)| e.clone());
    let locked = lesson.is_some();
    let (slot_mark, log_mark) = marks(&v.verdict);
    let tp_name = v.tp.as_ref().map(|tp| tp.to_string()).unwrap_or_default();
    let dispatch = &intents.dispatch;
    let on_select = {
        let dispatch = dispatch.clone();
        Callback::from(move |b: Option<(i64, u64)>| dispatch.emit(Msg::Open(Panel::Batch(b))))
    };
    let panel = |name: &str| -> Html {
        match name {
            "lesson" => html! {
                <LessonPanel lessons={lessons.clone()} loaded={lesson.clone()} intents={intents.lesson.clone()} playing={state.panels.playing} file_error={state.notices.file_error.clone()} />
            },
            "producer" => html! {
                <ProducerPanel info={v.producer.clone()} step_mode={state.panels.step_mode} disabled={locked} error={error.clone()} on_act={intents.act(Page::Idempotence)} on_step_mode={intents.step_mode.clone()} />
            },
            "verdict" => html! {
                <section class="panel stack" aria-label={t(Key::VerdictHeading)}>
                    <h2 class="small-heading">{ tf(Key::PartitionHeading, &[&tp_name]) }{ " · " }{ t(Key::VerdictHeading) }</h2>
                    <Verdict verdict={v.verdict.clone()} in_lesson={locked} />
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
                    html! { <TxnConsumers consumers={tv.consumers.clone()} {lso} {hw} disabled={locked} error={None::<(String, String)>} on_act={intents.act(Page::Transactions)} /> }
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
            <ShareBox link={None::<LinkBox>} error={None::<String>} refused={None::<String>} url_error={state.notices.url_error.clone()} on_close={intents.close_link.clone()} />
            { for panels.iter().map(|p| panel(p)) }
        </div>
    }
}

/// The postMessage API (docs/embedding.md), on while the page is in a frame: host
/// commands in, `eos:ready` / `eos:state` / `eos:complete` / `eos:resize` out.
#[hook]
pub(super) fn use_embed_api(
    state: &AppState,
    dispatch: Callback<Msg>,
    origins: Vec<String>,
    off: bool,
) {
    let framed = use_memo((), |_| embed::framed());
    // The warm-up's scratch copy (`off`) neither hears nor tells the host anything.
    let framed = *framed && !off;
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
    let score = state
        .lesson
        .borrow()
        .as_ref()
        .map(|l| {
            let (right, _, asked) = l.score();
            (right, asked)
        })
        .unwrap_or_default();
    let (verdict, last_event) = if framed {
        state.with_world(Page::Idempotence, |w| {
            (
                verdict_word(state, w),
                w.events()
                    .last()
                    .map(|e| narrate(e, crate::i18n::ui_lang())),
            )
        })
    } else {
        (None, None)
    };
    let ready = use_mut_ref(|| false);
    let url_error = state.notices.url_error.clone();
    // An address's lesson still being fetched: `eos:ready` waits for it.
    let fetching = state.fetching_lesson.is_some();
    use_effect_with(
        (lesson, step, steps, fetching),
        move |(lesson, step, steps, fetching)| {
            if framed && !*fetching {
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
                    // A bad `?lesson=`/`step=`/`page=`: the host hears what is shown instead.
                    if let Some(why) = &url_error {
                        post_error(why);
                    }
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
                        let (correct, total) = score;
                        embed::post(&embed::object(&[
                            ("type", "eos:complete".into()),
                            ("lesson", name),
                            ("steps", steps.into()),
                            (
                                "score",
                                embed::object(&[
                                    ("correct", (correct as f64).into()),
                                    ("total", (total as f64).into()),
                                ]),
                            ),
                        ]));
                    }
                }
            }
        },
    );
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
                None => {
                    let names: Vec<&str> = scenario::lessons().iter().map(|l| l.name).collect();
                    post_error(&tf(Key::EmbedNoLesson, &[&name, &names.join(", ")]))
                }
            }
        }
        HostCommand::LoadScenario(source) => match super::state::parse_lesson(&source) {
            Ok(_) => dispatch.emit(Msg::LoadScenario {
                title: t(Key::EmbedHostLesson).to_string(),
                source,
            }),
            Err(e) => post_error(&super::state::lesson_file_error(&e)),
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
