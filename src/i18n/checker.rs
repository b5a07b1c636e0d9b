//! The checker's words: what each anomaly means, one line per violation with its
//! witness, and the NOT KAFKA break switches. The anomaly names themselves
//! (`lost-write`, `G1a`, …) are identifiers, as Jepsen prints them, never translated;
//! so are the witness's `key=value` fields (partitions, clients, offsets, numbers).
//! The switches' words are used by every build; the rest only with the checker
//! (feature `checker`). The checker imports this module, never the other way: it
//! passes plain values (the anomaly's name and message id, the witness, the step).

use super::catalog::render;
use super::message::Msg;
use super::Lang;
use crate::breaks::{BreakNameError, BreakSwitch};
use crate::msg;

#[cfg(feature = "checker")]
/// What an anomaly is, in one sentence: the catalog message `Anomaly::explain_id` names.
pub fn explain(explain_id: &'static str, lang: Lang) -> String {
    render(&Msg::new(explain_id), lang)
}

#[cfg(feature = "checker")]
/// One line: the anomaly's name, its witness (`Violation::witness`), and the step that
/// shows it.
pub fn line(anomaly: &str, witness: &str, step: usize, lang: Lang) -> String {
    render(
        &msg!(
            "checker.violation",
            anomaly = anomaly,
            witness = witness,
            step = step
        ),
        lang,
    )
}

#[cfg(feature = "checker")]
/// One line for a finding Kafka allows after an unclean election: the same fields as
/// [`line`], marked as expected in the words of its category: a truncated record, or
/// a transaction the truncation opened again (`reopened`).
pub fn expected_line(
    reopened: bool,
    anomaly: &str,
    witness: &str,
    step: usize,
    lang: Lang,
) -> String {
    let m = if reopened {
        msg!(
            "checker.expected-unclean-marker",
            anomaly = anomaly,
            witness = witness,
            step = step
        )
    } else {
        msg!(
            "checker.expected-unclean",
            anomaly = anomaly,
            witness = witness,
            step = step
        )
    };
    render(&m, lang)
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

/// Why a switch name was refused (`break NAME`, `eos chaos --break NAME`).
pub fn break_name_error(e: BreakNameError, name: &str, lang: Lang) -> String {
    render(&break_name_msg(e, name), lang)
}

/// [`break_name_error`] not yet in a language (a refused scenario line carries it).
pub fn break_name_msg(e: BreakNameError, name: &str) -> Msg {
    match e {
        BreakNameError::Unknown => msg!(
            "break.name-unknown",
            name = name,
            names = "dedup, dedup=N, fencing, lso, aborted, markers, epoch-bump, \
                     init-fencing, in-flight=N, snapshots, early-markers"
        ),
        BreakNameError::DedupWindow => msg!("break.name-dedup", name = name),
        BreakNameError::InFlight => msg!("break.name-in-flight", name = name),
    }
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

/// A fixed word of the chaos page (`chaos.ui.*`; `www/chaos.html`, `crate::ui::chaos`).
#[cfg(feature = "checker")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChaosLabel {
    Title,
    Intro,
    BackToPlayground,
    SwitchesHeading,
    SwitchesHint,
    NotKafka,
    AllOff,
    RunHeading,
    FirstSeed,
    Runs,
    Steps,
    Start,
    Stop,
    Idle,
    Loading,
    BadInput,
    WorkerFailed,
    FoundHeading,
    NoneYet,
    Replay,
    NoLink,
    Scenario,
}

#[cfg(feature = "checker")]
impl ChaosLabel {
    /// Every label (for the catalog's completeness tests).
    pub const ALL: &'static [ChaosLabel] = &[
        ChaosLabel::Title,
        ChaosLabel::Intro,
        ChaosLabel::BackToPlayground,
        ChaosLabel::SwitchesHeading,
        ChaosLabel::SwitchesHint,
        ChaosLabel::NotKafka,
        ChaosLabel::AllOff,
        ChaosLabel::RunHeading,
        ChaosLabel::FirstSeed,
        ChaosLabel::Runs,
        ChaosLabel::Steps,
        ChaosLabel::Start,
        ChaosLabel::Stop,
        ChaosLabel::Idle,
        ChaosLabel::Loading,
        ChaosLabel::BadInput,
        ChaosLabel::WorkerFailed,
        ChaosLabel::FoundHeading,
        ChaosLabel::NoneYet,
        ChaosLabel::Replay,
        ChaosLabel::NoLink,
        ChaosLabel::Scenario,
    ];
}

#[cfg(feature = "checker")]
fn chaos_msg(l: ChaosLabel) -> Msg {
    use ChaosLabel as L;
    Msg::new(match l {
        L::Title => "chaos.ui.title",
        L::Intro => "chaos.ui.intro",
        L::BackToPlayground => "chaos.ui.back",
        L::SwitchesHeading => "chaos.ui.switches",
        L::SwitchesHint => "chaos.ui.switches-hint",
        L::NotKafka => "chaos.ui.not-kafka",
        L::AllOff => "chaos.ui.all-off",
        L::RunHeading => "chaos.ui.run",
        L::FirstSeed => "chaos.ui.first-seed",
        L::Runs => "chaos.ui.runs",
        L::Steps => "chaos.ui.steps",
        L::Start => "chaos.ui.start",
        L::Stop => "chaos.ui.stop",
        L::Idle => "chaos.ui.idle",
        L::Loading => "chaos.ui.loading",
        L::BadInput => "chaos.ui.bad-input",
        L::WorkerFailed => "chaos.ui.worker-failed",
        L::FoundHeading => "chaos.ui.found",
        L::NoneYet => "chaos.ui.none-yet",
        L::Replay => "chaos.ui.replay",
        L::NoLink => "chaos.ui.no-link",
        L::Scenario => "chaos.ui.scenario",
    })
}

#[cfg(feature = "checker")]
/// A fixed word of the chaos page, in `lang`.
pub fn chaos_label(l: ChaosLabel, lang: Lang) -> String {
    render(&chaos_msg(l), lang)
}

#[cfg(feature = "checker")]
/// The progress line: schedules done of all, the rate (schedules per second, measured
/// by the page), counterexamples so far, and whether the run is still going.
pub fn chaos_progress(
    done: u64,
    total: u64,
    per_second: u64,
    found: u64,
    state: &str,
    lang: Lang,
) -> String {
    render(
        &msg!(
            "chaos.ui.progress",
            done = done,
            total = total,
            rate = per_second,
            found = found,
            state = state
        ),
        lang,
    )
}

#[cfg(feature = "checker")]
/// An anomaly's entry on the chaos page: its name and how many seeds showed it.
pub fn chaos_group(anomaly: &str, count: usize, lang: Lang) -> String {
    render(
        &msg!("chaos.ui.group", anomaly = anomaly, count = count),
        lang,
    )
}

#[cfg(feature = "checker")]
/// The heading of the other seeds that showed the same anomaly (`count` of them).
pub fn chaos_other_seeds(count: usize, lang: Lang) -> String {
    render(&msg!("chaos.ui.other-seeds", count = count), lang)
}

#[cfg(feature = "checker")]
/// After a list of seeds cut short: how many were left out.
pub fn chaos_more_seeds(count: usize, lang: Lang) -> String {
    render(&msg!("chaos.ui.more-seeds", count = count), lang)
}

#[cfg(feature = "checker")]
/// The shortest counterexample of an anomaly: its seed and how many scenario steps its
/// replay has; and how it was shrunk.
pub fn chaos_finding(
    seed: u64,
    steps: usize,
    before: usize,
    after: usize,
    step: usize,
    lang: Lang,
) -> (String, String) {
    (
        render(&msg!("chaos.ui.shortest", seed = seed, steps = steps), lang),
        render(
            &msg!(
                "chaos.ui.shrunk",
                before = before,
                after = after,
                step = step
            ),
            lang,
        ),
    )
}

#[cfg(feature = "checker")]
/// The heading of a chaos finding's replay's last step, its `check`
/// (`crate::checker::replay`).
pub fn replay_title(anomaly: &str, lang: Lang) -> String {
    render(&msg!("chaos.replay.title", anomaly = anomaly), lang)
}

#[cfg(feature = "checker")]
/// The narration of that step: what `check` prints, which line to read, what the
/// witness names, and the step to go back to.
pub fn replay_narration(
    anomaly: &str,
    explain_id: &'static str,
    witness: &str,
    step: usize,
    lang: Lang,
) -> String {
    render(
        &msg!(
            "chaos.replay.narration",
            anomaly = anomaly,
            explain = Msg::new(explain_id),
            witness = witness,
            step = step
        ),
        lang,
    )
}
