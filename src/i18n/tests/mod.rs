//! The catalog is complete: every label and every event, error and refusal has a
//! non-empty sentence in every language, with the same placeholders as English.

use super::labels::{text, Key};
use super::narration::{error_detail, narrate, sim_error};
use super::Lang;
use crate::sim::{Event, EventKind};

mod clients;
mod errors;
mod events;

/// The `{0}`, `{1}`, … a template uses, sorted.
fn placeholders(s: &str) -> Vec<usize> {
    (0..10)
        .filter(|i| s.contains(&format!("{{{i}}}")))
        .collect()
}

#[test]
fn every_key_has_a_text_in_every_language() {
    assert!(Key::ALL.len() > 250, "Key::ALL lists every key");
    for &lang in Lang::ALL {
        for &key in Key::ALL {
            let s = text(key, lang);
            assert!(!s.trim().is_empty(), "{key:?} is empty in {lang:?}");
            assert_eq!(
                placeholders(s),
                placeholders(text(key, Lang::En)),
                "{key:?} in {lang:?} must use the same placeholders as English"
            );
        }
    }
}

#[test]
fn every_event_variant_narrates_in_every_language() {
    let kinds = events::event_kinds();
    for &lang in Lang::ALL {
        for (i, kind) in kinds.iter().enumerate() {
            let event = Event {
                seq: i as u64,
                at_ms: 0,
                kind: kind.clone(),
            };
            let s = narrate(&event, lang);
            assert!(s.trim().len() > 3, "{kind:?} narrates to {s:?} in {lang:?}");
        }
    }
}

#[test]
fn every_error_detail_and_refusal_is_worded_in_every_language() {
    for &lang in Lang::ALL {
        for d in errors::error_details() {
            assert!(!error_detail(&d, lang).trim().is_empty(), "{d:?}");
        }
        for e in errors::sim_errors() {
            assert!(!sim_error(&e, lang).trim().is_empty(), "{e:?}");
        }
    }
}

/// Today's English, kept: a few sentences pinned word for word (the golden lesson
/// transcripts pin the rest).
#[test]
fn english_text_is_kept() {
    let en = |kind: EventKind| {
        narrate(
            &Event {
                seq: 0,
                at_ms: 0,
                kind,
            },
            Lang::En,
        )
    };
    let kinds = events::event_kinds();
    let find = |needle: &str| {
        kinds
            .iter()
            .map(|k| en(k.clone()))
            .find(|s| s.contains(needle))
            .unwrap_or_else(|| panic!("no sample narrates {needle:?}"))
    };
    assert_eq!(
        find("Fault armed: drop the next response to"),
        "Fault armed: drop the next response to producer-1"
    );
    assert_eq!(
        find("OUT_OF_ORDER_SEQUENCE_NUMBER for producer"),
        "broker 1: OUT_OF_ORDER_SEQUENCE_NUMBER for producer 0 on orders-0 — expected sequence 2, got 4..4. A gap means a write went missing; nothing is written"
    );
    assert_eq!(
        find("MESSAGE_TOO_LARGE"),
        "broker 1: MESSAGE_TOO_LARGE on orders-0: The batch is 2000 bytes, larger than max.message.bytes (1000)"
    );
    assert_eq!(
        find("position set"),
        "consumer-1: orders-0: position set to 0 (auto.offset.reset=earliest: the log start offset)"
    );
    let errors: Vec<String> = errors::sim_errors().iter().map(|e| e.to_string()).collect();
    assert!(errors.contains(&"UNKNOWN_TOPIC_OR_PARTITION: orders-9 does not exist".to_string()));
    assert!(errors.contains(
        &"INVALID_CONFIG: Invalid value 2 for configuration acks: String must be one of: all, -1, 0, 1"
            .to_string()
    ));
}
