//! The request timeline on the transactions page: a sequence diagram of the newest
//! network messages between the transactional producers, the brokers (each labelled
//! with its roles: partition leader, coordinator of an id), the controller and the
//! consumers — with the mark of each fault where it struck (dropped, delayed, duplicated,
//! held, cut, error-injected).

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

use super::coordinators::CoordinatorView;
use super::partition::PartitionView;
use crate::protocol::errors::Errors;
use crate::sim::network::MessageStrike;
use crate::sim::{Action, EventKind, Fault, FaultMark, Node, World, START_MS};
use crate::util::ordered::CollectSorted;

/// How many network messages the timeline shows (the newest).
pub const TIMELINE_MESSAGES: usize = 40;

/// How many rows the timeline draws while the reader is at its newest end (where every
/// click lands; all of them once the reader scrolls up): its box (34rem) shows ≈ 15
/// rows under the heads, and each drawn row is laid out, pre-painted and painted again
/// when a click appends messages, since the rows move up together in the
/// bottom-anchored box (`ui::newest_end`; docs/performance.md).
pub const TIMELINE_NEWEST: usize = 24;

/// A lifeline of the sequence diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Lifeline {
    pub label: String,
    /// What this node is here: "leader of payments-0", "coordinator of tx-1", …
    pub roles: Vec<String>,
}

/// One message of the sequence diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineMessage {
    pub seq: u64,
    /// The network's id of the message (`#N` in the narration, `id=N` in fault steps).
    pub id: u64,
    pub at_ms: i64,
    pub from: usize,
    pub to: usize,
    pub api: String,
    pub response: bool,
    pub error: Option<String>,
    /// Lost: dropped by a fault or on a cut link.
    pub dropped: bool,
    /// Held in the network right now (hold markers, or any `fault hold`).
    pub held: bool,
    /// On its way right now (sent, not yet delivered, not held): a click can still drop,
    /// delay, duplicate or hold it.
    pub on_wire: bool,
    /// What a fault did to this message where it struck: dropped, delayed, duplicated
    /// (the copy's id), held, lost on a cut link, or answered with an injected error.
    pub mark: Option<FaultMark>,
    /// This message is the second copy of a duplicated one (that message's id).
    pub copy_of: Option<u64>,
    /// A follower's Fetch to its leader, or the answer (a Fetch between two brokers):
    /// replication's steady traffic, folded by default ([`TimelineOptions`]).
    pub follower_fetch: bool,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct TimelineView {
    pub lifelines: Vec<Lifeline>,
    /// Oldest first.
    pub messages: Vec<TimelineMessage>,
    /// Messages sent in all.
    pub total: usize,
    /// Whether [`TimelineView::rows`] folds runs of follower fetches.
    pub folded: bool,
}

/// How the timeline is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TimelineOptions {
    /// Fold each run of plain follower fetches into one row, and count that row, not
    /// its messages, against the limit (so other messages stay on screen with RF 3).
    pub fold_follower_fetches: bool,
}

/// With folding, how many messages the timeline looks back through at most.
pub const FOLDED_MESSAGES_MAX: usize = 400;

/// Where a node's lifeline goes: producers, brokers by id, the controller, then the
/// other clients.
fn node_rank(world: &World, n: &Node) -> (u8, i32, String) {
    match n {
        Node::Client(c) if world.producers().contains_key(c) => (0, 0, c.clone()),
        Node::Broker(b) => (1, *b, String::new()),
        Node::Controller(_) => (2, 0, String::new()),
        Node::Client(c) => (3, 0, c.clone()),
    }
}

/// The last `max` messages between clients, brokers and the controller.
pub fn timeline(
    world: &World,
    part: Option<&PartitionView>,
    coords: &[CoordinatorView],
    max: usize,
) -> TimelineView {
    timeline_with(world, part, coords, max, TimelineOptions::default())
}

/// A Fetch between two brokers: a follower's fetch or its leader's answer.
fn is_follower_fetch(from: &Node, to: &Node, api: &str) -> bool {
    matches!((from, to), (Node::Broker(_), Node::Broker(_))) && api == "Fetch"
}

/// The timeline with `options`: folded, the last `max` rows (a run of plain follower
/// fetches is one row), from at most [`FOLDED_MESSAGES_MAX`] messages.
pub fn timeline_with(
    world: &World,
    part: Option<&PartitionView>,
    coords: &[CoordinatorView],
    max: usize,
    options: TimelineOptions,
) -> TimelineView {
    let fold = options.fold_follower_fetches;
    let held = world.network().held_ids().collect_set();
    let mut marks: SortedMap<u64, FaultMark> = SortedMap::new();
    let mut copies: SortedMap<u64, u64> = SortedMap::new();
    let mut sent = Vec::new();
    // Rows counted so far, and whether the newest counted one is a run of fetches.
    let (mut rows, mut in_run) = (0usize, false);
    let limit = if fold { FOLDED_MESSAGES_MAX } else { max };
    for e in world.events().iter().rev() {
        match &e.kind {
            EventKind::MessageDropped { id, .. } | EventKind::LostOnBrokenConnection { id, .. } => {
                marks.insert(*id, FaultMark::Dropped);
            }
            EventKind::FaultStruck { id, mark, .. } => {
                if let FaultMark::Duplicated { copy } = mark {
                    copies.insert(*copy, *id);
                }
                marks.insert(*id, mark.clone());
            }
            EventKind::MessageSent {
                id,
                from,
                to,
                api,
                error,
                ..
            } => {
                let plain = fold
                    && is_follower_fetch(from, to, api)
                    && !marks.contains_key(id)
                    && !copies.contains_key(id)
                    && !held.contains(id)
                    && error.is_none_or(|e| e == Errors::None);
                if !(plain && in_run) {
                    if rows == max {
                        break;
                    }
                    rows += 1;
                }
                in_run = plain;
                sent.push(e);
            }
            _ => {}
        }
        if sent.len() >= limit {
            break;
        }
    }
    // Counted by the network: a scan of every event would cost a millisecond a render
    // once a partition holds 10,000 batches.
    let total = usize::try_from(world.network().messages_sent()).unwrap_or(usize::MAX);
    sent.reverse();
    let on_wire = world.network().in_flight().map(|e| e.id).collect_set();
    let mut nodes: SortedSet<(u8, i32, String)> = SortedSet::new();
    for (name, _, _) in world.transactional_producers() {
        nodes.insert((0, 0, name.to_string()));
    }
    if let Some(p) = part {
        nodes.insert((1, p.leader, String::new()));
    }
    for c in coords {
        nodes.insert((1, c.broker, String::new()));
    }
    for e in &sent {
        if let EventKind::MessageSent { from, to, .. } = &e.kind {
            nodes.insert(node_rank(world, from));
            nodes.insert(node_rank(world, to));
        }
    }
    let nodes: Vec<(u8, i32, String)> = nodes.into_iter().collect();
    let index = |n: &Node| nodes.iter().position(|k| *k == node_rank(world, n));
    let lifelines = nodes
        .iter()
        .map(|(rank, b, name)| match rank {
            1 => {
                let mut roles = Vec::new();
                if part.is_some_and(|p| p.leader == *b) {
                    roles.push(format!(
                        "leader {}",
                        part.map(|p| p.tp.to_string()).unwrap_or_default()
                    ));
                }
                for c in coords.iter().filter(|c| c.broker == *b) {
                    roles.push(format!("coordinator {}", c.transactional_id));
                }
                Lifeline {
                    label: format!("broker {b}"),
                    roles,
                }
            }
            2 => Lifeline {
                label: "controller".into(),
                roles: vec![],
            },
            _ => Lifeline {
                label: name.clone(),
                roles: vec![],
            },
        })
        .collect();
    let messages = sent
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::MessageSent {
                id,
                from,
                to,
                api,
                response,
                error,
            } => Some(TimelineMessage {
                seq: e.seq,
                id: *id,
                at_ms: e.at_ms - START_MS,
                from: index(from)?,
                to: index(to)?,
                api: api.clone(),
                response: *response,
                error: error
                    .filter(|e| *e != Errors::None)
                    .map(|e| e.name().to_string()),
                dropped: matches!(marks.get(id), Some(FaultMark::Dropped | FaultMark::Cut)),
                held: held.contains(id),
                on_wire: on_wire.contains(id),
                mark: marks
                    .get(id)
                    .cloned()
                    .or_else(|| held.contains(id).then_some(FaultMark::Held)),
                copy_of: copies.get(id).copied(),
                follower_fetch: is_follower_fetch(from, to, api),
            }),
            _ => None,
        })
        .collect();
    TimelineView {
        lifelines,
        messages,
        total,
        folded: fold,
    }
}

/// One row of the drawn timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimelineRow {
    /// `messages[i]`.
    Message(usize),
    /// A run of plain follower fetches, shown as one row ("N follower fetches") that a
    /// click opens; when open, the run's messages follow it as rows of their own.
    Fold(FetchFold),
}

/// A run of follower fetches folded into one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchFold {
    /// The id of the run's first message: what keeps it open across renders.
    pub key: u64,
    /// `messages[first..first + len]`.
    pub first: usize,
    pub len: usize,
    pub from_ms: i64,
    pub to_ms: i64,
    /// The leftmost and rightmost lifelines the run touches.
    pub lanes: (usize, usize),
    pub expanded: bool,
}

impl TimelineMessage {
    /// A follower fetch no fault touched and no error marks: what folding hides.
    pub fn plain_follower_fetch(&self) -> bool {
        self.follower_fetch
            && self.mark.is_none()
            && self.copy_of.is_none()
            && !self.held
            && self.error.is_none()
    }
}

impl TimelineRow {
    /// The index of the row's first message.
    pub fn first(&self) -> usize {
        match self {
            TimelineRow::Message(i) => *i,
            TimelineRow::Fold(f) => f.first,
        }
    }
}

impl TimelineView {
    /// [`TimelineView::rows`] from the first message of the newest `keep` rows counted
    /// folded: an open fold counts as one row with the messages it shows, so a fold
    /// opened near the newest end is drawn with them.
    pub fn newest_rows(&self, expanded: impl Fn(u64) -> bool, keep: usize) -> Vec<TimelineRow> {
        let folded = self.rows(|_| false);
        let from = folded
            .len()
            .checked_sub(keep)
            .and_then(|i| folded.get(i))
            .map_or(0, TimelineRow::first);
        let mut rows = self.rows(expanded);
        rows.retain(|r| r.first() >= from);
        rows
    }

    /// The rows to draw. Unfolded, one per message. Folded, each run of two or more
    /// plain follower fetches is one [`TimelineRow::Fold`] row, followed by its messages
    /// when `expanded(key)` says it is open.
    pub fn rows(&self, expanded: impl Fn(u64) -> bool) -> Vec<TimelineRow> {
        let mut rows = Vec::new();
        let mut i = 0;
        while i < self.messages.len() {
            let run = if self.folded {
                self.messages[i..]
                    .iter()
                    .take_while(|m| m.plain_follower_fetch())
                    .count()
            } else {
                0
            };
            if run < 2 {
                rows.push(TimelineRow::Message(i));
                i += 1;
                continue;
            }
            let ms = &self.messages[i..i + run];
            let key = ms[0].id;
            let open = expanded(key);
            rows.push(TimelineRow::Fold(FetchFold {
                key,
                first: i,
                len: run,
                from_ms: ms[0].at_ms,
                to_ms: ms[run - 1].at_ms,
                lanes: (
                    ms.iter().map(|m| m.from.min(m.to)).min().unwrap_or(0),
                    ms.iter().map(|m| m.from.max(m.to)).max().unwrap_or(0),
                ),
                expanded: open,
            }));
            if open {
                rows.extend((i..i + run).map(TimelineRow::Message));
            }
            i += run;
        }
        rows
    }
}

/// What a click on a message in flight offers (the timeline's menu).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageChoice {
    Drop,
    /// Deliver it later, by the delay the menu's field holds.
    Delay,
    Duplicate,
    Hold,
    /// Let a held message go (after those sent since: a reorder).
    Release,
}

impl TimelineMessage {
    /// Whether a click can still strike it: on its way or held.
    pub fn strikeable(&self) -> bool {
        self.on_wire || self.held
    }

    /// The menu of this message: on the wire, drop, delay, duplicate or hold; held,
    /// drop or release (the network can only drop a held message); else nothing.
    pub fn choices(&self) -> &'static [MessageChoice] {
        use MessageChoice::*;
        if self.held {
            &[Drop, Release]
        } else if self.on_wire {
            &[Drop, Delay, Duplicate, Hold]
        } else {
            &[]
        }
    }
}

/// The action a menu choice applies to message `id` (`delay_ms` for [`MessageChoice::
/// Delay`]): a strike by id (`fault drop|delay|duplicate|hold id=N`) or a release
/// (`fault release id=N`), recorded, replayed and shared like any action.
pub fn choice_action(id: u64, choice: MessageChoice, delay_ms: i64) -> Action {
    let strike = match choice {
        MessageChoice::Drop => MessageStrike::Drop,
        MessageChoice::Delay => MessageStrike::Delay {
            ms: delay_ms.max(0),
        },
        MessageChoice::Duplicate => MessageStrike::Duplicate,
        MessageChoice::Hold => MessageStrike::Hold,
        MessageChoice::Release => return Action::ReleaseMessage { id },
    };
    Action::ArmFault {
        fault: Fault::Message { id, strike },
    }
}
