//! What the metadata records add up to (`MetadataImage`, built by `MetadataDelta`
//! replaying each record): the brokers' registrations, the topics with their
//! partitions and configs, and the next producer id. The controller keeps one as
//! the replay of its own log (Kafka's controller replays every record it writes), so
//! each write records only what changed since.

use serde::Serialize;

use super::record::{MetadataRecord, FENCE, IN_CONTROLLED_SHUTDOWN, UNFENCE};
use crate::metadata::PartitionRegistration;
use crate::util::sorted_map::SortedMap;

/// A broker as the records register it (`BrokerRegistration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BrokerImage {
    pub epoch: i64,
    pub fenced: bool,
    pub in_controlled_shutdown: bool,
}

/// A topic as the records give it (`TopicImage`, with its `ConfigRecord`s).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopicImage {
    pub name: String,
    pub id: String,
    pub partitions: Vec<PartitionRegistration>,
    /// The configs set on the topic, in the order they were set, the last value of
    /// each key.
    pub configs: Vec<(String, String)>,
}

/// The cluster as the metadata log describes it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MetadataImage {
    pub brokers: SortedMap<i32, BrokerImage>,
    /// By name.
    pub topics: SortedMap<String, TopicImage>,
    /// `ProducerIdsRecord.nextProducerId`: where the next block starts.
    pub next_producer_id: i64,
}

/// A record that does not fit the image it is replayed on (a change to a partition
/// or broker never created): Kafka's replay throws; the playground's controller
/// never writes one, and a test that replays a log says which record it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub record: Box<MetadataRecord>,
}

impl MetadataImage {
    /// The image after every record of `records`, from an empty cluster.
    pub fn replay<'a>(
        records: impl IntoIterator<Item = &'a MetadataRecord>,
    ) -> Result<Self, ReplayError> {
        let mut image = MetadataImage::default();
        for record in records {
            image.apply(record)?;
        }
        Ok(image)
    }

    /// Replays one record (`MetadataDelta.replay`).
    pub fn apply(&mut self, record: &MetadataRecord) -> Result<(), ReplayError> {
        let refused = || ReplayError {
            record: Box::new(record.clone()),
        };
        match record {
            MetadataRecord::RegisterBroker {
                broker_id,
                broker_epoch,
                fenced,
                in_controlled_shutdown,
            } => {
                self.brokers.insert(
                    *broker_id,
                    BrokerImage {
                        epoch: *broker_epoch,
                        fenced: *fenced,
                        in_controlled_shutdown: *in_controlled_shutdown,
                    },
                );
            }
            MetadataRecord::BrokerRegistrationChange {
                broker_id,
                broker_epoch,
                fenced,
                in_controlled_shutdown,
            } => {
                let broker = self
                    .brokers
                    .get_mut(broker_id)
                    .filter(|b| b.epoch == *broker_epoch)
                    .ok_or_else(refused)?;
                match *fenced {
                    FENCE => broker.fenced = true,
                    UNFENCE => broker.fenced = false,
                    _ => {}
                }
                if *in_controlled_shutdown == IN_CONTROLLED_SHUTDOWN {
                    broker.in_controlled_shutdown = true;
                }
            }
            MetadataRecord::Topic { name, topic_id } => {
                self.topics.insert(
                    name.clone(),
                    TopicImage {
                        name: name.clone(),
                        id: topic_id.clone(),
                        partitions: Vec::new(),
                        configs: Vec::new(),
                    },
                );
            }
            MetadataRecord::Partition {
                partition_id,
                topic_id,
                registration,
                ..
            } => {
                let topic = self.topic_by_id_mut(topic_id).ok_or_else(refused)?;
                // Partitions are created in order: the next id, or one replaced.
                let slot = usize::try_from(*partition_id).map_err(|_| refused())?;
                match slot.cmp(&topic.partitions.len()) {
                    std::cmp::Ordering::Less => {
                        if let Some(p) = topic.partitions.get_mut(slot) {
                            *p = registration.clone();
                        }
                    }
                    std::cmp::Ordering::Equal => topic.partitions.push(registration.clone()),
                    std::cmp::Ordering::Greater => return Err(refused()),
                }
            }
            MetadataRecord::PartitionChange(change) => {
                let topic = self.topic_by_id_mut(&change.topic_id).ok_or_else(refused)?;
                let partition = usize::try_from(change.partition_id)
                    .ok()
                    .and_then(|p| topic.partitions.get_mut(p))
                    .ok_or_else(refused)?;
                *partition = change.merge(partition);
            }
            MetadataRecord::ProducerIds {
                next_producer_id, ..
            } => {
                if *next_producer_id <= self.next_producer_id {
                    return Err(refused());
                }
                self.next_producer_id = *next_producer_id;
            }
            MetadataRecord::Config {
                resource_name,
                name,
                value,
                ..
            } => {
                let topic = self.topics.get_mut(resource_name).ok_or_else(refused)?;
                topic.configs.retain(|(k, _)| k != name);
                topic.configs.push((name.clone(), value.clone()));
            }
            MetadataRecord::RemoveTopic { topic_id } => {
                let name = self
                    .topics
                    .values()
                    .find(|t| &t.id == topic_id)
                    .map(|t| t.name.clone())
                    .ok_or_else(refused)?;
                self.topics.remove(&name);
            }
        }
        Ok(())
    }

    fn topic_by_id_mut(&mut self, id: &str) -> Option<&mut TopicImage> {
        self.topics.values_mut().find(|t| t.id == id)
    }
}
