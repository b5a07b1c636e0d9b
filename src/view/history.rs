//! Time travel: every learner action on a playground page is recorded, so the learner
//! can step back, step forward and jump to any point.
//!
//! The engine is deterministic, so going back is a replay (`scenario::Replay`): a fresh world with the
//! recorded actions up to that point applied again gives exactly the world the learner
//! had then (`World::fingerprint()` agrees). A new action after stepping back forks:
//! the recorded future after that point is dropped.

use crate::i18n::Lang;
use crate::scenario::{print_step, scenario_of, step_for_action, Replay, StepKind};
use crate::sim::{Action, World};

/// One learner action: the engine actions one click applied (e.g. send + flush), and
/// their text in the scenario language.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub actions: Vec<Action>,
    pub text: String,
}

/// The recorded actions of one page and where the learner is among them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    pub entries: Vec<Entry>,
    /// How many entries the shown world has played (0 = the fresh page).
    pub cursor: usize,
}

/// The scenario-language lines of `actions`, joined with `; ` (the few requests the
/// language cannot write never come from a click, and are left out).
pub fn actions_text(actions: &[Action]) -> String {
    actions
        .iter()
        .filter_map(|a| print_step(&step_for_action(a.clone())))
        .collect::<Vec<_>>()
        .join("; ")
}

impl History {
    /// True when the shown world is the newest one.
    pub fn at_end(&self) -> bool {
        self.cursor >= self.entries.len()
    }

    /// Records an action done at the cursor. Anything recorded after the cursor is
    /// dropped (a new branch); returns how many entries were dropped.
    pub fn record(&mut self, actions: Vec<Action>) -> usize {
        if actions.is_empty() {
            return 0;
        }
        let dropped = self.entries.len().saturating_sub(self.cursor);
        self.entries.truncate(self.cursor);
        let text = actions_text(&actions);
        self.entries.push(Entry { actions, text });
        self.cursor = self.entries.len();
        dropped
    }

    /// A fresh page world (`setup`) with the first `upto` entries replayed, through the
    /// one replay loop ([`Replay`]); also the lines the last action that printed
    /// something printed (the raw panel's transcript, its words in `lang`).
    pub fn replay(&self, setup: Vec<StepKind>, upto: usize, lang: Lang) -> (World, Vec<String>) {
        let from = setup.len();
        let actions = self.entries.iter().take(upto).flat_map(|e| &e.actions);
        let steps = setup.into_iter().chain(actions.cloned().map(StepKind::Act));
        let mut replay = Replay::new(scenario_of(steps));
        replay.set_lang(lang);
        // Each recorded action succeeded when it was done; the world is deterministic,
        // so it succeeds again.
        let _ = replay.play_to(usize::MAX);
        let printed = replay.last_printed(from);
        (replay.into_world(), printed)
    }

    /// Plays the entry at the cursor on `world` (the world after `cursor` entries) and
    /// moves the cursor past it: what Play and one step forward do, without replaying
    /// the page from its start (at 10,000 preloaded batches a replay takes seconds, a
    /// step a millisecond). Returns what the step printed, as [`replay`] words it.
    /// None at the end, or when the entry is refused (the world is then unreliable: a
    /// replay from the start shows it).
    ///
    /// [`replay`]: History::replay
    pub fn step_forward(&mut self, world: &mut World, lang: Lang) -> Option<Vec<String>> {
        let entry = self.entries.get(self.cursor)?;
        let mut printed = Vec::new();
        for action in &entry.actions {
            let before = world.events().len();
            let lines = match action {
                Action::RawInitProducerId => {
                    crate::i18n::transcript::raw_lines(world.raw_init_producer_id(), lang)
                }
                _ => world.apply(action).ok()?,
            };
            printed.extend(lines);
            printed.extend(
                world.events()[before..]
                    .iter()
                    .filter_map(|e| crate::i18n::narration::transcript_notice(e, lang)),
            );
        }
        self.cursor += 1;
        Some(printed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::TopicPartition;
    use crate::sim::ClusterConfig;

    /// A fresh page's setup: one broker and topic `t`.
    fn setup() -> Vec<StepKind> {
        vec![StepKind::Act(Action::CreateTopic {
            name: "t".into(),
            partitions: 1,
            configs: vec![],
        })]
    }

    fn page() -> World {
        let mut w = World::new(ClusterConfig::default());
        for step in setup() {
            let StepKind::Act(a) = step else { continue };
            w.apply(&a).unwrap();
        }
        w
    }

    fn send(values: &[&str]) -> Vec<Action> {
        vec![
            Action::Send {
                producer: "p".into(),
                topic_partition: TopicPartition::new("t", 0),
                values: values.iter().map(|v| v.to_string()).collect(),
            },
            Action::Flush {
                producer: "p".into(),
            },
        ]
    }

    /// The learner's clicks: create a producer, send [a], send [b, c].
    fn clicks() -> Vec<Vec<Action>> {
        vec![
            vec![Action::CreateProducer {
                name: "p".into(),
                configs: vec![],
            }],
            send(&["a"]),
            send(&["b", "c"]),
        ]
    }

    /// The world after the first `n` clicks, done directly.
    fn played(n: usize) -> World {
        let mut w = page();
        for action in clicks().iter().take(n).flatten() {
            w.apply(action).unwrap();
        }
        w
    }

    fn recorded() -> History {
        let mut h = History::default();
        for click in clicks() {
            assert_eq!(h.record(click), 0, "nothing to drop at the end");
        }
        h
    }

    fn replayed(h: &History, upto: usize) -> World {
        h.replay(setup(), upto, Lang::En).0
    }

    #[test]
    fn records_each_click_with_its_scenario_text() {
        let mut h = recorded();
        assert_eq!((h.entries.len(), h.cursor), (3, 3));
        assert!(h.at_end());
        assert_eq!(h.entries[1].actions, send(&["a"]));
        assert_eq!(h.entries[1].text, "producer p send t-0 a; producer p flush");
        assert_eq!(h.record(vec![]), 0, "an empty click records nothing");
        assert_eq!(h.entries.len(), 3);
    }

    #[test]
    fn back_and_forward_replay_the_same_world() {
        let mut h = recorded();
        for upto in 0..=3 {
            assert_eq!(
                replayed(&h, upto).fingerprint(),
                played(upto).fingerprint(),
                "after {upto} clicks"
            );
        }
        // Back one step, then forward again.
        h.cursor = 2;
        assert!(!h.at_end());
        assert_eq!(
            replayed(&h, h.cursor).fingerprint(),
            played(2).fingerprint()
        );
        h.cursor = 3;
        assert_eq!(
            replayed(&h, h.cursor).fingerprint(),
            played(3).fingerprint()
        );
        assert_ne!(played(2).fingerprint(), played(3).fingerprint());
    }

    #[test]
    fn a_step_forward_plays_what_a_replay_does() {
        let mut h = recorded();
        h.cursor = 0;
        let mut w = replayed(&h, 0);
        for upto in 1..=3 {
            let printed = h.step_forward(&mut w, Lang::En);
            assert!(printed.is_some(), "step {upto}");
            assert_eq!(h.cursor, upto);
            assert_eq!(
                w.fingerprint(),
                played(upto).fingerprint(),
                "after {upto} steps"
            );
        }
        assert_eq!(
            h.step_forward(&mut w, Lang::En),
            None,
            "nothing after the end"
        );
        assert_eq!(h.cursor, 3);
    }

    #[test]
    fn a_click_after_stepping_back_forks() {
        let mut h = recorded();
        h.cursor = 1;
        let fork = send(&["z"]);
        assert_eq!(h.record(fork.clone()), 2, "the recorded future is dropped");
        assert_eq!((h.entries.len(), h.cursor), (2, 2));
        assert!(h.at_end());
        assert_eq!(h.entries[1].actions, fork);
        let mut direct = played(1);
        for action in &fork {
            direct.apply(action).unwrap();
        }
        assert_eq!(replayed(&h, 2).fingerprint(), direct.fingerprint());
        assert_ne!(direct.fingerprint(), played(2).fingerprint());
    }

    #[test]
    fn replay_returns_the_last_lines_printed() {
        let mut h = History::default();
        h.record(vec![Action::RawInitProducerId]);
        h.record(vec![Action::Advance { ms: 10 }]);
        let (_, lines) = h.replay(setup(), 2, Lang::En);
        let mut direct = page();
        let want = crate::i18n::transcript::raw_lines(direct.raw_init_producer_id(), Lang::En);
        assert!(!want.is_empty());
        assert_eq!(
            lines, want,
            "the transcript of the last action that printed"
        );
        assert!(h.replay(setup(), 0, Lang::En).1.is_empty());
        // In Korean the retry line is Korean; the protocol line stays Kafka's.
        let (_, ko) = h.replay(setup(), 2, Lang::Ko);
        assert_eq!(ko.len(), want.len());
        assert!(want[0].contains("retrying in 100 ms"), "{want:?}");
        assert_eq!(
            ko[0],
            "InitProducerId: COORDINATOR_LOAD_IN_PROGRESS, 100 ms 뒤에 다시 요청합니다"
        );
        assert_eq!(ko[1..], want[1..]);
    }
}
