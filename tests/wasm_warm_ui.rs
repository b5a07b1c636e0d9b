#![cfg(target_arch = "wasm32")]
//! The warm-up's scratch copy of the app (`ui::warm`, `AppProps::warm`) in a real
//! browser: it plays the shown page's clicks, then the other page's, at idle, through the
//! same reducer and components as a learner's clicks — ending with a commit and an abort
//! on the transactions page — and listens to nothing on the window.

use std::time::Duration;

use eos_playground::ui::state::Page;
use eos_playground::ui::{App, AppProps};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

fn warm_status() -> Option<String> {
    js_sys::Reflect::get(&js_sys::global(), &"__eosWarm".into())
        .ok()
        .and_then(|v| v.as_string())
}

#[wasm_bindgen_test]
async fn the_scratch_app_plays_every_page_and_hears_no_key() {
    let root = fresh_root();
    yew::Renderer::<App>::with_root_and_props(
        root.clone(),
        AppProps {
            page: Some(Page::Idempotence),
            keep_address: false,
            warm: true,
        },
    )
    .render();
    tick().await;
    // A shortcut key on the window: the scratch copy has no keydown listener.
    use wasm_bindgen::JsCast;
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"key".into(), &"?".into()).expect("set");
    let ctor = js_sys::Reflect::get(&js_sys::global(), &"KeyboardEvent".into())
        .expect("KeyboardEvent")
        .dyn_into::<js_sys::Function>()
        .expect("a constructor");
    let key = js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&"keydown".into(), &init))
        .expect("a key event")
        .dyn_into::<web_sys::Event>()
        .expect("an event");
    web_sys::window()
        .expect("a window")
        .dispatch_event(&key)
        .expect("dispatched");
    tick().await;
    assert!(find(&root, "shortcuts").is_none(), "the sheet opened");

    for _ in 0..1500 {
        if warm_status().as_deref() == Some("done") {
            break;
        }
        yew::platform::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(warm_status().as_deref(), Some("done"));
    // The shown page first, the other one last: the transactions page, with a committed
    // and an aborted transaction in its log.
    let log = text(&root, "txn-log");
    assert!(log.contains("COMMIT marker"), "{log}");
    assert!(log.contains("ABORT marker"), "{log}");
}
