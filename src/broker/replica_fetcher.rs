//! The follower's side of replication (Kafka 4.0's `ReplicaFetcherThread` /
//! `AbstractFetcherThread`, mirror commit 1eb7644): one Fetch at a time per
//! partition, sent through the network to the leader with this broker's replica id;
//! batches appended as they are, the HW copied from the answer (so a follower's HW
//! lags the leader's by one fetch), truncation on a diverging epoch (KIP-320/595),
//! the leader's log start copied from each answer, the out-of-range reset through
//! ListOffsets (`fetchOffsetAndTruncate`), and `replica.fetch.backoff.ms` after an
//! error.

use super::broker::{Broker, BrokerEvent, Handled, Outbound};
use super::partition::{
    ReplicationEvent, REPLICA_FETCH_BACKOFF_MS, REPLICA_FETCH_MAX_BYTES, REPLICA_SOCKET_TIMEOUT_MS,
};
use crate::log::{FetchIsolation, LogStartOffsetIncrementReason, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

impl Broker {
    /// Sends a Fetch for every followed partition with none in flight and no backoff
    /// pending; a fetch unanswered for `replica.socket.timeout.ms` is given up.
    pub(super) fn poll_fetchers(&mut self, now_ms: i64, handled: &mut Handled) {
        let followed: Vec<TopicPartition> = self
            .partitions
            .iter()
            .filter(|(_, p)| p.leader != self.id && p.leader >= 0)
            .map(|(tp, _)| tp.clone())
            .collect();
        for tp in followed {
            let tag = self.next_tag_peek();
            let Some(log) = self.logs.get(&tp) else {
                continue;
            };
            let (fetch_offset, last_fetched_epoch) = (log.log_end_offset(), log.latest_epoch());
            let log_start_offset = log.log_start_offset();
            let Some(p) = self.partitions.get_mut(&tp) else {
                continue;
            };
            if let Some((_, sent)) = p.fetcher.in_flight {
                if now_ms < sent + REPLICA_SOCKET_TIMEOUT_MS {
                    continue;
                }
                p.fetcher.in_flight = None;
                p.fetcher.next_fetch_ms = now_ms + REPLICA_FETCH_BACKOFF_MS;
                handled
                    .events
                    .push(BrokerEvent::Replication(ReplicationEvent::FetchFailed {
                        tp: tp.clone(),
                        leader: p.leader,
                        error: Errors::RequestTimedOut,
                    }));
                continue;
            }
            if now_ms < p.fetcher.next_fetch_ms || p.fetcher.failed {
                continue;
            }
            p.fetcher.in_flight = Some((tag, now_ms));
            let (leader, epoch) = (p.leader, p.leader_epoch);
            self.take_tag();
            handled.outbound.push(Outbound::ReplicaFetch {
                leader,
                tag,
                request: Request::ReplicaFetch {
                    topic_partition: tp,
                    replica_id: self.id,
                    replica_epoch: self.registry.own_epoch(),
                    fetch_offset,
                    current_leader_epoch: epoch,
                    last_fetched_epoch,
                    max_bytes: REPLICA_FETCH_MAX_BYTES,
                    log_start_offset,
                },
            });
        }
    }

    /// The leader's answer to one of our fetches (`processFetchRequest`).
    pub(super) fn handle_replica_fetch_response(
        &mut self,
        tag: u64,
        response: Response,
        now_ms: i64,
    ) -> Handled {
        let mut handled = Handled::default();
        let Response::ReplicaFetch {
            topic_partition: tp,
            error,
            high_watermark,
            log_start_offset: leader_log_start,
            diverging_epoch,
            records,
        } = response
        else {
            return handled;
        };
        let Some(p) = self.partitions.get_mut(&tp) else {
            return handled;
        };
        // An answer to an older fetch (the leader changed meanwhile) is dropped.
        let Some(sent) = p.fetcher.answered(tag) else {
            return handled;
        };
        let leader = p.leader;
        if error == Errors::OffsetOutOfRange {
            // `handleOutOfRangeError`: ask the leader where its log ends.
            self.send_offset_reset_query(&tp, false, now_ms, &mut handled);
            return handled;
        }
        if error == Errors::FencedLeaderEpoch {
            handled.events.push(on_partition_fenced(&tp, p));
            return handled;
        }
        if error != Errors::None {
            p.fetcher.next_fetch_ms = sent + REPLICA_FETCH_BACKOFF_MS;
            handled.events.push(fetch_failed(tp, leader, error));
            return handled;
        }
        let Some(log) = self.logs.get_mut(&tp) else {
            return handled;
        };
        if let Some((epoch, end_offset)) = diverging_epoch {
            // Our end offset for the leader's epoch, never past the leader's; an
            // incomplete truncation asks again with the next fetch's epoch.
            let (to, _complete) = log.offset_truncation_state(epoch, end_offset);
            let removed = log.truncate_to(&mut self.fs, to).unwrap_or(0);
            handled
                .events
                .push(BrokerEvent::Replication(ReplicationEvent::Truncated {
                    tp,
                    leader,
                    to_offset: to,
                    removed_batches: removed,
                    diverging_epoch: epoch,
                }));
            return handled;
        }
        let batches = if records.is_empty() {
            0
        } else {
            match log.append_as_follower(&mut self.fs, &records) {
                Ok(appended) => appended.batches,
                Err(e) => {
                    if let Some(p) = self.partitions.get_mut(&tp) {
                        p.fetcher.next_fetch_ms = sent + REPLICA_FETCH_BACKOFF_MS;
                    }
                    handled
                        .events
                        .push(BrokerEvent::Replication(ReplicationEvent::FetchFailed {
                            tp,
                            leader,
                            error: e.error(),
                        }));
                    return handled;
                }
            }
        };
        let old_hw = log.high_watermark();
        log.update_high_watermark(high_watermark.min(log.log_end_offset()));
        // `ReplicaFetcherThread.processPartitionData`: the follower's log start
        // follows the leader's (DeleteRecords, retention), never above its own HW.
        let old_start = log.log_start_offset();
        if let Ok(true) = log.maybe_increment_log_start_offset(
            &mut self.fs,
            leader_log_start,
            LogStartOffsetIncrementReason::LeaderOffsetIncremented,
        ) {
            handled.events.push(BrokerEvent::LogStartOffsetIncremented {
                tp: tp.clone(),
                from: old_start,
                to: log.log_start_offset(),
                reason: LogStartOffsetIncrementReason::LeaderOffsetIncremented,
            });
        }
        if batches > 0 || log.high_watermark() != old_hw {
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::FollowerFetched {
                    tp,
                    leader,
                    batches,
                    log_end_offset: log.log_end_offset(),
                    high_watermark: log.high_watermark(),
                },
            ));
        }
        handled
    }

    /// Sends the follower's ListOffsets to its leader, latest or earliest, as the one
    /// request in flight for the partition.
    fn send_offset_reset_query(
        &mut self,
        tp: &TopicPartition,
        earliest: bool,
        now_ms: i64,
        handled: &mut Handled,
    ) {
        let tag = self.next_tag_peek();
        let Some(p) = self.partitions.get_mut(tp) else {
            return;
        };
        p.fetcher.in_flight = Some((tag, now_ms));
        p.fetcher.resetting = Some(earliest);
        let (leader, current_leader_epoch) = (p.leader, p.leader_epoch);
        self.take_tag();
        handled.outbound.push(Outbound::ReplicaFetch {
            leader,
            tag,
            request: Request::ListOffsets {
                topic_partition: tp.clone(),
                isolation: FetchIsolation::LogEnd,
                earliest,
                current_leader_epoch,
            },
        });
    }

    /// The leader's ListOffsets answer during an out-of-range reset
    /// (`AbstractFetcherThread.fetchOffsetAndTruncate`, Kafka 4.0): a leader whose
    /// log ends below ours means truncating to its end; otherwise, when its log start
    /// is above our end, our whole log is stale (`truncateFullyAndStartAt`); else we
    /// fetch on from our end.
    pub(super) fn handle_offset_reset_response(
        &mut self,
        tag: u64,
        response: Response,
        now_ms: i64,
    ) -> Handled {
        let mut handled = Handled::default();
        let Response::ListOffsets {
            topic_partition: tp,
            error,
            offset,
        } = response
        else {
            return handled;
        };
        let Some(p) = self.partitions.get_mut(&tp) else {
            return handled;
        };
        if p.fetcher.answered(tag).is_none() {
            return handled;
        }
        let (leader, earliest) = (p.leader, p.fetcher.resetting.unwrap_or(false));
        p.fetcher.resetting = None;
        if error == Errors::FencedLeaderEpoch {
            handled.events.push(on_partition_fenced(&tp, p));
            return handled;
        }
        if error != Errors::None {
            p.fetcher.next_fetch_ms = now_ms + REPLICA_FETCH_BACKOFF_MS;
            handled.events.push(fetch_failed(tp, leader, error));
            return handled;
        }
        let Some(log) = self.logs.get_mut(&tp) else {
            return handled;
        };
        let ours = log.log_end_offset();
        let reset = if !earliest {
            if offset >= ours {
                self.send_offset_reset_query(&tp, true, now_ms, &mut handled);
                return handled;
            }
            log.truncate_to(&mut self.fs, offset).map(|_| false)
        } else if offset > ours {
            log.truncate_fully_and_start_at(&mut self.fs, offset)
                .map(|_| true)
        } else {
            // The leader still holds our end: fetch on from there.
            return handled;
        };
        if let Ok(fully) = reset {
            handled.events.push(BrokerEvent::Replication(
                ReplicationEvent::OffsetOutOfRangeReset {
                    tp,
                    leader,
                    from: ours,
                    to: offset,
                    fully,
                },
            ));
        }
        handled
    }
}

/// A fetch (or the leader's offsets query) that failed: the fetcher backs off and retries.
/// `AbstractFetcherThread.onPartitionFenced`: an answer reaches us only for a request
/// at our current leader epoch (one from before a leader change is dropped), so the
/// leader knows a newer epoch than we do: the partition stops fetching until that
/// metadata arrives. UNKNOWN_LEADER_EPOCH and NOT_LEADER_OR_FOLLOWER only back off.
fn on_partition_fenced(tp: &TopicPartition, p: &mut super::partition::Partition) -> BrokerEvent {
    p.fetcher.failed = true;
    BrokerEvent::Replication(ReplicationEvent::FetchFenced {
        tp: tp.clone(),
        leader: p.leader,
        leader_epoch: p.leader_epoch,
    })
}

fn fetch_failed(tp: TopicPartition, leader: i32, error: Errors) -> BrokerEvent {
    BrokerEvent::Replication(ReplicationEvent::FetchFailed { tp, leader, error })
}
