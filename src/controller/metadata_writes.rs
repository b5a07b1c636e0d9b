//! The controller writes its decisions to `__cluster_metadata`
//! (`crate::metadata::metadata_log`, whose doc gives the records' order): after each
//! one, the records that bring the log's image to the controller's state.

use crate::metadata::metadata_log::{
    topic_id, BrokerImage, MetadataImage, MetadataLog, MetadataRecord, PartitionChange, TopicImage,
    FENCE, IN_CONTROLLED_SHUTDOWN, TOPIC_RESOURCE, UNFENCE,
};
use crate::sim::world::World;

/// Topic keys that are CreateTopics fields, not configs (no `ConfigRecord`).
const NOT_CONFIGS: &[&str] = &["replication.factor"];

impl World {
    /// `__cluster_metadata` as the controller wrote it.
    pub fn metadata_log(&self) -> &MetadataLog {
        &self.metadata_log
    }

    /// The controller's state as an image, read from the world: what the metadata
    /// log replayed from empty must give. Topic ids come from the log (the world
    /// names topics by name only), and a topic's configs are those the log set,
    /// kept when they are in force on the live topic.
    pub fn controller_image(&self) -> MetadataImage {
        let logged = self.metadata_log.image();
        let brokers = self
            .brokers
            .keys()
            .map(|id| (*id, self.broker_image(*id)))
            .collect();
        let topics = self
            .topics
            .values()
            .map(|t| {
                let logged_topic = logged.topics.get(&t.name);
                let configs = logged_topic
                    .map(|lt| {
                        lt.configs
                            .iter()
                            .filter(|(k, v)| config_in_force(t, k, v, self.config().brokers))
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default();
                let topic = TopicImage {
                    name: t.name.clone(),
                    id: logged_topic.map(|lt| lt.id.clone()).unwrap_or_default(),
                    partitions: t.registrations.clone(),
                    configs,
                };
                (t.name.clone(), topic)
            })
            .collect();
        MetadataImage {
            brokers,
            topics,
            next_producer_id: self.controller.next_producer_id,
        }
    }

    fn broker_image(&self, id: i32) -> BrokerImage {
        BrokerImage {
            epoch: self.broker_epochs.get(&id).copied().unwrap_or(-1),
            fenced: self.fenced.contains(&id),
            in_controlled_shutdown: self.shutting_down.contains(&id),
        }
    }

    /// Writes what the controller decided since its last write, as one batch. The
    /// controller's duties call it when a decision is carried out (before the brokers
    /// are told of a partition, after a fence or an unfence, at the end of a timer's
    /// work and of every action), so the records of one decision share a batch:
    /// registrations, unfences and controlled shutdowns first, then the topics and
    /// partitions, then fences.
    pub(crate) fn write_metadata(&mut self) {
        let staged = self.metadata_log.take_staged_configs();
        let mut records = Vec::new();
        let mut fences = Vec::new();
        let image = self.metadata_log.image();
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            let live = self.broker_image(id);
            let change =
                |fenced: i8, in_controlled_shutdown: i8| MetadataRecord::BrokerRegistrationChange {
                    broker_id: id,
                    broker_epoch: live.epoch,
                    fenced,
                    in_controlled_shutdown,
                };
            match image.brokers.get(&id).filter(|b| b.epoch == live.epoch) {
                None => {
                    // `ClusterControlManager.registerBroker`: registered fenced, then
                    // unfenced once the broker caught up (`handleBrokerUnfenced`).
                    records.push(MetadataRecord::RegisterBroker {
                        broker_id: id,
                        broker_epoch: live.epoch,
                        fenced: true,
                        in_controlled_shutdown: false,
                    });
                    if !live.fenced {
                        records.push(change(UNFENCE, 0));
                    }
                    if live.in_controlled_shutdown {
                        records.push(change(0, IN_CONTROLLED_SHUTDOWN));
                    }
                }
                Some(logged) => {
                    if logged.fenced && !live.fenced {
                        records.push(change(UNFENCE, 0));
                    }
                    if live.in_controlled_shutdown && !logged.in_controlled_shutdown {
                        records.push(change(0, IN_CONTROLLED_SHUTDOWN));
                    }
                    if live.fenced && !logged.fenced {
                        fences.push(change(FENCE, 0));
                    }
                }
            }
        }
        for removed in image.topics.values() {
            if !self.topics.contains_key(&removed.name) {
                records.push(MetadataRecord::RemoveTopic {
                    topic_id: removed.id.clone(),
                });
            }
        }
        let version = if self.config().eligible_leader_replicas {
            2
        } else {
            1
        };
        let end = u64::try_from(self.metadata_log.end_offset()).unwrap_or(0);
        for topic in self.topics.values() {
            let logged = image.topics.get(&topic.name);
            let id = match logged {
                Some(t) => t.id.clone(),
                None => {
                    // A topic made again after a delete gets a new id.
                    let id = topic_id(self.config().seed ^ end, &topic.name);
                    records.push(MetadataRecord::Topic {
                        name: topic.name.clone(),
                        topic_id: id.clone(),
                    });
                    id
                }
            };
            for (_, key, value) in staged
                .iter()
                .filter(|(t, k, _)| t == &topic.name && !NOT_CONFIGS.contains(&k.as_str()))
            {
                records.push(MetadataRecord::Config {
                    resource_type: TOPIC_RESOURCE,
                    resource_name: topic.name.clone(),
                    name: key.clone(),
                    value: value.clone(),
                });
            }
            for (p, reg) in topic.registrations.iter().enumerate() {
                let partition_id = i32::try_from(p).unwrap_or(i32::MAX);
                match logged.and_then(|t| t.partitions.get(p)) {
                    None => records.push(MetadataRecord::Partition {
                        version,
                        partition_id,
                        topic_id: id.clone(),
                        registration: reg.clone(),
                    }),
                    Some(old) => {
                        if let Some(change) =
                            PartitionChange::between(version, partition_id, &id, old, reg)
                        {
                            records.push(MetadataRecord::PartitionChange(change));
                        }
                    }
                }
            }
        }
        records.append(&mut fences);
        let now = self.clock_ms();
        self.metadata_log.append(records, now);
    }

    /// `ProducerIdControlManager.generateNextProducerId`: the block handed to
    /// `broker_id` is written as a `ProducerIdsRecord` holding where the next one
    /// starts, so no id is handed out twice.
    pub(crate) fn write_producer_ids(&mut self, broker_id: i32) {
        self.write_metadata();
        let record = MetadataRecord::ProducerIds {
            broker_id,
            broker_epoch: self.broker_epochs.get(&broker_id).copied().unwrap_or(-1),
            next_producer_id: self.controller.next_producer_id,
        };
        let now = self.clock_ms();
        self.metadata_log.append(vec![record], now);
    }

    /// A topic's configs as CreateTopics or IncrementalAlterConfigs set them, for
    /// the next write.
    pub(crate) fn stage_topic_configs(&mut self, topic: &str, configs: &[(String, String)]) {
        for (key, value) in configs {
            self.metadata_log.stage_config(topic, key, value);
        }
    }
}

/// Whether `key=value`, set on the topic by the log, is what the live topic has:
/// applying it again changes nothing.
fn config_in_force(
    topic: &crate::sim::world::TopicInfo,
    key: &str,
    value: &str,
    brokers: i32,
) -> bool {
    let mut replication = topic.replication.clone();
    let mut config = topic.config.clone();
    match crate::controller::topics::apply_replication_config(&mut replication, key, value, brokers)
    {
        Ok(true) => replication == topic.replication,
        Ok(false) => {
            crate::sim::world::apply_log_config(&mut config, key, value).is_ok()
                && config == topic.config
        }
        Err(_) => false,
    }
}
