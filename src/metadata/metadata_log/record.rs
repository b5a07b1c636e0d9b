//! The metadata records the controller writes, with Kafka 4.0's names and fields
//! (`metadata/src/main/resources/common/metadata/*.json`, mirror commit 1eb7644), and
//! their payloads as `kafka-dump-log.sh --cluster-metadata-decoder` prints them
//! (`MetadataRecordSerde` through each record's `JsonConverter`).
//!
//! Simplified: the fields the playground does not model are left out of the records
//! and their payloads (a broker's incarnation id, endpoints, features, rack and log
//! directories; a partition's directories).

use serde::Serialize;

use crate::metadata::PartitionRegistration;
use crate::protocol::LeaderRecoveryState;
use crate::util::json::quote;

/// `ConfigResource.Type.TOPIC` as a `ConfigRecord` stores it.
pub const TOPIC_RESOURCE: i8 = 2;

/// `BrokerRegistrationFencingChange` (the `Fenced` field of a
/// `BrokerRegistrationChangeRecord`).
pub const FENCE: i8 = 1;
pub const UNFENCE: i8 = -1;
/// `BrokerRegistrationInControlledShutdownChange.IN_CONTROLLED_SHUTDOWN`.
pub const IN_CONTROLLED_SHUTDOWN: i8 = 1;

/// One record of `__cluster_metadata`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum MetadataRecord {
    /// `RegisterBrokerRecord` (v3): a broker registered at a new broker epoch. Kafka
    /// 4.0 always registers it fenced; a `BrokerRegistrationChangeRecord` unfences it.
    RegisterBroker {
        broker_id: i32,
        broker_epoch: i64,
        fenced: bool,
        in_controlled_shutdown: bool,
    },
    /// `BrokerRegistrationChangeRecord`: [`FENCE`], [`UNFENCE`] or 0 (no change), and
    /// [`IN_CONTROLLED_SHUTDOWN`] or 0. Kafka 4.0 writes this one, never the older
    /// `FenceBrokerRecord` / `UnfenceBrokerRecord` (they are only for metadata
    /// versions before 3.3, which 4.0 cannot run).
    BrokerRegistrationChange {
        broker_id: i32,
        broker_epoch: i64,
        fenced: i8,
        in_controlled_shutdown: i8,
    },
    /// `TopicRecord`: a topic's name and id.
    Topic { name: String, topic_id: String },
    /// `PartitionRecord`: a new partition, whole.
    Partition {
        version: i16,
        partition_id: i32,
        topic_id: String,
        registration: PartitionRegistration,
    },
    /// `PartitionChangeRecord`: only what changed. A leader (even the same one) bumps
    /// the leader epoch on replay; every record bumps the partition epoch
    /// (`PartitionRegistration.merge`).
    PartitionChange(PartitionChange),
    /// `ProducerIdsRecord`: the block a broker was given ends before
    /// `next_producer_id`, the start of the next block the controller will hand out.
    ProducerIds {
        broker_id: i32,
        broker_epoch: i64,
        next_producer_id: i64,
    },
    /// `ConfigRecord`: one config of a resource set (here: a topic's).
    Config {
        resource_type: i8,
        resource_name: String,
        name: String,
        value: String,
    },
    /// `RemoveTopicRecord`: the topic and its partitions are gone.
    RemoveTopic { topic_id: String },
}

/// `PartitionChangeRecord`'s fields; `None` is "no change" (Kafka's `-2` leader,
/// `-1` recovery state, null lists).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionChange {
    pub version: i16,
    pub partition_id: i32,
    pub topic_id: String,
    pub isr: Option<Vec<i32>>,
    pub leader: Option<i32>,
    /// A reassignment's `Replicas`, `RemovingReplicas` and `AddingReplicas`.
    #[cfg(feature = "topic-admin")]
    pub replicas: Option<Vec<i32>>,
    #[cfg(feature = "topic-admin")]
    pub removing_replicas: Option<Vec<i32>>,
    #[cfg(feature = "topic-admin")]
    pub adding_replicas: Option<Vec<i32>>,
    pub leader_recovery_state: Option<LeaderRecoveryState>,
    pub eligible_leader_replicas: Option<Vec<i32>>,
    pub last_known_elr: Option<Vec<i32>>,
}

impl PartitionChange {
    /// The record that turns `old` into `new`, or `None` when they are the same.
    /// The leader field is set when the leader or its epoch changed, as
    /// `PartitionChangeBuilder` sets it to force an epoch bump.
    pub fn between(
        version: i16,
        partition_id: i32,
        topic_id: &str,
        old: &PartitionRegistration,
        new: &PartitionRegistration,
    ) -> Option<Self> {
        if old == new {
            return None;
        }
        let differs = |a: &[i32], b: &[i32]| (a != b).then(|| b.to_vec());
        let leader_moved = old.leader() != new.leader() || old.leader_epoch() != new.leader_epoch();
        Some(PartitionChange {
            version,
            partition_id,
            topic_id: topic_id.to_string(),
            isr: differs(old.isr(), new.isr()),
            leader: leader_moved.then(|| new.leader()),
            #[cfg(feature = "topic-admin")]
            replicas: differs(old.replicas(), new.replicas()),
            #[cfg(feature = "topic-admin")]
            removing_replicas: differs(old.removing_replicas(), new.removing_replicas()),
            #[cfg(feature = "topic-admin")]
            adding_replicas: differs(old.adding_replicas(), new.adding_replicas()),
            leader_recovery_state: (old.leader_recovery_state() != new.leader_recovery_state())
                .then(|| new.leader_recovery_state()),
            eligible_leader_replicas: differs(old.elr(), new.elr()),
            last_known_elr: differs(old.last_known_elr(), new.last_known_elr()),
        })
    }

    /// `PartitionRegistration.merge`: the registration after this record.
    pub fn merge(&self, old: &PartitionRegistration) -> PartitionRegistration {
        let (leader, leader_epoch) = match self.leader {
            Some(l) => (l, old.leader_epoch().saturating_add(1)),
            None => (old.leader(), old.leader_epoch()),
        };
        let pick =
            |given: &Option<Vec<i32>>, was: &[i32]| given.clone().unwrap_or_else(|| was.to_vec());
        #[cfg(feature = "topic-admin")]
        let replicas = pick(&self.replicas, old.replicas());
        #[cfg(not(feature = "topic-admin"))]
        let replicas = old.replicas().to_vec();
        #[allow(unused_mut)]
        let mut merged = PartitionRegistration::replayed(
            replicas,
            pick(&self.isr, old.isr()),
            pick(&self.eligible_leader_replicas, old.elr()),
            pick(&self.last_known_elr, old.last_known_elr()),
            leader,
            leader_epoch,
            old.partition_epoch().saturating_add(1),
            self.leader_recovery_state
                .unwrap_or(old.leader_recovery_state()),
        );
        #[cfg(feature = "topic-admin")]
        {
            merged.removing = pick(&self.removing_replicas, old.removing_replicas());
            merged.adding = pick(&self.adding_replicas, old.adding_replicas());
        }
        merged
    }
}

fn ids(list: &[i32]) -> String {
    let items: Vec<String> = list.iter().map(i32::to_string).collect();
    format!("[{}]", items.join(","))
}

fn recovery_value(state: LeaderRecoveryState) -> i8 {
    match state {
        LeaderRecoveryState::Recovered => 0,
        LeaderRecoveryState::Recovering => 1,
    }
}

impl MetadataRecord {
    /// Kafka's record type name (`MetadataRecordType`), as the decoder prints it.
    pub fn type_name(&self) -> &'static str {
        match self {
            MetadataRecord::RegisterBroker { .. } => "REGISTER_BROKER_RECORD",
            MetadataRecord::BrokerRegistrationChange { .. } => "BROKER_REGISTRATION_CHANGE_RECORD",
            MetadataRecord::Topic { .. } => "TOPIC_RECORD",
            MetadataRecord::Partition { .. } => "PARTITION_RECORD",
            MetadataRecord::PartitionChange(_) => "PARTITION_CHANGE_RECORD",
            MetadataRecord::ProducerIds { .. } => "PRODUCER_IDS_RECORD",
            MetadataRecord::Config { .. } => "CONFIG_RECORD",
            MetadataRecord::RemoveTopic { .. } => "REMOVE_TOPIC_RECORD",
        }
    }

    /// The record version Kafka 4.0 writes.
    fn version(&self) -> i16 {
        match self {
            MetadataRecord::RegisterBroker { .. } => 3,
            MetadataRecord::BrokerRegistrationChange {
                in_controlled_shutdown,
                ..
            } => i16::from(*in_controlled_shutdown != 0),
            MetadataRecord::Partition { version, .. } => *version,
            MetadataRecord::PartitionChange(c) => c.version,
            _ => 0,
        }
    }

    /// The payload as the cluster-metadata decoder prints it:
    /// `{"type":"…","version":N,"data":{…}}`, fields in the schema's order, tagged
    /// fields only when they differ from their default.
    pub fn payload(&self) -> String {
        let data = match self {
            MetadataRecord::RegisterBroker {
                broker_id,
                broker_epoch,
                fenced,
                in_controlled_shutdown,
            } => format!(
                "\"brokerId\":{broker_id},\"isMigratingZkBroker\":false,\"brokerEpoch\":{broker_epoch},\"fenced\":{fenced},\"inControlledShutdown\":{in_controlled_shutdown}"
            ),
            MetadataRecord::BrokerRegistrationChange {
                broker_id,
                broker_epoch,
                fenced,
                in_controlled_shutdown,
            } => {
                let mut s = format!("\"brokerId\":{broker_id},\"brokerEpoch\":{broker_epoch}");
                if *fenced != 0 {
                    s.push_str(&format!(",\"fenced\":{fenced}"));
                }
                if *in_controlled_shutdown != 0 {
                    s.push_str(&format!(",\"inControlledShutdown\":{in_controlled_shutdown}"));
                }
                s
            }
            MetadataRecord::Topic { name, topic_id } => {
                format!("\"name\":{},\"topicId\":\"{topic_id}\"", quote(name))
            }
            MetadataRecord::Partition {
                version,
                partition_id,
                topic_id,
                registration: r,
            } => {
                let mut s = format!(
                    "\"partitionId\":{partition_id},\"topicId\":\"{topic_id}\",\"replicas\":{},\"isr\":{},\"removingReplicas\":[],\"addingReplicas\":[],\"leader\":{}",
                    ids(r.replicas()),
                    ids(r.isr()),
                    r.leader()
                );
                let lrs = recovery_value(r.leader_recovery_state());
                if lrs != 0 {
                    s.push_str(&format!(",\"leaderRecoveryState\":{lrs}"));
                }
                s.push_str(&format!(
                    ",\"leaderEpoch\":{},\"partitionEpoch\":{}",
                    r.leader_epoch(),
                    r.partition_epoch()
                ));
                if *version >= 2 {
                    s.push_str(&format!(
                        ",\"eligibleLeaderReplicas\":{},\"lastKnownElr\":{}",
                        ids(r.elr()),
                        ids(r.last_known_elr())
                    ));
                }
                s
            }
            MetadataRecord::PartitionChange(c) => {
                let mut s = format!(
                    "\"partitionId\":{},\"topicId\":\"{}\"",
                    c.partition_id, c.topic_id
                );
                if let Some(isr) = &c.isr {
                    s.push_str(&format!(",\"isr\":{}", ids(isr)));
                }
                if let Some(leader) = c.leader {
                    s.push_str(&format!(",\"leader\":{leader}"));
                }
                #[cfg(feature = "topic-admin")]
                for (name, list) in [
                    ("replicas", &c.replicas),
                    ("removingReplicas", &c.removing_replicas),
                    ("addingReplicas", &c.adding_replicas),
                ] {
                    if let Some(list) = list {
                        s.push_str(&format!(",\"{name}\":{}", ids(list)));
                    }
                }
                if let Some(lrs) = c.leader_recovery_state {
                    s.push_str(&format!(",\"leaderRecoveryState\":{}", recovery_value(lrs)));
                }
                if let Some(elr) = &c.eligible_leader_replicas {
                    s.push_str(&format!(",\"eligibleLeaderReplicas\":{}", ids(elr)));
                }
                if let Some(lke) = &c.last_known_elr {
                    s.push_str(&format!(",\"lastKnownElr\":{}", ids(lke)));
                }
                s
            }
            MetadataRecord::ProducerIds {
                broker_id,
                broker_epoch,
                next_producer_id,
            } => format!(
                "\"brokerId\":{broker_id},\"brokerEpoch\":{broker_epoch},\"nextProducerId\":{next_producer_id}"
            ),
            MetadataRecord::Config {
                resource_type,
                resource_name,
                name,
                value,
            } => format!(
                "\"resourceType\":{resource_type},\"resourceName\":{},\"name\":{},\"value\":{}",
                quote(resource_name),
                quote(name),
                quote(value)
            ),
            MetadataRecord::RemoveTopic { topic_id } => format!("\"topicId\":\"{topic_id}\""),
        };
        format!(
            "{{\"type\":\"{}\",\"version\":{},\"data\":{{{data}}}}}",
            self.type_name(),
            self.version()
        )
    }
}

/// A topic id as Kafka prints a `Uuid`: 16 bytes in URL-safe base64 without padding.
/// Drawn from the cluster's seed and the topic's name, and drawn again while it
/// starts with `-`, as `Uuid.randomUuid` does so that no id looks like an option.
pub fn topic_id(seed: u64, name: &str) -> String {
    let mut mix = seed ^ 0x6b61_666b_615f_6964;
    for b in name.bytes() {
        mix = mix.rotate_left(5) ^ u64::from(b);
        mix = mix.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut rng = crate::util::rng::Rng::new(mix);
    loop {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&rng.next_u64().to_be_bytes());
        bytes[8..].copy_from_slice(&rng.next_u64().to_be_bytes());
        let id = crate::util::base64url::encode(&bytes);
        if !id.starts_with('-') && bytes != [0u8; 16] {
            return id;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_kafkas_uuid_text() {
        // Kafka's `Uuid.toString` of the id whose bytes are all 0xff but the last.
        let mut bytes = [0xffu8; 16];
        bytes[15] = 0xfe;
        assert_eq!(
            crate::util::base64url::encode(&bytes),
            "_____________________g"
        );
        assert_eq!(
            crate::util::base64url::encode(&[0u8; 16]),
            "AAAAAAAAAAAAAAAAAAAAAA"
        );
    }

    #[test]
    fn topic_ids_are_stable_and_never_start_with_a_dash() {
        assert_eq!(topic_id(1, "orders"), topic_id(1, "orders"));
        assert_ne!(topic_id(1, "orders"), topic_id(2, "orders"));
        for seed in 0..500 {
            let id = topic_id(seed, "t");
            assert_eq!(id.len(), 22);
            assert!(!id.starts_with('-'));
        }
    }

    #[test]
    fn a_partition_change_sets_only_what_changed_and_replays_to_the_new_state() {
        let old = PartitionRegistration::new(vec![1, 2, 3]);
        let mut new = old.clone();
        assert!(new.alter_isr(0, &[1, 2]));
        let change = PartitionChange::between(1, 0, "id", &old, &new).expect("a change");
        assert_eq!(change.isr, Some(vec![1, 2]));
        assert_eq!(change.leader, None);
        assert_eq!(change.merge(&old), new);
        assert_eq!(
            MetadataRecord::PartitionChange(change).payload(),
            r#"{"type":"PARTITION_CHANGE_RECORD","version":1,"data":{"partitionId":0,"topicId":"id","isr":[1,2]}}"#
        );
        assert_eq!(PartitionChange::between(1, 0, "id", &new, &new), None);
    }
}
