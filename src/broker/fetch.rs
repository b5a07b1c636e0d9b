//! The read side of a partition leader: Fetch by isolation level and ListOffsets.
//!
//! As in Kafka, the broker does not filter aborted data: it sends the segment bytes up
//! to the HW (read_uncommitted) or the LSO (read_committed), plus the list of aborted
//! transactions in that range; the consumer skips them.

use super::broker::{Broker, Handled};
use crate::log::{FetchIsolation, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::Response;

impl Broker {
    pub(super) fn handle_fetch(
        &self,
        tp: TopicPartition,
        fetch_offset: i64,
        max_bytes: i32,
        isolation: FetchIsolation,
    ) -> Handled {
        let reply = |error: Errors| Response::fetch_error(&tp, error);
        let Some(log) = self.logs.get(&tp) else {
            return Handled::reply(reply(Errors::NotLeaderOrFollower));
        };
        let max = usize::try_from(max_bytes).unwrap_or(0).max(1);
        match log.read(&self.fs, fetch_offset, max, isolation) {
            Ok(data) => Handled::reply(Response::Fetch {
                topic_partition: tp.clone(),
                error: Errors::None,
                high_watermark: data.high_watermark,
                last_stable_offset: data.last_stable_offset,
                log_start_offset: data.log_start_offset,
                aborted_transactions: data.aborted_transactions,
                records: data.records,
            }),
            Err(error) => Handled::reply(reply(error)),
        }
    }

    /// The latest offset a consumer of this isolation level can see (what
    /// `Admin.listOffsets(OffsetSpec.latest())` returns): the HW, or the LSO; or,
    /// `earliest`, the log start offset.
    pub(super) fn handle_list_offsets(
        &self,
        tp: TopicPartition,
        isolation: FetchIsolation,
        earliest: bool,
    ) -> Handled {
        let (error, offset) = match self.logs.get(&tp) {
            None => (Errors::NotLeaderOrFollower, -1),
            Some(log) if earliest => (Errors::None, log.log_start_offset()),
            Some(log)
                if isolation != FetchIsolation::LogEnd && self.hw_lags_epoch_start(&tp, log) =>
            {
                (Errors::OffsetNotAvailable, -1)
            }
            Some(log) => match isolation {
                FetchIsolation::TxnCommitted => (Errors::None, log.last_stable_offset()),
                FetchIsolation::HighWatermark => (Errors::None, log.high_watermark()),
                FetchIsolation::LogEnd => (Errors::None, log.log_end_offset()),
            },
        };
        Handled::reply(Response::ListOffsets {
            topic_partition: tp,
            error,
            offset,
        })
    }

    /// `Partition.fetchOffsetForTimestamp` (Kafka 4.0, mirror commit 1eb7644): a new
    /// leader whose HW is still below the offset where its leader epoch starts
    /// (`leaderEpochStartOffsetOpt`, the LEO when it took over) cannot answer "latest"
    /// for a client: the HW it would give might be lower than one the old leader gave
    /// (OFFSET_NOT_AVAILABLE, retriable). Follower requests (no isolation) are answered.
    fn hw_lags_epoch_start(&self, tp: &TopicPartition, log: &crate::log::UnifiedLog) -> bool {
        let Some(p) = self.partitions.get(tp) else {
            return false;
        };
        p.leader == self.id
            && p.is_replicated()
            && log
                .epochs()
                .last()
                .is_some_and(|&(e, start)| e == p.leader_epoch && start > log.high_watermark())
    }
}
