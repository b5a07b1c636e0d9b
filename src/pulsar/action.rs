//! Everything a learner, a lesson or a test can do to the Pulsar world, and what each
//! call returned (as data: the scenario runner and the pages word it).

use serde::{Deserialize, Serialize};

use super::{Position, PulsarError, TxnID};
use crate::sim::Fault;

/// `SubscriptionType`, as far as transactions care: Shared and Key_Shared may not ack
/// cumulatively (the client refuses it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SubscriptionType {
    #[default]
    Exclusive,
    Shared,
    Failover,
    #[serde(rename = "Key_Shared")]
    KeyShared,
}

impl SubscriptionType {
    pub fn name(self) -> &'static str {
        match self {
            SubscriptionType::Exclusive => "Exclusive",
            SubscriptionType::Shared => "Shared",
            SubscriptionType::Failover => "Failover",
            SubscriptionType::KeyShared => "Key_Shared",
        }
    }
    pub fn parse(s: &str) -> Option<SubscriptionType> {
        [
            SubscriptionType::Exclusive,
            SubscriptionType::Shared,
            SubscriptionType::Failover,
            SubscriptionType::KeyShared,
        ]
        .into_iter()
        .find(|t| t.name() == s)
    }
    /// `isCumulativeAcknowledgementAllowed`.
    pub fn allows_cumulative_ack(self) -> bool {
        matches!(
            self,
            SubscriptionType::Exclusive | SubscriptionType::Failover
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PulsarAction {
    /// A partitioned topic `NAME-partition-0..N`.
    CreateTopic {
        name: String,
        partitions: u32,
    },
    /// A consumer on a new subscription of one partition, from the earliest entry.
    Subscribe {
        consumer: String,
        topic: String,
        subscription: String,
        #[serde(default)]
        sub_type: SubscriptionType,
        /// `deadLetterPolicy(maxRedeliverCount)`: a message redelivered more often goes
        /// to the dead-letter topic `TOPIC-SUBSCRIPTION-DLQ`.
        #[serde(default)]
        max_redeliver_count: Option<u32>,
    },
    /// `producer.newMessage([txn]).value(v).send()` for each value.
    Send {
        producer: String,
        topic: String,
        values: Vec<String>,
        txn: Option<String>,
        /// An explicit sequence id for the first value (a resend); else the next one.
        sequence_id: Option<i64>,
        /// `deliverAfter(ms)`: dispatched no earlier than this long after the send.
        #[serde(default)]
        deliver_after_ms: Option<i64>,
        /// The values go in one batch: one entry, each message at a batch index.
        #[serde(default)]
        batch: bool,
    },
    /// Flow permits: the broker dispatches up to this many entries.
    Receive {
        consumer: String,
        permits: u32,
    },
    /// `consumer.acknowledgeAsync(messageIds[, txn])`.
    Ack {
        consumer: String,
        positions: Vec<Position>,
        txn: Option<String>,
        /// `acknowledgeCumulativeAsync`: everything up to the one position.
        #[serde(default)]
        cumulative: bool,
    },
    /// `consumer.negativeAcknowledge(messageIds)`: the client asks the broker to
    /// redeliver them (or, past `maxRedeliverCount`, sends them to its dead-letter topic).
    Nack {
        consumer: String,
        positions: Vec<Position>,
    },
    /// The managed ledger of a partition (or, with a subscription, that subscription's
    /// pending-ack log) starts or stops refusing appends (a BookKeeper write failure).
    FailLedger {
        topic: String,
        subscription: Option<String>,
        failing: bool,
    },
    /// `client.newTransaction().withTransactionTimeout(..).build()`, named for the script.
    NewTxn {
        name: String,
        timeout_ms: Option<i64>,
    },
    /// `txn.commit()` or `txn.abort()`.
    EndTxn {
        name: String,
        commit: bool,
    },
    /// The coordinator loses its memory (its broker crashed or it was unloaded).
    CrashCoordinator {
        tc: u64,
    },
    /// A coordinator loads again by replaying its transaction log; the load takes
    /// `replay_ms` of logical time (0: at once), while which it answers
    /// TransactionCoordinatorNotFound and clients retry.
    RecoverCoordinator {
        tc: u64,
        #[serde(default)]
        replay_ms: i64,
    },
    /// The topic partition is unloaded and loaded again (`pulsar-admin topics
    /// unload`): its transaction buffer recovers from its snapshot and the ledger after
    /// it (Initializing for `replay_ms`), each subscription replays its pending-ack log
    /// and dispatches again from its mark-delete position.
    UnloadTopic {
        topic: String,
        #[serde(default)]
        replay_ms: i64,
    },
    /// The coordinator store's `updateTxnStatus(txn, new, expected)` asked directly:
    /// refused with InvalidTxnStatusException unless the transaction is in `expected`
    /// and `TransactionUtil.canTransitionTo(new)` allows it.
    UpdateTxnStatus {
        name: String,
        new: super::TxnStatus,
        expected: super::TxnStatus,
    },
    /// The transaction buffer of a partition writes its snapshot.
    TakeSnapshot {
        topic: String,
    },
    /// Let logical time pass.
    Run {
        ms: i64,
    },
    Arm {
        fault: Fault,
    },
    /// Releases held commands of one API.
    Release {
        api: String,
    },
    /// Clears armed faults (holds stay until released).
    Heal,
}

/// What a call returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    TxnOpened {
        name: String,
        result: Result<TxnID, PulsarError>,
    },
    /// Per value: its position (`-1:-1` for a duplicate) or the exception.
    Sent(Vec<(String, Result<Position, PulsarError>)>),
    Received {
        consumer: String,
        entries: Vec<(Position, String)>,
        /// Messages the client sent to its dead-letter topic instead: the original
        /// position, the dead-letter topic and the position there.
        dead_lettered: Vec<(Position, String, Position)>,
    },
    /// A negative ack: what the client asked the broker to redeliver, and what it sent
    /// to the dead-letter topic instead.
    Nacked {
        redelivered: Vec<Position>,
        dead_lettered: Vec<(Position, String, Position)>,
    },
    Acked {
        result: Result<(), PulsarError>,
    },
    Ended {
        name: String,
        commit: bool,
        result: Result<(), PulsarError>,
    },
    Released {
        count: usize,
    },
    StatusUpdated {
        name: String,
        result: Result<(), PulsarError>,
    },
}
