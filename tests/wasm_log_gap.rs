#![cfg(target_arch = "wasm32")]
//! The log table in a real browser over a compacted log: the batches the cleaner
//! removed leave one row that names their offsets, in English, Korean and Thai.

use eos_playground::i18n::{catalog::install, set_ui_lang, Lang};
use eos_playground::log::TopicPartition;
use eos_playground::scenario::{parse::parse, Replay};
use eos_playground::ui::components::log_table::{LogTable, LogTableProps};
use wasm_bindgen_test::*;
use yew::Callback;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

/// `latest_per_key.eos`' log after a pass that reaches every older record of k1 and
/// k2: the batch 0..1 is gone whole.
const SCRIPT: &str = "cluster brokers=1\n\
    topic create users partitions=1 cleanup.policy=compact segment.bytes=200\n\
    raw produce users-0 pid=7 seq=0 k1:a k2:b\n\
    raw produce users-0 pid=7 seq=2 k1:c k3:d\n\
    raw produce users-0 pid=7 seq=4 k2:e\n\
    raw produce users-0 pid=7 seq=5 k1:f\n\
    raw produce users-0 pid=7 seq=6 k4:g k4:h k4:i\n\
    clean users-0\n";

async fn gap_text(lang: Lang) -> String {
    set_ui_lang(lang);
    let mut replay = Replay::new(parse(SCRIPT).expect("parses"));
    replay.play_to(usize::MAX).expect("runs");
    let log = replay
        .world()
        .log_view(&TopicPartition::new("users", 0))
        .expect("the partition");
    let root = fresh_root();
    let props = LogTableProps {
        log,
        selected: None,
        mark: None,
        on_select: Callback::noop(),
    };
    yew::Renderer::<LogTable>::with_root_and_props(root.clone(), props).render();
    tick().await;
    let gaps = root
        .query_selector_all("[data-testid=log-gap]")
        .expect("selector");
    assert_eq!(gaps.length(), 1, "one row for the removed batch");
    text(&root, "log-gap")
}

#[wasm_bindgen_test]
async fn the_offsets_the_cleaner_removed_are_one_row() {
    // The catalogs the page would fetch, installed up front.
    assert!(install(Lang::Ko, include_str!("../src/i18n/catalog/ko.txt")).is_empty());
    assert!(install(Lang::Th, include_str!("../src/i18n/catalog/th.txt")).is_empty());
    let en = gap_text(Lang::En).await;
    let ko = gap_text(Lang::Ko).await;
    let th = gap_text(Lang::Th).await;
    // Back to English before asserting, so a failure here leaves the other tests alone.
    set_ui_lang(Lang::En);
    assert_eq!(en, "offsets 0–1 removed by the cleaner");
    assert_eq!(ko, "오프셋 0–1: 클리너가 지웠습니다");
    assert_eq!(th, "offset 0–1 ถูก cleaner ลบไปแล้ว");
}
