//! What the Pulsar pages and the comparison page say, as plain values: the rows of the
//! differences tables, the facts each engine showed for a row, and the pages' fixed
//! labels (as [`Key`](super::Key) is for the Kafka pages). `view` builds these values
//! from the worlds' read APIs and [`narration`](super::narration) words them; they live
//! here, below `view`, so that the catalog never imports a view model.

use crate::pulsar::{Position, TxnID, TxnStatus};

/// A question both engines answer differently (the catalog words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Row {
    UncommittedData,
    ReadLimit,
    AbortedData,
    WhoFilters,
    InputJoins,
    CoordinatorLog,
    Zombie,
    CoordinatorCrash,
}

pub const ROWS: [Row; 8] = [
    Row::UncommittedData,
    Row::ReadLimit,
    Row::AbortedData,
    Row::WhoFilters,
    Row::InputJoins,
    Row::CoordinatorLog,
    Row::Zombie,
    Row::CoordinatorCrash,
];

/// What the Kafka engine showed for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KafkaFact {
    /// An open transaction's record already in the partition log.
    OpenInLog {
        tp: String,
        offset: i64,
        value: String,
        lso: i64,
        hw: i64,
    },
    /// The LSO held below the HW by an open transaction.
    LsoBelowHw { tp: String, lso: i64, hw: i64 },
    /// Aborted records left in the log, listed in `.txnindex`.
    AbortedInLog {
        tp: String,
        first: i64,
        last: i64,
        producer_id: i64,
    },
    /// A read_committed consumer skipped an aborted batch it had fetched.
    ConsumerDropped {
        consumer: String,
        tp: String,
        first: i64,
        last: i64,
    },
    /// The group's offsets partition joined the transaction.
    OffsetsInTxn {
        transactional_id: String,
        partition: String,
    },
    /// `__transaction_state` records of a transactional id: each the whole state.
    StateRecords {
        transactional_id: String,
        records: usize,
        last_state: String,
        partitions: String,
    },
    /// The epoch bumped at the end of a transaction (TV2): older epochs are fenced.
    EpochBumped {
        transactional_id: String,
        producer_id: i64,
        epoch: i16,
        last_epoch: i16,
    },
    /// A `__transaction_state` partition reloaded after a restart.
    Reloaded {
        partition: i32,
        transactions: usize,
        pending: usize,
    },
}

/// What the Pulsar engine showed for a row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PulsarFact {
    /// An ongoing transaction's message already in the partition's ledger.
    InLedger {
        topic: String,
        position: Position,
        value: String,
        txn: TxnID,
    },
    /// maxReadPosition held before an ongoing transaction's first message.
    MaxRead {
        topic: String,
        max_read: Position,
        txn: TxnID,
        first: Position,
    },
    /// An aborted message left in the ledger, its TxnID in the buffer's aborted list.
    AbortedInBuffer {
        topic: String,
        position: Position,
        txn: TxnID,
    },
    /// The broker's dispatcher left aborted messages out.
    DispatcherFiltered {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
    },
    /// An ack carrying a TxnID held in pending ack.
    PendingAck {
        subscription: String,
        position: Position,
        txn: TxnID,
        mark_delete: Position,
    },
    /// The coordinator's transaction log: one operation a record.
    LogOps {
        log_topic: String,
        records: usize,
        last_op: &'static str,
        deleted: usize,
    },
    /// A transaction with its own TxnID and timeout.
    OwnTimeout {
        txn: TxnID,
        tc: u64,
        timeout_ms: i64,
    },
    /// A new coordinator replayed the transaction log.
    Recovered {
        tc: u64,
        records: usize,
        txns: Vec<(TxnID, TxnStatus)>,
        /// Client requests retried (TransactionCoordinatorNotFound) while it loaded.
        retries: usize,
    },
}

/// The comparison page's fixed words, worded by the catalog
/// (`i18n::narration::compare_label`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareLabel {
    NavLabel,
    NavLessons,
    NavCompare,
    Title,
    Intro,
    KafkaSide,
    PulsarSide,
    PulsarNotYet,
    Offset,
    Value,
    State,
    Open,
    Coordinator,
    NoTransactions,
    NoPulsarTxns,
    TransactionalId,
    ProducerId,
    Epoch,
    Partitions,
    TxnId,
    Operation,
    Name,
    Subscriptions,
    DifferencesCaption,
    NotShownYet,
}

/// Where Kafka and Pulsar choose differently for the same guarantee (the catalog words
/// each side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Difference {
    WhereUncommittedDataLives,
    ReadLimit,
    WhoFiltersAborted,
    HowConsumedPositionsJoin,
    WhatTheCoordinatorLogs,
    WhenTheClientIsAnswered,
    HowZombiesAreStopped,
    Deduplication,
    WhatAnAbortDoesToInput,
}

pub const DIFFERENCES: [Difference; 9] = [
    Difference::WhereUncommittedDataLives,
    Difference::ReadLimit,
    Difference::WhoFiltersAborted,
    Difference::HowConsumedPositionsJoin,
    Difference::WhatTheCoordinatorLogs,
    Difference::WhenTheClientIsAnswered,
    Difference::HowZombiesAreStopped,
    Difference::Deduplication,
    Difference::WhatAnAbortDoesToInput,
];

/// The Pulsar pages' fixed words, worded by the catalog (`i18n::narration::pulsar_label`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PulsarLabel {
    Title,
    Intro,
    Lesson,
    Back,
    Next,
    Restart,
    StepOf,
    Printed,
    Partitions,
    Position,
    Entry,
    State,
    MaxReadPosition,
    Ongoing,
    Aborted,
    Committed,
    Plain,
    CommitMarker,
    AbortMarker,
    Snapshot,
    NoSnapshot,
    Subscriptions,
    MarkDeletePosition,
    IndividuallyDeleted,
    PendingAck,
    Redeliver,
    Coordinators,
    Running,
    NotRunning,
    TransactionLog,
    Deleted,
    Timeline,
    Differences,
    Question,
    Kafka,
    Pulsar,
    NothingYet,
    KafkaSide,
    PulsarSide,
    BackToKafka,
    /// An empty list ("none").
    None,
    /// The subscriptions table's name (its caption and scroll region), apart from the
    /// panel's heading: two landmarks may not share a name.
    SubscriptionsTable,
    BufferState,
    FreePlay,
    FreePlayIntro,
    NewTxn,
    SendTxn,
    SendPlain,
    Commit,
    Abort,
    Receive,
    AckTxn,
    Unload,
    Reset,
}
