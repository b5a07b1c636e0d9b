//! Creating topics (`ReplicationControlManager.createTopics`): their names checked,
//! their replication settings read, their replicas placed (`StripedReplicaPlacer`),
//! and each partition's first registration told to the brokers.

use crate::fs::FsError;
use crate::log::{LogConfig, TopicPartition};
use crate::metadata::{PartitionRegistration, ReplicationConfig};
use crate::protocol::config_def::{self, Place};
use crate::sim::error::{SimError, SimErrorKind};
use crate::sim::event::EventKind;
use crate::sim::world::{apply_log_config, TopicInfo, World};

/// `StripedReplicaPlacer` on one rack: partition `p`'s replicas start at broker
/// `p mod n` and go round the brokers (ids `1..=n`); the first is the preferred leader.
pub fn place_replicas(partition: i32, replication_factor: i32, brokers: i32) -> Vec<i32> {
    place_replicas_among(partition, replication_factor, brokers, &|_| true)
}

/// [`place_replicas`] when some brokers are fenced or in controlled shutdown: as
/// `StripedReplicaPlacer` prefers them (Kafka 4.0), the `active` brokers of the round
/// come first, and the others only when too few are active, so the preferred leader
/// is active whenever one is.
pub fn place_replicas_among(
    partition: i32,
    replication_factor: i32,
    brokers: i32,
    active: &dyn Fn(i32) -> bool,
) -> Vec<i32> {
    let n = brokers.max(1);
    let round: Vec<i32> = (0..n).map(|i| (partition + i).rem_euclid(n) + 1).collect();
    let (mut placed, rest): (Vec<i32>, Vec<i32>) = round.into_iter().partition(|b| active(*b));
    placed.extend(rest);
    placed.truncate(usize::try_from(replication_factor.clamp(1, n)).unwrap_or(1));
    placed
}

impl World {
    pub(crate) fn create_topic(
        &mut self,
        name: &str,
        partitions: i32,
        configs: &[(String, String)],
    ) -> Result<Vec<String>, SimError> {
        if let Some(reason) = crate::protocol::topic::detect_invalid_topic(name) {
            return Err(SimErrorKind::IllegalTopicName {
                name: name.to_string(),
                reason,
            }
            .into());
        }
        if self.topics.contains_key(name) {
            return Err(SimErrorKind::TopicExists {
                name: name.to_string(),
            }
            .into());
        }
        // The controller's `validateNewTopicNames` (Kafka 4.0): `a.b` and `a_b` cannot
        // both exist, whichever came first.
        let unified = |n: &str| n.replace('.', "_");
        if name.bytes().any(|b| b == b'.' || b == b'_') {
            if let Some(existing) = self.topics.keys().find(|t| unified(t) == unified(name)) {
                return Err(SimErrorKind::TopicCollision {
                    name: name.to_string(),
                    existing: existing.clone(),
                }
                .into());
            }
        }
        if !(1..=64).contains(&partitions) {
            return Err(SimErrorKind::PartitionCount { partitions }.into());
        }
        if crate::protocol::topic::is_internal(name) {
            return Err(SimErrorKind::InternalTopic {
                name: name.to_string(),
            }
            .into());
        }
        let mut config = self.broker_defaults().clone();
        let mut replication = ReplicationConfig::default();
        for (k, v) in configs {
            if !apply_replication_config(&mut replication, k, v, self.config().brokers)? {
                apply_log_config(&mut config, k, v)?;
            }
        }
        if self.active_brokers().is_empty() {
            return Err(SimErrorKind::AllBrokersFenced {
                replication_factor: replication.replication_factor,
            }
            .into());
        }
        #[cfg(feature = "metadata-log")]
        self.stage_topic_configs(name, configs);
        self.add_replicated_topic(name, partitions, config, replication)
            .map_err(SimErrorKind::Storage)?;
        Ok(vec![])
    }

    /// Creates a topic's partitions on their replicas and tells every broker where the
    /// partitions live (the controller's metadata propagation). A replica on a broker
    /// that is fenced or in controlled shutdown starts out of the ISR
    /// (`ReplicationControlManager.createTopic`, Kafka 4.0).
    pub(crate) fn add_replicated_topic(
        &mut self,
        name: &str,
        partitions: i32,
        config: LogConfig,
        replication: ReplicationConfig,
    ) -> Result<(), FsError> {
        let registrations = self.place_partitions(0..partitions, replication.replication_factor);
        let leaders: Vec<i32> = registrations.iter().map(|r| r.leader()).collect();
        let replicated = replication.replication_factor > 1;
        self.create_replicas(name, 0, &registrations, &config, replicated)?;
        self.topics.insert(
            name.to_string(),
            TopicInfo {
                name: name.to_string(),
                partitions,
                leaders: leaders.clone(),
                config,
                replication,
                registrations,
            },
        );
        self.announce_partitions(name, 0, &leaders, replicated);
        // A replicated internal partition was loaded by its leader when the metadata
        // arrived (`coordinator_election.rs`); a single-replica one is loaded here.
        if crate::protocol::topic::is_internal(name) && !replicated {
            let now = self.clock_ms();
            for (p, leader) in leaders.iter().enumerate() {
                let tp = TopicPartition::new(name, p as i32);
                let events = self
                    .brokers
                    .get_mut(leader)
                    .map(|b| b.load_internal_partition(&tp, now))
                    .unwrap_or_default();
                for event in events {
                    self.emit(EventKind::Broker {
                        broker: *leader,
                        event,
                    });
                }
            }
        }
        self.emit(EventKind::TopicCreated {
            topic: name.to_string(),
            partitions,
            leaders,
        });
        Ok(())
    }
}

impl World {
    /// The registrations of new partitions `ids`, placed by `StripedReplicaPlacer`
    /// around fenced brokers and those in controlled shutdown (CreateTopics and
    /// CreatePartitions place the same way: `PlacementSpec(startPartition, …)`).
    pub(super) fn place_partitions(
        &self,
        ids: std::ops::Range<i32>,
        replication_factor: i32,
    ) -> Vec<PartitionRegistration> {
        let n = self.config().brokers;
        let active = self.active_brokers();
        let is_active = |b: i32| active.contains(&b);
        ids.map(|p| {
            let replicas = place_replicas_among(p, replication_factor, n, &is_active);
            PartitionRegistration::created(replicas, &is_active)
        })
        .collect()
    }

    /// Makes partitions `first..` of topic `name` on the brokers that hold them (each
    /// with the topic's log config): every replica of a replicated topic, the leader
    /// of a single-replica one.
    pub(super) fn create_replicas(
        &mut self,
        name: &str,
        first: i32,
        registrations: &[PartitionRegistration],
        config: &LogConfig,
        replicated: bool,
    ) -> Result<(), FsError> {
        for (p, reg) in (first..).zip(registrations) {
            let tp = TopicPartition::new(name, p);
            for id in reg.replicas() {
                if !replicated && *id != reg.leader() {
                    continue;
                }
                if let Some(broker) = self.brokers.get_mut(id) {
                    let saved = std::mem::replace(&mut broker.log_config, config.clone());
                    let created = broker.create_partition(tp.clone());
                    broker.log_config = saved;
                    created?;
                }
            }
        }
        Ok(())
    }

    /// Tells every broker where partitions `first..` of `name` live (the controller's
    /// metadata propagation; a replicated partition's replicas get its registration).
    pub(super) fn announce_partitions(
        &mut self,
        name: &str,
        first: i32,
        leaders: &[i32],
        replicated: bool,
    ) {
        if replicated {
            self.replicated = true;
            for (p, _) in (first..).zip(leaders) {
                self.propagate_partition(&TopicPartition::new(name, p));
            }
        }
        for broker in self.brokers.values_mut() {
            for (p, leader) in (first..).zip(leaders) {
                broker.update_metadata(TopicPartition::new(name, p), *leader);
            }
        }
    }
}

/// Reads a topic's replication settings (Kafka's names and limits); `Ok(false)` for
/// a key that is not one of them.
pub(super) fn apply_replication_config(
    replication: &mut ReplicationConfig,
    key: &str,
    value: &str,
    brokers: i32,
) -> Result<bool, SimError> {
    if !matches!(
        key,
        "replication.factor" | "min.insync.replicas" | "unclean.leader.election.enable"
    ) {
        return Ok(false);
    }
    let parsed = config_def::parse(Place::Topic, key, value)?;
    // SHORT and INT keys with `atLeast(1)`: the value fits an i32.
    let number = || i32::try_from(parsed.number()).unwrap_or(i32::MAX);
    match key {
        "replication.factor" => {
            let rf = number();
            if rf > brokers {
                // CreateTopics: INVALID_REPLICATION_FACTOR, larger than the brokers.
                return Err(SimErrorKind::ReplicationFactor {
                    replication_factor: rf,
                    brokers,
                }
                .into());
            }
            replication.replication_factor = rf;
        }
        "min.insync.replicas" => replication.min_insync_replicas = number(),
        "unclean.leader.election.enable" => replication.unclean_leader_election = parsed.boolean(),
        _ => return Ok(false),
    }
    Ok(true)
}
