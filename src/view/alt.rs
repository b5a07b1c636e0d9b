//! Text alternatives: what each picture on the transactions page shows, as sentences a
//! screen reader reads (the coordinator's state diagram, the offset strip with its LSO,
//! HW and LEO pointers, the request timeline). Built from the same view models as the
//! pictures, in the catalog's words, so the picture and its sentence cannot disagree.

use crate::coordinator::transaction::TransactionState;
use crate::i18n::{tfl, Key, Lang};

use super::coordinators::CoordinatorView;
use super::partition::{BatchKind, PartitionView, STRIP_OFFSETS};
use super::timeline::{TimelineMessage, TimelineView};

/// One cell of the offset strip: its offset, what is there, and the record's value
/// (`None` for a marker, which has none).
#[derive(Clone, Debug, PartialEq)]
pub struct StripCell {
    pub offset: i64,
    pub kind: BatchKind,
    pub value: Option<String>,
}

/// The newest [`STRIP_OFFSETS`] offsets of the partition, oldest first: one cell per
/// record, one per marker.
pub fn strip_cells(part: &PartitionView) -> Vec<StripCell> {
    let mut cells = Vec::new();
    for b in part.batches.iter().rev() {
        if b.kind.is_marker() {
            cells.push(StripCell {
                offset: b.base_offset,
                kind: b.kind,
                value: None,
            });
        } else {
            for (o, v) in b.records.iter().rev() {
                cells.push(StripCell {
                    offset: *o,
                    kind: b.kind,
                    value: Some(v.clone()),
                });
            }
        }
        if cells.len() >= STRIP_OFFSETS {
            break;
        }
    }
    cells.truncate(STRIP_OFFSETS);
    cells.reverse();
    cells
}

/// The catalog's word for what an offset holds.
pub fn kind_key(k: BatchKind) -> Key {
    match k {
        BatchKind::Committed => Key::KindCommitted,
        BatchKind::Aborted => Key::KindAborted,
        BatchKind::Open => Key::KindOpen,
        BatchKind::CommitMarker => Key::KindCommitMarker,
        BatchKind::AbortMarker => Key::KindAbortMarker,
        BatchKind::Plain => Key::KindPlain,
    }
}

fn list(items: &[String], lang: Lang) -> String {
    let sep = crate::i18n::catalog::text("list.separator", lang);
    items.join(sep)
}

/// The coordinator's diagram in words: the current state, where it came from, a write in
/// progress, and the moves `validPreviousStates` allows from here.
pub fn coordinator_alt(v: &CoordinatorView, lang: Lang) -> String {
    let mut out = tfl(Key::AltCoord, lang, &[&v.transactional_id, v.state.name()]);
    if let Some((from, to)) = v.last_transition {
        if to == v.state && from != to {
            out.push(' ');
            out.push_str(&tfl(Key::AltCoordFrom, lang, &[from.name()]));
        }
    }
    if let Some(p) = v.pending.filter(|p| *p != v.state) {
        out.push(' ');
        out.push_str(&tfl(Key::AltCoordPending, lang, &[p.name()]));
    }
    let next: Vec<String> = TransactionState::ALL
        .iter()
        .filter(|to| **to != v.state && to.valid_previous_states().contains(&v.state))
        .map(|to| to.name().to_string())
        .collect();
    out.push(' ');
    if next.is_empty() {
        out.push_str(&tfl(Key::AltCoordNoNext, lang, &[]));
    } else {
        out.push_str(&tfl(Key::AltCoordNext, lang, &[&list(&next, lang)]));
    }
    out
}

/// The offset strip in words: runs of offsets that hold the same kind ("0..2 committed
/// data, 3 COMMIT marker"), then where LSO, HW and LEO point.
pub fn strip_alt(part: &PartitionView, lang: Lang) -> String {
    let cells = strip_cells(part);
    let mut runs: Vec<(i64, i64, BatchKind)> = Vec::new();
    for c in &cells {
        match runs.last_mut() {
            Some((_, last, kind)) if *kind == c.kind && *last + 1 == c.offset => *last = c.offset,
            _ => runs.push((c.offset, c.offset, c.kind)),
        }
    }
    let pointers = tfl(
        Key::AltStripPointers,
        lang,
        &[
            &part.last_stable_offset.to_string(),
            &part.high_watermark.to_string(),
            &part.log_end_offset.to_string(),
        ],
    );
    if runs.is_empty() {
        return format!("{} {pointers}", tfl(Key::AltStripEmpty, lang, &[]));
    }
    let words: Vec<String> = runs
        .iter()
        .map(|(a, b, k)| {
            let at = if a == b {
                a.to_string()
            } else {
                format!("{a}..{b}")
            };
            format!("{at} {}", crate::i18n::labels::text(kind_key(*k), lang))
        })
        .collect();
    format!(
        "{} {pointers}",
        tfl(Key::AltStrip, lang, &[&list(&words, lang)])
    )
}

/// One message as the timeline labels it: `Produce request`, `✗ EndTxn response — lost`,
/// `(NOT_COORDINATOR)` for an error answer, and what a fault did to it.
pub fn message_label(m: &TimelineMessage, lang: Lang) -> String {
    use crate::sim::FaultMark;
    let l = |k: Key| crate::i18n::labels::text(k, lang);
    let f = |k: Key, a: &str| tfl(k, lang, &[a]);
    let kind = l(if m.response {
        Key::TlResponse
    } else {
        Key::TlRequest
    });
    let what = format!("{} {}", m.api, kind);
    let mut text = match (&m.mark, &m.error) {
        (Some(FaultMark::Cut), _) => format!("✗ {what} — {}", l(Key::TlLostOnCut)),
        _ if m.dropped => format!("✗ {what} — {}", l(Key::TlLost)),
        _ if m.held => format!("‖ {what} — {}", l(Key::TlHeld)),
        (Some(FaultMark::Delayed { ms }), _) => {
            format!("{what} — {}", f(Key::TlDelayedBy, &ms.to_string()))
        }
        (Some(FaultMark::Duplicated { copy }), _) => {
            format!("{what} — {}", f(Key::TlDuplicatedAs, &copy.to_string()))
        }
        (Some(FaultMark::ErrorInjected { error }), _) => {
            format!("{what} — {}", f(Key::TlInjected, error.name()))
        }
        (_, Some(e)) => format!("{what} ({e})"),
        _ => what,
    };
    if let Some(original) = m.copy_of {
        text.push_str(&format!(" ({})", f(Key::TlCopyOf, &original.to_string())));
    }
    if m.on_wire && !m.held {
        text = format!("▸ {text}");
        if m.mark.is_none() && m.copy_of.is_none() {
            text.push_str(&format!(" — {}", l(Key::TlOnWire)));
        }
    }
    text
}

/// A message's route: `tx-1 → broker 0`.
pub fn message_route(v: &TimelineView, m: &TimelineMessage) -> String {
    let lane = |i: usize| v.lifelines.get(i).map_or("", |l| l.label.as_str());
    format!("{} → {}", lane(m.from), lane(m.to))
}

/// The timeline in words: how many messages between whom, and the newest one.
pub fn timeline_alt(v: &TimelineView, lang: Lang) -> String {
    let Some(newest) = v.messages.last() else {
        return crate::i18n::labels::text(Key::TlEmpty, lang).to_string();
    };
    let names: Vec<String> = v.lifelines.iter().map(|l| l.label.clone()).collect();
    let mut out = tfl(
        Key::AltTimeline,
        lang,
        &[
            &v.messages.len().to_string(),
            &v.total.to_string(),
            &list(&names, lang),
        ],
    );
    out.push(' ');
    let newest = format!(
        "{}: {}",
        message_route(v, newest),
        message_label(newest, lang)
    );
    out.push_str(&tfl(Key::AltTimelineNewest, lang, &[&newest]));
    out
}

#[cfg(test)]
mod tests;
