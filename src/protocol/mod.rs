//! The requests and responses that travel through the simulated network, named after
//! Kafka's APIs (`InitProducerIdRequestData`, `ProduceRequestData`, …).
//!
//! Simplified: one partition per Produce and Fetch request, and no wire framing — the
//! record batches inside Produce and Fetch are real v2 bytes, everything else is a
//! Rust value.
//!
//! Beside them, what clients, brokers and the controller all read, as Kafka's
//! `org.apache.kafka.common` holds it: settings typed and validated by `ConfigDef`
//! ([`config_def`], [`config_error`]) and the rules for topic names ([`topic`]).

pub mod config_def;
pub mod config_error;
pub mod election_type;
pub mod error_detail;
pub mod errors;
pub mod leader_recovery_state;
pub mod topic;
pub mod topic_partition;

pub use election_type::ElectionType;
pub use error_detail::ErrorDetail;
pub use errors::Errors;
pub use leader_recovery_state::LeaderRecoveryState;
pub use topic_partition::{FetchIsolation, TopicPartition};

use serde::{Deserialize, Serialize};

/// What a FindCoordinator asks for (`CoordinatorType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoordinatorType {
    Group,
    Transaction,
}

/// The outcome a WriteTxnMarkers entry writes (`TransactionResult`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MarkerResult {
    Commit,
    Abort,
}

/// One entry of a WriteTxnMarkers request: a producer's marker for some partitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxnMarkerEntry {
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub result: MarkerResult,
    pub coordinator_epoch: i32,
    pub partitions: Vec<TopicPartition>,
    /// The transaction's version (`TransactionVersion`, WriteTxnMarkers v2, KIP-1228,
    /// Kafka 4.2): the coordinator sends its transaction's `clientTransactionVersion`,
    /// and the leader checks this marker's epoch by it, not by the cluster's level. A
    /// v1 request has no such field and is read as 0 (the rule before TV2).
    #[serde(default)]
    pub transaction_version: i16,
}

/// A committed offset in a group (`OffsetCommit`/`TxnOffsetCommit` partition data).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffsetEntry {
    pub topic_partition: TopicPartition,
    pub offset: i64,
}

/// A request from a client (or another broker) to a broker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// `InitProducerId`: a producer id and epoch for an idempotent (or transactional) producer.
    /// `producer_id`/`producer_epoch` (v3+, KIP-360) are the ones the producer has, so
    /// the coordinator can bump that epoch instead of fencing; -1/-1 when it has none.
    InitProducerId {
        transactional_id: Option<String>,
        transaction_timeout_ms: i32,
        #[serde(default = "no_producer_id")]
        producer_id: i64,
        #[serde(default = "no_producer_epoch")]
        producer_epoch: i16,
    },
    /// `Produce` (v12, acks as given) carrying one encoded record batch for one partition.
    Produce {
        /// Set by a transactional producer, so the leader can find its coordinator.
        transactional_id: Option<String>,
        acks: i16,
        timeout_ms: i32,
        topic_partition: TopicPartition,
        records: Vec<u8>,
    },
    /// `AllocateProducerIds`: a broker asks the controller for its next block of ids.
    AllocateProducerIds { broker_id: i32 },
    /// `OffsetsForLeaderEpoch` for one partition: where the leader's log ends for
    /// `leader_epoch` (the largest epoch it knows at or below it, and the start of
    /// the next). `current_leader_epoch` (-1: none) is fenced as a Fetch's is.
    OffsetsForLeaderEpoch {
        topic_partition: TopicPartition,
        current_leader_epoch: i32,
        leader_epoch: i32,
    },
    /// `AlterPartition` (leader to controller, one partition): the ISR the leader
    /// wants, built on the leader and partition epochs it knows, and its recovery
    /// state (KIP-704: RECOVERED once a leader from an unclean election recovered).
    AlterPartition {
        broker_id: i32,
        broker_epoch: i64,
        topic_partition: TopicPartition,
        leader_epoch: i32,
        partition_epoch: i32,
        new_isr: Vec<i32>,
        #[serde(default)]
        leader_recovery_state: LeaderRecoveryState,
    },
    /// `FindCoordinator`: which broker coordinates this transactional id or group.
    FindCoordinator {
        key: String,
        key_type: CoordinatorType,
    },
    /// `AddPartitionsToTxn` (v4+, broker to coordinator): add — or, for old clients,
    /// only verify — partitions of a transaction before a transactional write.
    AddPartitionsToTxn {
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        partitions: Vec<TopicPartition>,
        verify_only: bool,
    },
    /// `AddOffsetsToTxn` (client to coordinator, transaction.version 0/1): adds the
    /// group's `__consumer_offsets` partition to the transaction before the client's
    /// TxnOffsetCommit, so the markers reach the offsets (Kafka's
    /// `KafkaApis.handleAddOffsetsToTxnRequest`); under TV2 the client skips it.
    AddOffsetsToTxn {
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        group_id: String,
    },
    /// `EndTxn`: commit or abort the producer's transaction.
    EndTxn {
        transactional_id: String,
        producer_id: i64,
        producer_epoch: i16,
        committed: bool,
        /// The EndTxn request version a raw request names (0–5; KafkaApis reads
        /// above 4 as a transaction.version 2 client, below 2 answers
        /// INVALID_PRODUCER_EPOCH for PRODUCER_FENCED). None: the version the
        /// cluster's clients negotiate.
        #[serde(default)]
        version: Option<i16>,
    },
    /// `WriteTxnMarkers` (coordinator to partition leader).
    WriteTxnMarkers { markers: Vec<TxnMarkerEntry> },
    /// `Fetch` for one partition with an isolation level.
    Fetch {
        topic_partition: TopicPartition,
        fetch_offset: i64,
        max_bytes: i32,
        isolation: FetchIsolation,
        /// The leader epoch the consumer knows (Fetch v9+, KIP-320; -1: none): the
        /// broker fences an older one and does not know a newer one yet
        /// (`Partition.checkCurrentLeaderEpoch`).
        #[serde(default = "no_leader_epoch")]
        current_leader_epoch: i32,
    },
    /// `Fetch` from a follower (`replica_id` ≥ 0): its LEO as `fetch_offset`, the
    /// leader epoch it knows and the epoch of its last batch, so the leader can say
    /// where their logs diverge (KIP-320/595, Kafka 4.0's `divergingEpoch`).
    ReplicaFetch {
        topic_partition: TopicPartition,
        replica_id: i32,
        /// The follower's broker epoch (`ReplicaState.ReplicaEpoch`, Fetch v15+,
        /// KIP-903); -1 skips the leader's epoch checks.
        #[serde(default = "no_broker_epoch")]
        replica_epoch: i64,
        fetch_offset: i64,
        current_leader_epoch: i32,
        last_fetched_epoch: Option<i32>,
        max_bytes: i32,
        /// The follower's log start offset (FetchRequest v5+ `logStartOffset`): what
        /// the leader's DeleteRecords waits for (`Partition.lowWatermarkIfLeader`).
        #[serde(default)]
        log_start_offset: i64,
    },
    /// `ListOffsets` for the latest offset: the HW, or the LSO for `read_committed`
    /// (the LEO for a follower's `LogEnd`); with `earliest`, the log start offset
    /// (`EARLIEST_TIMESTAMP`).
    ListOffsets {
        topic_partition: TopicPartition,
        isolation: FetchIsolation,
        #[serde(default)]
        earliest: bool,
        /// The leader epoch the client knows (ListOffsets v4+, KIP-320; -1: none),
        /// checked as a Fetch's.
        #[serde(default = "no_leader_epoch")]
        current_leader_epoch: i32,
    },
    /// `DescribeTransactions`.
    DescribeTransactions { transactional_ids: Vec<String> },
    /// `ListTransactions` with its filters (empty: no filter): state names, producer
    /// ids, and (v1+, KIP-994) transactions open longer than `duration_filter_ms`
    /// (-1: no filter).
    ListTransactions {
        #[serde(default)]
        state_filters: Vec<String>,
        #[serde(default)]
        producer_id_filters: Vec<i64>,
        #[serde(default = "no_duration_filter")]
        duration_filter_ms: i64,
    },
    /// `OffsetCommit` (non-transactional), with the committing member's generation and
    /// member id (-1 and empty for a simple group; links made before they existed read
    /// so).
    OffsetCommit {
        group_id: String,
        offsets: Vec<OffsetEntry>,
        #[serde(default = "no_generation")]
        generation_id: i32,
        #[serde(default)]
        member_id: String,
        #[serde(default)]
        group_instance_id: Option<String>,
    },
    /// `TxnOffsetCommit`: offsets that commit or abort with the producer's transaction.
    TxnOffsetCommit {
        transactional_id: String,
        group_id: String,
        producer_id: i64,
        producer_epoch: i16,
        offsets: Vec<OffsetEntry>,
        /// The consumer's group metadata (`sendOffsetsToTransaction(offsets,
        /// consumer.groupMetadata())`, KIP-447): -1/empty for a simple group.
        #[serde(default = "no_generation")]
        generation_id: i32,
        #[serde(default)]
        member_id: String,
        #[serde(default)]
        group_instance_id: Option<String>,
        /// The request's version, which says what the group coordinator does with the
        /// offsets partition: above 4 (a transaction.version 2 client) it adds it to the
        /// transaction, at 4 or below it only checks it is there. Without it, the
        /// version the cluster's clients negotiate.
        #[serde(default)]
        version: Option<i16>,
    },
    #[cfg(feature = "group-membership")]
    /// `JoinGroup` (v4+) with one `consumer` protocol (`range`) whose metadata is the
    /// subscribed topics. An empty member id asks for one (MEMBER_ID_REQUIRED).
    JoinGroup {
        group_id: String,
        member_id: String,
        client_id: String,
        session_timeout_ms: i32,
        rebalance_timeout_ms: i32,
        topics: Vec<String>,
    },
    #[cfg(feature = "group-membership")]
    /// `SyncGroup`: the leader sends every member's assignment, the others none.
    SyncGroup {
        group_id: String,
        generation_id: i32,
        member_id: String,
        assignments: Vec<(String, Vec<TopicPartition>)>,
    },
    #[cfg(feature = "group-membership")]
    /// `Heartbeat`.
    Heartbeat {
        group_id: String,
        generation_id: i32,
        member_id: String,
    },
    #[cfg(feature = "group-membership")]
    /// `LeaveGroup` (v3+, one member).
    LeaveGroup { group_id: String, member_id: String },
    /// `OffsetFetch` with `require_stable` (as a read_committed consumer asks).
    OffsetFetch {
        group_id: String,
        partitions: Vec<TopicPartition>,
        require_stable: bool,
    },
    /// `DeleteRecords` (Admin.deleteRecords, `kafka-delete-records.sh`): move each
    /// partition's log start to `offset` (-1: to the HW).
    DeleteRecords {
        partitions: Vec<(TopicPartition, i64)>,
        timeout_ms: i32,
    },
}

/// Every API name [`Request::api_name`] gives (what `hold requests API` accepts).
pub const API_NAMES: &[&str] = &[
    "InitProducerId",
    "Produce",
    "AllocateProducerIds",
    "AlterPartition",
    "OffsetsForLeaderEpoch",
    "FindCoordinator",
    "AddPartitionsToTxn",
    "AddOffsetsToTxn",
    "EndTxn",
    "WriteTxnMarkers",
    "Fetch",
    "ListOffsets",
    "DescribeTransactions",
    "ListTransactions",
    "OffsetCommit",
    "TxnOffsetCommit",
    "OffsetFetch",
    "DeleteRecords",
    "JoinGroup",
    "SyncGroup",
    "Heartbeat",
    "LeaveGroup",
];

impl Request {
    /// Kafka's API name, for timelines and narration.
    pub fn api_name(&self) -> &'static str {
        match self {
            Request::InitProducerId { .. } => "InitProducerId",
            Request::Produce { .. } => "Produce",
            Request::AllocateProducerIds { .. } => "AllocateProducerIds",
            Request::AlterPartition { .. } => "AlterPartition",
            Request::OffsetsForLeaderEpoch { .. } => "OffsetsForLeaderEpoch",
            Request::FindCoordinator { .. } => "FindCoordinator",
            Request::AddPartitionsToTxn { .. } => "AddPartitionsToTxn",
            Request::AddOffsetsToTxn { .. } => "AddOffsetsToTxn",
            Request::EndTxn { .. } => "EndTxn",
            Request::WriteTxnMarkers { .. } => "WriteTxnMarkers",
            Request::Fetch { .. } | Request::ReplicaFetch { .. } => "Fetch",
            Request::ListOffsets { .. } => "ListOffsets",
            Request::DescribeTransactions { .. } => "DescribeTransactions",
            Request::ListTransactions { .. } => "ListTransactions",
            Request::OffsetCommit { .. } => "OffsetCommit",
            Request::TxnOffsetCommit { .. } => "TxnOffsetCommit",
            Request::OffsetFetch { .. } => "OffsetFetch",
            Request::DeleteRecords { .. } => "DeleteRecords",
            #[cfg(feature = "group-membership")]
            Request::JoinGroup { .. } => "JoinGroup",
            #[cfg(feature = "group-membership")]
            Request::SyncGroup { .. } => "SyncGroup",
            #[cfg(feature = "group-membership")]
            Request::Heartbeat { .. } => "Heartbeat",
            #[cfg(feature = "group-membership")]
            Request::LeaveGroup { .. } => "LeaveGroup",
        }
    }

    /// The transactional id of a request that the transaction coordinator answers
    /// (InitProducerId with an id, AddPartitionsToTxn, EndTxn), else None.
    pub fn coordinator_txn_id(&self) -> Option<&str> {
        match self {
            Request::InitProducerId {
                transactional_id: Some(id),
                ..
            }
            | Request::AddPartitionsToTxn {
                transactional_id: id,
                ..
            }
            | Request::AddOffsetsToTxn {
                transactional_id: id,
                ..
            }
            | Request::EndTxn {
                transactional_id: id,
                ..
            } => Some(id),
            _ => None,
        }
    }
}

/// One row of DescribeTransactions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionDescription {
    pub coordinator_id: i32,
    pub transactional_id: String,
    pub error: Errors,
    pub state: String,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub transaction_timeout_ms: i32,
    pub transaction_start_time_ms: i64,
    pub topic_partitions: Vec<TopicPartition>,
}

impl TransactionDescription {
    /// The row of a transactional id that could not be described.
    pub fn failed(coordinator_id: i32, transactional_id: String, error: Errors) -> Self {
        TransactionDescription {
            coordinator_id,
            transactional_id,
            error,
            state: String::new(),
            producer_id: -1,
            producer_epoch: -1,
            transaction_timeout_ms: 0,
            transaction_start_time_ms: -1,
            topic_partitions: Vec::new(),
        }
    }
}

/// ListTransactions' `DurationFilter` when the request has none.
fn no_duration_filter() -> i64 {
    -1
}

/// One row of ListTransactions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransactionListing {
    pub transactional_id: String,
    pub coordinator_id: i32,
    pub producer_id: i64,
    pub state: String,
}

/// A broker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Response {
    InitProducerId {
        error: Errors,
        producer_id: i64,
        producer_epoch: i16,
    },
    Produce {
        topic_partition: TopicPartition,
        error: Errors,
        /// First offset of the batch (-1 on error); for a duplicate, the original offset.
        base_offset: i64,
        log_start_offset: i64,
        /// Kafka's `errorMessage`, as data.
        error_message: Option<ErrorDetail>,
    },
    AllocateProducerIds {
        error: Errors,
        producer_id_start: i64,
        producer_id_len: i32,
    },
    /// `EpochEndOffset`: -1/-1 when the log cannot place the epoch.
    OffsetsForLeaderEpoch {
        topic_partition: TopicPartition,
        error: Errors,
        leader_epoch: i32,
        end_offset: i64,
    },
    /// The controller's answer: on NONE, the partition as it now is.
    AlterPartition {
        topic_partition: TopicPartition,
        error: Errors,
        leader_id: i32,
        leader_epoch: i32,
        partition_epoch: i32,
        isr: Vec<i32>,
        #[serde(default)]
        leader_recovery_state: LeaderRecoveryState,
    },
    FindCoordinator {
        error: Errors,
        node_id: i32,
    },
    AddPartitionsToTxn {
        results: Vec<(TopicPartition, Errors)>,
    },
    AddOffsetsToTxn {
        error: Errors,
    },
    EndTxn {
        error: Errors,
        producer_id: i64,
        producer_epoch: i16,
    },
    /// Per producer id and partition.
    WriteTxnMarkers {
        results: Vec<(i64, TopicPartition, Errors)>,
    },
    Fetch {
        topic_partition: TopicPartition,
        error: Errors,
        high_watermark: i64,
        last_stable_offset: i64,
        log_start_offset: i64,
        /// (producer id, first offset), for read_committed only.
        aborted_transactions: Option<Vec<(i64, i64)>>,
        records: Vec<u8>,
    },
    /// The leader's answer to a follower: batches from its LEO, the leader's HW, or
    /// `diverging_epoch` (epoch, end offset) when the follower must truncate first.
    ReplicaFetch {
        topic_partition: TopicPartition,
        error: Errors,
        high_watermark: i64,
        log_start_offset: i64,
        diverging_epoch: Option<(i32, i64)>,
        records: Vec<u8>,
    },
    ListOffsets {
        topic_partition: TopicPartition,
        error: Errors,
        offset: i64,
    },
    DescribeTransactions {
        transactions: Vec<TransactionDescription>,
    },
    ListTransactions {
        error: Errors,
        transactions: Vec<TransactionListing>,
        /// The state filters that name no state (`UnknownStateFilters`).
        #[serde(default)]
        unknown_state_filters: Vec<String>,
    },
    OffsetCommit {
        results: Vec<(TopicPartition, Errors)>,
    },
    TxnOffsetCommit {
        results: Vec<(TopicPartition, Errors)>,
    },
    /// Offset -1 when nothing is committed.
    OffsetFetch {
        error: Errors,
        offsets: Vec<(TopicPartition, i64, Errors)>,
    },
    /// Per partition: the low watermark (-1 on error) and the error.
    DeleteRecords {
        results: Vec<(TopicPartition, i64, Errors)>,
    },
    #[cfg(feature = "group-membership")]
    /// The generation, its protocol and leader, the member's id; the leader also gets
    /// every member's subscription.
    JoinGroup {
        error: Errors,
        generation_id: i32,
        protocol_name: Option<String>,
        leader: String,
        member_id: String,
        members: Vec<(String, Vec<String>)>,
    },
    #[cfg(feature = "group-membership")]
    /// The member's partitions.
    SyncGroup {
        error: Errors,
        assignment: Vec<TopicPartition>,
    },
    #[cfg(feature = "group-membership")]
    Heartbeat {
        error: Errors,
    },
    #[cfg(feature = "group-membership")]
    LeaveGroup {
        error: Errors,
    },
}

impl Response {
    /// A Produce answer for one partition.
    pub fn produce(
        tp: &TopicPartition,
        error: Errors,
        base_offset: i64,
        error_message: Option<ErrorDetail>,
    ) -> Response {
        Response::Produce {
            topic_partition: tp.clone(),
            error,
            base_offset,
            log_start_offset: 0,
            error_message,
        }
    }

    /// A Fetch answer that carries only an error.
    pub fn fetch_error(tp: &TopicPartition, error: Errors) -> Response {
        Response::Fetch {
            topic_partition: tp.clone(),
            error,
            high_watermark: -1,
            last_stable_offset: -1,
            log_start_offset: -1,
            aborted_transactions: None,
            records: Vec::new(),
        }
    }

    pub fn api_name(&self) -> &'static str {
        match self {
            Response::InitProducerId { .. } => "InitProducerId",
            Response::Produce { .. } => "Produce",
            Response::AllocateProducerIds { .. } => "AllocateProducerIds",
            Response::AlterPartition { .. } => "AlterPartition",
            Response::OffsetsForLeaderEpoch { .. } => "OffsetsForLeaderEpoch",
            Response::FindCoordinator { .. } => "FindCoordinator",
            Response::AddPartitionsToTxn { .. } => "AddPartitionsToTxn",
            Response::AddOffsetsToTxn { .. } => "AddOffsetsToTxn",
            Response::EndTxn { .. } => "EndTxn",
            Response::WriteTxnMarkers { .. } => "WriteTxnMarkers",
            Response::Fetch { .. } | Response::ReplicaFetch { .. } => "Fetch",
            Response::ListOffsets { .. } => "ListOffsets",
            Response::DescribeTransactions { .. } => "DescribeTransactions",
            Response::ListTransactions { .. } => "ListTransactions",
            Response::OffsetCommit { .. } => "OffsetCommit",
            Response::TxnOffsetCommit { .. } => "TxnOffsetCommit",
            Response::OffsetFetch { .. } => "OffsetFetch",
            Response::DeleteRecords { .. } => "DeleteRecords",
            #[cfg(feature = "group-membership")]
            Response::JoinGroup { .. } => "JoinGroup",
            #[cfg(feature = "group-membership")]
            Response::SyncGroup { .. } => "SyncGroup",
            #[cfg(feature = "group-membership")]
            Response::Heartbeat { .. } => "Heartbeat",
            #[cfg(feature = "group-membership")]
            Response::LeaveGroup { .. } => "LeaveGroup",
        }
    }

    /// The top-level error, or the first partition's error for per-partition answers.
    pub fn error(&self) -> Errors {
        let first = |v: &[(TopicPartition, Errors)]| {
            v.iter()
                .map(|(_, e)| *e)
                .find(|e| *e != Errors::None)
                .unwrap_or(Errors::None)
        };
        match self {
            Response::InitProducerId { error, .. }
            | Response::Produce { error, .. }
            | Response::AllocateProducerIds { error, .. }
            | Response::AlterPartition { error, .. }
            | Response::OffsetsForLeaderEpoch { error, .. }
            | Response::FindCoordinator { error, .. }
            | Response::EndTxn { error, .. }
            | Response::AddOffsetsToTxn { error }
            | Response::Fetch { error, .. }
            | Response::ReplicaFetch { error, .. }
            | Response::ListOffsets { error, .. }
            | Response::ListTransactions { error, .. }
            | Response::OffsetFetch { error, .. } => *error,
            #[cfg(feature = "group-membership")]
            Response::JoinGroup { error, .. }
            | Response::SyncGroup { error, .. }
            | Response::Heartbeat { error }
            | Response::LeaveGroup { error } => *error,
            Response::AddPartitionsToTxn { results }
            | Response::OffsetCommit { results }
            | Response::TxnOffsetCommit { results } => first(results),
            Response::WriteTxnMarkers { results } => results
                .iter()
                .map(|(_, _, e)| *e)
                .find(|e| *e != Errors::None)
                .unwrap_or(Errors::None),
            Response::DeleteRecords { results } => results
                .iter()
                .map(|(_, _, e)| *e)
                .find(|e| *e != Errors::None)
                .unwrap_or(Errors::None),
            Response::DescribeTransactions { transactions } => transactions
                .iter()
                .map(|t| t.error)
                .find(|e| *e != Errors::None)
                .unwrap_or(Errors::None),
        }
    }
}

/// The response a request gets when it fails as a whole with `error`: the same API's
/// response carrying only the error, for every partition it names (Kafka's
/// `AbstractRequest.getErrorResponse`). Brokers answer this way, and so does an
/// injected network fault.
pub fn error_response(request: &Request, error: Errors) -> Response {
    let each = |tps: &[TopicPartition]| tps.iter().map(|tp| (tp.clone(), error)).collect();
    match request {
        Request::InitProducerId { .. } => Response::InitProducerId {
            error,
            producer_id: -1,
            producer_epoch: -1,
        },
        Request::Produce {
            topic_partition, ..
        } => Response::produce(topic_partition, error, -1, None),
        Request::AllocateProducerIds { .. } => Response::AllocateProducerIds {
            error,
            producer_id_start: -1,
            producer_id_len: 0,
        },
        Request::AlterPartition {
            topic_partition, ..
        } => Response::AlterPartition {
            topic_partition: topic_partition.clone(),
            error,
            leader_id: -1,
            leader_epoch: -1,
            partition_epoch: -1,
            isr: Vec::new(),
            leader_recovery_state: LeaderRecoveryState::Recovered,
        },
        Request::OffsetsForLeaderEpoch {
            topic_partition, ..
        } => Response::OffsetsForLeaderEpoch {
            topic_partition: topic_partition.clone(),
            error,
            leader_epoch: -1,
            end_offset: -1,
        },
        Request::FindCoordinator { .. } => Response::FindCoordinator { error, node_id: -1 },
        Request::AddPartitionsToTxn { partitions, .. } => Response::AddPartitionsToTxn {
            results: each(partitions),
        },
        Request::AddOffsetsToTxn { .. } => Response::AddOffsetsToTxn { error },
        Request::EndTxn { .. } => Response::EndTxn {
            error,
            producer_id: -1,
            producer_epoch: -1,
        },
        Request::WriteTxnMarkers { markers } => Response::WriteTxnMarkers {
            results: markers
                .iter()
                .flat_map(|m| {
                    m.partitions
                        .iter()
                        .map(move |tp| (m.producer_id, tp.clone(), error))
                })
                .collect(),
        },
        Request::Fetch {
            topic_partition, ..
        } => Response::fetch_error(topic_partition, error),
        Request::ReplicaFetch {
            topic_partition, ..
        } => Response::ReplicaFetch {
            topic_partition: topic_partition.clone(),
            error,
            high_watermark: -1,
            log_start_offset: -1,
            diverging_epoch: None,
            records: Vec::new(),
        },
        Request::ListOffsets {
            topic_partition, ..
        } => Response::ListOffsets {
            topic_partition: topic_partition.clone(),
            error,
            offset: -1,
        },
        Request::DescribeTransactions { transactional_ids } => Response::DescribeTransactions {
            transactions: transactional_ids
                .iter()
                .map(|id| TransactionDescription::failed(-1, id.clone(), error))
                .collect(),
        },
        Request::ListTransactions { .. } => Response::ListTransactions {
            error,
            transactions: Vec::new(),
            unknown_state_filters: Vec::new(),
        },
        Request::OffsetCommit { offsets, .. } => Response::OffsetCommit {
            results: offsets
                .iter()
                .map(|o| (o.topic_partition.clone(), error))
                .collect(),
        },
        Request::TxnOffsetCommit { offsets, .. } => Response::TxnOffsetCommit {
            results: offsets
                .iter()
                .map(|o| (o.topic_partition.clone(), error))
                .collect(),
        },
        Request::OffsetFetch { partitions, .. } => Response::OffsetFetch {
            error,
            offsets: partitions
                .iter()
                .map(|tp| (tp.clone(), -1, error))
                .collect(),
        },
        Request::DeleteRecords { partitions, .. } => Response::DeleteRecords {
            results: partitions
                .iter()
                .map(|(tp, _)| (tp.clone(), -1, error))
                .collect(),
        },
        #[cfg(feature = "group-membership")]
        Request::JoinGroup { member_id, .. } => Response::JoinGroup {
            error,
            generation_id: -1,
            protocol_name: None,
            leader: String::new(),
            member_id: member_id.clone(),
            members: Vec::new(),
        },
        #[cfg(feature = "group-membership")]
        Request::SyncGroup { .. } => Response::SyncGroup {
            error,
            assignment: Vec::new(),
        },
        #[cfg(feature = "group-membership")]
        Request::Heartbeat { .. } => Response::Heartbeat { error },
        #[cfg(feature = "group-membership")]
        Request::LeaveGroup { .. } => Response::LeaveGroup { error },
    }
}

/// InitProducerId's `producerId` when the producer has none (and in links made before
/// the field existed).
fn no_producer_id() -> i64 {
    crate::record::NO_PRODUCER_ID
}

/// InitProducerId's `producerEpoch` when the producer has none.
fn no_producer_epoch() -> i16 {
    crate::record::NO_PRODUCER_EPOCH
}

/// A commit without a generation (a simple group's): -1.
fn no_generation() -> i32 {
    -1
}

/// A request without a current leader epoch (before KIP-320): -1.
fn no_leader_epoch() -> i32 {
    -1
}

/// A Fetch without a broker epoch (before Fetch v15): -1.
fn no_broker_epoch() -> i64 {
    -1
}
