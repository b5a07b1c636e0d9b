//! A finding's replay: its shrunk scenario, ended by a narrated `check` that prints the
//! checker's verdict, as a scenario file and as a link that opens it in the
//! playground's lesson player on that last step. `eos chaos` prints both and the chaos
//! page links to it, so the two always agree.
//!
//! The last step has a `## ` title and `>` narration in every catalog language (the
//! lesson format's `## [ko] …` and `> [th] …` lines), worded from the catalog
//! (`chaos.replay.*`, with the anomaly's explanation): what `check` prints, which line
//! to read, what its witness names, and the step to go back to. Under the `check`, a
//! `---` block records what it printed (the inline expected output of
//! `crate::scenario::golden`), as under any other step that prints (a send that
//! failed for good, say), so the file is also a test that `eos test` passes. The sites
//! are built without the checker: there the `check` prints its block; here, and in
//! `eos test`, the checker runs again and the block is what it must print.
//!
//! The schedule is played here as [`super::chaos::run`] plays it, printing what the
//! scenario runner prints (`crate::scenario::run`; a test holds the two together): the
//! chaos page's worker then needs neither the scenario parser nor the runner's views.

use super::chaos::Schedule;
use super::witness::replay_link;
use super::{Checker, Violation};
use crate::i18n::checker::{no_violations, replay_narration, replay_title};
use crate::i18n::narration::transcript_notice;
use crate::i18n::Lang;
use crate::scenario::golden::{encode, BLOCK_START};
use crate::scenario::{print_step, step_for_action, StepKind};
use crate::sim::World;

/// A finding's replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The scenario file: the shrunk scenario (what its steps print in `---` blocks
    /// under them), then the narrated `check` and its block.
    pub scenario: String,
    /// How many steps it has (the `check` is the last one).
    pub steps: usize,
    /// What its `check` prints (the block under it).
    pub verdict: Vec<String>,
    /// The share-link fragment (without `#`) that opens it on its last step; empty when
    /// it is too long for a link.
    pub link: String,
}

/// The steps of a scenario text: its lines that are neither blank, comments,
/// narration nor questions (expected-output blocks aside: a shrunk scenario has none).
pub fn count_steps(scenario: &str) -> usize {
    scenario
        .lines()
        .map(str::trim)
        .filter(|t| !(t.is_empty() || t.starts_with('#') || t.starts_with('>')))
        .filter(|t| !t.starts_with('?'))
        .count()
}

/// The replay of `violation`, found by running `schedule` (a shrunk one).
pub fn replay(schedule: &Schedule, violation: &Violation) -> Replay {
    let (printed, verdict) = play(schedule);
    let mut lines: Vec<String> = Vec::new();
    lines.extend(print_step(&StepKind::Cluster(schedule.cluster.clone())));
    for (action, out) in schedule.actions().into_iter().zip(&printed) {
        lines.extend(print_step(&step_for_action(action)));
        if !out.is_empty() {
            lines.push(BLOCK_START.to_string());
            lines.extend(encode(out));
            // A blank line ends the block.
            lines.push(String::new());
        }
    }
    let steps = 2 + printed.len();
    lines.push(String::new());
    for lang in Lang::ALL {
        let title = replay_title(violation.anomaly.name(), *lang);
        lines.push(match lang {
            Lang::En => format!("## {title}"),
            other => format!("## [{}] {title}", other.code()),
        });
    }
    for (i, lang) in Lang::ALL.iter().enumerate() {
        if i > 0 {
            // A bare `>` starts the next language's paragraph.
            lines.push(">".into());
        }
        let words = replay_narration(
            violation.anomaly.name(),
            violation.anomaly.explain_id(),
            &violation.witness(),
            violation.step,
            *lang,
        );
        lines.push(match lang {
            Lang::En => format!("> {words}"),
            other => format!("> [{}] {words}", other.code()),
        });
    }
    lines.push("check".into());
    lines.push(BLOCK_START.into());
    lines.extend(encode(&verdict));
    let mut scenario = lines.join("\n");
    scenario.push('\n');
    let at_end = Violation {
        step: steps,
        ..violation.clone()
    };
    Replay {
        // A scenario too long for a link still lists; its link is empty.
        link: replay_link(&scenario, &at_end).unwrap_or_default(),
        scenario,
        steps,
        verdict,
    }
}

/// Plays the schedule with the checker as a scenario that ends on `check`: what each
/// action prints (as the scenario runner prints it: the world's lines, then a notice for
/// a send that failed for good or a run cut short; a refused action prints its error
/// and changes nothing), and what the `check` prints — every violation, those only the
/// end of a run finds too, or `no violations`.
fn play(schedule: &Schedule) -> (Vec<Vec<String>>, Vec<String>) {
    let mut world = World::new(schedule.cluster.clone());
    let mut checker = Checker::new();
    let mut printed = Vec::new();
    // Steps played, the `cluster` line first (as `chaos::run` and the runner count).
    let mut step = 1;
    for action in schedule.actions() {
        let before = world.events().len();
        let out = match world.apply(&action) {
            Ok(mut lines) => {
                lines.extend(
                    world.events()[before..]
                        .iter()
                        .filter_map(|e| transcript_notice(e, Lang::En)),
                );
                lines
            }
            Err(e) => vec![format!("error: {e}")],
        };
        step += 1;
        checker.observe(&world, step);
        printed.push(out.iter().map(|l| l.trim_end().to_string()).collect());
    }
    checker.finish(&world, step);
    let verdict = match checker.violations() {
        [] => vec![no_violations(Lang::En)],
        found => found.iter().map(|v| v.line(Lang::En)).collect(),
    };
    (printed, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breaks::BreakSwitch;
    use crate::checker::chaos::check_seed;
    use crate::scenario::{parse, share};

    #[test]
    fn steps_are_lines_that_are_not_comments_narration_or_blank() {
        assert_eq!(count_steps(""), 0);
        assert_eq!(
            count_steps("# a comment\ncluster brokers=1\n\n## Title\n> words\n>\n  check\n"),
            2
        );
    }

    #[test]
    fn a_replay_ends_on_a_narrated_check_that_prints_the_anomaly() {
        // Seed 2 of 20 steps with `dedup=1` shows a duplicate (as the chaos page's e2e
        // test and tests/checker.rs find it).
        let finding = check_seed(2, 20, &[BreakSwitch::Dedup(1)]).expect("a finding");
        let shrunk = finding.shrunk.scenario_text();
        let r = replay(&finding.shrunk, &finding.violation);
        assert!(r.scenario.starts_with(&shrunk), "{}", r.scenario);
        assert_eq!(r.steps, count_steps(&shrunk) + 1);
        let parsed = parse(&r.scenario).expect("it parses");
        assert_eq!(parsed.steps.len(), r.steps);
        let last = parsed.steps.last().expect("a last step");
        assert_eq!(last.text, "check");
        for lang in Lang::ALL {
            assert_eq!(last.missing_in(*lang), Vec::<&str>::new(), "{lang:?}");
            let title = last.title_in(*lang).expect("a title");
            assert!(title.contains("duplicate"), "{lang:?}: {title}");
            let words = last.narration_in(*lang).join(" ");
            assert!(
                words.contains(&finding.violation.step.to_string()),
                "{words}"
            );
            assert!(words.contains("values="), "{lang:?}: {words}");
        }
        assert!(
            r.verdict.iter().any(|l| l.starts_with("duplicate ")),
            "{:?}",
            r.verdict
        );
        // The block under the `check` is exactly what the steps print.
        let checked = crate::scenario::golden::check_with(&r.scenario, Some(super::super::watch))
            .expect("it parses");
        assert_eq!((checked.blocks, checked.mismatches.len()), (1, 0));
        // The link opens it on its last step.
        let state = share::decode(&r.link).expect("the link opens");
        assert_eq!((state.scenario, state.step), (r.scenario.clone(), r.steps));
        assert_eq!(state.panel.as_deref(), Some("lesson"));
    }

    #[test]
    fn what_other_steps_print_is_recorded_under_them_so_eos_test_passes() {
        // Seed 1 of 50 steps with `dedup=1`: a send fails for good (delivery.timeout.ms)
        // before the duplicate, and says so.
        let finding = check_seed(1, 50, &[BreakSwitch::Dedup(1)]).expect("a finding");
        let r = replay(&finding.shrunk, &finding.violation);
        assert_eq!(r.scenario.matches("\n---\n").count(), 2, "{}", r.scenario);
        assert!(
            r.scenario.contains("failed: TimeoutException"),
            "{}",
            r.scenario
        );
        let checked = crate::scenario::golden::check_with(&r.scenario, Some(super::super::watch))
            .expect("it parses");
        assert_eq!((checked.blocks, checked.mismatches.len()), (2, 0));
        assert_eq!(parse(&r.scenario).expect("it parses").steps.len(), r.steps);
        assert!(r.verdict.iter().all(|l| l.starts_with("duplicate ")));
    }
}
