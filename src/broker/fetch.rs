//! The read side of a partition leader: Fetch by isolation level and ListOffsets.
//!
//! As in Kafka, the broker does not filter aborted data: it sends the segment bytes up
//! to the HW (read_uncommitted) or the LSO (read_committed), plus the list of aborted
//! transactions from the fetch offset up to Kafka's upper bound (`UnifiedLog::read`);
//! the consumer skips them.

use super::broker::{Broker, Handled};
use crate::log::{FetchIsolation, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::Response;

impl Broker {
    /// `Partition.localLogWithEpochOrThrow` with `requireLeader` (Kafka 4.0), for a
    /// client's Fetch and ListOffsets and a follower's Fetch alike: the request's
    /// `current_leader_epoch` (-1: none) is checked first (`checkCurrentLeaderEpoch`:
    /// FENCED_LEADER_EPOCH when ours is newer, UNKNOWN_LEADER_EPOCH when older), then
    /// only the leader answers (a consumer without `client.rack` fetches from the
    /// leader only); a broker without the partition says NOT_LEADER_OR_FOLLOWER.
    pub(super) fn leader_log(
        &self,
        tp: &TopicPartition,
        current_leader_epoch: i32,
    ) -> Result<&crate::log::UnifiedLog, Errors> {
        let log = self.logs.get(tp);
        let local_epoch = match (self.partitions.get(tp), log) {
            (Some(p), _) => p.leader_epoch,
            (None, Some(log)) => log.leader_epoch(),
            (None, None) => return Err(Errors::NotLeaderOrFollower),
        };
        if current_leader_epoch >= 0 && local_epoch > current_leader_epoch {
            return Err(Errors::FencedLeaderEpoch);
        }
        if current_leader_epoch >= 0 && local_epoch < current_leader_epoch {
            return Err(Errors::UnknownLeaderEpoch);
        }
        match log {
            Some(log) if self.leads(tp) => Ok(log),
            _ => Err(Errors::NotLeaderOrFollower),
        }
    }

    pub(super) fn handle_fetch(
        &self,
        tp: TopicPartition,
        (fetch_offset, current_leader_epoch): (i64, i32),
        max_bytes: i32,
        isolation: FetchIsolation,
    ) -> Handled {
        let reply = |error: Errors| Response::fetch_error(&tp, error);
        let log = match self.leader_log(&tp, current_leader_epoch) {
            Ok(log) => log,
            Err(error) => return Handled::reply(reply(error)),
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
    /// `earliest`, the log start offset. The leader epoch is checked as a Fetch's
    /// (`Partition.fetchOffsetForTimestamp`, from the leader only).
    pub(super) fn handle_list_offsets(
        &self,
        tp: TopicPartition,
        isolation: FetchIsolation,
        earliest: bool,
        current_leader_epoch: i32,
    ) -> Handled {
        let (error, offset) = match self.leader_log(&tp, current_leader_epoch) {
            Err(error) => (error, -1),
            Ok(log) if earliest => (Errors::None, log.log_start_offset()),
            Ok(log)
                if isolation != FetchIsolation::LogEnd && self.hw_lags_epoch_start(&tp, log) =>
            {
                (Errors::OffsetNotAvailable, -1)
            }
            Ok(log) => match isolation {
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
