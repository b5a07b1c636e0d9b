#![cfg(target_arch = "wasm32")]
//! The transactions page in a real browser: mount the app on `#transactions`, click
//! through a transaction, and read what the learner sees — the COMMIT marker in the log
//! and LSO == HW; then fence producer-1 with a second producer and see its commit fail.

use eos_playground::ui::state::Page;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

fn mount() -> web_sys::Element {
    mount_app(Page::Transactions)
}

#[wasm_bindgen_test]
async fn a_committed_transaction_leaves_a_commit_marker_and_lso_equal_to_hw() {
    let root = mount();
    tick().await;
    by_testid(&root, "page-transactions");
    for id in ["txn-init", "txn-begin", "txn-send"] {
        click(&root, id).await;
    }
    // Sent and flushed, not committed: the data is open and holds the LSO at its start.
    assert_eq!(text(&root, "txn-lso"), "0");
    assert_eq!(text(&root, "txn-hw"), "2");
    assert!(
        text(&root, "txn-log").contains("open"),
        "{}",
        text(&root, "txn-log")
    );

    click(&root, "txn-commit").await;
    let log = text(&root, "txn-log");
    assert!(
        log.contains("COMMIT marker"),
        "the log shows the marker: {log}"
    );
    assert!(log.contains("endTxnMarker: COMMIT"), "{log}");
    assert!(log.contains("committed data"), "{log}");
    assert_eq!(text(&root, "txn-leo"), "3", "the marker takes offset 2");
    assert_eq!(text(&root, "txn-lso"), text(&root, "txn-hw"));
    assert_eq!(text(&root, "txn-lso"), "3");
    assert_eq!(
        by_testid(&root, "coordinator-state").get_attribute("data-state"),
        Some("CompleteCommit".to_string())
    );
    assert!(text(&root, "producer-outcome").contains("commitTransaction() returned"));
    // The coordinator wrote Empty, Ongoing, PrepareCommit, CompleteCommit.
    let records = text(&root, "txn-state-log");
    for s in ["Empty", "Ongoing", "PrepareCommit", "CompleteCommit"] {
        assert!(records.contains(s), "{s} in {records}");
    }
    // Both consumers read c1 and c2; neither gets the marker.
    click(&root, "poll-rc").await;
    click(&root, "poll-ru").await;
    for c in ["consumer-rc", "consumer-ru"] {
        let card = text(&root, c);
        assert!(card.contains("c1@0") && card.contains("c2@1"), "{card}");
        assert!(
            card.contains("COMMIT marker"),
            "the gap is explained: {card}"
        );
    }
}

#[wasm_bindgen_test]
async fn a_second_producer_fences_the_first_whose_commit_then_fails() {
    let root = mount();
    tick().await;
    for id in ["txn-init", "txn-begin", "txn-send"] {
        click(&root, id).await;
    }
    click(&root, "txn-fence").await;
    // producer-2 exists now, with a bumped epoch; the coordinator aborted producer-1's
    // open transaction.
    by_testid(&root, "txn-producer-2");
    assert!(
        text(&root, "txn-index").contains('0'),
        "an aborted transaction is indexed"
    );
    assert!(text(&root, "txn-log").contains("ABORT marker"));

    // The zombie sends again and commits.
    click(&root, "txn-send").await;
    click(&root, "txn-commit").await;
    let outcome = text(&root, "producer-outcome");
    assert!(
        outcome.contains("InvalidProducerEpochException"),
        "producer-1's commit fails: {outcome}"
    );
    assert_eq!(text(&root, "txn-client-state"), "ABORTABLE_ERROR");
}

/// A transaction past its transaction.timeout.ms, from the engine's view model: the
/// coordinator panel says how long it was open against its timeout and that the
/// coordinator aborted it, fencing the producer at the bumped epoch.
#[wasm_bindgen_test]
async fn a_timed_out_transaction_is_shown_with_the_coordinators_abort() {
    use eos_playground::ui::components::txn_coordinator::{TxnCoordinator, TxnCoordinatorProps};
    let src = "cluster brokers=1\ntopic create t partitions=1\n\
               producer p create transactional.id=tx transaction.timeout.ms=2000\n\
               producer p init-transactions\nproducer p begin\nproducer p send t-0 x\n\
               producer p flush\nrun 12000\n";
    let scenario = eos_playground::scenario::parse(src).expect("parses");
    let replay = eos_playground::scenario::Replay::to(scenario, usize::MAX);
    let views = eos_playground::view::coordinators::coordinators(replay.world());
    let root = fresh_root();
    yew::Renderer::<TxnCoordinator>::with_root_and_props(
        root.clone(),
        TxnCoordinatorProps { views },
    )
    .render();
    tick().await;
    let late = by_testid(&root, "coordinator-late");
    assert_eq!(late.get_attribute("data-aborted").as_deref(), Some("true"));
    let said = late.text_content().unwrap_or_default();
    for part in [
        "producer 0",
        "epoch 0",
        "transaction.timeout.ms=2000",
        "bumped the epoch to 1",
        "INVALID_PRODUCER_EPOCH",
    ] {
        assert!(said.contains(part), "{part} in {said}");
    }
}

/// The event list renders only the items near where it is scrolled, and scrolling it
/// from the top to the bottom shows every event of the view model, newest first, each
/// at the place `aria-posinset` (or, at the top, its place in the list) gives it.
#[wasm_bindgen_test]
async fn the_windowed_event_list_shows_every_event_as_it_scrolls() {
    use eos_playground::i18n::Lang;
    use eos_playground::scenario::{scenario_of, Replay};
    use eos_playground::ui::components::event_list::{EventList, EventListProps};
    use eos_playground::view::page::bench_setup;
    use eos_playground::view::txn_page::txn_views;
    use wasm_bindgen::JsCast;

    let mut steps = Page::Transactions.setup();
    steps.extend(bench_setup(40));
    let world = Replay::to(scenario_of(steps), usize::MAX).into_world();
    let events = txn_views(&world, Lang::En).events;
    // Newest first, the network's sends hidden (the list's default).
    let want: Vec<String> = events
        .iter()
        .rev()
        .filter(|e| !e.network)
        .map(|e| e.text.clone())
        .collect();
    assert!(want.len() > 100, "a long list: {}", want.len());

    // The page's box for the list (ui.css), which these tests do not load.
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let style = document.create_element("style").expect("a style");
    style.set_text_content(Some(".event-list { max-height: 300px; overflow-y: auto; }"));
    document
        .head()
        .expect("a head")
        .append_child(&style)
        .expect("added");

    let root = fresh_root();
    // As on the transactions page: a shorter window at rest, at the top.
    let props = EventListProps {
        events,
        rest: eos_playground::view::events::EVENT_REST_ROWS,
    };
    yew::Renderer::<EventList>::with_root_and_props(root.clone(), props).render();
    tick().await;
    let list = by_testid(&root, "events");
    let items = || {
        let nodes = list.query_selector_all("li.event").expect("selector");
        (0..nodes.length())
            .filter_map(|i| nodes.item(i))
            .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
            .enumerate()
            .map(|(k, li)| {
                let at = li
                    .get_attribute("aria-posinset")
                    .and_then(|p| p.parse::<usize>().ok())
                    .unwrap_or(k + 1);
                assert_eq!(
                    li.get_attribute("aria-setsize"),
                    Some(want.len().to_string())
                );
                let text = li
                    .query_selector(".event-text")
                    .ok()
                    .flatten()
                    .and_then(|t| t.text_content())
                    .unwrap_or_default();
                (at, text)
            })
            .collect::<Vec<_>>()
    };
    let first = items();
    assert!(
        first.len() < want.len(),
        "windowed: {} of {} items rendered",
        first.len(),
        want.len()
    );
    let mut seen: Vec<Option<String>> = vec![None; want.len()];
    let mut top = 0;
    loop {
        for (at, text) in items() {
            seen[at - 1] = Some(text);
        }
        if top >= list.scroll_height() {
            break;
        }
        top += 200;
        list.set_scroll_top(top);
        list.dispatch_event(&web_sys::Event::new("scroll").expect("an event"))
            .expect("dispatched");
        tick().await;
    }
    let seen: Vec<String> = seen.into_iter().map(Option::unwrap_or_default).collect();
    assert_eq!(seen, want, "every event's text, in its place");
}

/// `window.__eosDeferred`: how many panel boxes wait for the click's frame.
fn deferred_waiting() -> f64 {
    let w = web_sys::window().expect("a window");
    js_sys::Reflect::get(&w, &"__eosDeferred".into())
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}

/// Yew's render of a click, without waiting for a frame: Yew renders in microtasks, and
/// a timer task could come after a frame and the boxes' catch-up.
async fn rendered() {
    for _ in 0..8 {
        let _ =
            wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL)).await;
    }
}

/// Clicks the element with this `data-testid` and lets Yew render, without waiting for
/// the next frame.
async fn click_before_the_frame(root: &web_sys::Element, id: &str) {
    by_testid(root, id)
        .dyn_into::<web_sys::HtmlElement>()
        .expect("a button")
        .click();
    rendered().await;
}

/// Two frames and the tasks after them: the intersection observers see where the boxes
/// are after a scroll.
async fn seen() {
    tick().await;
    tick().await;
}

#[wasm_bindgen_test]
async fn the_panels_out_of_sight_follow_a_click_after_its_frame() {
    let root = mount();
    tick().await;
    click(&root, "txn-init").await;
    click(&root, "txn-begin").await;
    // The page's top in the window: the event list, far below, is out of sight.
    root.scroll_into_view_with_bool(true);
    seen().await;
    let before = text(&root, "events");
    click_before_the_frame(&root, "txn-send").await;
    // The partition's panel, the page's main one, shows the click at once ...
    assert!(
        text(&root, "txn-log").contains("c1, c2"),
        "{}",
        text(&root, "txn-log")
    );
    // ... the event list waits for the frame that shows it.
    assert_eq!(
        text(&root, "events"),
        before,
        "not rendered before the frame"
    );
    assert!(deferred_waiting() > 0.0);
    tick().await;
    assert_ne!(text(&root, "events"), before, "rendered after the frame");
    assert_eq!(deferred_waiting(), 0.0);
    // In sight, the event list shows a click at once.
    by_testid(&root, "events").scroll_into_view_with_bool(true);
    seen().await;
    let before = text(&root, "events");
    click_before_the_frame(&root, "txn-commit").await;
    assert_ne!(text(&root, "events"), before, "rendered with the click");
}
