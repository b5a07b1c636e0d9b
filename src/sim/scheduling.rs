//! What happens next: clients poll, messages are delivered, the clock jumps to the
//! next timer, and the coordinators' periodic cleanup runs.

use super::error::{SimError, SimErrorKind};
use super::event::EventKind;
use super::housekeeping::{first_tick_from, tick_after};
use super::network::{Body, Node};
use super::world::{World, MAX_STEPS_PER_RUN, MAX_WAIT_MS, TXN_CLEANUP_INTERVAL_MS};
use super::Action;
use crate::log::TopicPartition;

impl World {
    /// `step`, `run` and `run MS`; `World::apply` sends only these here.
    pub(super) fn apply_clock(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::Step => {
                self.step();
            }
            Action::RunUntilIdle => {
                self.run_until_idle();
            }
            Action::Advance { ms } => {
                if *ms < 0 {
                    return Err(SimErrorKind::TimeBackwards.into());
                }
                // An int of milliseconds (≈ 24.8 days), as Kafka's timeouts: the clock
                // stays far from overflow whatever a link asks for.
                if *ms > i64::from(i32::MAX) {
                    return Err(SimErrorKind::RunTooLong { ms: *ms }.into());
                }
                self.advance(*ms);
            }
            _ => {}
        }
        Ok(vec![])
    }

    /// Steps while `cond` holds (a blocking client call), bounded.
    /// Steps while `cond` holds and something is left to do (every blocking call and
    /// `run` go through here). At most [`MAX_STEPS_PER_RUN`] steps: when the limit rather
    /// than the work ends it, a `RunLimitReached` event says so. Returns the steps taken.
    pub(super) fn run_while(&mut self, cond: impl Fn(&World) -> bool) -> usize {
        let mut steps = 0;
        while cond(self) {
            if steps == MAX_STEPS_PER_RUN {
                let in_flight = self.network.in_flight().count();
                self.emit(EventKind::RunLimitReached {
                    steps: MAX_STEPS_PER_RUN,
                    in_flight,
                });
                break;
            }
            if !self.step() {
                break;
            }
            steps += 1;
        }
        steps
    }

    /// Lets the producers act at the current time: those touched or still making
    /// progress, and those whose timer fell due. A producer left alone since a poll that
    /// did nothing would do nothing again, so it waits for its timer. Returns whether
    /// anything happened.
    pub(super) fn poll_clients(&mut self) -> bool {
        let now = self.clock_ms;
        while let Some((t, _)) = self.wakeups.first() {
            if *t > now {
                break;
            }
            if let Some((_, name)) = self.wakeups.pop_first() {
                self.wake_of.remove(&name);
                self.ready.insert(name);
            }
        }
        if self.ready.is_empty() {
            return false;
        }
        let mut progressed = false;
        let names = std::mem::take(&mut self.ready);
        // `NetworkClient.leastLoadedNode`: a node the client can connect to — one that
        // refused the connection is in reconnect backoff and skipped (Kafka 4.0).
        let bootstrap = self
            .brokers
            .values()
            .find(|b| b.is_online())
            .or_else(|| self.brokers.values().next())
            .map_or(1, |b| b.id);
        for name in names {
            let mut cid = self.next_correlation_id;
            let Some(producer) = self.producers.get_mut(&name) else {
                continue;
            };
            // Leaders and leader epochs are looked up in the topics as asked (no
            // partition map is built per poll: the internal topics alone have 100
            // partitions). Sending below does not move a leader.
            let topics = &self.topics;
            let partition = |tp: &TopicPartition| {
                let t = topics.get(&tp.topic)?;
                Some((t, usize::try_from(tp.partition).ok()?))
            };
            producer.observe_leader_epochs(&|tp| {
                let (t, p) = partition(tp)?;
                t.registrations.get(p).map(|r| r.leader_epoch())
            });
            let leader = |tp: &TopicPartition| {
                let (t, p) = partition(tp)?;
                t.leaders.get(p).copied()
            };
            let (out, events) = producer.poll(now, bootstrap, &leader, &mut cid);
            let wake = producer.next_wakeup(now);
            self.next_correlation_id = cid;
            let acted = !out.is_empty() || !events.is_empty();
            progressed |= acted;
            if acted {
                self.ready.insert(name.clone());
            }
            if let Some(old) = self.wake_of.remove(&name) {
                self.wakeups.remove(&(old, name.clone()));
            }
            if let Some(t) = wake {
                self.wake_of.insert(name.clone(), t);
                self.wakeups.insert((t, name.clone()));
            }
            self.emit_producer_events(&name, events);
            for o in out {
                self.send(
                    Node::Client(name.clone()),
                    Node::Broker(o.broker),
                    o.correlation_id,
                    Body::Request(o.request),
                );
            }
        }
        progressed
    }

    /// The next time something is due: a message delivery or a producer timer.
    pub(super) fn next_due(&self) -> Option<i64> {
        let now = self.clock_ms;
        // Every producer was polled (and its timer set) before time may move on.
        let timers = self.wakeups.iter().map(|(t, _)| *t).find(|t| *t > now);
        // Held requests are not waiting for a retry: they wait for `release markers`.
        let retries = self
            .inter_broker
            .iter()
            .filter(|((from, tag), _)| !self.network.is_held(&Node::Broker(*from), *tag))
            .map(|(_, (_, _, deadline))| *deadline);
        // A timer further off than an int of milliseconds (a `retry.backoff.ms` of
        // Long.MAX_VALUE, say) is never: `run` stops rather than jump the clock there.
        let horizon = now.saturating_add(MAX_WAIT_MS);
        // Replication timers count while a client waits on replication (an acks=all
        // Produce); otherwise an idle cluster's fetch loop would never let `run` stop.
        let replication = match self.next_replication_ms() {
            (Some(_), timers) => timers,
            (None, _) => None,
        };
        self.network
            .next_delivery_ms()
            .into_iter()
            .chain(timers)
            .chain(retries)
            .chain(replication)
            .chain(self.next_controller_timer_ms())
            .chain(self.group_timer_ms(true))
            .chain(self.next_quorum_timer_ms())
            .filter(|t| *t <= horizon)
            .min()
    }

    /// One thing happens: clients act now, or the next message is delivered, or the
    /// clock jumps to the next timer. Returns false when there is nothing left to do.
    pub fn step(&mut self) -> bool {
        if self.poll_quorum() | self.poll_clients() | self.poll_replicas() {
            return true;
        }
        let Some(next) = self.next_due() else {
            return false;
        };
        // The periodic tasks are no reason to run on their own (an open transaction is
        // not aborted behind a learner's back), but when the clock jumps for something
        // else, a tick with work that falls due on the way runs at its own time, before
        // what comes after it: Kafka's scheduler aborts a timed-out transaction within
        // one cleanup interval, whatever else the cluster is waiting for. Asking which
        // tasks have work reads every log's checkpoint, so it is asked only when some
        // task's next tick comes before `next` (most steps are a delivery a few ms off).
        let tick = (self.next_grid_tick_ms() < next)
            .then(|| self.next_useful_tick_ms())
            .flatten()
            .filter(|t| *t < next);
        if let Some(tick) = tick {
            self.clock_ms = self.clock_ms.max(tick);
            self.run_txn_cleanup();
            self.run_housekeeping();
            return true;
        }
        self.clock_ms = self.clock_ms.max(next);
        self.run_txn_cleanup();
        self.run_housekeeping();
        self.retry_inter_broker();
        if let Some(env) = self.network.pop_due(self.clock_ms) {
            self.deliver(env);
        } else {
            self.poll_clients();
            self.poll_replicas();
        }
        true
    }

    /// Runs the cleanup once if a tick fell due (several ticks that fell due at once all
    /// see the same clock, so one call does what they would), then schedules the next
    /// tick on the same 10 s grid.
    pub(super) fn run_txn_cleanup(&mut self) {
        if self.clock_ms < self.next_txn_cleanup_ms {
            return;
        }
        self.schedule_next_cleanup_after_now();
        let now = self.clock_ms;
        let ids = self.online_brokers();
        for id in ids {
            if let Some(broker) = self.brokers.get_mut(&id) {
                let handled = broker.abort_timed_out_transactions(now);
                self.apply_handled(id, None, handled);
            }
        }
    }

    /// Moves the next cleanup tick to the first one on its 10 s grid after the clock.
    pub(super) fn schedule_next_cleanup_after_now(&mut self) {
        self.next_txn_cleanup_ms = tick_after(
            self.next_txn_cleanup_ms,
            self.clock_ms,
            TXN_CLEANUP_INTERVAL_MS,
        );
    }

    /// The first cleanup tick at which some coordinator has something to do, if any:
    /// ticks before it would find nothing, so time can jump over them.
    pub(super) fn next_useful_cleanup_ms(&self) -> Option<i64> {
        let work = self
            .brokers
            .values()
            .filter(|b| b.is_online())
            .filter_map(|b| b.next_timeout_work_ms())
            .min()?;
        Some(first_tick_from(
            self.next_txn_cleanup_ms,
            work,
            TXN_CLEANUP_INTERVAL_MS,
        ))
    }

    /// The first tick of any periodic task (the transaction cleanup or housekeeping) that
    /// has something to do.
    fn next_useful_tick_ms(&self) -> Option<i64> {
        [
            self.next_useful_cleanup_ms(),
            self.next_useful_housekeeping_ms(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The next heartbeat or group timer (with `waiting_only`, only while some member
    /// waits for a rebalance: an idle group is no reason for the clock to move).
    #[cfg(feature = "group-membership")]
    fn group_timer_ms(&self, waiting_only: bool) -> Option<i64> {
        if waiting_only && !self.group_waiting() {
            return None;
        }
        self.next_group_timer_ms()
    }

    /// No group membership in this build: no group timers.
    #[cfg(not(feature = "group-membership"))]
    fn group_timer_ms(&self, _waiting_only: bool) -> Option<i64> {
        None
    }

    /// Steps until nothing is left (bounded by [`MAX_STEPS_PER_RUN`]). Returns the steps taken.
    pub fn run_until_idle(&mut self) -> usize {
        self.run_while(|_| true)
    }

    /// Moves the clock forward by `ms`, doing everything that falls due on the way: it
    /// jumps from one due thing to the next (a delivery, a client timer, a cleanup tick
    /// that has a transaction to abort), so a long quiet stretch costs nothing. Returns
    /// the steps taken.
    pub fn advance(&mut self, ms: i64) -> usize {
        let until = self.clock_ms.saturating_add(ms);
        let mut steps = 0;
        while steps < MAX_STEPS_PER_RUN {
            if self.poll_quorum() | self.poll_clients() | self.poll_replicas() {
                steps += 1;
                continue;
            }
            // Time passing runs replication's own timers too (held fetches expire,
            // the ISR check, a follower's backoff).
            let due = [
                self.next_due(),
                self.next_useful_tick_ms(),
                self.next_replication_ms().1,
                self.group_timer_ms(false),
            ]
            .into_iter()
            .flatten()
            .min();
            let Some(due) = due else {
                break;
            };
            if due > until {
                break;
            }
            self.clock_ms = self.clock_ms.max(due);
            self.run_txn_cleanup();
            self.run_housekeeping();
            // An inter-broker request lost to a fault is sent again here too, as `step`
            // does (its deadline is among `next_due`'s times).
            self.retry_inter_broker();
            if let Some(env) = self.network.pop_due(self.clock_ms) {
                self.deliver(env);
            }
            steps += 1;
        }
        self.clock_ms = self.clock_ms.max(until);
        // Ticks passed over found nothing to do; the next one is on the grid after now.
        if self.clock_ms >= self.next_txn_cleanup_ms
            && self
                .next_useful_cleanup_ms()
                .is_none_or(|t| t > self.clock_ms)
        {
            self.schedule_next_cleanup_after_now();
        }
        self.skip_idle_housekeeping();
        steps
    }
}
