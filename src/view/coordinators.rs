//! The transaction coordinators on the transactions page: each transactional id as its
//! coordinator holds it (`TransactionMetadata`: state, pending state, producer id and
//! epochs, partitions, timeout), the records written for it to `__transaction_state`,
//! and its last state change — so a learner sees the coordinator's side of 2PC.

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

use crate::broker::broker::BrokerEvent;
use crate::coordinator::transaction::log_format::{value_json, TransactionLogValue};
use crate::coordinator::transaction::{CoordinatorEvent, TransactionState};
use crate::sim::{EventKind, World, START_MS};
use crate::util::ordered::CollectSorted;

/// One record of `__transaction_state` for a transactional id.
#[derive(Clone, Debug, PartialEq)]
pub struct TxnRecordView {
    /// Its place among the id's records, from 0 (the oldest).
    pub index: usize,
    pub status: String,
    pub producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub partitions: String,
    pub json: String,
}

impl TxnRecordView {
    fn of(index: usize, v: &TransactionLogValue) -> Self {
        TxnRecordView {
            index,
            status: v.state().map_or_else(
                || v.transaction_status.to_string(),
                |s| s.name().to_string(),
            ),
            producer_epoch: v.producer_epoch,
            last_producer_epoch: v.last_producer_epoch,
            partitions: v
                .transaction_partitions
                .as_ref()
                .map(|ps| {
                    ps.iter()
                        .flat_map(|p| {
                            p.partition_ids
                                .iter()
                                .map(move |i| format!("{}-{i}", p.topic))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default(),
            json: value_json(v),
        }
    }
}

/// A transactional id as its coordinator sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinatorView {
    pub transactional_id: String,
    pub broker: i32,
    /// The `__transaction_state` partition number.
    pub partition: i32,
    pub state: TransactionState,
    /// The state a write in progress will move to.
    pub pending: Option<TransactionState>,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub partitions: Vec<String>,
    pub timeout_ms: i32,
    /// How long the open transaction has been open, in ms.
    pub open_for_ms: Option<i64>,
    /// The newest records written for this id ([`STATE_LOG_SHOWN`] at most), oldest
    /// first.
    pub records: Vec<TxnRecordView>,
    /// How many records were written for it in all.
    pub records_total: usize,
    /// The last transition (from, to), from the events.
    pub last_transition: Option<(TransactionState, TransactionState)>,
    /// Every state this id has been in, from its records.
    pub visited: Vec<TransactionState>,
    /// Its transaction ran past `transaction.timeout.ms`: still open, or aborted by the
    /// coordinator (until the id begins another transaction).
    pub late: Option<LateTxnView>,
}

/// A producer's transaction that ran past its `transaction.timeout.ms`. The coordinator
/// looks for them every `transaction.abort.timed.out.transaction.cleanup.interval.ms`
/// (10 s), so a late one may wait a while; then it aborts it at a bumped epoch
/// (`abortTimedOutTransactions`, Kafka 4.0: the fence path bumps at every version), which
/// fences the producer: its next call at the old epoch is refused.
#[derive(Clone, Debug, PartialEq)]
pub struct LateTxnView {
    pub producer_id: i64,
    /// The epoch the transaction ran at.
    pub producer_epoch: i16,
    /// How long it had been open: when the coordinator found it, or until now.
    pub open_for_ms: i64,
    pub timeout_ms: i32,
    /// The coordinator's abort, once it happened: when (ms on the page's clock, from
    /// the world's start), and the epoch it fenced the producer with.
    pub aborted: Option<(i64, i16)>,
}

/// The last timeout abort of each id whose latest transaction ended in one: newest
/// events first, an id settles at its `TimedOut` event (late) or at the move into its
/// latest `Ongoing` (that transaction ended otherwise). Only ids in PrepareAbort or
/// CompleteAbort can have one, so the scan stops once those are settled.
fn timeouts(
    world: &World,
    aborting: &SortedSet<&str>,
) -> SortedMap<String, (i64, i64, i16, i64, i32)> {
    let mut found = SortedMap::new();
    let mut settled = SortedSet::new();
    for e in world.events().iter().rev() {
        if settled.len() == aborting.len() {
            break;
        }
        let EventKind::Broker {
            event: BrokerEvent::Coordinator(c),
            ..
        } = &e.kind
        else {
            continue;
        };
        match c {
            CoordinatorEvent::TimedOut {
                transactional_id,
                producer_id,
                producer_epoch,
                txn_start_timestamp,
                txn_timeout_ms,
            } if aborting.contains(transactional_id.as_str())
                && !settled.contains(transactional_id.as_str()) =>
            {
                settled.insert(transactional_id.clone());
                found.insert(
                    transactional_id.clone(),
                    (
                        e.at_ms - START_MS,
                        *producer_id,
                        *producer_epoch,
                        e.at_ms - txn_start_timestamp,
                        *txn_timeout_ms,
                    ),
                );
            }
            CoordinatorEvent::StateChanged {
                transactional_id,
                to: TransactionState::Ongoing,
                ..
            } if aborting.contains(transactional_id.as_str()) => {
                settled.insert(transactional_id.clone());
            }
            _ => {}
        }
    }
    found
}

/// Each transaction's newest move, newest events first: the scan stops once every
/// shown transaction has one (the world keeps every event it ever had).
fn last_transitions(
    world: &World,
    ids: &SortedSet<&str>,
) -> SortedMap<String, (TransactionState, TransactionState)> {
    let mut last = SortedMap::new();
    for e in world.events().iter().rev() {
        if last.len() == ids.len() {
            break;
        }
        if let EventKind::Broker {
            event:
                BrokerEvent::Coordinator(CoordinatorEvent::StateChanged {
                    transactional_id,
                    from,
                    to,
                    ..
                }),
            ..
        } = &e.kind
        {
            if ids.contains(transactional_id.as_str()) && !last.contains_key(transactional_id) {
                last.insert(transactional_id.clone(), (*from, *to));
            }
        }
    }
    last
}

/// How many of an id's newest `__transaction_state` records the panel shows: every
/// transaction adds two or three, so a learner's session would otherwise grow the
/// table, and the work of every click, without end.
pub const STATE_LOG_SHOWN: usize = 12;

/// Every transactional id known to an online coordinator, by id.
pub fn coordinators(world: &World) -> Vec<CoordinatorView> {
    let txns = world.coordinated_transactions();
    let ids = txns
        .iter()
        .map(|t| t.metadata.transactional_id())
        .collect_set();
    let last = last_transitions(world, &ids);
    let aborting = txns
        .iter()
        .map(|t| t.metadata)
        .filter(|m| {
            matches!(
                m.state(),
                TransactionState::PrepareAbort | TransactionState::CompleteAbort
            )
        })
        .map(|m| m.transactional_id())
        .collect_set();
    let timed_out = timeouts(world, &aborting);
    let mut out: Vec<CoordinatorView> = txns
        .iter()
        .map(|t| {
            let m = t.metadata;
            let values = world
                .transaction_log_values(m.transactional_id())
                .unwrap_or_default();
            let records_total = values.len();
            let records: Vec<TxnRecordView> = values
                .iter()
                .enumerate()
                .skip(records_total.saturating_sub(STATE_LOG_SHOWN))
                .map(|(i, v)| TxnRecordView::of(i, v))
                .collect();
            let visited: Vec<TransactionState> = values
                .iter()
                .filter_map(TransactionLogValue::state)
                .collect_set()
                .into_iter()
                .collect();
            let open_for_ms = (m.state() == TransactionState::Ongoing
                && m.txn_start_timestamp() >= 0)
                .then(|| world.clock_ms() - m.txn_start_timestamp());
            let late = match (open_for_ms, timed_out.get(m.transactional_id())) {
                (Some(open), _) if open > i64::from(m.txn_timeout_ms()) => Some(LateTxnView {
                    producer_id: m.producer_id(),
                    producer_epoch: m.producer_epoch(),
                    open_for_ms: open,
                    timeout_ms: m.txn_timeout_ms(),
                    aborted: None,
                }),
                (None, Some(&(at, producer_id, producer_epoch, open, timeout_ms))) => {
                    Some(LateTxnView {
                        producer_id,
                        producer_epoch,
                        open_for_ms: open,
                        timeout_ms,
                        aborted: Some((at, m.producer_epoch())),
                    })
                }
                _ => None,
            };
            CoordinatorView {
                transactional_id: m.transactional_id().to_string(),
                broker: t.coordinator,
                partition: t.partition,
                state: m.state(),
                pending: m.pending_state(),
                producer_id: m.producer_id(),
                producer_epoch: m.producer_epoch(),
                last_producer_epoch: m.last_producer_epoch(),
                partitions: m
                    .topic_partitions()
                    .iter()
                    .map(|tp| tp.to_string())
                    .collect(),
                timeout_ms: m.txn_timeout_ms(),
                open_for_ms,
                records,
                records_total,
                last_transition: last.get(m.transactional_id()).copied(),
                visited,
                late,
            }
        })
        .collect();
    crate::util::ordered::sort_by(&mut out, |a, b| a.transactional_id.cmp(&b.transactional_id));
    out
}
