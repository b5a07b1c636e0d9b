//! The course home: where to start, the lessons in order in their modules, each with its
//! length, what it builds on and the learner's progress, and "continue where you left
//! off". `[data-course]` holds the list; each entry is `[data-lesson][data-progress]`.

use yew::prelude::*;

use crate::i18n::{t, tf, ui_lang, Key};
use crate::scenario::course::{self, CourseLesson, Site};
use crate::ui::intents::LessonIntents;
use crate::ui::progress::{self, Progress};

#[derive(Properties, PartialEq)]
pub struct CourseProps {
    /// Opens a lesson where the learner left it.
    pub intents: LessonIntents,
}

/// Opens a Kafka lesson at player step `step`: here, fetching its file if need be.
fn open(name: &str, step: usize, intents: &LessonIntents) {
    if let Some(i) = crate::scenario::lessons()
        .iter()
        .position(|l| l.name == name)
    {
        intents.resume(i, step);
    }
}

/// A link or button that opens `lesson` (a Pulsar lesson opens on the Pulsar page).
fn opener(
    lesson: &CourseLesson,
    step: usize,
    label: String,
    class: &'static str,
    testid: &'static str,
    intents: &LessonIntents,
) -> Html {
    match lesson.site {
        Site::Pulsar => html! {
            <a class={class} data-testid={testid} href={format!("pulsar/?lesson={}", lesson.name)}>{ label }</a>
        },
        Site::Kafka => {
            let (name, intents) = (lesson.name, intents.clone());
            let onclick = Callback::from(move |_: MouseEvent| open(name, step, &intents));
            html! { <button type="button" class={class} data-testid={testid} {onclick}>{ label }</button> }
        }
    }
}

/// "8 min · on the Pulsar page · builds on: 2.1" as one string.
fn meta(l: &CourseLesson, builds: &[String]) -> String {
    let mut parts = vec![tf(Key::CourseMinutes, &[&l.minutes.to_string()])];
    if l.site == Site::Pulsar {
        parts.push(t(Key::CourseOnPulsar).to_string());
    }
    if !builds.is_empty() {
        parts.push(tf(Key::CourseBuildsOn, &[&builds.join(", ")]));
    }
    parts.join(" · ")
}

#[function_component(Course)]
pub fn course(p: &CourseProps) -> Html {
    let lang = ui_lang();
    let lessons: Vec<&CourseLesson> = course::course_lessons().collect();
    let done = lessons
        .iter()
        .filter(|l| progress::of(l.name) == Progress::Done)
        .count();
    let last =
        progress::last().and_then(|(name, step)| Some((course::course_lesson(&name)?, step)));
    let first = lessons.first().copied();
    let start = match (last, first) {
        (Some((lesson, step)), _)
            if progress::of(lesson.name) != Progress::Done
                || course::next_lesson(lesson.name).is_none() =>
        {
            let label = tf(
                Key::CourseContinue,
                &[
                    &crate::scenario::lesson_title(lesson.name, lang),
                    &step.to_string(),
                ],
            );
            opener(
                lesson,
                step,
                label,
                "button primary big",
                "course-start",
                &p.intents,
            )
        }
        (Some((lesson, _)), _) => {
            let next = course::next_lesson(lesson.name).unwrap_or(lesson);
            let label = tf(
                Key::LessonNextLesson,
                &[&crate::scenario::lesson_title(next.name, lang)],
            );
            opener(
                next,
                0,
                label,
                "button primary big",
                "course-start",
                &p.intents,
            )
        }
        (None, Some(first)) => opener(
            first,
            0,
            t(Key::CourseStart).to_string(),
            "button primary big",
            "course-start",
            &p.intents,
        ),
        (None, None) => Html::default(),
    };
    // Each lesson's number in the course (module.lesson), for "builds on".
    let number = |name: &str| -> String {
        course::modules()
            .iter()
            .enumerate()
            .find_map(|(m, module)| {
                let l = module.lessons.iter().position(|l| l.name == name)?;
                Some(format!("{}.{}", m + 1, l + 1))
            })
            .unwrap_or_default()
    };
    let modules: Html = course::modules()
        .iter()
        .enumerate()
        .map(|(m, module)| {
            let title = crate::i18n::catalog::text(&format!("course.module.{}", module.key), lang);
            let items: Html = module
                .lessons
                .iter()
                .map(|l| {
                    let state = progress::of(l.name);
                    let builds: Vec<String> = l.builds_on.iter().map(|b| number(b)).collect();
                    let badge = match state {
                        Progress::New => t(Key::CourseNew),
                        Progress::Started => t(Key::CourseStarted),
                        Progress::Done => t(Key::CourseDone),
                    };
                    html! {
                        <li class="course-lesson" data-lesson={l.name} data-progress={state.code()}>
                            <span class="course-num mono small" aria-hidden="true">{ number(l.name) }</span>
                            { opener(l, 0, crate::scenario::lesson_title(l.name, lang), "course-open", "course-open", &p.intents) }
                            <span class={format!("badge progress-{}", state.code())}>{ badge }</span>
                            // One text node: the shell's static copy is pixel for pixel the same.
                            <span class="course-meta small muted">{ meta(l, &builds) }</span>
                        </li>
                    }
                })
                .collect();
            html! {
                <li class="course-module">
                    <h3>{ tf(Key::CourseModule, &[&(m + 1).to_string(), title]) }</h3>
                    <ol class="course-lessons">{ items }</ol>
                </li>
            }
        })
        .collect();
    html! {
        <section class="panel course stack" aria-labelledby="course-heading">
            <div class="course-hero stack">
                <h2 id="course-heading">{ t(Key::CourseHeading) }</h2>
                <p>{ t(Key::CourseIntro) }</p>
                <div class="cluster">
                    { start }
                    <a class="button" href="#main" data-testid="course-free-play">{ t(Key::CourseFreePlay) }</a>
                </div>
                <p class="small muted" data-testid="course-summary">{ tf(Key::CourseProgress, &[&done.to_string(), &lessons.len().to_string()]) }</p>
            </div>
            <details class="course-path" open=true>
                <summary>{ t(Key::CoursePath) }</summary>
                <ol class="course-modules" data-course="">{ modules }</ol>
            </details>
            { tools() }
            { glossary(lang) }
        </section>
    }
}

/// The tools beside the course, for those who write lessons: one line each on what it
/// is for, so a course author finds them without reading the whole page.
fn tools() -> Html {
    const TOOLS: [(&str, &str, Key, Key); 3] = [
        (
            "editor/",
            "course-editor",
            Key::EditorLink,
            Key::CourseToolEditor,
        ),
        (
            "files/",
            "course-files",
            Key::FilesLink,
            Key::CourseToolFiles,
        ),
        (
            "limits.html",
            "course-limits",
            Key::LimitsLink,
            Key::CourseToolLimits,
        ),
    ];
    html! {
        <section class="course-tools stack" aria-labelledby="course-tools-heading" data-testid="course-tools">
            <h3 id="course-tools-heading">{ t(Key::CourseTools) }</h3>
            <ul class="course-modules">
                { for TOOLS.iter().map(|(href, id, link, what)| html! {
                    <li>
                        <a href={crate::ui::site_href(href)} data-testid={*id}>{ t(*link) }</a>
                        <p class="small muted">{ t(*what) }</p>
                    </li>
                }) }
            </ul>
        </section>
    }
}

/// The glossary: every term with its definition (`i18n::glossary`).
fn glossary(lang: crate::i18n::Lang) -> Html {
    let terms = crate::i18n::glossary::terms(lang);
    html! {
        <details class="glossary" id="glossary" data-testid="glossary">
            <summary>{ tf(Key::GlossaryHeading, &[&terms.len().to_string()]) }</summary>
            <dl>
                { for terms.iter().map(|t| html! {
                    <div class="glossary-entry" data-term={t.id}>
                        <dt><dfn>{ t.name }</dfn></dt>
                        <dd>{ t.definition }</dd>
                    </div>
                }) }
            </dl>
        </details>
    }
}
