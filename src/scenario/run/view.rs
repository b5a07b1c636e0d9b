//! Renders the `print …` views and `check` into transcript lines: one helper a view
//! that takes more than a call on the world.

use super::{consumed_line, latest_line, verdict_text, Runner};
use crate::broker::broker::BrokerEvent;
use crate::i18n::transcript;
use crate::i18n::{narrate, Lang};
use crate::log::TopicPartition;
use crate::scenario::parse::View;
use crate::sim::event::window_text;
use crate::sim::view::LogView;
use crate::sim::World;

impl Runner {
    /// Renders a view into transcript lines.
    pub fn view(&self, view: &View) -> Vec<String> {
        let (w, lang) = (&self.world, self.lang);
        match view {
            View::DumpLog {
                tp,
                fields,
                control_records,
                broker,
                data_records,
            } => w.dump_log(
                tp,
                *broker,
                fields.as_deref(),
                *control_records,
                *data_records,
            ),
            View::TxnIndex { tp } => on_partition(tp, w.log_view(tp), lang, |v| {
                v.aborted_txns.iter().map(|t| t.dump_line()).collect()
            }),
            View::Consumed { consumer } => vec![consumed_line(w, consumer, lang)
                .unwrap_or_else(|| transcript::no_consumer(consumer, lang))],
            View::Latest { tp } => vec![latest_line(w, tp, lang)],
            View::TxnLog { transactional_id } => w.transaction_log_dump(transactional_id),
            View::Transactions => w.transactions_list(),
            View::Committed {
                group_id,
                partitions,
            } => transcript::committed_offsets(
                group_id,
                &w.committed_offsets(group_id, partitions),
                lang,
            ),
            View::TxnStates { transactional_id } => vec![w.transaction_states(transactional_id)],
            #[cfg(feature = "group-membership")]
            View::Group { group_id } => w.describe_group(group_id),
            View::DescribeProducers { tp } => w.describe_producers(tp),
            View::FindHanging { tp } => w.find_hanging(&tp.topic, Some(tp.partition)),
            #[cfg(feature = "checker")]
            View::Violations => self
                .checker
                .as_ref()
                .map(|c| c.verdict(lang))
                .unwrap_or_default(),
            #[cfg(not(feature = "checker"))]
            View::RecordedCheck(lines) => lines.clone(),
            View::DescribeTransaction { transactional_id } => {
                w.transaction_describe(transactional_id)
            }
            View::Window { tp, producer_id } => window_lines(w, tp, *producer_id, lang),
            View::Producers { tp } => vec![producers_line(w, tp, lang)],
            View::Replicas { tp } => match w.replicas_view(tp) {
                Some(v) => crate::scenario::replicas_lines(&v, lang),
                None => vec![transcript::no_partition(&tp.to_string(), lang)],
            },
            View::Leo { tp } => on_partition(tp, w.log_view(tp), lang, |v| {
                vec![transcript::log_end_offset(v.log_end_offset, lang)]
            }),
            View::Offsets { tp } => on_partition(tp, w.log_view(tp), lang, |v| {
                vec![transcript::offsets(
                    &tp.to_string(),
                    v.log_start_offset,
                    v.high_watermark,
                    v.log_end_offset,
                    lang,
                )]
            }),
            View::Files { tp, broker } => on_partition(tp, w.log_view_on(tp, *broker), lang, |v| {
                v.files.iter().map(|(name, _)| name.clone()).collect()
            }),
            View::Segments { tp, broker } => {
                on_partition(tp, w.log_view_on(tp, *broker), lang, |v| {
                    vec![segments_line(&v, lang)]
                })
            }
            View::Snapshots { tp, broker } => {
                on_partition(tp, w.log_view_on(tp, *broker), lang, |v| {
                    vec![snapshots_line(&v, lang)]
                })
            }
            View::Verdict { tp } => vec![verdict_row(w, tp, lang)],
            #[cfg(feature = "metadata-log")]
            View::Metadata { last } => w.metadata_log().dump_lines(*last),
            #[cfg(feature = "metadata-log")]
            View::Quorum => w.quorum_lines(),
            View::Events { last } => event_lines(w, *last, lang),
        }
    }
}

/// A view of one partition's log, or the line that says there is no such partition.
fn on_partition(
    tp: &TopicPartition,
    log: Option<LogView>,
    lang: Lang,
    lines: impl FnOnce(LogView) -> Vec<String>,
) -> Vec<String> {
    match log {
        Some(v) => lines(v),
        None => vec![transcript::no_partition(&tp.to_string(), lang)],
    }
}

/// `print window`: each producer's sequence window on the partition (or the one asked).
fn window_lines(
    w: &World,
    tp: &TopicPartition,
    producer_id: Option<i64>,
    lang: Lang,
) -> Vec<String> {
    let lines: Vec<String> = w
        .windows(tp)
        .iter()
        .filter(|v| producer_id.is_none_or(|p| p == v.producer_id))
        .map(|v| transcript::window(v.producer_id, v.producer_epoch, &v.text(), lang))
        .collect();
    if lines.is_empty() {
        vec![transcript::window_unknown(producer_id, lang)]
    } else {
        lines
    }
}

/// `print producers`: the producer ids the partition keeps state for.
fn producers_line(w: &World, tp: &TopicPartition, lang: Lang) -> String {
    let ids: Vec<String> = w
        .windows(tp)
        .iter()
        .map(|v| v.producer_id.to_string())
        .collect();
    transcript::producers(&ids.join(", "), lang)
}

/// `print segments`: how many segments, and their base offsets.
fn segments_line(v: &LogView, lang: Lang) -> String {
    let bases: Vec<String> = v
        .segments
        .iter()
        .map(|s| s.base_offset.to_string())
        .collect();
    transcript::segments(v.segments.len(), &bases.join(", "), lang)
}

/// `print snapshots`: the producer-state snapshot files in the partition's folder.
fn snapshots_line(v: &LogView, lang: Lang) -> String {
    let snaps: Vec<&str> = v
        .files
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.ends_with(".snapshot"))
        .collect();
    transcript::snapshots(snaps.len(), &snaps.join(" "), lang)
}

/// `print events`: the narrated events (the last `last` of them), each at its time.
fn event_lines(w: &World, last: Option<usize>, lang: Lang) -> Vec<String> {
    let skip = last.map_or(0, |n| w.events().len().saturating_sub(n));
    w.events()
        .iter()
        .skip(skip)
        .map(|e| {
            format!(
                "[{:>6} ms] {}",
                e.at_ms - crate::sim::START_MS,
                narrate(e, lang)
            )
        })
        .collect()
}

/// One row of the window table: `seq a..b  VERDICT  base_offset  [window after]`.
fn verdict_row(w: &World, tp: &TopicPartition, lang: Lang) -> String {
    let Some(event) = w.last_verdict(tp) else {
        return transcript::no_batch(&tp.to_string(), lang);
    };
    let (first, last, pid, base) = match event {
        BrokerEvent::BatchAppended {
            first_seq,
            last_seq,
            producer_id,
            first_offset,
            ..
        }
        | BrokerEvent::BatchDuplicate {
            first_seq,
            last_seq,
            producer_id,
            first_offset,
            ..
        } => (*first_seq, *last_seq, *producer_id, *first_offset),
        BrokerEvent::BatchRejected {
            first_seq,
            last_seq,
            producer_id,
            ..
        } => (*first_seq, *last_seq, *producer_id, -1),
        _ => return String::new(),
    };
    let window = w
        .windows(tp)
        .into_iter()
        .find(|v| v.producer_id == pid)
        .map(|v| v.text())
        .unwrap_or_else(|| window_text(&[]));
    format!(
        "{:>7} {:<44} {:>6}   {}",
        format!("{first}..{last}"),
        verdict_text(event, lang),
        base,
        window
    )
}
