#![cfg(target_arch = "wasm32")]
//! The UI in a real browser: mount components into a fresh div, drive a duplicate, and
//! read what the learner would see.

use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, World};
use eos_playground::ui::components::verdict::{Verdict, VerdictProps};
use eos_playground::ui::components::window_table::{SlotMark, WindowTable, WindowTableProps};
use eos_playground::ui::App;
use eos_playground::view::idempotence_page::VerdictView;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

fn click(root: &web_sys::Element, id: &str) {
    by_testid(root, id)
        .dyn_into::<web_sys::HtmlElement>()
        .expect("an HTML element")
        .click();
}

fn raw(tp: &TopicPartition) -> Action {
    Action::RawProduce {
        topic_partition: tp.clone(),
        producer_id: 1000,
        producer_epoch: 0,
        base_sequence: 0,
        transactional_id: None,
        values: vec!["a".into(), "b".into()],
        label: None,
    }
}

#[wasm_bindgen_test]
async fn window_and_verdict_show_a_duplicate_with_its_original_offsets() {
    let mut world = World::new(ClusterConfig::default());
    let tp = TopicPartition::new("orders", 0);
    world
        .apply(&Action::CreateTopic {
            name: "orders".into(),
            partitions: 1,
            configs: vec![],
        })
        .expect("topic");
    world.apply(&raw(&tp)).expect("first");
    world.apply(&raw(&tp)).expect("again");
    let verdict = world.last_verdict(&tp).expect("a verdict");

    let root = fresh_root();
    yew::Renderer::<Verdict>::with_root_and_props(
        root.clone(),
        VerdictProps {
            verdict: VerdictView::of(4, verdict),
            in_lesson: false,
        },
    )
    .render();
    let window_root = fresh_root();
    yew::Renderer::<WindowTable>::with_root_and_props(
        window_root.clone(),
        WindowTableProps {
            windows: world.windows(&tp),
            mark: Some(SlotMark {
                producer_id: 1000,
                first_seq: 0,
                duplicate: true,
            }),
            recovered: false,
        },
    )
    .render();
    tick().await;

    let text = by_testid(&root, "verdict")
        .text_content()
        .unwrap_or_default();
    assert!(text.contains("DUPLICATE"), "{text}");
    assert!(text.contains("original offsets 0..1"), "{text}");
    assert!(text.contains("LEO stays 2"), "{text}");
    let window = by_testid(&window_root, "window")
        .text_content()
        .unwrap_or_default();
    assert!(window.contains("seq 0..1"), "{window}");
    assert!(window.contains("offsets 0..1"), "{window}");
    assert!(window.contains("DUPLICATE"), "{window}");
}

#[wasm_bindgen_test]
async fn the_app_dedups_a_retry_after_a_lost_ack() {
    let root = fresh_root();
    yew::Renderer::<App>::with_root(root.clone()).render();
    tick().await;

    click(&root, "send"); // "a, b" is typed in already
    tick().await;
    assert_eq!(by_testid(&root, "leo").text_content().as_deref(), Some("2"));

    click(&root, "drop-ack");
    tick().await;
    click(&root, "send");
    tick().await;

    let verdict = by_testid(&root, "verdict");
    assert_eq!(
        verdict.get_attribute("data-verdict").as_deref(),
        Some("DUPLICATE")
    );
    let text = verdict.text_content().unwrap_or_default();
    assert!(text.contains("original offsets 2..3"), "{text}");
    assert_eq!(
        by_testid(&root, "leo").text_content().as_deref(),
        Some("4"),
        "written once"
    );
    let rows = root
        .query_selector_all("[data-testid=\"log\"] tbody tr")
        .expect("rows")
        .length();
    assert_eq!(rows, 2);
    let events = by_testid(&root, "events")
        .text_content()
        .unwrap_or_default();
    assert!(events.contains("lost the Produce response"), "{events}");
}

#[wasm_bindgen_test]
async fn bad_records_are_refused_at_the_field() {
    let root = fresh_root();
    yew::Renderer::<App>::with_root(root.clone()).render();
    tick().await;
    let input: web_sys::HtmlInputElement = by_testid(&root, "records").dyn_into().expect("input");
    input.set_value("a,,b");
    let event = web_sys::Event::new("input").expect("event");
    input.dispatch_event(&event).expect("dispatched");
    tick().await;
    click(&root, "send");
    tick().await;
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(input
        .get_attribute("aria-describedby")
        .unwrap_or_default()
        .contains("records-error"));
    assert_eq!(
        by_testid(&root, "leo").text_content().as_deref(),
        Some("0"),
        "nothing sent"
    );
}

/// The raw panel's transcript is worded in the page's language: the InitProducerId retry
/// line in Korean, Kafka's protocol line as Kafka prints it; a step back and forward
/// (a replay) words it the same.
#[wasm_bindgen_test]
async fn the_raw_panel_words_its_retry_line_in_the_chosen_language() {
    use eos_playground::i18n::{catalog::install, set_ui_lang, Lang};
    use eos_playground::ui::state::Page;
    // The catalog the page would fetch from i18n/ko.txt, installed up front.
    assert!(install(Lang::Ko, include_str!("../src/i18n/catalog/ko.txt")).is_empty());
    let root = mount_app(Page::Idempotence);
    tick().await;
    dom::choose(&root, "lang-menu", "ko").await;
    dom::click(&root, "raw-init").await;
    let clicked = text(&root, "raw-output");
    dom::click(&root, "tt-back").await;
    dom::click(&root, "tt-forward").await;
    let replayed = text(&root, "raw-output");
    // Back to English before asserting, so a failure here leaves the other tests alone.
    set_ui_lang(Lang::En);
    for out in [&clicked, &replayed] {
        assert!(
            out.contains(
                "InitProducerId: COORDINATOR_LOAD_IN_PROGRESS, 100 ms 뒤에 다시 요청합니다"
            ),
            "{out}"
        );
        assert!(
            out.contains("InitProducerId: error=NONE producerId="),
            "{out}"
        );
    }
}
