//! `raw API …` steps: requests built by hand from options and words.

use super::tokens::Bounded;
use super::*;
use crate::log::FetchIsolation;
use crate::protocol::{LeaderRecoveryState, MarkerResult, Request, TxnMarkerEntry};

/// The APIs `raw NAME …` can send (besides `produce` and the retrying
/// `init-producer-id` without options).
pub(super) const RAW_APIS: &[&str] = &[
    "init-producer-id",
    "find-coordinator",
    "add-partitions",
    "end-txn",
    "txn-offset-commit",
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
    match verb.text.as_str() {
        "init-producer-id" if c.peek().is_none() => Ok(StepKind::Act(Action::RawInitProducerId)),
        "produce" => raw_produce_step(c, verb),
        api if RAW_APIS.contains(&api) => {
            let (opts, words) = c.rest();
            raw_request(c, api, verb, &opts, &words)
        }
        _ => Err(unknown_raw_request(c, verb)),
    }
}

/// `unknown raw request `WORD``, at the word.
fn unknown_raw_request(c: &Cursor, verb: &Token) -> ParseError {
    c.err(
        verb.column,
        arg1("parse.unknown-raw-request", "word", &verb.text),
    )
}

/// `raw produce TOPIC-P pid=N|last seq=N [epoch=N|last] [txn=ID] [label=L]
/// [show=line|row|verdict|none] VALUE…`.
fn raw_produce_step(c: &mut Cursor, verb: &Token) -> Result<StepKind, ParseError> {
    let tp = next_partition(c)?;
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
    Ok(StepKind::RawProduce {
        tp,
        pid,
        epoch,
        seq,
        txn,
        values,
        label,
        show,
    })
}

/// Every option a request of [`RAW_APIS`] takes besides `broker`: a typo (`ofset=3`) is
/// refused, not ignored.
fn known_options(api: &str) -> &'static [&'static str] {
    match api {
        "init-producer-id" => &["transactional.id", "timeout", "pid", "epoch"],
        "add-partitions" => &["txn", "pid", "epoch"],
        "end-txn" => &["txn", "pid", "epoch", "version"],
        "txn-offset-commit" => &["txn", "group", "pid", "epoch", "version"],
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
    }
}

/// `raw API [broker=N] …`: builds the request from options and words.
fn raw_request(
    c: &Cursor,
    api: &str,
    verb: &Token,
    opts: &[(&Token, String, String)],
    words: &[&Token],
) -> Result<StepKind, ParseError> {
    let known = known_options(api);
    // TxnOffsetCommit's offsets are options too: `TOPIC-P=OFFSET`.
    let offset = |k: &str| api == "txn-offset-commit" && TopicPartition::parse(k).is_some();
    if let Some((t, k, _)) = opts
        .iter()
        .find(|(_, k, _)| k != "broker" && !known.contains(&k.as_str()) && !offset(k))
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
    let args = RawArgs {
        c,
        api,
        verb,
        opts,
        words,
    };
    let request = match api {
        "init-producer-id" => args.init_producer_id()?,
        "find-coordinator" => {
            let key = words
                .iter()
                .find(|t| t.text != "group")
                .ok_or_else(|| c.err(verb.column, msg!("parse.find-coordinator-key")))?;
            crate::sim::raw::find_coordinator(key.text.clone(), args.has_word("group"))
        }
        "add-partitions" => Request::AddPartitionsToTxn {
            transactional_id: args.text("txn")?,
            producer_id: args.num("pid")?,
            producer_epoch: args.num("epoch")?,
            partitions: args.partitions()?,
            verify_only: args.has_word("verify-only"),
        },
        "end-txn" => Request::EndTxn {
            transactional_id: args.text("txn")?,
            producer_id: args.num("pid")?,
            producer_epoch: args.num("epoch")?,
            committed: args.result()?,
            version: args.version("version", 5, "parse.endtxn-versions")?,
        },
        "txn-offset-commit" => args.txn_offset_commit()?,
        "write-txn-markers" => args.write_txn_markers()?,
        "fetch" | "list-offsets" => args.fetch_or_list_offsets()?,
        "offsets-for-leader-epoch" => Request::OffsetsForLeaderEpoch {
            topic_partition: args.partition()?,
            current_leader_epoch: args.num_or("current-leader-epoch", -1)?,
            leader_epoch: args.num("epoch")?,
        },
        "alter-partition" => args.alter_partition()?,
        "describe-transactions" => Request::DescribeTransactions {
            transactional_ids: words.iter().map(|t| t.text.clone()).collect(),
        },
        "list-transactions" => args.list_transactions()?,
        _ => return Err(unknown_raw_request(c, verb)),
    };
    let broker = match args.opt("broker") {
        Some((t, _, v)) => Some(number(c, t, v, "broker")?),
        None => None,
    };
    Ok(StepKind::Act(Action::RawRequest { broker, request }))
}

/// The options and words of one `raw API …` line, read as its request's fields.
struct RawArgs<'c, 'a> {
    c: &'c Cursor<'a>,
    api: &'c str,
    verb: &'c Token,
    opts: &'c [(&'a Token, String, String)],
    words: &'c [&'a Token],
}

impl RawArgs<'_, '_> {
    fn opt(&self, name: &str) -> Option<&(&Token, String, String)> {
        self.opts.iter().find(|(_, k, _)| k == name)
    }

    /// `raw API needs NAME=…` when the option is missing.
    fn need(&self, name: &str) -> Result<&(&Token, String, String), ParseError> {
        self.opt(name).ok_or_else(|| {
            self.c.err(
                self.verb.column,
                needs(&format!("raw {}", self.api), &format!("{name}=…")),
            )
        })
    }

    fn num<T: std::str::FromStr + Bounded>(&self, name: &str) -> Result<T, ParseError> {
        let (t, _, v) = self.need(name)?;
        number(self.c, t, v, name)
    }

    fn num_or<T: std::str::FromStr + Bounded>(
        &self,
        name: &str,
        default: T,
    ) -> Result<T, ParseError> {
        self.opt(name)
            .map_or(Ok(default), |(t, _, v)| number(self.c, t, v, name))
    }

    /// A comma-separated list of numbers (`isr=1,2`, `producer-ids=5,7`).
    fn num_list<T: std::str::FromStr + Bounded>(
        &self,
        (t, name, v): &(&Token, String, String),
    ) -> Result<Vec<T>, ParseError> {
        v.split(',')
            .map(|n| number(self.c, t, n, name.as_str()))
            .collect()
    }

    fn text(&self, name: &str) -> Result<String, ParseError> {
        self.need(name).map(|(_, _, v)| v.clone())
    }

    /// A protocol version from 0 to `max`, refused in the catalog's words `why` beyond it.
    fn version(&self, name: &str, max: i16, why: &'static str) -> Result<Option<i16>, ParseError> {
        let Some((t, _, v)) = self.opt(name) else {
            return Ok(None);
        };
        let n: i16 = number(self.c, t, v, name)?;
        if !(0..=max).contains(&n) {
            return Err(self.c.err(t.column, Msg::new(why)));
        }
        Ok(Some(n))
    }

    fn has_word(&self, w: &str) -> bool {
        self.words.iter().any(|t| t.text == w)
    }

    /// The words that are partitions (not `commit`, `abort`, `verify-only`, `group`).
    fn partitions(&self) -> Result<Vec<TopicPartition>, ParseError> {
        self.words
            .iter()
            .filter(|t| {
                !matches!(
                    t.text.as_str(),
                    "commit" | "abort" | "verify-only" | "group"
                )
            })
            .map(|t| topic_partition(self.c, t))
            .collect()
    }

    /// The request's one partition: the first of [`Self::partitions`].
    fn partition(&self) -> Result<TopicPartition, ParseError> {
        self.partitions()?.into_iter().next().ok_or_else(|| {
            self.c.err(
                self.verb.column,
                arg1("parse.needs-partition", "api", self.api),
            )
        })
    }

    /// `commit` (true) or `abort` (false): one of them.
    fn result(&self) -> Result<bool, ParseError> {
        match (self.has_word("commit"), self.has_word("abort")) {
            (true, false) => Ok(true),
            (false, true) => Ok(false),
            _ => Err(self.c.err(
                self.verb.column,
                msg!(
                    "parse.needs",
                    what = format!("raw {}", self.api),
                    option = one_of(&["`commit`", "`abort`"])
                ),
            )),
        }
    }

    fn isolation(&self) -> Result<FetchIsolation, ParseError> {
        match self.opt("isolation").map(|(_, _, v)| v.as_str()) {
            None | Some("read_uncommitted") => Ok(FetchIsolation::HighWatermark),
            Some("read_committed") => Ok(FetchIsolation::TxnCommitted),
            Some(other) => Err(self
                .c
                .err(self.verb.column, arg1("parse.isolation", "value", other))),
        }
    }

    fn init_producer_id(&self) -> Result<Request, ParseError> {
        Ok(Request::InitProducerId {
            transactional_id: self.opt("transactional.id").map(|(_, _, v)| v.clone()),
            transaction_timeout_ms: self.num_or("timeout", 60_000)?,
            // KIP-360: the producer id and epoch the producer has (-1 = none).
            producer_id: self.num_or("pid", -1)?,
            producer_epoch: self.num_or("epoch", -1)?,
        })
    }

    /// `raw txn-offset-commit txn=ID group=G pid=N epoch=N TOPIC-P=OFFSET… [version=N]`:
    /// a simple group's commit (no generation, no member id).
    fn txn_offset_commit(&self) -> Result<Request, ParseError> {
        let mut offsets = Vec::new();
        for (t, k, v) in self.opts {
            if let Some(tp) = TopicPartition::parse(k) {
                offsets.push(crate::protocol::OffsetEntry {
                    topic_partition: tp,
                    offset: number(self.c, t, v, "offset")?,
                });
            }
        }
        if offsets.is_empty() {
            return Err(self.c.err(
                self.verb.column,
                needs("raw txn-offset-commit", "TOPIC-P=OFFSET"),
            ));
        }
        Ok(Request::TxnOffsetCommit {
            transactional_id: self.text("txn")?,
            group_id: self.text("group")?,
            producer_id: self.num("pid")?,
            producer_epoch: self.num("epoch")?,
            offsets,
            generation_id: -1,
            member_id: String::new(),
            group_instance_id: None,
            version: self.version("version", 5, "parse.txn-offset-commit-versions")?,
        })
    }

    fn write_txn_markers(&self) -> Result<Request, ParseError> {
        Ok(Request::WriteTxnMarkers {
            markers: vec![TxnMarkerEntry {
                producer_id: self.num("pid")?,
                producer_epoch: self.num("epoch")?,
                result: if self.result()? {
                    MarkerResult::Commit
                } else {
                    MarkerResult::Abort
                },
                coordinator_epoch: self.num_or("coordinator-epoch", 0)?,
                partitions: self.partitions()?,
                transaction_version: self
                    .version("transaction-version", 2, "parse.transaction-versions")?
                    .unwrap_or(0),
            }],
        })
    }

    fn fetch_or_list_offsets(&self) -> Result<Request, ParseError> {
        let tp = self.partition()?;
        // KIP-320's currentLeaderEpoch; -1 (the default) sends none.
        let current_leader_epoch: i32 = self.num_or("current-leader-epoch", -1)?;
        Ok(if self.api == "fetch" {
            Request::Fetch {
                topic_partition: tp,
                fetch_offset: self.num_or("offset", 0)?,
                max_bytes: 1 << 20,
                isolation: self.isolation()?,
                current_leader_epoch,
            }
        } else {
            Request::ListOffsets {
                topic_partition: tp,
                isolation: self.isolation()?,
                earliest: false,
                current_leader_epoch,
            }
        })
    }

    fn alter_partition(&self) -> Result<Request, ParseError> {
        let tp = self.partition()?;
        let new_isr = self.num_list(self.need("isr")?)?;
        Ok(Request::AlterPartition {
            broker_id: self.num("broker-id")?,
            broker_epoch: self.num_or("broker-epoch", -1)?,
            topic_partition: tp,
            leader_epoch: self.num("leader-epoch")?,
            partition_epoch: self.num("partition-epoch")?,
            new_isr,
            leader_recovery_state: match self.opt("leader-recovery-state") {
                None => LeaderRecoveryState::Recovered,
                Some((_, _, v)) if v == "RECOVERED" => LeaderRecoveryState::Recovered,
                Some((_, _, v)) if v == "RECOVERING" => LeaderRecoveryState::Recovering,
                Some((t, _, _)) => {
                    return Err(self.c.err(
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
        })
    }

    fn list_transactions(&self) -> Result<Request, ParseError> {
        Ok(Request::ListTransactions {
            state_filters: self
                .opt("states")
                .map(|(_, _, v)| v.split(',').map(str::to_string).collect())
                .unwrap_or_default(),
            producer_id_filters: match self.opt("producer-ids") {
                Some(o) => self.num_list(o)?,
                None => Vec::new(),
            },
            duration_filter_ms: self.num_or("duration", -1)?,
        })
    }
}
