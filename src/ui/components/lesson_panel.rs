//! The lesson player: choose a lesson, step through it (Prev / Next / Reset), see the
//! source line of the step just run and its transcript output.

use crate::ui::class::class_list;
use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::ui::state::{Msg, Travel};

/// The loaded lesson, as the player shows it.
#[derive(Clone, PartialEq)]
pub struct LessonInfo {
    /// The built-in lesson's index; None for a scenario from a link, a host page or a file.
    pub index: Option<usize>,
    pub title: String,
    /// (first source line number, source text of its lines) of every player step.
    pub steps: Vec<(usize, String)>,
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
}

#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    /// (name, title) of every lesson.
    pub lessons: Vec<(&'static str, &'static str)>,
    pub loaded: Option<LessonInfo>,
    pub dispatch: Callback<Msg>,
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
fn read_file(file: wasm_bindgen::JsValue, reading: &Reading, dispatch: Callback<Msg>) {
    use wasm_bindgen::JsCast;
    let Ok(file) = file.dyn_into::<web_sys::File>() else {
        return;
    };
    let file = gloo_file::File::from(file);
    let title = file.name();
    let reader = gloo_file::callbacks::read_as_text(&file, move |text| {
        if let Ok(source) = text {
            dispatch.emit(Msg::LoadScenario { title, source });
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
        let dispatch = p.dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                let value = select.value();
                if value != "custom" {
                    match value.parse::<usize>().ok() {
                        Some(i) => crate::ui::lesson_files::open(i, &dispatch),
                        None => dispatch.emit(Msg::LoadLesson(None)),
                    }
                }
            }
        })
    };
    let send = |m: Msg| {
        let dispatch = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(m.clone()))
    };
    let on_file = {
        let (dispatch, reading) = (p.dispatch.clone(), reading.clone());
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                if let Some(file) = first_file(&input.clone().into()) {
                    read_file(file, &reading, dispatch.clone());
                }
                // The same file can be chosen again after an edit.
                input.set_value("");
            }
        })
    };
    let on_drop = {
        let (dispatch, reading) = (p.dispatch.clone(), reading.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            let transfer = js_sys::Reflect::get(&e, &"dataTransfer".into()).ok();
            if let Some(file) = transfer.as_ref().and_then(first_file) {
                read_file(file, &reading, dispatch.clone());
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
            html! { <option value={i.to_string()} selected={selected == Some(i)}>{ format!("{name}: {title}") }</option> }
        })
        .collect();
    let body = match &p.loaded {
        None => html! { <p class="muted small">{ t(Key::LessonIntro) }</p> },
        Some(l) if l.loading => html! {
            <p class="muted small" role="status" data-testid="lesson-loading">{ t(Key::LessonLoading) }</p>
        },
        Some(l) => {
            let total = l.steps.len();
            let current = l.done_steps.checked_sub(1).and_then(|i| l.steps.get(i));
            let finished = l.done_steps >= total;
            let script: Html = l
                .steps
                .iter()
                .enumerate()
                .map(|(i, (line, text))| {
                    let state = if i + 1 == l.done_steps { Some("step-current") } else if i < l.done_steps { Some("step-done") } else { None };
                    html! {
                        <li class={class_list(&[state.unwrap_or("")])} aria-current={(i + 1 == l.done_steps).then_some("step")}>
                            <span class="muted line-no">{ line }</span>{ " " }<code>{ text }</code>
                        </li>
                    }
                })
                .collect();
            html! {
                <>
                    <p class="small" data-testid="lesson-progress">{ tf(Key::LessonStepOf, &[&l.done_steps.to_string(), &total.to_string()]) }</p>
                    <div class="lesson-step" aria-live="polite" data-testid="lesson-step">
                        if let Some((line, text)) = current {
                            <h3 class="mono step-title">{ format!("{line}: ") }<code>{ text }</code></h3>
                            if !l.why.is_empty() {
                                <p class="lesson-why small"><span class="visually-hidden">{ t(Key::LessonWhy) }{ ": " }</span>{ super::prose::prose(&l.why.join(" ")) }</p>
                            }
                            <h4 class="small-heading">{ t(Key::LessonOutput) }</h4>
                            if l.output.is_empty() {
                                <p class="muted small">{ t(Key::LessonNoOutput) }</p>
                            } else {
                                <pre data-testid="lesson-output">{ l.output.join("\n") }</pre>
                            }
                        } else {
                            if !l.why.is_empty() {
                                <p class="lesson-why small">{ super::prose::prose(&l.why.join(" ")) }</p>
                            }
                            // The scenario line is code (the language's words are around it).
                            <p class="small">{ not_started(l.steps.first().map_or("", |s| s.1.as_str())) }</p>
                        }
                        if let Some(e) = &l.error {
                            <div class="action-error" role="alert" data-testid="lesson-error">
                                <p>{ tf(Key::LessonError, &[e]) }</p>
                                <p class="small">{ t(Key::LessonErrorHelp) }</p>
                            </div>
                        }
                        if finished {
                            <p class="small"><span class="badge ok">{ t(Key::LessonDone) }</span></p>
                        }
                    </div>
                    <div class="cluster">
                        <button type="button" data-testid="lesson-prev" disabled={l.done_steps == 0} onclick={send(Msg::Travel(Travel::Back))}>{ t(Key::LessonPrev) }</button>
                        <button type="button" class="primary" data-testid="lesson-next" disabled={finished || l.error.is_some()} onclick={send(Msg::Travel(Travel::Forward))}>{ t(Key::LessonNext) }</button>
                        <button type="button" data-testid="lesson-play" aria-pressed={if p.playing { "true" } else { "false" }} onclick={send(Msg::TogglePlay)}>
                            { if p.playing { t(Key::TtPause) } else { t(Key::LessonPlay) } }
                        </button>
                        <button type="button" data-testid="lesson-reset" disabled={l.done_steps == 0} onclick={send(Msg::Travel(Travel::To(0)))}>{ t(Key::LessonReset) }</button>
                    </div>
                    <details class="lesson-script">
                        <summary>{ t(Key::LessonSource) }</summary>
                        <ol class="mono small script">{ script }</ol>
                    </details>
                </>
            }
        }
    };
    html! {
        <section class="panel stack lesson-panel" aria-labelledby="lesson-heading">
            <h2 id="lesson-heading">{ t(Key::LessonHeading) }</h2>
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
            { body }
            <div class="lesson-file stack" data-testid="lesson-drop" ondragover={on_drag_over} ondrop={on_drop}>
                <label class="small" for="lesson-file">{ t(Key::FileLabel) }</label>
                <input id="lesson-file" type="file" accept=".eos,.txt,text/plain" data-testid="lesson-file" onchange={on_file} />
                <p class="muted small">{ t(Key::FileHint) }</p>
                if let Some(e) = &p.file_error {
                    <p class="action-error mono small" role="alert" data-testid="lesson-file-error">{ tf(Key::FileError, &[e]) }</p>
                }
            </div>
        </section>
    }
}

/// "Not started. Next runs: {0}" with the scenario line as code.
fn not_started(line: &str) -> Html {
    let template = t(Key::LessonNotStarted);
    let (before, after) = template.split_once("{0}").unwrap_or((template, ""));
    html! { <>{ before }<code>{ line.to_string() }</code>{ after }</> }
}
