//! The coordinator's side of each command (`TransactionMetadataStoreService`): every
//! change is logged first (steps x.2 and x.3 are the log write and its result), the
//! end of a transaction runs COMMITTING/ABORTING → markers to every partition and
//! subscription → COMMITTED/ABORTED → the client's answer, and a new coordinator
//! replays its log and finishes what was ending (`TransactionRecoverTracker`).

use super::coordinator::{CoordinatorError, LogWrite, TransactionMetadataOp};
use super::event::PulsarEventKind;
use super::world::EndOp;
use super::{
    Command, MLTransactionMetadataStore, PulsarError, PulsarStepError, PulsarWorld,
    TransactionCoordinatorID, TransactionSubscription, TxnID, TxnStatus,
};
use crate::sim::Node;

/// The timeout tracker's tick (`TransactionTimeoutTrackerFactoryImpl.tickTimeMillis`,
/// a `HashedWheelTimer` of 1 ms ticks).
pub const TIMEOUT_TRACKER_TICK_MS: i64 = 1;

fn error(e: CoordinatorError) -> PulsarError {
    match e {
        CoordinatorError::TransactionNotFound => PulsarError::TransactionNotFoundException,
        CoordinatorError::InvalidTxnStatus { .. } => PulsarError::InvalidTxnStatusException,
    }
}

impl PulsarWorld {
    /// Records a log write as two timeline events: the append and its result.
    fn logged(&mut self, tc: u64, w: &LogWrite, steps: (&'static str, &'static str)) {
        let new_status = match &w.entry.op {
            TransactionMetadataOp::Update { new, .. } => Some(*new),
            TransactionMetadataOp::New { .. } => Some(TxnStatus::Open),
            _ => None,
        };
        let kind = PulsarEventKind::TxnLogAppend {
            tc,
            txn: w.entry.txn,
            op: w.entry.op.name(),
            new_status,
        };
        self.emit(Some(steps.0), kind);
        let kind = PulsarEventKind::TxnLogPersisted {
            tc,
            position: w.position,
        };
        self.emit(Some(steps.1), kind);
    }

    fn refused(&mut self, tc: u64, txn: Option<TxnID>, e: PulsarError) -> PulsarError {
        self.emit(
            None,
            PulsarEventKind::CoordinatorRefused { tc, txn, error: e },
        );
        e
    }

    pub(super) fn tc_new_txn(&mut self, tc: u64, ttl: i64) -> Result<TxnID, PulsarError> {
        let now = self.clock_ms();
        let Some(c) = self.coordinators.get_mut(tc as usize) else {
            return Err(self.refused(tc, None, PulsarError::CoordinatorNotFoundException));
        };
        let Some(store) = c.store.as_mut() else {
            return Err(self.refused(tc, None, PulsarError::CoordinatorNotFoundException));
        };
        let w = store.new_transaction(&mut c.log, ttl, now);
        self.logged(tc, &w, ("1.2", "1.3"));
        let txn = w.entry.txn;
        // `TransactionTimeoutTrackerImpl.addTransaction`: a timeout shorter than the
        // tracker's tick is not scheduled; the transaction is ended for timeout at once
        // (the client still gets its TxnID).
        if ttl < TIMEOUT_TRACKER_TICK_MS {
            self.emit(None, PulsarEventKind::TxnTimedOut { tc, txn });
            // A refusal is already on the timeline (CoordinatorRefused).
            let _ = self.tc_end_txn(txn, false, false);
        }
        Ok(txn)
    }

    /// `updateTxnStatus` asked directly: logged when allowed, else refused.
    pub(super) fn tc_update_status(
        &mut self,
        txn: TxnID,
        new: TxnStatus,
        expected: TxnStatus,
    ) -> Result<(), PulsarError> {
        let tc = txn.most_sig_bits();
        let now = self.clock_ms();
        let Some(c) = self.coordinators.get_mut(tc as usize) else {
            return Err(self.refused(tc, Some(txn), PulsarError::CoordinatorNotFoundException));
        };
        let Some(store) = c.store.as_mut() else {
            return Err(self.refused(tc, Some(txn), PulsarError::CoordinatorNotFoundException));
        };
        match store.update_txn_status(&mut c.log, txn, new, expected, now) {
            Ok(Some(w)) => {
                self.logged(tc, &w, ("4.1.2", "4.1.3"));
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(e) => Err(self.refused(tc, Some(txn), error(e))),
        }
    }

    /// ADD_PARTITION (`Ok`) or ADD_SUBSCRIPTION (`Err`), logged first.
    pub(super) fn tc_add(
        &mut self,
        txn: TxnID,
        what: Result<Vec<String>, Vec<TransactionSubscription>>,
    ) -> Result<(), PulsarError> {
        let tc = txn.most_sig_bits();
        let now = self.clock_ms();
        let (op, steps) = match what {
            Ok(partitions) => (
                TransactionMetadataOp::AddPartition { partitions },
                ("2.1.2", "2.1.3"),
            ),
            Err(subscriptions) => (
                TransactionMetadataOp::AddSubscription { subscriptions },
                ("3.1.2", "3.1.3"),
            ),
        };
        let Some(c) = self.coordinators.get_mut(tc as usize) else {
            return Err(self.refused(tc, Some(txn), PulsarError::CoordinatorNotFoundException));
        };
        let Some(store) = c.store.as_mut() else {
            return Err(self.refused(tc, Some(txn), PulsarError::CoordinatorNotFoundException));
        };
        match store.add_to_txn(&mut c.log, txn, op, now) {
            Ok(w) => {
                self.logged(tc, &w, steps);
                Ok(())
            }
            Err((w, e)) => {
                if let Some(w) = w {
                    self.logged(tc, &w, steps);
                }
                Err(self.refused(tc, Some(txn), error(e)))
            }
        }
    }

    /// `endTransaction`: OPEN → COMMITTING/ABORTING is logged (4.1.2, 4.1.3), then the
    /// markers go out (4.2.1). An end already under way the same way goes on; the
    /// other way is InvalidTxnStatusException. `reply`: a client waits for the answer.
    pub(super) fn tc_end_txn(
        &mut self,
        txn: TxnID,
        commit: bool,
        reply: bool,
    ) -> Result<(), PulsarError> {
        let tc = txn.most_sig_bits();
        let now = self.clock_ms();
        let ending = if commit {
            TxnStatus::Committing
        } else {
            TxnStatus::Aborting
        };
        let Some(c) = self.coordinators.get_mut(tc as usize) else {
            return Err(self.refused(tc, Some(txn), PulsarError::CoordinatorNotFoundException));
        };
        let Some(store) = c.store.as_mut() else {
            return Err(self.refused(tc, Some(txn), PulsarError::CoordinatorNotFoundException));
        };
        let meta = match store.txn_meta(txn) {
            Ok(m) => m.clone(),
            Err(e) => return Err(self.refused(tc, Some(txn), error(e))),
        };
        match meta.status {
            TxnStatus::Open => {
                match store.update_txn_status(&mut c.log, txn, ending, TxnStatus::Open, now) {
                    Ok(Some(w)) => self.logged(tc, &w, ("4.1.2", "4.1.3")),
                    Ok(None) => {}
                    Err(e) => return Err(self.refused(tc, Some(txn), error(e))),
                }
            }
            s if s == ending => {
                // Under way: the client (again) waits for it.
                if let Some(op) = c.ends.get_mut(&txn) {
                    op.reply |= reply;
                    return Ok(());
                }
            }
            _ => {
                return Err(self.refused(tc, Some(txn), PulsarError::InvalidTxnStatusException));
            }
        }
        self.start_end(
            tc,
            txn,
            commit,
            reply,
            meta.produced_partitions,
            meta.acked_partitions,
        );
        Ok(())
    }

    /// 4.2.1: EndTxnOnSubscription and EndTxnOnPartition to every one at once.
    fn start_end(
        &mut self,
        tc: u64,
        txn: TxnID,
        commit: bool,
        reply: bool,
        partitions: std::collections::BTreeSet<String>,
        subscriptions: std::collections::BTreeSet<TransactionSubscription>,
    ) {
        let from = Node::Broker(self.tc_broker(tc));
        // `getLowWaterMark`, read while this transaction is still in the map.
        let low_water_mark = self
            .coordinators
            .get(tc as usize)
            .and_then(|c| c.store.as_ref())
            .map_or(0, |s| s.low_water_mark());
        if let Some(c) = self.coordinators.get_mut(tc as usize) {
            c.ends.insert(
                txn,
                EndOp {
                    commit,
                    reply,
                    partitions: partitions.clone(),
                    subscriptions: subscriptions.clone(),
                },
            );
        }
        for subscription in subscriptions {
            let to = Node::Broker(self.topic_broker(&subscription.topic));
            let body = Command::EndTxnOnSubscription {
                txn,
                subscription,
                commit,
                low_water_mark,
            };
            self.send(from.clone(), to, body, Some("4.2.1"));
        }
        for topic in partitions {
            let to = Node::Broker(self.topic_broker(&topic));
            let body = Command::EndTxnOnPartition {
                txn,
                topic,
                commit,
                low_water_mark,
            };
            self.send(from.clone(), to, body, Some("4.2.1"));
        }
        self.tc_maybe_finish(tc, txn);
    }

    /// A partition (`Ok`) or subscription (`Err`) finished its part of an end.
    pub(super) fn tc_end_answered(
        &mut self,
        txn: TxnID,
        who: Result<String, TransactionSubscription>,
    ) {
        let tc = txn.most_sig_bits();
        let Some(op) = self
            .coordinators
            .get_mut(tc as usize)
            .and_then(|c| c.ends.get_mut(&txn))
        else {
            return; // an answer to a coordinator that has since crashed
        };
        match who {
            Ok(topic) => op.partitions.remove(&topic),
            Err(sub) => op.subscriptions.remove(&sub),
        };
        self.tc_maybe_finish(tc, txn);
    }

    /// 4.3.1 … 4.3.3 once every partition and subscription answered.
    fn tc_maybe_finish(&mut self, tc: u64, txn: TxnID) {
        let now = self.clock_ms();
        let Some(c) = self.coordinators.get_mut(tc as usize) else {
            return;
        };
        let Some(op) = c.ends.get(&txn) else { return };
        if !op.partitions.is_empty() || !op.subscriptions.is_empty() {
            return;
        }
        let Some(op) = c.ends.remove(&txn) else {
            return;
        };
        let Some(store) = c.store.as_mut() else {
            return;
        };
        let (from, to) = if op.commit {
            (TxnStatus::Committing, TxnStatus::Committed)
        } else {
            (TxnStatus::Aborting, TxnStatus::Aborted)
        };
        let result = match store.update_txn_status(&mut c.log, txn, to, from, now) {
            Ok(Some(w)) => {
                self.logged(tc, &w, ("4.3.1", "4.3.2"));
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(e) => Err(error(e)),
        };
        if op.reply {
            let broker = self.tc_broker(tc);
            let to = Node::Client(super::world::TXN_CLIENT.to_string());
            self.send(
                Node::Broker(broker),
                to,
                Command::EndTxnResponse { txn, result },
                Some("4.3.3"),
            );
        }
    }

    /// The coordinator's memory is gone; its log stays. Commands of its ends still on
    /// the wire (or held) die with its connections.
    pub(super) fn crash_coordinator(&mut self, tc: u64) -> Result<(), PulsarStepError> {
        let c = self
            .coordinators
            .get_mut(tc as usize)
            .ok_or(PulsarStepError::CoordinatorNotFound { tc })?;
        let lost = c.store.take().map_or(0, |s| s.txns().count());
        c.ends.clear();
        c.loading_until = None;
        self.net.drop_where(|body| match body {
            Command::EndTxnOnPartition { txn, .. }
            | Command::EndTxnOnSubscription { txn, .. }
            | Command::EndTxnOnPartitionResponse { txn, .. }
            | Command::EndTxnOnSubscriptionResponse { txn, .. } => txn.most_sig_bits() == tc,
            _ => false,
        });
        self.emit(None, PulsarEventKind::CoordinatorCrashed { tc, lost });
        Ok(())
    }

    /// Starts loading the coordinator (`handleTcClientConnect`): it answers
    /// TransactionCoordinatorNotFound until the store is Ready, `replay_ms` later.
    pub(super) fn recover_coordinator(
        &mut self,
        tc: u64,
        replay_ms: i64,
    ) -> Result<(), PulsarStepError> {
        if !self.config().transaction_coordinator_enabled {
            return Err(PulsarStepError::CoordinatorDisabled);
        }
        let now = self.clock_ms();
        let c = self
            .coordinators
            .get_mut(tc as usize)
            .ok_or(PulsarStepError::CoordinatorNotFound { tc })?;
        if c.store.is_some() {
            return Err(PulsarStepError::CoordinatorRunning { tc });
        }
        if c.loading_until.is_some() {
            return Err(PulsarStepError::CoordinatorLoading { tc });
        }
        if replay_ms == 0 {
            c.loading_until = Some(now);
            self.finish_coordinator_load(tc);
        } else {
            c.loading_until = Some(now.saturating_add(replay_ms));
            self.emit(
                None,
                PulsarEventKind::CoordinatorLoading { tc, ms: replay_ms },
            );
        }
        Ok(())
    }

    /// Replays the transaction log; ends that were under way are finished.
    pub(super) fn finish_coordinator_load(&mut self, tc: u64) {
        let Some(c) = self.coordinators.get_mut(tc as usize) else {
            return;
        };
        if c.loading_until.take().is_none() {
            return;
        }
        let store = MLTransactionMetadataStore::recover(TransactionCoordinatorID(tc), &c.log);
        let log_entries = c
            .log
            .entries()
            .iter()
            .filter(|(p, _)| !c.log.is_deleted(*p))
            .count();
        let txns: Vec<_> = store.txns().map(|m| (m.id, m.status)).collect();
        let ending: Vec<_> = store
            .txns()
            .filter(|m| matches!(m.status, TxnStatus::Committing | TxnStatus::Aborting))
            .map(|m| {
                (
                    m.id,
                    m.status == TxnStatus::Committing,
                    m.produced_partitions.clone(),
                    m.acked_partitions.clone(),
                )
            })
            .collect();
        c.store = Some(store);
        self.emit(
            None,
            PulsarEventKind::CoordinatorRecovered {
                tc,
                txns,
                log_entries,
            },
        );
        for (txn, commit, partitions, subscriptions) in ending {
            self.start_end(tc, txn, commit, false, partitions, subscriptions);
        }
        self.settle();
    }
}
