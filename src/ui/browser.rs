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

/// Puts `to` (an address relative to the page's: `#fragment`, `?query#fragment`) in the
/// address bar without a new history entry or a hashchange (`history.replaceState`), so a
/// reload or a copied address opens what is shown; returns the whole URL. The main page's
/// share link and the Pulsar site's `?lesson=` both go through here.
pub(super) fn replace_address(to: &str) -> Option<String> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window()?;
    let history = js_sys::Reflect::get(&window, &"history".into()).ok()?;
    let replace = js_sys::Reflect::get(&history, &"replaceState".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    replace
        .call3(
            &history,
            &wasm_bindgen::JsValue::NULL,
            &"".into(),
            &to.into(),
        )
        .ok()?;
    location_field("href")
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
    /// How much of the step must show above the dock: its heading and a few lines.
    const ROOM_PX: f64 = 160.0;
    let lesson = lesson.unwrap_or(usize::MAX);
    let same = SHOWN_LESSON.swap(lesson, Relaxed) == lesson && lesson != usize::MAX;
    let moved = SHOWN_AT.swap(at, Relaxed) != at;
    let document = web_sys::window().and_then(|w| w.document());
    let Some(document) = document.filter(|_| same && moved) else {
        return;
    };
    let top = |selector: &str| edge(&document.query_selector(selector).ok()??, "top");
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

/// Scrolls the sideways row `e` sits in (its closest `ul`) by the least amount that
/// shows `e` whole: a tab the keyboard focuses partly out of its row comes wholly in.
/// Only for the keyboard's focus (`:focus-visible`), and only the row moves: a click, or
/// the focus coming back with the window, leaves the page where the reader scrolled it.
pub(crate) fn reveal_in_row(e: &web_sys::Element) {
    if !e.matches(":focus-visible").unwrap_or(false) {
        return;
    }
    let Some(row) = e.closest("ul").ok().flatten() else {
        return;
    };
    let (Some(left), Some(right), Some(row_left), Some(row_right)) = (
        edge(e, "left"),
        edge(e, "right"),
        edge(&row, "left"),
        edge(&row, "right"),
    ) else {
        return;
    };
    let by = if left < row_left {
        left - row_left
    } else if right > row_right {
        right - row_right
    } else {
        return;
    };
    row.set_scroll_left(row.scroll_left() + by.round() as i32);
}

/// One edge (`"top"`, `"bottom"`, `"left"`, `"right"`) of `e`'s box in the window, in CSS
/// pixels.
fn edge(e: &web_sys::Element, which: &str) -> Option<f64> {
    use wasm_bindgen::JsCast;
    let rect = js_sys::Reflect::get(e, &"getBoundingClientRect".into()).ok()?;
    let rect = rect.dyn_into::<js_sys::Function>().ok()?.call0(e).ok()?;
    js_sys::Reflect::get(&rect, &which.into()).ok()?.as_f64()
}

/// How many answers the shown lesson had when last looked (`reveal_answer`).
static SHOWN_ANSWERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// After the learner answered a question of the lesson shown (`answer`: its source line
/// and how many answers were given), scrolls the answer up when the dock fixed to the
/// window's bottom (two rows high on a narrow screen) or the window's bottom hides it:
/// it appears under the choice just made. Its bottom then stops a little above the
/// dock. Called before [`follow_step`] from the same effect, so it adds no hook.
pub(super) fn reveal_answer(lesson: Option<usize>, answer: Option<(usize, usize)>) {
    use std::sync::atomic::Ordering::Relaxed;
    /// The room left between the answer and the dock.
    const GAP_PX: f64 = 8.0;
    let given = answer.map_or(0, |(_, n)| n);
    let new = SHOWN_ANSWERS.swap(given, Relaxed) != given;
    let same = lesson.is_some() && SHOWN_LESSON.load(Relaxed) == lesson.unwrap_or(usize::MAX);
    let (Some((line, _)), true, true) = (answer, new, same) else {
        return;
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    let selector = format!("fieldset[data-question=\"{line}\"] .feedback-slot");
    let Some(e) = window
        .document()
        .and_then(|d| d.query_selector(&selector).ok()?)
    else {
        return;
    };
    let dock = window
        .document()
        .and_then(|d| d.query_selector(".lesson-dock").ok()?)
        .and_then(|d| edge(&d, "top"));
    let bottom = dock.or_else(|| window.inner_height().ok()?.as_f64());
    if let (Some(at), Some(bottom)) = (edge(&e, "bottom"), bottom) {
        if at > bottom {
            window.scroll_by_with_x_and_y(0.0, at - bottom + GAP_PX);
        }
    }
}
