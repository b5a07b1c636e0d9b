//! The catalog: every word a learner reads, per language — the UI labels
//! ([`labels`]) and the narration of every event and error ([`narration`]).
//!
//! The engine emits data (events and errors with their numbers); only this module
//! turns data into sentences. Kafka's identifiers (error names, config keys, API and
//! state names) are data and are never translated.
//!
//! Three parts:
//! - [`message`]: a [`Msg`] is a message id plus named arguments — no words.
//! - [`narration`] (and [`labels`] for the UI): code that maps each event, error or
//!   label to a [`Msg`] or a label id. It is the same for every language.
//! - [`catalog`]: one template file per language (`catalog/en.txt`; its header
//!   documents the format: `id = text with {name} placeholders`, `{n ? one:…|*:…}`
//!   selectors), parsed at run time; [`catalog::render`] fills a [`Msg`] in. English
//!   is compiled in and fills any gap in another language.
//!
//! ## How to narrate a new event
//! 1. Add the variant to the engine's event enum (data only: numbers, names, ids).
//! 2. In `narration/<concept>.rs` (broker, coordinator, producer, consumer, faults,
//!    errors; network events in `narration/mod.rs`) add its arm — the compiler lists
//!    the `match`es — returning `msg!("concept.what-happened", name = value, …)`.
//!    Pass numbers and Kafka identifiers as they are (`error = error.name()`); pass a
//!    sub-sentence as another `msg!`/`Msg::new(id)`, never as English text.
//! 3. Add `concept.what-happened = … {name} …` to `catalog/en.txt` in its section.
//!    A branch on a flag or count is a selector: `{response ? true:response|*:request}`.
//! 4. Add the variant to the sample list in `tests/events.rs`; the tests check that
//!    every id used has a template and every template's placeholders are given.
//!
//! Korean and Thai (`ko.txt`, `th.txt`) get the same id later; until then the English
//! line shows.
//!
//! A new UI label: add a `Key` variant in `labels/mod.rs` and `Key = text` (placeholders
//! `{0}`, `{1}`) in the labels section of `catalog/en.txt`.

pub mod catalog;
pub mod labels;
pub mod message;
pub mod narration;

pub use labels::{out_of_order_text, t, tf, Key};
pub use message::{Arg, Msg};
pub use narration::narrate;

/// A language of the catalog. English is the reference; Korean (`Ko`) and Thai (`Th`)
/// will each add a variant and a catalog file.
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
