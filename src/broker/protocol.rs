//! The requests and responses that travel through the simulated network, named after
//! Kafka's APIs (`InitProducerIdRequestData`, `ProduceRequestData`, …).
//!
//! Simplified: one partition per Produce request, and no wire framing — the record
//! batch inside a Produce request is real v2 bytes, everything else is a Rust value.

use serde::{Deserialize, Serialize};

use crate::errors::Errors;
use crate::log::TopicPartition;

/// A request from a client (or another broker) to a broker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// `InitProducerId`: a producer id and epoch for an idempotent (or transactional) producer.
    InitProducerId {
        transactional_id: Option<String>,
        transaction_timeout_ms: i32,
    },
    /// `Produce` (v12, acks as given) carrying one encoded record batch for one partition.
    Produce {
        acks: i16,
        timeout_ms: i32,
        topic_partition: TopicPartition,
        records: Vec<u8>,
    },
    /// `AllocateProducerIds`: a broker asks the controller for its next block of ids.
    AllocateProducerIds { broker_id: i32 },
}

impl Request {
    /// Kafka's API name, for timelines and narration.
    pub fn api_name(&self) -> &'static str {
        match self {
            Request::InitProducerId { .. } => "InitProducerId",
            Request::Produce { .. } => "Produce",
            Request::AllocateProducerIds { .. } => "AllocateProducerIds",
        }
    }
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
        error_message: Option<String>,
    },
    AllocateProducerIds {
        error: Errors,
        producer_id_start: i64,
        producer_id_len: i32,
    },
}

impl Response {
    pub fn api_name(&self) -> &'static str {
        match self {
            Response::InitProducerId { .. } => "InitProducerId",
            Response::Produce { .. } => "Produce",
            Response::AllocateProducerIds { .. } => "AllocateProducerIds",
        }
    }

    pub fn error(&self) -> Errors {
        match self {
            Response::InitProducerId { error, .. }
            | Response::Produce { error, .. }
            | Response::AllocateProducerIds { error, .. } => *error,
        }
    }
}
