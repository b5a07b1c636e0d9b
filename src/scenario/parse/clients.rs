//! The client steps of the scenario language: `producer NAME …` and `consumer NAME …`.

use super::*;

/// `producer NAME …`: the producer's own steps.
pub(super) fn producer_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let kind = {
        let name = c.next("a producer name")?.text.clone();
        let verb = c.next("create, send or flush")?;
        match verb.text.as_str() {
            "create" => {
                let (opts, words) = c.rest();
                no_words(c, &words)?;
                StepKind::Act(Action::CreateProducer {
                    name,
                    configs: opts.into_iter().map(|(_, k, v)| (k, v)).collect(),
                })
            }
            "send" => {
                let tp_tok = c.next("a partition like `orders-0`")?;
                let topic_partition = topic_partition(c, tp_tok)?;
                let values: Vec<String> =
                    c.tokens[c.pos..].iter().map(|t| t.text.clone()).collect();
                if values.is_empty() {
                    return Err(c.err(c.end_column + 1, "expected at least one value to send"));
                }
                StepKind::Act(Action::Send {
                    producer: name,
                    topic_partition,
                    values,
                })
            }
            "flush" => {
                c.done()?;
                StepKind::Act(Action::Flush { producer: name })
            }
            "init-transactions" => {
                c.done()?;
                StepKind::Act(Action::InitTransactions { producer: name })
            }
            "begin" => {
                c.done()?;
                StepKind::Act(Action::BeginTransaction { producer: name })
            }
            "commit" => {
                c.done()?;
                StepKind::Act(Action::CommitTransaction { producer: name })
            }
            "abort" => {
                c.done()?;
                StepKind::Act(Action::AbortTransaction { producer: name })
            }
            "send-offsets" => {
                let (opts, words) = c.rest();
                no_words(c, &words)?;
                let mut group_id = None;
                let mut offsets = Vec::new();
                for (t, k, v) in opts {
                    if k == "group" {
                        group_id = Some(v);
                    } else {
                        let tp = TopicPartition::parse(&k).ok_or_else(|| {
                            c.err(
                                t.column,
                                format!(
                                    "expected PARTITION=OFFSET like `in-0=3`, got `{}`",
                                    t.text
                                ),
                            )
                        })?;
                        let offset: i64 = number(c, t, &v, "offset")?;
                        // `new OffsetAndMetadata(-5)` throws before anything is sent.
                        if offset < 0 {
                            return Err(c.err(
                                t.column,
                                format!("{k}={offset}: IllegalArgumentException: Invalid negative offset (Kafka's OffsetAndMetadata refuses it)"),
                            ));
                        }
                        offsets.push((tp, offset));
                    }
                }
                let group_id =
                    group_id.ok_or_else(|| c.err(verb.column, "send-offsets needs group=GROUP"))?;
                StepKind::Act(Action::SendOffsetsToTransaction {
                    producer: name,
                    group_id,
                    offsets,
                })
            }
            "transform" => {
                let consumer = c.next("the input's consumer")?.text.clone();
                let topic = c.next("the output topic")?.text.clone();
                c.done()?;
                StepKind::Act(Action::Transform {
                    producer: name,
                    consumer,
                    topic,
                })
            }
            other => return Err(c.err(verb.column, format!("unknown producer command `{other}`"))),
        }
    };
    Ok(kind)
}

/// `consumer NAME …`: the consumer's own steps.
pub(super) fn consumer_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let kind = {
        let name = c.next("a consumer name")?.text.clone();
        let verb = c.next("create, assign or poll")?;
        match verb.text.as_str() {
            "create" => {
                let (opts, words) = c.rest();
                no_words(c, &words)?;
                StepKind::Act(Action::CreateConsumer {
                    name,
                    configs: opts.into_iter().map(|(_, k, v)| (k, v)).collect(),
                })
            }
            "assign" => {
                let mut partitions = Vec::new();
                while let Some(t) = c.peek() {
                    partitions.push(topic_partition(c, t)?);
                    c.pos += 1;
                }
                if partitions.is_empty() {
                    return Err(c.err(
                        c.end_column + 1,
                        "expected at least one partition like `orders-0`",
                    ));
                }
                StepKind::Act(Action::Assign {
                    consumer: name,
                    partitions,
                })
            }
            "poll" => {
                c.done()?;
                StepKind::Act(Action::Poll { consumer: name })
            }
            "seek" => {
                let t = c.next("a partition like `orders-0`")?;
                let topic_partition = topic_partition(c, t)?;
                let t = c.next("an offset")?;
                let offset: i64 = number(c, t, &t.text, "offset")?;
                c.done()?;
                StepKind::Act(Action::Seek {
                    consumer: name,
                    topic_partition,
                    offset,
                })
            }
            other => return Err(c.err(verb.column, format!("unknown consumer command `{other}`"))),
        }
    };
    Ok(kind)
}
