//! English text of errors: the broker's `errorMessage` ([`ErrorDetail`]) and why an
//! action was not applied ([`SimError`]).

use crate::protocol::ErrorDetail;
use crate::sim::SimError;

/// Kafka's exception message for a refused batch or marker, with our numbers.
pub(in crate::i18n::narration) fn detail(d: &ErrorDetail) -> String {
    match d {
        ErrorDetail::EpochTooOld { producer_id, offset, partition, epoch, current_epoch } => format!(
            "Epoch of producer {producer_id} at offset {offset} in {partition} is {epoch}, which is smaller than the last seen epoch {current_epoch}"
        ),
        ErrorDetail::NewEpochSequence { producer_id, offset, partition, epoch, first_seq, current_epoch } => format!(
            "Invalid sequence number for new epoch of producer {producer_id} at offset {offset} in partition {partition}: {epoch} (request epoch), {first_seq} (seq. number), {current_epoch} (current producer epoch)"
        ),
        ErrorDetail::OutOfOrderSequence { producer_id, offset, partition, first_seq, last_seq } => format!(
            "Out of order sequence number for producer {producer_id} at offset {offset} in partition {partition}: {first_seq} (incoming seq. number), {last_seq} (current end sequence number)"
        ),
        ErrorDetail::MarkerEpochNotNewer { producer_id, offset, partition, epoch, current_epoch } => format!(
            "Epoch of producer {producer_id} at offset {offset} in {partition} is {epoch}, which is not newer than the last seen epoch {current_epoch} (transaction markers must bump the epoch)"
        ),
        ErrorDetail::EpochTooOldForVerification { producer_id, epoch, current_epoch } => format!(
            "Epoch of producer {producer_id} is {epoch}, which is smaller than the last seen epoch {current_epoch}"
        ),
        ErrorDetail::OneBatchPerRequest => {
            "A Produce request carries exactly one batch per partition here".to_string()
        }
        ErrorDetail::InvalidBatch(e) => e.to_string(),
        ErrorDetail::NoTransactionCoordinator => {
            "No transaction coordinator is known yet".to_string()
        }
        ErrorDetail::ControlRecordsFromClient => {
            "Clients are not allowed to write control records".to_string()
        }
        ErrorDetail::BatchTooLarge { size, max_message_bytes } => format!(
            "The batch is {size} bytes, larger than max.message.bytes ({max_message_bytes})"
        ),
        ErrorDetail::BatchLargerThanSegment { size, segment_bytes } => format!(
            "The batch is {size} bytes, larger than segment.bytes ({segment_bytes})"
        ),
        ErrorDetail::Storage(e) => format!("storage: {e}"),
        ErrorDetail::MissingTransactionalId => {
            "A transactional batch needs its transactional.id".to_string()
        }
        ErrorDetail::PartitionNotAdded => {
            "The transaction coordinator refused to add the partition".to_string()
        }
    }
}

/// Why an action was not applied: Kafka's error name first when there is one.
pub(in crate::i18n::narration) fn sim_error(e: &SimError) -> String {
    match e.error {
        Some(k) => format!("{}: {}", k.name(), e.message),
        None => e.message.clone(),
    }
}
