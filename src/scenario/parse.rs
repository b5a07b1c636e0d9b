//! The scenario language: plain text, one step per line, `#` comments. Documented in
//! docs/scenarios.md. Errors name the line and column.

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::ElectionType;
use crate::sim::{Action, ClusterConfig, Direction, Fault, MessageMatch, MessageStrike, Node};

mod breaks;
mod clients;
#[cfg(feature = "log-cleaner")]
mod disk;
mod fault;
#[cfg(feature = "pulsar")]
pub mod pulsar;
mod raw;
mod step;
mod tokens;
mod topic;

use crate::i18n::catalog::render;
use crate::i18n::{Lang, Msg};
use crate::msg;
use crate::protocol::config_def::Place;
use clients::{consumer_step, producer_step};
pub use fault::parse_node;
use fault::{drop_step, fault_step, hold_step};
use raw::raw_step;
pub use step::{IdRef, ParseError, Scenario, Show, Step, StepKind, StepText, View};
use tokens::{
    arg1, config_value, got, id_ref, needs, no_words, number, one_of, tokenize, topic_partition,
    unexpected, Cursor, Token, What,
};
use topic::topic_step;

/// Parses a whole scenario.
pub fn parse(src: &str) -> Result<Scenario, ParseError> {
    // A byte-order mark (some Windows editors write one) is no part of the first line.
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut steps = Vec::new();
    let mut title: Option<String> = None;
    let mut narration: Vec<String> = Vec::new();
    let mut translations: Vec<StepText> = Vec::new();
    // The language of the paragraph a `>` line would continue (None: English).
    let mut open_paragraph: Option<Option<Lang>> = None;
    let mut questions: Vec<super::question::Question> = Vec::new();
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
        // `## [ko] …` and `> [ko] …` are the same in another language.
        if let Some(t) = trimmed.strip_prefix("## ") {
            match language_tag(t) {
                (Some(lang), text) => {
                    translation(&mut translations, lang).title = Some(text.to_string())
                }
                (None, text) => title = Some(text.to_string()),
            }
            continue;
        }
        if let Some(text) = trimmed.strip_prefix('>') {
            let (lang, text) = language_tag(text);
            let paragraphs = match lang {
                Some(lang) => &mut translation(&mut translations, lang).narration,
                None => &mut narration,
            };
            if text.is_empty() {
                open_paragraph = None;
            } else if open_paragraph == Some(lang) {
                if let Some(last) = paragraphs.last_mut() {
                    last.push(' ');
                    last.push_str(text);
                }
            } else {
                paragraphs.push(text.to_string());
                open_paragraph = Some(lang);
            }
            continue;
        }
        // A question for the next step: `? prompt`, `?+`/`?-` choices, `?=`/`?!` checks.
        if let Some(rest) = trimmed.strip_prefix('?') {
            open_paragraph = None;
            super::question::read_line(&mut questions, rest, line_no)?;
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            open_paragraph = None;
            continue;
        }
        open_paragraph = None;
        // `echo [ko] …` or `label [ko] …` right under a step: what it prints, in Korean.
        if let Some((lang, text)) = printed_translation(trimmed) {
            let under = steps.last_mut().filter(|s: &&mut Step| {
                title.is_none()
                    && narration.is_empty()
                    && translations.is_empty()
                    && questions.is_empty()
                    && s.prints_text_of(trimmed)
            });
            let Some(step) = under else {
                return Err(ParseError {
                    line: line_no,
                    column: 1,
                    why: msg!("parse.translation-place"),
                });
            };
            translation(&mut step.translations, lang).printed = Some(text.to_string());
            continue;
        }
        super::question::finish(&questions)?;
        let step_questions = std::mem::take(&mut questions);
        let (step_title, step_narration) = (title.take(), std::mem::take(&mut narration));
        let step_translations = std::mem::take(&mut translations);
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
                    translations: step_translations,
                    questions: step_questions,
                });
                continue;
            }
        }
        let tokens = tokenize(raw, line_no)?;
        if tokens.is_empty() {
            continue;
        }
        // Columns count characters, as an editor shows them (not UTF-8 bytes).
        let kind = parse_line(&tokens, line_no, raw.chars().count(), trimmed)?;
        // A later `cluster` line is not refused: it starts a fresh world (the runner),
        // so a lesson can tell its story again under other settings.
        steps.push(Step {
            line: line_no,
            text: trimmed.to_string(),
            kind,
            title: step_title,
            narration: step_narration,
            translations: step_translations,
            questions: step_questions,
        });
    }
    if let Some(q) = questions.first() {
        return Err(ParseError {
            line: q.line,
            column: 1,
            why: msg!("parse.question-needs-step"),
        });
    }
    #[cfg(not(feature = "checker"))]
    recorded_checks(src, &mut steps)?;
    Ok(Scenario { steps })
}

/// A build without the checker (the sites) plays a `check` only when the `---` block
/// right under it records what it printed (a chaos finding's replay: `eos chaos` and the
/// chaos page write them), and prints that block; any other `check` is refused.
#[cfg(not(feature = "checker"))]
fn recorded_checks(src: &str, steps: &mut [Step]) -> Result<(), ParseError> {
    let lines: Vec<&str> = src.lines().collect();
    for step in steps {
        let StepKind::Print(View::RecordedCheck(recorded)) = &mut step.kind else {
            continue;
        };
        match super::golden::block_after(&lines, step.line) {
            Some(block) => *recorded = block,
            None => {
                let raw = lines.get(step.line - 1).copied().unwrap_or_default();
                return Err(ParseError {
                    line: step.line,
                    column: raw.chars().take_while(|c| c.is_whitespace()).count() + 1,
                    why: msg!("parse.no-checker"),
                });
            }
        }
    }
    Ok(())
}

/// `[ko] text` → (Korean, "text"); text without a known tag is English. Only the codes
/// of the catalog's languages count, so `[optional]` stays text.
pub(super) fn language_tag(text: &str) -> (Option<Lang>, &str) {
    let text = text.trim();
    if let Some((tag, rest)) = text.strip_prefix('[').and_then(|t| t.split_once(']')) {
        if let Some(lang) = Lang::from_code(tag).filter(|l| l.code() == tag && *l != Lang::En) {
            return (Some(lang), rest.trim());
        }
    }
    (None, text)
}

/// `echo [ko] TEXT` / `label [th] TEXT` → (the language, TEXT), verbatim after the tag.
fn printed_translation(line: &str) -> Option<(Lang, &str)> {
    let rest = line
        .strip_prefix("echo [")
        .or_else(|| line.strip_prefix("label ["))?;
    let (tag, text) = rest.split_once(']')?;
    let lang = Lang::from_code(tag).filter(|l| l.code() == tag && *l != Lang::En)?;
    Some((lang, text.strip_prefix(' ').unwrap_or(text)))
}

/// The step text being gathered for `lang`.
fn translation(translations: &mut Vec<StepText>, lang: Lang) -> &mut StepText {
    if let Some(i) = translations.iter().position(|t| t.lang == lang) {
        return &mut translations[i];
    }
    translations.push(StepText {
        lang,
        title: None,
        narration: Vec::new(),
        printed: None,
    });
    translations.last_mut().expect("just pushed")
}

fn parse_line(
    tokens: &[Token],
    line: usize,
    end_column: usize,
    text: &str,
) -> Result<StepKind, ParseError> {
    let mut c = Cursor {
        tokens,
        pos: 0,
        line,
        end_column,
    };
    let head = c.next(What::Id("parse.what.command"))?;
    let kind = match head.text.as_str() {
        #[cfg(feature = "pulsar")]
        "pulsar" => StepKind::Pulsar(pulsar::pulsar_step(&mut c, text)?),
        #[cfg(not(feature = "pulsar"))]
        "pulsar" => {
            let _ = text;
            return Err(c.err(head.column, msg!("parse.no-pulsar")));
        }
        "cluster" => {
            let (opts, words) = c.rest();
            no_words(&c, &words)?;
            let mut config = ClusterConfig::default();
            for (t, k, v) in opts {
                // The seed is any u64 (chaos seeds are): not one of Kafka's types.
                if k == "seed" {
                    config.seed = number(&c, t, &v, "seed")?;
                    continue;
                }
                let value = config_value(&c, t, Place::Cluster, &k, &v)?;
                // Validated by the table: every number is within its key's range.
                let n = value.number();
                let int = i32::try_from(n).unwrap_or(i32::MAX);
                match k.as_str() {
                    "brokers" => config.brokers = int,
                    "latency.ms" => config.latency_ms = n,
                    "transaction.version" => {
                        config.transaction_version = i16::try_from(n).unwrap_or(2)
                    }
                    "offsets.topic.num.partitions" => config.offsets_topic_num_partitions = int,
                    "transaction.state.log.num.partitions" => {
                        config.transaction_state_log_num_partitions = int
                    }
                    "transaction.partition.verification.enable" => {
                        config.transaction_verification = value.boolean()
                    }
                    "auto.leader.rebalance.enable" => {
                        config.auto_leader_rebalance = value.boolean()
                    }
                    "eligible.leader.replicas.enable" => {
                        config.eligible_leader_replicas = value.boolean()
                    }
                    "controllers" => {
                        // The quorum is built with the metadata log (the CLI and the
                        // native tests): the web pages run the lone controller.
                        if int > 1 && !cfg!(feature = "metadata-log") {
                            return Err(c.err(t.column, msg!("parse.no-quorum")));
                        }
                        config.controllers = int
                    }
                    _ => {
                        return Err(
                            c.err(t.column, arg1("parse.unknown-cluster-option", "option", &k))
                        )
                    }
                }
            }
            StepKind::Cluster(config)
        }
        #[cfg(feature = "metadata-log")]
        "controller" => {
            let what = c.next(What::Id("parse.number.controller-id"))?;
            let controller: i32 = number(&c, what, &what.text, msg!("parse.number.controller-id"))?;
            let verb = c.next(What::OneOf(&["stop", "start"]))?;
            c.done()?;
            match verb.text.as_str() {
                "stop" => StepKind::Act(Action::StopController { controller }),
                "start" => StepKind::Act(Action::StartController { controller }),
                other => return Err(c.err(verb.column, got(one_of(&["stop", "start"]), other))),
            }
        }
        "broker" => {
            let what = c.next(What::Id("parse.what.config-or-broker"))?;
            if what.text == "config" {
                let (opts, words) = c.rest();
                no_words(&c, &words)?;
                // One setting a line: a second one would be ignored in silence.
                if let Some((t, ..)) = opts.get(1) {
                    return Err(c.err(t.column, msg!("parse.one-setting")));
                }
                let (_, k, v) = opts.into_iter().next().ok_or_else(|| {
                    c.err(what.column, msg!("parse.expected", what = "KEY=VALUE"))
                })?;
                StepKind::Act(Action::SetBrokerConfig { key: k, value: v })
            } else {
                let broker: i32 = number(&c, what, &what.text, msg!("parse.number.broker-id"))?;
                let verb = c.next(What::OneOf(&["restart", "stop", "start"]))?;
                let mode = c.peek().map(|t| t.text.clone());
                let clean = match mode.as_deref() {
                    None | Some("clean") => true,
                    Some("crash") => false,
                    Some(other) => {
                        return Err(c.err(c.column(), got(one_of(&["clean", "crash"]), other)))
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
                            arg1("parse.unknown-broker-command", "word", &verb.text),
                        ))
                    }
                }
            }
        }
        "topic" => topic_step(&mut c)?,
        "producer" => producer_step(&mut c)?,
        "raw" => raw_step(&mut c)?,
        "consumer" => consumer_step(&mut c)?,
        "hold" | "release" => hold_step(&mut c, head.text == "hold")?,
        "fault" => StepKind::Act(fault_step(&mut c)?),
        "break" => StepKind::Act(breaks::break_step(&mut c)?),
        #[cfg(feature = "checker")]
        "check" => {
            c.done()?;
            StepKind::Print(View::Violations)
        }
        // Without the checker, only with its verdict recorded under it (filled in, or
        // refused, by `recorded_checks`).
        #[cfg(not(feature = "checker"))]
        "check" => {
            c.done()?;
            StepKind::Print(View::RecordedCheck(Vec::new()))
        }
        "drop" => drop_step(&mut c)?,
        "admin" => {
            // `kafka-transactions.sh abort --topic T --partition P --start-offset N`,
            // `kafka-delete-records.sh` with one partition's offset,
            // `kafka-leader-election.sh --election-type PREFERRED|UNCLEAN`.
            let verb = c.next(What::OneOf(&[
                "`abort`",
                "`delete-records`",
                "`elect-leaders`",
            ]))?;
            if verb.text == "elect-leaders" {
                let usage = || {
                    msg!(
                        "parse.expected",
                        what = one_of(&[
                            "`admin elect-leaders TOPIC-P… [election-type=PREFERRED|UNCLEAN]`",
                            "`admin elect-leaders all [election-type=PREFERRED|UNCLEAN]`"
                        ])
                    )
                };
                let (opts, words) = c.rest();
                let mut election = ElectionType::Preferred;
                for (t, k, v) in &opts {
                    match ElectionType::from_name(v).filter(|_| k == "election-type") {
                        Some(e) => election = e,
                        None => return Err(c.err(t.column, usage())),
                    }
                }
                let all = words.len() == 1 && words[0].text == "all";
                if words.is_empty() {
                    return Err(c.err(verb.column, usage()));
                }
                let mut partitions = Vec::new();
                for w in words.iter().filter(|_| !all) {
                    partitions.push(topic_partition(&c, w)?);
                }
                return Ok(StepKind::Act(Action::AdminElectLeaders {
                    election,
                    partitions,
                }));
            }
            let (key, usage) = match verb.text.as_str() {
                "abort" => ("start-offset", "admin abort TOPIC-P start-offset=N"),
                "delete-records" => ("offset", "admin delete-records TOPIC-P offset=N|-1"),
                _ => {
                    return Err(c.err(
                        verb.column,
                        msg!(
                            "parse.expected",
                            what = one_of(&[
                                "`admin abort TOPIC-P start-offset=N`",
                                "`admin delete-records TOPIC-P offset=N`"
                            ])
                        ),
                    ))
                }
            };
            let tp_tok = c.next(What::Id("parse.what.partition"))?;
            let topic_partition = topic_partition(&c, tp_tok)?;
            let (opts, words) = c.rest();
            no_words(&c, &words)?;
            let (t, k, v) = opts.first().ok_or_else(|| {
                c.err(
                    verb.column,
                    msg!("parse.expected", what = format!("`{usage}`")),
                )
            })?;
            if k != key || opts.len() > 1 {
                return Err(c.err(
                    t.column,
                    msg!("parse.expected", what = format!("`{usage}`")),
                ));
            }
            let n = number(&c, t, v, key)?;
            StepKind::Act(if verb.text == "abort" {
                Action::AdminAbortTransaction {
                    topic_partition,
                    start_offset: n,
                }
            } else {
                Action::AdminDeleteRecords {
                    topic_partition,
                    offset: n,
                }
            })
        }
        #[cfg(feature = "log-cleaner")]
        "snapshot" | "truncate" | "clean" => disk::disk_step(&mut c, &head.text)?,
        #[cfg(feature = "set-epoch")]
        "set-epoch" => {
            // A playground shortcut to an epoch near exhaustion (`src/sim/set_epoch.rs`).
            let usage = || {
                let forms = one_of(&[
                    "`set-epoch txn=ID epoch=N`",
                    "`set-epoch producer=NAME epoch=N`",
                ]);
                msg!("parse.expected", what = forms)
            };
            let (opts, words) = c.rest();
            no_words(&c, &words)?;
            let [(who, key, name), (t, k, v)] = opts.as_slice() else {
                return Err(c.err(head.column, usage()));
            };
            let txn = key == "txn";
            if !(txn || key == "producer") || k != "epoch" || name.is_empty() {
                return Err(c.err(who.column.min(t.column), usage()));
            }
            // InitProducerId never gives out 32767 (`isEpochExhausted`); a producer's
            // own bump may reach it.
            let max = if txn { i16::MAX - 1 } else { i16::MAX };
            let epoch: i16 = number(&c, t, v, "epoch")?;
            if !(0..=max).contains(&epoch) {
                let max = max.to_string();
                let why = msg!(
                    "scenario.number-range",
                    what = "epoch",
                    min = "0",
                    max = max,
                    value = v
                );
                return Err(c.err(t.column, why));
            }
            StepKind::Act(if txn {
                Action::SetTxnEpoch {
                    transactional_id: name.clone(),
                    epoch,
                }
            } else {
                Action::SetProducerEpoch {
                    producer: name.clone(),
                    epoch,
                }
            })
        }
        // A site without the playground's epoch shortcut (every web page).
        #[cfg(not(feature = "set-epoch"))]
        "set-epoch" => {
            return Err(c.err(head.column, msg!("parse.no-set-epoch")));
        }
        // A site without the log cleaner and the disk steps (the main page, Pulsar's).
        #[cfg(not(feature = "log-cleaner"))]
        "snapshot" | "truncate" | "clean" => {
            return Err(c.err(head.column, msg!("parse.no-log-cleaner")));
        }
        "step" => {
            c.done()?;
            StepKind::Act(Action::Step)
        }
        "run" => match c.peek() {
            None => StepKind::Act(Action::RunUntilIdle),
            Some(t) => {
                let ms: i64 = number(
                    &c,
                    t,
                    t.text.trim_end_matches("ms"),
                    msg!("parse.number.run-time"),
                )?;
                c.pos += 1;
                c.done()?;
                StepKind::Act(Action::Advance { ms })
            }
        },
        "print" => {
            let what = c.next(What::Id("parse.what.view"))?;
            let view = if matches!(
                what.text.as_str(),
                "consumed" | "txn-log" | "txn-states" | "describe-transaction"
            ) {
                let arg = c.next(What::Id("parse.what.name"))?.text.clone();
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
            } else if what.text == "group" {
                // A site without group membership (every web page).
                #[cfg(not(feature = "group-membership"))]
                return Err(c.err(what.column, msg!("parse.no-group-membership")));
                #[cfg(feature = "group-membership")]
                {
                    let group_id = c.next(What::Id("parse.what.group-id"))?.text.clone();
                    c.done()?;
                    View::Group { group_id }
                }
            } else if what.text == "committed" {
                let group_id = c.next(What::Id("parse.what.group-id"))?.text.clone();
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
            } else if cfg!(feature = "metadata-log") && what.text == "quorum" {
                c.done()?;
                quorum_view()
            } else if what.text == "events"
                || (cfg!(feature = "metadata-log") && what.text == "metadata")
            {
                let (opts, words) = c.rest();
                no_words(&c, &words)?;
                let mut last = None;
                for (t, k, v) in opts {
                    if k != "last" {
                        return Err(c.err(t.column, arg1("parse.unknown-option", "option", &k)));
                    }
                    last = Some(number(&c, t, &v, "last")?);
                }
                match what.text.as_str() {
                    #[cfg(feature = "metadata-log")]
                    "metadata" => View::Metadata { last },
                    _ => View::Events { last },
                }
            } else {
                // `print files broker-2 orders-0`: one broker's replica, not the leader's.
                let broker = match c.peek().filter(|t| t.text.starts_with("broker-")) {
                    Some(t) => {
                        if !matches!(
                            what.text.as_str(),
                            "dump-log" | "files" | "segments" | "snapshots"
                        ) {
                            return Err(c.err(t.column, msg!("parse.broker-view")));
                        }
                        let n = number(&c, t, t.text.trim_start_matches("broker-"), "broker")?;
                        c.pos += 1;
                        Some(n)
                    }
                    None => None,
                };
                let tp_tok = c.next(What::Id("parse.what.partition"))?;
                let tp = topic_partition(&c, tp_tok)?;
                let (opts, words) = c.rest();
                no_words(&c, &words)?;
                let opt = |name: &str| opts.iter().find(|(_, k, _)| k == name);
                match what.text.as_str() {
                    "dump-log" => View::DumpLog {
                        tp,
                        broker,
                        fields: opt("fields")
                            .map(|(_, _, v)| v.split(',').map(str::to_string).collect()),
                        control_records: match opt("records") {
                            None => false,
                            Some((_, _, v)) if v == "control" || v == "all" => true,
                            Some((t, _, _)) => {
                                return Err(c.err(t.column, msg!("parse.records-option")))
                            }
                        },
                        data_records: opt("records").is_some_and(|(_, _, v)| v == "all"),
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
                    "replicas" => View::Replicas { tp },
                    "offsets" => View::Offsets { tp },
                    "files" => View::Files { tp, broker },
                    "segments" => View::Segments { tp, broker },
                    "snapshots" => View::Snapshots { tp, broker },
                    "verdict" => View::Verdict { tp },
                    "describe-producers" => View::DescribeProducers { tp },
                    "find-hanging" => View::FindHanging { tp },
                    other => {
                        return Err(c.err(what.column, arg1("parse.unknown-view", "word", other)))
                    }
                }
            };
            StepKind::Print(view)
        }
        other => return Err(c.err(head.column, arg1("parse.unknown-command", "word", other))),
    };
    Ok(kind)
}

#[cfg(test)]
mod tests;

/// `print quorum` (only reached with the feature `metadata-log`).
#[cfg(feature = "metadata-log")]
fn quorum_view() -> View {
    View::Quorum
}

#[cfg(not(feature = "metadata-log"))]
fn quorum_view() -> View {
    View::Transactions
}
