//! The rules that differ between `transaction.version` levels, in one place.
//!
//! Read in Kafka 4.0.0-SNAPSHOT (apache/kafka commit `1eb7644`, 2024-10-25):
//! `TransactionCoordinator.endTransaction`, `ProducerAppendInfo`,
//! `ReplicaManager.maybeStartTransactionVerificationForPartitions` and the client's
//! `TransactionManager` (`isTransactionV2Enabled = transaction.version >= 2`).
//!
//! | rule | TV0 / TV1 | TV2 (KIP-890 part 2) |
//! |---|---|---|
//! | who adds a partition | the client, AddPartitionsToTxn before its first send | the partition leader |
//! | epoch at EndTxn | unchanged; markers carry the transaction's epoch | bumped by one; markers carry the new epoch |
//! | EndTxn from the client | `epoch == current` | `epoch == current`, or `current - 1` for a retry |
//! | offsets partition at TxnOffsetCommit | the client's AddOffsetsToTxn adds it; the request (v4 or below) is only verified (`group_apis::OffsetsPartitionCheck`, Kafka 4.0.0) | the request (v5) adds it |
//! | leader check of a transactional batch | KIP-890 part 1 when `transaction.partition.verification.enable` (ask the coordinator, `verify_only`), else none | the leader adds the partition |
//! | marker epoch at the leader | not older than the producer's | newer than the data it ends; a repeat is a no-op |
//!
//! The leader takes the marker rows per marker, by the version the marker carries (the
//! transaction's `clientTransactionVersion`, WriteTxnMarkers v2, KIP-1228, Kafka 4.2),
//! not by the cluster's level: an old client's transaction on a TV2 cluster gets the
//! rule before TV2.
//! | repeated marker | written again (an empty marker, no `.txnindex` entry) | already complete: nothing written |

use serde::Serialize;

use super::metadata::TransactionVersion;
use super::state::TransactionState;

/// The transaction features a broker runs with: the cluster's finalized
/// `transaction.version` and `transaction.partition.verification.enable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TxnFeatures {
    pub transaction_version: TransactionVersion,
    pub verification: bool,
}

impl Default for TxnFeatures {
    fn default() -> Self {
        TxnFeatures {
            transaction_version: TransactionVersion::TV_2,
            verification: true,
        }
    }
}

impl TxnFeatures {
    /// TV2: the leader adds partitions and EndTxn bumps the epoch.
    pub fn v2(self) -> bool {
        self.transaction_version.supports_epoch_bump()
    }

    /// The version clients negotiate from this finalized level.
    pub fn client_version(self) -> TransactionVersion {
        self.transaction_version.client_version()
    }
}

impl TransactionVersion {
    /// What a Kafka 4.0 client negotiates from this finalized level: TV2 if it is
    /// at least 2, else the pre-KIP-890 protocol (the client then sends
    /// AddPartitionsToTxn itself, and its EndTxn is read as TV0).
    pub fn client_version(self) -> TransactionVersion {
        if self.supports_epoch_bump() {
            TransactionVersion::TV_2
        } else {
            TransactionVersion::TV_0
        }
    }
}

/// `endTransaction`'s `isValidEpoch` before TV2 (and on the fence path): strict
/// equality for the client; the coordinator's own abort may carry a newer epoch.
/// This is why a late EndTxn of the previous transaction ends the current one
/// under TV1 (KAFKA-17754): both have the same epoch.
pub fn v1_valid_epoch(from_client: bool, epoch: i16, current: i16) -> bool {
    (!from_client || epoch == current) && epoch >= current
}

/// `endTransaction`'s `isValidEpoch` with TV2: the same epoch only while the
/// transaction is open; once it is being or has been ended, only the bumped epoch's
/// retry (`epoch + 1 == current`) or an epoch-overflow retry is a valid answer.
pub fn v2_valid_epoch(
    state: TransactionState,
    epoch: i16,
    current: i16,
    retry_on_epoch_bump: bool,
    retry_on_overflow: bool,
) -> bool {
    use TransactionState as S;
    match state {
        S::Ongoing | S::Empty | S::Dead | S::PrepareEpochFence => epoch == current,
        S::PrepareCommit | S::PrepareAbort => retry_on_epoch_bump,
        S::CompleteCommit | S::CompleteAbort => {
            retry_on_epoch_bump || retry_on_overflow || epoch == current
        }
    }
}
