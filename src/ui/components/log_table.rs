//! The partition log, decoded from the bytes on the broker's disk: one row per batch,
//! with its offsets and idempotence header fields, the LEO and HW pointers, and a
//! button per batch that opens its header bytes, and one row for each run of offsets
//! the log cleaner removed.

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use super::header_bytes::HeaderBytes;
use crate::i18n::{t, tf, Key};
use crate::sim::view::LogView;
use crate::view::log_rows::{log_rows, LogRow};
use crate::view::partition::BatchKind;

#[derive(Properties, PartialEq)]
pub struct LogTableProps {
    pub log: LogView,
    /// The batch whose bytes are open: (segment, position).
    pub selected: Option<(i64, u64)>,
    /// The batch the last decision points at: (first offset, was it a duplicate).
    #[prop_or_default]
    pub mark: Option<(i64, bool)>,
    pub on_select: Callback<Option<(i64, u64)>>,
}

/// Offsets the log cleaner removed, as one row of a six-column log table.
pub fn gap_row(first: i64, last: i64) -> Html {
    let text = if first == last {
        tf(Key::LogRemovedOne, &[&first.to_string()])
    } else {
        tf(Key::LogRemovedRow, &[&first.to_string(), &last.to_string()])
    };
    html! { <tr class="gap-row" data-testid="log-gap"><td colspan="6" class="small muted">{ text }</td></tr> }
}

#[function_component(LogTable)]
pub fn log_table(p: &LogTableProps) -> Html {
    let log = &p.log;
    let multi_segment = log.segments.len() > 1;
    let mut rows: Vec<Html> = Vec::new();
    let mut last_segment = None;
    for row in log_rows(log) {
        let b = match row {
            LogRow::Batch(i) => match log.batches.get(i) {
                Some(b) => b,
                None => continue,
            },
            LogRow::Removed { first, last } => {
                rows.push(gap_row(first, last));
                continue;
            }
        };
        if multi_segment && last_segment != Some(b.segment) {
            last_segment = Some(b.segment);
            rows.push(html! {
                <tr class="segment-row"><th colspan="6" scope="rowgroup" class="small">{ tf(Key::LogSegment, &[&format!("{:020}.log", b.segment)]) }</th></tr>
            });
        }
        let key = (b.segment, b.position);
        let open = p.selected == Some(key);
        let mark = p.mark.filter(|(o, _)| *o == b.base_offset);
        let onclick = {
            let cb = p.on_select.clone();
            Callback::from(move |_: MouseEvent| cb.emit(if open { None } else { Some(key) }))
        };
        let class = match mark {
            Some((_, true)) => "row-dup",
            Some((_, false)) => "row-new",
            None => "",
        };
        // A control batch holds a marker, not text: name it (and tag aborted data).
        let kind = BatchKind::of(b, &log.aborted_txns, &log.ongoing_transactions);
        let records = match kind {
            BatchKind::CommitMarker => {
                html! { <span class="badge marker" data-testid="log-marker">{ t(Key::KindCommitMarker) }</span> }
            }
            BatchKind::AbortMarker => {
                html! { <span class="badge marker" data-testid="log-marker">{ t(Key::KindAbortMarker) }</span> }
            }
            _ => {
                let values: Vec<&str> = b.records.iter().map(|(_, v)| v.as_str()).collect();
                html! {
                    <>
                        { values.join(", ") }
                        if kind == BatchKind::Aborted {
                            { " " }<span class="badge danger">{ t(Key::KindAborted) }</span>
                        }
                    </>
                }
            }
        };
        rows.push(html! {
            <tr class={class_list(&[class, on(open, "row-open")])}>
                <td class="num mono">
                    { format!("{}..{}", b.base_offset, b.last_offset) }
                    if let Some((_, dup)) = mark {
                        <span class={if dup { "badge warn" } else { "badge ok" }}>{ if dup { t(Key::TagOriginal) } else { t(Key::TagNew) } }</span>
                    }
                </td>
                <td class="mono records">{ records }</td>
                <td class="num mono">{ b.producer_id }</td>
                <td class="num mono">{ b.producer_epoch }</td>
                <td class="num mono">{ format!("{}..{}", b.base_sequence, b.last_sequence) }</td>
                <td>
                    <button type="button" class="small-button" aria-expanded={open.to_string()} aria-controls="header-bytes" onclick={onclick}>
                        { if open { t(Key::LogHideBytes) } else { t(Key::LogShowBytes) } }
                        <span class="visually-hidden">{ format!(" {}", b.base_offset) }</span>
                    </button>
                </td>
            </tr>
        });
    }
    let selected = p
        .selected
        .and_then(|k| log.batches.iter().find(|b| (b.segment, b.position) == k));
    let files: Vec<String> = log
        .files
        .iter()
        .map(|(n, s)| format!("{n} ({s} B)"))
        .collect();
    html! {
        <div class="stack">
            <dl class="pointers">
                <div class="pointer">
                    <dt><abbr title={t(Key::LeoHint)}>{ t(Key::Leo) }</abbr></dt>
                    <dd class="mono" data-testid="leo">{ log.log_end_offset }</dd>
                    <dd class="muted small">{ t(Key::LeoHint) }</dd>
                </div>
                <div class="pointer">
                    <dt><abbr title={t(Key::HwHint)}>{ t(Key::Hw) }</abbr></dt>
                    <dd class="mono" data-testid="hw">{ log.high_watermark }</dd>
                    <dd class="muted small">{ t(Key::HwHint) }</dd>
                </div>
            </dl>
            <div class="scroll-x" tabindex="0" role="region" aria-label={t(Key::LogCaption)}>
                <table class="log-table" data-testid="log">
                    <caption>{ t(Key::LogCaption) }</caption>
                    <thead>
                        <tr>
                            <th scope="col" class="num">{ t(Key::LogOffsets) }</th>
                            <th scope="col">{ t(Key::LogRecords) }</th>
                            <th scope="col" class="num">{ t(Key::LogProducerId) }</th>
                            <th scope="col" class="num">{ t(Key::LogEpoch) }</th>
                            <th scope="col" class="num">{ t(Key::LogBaseSeq) }</th>
                            <th scope="col">{ t(Key::LogBytes) }</th>
                        </tr>
                    </thead>
                    <tbody>
                        if log.batches.is_empty() {
                            <tr><td colspan="6" class="muted">{ t(Key::LogEmpty) }</td></tr>
                        }
                        { for rows }
                    </tbody>
                    <tfoot>
                        <tr class="leo-row"><td colspan="6" class="small">{ "→ " }{ tf(Key::LogLeoRow, &[&log.log_end_offset.to_string()]) }</td></tr>
                    </tfoot>
                </table>
            </div>
            if let Some(b) = selected {
                <HeaderBytes batch={b.clone()} />
            }
            <details class="files">
                <summary>{ t(Key::LogFiles) }</summary>
                <ul class="mono small">{ for files.iter().map(|f| html! { <li>{ f }</li> }) }</ul>
            </details>
        </div>
    }
}
