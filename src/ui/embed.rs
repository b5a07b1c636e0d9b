//! Embedding in a course page (docs/embedding.md): the URL options of the compact
//! view, and the postMessage API.
//!
//! The decisions are pure functions ([`parse_options`], [`host_command`]) so a test can
//! feed them hostile input; the thin glue below reads the browser's values into them
//! and posts the playground's messages to the host page.

use std::fmt;

use wasm_bindgen::JsValue;

use super::state::Page;

/// Largest host message accepted (its JSON form), in bytes.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// The postMessage API's version, sent in `eos:ready`.
pub const API_VERSION: u32 = 1;
/// The panels an embedded view shows when `panels=` is not given.
pub const DEFAULT_PANELS: &[&str] = &["lesson", "verdict", "log", "events"];
/// Every panel name `panels=` knows.
pub const PANELS: &[&str] = &[
    "producer",
    "log",
    "window",
    "verdict",
    "events",
    "lesson",
    "coordinator",
    "consumers",
    "timeline",
];

/// The page URL's options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmbedOptions {
    /// `embed=1`: the compact view.
    pub embed: bool,
    pub lesson: Option<String>,
    pub step: Option<usize>,
    pub page: Option<Page>,
    /// The panels to show, in order (unknown names are left out).
    pub panels: Vec<String>,
    /// Origins whose commands are accepted (besides the page's own).
    pub origins: Vec<String>,
    /// A `step=` that is not a step number, as written.
    pub bad_step: Option<String>,
    /// A `page=` that names no page, as written.
    pub bad_page: Option<String>,
    /// `lang=en|ko|th`: the page's language.
    pub lang: Option<crate::i18n::Lang>,
}

impl EmbedOptions {
    /// The built-in lesson `lesson=` names (index), or None.
    pub fn lesson_index(&self) -> Option<usize> {
        let name = self.lesson.as_deref()?;
        crate::scenario::lessons()
            .iter()
            .position(|l| l.name == name)
    }

    /// The page to show: `page=`, else the lesson's own page, else `fallback`.
    pub fn start_page(&self, fallback: Page) -> Page {
        let lesson_page = self
            .lesson_index()
            .and_then(|i| crate::scenario::lessons().get(i))
            .map(|l| Page::of_lesson(l.name));
        self.page.or(lesson_page).unwrap_or(fallback)
    }

    /// What is wrong with the address's options, each with what is shown instead
    /// (empty when all is well).
    pub fn problems(&self, shown: Page) -> Vec<String> {
        use crate::i18n::{tf, Key};
        let mut out = Vec::new();
        if let (Some(name), None) = (&self.lesson, self.lesson_index()) {
            let names: Vec<&str> = crate::scenario::lessons().iter().map(|l| l.name).collect();
            out.push(tf(Key::UrlNoLesson, &[name, &names.join(", ")]));
        }
        if let Some(step) = &self.bad_step {
            out.push(tf(Key::UrlBadStep, &[step]));
        }
        if let Some(page) = &self.bad_page {
            out.push(tf(Key::UrlBadPage, &[page, shown.fragment()]));
        }
        out
    }
}

/// `%XX` and `+` decoding of a query value (invalid escapes stay as they are).
fn decode(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match u8::from_str_radix(value.get(i + 1..i + 3).unwrap_or(""), 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads the options from `location.search` (`?embed=1&lesson=…`).
pub fn parse_options(search: &str) -> EmbedOptions {
    let mut o = EmbedOptions::default();
    let list = |v: &str| -> Vec<String> {
        v.split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    for pair in search.trim_start_matches('?').split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = decode(value);
        match key {
            "embed" => o.embed = value == "1" || value == "true",
            "lesson" if !value.is_empty() => o.lesson = Some(value),
            "step" => {
                o.step = value.parse().ok();
                o.bad_step = o.step.is_none().then_some(value);
            }
            "page" => {
                o.page = Page::parse(&value);
                o.bad_page = o.page.is_none().then_some(value);
            }
            "panels" => {
                o.panels = list(&value)
                    .into_iter()
                    .filter(|p| PANELS.contains(&p.as_str()))
                    .collect()
            }
            "origins" => o.origins = list(&value),
            "lang" => o.lang = crate::i18n::Lang::from_code(&value),
            _ => {}
        }
    }
    if o.panels.is_empty() {
        o.panels = DEFAULT_PANELS.iter().map(|s| s.to_string()).collect();
    }
    o
}

/// The fields of a host message the API reads (None: absent or not of that type).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostMessage {
    pub kind: Option<String>,
    pub direction: Option<String>,
    pub to: Option<f64>,
    pub lesson: Option<String>,
    pub scenario: Option<String>,
}

/// What the host page asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostCommand {
    Next,
    Prev,
    To(usize),
    LoadLesson(String),
    LoadScenario(String),
    Reset,
}

/// Why a message was ignored (said in the console with `console.warn`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    Origin(String),
    TooLarge(usize),
    NotObject,
    UnknownType(Option<String>),
    BadField(&'static str),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "eos-playground ignored a message: ")?;
        match self {
            Rejection::Origin(o) => write!(
                f,
                "origin {o:?} is not allowed (add it to the `origins=` URL option)"
            ),
            Rejection::TooLarge(n) => write!(
                f,
                "it is {n} bytes; at most {MAX_MESSAGE_BYTES} are accepted"
            ),
            Rejection::NotObject => write!(f, "it is not an object with a string `type`"),
            Rejection::UnknownType(Some(t)) => write!(f, "unknown type {t:?}"),
            Rejection::UnknownType(None) => write!(f, "it has no string `type`"),
            Rejection::BadField(why) => write!(f, "{why}"),
        }
    }
}

/// Decides what a host message asks for. `size` is the length of its JSON form;
/// `message` is None when it is not a plain object. `own` is the page's own origin,
/// always allowed; `allowed` the `origins=` list.
pub fn host_command(
    origin: &str,
    own: &str,
    allowed: &[String],
    size: usize,
    message: Option<&HostMessage>,
) -> Result<HostCommand, Rejection> {
    if origin != own && !allowed.iter().any(|a| a == origin) {
        return Err(Rejection::Origin(origin.to_string()));
    }
    if size > MAX_MESSAGE_BYTES {
        return Err(Rejection::TooLarge(size));
    }
    let m = message.ok_or(Rejection::NotObject)?;
    match m.kind.as_deref() {
        Some("eos:step") => match (m.direction.as_deref(), m.to) {
            (Some("next"), None) => Ok(HostCommand::Next),
            (Some("prev"), None) => Ok(HostCommand::Prev),
            (None, Some(n)) if n >= 0.0 && n.fract() == 0.0 && n <= 1e6 => {
                Ok(HostCommand::To(n as usize))
            }
            _ => Err(Rejection::BadField(
                "eos:step needs direction \"next\" or \"prev\", or a whole number `to`",
            )),
        },
        Some("eos:load") => match (&m.lesson, &m.scenario) {
            (Some(l), None) => Ok(HostCommand::LoadLesson(l.clone())),
            (None, Some(s)) => Ok(HostCommand::LoadScenario(s.clone())),
            _ => Err(Rejection::BadField(
                "eos:load needs a string `lesson` or a string `scenario`",
            )),
        },
        Some("eos:reset") => Ok(HostCommand::Reset),
        other => Err(Rejection::UnknownType(other.map(str::to_string))),
    }
}

// ---- Browser glue ----

fn get(obj: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// Reads a `message` event: (origin, JSON size, the fields when it is a plain object).
pub fn read_event(e: &JsValue) -> (String, usize, Option<HostMessage>) {
    let origin = get(e, "origin").as_string().unwrap_or_default();
    let data = get(e, "data");
    let size = js_sys::JSON::stringify(&data)
        .ok()
        .and_then(|s| s.as_string())
        .map_or(usize::MAX, |s| s.len());
    let object = data.is_object() && !js_sys::Array::is_array(&data);
    let message = object.then(|| HostMessage {
        kind: get(&data, "type").as_string(),
        direction: get(&data, "direction").as_string(),
        to: get(&data, "to").as_f64(),
        lesson: get(&data, "lesson").as_string(),
        scenario: get(&data, "scenario").as_string(),
    });
    (origin, size, message)
}

/// The page's own origin (`location.origin`).
pub fn own_origin() -> String {
    web_sys::window()
        .map(|w| get(&get(&w, "location"), "origin"))
        .and_then(|o| o.as_string())
        .unwrap_or_default()
}

/// The host page's window, when this page is in a frame.
fn parent() -> Option<JsValue> {
    let window: JsValue = web_sys::window()?.into();
    let parent = get(&window, "parent");
    (!parent.is_undefined() && !js_sys::Object::is(&parent, &window)).then_some(parent)
}

/// True when the page runs inside a frame (the postMessage API is on).
pub fn framed() -> bool {
    parent().is_some()
}

/// Posts a message to the host page (any origin may read it: it carries no secret).
pub fn post(message: &JsValue) {
    use wasm_bindgen::JsCast;
    let Some(parent) = parent() else { return };
    if let Ok(f) = get(&parent, "postMessage").dyn_into::<js_sys::Function>() {
        let _ = f.call2(&parent, message, &"*".into());
    }
}

/// A plain object from (key, value) pairs.
pub fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &(*k).into(), v);
    }
    o.into()
}

/// Posts `eos:resize` and the LMS form `{"subject":"lti.frameResize","height":…}`.
pub fn post_height(height: f64) {
    post(&object(&[
        ("type", "eos:resize".into()),
        ("height", height.into()),
    ]));
    let lti = object(&[
        ("subject", "lti.frameResize".into()),
        ("height", height.into()),
    ]);
    if let Ok(text) = js_sys::JSON::stringify(&lti) {
        post(&text.into());
    }
}

/// `console.warn(text)`.
pub fn warn(text: &str) {
    web_sys::console::warn_1(&text.into());
}
