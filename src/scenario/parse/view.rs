//! The read-only steps: `print VIEW …` (one of [`View`]) and `check` (the invariant
//! checker's verdict).

use super::*;

/// `check`: the checker's verdict so far.
#[cfg(feature = "checker")]
pub(super) fn check_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    c.done()?;
    Ok(StepKind::Print(View::Violations))
}

/// `check` without the checker: only with its verdict recorded under it (filled in, or
/// refused, by `recorded_checks`).
#[cfg(not(feature = "checker"))]
pub(super) fn check_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    c.done()?;
    Ok(StepKind::Print(View::RecordedCheck(Vec::new())))
}

/// `print VIEW …`.
pub(super) fn print_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let what = c.next(What::Id("parse.what.view"))?;
    let view = match what.text.as_str() {
        "consumed" | "txn-log" | "txn-states" | "describe-transaction" => named_view(c, what)?,
        // A site without group membership (every web page).
        #[cfg(not(feature = "group-membership"))]
        "group" => return Err(c.err(what.column, msg!("parse.no-group-membership"))),
        #[cfg(feature = "group-membership")]
        "group" => {
            let group_id = c.next(What::Id("parse.what.group-id"))?.text.clone();
            c.done()?;
            View::Group { group_id }
        }
        "committed" => {
            let group_id = c.next(What::Id("parse.what.group-id"))?.text.clone();
            let partitions = partitions_to_end(c)?;
            View::Committed {
                group_id,
                partitions,
            }
        }
        "transactions" => {
            c.done()?;
            View::Transactions
        }
        #[cfg(feature = "metadata-log")]
        "quorum" => {
            c.done()?;
            View::Quorum
        }
        "events" => View::Events {
            last: last_option(c)?,
        },
        #[cfg(feature = "metadata-log")]
        "metadata" => View::Metadata {
            last: last_option(c)?,
        },
        // Every other word names a view of one partition: `partition_view` reads the
        // partition, then refuses a view it does not know.
        _ => partition_view(c, what)?,
    };
    Ok(StepKind::Print(view))
}

/// `print consumed|txn-log|txn-states|describe-transaction NAME`.
fn named_view(c: &mut Cursor, what: &Token) -> Result<View, ParseError> {
    let arg = c.next(What::Id("parse.what.name"))?.text.clone();
    c.done()?;
    Ok(match what.text.as_str() {
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
    })
}

/// The optional `last=N` of `print events|metadata`, then the end of the line.
fn last_option(c: &mut Cursor) -> Result<Option<usize>, ParseError> {
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut last = None;
    for (t, k, v) in opts {
        if k != "last" {
            return Err(unknown_option(c, t, &k));
        }
        last = Some(number(c, t, &v, "last")?);
    }
    Ok(last)
}

/// `print VIEW [broker-N] TOPIC-P [KEY=VALUE…]`: a view of one partition (`broker-N`:
/// that broker's replica, not the leader's, for the views of the files).
fn partition_view(c: &mut Cursor, what: &Token) -> Result<View, ParseError> {
    let broker = match c.peek().filter(|t| t.text.starts_with("broker-")) {
        Some(t) => {
            if !matches!(
                what.text.as_str(),
                "dump-log" | "files" | "segments" | "snapshots"
            ) {
                return Err(c.err(t.column, msg!("parse.broker-view")));
            }
            let n = number(c, t, t.text.trim_start_matches("broker-"), "broker")?;
            c.pos += 1;
            Some(n)
        }
        None => None,
    };
    let tp = next_partition(c)?;
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let opt = |name: &str| opts.iter().find(|(_, k, _)| k == name);
    Ok(match what.text.as_str() {
        "dump-log" => dump_log_view(c, tp, broker, &opts)?,
        "txnindex" => View::TxnIndex { tp },
        "latest" => View::Latest { tp },
        "window" => View::Window {
            tp,
            producer_id: match opt("pid") {
                Some((t, _, v)) => Some(number(c, t, v, "pid")?),
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
        other => return Err(c.err(what.column, arg1("parse.unknown-view", "word", other))),
    })
}

/// `print dump-log [broker-N] TOPIC-P [fields=A,B] [records=control|all]`
/// (`kafka-dump-log.sh`).
fn dump_log_view(
    c: &Cursor,
    tp: TopicPartition,
    broker: Option<i32>,
    opts: &[(&Token, String, String)],
) -> Result<View, ParseError> {
    let opt = |name: &str| opts.iter().find(|(_, k, _)| k == name);
    Ok(View::DumpLog {
        tp,
        broker,
        fields: opt("fields").map(|(_, _, v)| v.split(',').map(str::to_string).collect()),
        control_records: match opt("records") {
            None => false,
            Some((_, _, v)) if v == "control" || v == "all" => true,
            Some((t, _, _)) => return Err(c.err(t.column, msg!("parse.records-option"))),
        },
        data_records: opt("records").is_some_and(|(_, _, v)| v == "all"),
    })
}
