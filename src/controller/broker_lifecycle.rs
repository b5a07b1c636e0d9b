//! Brokers as the controller sees them (`ClusterControlManager`,
//! `BrokerHeartbeatManager`): registering with a new broker epoch, fenced when they
//! stop or their session runs out, controlled shutdown, unfenced when they are back.

#[cfg(doc)]
use crate::controller::PartitionRegistration;
use crate::log::TopicPartition;
use crate::sim::event::EventKind;
use crate::sim::network::Node;
use crate::sim::world::World;

/// `broker.session.timeout.ms` (Kafka's default): a broker that sent no heartbeat for
/// this long is fenced by the controller.
pub const BROKER_SESSION_TIMEOUT_MS: i64 = 9_000;
impl World {
    /// A broker stopped: the controller fences it (out of every ISR, a new leader
    /// where it led) and tells the others.
    pub(crate) fn fence_broker(&mut self, id: i32) {
        let alive = self.active_brokers();
        let changes = self.change_registrations(|reg, rules| {
            reg.fence_broker(id, &|b| b != id && alive.contains(&b), rules)
        });
        self.announce(changes);
    }

    /// The brokers the controller may elect: running and not fenced.
    fn unfenced_online_brokers(&self) -> Vec<i32> {
        self.brokers
            .values()
            .filter(|b| b.online && !self.fenced.contains(&b.id))
            .map(|b| b.id)
            .collect()
    }

    /// `ClusterControlManager.isActive`: running, unfenced and not in controlled
    /// shutdown — the brokers that may lead or join an ISR.
    pub(super) fn active_brokers(&self) -> Vec<i32> {
        self.unfenced_online_brokers()
            .into_iter()
            .filter(|b| !self.shutting_down.contains(b))
            .collect()
    }

    /// `BrokerHeartbeat` with `wantShutDown` (a clean stop, Kafka 4.0
    /// `BrokerLifecycleManager` and `ReplicationControlManager
    /// .handleBrokerInControlledShutdown`): the controller marks the broker as in
    /// controlled shutdown, takes it out of every ISR (never emptying one) and elects
    /// new leaders where it led; the broker hears the new metadata and becomes a
    /// follower before it stops. A broker cut off from the controller cannot ask: it
    /// just stops.
    pub(crate) fn controlled_shutdown(&mut self, id: i32) {
        if !self.replicated
            || self.fenced.contains(&id)
            || self.network().is_cut(&Node::Broker(id), &Node::Controller)
        {
            return;
        }
        self.shutting_down.insert(id);
        self.emit(EventKind::ControlledShutdown { broker: id });
        self.publish_broker_registrations();
        self.fence_broker(id);
    }

    /// A broker that stopped uncleanly registers again: with ELR on it leaves every ISR
    /// and ELR before it may lead (see [`PartitionRegistration::unclean_shutdown`]).
    pub(crate) fn handle_unclean_shutdown(&mut self, id: i32) {
        let alive = self.active_brokers();
        let changes = self.change_registrations(|reg, rules| {
            reg.unclean_shutdown(id, &|b| alive.contains(&b), rules)
        });
        self.announce(changes);
    }

    /// A broker is back: leaderless partitions may elect it.
    pub(crate) fn unfence_broker(&mut self) {
        let alive = self.active_brokers();
        let changes = self
            .change_registrations(|reg, rules| reg.unfence_broker(&|b| alive.contains(&b), rules));
        self.announce(changes);
    }

    /// A broker (re)started and registers: a new broker epoch, above every one given.
    pub(crate) fn register_broker(&mut self, id: i32) {
        self.shutting_down.remove(&id);
        let next = self.broker_epochs.values().max().copied().unwrap_or(0) + 1;
        self.broker_epochs.insert(id, next);
        self.publish_broker_registrations();
    }

    /// A running broker whose link to the controller is cut stops heartbeating; the
    /// controller fences it once `broker.session.timeout.ms` (9 s) has passed since
    /// its last heartbeat, taken here as the moment of the cut (Kafka 4.0
    /// `BrokerHeartbeatManager`). Until then it stays leader and in the ISRs. Fenced,
    /// it leaves the ISRs and loses its leaderships, though it keeps running and, until
    /// it hears from the controller again, still believes it leads. When the link
    /// heals it registers again and learns the current metadata.
    pub(crate) fn sync_controller_links(&mut self) {
        if !self.replicated {
            return;
        }
        let now = self.clock_ms();
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            let online = self.brokers.get(&id).is_some_and(|b| b.online);
            let cut = self.network().is_cut(&Node::Broker(id), &Node::Controller);
            if online && cut && !self.fenced.contains(&id) {
                let since = *self.session_cut_at.entry(id).or_insert(now);
                if now.saturating_sub(since) >= BROKER_SESSION_TIMEOUT_MS {
                    self.session_cut_at.remove(&id);
                    self.fenced.insert(id);
                    self.emit(EventKind::BrokerFenced {
                        broker: id,
                        fenced: true,
                    });
                    self.publish_broker_registrations();
                    self.fence_broker(id);
                }
            } else {
                self.session_cut_at.remove(&id);
                if !cut && self.fenced.remove(&id) {
                    self.emit(EventKind::BrokerFenced {
                        broker: id,
                        fenced: false,
                    });
                    self.publish_broker_registrations();
                    self.reregister_broker(id);
                }
            }
        }
    }

    /// When the controller next fences a broker whose session runs out, if any.
    pub(crate) fn next_session_expiry_ms(&self) -> Option<i64> {
        self.session_cut_at
            .values()
            .map(|t| t.saturating_add(BROKER_SESSION_TIMEOUT_MS))
            .min()
    }

    /// A broker registers again (restarted, or back in touch with the controller): it
    /// learns the state of its replicated partitions, and a partition left without a
    /// leader may elect it.
    pub(crate) fn reregister_broker(&mut self, id: i32) {
        let held: Vec<TopicPartition> = self
            .partitions_on(id)
            .into_iter()
            .map(|(tp, _)| tp)
            .filter(|tp| {
                self.registration(tp)
                    .is_some_and(|r| r.replicas().len() > 1)
            })
            .collect();
        for tp in held {
            self.propagate_partition(&tp);
        }
        self.unfence_broker();
    }

    /// Whether the controller fenced this running broker (cut off from it).
    pub fn is_fenced(&self, broker: i32) -> bool {
        self.fenced.contains(&broker)
    }
}
