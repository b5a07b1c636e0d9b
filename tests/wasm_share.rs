#![cfg(target_arch = "wasm32")]
//! The share-link codec in the browser, including hostile links (huge, malformed,
//! truncated, from an unknown version).

use eos_playground::scenario::share::{decode, encode, LinkError, SharedState, MAX_LINK_CHARS};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The transactions lesson in English without its questions: an author's scenario of a
/// lesson's size (the built-in lesson itself, in three languages, is named by a link,
/// not carried).
fn state() -> SharedState {
    let source = eos_playground::scenario::lesson("transactions")
        .unwrap()
        .source;
    let english: Vec<&str> = source
        .lines()
        .filter(|l| !l.starts_with('?') && !l.contains("[ko]") && !l.contains("[th]"))
        .collect();
    SharedState {
        scenario: english.join("\n"),
        step: 12,
        page: "transactions".into(),
        panel: None,
        lang: None,
        lesson: None,
    }
}

#[wasm_bindgen_test]
fn a_link_round_trips_in_wasm() {
    let s = state();
    assert_eq!(decode(&encode(&s).unwrap()).unwrap(), s);
}

#[wasm_bindgen_test]
fn hostile_links_are_refused_in_wasm() {
    let link = encode(&state()).unwrap();
    assert!(matches!(
        decode(&"x".repeat(MAX_LINK_CHARS + 1)),
        Err(LinkError::TooLong { .. })
    ));
    assert!(matches!(decode("1.%%%"), Err(LinkError::Malformed(_))));
    assert!(matches!(
        decode(&link.replacen("1.", "9.", 1)),
        Err(LinkError::UnknownVersion(_))
    ));
    assert!(decode(&link[..link.len() - 7]).is_err());
    // Every error explains itself in words.
    let message = decode("4.abc").unwrap_err().to_string();
    assert!(message.contains("another version"), "{message}");
}

/// A link that unpacks to `fault disarm` nested 14,400 deep (a 15,000-character link can
/// hold that many) is refused with a clear error in the browser, whose stack is smaller
/// than a native thread's: the page shows what is wrong instead of dying.
#[wasm_bindgen_test]
fn a_deeply_nested_link_is_refused_not_a_dead_page() {
    let deep = SharedState {
        scenario: format!("fault {}drop api=Produce every\n", "disarm ".repeat(14_400)),
        step: 1,
        page: "transactions".into(),
        panel: None,
        lang: None,
        lesson: None,
    };
    let link = encode(&deep).expect("it packs small: the text repeats");
    assert!(link.len() <= MAX_LINK_CHARS, "{}", link.len());
    match decode(&link) {
        Err(LinkError::BadScenario(e)) => {
            assert!(e.message().contains("expected an armed fault"), "{e}")
        }
        other => panic!("expected a refused scenario, got {other:?}"),
    }
}
