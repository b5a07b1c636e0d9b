//! Periodic housekeeping on the logical clock besides the 10 s transaction cleanup,
//! each on its own grid of ticks: producer-id expiry on every partition
//! (`PeriodicProducerExpirationCheck`, every
//! `producer.id.expiration.check.interval.ms`) and transactional-id expiry in every
//! coordinator (`transactionalId-expiration`, every
//! `transaction.remove.expired.transaction.cleanup.interval.ms`), and `LogManager`'s
//! `kafka-log-retention` (every `log.retention.check.interval.ms`) and
//! `kafka-log-start-offset-checkpoint` (every
//! `log.flush.start.offset.checkpoint.interval.ms`), both first after
//! `log.initial.task.delay.ms`, and `ReplicaManager`'s `highwatermark-checkpoint`
//! (every `replica.high-watermark.checkpoint.interval.ms`, first at 5 s here, at 0 in
//! Kafka). Kafka schedules the first per log; here one grid serves the cluster.

use super::error::SimError;
use super::event::EventKind;
use super::world::World;
use crate::broker::hw_checkpoint::HW_CHECKPOINT_INTERVAL_MS;
use crate::protocol::config_def::{self, Place};

/// The first tick of a grid (next tick `next`, then every `interval`) after `clock`
/// (`next` itself while the clock has not reached it).
pub(super) fn tick_after(next: i64, clock: i64, interval: i64) -> i64 {
    let interval = interval.max(1);
    if clock < next {
        return next;
    }
    let behind = (clock - next) / interval;
    next.saturating_add((behind + 1).saturating_mul(interval))
}

/// The first tick of a grid at or after `work`.
pub(super) fn first_tick_from(next: i64, work: i64, interval: i64) -> i64 {
    let interval = interval.max(1);
    if work <= next {
        return next;
    }
    let ticks = (work - next).saturating_add(interval - 1) / interval;
    next.saturating_add(ticks.saturating_mul(interval))
}

/// `log.initial.task.delay.ms` (30 s): when LogManager's tasks first run.
pub(super) const LOG_INITIAL_TASK_DELAY_MS: i64 = 30_000;

/// `log.flush.start.offset.checkpoint.interval.ms` (1 min).
pub(super) const LOG_START_CHECKPOINT_INTERVAL_MS: i64 = 60_000;

impl World {
    /// `transactional.id.expiration.ms` or
    /// `transaction.remove.expired.transaction.cleanup.interval.ms` (broker-wide,
    /// at least 1, an int of milliseconds as in Kafka) for every coordinator.
    pub(super) fn set_transactional_id_expiration(
        &mut self,
        key: &str,
        value: &str,
    ) -> Result<(), SimError> {
        let ms = config_def::parse(Place::Broker, key, value)?.number();
        let (mut expiration, mut interval) =
            self.brokers
                .values()
                .next()
                .map_or((7 * 24 * 3_600_000, 3_600_000), |b| {
                    let c = b.txn_coordinator().config();
                    (
                        c.transactional_id_expiration_ms,
                        c.remove_expired_transactional_ids_interval_ms,
                    )
                });
        if key == "transactional.id.expiration.ms" {
            expiration = ms;
        } else {
            interval = ms;
            self.next_txn_id_expiration_ms = self.clock_ms.saturating_add(ms);
        }
        for b in self.brokers.values_mut() {
            b.set_transactional_id_expiration(expiration, interval);
        }
        Ok(())
    }

    fn producer_expiry_interval_ms(&self) -> i64 {
        self.broker_defaults
            .producer_id_expiration_check_interval_ms
    }

    fn txn_id_expiration_interval_ms(&self) -> i64 {
        self.brokers.values().next().map_or(3_600_000, |b| {
            b.txn_coordinator()
                .config()
                .remove_expired_transactional_ids_interval_ms
        })
    }

    fn retention_check_interval_ms(&self) -> i64 {
        self.broker_defaults.retention_check_interval_ms
    }

    /// The running brokers' ids, taken before a loop that needs `&mut self`.
    pub(super) fn online_brokers(&self) -> Vec<i32> {
        self.brokers
            .iter()
            .filter(|(_, b)| b.is_online())
            .map(|(id, _)| *id)
            .collect()
    }

    /// Runs each task whose tick fell due (several ticks that fell due at once all see
    /// the same clock, so one run does what they would), then moves it to its next
    /// tick after the clock.
    pub(super) fn run_housekeeping(&mut self) {
        #[cfg(feature = "group-membership")]
        self.run_group_timers();
        self.run_leader_balance();
        #[cfg(feature = "topic-admin")]
        self.run_unclean_election();
        let now = self.clock_ms;
        if now >= self.next_producer_expiry_check_ms {
            self.next_producer_expiry_check_ms = tick_after(
                self.next_producer_expiry_check_ms,
                now,
                self.producer_expiry_interval_ms(),
            );
            for id in self.online_brokers() {
                let events = match self.brokers.get_mut(&id) {
                    Some(b) => b.remove_expired_producers(now),
                    None => continue,
                };
                for event in events {
                    self.emit(EventKind::Broker { broker: id, event });
                }
            }
        }
        if now >= self.next_retention_check_ms {
            self.next_retention_check_ms = tick_after(
                self.next_retention_check_ms,
                now,
                self.retention_check_interval_ms(),
            );
            for id in self.online_brokers() {
                let events = match self.brokers.get_mut(&id) {
                    Some(b) => b.cleanup_logs(now),
                    None => continue,
                };
                for event in events {
                    self.emit(EventKind::Broker { broker: id, event });
                }
            }
        }
        if now >= self.next_log_start_checkpoint_ms {
            self.next_log_start_checkpoint_ms = tick_after(
                self.next_log_start_checkpoint_ms,
                now,
                LOG_START_CHECKPOINT_INTERVAL_MS,
            );
            for id in self.online_brokers() {
                if let Some(b) = self.brokers.get_mut(&id) {
                    b.checkpoint_log_start_offsets();
                }
            }
        }
        if now >= self.next_hw_checkpoint_ms {
            self.next_hw_checkpoint_ms =
                tick_after(self.next_hw_checkpoint_ms, now, HW_CHECKPOINT_INTERVAL_MS);
            for id in self.online_brokers() {
                if let Some(b) = self.brokers.get_mut(&id) {
                    b.checkpoint_high_watermarks();
                }
            }
        }
        if now >= self.next_txn_id_expiration_ms {
            self.next_txn_id_expiration_ms = tick_after(
                self.next_txn_id_expiration_ms,
                now,
                self.txn_id_expiration_interval_ms(),
            );
            for id in self.online_brokers() {
                if let Some(b) = self.brokers.get_mut(&id) {
                    let handled = b.remove_expired_transactional_ids(now);
                    self.apply_handled(id, None, handled);
                }
            }
        }
    }

    /// The earliest next tick of any periodic task, the transaction cleanup included,
    /// with work or not: no useful tick comes before it.
    pub(super) fn next_grid_tick_ms(&self) -> i64 {
        [
            self.next_txn_cleanup_ms,
            self.next_producer_expiry_check_ms,
            self.next_txn_id_expiration_ms,
            self.next_retention_check_ms,
            self.next_log_start_checkpoint_ms,
            self.next_hw_checkpoint_ms,
            self.leader_balance_due_ms.unwrap_or(i64::MAX),
            #[cfg(feature = "topic-admin")]
            self.unclean_election_due_ms.unwrap_or(i64::MAX),
        ]
        .into_iter()
        .min()
        .unwrap_or(i64::MAX)
    }

    /// The first tick at which some task has something to do, if any: the ticks
    /// before it would find nothing, so `advance` jumps over them.
    pub(super) fn next_useful_housekeeping_ms(&self) -> Option<i64> {
        let online = || self.brokers.values().filter(|b| b.is_online());
        let producers = online()
            .filter_map(|b| b.next_producer_expiry_ms())
            .min()
            .map(|work| {
                first_tick_from(
                    self.next_producer_expiry_check_ms,
                    work,
                    self.producer_expiry_interval_ms(),
                )
            });
        let txn_ids = online()
            .filter_map(|b| b.txn_coordinator().next_expiration_work_ms())
            .min()
            .map(|work| {
                first_tick_from(
                    self.next_txn_id_expiration_ms,
                    work,
                    self.txn_id_expiration_interval_ms(),
                )
            });
        let now = self.clock_ms;
        let retention = online()
            .filter_map(|b| b.next_retention_work_ms(now))
            .min()
            .map(|work| {
                first_tick_from(
                    self.next_retention_check_ms,
                    work,
                    self.retention_check_interval_ms(),
                )
            });
        let checkpoint = online().any(|b| b.log_start_checkpoint_stale()).then(|| {
            first_tick_from(
                self.next_log_start_checkpoint_ms,
                now,
                LOG_START_CHECKPOINT_INTERVAL_MS,
            )
        });
        let hw_checkpoint = online()
            .any(|b| b.hw_checkpoint_stale())
            .then(|| first_tick_from(self.next_hw_checkpoint_ms, now, HW_CHECKPOINT_INTERVAL_MS));
        [
            producers,
            txn_ids,
            retention,
            checkpoint,
            hw_checkpoint,
            self.leader_balance_due_ms,
            #[cfg(feature = "topic-admin")]
            self.unclean_election_due_ms
                .filter(|_| self.unclean_election_has_work()),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// After `advance` jumped over ticks that had nothing to do: each task's next tick
    /// is the first on its grid after the clock.
    pub(super) fn skip_idle_housekeeping(&mut self) {
        let now = self.clock_ms;
        let useful = self.next_useful_housekeeping_ms();
        if useful.is_some_and(|t| t <= now) {
            return;
        }
        self.next_producer_expiry_check_ms = tick_after(
            self.next_producer_expiry_check_ms,
            now,
            self.producer_expiry_interval_ms(),
        );
        self.next_txn_id_expiration_ms = tick_after(
            self.next_txn_id_expiration_ms,
            now,
            self.txn_id_expiration_interval_ms(),
        );
        self.next_retention_check_ms = tick_after(
            self.next_retention_check_ms,
            now,
            self.retention_check_interval_ms(),
        );
        self.next_log_start_checkpoint_ms = tick_after(
            self.next_log_start_checkpoint_ms,
            now,
            LOG_START_CHECKPOINT_INTERVAL_MS,
        );
        self.next_hw_checkpoint_ms =
            tick_after(self.next_hw_checkpoint_ms, now, HW_CHECKPOINT_INTERVAL_MS);
        #[cfg(feature = "topic-admin")]
        {
            let interval = self.unclean_election_check_interval_ms();
            self.unclean_election_due_ms = self
                .unclean_election_due_ms
                .map(|due| tick_after(due, now, interval));
        }
    }
}
