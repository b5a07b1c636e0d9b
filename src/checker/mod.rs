//! The invariant checker: after every step it reads what the world recorded (its
//! structured events, the consumers' delivered records) and what the brokers hold (the
//! logs, through their read API), and reports each violation once, with its witness.
//!
//! Two families (see [`Anomaly`]): what clients saw, in the words of Jepsen's Kafka
//! checker (`jepsen/src/jepsen/tests/kafka.clj`, jepsen-io/jepsen commit `c4c7473`), and
//! what brokers must hold, Kafka's own invariants (apache/kafka commit `1eb7644`, Kafka
//! 4.0's `UnifiedLog`, `ProducerStateManager`, `TransactionCoordinator`).
//!
//! Jepsen checks a whole history once at the end; here most checks run as the history
//! grows, so a violation is reported at the step that made it visible and a replay of
//! that many steps shows it. The end-of-run checks (`unseen`, the read-based
//! `lost-write`, consume-transform-produce's end-to-end exactly-once) run in
//! [`Checker::finish`].
//!
//! Values are assumed unique per send, as Jepsen's workloads make them: a value sent
//! twice by the application may legitimately sit at two offsets, so `duplicate` counts
//! copies beyond the number of times the value was sent.

pub mod anomaly;
mod brokers;
pub mod chaos;

mod clients;
mod ctp;
pub mod findings;
pub mod oracle;
pub mod progress;
pub mod replay;
pub mod shrink;
mod unclean;
pub mod witness;

use std::collections::{BTreeMap, BTreeSet};

pub use anomaly::{Anomaly, Violation};
use oracle::PartitionRecords;

use crate::i18n::Lang;
use crate::log::TopicPartition;
use crate::scenario::Watch;
use crate::sim::World;

/// A checker over one run: feed it the world after each step.
#[derive(Clone, Debug, Default)]
pub struct Checker {
    events_seen: usize,
    violations: Vec<Violation>,
    /// Findings Kafka allows after an unclean election (see [`Checker::expected`]).
    expected: Vec<Violation>,
    reported: BTreeSet<anomaly::FindingKey>,
    clients: clients::ClientHistory,
    brokers: brokers::BrokerHistory,
    unclean: unclean::UncleanElections,
    /// Each online replica's records, rebuilt when its log end moves.
    replicas: BTreeMap<(i32, TopicPartition), PartitionRecords>,
}

/// What one check sees: the world, where the run is, and where findings go.
pub(crate) struct Ctx<'a> {
    pub world: &'a World,
    pub step: usize,
    pub replicas: &'a BTreeMap<(i32, TopicPartition), PartitionRecords>,
    /// Each partition's unclean elections and where they truncated.
    pub unclean: &'a unclean::UncleanElections,
    pub found: Vec<Violation>,
    /// Findings explained by an unclean election: kept apart from `found`.
    pub expected: Vec<Violation>,
}

impl<'a> Ctx<'a> {
    /// The partition's records on its leader (borrowed from the replicas, not from the
    /// context, so findings can be pushed while they are read).
    pub fn leader_records(&self, tp: &TopicPartition) -> Option<&'a PartitionRecords> {
        let leader = self.world.leader_of(tp)?;
        self.replicas.get(&(leader, tp.clone()))
    }

    /// Starts a finding at this step and time.
    pub fn violation(&self, anomaly: Anomaly, tp: Option<&TopicPartition>) -> Violation {
        Violation {
            anomaly,
            tp: tp.cloned(),
            who: None,
            values: Vec::new(),
            offsets: Vec::new(),
            events: Vec::new(),
            step: self.step,
            at_ms: self.world.clock_ms(),
            numbers: Vec::new(),
        }
    }
}

/// A checker for a scenario run: what [`Runner::watched`](crate::scenario::Runner::watched)
/// and `scenario::golden::check_with` take to run `check` steps.
pub fn watch() -> Box<dyn Watch> {
    Box::new(Checker::new())
}

impl Watch for Checker {
    fn observe(&mut self, world: &World, step: usize) {
        Checker::observe(self, world, step);
    }
    fn finish(&mut self, world: &World, step: usize) {
        Checker::finish(self, world, step);
    }
    fn verdict(&self, lang: Lang) -> Vec<String> {
        let mut lines: Vec<String> = match self.violations() {
            [] => vec![crate::i18n::checker::no_violations(lang)],
            found => found.iter().map(|v| v.line(lang)).collect(),
        };
        lines.extend(self.expected().iter().map(|v| v.expected_line(lang)));
        lines
    }
    fn clone_box(&self) -> Box<dyn Watch> {
        Box::new(self.clone())
    }
}

impl Checker {
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Every violation found so far, in the order found.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// What Kafka allows after an unclean election, found so far: an acknowledged
    /// record the out-of-sync leader never had is truncated from every replica, and
    /// its offset may hold another record later. Each is the finding it would be
    /// otherwise (`lost-write`, `inconsistent-offsets`, `nonmonotonic-send`), kept
    /// apart as Jepsen's Kafka checker keeps its `allowed-error-types` out of
    /// `bad-error-types` (jepsen-io/jepsen `kafka.clj`, commit `c4c7473`). Narrow: only
    /// for a record sent before an unclean election of its partition, at or past the
    /// new leader's log end at that election (`unclean_from` in the witness).
    pub fn expected(&self) -> &[Violation] {
        &self.expected
    }

    /// Checks what changed since the last call. `step` is how many scenario steps have
    /// run (replaying that many shows what is found now). Returns the new violations.
    pub fn observe(&mut self, world: &World, step: usize) -> &[Violation] {
        self.refresh_replicas(world);
        let new_events = world.events().get(self.events_seen..).unwrap_or_default();
        for event in new_events {
            self.unclean.on_event(world, event);
        }
        let mut ctx = Ctx {
            world,
            step,
            replicas: &self.replicas,
            unclean: &self.unclean,
            found: Vec::new(),
            expected: Vec::new(),
        };
        for event in new_events {
            self.clients.on_event(&mut ctx, event);
            self.brokers.on_event(&mut ctx, event);
        }
        self.events_seen = world.events().len();
        self.clients.after_events(&mut ctx);
        self.brokers.after_events(&mut ctx);
        let found = std::mem::take(&mut ctx.found);
        let expected = std::mem::take(&mut ctx.expected);
        self.record_expected(expected);
        self.record(found)
    }

    /// The end-of-run checks (`unseen`, `lost-write` by reads), after a last
    /// [`observe`](Self::observe). Consumers should have polled to the end first, as
    /// Jepsen's final polls do.
    pub fn finish(&mut self, world: &World, step: usize) -> &[Violation] {
        self.observe(world, step);
        let mut ctx = Ctx {
            world,
            step,
            replicas: &self.replicas,
            unclean: &self.unclean,
            found: Vec::new(),
            expected: Vec::new(),
        };
        self.clients.finish(&mut ctx);
        let (clients, elections) = (&self.clients, &self.unclean);
        ctp::finish(&mut ctx, &|tp, offsets, value| {
            clients.ctp_truncated(elections, tp, offsets, value)
        });
        let found = std::mem::take(&mut ctx.found);
        let expected = std::mem::take(&mut ctx.expected);
        self.record_expected(expected);
        self.record(found)
    }

    fn record_expected(&mut self, expected: Vec<Violation>) {
        for v in expected {
            if self.reported.insert(v.key()) {
                self.expected.push(v);
            }
        }
    }

    fn record(&mut self, found: Vec<Violation>) -> &[Violation] {
        let start = self.violations.len();
        for v in found {
            if self.reported.insert(v.key()) {
                self.violations.push(v);
            }
        }
        self.violations.get(start..).unwrap_or_default()
    }

    fn refresh_replicas(&mut self, world: &World) {
        let mut live = BTreeSet::new();
        for (id, broker) in world.brokers() {
            if !broker.is_online() {
                continue;
            }
            for (tp, log) in broker.logs() {
                if tp.topic.starts_with("__") {
                    continue;
                }
                let key = (*id, tp.clone());
                live.insert(key.clone());
                // A follower truncated and refilled to the same end within one step
                // (an unclean election's loser) shows as a new leader-epoch entry.
                let stale = self.replicas.get(&key).is_none_or(|r| {
                    r.log_end_offset != log.log_end_offset()
                        || r.log_start_offset != log.log_start_offset()
                        || r.latest_epoch != log.epochs().last().copied()
                });
                if stale {
                    match self.replicas.get_mut(&key) {
                        Some(r) => r.refresh(log, &broker.fs),
                        None => {
                            self.replicas
                                .insert(key, PartitionRecords::read(log, &broker.fs));
                        }
                    }
                } else if let Some(r) = self.replicas.get_mut(&key) {
                    r.high_watermark = log.high_watermark();
                }
            }
        }
        self.replicas.retain(|k, _| live.contains(k));
    }
}

#[cfg(test)]
mod tests;
