//! Changing a topic that exists, as Kafka 4.0's controller does (mirror commit
//! 1eb7644): IncrementalAlterConfigs on a topic (`ConfigurationControlManager`,
//! validated by `ControllerConfigurationValidator` and `LogConfig.validate`),
//! CreatePartitions (`ReplicationControlManager.createPartitions`, placed by the same
//! `StripedReplicaPlacer` as CreateTopics) and DeleteTopics
//! (`ReplicationControlManager.deleteTopic`: the brokers drop their replicas when the
//! `RemoveTopicRecord` reaches them).
//!
//! A new config value reaches the brokers as a topic config change does
//! (`TopicConfigHandler.updateLogConfig`): each replica's log reads it from its next
//! use; `min.insync.replicas` is read by the next Produce, the next HW check and the
//! next look at a Produce waiting for the ISR (`checkEnoughReplicasReachOffset`).
//! Nothing is re-run at the moment of the change.

use crate::controller::topics::apply_replication_config;
use crate::log::TopicPartition;
use crate::metadata::PartitionRegistration;
use crate::protocol::config_def;
use crate::protocol::config_error::{ConfigError, ConfigScope};
use crate::sim::error::{ReplicaAssignmentError, SimError, SimErrorKind};
use crate::sim::event::EventKind;
use crate::sim::world::apply_log_config;
use crate::sim::world::World;

/// `uncleanLeaderElectionCheckIntervalMs` (Kafka 4.0's `QuorumController`, 5 minutes):
/// while some partition has no leader, how often the controller tries an unclean
/// election of it (`maybeElectUncleanLeaders`).
pub const UNCLEAN_LEADER_ELECTION_CHECK_INTERVAL_MS: i64 = 300_000;

/// The topic configs this engine models: Kafka's names (`LogConfig`). A key of the
/// playground's table that is not one of them (`replication.factor`, the broker-wide
/// `log.retention.ms`, …) is not a topic config: "Unknown topic config name".
const TOPIC_CONFIGS: &[&str] = &[
    "min.insync.replicas",
    "unclean.leader.election.enable",
    "segment.bytes",
    "index.interval.bytes",
    "max.message.bytes",
    "retention.ms",
    "retention.bytes",
    "cleanup.policy",
    "delete.retention.ms",
];

impl World {
    /// How often the controller looks for leaderless partitions to elect uncleanly
    /// ([`UNCLEAN_LEADER_ELECTION_CHECK_INTERVAL_MS`]), for the world's housekeeping,
    /// which keeps the next look on its grid.
    pub(crate) fn unclean_election_check_interval_ms(&self) -> i64 {
        UNCLEAN_LEADER_ELECTION_CHECK_INTERVAL_MS
    }

    /// IncrementalAlterConfigs with SET operations on topic `name`. Every pair is
    /// validated before any applies (the request is one controller write).
    pub(crate) fn alter_topic_configs(
        &mut self,
        name: &str,
        configs: &[(String, String)],
    ) -> Result<Vec<String>, SimError> {
        let topic = self.topics.get(name).ok_or_else(|| unknown_topic(name))?;
        let mut replication = topic.replication.clone();
        let mut config = topic.config.clone();
        for (key, value) in configs {
            if !TOPIC_CONFIGS.contains(&key.as_str()) {
                // A key the playground does not know at all gets the same refusal as
                // on `topic create`; a known one that is not a topic config, Kafka's.
                if !config_def::CONFIG_KEYS.iter().any(|k| k.name == key) {
                    return Err(ConfigError::Unknown {
                        scope: ConfigScope::Cluster,
                        key: key.clone(),
                    }
                    .into());
                }
                return Err(SimErrorKind::UnknownTopicConfig { key: key.clone() }.into());
            }
            if !apply_replication_config(&mut replication, key, value, self.config().brokers)? {
                apply_log_config(&mut config, key, value)?;
            }
        }
        let Some(topic) = self.topics.get_mut(name) else {
            return Err(unknown_topic(name));
        };
        topic.replication = replication.clone();
        topic.config = config.clone();
        let partitions = topic.partitions;
        #[cfg(feature = "metadata-log")]
        self.stage_topic_configs(name, configs);
        for p in 0..partitions {
            let tp = TopicPartition::new(name, p);
            for broker in self.brokers.values_mut() {
                broker.update_topic_config(&tp, &config, replication.min_insync_replicas);
            }
            // Markers a leader refused for a short ISR may go again: the bar moved.
            let isr_short = self.registration(&tp).is_some_and(|reg| {
                let rules = replication.change_rules(reg.replicas().len(), false);
                i32::try_from(reg.isr().len()).unwrap_or(i32::MAX) < rules.min_isr
            });
            let ids: Vec<i32> = self.brokers.keys().copied().collect();
            let now = self.clock_ms();
            for id in ids {
                if self.fenced.contains(&id) {
                    continue;
                }
                if let Some(broker) = self.brokers.get_mut(&id) {
                    let handled = broker.partition_metadata_changed(&tp, isr_short, now);
                    self.apply_handled(id, None, handled);
                }
            }
        }
        self.emit(EventKind::TopicConfigsAltered {
            topic: name.to_string(),
            configs: configs.to_vec(),
        });
        self.maybe_schedule_unclean_election();
        Ok(vec![])
    }

    /// `maybeScheduleNextElectUncleanLeaders` (Kafka 4.0): after a controller write,
    /// while some partition has no leader, the controller looks again
    /// `uncleanLeaderElectionCheckIntervalMs` later (DEFERRED: the first look, and
    /// every look that elected nothing, waits the whole interval).
    pub(crate) fn maybe_schedule_unclean_election(&mut self) {
        if self.unclean_election_due_ms.is_some() {
            return;
        }
        let leaderless = self.topics.values().any(|t| {
            t.registrations
                .iter()
                .any(|r| r.leader() == crate::metadata::NO_LEADER)
        });
        if leaderless {
            self.unclean_election_due_ms = Some(
                self.clock_ms()
                    .saturating_add(UNCLEAN_LEADER_ELECTION_CHECK_INTERVAL_MS),
            );
        }
    }

    /// Whether the next look would elect someone: a leaderless partition of a topic
    /// with `unclean.leader.election.enable`, and an active replica to elect.
    pub(crate) fn unclean_election_has_work(&self) -> bool {
        let active = self.active_brokers();
        self.topics.values().any(|t| {
            t.replication.unclean_leader_election
                && t.registrations.iter().any(|r| {
                    r.leader() == crate::metadata::NO_LEADER
                        && r.replicas().iter().any(|b| active.contains(b))
                })
        })
    }

    /// `maybeElectUncleanLeaders`: every leaderless partition whose topic allows it
    /// gets an unclean leader (`Election.UNCLEAN`: any active replica).
    pub(crate) fn run_unclean_election(&mut self) {
        if self
            .unclean_election_due_ms
            .is_none_or(|t| t > self.clock_ms())
        {
            return;
        }
        self.unclean_election_due_ms = None;
        let alive = self.active_brokers();
        let changes = self.change_registrations(|reg, rules| {
            rules
                .unclean
                .then(|| reg.unfence_broker(&|b| alive.contains(&b), rules))
                .flatten()
        });
        self.announce(changes);
        self.maybe_schedule_unclean_election();
    }

    /// CreatePartitions: topic `name` grows to `count` partitions. Without an
    /// assignment the new ones are placed as CreateTopics places them, from partition
    /// id `old count` on; with one, each list is checked as Kafka checks a manual
    /// assignment. A replica on a fenced broker starts out of the ISR.
    pub(crate) fn create_partitions(
        &mut self,
        name: &str,
        count: i32,
        assignment: &[Vec<i32>],
    ) -> Result<Vec<String>, SimError> {
        let topic = self.topics.get(name).ok_or_else(|| unknown_topic(name))?;
        let current = topic.partitions;
        if count <= current {
            return Err(SimErrorKind::PartitionsNotIncreased {
                topic: name.to_string(),
                current,
                requested: count,
            }
            .into());
        }
        if count > 64 {
            return Err(SimErrorKind::PartitionCount { partitions: count }.into());
        }
        let additional = count - current;
        // Kafka reads the replication factor from the topic's first partition.
        let replication_factor = topic
            .registrations
            .first()
            .map_or(1, |r| i32::try_from(r.replicas().len()).unwrap_or(1));
        let config = topic.config.clone();
        let given = i32::try_from(assignment.len()).unwrap_or(i32::MAX);
        let registrations = if assignment.is_empty() {
            if self.active_brokers().is_empty() {
                return Err(SimErrorKind::AllBrokersFenced { replication_factor }.into());
            }
            self.place_partitions(current..count, replication_factor)
        } else {
            if given != additional {
                return Err(assignment_error(ReplicaAssignmentError::Count {
                    additional,
                    given,
                }));
            }
            let active = self.active_brokers();
            let mut registrations = Vec::new();
            for (p, replicas) in (current..).zip(assignment) {
                self.validate_manual_assignment(replicas, Some(replication_factor))?;
                if !replicas.iter().any(|b| active.contains(b)) {
                    return Err(assignment_error(ReplicaAssignmentError::AllFenced {
                        partition: p,
                    }));
                }
                registrations.push(PartitionRegistration::created(replicas.clone(), &|b| {
                    active.contains(&b)
                }));
            }
            registrations
        };
        let leaders: Vec<i32> = registrations.iter().map(|r| r.leader()).collect();
        let replicated = replication_factor > 1;
        self.create_replicas(name, current, &registrations, &config, replicated)
            .map_err(SimErrorKind::Storage)?;
        if let Some(topic) = self.topics.get_mut(name) {
            topic.partitions = count;
            topic.leaders.extend(leaders.iter().copied());
            topic.registrations.extend(registrations);
        }
        self.announce_partitions(name, current, &leaders, replicated);
        self.emit(EventKind::PartitionsCreated {
            topic: name.to_string(),
            from: current,
            partitions: count,
            leaders,
        });
        Ok(vec![])
    }

    /// `validateManualPartitionAssignment`: a non-empty list of registered brokers,
    /// each once, as many as the topic's other partitions have (a reassignment
    /// passes no count: it may change the replication factor).
    pub(super) fn validate_manual_assignment(
        &self,
        replicas: &[i32],
        replication_factor: Option<i32>,
    ) -> Result<(), SimError> {
        if replicas.is_empty() {
            return Err(assignment_error(ReplicaAssignmentError::Empty));
        }
        let mut sorted = replicas.to_vec();
        crate::util::ordered::sort_by(&mut sorted, |a, b| a.cmp(b));
        for (i, broker) in sorted.iter().enumerate() {
            if !self.brokers.contains_key(broker) {
                return Err(assignment_error(ReplicaAssignmentError::UnknownBroker {
                    broker: *broker,
                }));
            }
            if i > 0 && sorted.get(i - 1) == Some(broker) {
                return Err(assignment_error(ReplicaAssignmentError::Duplicate {
                    broker: *broker,
                }));
            }
        }
        let given = i32::try_from(sorted.len()).unwrap_or(i32::MAX);
        if let Some(expected) = replication_factor.filter(|rf| *rf != given) {
            return Err(assignment_error(
                ReplicaAssignmentError::ReplicationFactor { given, expected },
            ));
        }
        Ok(())
    }

    /// DeleteTopics: the topic leaves the controller's metadata, and every broker
    /// drops its replicas (`ReplicaManager.stopPartitions` with `deletePartition`):
    /// the log directory goes, a request waiting on the partition is answered
    /// UNKNOWN_TOPIC_OR_PARTITION, and later requests for it get the same answer.
    pub(crate) fn delete_topic(&mut self, name: &str) -> Result<Vec<String>, SimError> {
        if crate::protocol::topic::is_internal(name) {
            return Err(SimErrorKind::DeleteInternalTopic {
                name: name.to_string(),
            }
            .into());
        }
        let topic = self
            .topics
            .remove(name)
            .ok_or_else(|| unknown_topic(name))?;
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            let Some(broker) = self.brokers.get_mut(&id) else {
                continue;
            };
            let mut handled = crate::broker::broker::Handled::default();
            for p in 0..topic.partitions {
                broker.delete_partition(&TopicPartition::new(name, p), &mut handled);
            }
            self.apply_handled(id, None, handled);
        }
        self.emit(EventKind::TopicDeleted {
            topic: name.to_string(),
            partitions: topic.partitions,
        });
        Ok(vec![])
    }
}

pub(super) fn unknown_topic(name: &str) -> SimError {
    SimErrorKind::UnknownTopic {
        name: name.to_string(),
    }
    .into()
}

pub(super) fn assignment_error(e: ReplicaAssignmentError) -> SimError {
    SimErrorKind::ReplicaAssignment(e).into()
}
