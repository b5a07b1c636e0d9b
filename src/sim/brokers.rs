//! Broker processes: stopping and restarting them (the controller fences and
//! unfences them, electing leaders; see `crate::controller`), and the partitions each
//! one holds.

use super::error::{SimError, SimErrorKind};
use super::event::EventKind;
use super::network::Node;
use super::world::World;
use super::Action;
use crate::broker::broker::Handled;
use crate::log::{LogConfig, TopicPartition};

impl World {
    /// Stopping and starting brokers; `World::apply` sends only these here.
    pub(super) fn apply_broker_lifecycle(
        &mut self,
        action: &Action,
    ) -> Result<Vec<String>, SimError> {
        match action {
            Action::RestartBroker { broker, clean } => {
                self.stop_broker(*broker, *clean)?;
                self.start_broker(*broker)
            }
            Action::StopBroker { broker, clean } => self.stop_broker(*broker, *clean),
            Action::StartBroker { broker } => self.start_broker(*broker),
            #[cfg(feature = "metadata-log")]
            Action::StopController { controller } => {
                self.stop_controller(*controller).map(|()| vec![])
            }
            #[cfg(feature = "metadata-log")]
            Action::StartController { controller } => {
                self.start_controller(*controller).map(|()| vec![])
            }
            _ => Ok(vec![]),
        }
    }

    /// The partitions with a replica on `broker` (their folders on its disk).
    pub(crate) fn partitions_on(&self, broker: i32) -> Vec<(TopicPartition, LogConfig)> {
        self.topics
            .values()
            .flat_map(|t| {
                t.registrations
                    .iter()
                    .enumerate()
                    .filter(move |(_, r)| r.replicas().contains(&broker))
                    .map(move |(p, _)| {
                        (
                            TopicPartition::new(t.name.clone(), p as i32),
                            t.config.clone(),
                        )
                    })
            })
            .collect()
    }

    pub(super) fn stop_broker(&mut self, id: i32, clean: bool) -> Result<Vec<String>, SimError> {
        let broker = self
            .brokers
            .get_mut(&id)
            .ok_or_else(|| SimError::from(SimErrorKind::NoBroker { id }))?;
        if self.pending_registrations.remove(&id).is_some() {
            // Stopped while it waits for the controller to accept it: the process ends
            // before it served anything, so only its next attempt goes.
            return Ok(vec![]);
        }
        if !broker.is_online() {
            return Err(SimErrorKind::BrokerAlreadyStopped { id }.into());
        }
        let shut_down = clean && self.controlled_shutdown(id);
        let Some(broker) = self.brokers.get_mut(&id) else {
            return Err(SimErrorKind::NoBroker { id }.into());
        };
        let event = broker.stop(clean);
        self.emit(EventKind::Broker { broker: id, event });
        // Messages to or from the broker are lost with its connections.
        let lost = self.network.disconnect(&Node::Broker(id));
        self.inter_broker.retain(|(from, _), _| *from != id);
        for env in lost {
            self.emit(EventKind::MessageRefused {
                id: env.id,
                sender_down: env.from == Node::Broker(id),
                from: env.from,
                to: env.to,
                api: env.body.api_name().into(),
            });
        }
        let now = self.clock_ms;
        let names: Vec<String> = self.producers.keys().cloned().collect();
        for name in names {
            let events = self
                .touch_producer(&name)
                .map(|p| p.on_disconnect(id, now))
                .unwrap_or_default();
            self.emit_producer_events(&name, events);
        }
        self.publish_broker_registrations();
        self.broker_stopped(id, shut_down);
        Ok(vec![])
    }

    /// Starts a stopped broker. It must register first: while the controller still
    /// counts its previous incarnation (a crash less than `broker.session.timeout.ms`
    /// ago), the registration is refused and the broker asks again later
    /// (`crate::controller`); it starts serving once it is accepted.
    pub(super) fn start_broker(&mut self, id: i32) -> Result<Vec<String>, SimError> {
        let broker = self
            .brokers
            .get(&id)
            .ok_or_else(|| SimError::from(SimErrorKind::NoBroker { id }))?;
        if self.pending_registrations.contains_key(&id) {
            return Err(SimErrorKind::BrokerRegistering { id }.into());
        }
        if broker.is_online() {
            return Err(SimErrorKind::BrokerAlreadyRunning { id }.into());
        }
        if self.previous_session_valid(id) {
            self.refuse_registration(id, 0);
        } else {
            self.complete_start(id);
        }
        Ok(vec![])
    }

    /// A stopped broker whose registration the controller accepts: it opens and
    /// recovers every partition folder, registers at a new broker epoch and learns
    /// its partitions' state.
    pub(crate) fn complete_start(&mut self, id: i32) {
        let partitions = self.partitions_on(id);
        let replicated: Vec<TopicPartition> = partitions
            .iter()
            .filter(|(tp, _)| {
                self.registration(tp)
                    .is_some_and(|r| r.replicas().len() > 1)
            })
            .map(|(tp, _)| tp.clone())
            .collect();
        let Some(broker) = self.brokers.get_mut(&id).filter(|b| !b.is_online()) else {
            return;
        };
        let now = self.clock_ms;
        let clean = broker.stopped_cleanly();
        let events = broker.start(&partitions, &replicated, now);
        let outbound = broker.take_startup_outbound();
        self.register_broker(id);
        if !clean && self.replicated {
            self.handle_unclean_shutdown(id);
        }
        for event in events {
            self.emit(EventKind::Broker { broker: id, event });
        }
        self.apply_handled(
            id,
            None,
            Handled {
                outbound,
                ..Handled::default()
            },
        );
        if self.replicated {
            self.reregister_broker(id);
        }
    }

    /// A controller stopped: the messages on its connections are lost, each said.
    #[cfg(feature = "metadata-log")]
    pub(crate) fn controller_connections_lost(&mut self, id: i32) {
        let node = Node::Controller(id);
        for env in self.network.disconnect(&node) {
            self.emit(EventKind::MessageRefused {
                id: env.id,
                sender_down: env.from == node,
                from: env.from,
                to: env.to,
                api: env.body.api_name().into(),
            });
        }
    }
}
