//! The consumer's steps: `consumer NAME create|assign|poll|seek …` and (feature
//! `group-membership`) `consumer NAME subscribe|unsubscribe`.

use super::*;

/// `consumer NAME VERB …`.
pub(super) fn consumer_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let name = c.next(What::Id("parse.what.consumer-name"))?.text.clone();
    let verb = c.next(What::OneOf(&["create", "assign", "subscribe", "poll"]))?;
    let action = match verb.text.as_str() {
        "create" => {
            let (opts, words) = c.rest();
            no_words(c, &words)?;
            Action::CreateConsumer {
                name,
                configs: opts.into_iter().map(|(_, k, v)| (k, v)).collect(),
            }
        }
        "assign" => {
            let partitions = partitions_to_end(c)?;
            if partitions.is_empty() {
                return Err(c.err(c.end_column + 1, msg!("parse.no-partitions")));
            }
            Action::Assign {
                consumer: name,
                partitions,
            }
        }
        "poll" => {
            c.done()?;
            Action::Poll { consumer: name }
        }
        #[cfg(feature = "group-membership")]
        "subscribe" => {
            let topics: Vec<String> = c.tokens[c.pos..].iter().map(|t| t.text.clone()).collect();
            c.pos = c.tokens.len();
            if topics.is_empty() {
                return Err(c.err(c.end_column + 1, msg!("parse.no-topics")));
            }
            Action::Subscribe {
                consumer: name,
                topics,
            }
        }
        #[cfg(feature = "group-membership")]
        "unsubscribe" => {
            c.done()?;
            Action::Unsubscribe { consumer: name }
        }
        // A site without group membership (every web page).
        #[cfg(not(feature = "group-membership"))]
        "subscribe" | "unsubscribe" => {
            return Err(c.err(verb.column, msg!("parse.no-group-membership")))
        }
        "seek" => {
            let topic_partition = next_partition(c)?;
            let t = c.next(What::Id("parse.what.offset"))?;
            let offset: i64 = number(c, t, &t.text, "offset")?;
            c.done()?;
            Action::Seek {
                consumer: name,
                topic_partition,
                offset,
            }
        }
        other => {
            return Err(c.err(
                verb.column,
                arg1("parse.unknown-consumer-command", "word", other),
            ))
        }
    };
    Ok(StepKind::Act(action))
}
