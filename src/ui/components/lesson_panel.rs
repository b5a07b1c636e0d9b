//! The lesson player: choose a lesson, step through it (Prev / Next / Reset), see the
//! source line of the step just run and its transcript output.

use crate::ui::class::class_list;
use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::ui::intents::LessonIntents;
use crate::ui::state::Travel;

pub use super::question::QuestionInfo;

/// The loaded lesson, as the player shows it.
#[derive(Clone, Default, PartialEq)]
pub struct LessonInfo {
    /// The built-in lesson's index; None for a scenario from a link, a host page or a file.
    pub index: Option<usize>,
    /// The built-in lesson's name (progress, the next lesson).
    pub name: Option<&'static str>,
    pub title: String,
    /// (first source line number, source text of its lines) of every player step.
    pub steps: Vec<(usize, String)>,
    /// Each player step's heading (steps under one heading share it), for the timeline.
    pub titles: Vec<String>,
    /// How many player steps have run whole.
    pub done_steps: usize,
    /// Output of the last player step run.
    pub output: Vec<String>,
    pub error: Option<String>,
    /// The narration of the step just run (its `## Title:` first, then `>` paragraphs),
    /// or the lesson's introduction.
    pub why: Vec<String>,
    /// The lesson's file is still on its way: no steps yet, and nothing to press.
    pub loading: bool,
    /// The questions asked before the next step.
    pub questions: Vec<QuestionInfo>,
    /// (answered right, answered, questions in the lesson).
    pub score: (usize, usize, usize),
    /// The parts of the page the step just run changed (`view::changed`), by code.
    pub changed: Vec<&'static str>,
    /// The glossary terms the lesson's earlier steps already used (marked there).
    pub terms_seen: Vec<&'static str>,
    /// Auto-play's speed in percent, whether it runs on past explanations, and whether
    /// it waits for the reader now.
    pub speed: u32,
    pub run_on: bool,
    pub waiting: bool,
}

#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    /// (name, title) of every lesson.
    pub lessons: Vec<(&'static str, &'static str)>,
    pub loaded: Option<LessonInfo>,
    pub intents: LessonIntents,
    /// Auto-play is on (space or the Play button).
    #[prop_or_default]
    pub playing: bool,
    /// Why the author's lesson file could not be played.
    #[prop_or_default]
    pub file_error: Option<String>,
}

/// The read in progress (gloo-file aborts a read when its reader is dropped).
type Reading = std::rc::Rc<std::cell::RefCell<Option<gloo_file::callbacks::FileReader>>>;

/// Reads a `File` (from the picker or a drop) as text with gloo-file and plays it as a
/// lesson; a file that cannot be read changes nothing.
fn read_file(file: wasm_bindgen::JsValue, reading: &Reading, intents: LessonIntents) {
    use wasm_bindgen::JsCast;
    let Ok(file) = file.dyn_into::<web_sys::File>() else {
        return;
    };
    let file = gloo_file::File::from(file);
    let title = file.name();
    let reader = gloo_file::callbacks::read_as_text(&file, move |text| {
        if let Ok(source) = text {
            intents.load_file(title, source);
        }
    });
    *reading.borrow_mut() = Some(reader);
}

/// The first file of a `FileList`-holding object's `files` (an input, a DataTransfer).
fn first_file(holder: &wasm_bindgen::JsValue) -> Option<wasm_bindgen::JsValue> {
    let files = js_sys::Reflect::get(holder, &"files".into()).ok()?;
    let file = js_sys::Reflect::get(&files, &0.into()).ok()?;
    (!file.is_undefined() && !file.is_null()).then_some(file)
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &LessonPanelProps) -> Html {
    let reading: Reading = use_mut_ref(|| None);
    let onchange = {
        let intents = p.intents.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                let value = select.value();
                if value != "custom" {
                    intents.load(value.parse::<usize>().ok());
                }
            }
        })
    };
    let on_file = {
        let (intents, reading) = (p.intents.clone(), reading.clone());
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                if let Some(file) = first_file(&input.clone().into()) {
                    read_file(file, &reading, intents.clone());
                }
                // The same file can be chosen again after an edit.
                input.set_value("");
            }
        })
    };
    let on_drop = {
        let (intents, reading) = (p.intents.clone(), reading.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            let transfer = js_sys::Reflect::get(&e, &"dataTransfer".into()).ok();
            if let Some(file) = transfer.as_ref().and_then(first_file) {
                read_file(file, &reading, intents.clone());
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let selected = p.loaded.as_ref().and_then(|l| l.index);
    let custom = p
        .loaded
        .as_ref()
        .filter(|l| l.index.is_none())
        .map(|l| l.title.clone());
    let options: Html = p
        .lessons
        .iter()
        .enumerate()
        .map(|(i, (name, title))| {
            // The file's name, then the title, unless the title already starts with it.
            let named = title
                .get(..name.len() + 1)
                .is_some_and(|start| start.eq_ignore_ascii_case(&format!("{name}:")));
            let text = if named {
                title.to_string()
            } else {
                format!("{name}: {title}")
            };
            html! { <option value={i.to_string()} selected={selected == Some(i)}>{ text }</option> }
        })
        .collect();
    let chooser = html! {
        <>
            <div class="field">
                <label for="lesson-select">{ t(Key::LessonSelect) }</label>
                <select id="lesson-select" data-testid="lesson-select" {onchange}>
                    <option value="" selected={selected.is_none() && custom.is_none()}>{ t(Key::LessonNoneOption) }</option>
                    { options }
                    if let Some(title) = custom {
                        <option value="custom" selected=true>{ title }</option>
                    }
                </select>
            </div>
            <div class="lesson-file stack" data-testid="lesson-drop" ondragover={on_drag_over} ondrop={on_drop}>
                <input id="lesson-file" class="visually-hidden" type="file" accept=".eos,.txt,text/plain" data-testid="lesson-file" onchange={on_file} />
                <label for="lesson-file" class="button" data-testid="lesson-file-button">{ t(Key::FileLabel) }</label>
                <p class="muted small">{ t(Key::FileHint) }</p>
                if let Some(e) = &p.file_error {
                    <p class="action-error mono small" role="alert" data-testid="lesson-file-error">{ tf(Key::FileError, &[e]) }</p>
                }
            </div>
        </>
    };
    let body = match &p.loaded {
        None => html! {
            <>
                <h2 id="lesson-heading">{ t(Key::LessonHeading) }</h2>
                <p class="muted small">{ t(Key::LessonIntro) }</p>
                { chooser }
            </>
        },
        Some(l) if l.loading => html! {
            <>
                <h2 id="lesson-heading">{ l.title.clone() }</h2>
                <p class="muted small" role="status" data-testid="lesson-loading">{ t(Key::LessonLoading) }</p>
                { chooser }
            </>
        },
        Some(l) => {
            html! {
                <>
                    { player(l, &p.intents, p.playing) }
                    <div class="lesson-more stack">
                        <h3 class="small-heading">{ t(Key::LessonOtherLessons) }</h3>
                        { chooser }
                    </div>
                </>
            }
        }
    };
    html! {
        <section class={class_list(&["panel", "stack", "lesson-panel", if p.loaded.is_some() { "lesson-loaded" } else { "" }])} aria-labelledby="lesson-heading">
            { body }
        </section>
    }
}

/// The lesson player: the step's heading and explanation first, its script and long
/// output folded, the questions before the next step, and the controls in a dock that
/// stays in view.
fn player(l: &LessonInfo, on: &LessonIntents, playing: bool) -> Html {
    html! {
        <>
            { player_head(l, on) }
            { player_step(l, on) }
            { player_questions(l, on) }
            { player_dock(l, on, playing) }
        </>
    }
}

/// A click that carries one lesson intent.
fn click(on: &LessonIntents, intent: fn(&LessonIntents)) -> Callback<MouseEvent> {
    let on = on.clone();
    Callback::from(move |_: MouseEvent| intent(&on))
}

/// The lesson's title, where the learner is (a scrubber over the steps), and the
/// run-on, reset and exit tools.
fn player_head(l: &LessonInfo, on: &LessonIntents) -> Html {
    let total = l.steps.len();
    let on_scrub = {
        let on = on.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                if let Ok(to) = input.value().parse::<usize>() {
                    on.travel(Travel::To(to));
                }
            }
        })
    };
    let on_run_on = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                on.run_on(input.checked());
            }
        })
    };
    let step_label = |i: usize| -> String {
        let title = l.titles.get(i).map(String::as_str).unwrap_or_default();
        tf(
            Key::LessonStepOf,
            &[&(i + 1).to_string(), &total.to_string()],
        ) + if title.is_empty() { "" } else { " · " }
            + title
    };
    let steps_list: Html = (0..total)
        .map(|i| {
            let state = if i + 1 == l.done_steps {
                "step-current"
            } else if i < l.done_steps {
                "step-done"
            } else {
                ""
            };
            html! { <option value={(i + 1).to_string()} class={state}>{ step_label(i) }</option> }
        })
        .collect();
    html! {
        <div class="lesson-head stack">
            <p class="eyebrow small muted">{ t(Key::LessonHeading) }</p>
            <h2 id="lesson-heading">{ l.title.clone() }</h2>
            <div class="lesson-timeline">
                <p class="small" data-testid="lesson-progress">{ tf(Key::LessonStepOf, &[&l.done_steps.to_string(), &total.to_string()]) }</p>
                <label class="small" for="lesson-scrub">{ t(Key::LessonTimeline) }</label>
                <input id="lesson-scrub" type="range" min="0" max={total.to_string()} value={l.done_steps.to_string()} data-testid="lesson-timeline" list="lesson-step-marks" aria-valuetext={if l.done_steps == 0 { t(Key::LessonNotStartedShort).to_string() } else { step_label(l.done_steps - 1) }} oninput={on_scrub} />
                <datalist id="lesson-step-marks">{ steps_list }</datalist>
            </div>
            <div class="cluster lesson-tools">
                <label class="small check">
                    <input type="checkbox" data-testid="lesson-run-on" checked={l.run_on} onchange={on_run_on} />{ t(Key::LessonRunOn) }
                </label>
                <button type="button" class="small" data-testid="lesson-reset" disabled={l.done_steps == 0} onclick={click(on, |on| on.travel(Travel::To(0)))}>{ t(Key::LessonReset) }</button>
                <button type="button" class="small" data-testid="lesson-exit" onclick={click(on, |on| on.load(None))}>{ t(Key::LessonExit) }</button>
            </div>
        </div>
    }
}

/// The step itself: its heading, why it matters (new terms defined), what changed,
/// its script and output folded, an error, and the end of the lesson.
fn player_step(l: &LessonInfo, on: &LessonIntents) -> Html {
    let total = l.steps.len();
    let current = l.done_steps.checked_sub(1).and_then(|i| l.steps.get(i));
    // A `cluster` line after the first step starts a fresh world: say so, or the
    // panels' sudden change (clock, clients, coordinator) goes unexplained.
    let new_world = l.done_steps > 1
        && current.is_some_and(|(_, text)| text.trim_start().starts_with("cluster "));
    let heading = l
        .done_steps
        .checked_sub(1)
        .and_then(|i| l.titles.get(i))
        .filter(|t| !t.is_empty());
    let finished = total > 0 && l.done_steps >= total;
    // The step's heading is shown as a heading: not again as the explanation's first words.
    let why: Vec<&String> = l
        .why
        .iter()
        .filter(|w| heading.is_none_or(|h| **w != format!("{h}:")))
        .collect();
    let why_text = why.iter().map(|w| w.as_str()).collect::<Vec<_>>().join(" ");
    // Terms this step uses for the first time in the lesson get their definition.
    let terms = crate::i18n::glossary::terms(crate::i18n::ui_lang());
    let fresh: Vec<&crate::i18n::glossary::Term> =
        crate::i18n::glossary::used_in(&why_text, &terms)
            .into_iter()
            .filter(|t| !l.terms_seen.contains(&t.id))
            .collect();
    let (right, answered, asked) = l.score;
    let output_long = l.output.len() > 12;
    html! {
        <div class="lesson-step stack" aria-live="polite" data-testid="lesson-step">
            if new_world {
                <p class="lesson-new-world" role="note" data-testid="lesson-new-world">{ t(Key::LessonNewWorld) }</p>
            }
            if let Some(h) = heading {
                <h3 class="step-title">{ h.clone() }</h3>
            }
            if !why_text.is_empty() {
                <p class="lesson-why"><span class="visually-hidden">{ t(Key::LessonWhy) }{ ": " }</span>{ super::prose::prose_with_terms(&why_text, &fresh) }</p>
            }
            if !l.changed.is_empty() {
                <p class="small lesson-changed" data-testid="lesson-changed">{ tf(Key::LessonChanged, &[&changed_words(&l.changed)]) }</p>
            }
            if let Some((line, text)) = current {
                <details class="step-script" data-testid="lesson-script">
                    <summary>{ t(Key::LessonShowScript) }</summary>
                    <pre class="mono small">{ numbered(*line, text) }</pre>
                </details>
                if l.output.is_empty() {
                    <p class="muted small">{ t(Key::LessonNoOutput) }</p>
                } else {
                    <details class="step-output" open={!output_long}>
                        <summary>{ if l.output.len() == 1 { t(Key::LessonOutputLine).to_string() } else { tf(Key::LessonOutputLines, &[&l.output.len().to_string()]) } }</summary>
                        <pre data-testid="lesson-output">{ l.output.join("\n") }</pre>
                    </details>
                    { clock_note(&l.output) }
                }
            } else if !l.steps.is_empty() {
                <p class="small">{ t(Key::LessonPressNext) }</p>
            }
            if let Some(e) = &l.error {
                <div class="action-error" role="alert" data-testid="lesson-error">
                    <p>{ tf(Key::LessonError, &[e]) }</p>
                    <p class="small">{ t(Key::LessonErrorHelp) }</p>
                </div>
            }
            if finished {
                <div class="lesson-finished stack" data-testid="lesson-finished">
                    <p><span class="badge ok">{ t(Key::LessonDone) }</span></p>
                    if asked > 0 {
                        <p data-testid="lesson-score">{ tf(Key::LessonScore, &[&right.to_string(), &answered.to_string(), &asked.to_string()]) }</p>
                    }
                    if let Some(next) = l.name.and_then(crate::scenario::course::next_lesson) {
                        { next_lesson_link(next, on) }
                    }
                    <p class="small"><a href={crate::ui::site_href("limits.html")} data-testid="lesson-limits">{ t(Key::LimitsLink) }</a></p>
                </div>
            }
        </div>
    }
}

/// The step's questions, each answer told to the engine and to a host page.
fn player_questions(l: &LessonInfo, on: &LessonIntents) -> Html {
    if l.questions.is_empty() {
        return Html::default();
    }
    let on_answer = {
        let on = on.clone();
        let answers: Vec<(usize, usize)> = l.questions.iter().map(|q| (q.line, q.answer)).collect();
        let lesson = l.name;
        Callback::from(move |(line, choice): (usize, usize)| {
            on.answer(line, choice);
            // A host page hears each answer (`eos:answered`).
            let correct = answers.contains(&(line, choice));
            let name = lesson.map_or(wasm_bindgen::JsValue::NULL, Into::into);
            crate::ui::embed::post(&crate::ui::embed::object(&[
                ("type", "eos:answered".into()),
                ("lesson", name),
                ("question", (line as f64).into()),
                ("correct", correct.into()),
            ]));
        })
    };
    html! {
        <div class="lesson-questions stack" data-testid="lesson-questions">
            <h3 class="small-heading">{ t(Key::QuestionHeading) }</h3>
            { for l.questions.iter().map(|q| html! {
                <super::question::Question key={q.line} question={q.clone()} on_answer={on_answer.clone()} />
            }) }
        </div>
    }
}

/// Back, next, play and speed, in a dock that stays in view.
fn player_dock(l: &LessonInfo, on: &LessonIntents, playing: bool) -> Html {
    let finished = !l.steps.is_empty() && l.done_steps >= l.steps.len();
    let on_speed = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                if let Ok(speed) = select.value().parse::<u32>() {
                    on.speed(speed);
                }
            }
        })
    };
    let play_label = if playing {
        t(Key::TtPause)
    } else if l.waiting {
        t(Key::LessonContinue)
    } else {
        t(Key::LessonPlay)
    };
    html! {
        <div class="lesson-dock" role="group" aria-label={t(Key::LessonControls)}>
            <div class="dock-inner">
                <button type="button" data-testid="lesson-prev" disabled={l.done_steps == 0} onclick={click(on, |on| on.travel(Travel::Back))}>{ t(Key::LessonPrev) }</button>
                <button type="button" class="primary" data-testid="lesson-next" disabled={finished || l.error.is_some()} onclick={click(on, |on| on.travel(Travel::Forward))}>{ t(Key::LessonNext) }</button>
                <button type="button" data-testid="lesson-play" aria-pressed={if playing { "true" } else { "false" }} onclick={click(on, LessonIntents::toggle_play)}>{ play_label }</button>
                <label class="small dock-field">{ t(Key::LessonSpeed) }
                    <select data-testid="lesson-speed" onchange={on_speed}>
                        { for crate::ui::state::Panels::SPEEDS.iter().map(|s| html! {
                            <option value={s.to_string()} selected={*s == l.speed}>{ speed_label(*s) }</option>
                        }) }
                    </select>
                </label>
            </div>
        </div>
    }
}

/// "the producer, the partition's log": the parts a step changed, in words.
fn changed_words(codes: &[&str]) -> String {
    codes
        .iter()
        .map(|c| match *c {
            "producer" => t(Key::PartProducer),
            "log" => t(Key::PartLog),
            "coordinator" => t(Key::PartCoordinator),
            "replicas" => t(Key::PartReplicas),
            "consumers" => t(Key::PartConsumers),
            _ => t(Key::PartNetwork),
        })
        .collect::<Vec<_>>()
        .join(crate::i18n::catalog::text(
            "list.separator",
            crate::i18n::ui_lang(),
        ))
}

/// What the times a step printed mean (`1700000000224` in txn-states or
/// describe-producers: ms since 1970, as Kafka's tools print them, on a world whose
/// clock starts at 1700000000000). One fixed sentence: no code to read the numbers.
fn clock_note(lines: &[String]) -> Html {
    if !lines.iter().any(|l| l.contains("17000000")) {
        return Html::default();
    }
    html! { <p class="small muted" data-testid="lesson-clock">{ t(Key::LessonClockNote) }</p> }
}

/// `0.5×`, `1×`, `1.5×`: a speed in percent as a learner reads it.
fn speed_label(percent: u32) -> String {
    match percent % 100 {
        0 => format!("{}×", percent / 100),
        r => format!("{}.{}×", percent / 100, r / 10),
    }
}

/// A step's lines, each with its source line number (the lines of one step are
/// consecutive in the file but for blank and comment lines between them).
fn numbered(first: usize, text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("{first}: {l}")
            } else {
                format!("    {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The course's next lesson: opened here, or on the Pulsar page.
fn next_lesson_link(
    next: &'static crate::scenario::course::CourseLesson,
    on: &LessonIntents,
) -> Html {
    let title = crate::scenario::lesson_title(next.name, crate::i18n::ui_lang());
    let label = tf(Key::LessonNextLesson, &[&title]);
    match next.site {
        crate::scenario::course::Site::Pulsar => html! {
            <a class="button primary" data-testid="lesson-next-lesson" href={format!("pulsar/?lesson={}", next.name)}>{ label }</a>
        },
        crate::scenario::course::Site::Kafka => {
            let index = crate::scenario::lessons()
                .iter()
                .position(|l| l.name == next.name);
            let on = on.clone();
            let onclick = Callback::from(move |_: MouseEvent| {
                if index.is_some() {
                    on.load(index);
                }
            });
            html! { <button type="button" class="primary" data-testid="lesson-next-lesson" {onclick}>{ label }</button> }
        }
    }
}
