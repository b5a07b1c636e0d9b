#![cfg(target_arch = "wasm32")]
//! The fault controls of the transactions page in a real browser: pause after each
//! click, put a Produce on the wire with Step, open its menu on the timeline and drop
//! it (the retry lands once after the run); cut a link and clear it from the faults in
//! force; the transaction rules in force for the playground's transaction.version 2.

use eos_playground::ui::state::Page;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

fn mount() -> web_sys::Element {
    mount_app(Page::Transactions)
}

/// The timeline's button of the first message on the wire whose text has `what`.
fn message_button(root: &web_sys::Element, what: &str) -> Option<web_sys::Element> {
    let list = root.query_selector_all(".msg-button").ok()?;
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .find(|e| e.text_content().unwrap_or_default().contains(what))
}

#[wasm_bindgen_test]
async fn a_produce_on_the_wire_is_dropped_from_the_timeline_menu() {
    let root = mount();
    tick().await;
    for id in ["txn-init", "txn-begin", "net-pause", "txn-send"] {
        click(&root, id).await;
    }
    assert_eq!(
        text(&root, "txn-hw"),
        "0",
        "paused: the batch waits to be sent"
    );
    let mut produce = None;
    for _ in 0..5 {
        click(&root, "net-step").await;
        produce = message_button(&root, "Produce request");
        if produce.is_some() {
            break;
        }
    }
    let produce = produce.expect("Step put the Produce request on the wire");
    assert!(produce
        .text_content()
        .unwrap_or_default()
        .contains("on its way"));
    assert!(find(&root, "tl-menu").is_none());
    press(produce.clone()).await;
    let menu = text(&root, "tl-menu");
    assert!(menu.contains("Produce request"), "{menu}");
    for id in [
        "tl-strike-drop",
        "tl-strike-delay",
        "tl-strike-duplicate",
        "tl-strike-hold",
    ] {
        by_testid(&root, id);
    }
    assert!(find(&root, "tl-strike-release").is_none());
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .and_then(|e| e.get_attribute("data-testid"));
    assert_eq!(
        focused.as_deref(),
        Some("tl-strike-drop"),
        "focus moves into the menu"
    );
    assert_eq!(
        produce.get_attribute("aria-expanded").as_deref(),
        Some("true")
    );

    click(&root, "tl-strike-drop").await;
    assert!(find(&root, "tl-menu").is_none(), "a choice closes the menu");
    let timeline = text(&root, "timeline");
    assert!(timeline.contains("Produce request — lost"), "{timeline}");
    // The run lets the producer time out and send the batch again: it lands once (the
    // records field starts with `c1, c2`: one batch of two records).
    click(&root, "net-run").await;
    let events = root
        .query_selector(".event-list")
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    assert_eq!(text(&root, "txn-hw"), "2", "{events}");
    assert!(
        events.contains("The network lost the Produce request"),
        "{events}"
    );
    assert_eq!(
        text(&root, "txn-lso"),
        "0",
        "still open: the LSO holds at its start"
    );
}

#[wasm_bindgen_test]
async fn a_cut_link_is_listed_in_force_and_healed_from_the_list() {
    let root = mount();
    tick().await;
    assert!(find(&root, "net-no-faults").is_some());
    assert_eq!(text(&root, "net-link-toggle"), "Cut link");
    click(&root, "net-link-toggle").await;
    let faults = text(&root, "net-faults");
    assert!(faults.contains("fault cut producer-1 broker-1"), "{faults}");
    assert_eq!(text(&root, "net-link-toggle"), "Heal link");
    assert_eq!(text(&root, "net-clear-0"), "Heal");
    click(&root, "net-clear-0").await;
    assert!(
        find(&root, "net-no-faults").is_some(),
        "healed: nothing in force"
    );
    assert_eq!(text(&root, "net-link-toggle"), "Cut link");
}

#[wasm_bindgen_test]
async fn the_rules_in_force_show_transaction_version_2() {
    let root = mount();
    tick().await;
    assert_eq!(text(&root, "rules-tv"), "2");
    assert_eq!(text(&root, "rules-client-tv"), "2");
    assert_eq!(text(&root, "rules-verification"), "true");
    let rules = text(&root, "rules-panel");
    assert!(rules.contains("Bumped by one at every EndTxn"), "{rules}");
    assert!(
        rules.contains("cannot open a hanging transaction"),
        "{rules}"
    );
    // Nothing open: find-hanging has nothing to say.
    assert!(find(&root, "admin-no-open").is_some());
}

#[wasm_bindgen_test]
async fn the_faults_in_force_are_worded_in_the_chosen_language() {
    use eos_playground::i18n::{catalog::install, set_ui_lang, Lang};
    // The catalog the page would fetch from i18n/ko.txt, installed up front.
    assert!(install(Lang::Ko, include_str!("../src/i18n/catalog/ko.txt")).is_empty());
    let root = mount();
    tick().await;
    let menu: web_sys::HtmlSelectElement =
        by_testid(&root, "lang-menu").dyn_into().expect("a select");
    menu.set_value("ko");
    let event = web_sys::Event::new("change").expect("an event");
    menu.dispatch_event(&event).expect("dispatched");
    tick().await;
    click(&root, "net-link-toggle").await;
    let faults = text(&root, "net-faults");
    // Back to English before asserting, so a failure here leaves the other tests alone.
    set_ui_lang(Lang::En);
    assert!(faults.contains("사이의 연결을 끊습니다"), "{faults}");
}
