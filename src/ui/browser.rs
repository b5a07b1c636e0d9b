//! Browser glue the page's hooks share: window listeners, the location, and the render
//! marks the benchmark reads.

/// Listens to `event` on `window` (none: does nothing) with gloo-events; returns the
/// effect's cleanup, which drops the listener (gloo removes it and frees the closure).
/// Not passive (gloo's default is passive): the keydown listener stops space scrolling.
pub(super) fn listen_on(
    window: Option<web_sys::Window>,
    event: &'static str,
    callback: impl FnMut(&web_sys::Event) + 'static,
) -> impl FnOnce() {
    use gloo_events::{EventListener, EventListenerOptions};
    let options = EventListenerOptions::enable_prevent_default();
    let listener = window.map(|w| EventListener::new_with_options(&w, event, options, callback));
    move || drop(listener)
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
pub(super) fn bench_param() -> Option<usize> {
    let search = location_field("search")?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("bench="))
        .and_then(|n| n.parse::<usize>().ok())
        .map(|n| n.min(100_000))
}

/// `performance.mark(name)`: the first-render e2e test reads these marks
/// (`eos:start`, `eos:catalog`) to say where a cold load's time goes.
pub(super) fn mark(name: &str) {
    if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
        let _ = perf.mark(name);
    }
}

/// Stores `performance.now()` in `window.__eosRenderedAt` and counts renders in
/// `window.__eosRenders`: the e2e test times a click until the page has rendered.
pub(super) fn mark_rendered() {
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

/// The lesson (a key of it) and the player step last shown (`follow_step`).
static SHOWN_LESSON: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(usize::MAX);
static SHOWN_AT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// After a step of the same lesson ran (Next, Back, the keys, Play), brings the step into
/// view (`.lesson-step`, `.pulsar-step`): after an answer the reader is down at the
/// questions, and the new step starts above. When its top is above the window, or so
/// low that the dock fixed to the window's bottom (`.lesson-dock`) hides its heading
/// and first lines, it is scrolled to the window's top (below its `scroll-margin-top`);
/// otherwise nothing moves (the timeline's slider, just above the step, stays where it
/// is). Not for a lesson just opened: a link's lesson stays at the page's top. Called from the effects that record the learner's progress, so
/// it adds no hook of its own. `None`: no lesson is shown (free play), so nothing is
/// looked up — a search of the whole page at every click — and the next lesson opened
/// counts as just opened.
pub(super) fn follow_step(lesson: Option<usize>, at: usize) {
    use std::sync::atomic::Ordering::Relaxed;
    use wasm_bindgen::JsCast;
    /// How much of the step must show above the dock: its heading and a few lines.
    const ROOM_PX: f64 = 160.0;
    let lesson = lesson.unwrap_or(usize::MAX);
    let same = SHOWN_LESSON.swap(lesson, Relaxed) == lesson && lesson != usize::MAX;
    let moved = SHOWN_AT.swap(at, Relaxed) != at;
    let document = web_sys::window().and_then(|w| w.document());
    let Some(document) = document.filter(|_| same && moved) else {
        return;
    };
    let top = |selector: &str| -> Option<f64> {
        let e = document.query_selector(selector).ok()??;
        let rect = js_sys::Reflect::get(&e, &"getBoundingClientRect".into()).ok()?;
        let rect = rect.dyn_into::<js_sys::Function>().ok()?.call0(&e).ok()?;
        js_sys::Reflect::get(&rect, &"top".into()).ok()?.as_f64()
    };
    let step = ".lesson-step,.pulsar-step";
    let Some(at) = top(step) else {
        return;
    };
    let bottom = top(".lesson-dock").unwrap_or(f64::MAX);
    if at < 0.0 || at + ROOM_PX > bottom {
        if let Ok(Some(e)) = document.query_selector(step) {
            e.scroll_into_view();
        }
    }
}
