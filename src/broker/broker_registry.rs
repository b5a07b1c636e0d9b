//! What a broker knows of the cluster's brokers: the broker half of Kafka's
//! `KRaftMetadataCache` (`getAliveBrokerEpoch`, `isBrokerFenced`,
//! `isBrokerShuttingDown`), as the controller last published it, and the ISR
//! eligibility rule a leader applies with it (Kafka 4.0, mirror commit 1eb7644:
//! `Partition.isReplicaIsrEligible`, KIP-841 since Kafka 3.3; the broker-epoch check of
//! KIP-903 since Kafka 3.5).
//!
//! A follower that caught up joins the ISR only if it is registered, not fenced, not
//! in controlled shutdown, and the broker epoch its Fetch carried is the one the
//! controller registered for it (a Fetch sent before the broker restarted carries the
//! old epoch, and the data behind it may be gone). The controller checks the same on
//! `AlterPartition` (`ReplicationControlManager.ineligibleReplicasForIsr`, answering
//! INELIGIBLE_REPLICA); here the leader's check is the one that bites, because a
//! leader's view is only stale when it is itself cut off, and then its AlterPartition
//! never reaches the controller.
//!
//! Simplified: a broker stops at once, so no broker is ever seen in controlled
//! shutdown; the epoch is a counter the world bumps at each registration (Kafka uses
//! the offset of the `RegisterBrokerRecord` in the metadata log).

use serde::Serialize;

use crate::util::sorted_map::SortedMap;

/// A broker's registration as the controller published it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BrokerRegistration {
    /// The broker epoch of its latest registration.
    pub epoch: i64,
    /// Fenced: stopped, or cut off from the controller (no heartbeats).
    pub fenced: bool,
    /// In controlled shutdown (never true here: a stop is instant).
    pub in_controlled_shutdown: bool,
}

/// Why a caught-up follower may not join the ISR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum IsrIneligibility {
    NotRegistered,
    Fenced,
    InControlledShutdown,
    /// The Fetch carried broker epoch `fetched`; the broker is registered with
    /// `registered`.
    StaleBrokerEpoch {
        fetched: i64,
        registered: i64,
    },
}

/// This broker's copy of the cluster's broker registrations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrokerRegistry {
    /// This broker's own epoch (sent in its followers' Fetch requests).
    own_epoch: i64,
    brokers: SortedMap<i32, BrokerRegistration>,
}

impl BrokerRegistry {
    /// The epoch this broker registered with (-1 before it registered).
    pub fn own_epoch(&self) -> i64 {
        if self.own_epoch > 0 {
            self.own_epoch
        } else {
            -1
        }
    }

    pub fn set_own_epoch(&mut self, epoch: i64) {
        self.own_epoch = epoch;
    }

    /// The controller's latest registrations (replaces what was known).
    pub fn replace(&mut self, brokers: SortedMap<i32, BrokerRegistration>) {
        self.brokers = brokers;
    }

    pub fn get(&self, broker: i32) -> Option<&BrokerRegistration> {
        self.brokers.get(&broker)
    }

    /// `Partition.isReplicaIsrEligible` for a follower whose last Fetch carried
    /// `fetch_epoch` (-1 skips the epoch check, as in Kafka).
    pub fn isr_eligibility(&self, replica: i32, fetch_epoch: i64) -> Result<(), IsrIneligibility> {
        let Some(r) = self.brokers.get(&replica) else {
            return Err(IsrIneligibility::NotRegistered);
        };
        if r.in_controlled_shutdown {
            return Err(IsrIneligibility::InControlledShutdown);
        }
        if r.fenced {
            return Err(IsrIneligibility::Fenced);
        }
        if fetch_epoch != -1 && fetch_epoch != r.epoch {
            return Err(IsrIneligibility::StaleBrokerEpoch {
                fetched: fetch_epoch,
                registered: r.epoch,
            });
        }
        Ok(())
    }
}

impl super::broker::Broker {
    /// What this broker knows of the cluster's brokers.
    pub fn registry(&self) -> &BrokerRegistry {
        &self.registry
    }

    /// The controller's metadata about brokers reached this broker.
    pub fn set_broker_registrations(&mut self, brokers: SortedMap<i32, BrokerRegistration>) {
        self.registry.replace(brokers);
    }

    /// This broker registered with the controller at `epoch`.
    pub fn set_own_broker_epoch(&mut self, epoch: i64) {
        self.registry.set_own_epoch(epoch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(fenced: bool, epoch: i64) -> BrokerRegistry {
        let mut r = BrokerRegistry::default();
        let mut map = SortedMap::new();
        map.insert(
            3,
            BrokerRegistration {
                epoch,
                fenced,
                in_controlled_shutdown: false,
            },
        );
        r.replace(map);
        r
    }

    // Kafka 4.0 PartitionTest "testIsrNotExpandedIfReplicaIsFencedOrShutdown",
    // "testIsrNotExpandedIfReplicaIsInControlledShutdown",
    // "testIsrCanExpandedIfBrokerEpochsMatchWithKraftMetadataCache" and
    // "testFenceFollowerFetchWithStaleBrokerEpoch": the ways to be ineligible.
    #[test]
    fn a_fenced_unknown_or_restarted_broker_is_not_eligible() {
        assert_eq!(registry(false, 5).isr_eligibility(3, 5), Ok(()));
        assert_eq!(registry(false, 5).isr_eligibility(3, -1), Ok(()));
        assert_eq!(
            registry(true, 5).isr_eligibility(3, 5),
            Err(IsrIneligibility::Fenced)
        );
        assert_eq!(
            registry(false, 5).isr_eligibility(2, 5),
            Err(IsrIneligibility::NotRegistered)
        );
        assert_eq!(
            registry(false, 7).isr_eligibility(3, 5),
            Err(IsrIneligibility::StaleBrokerEpoch {
                fetched: 5,
                registered: 7
            })
        );
        let mut shutting = registry(false, 5);
        let mut map = SortedMap::new();
        map.insert(
            3,
            BrokerRegistration {
                epoch: 5,
                fenced: false,
                in_controlled_shutdown: true,
            },
        );
        shutting.replace(map);
        assert_eq!(
            shutting.isr_eligibility(3, 5),
            Err(IsrIneligibility::InControlledShutdown)
        );
    }

    /// A leader of `t-0` with replicas [1, 3] and ISR [1], broker 3 registered at
    /// epoch 7 (fenced or not).
    fn leader(fenced: bool) -> (crate::broker::Broker, crate::log::TopicPartition) {
        use crate::broker::replica_manager::PartitionMetadata;
        use crate::log::{LogConfig, TopicPartition};
        let tp = TopicPartition::new("t", 0);
        let mut b = crate::broker::Broker::new(1, LogConfig::default());
        let mut map = SortedMap::new();
        for (id, epoch, fenced) in [(1, 1, false), (3, 7, fenced)] {
            let r = BrokerRegistration {
                epoch,
                fenced,
                in_controlled_shutdown: false,
            };
            map.insert(id, r);
        }
        b.set_broker_registrations(map);
        let meta = PartitionMetadata {
            replicas: vec![1, 3],
            leader: 1,
            leader_epoch: 0,
            partition_epoch: 0,
            isr: vec![1],
            min_insync_replicas: 1,
            leader_recovery_state: crate::protocol::LeaderRecoveryState::Recovered,
        };
        b.apply_partition_metadata(&tp, meta, &LogConfig::default(), 0)
            .expect("creates the log");
        (b, tp)
    }

    fn fetch(tp: &crate::log::TopicPartition, replica_epoch: i64) -> crate::protocol::Request {
        crate::protocol::Request::ReplicaFetch {
            topic_partition: tp.clone(),
            replica_id: 3,
            replica_epoch,
            fetch_offset: 0,
            current_leader_epoch: 0,
            last_fetched_epoch: None,
            max_bytes: 1024,
            log_start_offset: 0,
        }
    }

    /// The ISR the leader counts: its maximal ISR (a proposed member included
    /// while its AlterPartition is in flight).
    fn isr(b: &crate::broker::Broker, tp: &crate::log::TopicPartition) -> Vec<i32> {
        b.partitions()
            .get(tp)
            .map(|p| p.maximal_isr())
            .unwrap_or_default()
    }

    // Kafka 4.0 Replica.updateFetchStateOrThrow / PartitionTest
    // "testFenceFollowerFetchWithStaleBrokerEpoch": a Fetch from an older registration
    // is NOT_LEADER_OR_FOLLOWER and changes nothing; the current one joins the ISR.
    #[test]
    fn a_fetch_from_before_the_restart_is_refused() {
        use crate::protocol::errors::Errors;
        let (mut b, tp) = leader(false);
        let stale = b.handle(fetch(&tp, 5), 1, 10);
        assert_eq!(
            stale.response.map(|r| r.error()),
            Some(Errors::NotLeaderOrFollower)
        );
        assert_eq!(isr(&b, &tp), vec![1]);
        b.handle(fetch(&tp, 7), 2, 20);
        assert_eq!(isr(&b, &tp), vec![1, 3]);
    }

    // Kafka 4.0 PartitionTest "testIsrNotExpandedIfReplicaIsFencedOrShutdown": caught
    // up, but fenced, so it stays out (and the leader says why, once).
    #[test]
    fn a_fenced_follower_does_not_rejoin_the_isr() {
        use crate::broker::partition::ReplicationEvent;
        use crate::broker::BrokerEvent;
        let (mut b, tp) = leader(true);
        let first = b.handle(fetch(&tp, 7), 1, 10);
        assert_eq!(isr(&b, &tp), vec![1]);
        let refused = |h: &crate::broker::broker::Handled| {
            h.events
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        BrokerEvent::Replication(ReplicationEvent::IsrExpansionRefused {
                            reason: IsrIneligibility::Fenced,
                            ..
                        })
                    )
                })
                .count()
        };
        assert_eq!(refused(&first), 1);
        let again = b.handle(fetch(&tp, 7), 2, 20);
        assert_eq!(refused(&again), 0, "said once, not at every fetch");
        assert_eq!(isr(&b, &tp), vec![1]);
    }
}
