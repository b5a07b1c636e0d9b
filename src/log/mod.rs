//! The storage layer of a partition: segments and indexes, producer state with its
//! dedup window and snapshots, and the partition log that ties them together.

pub mod producer_state;
pub mod segment;
pub mod unified_log;

pub use producer_state::{
    BatchMetadata, ProducerStateEntry, ProducerStateManager, NUM_BATCHES_TO_RETAIN,
};
pub use unified_log::{
    AppendError, AppendOutcome, LogAppendInfo, LogConfig, RecoveryReport, StoredBatch,
    TopicPartition, UnifiedLog,
};
