//! Brokers as the controller sees them (`ClusterControlManager`,
//! `BrokerHeartbeatManager`, Kafka 4.0, mirror commit 1eb7644): registering with a new
//! broker epoch, fenced at once by a controlled shutdown, or when their session runs
//! out — a crash and a cut link look the same to the controller, heartbeats that stop
//! coming — and unfenced when they register again.

use crate::broker::broker_lifecycle_manager::{
    registration_backoff_ms, PendingRegistration, BROKER_SESSION_TIMEOUT_MS,
};
use crate::log::TopicPartition;
#[cfg(doc)]
use crate::metadata::PartitionRegistration;
use crate::protocol::errors::Errors;
use crate::sim::event::EventKind;
use crate::sim::network::Node;
use crate::sim::world::World;

impl World {
    /// The controller fences a broker (its session ran out, or its controlled shutdown
    /// ended): out of every ISR, a new leader where it led; it tells the others.
    pub(crate) fn fence_broker(&mut self, id: i32) {
        let alive = self.active_brokers();
        let changes = self.change_registrations(|reg, rules| {
            reg.fence_broker(id, &|b| b != id && alive.contains(&b), rules)
        });
        self.announce(changes);
        #[cfg(feature = "metadata-log")]
        self.write_metadata();
    }

    /// `ClusterControlManager.isActive`: registered, unfenced and not in controlled
    /// shutdown — the brokers that may lead or join an ISR. The controller knows only
    /// what heartbeats tell it: a broker that crashed counts until its session runs out.
    pub(super) fn active_brokers(&self) -> Vec<i32> {
        self.brokers
            .keys()
            .copied()
            .filter(|b| !self.fenced.contains(b) && !self.shutting_down.contains(b))
            .collect()
    }

    /// `BrokerHeartbeat` with `wantShutDown` (a clean stop, Kafka 4.0
    /// `BrokerLifecycleManager` and `ReplicationControlManager
    /// .handleBrokerInControlledShutdown`): the controller marks the broker as in
    /// controlled shutdown, takes it out of every ISR (never emptying one) and elects
    /// new leaders where it led; the broker hears the new metadata and becomes a
    /// follower before it stops. A broker cut off from the controller cannot ask: it
    /// just stops. Returns whether the controller heard.
    pub(crate) fn controlled_shutdown(&mut self, id: i32) -> bool {
        if !self.replicated || self.fenced.contains(&id) || self.controller_link_cut(id) {
            return false;
        }
        self.shutting_down.insert(id);
        self.emit(EventKind::ControlledShutdown { broker: id });
        self.publish_broker_registrations();
        self.fence_broker(id);
        true
    }

    /// A broker stopped. After a controlled shutdown the controller fences it at once
    /// (the heartbeat that reports the shutdown done, `handleBrokerFenced`). A crash,
    /// or a clean stop the controller could not hear, tells the controller nothing:
    /// the broker's heartbeats stop, and it stays registered, in its ISRs and leader
    /// where it led until its session runs out (`sync_controller_links`).
    pub(crate) fn broker_stopped(&mut self, id: i32, shut_down: bool) {
        if !self.replicated || shut_down {
            self.session_cut_at.remove(&id);
            self.fenced.insert(id);
            self.publish_broker_registrations();
            if self.replicated {
                self.fence_broker(id);
            }
        } else if !self.fenced.contains(&id) {
            // Cut off from the controller before it crashed, it was already silent.
            self.heartbeats_stop(id, false);
        }
    }

    /// The controller hears no more heartbeats from a broker it has not fenced
    /// (Kafka 4.0 `BrokerHeartbeatManager`: the last contact starts its session's
    /// count-down); said once, when the silence starts.
    fn heartbeats_stop(&mut self, id: i32, running: bool) {
        if self.session_cut_at.contains_key(&id) || self.active_controller().is_none() {
            return;
        }
        let now = self.clock_ms();
        self.session_cut_at.insert(id, (now, self.events().len()));
        self.emit(EventKind::HeartbeatsStopped {
            broker: id,
            running,
            last_heartbeat_ms: now,
            fence_at_ms: now.saturating_add(BROKER_SESSION_TIMEOUT_MS),
        });
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
        #[cfg(feature = "metadata-log")]
        self.write_metadata();
    }

    /// `ClusterControlManager.registerBroker` (Kafka 4.0): while the previous
    /// incarnation of the broker still has a valid session
    /// (`BrokerHeartbeatManager.hasValidSession`: unfenced and heard from within
    /// `broker.session.timeout.ms`), a new incarnation is refused with
    /// DUPLICATE_BROKER_REGISTRATION.
    pub(crate) fn previous_session_valid(&self, id: i32) -> bool {
        self.replicated && self.session_cut_at.contains_key(&id) && !self.fenced.contains(&id)
    }

    /// The controller refuses a restarted broker's registration: the broker waits
    /// (`scheduleNextCommunicationAfterFailure`) and asks again; until then it serves
    /// nothing (Kafka's `BrokerServer.startup` waits for the registration before it
    /// opens its listeners).
    pub(crate) fn refuse_registration(&mut self, id: i32, failed_attempts: u32) {
        let backoff = registration_backoff_ms(failed_attempts);
        let now = self.clock_ms();
        self.pending_registrations.insert(
            id,
            PendingRegistration {
                next_attempt_ms: now.saturating_add(backoff),
                failed_attempts: failed_attempts.saturating_add(1),
            },
        );
        self.emit(EventKind::RegistrationRefused {
            broker: id,
            error: Errors::DuplicateBrokerRegistration,
            retry_ms: backoff,
        });
    }

    /// Restarted brokers whose wait is over ask again: refused while the previous
    /// incarnation's session runs, else they start. Returns whether any asked.
    pub(crate) fn retry_registrations(&mut self) -> bool {
        let now = self.clock_ms();
        let due: Vec<(i32, u32)> = self
            .pending_registrations
            .iter()
            .filter(|(_, p)| p.next_attempt_ms <= now)
            .map(|(id, p)| (*id, p.failed_attempts))
            .collect();
        for (id, failed) in &due {
            self.pending_registrations.remove(id);
            if self.previous_session_valid(*id) {
                self.refuse_registration(*id, *failed);
            } else {
                self.complete_start(*id);
            }
        }
        #[cfg(feature = "metadata-log")]
        self.write_metadata();
        !due.is_empty()
    }

    /// A broker (re)started and registers: a new broker epoch, above every one given,
    /// and (unless it is cut off from the controller) no longer fenced.
    pub(crate) fn register_broker(&mut self, id: i32) {
        self.shutting_down.remove(&id);
        if !self.controller_link_cut(id) {
            self.fenced.remove(&id);
            self.session_cut_at.remove(&id);
        }
        let next = self.broker_epochs.values().max().copied().unwrap_or(0) + 1;
        self.broker_epochs.insert(id, next);
        self.publish_broker_registrations();
    }

    /// The controller's session timer (Kafka 4.0 `BrokerHeartbeatManager`): a broker
    /// that sends no heartbeat — crashed, or running with its link to the controller
    /// cut — is fenced once `broker.session.timeout.ms` (9 s) has passed since its last
    /// heartbeat, taken here as the moment of the crash or the cut (Kafka heartbeats
    /// every 2 s, so its last one may be up to 2 s earlier). Until then it stays
    /// leader and in the ISRs: a leader that crashed leaves its partitions without a
    /// working leader, and an `acks=all` Produce waits for a follower that crashed.
    /// Fenced, it leaves the ISRs and loses its leaderships; a running one keeps
    /// running and, until it hears from the controller again, still believes it leads.
    /// When the link heals it registers again and learns the current metadata.
    /// With no active controller (an election runs, or the leader lost its majority)
    /// no session counts and no broker is fenced: the next active controller starts
    /// every session from its claim.
    pub(crate) fn sync_controller_links(&mut self) {
        if !self.replicated || self.active_controller().is_none() {
            return;
        }
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            let online = self.brokers.get(&id).is_some_and(|b| b.is_online());
            let cut = self.controller_link_cut(id);
            let heartbeats = online && !cut;
            if !heartbeats && !self.fenced.contains(&id) {
                self.heartbeats_stop(id, online);
                continue;
            }
            self.session_cut_at.remove(&id);
            if heartbeats && self.fenced.remove(&id) {
                self.emit(EventKind::BrokerFenced {
                    broker: id,
                    fenced: false,
                    running: true,
                });
                self.publish_broker_registrations();
                self.reregister_broker(id);
            }
        }
        // `fenceStaleBrokers`: the longest silent first (`findOneStaleBroker`).
        let now = self.clock_ms();
        let mut stale: Vec<((i64, usize), i32)> = self
            .session_cut_at
            .iter()
            .filter(|(_, (since, _))| now.saturating_sub(*since) >= BROKER_SESSION_TIMEOUT_MS)
            .map(|(id, since)| (*since, *id))
            .collect();
        crate::util::ordered::sort_by(&mut stale, |a, b| a.cmp(b));
        for (_, id) in stale {
            self.session_cut_at.remove(&id);
            self.fenced.insert(id);
            let running = self.brokers.get(&id).is_some_and(|b| b.is_online());
            self.emit(EventKind::BrokerFenced {
                broker: id,
                fenced: true,
                running,
            });
            self.publish_broker_registrations();
            self.fence_broker(id);
        }
        #[cfg(feature = "metadata-log")]
        self.write_metadata();
    }

    /// Whether the active controller cannot hear this broker: none is active, or the
    /// link between them is cut.
    pub(crate) fn controller_link_cut(&self, id: i32) -> bool {
        self.active_controller().is_none_or(|c| {
            self.network()
                .is_cut(&Node::Broker(id), &Node::Controller(c))
        })
    }

    /// When the controller next has something to do on its own: fence a broker whose
    /// session runs out, or hear a refused broker ask again.
    pub(crate) fn next_controller_timer_ms(&self) -> Option<i64> {
        let expiries = self
            .session_cut_at
            .values()
            .map(|(t, _)| t.saturating_add(BROKER_SESSION_TIMEOUT_MS));
        let attempts = self
            .pending_registrations
            .values()
            .map(|p| p.next_attempt_ms);
        expiries.chain(attempts).min()
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
        self.fenced.contains(&broker) && self.brokers.get(&broker).is_some_and(|b| b.is_online())
    }

    /// Whether a restarted broker waits for the controller to accept its registration.
    pub fn is_registering(&self, broker: i32) -> bool {
        self.pending_registrations.contains_key(&broker)
    }

    /// A restarted broker waiting for the controller to accept its registration: when
    /// it asks again.
    pub fn pending_registration(&self, broker: i32) -> Option<PendingRegistration> {
        self.pending_registrations.get(&broker).copied()
    }

    /// When the controller fences a broker it no longer hears from (crashed, or cut
    /// off) and has not fenced yet, unless a heartbeat comes first.
    pub fn session_expires_at(&self, broker: i32) -> Option<i64> {
        self.session_cut_at
            .get(&broker)
            .filter(|_| !self.fenced.contains(&broker))
            .map(|(t, _)| t.saturating_add(BROKER_SESSION_TIMEOUT_MS))
    }

    /// Whether the controller has fenced this broker, stopped or running; and whether
    /// a controlled shutdown did it (Kafka's registration keeps `inControlledShutdown`
    /// until the broker registers again).
    pub fn fenced_by_controller(&self, broker: i32) -> (bool, bool) {
        (
            self.fenced.contains(&broker),
            self.shutting_down.contains(&broker),
        )
    }
}

/// One controller, always active, when the quorum is not built (the web pages).
#[cfg(not(feature = "metadata-log"))]
impl World {
    pub fn active_controller(&self) -> Option<i32> {
        Some(0)
    }
    pub(crate) fn controller_node(&self) -> Node {
        Node::LONE_CONTROLLER
    }
    pub(crate) fn send_to_controller(&mut self, broker: i32, request: crate::protocol::Request) {
        let cid = self.take_correlation_id();
        self.send(
            Node::Broker(broker),
            Node::LONE_CONTROLLER,
            cid,
            crate::sim::network::Body::Request(request),
        );
    }
    pub(crate) fn requeue_for_controller(
        &mut self,
        _from: &Node,
        _request: &crate::protocol::Request,
    ) -> bool {
        false
    }
    pub(crate) fn controller_offline(&self, _id: i32) -> bool {
        false
    }
    pub(crate) fn controller_takes(
        &mut self,
        _id: i32,
        _request: &crate::protocol::Request,
    ) -> Result<(), Option<Errors>> {
        Ok(())
    }
    pub(crate) fn poll_quorum(&mut self) -> bool {
        false
    }
    pub(crate) fn next_quorum_timer_ms(&self) -> Option<i64> {
        None
    }
}
