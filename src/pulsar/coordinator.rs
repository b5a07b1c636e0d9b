//! The transaction coordinator's store and its transaction log
//! (`MLTransactionMetadataStore`, `MLTransactionLogImpl`, `TxnMetaImpl`,
//! `TransactionUtil.canTransitionTo`; Pulsar commit 30dd4f34 of
//! MLTransactionMetadataStore, `MLTransactionSequenceIdGenerator` at 02b18f6c).
//!
//! Every change is appended to the log (`TransactionMetadataEntry`: NEW,
//! ADD_PARTITION, ADD_SUBSCRIPTION, UPDATE) before it takes effect in memory; the log
//! holds statuses and the partitions and subscriptions, never messages. When a
//! transaction reaches COMMITTED or ABORTED its log positions are deleted and it leaves
//! the map. A new coordinator replays the log (positions not deleted) to rebuild the
//! map and the counter.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{Position, TransactionCoordinatorID, TxnID};

/// `TxnStatus` (PulsarTransactionMetadata.proto). The coordinator has no TIME_OUT: a
/// timeout ends the transaction as an abort (TIME_OUT is the client's state).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TxnStatus {
    Open,
    Committing,
    Committed,
    Aborting,
    Aborted,
}

impl TxnStatus {
    pub fn name(self) -> &'static str {
        match self {
            TxnStatus::Open => "OPEN",
            TxnStatus::Committing => "COMMITTING",
            TxnStatus::Committed => "COMMITTED",
            TxnStatus::Aborting => "ABORTING",
            TxnStatus::Aborted => "ABORTED",
        }
    }
    pub fn parse(s: &str) -> Option<TxnStatus> {
        use TxnStatus::*;
        [Open, Committing, Committed, Aborting, Aborted]
            .into_iter()
            .find(|t| t.name() == s)
    }
    /// `TransactionUtil.canTransitionTo`.
    pub fn can_transition_to(self, new: TxnStatus) -> bool {
        use TxnStatus::*;
        match self {
            Open => new != Committed && new != Aborted,
            Committing => matches!(new, Committing | Committed),
            Committed => new == Committed,
            Aborting => matches!(new, Aborting | Aborted),
            Aborted => new == Aborted,
        }
    }
}

/// A subscription acknowledged in a transaction (`TransactionSubscription`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TransactionSubscription {
    pub topic: String,
    pub subscription: String,
}

/// `TransactionMetadataOp`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransactionMetadataOp {
    New {
        timeout_ms: i64,
        start_time: i64,
    },
    AddPartition {
        partitions: Vec<String>,
    },
    AddSubscription {
        subscriptions: Vec<TransactionSubscription>,
    },
    Update {
        expected: TxnStatus,
        new: TxnStatus,
    },
}

impl TransactionMetadataOp {
    pub fn name(&self) -> &'static str {
        match self {
            TransactionMetadataOp::New { .. } => "NEW",
            TransactionMetadataOp::AddPartition { .. } => "ADD_PARTITION",
            TransactionMetadataOp::AddSubscription { .. } => "ADD_SUBSCRIPTION",
            TransactionMetadataOp::Update { .. } => "UPDATE",
        }
    }
}

/// One record of the transaction log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionMetadataEntry {
    pub txn: TxnID,
    pub op: TransactionMetadataOp,
    pub last_modification_time: i64,
}

/// The transaction log of one coordinator: a managed ledger on the system topic
/// `__transaction_log_N`. It lives in BookKeeper, so a coordinator crash keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionLog {
    topic: String,
    ledger_id: i64,
    entries: Vec<(Position, TransactionMetadataEntry)>,
    deleted: BTreeSet<Position>,
    /// The highest counter ever logged (`MLTransactionSequenceIdGenerator` keeps it in
    /// the ledger's properties), so ids are never reused after completed transactions'
    /// records are deleted. `None` is Pulsar's `TC_ID_NOT_USED` (-1): nothing handed out.
    max_local_txn_id: Option<u64>,
}

impl TransactionLog {
    pub fn new(tc: TransactionCoordinatorID, ledger_id: i64) -> TransactionLog {
        TransactionLog {
            topic: format!("__transaction_log_{}", tc.0),
            ledger_id,
            entries: Vec::new(),
            deleted: BTreeSet::new(),
            max_local_txn_id: None,
        }
    }
    pub fn topic(&self) -> &str {
        &self.topic
    }
    pub fn entries(&self) -> &[(Position, TransactionMetadataEntry)] {
        &self.entries
    }
    pub fn is_deleted(&self, p: Position) -> bool {
        self.deleted.contains(&p)
    }
    fn append(&mut self, entry: TransactionMetadataEntry) -> Position {
        let p = Position::new(self.ledger_id, self.entries.len() as i64);
        let least = entry.txn.least_sig_bits();
        self.max_local_txn_id = Some(self.max_local_txn_id.map_or(least, |m| m.max(least)));
        self.entries.push((p, entry));
        p
    }
    fn delete_positions(&mut self, ps: &[Position]) {
        self.deleted.extend(ps.iter().copied());
    }
}

/// A transaction as the coordinator knows it (`TxnMetaImpl`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxnMeta {
    pub id: TxnID,
    pub status: TxnStatus,
    pub produced_partitions: BTreeSet<String>,
    pub acked_partitions: BTreeSet<TransactionSubscription>,
    pub open_timestamp: i64,
    pub timeout_at: i64,
    /// Log positions of this transaction, deleted when it completes.
    positions: Vec<Position>,
}

/// Why the store refused (`CoordinatorException` subclasses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoordinatorError {
    TransactionNotFound,
    InvalidTxnStatus {
        current: TxnStatus,
        expected: TxnStatus,
    },
}

/// What one log write did, for the events: the record and its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogWrite {
    pub position: Position,
    pub entry: TransactionMetadataEntry,
}

/// `MLTransactionMetadataStore`: the coordinator's memory (rebuilt from the log).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MLTransactionMetadataStore {
    tc_id: TransactionCoordinatorID,
    /// The last counter handed out; `None` before the first (Pulsar starts the
    /// `AtomicLong` at -1 and hands out `incrementAndGet()`, so the first id is `(tc,0)`).
    sequence_id: Option<u64>,
    txn_meta_map: BTreeMap<u64, TxnMeta>,
}

impl MLTransactionMetadataStore {
    /// Replays the log (`replayAsync` + `handleMetadataEntry`).
    pub fn recover(tc_id: TransactionCoordinatorID, log: &TransactionLog) -> Self {
        let mut store = MLTransactionMetadataStore {
            tc_id,
            sequence_id: log.max_local_txn_id,
            txn_meta_map: BTreeMap::new(),
        };
        for (p, e) in log.entries.iter().filter(|(p, _)| !log.is_deleted(*p)) {
            let least = e.txn.least_sig_bits();
            match &e.op {
                TransactionMetadataOp::New {
                    timeout_ms,
                    start_time,
                } => {
                    store.txn_meta_map.entry(least).or_insert_with(|| TxnMeta {
                        id: e.txn,
                        status: TxnStatus::Open,
                        produced_partitions: BTreeSet::new(),
                        acked_partitions: BTreeSet::new(),
                        open_timestamp: *start_time,
                        timeout_at: start_time.saturating_add(*timeout_ms),
                        positions: Vec::new(),
                    });
                }
                op => {
                    let Some(meta) = store.txn_meta_map.get_mut(&least) else {
                        continue;
                    };
                    match op {
                        TransactionMetadataOp::AddPartition { partitions } => {
                            meta.produced_partitions.extend(partitions.iter().cloned())
                        }
                        TransactionMetadataOp::AddSubscription { subscriptions } => {
                            meta.acked_partitions.extend(subscriptions.iter().cloned())
                        }
                        TransactionMetadataOp::Update { new, .. } => meta.status = *new,
                        TransactionMetadataOp::New { .. } => {}
                    }
                }
            }
            if let Some(meta) = store.txn_meta_map.get_mut(&least) {
                meta.positions.push(*p);
            }
        }
        // A completed transaction's positions are deleted with it; drop any left over.
        store
            .txn_meta_map
            .retain(|_, m| !matches!(m.status, TxnStatus::Committed | TxnStatus::Aborted));
        store
    }

    pub fn tc_id(&self) -> TransactionCoordinatorID {
        self.tc_id
    }
    pub fn txns(&self) -> impl Iterator<Item = &TxnMeta> {
        self.txn_meta_map.values()
    }
    pub fn txn_meta(&self, txn: TxnID) -> Result<&TxnMeta, CoordinatorError> {
        self.txn_meta_map
            .get(&txn.least_sig_bits())
            .filter(|m| m.id == txn)
            .ok_or(CoordinatorError::TransactionNotFound)
    }

    /// `newTransaction`: NEW is logged, then the id is handed out.
    pub fn new_transaction(
        &mut self,
        log: &mut TransactionLog,
        timeout_ms: i64,
        now: i64,
    ) -> LogWrite {
        let least = self.sequence_id.map_or(0, |s| s.saturating_add(1));
        self.sequence_id = Some(least);
        let txn = TxnID::new(self.tc_id.0, least);
        let entry = TransactionMetadataEntry {
            txn,
            op: TransactionMetadataOp::New {
                timeout_ms,
                start_time: now,
            },
            last_modification_time: now,
        };
        let position = log.append(entry.clone());
        self.txn_meta_map.insert(
            least,
            TxnMeta {
                id: txn,
                status: TxnStatus::Open,
                produced_partitions: BTreeSet::new(),
                acked_partitions: BTreeSet::new(),
                open_timestamp: now,
                timeout_at: now.saturating_add(timeout_ms),
                positions: vec![position],
            },
        );
        LogWrite { position, entry }
    }

    /// `addProducedPartitionToTxn` / `addAckedPartitionToTxn`: logged first; a
    /// transaction no longer OPEN refuses (`InvalidTxnStatusException`) and the record
    /// is deleted again.
    pub fn add_to_txn(
        &mut self,
        log: &mut TransactionLog,
        txn: TxnID,
        op: TransactionMetadataOp,
        now: i64,
    ) -> Result<LogWrite, (Option<LogWrite>, CoordinatorError)> {
        let status = self.txn_meta(txn).map_err(|e| (None, e))?.status;
        let entry = TransactionMetadataEntry {
            txn,
            op,
            last_modification_time: now,
        };
        let position = log.append(entry.clone());
        let write = LogWrite { position, entry };
        if status != TxnStatus::Open {
            log.delete_positions(&[position]);
            let e = CoordinatorError::InvalidTxnStatus {
                current: status,
                expected: TxnStatus::Open,
            };
            return Err((Some(write), e));
        }
        let Some(meta) = self.txn_meta_map.get_mut(&txn.least_sig_bits()) else {
            return Err((Some(write), CoordinatorError::TransactionNotFound));
        };
        match &write.entry.op {
            TransactionMetadataOp::AddPartition { partitions } => {
                meta.produced_partitions.extend(partitions.iter().cloned())
            }
            TransactionMetadataOp::AddSubscription { subscriptions } => {
                meta.acked_partitions.extend(subscriptions.iter().cloned())
            }
            _ => {}
        }
        meta.positions.push(position);
        Ok(write)
    }

    /// `updateTxnStatus`: the same status again is a no-op (`None`); otherwise the
    /// expected status must hold and the transition be allowed. COMMITTED and ABORTED
    /// delete the transaction's log positions and forget it.
    pub fn update_txn_status(
        &mut self,
        log: &mut TransactionLog,
        txn: TxnID,
        new: TxnStatus,
        expected: TxnStatus,
        now: i64,
    ) -> Result<Option<LogWrite>, CoordinatorError> {
        let current = self.txn_meta(txn)?.status;
        if current == new {
            return Ok(None);
        }
        if current != expected || !current.can_transition_to(new) {
            return Err(CoordinatorError::InvalidTxnStatus { current, expected });
        }
        let entry = TransactionMetadataEntry {
            txn,
            op: TransactionMetadataOp::Update { expected, new },
            last_modification_time: now,
        };
        let position = log.append(entry.clone());
        let least = txn.least_sig_bits();
        if let Some(meta) = self.txn_meta_map.get_mut(&least) {
            meta.status = new;
            meta.positions.push(position);
            if matches!(new, TxnStatus::Committed | TxnStatus::Aborted) {
                log.delete_positions(&meta.positions);
                self.txn_meta_map.remove(&least);
            }
        }
        Ok(Some(LogWrite { position, entry }))
    }

    /// `getLowWaterMark`: every transaction of this coordinator with a counter at or
    /// below it has ended (the lowest one still in the map, minus one; 0 when the map
    /// is empty). It travels with each end to the partitions and subscriptions, which
    /// use it to refuse and clean up what a zombie left behind.
    pub fn low_water_mark(&self) -> i64 {
        self.txn_meta_map
            .keys()
            .next()
            .map_or(0, |first| (*first as i64).saturating_sub(1))
    }

    /// The OPEN transactions whose timeout has passed (`TransactionTimeoutTracker`).
    pub fn timed_out(&self, now: i64) -> Vec<TxnID> {
        self.txns()
            .filter(|m| m.status == TxnStatus::Open && m.timeout_at <= now)
            .map(|m| m.id)
            .collect()
    }
    /// The next time a transaction times out.
    pub fn next_timeout(&self) -> Option<i64> {
        self.txns()
            .filter(|m| m.status == TxnStatus::Open)
            .map(|m| m.timeout_at)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_follow_transaction_util() {
        use TxnStatus::*;
        assert!(Open.can_transition_to(Committing));
        assert!(!Open.can_transition_to(Committed));
        assert!(!Committing.can_transition_to(Aborting));
        assert!(Aborting.can_transition_to(Aborted));
        assert!(!Aborted.can_transition_to(Open));
    }

    #[test]
    fn replay_rebuilds_the_map_and_the_counter_and_forgets_completed_txns() {
        let tc = TransactionCoordinatorID(1);
        let mut log = TransactionLog::new(tc, 9);
        let mut s = MLTransactionMetadataStore::recover(tc, &log);
        let t1 = s.new_transaction(&mut log, 1000, 0).entry.txn;
        let t2 = s.new_transaction(&mut log, 1000, 0).entry.txn;
        assert_eq!(
            (t1.to_string(), t2.to_string()),
            ("(1,0)".into(), "(1,1)".into()),
            "the counter starts at -1 and hands out incrementAndGet()"
        );
        assert_eq!(s.low_water_mark(), -1, "(1,0) is still open");
        let add = TransactionMetadataOp::AddPartition {
            partitions: vec!["out-partition-0".into()],
        };
        s.add_to_txn(&mut log, t1, add, 1).expect("open");
        s.update_txn_status(&mut log, t1, TxnStatus::Committing, TxnStatus::Open, 2)
            .expect("allowed");
        s.update_txn_status(&mut log, t2, TxnStatus::Aborting, TxnStatus::Open, 2)
            .expect("allowed");
        s.update_txn_status(&mut log, t2, TxnStatus::Aborted, TxnStatus::Aborting, 3)
            .expect("allowed");
        let r = MLTransactionMetadataStore::recover(tc, &log);
        assert_eq!(r, s, "replay gives the same memory");
        assert_eq!(r.txn_meta(t1).map(|m| m.status), Ok(TxnStatus::Committing));
        assert_eq!(r.txn_meta(t2), Err(CoordinatorError::TransactionNotFound));
        let mut r = r;
        let t3 = r.new_transaction(&mut log, 1000, 4).entry.txn;
        assert_eq!(t3.to_string(), "(1,2)", "the counter survives the crash");
        assert_eq!(r.low_water_mark(), -1, "(1,0) is COMMITTING, not ended");
    }

    #[test]
    fn a_wrong_expected_status_is_invalid_and_adding_after_open_is_refused() {
        let tc = TransactionCoordinatorID(0);
        let mut log = TransactionLog::new(tc, 1);
        let mut s = MLTransactionMetadataStore::recover(tc, &log);
        let t = s.new_transaction(&mut log, 1000, 0).entry.txn;
        s.update_txn_status(&mut log, t, TxnStatus::Aborting, TxnStatus::Open, 1)
            .expect("allowed");
        assert_eq!(
            s.update_txn_status(&mut log, t, TxnStatus::Committing, TxnStatus::Open, 2),
            Err(CoordinatorError::InvalidTxnStatus {
                current: TxnStatus::Aborting,
                expected: TxnStatus::Open
            })
        );
        let add = TransactionMetadataOp::AddPartition {
            partitions: vec!["x".into()],
        };
        let (write, err) = s.add_to_txn(&mut log, t, add, 3).expect_err("not open");
        let p = write.expect("logged first").position;
        assert!(log.is_deleted(p), "the refused record is deleted again");
        assert!(matches!(err, CoordinatorError::InvalidTxnStatus { .. }));
    }
}
