//! The broker's side of the group coordinator, offsets only: OffsetCommit,
//! TxnOffsetCommit (offsets that commit or abort with a producer's transaction, the
//! heart of consume-transform-produce), OffsetFetch, and what a COMMIT/ABORT marker
//! on a `__consumer_offsets` partition does to pending offsets.
//!
//! Under TV2 the client sends no AddOffsetsToTxn: like a Produce, the TxnOffsetCommit
//! (version 5) is first checked with the transaction coordinator, which adds the
//! offsets partition to the transaction. Before TV2 the client's AddOffsetsToTxn has
//! added it already (`txn_apis::handle_add_offsets_to_txn`), and its TxnOffsetCommit
//! (version 4 or below) is only verified: see [`OffsetsPartitionCheck`].
//!
//! Before the group coordinator sees a commit, the partitions the metadata cache does
//! not know are answered UNKNOWN_TOPIC_OR_PARTITION (`KafkaApis`), and a TxnOffsetCommit
//! with an empty group id INVALID_GROUP_ID (`GroupCoordinatorService`). The offsets of a
//! TxnOffsetCommit are pending only once their batch is written.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled, Outbound};
use super::internal_log::InternalLog;
use crate::coordinator::group::{CommitMember, OffsetCommitEntry};
use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{OffsetEntry, Request, Response};
use crate::record::{RecordBatch, NO_SEQUENCE};

#[cfg(test)]
mod tests;

/// A TxnOffsetCommit parked until the transaction coordinator added the partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingTxnOffsetCommit {
    pub token: u64,
    /// The TxnOffsetCommit request's version ([`OffsetsPartitionCheck::for_version`]).
    pub version: i16,
    pub group_id: String,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub offsets: Vec<OffsetEntry>,
    /// The consumer's generation and member id the commit carries.
    pub member: CommitMember,
    /// Partitions the metadata cache does not know: not sent to the coordinator, and
    /// answered UNKNOWN_TOPIC_OR_PARTITION ahead of its answer.
    pub unknown_partitions: Vec<TopicPartition>,
}

/// What the group coordinator asks the transaction coordinator about the offsets
/// partition before it writes transactional offsets, by the TxnOffsetCommit version.
///
/// Kafka 4.0.0 (KIP-890 part 2, KAFKA-14563):
/// `AddPartitionsToTxnManager.txnOffsetCommitRequestVersionToTransactionSupportedOperation`
/// maps a version above 4 to `addPartition` (AddPartitionsToTxn with `verifyOnly`
/// false: the partition joins the transaction, whatever
/// `transaction.partition.verification.enable` says), 4 to `genericErrorSupported` and
/// below to `defaultError` (`verifyOnly`, and only with verification enabled:
/// `ReplicaManager.maybeSendPartitionsToTransactionCoordinator`). A partition the
/// transaction lacks is answered TRANSACTION_ABORTABLE, which `defaultError` turns into
/// INVALID_TXN_STATE for clients that predate it. Earlier trunk (`1eb7644`, a 4.0.0
/// snapshot from before KIP-890 part 2) only verified, whatever the version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffsetsPartitionCheck {
    /// Version 5+: add the partition to the transaction.
    Add,
    /// Version 4 or below with verification on: only check it is in the transaction.
    Verify,
    /// Version 4 or below with verification off: write without asking.
    Skip,
}

impl OffsetsPartitionCheck {
    pub fn for_version(version: i16, verification: bool) -> Self {
        match version {
            v if v > 4 => OffsetsPartitionCheck::Add,
            _ if verification => OffsetsPartitionCheck::Verify,
            _ => OffsetsPartitionCheck::Skip,
        }
    }
}

/// `AddPartitionsToTxnManager`'s translation of the coordinator's answer for a
/// TxnOffsetCommit of this version: PRODUCER_FENCED becomes INVALID_PRODUCER_EPOCH,
/// which producers expect here, and TRANSACTION_ABORTABLE INVALID_TXN_STATE below
/// version 4 (`defaultError`).
fn verification_error(error: Errors, version: i16) -> Errors {
    match error {
        Errors::ProducerFenced => Errors::InvalidProducerEpoch,
        Errors::TransactionAbortable if version < 4 => Errors::InvalidTxnState,
        other => other,
    }
}

/// `KafkaApis.handleTxnOffsetCommitRequest`'s `sendResponse` (Kafka 4.0, trunk
/// `1eb7644`; KafkaApisTest
/// `shouldReplaceCoordinatorNotAvailableWithLoadInProcessInTxnOffsetCommitWithOlderClient`):
/// clients from 0.11 to before 2.0 (versions 0 and 1) could crash on
/// COORDINATOR_LOAD_IN_PROGRESS (KAFKA-7296), so they get COORDINATOR_NOT_AVAILABLE.
fn for_client_version(mut handled: Handled, version: i16) -> Handled {
    if version < 2 {
        if let Some(Response::TxnOffsetCommit { results }) = handled.response.as_mut() {
            for (_, error) in results.iter_mut() {
                if *error == Errors::CoordinatorLoadInProgress {
                    *error = Errors::CoordinatorNotAvailable;
                }
            }
        }
    }
    handled
}

/// The coordinator's answer with the partitions `KafkaApis` refused before asking it put
/// first, UNKNOWN_TOPIC_OR_PARTITION (`TxnOffsetCommitResponse.Builder.merge`).
fn with_unknown(mut handled: Handled, unknown: &[TopicPartition]) -> Handled {
    if let Some(Response::TxnOffsetCommit { results } | Response::OffsetCommit { results }) =
        handled.response.as_mut()
    {
        let refused = unknown
            .iter()
            .map(|tp| (tp.clone(), Errors::UnknownTopicOrPartition));
        results.splice(0..0, refused);
    }
    handled
}

fn entries(offsets: &[OffsetEntry]) -> Vec<OffsetCommitEntry> {
    offsets
        .iter()
        .map(|o| OffsetCommitEntry::new(o.topic_partition.clone(), o.offset))
        .collect()
}

fn each(offsets: &[OffsetEntry], error: Errors) -> Vec<(TopicPartition, Errors)> {
    offsets
        .iter()
        .map(|o| (o.topic_partition.clone(), error))
        .collect()
}

impl Broker {
    pub(super) fn group_partition(&self, group_id: &str) -> TopicPartition {
        self.internal_partition_for(GROUP_METADATA_TOPIC, group_id)
    }

    /// `KafkaApis.handleOffsetCommitRequest` / `handleTxnOffsetCommitRequest` (Kafka 4.0;
    /// KafkaApisTest `testHandleTxnOffsetCommitRequestTopicsAndPartitionsValidation`,
    /// `testTxnOffsetCommitWithInvalidPartition`): the partitions of topics or
    /// partition numbers the metadata cache does not hold are taken out of the request,
    /// to be answered UNKNOWN_TOPIC_OR_PARTITION; the rest go to the group coordinator.
    fn take_unknown_partitions(&self, offsets: &mut Vec<OffsetEntry>) -> Vec<TopicPartition> {
        let (known, unknown): (Vec<_>, Vec<_>) = std::mem::take(offsets)
            .into_iter()
            .partition(|o| self.metadata.contains_key(&o.topic_partition));
        *offsets = known;
        unknown.into_iter().map(|o| o.topic_partition).collect()
    }

    pub(super) fn handle_offset_commit(
        &mut self,
        group_id: String,
        mut offsets: Vec<OffsetEntry>,
        member: CommitMember,
        now_ms: i64,
    ) -> Handled {
        let unknown = self.take_unknown_partitions(&mut offsets);
        if offsets.is_empty() {
            return with_unknown(
                Handled::reply(Response::OffsetCommit {
                    results: Vec::new(),
                }),
                &unknown,
            );
        }
        let handled = self.commit_known_offsets(group_id, offsets, member, now_ms);
        with_unknown(handled, &unknown)
    }

    fn commit_known_offsets(
        &mut self,
        group_id: String,
        offsets: Vec<OffsetEntry>,
        member: CommitMember,
        now_ms: i64,
    ) -> Handled {
        let gtp = self.group_partition(&group_id);
        if let Some(error) = self.coordinator_error(&gtp) {
            return Handled::reply(Response::OffsetCommit {
                results: each(&offsets, error),
            });
        }
        if let Err(event) = self
            .group_coordinator
            .validate_offset_commit(&group_id, &member, false)
        {
            return refused(
                event,
                |results| Response::OffsetCommit { results },
                &offsets,
            );
        }
        let mut writer = InternalLog {
            fs: &mut self.fs,
            logs: &mut self.logs,
            topic: GROUP_METADATA_TOPIC,
            partitions: &self.partitions,
            broker_id: self.id,
        };
        let results = self
            .group_coordinator
            .commit_offsets(&group_id, &entries(&offsets), &mut writer, now_ms)
            .into_iter()
            .map(|(tp, e)| (tp, group_append_error(e)))
            .collect();
        Handled::reply(Response::OffsetCommit { results })
    }

    pub(super) fn handle_txn_offset_commit(
        &mut self,
        transactional_id: String,
        mut pending: PendingTxnOffsetCommit,
        now_ms: i64,
    ) -> Handled {
        let version = pending.version;
        let unknown = self.take_unknown_partitions(&mut pending.offsets);
        if pending.offsets.is_empty() {
            let none = Handled::reply(Response::TxnOffsetCommit {
                results: Vec::new(),
            });
            return with_unknown(none, &unknown);
        }
        pending.unknown_partitions = unknown.clone();
        let handled = self.start_txn_offset_commit(transactional_id, pending, now_ms);
        for_client_version(with_unknown(handled, &unknown), version)
    }

    fn start_txn_offset_commit(
        &mut self,
        transactional_id: String,
        pending: PendingTxnOffsetCommit,
        now_ms: i64,
    ) -> Handled {
        // `GroupCoordinatorService.commitTransactionalOffsets`: an empty group id is
        // refused before any coordinator is asked (GroupCoordinatorServiceTest
        // `testCommitTransactionalOffsetsWithInvalidGroupId`, Kafka 4.0). OffsetCommit
        // still takes it, for backwards compatibility.
        if pending.group_id.is_empty() {
            return Handled::reply(Response::TxnOffsetCommit {
                results: each(&pending.offsets, Errors::InvalidGroupId),
            });
        }
        let gtp = self.group_partition(&pending.group_id);
        if let Some(error) = self.coordinator_error(&gtp) {
            return Handled::reply(Response::TxnOffsetCommit {
                results: each(&pending.offsets, error),
            });
        }
        let Some(log) = self.logs.get(&gtp) else {
            return Handled::reply(Response::TxnOffsetCommit {
                results: each(&pending.offsets, Errors::NotCoordinator),
            });
        };
        // Already part of this producer's open transaction here: write at once.
        let open = log
            .producer_state()
            .last_entry(pending.producer_id)
            .is_some_and(|e| {
                e.producer_epoch() == pending.producer_epoch
                    && e.current_txn_first_offset().is_some()
            });
        let check =
            OffsetsPartitionCheck::for_version(pending.version, self.txn_features.verification);
        if open || check == OffsetsPartitionCheck::Skip {
            return self.write_txn_offsets(pending, now_ms);
        }
        let Some(coordinator) = self.transaction_coordinator_of(&transactional_id) else {
            return Handled::reply(Response::TxnOffsetCommit {
                results: each(&pending.offsets, Errors::CoordinatorNotAvailable),
            });
        };
        let tag = self.take_tag();
        let request = Request::AddPartitionsToTxn {
            transactional_id,
            producer_id: pending.producer_id,
            producer_epoch: pending.producer_epoch,
            partitions: vec![gtp],
            verify_only: check == OffsetsPartitionCheck::Verify,
        };
        self.pending_offset_commits.insert(tag, pending);
        Handled {
            outbound: vec![Outbound::ToBroker {
                broker: coordinator,
                tag,
                request,
            }],
            ..Handled::default()
        }
    }

    /// Writes the transactional offset records (pending until the marker).
    fn write_txn_offsets(&mut self, pending: PendingTxnOffsetCommit, now_ms: i64) -> Handled {
        let gtp = self.group_partition(&pending.group_id);
        // The write runs on the offsets partition's coordinator as it is now: after a
        // verification round trip this broker may no longer lead it, or may be loading
        // it again (`CoordinatorRuntime.scheduleTransactionalWriteOperation` finds no
        // active shard: NOT_COORDINATOR, or COORDINATOR_LOAD_IN_PROGRESS).
        if let Some(error) = self.coordinator_error(&gtp) {
            return Handled::reply(Response::TxnOffsetCommit {
                results: each(&pending.offsets, error),
            });
        }
        // The generation check runs once the transaction coordinator has added the
        // partition (`validateTransactionalOffsetCommit` inside the write operation).
        if let Err(event) =
            self.group_coordinator
                .validate_offset_commit(&pending.group_id, &pending.member, true)
        {
            return refused(
                event,
                |results| Response::TxnOffsetCommit { results },
                &pending.offsets,
            );
        }
        let offsets = entries(&pending.offsets);
        let records = self.group_coordinator.transactional_offset_records(
            &pending.group_id,
            pending.producer_id,
            pending.producer_epoch,
            &offsets,
            now_ms,
        );
        let error = match (records, self.logs.get_mut(&gtp)) {
            (Ok(r), Some(log)) => {
                let kvs = r
                    .records
                    .into_iter()
                    .map(|(k, v)| (Some(k), Some(v)))
                    .collect();
                let batch = RecordBatch::new_data(
                    0,
                    r.producer_id,
                    r.producer_epoch,
                    NO_SEQUENCE,
                    true,
                    now_ms,
                    kvs,
                );
                log.append_internal(&mut self.fs, batch)
                    .map_or_else(|e| group_append_error(e.error()), |_| Errors::None)
            }
            (Ok(_), None) => Errors::NotCoordinator,
            (Err(e), _) => e,
        };
        // Only written offsets are pending: a failed append leaves the coordinator as it
        // was (Kafka's runtime reverts the replayed records to its snapshot).
        if error == Errors::None {
            self.group_coordinator.replay_transactional_offsets(
                &pending.group_id,
                pending.producer_id,
                &offsets,
                now_ms,
            );
        }
        Handled::reply(Response::TxnOffsetCommit {
            results: each(&pending.offsets, error),
        })
    }

    /// The transaction coordinator answered for a parked TxnOffsetCommit.
    pub(super) fn complete_offset_verification(
        &mut self,
        tag: u64,
        response: Response,
        now_ms: i64,
    ) -> Handled {
        let Some(pending) = self.pending_offset_commits.remove(&tag) else {
            return Handled::default();
        };
        let (token, version) = (pending.token, pending.version);
        let unknown = pending.unknown_partitions.clone();
        let error = response.error();
        let handled = if error == Errors::None {
            self.write_txn_offsets(pending, now_ms)
        } else {
            Handled::reply(Response::TxnOffsetCommit {
                results: each(&pending.offsets, verification_error(error, pending.version)),
            })
        };
        let mut handled = for_client_version(with_unknown(handled, &unknown), version);
        if let Some(response) = handled.response.take() {
            handled.deferred.push((token, response));
        }
        handled
    }

    pub(super) fn handle_offset_fetch(
        &self,
        group_id: String,
        partitions: Vec<TopicPartition>,
        require_stable: bool,
    ) -> Handled {
        if let Some(error) = self.coordinator_error(&self.group_partition(&group_id)) {
            return Handled::reply(Response::OffsetFetch {
                error,
                offsets: Vec::new(),
            });
        }
        let offsets = self
            .group_coordinator
            .fetch_offsets(&group_id, &partitions, require_stable)
            .into_iter()
            .map(|f| (f.topic_partition, f.committed_offset, f.error))
            .collect();
        Handled::reply(Response::OffsetFetch {
            error: Errors::None,
            offsets,
        })
    }
}

/// A commit the generation check refused: every partition gets the error, and the
/// event says why.
fn refused(
    event: crate::coordinator::group::GroupEvent,
    response: impl Fn(Vec<(TopicPartition, Errors)>) -> Response,
    offsets: &[OffsetEntry],
) -> Handled {
    let error = match &event {
        crate::coordinator::group::GroupEvent::OffsetCommitRefused { error, .. } => *error,
        // The membership events exist only with the feature; none of them is a refusal.
        #[cfg(feature = "group-membership")]
        _ => Errors::UnknownServerError,
    };
    Handled {
        response: Some(response(each(offsets, error))),
        events: vec![BrokerEvent::Group(event)],
        ..Handled::default()
    }
}

/// The group coordinator's translation of an offsets-partition append error, for
/// OffsetCommit and TxnOffsetCommit alike (`CoordinatorOperationExceptionHelper
/// .handleOperationException`, Kafka 4.0, mirror commit 1eb7644; GroupCoordinatorServiceTest
/// `testCommitTransactionalOffsetsWithWrappedError`): a write that cannot reach
/// `min.insync.replicas` is COORDINATOR_NOT_AVAILABLE; a replica that no longer leads
/// NOT_COORDINATOR; a batch too large UNKNOWN_SERVER_ERROR.
fn group_append_error(e: Errors) -> Errors {
    match e {
        Errors::NotEnoughReplicas
        | Errors::NotEnoughReplicasAfterAppend
        | Errors::UnknownTopicOrPartition
        | Errors::RequestTimedOut => Errors::CoordinatorNotAvailable,
        Errors::NotLeaderOrFollower => Errors::NotCoordinator,
        Errors::MessageTooLarge | Errors::RecordListTooLarge => Errors::UnknownServerError,
        other => other,
    }
}
