//! Time travel: every learner action on a playground page is recorded, so the learner
//! can step back, step forward and jump to any point.
//!
//! The engine is deterministic, so going back is a replay: a fresh world with the
//! recorded actions up to that point applied again gives exactly the world the learner
//! had then (`World::fingerprint()` agrees). A new action after stepping back forks:
//! the recorded future after that point is dropped.

use crate::scenario::{print_step, step_for_action};
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

/// The scenario-language lines of `actions`, joined with `; `.
pub fn actions_text(actions: &[Action]) -> String {
    actions
        .iter()
        .map(|a| print_step(&step_for_action(a.clone())).unwrap_or_else(|| format!("{a:?}")))
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

    /// Replays the first `upto` entries on `world` (a fresh page world). Returns the
    /// lines the last action that printed something printed (the raw panel's transcript).
    pub fn replay(&self, world: &mut World, upto: usize) -> Vec<String> {
        let mut last = Vec::new();
        for entry in self.entries.iter().take(upto) {
            for action in &entry.actions {
                // Each recorded action succeeded when it was done; the world is
                // deterministic, so it succeeds again.
                if let Ok(lines) = world.apply(action) {
                    if !lines.is_empty() {
                        last = lines;
                    }
                }
            }
        }
        last
    }
}
