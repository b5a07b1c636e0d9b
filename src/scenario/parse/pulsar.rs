//! The `pulsar …` family of steps: the Pulsar world's setup, actions, faults and
//! views, in the same language (documented in docs/scenarios.md).

use serde::Serialize;

use super::tokens::{
    arg1, config_value, got, no_options, no_words, number, one_of, unknown_option, Cursor, Token,
    What,
};
use super::ParseError;
use crate::msg;
use crate::protocol::config_def::Place;
use crate::pulsar::{Position, PulsarAction, PulsarConfig, SubscriptionType, TxnStatus};
use crate::sim::{Direction, Fault, MessageMatch};

/// A `pulsar` line: its canonical text (how it prints back) and what it does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PulsarStep {
    pub text: String,
    pub kind: PulsarStepKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PulsarStepKind {
    /// `pulsar cluster …`: only before every other `pulsar` step.
    Cluster(PulsarConfig),
    Act(PulsarAction),
    Print(PulsarView),
}

/// The read-only views of the Pulsar world.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PulsarView {
    /// The events since the last timeline print, with their data-flow step numbers.
    Timeline,
    /// A partition's entries with maxReadPosition.
    Entries { topic: String },
    /// The transaction buffer's metadata and snapshot.
    Buffer { topic: String },
    /// A subscription's cursor, pending acks and redeliveries.
    Subscription { topic: String, subscription: String },
    /// A subscription's pending-ack log.
    PendingAckLog { topic: String, subscription: String },
    /// A coordinator's transaction log.
    TxnLog { tc: u64 },
    /// A coordinator's transactions in memory.
    Coordinator { tc: u64 },
    /// What a consumer received so far.
    Received { consumer: String },
    /// A transaction as its client sees it.
    Txn { name: String },
    /// `consumer.getLastMessageId()` on a partition.
    LastMessageId { topic: String },
}

fn position(c: &Cursor, t: &Token) -> Result<Position, ParseError> {
    let bad = || c.err(t.column, got(msg!("parse.what.position"), &t.text));
    let (l, rest) = t.text.split_once(':').ok_or_else(bad)?;
    let (e, index) = match rest.split_once(':') {
        Some((e, i)) => (e, Some(i.parse::<u32>().map_err(|_| bad())?)),
        None => (rest, None),
    };
    let mut p = Position::new(l.parse().map_err(|_| bad())?, e.parse().map_err(|_| bad())?);
    p.batch_index = index;
    Ok(p)
}

/// One or more positions (`3:0`, `3:0:1`), the words after an ack or nack.
fn positions(c: &Cursor, words: &[&Token]) -> Result<Vec<Position>, ParseError> {
    if words.is_empty() {
        return Err(c.err(c.column(), msg!("parse.no-positions")));
    }
    words.iter().map(|t| position(c, t)).collect()
}

fn api(c: &Cursor, t: &Token) -> Result<String, ParseError> {
    const APIS: &[&str] = &[
        "LookupTopic",
        "NewTxn",
        "AddPartitionToTxn",
        "AddSubscriptionToTxn",
        "Send",
        "Flow",
        "Ack",
        "EndTxn",
        "EndTxnOnPartition",
        "EndTxnOnSubscription",
    ];
    if APIS.contains(&t.text.as_str()) {
        Ok(t.text.clone())
    } else {
        Err(c.err(
            t.column,
            msg!(
                "parse.unknown-pulsar-api",
                word = &t.text,
                apis = APIS.join(", ")
            ),
        ))
    }
}

/// The optional `replay.ms=N` of a load (0 when absent), then the end of the line.
fn replay_ms(c: &mut Cursor) -> Result<i64, ParseError> {
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut ms = 0;
    for (t, k, v) in opts {
        match k.as_str() {
            "replay.ms" => {
                ms = number(c, t, &v, "replay.ms")?;
                if !(0..=i64::from(i32::MAX)).contains(&ms) {
                    return Err(c.err(t.column, msg!("parse.replay-ms")));
                }
            }
            _ => return Err(unknown_option(c, t, &k)),
        }
    }
    Ok(ms)
}

/// Parses the words after `pulsar`.
pub(super) fn pulsar_step(c: &mut Cursor, text: &str) -> Result<PulsarStep, ParseError> {
    let head = c.next(What::Id("parse.what.pulsar-command"))?;
    let kind = match head.text.as_str() {
        "cluster" => PulsarStepKind::Cluster(cluster(c)?),
        "topic" => PulsarStepKind::Act(topic(c)?),
        "subscribe" => PulsarStepKind::Act(subscribe(c)?),
        "send" => PulsarStepKind::Act(send(c)?),
        "nack" => {
            let consumer = c.next(What::Id("parse.what.consumer-name"))?.text.clone();
            let (opts, words) = c.rest();
            no_options(c, &opts)?;
            let positions = positions(c, &words)?;
            PulsarStepKind::Act(PulsarAction::Nack {
                consumer,
                positions,
            })
        }
        "ledger" => PulsarStepKind::Act(ledger(c)?),
        "receive" => {
            let consumer = c.next(What::Id("parse.what.consumer-name"))?.text.clone();
            let (opts, words) = c.rest();
            no_words(c, &words)?;
            let mut permits = 100;
            for (t, k, v) in opts {
                match k.as_str() {
                    "max" => permits = number(c, t, &v, "max")?,
                    _ => return Err(unknown_option(c, t, &k)),
                }
            }
            PulsarStepKind::Act(PulsarAction::Receive { consumer, permits })
        }
        "ack" => PulsarStepKind::Act(ack(c)?),
        "txn" => PulsarStepKind::Act(txn(c)?),
        "tc" => PulsarStepKind::Act(tc(c)?),
        "snapshot" => {
            let topic = c.next(What::Id("parse.what.topic-partition"))?.text.clone();
            c.done()?;
            PulsarStepKind::Act(PulsarAction::TakeSnapshot { topic })
        }
        "run" => {
            let t = c.next(What::Id("parse.what.milliseconds"))?;
            let ms: i64 = number(c, t, &t.text, "run")?;
            c.done()?;
            PulsarStepKind::Act(PulsarAction::Run { ms })
        }
        "hold" | "release" => PulsarStepKind::Act(hold_or_release(c, head.text == "hold")?),
        "drop" => PulsarStepKind::Act(drop_next(c)?),
        "heal" => {
            c.done()?;
            PulsarStepKind::Act(PulsarAction::Heal)
        }
        "print" => PulsarStepKind::Print(view(c)?),
        other => {
            return Err(c.err(
                head.column,
                arg1("parse.unknown-pulsar-command", "word", other),
            ))
        }
    };
    Ok(PulsarStep {
        text: text.to_string(),
        kind,
    })
}

/// `pulsar cluster KEY=VALUE…`.
fn cluster(c: &mut Cursor) -> Result<PulsarConfig, ParseError> {
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut config = PulsarConfig::default();
    for (t, k, v) in opts {
        // Read through the ConfigDef table: a value out of its key's range, or an
        // unknown key, is refused in Kafka's words.
        let value = config_value(c, t, Place::PulsarCluster, &k, &v)?;
        let n = value.number();
        match k.as_str() {
            // Validated by the table: every number is within its key's range.
            "brokers" => config.brokers = i32::try_from(n).unwrap_or(1),
            "coordinators" => config.coordinators = u64::try_from(n).unwrap_or(1),
            "latency.ms" => config.latency_ms = n,
            "transactionCoordinatorEnabled" => {
                config.transaction_coordinator_enabled = value.boolean()
            }
            "brokerDeduplicationEnabled" => config.broker_deduplication_enabled = value.boolean(),
            "transactionTimeoutMs" => config.transaction_timeout_ms = n,
            "operationTimeoutMs" => config.operation_timeout_ms = n,
            _ => {
                return Err(c.err(
                    t.column,
                    arg1("parse.unknown-pulsar-cluster-option", "option", &k),
                ))
            }
        }
    }
    Ok(config)
}

/// `pulsar topic create NAME [partitions=N]` or `pulsar topic unload TOPIC [replay.ms=N]`.
fn topic(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let verb = c.next(What::OneOf(&["create", "unload"]))?;
    if verb.text == "unload" {
        let topic = c.next(What::Id("parse.what.topic-partition"))?.text.clone();
        let replay_ms = replay_ms(c)?;
        return Ok(PulsarAction::UnloadTopic { topic, replay_ms });
    }
    if verb.text != "create" {
        return Err(c.err(
            verb.column,
            msg!("parse.expected", what = one_of(&["`create`", "`unload`"])),
        ));
    }
    let name = c.next(What::Id("parse.what.topic-name"))?.text.clone();
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut partitions = 1;
    for (t, k, v) in opts {
        match k.as_str() {
            "partitions" => partitions = number(c, t, &v, "partitions")?,
            _ => return Err(unknown_option(c, t, &k)),
        }
    }
    Ok(PulsarAction::CreateTopic { name, partitions })
}

/// `pulsar subscribe CONSUMER TOPIC SUBSCRIPTION [type=…] [dlq.max.redeliver=N]`.
fn subscribe(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let consumer = c.next(What::Id("parse.what.consumer-name"))?.text.clone();
    let topic = c.next(What::Id("parse.what.topic-partition"))?.text.clone();
    let subscription = c
        .next(What::Id("parse.what.subscription-name"))?
        .text
        .clone();
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut sub_type = SubscriptionType::default();
    let mut max_redeliver_count = None;
    for (t, k, v) in opts {
        match k.as_str() {
            "dlq.max.redeliver" => {
                let n: u32 = number(c, t, &v, "dlq.max.redeliver")?;
                if n == 0 {
                    return Err(c.err(t.column, msg!("parse.dlq-max-redeliver")));
                }
                max_redeliver_count = Some(n);
            }
            "type" => {
                sub_type = SubscriptionType::parse(&v)
                    .ok_or_else(|| c.err(t.column, msg!("parse.subscription-type")))?
            }
            _ => return Err(unknown_option(c, t, &k)),
        }
    }
    Ok(PulsarAction::Subscribe {
        consumer,
        topic,
        subscription,
        sub_type,
        max_redeliver_count,
    })
}

/// `pulsar send PRODUCER TOPIC [txn=T] [batch=true|false] [deliver.after=MS] [seq=N]
/// VALUE…`.
fn send(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let producer = c.next(What::Id("parse.what.producer-name"))?.text.clone();
    let topic = c.next(What::Id("parse.what.topic-partition"))?.text.clone();
    let (opts, words) = c.rest();
    let (mut txn, mut sequence_id, mut deliver_after_ms) = (None, None, None);
    let mut batch = false;
    for (t, k, v) in opts {
        match k.as_str() {
            "txn" => txn = Some(v),
            "batch" => {
                batch = match v.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(c.err(t.column, msg!("parse.batch-flag"))),
                }
            }
            "deliver.after" => {
                let ms: i64 = number(c, t, &v, "deliver.after")?;
                if !(0..=i64::from(i32::MAX)).contains(&ms) {
                    return Err(c.err(t.column, msg!("parse.deliver-after")));
                }
                deliver_after_ms = Some(ms);
            }
            "seq" => sequence_id = Some(number(c, t, &v, "seq")?),
            _ => return Err(unknown_option(c, t, &k)),
        }
    }
    if words.is_empty() {
        return Err(c.err(c.column(), msg!("parse.no-values")));
    }
    let values = words.iter().map(|t| t.text.clone()).collect();
    Ok(PulsarAction::Send {
        producer,
        topic,
        values,
        txn,
        sequence_id,
        deliver_after_ms,
        batch,
    })
}

/// `pulsar ledger fail|heal TOPIC [SUBSCRIPTION]`: the topic's (or its subscription's
/// pending-ack) ledger refuses writes, or takes them again.
fn ledger(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let verb = c.next(What::OneOf(&["fail", "heal"]))?;
    let failing = match verb.text.as_str() {
        "fail" => true,
        "heal" => false,
        other => return Err(c.err(verb.column, got(one_of(&["fail", "heal"]), other))),
    };
    let topic = c.next(What::Id("parse.what.topic-partition"))?.text.clone();
    let (opts, words) = c.rest();
    no_options(c, &opts)?;
    if words.len() > 1 {
        return Err(c.err(words[1].column, msg!("parse.one-subscription")));
    }
    let subscription = words.first().map(|t| t.text.clone());
    Ok(PulsarAction::FailLedger {
        topic,
        subscription,
        failing,
    })
}

/// `pulsar ack CONSUMER [txn=T] [cumulative] POSITION…`.
fn ack(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let consumer = c.next(What::Id("parse.what.consumer-name"))?.text.clone();
    let (opts, mut words) = c.rest();
    let mut txn = None;
    for (t, k, v) in opts {
        match k.as_str() {
            "txn" => txn = Some(v),
            _ => return Err(unknown_option(c, t, &k)),
        }
    }
    let cumulative = words.first().is_some_and(|t| t.text == "cumulative");
    if cumulative {
        words.remove(0);
        if words.len() != 1 {
            return Err(c.err(c.column(), msg!("parse.cumulative-ack")));
        }
    }
    let positions = positions(c, &words)?;
    Ok(PulsarAction::Ack {
        consumer,
        positions,
        txn,
        cumulative,
    })
}

/// `pulsar txn new|commit|abort NAME …` and `pulsar txn status NAME STATUS
/// expected=STATUS`.
fn txn(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let verb = c.next(What::OneOf(&["new", "commit", "abort", "status"]))?;
    let name = c
        .next(What::Id("parse.what.transaction-name"))?
        .text
        .clone();
    let (opts, words) = c.rest();
    if verb.text != "status" || words.len() > 1 {
        no_words(
            c,
            &words[words.len().min(usize::from(verb.text == "status"))..],
        )?;
    }
    match verb.text.as_str() {
        "new" => {
            let mut timeout_ms = None;
            for (t, k, v) in opts {
                match k.as_str() {
                    "timeout.ms" => timeout_ms = Some(number(c, t, &v, "timeout.ms")?),
                    _ => return Err(unknown_option(c, t, &k)),
                }
            }
            Ok(PulsarAction::NewTxn { name, timeout_ms })
        }
        "status" => txn_status(c, name, &opts, &words),
        "commit" | "abort" => {
            no_options(c, &opts)?;
            let commit = verb.text == "commit";
            Ok(PulsarAction::EndTxn { name, commit })
        }
        other => Err(c.err(
            verb.column,
            arg1("parse.unknown-txn-command", "word", other),
        )),
    }
}

/// `pulsar txn status NAME STATUS expected=STATUS`: the coordinator's
/// `updateTxnStatus`, with the status it expects to find.
fn txn_status(
    c: &Cursor,
    name: String,
    opts: &[(&Token, String, String)],
    words: &[&Token],
) -> Result<PulsarAction, ParseError> {
    let status = |t: &Token, s: &str| {
        TxnStatus::parse(s).ok_or_else(|| c.err(t.column, arg1("parse.not-status", "status", s)))
    };
    let Some(&target) = words.first() else {
        return Err(c.err(
            c.column(),
            msg!("parse.expected", what = msg!("parse.what.status")),
        ));
    };
    let new = status(target, &target.text)?;
    let mut expected = None;
    for (t, k, v) in opts {
        match k.as_str() {
            "expected" => expected = Some(status(t, v)?),
            _ => return Err(unknown_option(c, t, k)),
        }
    }
    let expected = expected.ok_or_else(|| {
        c.err(
            c.column(),
            msg!("parse.expected", what = "`expected=STATUS`"),
        )
    })?;
    Ok(PulsarAction::UpdateTxnStatus {
        name,
        new,
        expected,
    })
}

/// `pulsar tc N crash` or `pulsar tc N recover [replay.ms=N]`.
fn tc(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let t = c.next(What::Id("parse.what.coordinator-id"))?;
    let tc: u64 = number(c, t, &t.text, msg!("parse.number.coordinator-id"))?;
    let verb = c.next(What::OneOf(&["crash", "recover"]))?;
    match verb.text.as_str() {
        "crash" => {
            c.done()?;
            Ok(PulsarAction::CrashCoordinator { tc })
        }
        "recover" => {
            let replay_ms = replay_ms(c)?;
            Ok(PulsarAction::RecoverCoordinator { tc, replay_ms })
        }
        other => Err(c.err(verb.column, got(one_of(&["crash", "recover"]), other))),
    }
}

/// `pulsar hold API` (`hold`: true) or `pulsar release API`: that command's requests wait
/// in the network, or go on.
fn hold_or_release(c: &mut Cursor, hold: bool) -> Result<PulsarAction, ParseError> {
    let t = c.next(What::Id("parse.what.pulsar-command-name"))?;
    let api = api(c, t)?;
    c.done()?;
    Ok(if hold {
        PulsarAction::Arm {
            fault: Fault::Hold {
                matching: MessageMatch {
                    api: Some(api),
                    direction: Some(Direction::Request),
                    ..MessageMatch::default()
                },
            },
        }
    } else {
        PulsarAction::Release { api }
    })
}

/// `pulsar drop next API [request|response]`: that command's next message is lost.
fn drop_next(c: &mut Cursor) -> Result<PulsarAction, ParseError> {
    let next = c.next(What::Code("next"))?;
    if next.text != "next" {
        return Err(c.err(next.column, msg!("parse.expected", what = "`next`")));
    }
    let t = c.next(What::Id("parse.what.pulsar-command-name"))?;
    let api = api(c, t)?;
    let direction = match c.peek().map(|t| t.text.as_str()) {
        None | Some("request") => Direction::Request,
        Some("response") => Direction::Response,
        Some(other) => return Err(c.err(c.column(), got(one_of(&["request", "response"]), other))),
    };
    if c.peek().is_some() {
        c.pos += 1;
    }
    c.done()?;
    Ok(PulsarAction::Arm {
        fault: Fault::Drop {
            matching: MessageMatch {
                api: Some(api),
                direction: Some(direction),
                ..MessageMatch::default()
            },
            every: false,
        },
    })
}

/// `pulsar print VIEW …`: one of [`PulsarView`].
fn view(c: &mut Cursor) -> Result<PulsarView, ParseError> {
    let what = c.next(What::Id("parse.what.view"))?;
    let mut topic = || -> Result<String, ParseError> {
        Ok(c.next(What::Id("parse.what.topic-partition"))?.text.clone())
    };
    let view = match what.text.as_str() {
        "timeline" => PulsarView::Timeline,
        "last-message-id" => PulsarView::LastMessageId { topic: topic()? },
        "entries" => PulsarView::Entries { topic: topic()? },
        "buffer" => PulsarView::Buffer { topic: topic()? },
        "subscription" | "pending-ack-log" => {
            let topic = topic()?;
            let subscription = c.next(What::Id("parse.what.subscription"))?.text.clone();
            if what.text == "subscription" {
                PulsarView::Subscription {
                    topic,
                    subscription,
                }
            } else {
                PulsarView::PendingAckLog {
                    topic,
                    subscription,
                }
            }
        }
        "txn-log" | "coordinator" => {
            let t = c.next(What::Id("parse.what.coordinator-id"))?;
            let tc: u64 = number(c, t, &t.text, msg!("parse.number.coordinator-id"))?;
            if what.text == "txn-log" {
                PulsarView::TxnLog { tc }
            } else {
                PulsarView::Coordinator { tc }
            }
        }
        "received" => PulsarView::Received {
            consumer: c.next(What::Id("parse.what.consumer"))?.text.clone(),
        },
        "txn" => PulsarView::Txn {
            name: c
                .next(What::Id("parse.what.transaction-name"))?
                .text
                .clone(),
        },
        other => {
            return Err(c.err(
                what.column,
                arg1("parse.unknown-pulsar-view", "word", other),
            ))
        }
    };
    c.done()?;
    Ok(view)
}
