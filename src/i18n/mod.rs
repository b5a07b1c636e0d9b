//! The catalog: every word a learner reads, per language — the UI labels
//! ([`labels`]) and the narration of every event and error ([`narration`]).
//!
//! The engine emits data (events and errors with their numbers); only this module
//! turns data into sentences. Kafka's identifiers (error names, config keys, API and
//! state names) are data and are never translated.

pub mod checker;
pub mod labels;
pub mod narration;

pub use labels::{out_of_order_text, t, tf, Key};
pub use narration::narrate;

/// A language of the catalog. English is the reference; Korean (`Ko`) and Thai (`Th`)
/// will each add a variant, a labels file and a narration module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
}

impl Lang {
    /// Every language, for the catalog's completeness tests.
    pub const ALL: &'static [Lang] = &[Lang::En];
}

#[cfg(test)]
mod tests;
