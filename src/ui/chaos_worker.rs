//! The chaos page's Web Worker (the `eos-chaos-worker` binary, feature `checker`): it
//! waits for a [`Request`] from the page, runs its seeds one by one
//! ([`crate::checker::progress::run`]) and posts each [`Report`] back as text.
//!
//! The run is one synchronous loop: the page stops it by terminating the worker, so
//! nothing here needs to look for a "stop". Findings and the last report are posted at
//! once; progress at most every [`PROGRESS_MS`] (the page re-renders on each message,
//! and a run takes a few milliseconds). The clock is the browser's, read here in the
//! glue, never by the engine.
//!
//! Before it says it is ready, the worker fetches the catalogs of every language
//! (`i18n/*.txt`, next to the page): a finding's replay ends on a `check` narrated in
//! English, Korean and Thai (`crate::checker::replay`), worded here.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::checker::progress::{run, Report, Request};
use crate::i18n::{catalog, Lang};

/// The most time between two progress reports.
pub const PROGRESS_MS: f64 = 50.0;

/// Fetches every language's catalog, then listens.
pub fn start() {
    // Sent together, installed as they come; a language that cannot be fetched falls
    // back to English in the replays' narration (and is said in the console).
    let fetches: Vec<_> = Lang::ALL
        .iter()
        .map(|&lang| (lang, fetch_text(format!("i18n/{}.txt", lang.code()))))
        .collect();
    wasm_bindgen_futures::spawn_local(async move {
        for (lang, fetched) in fetches {
            match fetched.await {
                Ok(text) => {
                    catalog::install(lang, &text);
                }
                Err(why) => web_sys::console::warn_1(&format!("chaos worker: {why}").into()),
            }
        }
        listen();
    });
}

/// Fetches a text file from the worker's scope (`fetch` is sent at once); the answer is
/// read as the page reads its own (`language::read_text`).
fn fetch_text(url: String) -> impl std::future::Future<Output = Result<String, String>> {
    let sent = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("fetch"))
        .and_then(|f| f.dyn_into::<js_sys::Function>())
        .and_then(|f| f.call1(&JsValue::UNDEFINED, &JsValue::from_str(&url)))
        .and_then(|p| p.dyn_into::<js_sys::Promise>())
        .map_err(|e| format!("{e:?}"));
    super::language::read_text(url, sent)
}

/// Installs the message handler and tells the page the worker is ready.
fn listen() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post_scope = scope.clone();
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let text = e.data().as_string().unwrap_or_default();
            let request = match Request::decode(&text) {
                Ok(r) => r,
                Err(why) => {
                    web_sys::console::warn_1(&format!("chaos worker: {why}").into());
                    return;
                }
            };
            let post = |r: &Report| {
                let _ = post_scope.post_message(&JsValue::from_str(&r.encode()));
            };
            let mut last = f64::NEG_INFINITY;
            run(&request, |report| {
                let now = js_sys::Date::now();
                let due = match &report {
                    Report::Progress { done, total, .. } => {
                        done == total || now - last >= PROGRESS_MS
                    }
                    _ => true,
                };
                if due {
                    last = now;
                    post(&report);
                }
            });
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The worker lives as long as the page keeps it: so does its handler.
    onmessage.forget();
    let _ = scope.post_message(&JsValue::from_str(&Report::Ready.encode()));
}
