//! The one replay loop: a scenario played on a fresh world up to step N, keeping what
//! each step printed and which events it raised.
//!
//! The engine is deterministic, so replaying is how everything that "goes back" works:
//! `eos run` and the golden transcripts play a whole file, the lesson player steps back
//! by replaying steps `0..n-1`, time travel replays a page's recorded actions (its setup
//! and clicks written as a scenario), and a share link replays its scenario to its step.
//! All of them call [`Replay`]; none keeps its own loop.

use std::ops::Range;

use super::parse::{Scenario, Step, StepKind};
use super::player::player_steps;
use super::run::{RunError, Runner};
use super::watch::MakeWatch;
use crate::sim::World;

/// What one step did: the lines it printed and the events it raised (indices into
/// `World::events` of world `world`: a later `cluster` line starts a fresh world, and
/// the events of the ones before it are gone).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepOutput {
    pub lines: Vec<String>,
    pub events: Range<usize>,
    pub world: u32,
}

/// A scenario being replayed: the runner (its world), and the output of each step played.
#[derive(Clone, Debug)]
pub struct Replay {
    runner: Runner,
    /// One per step played or skipped (index = step index).
    outputs: Vec<StepOutput>,
    /// Why the step at [`Replay::at`] failed, if it did.
    error: Option<RunError>,
    /// The lesson player's steps: ranges of line steps run by one Next (`player.rs`).
    player: Vec<Range<usize>>,
}

impl Replay {
    /// A fresh world for `scenario`, nothing played yet.
    pub fn new(scenario: Scenario) -> Replay {
        Replay::watched(scenario, None)
    }

    /// As [`Replay::new`], its `check` steps watched (see [`Runner::watched`]).
    pub fn watched(scenario: Scenario, watch: Option<MakeWatch>) -> Replay {
        Replay {
            player: player_steps(&scenario),
            runner: Runner::watched(scenario, watch),
            outputs: Vec::new(),
            error: None,
        }
    }

    /// A fresh world with the first `upto` player steps played (fewer on a failure).
    pub fn to_player_step(scenario: Scenario, upto: usize) -> Replay {
        let mut replay = Replay::new(scenario);
        let _ = replay.play_player_to(upto);
        replay
    }

    /// A fresh world with the first `upto` steps of `scenario` played (fewer when a
    /// step fails: the replay stops there and keeps the error).
    pub fn to(scenario: Scenario, upto: usize) -> Replay {
        let mut replay = Replay::new(scenario);
        // A failure is kept in `error`; the caller shows it.
        let _ = replay.play_to(upto);
        replay
    }

    /// Plays the next step (nothing at the end). A refused step changes nothing: the
    /// replay stays on it and keeps the error (`line N: …`).
    /// The error is the one kept (no copy of it is made).
    pub fn step(&mut self) -> Result<&StepOutput, &RunError> {
        let seen = self.runner.world.events().len();
        let world = self.runner.generation();
        match self.runner.step() {
            Ok(lines) => {
                self.error = None;
                // A fresh world's events are all this step's.
                let start = if self.runner.generation() == world {
                    seen
                } else {
                    0
                };
                let events = start..self.runner.world.events().len();
                self.outputs.push(StepOutput {
                    lines,
                    events,
                    world: self.runner.generation(),
                });
                Ok(self.outputs.last().expect("just pushed"))
            }
            Err(e) => Err(self.error.insert(e)),
        }
    }

    /// Plays steps until `upto` have run (or the scenario ends); stops at the first
    /// refused step.
    pub fn play_to(&mut self, upto: usize) -> Result<(), &RunError> {
        while self.at() < upto && !self.is_done() {
            if self.step().is_err() {
                return self.refused();
            }
        }
        Ok(())
    }

    /// The error kept by the step that was just refused.
    fn refused<T: Default>(&self) -> Result<T, &RunError> {
        self.error.as_ref().map_or_else(|| Ok(T::default()), Err)
    }

    /// Plays the rest of the current player step (all of it, from its first line) and
    /// returns what it printed and raised. A refused line stops it there, as [`step`]
    /// does.
    ///
    /// [`step`]: Replay::step
    pub fn play_player_step(&mut self) -> Result<StepOutput, &RunError> {
        let Some(range) = self.player.iter().find(|r| r.end > self.at()).cloned() else {
            return Ok(StepOutput::default());
        };
        while self.at() < range.end && !self.is_done() {
            if self.step().is_err() {
                return self.refused();
            }
        }
        Ok(self.player_output(self.player_at() - 1).unwrap_or_default())
    }

    /// Plays whole player steps until `upto` have run; stops at the first refused line.
    pub fn play_player_to(&mut self, upto: usize) -> Result<(), &RunError> {
        while self.player_at() < upto && !self.is_done() {
            if self.play_player_step().is_err() {
                return self.refused();
            }
        }
        Ok(())
    }

    /// How many player steps have been played whole.
    pub fn player_at(&self) -> usize {
        self.player.iter().filter(|r| r.end <= self.at()).count()
    }
    /// How many player steps the scenario has.
    pub fn player_len(&self) -> usize {
        self.player.len()
    }
    /// The player steps, as ranges of line steps.
    pub fn player_steps(&self) -> &[Range<usize>] {
        &self.player
    }
    /// What player step `i` printed (its lines' output in order) and the events it
    /// raised; None until it has been played whole.
    pub fn player_output(&self, i: usize) -> Option<StepOutput> {
        let range = self.player.get(i)?;
        let outputs = self.outputs.get(range.clone())?;
        // A player step never spans two worlds: a `cluster` line opens one.
        Some(StepOutput {
            lines: outputs.iter().flat_map(|o| o.lines.clone()).collect(),
            events: outputs.first()?.events.start..outputs.last()?.events.end,
            world: outputs.last()?.world,
        })
    }

    /// Moves past a refused step without running it (a golden file shows the error and
    /// carries on); its output is empty.
    pub fn skip(&mut self) {
        if !self.is_done() {
            self.runner.skip();
            let at = self.runner.world.events().len();
            self.outputs.push(StepOutput {
                lines: Vec::new(),
                events: at..at,
                world: self.runner.generation(),
            });
            self.error = None;
        }
    }

    /// How many steps have been played (or skipped).
    pub fn at(&self) -> usize {
        self.runner.next_index()
    }
    /// How many steps the scenario has.
    pub fn len(&self) -> usize {
        self.runner.scenario().steps.len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn is_done(&self) -> bool {
        self.runner.is_done()
    }
    pub fn scenario(&self) -> &Scenario {
        self.runner.scenario()
    }
    /// The step that runs next.
    pub fn current_step(&self) -> Option<&Step> {
        self.runner.current_step()
    }
    /// Narrates in `lang` from now on (see [`Runner::set_lang`]).
    pub fn set_lang(&mut self, lang: crate::i18n::Lang) {
        self.runner.set_lang(lang);
    }

    pub fn world(&self) -> &World {
        &self.runner.world
    }
    /// Which world [`Replay::world`] is: 0, then one more for each later `cluster`
    /// line played. A step's events index that world only if its output's `world` is
    /// this one.
    pub fn generation(&self) -> u32 {
        self.runner.generation()
    }
    /// The Pulsar world, once a `pulsar` step ran.
    #[cfg(feature = "pulsar")]
    pub fn pulsar_world(&self) -> Option<&crate::pulsar::PulsarWorld> {
        self.runner.pulsar_world()
    }
    pub fn into_world(self) -> World {
        self.runner.world
    }
    /// What each step played so far did (index = step index).
    pub fn outputs(&self) -> &[StepOutput] {
        &self.outputs
    }
    /// Why the step at [`Replay::at`] was refused.
    pub fn error(&self) -> Option<&RunError> {
        self.error.as_ref()
    }
    /// The language it narrates in (and words a refused step in).
    pub fn lang(&self) -> crate::i18n::Lang {
        self.runner.lang()
    }
    /// The lines of the last step (from `from` on) that printed something: the raw
    /// panel's transcript after time travel.
    pub fn last_printed(&self, from: usize) -> Vec<String> {
        self.outputs
            .get(from..)
            .unwrap_or_default()
            .iter()
            .rev()
            .find(|o| !o.lines.is_empty())
            .map(|o| o.lines.clone())
            .unwrap_or_default()
    }
}

/// A scenario of bare steps (no source lines, titles or narration): a page's setup and
/// recorded actions, built in code rather than parsed.
pub fn scenario_of(kinds: impl IntoIterator<Item = StepKind>) -> Scenario {
    Scenario {
        steps: kinds
            .into_iter()
            .map(|kind| Step {
                line: 0,
                text: String::new(),
                kind,
                title: None,
                narration: Vec::new(),
                translations: Vec::new(),
                questions: Vec::new(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;

    const SRC: &str = "topic create t\nproducer p create\nproducer p send t-0 a\nproducer p flush\nproducer q flush\nproducer p send t-0 b\n";

    fn direct(n: usize) -> World {
        let mut runner = Runner::new(parse(SRC).expect("parses"));
        for _ in 0..n {
            runner.step().expect("runs");
        }
        runner.world
    }

    #[test]
    fn replays_up_to_a_step_exactly() {
        for n in 0..=4 {
            let r = Replay::to(parse(SRC).expect("parses"), n);
            assert_eq!(r.at(), n);
            assert_eq!(r.outputs().len(), n);
            assert_eq!(r.error(), None);
            assert_eq!(r.world().fingerprint(), direct(n).fingerprint(), "{n}");
        }
    }

    #[test]
    fn stops_at_a_refused_step_and_keeps_why() {
        let mut r = Replay::to(parse(SRC).expect("parses"), 99);
        assert_eq!(r.at(), 4, "step 5 names an unknown producer");
        assert!(r.error().is_some_and(|e| e.line == 5));
        assert_eq!(r.world().fingerprint(), direct(4).fingerprint());
        r.skip();
        assert_eq!((r.at(), r.outputs().len(), r.error()), (5, 5, None));
        r.play_to(99).expect("the rest runs");
        assert!(r.is_done());
    }

    #[test]
    fn each_output_holds_its_step_events() {
        let r = Replay::to(parse(SRC).expect("parses"), 4);
        let mut end = 0;
        for o in r.outputs() {
            assert_eq!(o.events.start, end, "the ranges tile the events");
            end = o.events.end;
        }
        assert_eq!(end, r.world().events().len());
        assert!(!r.outputs()[3].events.is_empty(), "a flush raises events");
    }

    const TWO_WORLDS: &str = "cluster transaction.version=1\n## One\ntopic create t\nproducer p create\nproducer p send t-0 a\nproducer p flush\n## Two\ncluster transaction.version=2\ntopic create t\nproducer p create\nproducer p send t-0 b\nproducer p flush\n";

    #[test]
    fn a_later_cluster_line_starts_a_fresh_world() {
        let s = parse(TWO_WORLDS).expect("parses");
        let whole = Replay::to(s.clone(), usize::MAX);
        assert!(whole.is_done() && whole.error().is_none());
        assert_eq!(whole.generation(), 1);
        // The second world knows only b, at offset 0, under its own settings.
        assert_eq!(whole.world().config().transaction_version, 2);
        let tp = crate::log::TopicPartition::new("t", 0);
        let log = whole
            .world()
            .log_view(&tp)
            .expect("t-0 in the second world");
        assert_eq!((log.log_end_offset, log.total_batches), (1, 1));
        // Each output's events index its own world, and the fresh world's start at 0.
        let cluster = 5;
        assert_eq!(whole.outputs()[cluster].world, 1);
        assert_eq!(whole.outputs()[cluster].events.start, 0);
        let last = whole.outputs().last().expect("outputs");
        assert!(last.events.end <= whole.world().events().len());
        // Stepping back across the boundary replays the first world exactly.
        let back = Replay::to(s.clone(), cluster);
        assert_eq!(back.generation(), 0);
        assert_eq!(back.world().config().transaction_version, 1);
        let mut runner = Runner::new(s);
        for _ in 0..cluster {
            runner.step().expect("runs");
        }
        assert_eq!(back.world().fingerprint(), runner.world.fingerprint());
    }

    #[test]
    fn a_later_cluster_line_opens_a_player_step() {
        let s =
            parse("topic create t\n> one\necho a\ncluster brokers=2\necho b\n").expect("parses");
        assert_eq!(player_steps(&s), vec![0..1, 1..2, 2..4]);
        let mut r = Replay::new(s);
        r.play_player_to(2).expect("runs");
        let out = r.play_player_step().expect("runs");
        assert_eq!(out.lines, vec!["b"]);
        assert_eq!((out.world, out.events.start), (1, 0));
    }

    #[test]
    fn a_built_scenario_replays_like_a_parsed_one() {
        let parsed = parse(SRC).expect("parses");
        let built = scenario_of(parsed.steps.iter().map(|s| s.kind.clone()));
        assert_eq!(
            Replay::to(built, 4).world().fingerprint(),
            direct(4).fingerprint()
        );
    }
}
