//! The partition leader's part in transactions: checking a transactional batch with
//! the coordinator before writing it (TV2's AddPartitionsToTxn sent by the leader;
//! before TV2 a `verify_only` one when `transaction.partition.verification.enable`,
//! Kafka's `AddPartitionsToTxnManager` and `UnifiedLog.maybeStartTransactionVerification`),
//! and writing COMMIT/ABORT markers on WriteTxnMarkers.

use super::broker::{Broker, BrokerEvent, Handled, Outbound, PendingProduce};
use crate::coordinator::internal_topics::{GROUP_METADATA_TOPIC, TRANSACTION_STATE_TOPIC};
use crate::coordinator::transaction::TransactionVersion;
use crate::log::{AppendError, MarkerAppend, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::{ErrorDetail, MarkerResult, Request, Response, TxnMarkerEntry};
use crate::record::{ControlRecordType, RecordBatch};

impl Broker {
    /// The broker leading the `__transaction_state` partition of a transactional id.
    pub fn transaction_coordinator_of(&self, transactional_id: &str) -> Option<i32> {
        self.metadata
            .get(&self.internal_partition_for(TRANSACTION_STATE_TOPIC, transactional_id))
            .copied()
    }

    /// For a transactional batch: refuse an old epoch at once; append directly when
    /// the producer's transaction is already open here with this epoch; otherwise park
    /// the request and ask the coordinator to add the partition. `None` = append now.
    pub(super) fn maybe_verify_transaction(
        &mut self,
        (acks, timeout_ms): (i16, i64),
        tp: &TopicPartition,
        batch: &RecordBatch,
        transactional_id: Option<String>,
        token: u64,
        now_ms: i64,
    ) -> Option<Handled> {
        let reply = |error: Errors, detail: ErrorDetail| {
            Handled::reply(Response::produce(tp, error, -1, Some(detail)))
        };
        // Before TV2 with `transaction.partition.verification.enable=false` the leader
        // trusts the batch: nothing checks that the client added the partition
        // (Kafka 4.0 `maybeStartTransactionVerificationForPartitions`).
        let features = self.txn_features;
        if !features.v2() && !features.verification {
            return None;
        }
        let log = self.logs.get(tp)?;
        let entry = log.producer_state().last_entry(batch.producer_id);
        if let Some(e) = entry {
            // NOT KAFKA: break fencing — the leader does not refuse an older epoch.
            if batch.producer_epoch < e.producer_epoch() && !log.config().breaks.fencing_off() {
                let detail = ErrorDetail::EpochTooOldForVerification {
                    producer_id: batch.producer_id,
                    epoch: batch.producer_epoch,
                    current_epoch: e.producer_epoch(),
                };
                let mut handled = reply(Errors::InvalidProducerEpoch, detail.clone());
                handled.events.push(BrokerEvent::BatchRejected {
                    tp: tp.clone(),
                    producer_id: batch.producer_id,
                    producer_epoch: batch.producer_epoch,
                    first_seq: batch.base_sequence,
                    last_seq: batch.last_sequence(),
                    error: Errors::InvalidProducerEpoch,
                    expected_seq: None,
                    seq_direction: None,
                    current_epoch: Some(e.producer_epoch()),
                    detail,
                    log_end_offset: log.log_end_offset(),
                });
                return Some(handled);
            }
            if e.producer_epoch() == batch.producer_epoch && e.current_txn_first_offset().is_some()
            {
                return None;
            }
        }
        let Some(transactional_id) = transactional_id else {
            return Some(reply(
                Errors::InvalidRequest,
                ErrorDetail::MissingTransactionalId,
            ));
        };
        // `Partition.maybeStartTransactionVerification`: remember the lowest sequence
        // under verification before asking the coordinator.
        if let Some(log) = self.logs.get_mut(tp) {
            log.start_transaction_verification(
                batch.producer_id,
                batch.base_sequence,
                batch.producer_epoch,
                now_ms,
            );
        }
        let Some(coordinator) = self.transaction_coordinator_of(&transactional_id) else {
            return Some(reply(
                Errors::CoordinatorNotAvailable,
                ErrorDetail::NoTransactionCoordinator,
            ));
        };
        let tag = self.take_tag();
        self.pending_verifications.insert(
            tag,
            PendingProduce {
                token,
                acks,
                timeout_ms,
                tp: tp.clone(),
                batch: batch.clone(),
            },
        );
        let (tp_, txn_id, producer_id, producer_epoch) = (
            tp.clone(),
            transactional_id.clone(),
            batch.producer_id,
            batch.producer_epoch,
        );
        let event = if features.v2() {
            BrokerEvent::TransactionVerification {
                tp: tp_,
                transactional_id: txn_id,
                producer_id,
                producer_epoch,
                coordinator,
            }
        } else {
            BrokerEvent::PartitionVerification {
                tp: tp_,
                transactional_id: txn_id,
                producer_id,
                producer_epoch,
                coordinator,
            }
        };
        Some(Handled {
            events: vec![event],
            outbound: vec![Outbound::ToBroker {
                broker: coordinator,
                tag,
                request: Request::AddPartitionsToTxn {
                    transactional_id,
                    producer_id: batch.producer_id,
                    producer_epoch: batch.producer_epoch,
                    partitions: vec![tp.clone()],
                    // KIP-890 part 1 (TV0/TV1): only ask whether the client added it.
                    verify_only: !features.v2(),
                },
            }],
            ..Handled::default()
        })
    }

    /// The coordinator answered our AddPartitionsToTxn: write the parked batch, or
    /// answer the producer with the error (PRODUCER_FENCED becomes
    /// INVALID_PRODUCER_EPOCH, which producers expect here).
    pub(super) fn complete_verification(
        &mut self,
        tag: u64,
        response: Response,
        now_ms: i64,
    ) -> Handled {
        let Some(pending) = self.pending_verifications.remove(&tag) else {
            return Handled::default();
        };
        let error = match &response {
            Response::AddPartitionsToTxn { results } => results
                .iter()
                .find(|(tp, _)| *tp == pending.tp)
                .map_or(Errors::UnknownServerError, |(_, e)| *e),
            other => other.error(),
        };
        // NOT KAFKA: break fencing — the coordinator's fence is ignored.
        let fenced = matches!(error, Errors::ProducerFenced | Errors::InvalidProducerEpoch);
        let ignore_fence = fenced && self.log_config.breaks.fencing_off();
        let (mut handled, token) = if error == Errors::None || ignore_fence {
            (
                self.append_batch(
                    (pending.acks, pending.timeout_ms),
                    pending.token,
                    pending.tp.clone(),
                    pending.batch,
                    now_ms,
                ),
                pending.token,
            )
        } else {
            // `ReplicaManager.appendRecords`' post-verification callback (Kafka 4.0):
            // a retriable coordinator error becomes NOT_ENOUGH_REPLICAS, which every
            // client retries without refreshing its metadata.
            let (error, detail) = match error {
                Errors::ProducerFenced => {
                    (Errors::InvalidProducerEpoch, ErrorDetail::PartitionNotAdded)
                }
                Errors::ConcurrentTransactions
                | Errors::NetworkException
                | Errors::CoordinatorLoadInProgress
                | Errors::CoordinatorNotAvailable
                | Errors::NotCoordinator => (
                    Errors::NotEnoughReplicas,
                    ErrorDetail::VerificationNotCompleted { underlying: error },
                ),
                other => (other, ErrorDetail::PartitionNotAdded),
            };
            let mut handled = Handled::reply(Response::Produce {
                topic_partition: pending.tp.clone(),
                error,
                base_offset: -1,
                log_start_offset: 0,
                error_message: Some(detail),
            });
            if !self.txn_features.v2() {
                handled.events.push(BrokerEvent::PartitionNotVerified {
                    tp: pending.tp.clone(),
                    producer_id: pending.batch.producer_id,
                    producer_epoch: pending.batch.producer_epoch,
                    error,
                });
            }
            (handled, pending.token)
        };
        if let Some(response) = handled.response.take() {
            handled.deferred.push((token, response));
        }
        handled
    }

    /// `handleWriteTxnMarkersRequest`: a COMMIT or ABORT control batch per partition.
    pub(super) fn handle_write_txn_markers(
        &mut self,
        markers: Vec<TxnMarkerEntry>,
        now_ms: i64,
    ) -> Handled {
        let mut results = Vec::new();
        let mut events = Vec::new();
        for marker in markers {
            let kind = match marker.result {
                MarkerResult::Commit => ControlRecordType::Commit,
                MarkerResult::Abort => ControlRecordType::Abort,
            };
            for tp in marker.partitions {
                // A partition this broker does not host (`replicaManager.getMagic` is
                // empty, e.g. its topic was deleted): UNKNOWN_TOPIC_OR_PARTITION.
                let Some(log) = self.logs.get(&tp) else {
                    results.push((marker.producer_id, tp, Errors::UnknownTopicOrPartition));
                    continue;
                };
                // Markers are appended as the leader (`appendRecords`): a replica that
                // only follows answers NOT_LEADER_OR_FOLLOWER, and the coordinator
                // sends the marker again to the leader it learns.
                if !self.leads(&tp) {
                    results.push((marker.producer_id, tp, Errors::NotLeaderOrFollower));
                    continue;
                }
                // NOT KAFKA: break markers — answer NONE without writing the marker.
                if log.config().breaks.skip_markers() && !tp.topic.starts_with("__") {
                    results.push((marker.producer_id, tp, Errors::None));
                    continue;
                }
                // `Partition.appendRecordsToLeader` (Kafka 4.0): markers are appended
                // with `requiredAcks = -1`, so an ISR below `min.insync.replicas` refuses
                // them before anything is written (NOT_ENOUGH_REPLICAS, retriable: the
                // coordinator sends them again). Nothing on the log, nothing to rewrite.
                if let Some(detail) = self.check_min_isr(&tp, -1) {
                    events.push(BrokerEvent::MarkerRejected {
                        tp: tp.clone(),
                        producer_id: marker.producer_id,
                        producer_epoch: marker.producer_epoch,
                        error: Errors::NotEnoughReplicas,
                        detail,
                    });
                    results.push((marker.producer_id, tp, Errors::NotEnoughReplicas));
                    continue;
                }
                let Some(log) = self.logs.get_mut(&tp) else {
                    results.push((marker.producer_id, tp, Errors::NotLeaderOrFollower));
                    continue;
                };
                let outcome = log.append_marker(
                    &mut self.fs,
                    marker.producer_id,
                    marker.producer_epoch,
                    kind,
                    marker.coordinator_epoch,
                    now_ms,
                    // Per marker, as Kafka decides it since KIP-1228 (WriteTxnMarkers
                    // v2): the rule of the transaction's own version, not the cluster's.
                    marker.transaction_version >= TransactionVersion::TV_2.feature_level(),
                );
                let error = match outcome {
                    Ok(MarkerAppend::Written {
                        offset,
                        txn_first_offset,
                        ..
                    }) => {
                        if tp.topic == GROUP_METADATA_TOPIC {
                            // Offsets sent to the transaction become visible, or vanish.
                            self.group_coordinator.complete_transaction(
                                tp.partition,
                                marker.producer_id,
                                marker.result == MarkerResult::Commit,
                            );
                        }
                        events.push(BrokerEvent::MarkerWritten {
                            tp: tp.clone(),
                            producer_id: marker.producer_id,
                            producer_epoch: marker.producer_epoch,
                            kind: kind.name().to_string(),
                            offset,
                            txn_first_offset,
                            last_stable_offset: log.last_stable_offset(),
                            high_watermark: log.high_watermark(),
                        });
                        Errors::None
                    }
                    Ok(MarkerAppend::AlreadyComplete) => Errors::None,
                    Err(e) => {
                        let error = e.error();
                        if let AppendError::Producer(p) = &e {
                            events.push(BrokerEvent::MarkerRejected {
                                tp: tp.clone(),
                                producer_id: marker.producer_id,
                                producer_epoch: marker.producer_epoch,
                                error,
                                detail: p.detail.clone(),
                            });
                        }
                        error
                    }
                };
                results.push((marker.producer_id, tp, error));
            }
        }
        Handled {
            response: Some(Response::WriteTxnMarkers { results }),
            events,
            ..Handled::default()
        }
    }
}
