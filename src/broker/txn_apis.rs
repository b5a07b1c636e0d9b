//! The broker's side of the transaction coordinator: the requests it answers
//! (FindCoordinator, InitProducerId with a transactional.id, AddPartitionsToTxn,
//! EndTxn, DescribeTransactions, ListTransactions), the `__transaction_state`
//! partitions it writes through, and the marker channel (Kafka's
//! `TransactionMarkerChannelManager`): WriteTxnMarkers to every partition leader,
//! then Complete* once all have answered.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled, Outbound};
use super::internal_log::InternalLog;
use super::producer_id_manager::{Generated, ProducerIdManager};
use crate::coordinator::internal_topics::{
    InternalLogWriter, GROUP_METADATA_TOPIC, TRANSACTION_STATE_TOPIC,
};
use crate::coordinator::transaction::{CoordinatorOutput, TxnLogWriter, TxnResult};
use crate::fs::MemFs;
use crate::log::{TopicPartition, UnifiedLog};
use crate::protocol::errors::Errors;
use crate::protocol::{
    CoordinatorType, MarkerResult, Request, Response, TransactionDescription, TransactionListing,
};

/// A WriteTxnMarkers request in flight to one leader.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MarkerSend {
    pub transactional_id: String,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub leader: i32,
    pub partitions: Vec<TopicPartition>,
    pub result: MarkerResult,
    pub coordinator_epoch: i32,
    /// The transaction's version, sent in each WriteTxnMarkers entry (KIP-1228).
    pub transaction_version: i16,
}

/// The coordinator's writes go to this broker's `__transaction_state` partitions; its
/// producer ids come from the broker's block.
struct BrokerTxnLog<'a> {
    log: InternalLog<'a>,
    producer_ids: &'a mut ProducerIdManager,
    outbound: &'a mut Vec<Outbound>,
    broker_id: i32,
    now_ms: i64,
}

impl InternalLogWriter for BrokerTxnLog<'_> {
    fn append(
        &mut self,
        partition: i32,
        key: Vec<u8>,
        value: Option<Vec<u8>>,
        now_ms: i64,
    ) -> Result<(), Errors> {
        self.log.append(partition, key, value, now_ms)
    }
}

impl TxnLogWriter for BrokerTxnLog<'_> {
    fn generate_producer_id(&mut self) -> Result<i64, Errors> {
        let generated = self.producer_ids.generate_producer_id(self.now_ms);
        let (Generated::Id { ask_controller, .. } | Generated::NotYet { ask_controller }) =
            generated;
        if ask_controller {
            self.outbound
                .push(Outbound::ToController(Request::AllocateProducerIds {
                    broker_id: self.broker_id,
                }));
        }
        match generated {
            Generated::Id { id, .. } => Ok(id),
            Generated::NotYet { .. } => Err(ProducerIdManager::WAIT_ERROR),
        }
    }
}

/// `(key, value)` of every record in a partition, oldest first (for loading).
pub(super) fn records_of(log: &UnifiedLog, fs: &MemFs) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
    log.read_all(fs)
        .into_iter()
        .filter(|s| !s.batch.is_control())
        .flat_map(|s| {
            s.batch.records.into_iter().map(|r| {
                (
                    r.key.map(Vec::from).unwrap_or_default(),
                    r.value.map(Vec::from),
                )
            })
        })
        .collect()
}

impl Broker {
    /// Runs `f` with the coordinator and a log writer over this broker's state, then
    /// turns the coordinator's outputs into events and marker requests.
    pub(super) fn with_coordinator<T>(
        &mut self,
        now_ms: i64,
        f: impl FnOnce(
            &mut crate::coordinator::transaction::TransactionCoordinator,
            &mut dyn TxnLogWriter,
        ) -> (T, Vec<CoordinatorOutput>),
    ) -> (T, Handled) {
        let mut outbound = Vec::new();
        let (value, outputs) = {
            let mut log = BrokerTxnLog {
                log: InternalLog {
                    fs: &mut self.fs,
                    logs: &mut self.logs,
                    topic: TRANSACTION_STATE_TOPIC,
                    partitions: &self.partitions,
                    broker_id: self.id,
                },
                producer_ids: &mut self.producer_ids,
                outbound: &mut outbound,
                broker_id: self.id,
                now_ms,
            };
            f(&mut self.txn_coordinator, &mut log)
        };
        let mut handled = Handled {
            outbound,
            ..Handled::default()
        };
        self.process_coordinator_outputs(outputs, now_ms, &mut handled);
        (value, handled)
    }

    pub(super) fn process_coordinator_outputs(
        &mut self,
        outputs: Vec<CoordinatorOutput>,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        for output in outputs {
            match output {
                CoordinatorOutput::Event(e) => handled.events.push(BrokerEvent::Coordinator(e)),
                CoordinatorOutput::SendMarkers {
                    transactional_id,
                    producer_id,
                    producer_epoch,
                    result,
                    coordinator_epoch,
                    partitions,
                    transaction_version,
                } => {
                    let result = match result {
                        TxnResult::Commit => MarkerResult::Commit,
                        TxnResult::Abort => MarkerResult::Abort,
                    };
                    let markers = super::marker_channel::QueuedMarkers {
                        transactional_id,
                        producer_id,
                        producer_epoch,
                        result,
                        coordinator_epoch,
                        partitions,
                        awaiting_isr: false,
                        transaction_version: transaction_version.feature_level(),
                    };
                    self.add_txn_markers_to_broker_queue(markers, now_ms, handled);
                }
            }
        }
    }

    /// Why this broker cannot serve `transactional_id` now, if it cannot: it does not
    /// lead the id's `__transaction_state` partition (NOT_COORDINATOR), or it is
    /// still loading it (COORDINATOR_LOAD_IN_PROGRESS).
    pub(super) fn txn_coordinator_error(&self, transactional_id: &str) -> Option<Errors> {
        let tp = self.internal_partition_for(TRANSACTION_STATE_TOPIC, transactional_id);
        self.coordinator_error(&tp)
    }

    /// FindCoordinator: the leader of the key's internal partition. The first time,
    /// the internal topic does not exist yet: the broker has it created and answers
    /// COORDINATOR_NOT_AVAILABLE, and the client retries.
    pub(super) fn handle_find_coordinator(&self, key: &str, key_type: CoordinatorType) -> Handled {
        let topic = match key_type {
            CoordinatorType::Transaction => TRANSACTION_STATE_TOPIC,
            CoordinatorType::Group => GROUP_METADATA_TOPIC,
        };
        let tp = self.internal_partition_for(topic, key);
        match self.metadata.get(&tp) {
            // The partition exists but has no leader (its replicas are all down):
            // `KafkaApis.getCoordinator` answers COORDINATOR_NOT_AVAILABLE.
            Some(&crate::metadata::NO_LEADER) => Handled::reply(Response::FindCoordinator {
                error: Errors::CoordinatorNotAvailable,
                node_id: -1,
            }),
            Some(node_id) => Handled::reply(Response::FindCoordinator {
                error: Errors::None,
                node_id: *node_id,
            }),
            None => Handled {
                response: Some(Response::FindCoordinator {
                    error: Errors::CoordinatorNotAvailable,
                    node_id: -1,
                }),
                outbound: vec![Outbound::CreateInternalTopic(topic.to_string())],
                ..Handled::default()
            },
        }
    }

    pub(super) fn handle_txn_init_producer_id(
        &mut self,
        transactional_id: String,
        timeout_ms: i32,
        expected: Option<(i64, i16)>,
        now_ms: i64,
    ) -> Handled {
        let (result, mut handled) = self.with_coordinator(now_ms, |c, log| {
            c.handle_init_producer_id_with_expected(
                &transactional_id,
                timeout_ms,
                expected,
                now_ms,
                log,
            )
        });
        handled.response = Some(Response::InitProducerId {
            error: result.error,
            producer_id: result.producer_id,
            producer_epoch: result.producer_epoch,
        });
        handled
    }

    /// `KafkaApis.handleAddOffsetsToTxnRequest`: the group's `__consumer_offsets`
    /// partition (`partitionFor(groupId)`) is added to the transaction like any other
    /// partition, so the coordinator's markers reach the offsets; the answer carries
    /// that one partition's error. The metadata is not asked: the offsets topic may not
    /// exist yet (the group's FindCoordinator creates it).
    pub(super) fn handle_add_offsets_to_txn(
        &mut self,
        transactional_id: String,
        (producer_id, producer_epoch): (i64, i16),
        group_id: &str,
        now_ms: i64,
    ) -> Handled {
        let gtp = self.group_partition(group_id);
        let mut handled = self.add_partitions_with_coordinator(
            transactional_id,
            (producer_id, producer_epoch),
            vec![gtp],
            false,
            now_ms,
        );
        let error = handled
            .response
            .as_ref()
            .map_or(Errors::UnknownServerError, Response::error);
        handled.response = Some(Response::AddOffsetsToTxn { error });
        handled
    }

    pub(super) fn handle_add_partitions_to_txn(
        &mut self,
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        partitions: Vec<TopicPartition>,
        verify_only: bool,
        now_ms: i64,
    ) -> Handled {
        // `KafkaApis.handleAddPartitionsToTxnRequest`: a partition the metadata cache
        // does not hold (never created, or deleted) fails the whole request:
        // UNKNOWN_TOPIC_OR_PARTITION for it, OPERATION_NOT_ATTEMPTED for the rest.
        // (Checked where topics can be deleted, feature `topic-admin`.)
        #[cfg(feature = "topic-admin")]
        if partitions.iter().any(|tp| !self.metadata.contains_key(tp)) {
            let results = partitions
                .into_iter()
                .map(|tp| {
                    let error = if self.metadata.contains_key(&tp) {
                        Errors::OperationNotAttempted
                    } else {
                        Errors::UnknownTopicOrPartition
                    };
                    (tp, error)
                })
                .collect();
            return Handled::reply(Response::AddPartitionsToTxn { results });
        }
        self.add_partitions_with_coordinator(
            transactional_id,
            (producer_id, producer_epoch),
            partitions,
            verify_only,
            now_ms,
        )
    }

    /// `TransactionCoordinator.handleAddPartitionsToTransaction` and its answer.
    fn add_partitions_with_coordinator(
        &mut self,
        transactional_id: String,
        (producer_id, producer_epoch): (i64, i16),
        partitions: Vec<TopicPartition>,
        verify_only: bool,
        now_ms: i64,
    ) -> Handled {
        let (results, mut handled) = self.with_coordinator(now_ms, |c, log| {
            c.handle_add_partitions(
                &transactional_id,
                producer_id,
                producer_epoch,
                partitions,
                verify_only,
                now_ms,
                log,
            )
        });
        handled.response = Some(Response::AddPartitionsToTxn { results });
        handled
    }

    /// `KafkaApis.handleEndTxnRequest` (Kafka 4.0): a request above version 4 comes
    /// from a transaction.version 2 client, one at or below it from an older one;
    /// below version 2, PRODUCER_FENCED is answered as INVALID_PRODUCER_EPOCH, which
    /// old clients understand.
    pub(super) fn handle_end_txn(
        &mut self,
        transactional_id: String,
        (producer_id, producer_epoch): (i64, i16),
        committed: bool,
        version: Option<i16>,
        now_ms: i64,
    ) -> Handled {
        use crate::coordinator::transaction::TransactionVersion;
        let client_version = version.map(|v| {
            if v > 4 {
                TransactionVersion::TV_2
            } else {
                TransactionVersion::TV_0
            }
        });
        let (result, mut handled) = self.with_coordinator(now_ms, |c, log| {
            let version = client_version.unwrap_or_else(|| c.client_version());
            c.handle_end_txn_from(
                &transactional_id,
                (producer_id, producer_epoch),
                committed,
                version,
                now_ms,
                log,
            )
        });
        let old_client = version.is_some_and(|v| v < 2);
        handled.response = Some(Response::EndTxn {
            error: match result.error {
                Errors::ProducerFenced if old_client => Errors::InvalidProducerEpoch,
                error => error,
            },
            producer_id: result.producer_id,
            producer_epoch: result.producer_epoch,
        });
        handled
    }

    /// A leader answered WriteTxnMarkers; once every leader of the transaction has,
    /// the coordinator writes Complete*.
    pub(super) fn complete_marker_send(
        &mut self,
        tag: u64,
        response: Response,
        now_ms: i64,
    ) -> Handled {
        let Some(send) = self.pending_markers.remove(&tag) else {
            return Handled::default();
        };
        let results: Vec<(TopicPartition, Errors)> = match response {
            Response::WriteTxnMarkers { results } => results
                .into_iter()
                .filter(|(pid, _, _)| *pid == send.producer_id)
                .map(|(_, tp, e)| (tp, e))
                .collect(),
            other => send
                .partitions
                .iter()
                .map(|tp| (tp.clone(), other.error()))
                .collect(),
        };
        // The leader's ISR is below min.insync.replicas: the coordinator's re-send of
        // these waits in the marker channel for the partition's metadata to change.
        for (tp, error) in &results {
            if matches!(
                error,
                Errors::NotEnoughReplicas | Errors::NotEnoughReplicasAfterAppend
            ) {
                self.markers_refused_for_short_isr(tp);
            }
        }
        let collected = self
            .marker_results
            .entry((
                send.transactional_id.clone(),
                send.producer_id,
                send.producer_epoch,
            ))
            .or_default();
        collected.extend(results);
        let still_waiting = self.pending_markers.values().any(|p| {
            p.transactional_id == send.transactional_id
                && p.producer_id == send.producer_id
                && p.producer_epoch == send.producer_epoch
        });
        if still_waiting {
            return Handled::default();
        }
        let results = self
            .marker_results
            .remove(&(
                send.transactional_id.clone(),
                send.producer_id,
                send.producer_epoch,
            ))
            .unwrap_or_default();
        let ((), handled) = self.with_coordinator(now_ms, |c, log| {
            (
                (),
                c.handle_markers_written(
                    &send.transactional_id,
                    send.producer_id,
                    send.producer_epoch,
                    results,
                    now_ms,
                    log,
                ),
            )
        });
        handled
    }

    /// The periodic abort of transactions open longer than their timeout.
    /// When the next cleanup tick could abort or complete something (see
    /// `TransactionCoordinator::next_timeout_work_ms`).
    pub fn next_timeout_work_ms(&self) -> Option<i64> {
        self.txn_coordinator.next_timeout_work_ms()
    }

    /// The coordinator's `removeExpiredTransactionalIds` tick.
    pub fn remove_expired_transactional_ids(&mut self, now_ms: i64) -> Handled {
        self.coordinator_tick(now_ms, |c, log| {
            c.remove_expired_transactional_ids(now_ms, log)
        })
    }

    /// `transactional.id.expiration.ms` and its cleanup interval changed.
    pub fn set_transactional_id_expiration(&mut self, expiration_ms: i64, interval_ms: i64) {
        self.txn_coordinator
            .set_transactional_id_expiration(expiration_ms, interval_ms);
    }

    /// `transaction.max.timeout.ms` changed.
    pub fn set_max_transaction_timeout(&mut self, max_ms: i32) {
        self.txn_coordinator.set_max_transaction_timeout(max_ms);
    }

    pub fn abort_timed_out_transactions(&mut self, now_ms: i64) -> Handled {
        self.coordinator_tick(now_ms, |c, log| c.abort_timed_out_transactions(now_ms, log))
    }

    /// `set-epoch txn=ID epoch=N` (a playground shortcut): the coordinator writes the
    /// id's epoch as N, as [`Self::coordinator_tick`] writes a timer task's records.
    pub fn set_transactional_epoch(
        &mut self,
        transactional_id: &str,
        epoch: i16,
        now_ms: i64,
    ) -> (Result<(), Errors>, Handled) {
        let mut result = Err(Errors::NotCoordinator);
        let handled = self.coordinator_tick(now_ms, |c, log| {
            let (r, out) = c.set_producer_epoch(transactional_id, epoch, now_ms, log);
            result = r;
            out
        });
        (result, handled)
    }

    /// One of the coordinator's timer tasks; the marker requests that follow what it
    /// appended to a replicated `__transaction_state` wait until the HW passes it.
    fn coordinator_tick(
        &mut self,
        now_ms: i64,
        task: impl FnOnce(
            &mut crate::coordinator::transaction::TransactionCoordinator,
            &mut dyn TxnLogWriter,
        ) -> Vec<CoordinatorOutput>,
    ) -> Handled {
        let before = self.txn_log_ends();
        let ((), mut handled) = self.with_coordinator(now_ms, |c, log| ((), task(c, log)));
        self.maybe_increment_leader_hws(now_ms, &mut handled);
        let timeout = super::delayed_txn_write::DEFAULT_TXN_TIMEOUT_MS;
        self.hold_until_replicated(&before, None, timeout, now_ms, &mut handled);
        handled
    }

    /// Loads a `__transaction_state` partition this broker now leads.
    pub(super) fn load_transaction_partition(
        &mut self,
        partition: i32,
        now_ms: i64,
    ) -> Vec<BrokerEvent> {
        let tp = TopicPartition::new(TRANSACTION_STATE_TOPIC, partition);
        let records = self
            .logs
            .get(&tp)
            .map(|log| records_of(log, &self.fs))
            .unwrap_or_default();
        let empty = records.is_empty();
        let mut outputs = self
            .txn_coordinator
            .load_partition(partition, records, now_ms);
        if empty {
            // Loading an empty partition is routine; keep the event list for what matters.
            outputs.retain(|o| {
                !matches!(
                    o,
                    CoordinatorOutput::Event(
                        crate::coordinator::transaction::CoordinatorEvent::Loaded { .. }
                    )
                )
            });
        }
        let mut handled = Handled::default();
        self.process_coordinator_outputs(outputs, now_ms, &mut handled);
        self.startup_outbound.extend(handled.outbound);
        handled.events
    }

    pub(super) fn handle_describe_transactions(&self, ids: Vec<String>) -> Handled {
        let transactions = ids
            .into_iter()
            .map(|id| {
                // `getTransactionState` while the id's partition loads.
                let described = match self.txn_coordinator_error(&id) {
                    Some(Errors::CoordinatorLoadInProgress) => {
                        Err(Errors::CoordinatorLoadInProgress)
                    }
                    _ => self.txn_coordinator.describe(&id),
                };
                (id, described)
            })
            .map(|(id, described)| match described {
                Ok(d) => TransactionDescription {
                    coordinator_id: self.id,
                    transactional_id: id,
                    error: Errors::None,
                    state: d.state.name().to_string(),
                    producer_id: d.producer_id,
                    producer_epoch: d.producer_epoch,
                    transaction_timeout_ms: d.transaction_timeout_ms,
                    transaction_start_time_ms: d.transaction_start_time_ms,
                    topic_partitions: d.topic_partitions,
                },
                Err(error) => TransactionDescription::failed(self.id, id, error),
            })
            .collect();
        Handled::reply(Response::DescribeTransactions { transactions })
    }

    pub(super) fn handle_list_transactions(
        &self,
        (state_filters, producer_id_filters, duration_filter_ms): (&[String], &[i64], i64),
        now_ms: i64,
    ) -> Handled {
        // `listTransactionStates` answers COORDINATOR_LOAD_IN_PROGRESS while any
        // partition loads.
        if self.loading_transaction_partitions() {
            return Handled::reply(Response::ListTransactions {
                error: Errors::CoordinatorLoadInProgress,
                transactions: Vec::new(),
                unknown_state_filters: Vec::new(),
            });
        }
        let (listed, unknown_state_filters) = self.txn_coordinator.list_filtered(
            state_filters,
            producer_id_filters,
            duration_filter_ms,
            now_ms,
        );
        let transactions = listed
            .into_iter()
            .map(|l| TransactionListing {
                transactional_id: l.transactional_id,
                coordinator_id: self.id,
                producer_id: l.producer_id,
                state: l.state.name().to_string(),
            })
            .collect();
        Handled::reply(Response::ListTransactions {
            error: Errors::None,
            transactions,
            unknown_state_filters,
        })
    }
}
