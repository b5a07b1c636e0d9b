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
//!   fills any gap in another language; it is compiled in natively, and the sites'
//!   wasm fetches it before the first render (feature `catalog-en`).
//!
//! ## How to narrate a new event
//! 1. Add the variant to the engine's event enum (data only: numbers, names, ids).
//! 2. In `narration/<concept>.rs` (broker, coordinator, producer, consumer, faults,
//!    errors; network events in `narration/mod.rs`) list it in the concept's dispatch
//!    — the compiler lists the `match`es — and add its arm to the family function the
//!    dispatch sends it to, returning `msg!("concept.what-happened", name = value, …)`.
//!    Pass numbers and Kafka identifiers as they are (`error = error.name()`); pass a
//!    sub-sentence as another `msg!`/`Msg::new(id)`, never as English text.
//! 3. Add `concept.what-happened = … {name} …` to `catalog/en.txt` in its section.
//!    A branch on a flag or count is a selector: `{response ? true:response|*:request}`.
//! 4. Add the variant to the sample list in `tests/events.rs`; the tests check that
//!    every id used has a template and every template's placeholders are given.
//!
//! Korean and Thai (`ko.txt`, `th.txt`) get the same id; until a translator adds it
//! the English line shows (the completeness test lists what is missing).
//!
//! A new UI label: add a `Key` variant in `labels/mod.rs` and `Key = text` (placeholders
//! `{0}`, `{1}`) in the labels section of `catalog/en.txt`.

pub mod catalog;
pub mod checker;
#[cfg(feature = "pulsar")]
pub mod facts;
pub mod glossary;
pub mod inspect;
pub mod labels;
pub mod message;
pub mod narration;
pub mod transcript;

pub use labels::{out_of_order_text, t, tf, tfl, Key};
pub use message::{Arg, Msg};
pub use narration::{narrate, sim_error_msg};

/// A language of the catalog. English is the reference and the fallback; Korean and
/// Thai are the languages of the source material our learners come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ko,
    Th,
}

impl Lang {
    /// Every language, for the catalog's completeness tests and the language menu.
    pub const ALL: &'static [Lang] = &[Lang::En, Lang::Ko, Lang::Th];

    /// The BCP 47 code: `en`, `ko`, `th` (the `lang` attribute, `?lang=`, `--lang`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
            Lang::Th => "th",
        }
    }

    /// The language's own name, for the menu.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ko => "한국어",
            Lang::Th => "ไทย",
        }
    }

    /// The language of a code or a browser tag (`ko`, `ko-KR`, `TH`), if we have it.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next().unwrap_or("");
        Lang::ALL
            .iter()
            .copied()
            .find(|l| l.code().eq_ignore_ascii_case(primary))
    }
}

/// The language the page speaks now (labels via [`t`], narration in the UI). Only the
/// UI sets it; the engine, the CLI and the tests pass a [`Lang`] explicitly.
pub fn ui_lang() -> Lang {
    match UI_LANG.load(std::sync::atomic::Ordering::Relaxed) {
        1 => Lang::Ko,
        2 => Lang::Th,
        _ => Lang::En,
    }
}

/// Switches the page's language (after its catalog is [`catalog::is_loaded`]).
pub fn set_ui_lang(lang: Lang) {
    let n = match lang {
        Lang::En => 0,
        Lang::Ko => 1,
        Lang::Th => 2,
    };
    UI_LANG.store(n, std::sync::atomic::Ordering::Relaxed);
}

static UI_LANG: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

#[cfg(test)]
mod tests;
