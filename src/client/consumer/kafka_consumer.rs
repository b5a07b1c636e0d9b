//! The consumer itself (Kafka's `KafkaConsumer`): assigned partitions, their positions,
//! fetch requests, and fetch answers read through [`CompletedFetch`].

use crate::util::sorted_map::SortedMap;

use serde::{Deserialize, Serialize};

use super::{
    CompletedFetch, ConsumerConfig, ConsumerEvent, ConsumerException, ConsumerRecord,
    FetchPartitionData, IsolationLevel, OffsetResetStrategy, PositionReason,
};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::util::ordered::CollectSorted;

/// One assigned partition (Kafka's `SubscriptionState.TopicPartitionState`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionState {
    /// The next offset to read; None until seek, a committed offset or a reset.
    pub position: Option<i64>,
    pub high_watermark: Option<i64>,
    pub last_stable_offset: Option<i64>,
    pub log_start_offset: Option<i64>,
    /// The offset of the fetch request in flight, if any.
    pub fetch_in_flight: Option<i64>,
    /// OFFSET_OUT_OF_RANGE asked for a reset (Kafka's `FetchStates.AWAIT_RESET`): the
    /// next poll applies `auto.offset.reset`, never the committed offset.
    #[serde(default)]
    pub reset_requested: bool,
    /// The leader epoch of the last batch read before the position (Kafka's
    /// `FetchPosition.offsetEpoch`); none after a seek or a reset.
    #[serde(default)]
    pub offset_epoch: Option<i32>,
    /// The partition's leader epoch in the consumer's metadata (Kafka's
    /// `FetchPosition.currentLeader.epoch`): sent as Fetch's `currentLeaderEpoch`, and
    /// a new one validates the position again (KIP-320).
    #[serde(default)]
    pub leader_epoch: Option<i32>,
    /// The leader the consumer's metadata names (`FetchPosition.currentLeader.leader`):
    /// where its fetches go.
    #[serde(default)]
    pub leader: Option<i32>,
    /// The position waits for OffsetsForLeaderEpoch before fetching again (Kafka's
    /// `FetchStates.AWAIT_VALIDATION`).
    #[serde(default)]
    pub awaiting_validation: bool,
    /// The (offset epoch, position) an OffsetsForLeaderEpoch in flight checks: an answer
    /// for another position is stale.
    #[serde(default)]
    pub validation_in_flight: Option<(i32, i64)>,
}

/// Where and how to fetch a partition next: the consumer's leader, the position and
/// the leader epoch it knows (KIP-320's `currentLeaderEpoch`, -1 for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchTarget {
    pub leader: i32,
    pub offset: i64,
    pub current_leader_epoch: i32,
    pub isolation: IsolationLevel,
}

/// A ListOffsets to send for a partition awaiting a reset: to the consumer's leader,
/// with its leader epoch, for the log start (`earliest`) or the end the isolation
/// level may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResetTarget {
    pub leader: i32,
    pub current_leader_epoch: i32,
    pub earliest: bool,
    pub isolation: IsolationLevel,
}

/// An OffsetsForLeaderEpoch to send for a position awaiting validation
/// (`OffsetsForLeaderEpochUtils.prepareRequest`): to the consumer's leader, with its
/// leader epoch as `currentLeaderEpoch` and the position's epoch as `leaderEpoch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValidationTarget {
    pub leader: i32,
    pub current_leader_epoch: i32,
    pub epoch: i32,
    pub position: i64,
}

/// A consumer client. Mirrors the fetch side of Kafka's `KafkaConsumer`
/// (`SubscriptionState` + `FetchCollector` + `CompletedFetch`). Simplified: manual
/// assignment only, one fetch answer is read completely at once (in `poll()`-sized
/// slices of `max.poll.records`), and delivered records are kept in `delivered` so a
/// lesson can print everything the application saw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Consumer {
    pub config: ConsumerConfig,
    assignment: SortedMap<TopicPartition, PartitionState>,
    pub delivered: Vec<ConsumerRecord>,
    /// NOT KAFKA: the "break it" switches this client follows.
    #[serde(default)]
    pub breaks: crate::breaks::Breaks,
    /// What the current `poll()` throws once it returns (Kafka raises it from
    /// `FetchCollector` and `poll()` ends).
    #[serde(default)]
    exception: Option<ConsumerException>,
    /// An error asked for fresh metadata (`ConsumerMetadata.requestUpdate`): the next
    /// round of `poll()` reads the leaders again.
    #[serde(default)]
    metadata_update_requested: bool,
}

impl Consumer {
    pub fn new(config: ConsumerConfig) -> Self {
        Consumer {
            config,
            assignment: SortedMap::new(),
            delivered: Vec::new(),
            breaks: crate::breaks::Breaks::default(),
            exception: None,
            metadata_update_requested: false,
        }
    }

    pub fn isolation_level(&self) -> IsolationLevel {
        self.config.isolation_level
    }

    /// `assign()`: read exactly these partitions. Kept partitions keep their position;
    /// new ones start without one.
    pub fn assign(&mut self, partitions: &[TopicPartition]) {
        let keep = partitions.iter().collect_set();
        self.assignment.retain(|tp, _| keep.contains(tp));
        for tp in partitions {
            self.assignment.entry(tp.clone()).or_default();
        }
    }

    pub fn assigned(&self) -> Vec<TopicPartition> {
        self.assignment.keys().cloned().collect()
    }

    /// `seek()`: read from `offset` next. Ignored (None) for a partition not assigned.
    pub fn seek(&mut self, tp: &TopicPartition, offset: i64) -> Option<ConsumerEvent> {
        let state = self.assignment.get_mut(tp)?;
        // A fetch still in flight is not cancelled: its answer no longer matches the
        // position and will be discarded as stale.
        state.position = Some(offset);
        state.reset_requested = false;
        state.offset_epoch = None;
        state.awaiting_validation = false;
        Some(ConsumerEvent::PositionSet {
            tp: tp.clone(),
            offset,
            reason: PositionReason::Seek,
        })
    }

    /// Gives a partition without a position its start: the group's committed offset if
    /// there is one, else `auto.offset.reset` applied to the partition's log start offset
    /// and end offset (the high watermark, or the LSO for read_committed, as ListOffsets
    /// answers). Partitions that already have a position are left alone.
    pub fn initialize_position(
        &mut self,
        tp: &TopicPartition,
        committed: Option<i64>,
        log_start_offset: i64,
        end_offset: i64,
    ) -> Option<ConsumerEvent> {
        let strategy = self.config.auto_offset_reset;
        let state = self.assignment.get_mut(tp)?;
        if state.position.is_some() {
            return None;
        }
        let (offset, reason) = match (committed, strategy) {
            (Some(c), _) if c >= 0 => (c, PositionReason::Committed),
            (_, OffsetResetStrategy::Earliest) => (log_start_offset, PositionReason::ResetEarliest),
            (_, OffsetResetStrategy::Latest) => (end_offset, PositionReason::ResetLatest),
            (_, OffsetResetStrategy::None) => {
                return Some(ConsumerEvent::NoOffsetForPartition { tp: tp.clone() })
            }
        };
        state.position = Some(offset);
        Some(ConsumerEvent::PositionSet {
            tp: tp.clone(),
            offset,
            reason,
        })
    }

    /// Partitions whose OFFSET_OUT_OF_RANGE asked for a reset.
    pub fn awaiting_reset(&self) -> Vec<TopicPartition> {
        self.assignment
            .iter()
            .filter(|(_, s)| s.reset_requested)
            .map(|(tp, _)| tp.clone())
            .collect()
    }

    /// The ListOffsets a partition awaiting a reset sends (`OffsetFetcher
    /// .resetPositionsIfNeeded`, Kafka 4.0): to the leader the consumer knows, with its
    /// leader epoch, for the earliest or the latest offset its isolation level may read.
    /// None without a known leader (the metadata update comes first).
    pub fn reset_request(&self, tp: &TopicPartition) -> Option<ResetTarget> {
        let state = self.assignment.get(tp)?;
        if !state.reset_requested {
            return None;
        }
        Some(ResetTarget {
            leader: state.leader?,
            current_leader_epoch: state.leader_epoch.unwrap_or(-1),
            earliest: self.config.auto_offset_reset == OffsetResetStrategy::Earliest,
            isolation: self.config.isolation_level,
        })
    }

    /// ListOffsets failed for a reset (`OffsetFetcherUtils`: NOT_LEADER_OR_FOLLOWER,
    /// OFFSET_NOT_AVAILABLE, FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH, … are retried):
    /// fresh metadata first, the partition still awaits its reset.
    pub fn reset_failed(&mut self, tp: &TopicPartition, error: Errors) -> Option<ConsumerEvent> {
        let state = self.assignment.get(tp)?;
        let leader_epoch = state.leader_epoch.unwrap_or(-1);
        self.metadata_update_requested = true;
        Some(ConsumerEvent::MetadataUpdateRequested {
            tp: tp.clone(),
            api: "ListOffsets".into(),
            error,
            leader_epoch,
        })
    }

    /// Applies `auto.offset.reset` to a partition awaiting a reset
    /// (`SubscriptionState.resetInitializingPositions` after a ListOffsets answer):
    /// the log start offset for earliest, the end the consumer may read for latest.
    pub fn reset_position(
        &mut self,
        tp: &TopicPartition,
        log_start_offset: i64,
        end_offset: i64,
    ) -> Option<ConsumerEvent> {
        let strategy = self.config.auto_offset_reset;
        let state = self.assignment.get_mut(tp)?;
        if !state.reset_requested {
            return None;
        }
        let (offset, reason) = match strategy {
            OffsetResetStrategy::Earliest => (log_start_offset, PositionReason::ResetEarliest),
            OffsetResetStrategy::Latest => (end_offset, PositionReason::ResetLatest),
            OffsetResetStrategy::None => return None,
        };
        state.reset_requested = false;
        state.position = Some(offset);
        state.offset_epoch = None;
        Some(ConsumerEvent::PositionSet {
            tp: tp.clone(),
            offset,
            reason,
        })
    }

    /// Assigned partitions with no position and no reset to come: with
    /// `auto.offset.reset=none`, `poll()` throws `NoOffsetForPartitionException` for them.
    pub fn missing_positions(&self) -> Vec<TopicPartition> {
        self.assignment
            .iter()
            .filter(|(_, s)| s.position.is_none() && !s.reset_requested)
            .map(|(tp, _)| tp.clone())
            .collect()
    }

    /// The exception the current `poll()` throws, if a fetch answer raised one.
    pub fn take_exception(&mut self) -> Option<ConsumerException> {
        self.exception.take()
    }

    /// The next offset this consumer will read from the partition (`position()`).
    pub fn position(&self, tp: &TopicPartition) -> Option<i64> {
        self.assignment.get(tp)?.position
    }

    pub fn partition_state(&self, tp: &TopicPartition) -> Option<&PartitionState> {
        self.assignment.get(tp)
    }

    /// Records behind the end this consumer may read: the LSO for read_committed, the
    /// high watermark otherwise (`SubscriptionState.partitionLag`).
    pub fn lag(&self, tp: &TopicPartition) -> Option<i64> {
        let state = self.assignment.get(tp)?;
        let end = match self.config.isolation_level {
            IsolationLevel::ReadCommitted => state.last_stable_offset?,
            IsolationLevel::ReadUncommitted => state.high_watermark?,
        };
        Some(end.saturating_sub(state.position?))
    }

    /// Every record delivered to the application so far, in delivery order.
    pub fn records(&self) -> &[ConsumerRecord] {
        &self.delivered
    }

    /// The positions to commit for the group (what a read-process-write loop passes to
    /// `sendOffsetsToTransaction`).
    pub fn positions(&self) -> SortedMap<TopicPartition, i64> {
        self.assignment
            .iter()
            .filter_map(|(tp, s)| Some((tp.clone(), s.position?)))
            .collect_map()
    }

    /// The Fetch to send for a partition: to the leader the consumer knows, from its
    /// position, with its leader epoch and the isolation level. None when the partition
    /// is not assigned, has no position or no known leader yet, or awaits validation
    /// (only FETCHING partitions are fetchable, `SubscriptionState.isFetchable`).
    pub fn fetch_request(&mut self, tp: &TopicPartition) -> Option<FetchTarget> {
        let isolation = self.config.isolation_level;
        let state = self.assignment.get_mut(tp)?;
        if state.awaiting_validation {
            return None;
        }
        let offset = state.position?;
        let leader = state.leader?;
        state.fetch_in_flight = Some(offset);
        Some(FetchTarget {
            leader,
            offset,
            current_leader_epoch: state.leader_epoch.unwrap_or(-1),
            isolation,
        })
    }

    /// Whether the next round of `poll()` must read the leaders first: an error asked
    /// for it, or a partition has no leader in the consumer's metadata yet.
    pub fn needs_metadata_update(&self) -> bool {
        self.metadata_update_requested || self.assignment.values().any(|s| s.leader.is_none())
    }

    /// Asks for fresh metadata (`ConsumerMetadata.requestUpdate`), as a broker's
    /// disconnect does.
    pub fn request_metadata_update(&mut self) {
        self.metadata_update_requested = true;
    }

    /// New metadata names `leader` at `leader_epoch` for `tp`
    /// (`SubscriptionState.maybeValidatePositionForCurrentLeader`, Kafka 4.0): a
    /// different leader or epoch moves a position that carries the epoch of a record
    /// read to AWAIT_VALIDATION; without that epoch there is nothing to check. A
    /// partition without a leader keeps what it knew. Returns whether it awaits
    /// validation.
    pub fn update_leader(
        &mut self,
        tp: &TopicPartition,
        leader: Option<i32>,
        leader_epoch: i32,
    ) -> bool {
        let Some(state) = self.assignment.get_mut(tp) else {
            return false;
        };
        let Some(leader) = leader else {
            return state.awaiting_validation;
        };
        if state.leader == Some(leader) && state.leader_epoch == Some(leader_epoch) {
            return state.awaiting_validation;
        }
        state.leader = Some(leader);
        state.leader_epoch = Some(leader_epoch);
        if !state.reset_requested && state.offset_epoch.is_some() {
            state.awaiting_validation = state.position.is_some();
        }
        state.awaiting_validation
    }

    /// The metadata was read: no update is pending.
    pub fn metadata_updated(&mut self) {
        self.metadata_update_requested = false;
    }

    /// The OffsetsForLeaderEpoch to send for a partition awaiting validation, if none
    /// is in flight. `None` also when it needs no check after all.
    pub fn validation_request(&mut self, tp: &TopicPartition) -> Option<ValidationTarget> {
        let state = self.assignment.get_mut(tp)?;
        if !state.awaiting_validation || state.validation_in_flight.is_some() {
            return None;
        }
        let (Some(epoch), Some(position), Some(leader), Some(current)) = (
            state.offset_epoch,
            state.position,
            state.leader,
            state.leader_epoch,
        ) else {
            state.awaiting_validation = false;
            return None;
        };
        state.validation_in_flight = Some((epoch, position));
        Some(ValidationTarget {
            leader,
            current_leader_epoch: current,
            epoch,
            position,
        })
    }

    /// Validation is skipped: the position fetches again as it is (a leader that
    /// keeps no leader-epoch cache here cannot be asked).
    pub fn skip_validation(&mut self, tp: &TopicPartition) {
        if let Some(state) = self.assignment.get_mut(tp) {
            state.awaiting_validation = false;
            state.validation_in_flight = None;
        }
    }

    /// An OffsetsForLeaderEpoch that was lost: the next round asks again.
    pub fn validation_lost(&mut self, tp: &TopicPartition) {
        if let Some(state) = self.assignment.get_mut(tp) {
            state.validation_in_flight = None;
        }
    }

    /// OffsetsForLeaderEpoch failed (`OffsetsForLeaderEpochUtils.handleResponse`: every
    /// leader error is retried): fresh metadata first, then the next round asks again.
    pub fn validation_failed(
        &mut self,
        tp: &TopicPartition,
        error: Errors,
    ) -> Option<ConsumerEvent> {
        let state = self.assignment.get_mut(tp)?;
        state.validation_in_flight = None;
        self.metadata_update_requested = true;
        Some(ConsumerEvent::MetadataUpdateRequested {
            tp: tp.clone(),
            api: "OffsetsForLeaderEpoch".into(),
            error,
            leader_epoch: state.leader_epoch.unwrap_or(-1),
        })
    }

    /// Partitions whose position awaits validation.
    pub fn awaiting_validation(&self) -> Vec<TopicPartition> {
        self.assignment
            .iter()
            .filter(|(_, s)| s.awaiting_validation)
            .map(|(tp, _)| tp.clone())
            .collect()
    }

    /// Reads a Fetch answer for `tp`: all records the application gets from it (in
    /// `max.poll.records` slices) and what happened. The position ends after the last
    /// batch processed.
    pub fn on_fetch_response(
        &mut self,
        tp: &TopicPartition,
        mut data: FetchPartitionData,
    ) -> (Vec<ConsumerRecord>, Vec<ConsumerEvent>) {
        // NOT KAFKA: break aborted — the aborted-transaction list is ignored, so
        // `CompletedFetch` keeps the aborted records.
        if self.breaks.keep_aborted() {
            data.aborted_transactions = None;
        }
        let isolation = self.config.isolation_level;
        let max = usize::try_from(self.config.max_poll_records.max(1)).unwrap_or(usize::MAX);
        let mut events = Vec::new();
        let Some(state) = self.assignment.get_mut(tp) else {
            events.push(ConsumerEvent::NotAssigned { tp: tp.clone() });
            return (Vec::new(), events);
        };
        let fetch_offset = state.fetch_in_flight.take().or(state.position);
        let (Some(fetch_offset), Some(position)) = (fetch_offset, state.position) else {
            events.push(ConsumerEvent::StaleFetchDiscarded {
                tp: tp.clone(),
                fetch_offset: fetch_offset.unwrap_or(-1),
                position: state.position,
            });
            return (Vec::new(), events);
        };
        if fetch_offset != position {
            events.push(ConsumerEvent::StaleFetchDiscarded {
                tp: tp.clone(),
                fetch_offset,
                position: Some(position),
            });
            return (Vec::new(), events);
        }
        if data.error == Errors::OffsetOutOfRange {
            // FetchCollector.handleInitializeErrors (Kafka 4.0): reset by the default
            // policy, or raise OffsetOutOfRangeException when there is none.
            let reset = match self.config.auto_offset_reset {
                OffsetResetStrategy::None => {
                    self.exception = Some(ConsumerException::OffsetOutOfRange {
                        tp: tp.clone(),
                        offset: position,
                    });
                    None
                }
                strategy => {
                    state.position = None;
                    state.reset_requested = true;
                    state.awaiting_validation = false;
                    Some(strategy)
                }
            };
            events.push(ConsumerEvent::OffsetOutOfRange {
                tp: tp.clone(),
                fetch_offset,
                log_start_offset: data.log_start_offset,
                reset,
            });
            return (Vec::new(), events);
        }
        if matches!(
            data.error,
            Errors::NotLeaderOrFollower
                | Errors::FencedLeaderEpoch
                | Errors::OffsetNotAvailable
                | Errors::UnknownTopicOrPartition
        ) {
            // FetchCollector.handleInitializeErrors (Kafka 4.0): the consumer's metadata
            // is behind the cluster's; fresh metadata names the leader to fetch from.
            self.metadata_update_requested = true;
            events.push(ConsumerEvent::MetadataUpdateRequested {
                tp: tp.clone(),
                api: "Fetch".into(),
                error: data.error,
                leader_epoch: state.leader_epoch.unwrap_or(-1),
            });
            return (Vec::new(), events);
        }
        if data.error != Errors::None {
            // UNKNOWN_LEADER_EPOCH among them: the broker has not caught up with the
            // consumer's metadata yet, so the fetch is simply retried.
            events.push(ConsumerEvent::FetchError {
                tp: tp.clone(),
                error: data.error,
            });
            return (Vec::new(), events);
        }
        // FetchCollector.updatePartitionState: only non-negative values count.
        if data.high_watermark >= 0 {
            state.high_watermark = Some(data.high_watermark);
        }
        if data.last_stable_offset >= 0 {
            state.last_stable_offset = Some(data.last_stable_offset);
        }
        if data.log_start_offset >= 0 {
            state.log_start_offset = Some(data.log_start_offset);
        }
        events.push(ConsumerEvent::FetchReceived {
            tp: tp.clone(),
            fetch_offset,
            high_watermark: data.high_watermark,
            last_stable_offset: data.last_stable_offset,
            bytes: data.records.len(),
            aborted_transactions: data.aborted_transactions.as_ref().map_or(0, Vec::len),
        });

        let mut fetch = CompletedFetch::new(tp.clone(), isolation, fetch_offset, data);
        let mut delivered = Vec::new();
        let mut position = position;
        // The epoch of the position once it moves (`FetchCollector.fetchRecords`: a new
        // `FetchPosition(nextFetchOffset, lastEpoch, …)`, an empty epoch included).
        let mut offset_epoch = None;
        loop {
            // One poll(): at most max.poll.records records. An empty slice means the
            // fetch is used up (next_fetched_record only ends at the end of the bytes).
            let records = fetch.fetch_records(max);
            events.extend(fetch.take_events());
            // The position only moves forward (FetchCollector.fetchRecords).
            if fetch.next_fetch_offset() > position {
                events.push(ConsumerEvent::PositionAdvanced {
                    tp: tp.clone(),
                    from: position,
                    to: fetch.next_fetch_offset(),
                });
                position = fetch.next_fetch_offset();
                offset_epoch = Some(fetch.last_epoch());
            }
            delivered.extend(records);
            if fetch.is_consumed() {
                break;
            }
        }
        state.position = Some(position);
        if let Some(epoch) = offset_epoch {
            state.offset_epoch = epoch;
        }
        self.delivered.extend(delivered.iter().cloned());
        (delivered, events)
    }

    /// The leader's answer to the validation in flight (`maybeCompleteValidation`,
    /// Kafka 4.0): where the position's epoch ends in its log (`end_epoch`, `end_offset`; -1 when it cannot say).
    /// A position past that end was truncated under the consumer: it goes back to the
    /// end with a reset policy, is reset by the policy when the end is unknown, or
    /// `poll()` throws `LogTruncationException` with none. A seek since moved the
    /// position: the answer is stale.
    pub fn complete_validation(
        &mut self,
        tp: &TopicPartition,
        end_epoch: i32,
        end_offset: i64,
    ) -> Option<ConsumerEvent> {
        let strategy = self.config.auto_offset_reset;
        let state = self.assignment.get_mut(tp)?;
        let (epoch, position) = state.validation_in_flight.take()?;
        if !state.awaiting_validation || state.position != Some(position) {
            return None;
        }
        state.awaiting_validation = false;
        let unknown = end_offset < 0 || end_epoch < 0;
        if !unknown && end_offset >= position {
            return None;
        }
        let reset = match strategy {
            OffsetResetStrategy::None => {
                self.exception = Some(ConsumerException::LogTruncation {
                    tp: tp.clone(),
                    offset: position,
                    divergent: (!unknown).then_some((end_offset, end_epoch)),
                });
                None
            }
            strategy if unknown => {
                state.position = None;
                state.offset_epoch = None;
                state.reset_requested = true;
                Some(strategy)
            }
            strategy => {
                state.position = Some(end_offset);
                state.offset_epoch = Some(end_epoch);
                Some(strategy)
            }
        };
        Some(ConsumerEvent::TruncationDetected {
            tp: tp.clone(),
            position,
            epoch,
            end_epoch,
            end_offset,
            reset,
        })
    }
}
