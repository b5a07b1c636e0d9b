//! A transactional producer's steps: `producer NAME init-transactions|begin|commit|abort`,
//! `producer NAME send-offsets …` and `producer NAME transform CONSUMER TOPIC`.

use super::producer::unknown_producer_verb;
use super::*;

/// The verbs after `producer NAME` read here.
pub(super) const TRANSACTION_VERBS: &[&str] = &[
    "init-transactions",
    "begin",
    "commit",
    "abort",
    "send-offsets",
    "transform",
];

/// `producer NAME VERB …` for a verb of [`TRANSACTION_VERBS`].
pub(super) fn transaction_step(
    c: &mut Cursor,
    producer: String,
    verb: &Token,
) -> Result<StepKind, ParseError> {
    let action = match verb.text.as_str() {
        "init-transactions" => Action::InitTransactions { producer },
        "begin" => Action::BeginTransaction { producer },
        "commit" => Action::CommitTransaction { producer },
        "abort" => Action::AbortTransaction { producer },
        "send-offsets" => return send_offsets_step(c, producer, verb),
        "transform" => {
            let consumer = c.next(What::Id("parse.what.input-consumer"))?.text.clone();
            let topic = c.next(What::Id("parse.what.output-topic"))?.text.clone();
            c.done()?;
            return Ok(StepKind::Act(Action::Transform {
                producer,
                consumer,
                topic,
            }));
        }
        _ => return Err(unknown_producer_verb(c, verb)),
    };
    c.done()?;
    Ok(StepKind::Act(action))
}

/// `producer NAME send-offsets group=GROUP|consumer=NAME TOPIC-P=OFFSET…`
/// (`KafkaProducer.sendOffsetsToTransaction`).
fn send_offsets_step(
    c: &mut Cursor,
    producer: String,
    verb: &Token,
) -> Result<StepKind, ParseError> {
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut group_id = None;
    let mut consumer = None;
    let mut offsets = Vec::new();
    for (t, k, v) in opts {
        if k == "group" {
            group_id = Some(v);
        } else if k == "consumer" {
            consumer = Some(v);
        } else {
            let tp = TopicPartition::parse(&k).ok_or_else(|| {
                c.err(t.column, got(msg!("parse.what.partition-offset"), &t.text))
            })?;
            let offset: i64 = number(c, t, &v, "offset")?;
            // `new OffsetAndMetadata(-5)` throws before anything is sent.
            if offset < 0 {
                return Err(c.err(
                    t.column,
                    msg!("parse.negative-offset", partition = k, offset = offset),
                ));
            }
            offsets.push((tp, offset));
        }
    }
    // `consumer=NAME` sends that consumer's groupMetadata() (its group, its generation
    // and member id); else `group=GROUP` a simple group's.
    let group_id = match (group_id, &consumer) {
        (Some(g), _) => g,
        (None, Some(_)) => String::new(),
        (None, None) => return Err(c.err(verb.column, needs("send-offsets", "group=GROUP"))),
    };
    Ok(StepKind::Act(Action::SendOffsetsToTransaction {
        producer,
        group_id,
        offsets,
        consumer,
    }))
}
