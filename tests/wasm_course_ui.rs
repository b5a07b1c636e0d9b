#![cfg(target_arch = "wasm32")]
//! The course in a real browser: the first page lists every lesson in course order,
//! Start opens lesson 1, a question answered shows whether it was right, and the
//! learner's progress is kept in the browser's storage.

use eos_playground::ui::state::Page;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

fn all(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).expect("a selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        .collect()
}

#[wasm_bindgen_test]
async fn the_course_leads_into_lesson_one_and_its_questions() {
    let root = mount_app(Page::Idempotence);
    tick().await;
    let names: Vec<String> = all(&root, "[data-course] [data-lesson]")
        .iter()
        .filter_map(|e| e.get_attribute("data-lesson"))
        .collect();
    let course: Vec<String> = eos_playground::scenario::course::course_lessons()
        .map(|l| l.name.to_string())
        .collect();
    assert_eq!(names, course);
    click(&root, "course-start").await;
    tick().await;
    assert!(text(&root, "lesson-progress").starts_with("Step 0 of"));
    // Next until the lesson asks something.
    for _ in 0..20 {
        if !all(&root, "fieldset[data-question]").is_empty() {
            break;
        }
        click(&root, "lesson-next").await;
    }
    let question = all(&root, "fieldset[data-question]").remove(0);
    assert!(question.query_selector("legend").expect("ok").is_some());
    assert!(
        question
            .query_selector("[data-feedback]")
            .expect("ok")
            .is_none(),
        "no feedback before an answer"
    );
    let radios = all(&question, "input[type=radio]");
    assert!((2..=4).contains(&radios.len()));
    press(radios[0].clone()).await;
    let question = all(&root, "fieldset[data-question]").remove(0);
    let feedback = question
        .query_selector("[data-feedback]")
        .expect("ok")
        .expect("feedback after an answer");
    let correct = feedback
        .get_attribute("data-correct")
        .expect("data-correct");
    assert!(correct == "true" || correct == "false");
    // Kept in the browser: the lesson is started.
    let storage = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"localStorage".into()).ok())
        .expect("storage");
    let get: js_sys::Function = js_sys::Reflect::get(&storage, &"getItem".into())
        .expect("getItem")
        .into();
    let progress = get
        .call1(&storage, &"eos-playground.progress".into())
        .expect("read")
        .as_string()
        .unwrap_or_default();
    assert!(progress.contains("idempotence:started"), "{progress}");
}
