//! The storage layer of a partition: segments and indexes, producer state with its
//! dedup window and snapshots, and the partition log that ties them together.

pub mod producer_state;
pub mod segment;
pub mod transaction_index;
pub mod unified_log;
pub mod verification_state;

pub use producer_state::{
    BatchMetadata, ProducerStateEntry, ProducerStateManager, SeqDirection, NUM_BATCHES_TO_RETAIN,
};
pub use transaction_index::AbortedTxn;
pub use unified_log::{
    AppendError, AppendOutcome, CleanerStats, DeletedSegments, FetchDataInfo, FetchIsolation,
    LogAppendInfo, LogConfig, LogStartOffsetIncrementReason, MarkerAppend, NothingToClean,
    RecoveryReport, SegmentDeletionReason, StoredBatch, TopicPartition, UnifiedLog,
};
