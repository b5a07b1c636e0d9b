//! Narration: one sentence per event or error, in the reader's language, with the
//! Kafka rule that applied. Events and errors are data (`crate::sim::event`,
//! [`ErrorDetail`], [`SimError`]); only this module words them.
//!
//! Each language is a module (`en/` today) with one file per concept — broker,
//! coordinator, producer, consumer, network, errors — so a translation is a copy of
//! `en/` with the sentences changed. A new event variant needs one arm in each
//! language's file for its concept (the `match`es are exhaustive, so the compiler lists
//! the places).

use super::Lang;
use crate::client::consumer::ConsumerEvent;
use crate::client::transaction_manager::TxnCallError;
use crate::protocol::ErrorDetail;
use crate::sim::{Event, SimError};

mod en;

/// One line: what happened and the rule behind it.
pub fn narrate(event: &Event, lang: Lang) -> String {
    match lang {
        Lang::En => en::event(&event.kind),
    }
}

/// One line for an event of the Pulsar world.
#[cfg(feature = "pulsar")]
pub fn pulsar_event(event: &crate::pulsar::PulsarEvent, lang: Lang) -> String {
    match lang {
        Lang::En => en::pulsar::event(&event.kind),
    }
}

/// A row of the Kafka-vs-Pulsar table: (question, Kafka's answer, Pulsar's answer).
#[cfg(feature = "pulsar")]
pub fn pulsar_difference(
    d: crate::view::pulsar::Difference,
    lang: Lang,
) -> (&'static str, &'static str, &'static str) {
    match lang {
        Lang::En => en::pulsar::difference(d),
    }
}

/// A fixed word of the Pulsar pages.
#[cfg(feature = "pulsar")]
pub fn pulsar_label(l: crate::view::pulsar::PulsarLabel, lang: Lang) -> &'static str {
    match lang {
        Lang::En => en::pulsar::label(l),
    }
}

/// An armed fault in a few words ("delay the next EndTxn message by 500 ms"), for a
/// list of what the network is doing now.
pub fn fault(fault: &crate::sim::Fault, lang: Lang) -> String {
    match lang {
        Lang::En => en::fault(fault),
    }
}

/// A consumer's event, without the client's name in front.
pub fn consumer_event(event: &ConsumerEvent, lang: Lang) -> String {
    match lang {
        Lang::En => en::consumer::event(event),
    }
}

/// The events a transcript shows even without `--verbose`, as one line each: a failed
/// `send()` as the application's callback sees it (the exception Kafka's client
/// completes the future with), and a run cut short by the step limit. `None` for the rest.
pub fn transcript_notice(event: &Event, lang: Lang) -> Option<String> {
    match (lang, &event.kind) {
        (Lang::En, crate::sim::EventKind::RunLimitReached { .. }) => {
            Some(format!("note: {}", en::event(&event.kind)))
        }
        (Lang::En, kind) => en::producer::send_callback_failure(kind),
    }
}

/// The broker's `errorMessage` for a refused batch or marker.
pub fn error_detail(detail: &ErrorDetail, lang: Lang) -> String {
    match lang {
        Lang::En => en::errors::detail(detail),
    }
}

/// Kafka's message of the exception a transactional call throws at once (the class
/// is `TxnCallError::exception_class`). Kafka's words, so the same in every language.
pub fn txn_exception(error: &TxnCallError, lang: Lang) -> String {
    match lang {
        Lang::En => en::errors::txn_exception(error),
    }
}

/// Why an action was not applied, after Kafka's error name when there is one.
pub fn sim_error(error: &SimError, lang: Lang) -> String {
    match lang {
        Lang::En => en::errors::sim_error(error),
    }
}

/// `Display` is the English text, for the CLI, transcripts and `{e}` in messages.
impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&sim_error(self, Lang::En))
    }
}
