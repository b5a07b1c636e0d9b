//! What the controller tells the brokers (the metadata a KRaft broker replays):
//! each partition's registration to the brokers holding a replica, and every
//! broker's registration (epoch, fenced, in controlled shutdown).

use crate::broker::broker_registry::BrokerRegistration;
use crate::broker::replica_manager::PartitionMetadata;
use crate::log::TopicPartition;
use crate::metadata::PartitionRegistration;
use crate::sim::world::World;

impl World {
    /// The controller's record of a partition, if the topic exists.
    pub fn registration(&self, tp: &TopicPartition) -> Option<&PartitionRegistration> {
        self.topics
            .get(&tp.topic)?
            .registrations
            .get(usize::try_from(tp.partition).ok()?)
    }

    /// Tells every online broker holding a replica of `tp` its registration
    /// (the metadata a KRaft broker replays), and the leader map to everyone.
    pub(crate) fn propagate_partition(&mut self, tp: &TopicPartition) {
        #[cfg(feature = "metadata-log")]
        self.write_metadata();
        let Some(topic) = self.topics.get(&tp.topic) else {
            return;
        };
        let Some(reg) = usize::try_from(tp.partition)
            .ok()
            .and_then(|p| topic.registrations.get(p))
        else {
            return;
        };
        let meta = PartitionMetadata {
            replicas: reg.replicas().to_vec(),
            leader: reg.leader(),
            leader_epoch: reg.leader_epoch(),
            partition_epoch: reg.partition_epoch(),
            isr: reg.isr().to_vec(),
            min_insync_replicas: topic.replication.min_insync_replicas,
            leader_recovery_state: reg.leader_recovery_state(),
        };
        let config = topic.config.clone();
        let leader = reg.leader();
        if let Some(slot) = self.topics.get_mut(&tp.topic).and_then(|t| {
            t.leaders
                .get_mut(usize::try_from(tp.partition).unwrap_or(0))
        }) {
            *slot = leader;
        }
        for broker in self.brokers.values_mut() {
            broker.update_metadata(tp.clone(), leader);
        }
        let now = self.clock_ms();
        for id in meta.replicas.clone() {
            let Some(broker) = self.brokers.get_mut(&id).filter(|b| b.is_online()) else {
                continue;
            };
            let mut meta = meta.clone();
            if self.fenced.contains(&id) {
                // A broker cut off from the controller hears nothing new; one that
                // (re)started that way knows of no leader at all.
                if broker.partitions().contains_key(tp) {
                    continue;
                }
                meta.leader = crate::metadata::NO_LEADER;
            }
            if let Ok(handled) = broker.apply_partition_metadata(tp, meta, &config, now) {
                self.apply_handled(id, None, handled);
            }
        }
        // Markers refused for a short ISR go again now that the partition changed.
        let effective_min_isr = meta
            .min_insync_replicas
            .min(i32::try_from(meta.replicas.len()).unwrap_or(i32::MAX));
        let isr_short = i32::try_from(meta.isr.len()).unwrap_or(i32::MAX) < effective_min_isr;
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            if self.is_fenced(id) {
                continue;
            }
            let Some(broker) = self.brokers.get_mut(&id) else {
                continue;
            };
            let handled = broker.partition_metadata_changed(tp, isr_short, now);
            if !handled.is_empty() {
                self.apply_handled(id, None, handled);
            }
        }
    }

    /// The controller's broker registrations (epoch, fenced) reach every broker that
    /// hears it: online and not cut off (Kafka's `RegisterBrokerRecord` /
    /// `BrokerRegistrationChangeRecord` replayed into each `KRaftMetadataCache`).
    pub(crate) fn publish_broker_registrations(&mut self) {
        let registrations: crate::util::sorted_map::SortedMap<i32, BrokerRegistration> = self
            .brokers
            .values()
            .map(|b| {
                let registration = BrokerRegistration {
                    epoch: self.broker_epochs.get(&b.id).copied().unwrap_or(-1),
                    fenced: self.fenced.contains(&b.id),
                    in_controlled_shutdown: self.shutting_down.contains(&b.id),
                };
                (b.id, registration)
            })
            .collect();
        for b in self.brokers.values_mut() {
            // A broker cut off from the controller hears nothing.
            if b.is_online() && self.fenced.contains(&b.id) {
                continue;
            }
            if let Some(epoch) = self.broker_epochs.get(&b.id) {
                b.set_own_broker_epoch(*epoch);
            }
            if b.is_online() {
                b.set_broker_registrations(registrations.clone());
            }
        }
        self.drain_unknown_broker_markers();
    }
}
