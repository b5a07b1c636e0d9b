//! The checker's words: what each anomaly means, one line per violation with its
//! witness, and the NOT KAFKA break switches. The anomaly names themselves
//! (`lost-write`, `G1a`, …) are identifiers, as Jepsen prints them, never translated;
//! so are the witness's `key=value` fields (partitions, clients, offsets, numbers).
//! The switches' words are used by every build; the rest only with the checker
//! (feature `checker`).

use super::catalog::render;
use super::message::Msg;
use super::Lang;
use crate::breaks::BreakSwitch;
#[cfg(feature = "checker")]
use crate::checker::{Anomaly, Violation};
use crate::msg;

#[cfg(feature = "checker")]
fn explain_msg(anomaly: Anomaly) -> Msg {
    Msg::new(match anomaly {
        Anomaly::LostWrite => "checker.lost-write",
        Anomaly::Duplicate => "checker.duplicate",
        Anomaly::InconsistentOffsets => "checker.inconsistent-offsets",
        Anomaly::G1a => "checker.g1a",
        Anomaly::PrecommittedRead => "checker.precommitted-read",
        Anomaly::NonmonotonicPoll => "checker.nonmonotonic-poll",
        Anomaly::IntNonmonotonicPoll => "checker.int-nonmonotonic-poll",
        Anomaly::PollSkip => "checker.poll-skip",
        Anomaly::IntPollSkip => "checker.int-poll-skip",
        Anomaly::NonmonotonicSend => "checker.nonmonotonic-send",
        Anomaly::Unseen => "checker.unseen",
        Anomaly::OffsetOrder => "checker.offset-order",
        Anomaly::HighWatermarkBackwards => "checker.hw-backwards",
        Anomaly::WindowTooLarge => "checker.window-too-large",
        Anomaly::FencedWrite => "checker.fenced-write",
        Anomaly::MissingMarker => "checker.missing-marker",
        Anomaly::ExtraMarker => "checker.extra-marker",
        Anomaly::HangingTransaction => "checker.hanging-transaction",
        Anomaly::MixedOutcome => "checker.mixed-outcome",
        Anomaly::RetryOutOfWindow => "checker.retry-out-of-window",
        Anomaly::MarkerBeforePrepare => "checker.marker-before-prepare",
        Anomaly::CtpExactlyOnce => "checker.ctp-exactly-once",
    })
}

#[cfg(feature = "checker")]
/// What the anomaly is, in one sentence.
pub fn explain(anomaly: Anomaly, lang: Lang) -> String {
    render(&explain_msg(anomaly), lang)
}

#[cfg(feature = "checker")]
fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(feature = "checker")]
/// The witness as `key=value` fields: identifiers and numbers only.
fn witness(v: &Violation) -> String {
    let mut parts = Vec::new();
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
    parts.join(" ")
}

#[cfg(feature = "checker")]
/// One line: the name, the witness, and the step that shows it.
pub fn line(v: &Violation, lang: Lang) -> String {
    render(
        &msg!(
            "checker.violation",
            anomaly = v.anomaly.name(),
            witness = witness(v),
            step = v.step
        ),
        lang,
    )
}

#[cfg(feature = "checker")]
/// What a `check` prints when nothing was found.
pub fn no_violations(lang: Lang) -> String {
    render(&Msg::new("checker.none"), lang)
}

fn switch_msg(switch: BreakSwitch) -> Msg {
    match switch {
        BreakSwitch::Dedup(0) => Msg::new("break.dedup-off"),
        BreakSwitch::Dedup(n) => msg!("break.dedup-window", n = n),
        BreakSwitch::Fencing => Msg::new("break.fencing"),
        BreakSwitch::Lso => Msg::new("break.lso"),
        BreakSwitch::Aborted => Msg::new("break.aborted"),
        BreakSwitch::Markers => Msg::new("break.markers"),
        BreakSwitch::EpochBump => Msg::new("break.epoch-bump"),
        BreakSwitch::InitFencing => Msg::new("break.init-fencing"),
        BreakSwitch::InFlight(n) => msg!("break.in-flight", n = n),
        BreakSwitch::Snapshots => Msg::new("break.snapshots"),
        BreakSwitch::EarlyMarkers => Msg::new("break.early-markers"),
    }
}

/// What a switch breaks, one line (for `eos chaos --switches` and the red badge).
pub fn switch_text(switch: BreakSwitch, lang: Lang) -> String {
    render(&switch_msg(switch), lang)
}

/// The narration of a switch turned on or off.
pub fn break_switched(switch: BreakSwitch, on: bool) -> Msg {
    if on {
        msg!(
            "break.switched-on",
            name = switch.name(),
            what = switch_msg(switch)
        )
    } else {
        msg!("break.switched-off", name = switch.name())
    }
}
