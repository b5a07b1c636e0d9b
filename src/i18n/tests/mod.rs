//! The catalog is complete: every label and every event, error and refusal has a
//! non-empty sentence in every language, with the same placeholders as English.

use super::labels::{text, Key};
use super::narration::{error_detail, narrate, sim_error};
use super::Lang;
use crate::sim::{Event, EventKind};

mod clients;
mod coordinator_events;
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

/// Every English message has a Korean and a Thai template with the same placeholders,
/// and no language has an id English lacks; Kafka's own exception messages (`kafka.*`)
/// stay English everywhere. Both files parse without an error.
#[test]
fn every_message_has_every_language_with_the_same_placeholders() {
    use super::catalog::{catalog, parse};
    for (lang, source) in [
        (Lang::Ko, include_str!("../catalog/ko.txt")),
        (Lang::Th, include_str!("../catalog/th.txt")),
    ] {
        let (_, errors) = parse(source);
        assert!(errors.is_empty(), "{lang:?}: {errors:?}");
        for feature in super::catalog::feature_sources(lang) {
            let (_, errors) = parse(feature);
            assert!(errors.is_empty(), "{lang:?}: {errors:?}");
        }
        let (en, other) = (catalog(Lang::En), catalog(lang));
        let mut missing = Vec::new();
        for id in en.ids() {
            if id.starts_with("kafka.") {
                assert!(
                    other.text(id).is_none(),
                    "{id} is Kafka's text: keep it out of {lang:?}"
                );
                continue;
            }
            match other.placeholders(id) {
                None => missing.push(id),
                Some(p) => assert_eq!(
                    p,
                    en.placeholders(id).unwrap(),
                    "{id} in {lang:?} must use the same placeholders as English"
                ),
            }
            if let Some(t) = other.text(id) {
                assert!(
                    !t.trim().is_empty() || en.text(id) == Some(""),
                    "{id} is empty in {lang:?}"
                );
            }
        }
        missing.sort_unstable();
        assert!(missing.is_empty(), "{lang:?} lacks {missing:?}");
        for id in other.ids() {
            assert!(
                en.text(id).is_some(),
                "{id} in {lang:?} is not an English id"
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

/// Every message an event, error or refusal maps to — and every message nested in it —
/// has an English template whose placeholders are exactly the arguments the code gives.
#[test]
fn every_message_gets_exactly_the_arguments_its_template_names() {
    use super::catalog::catalog;
    use super::narration::errors as error_msg;
    use super::narration::event_msg;
    use super::{Arg, Msg};
    fn check(m: &Msg, seen: &mut std::collections::BTreeSet<&'static str>) {
        seen.insert(m.id());
        let wanted = catalog(Lang::En)
            .placeholders(m.id())
            .unwrap_or_else(|| panic!("{} has no English template", m.id()));
        let mut given: Vec<&str> = m.args.iter().map(|(n, _)| *n).collect();
        given.sort_unstable();
        assert_eq!(given, wanted, "{}: arguments given vs placeholders", m.id());
        fn walk(a: &Arg, seen: &mut std::collections::BTreeSet<&'static str>) {
            match a {
                Arg::Text(_) => {}
                Arg::Msg(m) => check(m, seen),
                Arg::List(items) => items.iter().for_each(|i| walk(i, seen)),
            }
        }
        for (_, a) in &m.args {
            walk(a, seen);
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for kind in events::event_kinds() {
        check(&event_msg(&kind), &mut seen);
    }
    for d in errors::error_details() {
        check(&error_msg::detail(&d), &mut seen);
    }
    for e in errors::sim_errors() {
        check(&error_msg::sim_error(&e), &mut seen);
    }
    for e in errors::txn_call_errors() {
        check(&error_msg::txn_exception(&e), &mut seen);
    }
    assert!(
        seen.len() > 150,
        "the samples reach most messages: {}",
        seen.len()
    );
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

#[test]
fn an_out_of_order_verdict_is_worded_by_its_direction() {
    use super::labels::out_of_order_text;
    use crate::log::SeqDirection;
    let en = |d| text(out_of_order_text(d), Lang::En);
    assert!(en(Some(SeqDirection::Ahead)).contains("a gap"));
    assert!(!en(Some(SeqDirection::Ahead)).contains("stale"));
    assert!(en(Some(SeqDirection::Behind)).contains("a stale retry, not a gap"));
    assert!(en(None).contains("gap") && en(None).contains("stale retry"));
}

/// The catalog speaks to the learner: no "seed" (the project's source documents) in any
/// label, narration or error sentence; a learner cannot look those up.
#[test]
fn no_catalog_text_speaks_of_the_seed() {
    let mut texts: Vec<String> = Vec::new();
    for &lang in Lang::ALL {
        texts.extend(Key::ALL.iter().map(|&k| text(k, lang).to_string()));
        for (i, kind) in events::event_kinds().into_iter().enumerate() {
            let event = Event {
                seq: i as u64,
                at_ms: 0,
                kind,
            };
            texts.push(narrate(&event, lang));
        }
        texts.extend(
            errors::error_details()
                .iter()
                .map(|d| error_detail(d, lang)),
        );
        texts.extend(errors::sim_errors().iter().map(|e| sim_error(e, lang)));
    }
    for s in texts {
        assert!(!s.to_lowercase().contains("seed"), "mentions the seed: {s}");
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
        "broker 1: OUT_OF_ORDER_SEQUENCE_NUMBER for producer 0 on orders-0 — expected sequence 2, got 4..4. Ahead, so a gap: the batches in between never arrived; nothing is written"
    );
    assert_eq!(
        find("expected sequence 9"),
        "broker 1: OUT_OF_ORDER_SEQUENCE_NUMBER for producer 0 on orders-0 — expected sequence 9, got 4..4. Behind, so a stale retry, not a gap: the batch is older than the batches the partition remembers for the producer (the last 5 at most; after a clean restart only the last one, from the snapshot), so it is no longer recognised as a duplicate; nothing is written"
    );
    assert_eq!(
        find("Why smaller"),
        "broker 1: opened orders-0 (LEO 2): loaded snapshot 00000000000000000002.snapshot, then replayed 2 batch(es) after it; windows: 0 [0..1] (was 5 batch(es) before the stop). Why smaller: a producer snapshot keeps only each producer's last batch (as Kafka's ProducerStateManager writes it), and only the batches after it are replayed. Start-up skips re-reading the log and no producer is forgotten; a retry of the last batch is still a duplicate, but a retry of an older one is refused OUT_OF_ORDER_SEQUENCE_NUMBER (and an idempotent producer then bumps its epoch and writes it again). A crash leaves no snapshot at the log end, so the log is replayed and up to 5 batches come back"
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

/// The chaos page's words: every label, the progress line in each state and a
/// finding's lines are worded in every language, with their numbers filled in.
#[cfg(feature = "checker")]
#[test]
fn the_chaos_page_is_worded_in_every_language() {
    use super::checker::{
        chaos_finding, chaos_group, chaos_label, chaos_more_seeds, chaos_other_seeds,
        chaos_progress, explain, ChaosLabel,
    };
    for &lang in Lang::ALL {
        for &l in ChaosLabel::ALL {
            let s = chaos_label(l, lang);
            assert!(
                !s.trim().is_empty() && !s.contains("chaos.ui"),
                "{l:?} in {lang:?}: {s:?}"
            );
        }
        let mut states = std::collections::BTreeSet::new();
        for state in ["running", "stopped", "done"] {
            let s = chaos_progress(12, 100, 345, 2, state, lang);
            for n in ["12", "100", "345", "2"] {
                assert!(s.contains(n), "{s}");
            }
            states.insert(s);
        }
        assert_eq!(states.len(), 3, "each state has its own words in {lang:?}");
        let (head, shrunk) = chaos_finding(42, 23, 61, 9, 14, lang);
        assert!(head.contains("42") && head.contains("23"), "{head}");
        let group = chaos_group("duplicate", 170, lang);
        assert!(
            group.contains("duplicate") && group.contains("170"),
            "{group}"
        );
        assert!(chaos_other_seeds(169, lang).contains("169"));
        assert!(chaos_more_seeds(4321, lang).contains("4321"));
        assert!(
            shrunk.contains("61") && shrunk.contains('9') && shrunk.contains("14"),
            "{shrunk}"
        );
        assert!(explain("checker.duplicate", lang).len() > 10);
    }
}

/// Every Pulsar step refusal has its own words in every language (not English standing
/// in), with the arguments its English template names.
#[cfg(feature = "pulsar")]
#[test]
fn every_pulsar_refusal_is_worded_in_every_language() {
    use super::catalog::{catalog, render};
    use super::narration::pulsar_step_error_msg;
    let samples = errors::pulsar_step_errors();
    let mut ids = std::collections::BTreeSet::new();
    for e in &samples {
        let m = pulsar_step_error_msg(e);
        assert!(ids.insert(m.id()), "{e:?}: its own message");
        let mut given: Vec<&str> = m.args.iter().map(|(n, _)| *n).collect();
        given.sort_unstable();
        let wanted = catalog(Lang::En)
            .placeholders(m.id())
            .unwrap_or_else(|| panic!("{} has no English template", m.id()));
        assert_eq!(given, wanted, "{}: arguments given vs placeholders", m.id());
        let en = render(&m, Lang::En);
        for lang in [Lang::Ko, Lang::Th] {
            let s = render(&m, lang);
            assert!(s != en && !s.trim().is_empty(), "{e:?} in {lang:?}: {s:?}");
        }
    }
    assert_eq!(
        render(&pulsar_step_error_msg(&samples[4]), Lang::En),
        "no transaction t9 (open it with `pulsar txn new t9`)"
    );
}
