//! Moving messages: sending through the network (and its faults), delivering to
//! brokers and clients, carrying out what a broker decided, retrying inter-broker calls.

use super::event::{EventKind, FaultChange};
use super::network::{error_response, Body, Envelope, Fault, Node, Struck};
use super::world::{World, INTER_BROKER_TIMEOUT_MS, RAW_CLIENT};
use crate::broker::broker::{Handled, Outbound};
use crate::client::producer::{Producer, ProducerEvent};
use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// `reconnect.backoff.ms` (Kafka's default): the first wait before connecting again
/// to a node whose connection failed.
const RECONNECT_BACKOFF_MS: i64 = 50;
/// `reconnect.backoff.max.ms` (Kafka's default): the longest such wait.
const RECONNECT_BACKOFF_MAX_MS: i64 = 1_000;

impl World {
    pub(super) fn emit_producer_events(&mut self, client: &str, events: Vec<ProducerEvent>) {
        for event in events {
            // A request timeout closes the connection (`NetworkClient`); the next request
            // opens a new one.
            if let ProducerEvent::RequestTimedOut { broker, .. } = &event {
                self.network.reconnect(client, *broker);
            }
            self.emit(EventKind::Producer {
                client: client.to_string(),
                event,
            });
        }
    }

    pub(crate) fn send(&mut self, from: Node, to: Node, correlation_id: u64, body: Body) {
        let api = body.api_name().to_string();
        let response = body.is_response();
        let error = match &body {
            Body::Response(r) => Some(r.error()),
            Body::Request(_) => None,
        };
        let down = matches!(to, Node::Broker(id) if !self.broker_online(id));
        let broken = !down && self.network.is_broken(&from, &to);
        let now = self.clock_ms;
        let (env, struck) = if broken {
            let env = self
                .network
                .send_lost(from.clone(), to.clone(), correlation_id, body, now);
            (env, None)
        } else {
            self.network
                .send(from.clone(), to.clone(), correlation_id, body, now)
        };
        self.emit(EventKind::MessageSent {
            id: env.id,
            from: from.clone(),
            to: to.clone(),
            api: api.clone(),
            response,
            error,
        });
        if broken {
            self.emit(EventKind::LostOnBrokenConnection {
                id: env.id,
                from,
                to,
                api,
                response,
            });
            return;
        }
        let Some(struck) = struck else {
            return;
        };
        let lost = struck.lost();
        if struck.fault.is_legacy() {
            if lost {
                self.emit(EventKind::MessageDropped {
                    id: env.id,
                    from: from.clone(),
                    to: to.clone(),
                    api,
                    response,
                });
            }
        } else {
            self.emit_struck(&env, struck);
        }
        if lost {
            self.break_connection(&from, &to);
        }
    }

    /// A message between a producer and a broker was lost: their connection breaks, and
    /// what was still on it is lost with it (TCP delivers in order or not at all). Other
    /// clients here send one request at a time and ask again on their next call.
    fn broker_online(&self, id: i32) -> bool {
        self.brokers.get(&id).is_some_and(|b| b.is_online())
    }

    fn break_connection(&mut self, from: &Node, to: &Node) {
        let Some((client, broker)) = super::network::client_connection(from, to) else {
            return;
        };
        // A stopped broker's host resets the connection (the client hears of it at the
        // next send), so there is no silent connection to it to break.
        if !self.producers.contains_key(client) || !self.broker_online(broker) {
            return;
        }
        let client = client.to_string();
        let Some(lost) = self.network.break_connection(&client, broker) else {
            return;
        };
        self.emit(EventKind::ConnectionBroken {
            client: client.clone(),
            broker,
        });
        for env in lost {
            self.emit(EventKind::LostOnBrokenConnection {
                id: env.id,
                api: env.body.api_name().to_string(),
                response: env.body.is_response(),
                from: env.from,
                to: env.to,
            });
        }
    }

    /// Where a fault struck a message, and the copy a `duplicate` put on the wire.
    fn emit_struck(&mut self, env: &Envelope, struck: Struck) {
        let response = env.body.is_response();
        self.emit(EventKind::FaultStruck {
            id: env.id,
            from: env.from.clone(),
            to: env.to.clone(),
            api: env.body.api_name().to_string(),
            response,
            mark: struck.mark,
            fault: struck.fault,
        });
        if let Some(copy) = struck.copy {
            let error = match &copy.body {
                Body::Response(r) => Some(r.error()),
                Body::Request(_) => None,
            };
            self.emit(EventKind::MessageSent {
                id: copy.id,
                from: copy.from,
                to: copy.to,
                api: copy.body.api_name().to_string(),
                response,
                error,
            });
        }
    }

    /// Arms a fault and says so; a fault on one message by id strikes it on the spot.
    pub(super) fn arm_fault(&mut self, fault: Fault) {
        if let Fault::Message { id, strike } = fault {
            let now = self.clock_ms;
            let Some((env, struck)) = self.network.strike_message(id, strike, now) else {
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::NotOnTheWire { id },
                });
                return;
            };
            let lost = struck.lost();
            self.emit_struck(&env, struck);
            if lost {
                self.break_connection(&env.from, &env.to);
            }
            return;
        }
        if self.network.arm(fault.clone()) {
            self.emit(EventKind::FaultArmed {
                fault: FaultChange::Armed(fault),
            });
        }
    }

    /// Carries out what a broker decided: events, requests to other nodes, answers
    /// (now, for `token`, or later, for earlier tokens).
    pub(crate) fn apply_handled(&mut self, id: i32, token: Option<u64>, handled: Handled) {
        for event in handled.events {
            self.emit(EventKind::Broker { broker: id, event });
        }
        for out in handled.outbound {
            match out {
                Outbound::ToController(req) => self.send_to_controller(id, req),
                Outbound::ToBroker {
                    broker,
                    tag,
                    request,
                } => {
                    let deadline = self.clock_ms + INTER_BROKER_TIMEOUT_MS;
                    self.inter_broker
                        .insert((id, tag), (broker, request.clone(), deadline));
                    self.send(
                        Node::Broker(id),
                        Node::Broker(broker),
                        tag,
                        Body::Request(request),
                    );
                }
                Outbound::CreateInternalTopic(name) => self.create_internal_topic(&name),
                other => self.apply_replication_outbound(id, other),
            }
        }
        let answers = token
            .zip(handled.response)
            .into_iter()
            .chain(handled.deferred);
        for (token, response) in answers {
            if let Some((to, correlation_id)) = self.reply_to.remove(&token) {
                self.send(
                    Node::Broker(id),
                    to,
                    correlation_id,
                    Body::Response(response),
                );
            }
        }
        // A request answered later keeps its token until then.
    }

    pub(crate) fn take_correlation_id(&mut self) -> u64 {
        let id = self.next_correlation_id;
        self.next_correlation_id += 1;
        id
    }

    /// A producer about to change: it is polled at the next step.
    pub(super) fn touch_producer(&mut self, name: &str) -> Option<&mut Producer> {
        let p = self.producers.get_mut(name)?;
        if !self.ready.contains(name) {
            self.ready.insert(name.to_string());
        }
        Some(p)
    }

    /// Every `transaction.abort.timed.out.transaction.cleanup.interval.ms` (10 s) of
    /// logical time, each coordinator aborts transactions open past their timeout.
    /// It is not "work to do" for `run`: only time passing for other reasons (or
    /// `advance`) triggers it, so an open transaction is not aborted behind your back.
    /// An inter-broker request with no answer by its deadline is sent again (the
    /// marker sender and the AddPartitionsToTxn sender retry until they hear back).
    pub(super) fn retry_inter_broker(&mut self) {
        let now = self.clock_ms;
        let due: Vec<((i32, u64), i32, Request)> = self
            .inter_broker
            .iter()
            .filter(|(_, (_, _, deadline))| *deadline <= now)
            .map(|(k, (to, req, _))| (*k, *to, req.clone()))
            .collect();
        for ((from, tag), to, request) in due {
            if !self.brokers.get(&from).is_some_and(|b| b.is_online()) {
                self.inter_broker.remove(&(from, tag));
                continue;
            }
            // A held request is still on its way: sending copies would only pile up.
            if self.network.is_held(&Node::Broker(from), tag) {
                self.inter_broker
                    .insert((from, tag), (to, request, now + INTER_BROKER_TIMEOUT_MS));
                continue;
            }
            // The marker channel disconnects after `request.timeout.ms` and re-enqueues
            // the markers to the partitions' current leaders.
            if matches!(request, Request::WriteTxnMarkers { .. }) {
                self.markers_disconnected(from, tag);
                continue;
            }
            self.inter_broker.insert(
                (from, tag),
                (to, request.clone(), now + INTER_BROKER_TIMEOUT_MS),
            );
            self.emit(EventKind::InterBrokerRetry {
                from,
                to,
                api: request.api_name().to_string(),
            });
            self.send(
                Node::Broker(from),
                Node::Broker(to),
                tag,
                Body::Request(request),
            );
        }
    }

    /// Broker `from`'s WriteTxnMarkers `tag` lost its connection: its marker channel
    /// re-enqueues the markers (see `broker/marker_channel.rs`).
    /// A WriteTxnMarkers to a broker that is down: the marker channel's
    /// `InterBrokerSendThread` finds the connection failed and hands the markers back
    /// (`wasDisconnected`), but only once `NetworkClient`'s reconnect backoff has passed
    /// (`reconnect.backoff.ms` 50 ms, doubling up to `reconnect.backoff.max.ms` 1 s,
    /// Kafka 4.0; its ±20 % jitter left out). Meanwhile the metadata may still name the
    /// dead broker (the controller fences a crashed one only after
    /// `broker.session.timeout.ms`), so the markers go to it again.
    fn markers_refused(&mut self, from: i32, to: i32, tag: u64) {
        let failures = self.reconnect_failures.entry((from, to)).or_insert(0);
        let backoff = (RECONNECT_BACKOFF_MS << (*failures).min(8)).min(RECONNECT_BACKOFF_MAX_MS);
        *failures = failures.saturating_add(1);
        let due = self.clock_ms.saturating_add(backoff);
        match self.inter_broker.get_mut(&(from, tag)) {
            Some(entry) => entry.2 = due,
            None => self.markers_disconnected(from, tag),
        }
    }

    fn markers_disconnected(&mut self, from: i32, tag: u64) {
        self.inter_broker.remove(&(from, tag));
        let now = self.clock_ms;
        let Some(broker) = self.brokers.get_mut(&from).filter(|b| b.is_online()) else {
            return;
        };
        let handled = broker.marker_send_disconnected(tag, now);
        self.apply_handled(from, None, handled);
    }

    /// Every broker's marker channel tries its unknown-broker queue again (the
    /// metadata changed).
    pub(crate) fn drain_unknown_broker_markers(&mut self) {
        let now = self.clock_ms;
        let ids: Vec<i32> = self.brokers.keys().copied().collect();
        for id in ids {
            let Some(broker) = self.brokers.get_mut(&id) else {
                continue;
            };
            let handled = broker.drain_unknown_broker_markers(now);
            if !handled.is_empty() {
                self.apply_handled(id, None, handled);
            }
        }
    }

    pub(super) fn deliver(&mut self, env: Envelope) {
        let api = env.body.api_name().to_string();
        if let Node::Broker(id) = env.to {
            if !self.brokers.get(&id).is_some_and(|b| b.is_online()) {
                self.emit(EventKind::MessageRefused {
                    id: env.id,
                    from: env.from.clone(),
                    to: env.to.clone(),
                    api,
                    sender_down: false,
                });
                if let Node::Client(name) = &env.from {
                    let now = self.clock_ms;
                    let events = self
                        .touch_producer(name)
                        .map(|p| p.on_disconnect(id, now))
                        .unwrap_or_default();
                    self.emit_producer_events(name, events);
                }
                if let (Node::Broker(from), Body::Request(Request::WriteTxnMarkers { .. })) =
                    (&env.from, &env.body)
                {
                    self.markers_refused(*from, id, env.correlation_id);
                }
                return;
            }
            if let Node::Broker(from) = env.from {
                self.reconnect_failures.remove(&(from, id));
            }
        }
        if let Node::Controller(id) = env.to {
            if self.controller_offline(id) {
                self.emit(EventKind::MessageRefused {
                    id: env.id,
                    from: env.from.clone(),
                    to: env.to.clone(),
                    api,
                    sender_down: false,
                });
                if let Body::Request(request) = &env.body {
                    self.requeue_for_controller(&env.from, request);
                }
                return;
            }
        }
        self.emit(EventKind::MessageDelivered {
            id: env.id,
            from: env.from.clone(),
            to: env.to.clone(),
            api: api.clone(),
            response: env.body.is_response(),
        });
        if let (Some(error), Body::Request(request)) = (env.injected_error, &env.body) {
            // An error fault: the network in front of the receiver answers for it.
            let response = error_response(request, error);
            self.emit(EventKind::ErrorInjected {
                id: env.id,
                from: env.from.clone(),
                to: env.to.clone(),
                api,
                error,
            });
            self.send(
                env.to,
                env.from,
                env.correlation_id,
                Body::Response(response),
            );
            return;
        }
        match (env.to.clone(), env.body) {
            (Node::Broker(id), Body::Request(request)) => {
                let now = self.clock_ms;
                let Some(broker) = self.brokers.get_mut(&id) else {
                    return;
                };
                let token = self.next_reply_token;
                self.next_reply_token += 1;
                self.reply_to
                    .insert(token, (env.from.clone(), env.correlation_id));
                let handled = broker.handle(request, token, now);
                self.apply_handled(id, Some(token), handled);
            }
            (Node::Broker(id), Body::Response(response)) => {
                let now = self.clock_ms;
                let Some(broker) = self.brokers.get_mut(&id) else {
                    return;
                };
                if let (Node::Controller(_), Response::AlterPartition { .. }) =
                    (&env.from, &response)
                {
                    let handled = broker.handle_alter_partition_response(response, now);
                    self.apply_handled(id, None, handled);
                } else if matches!(env.from, Node::Controller(_)) {
                    let events = broker.handle_controller_response(response, now);
                    for event in events {
                        self.emit(EventKind::Broker { broker: id, event });
                    }
                } else {
                    self.inter_broker.remove(&(id, env.correlation_id));
                    let Some(broker) = self.brokers.get_mut(&id) else {
                        return;
                    };
                    let handled = broker.handle_broker_response(env.correlation_id, response, now);
                    self.apply_handled(id, None, handled);
                }
            }
            (Node::Controller(cid), Body::Request(request)) => {
                if let Err(refusal) = self.controller_takes(cid, &request) {
                    if refusal.is_some() && self.requeue_for_controller(&env.from, &request) {
                        return;
                    }
                    if let Some(error) = refusal {
                        let response = error_response(&request, error);
                        self.send(
                            Node::Controller(cid),
                            env.from,
                            env.correlation_id,
                            Body::Response(response),
                        );
                    }
                    return;
                }
                self.controller_handles(cid, env.from, env.correlation_id, request);
            }
            (Node::Client(name), Body::Response(response)) => {
                #[cfg(feature = "group-membership")]
                if self.is_member_call(env.correlation_id) {
                    self.on_member_response(env.correlation_id, response);
                    return;
                }
                if self.consumers.contains_key(&name) {
                    self.on_consumer_response(env.correlation_id, response);
                } else if name == RAW_CLIENT {
                    self.raw_inbox.insert(env.correlation_id, response);
                } else {
                    let now = self.clock_ms;
                    let events = self
                        .touch_producer(&name)
                        .map(|p| p.on_response(env.correlation_id, response, now))
                        .unwrap_or_default();
                    self.emit_producer_events(&name, events);
                }
            }
            _ => {}
        }
    }

    /// The active controller handles a request: AlterPartition, or AllocateProducerIds
    /// (`ProducerIdControlManager.generateNextProducerId`).
    fn controller_handles(&mut self, id: i32, from: Node, correlation_id: u64, request: Request) {
        let response = match request {
            request @ Request::AlterPartition { .. } => self.controller_alter_partition(request),
            Request::AllocateProducerIds { broker_id } => {
                let (start, len) = self.controller.generate_next_block();
                #[cfg(feature = "metadata-log")]
                self.write_producer_ids(broker_id);
                #[cfg(not(feature = "metadata-log"))]
                let _ = broker_id;
                Response::AllocateProducerIds {
                    error: Errors::None,
                    producer_id_start: start,
                    producer_id_len: len,
                }
            }
            _ => return,
        };
        self.send(
            Node::Controller(id),
            from,
            correlation_id,
            Body::Response(response),
        );
    }
}
