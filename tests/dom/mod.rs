//! DOM helpers shared by the wasm-bindgen page tests (`tests/wasm_*_ui.rs`): a fresh
//! mount point, letting Yew render, and finding elements by `data-testid`.
#![allow(dead_code)]

use std::time::Duration;

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

/// Lets Yew's scheduler render.
pub async fn tick() {
    for _ in 0..3 {
        yew::platform::time::sleep(Duration::ZERO).await;
    }
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
