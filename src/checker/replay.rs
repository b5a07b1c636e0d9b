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

use super::witness::replay_link;
use super::Violation;
use crate::i18n::checker::{replay_narration, replay_title};
use crate::i18n::Lang;
use crate::scenario::golden::{encode, BLOCK_START};
use crate::scenario::{parse, Replay as Play};

/// A finding's replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The scenario file: the shrunk scenario, then the narrated `check` and its block.
    pub scenario: String,
    /// How many steps it has (the `check` is the last one).
    pub steps: usize,
    /// What its `check` printed (the block under it).
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

/// The replay of `violation`, found by running `shrunk` (a scenario file, as
/// [`super::chaos::Schedule::scenario_text`] prints it).
pub fn replay(shrunk: &str, violation: &Violation) -> Replay {
    let mut text = shrunk.to_string();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push('\n');
    for lang in Lang::ALL {
        let title = replay_title(violation.anomaly, *lang);
        text.push_str(&match lang {
            Lang::En => format!("## {title}\n"),
            other => format!("## [{}] {title}\n", other.code()),
        });
    }
    for (i, lang) in Lang::ALL.iter().enumerate() {
        if i > 0 {
            // A bare `>` starts the next language's paragraph.
            text.push_str(">\n");
        }
        let words = replay_narration(violation, *lang);
        text.push_str(&match lang {
            Lang::En => format!("> {words}\n"),
            other => format!("> [{}] {words}\n", other.code()),
        });
    }
    text.push_str("check\n");
    let (scenario, verdict) = with_output(&text);
    let steps = count_steps(shrunk) + 1;
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

/// Plays `text` as `eos test` does (a refused step prints its error and the run goes
/// on) and writes what each step printed in a `---` block under it; returns the file
/// and what its last step (the `check`) printed.
fn with_output(text: &str) -> (String, Vec<String>) {
    let Ok(parsed) = parse(text) else {
        return (text.to_string(), Vec::new());
    };
    let mut play = Play::new(parsed);
    // (line, what the step on it printed), for the steps that printed anything.
    let mut printed: Vec<(usize, Vec<String>)> = Vec::new();
    while let Some(step) = play.current_step().cloned() {
        let lines = match play.step() {
            Ok(output) => output.lines.clone(),
            Err(e) => {
                play.skip();
                let prefix = format!("line {}: ", step.line);
                vec![format!("error: {}", e.strip_prefix(&prefix).unwrap_or(&e))]
            }
        };
        if !lines.is_empty() {
            let lines = lines.iter().map(|l| l.trim_end().to_string()).collect();
            printed.push((step.line, lines));
        }
    }
    let verdict = printed
        .last()
        .filter(|(line, _)| *line == text.lines().count())
        .map(|(_, lines)| lines.clone())
        .unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for (n, line) in all.iter().enumerate() {
        out.push_str(line);
        out.push('\n');
        if let Some((_, lines)) = printed.iter().find(|(at, _)| *at == n + 1) {
            out.push_str(BLOCK_START);
            out.push('\n');
            for l in encode(lines) {
                out.push_str(&l);
                out.push('\n');
            }
            // A blank line ends the block (not needed at the end of the file).
            if n + 1 < all.len() {
                out.push('\n');
            }
        }
    }
    (out, verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breaks::BreakSwitch;
    use crate::checker::chaos::check_seed;
    use crate::scenario::share;

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
        let r = replay(&shrunk, &finding.violation);
        assert!(r.scenario.starts_with(&shrunk), "{}", r.scenario);
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
        let checked = crate::scenario::golden::check(&r.scenario).expect("it parses");
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
        let r = replay(&finding.shrunk.scenario_text(), &finding.violation);
        assert_eq!(r.scenario.matches("\n---\n").count(), 2, "{}", r.scenario);
        assert!(
            r.scenario.contains("failed: TimeoutException"),
            "{}",
            r.scenario
        );
        let checked = crate::scenario::golden::check(&r.scenario).expect("it parses");
        assert_eq!((checked.blocks, checked.mismatches.len()), (2, 0));
        assert_eq!(parse(&r.scenario).expect("it parses").steps.len(), r.steps);
        assert!(r.verdict.iter().all(|l| l.starts_with("duplicate ")));
    }
}
