//! A violation's replay link: the scenario that shows it, opened at the step where it
//! became visible (share-link text from `crate::scenario::share`).

use super::Violation;
use crate::scenario::share::{encode, LinkError, SharedState};

/// The page a replay link opens.
pub const CHECKER_PAGE: &str = "transactions";

/// A link fragment that replays `scenario` up to the step that showed `violation`.
pub fn replay_link(scenario: &str, violation: &Violation) -> Result<String, LinkError> {
    encode(&SharedState {
        scenario: scenario.to_string(),
        step: violation.step,
        page: CHECKER_PAGE.into(),
        // The page's lesson player plays it (as `eos link --make` does).
        panel: Some("lesson".into()),
        lang: None,
        lesson: None,
    })
}

/// The scenario text up to (and including) the step that showed the violation: its
/// first `violation.step` steps, each a line of `scenario` (comments and blank lines
/// kept in place).
pub fn replay_prefix(scenario: &str, violation: &Violation) -> String {
    let mut steps = 0;
    let mut out = String::new();
    for line in scenario.lines() {
        let t = line.trim();
        let is_step = !(t.is_empty() || t.starts_with('#') || t.starts_with('>'));
        if is_step {
            if steps == violation.step {
                break;
            }
            steps += 1;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
