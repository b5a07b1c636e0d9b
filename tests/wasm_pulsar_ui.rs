#![cfg(all(target_arch = "wasm32", feature = "pulsar"))]
//! The Pulsar page in a real browser: play the first lesson to the end and read what
//! the learner sees — the commit marker at maxReadPosition, the step numbers on the
//! timeline, the differences table — then the comparison lesson's two sides, and the
//! "Compare with Kafka" view stepping both engines through one story.

use eos_playground::ui::pulsar::PulsarApp;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

async fn next_to_end(root: &web_sys::Element) {
    for _ in 0..200 {
        let next = by_testid(root, "pulsar-next");
        if next.has_attribute("disabled") {
            return;
        }
        next.dyn_into::<web_sys::HtmlElement>()
            .expect("a button")
            .click();
        tick().await;
    }
}

fn mount() -> web_sys::Element {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let root = document.create_element("div").expect("a div");
    document
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("appended");
    yew::Renderer::<PulsarApp>::with_root(root.clone()).render();
    root
}

#[wasm_bindgen_test]
async fn the_first_lesson_plays_to_the_commit() {
    let root = mount();
    tick().await;
    assert!(text(&root, "pulsar-step").starts_with("step 0 /"));
    next_to_end(&root).await;
    let out = text(&root, "pulsar-partition-output-partition-0");
    assert!(out.contains("maxReadPosition 3:2"), "{out}");
    assert!(out.contains("commit marker"), "{out}");
    let timeline = text(&root, "pulsar-timeline");
    assert!(timeline.contains("[4.3.3]"), "{timeline}");
    let diffs = text(&root, "pulsar-differences");
    assert!(diffs.contains("maxReadPosition"), "{diffs}");
    assert!(text(&root, "pulsar-tc-0").contains("(deleted)"));
}

#[wasm_bindgen_test]
async fn the_comparison_lesson_shows_both_sides() {
    let root = mount();
    tick().await;
    let select: web_sys::HtmlSelectElement = by_testid(&root, "pulsar-lesson-select")
        .dyn_into()
        .expect("a select");
    select.set_value("3");
    let event = web_sys::Event::new("change").expect("an event");
    select.dispatch_event(&event).expect("dispatched");
    tick().await;
    let address = take_search();
    next_to_end(&root).await;
    assert_eq!(address, "?lesson=kafka-vs-pulsar&lang=en");
    assert!(text(&root, "kafka-side").contains("commit succeeded"));
    assert!(text(&root, "pulsar-side").contains("t1 committed"));
    assert!(text(&root, "pulsar-differences").contains("The broker's dispatcher"));
}

#[wasm_bindgen_test]
async fn choosing_korean_translates_the_lesson_the_panels_and_the_timeline() {
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
    by_testid(&root, "pulsar-next")
        .dyn_into::<web_sys::HtmlElement>()
        .expect("a button")
        .click();
    tick().await;
    let first = root.text_content().unwrap_or_default();
    // The first player step (the setup section) ends with the first `pulsar print timeline`.
    let printed = text(&root, "pulsar-printed");
    next_to_end(&root).await;
    let last = root.text_content().unwrap_or_default();
    // Back to English before asserting, so a failure here leaves the other tests alone.
    set_ui_lang(Lang::En);
    assert!(
        first.contains("트랜잭션 코디네이터가 하나인 Pulsar 클러스터"),
        "the first step's title: {first}"
    );
    assert!(
        first.contains("입력 토픽에는 이미 메시지 두 개가 있고"),
        "its narration: {first}"
    );
    assert!(last.contains("커밋 마커"), "the partition panel: {last}");
    assert!(
        last.contains("__transaction_log_0이 1:0에 쓴 것을 확인합니다"),
        "the timeline: {last}"
    );
    assert!(
        printed.contains("input-partition-0이 a를 2:0에 저장합니다"),
        "what `pulsar print timeline` printed: {printed}"
    );
}

fn click(root: &web_sys::Element, testid: &str) {
    by_testid(root, testid)
        .dyn_into::<web_sys::HtmlElement>()
        .expect("clickable")
        .click();
}

/// The address's query, cleared: a lesson picked writes `?lesson=NAME&lang=CODE` there
/// (so a reload opens it), and a later mount would open that lesson.
fn take_search() -> String {
    let window = web_sys::window().expect("a window");
    let field = |name: &str| {
        let location = js_sys::Reflect::get(&window, &"location".into()).expect("location");
        js_sys::Reflect::get(&location, &name.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let (search, path) = (field("search"), field("pathname"));
    let history = js_sys::Reflect::get(&window, &"history".into()).expect("history");
    let replace: js_sys::Function = js_sys::Reflect::get(&history, &"replaceState".into())
        .expect("replaceState")
        .dyn_into()
        .expect("a function");
    replace
        .call3(
            &history,
            &wasm_bindgen::JsValue::NULL,
            &"".into(),
            &path.into(),
        )
        .expect("replaced");
    search
}

/// Clears `location.hash` (a click on the nav's `#compare` link sets it, and a later
/// mount would open the comparison).
fn clear_hash() {
    let window = web_sys::window().expect("a window");
    let location = js_sys::Reflect::get(&window, &"location".into()).expect("location");
    js_sys::Reflect::set(&location, &"hash".into(), &"".into()).expect("hash set");
}

#[wasm_bindgen_test]
async fn the_comparison_view_steps_both_engines_and_fills_the_table() {
    let root = mount();
    tick().await;
    click(&root, "nav-compare");
    tick().await;
    let nav = by_testid(&root, "nav-compare");
    let opened = nav.get_attribute("aria-current");
    let row = |id: &str| {
        let tr = by_testid(&root, &format!("compare-row-{id}"));
        let cells = tr.query_selector_all("td").expect("cells");
        (0..cells.length())
            .filter_map(|i| cells.item(i))
            .map(|c| c.text_content().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    let step0 = text(&root, "compare-step");
    let filter_before = row("filter");
    let pulsar_before = text(&root, "compare-pulsar");
    // Four steps: the setup, act 1 on Kafka, act 1 on Pulsar, act 2 on Kafka.
    for _ in 0..4 {
        click(&root, "compare-next");
        tick().await;
    }
    let filter_kafka = row("filter");
    let kafka_out0 = text(&root, "compare-kafka-out-0");
    click(&root, "compare-next");
    tick().await;
    let filter_both = row("filter");
    let pulsar_out0 = text(&root, "compare-pulsar-output-partition-0");
    let pulsar_side = text(&root, "compare-pulsar");
    click(&root, "compare-back");
    tick().await;
    let filter_back = row("filter");
    let step_back = text(&root, "compare-step");
    clear_hash();
    assert_eq!(opened.as_deref(), Some("page"));
    assert!(step0.starts_with("step 0 /"), "{step0}");
    assert!(pulsar_before.contains("has not started"), "{pulsar_before}");
    assert_eq!(filter_before, ["not shown yet", "not shown yet"]);
    assert!(filter_kafka[0].contains("since step 4"), "{filter_kafka:?}");
    assert!(
        filter_kafka[0].contains("down fetched the aborted out-0 offsets 2"),
        "{filter_kafka:?}"
    );
    assert_eq!(filter_kafka[1], "not shown yet");
    assert!(kafka_out0.contains("HW 4 · LSO 4"), "{kafka_out0}");
    assert!(kafka_out0.contains("aborted"), "{kafka_out0}");
    assert!(filter_both[1].contains("since step 5"), "{filter_both:?}");
    assert!(
        filter_both[1].contains("dispatcher of output-partition-0/downstream"),
        "{filter_both:?}"
    );
    assert!(pulsar_out0.contains("C (0,1)aborted"), "{pulsar_out0}");
    assert!(
        pulsar_side.contains("ongoing: none · aborted: (0,1)@3:3"),
        "{pulsar_side}"
    );
    assert_eq!(
        filter_back, filter_kafka,
        "a step back shows the table as it was"
    );
    assert!(step_back.starts_with("step 4 /"), "{step_back}");
}
