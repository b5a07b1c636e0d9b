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
    /// The leader epoch of the last record read before the position (Kafka's
    /// `FetchPosition.offsetEpoch`); none after a seek or a reset.
    #[serde(default)]
    pub offset_epoch: Option<i32>,
    /// The partition's leader epoch the position was last validated under (Kafka's
    /// `FetchPosition.currentLeader`): a newer one validates it again (KIP-320).
    #[serde(default)]
    pub leader_epoch: Option<i32>,
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
}

impl Consumer {
    pub fn new(config: ConsumerConfig) -> Self {
        Consumer {
            config,
            assignment: SortedMap::new(),
            delivered: Vec::new(),
            breaks: crate::breaks::Breaks::default(),
            exception: None,
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

    /// The Fetch to send for a partition: its position and the isolation level. None
    /// when the partition is not assigned or has no position yet.
    pub fn fetch_request(&mut self, tp: &TopicPartition) -> Option<(i64, IsolationLevel)> {
        let isolation = self.config.isolation_level;
        let state = self.assignment.get_mut(tp)?;
        let offset = state.position?;
        state.fetch_in_flight = Some(offset);
        Some((offset, isolation))
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
        if data.error != Errors::None {
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
            }
            delivered.extend(records);
            if fetch.is_consumed() {
                break;
            }
        }
        state.position = Some(position);
        if let Some(epoch) = fetch.last_epoch() {
            state.offset_epoch = Some(epoch);
        }
        self.delivered.extend(delivered.iter().cloned());
        (delivered, events)
    }

    /// Whether the position must be validated against a leader at `leader_epoch`
    /// (`SubscriptionState.maybeValidatePositionForCurrentLeader`): the first look at
    /// a newer leader epoch, for a position with the epoch of a record read. Returns
    /// that epoch and the position; either way the leader epoch counts as seen.
    pub fn validation_needed(
        &mut self,
        tp: &TopicPartition,
        leader_epoch: i32,
    ) -> Option<(i32, i64)> {
        let state = self.assignment.get_mut(tp)?;
        if state.leader_epoch.is_some_and(|seen| seen >= leader_epoch) {
            return None;
        }
        state.leader_epoch = Some(leader_epoch);
        state.offset_epoch.zip(state.position)
    }

    /// The leader's answer to the validation (`maybeCompleteValidation`, Kafka 4.0):
    /// where `epoch` ends in its log (`end_epoch`, `end_offset`; -1 when it cannot say).
    /// A position past that end was truncated under the consumer: it goes back to the
    /// end with a reset policy, is reset by the policy when the end is unknown, or
    /// `poll()` throws `LogTruncationException` with none. A fetch since moved the
    /// position: the answer is stale.
    pub fn complete_validation(
        &mut self,
        tp: &TopicPartition,
        (epoch, position): (i32, i64),
        end_epoch: i32,
        end_offset: i64,
    ) -> Option<ConsumerEvent> {
        let strategy = self.config.auto_offset_reset;
        let state = self.assignment.get_mut(tp)?;
        if state.position != Some(position) {
            return None;
        }
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
