//! What watches a scenario while it runs: the invariant checker does (feature
//! `checker`). The scenario layer sits below the checker (the checker prints its
//! findings as scenarios and share links), so the runner knows the checker only as
//! this trait, and whoever starts a checked run hands it a [`MakeWatch`]
//! (`crate::checker::watch`).

use crate::i18n::Lang;
use crate::sim::World;

/// Fed after every step of a scenario with a `check` step; `check` prints its verdict.
pub trait Watch: std::fmt::Debug {
    /// Looks at what changed since the last call; `step` is how many steps have run.
    fn observe(&mut self, world: &World, step: usize);
    /// The end-of-run checks, when a `check` ends the scenario.
    fn finish(&mut self, world: &World, step: usize);
    /// What `check` prints, worded in `lang`.
    fn verdict(&self, lang: Lang) -> Vec<String>;
    /// A copy (a replay is cloned to step back).
    fn clone_box(&self) -> Box<dyn Watch>;
}

/// Makes the watcher of one run.
pub type MakeWatch = fn() -> Box<dyn Watch>;

impl Clone for Box<dyn Watch> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
