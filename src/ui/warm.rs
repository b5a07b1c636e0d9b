//! Warming the page up at idle, so a learner's first click runs compiled code: after
//! the first render, the page plays each kind of click once ([`crate::view::warm`])
//! on a scratch copy of the app mounted in a detached element — the same reducer, engine, view models and components as a real
//! click, never in the document, so nothing is styled, laid out, announced or seen. The
//! browser has then compiled that code when the learner's first click of each kind comes.
//! The scratch copy is the site's own `App` (with `warm`), not a component of its own:
//! a first version with its own component added 4.8 KB gzip to the bundle, this one 1.6.
//!
//! One click per idle callback (`requestIdleCallback`, else a 50 ms timer where the
//! browser has none), so a learner's own click waits for one scratch click and its render
//! at most. The page shown is warmed first, then the other one; then the scratch app is
//! dropped and `window.__eosWarm` is `"done"` (the e2e test waits for it before timing
//! clicks). Not in an embedded frame (`ui::start`).

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::app::{App, AppProps};
use super::state::{AppState, Msg, Page};
use crate::view::warm::warm_clicks;

/// Runs `f` when the main thread is idle (`requestIdleCallback`; where a browser has none,
/// Safari, `setTimeout` of 50 ms). Boxed, and both through `Function::call`: one closure
/// shim serves every caller (the warm-up's wasm is counted in the bundle's budget).
fn when_idle(f: Box<dyn FnOnce()>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let function = |name: &str| {
        js_sys::Reflect::get(&window, &name.into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    };
    let callback = wasm_bindgen::closure::Closure::once_into_js(f);
    if let Some(idle) = function("requestIdleCallback") {
        let _ = idle.call1(&window, &callback);
    } else if let Some(timeout) = function("setTimeout") {
        let _ = timeout.call2(&window, &callback, &50.into());
    }
}

/// Tells the e2e test the warm-up is over (`window.__eosWarm = "done"`).
fn say_done() {
    let _ = js_sys::Reflect::set(&js_sys::global(), &"__eosWarm".into(), &"done".into());
}

/// The scratch app's part: once mounted (`AppProps::warm`), it plays the warm clicks of
/// the page it shows, then of the site's other pages, one per idle callback.
#[hook]
pub(super) fn use_warm_up(on: bool, dispatch: UseReducerDispatcher<AppState>, shown: Page) {
    use_effect_with((), move |_| {
        if on {
            let mut messages = Vec::new();
            for page in std::iter::once(shown).chain(Page::ALL.into_iter().filter(|&p| p != shown))
            {
                // The page first, as a learner switching to it would see it.
                messages.push(Msg::SetPage(page));
                for action in warm_clicks(page) {
                    messages.push(Msg::Act(page, action));
                }
            }
            play(messages.into_iter(), dispatch);
        }
    });
}

/// Dispatches the next message at the next idle moment, and so on; then `on_done`.
/// Chained from idle callback to idle callback, not from renders: a message that
/// changes nothing (the page already shown) renders nothing.
fn play(mut messages: std::vec::IntoIter<Msg>, dispatch: UseReducerDispatcher<AppState>) {
    when_idle(Box::new(move || match messages.next() {
        Some(msg) => {
            dispatch.dispatch(msg);
            play(messages, dispatch);
        }
        // Not from inside the scratch app's own render: at the next idle moment.
        None => when_idle(Box::new(|| {
            if let Some(app) = SCRATCH.with(|s| s.borrow_mut().take()) {
                app.destroy();
            }
            say_done();
        })),
    }));
}

thread_local! {
    /// The scratch app while it plays (dropped, at idle, once done).
    static SCRATCH: RefCell<Option<yew::AppHandle<App>>> = const { RefCell::new(None) };
}

/// Starts the warm-up at idle: the site's app again (`AppProps::warm`: no window hooks,
/// no address), mounted in a detached element, `shown` first.
pub(super) fn start(shown: Page) {
    when_idle(Box::new(move || {
        let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("div").ok())
        else {
            return;
        };
        let props = AppProps {
            page: Some(shown),
            keep_address: false,
            warm: true,
        };
        let app = yew::Renderer::<App>::with_root_and_props(root, props).render();
        SCRATCH.with(|s| *s.borrow_mut() = Some(app));
    }));
}
