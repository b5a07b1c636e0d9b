//! Snapshots and disks by hand: `snapshot TOPIC-P`, `truncate broker-N TOPIC-P
//! offset=N` and `fault corrupt broker-N PATH [at=N]`. What a restart then finds is
//! the log's recovery (`UnifiedLog::open_after_stop`, Kafka's `LogLoader`). The same
//! recovery opens a partition folder brought from outside ([`World::from_partition_files`],
//! "continue from here"), and the disks go out as the files `--export` writes
//! ([`World::disk_files`]).

use super::error::{SimError, SimErrorKind};
#[cfg(feature = "log-cleaner")]
use super::event::EventKind;
use super::world::{ClusterConfig, World};
#[cfg(feature = "log-cleaner")]
use super::Action;
#[cfg(feature = "log-cleaner")]
use crate::broker::BrokerEvent;
use crate::log::TopicPartition;

impl World {
    /// The log cleaner's and the disk's actions; `World::apply` sends only these here.
    #[cfg(feature = "log-cleaner")]
    pub(super) fn apply_disk(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::CleanLog { topic_partition } => self.clean_log(topic_partition),
            Action::TakeSnapshot { topic_partition } => {
                self.take_producer_snapshots(topic_partition)
            }
            Action::TruncateLog {
                broker,
                topic_partition,
                offset,
            } => self.truncate_replica(*broker, topic_partition, *offset),
            Action::CorruptFile {
                broker,
                path,
                position,
            } => self.corrupt_file(*broker, path, *position),
            _ => Ok(vec![]),
        }
    }

    /// Every running replica of `tp` writes a producer-state snapshot at its LEO.
    #[cfg(feature = "log-cleaner")]
    pub fn take_producer_snapshots(
        &mut self,
        tp: &TopicPartition,
    ) -> Result<Vec<String>, SimError> {
        self.check_partition(tp)?;
        let ids = self.online_brokers();
        for id in ids {
            let event = self
                .brokers
                .get_mut(&id)
                .and_then(|b| b.take_producer_snapshot(tp));
            if let Some(event) = event {
                self.emit(EventKind::Broker { broker: id, event });
            }
        }
        Ok(vec![])
    }

    /// A follower's replica of `tp` on `broker`, truncated to `offset`.
    #[cfg(feature = "log-cleaner")]
    pub fn truncate_replica(
        &mut self,
        broker: i32,
        tp: &TopicPartition,
        offset: i64,
    ) -> Result<Vec<String>, SimError> {
        self.check_partition(tp)?;
        let b = self
            .brokers
            .get_mut(&broker)
            .ok_or(SimErrorKind::NoBroker { id: broker })?;
        if !b.is_online() {
            return Err(SimErrorKind::BrokerAlreadyStopped { id: broker }.into());
        }
        let event = b.truncate_replica(tp, offset).map_err(|e| match e {
            crate::protocol::errors::Errors::NotLeaderOrFollower => {
                SimError::from(SimErrorKind::TruncateLeader {
                    broker,
                    tp: tp.clone(),
                })
            }
            _ => SimError::from(SimErrorKind::UnknownPartition { tp: tp.clone() }),
        })?;
        self.emit(EventKind::Broker { broker, event });
        Ok(vec![])
    }

    /// A disk fault on `broker`: one byte of `path` (under its log dir) flipped.
    #[cfg(feature = "log-cleaner")]
    pub fn corrupt_file(
        &mut self,
        broker: i32,
        path: &str,
        position: Option<u64>,
    ) -> Result<Vec<String>, SimError> {
        let b = self
            .brokers
            .get_mut(&broker)
            .ok_or(SimErrorKind::NoBroker { id: broker })?;
        let event: BrokerEvent = b.corrupt_file(path, position).map_err(|_| {
            SimError::from(SimErrorKind::NoSuchFile {
                broker,
                path: path.to_string(),
            })
        })?;
        self.emit(EventKind::Broker { broker, event });
        Ok(vec![])
    }
}

impl World {
    /// "Continue from here": a one-broker world whose partition `dir` (a folder name,
    /// `TOPIC-PARTITION`) starts from `files` (each file's name in the folder and its
    /// bytes), opened by the broker's start after a crash as Kafka's `LogLoader` opens
    /// it: each segment's valid prefix kept, later segments after a cut deleted,
    /// producer state from the latest snapshot plus the log after it. The topic has
    /// partitions 0 to PARTITION (the others empty).
    ///
    /// What the folder cannot carry starts afresh, as on a new cluster that finds the
    /// folder: the transaction coordinator knows none of the folder's transactions (an
    /// open one hangs until `admin abort` ends it, as Kafka's `kafka-transactions.sh`
    /// would), and the controller hands out producer ids after the highest one in the
    /// log, as the `ProducerIdsRecord` a real cluster keeps would.
    ///
    /// A name that is not `TOPIC-PARTITION` is refused with the error the topic would
    /// get (nothing half-built is returned).
    pub fn from_partition_files(
        dir: &str,
        files: &[(String, Vec<u8>)],
        config: ClusterConfig,
    ) -> Result<World, SimError> {
        let tp = partition_of_dir(dir)?;
        let mut world = World::new(ClusterConfig {
            brokers: 1,
            ..config
        });
        world.create_topic(&tp.topic, tp.partition + 1, &[])?;
        world.run_until_idle();
        let broker = world.check_partition(&tp)?;
        world.stop_broker(broker, false)?;
        let folder = crate::broker::broker::Broker::partition_dir(&tp);
        let disk = world
            .brokers
            .get_mut(&broker)
            .map(|b| &mut b.fs)
            .ok_or(SimErrorKind::NoBroker { id: broker })?;
        let written: Result<(), crate::fs::FsError> = (|| {
            disk.remove_dir_all(&folder)?;
            disk.create_dir_all(&folder)?;
            for (name, bytes) in files {
                disk.write(&format!("{folder}/{name}"), bytes)?;
            }
            Ok(())
        })();
        written.map_err(|_| SimErrorKind::NoSuchFile {
            broker,
            path: folder.clone(),
        })?;
        world.start_broker(broker)?;
        let highest = world
            .brokers
            .get(&broker)
            .and_then(|b| b.logs().get(&tp))
            .and_then(|log| {
                log.producer_state()
                    .active_producers()
                    .keys()
                    .last()
                    .copied()
            });
        if let Some(pid) = highest {
            let block = i64::from(crate::metadata::PRODUCER_ID_BLOCK_SIZE);
            let next = pid
                .saturating_add(block)
                .saturating_sub(pid.rem_euclid(block));
            world.controller.next_producer_id = world.controller.next_producer_id.max(next);
        }
        world.run_until_idle();
        Ok(world)
    }

    /// Every broker's disk as the files `--export` writes, paths relative to the
    /// export folder (`TOPIC-PARTITION/…` with one broker, `broker-N/TOPIC-PARTITION/…`
    /// with more): what "download the disk" zips.
    pub fn disk_files(&self) -> Vec<(String, Vec<u8>)> {
        let root = format!("{}/", crate::broker::broker::LOG_DIR);
        let several = self.brokers.len() > 1;
        let mut files = Vec::new();
        for (id, broker) in &self.brokers {
            for (path, _) in broker.fs.walk_files() {
                let Some(rel) = path.strip_prefix(&root) else {
                    continue;
                };
                let Ok(bytes) = broker.fs.read(&path) else {
                    continue;
                };
                let name = if several {
                    format!("broker-{id}/{rel}")
                } else {
                    rel.to_string()
                };
                files.push((name, bytes.to_vec()));
            }
        }
        files
    }

    /// [`World::disk_files`] as one .zip (stored entries, the same bytes for the same disk).
    pub fn disk_zip(&self) -> Vec<u8> {
        crate::zip::write(&self.disk_files())
    }
}

/// `TOPIC-PARTITION` (Kafka's `UnifiedLog.parseTopicPartitionName`): the topic is
/// everything before the last '-'.
fn partition_of_dir(dir: &str) -> Result<TopicPartition, SimError> {
    let name = dir.rsplit('/').next().unwrap_or(dir);
    let bad = |reason| {
        SimError::from(SimErrorKind::IllegalTopicName {
            name: name.to_string(),
            reason,
        })
    };
    let (topic, partition) = name.rsplit_once('-').ok_or_else(|| {
        bad(crate::coordinator::internal_topics::InvalidTopicName::IllegalCharacter)
    })?;
    let partition: i32 = partition
        .parse()
        .ok()
        .filter(|p: &i32| (0..64).contains(p))
        .ok_or(SimErrorKind::PartitionCount {
            partitions: partition.parse::<i32>().map_or(0, |p| p.saturating_add(1)),
        })?;
    if let Some(reason) = crate::coordinator::internal_topics::detect_invalid_topic(topic) {
        return Err(bad(reason));
    }
    Ok(TopicPartition::new(topic, partition))
}
