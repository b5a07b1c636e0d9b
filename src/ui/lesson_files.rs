//! The built-in lessons' files where the wasm leaves their texts out (Cargo feature
//! `lessons`): the main page and the Pulsar site fetch `static/lessons/NAME.eos` (copied
//! beside each page by Trunk) the first time a lesson is shown, and keep it only if it
//! is the file the build recorded (`Lesson::install`). The main page's player waits in
//! `AppState::fetching_lesson` ([`fetch_then_start`]); the Pulsar site's lesson player
//! and comparison ask [`use_lesson_text`]. Both show the lesson's title as loading
//! meanwhile, and say so when the file did not come. With the feature (the wasm tests)
//! every text is already here and nothing is fetched.

use yew::prelude::*;

use super::state::Msg;
use crate::i18n::{t, tf, Key};
use crate::scenario::{self, Lesson};

/// When `lesson`'s text is not here: fetches its file, then calls `then` whether it was
/// kept or not (a failed fetch or a stale file leaves `lesson.text()` None; the console
/// has the details).
pub fn fetch_then(lesson: &'static Lesson, then: impl FnOnce() + 'static) {
    if lesson.text().is_some() {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let url = format!("static/lessons/{}.eos", lesson.name);
        let fetched = super::language::fetch_text(&url)
            .await
            .and_then(|text| lesson.install(text).map_err(|e| e.why()));
        if let Err(e) = fetched {
            web_sys::console::warn_1(&format!("lesson {}: {e}", lesson.name).into());
        }
        then();
    });
}

/// The main page: when lesson `index`'s text is not here, fetches its file, then starts
/// the lesson at player step `step` ([`Msg::StartLesson`], which the state ignores if
/// the learner chose something else meanwhile). A failed fetch starts it too, and the
/// player shows why it cannot play ([`not_loaded`]).
pub fn fetch_then_start(index: usize, step: usize, dispatch: &Callback<Msg>) {
    let Some(lesson) = scenario::lessons().get(index) else {
        return;
    };
    let dispatch = dispatch.clone();
    fetch_then(lesson, move || {
        dispatch.emit(Msg::StartLesson { index, step })
    });
}

/// What a learner reads when lesson `name`'s file did not load.
pub fn not_loaded(name: &str) -> String {
    tf(
        Key::LessonFileFailed,
        &[&format!("static/lessons/{name}.eos")],
    )
}

/// A built-in lesson's text as a page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonText {
    /// Its text, compiled in or fetched.
    Here(&'static str),
    /// Its file is on its way (the page shows the lesson's title and `LessonLoading`).
    Loading,
    /// Its file did not load ([`not_loaded`] says so).
    Failed,
}

/// `lesson`'s text for a component that plays it (None: no lesson wanted; `Loading`
/// comes back and means nothing): fetched the first time it is wanted, and the
/// component re-renders when the file has come or failed. Coming back to a lesson whose
/// file failed (after choosing another) fetches it again.
#[hook]
pub fn use_lesson_text(lesson: Option<&'static Lesson>) -> LessonText {
    // The lesson whose last fetch failed: a mutable cell, not a state, because the
    // fetch ends after the render that started it.
    let failed = use_mut_ref(|| None::<&'static str>);
    let redraw = use_force_update();
    {
        let failed = failed.clone();
        use_effect_with(lesson, move |lesson| {
            let Some(lesson) = *lesson else { return };
            if failed.borrow_mut().take_if(|n| *n == lesson.name).is_some() {
                redraw.force_update();
            }
            fetch_then(lesson, move || {
                if lesson.text().is_none() {
                    *failed.borrow_mut() = Some(lesson.name);
                }
                redraw.force_update();
            });
        });
    }
    let Some(lesson) = lesson else {
        return LessonText::Loading;
    };
    match lesson.text() {
        Some(text) => LessonText::Here(text),
        None if *failed.borrow() == Some(lesson.name) => LessonText::Failed,
        None => LessonText::Loading,
    }
}

/// While a lesson's file loads, or after it failed, the words the main page's player
/// shows (nothing once the text is here).
pub fn status_line(text: LessonText, name: &str) -> Html {
    match text {
        LessonText::Here(_) => html! {},
        LessonText::Loading => html! {
            <p class="muted small" role="status" data-testid="lesson-loading">{ t(Key::LessonLoading) }</p>
        },
        LessonText::Failed => html! {
            <p class="error" role="alert" data-testid="lesson-file-failed">{ not_loaded(name) }</p>
        },
    }
}
