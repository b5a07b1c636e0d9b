//! The scenario language: plain text, one step per line, `#` comments. Documented in
//! docs/scenarios.md. Errors name the line and column.

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::sim::{Action, ClusterConfig, Direction, Fault, MessageMatch, MessageStrike, Node};

/// A parse error at a place in the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// A read-only view printed into the transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum View {
    /// `kafka-dump-log.sh` batch lines, optionally only some fields.
    DumpLog {
        tp: TopicPartition,
        fields: Option<Vec<String>>,
        control_records: bool,
    },
    /// The `.txnindex` entries of a partition.
    TxnIndex { tp: TopicPartition },
    /// What a consumer received: `got N records: … (position P)`.
    Consumed { consumer: String },
    /// Latest offsets by isolation level (HW and LSO).
    Latest { tp: TopicPartition },
    /// The `__transaction_state` partition of a transactional id, decoded.
    TxnLog { transactional_id: String },
    /// `kafka-transactions.sh list`.
    Transactions,
    /// A group's committed offsets, as OffsetFetch (require_stable) answers.
    Committed {
        group_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// The states a transactional id went through, read from `__transaction_state`:
    /// `Empty(0) → Ongoing(0) → …` (epochs in brackets).
    TxnStates { transactional_id: String },
    /// `kafka-transactions.sh describe`.
    DescribeTransaction { transactional_id: String },
    /// A producer's dedup window, `window [a..b c..d]`.
    Window {
        tp: TopicPartition,
        producer_id: Option<i64>,
    },
    /// The producer ids a partition remembers.
    Producers { tp: TopicPartition },
    /// `log end offset N`.
    Leo { tp: TopicPartition },
    /// LEO and HW.
    Offsets { tp: TopicPartition },
    /// The files in the partition folder.
    Files { tp: TopicPartition },
    /// The number of segments.
    Segments { tp: TopicPartition },
    /// The producer-state snapshot files.
    Snapshots { tp: TopicPartition },
    /// The last broker decision on the partition, as a window-table row.
    Verdict { tp: TopicPartition },
    /// The narrated events, all or the last N.
    Events { last: Option<usize> },
    /// `kafka-transactions.sh describe-producers`.
    DescribeProducers { tp: TopicPartition },
    /// `kafka-transactions.sh find-hanging --topic T --partition P`.
    FindHanging { tp: TopicPartition },
}

/// How a raw produce shows its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Show {
    /// `seq a..b (label) -> error=… baseOffset=…` (seed 000's program output).
    Line,
    /// A row of the window table: sequence, verdict, base offset, window after.
    Row,
    /// The verdict with its numbers, base offset and log end offset.
    Verdict,
    Nothing,
}

/// A producer id or epoch given as a number or as `last` (the last raw InitProducerId).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum IdRef {
    Value(i64),
    Last,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum StepKind {
    /// The cluster's shape; only before every other step.
    Cluster(ClusterConfig),
    Act(Action),
    /// A raw produce whose pid/epoch may refer to the last InitProducerId.
    RawProduce {
        tp: TopicPartition,
        pid: IdRef,
        epoch: IdRef,
        seq: i32,
        values: Vec<String>,
        label: Option<String>,
        show: Show,
    },
    Print(View),
    Echo(String),
}

/// One line of a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 1-based source line.
    pub line: usize,
    /// The source line as written (trimmed).
    pub text: String,
    pub kind: StepKind,
    /// `## Title` lines just above the step: what the lesson player shows as its heading.
    pub title: Option<String>,
    /// `> text` lines just above the step, as paragraphs: the narration for learners.
    pub narration: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Scenario {
    pub steps: Vec<Step>,
}

/// A word of a line with its 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    text: String,
    column: usize,
    /// Where the first quoted part of `text` starts: an `=` after it is data, not an option.
    quoted_from: Option<usize>,
}

fn tokenize(line: &str, line_no: usize) -> Result<Vec<Token>, ParseError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '#' {
            break;
        }
        let start = i;
        let mut text = String::new();
        let mut quoted_from = None;
        while i < chars.len() && !chars[i].is_whitespace() {
            if chars[i] == '"' {
                quoted_from.get_or_insert(text.chars().count());
                let open = i;
                i += 1;
                let mut closed = false;
                while i < chars.len() {
                    match chars[i] {
                        '\\' if i + 1 < chars.len() => {
                            text.push(chars[i + 1]);
                            i += 2;
                        }
                        '"' => {
                            closed = true;
                            i += 1;
                            break;
                        }
                        ch => {
                            text.push(ch);
                            i += 1;
                        }
                    }
                }
                if !closed {
                    return Err(ParseError {
                        line: line_no,
                        column: open + 1,
                        message: "unclosed quote".into(),
                    });
                }
            } else {
                text.push(chars[i]);
                i += 1;
            }
        }
        tokens.push(Token {
            text,
            column: start + 1,
            quoted_from,
        });
    }
    Ok(tokens)
}

/// Parses a whole scenario.
pub fn parse(src: &str) -> Result<Scenario, ParseError> {
    let mut steps = Vec::new();
    let mut title: Option<String> = None;
    let mut narration: Vec<String> = Vec::new();
    let mut open_paragraph = false;
    let mut in_expected = false;
    for (i, raw) in src.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = raw.trim();
        // An expected-output block (`---` up to a blank line) belongs to the test
        // runner (golden.rs), not to the scenario.
        if in_expected || trimmed == super::golden::BLOCK_START {
            in_expected = !trimmed.is_empty();
            continue;
        }
        // Narration for the next step: `## Title`, then `> text` lines (a bare `>`
        // starts a new paragraph).
        if let Some(t) = trimmed.strip_prefix("## ") {
            title = Some(t.trim().to_string());
            continue;
        }
        if let Some(text) = trimmed.strip_prefix('>') {
            let text = text.trim();
            if text.is_empty() {
                open_paragraph = false;
            } else if open_paragraph {
                if let Some(last) = narration.last_mut() {
                    last.push(' ');
                    last.push_str(text);
                }
            } else {
                narration.push(text.to_string());
                open_paragraph = true;
            }
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            open_paragraph = false;
            continue;
        }
        open_paragraph = false;
        let (step_title, step_narration) = (title.take(), std::mem::take(&mut narration));
        // `echo` keeps the rest of the line verbatim (after one space).
        if let Some(rest) = trimmed.strip_prefix("echo") {
            if rest.is_empty() || rest.starts_with(' ') {
                let text = rest.strip_prefix(' ').unwrap_or(rest).to_string();
                steps.push(Step {
                    line: line_no,
                    text: trimmed.to_string(),
                    kind: StepKind::Echo(text),
                    title: step_title,
                    narration: step_narration,
                });
                continue;
            }
        }
        let tokens = tokenize(raw, line_no)?;
        if tokens.is_empty() {
            continue;
        }
        // Columns count characters, as an editor shows them (not UTF-8 bytes).
        let kind = parse_line(&tokens, line_no, raw.chars().count())?;
        if matches!(kind, StepKind::Cluster(_)) && !steps.is_empty() {
            return Err(ParseError {
                line: line_no,
                column: tokens[0].column,
                message: "`cluster` must come before every other step".into(),
            });
        }
        steps.push(Step {
            line: line_no,
            text: trimmed.to_string(),
            kind,
            title: step_title,
            narration: step_narration,
        });
    }
    Ok(Scenario { steps })
}

/// Reads a line's tokens in order, with errors at the right column.
struct Cursor<'a> {
    tokens: &'a [Token],
    pos: usize,
    line: usize,
    end_column: usize,
}

impl<'a> Cursor<'a> {
    fn err(&self, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            column,
            message: message.into(),
        }
    }
    fn column(&self) -> usize {
        self.tokens
            .get(self.pos)
            .map_or(self.end_column + 1, |t| t.column)
    }
    fn next(&mut self, what: &str) -> Result<&'a Token, ParseError> {
        let t = self
            .tokens
            .get(self.pos)
            .ok_or_else(|| self.err(self.end_column + 1, format!("expected {what}")))?;
        self.pos += 1;
        Ok(t)
    }
    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }
    fn done(&self) -> Result<(), ParseError> {
        match self.tokens.get(self.pos) {
            Some(t) => Err(self.err(t.column, format!("unexpected `{}`", t.text))),
            None => Ok(()),
        }
    }
    /// The remaining tokens split into `key=value` options and plain words.
    fn rest(&mut self) -> (Vec<(&'a Token, String, String)>, Vec<&'a Token>) {
        let mut options = Vec::new();
        let mut words = Vec::new();
        while let Some(t) = self.tokens.get(self.pos) {
            self.pos += 1;
            let is_option = |k: &str| t.quoted_from.is_none_or(|q| k.chars().count() < q);
            match t.text.split_once('=') {
                Some((k, v)) if !k.is_empty() && !k.contains(' ') && is_option(k) => {
                    options.push((t, k.to_string(), v.to_string()))
                }
                _ => words.push(t),
            }
        }
        (options, words)
    }
}

fn number<T: std::str::FromStr>(
    c: &Cursor,
    t: &Token,
    value: &str,
    what: &str,
) -> Result<T, ParseError> {
    value
        .parse()
        .map_err(|_| c.err(t.column, format!("{what} must be a number, got `{value}`")))
}

/// A node in a fault step: `broker-N`, `controller`, or a client's name (`client:NAME`
/// for a client whose name would read as one of the others).
pub fn parse_node(text: &str) -> Node {
    if text == "controller" {
        return Node::Controller;
    }
    if let Some(name) = text.strip_prefix("client:") {
        return Node::Client(name.to_string());
    }
    match text.strip_prefix("broker-").map(str::parse::<i32>) {
        Some(Ok(id)) => Node::Broker(id),
        _ => Node::Client(text.to_string()),
    }
}

/// `fault drop|delay MS|duplicate|hold|release|cut|heal|error|clear …` (docs/scenarios.md).
fn fault_step(c: &mut Cursor) -> Result<Action, ParseError> {
    let verb = c.next("drop, delay, duplicate, hold, release, cut, heal, error or clear")?;
    let node_pair = |c: &mut Cursor| -> Result<(Node, Node), ParseError> {
        let a = c.next("two nodes (a client, broker-N or controller)")?;
        let b = c.next("a second node")?;
        c.done()?;
        let (a, b) = (parse_node(&a.text), parse_node(&b.text));
        if a == b {
            return Err(c.err(verb.column, "a link joins two different nodes"));
        }
        Ok((a, b))
    };
    let ms = if verb.text == "delay" {
        let t = c.next("a delay in ms")?;
        let ms: i64 = number(c, t, t.text.trim_end_matches("ms"), "delay")?;
        if ms < 0 {
            return Err(c.err(t.column, "a delay is at least 0 ms"));
        }
        ms
    } else {
        0
    };
    // The first faults, armed as `Fault`s: `fault drop next-request [from=C]`,
    // `fault drop next-response [to=C]`, `fault hold-requests api=API`.
    if verb.text == "drop" {
        if let Some(which) = c
            .peek()
            .filter(|t| t.text == "next-request" || t.text == "next-response")
        {
            c.pos += 1;
            let request = which.text == "next-request";
            let (opts, words) = c.rest();
            no_words(c, &words)?;
            let want = if request { "from" } else { "to" };
            let who = match opts.as_slice() {
                [] => None,
                [(_, k, v)] if k == want => Some(v.clone()),
                [(t, ..), ..] => return Err(c.err(t.column, format!("expected {want}=CLIENT"))),
            };
            return Ok(Action::ArmFault {
                fault: if request {
                    Fault::DropNextRequest { from: who }
                } else {
                    Fault::DropNextResponse { to: who }
                },
            });
        }
    }
    if verb.text == "hold-requests" {
        let (opts, words) = c.rest();
        no_words(c, &words)?;
        return match opts.as_slice() {
            [(_, k, v)] if k == "api" => Ok(Action::ArmFault {
                fault: Fault::HoldRequests { api: v.clone() },
            }),
            _ => Err(c.err(verb.column, "expected api=API")),
        };
    }
    match verb.text.as_str() {
        "drop" | "delay" | "duplicate" | "hold" => {
            let (opts, words) = c.rest();
            // `id=N` alone: one message already on the wire (a timeline click).
            if let [(t, k, v)] = opts.as_slice() {
                if k == "id" {
                    no_words(c, &words)?;
                    let id = number(c, t, v, "message id")?;
                    let strike = match verb.text.as_str() {
                        "drop" => MessageStrike::Drop,
                        "delay" => MessageStrike::Delay { ms },
                        "duplicate" => MessageStrike::Duplicate,
                        _ => MessageStrike::Hold,
                    };
                    return Ok(Action::ArmFault {
                        fault: Fault::Message { id, strike },
                    });
                }
            }
            let mut m = MessageMatch::default();
            let mut every = false;
            for (t, k, v) in opts {
                match k.as_str() {
                    "api" => m.api = Some(v),
                    "from" => m.from = Some(parse_node(&v)),
                    "to" => m.to = Some(parse_node(&v)),
                    _ => {
                        return Err(c.err(
                            t.column,
                            format!("unknown option `{k}` (api, from, to; or id alone)"),
                        ))
                    }
                }
            }
            for t in words {
                match t.text.as_str() {
                    "every" if verb.text != "hold" => every = true,
                    "request" if m.direction.is_none() => m.direction = Some(Direction::Request),
                    "response" if m.direction.is_none() => m.direction = Some(Direction::Response),
                    other => return Err(c.err(t.column, format!("unexpected `{other}`"))),
                }
            }
            Ok(Action::ArmFault {
                fault: match verb.text.as_str() {
                    "drop" => Fault::Drop { matching: m, every },
                    "delay" => Fault::Delay {
                        matching: m,
                        ms,
                        every,
                    },
                    "duplicate" => Fault::Duplicate { matching: m, every },
                    _ => Fault::Hold { matching: m },
                },
            })
        }
        "release" => {
            let (opts, words) = c.rest();
            no_words(c, &words)?;
            match opts.as_slice() {
                [(_, k, v)] if k == "api" => Ok(Action::ReleaseHeld { api: v.clone() }),
                [(t, k, v)] if k == "id" => Ok(Action::ReleaseMessage {
                    id: number(c, t, v, "message id")?,
                }),
                _ => Err(c.err(verb.column, "expected api=API or id=N")),
            }
        }
        "cut" => {
            let (a, b) = node_pair(c)?;
            Ok(Action::ArmFault {
                fault: Fault::Cut { a, b },
            })
        }
        "heal" => {
            let (a, b) = node_pair(c)?;
            Ok(Action::HealLink { a, b })
        }
        "error" => {
            let (opts, words) = c.rest();
            let api = match opts.as_slice() {
                [(_, k, v)] if k == "api" => v.clone(),
                _ => return Err(c.err(verb.column, "expected api=API and an error name")),
            };
            let [word] = words.as_slice() else {
                return Err(c.err(
                    c.end_column + 1,
                    "expected one error name, like NOT_COORDINATOR",
                ));
            };
            let error = Errors::ALL
                .iter()
                .copied()
                .find(|e| *e != Errors::None && e.name() == word.text)
                .ok_or_else(|| c.err(word.column, format!("unknown error `{}`", word.text)))?;
            Ok(Action::ArmFault {
                fault: Fault::Error { api, error },
            })
        }
        "clear" => {
            c.done()?;
            Ok(Action::ClearFaults)
        }
        other => Err(c.err(verb.column, format!("unknown fault `{other}`"))),
    }
}

fn topic_partition(c: &Cursor, t: &Token) -> Result<TopicPartition, ParseError> {
    TopicPartition::parse(&t.text).ok_or_else(|| {
        c.err(
            t.column,
            format!("expected a partition like `orders-0`, got `{}`", t.text),
        )
    })
}

fn no_words(c: &Cursor, words: &[&Token]) -> Result<(), ParseError> {
    match words.first() {
        Some(t) => Err(c.err(t.column, format!("unexpected `{}`", t.text))),
        None => Ok(()),
    }
}

fn id_ref(c: &Cursor, t: &Token, value: &str, what: &str) -> Result<IdRef, ParseError> {
    if value == "last" {
        Ok(IdRef::Last)
    } else {
        number(c, t, value, what).map(IdRef::Value)
    }
}

fn parse_line(tokens: &[Token], line: usize, end_column: usize) -> Result<StepKind, ParseError> {
    let mut c = Cursor {
        tokens,
        pos: 0,
        line,
        end_column,
    };
    let head = c.next("a command")?;
    let kind = match head.text.as_str() {
        "cluster" => {
            let (opts, words) = c.rest();
            no_words(&c, &words)?;
            let mut config = ClusterConfig::default();
            for (t, k, v) in opts {
                match k.as_str() {
                    "brokers" => {
                        let n: i32 = number(&c, t, &v, "brokers")?;
                        if !(1..=3).contains(&n) {
                            return Err(c.err(t.column, "brokers must be 1 to 3"));
                        }
                        config.brokers = n;
                    }
                    "latency.ms" => {
                        // An int, as Kafka's own millisecond settings: never wraps.
                        let ms: i64 = number(&c, t, &v, "latency.ms")?;
                        if !(0..=i64::from(i32::MAX)).contains(&ms) {
                            return Err(c.err(t.column, "latency.ms must be 0 to 2147483647"));
                        }
                        config.latency_ms = ms;
                    }
                    "seed" => config.seed = number(&c, t, &v, "seed")?,
                    "transaction.version" => {
                        let level: i16 = number(&c, t, &v, "transaction.version")?;
                        if !(0..=2).contains(&level) {
                            return Err(c.err(t.column, "transaction.version must be 0, 1 or 2"));
                        }
                        config.transaction_version = level;
                    }
                    "transaction.partition.verification.enable" => {
                        config.transaction_verification = match v.as_str() {
                            "true" => true,
                            "false" => false,
                            _ => return Err(c.err(
                                t.column,
                                "transaction.partition.verification.enable must be true or false",
                            )),
                        }
                    }
                    _ => return Err(c.err(t.column, format!("unknown cluster option `{k}`"))),
                }
            }
            StepKind::Cluster(config)
        }
        "broker" => {
            let what = c.next("`config` or a broker id")?;
            if what.text == "config" {
                let (opts, words) = c.rest();
                no_words(&c, &words)?;
                let (_, k, v) = opts
                    .into_iter()
                    .next()
                    .ok_or_else(|| c.err(what.column, "expected KEY=VALUE"))?;
                StepKind::Act(Action::SetBrokerConfig { key: k, value: v })
            } else {
                let broker: i32 = number(&c, what, &what.text, "broker id")?;
                let verb = c.next("restart, stop or start")?;
                let mode = c.peek().map(|t| t.text.clone());
                let clean = match mode.as_deref() {
                    None | Some("clean") => true,
                    Some("crash") => false,
                    Some(other) => {
                        return Err(c.err(
                            c.column(),
                            format!("expected clean or crash, got `{other}`"),
                        ))
                    }
                };
                if mode.is_some() {
                    c.pos += 1;
                }
                c.done()?;
                match verb.text.as_str() {
                    "restart" => StepKind::Act(Action::RestartBroker { broker, clean }),
                    "stop" => StepKind::Act(Action::StopBroker { broker, clean }),
                    "start" if mode.is_none() => StepKind::Act(Action::StartBroker { broker }),
                    _ => {
                        return Err(c.err(
                            verb.column,
                            format!("unknown broker command `{}`", verb.text),
                        ))
                    }
                }
            }
        }
        "topic" => {
            let verb = c.next("`create`")?;
            if verb.text != "create" {
                return Err(c.err(
                    verb.column,
                    format!("unknown topic command `{}`", verb.text),
                ));
            }
            let name = c.next("a topic name")?.text.clone();
            let (opts, words) = c.rest();
            no_words(&c, &words)?;
            let mut partitions = 1;
            let mut configs = Vec::new();
            for (t, k, v) in opts {
                if k == "partitions" {
                    partitions = number(&c, t, &v, "partitions")?;
                } else {
                    configs.push((k, v));
                }
            }
            StepKind::Act(Action::CreateTopic {
                name,
                partitions,
                configs,
            })
        }
        "producer" => {
            let name = c.next("a producer name")?.text.clone();
            let verb = c.next("create, send or flush")?;
            match verb.text.as_str() {
                "create" => {
                    let (opts, words) = c.rest();
                    no_words(&c, &words)?;
                    StepKind::Act(Action::CreateProducer {
                        name,
                        configs: opts.into_iter().map(|(_, k, v)| (k, v)).collect(),
                    })
                }
                "send" => {
                    let tp_tok = c.next("a partition like `orders-0`")?;
                    let topic_partition = topic_partition(&c, tp_tok)?;
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
                    no_words(&c, &words)?;
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
                            offsets.push((tp, number(&c, t, &v, "offset")?));
                        }
                    }
                    let group_id = group_id
                        .ok_or_else(|| c.err(verb.column, "send-offsets needs group=GROUP"))?;
                    StepKind::Act(Action::SendOffsetsToTransaction {
                        producer: name,
                        group_id,
                        offsets,
                    })
                }
                other => {
                    return Err(c.err(verb.column, format!("unknown producer command `{other}`")))
                }
            }
        }
        "raw" => {
            let verb = c.next("init-producer-id or produce")?;
            match verb.text.as_str() {
                "init-producer-id" if c.peek().is_none() => {
                    StepKind::Act(Action::RawInitProducerId)
                }
                other if RAW_APIS.contains(&other) => {
                    let (opts, words) = c.rest();
                    raw_request(&c, other, verb, &opts, &words)?
                }
                "produce" => {
                    let tp_tok = c.next("a partition like `orders-0`")?;
                    let tp = topic_partition(&c, tp_tok)?;
                    let (opts, words) = c.rest();
                    let (mut pid, mut epoch, mut seq, mut label, mut show) =
                        (None, IdRef::Value(0), None, None, Show::Line);
                    for (t, k, v) in opts {
                        match k.as_str() {
                            "pid" => pid = Some(id_ref(&c, t, &v, "pid")?),
                            "epoch" => epoch = id_ref(&c, t, &v, "epoch")?,
                            "seq" => seq = Some(number(&c, t, &v, "seq")?),
                            "label" => label = Some(v),
                            "show" => {
                                show = match v.as_str() {
                                    "line" => Show::Line,
                                    "row" => Show::Row,
                                    "verdict" => Show::Verdict,
                                    "none" => Show::Nothing,
                                    _ => {
                                        return Err(c.err(
                                            t.column,
                                            "show must be line, row, verdict or none",
                                        ))
                                    }
                                }
                            }
                            _ => {
                                return Err(
                                    c.err(t.column, format!("unknown raw produce option `{k}`"))
                                )
                            }
                        }
                    }
                    let pid = pid.ok_or_else(|| {
                        c.err(verb.column, "raw produce needs pid=N (or pid=last)")
                    })?;
                    let seq = seq.ok_or_else(|| c.err(verb.column, "raw produce needs seq=N"))?;
                    if words.is_empty() {
                        return Err(c.err(c.end_column + 1, "expected at least one record value"));
                    }
                    let values = words.iter().map(|t| t.text.clone()).collect();
                    StepKind::RawProduce {
                        tp,
                        pid,
                        epoch,
                        seq,
                        values,
                        label,
                        show,
                    }
                }
                other => return Err(c.err(verb.column, format!("unknown raw request `{other}`"))),
            }
        }
        "consumer" => {
            let name = c.next("a consumer name")?.text.clone();
            let verb = c.next("create, assign or poll")?;
            match verb.text.as_str() {
                "create" => {
                    let (opts, words) = c.rest();
                    no_words(&c, &words)?;
                    StepKind::Act(Action::CreateConsumer {
                        name,
                        configs: opts.into_iter().map(|(_, k, v)| (k, v)).collect(),
                    })
                }
                "assign" => {
                    let mut partitions = Vec::new();
                    while let Some(t) = c.peek() {
                        partitions.push(topic_partition(&c, t)?);
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
                other => {
                    return Err(c.err(verb.column, format!("unknown consumer command `{other}`")))
                }
            }
        }
        "hold" | "release" => {
            let what = c.next("`markers` or `requests API`")?;
            let hold = head.text == "hold";
            match what.text.as_str() {
                "markers" => {
                    c.done()?;
                    StepKind::Act(if hold {
                        Action::HoldMarkers
                    } else {
                        Action::ReleaseMarkers
                    })
                }
                "requests" => {
                    let api = c.next("an API name like `Produce` or `EndTxn`")?;
                    if !crate::protocol::API_NAMES.contains(&api.text.as_str()) {
                        return Err(c.err(api.column, format!("unknown API `{}`", api.text)));
                    }
                    c.done()?;
                    let api = api.text.clone();
                    StepKind::Act(if hold {
                        Action::HoldRequests { api }
                    } else {
                        Action::ReleaseRequests { api }
                    })
                }
                _ => return Err(c.err(what.column, "expected `markers` or `requests API`")),
            }
        }
        "fault" => StepKind::Act(fault_step(&mut c)?),
        "drop" => {
            let which = c.next("next-request or next-response")?;
            let (opts, words) = c.rest();
            no_words(&c, &words)?;
            let who = opts.first().map(|(_, _, v)| v.clone());
            if let Some((t, k, _)) = opts.first() {
                let want = if which.text == "next-request" {
                    "from"
                } else {
                    "to"
                };
                if k != want {
                    return Err(c.err(t.column, format!("expected {want}=CLIENT")));
                }
            }
            match which.text.as_str() {
                "next-request" => StepKind::Act(Action::DropNextRequest { from: who }),
                "next-response" => StepKind::Act(Action::DropNextResponse { to: who }),
                other => return Err(c.err(which.column, format!("unknown fault `{other}`"))),
            }
        }
        "admin" => {
            // `kafka-transactions.sh abort --topic T --partition P --start-offset N`.
            let verb = c.next("`abort`")?;
            if verb.text != "abort" {
                return Err(c.err(verb.column, "expected `admin abort TOPIC-P start-offset=N`"));
            }
            let tp_tok = c.next("a partition like `orders-0`")?;
            let topic_partition = topic_partition(&c, tp_tok)?;
            let (opts, words) = c.rest();
            no_words(&c, &words)?;
            let (t, k, v) = opts
                .first()
                .ok_or_else(|| c.err(verb.column, "admin abort needs start-offset=N"))?;
            if k != "start-offset" || opts.len() > 1 {
                return Err(c.err(t.column, "admin abort takes only start-offset=N"));
            }
            StepKind::Act(Action::AdminAbortTransaction {
                topic_partition,
                start_offset: number(&c, t, v, "start-offset")?,
            })
        }
        "step" => {
            c.done()?;
            StepKind::Act(Action::Step)
        }
        "run" => match c.peek() {
            None => StepKind::Act(Action::RunUntilIdle),
            Some(t) => {
                let ms: i64 = number(&c, t, t.text.trim_end_matches("ms"), "run time")?;
                c.pos += 1;
                c.done()?;
                StepKind::Act(Action::Advance { ms })
            }
        },
        "print" => {
            let what = c.next("a view")?;
            let view = if matches!(
                what.text.as_str(),
                "consumed" | "txn-log" | "txn-states" | "describe-transaction"
            ) {
                let arg = c.next("a name")?.text.clone();
                c.done()?;
                match what.text.as_str() {
                    "consumed" => View::Consumed { consumer: arg },
                    "txn-log" => View::TxnLog {
                        transactional_id: arg,
                    },
                    "txn-states" => View::TxnStates {
                        transactional_id: arg,
                    },
                    _ => View::DescribeTransaction {
                        transactional_id: arg,
                    },
                }
            } else if what.text == "committed" {
                let group_id = c.next("a group id")?.text.clone();
                let mut partitions = Vec::new();
                while let Some(t) = c.peek() {
                    partitions.push(topic_partition(&c, t)?);
                    c.pos += 1;
                }
                View::Committed {
                    group_id,
                    partitions,
                }
            } else if what.text == "transactions" {
                c.done()?;
                View::Transactions
            } else if what.text == "events" {
                let (opts, words) = c.rest();
                no_words(&c, &words)?;
                let mut last = None;
                for (t, k, v) in opts {
                    if k != "last" {
                        return Err(c.err(t.column, format!("unknown option `{k}`")));
                    }
                    last = Some(number(&c, t, &v, "last")?);
                }
                View::Events { last }
            } else {
                let tp_tok = c.next("a partition like `orders-0`")?;
                let tp = topic_partition(&c, tp_tok)?;
                let (opts, words) = c.rest();
                no_words(&c, &words)?;
                let opt = |name: &str| opts.iter().find(|(_, k, _)| k == name);
                match what.text.as_str() {
                    "dump-log" => View::DumpLog {
                        tp,
                        fields: opt("fields")
                            .map(|(_, _, v)| v.split(',').map(str::to_string).collect()),
                        control_records: match opt("records") {
                            None => false,
                            Some((_, _, v)) if v == "control" => true,
                            Some((t, _, _)) => {
                                return Err(c.err(t.column, "records= takes `control`"))
                            }
                        },
                    },
                    "txnindex" => View::TxnIndex { tp },
                    "latest" => View::Latest { tp },
                    "window" => View::Window {
                        tp,
                        producer_id: match opt("pid") {
                            Some((t, _, v)) => Some(number(&c, t, v, "pid")?),
                            None => None,
                        },
                    },
                    "producers" => View::Producers { tp },
                    "leo" => View::Leo { tp },
                    "offsets" => View::Offsets { tp },
                    "files" => View::Files { tp },
                    "segments" => View::Segments { tp },
                    "snapshots" => View::Snapshots { tp },
                    "verdict" => View::Verdict { tp },
                    "describe-producers" => View::DescribeProducers { tp },
                    "find-hanging" => View::FindHanging { tp },
                    other => return Err(c.err(what.column, format!("unknown view `{other}`"))),
                }
            };
            StepKind::Print(view)
        }
        other => return Err(c.err(head.column, format!("unknown command `{other}`"))),
    };
    Ok(kind)
}

/// The APIs `raw NAME …` can send (besides `produce` and the retrying
/// `init-producer-id` without options).
const RAW_APIS: &[&str] = &[
    "init-producer-id",
    "find-coordinator",
    "add-partitions",
    "end-txn",
    "write-txn-markers",
    "fetch",
    "list-offsets",
    "describe-transactions",
    "list-transactions",
];

/// `raw API [broker=N] …`: builds the request from options and words.
fn raw_request(
    c: &Cursor,
    api: &str,
    verb: &Token,
    opts: &[(&Token, String, String)],
    words: &[&Token],
) -> Result<StepKind, ParseError> {
    use crate::log::FetchIsolation;
    use crate::protocol::{MarkerResult, Request, TxnMarkerEntry};
    let opt = |name: &str| opts.iter().find(|(_, k, _)| k == name);
    let need = |name: &str| {
        opt(name).ok_or_else(|| c.err(verb.column, format!("raw {api} needs {name}=…")))
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
            _ => Err(c.err(verb.column, format!("raw {api} needs `commit` or `abort`"))),
        }
    };
    let isolation = || -> Result<FetchIsolation, ParseError> {
        match opt("isolation").map(|(_, _, v)| v.as_str()) {
            None | Some("read_uncommitted") => Ok(FetchIsolation::HighWatermark),
            Some("read_committed") => Ok(FetchIsolation::TxnCommitted),
            Some(other) => Err(c.err(
                verb.column,
                format!("isolation must be read_committed or read_uncommitted, got `{other}`"),
            )),
        }
    };
    let request = match api {
        "init-producer-id" => Request::InitProducerId {
            transactional_id: opt("transactional.id").map(|(_, _, v)| v.clone()),
            transaction_timeout_ms: opt("timeout")
                .map_or(Ok(60_000), |(t, _, v)| number(c, t, v, "timeout"))?,
        },
        "find-coordinator" => {
            let key = words
                .iter()
                .find(|t| t.text != "group")
                .ok_or_else(|| c.err(verb.column, "raw find-coordinator needs a key"))?;
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
            }],
        },
        "fetch" | "list-offsets" => {
            let tp = partitions()?
                .into_iter()
                .next()
                .ok_or_else(|| c.err(verb.column, format!("raw {api} needs a partition")))?;
            if api == "fetch" {
                Request::Fetch {
                    topic_partition: tp,
                    fetch_offset: num("offset").unwrap_or(0),
                    max_bytes: 1 << 20,
                    isolation: isolation()?,
                }
            } else {
                Request::ListOffsets {
                    topic_partition: tp,
                    isolation: isolation()?,
                }
            }
        }
        "describe-transactions" => Request::DescribeTransactions {
            transactional_ids: words.iter().map(|t| t.text.clone()).collect(),
        },
        _ => Request::ListTransactions,
    };
    let broker = match opt("broker") {
        Some((t, _, v)) => Some(number(c, t, v, "broker")?),
        None => None,
    };
    Ok(StepKind::Act(Action::RawRequest { broker, request }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_small_scenario() {
        let s = parse(
            "# comment\ncluster brokers=1\ntopic create t partitions=2 segment.bytes=256\nraw produce t-0 pid=0 seq=0 label=\"first send\" a b c\nprint dump-log t-0 fields=baseOffset,lastOffset\necho === hi there\n",
        )
        .unwrap();
        assert_eq!(s.steps.len(), 5);
        assert_eq!(s.steps[0].line, 2);
        match &s.steps[2].kind {
            StepKind::RawProduce { label, values, .. } => {
                assert_eq!(label.as_deref(), Some("first send"));
                assert_eq!(values, &vec!["a".to_string(), "b".into(), "c".into()]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(s.steps[4].kind, StepKind::Echo("=== hi there".into()));
    }

    #[test]
    fn narration_attaches_to_the_next_step() {
        let s = parse("## First\n> one\n> two\n>\n> three\nstep\n# comment\nstep\n").unwrap();
        assert_eq!(s.steps[0].title.as_deref(), Some("First"));
        assert_eq!(
            s.steps[0].narration,
            vec!["one two".to_string(), "three".to_string()]
        );
        assert_eq!(s.steps[1].title, None);
        assert!(s.steps[1].narration.is_empty());
    }

    #[test]
    fn expected_output_blocks_are_skipped() {
        let s = parse("topic create t\n---\nraw produce t-0 x\n\necho hi\n---\n").unwrap();
        assert_eq!(s.steps.len(), 2);
        assert_eq!(s.steps[1].line, 5);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("topic create t\nraw produce t-0 pid=x seq=0 a").unwrap_err();
        assert_eq!((e.line, e.column), (2, 17));
        assert!(e.message.contains("pid"), "{e}");
        let e = parse("topic create t\n  fly away").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = parse("echo \"x\nraw produce t-0 pid=0 seq=0 \"open").unwrap_err();
        assert_eq!((e.line, e.column), (2, 29));
        let e = parse("topic create t\ncluster brokers=2").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("raw produce t-0 pid=1 seq=0").unwrap_err();
        assert!(e.message.contains("record"), "{e}");
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        // "é" is two bytes in UTF-8 but one column in an editor.
        let e = parse("producer ééé send t-0").unwrap_err();
        assert_eq!((e.line, e.column), (1, 22), "{e}");
        let e = parse("echo ééé\nraw produce t-0 pid=é seq=0 a").unwrap_err();
        assert_eq!((e.line, e.column), (2, 17), "{e}");
    }
}
