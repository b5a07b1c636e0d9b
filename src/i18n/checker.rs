//! The checker's words: what each anomaly means, one line per violation with its
//! witness. The anomaly names themselves (`lost-write`, `G1a`, …) are identifiers, as
//! Jepsen prints them, and are never translated.

use super::Lang;
use crate::breaks::BreakSwitch;
use crate::checker::{Anomaly, Violation};

/// What the anomaly is, in one sentence.
pub fn explain(anomaly: Anomaly, lang: Lang) -> &'static str {
    match lang {
        Lang::En => en_explain(anomaly),
    }
}

fn en_explain(anomaly: Anomaly) -> &'static str {
    match anomaly {
        Anomaly::LostWrite => {
            "an acknowledged, committed record was never read, although reads went past its offset"
        }
        Anomaly::Duplicate => "one sent value sits at more offsets than it was sent",
        Anomaly::InconsistentOffsets => "one offset holds two different values",
        Anomaly::G1a => "read_committed returned a record of an aborted transaction",
        Anomaly::PrecommittedRead => {
            "read_committed returned a record before its transaction committed (past the LSO)"
        }
        Anomaly::NonmonotonicPoll => {
            "a consumer's next poll went back to or before where its last poll ended"
        }
        Anomaly::IntNonmonotonicPoll => "inside one poll, the offsets went backwards",
        Anomaly::PollSkip => {
            "between two polls, a consumer jumped over records it should have read"
        }
        Anomaly::IntPollSkip => {
            "inside one poll, records the consumer should have read were skipped"
        }
        Anomaly::NonmonotonicSend => {
            "an idempotent producer's acknowledged sends went backwards in the log"
        }
        Anomaly::Unseen => "acknowledged and committed, but no consumer ever read it",
        Anomaly::OffsetOrder => "a replica broke log start ≤ LSO ≤ high watermark ≤ log end offset",
        Anomaly::HighWatermarkBackwards => "a leader's high watermark moved backwards",
        Anomaly::WindowTooLarge => "a producer's dedup window holds more than 5 batches",
        Anomaly::FencedWrite => {
            "a batch from an older producer epoch was written after a newer epoch (a zombie write)"
        }
        Anomaly::MissingMarker => {
            "the coordinator completed a transaction that a partition still holds open (no marker)"
        }
        Anomaly::ExtraMarker => "a second marker was written for the same transaction",
        Anomaly::HangingTransaction => {
            "a transaction stayed open past transaction.timeout.ms plus the cleanup interval"
        }
        Anomaly::EndToEndExactlyOnce => {
            "consume-transform-produce did not commit every input exactly once"
        }
    }
}

/// One line: the name, where, the witness, and the step that shows it.
pub fn line(v: &Violation, lang: Lang) -> String {
    match lang {
        Lang::En => en_line(v),
    }
}

fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn en_line(v: &Violation) -> String {
    let mut parts = vec![v.anomaly.name().to_string()];
    if let Some(tp) = &v.tp {
        parts.push(tp.to_string());
    }
    if let Some(who) = &v.who {
        parts.push(who.clone());
    }
    if !v.values.is_empty() {
        parts.push(format!("values={}", join(&v.values)));
    }
    if !v.offsets.is_empty() {
        parts.push(format!("offsets={}", join(&v.offsets)));
    }
    for (name, n) in &v.numbers {
        parts.push(format!("{name}={n}"));
    }
    if !v.events.is_empty() {
        parts.push(format!("events={}", join(&v.events)));
    }
    parts.push(format!("step={}", v.step));
    parts.join(" ")
}

/// What a `check` prints when nothing was found.
pub fn no_violations(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "no violations",
    }
}

/// What a switch breaks, one line (for `eos chaos --switches` and the red badge).
pub fn switch_text(switch: BreakSwitch, lang: Lang) -> String {
    match lang {
        Lang::En => match switch {
            BreakSwitch::Dedup(0) => {
                "NOT KAFKA: the broker never looks for duplicates; a retried batch is written again"
                    .into()
            }
            BreakSwitch::Dedup(n) => format!(
                "NOT KAFKA: the dedup window remembers {n} batch(es), not 5; an older retry is written again"
            ),
            BreakSwitch::Fencing => {
                "NOT KAFKA: a batch from an older producer epoch is written (zombies are not fenced)"
                    .into()
            }
            BreakSwitch::Lso => {
                "NOT KAFKA: read_committed reads up to the high watermark, not the LSO".into()
            }
            BreakSwitch::Aborted => "NOT KAFKA: the consumer keeps records of aborted transactions".into(),
            BreakSwitch::Markers => {
                "NOT KAFKA: partition leaders acknowledge transaction markers without writing them"
                    .into()
            }
        },
    }
}

/// The narration of a switch turned on or off.
pub fn break_switched(switch: BreakSwitch, on: bool, lang: Lang) -> String {
    match lang {
        Lang::En if on => format!(
            "break {} is on — {}",
            switch.name(),
            switch_text(switch, lang)
        ),
        Lang::En => format!("break {} is off: Kafka's safeguard is back", switch.name()),
    }
}
