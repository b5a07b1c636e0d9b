//! Consumers in the world: creating them, assigning partitions, and `poll()` — Fetch
//! requests through the network, answered by the partition leaders, read by the
//! consumer's `CompletedFetch` (which skips aborted transactions and markers).
//!
//! Simplified: a consumer's starting position at `assign` is read from the group's
//! committed offset or the leader's log bounds directly (Kafka sends OffsetFetch and
//! ListOffsets); a later reset sends ListOffsets. The consumer's metadata (leaders
//! and leader epochs) is read from the controller's registrations.

use super::error::{SimError, SimErrorKind};
use super::event::EventKind;
use super::network::{Body, Node};
use super::world::World;
use super::Action;
use crate::client::consumer::{
    summary_line, AbortedTransaction, Consumer, ConsumerConfig, ConsumerEvent, ConsumerException,
    FetchPartitionData, IsolationLevel,
};
use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC;
use crate::log::{FetchIsolation, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// Bytes a single Fetch may return (`fetch.max.bytes` is far larger; any batch fits).
const FETCH_MAX_BYTES: i32 = 1024 * 1024;

impl World {
    /// The consumer actions; `World::apply` sends only these here.
    pub(super) fn apply_consumer(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::CreateConsumer { name, configs } => self.create_consumer(name, configs),
            Action::Assign {
                consumer,
                partitions,
            } => self.assign(consumer, partitions),
            Action::Poll { consumer } => self.poll(consumer),
            Action::Seek {
                consumer,
                topic_partition,
                offset,
            } => self.seek(consumer, topic_partition, *offset),
            #[cfg(feature = "group-membership")]
            Action::Subscribe { consumer, topics } => self.subscribe(consumer, topics),
            #[cfg(feature = "group-membership")]
            Action::Unsubscribe { consumer } => self.unsubscribe(consumer),
            _ => Ok(vec![]),
        }
    }

    pub(super) fn create_consumer(
        &mut self,
        name: &str,
        configs: &[(String, String)],
    ) -> Result<Vec<String>, SimError> {
        if self.producers.contains_key(name)
            || self.consumers.contains_key(name)
            || name == super::RAW_CLIENT
        {
            return Err(SimErrorKind::ClientExists {
                name: name.to_string(),
            }
            .into());
        }
        let config = ConsumerConfig::from_pairs(name, configs)?;
        let mut consumer = Consumer::new(config);
        consumer.breaks = self.breaks;
        self.consumers.insert(name.to_string(), consumer);
        Ok(vec![])
    }

    /// `assign()`, then each partition's starting position: the group's committed
    /// offset, else `auto.offset.reset` against the log start or the end the
    /// consumer may read (HW, or LSO for read_committed).
    pub(super) fn assign(
        &mut self,
        name: &str,
        partitions: &[TopicPartition],
    ) -> Result<Vec<String>, SimError> {
        for tp in partitions {
            self.check_partition(tp)?;
        }
        let group = self
            .consumers
            .get(name)
            .and_then(|c| c.config.group_id.clone());
        if let Some(group) = group {
            // The consumer's OffsetFetch gets COORDINATOR_LOAD_IN_PROGRESS while the
            // group's coordinator loads its partition, and is retried until it ends.
            let gtp = self.internal_partition_for(GROUP_METADATA_TOPIC, &group);
            self.run_while(|w| w.coordinator_loading(&gtp));
        }
        let consumer = self.consumers.get(name).ok_or_else(|| {
            SimError::from(SimErrorKind::NoConsumer {
                name: name.to_string(),
            })
        })?;
        let committed_for = |w: &World, tp: &TopicPartition| -> Option<i64> {
            let group = consumer.config.group_id.as_deref()?;
            let gtp = w.internal_partition_for(GROUP_METADATA_TOPIC, group);
            let broker = w.brokers.get(&w.leader_of(&gtp)?)?;
            broker
                .group_coordinator()
                .committed(group, tp)
                .map(|o| o.committed_offset)
        };
        let isolation = consumer.isolation_level();
        let starts: Vec<(TopicPartition, Option<i64>, i64, i64)> = partitions
            .iter()
            .map(|tp| {
                let (start, end) = self.reset_bounds(tp, isolation);
                (tp.clone(), committed_for(self, tp), start, end)
            })
            .collect();
        let consumer = self.consumers.get_mut(name).ok_or_else(|| {
            SimError::from(SimErrorKind::NoConsumer {
                name: name.to_string(),
            })
        })?;
        consumer.assign(partitions);
        let mut events = Vec::new();
        for (tp, committed, start, end) in starts {
            events.extend(consumer.initialize_position(&tp, committed, start, end));
        }
        for event in events {
            self.emit(EventKind::Consumer {
                client: name.to_string(),
                event,
            });
        }
        Ok(vec![])
    }

    /// `seek()`: the next fetch of that partition starts at `offset` (checked by the
    /// broker: an offset outside the log is answered OFFSET_OUT_OF_RANGE).
    pub(super) fn seek(
        &mut self,
        name: &str,
        tp: &TopicPartition,
        offset: i64,
    ) -> Result<Vec<String>, SimError> {
        self.check_partition(tp)?;
        let consumer = self.consumers.get_mut(name).ok_or_else(|| {
            SimError::from(SimErrorKind::NoConsumer {
                name: name.to_string(),
            })
        })?;
        // KafkaConsumer.seek: a negative offset is refused, an unassigned partition
        // throws IllegalStateException ("No current assignment for partition").
        if offset < 0 {
            return Err(SimErrorKind::NegativeSeekOffset { offset }.into());
        }
        let event = consumer.seek(tp, offset).ok_or_else(|| {
            SimError::from(SimErrorKind::NotAssigned {
                consumer: name.to_string(),
                tp: tp.clone(),
            })
        })?;
        self.emit(EventKind::Consumer {
            client: name.to_string(),
            event,
        });
        Ok(vec![])
    }

    /// `poll()` until caught up: fetch every assigned partition, again and again,
    /// until a round brings nothing new.
    pub(super) fn poll(&mut self, name: &str) -> Result<Vec<String>, SimError> {
        if !self.consumers.contains_key(name) {
            return Err(SimError::from(SimErrorKind::NoConsumer {
                name: name.to_string(),
            }));
        }
        // ensureActiveGroup: a member that lost its membership rejoins first.
        #[cfg(feature = "group-membership")]
        self.rejoin_if_needed(name);
        for _ in 0..64 {
            // updateFetchPositions, first in every round of poll(): resets asked for by
            // OFFSET_OUT_OF_RANGE, then NoOffsetForPartitionException for what has none.
            if let Some(thrown) = self.update_fetch_positions(name) {
                self.emit(EventKind::Consumer {
                    client: name.to_string(),
                    event: ConsumerEvent::PollThrew { exception: thrown },
                });
                return Ok(vec![]);
            }
            let before = self.consumers.get(name).map(|c| c.positions());
            let partitions = self
                .consumers
                .get(name)
                .map(|c| c.assigned())
                .unwrap_or_default();
            for tp in partitions {
                let Some(target) = self
                    .consumers
                    .get_mut(name)
                    .and_then(|c| c.fetch_request(&tp))
                else {
                    continue;
                };
                let cid = self.take_correlation_id();
                self.consumer_fetches
                    .insert(cid, (name.to_string(), tp.clone()));
                let request = Request::Fetch {
                    topic_partition: tp.clone(),
                    fetch_offset: target.offset,
                    max_bytes: FETCH_MAX_BYTES,
                    isolation: target.isolation.fetch_isolation(),
                    current_leader_epoch: target.current_leader_epoch,
                };
                self.send(
                    Node::Client(name.to_string()),
                    Node::Broker(target.leader),
                    cid,
                    Body::Request(request),
                );
            }
            self.run_while(|w| w.consumer_fetches.values().any(|(c, _)| c == name));
            // Requests that were lost are forgotten: the next poll asks again.
            self.consumer_fetches.retain(|_, (c, _)| c != name);
            let refresh = self
                .consumers
                .get(name)
                .is_some_and(|c| c.needs_metadata_update());
            if let Some(thrown) = self
                .consumers
                .get_mut(name)
                .and_then(|c| c.take_exception())
            {
                self.emit(EventKind::Consumer {
                    client: name.to_string(),
                    event: ConsumerEvent::PollThrew { exception: thrown },
                });
                return Ok(vec![]);
            }
            // A round that asked for fresh metadata is retried with it.
            if self.consumers.get(name).map(|c| c.positions()) == before && !refresh {
                break;
            }
        }
        Ok(vec![])
    }

    /// The log start offset and the end a consumer of this isolation level may read
    /// (HW, or LSO for read_committed): what ListOffsets answers for earliest and
    /// latest. Simplified: read from the leader's log, no ListOffsets request.
    fn reset_bounds(&self, tp: &TopicPartition, isolation: IsolationLevel) -> (i64, i64) {
        let log = self
            .leader_of(tp)
            .and_then(|b| self.brokers.get(&b))
            .and_then(|b| b.logs().get(tp));
        let start = log.map_or(0, |l| l.log_start_offset());
        let end = log.map_or(0, |l| match isolation {
            IsolationLevel::ReadCommitted => l.last_stable_offset(),
            IsolationLevel::ReadUncommitted => l.high_watermark(),
        });
        (start, end)
    }

    /// Resets the partitions awaiting one; returns what `poll()` throws for partitions
    /// left without a position (`auto.offset.reset=none`).
    fn update_fetch_positions(&mut self, name: &str) -> Option<ConsumerException> {
        self.update_consumer_metadata(name);
        self.validate_positions(name);
        if let Some(thrown) = self.consumers.get_mut(name)?.take_exception() {
            return Some(thrown);
        }
        self.reset_positions(name);
        let missing = self.consumers.get(name)?.missing_positions();
        (!missing.is_empty()).then_some(ConsumerException::NoOffsetForPartition {
            partitions: missing,
        })
    }

    /// `OffsetFetcher.resetPositionsIfNeeded` (Kafka 4.0): each partition awaiting a
    /// reset asks its leader with ListOffsets; an answer sets the position, an error
    /// asks for fresh metadata and the reset waits for the next round.
    fn reset_positions(&mut self, name: &str) {
        let Some(consumer) = self.consumers.get(name) else {
            return;
        };
        let requests: Vec<(TopicPartition, crate::client::consumer::ResetTarget)> = consumer
            .awaiting_reset()
            .into_iter()
            .filter_map(|tp| Some((tp.clone(), consumer.reset_request(&tp)?)))
            .collect();
        for (tp, target) in requests {
            let cid = self.take_correlation_id();
            self.consumer_fetches
                .insert(cid, (name.to_string(), tp.clone()));
            self.send(
                Node::Client(name.to_string()),
                Node::Broker(target.leader),
                cid,
                Body::Request(Request::ListOffsets {
                    topic_partition: tp,
                    isolation: target.isolation.fetch_isolation(),
                    earliest: target.earliest,
                    current_leader_epoch: target.current_leader_epoch,
                }),
            );
        }
        self.run_while(|w| w.consumer_fetches.values().any(|(c, _)| c == name));
        self.consumer_fetches.retain(|_, (c, _)| c != name);
    }

    /// The consumer's metadata (`ConsumerMetadata`): read again when an error asked
    /// for it, when a partition has no leader yet, or when a leader it knows is down
    /// (a disconnect asks for an update). Every partition's leader and leader epoch go
    /// through `maybeValidatePositionForCurrentLeader`. Simplified: read from the
    /// controller's registrations, no Metadata request, and no `metadata.max.age.ms`.
    fn update_consumer_metadata(&mut self, name: &str) {
        let Some(consumer) = self.consumers.get(name) else {
            return;
        };
        let assigned = consumer.assigned();
        let leader_down = assigned.iter().any(|tp| {
            consumer
                .partition_state(tp)
                .and_then(|s| s.leader)
                .is_some_and(|b| !self.brokers.get(&b).is_some_and(|b| b.is_online()))
        });
        if !consumer.needs_metadata_update() && !leader_down {
            return;
        }
        let leaders: Vec<(TopicPartition, Option<i32>, i32)> = assigned
            .into_iter()
            .filter_map(|tp| {
                let epoch = self.registration(&tp)?.leader_epoch();
                let leader = self.leader_of(&tp).filter(|&b| b >= 0);
                Some((tp, leader, epoch))
            })
            .collect();
        let Some(consumer) = self.consumers.get_mut(name) else {
            return;
        };
        consumer.metadata_updated();
        for (tp, leader, epoch) in leaders {
            consumer.update_leader(&tp, leader, epoch);
        }
    }

    /// KIP-320 (`OffsetFetcher.validatePositionsIfNeeded`, Kafka 4.0): a position that
    /// awaits validation asks its leader, with OffsetsForLeaderEpoch, where the epoch
    /// of the last record read ends in the leader's log; the answer may truncate the
    /// position. A leader that is down is waited for. Simplified: a single replica
    /// (no election can truncate it, and it keeps no leader-epoch cache here) is not
    /// asked.
    fn validate_positions(&mut self, name: &str) {
        let Some(consumer) = self.consumers.get(name) else {
            return;
        };
        for tp in consumer.awaiting_validation() {
            let Some(leader) = self
                .consumers
                .get(name)
                .and_then(|c| c.partition_state(&tp))
                .and_then(|s| s.leader)
            else {
                continue;
            };
            let Some(broker) = self.brokers.get(&leader).filter(|b| b.is_online()) else {
                continue;
            };
            let replicated = broker.logs().get(&tp).is_some_and(|l| l.is_replicated());
            let Some(consumer) = self.consumers.get_mut(name) else {
                return;
            };
            if !replicated {
                consumer.skip_validation(&tp);
                continue;
            }
            let Some(target) = consumer.validation_request(&tp) else {
                continue;
            };
            let cid = self.take_correlation_id();
            self.consumer_fetches
                .insert(cid, (name.to_string(), tp.clone()));
            self.send(
                Node::Client(name.to_string()),
                Node::Broker(target.leader),
                cid,
                Body::Request(Request::OffsetsForLeaderEpoch {
                    topic_partition: tp.clone(),
                    current_leader_epoch: target.current_leader_epoch,
                    leader_epoch: target.epoch,
                }),
            );
        }
        self.run_while(|w| w.consumer_fetches.values().any(|(c, _)| c == name));
        self.consumer_fetches.retain(|_, (c, _)| c != name);
        if let Some(consumer) = self.consumers.get_mut(name) {
            for tp in consumer.awaiting_validation() {
                consumer.validation_lost(&tp);
            }
        }
    }

    /// What a consumer's answer made of its state, if anything, on the timeline.
    fn emit_consumer_event(&mut self, client: String, event: Option<ConsumerEvent>) {
        if let Some(event) = event {
            self.emit(EventKind::Consumer { client, event });
        }
    }

    /// A Fetch answer for a consumer.
    pub(super) fn on_consumer_response(&mut self, correlation_id: u64, response: Response) {
        let Some((name, tp)) = self.consumer_fetches.remove(&correlation_id) else {
            return;
        };
        if let Response::OffsetsForLeaderEpoch {
            error,
            leader_epoch,
            end_offset,
            ..
        } = response
        {
            let event = self.consumers.get_mut(&name).and_then(|c| {
                if error == Errors::None {
                    c.complete_validation(&tp, leader_epoch, end_offset)
                } else {
                    c.validation_failed(&tp, error)
                }
            });
            self.emit_consumer_event(name, event);
            return;
        }
        if let Response::ListOffsets { error, offset, .. } = response {
            let event = self.consumers.get_mut(&name).and_then(|c| {
                if error == Errors::None {
                    c.reset_position(&tp, offset, offset)
                } else {
                    c.reset_failed(&tp, error)
                }
            });
            self.emit_consumer_event(name, event);
            return;
        }
        let Response::Fetch {
            error,
            high_watermark,
            last_stable_offset,
            log_start_offset,
            aborted_transactions,
            records,
            ..
        } = response
        else {
            return;
        };
        let data = FetchPartitionData {
            error,
            high_watermark,
            last_stable_offset,
            log_start_offset,
            aborted_transactions: aborted_transactions.map(|list| {
                list.into_iter()
                    .map(|(producer_id, first_offset)| AbortedTransaction {
                        producer_id,
                        first_offset,
                    })
                    .collect()
            }),
            records,
        };
        let Some(consumer) = self.consumers.get_mut(&name) else {
            return;
        };
        let (_, events) = consumer.on_fetch_response(&tp, data);
        for event in events {
            self.emit(EventKind::Consumer {
                client: name.clone(),
                event,
            });
        }
    }

    /// A group's committed offsets as a stable OffsetFetch answers: the offset, none,
    /// or UNSTABLE_OFFSET_COMMIT while a transaction holding new offsets is open (the
    /// edge words them: `i18n::transcript::committed_offsets`).
    pub fn committed_offsets(
        &self,
        group_id: &str,
        partitions: &[TopicPartition],
    ) -> CommittedOffsets {
        let gtp = self.internal_partition_for(GROUP_METADATA_TOPIC, group_id);
        let Some(broker) = self.leader_of(&gtp).and_then(|b| self.brokers.get(&b)) else {
            return CommittedOffsets::NoTopic;
        };
        if broker.coordinator_loads().contains_key(&gtp) {
            return CommittedOffsets::Loading {
                broker: broker.id,
                tp: gtp,
            };
        }
        CommittedOffsets::Partitions(
            broker
                .group_coordinator()
                .fetch_offsets(group_id, partitions, true)
                .into_iter()
                .map(|f| {
                    let offset = match f.error {
                        Errors::None if f.committed_offset >= 0 => Ok(Some(f.committed_offset)),
                        Errors::None => Ok(None),
                        e => Err(e),
                    };
                    (f.topic_partition, offset)
                })
                .collect(),
        )
    }

    /// Whether the leader of the internal partition `tp` is still loading it for its
    /// coordinator (its requests get COORDINATOR_LOAD_IN_PROGRESS meanwhile).
    pub fn coordinator_loading(&self, tp: &TopicPartition) -> bool {
        self.leader_of(tp)
            .and_then(|b| self.brokers.get(&b))
            .is_some_and(|b| b.is_online() && b.coordinator_loads().contains_key(tp))
    }

    /// `got 5 records: c1@0 c2@1 … (position 11)` for a consumer's partitions.
    pub fn consumed_summary(&self, name: &str) -> Option<String> {
        let c = self.consumers.get(name)?;
        let records = c.records();
        let positions: Vec<String> = c.positions().values().map(|p| p.to_string()).collect();
        Some(format!(
            "got {} records: {} (position {})",
            records.len(),
            summary_line(records),
            positions.join(", ")
        ))
    }

    /// The latest offset a consumer of this isolation level could read: what
    /// `Admin.listOffsets(latest, isolation)` answers (HW, or LSO for read_committed).
    pub fn latest_offset(&self, tp: &TopicPartition, isolation: FetchIsolation) -> Option<i64> {
        let log = self.brokers.get(&self.leader_of(tp)?)?.logs().get(tp)?;
        Some(match isolation {
            FetchIsolation::TxnCommitted => log.last_stable_offset(),
            FetchIsolation::HighWatermark => log.high_watermark(),
            FetchIsolation::LogEnd => log.log_end_offset(),
        })
    }
}

/// What a stable OffsetFetch answers for a group (`print committed`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommittedOffsets {
    /// No `__consumer_offsets` yet: nothing was ever committed.
    NoTopic,
    /// The coordinator's broker is still loading the group's partition of
    /// `__consumer_offsets` (COORDINATOR_LOAD_IN_PROGRESS).
    Loading { broker: i32, tp: TopicPartition },
    /// Each partition's committed offset (`None`: none), or its error
    /// (UNSTABLE_OFFSET_COMMIT while a transaction with new offsets is open).
    Partitions(Vec<(TopicPartition, Result<Option<i64>, Errors>)>),
}
