//! `topic …`: CreateTopics, and (feature `topic-admin`) the admin requests that change
//! a topic that exists: `alter-config` (IncrementalAlterConfigs), `create-partitions`
//! (CreatePartitions), `delete` (DeleteTopics), `reassign` (AlterPartitionReassignments)
//! and `list-reassignments` (ListPartitionReassignments).

#[cfg(feature = "topic-admin")]
use super::tokens::no_options;
use super::*;

/// The verbs that change a topic that exists.
const ADMIN_VERBS: &[&str] = &[
    "alter-config",
    "create-partitions",
    "delete",
    "reassign",
    "list-reassignments",
];

/// `topic VERB NAME …`.
pub(super) fn topic_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    // What a line that stops after `topic` is told to write.
    #[cfg(feature = "topic-admin")]
    let expected = What::OneOf(&[
        "create",
        "alter-config",
        "create-partitions",
        "delete",
        "reassign",
        "list-reassignments",
    ]);
    #[cfg(not(feature = "topic-admin"))]
    let expected = What::Code("`create`");
    let verb = c.next(expected)?.clone();
    let admin = ADMIN_VERBS.contains(&verb.text.as_str());
    if verb.text != "create" && !admin {
        return Err(c.err(
            verb.column,
            arg1("parse.unknown-topic-command", "word", &verb.text),
        ));
    }
    #[cfg(feature = "topic-admin")]
    if verb.text == "reassign" || verb.text == "list-reassignments" {
        return reassign_step(c, &verb);
    }
    #[cfg(not(feature = "topic-admin"))]
    if admin {
        return Err(c.err(
            verb.column,
            arg1("parse.no-topic-admin", "word", &verb.text),
        ));
    }
    let name = c.next(What::Id("parse.what.topic-name"))?.text.clone();
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    #[cfg(feature = "topic-admin")]
    if verb.text != "create" {
        return admin_step(c, &verb, name, opts);
    }
    let mut partitions = 1;
    let mut configs = Vec::new();
    for (t, k, v) in opts {
        // CreateTopics' `numPartitions` (an INT), not a config: the count is
        // checked when the topic is made (INVALID_PARTITIONS).
        if k == "partitions" {
            partitions = number(c, t, &v, "partitions")?;
        } else {
            configs.push((k, v));
        }
    }
    Ok(StepKind::Act(Action::CreateTopic {
        name,
        partitions,
        configs,
    }))
}

/// `alter-config NAME KEY=VALUE…`, `create-partitions NAME partitions=N
/// [assignment=…]`, `delete NAME`.
#[cfg(feature = "topic-admin")]
fn admin_step(
    c: &Cursor,
    verb: &Token,
    name: String,
    opts: Vec<(&Token, String, String)>,
) -> Result<StepKind, ParseError> {
    let verb = verb.text.as_str();
    if verb == "alter-config" {
        if opts.is_empty() {
            return Err(c.err(c.end_column + 1, needs("topic alter-config", "KEY=VALUE")));
        }
        let configs = opts.into_iter().map(|(_, k, v)| (k, v)).collect();
        return Ok(StepKind::Act(Action::AlterTopicConfigs { name, configs }));
    }
    let mut partitions = None;
    let mut assignment = Vec::new();
    for (t, k, v) in opts {
        match k.as_str() {
            // CreatePartitions' count (an INT): checked by the controller.
            "partitions" if verb == "create-partitions" => {
                partitions = Some(number(c, t, &v, "partitions")?);
            }
            "assignment" if verb == "create-partitions" => {
                assignment = replica_lists(c, t, &v)?;
            }
            _ => return Err(unknown_option(c, t, &k)),
        }
    }
    if verb == "delete" {
        return Ok(StepKind::Act(Action::DeleteTopic { name }));
    }
    let partitions = partitions.ok_or_else(|| {
        c.err(
            c.end_column + 1,
            needs("topic create-partitions", "partitions=N"),
        )
    })?;
    Ok(StepKind::Act(Action::CreatePartitions {
        name,
        partitions,
        assignment,
    }))
}

/// `reassign TOPIC-P replicas=B,B,…|cancel` and `list-reassignments [TOPIC-P…]`.
/// `replicas=cancel` reverts the reassignment in progress (Kafka's null target);
/// `replicas=` with no broker is an empty list, which the controller refuses.
#[cfg(feature = "topic-admin")]
fn reassign_step(c: &mut Cursor, verb: &Token) -> Result<StepKind, ParseError> {
    if verb.text == "list-reassignments" {
        let (opts, words) = c.rest();
        no_options(c, &opts)?;
        let mut partitions = Vec::new();
        for w in &words {
            partitions.push(topic_partition(c, w)?);
        }
        return Ok(StepKind::Act(Action::ListReassignments { partitions }));
    }
    let topic_partition = next_partition(c)?;
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut replicas = None;
    for (t, k, v) in opts {
        if k != "replicas" {
            return Err(unknown_option(c, t, &k));
        }
        replicas = Some(if v == "cancel" {
            None
        } else {
            Some(
                v.split(',')
                    .filter(|b| !b.is_empty())
                    .map(|b| number(c, t, b, "replicas"))
                    .collect::<Result<Vec<i32>, _>>()?,
            )
        });
    }
    let replicas = replicas.ok_or_else(|| {
        c.err(
            c.end_column + 1,
            needs("topic reassign", "replicas=B,B,…|cancel"),
        )
    })?;
    Ok(StepKind::Act(Action::ReassignPartition {
        topic_partition,
        replicas,
    }))
}

/// `1:2,2:3`: one replica list per new partition (`kafka-topics.sh
/// --replica-assignment`'s form), broker ids apart by `:`.
#[cfg(feature = "topic-admin")]
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
