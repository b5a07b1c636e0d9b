//! Player steps: what one Next of the lesson player runs.
//!
//! A scenario line is the unit of running, replaying and linking, but a learner should
//! not click through lines that change nothing they can see (a `topic create`, a batch
//! sent with `show=none`). So the player groups lines: a `## Title` or `> text` block
//! starts a player step, and every line after it without its own title or narration
//! runs in the same step. Headings and narration are never steps of their own; a lesson
//! author splits a long step by giving a line its own `>` text.
//!
//! Lines before the first title or narration have nothing to be grouped under, so each
//! is a player step of its own: a scenario without narration (an author's experiment, a
//! host page's script, a page's recorded actions) still steps one line at a time.

use std::ops::Range;

use super::parse::{Scenario, Step, StepKind};

/// True when `step` opens a player step: it carries a title or narration, or it is a
/// `cluster` line, which starts a fresh world (a later one must not run inside a step
/// whose first lines showed the world before it).
pub fn starts_player_step(step: &Step) -> bool {
    step.title.is_some()
        || !step.narration.is_empty()
        || !step.questions.is_empty()
        || matches!(step.kind, StepKind::Cluster(_))
}

/// The player steps of a scenario as ranges of line-step indices, in order. They tile
/// `0..scenario.steps.len()`.
pub fn player_steps(scenario: &Scenario) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut narrated = false;
    for (i, step) in scenario.steps.iter().enumerate() {
        narrated |= starts_player_step(step);
        match out.last_mut() {
            Some(last) if narrated && !starts_player_step(step) => last.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Replay};

    const SRC: &str = "\
## Set-up
> A topic.
topic create t
echo ready
## Send
> Two sends, one click.
producer p create
producer p send t-0 a
producer p flush
> On its own.
echo done
";

    #[test]
    fn narration_opens_a_step_and_plain_lines_join_it() {
        let s = parse(SRC).expect("parses");
        assert_eq!(player_steps(&s), vec![0..2, 2..5, 5..6]);
    }

    #[test]
    fn lines_before_any_narration_stay_single() {
        let s = parse("topic create t\necho a\n> now\necho b\necho c\n").expect("parses");
        assert_eq!(player_steps(&s), vec![0..1, 1..2, 2..4]);
        let bare = parse("topic create t\necho a\necho b\n").expect("parses");
        assert_eq!(player_steps(&bare), vec![0..1, 1..2, 2..3]);
        assert!(player_steps(&Scenario::default()).is_empty());
    }

    #[test]
    fn a_player_step_prints_what_its_lines_print_in_order() {
        let s = parse(SRC).expect("parses");
        let mut by_line = Replay::new(s.clone());
        by_line.play_to(usize::MAX).expect("runs");
        let mut r = Replay::new(s);
        let mut joined = Vec::new();
        while !r.is_done() {
            let out = r.play_player_step().expect("runs");
            joined.extend(out.lines);
        }
        assert_eq!(r.player_at(), 3);
        let lines: Vec<String> = by_line
            .outputs()
            .iter()
            .flat_map(|o| o.lines.clone())
            .collect();
        assert_eq!(joined, lines);
        assert_eq!(r.world().fingerprint(), by_line.world().fingerprint());
    }

    #[test]
    fn playing_to_a_player_step_replays_whole_steps() {
        let s = parse(SRC).expect("parses");
        let r = Replay::to_player_step(s.clone(), 2);
        assert_eq!((r.player_at(), r.at()), (2, 5));
        assert_eq!(r.player_len(), 3);
        let out = r.player_output(1).expect("played");
        assert_eq!(out.events.start, r.outputs()[2].events.start);
        assert_eq!(out.events.end, r.outputs()[4].events.end);
        assert_eq!(Replay::to_player_step(s, 0).at(), 0);
    }
}
