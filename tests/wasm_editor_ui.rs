#![cfg(target_arch = "wasm32")]
//! The lesson editor in a real browser: a mistake shows with its line (and its line
//! number marked) as it is typed and goes once fixed; the lesson plays in the lesson
//! player beside the text, and a step in the editor's list plays it up to that step.

use std::time::Duration;

use eos_playground::ui::editor::{Editor, EditorProps, TEMPLATE};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

fn mount_editor(text: &str) -> web_sys::Element {
    let root = fresh_root();
    yew::Renderer::<Editor>::with_root_and_props(
        root.clone(),
        EditorProps {
            text: Some(text.to_string()),
        },
    )
    .render();
    root
}

/// Types `text` over the editor's text, as an author's input event does.
async fn type_text(root: &web_sys::Element, text: &str) {
    let area: web_sys::HtmlTextAreaElement = by_testid(root, "editor-text")
        .dyn_into()
        .expect("a textarea");
    area.set_value(text);
    let input = web_sys::InputEvent::new("input").expect("an input event");
    area.dispatch_event(&input).expect("dispatched");
    tick().await;
}

/// Waits out the pause after typing until the player shows the replayed lesson (at most
/// 10 s: a debug build replays slowly).
async fn settle(root: &web_sys::Element) {
    yew::platform::time::sleep(Duration::from_millis(400)).await;
    for _ in 0..100 {
        tick().await;
        let listed = find(root, "editor-steps")
            .and_then(|l| l.query_selector("li").ok().flatten())
            .is_some();
        if listed && find(root, "lesson-progress").is_some() {
            return;
        }
        yew::platform::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The line number marked as wrong in the gutter, if any.
fn marked_line(root: &web_sys::Element) -> Option<String> {
    by_testid(root, "editor-gutter")
        .query_selector(".bad")
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .map(|t| t.trim().to_string())
}

#[wasm_bindgen_test]
async fn a_mistake_shows_with_its_line_as_it_is_typed_and_goes_once_fixed() {
    let root = mount_editor(TEMPLATE);
    tick().await;
    assert!(find(&root, "editor-error").is_none(), "the template parses");
    assert!(find(&root, "editor-status").is_some());
    assert_eq!(marked_line(&root), None);
    // A typo in the producer's line: the parser's line and column, at once.
    let line = TEMPLATE
        .lines()
        .position(|l| l.starts_with("producer p create"))
        .expect("the template creates a producer")
        + 1;
    let typo = TEMPLATE.replace("producer p create", "producer p craete");
    type_text(&root, &typo).await;
    let error = text(&root, "editor-error");
    assert!(
        error.starts_with(&format!("line {line}, column ")),
        "{error}"
    );
    assert_eq!(marked_line(&root), Some(line.to_string()));
    let area = by_testid(&root, "editor-text");
    assert_eq!(area.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(
        by_testid(&root, "editor-copy-link")
            .get_attribute("disabled")
            .is_some(),
        "no link of a lesson that does not parse"
    );
    // A lesson with no step at all is refused as the player refuses it.
    type_text(&root, "# only a comment\n").await;
    assert!(text(&root, "editor-error").contains("no steps"));
    // Fixed: the error goes, and the player plays the text.
    type_text(&root, TEMPLATE).await;
    assert!(find(&root, "editor-error").is_none());
    assert_eq!(marked_line(&root), None);
    settle(&root).await;
    assert!(text(&root, "lesson-progress").starts_with("Step 0 of"));
}

#[wasm_bindgen_test]
async fn a_step_of_the_list_plays_the_lesson_up_to_it() {
    let root = mount_editor(TEMPLATE);
    settle(&root).await;
    let steps = by_testid(&root, "editor-steps")
        .query_selector_all("li")
        .expect("a selector")
        .length();
    assert!(steps >= 2, "the template has {steps} player steps");
    let total = text(&root, "lesson-progress");
    assert!(total.ends_with(&format!(" {steps}")), "{total}");
    click(&root, &format!("editor-step-{steps}")).await;
    assert_eq!(
        text(&root, "lesson-progress"),
        format!("Step {steps} of {steps}")
    );
    assert_eq!(
        by_testid(&root, &format!("editor-step-{steps}"))
            .get_attribute("aria-current")
            .as_deref(),
        Some("step")
    );
    // The last step printed the batch the question asked about.
    assert!(text(&root, "lesson-output").contains("baseOffset: 0"));
    // Back to the first step: the player follows.
    click(&root, "editor-step-1").await;
    assert_eq!(text(&root, "lesson-progress"), format!("Step 1 of {steps}"));
    // An edit keeps the author's place: the lesson replays to the same step.
    click(&root, &format!("editor-step-{steps}")).await;
    assert!(text(&root, "lesson-output").contains("producerId: 0"));
    let edited = TEMPLATE.replace(",producerId\n", "\n");
    assert_ne!(edited, TEMPLATE);
    type_text(&root, &edited).await;
    for _ in 0..100 {
        yew::platform::time::sleep(Duration::from_millis(100)).await;
        if !text(&root, "lesson-output").contains("producerId") {
            break;
        }
    }
    assert_eq!(
        text(&root, "lesson-output").trim(),
        "baseOffset: 0 lastOffset: 0",
        "the edited lesson replayed"
    );
    assert_eq!(
        text(&root, "lesson-progress"),
        format!("Step {steps} of {steps}")
    );
}
