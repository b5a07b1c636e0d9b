//! Kafka's own invariants over what the brokers hold, read through the log and
//! coordinator read APIs of every online replica (so they hold for 1 replica or N):
//!
//! - `logStartOffset ≤ LSO ≤ HW ≤ LEO` (`UnifiedLog`: the LSO is the first unstable
//!   offset capped by the HW, the HW never passes the LEO);
//! - a leader's HW never moves backwards (`Partition.maybeIncrementLeaderHW` only
//!   increments) — followed per leader between restarts;
//! - at most 5 batches in a producer's window (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`);
//! - no data batch from an epoch older than one the partition already holds for the
//!   producer (`ProducerAppendInfo.checkProducerEpoch`);
//! - one marker per partition per transaction (TV2: `appendEndTxnMarker` ignores a
//!   marker of the current epoch), and none missing when the coordinator completes;
//! - no transaction open past `transaction.timeout.ms` plus
//!   `transaction.abort.timed.out.transaction.cleanup.interval.ms` while the cluster is
//!   whole (`TransactionCoordinator.abortTimedOutTransactions`).
//!
//! Apache Kafka commit `1eb7644` (4.0).

use std::collections::{BTreeMap, BTreeSet};

use super::{unclean, Anomaly, Ctx};
use crate::admin::MAX_TRANSACTION_TIMEOUT_MS;
use crate::broker::broker::BrokerEvent;
use crate::broker::partition::ReplicationEvent;
use crate::client::producer::ProducerEvent;
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::coordinator::transaction::{CoordinatorEvent, TransactionState};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::sim::world::{INTER_BROKER_TIMEOUT_MS, TXN_CLEANUP_INTERVAL_MS};
use crate::sim::{Event, EventKind};

/// Most batches a producer's window holds (Kafka's `NUM_BATCHES_TO_RETAIN`).
pub const MAX_WINDOW_BATCHES: usize = 5;

/// A replica's log start, LSO, HW and LEO.
type LogOffsets = (i64, i64, i64, i64);

/// One outcome of a transaction: committed or not, where (none: the coordinator's
/// Complete*), and the event.
type Outcome = (bool, Option<TopicPartition>, u64);

/// A written batch: partition, producer id, epoch, first and last sequence.
type AppendedKey = (TopicPartition, i64, i16, i32, i32);

/// An open transaction in one partition: (partition, producer id, first offset).
type OpenTxn = (TopicPartition, i64, i64);

#[derive(Clone, Debug, Default)]
pub(super) struct BrokerHistory {
    /// The HW each leader last had, with the leader that had it, sorted by partition
    /// (read in step with a broker's logs, see [`seek`]).
    leader_hw: Vec<(TopicPartition, (i32, i64))>,
    /// Each replica's log start, LSO, HW and LEO at the last step, by broker, sorted
    /// by partition.
    offsets_seen: BTreeMap<i32, Vec<(TopicPartition, LogOffsets)>>,
    /// The newest epoch written per partition and producer (data or marker): the
    /// event and offset of its first write.
    max_epoch: BTreeMap<(TopicPartition, i64), (i16, u64, i64)>,
    /// Markers written (TV2): partition, producer id, epoch → the broker that wrote
    /// it and the event.
    markers: BTreeMap<(TopicPartition, i64, i16), (i32, u64)>,
    /// Outcomes seen per transaction (TV2: producer id and marker epoch): whether it
    /// was committed, with the partition (none: the coordinator) and the event.
    outcomes: BTreeMap<(i64, i16), Vec<Outcome>>,
    /// Batches written: partition, producer id, epoch, first and last sequence →
    /// first offset and event.
    appended: BTreeMap<AppendedKey, (i64, u64)>,
    /// Batches a producer was told were written: partition and first offset.
    acked: BTreeSet<(TopicPartition, i64)>,
    /// Prepare* records appended to a replicated `__transaction_state` partition and
    /// not yet passed by its HW, per producer id and epoch: the broker, the partition
    /// and the event.
    prepares: BTreeMap<(i64, i16), (i32, TopicPartition, u64)>,
    /// Open transactions at the end of the previous step, and since when they are open.
    open: BTreeMap<OpenTxn, i64>,
    /// Coordinators that completed a transaction of this producer in this step.
    completed: Vec<(i64, u64)>,
    /// Since when the cluster has been whole (every broker up, no fault, nothing held).
    calm_since: Option<i64>,
}

impl BrokerHistory {
    pub(super) fn on_event(&mut self, ctx: &mut Ctx<'_>, event: &Event) {
        if let EventKind::Producer {
            event: ProducerEvent::Acknowledged {
                tp, base_offset, ..
            },
            ..
        } = &event.kind
        {
            self.acked.insert((tp.clone(), *base_offset));
        }
        let EventKind::Broker { broker, event: e } = &event.kind else {
            return;
        };
        let (broker, seq) = (*broker, event.seq);
        // Every variant named, so a new one is a decision here rather than ignored.
        match e {
            BrokerEvent::Stopped { .. } => self.on_stopped(broker),
            BrokerEvent::BatchRejected {
                tp,
                producer_id,
                producer_epoch,
                first_seq,
                last_seq,
                error,
                ..
            } => {
                if *error == Errors::OutOfOrderSequenceNumber {
                    let key = (
                        tp.clone(),
                        *producer_id,
                        *producer_epoch,
                        *first_seq,
                        *last_seq,
                    );
                    self.on_retry_refused(ctx, broker, key, seq);
                }
            }
            BrokerEvent::BatchAppended {
                tp,
                producer_id,
                producer_epoch,
                first_seq,
                last_seq,
                first_offset,
                last_offset,
                ..
            } => {
                if *producer_id >= 0 {
                    let key = (
                        tp.clone(),
                        *producer_id,
                        *producer_epoch,
                        *first_seq,
                        *last_seq,
                    );
                    let offsets = (*first_offset, *last_offset);
                    self.on_batch_appended(ctx, broker, key, offsets, seq);
                }
            }
            BrokerEvent::MarkerWritten {
                tp,
                producer_id,
                producer_epoch,
                offset,
                kind,
                ..
            } => {
                let txn = (*producer_id, *producer_epoch);
                let commit = kind == "COMMIT";
                self.on_marker_written(ctx, (broker, seq), tp, txn, *offset, commit);
            }
            BrokerEvent::Coordinator(c) => self.on_coordinator(ctx, broker, c, seq),
            BrokerEvent::Replication(r) => self.on_replication(broker, r),
            BrokerEvent::BatchDuplicate { .. }
            | BrokerEvent::ProducersExpired { .. }
            | BrokerEvent::LogStartOffsetIncremented { .. }
            | BrokerEvent::SegmentsDeleted { .. }
            | BrokerEvent::LogCleaned { .. }
            | BrokerEvent::NothingToClean { .. }
            | BrokerEvent::SnapshotTaken { .. }
            | BrokerEvent::LogTruncated { .. }
            | BrokerEvent::FileCorrupted { .. }
            | BrokerEvent::SegmentRolled { .. }
            | BrokerEvent::ProducerIdNotReady { .. }
            | BrokerEvent::ProducerIdBlockReceived { .. }
            | BrokerEvent::ProducerIdAssigned { .. }
            | BrokerEvent::TransactionVerification { .. }
            | BrokerEvent::PartitionVerification { .. }
            | BrokerEvent::PartitionNotVerified { .. }
            | BrokerEvent::MarkersRequeued { .. }
            | BrokerEvent::MarkersAwaitLeader { .. }
            | BrokerEvent::MarkersSkippedForDeletedPartitions { .. }
            | BrokerEvent::MarkersAwaitIsr { .. }
            | BrokerEvent::MarkerRejected { .. }
            | BrokerEvent::CoordinatorLoadStarted { .. }
            | BrokerEvent::CoordinatorLoadCompleted { .. }
            | BrokerEvent::Group(_)
            | BrokerEvent::Recovered { .. } => {}
        }
    }

    /// A stopped broker: its leaders' HWs are no longer followed, and its Prepare*
    /// records wait for no HW.
    fn on_stopped(&mut self, broker: i32) {
        self.leader_hw.retain(|(_, (leader, _))| *leader != broker);
        // A restarted partition's window holds only what its snapshot kept (the last
        // batch per producer, as Kafka's): older retries may fall out.
        self.appended.clear();
        self.prepares.retain(|_, (b, _, _)| *b != broker);
    }

    /// A retry refused with OUT_OF_ORDER_SEQUENCE_NUMBER (`key`: the batch): a
    /// `retry-out-of-window` when the batch was written and pushed out of the window
    /// by batches none of which was acknowledged yet.
    fn on_retry_refused(&mut self, ctx: &mut Ctx<'_>, broker: i32, key: AppendedKey, seq: u64) {
        let (tp, producer_id, producer_epoch, first_seq, _) = &key;
        // Written, refused on retry, and none of the batches that pushed it out of the
        // window was acknowledged yet: they were all in flight with it. At most 5 in
        // flight (Kafka) they would all fit in the window.
        let out_of_window = self.appended.get(&key).filter(|(offset, _)| {
            let later: Vec<i64> = self
                .appended
                .iter()
                .filter(|(k, (o, _))| {
                    (&k.0, k.1, k.2) == (tp, *producer_id, *producer_epoch) && o > offset
                })
                .map(|(_, (o, _))| *o)
                .collect();
            later.len() >= MAX_WINDOW_BATCHES
                && later
                    .iter()
                    .all(|o| !self.acked.contains(&(tp.clone(), *o)))
        });
        if let Some((offset, appended)) = out_of_window {
            let mut v = ctx.violation(Anomaly::RetryOutOfWindow, Some(tp));
            v.who = Some(format!("broker-{broker}"));
            v.offsets = vec![*offset];
            v.events = vec![*appended, seq];
            v.numbers = vec![
                ("producer_id", *producer_id),
                ("first_seq", i64::from(*first_seq)),
            ];
            ctx.found.push(v);
        }
    }

    /// A producer's batch written (`key`, at `offsets`): remembered for the window, and
    /// a `fenced-write` when the partition already holds a newer epoch of the producer
    /// (`ProducerAppendInfo.checkProducerEpoch`).
    fn on_batch_appended(
        &mut self,
        ctx: &mut Ctx<'_>,
        broker: i32,
        key: AppendedKey,
        (first_offset, last_offset): (i64, i64),
        seq: u64,
    ) {
        let (tp, producer_id, producer_epoch) = (key.0.clone(), key.1, key.2);
        self.appended.insert(key, (first_offset, seq));
        let key = (tp.clone(), producer_id);
        if let Some(&(newest, newest_event, newest_offset)) = self.max_epoch.get(&key) {
            if producer_epoch < newest {
                let mut v = ctx.violation(Anomaly::FencedWrite, Some(&tp));
                v.who = Some(format!("broker-{broker}"));
                v.offsets = vec![first_offset, last_offset];
                v.events = vec![newest_event, seq];
                v.numbers = vec![
                    ("producer_id", producer_id),
                    ("epoch", i64::from(producer_epoch)),
                    ("newest_epoch", i64::from(newest)),
                ];
                // Kafka takes the older epoch again once an unclean election truncated
                // every write of the newer one: the leader's producer state is rebuilt
                // from its log (`Partition.truncateTo`).
                match ctx.unclean.took(&tp, newest_offset, newest_event, seq) {
                    Some(from) => {
                        ctx.expected.push(unclean::expected(v, from));
                        self.max_epoch
                            .insert(key.clone(), (producer_epoch, seq, first_offset));
                    }
                    None => ctx.found.push(v),
                }
            }
        }
        self.raise_epoch(key, producer_epoch, seq, first_offset);
    }

    /// A marker written by `broker` (event `seq`) for transaction `(producer id,
    /// epoch)`: under TV2, a `marker-before-prepare` when its Prepare* is not yet
    /// replicated, the outcome, and an `extra-marker` when the same broker writes it
    /// twice.
    fn on_marker_written(
        &mut self,
        ctx: &mut Ctx<'_>,
        (broker, seq): (i32, u64),
        tp: &TopicPartition,
        (producer_id, producer_epoch): (i64, i16),
        offset: i64,
        commit: bool,
    ) {
        self.raise_epoch((tp.clone(), producer_id), producer_epoch, seq, offset);
        if !ctx.world.config().txn_features().v2() {
            return;
        }
        if let Some((_, txn_tp, prepared)) = self.prepares.get(&(producer_id, producer_epoch)) {
            let mut v = ctx.violation(Anomaly::MarkerBeforePrepare, Some(tp));
            v.who = Some(format!("broker-{broker}"));
            v.offsets = vec![offset];
            v.events = vec![*prepared, seq];
            v.numbers = vec![
                ("producer_id", producer_id),
                ("epoch", i64::from(producer_epoch)),
                ("prepare_partition", i64::from(txn_tp.partition)),
            ];
            ctx.found.push(v);
        }
        self.outcome(ctx, (producer_id, producer_epoch), commit, Some(tp), seq);
        // A leader that fails before its marker is replicated loses it (its log is
        // truncated to the new leader's), and the coordinator sends the marker again to
        // the new leader (TransactionMarkerChannelManager, Kafka 4.0): a second marker
        // from another broker is that resend. A second one from the same broker is
        // extra.
        let key = (tp.clone(), producer_id, producer_epoch);
        match self.markers.get(&key) {
            Some(&(first_broker, first)) if first_broker == broker => {
                let mut v = ctx.violation(Anomaly::ExtraMarker, Some(tp));
                v.who = Some(format!("broker-{broker}"));
                v.offsets = vec![offset];
                v.events = vec![first, seq];
                v.numbers = vec![
                    ("producer_id", producer_id),
                    ("epoch", i64::from(producer_epoch)),
                ];
                ctx.found.push(v);
            }
            _ => {
                self.markers.insert(key, (broker, seq));
            }
        }
    }

    /// The transaction coordinator's state changes: a Prepare* written to a replicated
    /// `__transaction_state` waits for its HW; a Complete* is an outcome (TV2).
    fn on_coordinator(
        &mut self,
        ctx: &mut Ctx<'_>,
        broker: i32,
        event: &CoordinatorEvent,
        seq: u64,
    ) {
        match event {
            CoordinatorEvent::StateChanged {
                to,
                partition,
                producer_id,
                producer_epoch,
                ..
            } => match to {
                TransactionState::PrepareCommit | TransactionState::PrepareAbort => {
                    let txn_tp = TopicPartition::new(TRANSACTION_STATE_TOPIC, *partition);
                    let replicated = ctx
                        .world
                        .brokers()
                        .get(&broker)
                        .and_then(|b| b.logs().get(&txn_tp))
                        .is_some_and(|l| l.is_replicated());
                    if replicated {
                        self.prepares
                            .insert((*producer_id, *producer_epoch), (broker, txn_tp, seq));
                    }
                }
                TransactionState::CompleteCommit | TransactionState::CompleteAbort => {
                    self.completed.push((*producer_id, seq));
                    if ctx.world.config().txn_features().v2() {
                        let commit = *to == TransactionState::CompleteCommit;
                        let txn = (*producer_id, *producer_epoch);
                        self.outcome(ctx, txn, commit, None, seq);
                    }
                }
                TransactionState::Empty
                | TransactionState::Ongoing
                | TransactionState::Dead
                | TransactionState::PrepareEpochFence => {}
            },
            CoordinatorEvent::EndTxnEpochFenced { .. }
            | CoordinatorEvent::TransactionalIdExpired { .. }
            | CoordinatorEvent::Fenced { .. }
            | CoordinatorEvent::TimedOut { .. }
            | CoordinatorEvent::Loaded { .. }
            | CoordinatorEvent::Unloaded { .. }
            | CoordinatorEvent::Rejected { .. }
            | CoordinatorEvent::AppendFailed { .. }
            | CoordinatorEvent::MarkersAbandoned { .. }
            | CoordinatorEvent::InternalError { .. } => {}
        }
    }

    /// Replication: the HW of a `__transaction_state` partition passing its Prepare*
    /// records ends their wait.
    fn on_replication(&mut self, broker: i32, event: &ReplicationEvent) {
        match event {
            ReplicationEvent::HighWatermarkAdvanced { tp, .. } => {
                if tp.topic == TRANSACTION_STATE_TOPIC {
                    self.prepares
                        .retain(|_, (b, t, _)| !(*b == broker && t == tp));
                }
            }
            ReplicationEvent::RoleChanged { .. }
            | ReplicationEvent::LeaderRecovered { .. }
            | ReplicationEvent::FollowerFetched { .. }
            | ReplicationEvent::HighWatermarkHeld { .. }
            | ReplicationEvent::IsrShrunk { .. }
            | ReplicationEvent::IsrExpanded { .. }
            | ReplicationEvent::AlterPartitionRefused { .. }
            | ReplicationEvent::IsrExpansionRefused { .. }
            | ReplicationEvent::StaleFetchRefused { .. }
            | ReplicationEvent::Truncated { .. }
            | ReplicationEvent::OffsetOutOfRangeReset { .. }
            | ReplicationEvent::FetchFenced { .. }
            | ReplicationEvent::FetchFailed { .. }
            | ReplicationEvent::DeleteRecordsDelayed { .. }
            | ReplicationEvent::DeleteRecordsCompleted { .. }
            | ReplicationEvent::DelayedProduceCompleted { .. } => {}
        }
    }

    /// One outcome of a TV2 transaction (a marker, or the coordinator's Complete*):
    /// the opposite one seen before is a `mixed-outcome`.
    fn outcome(
        &mut self,
        ctx: &mut Ctx<'_>,
        (producer_id, epoch): (i64, i16),
        commit: bool,
        tp: Option<&TopicPartition>,
        seq: u64,
    ) {
        let seen = self.outcomes.entry((producer_id, epoch)).or_default();
        if let Some((_, other_tp, other_seq)) = seen.iter().find(|(c, _, _)| *c != commit) {
            let mut v = ctx.violation(Anomaly::MixedOutcome, tp.or(other_tp.as_ref()));
            v.events = vec![*other_seq, seq];
            v.numbers = vec![("producer_id", producer_id), ("epoch", i64::from(epoch))];
            ctx.found.push(v);
        }
        seen.push((commit, tp.cloned(), seq));
    }

    fn raise_epoch(&mut self, key: (TopicPartition, i64), epoch: i16, seq: u64, offset: i64) {
        let entry = self.max_epoch.entry(key).or_insert((epoch, seq, offset));
        if epoch > entry.0 {
            *entry = (epoch, seq, offset);
        }
    }

    /// The invariants read from the replicas as they are after the step.
    pub(super) fn after_events(&mut self, ctx: &mut Ctx<'_>) {
        let world = ctx.world;
        for (id, broker) in world.brokers() {
            if !broker.is_online() {
                continue;
            }
            let seen = self.offsets_seen.entry(*id).or_default();
            // Cursors into `seen` and `leader_hw`: both are sorted like the logs, so
            // each lookup is one comparison or two, not a search (this runs for
            // every log, internal topics' 100 partitions too, after every step).
            let (mut at_seen, mut at_hw) = (0, 0);
            for (tp, log) in broker.logs() {
                let (start, lso, hw, leo) = (
                    log.log_start_offset(),
                    log.last_stable_offset(),
                    log.high_watermark(),
                    log.log_end_offset(),
                );
                // Nothing moved since the last step and this replica is the leader the
                // HW was last taken from: every check below would find what it found
                // then (a window only grows by an append), so skip the lookups.
                let offsets = (start, lso, hw, leo);
                let seen_at = seek(seen, &mut at_seen, tp);
                let hw_at = seek(&self.leader_hw, &mut at_hw, tp);
                let unchanged = seen_at.is_some_and(|i| seen[i].1 == offsets)
                    && hw_at.is_some_and(|i| self.leader_hw[i].1 == (*id, hw));
                if unchanged {
                    continue;
                }
                match seen_at {
                    Some(i) => seen[i].1 = offsets,
                    None => seen.insert(at_seen, (tp.clone(), offsets)),
                }
                if !(start <= lso && lso <= hw && hw <= leo) {
                    let mut v = ctx.violation(Anomaly::OffsetOrder, Some(tp));
                    v.who = Some(format!("broker-{id}"));
                    v.offsets = vec![start, lso, hw, leo];
                    v.numbers = vec![
                        ("log_start_offset", start),
                        ("lso", lso),
                        ("hw", hw),
                        ("leo", leo),
                    ];
                    ctx.found.push(v);
                }
                if world.leader_of(tp) == Some(*id) {
                    if let Some((leader, before)) = hw_at.map(|i| &self.leader_hw[i].1) {
                        if leader == id && hw < *before {
                            let mut v = ctx.violation(Anomaly::HighWatermarkBackwards, Some(tp));
                            v.who = Some(format!("broker-{id}"));
                            v.offsets = vec![*before, hw];
                            v.numbers = vec![("hw_before", *before), ("hw", hw)];
                            ctx.found.push(v);
                        }
                    }
                    match hw_at {
                        Some(i) => self.leader_hw[i].1 = (*id, hw),
                        None => self.leader_hw.insert(at_hw, (tp.clone(), (*id, hw))),
                    }
                }
                for (pid, entry) in log.producer_state().active_producers() {
                    let batches = entry.batch_metadata().len();
                    if batches > MAX_WINDOW_BATCHES {
                        let mut v = ctx.violation(Anomaly::WindowTooLarge, Some(tp));
                        v.who = Some(format!("broker-{id}"));
                        v.numbers = vec![("producer_id", *pid), ("batches", batches as i64)];
                        ctx.found.push(v);
                    }
                }
            }
        }
        self.check_transactions(ctx);
        check_elr(ctx);
        check_leader_recovery(ctx);
    }

    /// Missing markers (a completed transaction still open in a partition) and hanging
    /// transactions.
    fn check_transactions(&mut self, ctx: &mut Ctx<'_>) {
        let world = ctx.world;
        let now = world.clock_ms();
        // `World::open_transactions` of every partition, read from the leaders' logs
        // directly: only a log with an open transaction needs its leader looked up.
        let mut open_now: BTreeMap<OpenTxn, i16> = BTreeMap::new();
        for (id, broker) in world.brokers() {
            for (tp, log) in broker.logs() {
                let mut open = log
                    .producer_state()
                    .active_producers()
                    .values()
                    .filter_map(|e| {
                        let start = e.current_txn_first_offset()?;
                        Some(((tp.clone(), e.producer_id(), start), e.producer_epoch()))
                    })
                    .peekable();
                if open.peek().is_none() || world.leader_of(tp) != Some(*id) {
                    continue;
                }
                open_now.extend(open);
            }
        }
        for (pid, seq) in std::mem::take(&mut self.completed) {
            for key in self.open.keys().filter(|k| k.1 == pid) {
                if open_now.contains_key(key) {
                    let mut v = ctx.violation(Anomaly::MissingMarker, Some(&key.0));
                    v.offsets = vec![key.2];
                    v.events = vec![seq];
                    v.numbers = vec![("producer_id", pid)];
                    ctx.found.push(v);
                }
            }
        }
        let calm = world.brokers().values().all(|b| b.is_online())
            && world.network().faults().is_empty()
            && world.network().held().is_empty();
        if !calm {
            self.calm_since = None;
        } else if self.calm_since.is_none() {
            self.calm_since = Some(now);
        }
        let previous = std::mem::take(&mut self.open);
        // Only an open transaction in a calm cluster needs its timeout looked up.
        let mut coordinated = None;
        let mut reported = BTreeSet::new();
        for key in open_now.keys() {
            let since = previous.get(key).copied().unwrap_or(now);
            self.open.insert(key.clone(), since);
            let Some(calm_since) = self.calm_since else {
                continue;
            };
            let timeout = coordinated
                .get_or_insert_with(|| world.coordinated_transactions())
                .iter()
                .find(|c| c.metadata.producer_id() == key.1)
                .map_or(MAX_TRANSACTION_TIMEOUT_MS, |c| {
                    i64::from(c.metadata.txn_timeout_ms())
                });
            // Markers may need a retry or two after the abort (inter-broker timeout).
            let allowed = timeout + TXN_CLEANUP_INTERVAL_MS + 2 * INTER_BROKER_TIMEOUT_MS;
            let open_for = now - since.max(calm_since);
            if open_for > allowed && reported.insert(key.clone()) {
                let mut v = ctx.violation(Anomaly::HangingTransaction, Some(&key.0));
                v.offsets = vec![key.2];
                v.numbers = vec![
                    ("producer_id", key.1),
                    ("open_ms", open_for),
                    ("allowed_ms", allowed),
                ];
                // The coordinator completed it and sends no marker again: Kafka leaves
                // it to `kafka-transactions.sh abort` (KIP-664).
                match ctx.unclean.marker_truncated(&key.0, key.1, key.2) {
                    Some(from) => ctx.expected.push(unclean::expected(v, from)),
                    None => ctx.found.push(v),
                }
            }
        }
    }
}

/// Finds `tp` in `entries` (sorted by partition) from `*at` on, for keys asked in
/// ascending order: moves `*at` past smaller keys and returns the index if it is there.
/// Left at `*at`, an insert keeps `entries` sorted.
fn seek<V>(entries: &[(TopicPartition, V)], at: &mut usize, tp: &TopicPartition) -> Option<usize> {
    while let Some((key, _)) = entries.get(*at) {
        match key.cmp(tp) {
            std::cmp::Ordering::Less => *at += 1,
            std::cmp::Ordering::Equal => return Some(*at),
            std::cmp::Ordering::Greater => return None,
        }
    }
    None
}

/// KIP-704's rule on each partition's registration: while RECOVERING, no replica but
/// the leader is in the ISR (the leader joins followers only once it says RECOVERED).
fn check_leader_recovery(ctx: &mut Ctx<'_>) {
    let world = ctx.world;
    for topic in world.topics().values() {
        for (p, reg) in topic.registrations.iter().enumerate() {
            if reg.leader_recovery_state() == crate::protocol::LeaderRecoveryState::Recovering
                && reg.isr().len() > 1
            {
                let tp = TopicPartition::new(topic.name.clone(), p as i32);
                let mut v = ctx.violation(Anomaly::LeaderRecovery, Some(&tp));
                v.numbers = vec![("isr", reg.isr().len() as i64)];
                ctx.found.push(v);
            }
        }
    }
}

/// KIP-966's rules on each partition's registration: the ELR and the ISR never share a
/// replica, and an ISR at its effective `min.insync.replicas` leaves no ELR.
fn check_elr(ctx: &mut Ctx<'_>) {
    let world = ctx.world;
    if !world.config().eligible_leader_replicas {
        return;
    }
    for topic in world.topics().values() {
        for (p, reg) in topic.registrations.iter().enumerate() {
            let min_isr = topic
                .replication
                .change_rules(reg.replicas().len(), true)
                .min_isr;
            let shared = reg.elr().iter().any(|b| reg.isr().contains(b));
            let at_min = i32::try_from(reg.isr().len()).unwrap_or(i32::MAX) >= min_isr;
            if shared || (at_min && !reg.elr().is_empty()) {
                let tp = TopicPartition::new(topic.name.clone(), p as i32);
                let mut v = ctx.violation(Anomaly::ElrMembership, Some(&tp));
                v.numbers = vec![
                    ("isr", reg.isr().len() as i64),
                    ("elr", reg.elr().len() as i64),
                    ("min_isr", i64::from(min_isr)),
                ];
                ctx.found.push(v);
            }
        }
    }
}
