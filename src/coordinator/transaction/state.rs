//! The eight states of a transaction and the table of legal moves between them.
//!
//! Mirrors `org.apache.kafka.coordinator.transaction.TransactionState` (Java, Kafka
//! 4.x). The byte ids are what `__transaction_state` stores in `TransactionStatus`;
//! the names are what `kafka-transactions.sh describe` and
//! `kafka-dump-log.sh --transaction-log-decoder` print.

use serde::{Deserialize, Serialize};

/// A transaction's state in the coordinator (Kafka's `TransactionState`).
///
/// Simplified: no `isExpirationAllowed` flag use (we do not expire transactional ids
/// yet), otherwise the same ids, names and transition table. The table is the
/// 4.5 trunk one the seed quotes, where `PrepareCommit` may also follow
/// `Empty`/`CompleteCommit`/`CompleteAbort` (an empty TV2 commit), not only `Ongoing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TransactionState {
    /// No transaction yet: after InitProducerId, before the first partition is added.
    Empty,
    /// Partitions have been added; the transaction is open.
    Ongoing,
    /// EndTxn(commit) is durable; markers are being written.
    PrepareCommit,
    /// EndTxn(abort), a fence or a timeout is durable; markers are being written.
    PrepareAbort,
    /// Every partition has its COMMIT marker.
    CompleteCommit,
    /// Every partition has its ABORT marker.
    CompleteAbort,
    /// The transactional id expired and is about to be removed.
    Dead,
    /// InitProducerId arrived while `Ongoing`: the old producer is being fenced.
    /// Never written to the log; only ever a pending state.
    PrepareEpochFence,
}

use TransactionState::*;

impl TransactionState {
    /// All states, in id order.
    pub const ALL: [TransactionState; 8] = [
        Empty,
        Ongoing,
        PrepareCommit,
        PrepareAbort,
        CompleteCommit,
        CompleteAbort,
        Dead,
        PrepareEpochFence,
    ];

    /// The byte stored in `TransactionLogValue.TransactionStatus`.
    pub fn id(self) -> i8 {
        match self {
            Empty => 0,
            Ongoing => 1,
            PrepareCommit => 2,
            PrepareAbort => 3,
            CompleteCommit => 4,
            CompleteAbort => 5,
            Dead => 6,
            PrepareEpochFence => 7,
        }
    }

    /// `TransactionState.fromId`, without the exception: `None` for unknown ids.
    pub fn from_id(id: i8) -> Option<TransactionState> {
        Self::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Kafka's display name (`getName()`), e.g. `"PrepareCommit"`.
    pub fn name(self) -> &'static str {
        match self {
            Empty => "Empty",
            Ongoing => "Ongoing",
            PrepareCommit => "PrepareCommit",
            PrepareAbort => "PrepareAbort",
            CompleteCommit => "CompleteCommit",
            CompleteAbort => "CompleteAbort",
            Dead => "Dead",
            PrepareEpochFence => "PrepareEpochFence",
        }
    }

    /// `TransactionState.fromName`.
    pub fn from_name(name: &str) -> Option<TransactionState> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The states from which this state may be entered (`validPreviousStates()`).
    pub fn valid_previous_states(self) -> &'static [TransactionState] {
        match self {
            Empty => &[Empty, CompleteCommit, CompleteAbort],
            Ongoing => &[Ongoing, Empty, CompleteCommit, CompleteAbort],
            PrepareCommit => &[Ongoing, Empty, CompleteCommit, CompleteAbort],
            PrepareAbort => &[
                Ongoing,
                PrepareEpochFence,
                Empty,
                CompleteCommit,
                CompleteAbort,
            ],
            CompleteCommit => &[PrepareCommit],
            CompleteAbort => &[PrepareAbort],
            Dead => &[Empty, CompleteAbort, CompleteCommit],
            PrepareEpochFence => &[Ongoing],
        }
    }

    /// Whether `from → self` is in the table.
    pub fn can_transition_from(self, from: TransactionState) -> bool {
        self.valid_previous_states().contains(&from)
    }

    /// Prepare* states: the decision is durable and markers are on their way.
    pub fn is_prepare(self) -> bool {
        matches!(self, PrepareCommit | PrepareAbort)
    }

    /// Complete* states: the last transaction is finished.
    pub fn is_complete(self) -> bool {
        matches!(self, CompleteCommit | CompleteAbort)
    }

    /// `isExpirationAllowed`: only an id with no transaction going on may expire
    /// (Empty, CompleteCommit, CompleteAbort).
    pub fn is_expiration_allowed(self) -> bool {
        matches!(self, Empty | CompleteCommit | CompleteAbort)
    }
}

impl std::fmt::Display for TransactionState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_round_trip() {
        for s in TransactionState::ALL {
            assert_eq!(TransactionState::from_id(s.id()), Some(s));
            assert_eq!(TransactionState::from_name(s.name()), Some(s));
        }
        assert_eq!(TransactionState::from_id(8), None);
        assert_eq!(TransactionState::from_id(-1), None);
        assert_eq!(PrepareEpochFence.id(), 7);
        assert_eq!(CompleteCommit.to_string(), "CompleteCommit");
    }

    #[test]
    fn the_fence_state_is_only_left_for_prepare_abort() {
        let exits: Vec<_> = TransactionState::ALL
            .into_iter()
            .filter(|to| to.can_transition_from(PrepareEpochFence))
            .collect();
        assert_eq!(exits, vec![PrepareAbort]);
    }
}
