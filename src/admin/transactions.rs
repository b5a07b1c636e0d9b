//! `kafka-transactions.sh describe-producers`, `find-hanging` and `abort`, as Kafka
//! 4.0's `TransactionsCommand` does them (apache/kafka commit `1eb7644`).
//!
//! A hanging transaction is one a partition holds open (its producer has a
//! `currentTxnFirstOffset`) that no coordinator will ever end: no transactional id
//! has that producer id, or the id's transaction does not include the partition.
//! Before transaction.version 2, with `transaction.partition.verification.enable`
//! off, a late Produce can open one after the ABORT marker; it holds the LSO back
//! for good, until an operator writes the marker by hand (`abort`).

use crate::log::{TopicPartition, UnifiedLog};
use crate::protocol::errors::Errors;
use crate::protocol::{MarkerResult, Request, Response, TxnMarkerEntry};
use crate::sim::txn_views::table;
use crate::sim::{SimError, SimErrorKind, World};

/// `find-hanging`'s `--max-transaction-timeout` default: 15 minutes.
pub const MAX_TRANSACTION_TIMEOUT_MS: i64 = 15 * 60 * 1000;

/// One open transaction in a partition (`DescribeProducers`' `ProducerState` with
/// a `currentTransactionStartOffset`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenTransaction {
    pub tp: TopicPartition,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub coordinator_epoch: i32,
    pub start_offset: i64,
    pub last_timestamp: i64,
}

impl World {
    /// The partition's log on its leader (what DescribeProducers reads).
    fn leader_log(&self, tp: &TopicPartition) -> Option<&UnifiedLog> {
        self.leader_of(tp)
            .and_then(|b| self.brokers().get(&b))
            .and_then(|b| b.logs().get(tp))
    }

    /// The open transactions of a partition, as its leader's producer state has them.
    pub fn open_transactions(&self, tp: &TopicPartition) -> Vec<OpenTransaction> {
        let Some(log) = self.leader_log(tp) else {
            return Vec::new();
        };
        log.producer_state()
            .active_producers()
            .values()
            .filter_map(|e| {
                Some(OpenTransaction {
                    tp: tp.clone(),
                    producer_id: e.producer_id(),
                    producer_epoch: e.producer_epoch(),
                    coordinator_epoch: e.coordinator_epoch(),
                    start_offset: e.current_txn_first_offset()?,
                    last_timestamp: e.last_timestamp(),
                })
            })
            .collect()
    }

    /// `kafka-transactions.sh describe-producers --topic T --partition P`.
    pub fn describe_producers(&self, tp: &TopicPartition) -> Vec<String> {
        let Some(log) = self.leader_log(tp) else {
            return vec![format!(
                "Failed to describe producers for partition {tp} on leader: {}",
                Errors::UnknownTopicOrPartition.message()
            )];
        };
        let rows: Vec<Vec<String>> = log
            .producer_state()
            .active_producers()
            .values()
            .map(|e| {
                vec![
                    e.producer_id().to_string(),
                    e.producer_epoch().to_string(),
                    e.coordinator_epoch().to_string(),
                    e.last_seq().to_string(),
                    e.last_timestamp().to_string(),
                    e.current_txn_first_offset()
                        .map_or("None".to_string(), |o| o.to_string()),
                ]
            })
            .collect();
        table(
            &[
                "ProducerId",
                "ProducerEpoch",
                "LatestCoordinatorEpoch",
                "LastSequence",
                "LastTimestamp",
                "CurrentTransactionStartOffset",
            ],
            &rows,
        )
    }

    /// `find-hanging`'s verdict: open longer than the max transaction timeout, and
    /// no coordinator's transaction for that producer id includes the partition.
    pub fn hanging_transactions(&self, tps: &[TopicPartition]) -> Vec<OpenTransaction> {
        let coordinated = self.coordinated_transactions();
        tps.iter()
            .flat_map(|tp| self.open_transactions(tp))
            .filter(|t| self.clock_ms() - t.last_timestamp > MAX_TRANSACTION_TIMEOUT_MS)
            .filter(|t| {
                !coordinated.iter().any(|c| {
                    c.metadata.producer_id() == t.producer_id
                        && c.metadata.topic_partitions().contains(&t.tp)
                })
            })
            .collect()
    }

    /// `kafka-transactions.sh find-hanging --topic T [--partition P]`.
    pub fn find_hanging(&self, topic: &str, partition: Option<i32>) -> Vec<String> {
        let count = self.topics().get(topic).map_or(0, |t| t.partitions);
        let tps: Vec<TopicPartition> = (0..count)
            .filter(|p| partition.is_none_or(|want| want == *p))
            .map(|p| TopicPartition::new(topic, p))
            .collect();
        let rows: Vec<Vec<String>> = self
            .hanging_transactions(&tps)
            .into_iter()
            .map(|t| {
                vec![
                    t.tp.topic.clone(),
                    t.tp.partition.to_string(),
                    t.producer_id.to_string(),
                    t.producer_epoch.to_string(),
                    t.coordinator_epoch.to_string(),
                    t.start_offset.to_string(),
                    t.last_timestamp.to_string(),
                    ((self.clock_ms() - t.last_timestamp) / 60_000).to_string(),
                ]
            })
            .collect();
        table(
            &[
                "Topic",
                "Partition",
                "ProducerId",
                "ProducerEpoch",
                "CoordinatorEpoch",
                "StartOffset",
                "LastTimestamp",
                "Duration(min)",
            ],
            &rows,
        )
    }

    /// `kafka-transactions.sh abort --topic T --partition P --start-offset N`: finds
    /// the producer whose open transaction starts there (`buildAbortSpec`) and has
    /// the admin client send the leader an ABORT marker with that producer's id,
    /// epoch and coordinator epoch (`Admin.abortTransaction`: WriteTxnMarkers).
    pub fn admin_abort_transaction(
        &mut self,
        tp: &TopicPartition,
        start_offset: i64,
    ) -> Result<Vec<String>, SimError> {
        let leader = self
            .leader_of(tp)
            .ok_or_else(|| SimError::from(SimErrorKind::UnknownPartition { tp: tp.clone() }))?;
        let open = self
            .open_transactions(tp)
            .into_iter()
            .find(|t| t.start_offset == start_offset)
            .ok_or_else(|| {
                SimError::from(SimErrorKind::NoOpenTransactionAt {
                    tp: tp.clone(),
                    start_offset,
                })
            })?;
        let request = Request::WriteTxnMarkers {
            markers: vec![TxnMarkerEntry {
                producer_id: open.producer_id,
                producer_epoch: open.producer_epoch,
                result: MarkerResult::Abort,
                coordinator_epoch: open.coordinator_epoch.max(0),
                partitions: vec![tp.clone()],
                // The tool writes the marker at the open transaction's own epoch, so it
                // asks for the rule before TV2 (not older), which accepts it.
                transaction_version: 0,
            }],
        };
        let error = match self.raw_request(leader, request) {
            Some(Response::WriteTxnMarkers { results }) => results
                .iter()
                .map(|(_, _, e)| *e)
                .find(|e| *e != Errors::None)
                .unwrap_or(Errors::None),
            Some(other) => other.error(),
            None => Errors::RequestTimedOut,
        };
        // The tool prints nothing when the marker is written.
        Ok(if error == Errors::None {
            vec![]
        } else {
            vec![format!(
                "Failed to abort transaction AbortTransactionSpec(topicPartition={tp}, producerId={}, producerEpoch={}, coordinatorEpoch={}): {}",
                open.producer_id,
                open.producer_epoch,
                open.coordinator_epoch.max(0),
                error.name()
            )]
        })
    }
}
