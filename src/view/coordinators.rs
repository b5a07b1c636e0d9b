//! The transaction coordinators on the transactions page: each transactional id as its
//! coordinator holds it (`TransactionMetadata`: state, pending state, producer id and
//! epochs, partitions, timeout), the records written for it to `__transaction_state`,
//! and its last state change — so a learner sees the coordinator's side of 2PC.

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

use crate::broker::broker::BrokerEvent;
use crate::coordinator::transaction::log_format::{value_json, TransactionLogValue};
use crate::coordinator::transaction::{CoordinatorEvent, TransactionState};
use crate::sim::{EventKind, World};
use crate::util::ordered::CollectSorted;

/// One record of `__transaction_state` for a transactional id.
#[derive(Clone, Debug, PartialEq)]
pub struct TxnRecordView {
    pub status: String,
    pub producer_epoch: i16,
    pub last_producer_epoch: i16,
    pub partitions: String,
    pub json: String,
}

impl TxnRecordView {
    fn of(v: &TransactionLogValue) -> Self {
        TxnRecordView {
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
    /// The records written for this id, oldest first.
    pub records: Vec<TxnRecordView>,
    /// The last transition (from, to), from the events.
    pub last_transition: Option<(TransactionState, TransactionState)>,
    /// Every state this id has been in, from its records.
    pub visited: Vec<TransactionState>,
}

/// Each transaction's newest move, newest events first: the scan stops once every
/// shown transaction has one (the world keeps every event it ever had).
fn last_transitions(
    world: &World,
    ids: &SortedSet<&str>,
) -> SortedMap<String, (TransactionState, TransactionState)> {
    let mut last = SortedMap::new();
    for e in world.events.iter().rev() {
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

/// Every transactional id known to an online coordinator, by id.
pub fn coordinators(world: &World) -> Vec<CoordinatorView> {
    let txns = world.coordinated_transactions();
    let ids = txns
        .iter()
        .map(|t| t.metadata.transactional_id())
        .collect_set();
    let last = last_transitions(world, &ids);
    let mut out: Vec<CoordinatorView> = txns
        .iter()
        .map(|t| {
            let m = t.metadata;
            let records: Vec<TxnRecordView> = world
                .transaction_log_values(m.transactional_id())
                .unwrap_or_default()
                .iter()
                .map(TxnRecordView::of)
                .collect();
            let visited: Vec<TransactionState> = records
                .iter()
                .filter_map(|r| TransactionState::from_name(&r.status))
                .collect_set()
                .into_iter()
                .collect();
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
                open_for_ms: (m.state() == TransactionState::Ongoing
                    && m.txn_start_timestamp() >= 0)
                    .then(|| world.clock_ms - m.txn_start_timestamp()),
                records,
                last_transition: last.get(m.transactional_id()).copied(),
                visited,
            }
        })
        .collect();
    crate::util::ordered::sort_by(&mut out, |a, b| a.transactional_id.cmp(&b.transactional_id));
    out
}
