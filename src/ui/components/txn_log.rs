//! The partition seen by a transactional reader: the LEO, HW and LSO pointers, a strip
//! of the newest offsets (committed, aborted and open data and the markers, by colour
//! and by word), the batch table and `.txnindex`.
//!
//! The batch table is windowed: it renders only the batches the view model decoded near
//! the rows on screen, and empty rows of the same height for the others, so a
//! partition of 10,000 batches scrolls (by mouse or by the arrow keys in the focused
//! region) through all of them while the page styles, lays out and paints ≈ 50 rows,
//! and at the newest end, where the clicks land, the newest 24 (`NEWEST_ROWS`).
//! Scrolling away from the decoded rows asks for the window there (`on_back`). The
//! table's `aria-rowcount` and each row's `aria-rowindex` tell a screen reader where a
//! row sits among all of them.

use crate::ui::class::{class_list, on};
use crate::ui::newest_end::{use_newest_end, NewestEnd};
use yew::prelude::*;
use yew::virtual_dom::VList;

use super::log_table::gap_row;
use crate::i18n::{t, tf, ui_lang, Key};
use crate::view::alt::{kind_key, strip_alt, strip_cells};
use crate::view::log_rows::{newest_rows, window_rows, LogRow, NEWEST_ROWS};
use crate::view::partition::{BatchKind, PartitionView, TxnBatch};

#[derive(Properties, PartialEq)]
pub struct TxnLogProps {
    pub part: PartitionView,
    /// The table scrolled away from the decoded rows: show the window that ends this
    /// many batches before the newest. None: the newest window only, no empty rows.
    #[prop_or_default]
    pub on_back: Option<Callback<usize>>,
}

/// The height of one batch row (`.txn-log-table tbody tr` in ui.css): the empty rows
/// stand in for this many pixels a batch.
const ROW_PX: usize = 44;

/// An empty row holding the place of `n` batches that are not rendered.
fn gap(n: usize) -> Html {
    html! {
        if n > 0 {
            <tr class="log-gap" aria-hidden="true" style={format!("height: {}px", n * ROW_PX)}><td colspan="6"></td></tr>
        }
    }
}

/// When a scroll of the table shows rows outside the decoded ones (`first..first +
/// len` of `total`), the window to ask for: how many batches before the newest it ends.
/// The scroller is `column-reverse`, so `scroll_top` is 0 at the newest row and
/// negative above it.
fn back_for(scroll_top: i32, height: i32, first: usize, len: usize, total: usize) -> Option<usize> {
    let up = usize::try_from(-scroll_top).unwrap_or(0) / ROW_PX;
    let end = total.saturating_sub(up);
    let start = end.saturating_sub(usize::try_from(height).unwrap_or(0) / ROW_PX + 1);
    let covered =
        (first == 0 || start >= first + 5) && (end + 5 <= first + len || first + len >= total);
    (!covered).then(|| total.saturating_sub(end + 12))
}

pub fn kind_word(k: BatchKind) -> &'static str {
    t(kind_key(k))
}

fn kind_short(k: BatchKind) -> &'static str {
    t(match k {
        BatchKind::Committed => Key::KindCommittedShort,
        BatchKind::Aborted => Key::KindAbortedShort,
        BatchKind::Open => Key::KindOpenShort,
        BatchKind::CommitMarker => Key::KindCommitMarkerShort,
        BatchKind::AbortMarker => Key::KindAbortMarkerShort,
        BatchKind::Plain => Key::KindPlainShort,
    })
}

/// The sign a strip cell carries next to its colour (the word is there for screen readers
/// and in the legend).
fn kind_glyph(k: BatchKind) -> &'static str {
    match k {
        BatchKind::Committed => "✓",
        BatchKind::Aborted => "✗",
        BatchKind::Open => "…",
        BatchKind::CommitMarker | BatchKind::AbortMarker => "■",
        BatchKind::Plain => "·",
    }
}

fn pointer(label: Key, hint: Key, value: i64, testid: &'static str) -> Html {
    html! {
        <div class={class_list(&["pointer", &format!("pointer-{}", testid.trim_start_matches("txn-"))])}>
            <dt><abbr title={t(hint)}>{ t(label) }</abbr></dt>
            <dd class="mono" data-testid={testid}>{ value }</dd>
            <dd class="muted small">{ t(hint) }</dd>
        </div>
    }
}

/// The newest offsets as cells, with the pointers under the offsets they point at. The
/// picture is hidden from screen readers, which read the same in words (`view::alt`).
fn strip(part: &PartitionView) -> Html {
    let leo = part.log_end_offset;
    let marks = |o: i64| -> Vec<&'static str> {
        let mut m = Vec::new();
        if part.last_stable_offset == o {
            m.push(t(Key::Lso));
        }
        if part.high_watermark == o {
            m.push(t(Key::Hw));
        }
        if leo == o {
            m.push(t(Key::Leo));
        }
        m
    };
    let cells = strip_cells(part);
    let first = cells.first().map_or(leo, |c| c.offset);
    // Keyed by offset, in a list of their own (beside the unkeyed next cell, a mixed
    // list is diffed by position): when the strip moves on by an offset, the cells that
    // stay keep their elements.
    let cells: Html = cells
        .iter()
        .map(|c| {
            let (o, k) = (&c.offset, &c.kind);
            let text = c.value.clone().unwrap_or_else(|| kind_short(*k).to_string());
            let m = marks(*o);
            html! {
                <li key={*o} class={class_list(&["cell", &format!("kind-{}", k.css())])} title={format!("{o}: {}", kind_word(*k))}>
                    <span class="cell-offset mono">{ o }</span>
                    <span class="cell-value mono">{ text }</span>
                    <span class="cell-kind">{ kind_glyph(*k) }</span>
                    if !m.is_empty() {
                        <span class="cell-marks">{ for m.iter().map(|x| html! { <span class={class_list(&["mark", &format!("mark-{}", x.to_ascii_lowercase())])}>{ format!("▲{x}") }</span> }) }</span>
                    }
                </li>
            }
        })
        .collect();
    let earlier = part.last_stable_offset < first;
    html! {
        <>
            <p class="visually-hidden" data-testid="txn-strip-alt">{ strip_alt(part, ui_lang()) }</p>
            <ol class="offset-strip" aria-hidden="true" data-testid="txn-strip">
                { cells }
                <li class="cell cell-next" title={t(Key::LeoHint)}>
                    <span class="cell-offset mono">{ leo }</span>
                    <span class="cell-value muted">{ "…" }</span>
                    <span class="cell-kind">{ t(Key::StripNext) }</span>
                    <span class="cell-marks">{ for marks(leo).iter().map(|x| html! { <span class={class_list(&["mark", &format!("mark-{}", x.to_ascii_lowercase())])}>{ format!("▲{x}") }</span> }) }</span>
                </li>
            </ol>
            if earlier {
                <p class="small notice">{ tf(Key::StripLsoEarlier, &[&part.last_stable_offset.to_string()]) }</p>
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    batch: TxnBatch,
    /// `aria-rowindex`: the header is row 1, the oldest batch row 2.
    index: usize,
}

/// One batch row: a component, keyed by its base offset, so a row whose batch did not
/// change is neither re-rendered nor touched in the page.
#[function_component(Row)]
fn row(p: &RowProps) -> Html {
    let b = &p.batch;
    let index = p.index.to_string();
    let values: Vec<&str> = b.records.iter().map(|(_, v)| v.as_str()).collect();
    let what = match &b.control_line {
        // `endTxnMarker: COMMIT` / `coordinatorEpoch: 0`, one field a line.
        Some(line) => {
            let (a, b) = line.split_at(line.find(" coordinatorEpoch").unwrap_or(line.len()));
            html! { <span class="mono small control-line"><span>{ a.to_string() }</span><span>{ b.trim().to_string() }</span></span> }
        }
        None => html! { <span class="mono">{ values.join(", ") }</span> },
    };
    let offsets = if b.base_offset == b.last_offset {
        b.base_offset.to_string()
    } else {
        format!("{}..{}", b.base_offset, b.last_offset)
    };
    html! {
        <tr class={format!("kind-{}", b.kind.css())} aria-rowindex={index}>
            <td class="num mono">{ offsets }</td>
            <td><span class={class_list(&["kind-tag", &format!("tag-{}", b.kind.css())])}>{ kind_word(b.kind) }</span></td>
            <td class="records">{ what }</td>
            <td class="num mono">{ b.producer_id }</td>
            <td class="num mono">{ b.producer_epoch }</td>
            <td class="num mono">{ b.base_sequence }</td>
        </tr>
    }
}

#[function_component(TxnLog)]
pub fn txn_log(p: &TxnLogProps) -> Html {
    let part = &p.part;
    let windowed = p.on_back.is_some();
    // At the newest end of a long log (where every click lands) only the newest
    // `NEWEST_ROWS` batches are rendered; once the reader scrolls up past a few rows,
    // every decoded batch (as many as the view model decoded, then the window scrolled
    // to).
    let newest = use_newest_end();
    let (first, len, table_rows) = if windowed && !newest.away() && part.rows.is_none() {
        newest_rows(part, NEWEST_ROWS)
    } else {
        let (first, table_rows) = window_rows(part);
        (first, part.table_rows().1.len(), table_rows)
    };
    let total = part.total_batches;
    let onscroll = p
        .on_back
        .clone()
        .map(|cb| on_scroll(cb, newest.clone(), first, len, total));
    let onkeydown = windowed.then(on_home_end);
    html! {
        <div class="stack txn-log">
            <dl class="pointers">
                { pointer(Key::Leo, Key::LeoHint, part.log_end_offset, "txn-leo") }
                { pointer(Key::Hw, Key::HwHint, part.high_watermark, "txn-hw") }
                { pointer(Key::Lso, Key::LsoHint, part.last_stable_offset, "txn-lso") }
            </dl>
            { lso_note(part) }
            { legend() }
            { strip(part) }
            <div class="log-scroll" tabindex="0" role="region" aria-label={t(Key::TxLogCaption)} {onscroll} {onkeydown}>
                { batch_table(part, table_rows, first, len, windowed) }
            </div>
            { txn_index(part) }
        </div>
    }
}

/// What holds the LSO back: the ongoing transaction that began first, below the HW, or
/// nothing.
fn lso_note(part: &PartitionView) -> Html {
    let held_by = part
        .ongoing
        .iter()
        .min_by_key(|(_, first)| *first)
        .filter(|(_, first)| *first < part.high_watermark);
    let lso_text = match held_by {
        Some((pid, first)) => tf(
            Key::LsoHeld,
            &[
                &part.last_stable_offset.to_string(),
                &pid.to_string(),
                &first.to_string(),
            ],
        ),
        None => tf(Key::LsoFree, &[&part.last_stable_offset.to_string()]),
    };
    html! {
        <p class={class_list(&["small", "lso-note", on(held_by.is_some(), "lso-held")])} data-testid="txn-lso-note">{ lso_text }</p>
    }
}

/// The colours of the strip and the table, each with its word.
fn legend() -> Html {
    html! {
        <ul class="legend small" aria-label={t(Key::LegendLabel)}>
            { for [BatchKind::Committed, BatchKind::Open, BatchKind::Aborted, BatchKind::CommitMarker, BatchKind::AbortMarker].iter().map(|k| html! {
                <li><span class={class_list(&["swatch", &format!("kind-{}", k.css())])} aria-hidden="true">{ kind_short(*k) }</span>{ kind_word(*k) }</li>
            }) }
        </ul>
    }
}

/// The table scrolled: render every decoded row once it is a few rows up, and ask for
/// the window there when it shows rows outside the decoded ones.
fn on_scroll(
    cb: Callback<usize>,
    newest: NewestEnd,
    first: usize,
    len: usize,
    total: usize,
) -> Callback<Event> {
    Callback::from(move |e: Event| {
        let Some(el) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        // Scrolled up by more than a few rows: render all the decoded ones (the
        // cut window covers `NEWEST_ROWS` less the box's 9 and `back_for`'s 5).
        newest.scrolled(&el, (ROW_PX * 6) as i32);
        if let Some(back) = back_for(el.scroll_top(), el.client_height(), first, len, total) {
            cb.emit(back);
        }
    })
}

/// Home and End jump at once: a smooth scroll across 10,000 rows stops at the first
/// window the table swaps in.
fn on_home_end() -> Callback<KeyboardEvent> {
    Callback::from(|e: KeyboardEvent| {
        let Some(el) = e.target_dyn_into::<web_sys::Element>() else {
            return;
        };
        let to = match e.key().as_str() {
            "Home" => -el.scroll_height(),
            "End" => 0,
            _ => return,
        };
        e.prevent_default();
        el.set_scroll_top(to);
    })
}

/// The batch table: the rendered rows (`table_rows`, the first of them the
/// `first`-th batch, `len` decoded) and, windowed, the empty rows above and below them.
fn batch_table(
    part: &PartitionView,
    table_rows: Vec<LogRow>,
    first: usize,
    len: usize,
    windowed: bool,
) -> Html {
    let decoded = part.table_rows().1;
    let rows = decoded
        .get(decoded.len().saturating_sub(len)..)
        .unwrap_or_default();
    let total = part.total_batches;
    // Keyed by offset, in a list of their own (`{ for … }` would mix them with the empty
    // rows, and a list with unkeyed children is diffed by position, rebuilding every
    // row whose key moved): when a batch is appended the window moves on by one, and
    // the rows that stay keep their elements and text.
    let batch_rows: Html = table_rows
        .into_iter()
        .filter_map(|row| match row {
            LogRow::Batch(i) => rows.get(i).map(
                |b| html! { <Row key={b.base_offset} batch={b.clone()} index={first + i + 2} /> },
            ),
            // A gap's key is below zero (`!first`), never a batch's offset.
            LogRow::Removed { first, last } => {
                Some(VList::with_children(vec![gap_row(first, last)], Some((!first).into())).into())
            }
        })
        .collect();
    html! {
        <table class="log-table txn-log-table" data-testid="txn-log" aria-rowcount={(total + 2).to_string()}>
            <caption>
                { t(Key::TxLogCaption) }
                if part.total_batches > part.batches.len() {
                    { " " }<strong data-testid="txn-log-window">{ tf(Key::TxLogWindow, &[&part.total_batches.to_string()]) }</strong>
                }
            </caption>
            <thead>
                <tr>
                    <th scope="col" class="num">{ t(Key::LogOffsets) }</th>
                    <th scope="col">{ t(Key::TxLogWhat) }</th>
                    <th scope="col">{ t(Key::LogRecords) }</th>
                    <th scope="col" class="num"><abbr title={t(Key::LogProducerId)}>{ t(Key::TxLogPid) }</abbr></th>
                    <th scope="col" class="num"><abbr title={t(Key::LogEpoch)}>{ t(Key::TxLogEpoch) }</abbr></th>
                    <th scope="col" class="num"><abbr title={t(Key::LogBaseSeq)}>{ t(Key::TxLogSeq) }</abbr></th>
                </tr>
            </thead>
            <tbody>
                if rows.is_empty() {
                    <tr><td colspan="6" class="muted">{ t(Key::LogEmpty) }</td></tr>
                }
                if windowed { { gap(first) } }
                { batch_rows }
                if windowed { { gap(total.saturating_sub(first + len)) } }
            </tbody>
            <tfoot>
                <tr class="leo-row"><td colspan="6" class="small">{ "→ " }{ tf(Key::LogLeoRow, &[&part.log_end_offset.to_string()]) }</td></tr>
            </tfoot>
        </table>
    }
}

/// `.txnindex`: the aborted transactions, one row each.
fn txn_index(part: &PartitionView) -> Html {
    html! {
        <>
            <h3 class="small-heading">{ t(Key::TxIndexHeading) }</h3>
            <div class="scroll-x" tabindex="0" role="region" aria-label={t(Key::TxIndexCaption)}>
            <table class="log-table txn-index" data-testid="txn-index">
                <caption>{ t(Key::TxIndexCaption) }</caption>
                <thead>
                    <tr>
                        <th scope="col" class="num">{ "producerId" }</th>
                        <th scope="col" class="num">{ "firstOffset" }</th>
                        <th scope="col" class="num">{ "lastOffset" }</th>
                        <th scope="col" class="num">{ "lastStableOffset" }</th>
                    </tr>
                </thead>
                <tbody>
                    if part.aborted.is_empty() {
                        <tr><td colspan="4" class="muted">{ t(Key::TxIndexEmpty) }</td></tr>
                    }
                    { for part.aborted.iter().map(|a| html! {
                        <tr class="kind-aborted">
                            <td class="num mono">{ a.producer_id }</td>
                            <td class="num mono">{ a.first_offset }</td>
                            <td class="num mono">{ a.last_offset }</td>
                            <td class="num mono">{ a.last_stable_offset }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            </div>
        </>
    }
}
