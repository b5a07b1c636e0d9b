//! The web UI (Yew, client-side rendering). Only compiled for wasm32.
//!
//! - [`state`]: the one `Reducible` app state over the world (and a lesson runner).
//! - [`app`]: the page; it reads views from the world and hands them to the panels.
//! - [`components`]: one panel per file, read-only props and callbacks.
//! - [`intents`]: the callbacks the panels take, made once from the app's dispatch.
//! - [`idempotence`]: the first page.
//! - [`embed`]: the compact view's URL options and host messages; [`embed_view`]: the
//!   compact view and its postMessage hook.
//! - [`browser`]: window listeners and the location.
//! - [`class`]: the `class` attribute from a list of names.
//! - [`keys`]: keyboard shortcuts.
//! - [`deferred`]: panels out of the reader's sight follow a click one frame later.
//! - [`newest_end`]: whether the reader of a bottom-anchored list (the batch table, the
//!   timeline) is at its newest end, where only the newest rows are rendered.
//! - [`lesson_files`]: fetching a built-in lesson's file (the main page and the Pulsar
//!   site have no lesson texts).
//! - [`link`]: share links — what "Copy link" puts in the URL, and opening one.
//! - [`chaos`] and [`chaos_worker`] (feature `checker`): the chaos search page, its own
//!   entry (`www/chaos.html`), and the Web Worker that runs its seeds.
//! - [`editor`]: the lesson editor, its own entry (`www/editor.html`): a scenario's
//!   text beside the lesson player playing it.
//! - [`files`]: Kafka's files in the page, its own entry (`www/files.html`): a partition
//!   folder or zip inspected, opened by recovery, continued and downloaded.
//! - [`pulsar`] (feature `pulsar`): the Pulsar site, its own entry (`www/pulsar.html`);
//!   [`compare`]: its "Compare with Kafka" view; [`pulsar_play`]: its free play.
//! - [`warm`]: each kind of click played once at idle, unseen, so the learner's first
//!   click runs compiled code.
//! - [`transactions`]: the transactions page (`#transactions`), with its views read by
//!   [`crate::view`] (the view models, tested natively).

pub mod app;
pub mod browser;
#[cfg(feature = "checker")]
pub mod chaos;
#[cfg(feature = "checker")]
pub mod chaos_worker;
pub mod class;
#[cfg(feature = "pulsar")]
pub mod compare;
pub mod components;
pub mod deferred;
pub mod download;
pub mod editor;
pub mod embed;
pub mod embed_view;
pub mod files;
pub mod idempotence;
pub mod intents;
pub mod keys;
pub mod language;
pub mod lesson_files;
pub mod lesson_state;
pub mod link;
pub mod newest_end;
pub mod progress;
#[cfg(feature = "pulsar")]
pub mod pulsar;
#[cfg(feature = "pulsar")]
pub mod pulsar_play;
pub mod state;
pub mod transactions;
pub mod warm;

pub use app::{App, AppProps};

/// Set by the pages one folder down (`editor/`): links to the site's other pages then
/// start with `../`.
static IN_SUBFOLDER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A link to another of the site's pages (`limits.html`, `editor/`) from the page shown,
/// in the page's language.
pub(crate) fn site_href(page: &str) -> String {
    let up = IN_SUBFOLDER.load(std::sync::atomic::Ordering::Relaxed);
    language::href_in_lang(&format!("{}{page}", if up { "../" } else { "" }))
}

/// The site's app: the page from the address, kept in the address as the learner works.
fn site() -> AppProps {
    AppProps {
        page: None,
        keep_address: true,
        warm: false,
    }
}

/// Mounts the playground into `#app` (or `<body>` when the page has no such element),
/// once the English catalog is here ([`language::then_mount`]).
pub fn start() {
    browser::mark("eos:start");
    language::then_mount(|| {
        browser::mark("eos:catalog");
        mount_in_app::<App>(site());
        // Not in an embedded frame: the compact view shows a panel or two, and a course
        // page may hold several frames.
        let options = embed::parse_options(&browser::location_field("search").unwrap_or_default());
        if !options.embed {
            let hash = browser::location_field("hash").unwrap_or_default();
            warm::start(options.start_page(state::Page::from_fragment(&hash)));
        }
    });
}

/// Mounts `C` into `#app`, replacing what it holds — the "Loading…" line and, on the main
/// site, the first page's static shell (`scripts/shell.mjs`) — in the same task, so
/// nothing flashes (or into `<body>` when the page has no such element): the main site,
/// the Pulsar site and the chaos page alike.
pub(crate) fn mount_in_app<C: yew::BaseComponent>(props: C::Properties) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => {
            root.set_inner_html("");
            yew::Renderer::<C>::with_root_and_props(root, props).render();
        }
        None => {
            yew::Renderer::<C>::with_props(props).render();
        }
    }
}
