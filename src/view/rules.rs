//! The transaction rules in force: the cluster's finalized `transaction.version`, the
//! version its clients negotiate, `transaction.partition.verification.enable`, and
//! what each means for the four rules that differ between the versions (the table in
//! `coordinator::transaction::version`, read in Kafka 4.0, apache/kafka `1eb7644`).
//! Values only: the page words each [`RuleValue`] from the catalog.

use crate::coordinator::transaction::version::TxnFeatures;
use crate::sim::World;

/// A rule that differs between transaction versions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Who adds a partition to the transaction.
    AddPartitions,
    /// Whether EndTxn bumps the producer epoch.
    EpochPerTransaction,
    /// The epoch the markers carry.
    MarkerEpoch,
    /// What the coordinator checks on an EndTxn from the client.
    EndTxnCheck,
    /// What the partition leader checks before it appends a transactional batch.
    LeaderCheck,
}

/// How a rule is in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleValue {
    /// TV0/1: AddPartitionsToTxn from the client before its first send to a partition.
    ClientAddsPartitions,
    /// TV2: the leader adds the partition when the first batch arrives.
    LeaderAddsPartitions,
    /// TV0/1: one epoch for every transaction of a session.
    EpochKept,
    /// TV2: EndTxn bumps the epoch by one.
    EpochBumped,
    /// TV0/1: the markers carry the transaction's epoch.
    MarkerTransactionEpoch,
    /// TV2: the markers carry the bumped epoch, newer than the data they end.
    MarkerBumpedEpoch,
    /// TV0/1: `epoch == current` — a late EndTxn of the previous transaction passes.
    EndTxnSameEpoch,
    /// TV2: the same epoch while open, or `current - 1` as a retry of the last one.
    EndTxnSameEpochOrRetry,
    /// TV0/1 with verification: the leader asks the coordinator (KIP-890 part 1).
    LeaderVerifies,
    /// TV0/1 without verification: nothing is checked; a late batch can hang.
    LeaderChecksNothing,
    /// TV2: the leader adds the partition itself, with the current epoch.
    LeaderAddsItself,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesView {
    /// The cluster's finalized `transaction.version` (0, 1 or 2).
    pub cluster_version: i16,
    /// What a Kafka 4.0 client negotiates from it (2, or 0 below 2).
    pub client_version: i16,
    /// `transaction.partition.verification.enable`.
    pub verification: bool,
    /// Whether a produce delayed past an abort can open a hanging transaction.
    pub can_hang: bool,
    pub rules: Vec<(Rule, RuleValue)>,
}

/// The rules in force under `features`.
pub fn rules(features: TxnFeatures) -> RulesView {
    use RuleValue::*;
    let v2 = features.v2();
    let pick = |tv2: RuleValue, tv1: RuleValue| if v2 { tv2 } else { tv1 };
    let leader = if v2 {
        LeaderAddsItself
    } else if features.verification {
        LeaderVerifies
    } else {
        LeaderChecksNothing
    };
    RulesView {
        cluster_version: features.transaction_version.feature_level(),
        client_version: features.client_version().feature_level(),
        verification: features.verification,
        can_hang: !v2 && !features.verification,
        rules: vec![
            (
                Rule::AddPartitions,
                pick(LeaderAddsPartitions, ClientAddsPartitions),
            ),
            (Rule::EpochPerTransaction, pick(EpochBumped, EpochKept)),
            (
                Rule::MarkerEpoch,
                pick(MarkerBumpedEpoch, MarkerTransactionEpoch),
            ),
            (
                Rule::EndTxnCheck,
                pick(EndTxnSameEpochOrRetry, EndTxnSameEpoch),
            ),
            (Rule::LeaderCheck, leader),
        ],
    }
}

/// The rules in force in `world`.
pub fn rules_view(world: &World) -> RulesView {
    rules(world.txn_features())
}
