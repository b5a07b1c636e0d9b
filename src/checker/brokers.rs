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

use super::{Anomaly, Ctx};
use crate::broker::broker::BrokerEvent;
use crate::coordinator::transaction::{CoordinatorEvent, TransactionState};
use crate::log::TopicPartition;
use crate::sim::hanging::MAX_TRANSACTION_TIMEOUT_MS;
use crate::sim::world::{INTER_BROKER_TIMEOUT_MS, TXN_CLEANUP_INTERVAL_MS};
use crate::sim::{Event, EventKind};

/// Most batches a producer's window holds (Kafka's `NUM_BATCHES_TO_RETAIN`).
pub const MAX_WINDOW_BATCHES: usize = 5;

/// An open transaction in one partition: (partition, producer id, first offset).
type OpenTxn = (TopicPartition, i64, i64);

#[derive(Clone, Debug, Default)]
pub(super) struct BrokerHistory {
    /// The HW each leader last had, with the leader that had it.
    leader_hw: BTreeMap<TopicPartition, (i32, i64)>,
    /// The newest epoch written per partition and producer (data or marker).
    max_epoch: BTreeMap<(TopicPartition, i64), (i16, u64)>,
    /// Markers written (TV2): partition, producer id, epoch → event.
    markers: BTreeMap<(TopicPartition, i64, i16), u64>,
    /// Open transactions at the end of the previous step, and since when they are open.
    open: BTreeMap<OpenTxn, i64>,
    /// Coordinators that completed a transaction of this producer in this step.
    completed: Vec<(i64, u64)>,
    /// Since when the cluster has been whole (every broker up, no fault, nothing held).
    calm_since: Option<i64>,
}

impl BrokerHistory {
    pub(super) fn on_event(&mut self, ctx: &mut Ctx<'_>, event: &Event) {
        let EventKind::Broker { broker, event: e } = &event.kind else {
            return;
        };
        match e {
            BrokerEvent::Stopped { .. } => {
                self.leader_hw.retain(|_, (leader, _)| leader != broker);
            }
            BrokerEvent::BatchAppended {
                tp,
                producer_id,
                producer_epoch,
                first_offset,
                last_offset,
                ..
            } if *producer_id >= 0 => {
                let key = (tp.clone(), *producer_id);
                if let Some((newest, newest_event)) = self.max_epoch.get(&key) {
                    if producer_epoch < newest {
                        let mut v = ctx.violation(Anomaly::FencedWrite, Some(tp));
                        v.who = Some(format!("broker-{broker}"));
                        v.offsets = vec![*first_offset, *last_offset];
                        v.events = vec![*newest_event, event.seq];
                        v.numbers = vec![
                            ("producer_id", *producer_id),
                            ("epoch", i64::from(*producer_epoch)),
                            ("newest_epoch", i64::from(*newest)),
                        ];
                        ctx.found.push(v);
                    }
                }
                self.raise_epoch(key, *producer_epoch, event.seq);
            }
            BrokerEvent::MarkerWritten {
                tp,
                producer_id,
                producer_epoch,
                offset,
                ..
            } => {
                self.raise_epoch((tp.clone(), *producer_id), *producer_epoch, event.seq);
                if !ctx.world.config.txn_features().v2() {
                    return;
                }
                let key = (tp.clone(), *producer_id, *producer_epoch);
                if let Some(first) = self.markers.get(&key) {
                    let mut v = ctx.violation(Anomaly::ExtraMarker, Some(tp));
                    v.who = Some(format!("broker-{broker}"));
                    v.offsets = vec![*offset];
                    v.events = vec![*first, event.seq];
                    v.numbers = vec![
                        ("producer_id", *producer_id),
                        ("epoch", i64::from(*producer_epoch)),
                    ];
                    ctx.found.push(v);
                } else {
                    self.markers.insert(key, event.seq);
                }
            }
            BrokerEvent::Coordinator(CoordinatorEvent::StateChanged {
                to: TransactionState::CompleteCommit | TransactionState::CompleteAbort,
                producer_id,
                ..
            }) => self.completed.push((*producer_id, event.seq)),
            _ => {}
        }
    }

    fn raise_epoch(&mut self, key: (TopicPartition, i64), epoch: i16, seq: u64) {
        let entry = self.max_epoch.entry(key).or_insert((epoch, seq));
        if epoch > entry.0 {
            *entry = (epoch, seq);
        }
    }

    /// The invariants read from the replicas as they are after the step.
    pub(super) fn after_events(&mut self, ctx: &mut Ctx<'_>) {
        let world = ctx.world;
        for (id, broker) in &world.brokers {
            if !broker.online {
                continue;
            }
            for (tp, log) in broker.logs() {
                let (start, lso, hw, leo) = (
                    log.log_start_offset(),
                    log.last_stable_offset(),
                    log.high_watermark(),
                    log.log_end_offset(),
                );
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
                    if let Some((leader, before)) = self.leader_hw.get(tp) {
                        if leader == id && hw < *before {
                            let mut v = ctx.violation(Anomaly::HighWatermarkBackwards, Some(tp));
                            v.who = Some(format!("broker-{id}"));
                            v.offsets = vec![*before, hw];
                            v.numbers = vec![("hw_before", *before), ("hw", hw)];
                            ctx.found.push(v);
                        }
                    }
                    self.leader_hw.insert(tp.clone(), (*id, hw));
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
    }

    /// Missing markers (a completed transaction still open in a partition) and hanging
    /// transactions.
    fn check_transactions(&mut self, ctx: &mut Ctx<'_>) {
        let world = ctx.world;
        let now = world.clock_ms;
        let tps: Vec<TopicPartition> = world
            .topics
            .values()
            .flat_map(|t| (0..t.partitions).map(|p| TopicPartition::new(&t.name, p)))
            .collect();
        let open_now: BTreeMap<OpenTxn, i16> = tps
            .iter()
            .flat_map(|tp| world.open_transactions(tp))
            .map(|t| ((t.tp, t.producer_id, t.start_offset), t.producer_epoch))
            .collect();
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
        let calm = world.brokers.values().all(|b| b.online)
            && world.network.faults().is_empty()
            && world.network.held().is_empty();
        if !calm {
            self.calm_since = None;
        } else if self.calm_since.is_none() {
            self.calm_since = Some(now);
        }
        let previous = std::mem::take(&mut self.open);
        let coordinated = world.coordinated_transactions();
        let mut reported = BTreeSet::new();
        for key in open_now.keys() {
            let since = previous.get(key).copied().unwrap_or(now);
            self.open.insert(key.clone(), since);
            let Some(calm_since) = self.calm_since else {
                continue;
            };
            let timeout = coordinated
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
                ctx.found.push(v);
            }
        }
    }
}
