//! `raw API …` steps: requests built by hand from options and words.

use super::*;
use crate::protocol::LeaderRecoveryState;

/// The APIs `raw NAME …` can send (besides `produce` and the retrying
/// `init-producer-id` without options).
pub(super) const RAW_APIS: &[&str] = &[
    "init-producer-id",
    "find-coordinator",
    "add-partitions",
    "end-txn",
    "write-txn-markers",
    "fetch",
    "list-offsets",
    "offsets-for-leader-epoch",
    "alter-partition",
    "describe-transactions",
    "list-transactions",
];

/// A `raw …` line: `raw init-producer-id` (retried as the client would), `raw produce
/// TOPIC-P pid=… seq=N VALUES` (a batch with the numbers written by hand), or a request
/// of one of [`RAW_APIS`].
pub(super) fn raw_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let verb = c.next(What::OneOf(&["init-producer-id", "produce"]))?;
    let kind = match verb.text.as_str() {
        "init-producer-id" if c.peek().is_none() => StepKind::Act(Action::RawInitProducerId),
        other if RAW_APIS.contains(&other) => {
            let (opts, words) = c.rest();
            raw_request(c, other, verb, &opts, &words)?
        }
        "produce" => {
            let tp_tok = c.next(What::Id("parse.what.partition"))?;
            let tp = topic_partition(c, tp_tok)?;
            let (opts, words) = c.rest();
            let (mut pid, mut epoch, mut seq, mut label, mut show) =
                (None, IdRef::Value(0), None, None, Show::Line);
            let mut txn = None;
            for (t, k, v) in opts {
                match k.as_str() {
                    "pid" => pid = Some(id_ref(c, t, &v, "pid")?),
                    "epoch" => epoch = id_ref(c, t, &v, "epoch")?,
                    "seq" => seq = Some(number(c, t, &v, "seq")?),
                    "label" => label = Some(v),
                    "txn" => txn = Some(v),
                    "show" => {
                        show = match v.as_str() {
                            "line" => Show::Line,
                            "row" => Show::Row,
                            "verdict" => Show::Verdict,
                            "none" => Show::Nothing,
                            _ => return Err(c.err(t.column, msg!("parse.show"))),
                        }
                    }
                    _ => {
                        return Err(c.err(
                            t.column,
                            arg1("parse.unknown-raw-produce-option", "option", &k),
                        ))
                    }
                }
            }
            let pid = pid.ok_or_else(|| c.err(verb.column, msg!("parse.raw-produce-pid")))?;
            let seq = seq.ok_or_else(|| c.err(verb.column, needs("raw produce", "seq=N")))?;
            if words.is_empty() {
                return Err(c.err(c.end_column + 1, msg!("parse.no-records")));
            }
            let values = words.iter().map(|t| t.text.clone()).collect();
            StepKind::RawProduce {
                tp,
                pid,
                epoch,
                seq,
                txn,
                values,
                label,
                show,
            }
        }
        other => {
            return Err(c.err(
                verb.column,
                arg1("parse.unknown-raw-request", "word", other),
            ))
        }
    };
    Ok(kind)
}

/// `raw API [broker=N] …`: builds the request from options and words.
pub(super) fn raw_request(
    c: &Cursor,
    api: &str,
    verb: &Token,
    opts: &[(&Token, String, String)],
    words: &[&Token],
) -> Result<StepKind, ParseError> {
    use crate::log::FetchIsolation;
    use crate::protocol::{MarkerResult, Request, TxnMarkerEntry};
    // Every option this request takes: a typo (`ofset=3`) is refused, not ignored.
    let known: &[&str] = match api {
        "init-producer-id" => &["transactional.id", "timeout", "pid", "epoch"],
        "add-partitions" => &["txn", "pid", "epoch"],
        "end-txn" => &["txn", "pid", "epoch", "version"],
        "write-txn-markers" => &["pid", "epoch", "coordinator-epoch", "transaction-version"],
        "fetch" => &["offset", "isolation", "current-leader-epoch"],
        "list-offsets" => &["isolation", "current-leader-epoch"],
        "offsets-for-leader-epoch" => &["epoch", "current-leader-epoch"],
        "list-transactions" => &["states", "producer-ids", "duration"],
        "alter-partition" => &[
            "broker-id",
            "broker-epoch",
            "leader-epoch",
            "partition-epoch",
            "isr",
            "leader-recovery-state",
        ],
        _ => &[],
    };
    if let Some((t, k, _)) = opts
        .iter()
        .find(|(_, k, _)| k != "broker" && !known.contains(&k.as_str()))
    {
        let mut takes = known.to_vec();
        takes.push("broker");
        return Err(c.err(
            t.column,
            msg!(
                "parse.unknown-raw-option",
                option = k,
                api = api,
                takes = takes.join(", ")
            ),
        ));
    }
    let opt = |name: &str| opts.iter().find(|(_, k, _)| k == name);
    let need = |name: &str| {
        opt(name).ok_or_else(|| {
            c.err(
                verb.column,
                needs(&format!("raw {api}"), &format!("{name}=…")),
            )
        })
    };
    let num = |name: &str| -> Result<i64, ParseError> {
        let (t, _, v) = need(name)?;
        number(c, t, v, name)
    };
    let text = |name: &str| -> Result<String, ParseError> { need(name).map(|(_, _, v)| v.clone()) };
    let epoch = || -> Result<i16, ParseError> {
        let (t, _, v) = need("epoch")?;
        number(c, t, v, "epoch")
    };
    let partitions = || -> Result<Vec<TopicPartition>, ParseError> {
        words
            .iter()
            .filter(|t| {
                !matches!(
                    t.text.as_str(),
                    "commit" | "abort" | "verify-only" | "group"
                )
            })
            .map(|t| topic_partition(c, t))
            .collect()
    };
    let has_word = |w: &str| words.iter().any(|t| t.text == w);
    let result = || -> Result<bool, ParseError> {
        match (has_word("commit"), has_word("abort")) {
            (true, false) => Ok(true),
            (false, true) => Ok(false),
            _ => Err(c.err(
                verb.column,
                msg!(
                    "parse.needs",
                    what = format!("raw {api}"),
                    option = one_of(&["`commit`", "`abort`"])
                ),
            )),
        }
    };
    let isolation = || -> Result<FetchIsolation, ParseError> {
        match opt("isolation").map(|(_, _, v)| v.as_str()) {
            None | Some("read_uncommitted") => Ok(FetchIsolation::HighWatermark),
            Some("read_committed") => Ok(FetchIsolation::TxnCommitted),
            Some(other) => Err(c.err(verb.column, arg1("parse.isolation", "value", other))),
        }
    };
    let request = match api {
        "init-producer-id" => Request::InitProducerId {
            transactional_id: opt("transactional.id").map(|(_, _, v)| v.clone()),
            transaction_timeout_ms: opt("timeout")
                .map_or(Ok(60_000), |(t, _, v)| number(c, t, v, "timeout"))?,
            // KIP-360: the producer id and epoch the producer has (-1 = none).
            producer_id: opt("pid").map_or(Ok(-1), |(t, _, v)| number(c, t, v, "pid"))?,
            producer_epoch: opt("epoch").map_or(Ok(-1), |(t, _, v)| number(c, t, v, "epoch"))?,
        },
        "find-coordinator" => {
            let key = words
                .iter()
                .find(|t| t.text != "group")
                .ok_or_else(|| c.err(verb.column, msg!("parse.find-coordinator-key")))?;
            crate::sim::raw::find_coordinator(key.text.clone(), has_word("group"))
        }
        "add-partitions" => Request::AddPartitionsToTxn {
            transactional_id: text("txn")?,
            producer_id: num("pid")?,
            producer_epoch: epoch()?,
            partitions: partitions()?,
            verify_only: has_word("verify-only"),
        },
        "end-txn" => Request::EndTxn {
            transactional_id: text("txn")?,
            producer_id: num("pid")?,
            producer_epoch: epoch()?,
            committed: result()?,
            version: match opt("version") {
                Some((t, _, v)) => {
                    let n: i16 = number(c, t, v, "version")?;
                    if !(0..=5).contains(&n) {
                        return Err(c.err(t.column, msg!("parse.endtxn-versions")));
                    }
                    Some(n)
                }
                None => None,
            },
        },
        "write-txn-markers" => Request::WriteTxnMarkers {
            markers: vec![TxnMarkerEntry {
                producer_id: num("pid")?,
                producer_epoch: epoch()?,
                result: if result()? {
                    MarkerResult::Commit
                } else {
                    MarkerResult::Abort
                },
                coordinator_epoch: opt("coordinator-epoch")
                    .map_or(Ok(0), |(t, _, v)| number(c, t, v, "coordinator-epoch"))?,
                partitions: partitions()?,
                transaction_version: match opt("transaction-version") {
                    Some((t, _, v)) => {
                        let n: i16 = number(c, t, v, "transaction-version")?;
                        if !(0..=2).contains(&n) {
                            return Err(c.err(t.column, msg!("parse.transaction-versions")));
                        }
                        n
                    }
                    None => 0,
                },
            }],
        },
        "fetch" | "list-offsets" => {
            let tp = partitions()?
                .into_iter()
                .next()
                .ok_or_else(|| c.err(verb.column, arg1("parse.needs-partition", "api", api)))?;
            // KIP-320's currentLeaderEpoch; -1 (the default) sends none.
            let current_leader_epoch: i32 = opt("current-leader-epoch")
                .map_or(Ok(-1), |(t, _, v)| number(c, t, v, "current-leader-epoch"))?;
            if api == "fetch" {
                Request::Fetch {
                    topic_partition: tp,
                    fetch_offset: opt("offset")
                        .map_or(Ok(0), |(t, _, v)| number(c, t, v, "offset"))?,
                    max_bytes: 1 << 20,
                    isolation: isolation()?,
                    current_leader_epoch,
                }
            } else {
                Request::ListOffsets {
                    topic_partition: tp,
                    isolation: isolation()?,
                    earliest: false,
                    current_leader_epoch,
                }
            }
        }
        "offsets-for-leader-epoch" | "alter-partition" => {
            let tp = partitions()?
                .into_iter()
                .next()
                .ok_or_else(|| c.err(verb.column, arg1("parse.needs-partition", "api", api)))?;
            let int = |name: &str, default: Option<i32>| -> Result<i32, ParseError> {
                match (opt(name), default) {
                    (Some((t, _, v)), _) => number(c, t, v, name),
                    (None, Some(d)) => Ok(d),
                    (None, None) => Err(c.err(
                        verb.column,
                        needs(&format!("raw {api}"), &format!("{name}=…")),
                    )),
                }
            };
            if api == "offsets-for-leader-epoch" {
                Request::OffsetsForLeaderEpoch {
                    topic_partition: tp,
                    current_leader_epoch: int("current-leader-epoch", Some(-1))?,
                    leader_epoch: int("epoch", None)?,
                }
            } else {
                let (t, _, v) = need("isr")?;
                let new_isr = v
                    .split(',')
                    .map(|b| number(c, t, b, "isr"))
                    .collect::<Result<Vec<i32>, _>>()?;
                Request::AlterPartition {
                    broker_id: int("broker-id", None)?,
                    broker_epoch: opt("broker-epoch")
                        .map_or(Ok(-1), |(t, _, v)| number(c, t, v, "broker-epoch"))?,
                    topic_partition: tp,
                    leader_epoch: int("leader-epoch", None)?,
                    partition_epoch: int("partition-epoch", None)?,
                    new_isr,
                    leader_recovery_state: match opt("leader-recovery-state") {
                        None => LeaderRecoveryState::Recovered,
                        Some((_, _, v)) if v == "RECOVERED" => LeaderRecoveryState::Recovered,
                        Some((_, _, v)) if v == "RECOVERING" => LeaderRecoveryState::Recovering,
                        Some((t, _, _)) => {
                            return Err(c.err(
                                t.column,
                                msg!(
                                    "parse.expected",
                                    what = one_of(&[
                                        "leader-recovery-state=RECOVERED",
                                        "leader-recovery-state=RECOVERING"
                                    ])
                                ),
                            ))
                        }
                    },
                }
            }
        }
        "describe-transactions" => Request::DescribeTransactions {
            transactional_ids: words.iter().map(|t| t.text.clone()).collect(),
        },
        _ => Request::ListTransactions {
            state_filters: opt("states")
                .map(|(_, _, v)| v.split(',').map(str::to_string).collect())
                .unwrap_or_default(),
            producer_id_filters: match opt("producer-ids") {
                Some((t, _, v)) => v
                    .split(',')
                    .map(|p| number(c, t, p, "producer-ids"))
                    .collect::<Result<Vec<i64>, _>>()?,
                None => Vec::new(),
            },
            duration_filter_ms: match opt("duration") {
                Some((t, _, v)) => number(c, t, v, "duration")?,
                None => -1,
            },
        },
    };
    let broker = match opt("broker") {
        Some((t, _, v)) => Some(number(c, t, v, "broker")?),
        None => None,
    };
    Ok(StepKind::Act(Action::RawRequest { broker, request }))
}
