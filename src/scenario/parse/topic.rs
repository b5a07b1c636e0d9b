//! `topic …`: CreateTopics, and (feature `topic-admin`) the admin requests that change
//! a topic that exists: `alter-config` (IncrementalAlterConfigs), `create-partitions`
//! (CreatePartitions) and `delete` (DeleteTopics).

use super::*;

/// The verbs of `topic`.
const VERBS: &[&str] = &["create", "alter-config", "create-partitions", "delete"];

/// `topic VERB NAME …`.
pub(super) fn topic_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    // What a line that stops after `topic` is told to write.
    #[cfg(feature = "topic-admin")]
    let expected = What::OneOf(VERBS);
    #[cfg(not(feature = "topic-admin"))]
    let expected = What::Code("`create`");
    let verb = c.next(expected)?.clone();
    if !VERBS.contains(&verb.text.as_str()) {
        return Err(c.err(
            verb.column,
            arg1("parse.unknown-topic-command", "word", &verb.text),
        ));
    }
    if verb.text != "create" && cfg!(not(feature = "topic-admin")) {
        return Err(c.err(
            verb.column,
            arg1("parse.no-topic-admin", "word", &verb.text),
        ));
    }
    let name = c.next(What::Id("parse.what.topic-name"))?.text.clone();
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut partitions = None;
    let mut assignment = Vec::new();
    let mut configs = Vec::new();
    for (t, k, v) in opts {
        match k.as_str() {
            // CreateTopics' and CreatePartitions' count (an INT), not a config: it is
            // checked by the controller (INVALID_PARTITIONS).
            "partitions" if matches!(verb.text.as_str(), "create" | "create-partitions") => {
                partitions = Some(number(c, t, &v, "partitions")?);
            }
            "assignment" if verb.text == "create-partitions" => {
                assignment = replica_lists(c, t, &v)?;
            }
            _ if matches!(verb.text.as_str(), "create" | "alter-config") => configs.push((k, v)),
            _ => {
                return Err(c.err(t.column, arg1("parse.unknown-option", "option", &k)));
            }
        }
    }
    Ok(match verb.text.as_str() {
        "create" => StepKind::Act(Action::CreateTopic {
            name,
            partitions: partitions.unwrap_or(1),
            configs,
        }),
        #[cfg(feature = "topic-admin")]
        "alter-config" => {
            if configs.is_empty() {
                return Err(c.err(c.end_column + 1, needs("topic alter-config", "KEY=VALUE")));
            }
            StepKind::Act(Action::AlterTopicConfigs { name, configs })
        }
        #[cfg(feature = "topic-admin")]
        "create-partitions" => {
            let partitions = partitions.ok_or_else(|| {
                c.err(
                    c.end_column + 1,
                    needs("topic create-partitions", "partitions=N"),
                )
            })?;
            StepKind::Act(Action::CreatePartitions {
                name,
                partitions,
                assignment,
            })
        }
        #[cfg(feature = "topic-admin")]
        _ => StepKind::Act(Action::DeleteTopic { name }),
        #[cfg(not(feature = "topic-admin"))]
        _ => {
            let _ = assignment;
            return Err(c.err(
                verb.column,
                arg1("parse.no-topic-admin", "word", &verb.text),
            ));
        }
    })
}

/// `1:2,2:3`: one replica list per new partition (`kafka-topics.sh
/// --replica-assignment`'s form), broker ids apart by `:`.
fn replica_lists(c: &Cursor, t: &Token, value: &str) -> Result<Vec<Vec<i32>>, ParseError> {
    value
        .split(',')
        .map(|list| {
            list.split(':')
                .filter(|b| !b.is_empty())
                .map(|b| number(c, t, b, "assignment"))
                .collect()
        })
        .collect()
}
