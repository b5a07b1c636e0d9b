//! The disk steps, with the log cleaner (feature `log-cleaner`; the main page and the
//! Pulsar site leave them out): `snapshot TOPIC-P`, `truncate broker-N TOPIC-P
//! offset=N`, `clean TOPIC-P`.

use super::*;

/// `head` is `snapshot`, `truncate` or `clean`.
pub(super) fn disk_step(c: &mut Cursor, head: &str) -> Result<StepKind, ParseError> {
    let kind = match head {
        "snapshot" => {
            // ProducerStateManager.takeSnapshot, now.
            let tp_tok = c.next(What::Id("parse.what.partition"))?;
            let topic_partition = topic_partition(c, tp_tok)?;
            c.done()?;
            StepKind::Act(Action::TakeSnapshot { topic_partition })
        }
        "truncate" => {
            // A follower's replica fetcher truncating its log.
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
            let tp_tok = c.next(What::Id("parse.what.partition"))?;
            let topic_partition = topic_partition(c, tp_tok)?;
            let (opts, words) = c.rest();
            no_words(c, &words)?;
            let (t, k, v) = opts.first().ok_or_else(|| c.err(b.column, usage()))?;
            if k != "offset" || opts.len() > 1 {
                return Err(c.err(t.column, usage()));
            }
            let offset = number(c, t, v, "offset")?;
            StepKind::Act(Action::TruncateLog {
                broker,
                topic_partition,
                offset,
            })
        }
        "clean" => {
            // The log cleaner, now (Kafka's cleaner threads run on their own).
            let tp_tok = c.next(What::Id("parse.what.partition"))?;
            let topic_partition = topic_partition(c, tp_tok)?;
            c.done()?;
            StepKind::Act(Action::CleanLog { topic_partition })
        }
        _ => {
            return Err(c.err(
                c.end_column + 1,
                arg1("parse.unknown-command", "word", head),
            ))
        }
    };
    Ok(kind)
}
