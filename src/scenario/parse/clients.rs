//! The client steps of the scenario language: `producer NAME …` and `consumer NAME …`.

use super::*;

/// `producer NAME …`: the producer's own steps.
pub(super) fn producer_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let kind = {
        let name = c.next(What::Id("parse.what.producer-name"))?.text.clone();
        let verb = c.next(What::OneOf(&["create", "send", "flush"]))?;
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
                let tp_tok = c.next(What::Id("parse.what.partition"))?;
                let topic_partition = topic_partition(c, tp_tok)?;
                let values: Vec<String> =
                    c.tokens[c.pos..].iter().map(|t| t.text.clone()).collect();
                if values.is_empty() {
                    return Err(c.err(c.end_column + 1, msg!("parse.no-values-to-send")));
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
                // `consumer=NAME` sends that consumer's groupMetadata() (its group, its
                // generation and member id); else `group=GROUP` a simple group's.
                let group_id = match (group_id, &consumer) {
                    (Some(g), _) => g,
                    (None, Some(_)) => String::new(),
                    (None, None) => {
                        return Err(c.err(verb.column, needs("send-offsets", "group=GROUP")))
                    }
                };
                StepKind::Act(Action::SendOffsetsToTransaction {
                    producer: name,
                    group_id,
                    offsets,
                    consumer,
                })
            }
            "transform" => {
                let consumer = c.next(What::Id("parse.what.input-consumer"))?.text.clone();
                let topic = c.next(What::Id("parse.what.output-topic"))?.text.clone();
                c.done()?;
                StepKind::Act(Action::Transform {
                    producer: name,
                    consumer,
                    topic,
                })
            }
            other => {
                return Err(c.err(
                    verb.column,
                    arg1("parse.unknown-producer-command", "word", other),
                ))
            }
        }
    };
    Ok(kind)
}

/// `consumer NAME …`: the consumer's own steps.
pub(super) fn consumer_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let kind = {
        let name = c.next(What::Id("parse.what.consumer-name"))?.text.clone();
        let verb = c.next(What::OneOf(&["create", "assign", "subscribe", "poll"]))?;
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
                    return Err(c.err(c.end_column + 1, msg!("parse.no-partitions")));
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
            #[cfg(feature = "group-membership")]
            "subscribe" => {
                let mut topics = Vec::new();
                while let Some(t) = c.peek() {
                    topics.push(t.text.clone());
                    c.pos += 1;
                }
                if topics.is_empty() {
                    return Err(c.err(c.end_column + 1, msg!("parse.no-topics")));
                }
                StepKind::Act(Action::Subscribe {
                    consumer: name,
                    topics,
                })
            }
            #[cfg(feature = "group-membership")]
            "unsubscribe" => {
                c.done()?;
                StepKind::Act(Action::Unsubscribe { consumer: name })
            }
            // A site without group membership (every web page).
            #[cfg(not(feature = "group-membership"))]
            "subscribe" | "unsubscribe" => {
                return Err(c.err(verb.column, msg!("parse.no-group-membership")))
            }
            "seek" => {
                let t = c.next(What::Id("parse.what.partition"))?;
                let topic_partition = topic_partition(c, t)?;
                let t = c.next(What::Id("parse.what.offset"))?;
                let offset: i64 = number(c, t, &t.text, "offset")?;
                c.done()?;
                StepKind::Act(Action::Seek {
                    consumer: name,
                    topic_partition,
                    offset,
                })
            }
            other => {
                return Err(c.err(
                    verb.column,
                    arg1("parse.unknown-consumer-command", "word", other),
                ))
            }
        }
    };
    Ok(kind)
}
