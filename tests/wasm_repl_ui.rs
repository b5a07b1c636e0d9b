#![cfg(target_arch = "wasm32")]
//! Replication in a real browser: choose the 3-broker, replication.factor=3 cluster on
//! the idempotence page, send, crash the leader with one click before it answers, and
//! read what the learner sees — a new leader, the retry answered DUPLICATE, and one
//! copy of each record on every replica still up.

use eos_playground::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

async fn click(root: &web_sys::Element, id: &str) {
    by_testid(root, id)
        .dyn_into::<web_sys::HtmlElement>()
        .expect("an HTML element")
        .click();
    tick().await;
}

async fn type_records(root: &web_sys::Element, value: &str) {
    let input: web_sys::HtmlInputElement = by_testid(root, "records").dyn_into().expect("input");
    input.set_value(value);
    input
        .dispatch_event(&web_sys::Event::new("input").expect("event"))
        .expect("dispatched");
    tick().await;
}

#[wasm_bindgen_test]
async fn crashing_the_leader_in_the_page_gets_the_retry_a_duplicate_from_the_new_leader() {
    let root = fresh_root();
    yew::Renderer::<App>::with_root(root.clone()).render();
    tick().await;
    // One broker: no cluster panel, the single-broker panel instead.
    assert!(find(&root, "cluster-panel").is_none());

    let select: web_sys::HtmlSelectElement =
        by_testid(&root, "cluster-size").dyn_into().expect("select");
    select.set_value("3");
    select
        .dispatch_event(&web_sys::Event::new("change").expect("event"))
        .expect("dispatched");
    tick().await;
    for id in 1..=3 {
        assert_eq!(text(&root, &format!("broker-{id}-state")), "up");
    }
    assert!(text(&root, "broker-1-leads").contains("orders-0"));
    assert!(text(&root, "replicas-summary").contains("ISR [1, 2, 3]"));

    type_records(&root, "a").await;
    click(&root, "send").await;
    for id in 1..=3 {
        let offsets = text(&root, &format!("replica-{id}-offsets"));
        assert!(offsets.contains("LEO 1"), "broker {id}: {offsets}");
    }

    // Step by step: `b` reaches both followers; the leader has not answered yet (its HW
    // moves on the followers' next fetch).
    click(&root, "step-mode").await;
    type_records(&root, "b").await;
    click(&root, "send").await;
    let mut steps = 0;
    while !(1..=3).all(|id| text(&root, &format!("replica-{id}-offsets")).contains("LEO 2")) {
        assert!(steps < 60, "b never reached the followers");
        click(&root, "step").await;
        steps += 1;
    }
    assert_eq!(
        by_testid(&root, "verdict").get_attribute("data-verdict"),
        Some("APPEND".to_string())
    );

    click(&root, "broker-1-crash").await;
    assert_eq!(text(&root, "broker-1-state"), "stopped");
    let summary = text(&root, "replicas-summary");
    assert!(summary.contains("leader epoch 1"), "{summary}");
    assert!(!summary.contains("broker 1 "), "{summary}");

    click(&root, "run").await;
    assert_eq!(
        by_testid(&root, "verdict").get_attribute("data-verdict"),
        Some("DUPLICATE".to_string()),
        "{}",
        text(&root, "verdict")
    );
    for id in 2..=3 {
        let offsets = text(&root, &format!("replica-{id}-offsets"));
        assert!(
            offsets.contains("LEO 2"),
            "one a and one b on broker {id}: {offsets}"
        );
    }

    // Start the old leader: it comes back as a follower.
    click(&root, "broker-1-start").await;
    assert_eq!(text(&root, "broker-1-state"), "up");
    assert!(!text(&root, "broker-1-leads").contains("orders-0"));
}
