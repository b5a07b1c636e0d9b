//! The built-in lessons' files on the main page: its wasm leaves their texts out
//! (Cargo feature `lessons`) and fetches `static/lessons/NAME.eos` (copied there by
//! Trunk) the first time a lesson is opened. Meanwhile the player shows the lesson's
//! title as loading (`AppState::fetching_lesson`). With the feature (the wasm tests, the
//! Pulsar site) every text is already here and nothing is fetched.

use yew::Callback;

use super::state::Msg;
use crate::scenario;

/// When lesson `index`'s text is not here: fetches its file, then starts the lesson at
/// player step `step` ([`Msg::StartLesson`], which the state ignores if the learner chose
/// something else meanwhile). A failed fetch starts it too, and the player shows why it
/// cannot play; the console has the details.
pub fn fetch_then_start(index: usize, step: usize, dispatch: &Callback<Msg>) {
    let Some(lesson) = scenario::lessons().get(index) else {
        return;
    };
    if lesson.text().is_some() {
        return;
    }
    let dispatch = dispatch.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let url = format!("static/lessons/{}.eos", lesson.name);
        let fetched = super::language::fetch_text(&url)
            .await
            .and_then(|text| lesson.install(text).map_err(|e| e.why()));
        if let Err(e) = fetched {
            web_sys::console::warn_1(&format!("lesson {}: {e}", lesson.name).into());
        }
        dispatch.emit(Msg::StartLesson { index, step });
    });
}
