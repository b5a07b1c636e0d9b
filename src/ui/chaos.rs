//! The chaos page (its own entry, `www/chaos.html`, feature `checker`): choose NOT
//! KAFKA switches, seeds and steps; Start runs the seeds in a Web Worker
//! (`eos-chaos-worker`, [`super::chaos_worker`]) so the page stays responsive; Stop
//! terminates it. A progress bar, the schedules per second (measured here with
//! `performance.now()`, browser glue) and the counterexamples as they are found,
//! grouped by anomaly ([`crate::checker::findings`]): one entry per anomaly with how
//! many seeds showed it, its meaning from the catalog, the shortest counterexample's
//! shrunk scenario and a link that replays it in the main playground's lesson player
//! (`../index.html#1.…`, ending on a narrated `check`: `crate::checker::replay`), and
//! the other seeds in a folded list.

use crate::ui::class::class_list;
use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::breaks::BreakSwitch;
use crate::checker::findings::{seed_runs, Findings, Group};
use crate::checker::progress::{Report, Request, MAX_SEEDS, MAX_STEPS};
use crate::checker::Anomaly;
use crate::i18n::checker::{
    chaos_finding, chaos_group, chaos_label, chaos_more_seeds, chaos_other_seeds, chaos_progress,
    explain, switch_text, ChaosLabel as L,
};
use crate::i18n::{ui_lang, Lang};

/// The worker's script, next to this page (Trunk's loader shim for `eos-chaos-worker`).
const WORKER_URL: &str = "eos-chaos-worker_loader.js";
/// The most runs of seeds an anomaly's folded list shows (`1–40, 42, …`).
const MAX_SEED_RUNS: usize = 500;

fn l(label: L) -> String {
    chaos_label(label, ui_lang())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Idle,
    Loading,
    Running,
    Stopped,
    Done,
    BadInput,
    Failed,
}

/// What the page shows of a run.
#[derive(Clone, Debug, PartialEq)]
struct Run {
    status: Status,
    done: u64,
    total: u64,
    /// `performance.now()` when the worker got the request, and at the last report.
    started_ms: f64,
    last_ms: f64,
    found: Findings,
}

impl Run {
    fn idle() -> Run {
        Run {
            status: Status::Idle,
            done: 0,
            total: 0,
            started_ms: 0.0,
            last_ms: 0.0,
            found: Findings::new(),
        }
    }

    /// Schedules per second so far (whole numbers: no float formatting in the wasm).
    fn rate(&self) -> u64 {
        let ms = self.last_ms - self.started_ms;
        if ms <= 0.0 {
            return 0;
        }
        (self.done as f64 * 1000.0 / ms) as u64
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The worker and its message handler (dropped together when the run ends).
struct Runner {
    worker: web_sys::Worker,
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The number in a field, if it is one within `1..=max` (or `0..=max` for a seed).
fn field(text: &str, min: u64, max: u64) -> Option<u64> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
}

/// Starts a worker on `request` (of `runs` seeds): the page shows it loading, then its
/// reports (`show`, from the `latest` run). None, with the failure shown, when the
/// browser refuses the worker.
fn spawn(
    request: Request,
    runs: u64,
    latest: Rc<RefCell<Run>>,
    show: Callback<Run>,
) -> Option<Runner> {
    let Ok(worker) = web_sys::Worker::new(WORKER_URL) else {
        show.emit(Run {
            status: Status::Failed,
            ..Run::idle()
        });
        return None;
    };
    show.emit(Run {
        status: Status::Loading,
        total: runs,
        ..Run::idle()
    });
    let to_worker = worker.clone();
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            let Ok(report) = Report::decode(&text) else {
                web_sys::console::warn_1(&format!("chaos page: {text:.60}").into());
                return;
            };
            let mut r = latest.borrow().clone();
            let now = now_ms();
            match report {
                Report::Ready => {
                    let _ = to_worker.post_message(&JsValue::from_str(&request.encode()));
                    r.status = Status::Running;
                    r.started_ms = now;
                }
                Report::Progress { done, .. } => r.done = done,
                Report::Found(f) => r.found.add(f),
                Report::Finished { done, .. } => {
                    r.done = done;
                    r.status = Status::Done;
                }
            }
            r.last_ms = now;
            show.emit(r);
        });
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    Some(Runner {
        worker,
        _onmessage: onmessage,
    })
}

/// Start: the fields read (first seed, runs, steps: a number out of range is said, and
/// nothing runs), the last run's worker ended and a new one started on the switches.
fn start_run(
    [first, runs, steps]: [&UseStateHandle<String>; 3],
    switches: UseStateHandle<Vec<BreakSwitch>>,
    runner: Rc<RefCell<Option<Runner>>>,
    latest: Rc<RefCell<Run>>,
    show: Callback<Run>,
) -> Callback<MouseEvent> {
    let (first, runs, steps) = (first.clone(), runs.clone(), steps.clone());
    Callback::from(move |_: MouseEvent| {
        runner.borrow_mut().take();
        let (Some(first), Some(runs), Some(steps)) = (
            field(&first, 0, u64::MAX - MAX_SEEDS),
            field(&runs, 1, MAX_SEEDS),
            field(&steps, 1, MAX_STEPS as u64),
        ) else {
            show.emit(Run {
                status: Status::BadInput,
                ..Run::idle()
            });
            return;
        };
        let request = Request {
            first,
            last: first + runs,
            steps: steps as usize,
            switches: (*switches).clone(),
        };
        *runner.borrow_mut() = spawn(request, runs, latest.clone(), show.clone());
    })
}

#[function_component(ChaosApp)]
pub fn chaos_app() -> Html {
    // The page's language; the first one (`?lang=`, else the browser's) is in force
    // before the mount (`language::then_mount`).
    let lang = use_state(ui_lang);
    let switches = use_state(Vec::<BreakSwitch>::new);
    let first = use_state(|| "1".to_string());
    let runs = use_state(|| "200".to_string());
    let steps = use_state(|| "50".to_string());
    let run = use_state(Run::idle);
    // The latest run, for the worker's handler (a state handle's value is a snapshot).
    let latest = use_mut_ref(Run::idle);
    let runner: Rc<RefCell<Option<Runner>>> = use_mut_ref(|| None);

    let on_switch = {
        let lang = lang.clone();
        Callback::from(move |l: Lang| lang.set(l))
    };
    let toggle = {
        let switches = switches.clone();
        Callback::from(move |s: BreakSwitch| {
            let mut v = (*switches).clone();
            match v.iter().position(|x| *x == s) {
                Some(i) => {
                    v.remove(i);
                }
                None => v.push(s),
            }
            crate::util::ordered::sort_by(&mut v, |a, b| a.cmp(b));
            switches.set(v);
        })
    };
    let show = {
        let (run, latest) = (run.clone(), latest.clone());
        Callback::from(move |r: Run| {
            *latest.borrow_mut() = r.clone();
            run.set(r);
        })
    };

    let start = start_run(
        [&first, &runs, &steps],
        switches.clone(),
        runner.clone(),
        latest.clone(),
        show.clone(),
    );
    let stop = {
        let (runner, latest, show) = (runner.clone(), latest.clone(), show.clone());
        Callback::from(move |_: MouseEvent| {
            runner.borrow_mut().take();
            let mut r = latest.borrow().clone();
            r.last_ms = now_ms();
            r.status = Status::Stopped;
            show.emit(r);
        })
    };

    let lang = *lang;
    let running = matches!(run.status, Status::Loading | Status::Running);
    let fields = [
        (L::FirstSeed, &first, "chaos-first"),
        (L::Runs, &runs, "chaos-runs"),
        (L::Steps, &steps, "chaos-steps"),
    ];
    let main_page = super::language::href_in_lang("../index.html");
    html! {
        <div class="site-app chaos-app">
            <header class="site-header">
                <a href={main_page.clone()} data-testid="back-to-playground">{ l(L::BackToPlayground) }</a>
                <super::language::LangMenu {on_switch} />
                <h1>{ l(L::Title) }</h1>
                <p>{ l(L::Intro) }</p>
            </header>
            { switches_section(&switches, running, &toggle, lang) }
            <section class="panel" aria-labelledby="chaos-run">
                <h2 id="chaos-run">{ l(L::RunHeading) }</h2>
                <div class="chaos-fields">
                    { for fields.into_iter().map(|(label, state, testid)| number_field(label, state, running, testid)) }
                    <button type="button" class="primary" onclick={start} disabled={running} data-testid="chaos-start">{ l(L::Start) }</button>
                    <button type="button" onclick={stop} disabled={!running} data-testid="chaos-stop">{ l(L::Stop) }</button>
                </div>
                { run_status(&run, lang) }
            </section>
            <section class="panel" aria-labelledby="chaos-found">
                <h2 id="chaos-found">{ l(L::FoundHeading) }</h2>
                if run.found.is_empty() { <p class="muted">{ l(L::NoneYet) }</p> }
                <ol class="chaos-findings" data-testid="chaos-findings">
                    { for run.found.groups().iter().map(|g| anomaly_entry(g, lang)) }
                </ol>
            </section>
            <super::components::challenges::Challenges items={tried(&run.found)} />
        </div>
    }
}

/// A number field of the run (first seed, runs, steps), kept in `state` as typed.
fn number_field(label: L, state: &UseStateHandle<String>, running: bool, testid: &str) -> Html {
    let oninput = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let el: web_sys::HtmlInputElement = e.target_unchecked_into();
            state.set(el.value());
        })
    };
    html! {
        <label>{ l(label) }
            <input type="text" inputmode="numeric" value={(**state).clone()} {oninput} disabled={running} data-testid={testid.to_string()} />
        </label>
    }
}

/// The NOT KAFKA switches, each a checkbox (`toggle`), locked while a run goes on.
fn switches_section(
    switches: &[BreakSwitch],
    running: bool,
    toggle: &Callback<BreakSwitch>,
    lang: Lang,
) -> Html {
    html! {
        <section class="panel" aria-labelledby="chaos-switches">
            <h2 id="chaos-switches">{ l(L::SwitchesHeading) }</h2>
            <p class="muted">{ l(L::SwitchesHint) }</p>
            <ul class="chaos-switches">
                { for BreakSwitch::ALL.iter().map(|&s| {
                    let on = switches.contains(&s);
                    let id = format!("switch-{}", s.name().replace('=', "-"));
                    html! {
                        <li class={class_list(&[if on { "on" } else { "" }])}>
                            <input type="checkbox" id={id.clone()} checked={on} disabled={running}
                                data-testid={id.clone()} onchange={toggle.reform(move |_: Event| s)} />
                            <label for={id}>
                                <span class="mono">{ s.name() }</span>
                                if on { { " " }<span class="badge danger" data-testid="not-kafka">{ l(L::NotKafka) }</span> }
                                <span class="chaos-switch-text">{ switch_text(s, lang) }</span>
                            </label>
                        </li>
                    }
                }) }
            </ul>
            if switches.is_empty() { <p class="badge ok">{ l(L::AllOff) }</p> }
        </section>
    }
}

/// The run's progress bar and status line, and what a screen reader hears: not every
/// progress step, only a new finding or the end.
fn run_status(run: &Run, lang: Lang) -> Html {
    let state = match run.status {
        Status::Stopped => "stopped",
        Status::Done => "done",
        _ => "running",
    };
    let status_line = match run.status {
        Status::Idle => l(L::Idle),
        Status::Loading => l(L::Loading),
        Status::BadInput => l(L::BadInput),
        Status::Failed => l(L::WorkerFailed),
        _ => chaos_progress(
            run.done,
            run.total,
            run.rate(),
            run.found.total() as u64,
            state,
            lang,
        ),
    };
    let announce = match run.status {
        Status::Running => format!("{} {}", l(L::FoundHeading), run.found.total()),
        _ => status_line.clone(),
    };
    html! {
        <>
            <progress max={run.total.max(1).to_string()} value={run.done.to_string()} aria-label={l(L::RunHeading)} data-testid="chaos-progress"></progress>
            <p class="mono" data-testid="chaos-status">{ status_line }</p>
            <p class="visually-hidden" aria-live="polite">{ announce }</p>
        </>
    }
}

/// The chaos page's "Try it" (the break-it module's goal), as the checker's findings
/// answer it: the names of the anomalies found so far.
fn tried(found: &Findings) -> Vec<(&'static str, bool)> {
    let names: Vec<&str> = found.groups().iter().map(|g| g.anomaly.as_str()).collect();
    crate::view::challenges::on_page(None)
        .map(|c| (c.id, c.found(&names)))
        .collect()
}

/// One anomaly: its name and count, what it means, the shortest counterexample (its
/// witness, how it was shrunk, its replay and scenario) and the other seeds, folded.
fn anomaly_entry(g: &Group, lang: Lang) -> Html {
    let f = &g.shortest;
    let (shortest, shrunk) = chaos_finding(f.seed, g.steps, f.before, f.after, f.step, lang);
    // The main playground opens the link's fragment in its lesson player, on the replay's
    // last step: a `check` that prints the verdict, narrated.
    let replay = format!(
        "{}#{}",
        super::language::href_in_lang("../index.html"),
        f.link
    );
    let (seeds, left) = seed_runs(&g.other_seeds, MAX_SEED_RUNS);
    html! {
        <li class="chaos-finding" data-testid="chaos-finding" data-anomaly={g.anomaly.clone()} data-count={g.count.to_string()}>
            <h3 class="mono" data-testid="chaos-anomaly">{ chaos_group(&g.anomaly, g.count, lang) }</h3>
            if let Some(text) = Anomaly::from_name(&g.anomaly).map(|a| explain(a.explain_id(), lang)) { <p>{ text }</p> }
            <p class="chaos-shortest" data-testid="chaos-shortest" data-seed={f.seed.to_string()}>{ shortest }</p>
            <p class="mono small">{ format!("{} {}", f.anomaly, f.witness) }</p>
            <p class="muted">{ shrunk }</p>
            if f.link.is_empty() {
                <p class="muted">{ l(L::NoLink) }</p>
            } else {
                <p><a href={replay} data-testid="chaos-replay">{ l(L::Replay) }</a></p>
            }
            <details>
                <summary>{ l(L::Scenario) }</summary>
                <pre class="mono small">{ f.scenario.clone() }</pre>
            </details>
            if !g.other_seeds.is_empty() {
                <details class="chaos-other-seeds" data-testid="chaos-other-seeds">
                    <summary>{ chaos_other_seeds(g.other_seeds.len(), lang) }</summary>
                    <p class="mono small">
                        { seeds }
                        if left > 0 { { " " }{ chaos_more_seeds(left, lang) } }
                    </p>
                </details>
            }
        </li>
    }
}

/// Mounts the chaos page into `#app`, once the English catalog is here.
pub fn start() {
    super::language::then_mount(|| super::mount_in_app::<ChaosApp>(()));
}
