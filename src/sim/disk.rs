//! Snapshots and disks by hand: `snapshot TOPIC-P`, `truncate broker-N TOPIC-P
//! offset=N` and `fault corrupt broker-N PATH [at=N]`. What a restart then finds is
//! the log's recovery (`UnifiedLog::open_after_stop`, Kafka's `LogLoader`).

use super::error::{SimError, SimErrorKind};
use super::event::EventKind;
use super::world::World;
use crate::broker::BrokerEvent;
use crate::log::TopicPartition;

impl World {
    /// Every running replica of `tp` writes a producer-state snapshot at its LEO.
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
        if !b.online {
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
