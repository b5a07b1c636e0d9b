//! The disk steps, with the log cleaner (feature `log-cleaner`; the main page and the
//! Pulsar site leave them out): `snapshot TOPIC-P`, `truncate broker-N TOPIC-P
//! offset=N`, `clean TOPIC-P` and `fault corrupt broker-N TOPIC-P/FILE [at=N]`.

use super::*;

/// `snapshot TOPIC-P`: ProducerStateManager.takeSnapshot, now.
pub(super) fn snapshot_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let topic_partition = lone_partition(c)?;
    Ok(StepKind::Act(Action::TakeSnapshot { topic_partition }))
}

/// `truncate broker-N TOPIC-P offset=N`: a follower's replica fetcher truncating its log.
pub(super) fn truncate_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let usage = || {
        msg!(
            "parse.expected",
            what = "`truncate broker-N TOPIC-P offset=N`"
        )
    };
    let b = c.next(What::Code("broker-N"))?;
    let Some(n) = b.text.strip_prefix("broker-") else {
        return Err(c.err(b.column, usage()));
    };
    let broker = number(c, b, n, "broker")?;
    let topic_partition = next_partition(c)?;
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let (t, k, v) = opts.first().ok_or_else(|| c.err(b.column, usage()))?;
    if k != "offset" || opts.len() > 1 {
        return Err(c.err(t.column, usage()));
    }
    let offset = number(c, t, v, "offset")?;
    Ok(StepKind::Act(Action::TruncateLog {
        broker,
        topic_partition,
        offset,
    }))
}

/// `clean TOPIC-P`: the log cleaner, now (Kafka's cleaner threads run on their own).
pub(super) fn clean_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let topic_partition = lone_partition(c)?;
    Ok(StepKind::Act(Action::CleanLog { topic_partition }))
}

/// A `TOPIC-P` that ends the line.
fn lone_partition(c: &mut Cursor) -> Result<TopicPartition, ParseError> {
    let topic_partition = next_partition(c)?;
    c.done()?;
    Ok(topic_partition)
}

/// `fault corrupt broker-N PATH [at=N]` (after `fault corrupt`): a disk fault, not a
/// message's.
pub(super) fn corrupt_step(c: &mut Cursor) -> Result<Action, ParseError> {
    let usage = || {
        msg!(
            "parse.expected",
            what = "`fault corrupt broker-N TOPIC-P/FILE [at=POSITION]`"
        )
    };
    let b = c.next(What::Code("broker-N"))?;
    let broker = match b.text.strip_prefix("broker-").map(str::parse::<i32>) {
        Some(Ok(n)) => n,
        _ => return Err(c.err(b.column, usage())),
    };
    let (opts, words) = c.rest();
    let [path] = words.as_slice() else {
        return Err(c.err(b.column, usage()));
    };
    let mut position = None;
    for (t, k, v) in &opts {
        if k != "at" {
            return Err(c.err(t.column, usage()));
        }
        position = Some(number(c, t, v, "at")?);
    }
    Ok(Action::CorruptFile {
        broker,
        path: path.text.clone(),
        position,
    })
}
