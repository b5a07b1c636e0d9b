//! The lesson player: choose a lesson, step through it (Prev / Next / Reset), see the
//! source line of the step just run and its transcript output.

use yew::prelude::*;

use crate::ui::i18n::{t, tf, Key};
use crate::ui::state::Msg;

/// The loaded lesson, as the player shows it.
#[derive(Clone, PartialEq)]
pub struct LessonInfo {
    pub index: usize,
    pub title: String,
    /// (source line number, source text) of every step.
    pub steps: Vec<(usize, String)>,
    /// How many steps have run.
    pub done_steps: usize,
    /// Output of the last step run.
    pub output: Vec<String>,
    pub error: Option<String>,
    /// The narration of the step just run (its `## Title:` first, then `>` paragraphs),
    /// or the lesson's introduction.
    pub why: Vec<String>,
}

#[derive(Properties, PartialEq)]
pub struct LessonPanelProps {
    /// (name, title) of every lesson.
    pub lessons: Vec<(&'static str, &'static str)>,
    pub loaded: Option<LessonInfo>,
    pub dispatch: Callback<Msg>,
}

#[function_component(LessonPanel)]
pub fn lesson_panel(p: &LessonPanelProps) -> Html {
    let onchange = {
        let dispatch = p.dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                dispatch.emit(Msg::LoadLesson(select.value().parse::<usize>().ok()));
            }
        })
    };
    let send = |m: Msg| {
        let dispatch = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(m.clone()))
    };
    let selected = p.loaded.as_ref().map(|l| l.index);
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
                        <li class={classes!(state)} aria-current={(i + 1 == l.done_steps).then_some("step")}>
                            <span class="muted line-no">{ line }</span>{ " " }{ text }
                        </li>
                    }
                })
                .collect();
            html! {
                <>
                    <p class="small" data-testid="lesson-progress">{ tf(Key::LessonStepOf, &[&l.done_steps.to_string(), &total.to_string()]) }</p>
                    <div class="lesson-step" aria-live="polite" data-testid="lesson-step">
                        if let Some((line, text)) = current {
                            <h3 class="mono step-title">{ format!("{line}: {text}") }</h3>
                            if !l.why.is_empty() {
                                <p class="lesson-why small"><span class="visually-hidden">{ t(Key::LessonWhy) }{ ": " }</span>{ l.why.join(" ") }</p>
                            }
                            <h4 class="small-heading">{ t(Key::LessonOutput) }</h4>
                            if l.output.is_empty() {
                                <p class="muted small">{ t(Key::LessonNoOutput) }</p>
                            } else {
                                <pre data-testid="lesson-output">{ l.output.join("\n") }</pre>
                            }
                        } else {
                            if !l.why.is_empty() {
                                <p class="lesson-why small">{ l.why.join(" ") }</p>
                            }
                            <p class="small">{ tf(Key::LessonNotStarted, &[l.steps.first().map(|s| s.1.as_str()).unwrap_or("")]) }</p>
                        }
                        if let Some(e) = &l.error {
                            <p class="action-error" role="alert">{ tf(Key::LessonError, &[e]) }</p>
                        }
                        if finished {
                            <p class="small"><span class="badge ok">{ t(Key::LessonDone) }</span></p>
                        }
                    </div>
                    <div class="cluster">
                        <button type="button" data-testid="lesson-prev" disabled={l.done_steps == 0} onclick={send(Msg::LessonPrev)}>{ t(Key::LessonPrev) }</button>
                        <button type="button" class="primary" data-testid="lesson-next" disabled={finished} onclick={send(Msg::LessonNext)}>{ t(Key::LessonNext) }</button>
                        <button type="button" data-testid="lesson-reset" disabled={l.done_steps == 0} onclick={send(Msg::LessonReset)}>{ t(Key::LessonReset) }</button>
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
                    <option value="" selected={selected.is_none()}>{ t(Key::LessonNoneOption) }</option>
                    { options }
                </select>
            </div>
            { body }
        </section>
    }
}
