#![cfg(target_arch = "wasm32")]
//! Replication in a real browser: choose the 3-broker, replication.factor=3 cluster on
//! the idempotence page, send, crash the leader with one click before it answers, and
//! read what the learner sees — the crashed leader kept until the controller fences it,
//! then a new leader, the retry answered DUPLICATE, and one
//! copy of each record on every replica still up. On the transactions page with three
//! replicas, the followers' fetches are folded on the timeline into rows that open.

use eos_playground::ui::state::Page;
use eos_playground::ui::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

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

    choose(&root, "cluster-size", "3").await;
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

    // The controller does not see a crash: broker 1 stays leader, in the ISR, until its
    // session runs out (`broker.session.timeout.ms`, 9 s) and the controller fences it.
    click(&root, "broker-1-crash").await;
    assert_eq!(text(&root, "broker-1-state"), "stopped");
    let summary = text(&root, "replicas-summary");
    assert!(
        summary.contains("Leader: broker 1 · leader epoch 0"),
        "{summary}"
    );
    // The card and the partition say why: the controller has not noticed yet.
    assert_eq!(
        text(&root, "broker-1-controller"),
        "crashed — the controller has not noticed yet (session expires in 9000 ms)"
    );
    assert!(text(&root, "replica-1").contains("leader unreachable"));
    assert!(
        find(&root, "broker-2-controller").is_none(),
        "broker 2 is active"
    );

    click(&root, "run").await;
    let summary = text(&root, "replicas-summary");
    assert!(summary.contains("leader epoch 1"), "{summary}");
    assert!(!summary.contains("broker 1 "), "{summary}");
    assert_eq!(text(&root, "broker-1-controller"), "fenced");
    assert!(!text(&root, "replica-1").contains("leader unreachable"));
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
    assert!(find(&root, "broker-1-controller").is_none());

    // A follower started again at once is refused while its old session runs: the card
    // says when it asks again, and offers Crash (stop the waiting process), not Start.
    click(&root, "broker-3-crash").await;
    click(&root, "broker-3-start").await;
    assert_eq!(
        text(&root, "broker-3-controller"),
        "registering — refused DUPLICATE_BROKER_REGISTRATION, asks again in 100 ms"
    );
    assert!(find(&root, "broker-3-start").is_none());
    assert!(find(&root, "broker-3-crash").is_some());
}

/// The `.msg` rows of the timeline.
fn timeline_rows(root: &web_sys::Element) -> u32 {
    by_testid(root, "timeline")
        .query_selector_all(".msg")
        .expect("selector")
        .length()
}

fn folds(root: &web_sys::Element) -> Vec<web_sys::Element> {
    let list = root
        .query_selector_all("[data-testid=tl-fold]")
        .expect("selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .collect()
}

#[wasm_bindgen_test]
async fn follower_fetches_are_one_row_on_the_timeline_until_opened() {
    let root = mount_app(Page::Transactions);
    tick().await;
    choose(&root, "cluster-size", "3").await;
    for id in ["txn-init", "txn-begin", "txn-send", "txn-commit"] {
        click(&root, id).await;
    }
    let timeline = text(&root, "timeline");
    assert!(timeline.contains("EndTxn request"), "{timeline}");
    let closed = folds(&root);
    assert!(!closed.is_empty(), "no folded fetches: {timeline}");
    let fold = closed.last().expect("a fold").clone();
    assert_eq!(
        fold.get_attribute("aria-expanded").as_deref(),
        Some("false")
    );
    let label = fold.text_content().unwrap_or_default();
    assert!(label.contains("follower fetches"), "{label}");
    let n: u32 = label
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .split(' ')
        .next()
        .and_then(|d| d.parse().ok())
        .expect("a count");
    assert!(n >= 2, "{label}");
    let key = fold.get_attribute("data-fold-key").expect("a key");
    let before = timeline_rows(&root);

    // A button: Enter or Space presses it; a click opens the run under it.
    fold.clone()
        .dyn_into::<web_sys::HtmlElement>()
        .expect("button")
        .click();
    tick().await;
    let open = root
        .query_selector(&format!("[data-fold-key='{key}']"))
        .ok()
        .flatten()
        .expect("the fold stays");
    assert_eq!(open.get_attribute("aria-expanded").as_deref(), Some("true"));
    assert_eq!(
        timeline_rows(&root),
        before + n,
        "its {n} fetches are shown"
    );
    assert!(text(&root, "timeline").contains("Fetch request"));

    open.dyn_into::<web_sys::HtmlElement>()
        .expect("button")
        .click();
    tick().await;
    assert_eq!(timeline_rows(&root), before, "closed again");
}
