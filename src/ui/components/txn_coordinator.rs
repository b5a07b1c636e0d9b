//! The transaction coordinator: for each transactional.id, the eight states of
//! `TransactionState` with the allowed moves between them (`validPreviousStates`), the
//! current state lit, and the `__transaction_state` records in the order they were
//! written.

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::coordinator::transaction::TransactionState;
use crate::i18n::{t, tf, ui_lang, Key};
use crate::view::alt::coordinator_alt;
use crate::view::coordinators::{CoordinatorView, LateTxnView};

use TransactionState::*;

#[derive(Properties, PartialEq)]
pub struct TxnCoordinatorProps {
    pub views: Vec<CoordinatorView>,
}

const W: f64 = 138.0;
const H: f64 = 28.0;

/// Centre of a state's box: the commit path on the left, the abort path on the right.
fn place(s: TransactionState) -> (f64, f64) {
    match s {
        Empty => (80.0, 20.0),
        Dead => (250.0, 20.0),
        Ongoing => (80.0, 82.0),
        PrepareEpochFence => (250.0, 82.0),
        PrepareCommit => (80.0, 150.0),
        PrepareAbort => (250.0, 150.0),
        CompleteCommit => (80.0, 218.0),
        CompleteAbort => (250.0, 218.0),
    }
}

/// Where the line from the centre of a box towards (dx, dy) leaves the box.
fn exit(c: (f64, f64), dx: f64, dy: f64) -> (f64, f64) {
    let sx = if dx.abs() < 1e-9 {
        f64::INFINITY
    } else {
        (W / 2.0 + 3.0) / dx.abs()
    };
    let sy = if dy.abs() < 1e-9 {
        f64::INFINITY
    } else {
        (H / 2.0 + 3.0) / dy.abs()
    };
    let s = sx.min(sy);
    (c.0 + dx * s, c.1 + dy * s)
}

/// One arrow `from → to`: straight when short, bent when it goes back up or skips a row.
fn edge_path(from: TransactionState, to: TransactionState) -> String {
    let (a, b) = (place(from), place(to));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let back = dy < 0.0;
    let long = dy.abs() > 80.0 || (dy.abs() < 1.0 && dx.abs() > 1.0 && back);
    let bend = if back {
        // Up-going edges bow out to the sides, away from the forward path.
        if a.0 < 170.0 {
            -48.0
        } else {
            48.0
        }
    } else if long {
        34.0
    } else {
        0.0
    };
    // The control point sits beside the midpoint, perpendicular to the edge.
    let (nx, ny) = (-dy / len, dx / len);
    let ctrl = ((a.0 + b.0) / 2.0 + nx * bend, (a.1 + b.1) / 2.0 + ny * bend);
    let p0 = exit(a, ctrl.0 - a.0, ctrl.1 - a.1);
    let p1 = exit(b, ctrl.0 - b.0, ctrl.1 - b.1);
    format!(
        "M{},{} Q{},{} {},{}",
        num(p0.0),
        num(p0.1),
        num(ctrl.0),
        num(ctrl.1),
        num(p1.0),
        num(p1.1)
    )
}

/// `x` with one decimal, as `{:.1}` prints it, without the float formatter: that code
/// (≈ 13 KB of wasm) would be in the bundle for this diagram alone.
fn num(x: f64) -> String {
    let tenths = (x * 10.0).round() as i64;
    let sign = if tenths < 0 { "-" } else { "" };
    format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
}

fn diagram(v: &CoordinatorView, index: usize) -> Html {
    let marker = format!("arrow-{index}");
    let marker_hot = format!("arrow-hot-{index}");
    let mut edges = Vec::new();
    for to in TransactionState::ALL {
        for from in to.valid_previous_states() {
            if *from != to {
                edges.push((*from, to));
            }
        }
    }
    let last = v.last_transition;
    let paths: Html = edges
        .iter()
        .map(|(from, to)| {
            let hot = last == Some((*from, *to));
            let back = place(*to).1 < place(*from).1;
            let class = class_list(&["edge", on(back, "edge-back"), on(hot, "edge-hot")]);
            let m = if hot { &marker_hot } else { &marker };
            html! {
                <path d={edge_path(*from, *to)} class={class} marker-end={format!("url(#{m})")}>
                    <title>{ format!("{} → {}", from.name(), to.name()) }</title>
                </path>
            }
        })
        .collect();
    let nodes: Html = TransactionState::ALL
        .iter()
        .map(|s| {
            let (cx, cy) = place(*s);
            let current = v.state == *s;
            let pending = v.pending == Some(*s) && !current;
            let visited = v.visited.contains(s);
            let class = class_list(&[
                "state",
                on(current, "state-current"),
                on(pending, "state-pending"),
                on(visited && !current, "state-visited"),
            ]);
            let label = if current {
                format!("● {}", s.name())
            } else {
                s.name().to_string()
            };
            html! {
                <g class={class} data-state={s.name()}>
                    <rect x={num(cx - W / 2.0)} y={num(cy - H / 2.0)} width={num(W)} height={num(H)} rx="6" />
                    <text x={num(cx)} y={num(cy + 4.5)} text-anchor="middle">{ label }</text>
                </g>
            }
        })
        .collect();
    html! {
        // The picture in words (`view::alt`): the state, the one before, the moves from here.
        <svg class="state-diagram" viewBox="0 0 330 238" role="img" data-testid="coordinator-diagram"
             aria-label={coordinator_alt(v, ui_lang())}>
            <defs>
                <marker id={marker.clone()} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
                </marker>
                <marker id={marker_hot.clone()} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z" class="arrow-head-hot" />
                </marker>
            </defs>
            { paths }
            { nodes }
        </svg>
    }
}

fn one(v: &CoordinatorView, index: usize) -> Html {
    let n = v.records_total;
    let records: Html = v
        .records
        .iter()
        .map(|r| {
            let i = r.index;
            let newest = i + 1 == n;
            // Keyed by the record's place: a new record appends one row (and drops the
            // oldest shown) and leaves the others.
            html! {
                <tr key={i} class={class_list(&[on(newest, "row-new")])}>
                    <td class={class_list(&["mono", &format!("status-{}", r.status.to_ascii_lowercase())])}>
                        <span class="muted">{ format!("{i}. ") }</span>{ r.status.clone() }
                        if newest {
                            <span class="badge ok">{ t(Key::TagNew) }</span>
                        }
                        if !r.partitions.is_empty() {
                            <span class="small muted record-partitions">{ r.partitions.clone() }</span>
                        }
                    </td>
                    <td class="num mono">{ r.producer_epoch }</td>
                    <td class="num mono">{ if r.last_producer_epoch >= 0 { r.last_producer_epoch.to_string() } else { "—".into() } }</td>
                </tr>
            }
        })
        .collect();
    let json: Vec<String> = v.records.iter().map(|r| r.json.clone()).collect();
    let explain = match v.state {
        Empty => Key::CoordEmpty,
        Ongoing => Key::CoordOngoing,
        PrepareCommit | PrepareAbort => Key::CoordPrepare,
        CompleteCommit | CompleteAbort => Key::CoordComplete,
        PrepareEpochFence => Key::CoordFence,
        Dead => Key::CoordDead,
    };
    html! {
        <div class="stack coordinator-id">
            <h3 class="coord-title">{ tf(Key::CoordFor, &[&v.transactional_id, &v.broker.to_string(), &v.partition.to_string()]) }</h3>
            <p class="coord-state" data-testid="coordinator-state" data-state={v.state.name()}>
                { t(Key::CoordCurrent) }{ " " }<strong class="mono state-word">{ v.state.name() }</strong>
                { " " }{ tf(Key::CoordIdEpoch, &[&v.producer_id.to_string(), &v.producer_epoch.to_string()]) }
            </p>
            <p class="small">{ t(explain) }
                if let Some(ms) = v.open_for_ms {
                    { " " }{ tf(Key::CoordOpenFor, &[&ms.to_string(), &v.timeout_ms.to_string()]) }
                }
            </p>
            if let Some(late) = &v.late {
                { late_note(late) }
            }
            { diagram(v, index) }
            <p class="small muted">{ t(Key::DiagramCaption) }</p>
            <h4 class="small-heading">{ tf(Key::TxStateLogHeading, &[&v.partition.to_string()]) }</h4>
            // Above the table, where the records not shown would be.
            if n > v.records.len() {
                <p class="small muted" data-testid="txn-state-log-earlier">{ tf(Key::TxStateLogEarlier, &[&(n - v.records.len()).to_string(), &v.records.len().to_string()]) }</p>
            }
            // One region per transactional id: the label names the id (landmarks are unique).
            <div class="scroll-x" tabindex="0" role="region" aria-label={format!("{} ({})", t(Key::TxStateLogCaption), v.transactional_id)}>
                <table class="log-table state-log" data-testid="txn-state-log">
                    <caption>{ t(Key::TxStateLogCaption) }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ t(Key::TxStatusCol) }</th>
                            <th scope="col" class="num">{ t(Key::TxLogEpoch) }</th>
                            <th scope="col" class="num">{ t(Key::TxLastEpoch) }</th>
                        </tr>
                    </thead>
                    <tbody>{ records }</tbody>
                </table>
            </div>
            <details class="files">
                <summary>{ t(Key::TxStateLogJson) }</summary>
                <pre class="json small">{ json.join("\n") }</pre>
            </details>
        </div>
    }
}

/// A transaction past its `transaction.timeout.ms`: how long it was open against its
/// timeout, and what the coordinator did (or will do at its next check).
fn late_note(l: &LateTxnView) -> Html {
    let (pid, epoch, open, timeout) = (
        l.producer_id.to_string(),
        l.producer_epoch.to_string(),
        l.open_for_ms.to_string(),
        l.timeout_ms.to_string(),
    );
    let (text, done) = match l.aborted {
        Some((at, bumped)) => (
            tf(
                Key::CoordTimedOut,
                &[
                    &pid,
                    &epoch,
                    &open,
                    &timeout,
                    &at.to_string(),
                    &bumped.to_string(),
                ],
            ),
            "true",
        ),
        None => (
            tf(Key::CoordLate, &[&pid, &epoch, &open, &timeout]),
            "false",
        ),
    };
    html! {
        <p class="small coord-late" role="note" data-testid="coordinator-late" data-aborted={done}>
            <span class="badge warn">{ "transaction.timeout.ms" }</span>{ " " }{ text }
        </p>
    }
}

#[function_component(TxnCoordinator)]
pub fn txn_coordinator(p: &TxnCoordinatorProps) -> Html {
    html! {
        <section class="panel stack coordinator-panel" aria-labelledby="coordinator-heading">
            <h2 id="coordinator-heading">{ t(Key::CoordHeading) }</h2>
            if p.views.is_empty() {
                <p class="muted" data-testid="coordinator-state" data-state="">{ t(Key::CoordNone) }</p>
                <div data-testid="txn-state-log"></div>
            }
            { for p.views.iter().enumerate().map(|(i, v)| one(v, i)) }
            { super::limits_help("transactions") }
        </section>
    }
}
