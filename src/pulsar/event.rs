//! What happened in the Pulsar world, as data. Each event may carry the number of the
//! step of the documented data flow it plays (`1.1` … `4.3.3`); the catalog
//! (`i18n::narration`) words them.

use super::network::Strike;
use super::transaction_buffer::TransactionBufferState;
use super::{Position, PulsarError, TxnID, TxnStatus};
use crate::sim::Node;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PulsarEvent {
    pub at_ms: i64,
    /// The data-flow step this event plays, e.g. `2.1.2`.
    pub step: Option<&'static str>,
    pub kind: PulsarEventKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PulsarEventKind {
    /// A command put on the wire (and what a fault did to it).
    CommandSent {
        from: Node,
        to: Node,
        command: &'static str,
        strike: Option<Strike>,
    },
    /// The coordinator appends a record to its transaction log.
    TxnLogAppend {
        tc: u64,
        txn: TxnID,
        op: &'static str,
        new_status: Option<TxnStatus>,
    },
    /// The log confirms the write at a position.
    TxnLogPersisted {
        tc: u64,
        position: Position,
    },
    /// The coordinator refused (TransactionNotFound, InvalidTxnStatus …).
    CoordinatorRefused {
        tc: u64,
        txn: Option<TxnID>,
        error: PulsarError,
    },
    /// A message entered a partition's ledger (in a transaction or not).
    EntryAdded {
        topic: String,
        position: Position,
        value: String,
        txn: Option<TxnID>,
        max_read_position: Position,
    },
    /// A message of a transaction this partition already aborted (a late send): it is
    /// written, but the transaction does not become ongoing again, and the dispatcher
    /// will filter the message.
    LateTxnEntry {
        topic: String,
        position: Position,
        value: String,
        txn: TxnID,
        max_read_position: Position,
    },
    /// A send of a transaction at or below its coordinator's low water mark: it has
    /// ended, so the partition refuses it unwritten (NotAllowedException).
    TxnAppendRefused {
        topic: String,
        txn: TxnID,
        low_water_mark: i64,
    },
    /// After an end, a transaction still ongoing in a partition (or holding acks in a
    /// subscription) at or below the low water mark is aborted there.
    LowWaterMarkAbort {
        topic: String,
        subscription: Option<String>,
        txn: TxnID,
        low_water_mark: i64,
    },
    /// The client's commit waited for the transaction's sends and acks; one failed, so
    /// it aborts the transaction instead (TransactionHasOperationFailedException).
    CommitAbortsForFailedOps {
        txn: TxnID,
        failed: u32,
    },
    /// `brokerDeduplicationEnabled`: a sequence id at or below the highest one seen
    /// from this producer name is dropped.
    DuplicateDropped {
        topic: String,
        producer_name: String,
        sequence_id: i64,
        highest: i64,
    },
    /// Step 3.3: the broker saw a transactional ack and put it in pending ack.
    AckPending {
        topic: String,
        subscription: String,
        txn: TxnID,
        positions: Vec<Position>,
        /// A cumulative ack: everything up to the one position.
        cumulative: bool,
    },
    /// A transactional ack refused with TransactionConflictException.
    AckConflict {
        topic: String,
        subscription: String,
        txn: TxnID,
        position: Position,
        holder: Option<TxnID>,
    },
    /// A plain ack of a position held in pending ack is ignored.
    PlainAckIgnored {
        topic: String,
        subscription: String,
        position: Position,
        holder: TxnID,
    },
    /// A plain ack deleted positions from the cursor.
    Acked {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
        mark_delete_position: Position,
    },
    /// The dispatcher sent entries; aborted messages and markers it skipped (and acked
    /// on the cursor), and where maxReadPosition stopped it.
    Dispatched {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
        filtered_aborted: Vec<Position>,
        max_read_position: Position,
    },
    /// A commit or abort marker written into the partition.
    MarkerWritten {
        topic: String,
        txn: TxnID,
        commit: bool,
        position: Position,
        max_read_position: Position,
    },
    /// The commit/abort mark written to the subscription's pending-ack log.
    PendingAckMarked {
        topic: String,
        subscription: String,
        txn: TxnID,
        commit: bool,
        positions: Vec<Position>,
    },
    /// The cursor after a commit of acknowledgements.
    CursorMoved {
        topic: String,
        subscription: String,
        mark_delete_position: Position,
    },
    /// An abort made acknowledged positions deliverable again.
    Redelivering {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
    },
    /// The transaction buffer snapshot was taken.
    SnapshotTaken {
        topic: String,
        max_read_position: Position,
        aborts: usize,
    },
    /// A partition's first transactional append: the buffer takes its first snapshot
    /// and goes from NoSnapshot to Ready (`takeFirstSnapshot`).
    FirstSnapshotTaken {
        topic: String,
        max_read_position: Position,
    },
    /// The topic was unloaded and loads again: its buffer is Initializing, with the
    /// snapshot it starts from and the entries after it to read.
    TopicUnloaded {
        topic: String,
        snapshot: Option<Position>,
        to_replay: usize,
    },
    /// A subscription replayed its pending-ack log: the positions held again.
    PendingAckReplayed {
        topic: String,
        subscription: String,
        records: usize,
        held: Vec<Position>,
    },
    /// The buffer finished recovering.
    BufferRecovered {
        topic: String,
        state: TransactionBufferState,
        max_read_position: Position,
        ongoing: usize,
        aborts: usize,
    },
    /// A coordinator starts loading its log; until it is done it answers
    /// TransactionCoordinatorNotFound.
    CoordinatorLoading {
        tc: u64,
        ms: i64,
    },
    /// The client got TransactionCoordinatorNotFound and sends the request again after
    /// a backoff (`checkIfNeedRetryByError`).
    ClientRetry {
        call: &'static str,
        backoff_ms: i64,
    },
    /// The timeout tracker ends a transaction as an abort.
    TxnTimedOut {
        tc: u64,
        txn: TxnID,
    },
    /// The client's own timer: the transaction is TIME_OUT on the client.
    ClientTxnTimedOut {
        txn: TxnID,
    },
    CoordinatorCrashed {
        tc: u64,
        lost: usize,
    },
    /// Replay of the transaction log: the transactions rebuilt, and the ones whose end
    /// the new coordinator finishes.
    CoordinatorRecovered {
        tc: u64,
        txns: Vec<(TxnID, TxnStatus)>,
        log_entries: usize,
    },
    /// A client's call ended with an exception.
    CallFailed {
        client: String,
        call: &'static str,
        error: PulsarError,
    },
    /// A fault armed on the Pulsar network (the catalog words it in the reader's
    /// language).
    FaultArmed {
        fault: crate::sim::Fault,
    },
    /// A managed ledger (a partition's, or a subscription's pending-ack log) starts or
    /// stops refusing appends.
    LedgerFailing {
        topic: String,
        subscription: Option<String>,
        failing: bool,
    },
    /// The ledger refused a send's append (PersistenceError): nothing is written, the
    /// transaction buffer does not count it.
    AppendFailed {
        topic: String,
        txn: Option<TxnID>,
    },
    /// The pending-ack log refused a transactional ack's record: the ack fails, but the
    /// positions are held in memory all the same (Pulsar cannot know what was
    /// persisted); only the transaction's abort releases them.
    PendingAckAppendFailed {
        topic: String,
        subscription: String,
        txn: TxnID,
        positions: Vec<Position>,
    },
    /// The dispatcher read messages whose `deliverAt` is still ahead and put them in
    /// the delayed delivery tracker.
    DeliveryDelayed {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
        deliver_at: i64,
    },
    /// A negative ack: the broker will redeliver these, and counts each redelivery.
    NackRedeliver {
        topic: String,
        subscription: String,
        positions: Vec<Position>,
    },
    /// The client sent a message to its dead-letter topic (its redelivery count passed
    /// `maxRedeliverCount`) and acknowledged the original.
    DeadLettered {
        consumer: String,
        position: Position,
        redelivery_count: u32,
        dead_letter_topic: String,
        dead_letter_position: Position,
    },
    /// Subscriptions created.
    Subscribed {
        topic: String,
        subscription: String,
        consumer: String,
    },
}
