//! The producer-state checks a leader runs before it appends: a client's batch
//! (`UnifiedLog.analyzeAndValidateProducerState`, `ProducerAppendInfo`) and a
//! coordinator's marker (`ProducerAppendInfo.appendEndTxnMarker`), read in Kafka
//! 4.0.0-SNAPSHOT (apache/kafka `1eb7644`); the TV2 marker rule follows newer Kafka
//! (KAFKA-19999, pull request 21176: a repeated marker at the current epoch with no
//! open transaction raises `IdempotentTransactionMarkerException`, answered NONE and
//! not written).

use super::{
    in_sequence, increment_sequence, MarkerCheck, ProducerCheck, ProducerCheckError,
    ProducerStateEntry, ProducerStateManager, SeqDirection,
};
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;
use crate::record::{RecordBatch, NO_PRODUCER_EPOCH};

impl ProducerStateManager {
    /// The checks of `UnifiedLog.analyzeAndValidateProducerState` and
    /// `ProducerAppendInfo` for a batch from a client, in Kafka's order.
    pub fn check_client_batch(
        &self,
        batch: &RecordBatch,
        offset: i64,
        partition: &str,
    ) -> Result<ProducerCheck, ProducerCheckError> {
        let pid = batch.producer_id;
        let empty = ProducerStateEntry::empty(pid);
        let current = self.producers.get(&pid).unwrap_or(&empty);
        // 1. Exact duplicate of one of the last five batches.
        if let Some(dup) = current.find_duplicate_batch(batch) {
            return Ok(ProducerCheck::Duplicate(dup));
        }
        // 2. checkProducerEpoch: an older epoch is a zombie.
        let epoch = batch.producer_epoch;
        if epoch < current.producer_epoch {
            return Err(ProducerCheckError {
                error: Errors::InvalidProducerEpoch,
                expected_seq: None,
                seq_direction: None,
                current_epoch: Some(current.producer_epoch),
                detail: ErrorDetail::EpochTooOld {
                    producer_id: pid,
                    offset,
                    partition: partition.to_string(),
                    epoch,
                    current_epoch: current.producer_epoch,
                },
            });
        }
        // 3. checkSequence, starting with the lowest sequence seen while verifying
        // (KIP-890 part 1, `VerificationStateEntry`): nothing above it goes first.
        let first = batch.base_sequence;
        if let Some(v) = self.verification_states.get(&pid) {
            if first > v.lowest_sequence() {
                return Err(ProducerCheckError {
                    error: Errors::OutOfOrderSequenceNumber,
                    expected_seq: Some(v.lowest_sequence()),
                    seq_direction: Some(SeqDirection::of(v.lowest_sequence(), first)),
                    current_epoch: Some(current.producer_epoch),
                    detail: ErrorDetail::BelowVerifiedSequence {
                        producer_id: pid,
                        offset,
                        partition: partition.to_string(),
                        first_seq: first,
                        lowest_seq: v.lowest_sequence(),
                    },
                });
            }
        }
        if epoch != current.producer_epoch {
            if first != 0 && current.producer_epoch != NO_PRODUCER_EPOCH {
                return Err(ProducerCheckError {
                    error: Errors::OutOfOrderSequenceNumber,
                    expected_seq: Some(0),
                    seq_direction: Some(SeqDirection::of(0, first)),
                    current_epoch: Some(current.producer_epoch),
                    detail: ErrorDetail::NewEpochSequence {
                        producer_id: pid,
                        offset,
                        partition: partition.to_string(),
                        epoch,
                        first_seq: first,
                        current_epoch: current.producer_epoch,
                    },
                });
            }
        } else {
            let last = current.last_seq();
            if !(current.producer_epoch == NO_PRODUCER_EPOCH || in_sequence(last, first)) {
                let expected = increment_sequence(last, 1);
                return Err(ProducerCheckError {
                    error: Errors::OutOfOrderSequenceNumber,
                    expected_seq: Some(expected),
                    seq_direction: Some(SeqDirection::of(expected, first)),
                    current_epoch: Some(current.producer_epoch),
                    detail: ErrorDetail::OutOfOrderSequence {
                        producer_id: pid,
                        offset,
                        partition: partition.to_string(),
                        first_seq: first,
                        last_seq: last,
                    },
                });
            }
        }
        // 4. updateCurrentTxnFirstOffset: a plain batch cannot land inside the
        // producer's open transaction (Kafka 4.0 `ProducerAppendInfo.appendDataBatch`).
        if !batch.is_transactional() && current.current_txn_first_offset.is_some() {
            return Err(ProducerCheckError {
                error: Errors::InvalidTxnState,
                expected_seq: None,
                seq_direction: None,
                current_epoch: None,
                detail: ErrorDetail::ExpectedTransactionalWrite {
                    producer_id: pid,
                    offset,
                    partition: partition.to_string(),
                },
            });
        }
        Ok(ProducerCheck::Append)
    }

    /// The checks for a COMMIT/ABORT marker written by the coordinator
    /// (`ProducerAppendInfo.appendEndTxnMarker`).
    ///
    /// With transaction version 2 (`transaction_v2`) the marker's epoch must be newer
    /// than the epoch of the data it ends, so a late marker from an older transaction
    /// cannot end the next one, and a retried marker of a transaction that is already
    /// complete is accepted as done. Before TV2 the marker carries the transaction's
    /// own epoch: it only must not be older (Kafka 4.0 `checkProducerEpoch`), and a
    /// repeated marker is written again. Both check the coordinator epoch
    /// (`checkCoordinatorEpoch`): TRANSACTION_COORDINATOR_FENCED for an older one.
    /// `transaction_v2` is the marker's own version (KIP-1228, Kafka 4.2: each
    /// WriteTxnMarkers entry carries its transaction's), not the cluster's level.
    pub fn check_marker(
        &self,
        batch: &RecordBatch,
        offset: i64,
        partition: &str,
        transaction_v2: bool,
    ) -> Result<MarkerCheck, ProducerCheckError> {
        let pid = batch.producer_id;
        let Some(current) = self.producers.get(&pid) else {
            return Ok(MarkerCheck::Append);
        };
        let epoch = batch.producer_epoch;
        if transaction_v2
            && epoch == current.producer_epoch
            && current.current_txn_first_offset.is_none()
        {
            return Ok(MarkerCheck::AlreadyComplete);
        }
        let too_old = if transaction_v2 {
            current.producer_epoch != NO_PRODUCER_EPOCH && epoch <= current.producer_epoch
        } else {
            epoch < current.producer_epoch
        };
        if too_old {
            let detail = if transaction_v2 {
                ErrorDetail::MarkerEpochNotNewer {
                    producer_id: pid,
                    offset,
                    partition: partition.to_string(),
                    epoch,
                    current_epoch: current.producer_epoch,
                }
            } else {
                ErrorDetail::EpochTooOld {
                    producer_id: pid,
                    offset,
                    partition: partition.to_string(),
                    epoch,
                    current_epoch: current.producer_epoch,
                }
            };
            return Err(ProducerCheckError {
                error: Errors::InvalidProducerEpoch,
                expected_seq: None,
                seq_direction: None,
                current_epoch: Some(current.producer_epoch),
                detail,
            });
        }
        let coordinator_epoch = batch
            .control_record()
            .map_or(current.coordinator_epoch, |(_, m)| m.coordinator_epoch);
        if current.coordinator_epoch > coordinator_epoch {
            return Err(ProducerCheckError {
                error: Errors::TransactionCoordinatorFenced,
                expected_seq: None,
                seq_direction: None,
                current_epoch: None,
                detail: ErrorDetail::CoordinatorEpochFenced {
                    producer_id: pid,
                    offset,
                    partition: partition.to_string(),
                    coordinator_epoch,
                    current_coordinator_epoch: current.coordinator_epoch,
                },
            });
        }
        Ok(MarkerCheck::Append)
    }
}
