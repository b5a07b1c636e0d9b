//! `kafka-transactions.sh describe-producers` and `find-hanging` for the shown
//! partition, as data for the transactions page, with the `abort` action of each open
//! transaction (Kafka 4.0's `TransactionsCommand`, apache/kafka `1eb7644`; the verdicts
//! come from `admin::transactions`).

use crate::admin::MAX_TRANSACTION_TIMEOUT_MS;
use crate::log::TopicPartition;
use crate::sim::{Action, World, START_MS};
use crate::util::ordered::sort_by;

/// One row of describe-producers: a producer the leader's producer state knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducerRow {
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub coordinator_epoch: i32,
    pub last_sequence: i32,
    /// Of its last batch, on the page's clock (ms since the world started).
    pub last_timestamp_ms: i64,
    /// `CurrentTransactionStartOffset`: where its open transaction starts.
    pub current_txn_start: Option<i64>,
}

/// An open transaction in the partition, and whether find-hanging reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenTxnRow {
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub coordinator_epoch: i32,
    pub start_offset: i64,
    /// Since its last batch.
    pub open_ms: i64,
    /// Open past `--max-transaction-timeout` and no coordinator's transaction for
    /// its producer includes the partition.
    pub hanging: bool,
    /// `kafka-transactions.sh abort --start-offset N` (`admin abort`).
    pub abort: Action,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdminView {
    pub tp: TopicPartition,
    pub producers: Vec<ProducerRow>,
    /// Oldest first.
    pub open: Vec<OpenTxnRow>,
    /// find-hanging's `--max-transaction-timeout` (15 minutes).
    pub max_transaction_timeout_ms: i64,
}

impl AdminView {
    pub fn hanging(&self) -> impl Iterator<Item = &OpenTxnRow> {
        self.open.iter().filter(|o| o.hanging)
    }
}

/// The admin views of `tp`, or `None` when it has no leader to ask.
pub fn admin_view(world: &World, tp: &TopicPartition) -> Option<AdminView> {
    let log = world
        .leader_of(tp)
        .and_then(|b| world.brokers().get(&b))
        .and_then(|b| b.logs().get(tp))?;
    let producers = log
        .producer_state()
        .active_producers()
        .values()
        .map(|e| ProducerRow {
            producer_id: e.producer_id(),
            producer_epoch: e.producer_epoch(),
            coordinator_epoch: e.coordinator_epoch(),
            last_sequence: e.last_seq(),
            last_timestamp_ms: e.last_timestamp() - START_MS,
            current_txn_start: e.current_txn_first_offset(),
        })
        .collect();
    let hanging = world.hanging_transactions(std::slice::from_ref(tp));
    let mut open: Vec<OpenTxnRow> = world
        .open_transactions(tp)
        .into_iter()
        .map(|t| OpenTxnRow {
            producer_id: t.producer_id,
            producer_epoch: t.producer_epoch,
            coordinator_epoch: t.coordinator_epoch,
            start_offset: t.start_offset,
            open_ms: world.clock_ms() - t.last_timestamp,
            hanging: hanging.contains(&t),
            abort: Action::AdminAbortTransaction {
                topic_partition: tp.clone(),
                start_offset: t.start_offset,
            },
        })
        .collect();
    sort_by(&mut open, |a, b| a.start_offset.cmp(&b.start_offset));
    Some(AdminView {
        tp: tp.clone(),
        producers,
        open,
        max_transaction_timeout_ms: MAX_TRANSACTION_TIMEOUT_MS,
    })
}
