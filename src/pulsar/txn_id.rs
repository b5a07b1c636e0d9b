//! `TxnID` and `TransactionCoordinatorID` (pulsar-client-api `TxnID`,
//! pulsar-transaction `TransactionCoordinatorID`).
//!
//! The docs describe a 128-bit id whose high bits name the coordinator; the code
//! (`MLTransactionMetadataStore.newTransaction`) puts the coordinator id in
//! `mostSigBits` and the coordinator's own counter (`sequenceId.incrementAndGet()`) in
//! `leastSigBits`. The counter starts at -1 (`TC_ID_NOT_USED`), and
//! `TxnID.toString()` prints `(most,least)`, so the first transaction of coordinator 0
//! is `(0,0)`.

use serde::{Deserialize, Serialize};

/// The id of one transaction coordinator: the partition of
/// `transaction_coordinator_assign` it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TransactionCoordinatorID(pub u64);

/// A transaction's id: 64 bits of coordinator id, 64 bits of per-coordinator counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TxnID {
    most_sig_bits: u64,
    least_sig_bits: u64,
}

impl TxnID {
    pub fn new(most_sig_bits: u64, least_sig_bits: u64) -> TxnID {
        TxnID {
            most_sig_bits,
            least_sig_bits,
        }
    }
    pub fn most_sig_bits(&self) -> u64 {
        self.most_sig_bits
    }
    pub fn least_sig_bits(&self) -> u64 {
        self.least_sig_bits
    }
    /// The coordinator that owns this transaction: where a crash is looked for.
    pub fn coordinator(&self) -> TransactionCoordinatorID {
        TransactionCoordinatorID(self.most_sig_bits)
    }
    /// The 128-bit value, coordinator id in the high half.
    pub fn as_u128(&self) -> u128 {
        (u128::from(self.most_sig_bits) << 64) | u128::from(self.least_sig_bits)
    }
}

impl std::fmt::Display for TxnID {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.most_sig_bits, self.least_sig_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_pulsar_does_and_keeps_the_coordinator_in_the_high_bits() {
        let id = TxnID::new(2, 7);
        assert_eq!(id.to_string(), "(2,7)");
        assert_eq!(id.coordinator(), TransactionCoordinatorID(2));
        assert_eq!(id.as_u128() >> 64, 2);
        assert_eq!(id.as_u128() as u64, 7);
        // Ordered by coordinator, then counter: the replay order of one coordinator.
        assert!(TxnID::new(0, 9) < TxnID::new(1, 1));
    }
}
