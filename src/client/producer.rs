//! The idempotent producer as a sans-IO state machine: Kafka's `KafkaProducer` with its
//! `RecordAccumulator` and `Sender`; its transactional part is in
//! [`super::transaction_manager`].
//!
//! Records accumulate into one open batch per partition. A batch gets its producer id,
//! epoch and base sequence once, when it is drained; a retry resends the very same
//! numbers, which is what lets the broker recognise it. At most
//! `max.in.flight.requests.per.connection` requests wait for an answer at once.
//!
//! An idempotent producer told OUT_OF_ORDER_SEQUENCE_NUMBER bumps its own epoch and
//! starts its sequences over (KIP-360, Kafka 4.0 `TransactionManager
//! .bumpIdempotentEpochAndResetIdIfNeeded`), in [`Producer::bump_idempotent_epoch_if_needed`].
//! A transactional producer cannot: its error is abortable, and the abort bumps the
//! epoch (`super::transaction_manager::epoch_bump`).
//!
//! `delivery.timeout.ms` (KIP-91) bounds how long a send may take: a batch that old
//! fails with a `TimeoutException`, queued or in flight; a batch already sent at least
//! twice leaves its partition's sequence unresolved, and no new batch goes there until
//! later answers show whether it was written, or the epoch is bumped
//! ([`Producer::resolve_sequences`], Kafka 4.0 `TransactionManager.maybeResolveSequences`).
//!
//! Simplified: one connection per broker, `linger.ms` is "until the world runs".

use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;
use std::collections::VecDeque;

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{ErrorDetail, Request, Response};
use crate::record::RecordBatch;

use super::transaction_manager::{
    EpochBump, Target, TransactionManager, TxnOutcome, TxnRequestKind,
};
use crate::protocol::config_error::{ConfigError, ConfigScope};

mod config;
mod delivery;
mod event;
mod sender;
mod sequences;
mod split;

pub use config::ProducerConfig;
pub use event::ProducerEvent;

/// One batch as the producer tracks it (Kafka's `ProducerBatch`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerBatch {
    /// Local id, for the UI and events.
    pub id: u64,
    pub tp: TopicPartition,
    pub values: Vec<String>,
    pub created_ms: i64,
    /// Set at the first drain (producer id, epoch, base sequence); changed only when an
    /// epoch bump renumbers the partition's unacknowledged batches
    /// (`ProducerBatch.resetProducerState`).
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: Option<i32>,
    pub attempts: u32,
    /// Not sent again before this time (retry backoff), unless the leader changed.
    pub retry_at_ms: i64,
    /// The leader epoch of the partition the producer last saw for this batch
    /// (`ProducerBatch.currentLeaderEpoch`).
    pub current_leader_epoch: Option<i32>,
    /// `attempts` when a newer leader epoch was seen (`attemptsWhenLeaderLastChanged`):
    /// equal to `attempts` on a retry, the leader changed since the failure (KIP-951).
    pub attempts_when_leader_last_changed: u32,
    /// Part of a transaction (the batch header's isTransactional bit).
    pub transactional: bool,
    /// The v2 bytes the batch will take, kept as records join (Kafka's
    /// `MemoryRecordsBuilder.estimatedBytesWritten`, exact without compression).
    pub size_in_bytes: usize,
    /// `sequenceHasBeenReset` (`reopened`): an epoch bump gave this batch new numbers
    /// while a request with its old ones was out, so the OUT_OF_ORDER answer to that
    /// request asks for no further bump. Cleared when the batch is sent again.
    pub sequence_reset: bool,
    /// `isSplitBatch`: made by splitting a batch the broker found too large
    /// ([`Producer::split_and_reenqueue`]); split again, it is halved.
    pub is_split_batch: bool,
}

impl ProducerBatch {
    /// `hasLeaderChangedForTheOngoingRetry`: a retry, and the leader changed since
    /// the attempt that failed.
    pub fn has_leader_changed_for_the_ongoing_retry(&self) -> bool {
        self.attempts >= 1 && self.attempts == self.attempts_when_leader_last_changed
    }

    /// `RecordAccumulator.shouldBackoff`: a retry waits out its backoff unless the
    /// partition's leader changed since it failed (KIP-951, Kafka 3.7+).
    pub fn should_backoff(&self, now_ms: i64) -> bool {
        self.attempts > 0
            && now_ms < self.retry_at_ms
            && !self.has_leader_changed_for_the_ongoing_retry()
    }

    /// The bytes the next record would add (`DefaultRecord.sizeInBytes`: its key if
    /// written `KEY:VALUE`, no headers, the batch's timestamp).
    fn next_record_size(&self, value: &str) -> usize {
        let (key, value) = crate::record::key_value(value);
        crate::record::Record {
            attributes: 0,
            timestamp_delta: 0,
            offset_delta: i32::try_from(self.values.len()).unwrap_or(i32::MAX),
            key: key.map(crate::record::Bytes::from),
            value: value.map(crate::record::Bytes::from),
            headers: Vec::new(),
        }
        .size_in_bytes()
    }

    pub fn last_sequence(&self) -> Option<i32> {
        self.base_sequence.map(|s| {
            crate::log::producer_state::increment_sequence(s, self.values.len() as i32 - 1)
        })
    }

    /// The v2 bytes that go on the wire.
    pub fn encode(&self) -> Vec<u8> {
        let kvs = self
            .values
            .iter()
            .map(|v| crate::record::key_value(v))
            .collect();
        RecordBatch::new_data(
            0,
            self.producer_id,
            self.producer_epoch,
            self.base_sequence.unwrap_or(crate::record::NO_SEQUENCE),
            self.transactional,
            self.created_ms,
            kvs,
        )
        .encode()
    }
}

/// A request waiting for its response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InFlight {
    pub correlation_id: u64,
    pub broker: i32,
    pub deadline_ms: i64,
    pub what: InFlightKind,
}

impl InFlight {
    /// Its batch already failed at the delivery timeout: nothing waits for it.
    pub fn is_expired(&self) -> bool {
        matches!(self.what, InFlightKind::Expired { .. })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum InFlightKind {
    InitProducerId,
    Produce(ProducerBatch),
    Txn(TxnRequestKind),
    /// A Produce whose batch reached `delivery.timeout.ms` while in flight: the
    /// application was told it failed, but the request still holds its place on the
    /// connection, and a late success still counts as acknowledged for the partition's
    /// sequence (`handleCompletedBatch` runs before the batch is found done).
    Expired {
        batch: u64,
        tp: TopicPartition,
        last_sequence: Option<i32>,
    },
}

/// Where the producer is in getting its producer id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum IdState {
    /// Not idempotent: batches carry producer id -1.
    Disabled,
    /// Transactional: the id comes from `initTransactions()`.
    AwaitingInitTransactions,
    /// Needs an id; may ask after `retry_at_ms`.
    Uninitialized {
        retry_at_ms: i64,
    },
    Initializing,
    Ready,
}

/// A request the producer wants sent now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub correlation_id: u64,
    pub broker: i32,
    pub request: Request,
}

/// A producer client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Producer {
    pub config: ProducerConfig,
    /// The id and epoch InitProducerId gave (-1: none yet); only the id handling of
    /// this client (`producer/`) moves them, together with `id_state`.
    pub(super) producer_id: i64,
    pub(super) producer_epoch: i16,
    id_state: IdState,
    /// Closed and open batches waiting to be sent, per partition, in order.
    pub(super) accumulator: SortedMap<TopicPartition, VecDeque<ProducerBatch>>,
    /// The open batch per partition still takes records until the next drain.
    open: SortedMap<TopicPartition, bool>,
    /// Next sequence per partition (`TransactionManager.sequenceNumber`).
    next_sequence: SortedMap<TopicPartition, i32>,
    /// The producer id and epoch each partition's sequences count under
    /// (`TxnPartitionEntry.producerIdAndEpoch`): after an epoch bump a partition not
    /// named by it keeps its old ones until its numbered batches are resolved.
    sequence_ids: SortedMap<TopicPartition, (i64, i16)>,
    /// Partitions whose OUT_OF_ORDER_SEQUENCE_NUMBER asks for an epoch bump
    /// (`partitionsToRewriteSequences`; not empty = `epochBumpRequired`).
    pub(super) epoch_bump_partitions: SortedSet<TopicPartition>,
    /// The error that asked for the pending epoch bump, whether an unresolved
    /// sequence did, and whether the batch that asked is retried.
    epoch_bump_error: Errors,
    epoch_bump_unresolved: bool,
    epoch_bump_retried: bool,
    /// `partitionsWithUnresolvedSequences`: the sequence after the last expired batch,
    /// per partition whose expired batches may or may not have been written.
    unresolved_sequences: SortedMap<TopicPartition, i32>,
    /// `lastAckedSequence` per partition, under the current producer id and epoch.
    last_acked_sequence: SortedMap<TopicPartition, i32>,
    /// `lastAckedOffset` per partition: the last offset an acknowledgement gave, which
    /// UNKNOWN_PRODUCER_ID compares with the log start offset.
    last_acked_offset: SortedMap<TopicPartition, i64>,
    pub in_flight: Vec<InFlight>,
    acknowledged: Vec<(u64, TopicPartition, i64, Vec<String>)>,
    pub failed: Vec<(u64, TopicPartition, Errors)>,
    /// The transactional part, when `transactional.id` is set.
    pub txn: Option<TransactionManager>,
    /// How the last transactional call ended (for the application's view).
    last_txn_outcome: Option<TxnOutcome>,
    /// How long (logical ms) the last blocking call took, e.g. `initTransactions()`.
    last_call_ms: i64,
    next_batch_id: u64,
    /// The batches' retry waits (`RecordAccumulator.retryBackoff`).
    retry_backoff: super::backoff::ExponentialBackoff,
    /// Where the retry jitter comes from: seeded, so a world replays exactly.
    retry_rng: crate::util::rng::Rng,
}

impl Producer {
    /// The producer id (`ProducerIdAndEpoch.producerId`; -1 before InitProducerId).
    pub fn producer_id(&self) -> i64 {
        self.producer_id
    }

    /// The producer epoch (`ProducerIdAndEpoch.epoch`; -1 before InitProducerId).
    pub fn producer_epoch(&self) -> i16 {
        self.producer_epoch
    }

    /// Where the producer is in getting its producer id.
    pub fn id_state(&self) -> IdState {
        self.id_state
    }

    /// The sequence the next batch drained for `tp` gets (0 before the first).
    pub fn next_sequence(&self, tp: &TopicPartition) -> i32 {
        self.next_sequence.get(tp).copied().unwrap_or(0)
    }

    /// Every acknowledged send, oldest first: (batch id, partition, base offset, values).
    pub fn acknowledged(&self) -> &[(u64, TopicPartition, i64, Vec<String>)] {
        &self.acknowledged
    }

    /// How the last transactional call ended; None while one is under way.
    pub fn last_txn_outcome(&self) -> Option<&TxnOutcome> {
        self.last_txn_outcome.as_ref()
    }

    /// A transactional call begins (None: no outcome yet, so a call the run's bound
    /// leaves pending never shows the previous one's) or ends with `outcome`.
    pub fn set_last_txn_outcome(&mut self, outcome: Option<TxnOutcome>) {
        self.last_txn_outcome = outcome;
    }

    /// How long (logical ms) the last blocking call took, e.g. `initTransactions()`.
    pub fn last_call_ms(&self) -> i64 {
        self.last_call_ms
    }

    /// The world measured the blocking call that just returned.
    pub fn set_last_call_ms(&mut self, took: i64) {
        self.last_call_ms = took;
    }

    /// Batches in the accumulator or in flight.
    pub fn pending_batches(&self) -> usize {
        self.accumulator.values().map(|q| q.len()).sum::<usize>()
            + self.in_flight.iter().filter(|f| !f.is_expired()).count()
    }

    pub fn new(config: ProducerConfig) -> Self {
        let retry_backoff = super::backoff::ExponentialBackoff::new(
            config.retry_backoff_ms,
            config.retry_backoff_max_ms,
        );
        let retry_rng = crate::util::rng::Rng::new(jitter_seed(0, &config.client_id));
        let txn = config
            .transactional_id
            .clone()
            .map(|id| TransactionManager::new(id, config.transaction_timeout_ms));
        let id_state = if txn.is_some() {
            IdState::AwaitingInitTransactions
        } else if config.enable_idempotence {
            IdState::Uninitialized { retry_at_ms: 0 }
        } else {
            IdState::Disabled
        };
        Producer {
            config,
            producer_id: -1,
            producer_epoch: -1,
            id_state,
            accumulator: SortedMap::new(),
            open: SortedMap::new(),
            next_sequence: SortedMap::new(),
            sequence_ids: SortedMap::new(),
            epoch_bump_partitions: SortedSet::new(),
            epoch_bump_error: Errors::OutOfOrderSequenceNumber,
            epoch_bump_unresolved: false,
            epoch_bump_retried: false,
            unresolved_sequences: SortedMap::new(),
            last_acked_sequence: SortedMap::new(),
            last_acked_offset: SortedMap::new(),
            in_flight: Vec::new(),
            acknowledged: Vec::new(),
            failed: Vec::new(),
            txn,
            last_txn_outcome: None,
            last_call_ms: 0,
            next_batch_id: 1,
            retry_backoff,
            retry_rng,
        }
    }

    /// Seeds the retry jitter from the world's seed and the client's name, so two
    /// producers of one world draw different waits and a replay draws the same ones.
    pub fn seed_retry_jitter(&mut self, world_seed: u64) {
        self.retry_rng =
            crate::util::rng::Rng::new(jitter_seed(world_seed, &self.config.client_id));
    }

    /// `ProducerBatch.maybeUpdateLeaderEpoch`, for the first batch of each partition
    /// (what `RecordAccumulator.ready` and `drain` look at): a newer leader epoch than
    /// the batch knew marks the leader as changed at its current attempt.
    pub fn observe_leader_epochs(
        &mut self,
        leader_epoch_of: &dyn Fn(&TopicPartition) -> Option<i32>,
    ) {
        for (tp, queue) in self.accumulator.iter_mut() {
            let (Some(batch), Some(latest)) = (queue.front_mut(), leader_epoch_of(tp)) else {
                continue;
            };
            if batch.current_leader_epoch.is_none_or(|e| e < latest) {
                batch.attempts_when_leader_last_changed = batch.attempts;
                batch.current_leader_epoch = Some(latest);
            }
        }
    }

    /// `send()`, once per value: a record goes into the open batch of its partition while
    /// that batch has room under `batch.size` (`MemoryRecordsBuilder.hasRoomFor`: the first
    /// record always fits); otherwise the batch is closed and a new one opened.
    pub fn send(&mut self, tp: TopicPartition, values: Vec<String>, now_ms: i64) -> ProducerEvent {
        let batch_size = self.config.batch_size;
        let transactional = self.txn.is_some();
        let queue = self.accumulator.entry(tp.clone()).or_default();
        for value in &values {
            let open = self.open.get(&tp).copied().unwrap_or(false);
            let has_room = |b: &ProducerBatch| {
                b.size_in_bytes.saturating_add(b.next_record_size(value)) <= batch_size
            };
            match queue.back_mut() {
                Some(batch) if open && has_room(batch) => {
                    batch.size_in_bytes += batch.next_record_size(value);
                    batch.values.push(value.clone());
                }
                _ => {
                    let id = self.next_batch_id;
                    self.next_batch_id += 1;
                    let mut batch = ProducerBatch {
                        id,
                        tp: tp.clone(),
                        values: Vec::new(),
                        created_ms: now_ms,
                        producer_id: -1,
                        producer_epoch: -1,
                        base_sequence: None,
                        attempts: 0,
                        retry_at_ms: now_ms,
                        current_leader_epoch: None,
                        attempts_when_leader_last_changed: 0,
                        transactional,
                        size_in_bytes: crate::record::RECORD_BATCH_OVERHEAD,
                        sequence_reset: false,
                        is_split_batch: false,
                    };
                    batch.size_in_bytes += batch.next_record_size(value);
                    batch.values.push(value.clone());
                    queue.push_back(batch);
                    self.open.insert(tp.clone(), true);
                }
            }
        }
        ProducerEvent::Accumulated { tp, values }
    }

    /// Whether anything is waiting to be sent or acknowledged.
    pub fn has_pending(&self) -> bool {
        self.in_flight.iter().any(|f| !f.is_expired())
            || self.accumulator.values().any(|q| !q.is_empty())
    }

    /// The earliest time the producer has something to do (a retry or a timeout).
    /// Only future times count: what is due now happens in the next `poll`.
    pub fn next_wakeup(&self, now_ms: i64) -> Option<i64> {
        let mut t: Option<i64> = None;
        let mut consider = |x: i64| {
            if x > now_ms {
                t = Some(t.map_or(x, |y| y.min(x)));
            }
        };
        for f in &self.in_flight {
            consider(f.deadline_ms);
            if let InFlightKind::Produce(b) = &f.what {
                consider(self.delivery_deadline(b));
            }
        }
        for q in self.accumulator.values() {
            if let Some(b) = q.front() {
                consider(self.delivery_deadline(b));
            }
        }
        if let IdState::Uninitialized { retry_at_ms } = self.id_state {
            consider(retry_at_ms.max(now_ms));
        }
        if let Some(tm) = self
            .txn
            .as_ref()
            .filter(|t| t.in_flight().is_none() && t.wants_request())
        {
            consider(tm.retry_at_ms().max(now_ms));
        }
        if self.can_drain() {
            for q in self.accumulator.values() {
                if let Some(b) = q.front() {
                    consider(b.retry_at_ms.max(now_ms));
                }
            }
        }
        t
    }

    fn can_drain(&self) -> bool {
        matches!(self.id_state, IdState::Ready | IdState::Disabled)
            && self.txn.as_ref().is_none_or(|t| t.can_send_batches())
    }

    /// `(producerId=0, epoch=2)`, as the seed's helper prints a producer.
    pub fn id_text(&self) -> String {
        format!(
            "(producerId={}, epoch={})",
            self.producer_id, self.producer_epoch
        )
    }

    /// Whether batches are queued or waiting for an answer.
    pub fn batches_pending(&self) -> bool {
        self.accumulator.values().any(|q| !q.is_empty())
            || self
                .in_flight
                .iter()
                .any(|f| matches!(f.what, InFlightKind::Produce(_)))
    }

    /// The cluster's finalized `transaction.version` as this client negotiates it.
    pub fn set_transaction_v2(&mut self, v2: bool) {
        if let Some(tm) = self.txn.as_mut() {
            tm.set_transaction_v2(v2);
        }
    }

    /// `abortTransaction()` once the transaction manager took it: batches never sent
    /// are dropped here; then EndTxn(abort) goes once the in-flight ones are answered.
    pub fn abort_transaction(&mut self) -> Vec<ProducerEvent> {
        let count: usize = self
            .accumulator
            .values()
            .map(|q| q.iter().filter(|b| b.base_sequence.is_none()).count())
            .sum();
        for q in self.accumulator.values_mut() {
            q.retain(|b| b.base_sequence.is_some());
        }
        if count > 0 {
            vec![ProducerEvent::BatchesAbortedLocally { count }]
        } else {
            vec![]
        }
    }
}

fn take(counter: &mut u64) -> u64 {
    let v = *counter;
    *counter += 1;
    v
}

#[cfg(test)]
mod sender_tests;
#[cfg(test)]
mod tests;

/// The retry jitter's seed: FNV-1a of the client's name over the world's seed.
fn jitter_seed(world_seed: u64, client_id: &str) -> u64 {
    client_id
        .bytes()
        .fold(world_seed ^ 0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}
