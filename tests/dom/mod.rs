//! DOM helpers shared by the wasm-bindgen page tests (`tests/wasm_*_ui.rs`): a fresh
//! mount point, the app mounted on a page, letting Yew render, finding elements by
//! `data-testid`, clicking and choosing.
#![allow(dead_code)]

use std::time::Duration;

use eos_playground::ui::state::Page;
use eos_playground::ui::{App, AppProps};
use wasm_bindgen::JsCast;

/// A new empty `<div>` in the page's body to mount an app into.
pub fn fresh_root() -> web_sys::Element {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let div = document.create_element("div").expect("a div");
    document
        .body()
        .expect("a body")
        .append_child(&div)
        .expect("appended");
    div
}

/// Lets Yew's scheduler render, then the panels out of sight that follow a click one
/// frame later (`ui::deferred`).
pub async fn tick() {
    for _ in 0..3 {
        yew::platform::time::sleep(Duration::ZERO).await;
    }
    next_frame().await;
    for _ in 0..3 {
        yew::platform::time::sleep(Duration::ZERO).await;
    }
}

/// Resolves in the next frame's animation callbacks (or after 200 ms, if the page
/// draws no frame).
pub async fn next_frame() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().expect("a window");
        let _ = window.request_animation_frame(&resolve);
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 200);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(frame).await;
}

/// The element with this `data-testid`, if there is one.
pub fn find(root: &web_sys::Element, id: &str) -> Option<web_sys::Element> {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .ok()
        .flatten()
}

/// The element with this `data-testid` (the test fails without it).
pub fn by_testid(root: &web_sys::Element, id: &str) -> web_sys::Element {
    find(root, id).unwrap_or_else(|| panic!("no element with data-testid={id}"))
}

/// The text of the element with this `data-testid`.
pub fn text(root: &web_sys::Element, id: &str) -> String {
    by_testid(root, id).text_content().unwrap_or_default()
}

/// The playground mounted in a fresh root on `page` (the address bar left alone).
pub fn mount_app(page: Page) -> web_sys::Element {
    let root = fresh_root();
    yew::Renderer::<App>::with_root_and_props(
        root.clone(),
        AppProps {
            page: Some(page),
            keep_address: false,
            warm: false,
        },
    )
    .render();
    root
}

/// Clicks an element, then lets Yew render.
pub async fn press(e: web_sys::Element) {
    e.dyn_into::<web_sys::HtmlElement>()
        .expect("an HTML element")
        .click();
    tick().await;
}

/// Clicks the element with this `data-testid`, then lets Yew render.
pub async fn click(root: &web_sys::Element, id: &str) {
    press(by_testid(root, id)).await;
}

/// Chooses `value` in the `<select>` with this `data-testid`, as a learner's change does.
pub async fn choose(root: &web_sys::Element, id: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = by_testid(root, id).dyn_into().expect("a select");
    select.set_value(value);
    select
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatched");
    tick().await;
}
