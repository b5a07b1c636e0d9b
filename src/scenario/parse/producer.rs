//! The producer's own steps: `producer NAME create|send|flush …`; its transaction verbs
//! are read in `transaction.rs`.

use super::transaction::{transaction_step, TRANSACTION_VERBS};
use super::*;

/// `producer NAME VERB …`.
pub(super) fn producer_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let name = c.next(What::Id("parse.what.producer-name"))?.text.clone();
    let verb = c.next(What::OneOf(&["create", "send", "flush"]))?;
    match verb.text.as_str() {
        "create" => {
            let (opts, words) = c.rest();
            no_words(c, &words)?;
            Ok(StepKind::Act(Action::CreateProducer {
                name,
                configs: opts.into_iter().map(|(_, k, v)| (k, v)).collect(),
            }))
        }
        "send" => send_step(c, name),
        "flush" => {
            c.done()?;
            Ok(StepKind::Act(Action::Flush { producer: name }))
        }
        v if TRANSACTION_VERBS.contains(&v) => transaction_step(c, name, verb),
        _ => Err(unknown_producer_verb(c, verb)),
    }
}

/// `producer NAME send TOPIC-P VALUE…`: every word after the partition is a record's value.
fn send_step(c: &mut Cursor, name: String) -> Result<StepKind, ParseError> {
    let topic_partition = next_partition(c)?;
    let values: Vec<String> = c.tokens[c.pos..].iter().map(|t| t.text.clone()).collect();
    if values.is_empty() {
        return Err(c.err(c.end_column + 1, msg!("parse.no-values-to-send")));
    }
    Ok(StepKind::Act(Action::Send {
        producer: name,
        topic_partition,
        values,
    }))
}

/// `unknown producer command `WORD``, at the verb.
pub(super) fn unknown_producer_verb(c: &Cursor, verb: &Token) -> ParseError {
    c.err(
        verb.column,
        arg1("parse.unknown-producer-command", "word", &verb.text),
    )
}
