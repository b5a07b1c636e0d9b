//! The learner's progress through the course, kept in the browser (`localStorage`):
//! each lesson new, started or done, and where they left off. Nothing leaves the browser;
//! a browser without storage (or with it refused) just shows every lesson as new.

use wasm_bindgen::JsValue;

/// How far a learner got in a lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    New,
    Started,
    Done,
}

impl Progress {
    /// The word tests and course authors' styles read (`data-progress`).
    pub fn code(self) -> &'static str {
        match self {
            Progress::New => "new",
            Progress::Started => "started",
            Progress::Done => "done",
        }
    }
}

const PROGRESS: &str = "eos-playground.progress";
const LAST: &str = "eos-playground.last";

/// `window.localStorage`, called through Reflect (no web-sys feature for two calls).
fn storage_call(method: &str, args: &[&str]) -> Option<JsValue> {
    let window = web_sys::window()?;
    let storage = js_sys::Reflect::get(&window, &"localStorage".into()).ok()?;
    if storage.is_null() || storage.is_undefined() {
        return None;
    }
    let f: js_sys::Function = js_sys::Reflect::get(&storage, &method.into()).ok()?.into();
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    f.apply(&storage, &args).ok()
}

fn get(key: &str) -> String {
    storage_call("getItem", &[key])
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

fn set(key: &str, value: &str) {
    let _ = storage_call("setItem", &[key, value]);
}

/// `name:started,other:done` → (name, progress) pairs; anything else is skipped.
fn entries(text: &str) -> Vec<(String, Progress)> {
    text.split(',')
        .filter_map(|e| {
            let (name, p) = e.split_once(':')?;
            let p = match p {
                "started" => Progress::Started,
                "done" => Progress::Done,
                _ => return None,
            };
            Some((name.to_string(), p))
        })
        .collect()
}

/// A lesson's progress.
pub fn of(name: &str) -> Progress {
    entries(&get(PROGRESS))
        .into_iter()
        .find(|(n, _)| n == name)
        .map_or(Progress::New, |(_, p)| p)
}

/// Records that the learner is at player step `step` of `steps` in lesson `name`: it is
/// started (a lesson once done stays done) and is where they left off.
pub fn record(name: &str, step: usize, steps: usize) {
    let now = if steps > 0 && step >= steps {
        Progress::Done
    } else {
        Progress::Started
    };
    let mut all = entries(&get(PROGRESS));
    match all.iter_mut().find(|(n, _)| n == name) {
        Some((_, p)) if *p == Progress::Done => {}
        Some((_, p)) => *p = now,
        None => all.push((name.to_string(), now)),
    }
    let text: Vec<String> = all
        .iter()
        .map(|(n, p)| format!("{n}:{}", p.code()))
        .collect();
    set(PROGRESS, &text.join(","));
    set(LAST, &format!("{name}@{step}"));
}

/// Where the learner left off: (lesson name, player step).
pub fn last() -> Option<(String, usize)> {
    let text = get(LAST);
    let (name, step) = text.split_once('@')?;
    Some((name.to_string(), step.parse().ok()?))
}
