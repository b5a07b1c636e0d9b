//! Samples of the clients' events: producer (with its transactional calls) and consumer;
//! and of the replication events that answer a client late (DeleteRecords).

use crate::broker::partition::ReplicationEvent;
use crate::client::consumer::{ConsumerEvent, CorruptBatch, PositionReason};
use crate::client::producer::ProducerEvent;
use crate::client::transaction_manager::{TxnCall, TxnOutcome};
use crate::protocol::{ErrorDetail, Errors};
use crate::record::{ControlRecordType, RecordError};

use super::events::tp;

pub(super) fn producer_events() -> Vec<ProducerEvent> {
    let values = || vec!["a".to_string()];
    let sent = |attempt, first_seq, last_seq| ProducerEvent::BatchSent {
        batch: 1,
        tp: tp(),
        attempt,
        first_seq,
        last_seq,
        renumbered: None,
    };
    let mut out = vec![
        ProducerEvent::Accumulated {
            tp: tp(),
            values: values(),
        },
        ProducerEvent::SequenceAssigned {
            batch: 1,
            tp: tp(),
            producer_id: 0,
            producer_epoch: 0,
            first_seq: 0,
            last_seq: 0,
        },
        sent(1, Some(0), Some(0)),
        sent(2, Some(0), Some(0)),
        sent(1, None, None),
        ProducerEvent::BatchSent {
            batch: 1,
            tp: tp(),
            attempt: 3,
            first_seq: Some(0),
            last_seq: Some(1),
            renumbered: Some(1),
        },
        ProducerEvent::InitProducerIdRetry {
            error: Errors::CoordinatorLoadInProgress,
            backoff_ms: 100,
        },
        ProducerEvent::ProducerIdReceived {
            producer_id: 0,
            producer_epoch: 0,
        },
        ProducerEvent::EpochBumped {
            producer_id: 0,
            old_epoch: 0,
            new_epoch: 1,
            partitions: vec![crate::log::TopicPartition::new("orders", 0)],
            error: Errors::OutOfOrderSequenceNumber,
            unresolved: false,
            retried: true,
            renumbered: 2,
        },
        ProducerEvent::EpochBumped {
            producer_id: 0,
            old_epoch: 1,
            new_epoch: 2,
            partitions: vec![crate::log::TopicPartition::new("orders", 0)],
            error: Errors::OutOfOrderSequenceNumber,
            unresolved: true,
            retried: false,
            renumbered: 0,
        },
        ProducerEvent::SequenceUnresolved {
            tp: tp(),
            next_sequence: 3,
        },
        ProducerEvent::SequenceResolved {
            tp: tp(),
            next_sequence: 3,
        },
        ProducerEvent::Failed {
            batch: 1,
            tp: tp(),
            error: Errors::RequestTimedOut,
            detail: Some(ErrorDetail::DeliveryTimeout {
                records: 1,
                partition: "orders-0".into(),
                elapsed_ms: 120_000,
            }),
        },
        ProducerEvent::EpochBumped {
            producer_id: 0,
            old_epoch: i16::MAX,
            new_epoch: -1,
            partitions: vec![crate::log::TopicPartition::new("orders", 0)],
            error: Errors::MessageTooLarge,
            unresolved: false,
            retried: false,
            renumbered: 0,
        },
        ProducerEvent::TxnEpochBumpRequired {
            error: Errors::OutOfOrderSequenceNumber,
        },
        ProducerEvent::RequestTimedOut {
            batch: Some(1),
            broker: 1,
            timeout_ms: 30_000,
            disconnected: false,
        },
        ProducerEvent::RequestTimedOut {
            batch: Some(1),
            broker: 1,
            timeout_ms: 30_000,
            disconnected: true,
        },
        ProducerEvent::RetryScheduled {
            batch: 1,
            tp: tp(),
            error: Errors::NotLeaderOrFollower,
            attempt: 2,
            backoff_ms: 187,
        },
        ProducerEvent::BackoffSkipped {
            batch: 1,
            tp: tp(),
            leader_epoch: 1,
        },
        ProducerEvent::BatchSplit {
            batch: 1,
            tp: tp(),
            records: 3,
            batches: 2,
            split_batch_size: 16_384,
        },
        ProducerEvent::Acknowledged {
            batch: 1,
            tp: tp(),
            base_offset: 0,
            values: values(),
        },
        ProducerEvent::Failed {
            batch: 1,
            tp: tp(),
            error: Errors::OutOfOrderSequenceNumber,
            detail: None,
        },
        ProducerEvent::Failed {
            batch: 1,
            tp: tp(),
            error: Errors::InvalidRecord,
            detail: Some(ErrorDetail::ControlRecordsFromClient),
        },
        ProducerEvent::BatchesAbortedLocally { count: 2 },
        ProducerEvent::UndrainedBatchesAborted { count: 1 },
        ProducerEvent::StaleResponse {
            correlation_id: 1,
            api: "Produce".into(),
        },
    ];
    let outcomes = [
        TxnOutcome::Initialized {
            producer_id: 0,
            producer_epoch: 0,
        },
        TxnOutcome::Committed {
            producer_id: 0,
            producer_epoch: 1,
        },
        TxnOutcome::Aborted {
            producer_id: 0,
            producer_epoch: 1,
        },
        TxnOutcome::EndedKeepingEpoch {
            committed: true,
            producer_id: 0,
            producer_epoch: 0,
        },
        TxnOutcome::EndedWithoutEndTxn {
            committed: false,
            producer_id: 0,
            producer_epoch: 0,
        },
        TxnOutcome::OffsetsSent {
            group_id: "g".into(),
        },
        TxnOutcome::Failed {
            operation: "commitTransaction".into(),
            error: Errors::ProducerFenced,
            exception: "ProducerFencedException".into(),
        },
        TxnOutcome::Retrying {
            api: "EndTxn".into(),
            error: Errors::ConcurrentTransactions,
        },
    ];
    out.extend(outcomes.into_iter().map(ProducerEvent::Transaction));
    let calls = [
        TxnCall::InitTransactions,
        TxnCall::Send { tp: tp() },
        TxnCall::CommitTransaction,
    ];
    for call in calls {
        out.push(ProducerEvent::Transaction(TxnOutcome::Resumed {
            call: call.clone(),
        }));
        for error in super::errors::txn_call_errors() {
            out.push(ProducerEvent::Transaction(TxnOutcome::Refused {
                call: call.clone(),
                error,
            }));
        }
    }
    out
}

pub(super) fn consumer_events() -> Vec<ConsumerEvent> {
    let mut out = vec![
        ConsumerEvent::FetchReceived {
            tp: tp(),
            fetch_offset: 0,
            high_watermark: 3,
            last_stable_offset: 3,
            bytes: 100,
            aborted_transactions: 0,
        },
        ConsumerEvent::StaleFetchDiscarded {
            tp: tp(),
            fetch_offset: 0,
            position: Some(3),
        },
        ConsumerEvent::StaleFetchDiscarded {
            tp: tp(),
            fetch_offset: 0,
            position: None,
        },
        ConsumerEvent::NotAssigned { tp: tp() },
        ConsumerEvent::FetchError {
            tp: tp(),
            error: Errors::NotLeaderOrFollower,
        },
        ConsumerEvent::FetchError {
            tp: tp(),
            error: Errors::UnknownLeaderEpoch,
        },
        ConsumerEvent::MetadataUpdateRequested {
            tp: tp(),
            api: "Fetch".into(),
            error: Errors::FencedLeaderEpoch,
            leader_epoch: 1,
        },
        ConsumerEvent::MetadataUpdateRequested {
            tp: tp(),
            api: "ListOffsets".into(),
            error: Errors::OffsetNotAvailable,
            leader_epoch: 1,
        },
        ConsumerEvent::AbortedProducerAdded {
            tp: tp(),
            producer_id: 0,
            first_offset: 0,
        },
        ConsumerEvent::BatchSkippedAborted {
            tp: tp(),
            producer_id: 0,
            base_offset: 0,
            last_offset: 1,
        },
        ConsumerEvent::AbortMarkerSeen {
            tp: tp(),
            producer_id: 0,
            offset: 2,
            removed: true,
        },
        ConsumerEvent::AbortMarkerSeen {
            tp: tp(),
            producer_id: 0,
            offset: 2,
            removed: false,
        },
        ConsumerEvent::ControlBatchSkipped {
            tp: tp(),
            kind: Some(ControlRecordType::Commit),
            offset: 2,
        },
        ConsumerEvent::ControlBatchSkipped {
            tp: tp(),
            kind: None,
            offset: 2,
        },
        ConsumerEvent::RecordsBeforePositionSkipped {
            tp: tp(),
            base_offset: 0,
            count: 1,
            position: 1,
        },
        ConsumerEvent::RecordsDelivered {
            tp: tp(),
            count: 2,
            first: 0,
            last: 1,
        },
        ConsumerEvent::PartialBatchIgnored {
            tp: tp(),
            byte_position: 100,
            bytes: 20,
        },
        ConsumerEvent::CorruptBatch {
            tp: tp(),
            offset: 0,
            error: CorruptBatch::SizeTooSmall {
                size: 3,
                minimum: 49,
            },
        },
        ConsumerEvent::CorruptBatch {
            tp: tp(),
            offset: 0,
            error: CorruptBatch::Invalid(RecordError::InvalidMagic(1)),
        },
        ConsumerEvent::PositionAdvanced {
            tp: tp(),
            from: 0,
            to: 2,
        },
        ConsumerEvent::NoOffsetForPartition { tp: tp() },
    ];
    for reason in [
        PositionReason::ResetEarliest,
        PositionReason::ResetLatest,
        PositionReason::Committed,
        PositionReason::Seek,
    ] {
        out.push(ConsumerEvent::PositionSet {
            tp: tp(),
            offset: 0,
            reason,
        });
    }
    out
}

pub(super) fn replication_events() -> Vec<ReplicationEvent> {
    let mut out = vec![ReplicationEvent::DeleteRecordsDelayed {
        tp: tp(),
        required_offset: 2,
        low_watermark: 0,
    }];
    for error in [
        Errors::None,
        Errors::RequestTimedOut,
        Errors::NotLeaderOrFollower,
    ] {
        out.push(ReplicationEvent::DeleteRecordsCompleted {
            tp: tp(),
            low_watermark: 2,
            error,
        });
    }
    out
}
