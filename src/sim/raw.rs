//! Raw requests: any API sent by hand from the bare client, with the answer printed
//! in one line — the seed's "bare socket" examples for every transactional API.

use super::error::{SimError, SimErrorKind};
use super::network::{Body, Node};
use super::world::{RawOutcome, RawRetry, World, RAW_CLIENT};
use super::Action;
use crate::coordinator::internal_topics::{GROUP_METADATA_TOPIC, TRANSACTION_STATE_TOPIC};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{CoordinatorType, Request, Response};
use crate::record::RecordBatch;

impl World {
    /// The bare client's requests; `World::apply` sends only these here. The answer's
    /// lines: a front end that shows the retries words them
    /// (`i18n::transcript::raw_lines`).
    pub(super) fn apply_raw(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::RawInitProducerId => Ok(self.raw_init_producer_id().lines),
            Action::RawRequest { broker, request } => self.raw(*broker, request.clone()),
            Action::RawProduce {
                topic_partition,
                producer_id,
                producer_epoch,
                base_sequence,
                transactional_id,
                values,
                label,
            } => Ok(self
                .raw_produce(
                    topic_partition,
                    *producer_id,
                    *producer_epoch,
                    *base_sequence,
                    transactional_id.as_deref(),
                    values,
                    label.as_deref(),
                )?
                .lines),
            _ => Ok(vec![]),
        }
    }

    /// Who should get a raw request: the transaction coordinator for transactional
    /// APIs, the group coordinator for TxnOffsetCommit, the partition leader for data
    /// APIs, else the first broker.
    fn raw_target(&self, request: &Request) -> Option<i32> {
        let coordinator =
            |id: &str| self.leader_of(&self.internal_partition_for(TRANSACTION_STATE_TOPIC, id));
        let first = self.brokers.keys().next().copied();
        if let Some(id) = request.coordinator_txn_id() {
            return coordinator(id).or(first);
        }
        match request {
            Request::TxnOffsetCommit { group_id, .. } => self
                .leader_of(&self.internal_partition_for(GROUP_METADATA_TOPIC, group_id))
                .or(first),
            Request::DescribeTransactions { transactional_ids } => transactional_ids
                .first()
                .and_then(|id| coordinator(id))
                .or(first),
            Request::Produce {
                topic_partition, ..
            }
            | Request::Fetch {
                topic_partition, ..
            }
            | Request::ListOffsets {
                topic_partition, ..
            }
            | Request::OffsetsForLeaderEpoch {
                topic_partition, ..
            } => self.leader_of(topic_partition),
            Request::WriteTxnMarkers { markers } => markers
                .first()
                .and_then(|m| m.partitions.first())
                .and_then(|tp| self.leader_of(tp)),
            _ => first,
        }
    }

    /// Sends `request` (to `broker`, or to the broker it belongs to) and returns the
    /// answer as a transcript line.
    pub fn raw(&mut self, broker: Option<i32>, request: Request) -> Result<Vec<String>, SimError> {
        let target = broker
            .or_else(|| self.raw_target(&request))
            .ok_or_else(|| {
                SimError::from(SimErrorKind::NoBrokerFor {
                    api: request.api_name(),
                })
            })?;
        if !self.brokers.contains_key(&target) {
            return Err(SimErrorKind::NoBroker { id: target }.into());
        }
        let api = request.api_name();
        if let Request::AlterPartition { .. } = request {
            return Ok(self.raw_alter_partition(request));
        }
        Ok(match self.raw_request(target, request) {
            Some(response) => response_lines(&response),
            None => vec![format!(
                "{api}: no response (the request or its answer was lost)"
            )],
        })
    }
}

/// One readable line (or a small table) per answer.
pub fn response_lines(response: &Response) -> Vec<String> {
    let results = |r: &[(TopicPartition, crate::protocol::errors::Errors)]| {
        r.iter()
            .map(|(tp, e)| format!("{tp}={}", e.name()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    match response {
        Response::InitProducerId { error, producer_id, producer_epoch } => {
            vec![format!("InitProducerId: error={} producerId={producer_id} epoch={producer_epoch}", error.name())]
        }
        Response::Produce { topic_partition, error, base_offset, .. } => {
            vec![format!("Produce {topic_partition}: error={} baseOffset={base_offset}", error.name())]
        }
        Response::AllocateProducerIds { error, producer_id_start, producer_id_len } => vec![format!(
            "AllocateProducerIds: error={} start={producer_id_start} len={producer_id_len}",
            error.name()
        )],
        Response::AlterPartition { topic_partition, error, .. } if *error != Errors::None => {
            vec![format!("AlterPartition {topic_partition}: error={}", error.name())]
        }
        Response::AlterPartition { topic_partition, error, leader_id, leader_epoch, partition_epoch, isr, leader_recovery_state } => vec![format!(
            "AlterPartition {topic_partition}: error={} leaderId={leader_id} leaderEpoch={leader_epoch} partitionEpoch={partition_epoch} isr={isr:?} leaderRecoveryState={}",
            error.name(),
            leader_recovery_state.name()
        )],
        Response::OffsetsForLeaderEpoch { topic_partition, error, leader_epoch, end_offset } => vec![format!(
            "OffsetsForLeaderEpoch {topic_partition}: error={} leaderEpoch={leader_epoch} endOffset={end_offset}",
            error.name()
        )],
        Response::FindCoordinator { error, node_id } => {
            vec![format!("FindCoordinator: error={} nodeId={node_id}", error.name())]
        }
        Response::AddPartitionsToTxn { results: r } => vec![format!("AddPartitionsToTxn: {}", results(r))],
        Response::AddOffsetsToTxn { error } => vec![format!("AddOffsetsToTxn: error={}", error.name())],
        Response::EndTxn { error, producer_id, producer_epoch } => {
            vec![format!("EndTxn: error={} producerId={producer_id} epoch={producer_epoch}", error.name())]
        }
        Response::WriteTxnMarkers { results: r } => {
            let parts: Vec<String> = r.iter().map(|(pid, tp, e)| format!("producerId={pid} {tp}={}", e.name())).collect();
            vec![format!("WriteTxnMarkers: {}", parts.join(" "))]
        }
        Response::Fetch { topic_partition, error, high_watermark, last_stable_offset, aborted_transactions, records, .. } => {
            let batches = crate::record::decode_all(records).map(|b| b.len()).unwrap_or(0);
            let aborted = aborted_transactions.as_ref().map_or("null".to_string(), |list| {
                let items: Vec<String> =
                    list.iter().map(|(p, f)| format!("(producerId={p}, firstOffset={f})")).collect();
                format!("[{}]", items.join(", "))
            });
            vec![format!(
                "Fetch {topic_partition}: error={} highWatermark={high_watermark} lastStableOffset={last_stable_offset} abortedTransactions={aborted} batches={batches} bytes={}",
                error.name(),
                records.len()
            )]
        }
        Response::ReplicaFetch { topic_partition, error, high_watermark, diverging_epoch, records, .. } => {
            let batches = crate::record::decode_all(records).map(|b| b.len()).unwrap_or(0);
            let diverging =
                diverging_epoch.map_or("null".to_string(), |(e, o)| format!("(epoch={e}, endOffset={o})"));
            vec![format!(
                "Fetch {topic_partition}: error={} highWatermark={high_watermark} divergingEpoch={diverging} batches={batches} bytes={}",
                error.name(),
                records.len()
            )]
        }
        Response::ListOffsets { topic_partition, error, offset } => {
            vec![format!("ListOffsets {topic_partition}: error={} offset={offset}", error.name())]
        }
        Response::DescribeTransactions { transactions } => transactions
            .iter()
            .map(|t| {
                let tps: Vec<String> = t.topic_partitions.iter().map(|tp| tp.to_string()).collect();
                format!(
                    "DescribeTransactions {}: error={} coordinator={} state={} producerId={} epoch={} timeoutMs={} partitions=[{}]",
                    t.transactional_id,
                    t.error.name(),
                    t.coordinator_id,
                    t.state,
                    t.producer_id,
                    t.producer_epoch,
                    t.transaction_timeout_ms,
                    tps.join(",")
                )
            })
            .collect(),
        Response::ListTransactions {
            error,
            transactions,
            unknown_state_filters,
        } => std::iter::once(if unknown_state_filters.is_empty() {
            format!("ListTransactions: error={}", error.name())
        } else {
            format!(
                "ListTransactions: error={} unknownStateFilters=[{}]",
                error.name(),
                unknown_state_filters.join(",")
            )
        })
            .chain(transactions.iter().map(|t| {
                format!("  {} coordinator={} producerId={} state={}", t.transactional_id, t.coordinator_id, t.producer_id, t.state)
            }))
            .collect(),
        Response::OffsetCommit { results: r } => vec![format!("OffsetCommit: {}", results(r))],
        Response::TxnOffsetCommit { results: r } => vec![format!("TxnOffsetCommit: {}", results(r))],
        Response::OffsetFetch { error, offsets } => {
            let parts: Vec<String> = offsets.iter().map(|(tp, o, e)| format!("{tp}={o} ({})", e.name())).collect();
            vec![format!("OffsetFetch: error={} {}", error.name(), parts.join(" "))]
        }
        Response::DeleteRecords { results: r } => {
            let parts: Vec<String> = r.iter().map(|(tp, lw, e)| format!("{tp}: lowWatermark={lw} error={}", e.name())).collect();
            vec![format!("DeleteRecords: {}", parts.join(" "))]
        }
        #[cfg(feature = "group-membership")]
        Response::JoinGroup { error, generation_id, leader, member_id, .. } => vec![format!(
            "JoinGroup: error={} generationId={generation_id} memberId={member_id} leader={leader}",
            error.name()
        )],
        #[cfg(feature = "group-membership")]
        Response::SyncGroup { error, assignment } => {
            let parts: Vec<String> = assignment.iter().map(|tp| tp.to_string()).collect();
            vec![format!("SyncGroup: error={} assignment=[{}]", error.name(), parts.join(", "))]
        }
        #[cfg(feature = "group-membership")]
        Response::Heartbeat { error } => vec![format!("Heartbeat: error={}", error.name())],
        #[cfg(feature = "group-membership")]
        Response::LeaveGroup { error } => vec![format!("LeaveGroup: error={}", error.name())],
    }
}

/// A FindCoordinator request by hand (for `raw find-coordinator`).
pub fn find_coordinator(key: String, group: bool) -> Request {
    Request::FindCoordinator {
        key,
        key_type: if group {
            CoordinatorType::Group
        } else {
            CoordinatorType::Transaction
        },
    }
}

impl World {
    /// AlterPartition by hand, as broker `broker_id` would send it, to the controller;
    /// a broker epoch of -1 is filled with the one the controller registered.
    fn raw_alter_partition(&mut self, mut request: Request) -> Vec<String> {
        if let Request::AlterPartition {
            broker_id,
            broker_epoch,
            ..
        } = &mut request
        {
            if *broker_epoch == -1 {
                *broker_epoch = self.broker_epochs.get(broker_id).copied().unwrap_or(-1);
            }
        }
        let cid = self.take_correlation_id();
        self.send(
            Node::Client(RAW_CLIENT.into()),
            self.controller_node(),
            cid,
            Body::Request(request),
        );
        self.run_while(|w| !w.raw_inbox.contains_key(&cid));
        match self.raw_inbox.remove(&cid) {
            Some(response) => response_lines(&response),
            None => vec!["AlterPartition: no response (the request or its answer was lost)".into()],
        }
    }

    /// Sends one request from the raw client and runs the world until its answer
    /// arrives (or nothing more can happen, when the request or answer was lost).
    pub(crate) fn raw_request(&mut self, broker: i32, request: Request) -> Option<Response> {
        let cid = self.take_correlation_id();
        self.send(
            Node::Client(RAW_CLIENT.into()),
            Node::Broker(broker),
            cid,
            Body::Request(request),
        );
        self.run_while(|w| !w.raw_inbox.contains_key(&cid));
        self.raw_inbox.remove(&cid)
    }

    /// InitProducerId by hand, retrying after `retry.backoff.ms` (100) while the broker
    /// answers with a retriable error (each retry kept as data for the edge to word).
    pub fn raw_init_producer_id(&mut self) -> RawOutcome {
        let bootstrap = self.brokers.keys().next().copied().unwrap_or(1);
        let mut lines = Vec::new();
        let mut retries = Vec::new();
        for _ in 0..10 {
            let request = Request::InitProducerId {
                transactional_id: None,
                transaction_timeout_ms: 60_000,
                producer_id: -1,
                producer_epoch: -1,
            };
            match self.raw_request(bootstrap, request) {
                Some(Response::InitProducerId {
                    error,
                    producer_id,
                    producer_epoch,
                }) if error == Errors::None => {
                    lines.push(format!("InitProducerId: error=NONE producerId={producer_id} epoch={producer_epoch}"));
                    return RawOutcome {
                        retries,
                        lines,
                        response: Some(Response::InitProducerId {
                            error,
                            producer_id,
                            producer_epoch,
                        }),
                    };
                }
                Some(r) if r.error().is_retriable() => {
                    retries.push(RawRetry {
                        error: r.error(),
                        backoff_ms: 100,
                    });
                    self.advance(100);
                }
                Some(r) => {
                    lines.push(format!("InitProducerId: error={}", r.error().name()));
                    return RawOutcome {
                        retries,
                        lines,
                        response: Some(r),
                    };
                }
                None => {
                    lines.push(
                        "InitProducerId: no response (the request or its answer was lost)".into(),
                    );
                    return RawOutcome {
                        retries,
                        lines,
                        response: None,
                    };
                }
            }
        }
        RawOutcome {
            retries,
            lines,
            response: None,
        }
    }

    /// A Produce (v12, acks=-1) of one idempotent batch with explicit numbers — the
    /// seed's `MemoryRecords.withIdempotentRecords` example.
    #[allow(clippy::too_many_arguments)]
    pub fn raw_produce(
        &mut self,
        tp: &TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        base_sequence: i32,
        transactional_id: Option<&str>,
        values: &[String],
        label: Option<&str>,
    ) -> Result<RawOutcome, SimError> {
        let leader = self.check_partition(tp)?;
        if values.is_empty() {
            return Err(SimErrorKind::EmptyBatch.into());
        }
        let kvs = values.iter().map(|v| crate::record::key_value(v)).collect();
        let batch = RecordBatch::new_data(
            0,
            producer_id,
            producer_epoch,
            base_sequence,
            transactional_id.is_some(),
            self.clock_ms,
            kvs,
        );
        let last = batch.last_sequence();
        let request = Request::Produce {
            transactional_id: transactional_id.map(str::to_string),
            acks: -1,
            timeout_ms: 30_000,
            topic_partition: tp.clone(),
            records: batch.encode(),
        };
        let response = self.raw_request(leader, request);
        let label = label.map(|l| format!("({l})")).unwrap_or_default();
        let line = match &response {
            Some(Response::Produce {
                error, base_offset, ..
            }) => format!(
                "seq {base_sequence:>2}..{last:>2} {label:<35}-> error={} baseOffset={base_offset}",
                error.name()
            ),
            _ => format!("seq {base_sequence:>2}..{last:>2} {label:<35}-> no response (lost)"),
        };
        Ok(RawOutcome {
            retries: Vec::new(),
            lines: vec![line],
            response,
        })
    }
}
