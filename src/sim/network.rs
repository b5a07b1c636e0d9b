//! The simulated network: every request and response is a message with a delivery
//! time, and faults the learner arms can drop, delay, duplicate, hold, cut off or answer
//! with an error (raft-rs harness / Jepsen style).

use crate::util::sorted_map::SortedMap;

use serde::{Deserialize, Serialize};

use crate::protocol::errors::Errors;
use crate::protocol::{Request, Response};

/// Who sends and receives messages.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Node {
    /// A producer or the raw "bare socket" client, by name.
    Client(String),
    Broker(i32),
    /// A KRaft controller by its node id: id 0 is the lone controller of a quorum of
    /// one (named `controller`), the voters of a larger quorum are 1 to 5
    /// (`controller-N`).
    Controller(i32),
}

impl Node {
    /// The lone controller of a quorum of one (the default cluster).
    pub const LONE_CONTROLLER: Node = Node::Controller(0);
}

impl std::fmt::Display for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Node::Client(name) => write!(f, "{name}"),
            Node::Broker(id) => write!(f, "broker {id}"),
            Node::Controller(0) => write!(f, "controller"),
            Node::Controller(id) => write!(f, "controller-{id}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    Request(Request),
    Response(Response),
}

impl Body {
    pub fn api_name(&self) -> &'static str {
        match self {
            Body::Request(r) => r.api_name(),
            Body::Response(r) => r.api_name(),
        }
    }
    pub fn is_response(&self) -> bool {
        matches!(self, Body::Response(_))
    }
}

/// One message on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    pub id: u64,
    pub correlation_id: u64,
    pub from: Node,
    pub to: Node,
    pub sent_ms: i64,
    pub deliver_ms: i64,
    pub body: Body,
    /// A request an armed `Fault::Error` answers with this error at the receiver's door:
    /// the receiver never handles it.
    #[serde(default)]
    pub injected_error: Option<Errors>,
}

pub use super::fault::{Direction, Fault, FaultMark, MessageMatch, MessageStrike, Struck};

/// The answer a request gets when a `Fault::Error` strikes it: the broker's own
/// whole-request error answer (one function for both).
pub use crate::protocol::error_response;

/// Messages in flight, ordered by delivery time then id, so replays are exact; the armed
/// faults; and the messages a fault holds. Changed only through its methods.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    latency_ms: i64,
    /// Keyed by (delivery time, id): the next message is the first entry.
    queue: SortedMap<(i64, u64), Envelope>,
    faults: Vec<Fault>,
    held: Vec<Envelope>,
    next_id: u64,
    /// Producer connections (client, broker) that broke when a message on them was lost.
    /// TCP delivers in order or not at all, so nothing more gets through on one, either
    /// way, until the client closes it (at its request timeout) and connects again.
    #[serde(default)]
    broken: Vec<(String, i32)>,
}

/// The client and the broker at the two ends of a client connection, if it is one.
pub fn client_connection<'a>(a: &'a Node, b: &'a Node) -> Option<(&'a str, i32)> {
    match (a, b) {
        (Node::Client(c), Node::Broker(id)) | (Node::Broker(id), Node::Client(c)) => {
            Some((c.as_str(), *id))
        }
        _ => None,
    }
}

impl Network {
    pub fn new(latency_ms: i64) -> Self {
        Network {
            latency_ms,
            queue: SortedMap::new(),
            faults: Vec::new(),
            held: Vec::new(),
            next_id: 1,
            broken: Vec::new(),
        }
    }

    /// One-way latency of every message.
    pub fn latency_ms(&self) -> i64 {
        self.latency_ms
    }

    /// Messages on their way, in delivery order.
    pub fn in_flight(&self) -> impl Iterator<Item = &Envelope> + '_ {
        self.queue.values()
    }

    /// Faults armed and not yet spent, oldest first.
    pub fn faults(&self) -> &[Fault] {
        &self.faults
    }

    /// Whether requests of this API are being held.
    pub fn holds(&self, api: &str) -> bool {
        self.faults.iter().any(|f| f.holds_api(api))
    }

    /// Whether the link between two nodes is cut.
    pub fn is_cut(&self, a: &Node, b: &Node) -> bool {
        self.faults.iter().any(
            |f| matches!(f, Fault::Cut { a: x, b: y } if (x == a && y == b) || (x == b && y == a)),
        )
    }

    /// Whether the connection this message would travel on is broken.
    pub fn is_broken(&self, from: &Node, to: &Node) -> bool {
        client_connection(from, to)
            .is_some_and(|(c, b)| self.broken.iter().any(|(x, y)| x == c && *y == b))
    }

    /// The broken client connections, oldest first.
    pub fn broken(&self) -> &[(String, i32)] {
        &self.broken
    }

    /// A message on this client connection was lost: the connection breaks, and what is
    /// still on it (on the wire or held), either way, is lost with it. Returns those
    /// messages in delivery order, or `None` when it was broken already.
    pub fn break_connection(&mut self, client: &str, broker: i32) -> Option<Vec<Envelope>> {
        if self.broken.iter().any(|(c, b)| c == client && *b == broker) {
            return None;
        }
        self.broken.push((client.to_string(), broker));
        let on_it = |e: &Envelope| client_connection(&e.from, &e.to) == Some((client, broker));
        let (lost, kept): (SortedMap<_, _>, SortedMap<_, _>) = std::mem::take(&mut self.queue)
            .into_iter()
            .partition(|(_, e)| on_it(e));
        self.queue = kept;
        let mut lost: Vec<Envelope> = lost.into_values().collect();
        let (held, stay): (Vec<Envelope>, Vec<Envelope>) =
            std::mem::take(&mut self.held).into_iter().partition(on_it);
        self.held = stay;
        lost.extend(held);
        Some(lost)
    }

    /// The client closed a connection (`NetworkClient` after a request timeout): the
    /// next message goes on a new one. Returns whether it was broken.
    pub fn reconnect(&mut self, client: &str, broker: i32) -> bool {
        let before = self.broken.len();
        self.broken.retain(|(c, b)| !(c == client && *b == broker));
        self.broken.len() != before
    }

    /// A message sent on a broken connection: it gets its id, and is lost.
    pub fn send_lost(
        &mut self,
        from: Node,
        to: Node,
        correlation_id: u64,
        body: Body,
        now_ms: i64,
    ) -> Envelope {
        self.envelope(from, to, correlation_id, body, now_ms)
    }

    /// Messages a hold keeps back, oldest first.
    pub fn held(&self) -> &[Envelope] {
        &self.held
    }

    /// The ids of the held messages, oldest first.
    pub fn held_ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.held.iter().map(|e| e.id)
    }

    /// How many messages were put on the wire so far (each has its `MessageSent` event).
    pub fn messages_sent(&self) -> u64 {
        self.next_id - 1
    }

    /// Arms a fault (a hold of an API already held, or a cut of a link already cut, is
    /// not armed twice). Returns whether it was armed.
    pub fn arm(&mut self, fault: Fault) -> bool {
        let again = match &fault {
            Fault::HoldRequests { api } => self.holds(api),
            Fault::Cut { a, b } => self.is_cut(a, b),
            f @ Fault::Hold { .. } => self.faults.contains(f),
            // Struck on the spot by `strike_message`, never armed.
            Fault::Message { .. } => true,
            _ => false,
        };
        if again {
            return false;
        }
        let fault = match fault {
            Fault::Delay {
                matching,
                ms,
                every,
            } => Fault::Delay {
                matching,
                ms: ms.max(0),
                every,
            },
            f => f,
        };
        self.faults.push(fault);
        true
    }

    fn envelope(
        &mut self,
        from: Node,
        to: Node,
        correlation_id: u64,
        body: Body,
        now_ms: i64,
    ) -> Envelope {
        let env = Envelope {
            id: self.next_id,
            correlation_id,
            from,
            to,
            sent_ms: now_ms,
            deliver_ms: now_ms.saturating_add(self.latency_ms),
            body,
            injected_error: None,
        };
        self.next_id += 1;
        env
    }

    /// Puts a message on the wire, unless an armed fault strikes it: the oldest matching
    /// fault decides (a drop or a cut loses it, a hold keeps it until released, a delay
    /// postpones it, a duplicate sends a second copy, an error fault marks the request
    /// to be answered with that error). Costs one pass over the armed faults.
    pub fn send(
        &mut self,
        from: Node,
        to: Node,
        correlation_id: u64,
        body: Body,
        now_ms: i64,
    ) -> (Envelope, Option<Struck>) {
        let mut env = self.envelope(from, to, correlation_id, body, now_ms);
        let Some(i) = self.faults.iter().position(|f| f.strikes(&env)) else {
            self.enqueue(&mut env);
            return (env, None);
        };
        let fault = if self.faults[i].is_one_shot() {
            self.faults.remove(i)
        } else {
            self.faults[i].clone()
        };
        let mut copy = None;
        let mark = match &fault {
            Fault::DropNextRequest { .. } | Fault::DropNextResponse { .. } | Fault::Drop { .. } => {
                FaultMark::Dropped
            }
            Fault::Cut { .. } => FaultMark::Cut,
            Fault::HoldRequests { .. } | Fault::Hold { .. } => {
                self.held.push(env.clone());
                FaultMark::Held
            }
            Fault::Delay { ms, .. } => {
                env.deliver_ms = env.deliver_ms.saturating_add(*ms);
                self.enqueue(&mut env);
                FaultMark::Delayed { ms: *ms }
            }
            Fault::Duplicate { .. } => {
                self.enqueue(&mut env);
                let mut second = self.envelope(
                    env.from.clone(),
                    env.to.clone(),
                    env.correlation_id,
                    env.body.clone(),
                    now_ms,
                );
                second.deliver_ms = env.deliver_ms.saturating_add(self.latency_ms);
                self.queue
                    .insert((second.deliver_ms, second.id), second.clone());
                let mark = FaultMark::Duplicated { copy: second.id };
                copy = Some(second);
                mark
            }
            Fault::Error { error, .. } => {
                env.injected_error = Some(*error);
                self.enqueue(&mut env);
                FaultMark::ErrorInjected { error: *error }
            }
            Fault::Message { .. } => {
                self.enqueue(&mut env);
                return (env, None);
            }
        };
        (env, Some(Struck { fault, mark, copy }))
    }

    /// Strikes one message already sent, by id (a click on the timeline): one pass over
    /// the messages in flight, none per step. A held message can only be dropped.
    /// Returns the message as it was, with what was done, or `None` when no message with
    /// this id is on the wire (delivered, lost, or never sent).
    pub fn strike_message(
        &mut self,
        id: u64,
        strike: MessageStrike,
        now_ms: i64,
    ) -> Option<(Envelope, Struck)> {
        let fault = Fault::Message { id, strike };
        if let Some(pos) = self.held.iter().position(|e| e.id == id) {
            if strike != MessageStrike::Drop {
                return None;
            }
            let env = self.held.remove(pos);
            return Some((
                env,
                Struck {
                    fault,
                    mark: FaultMark::Dropped,
                    copy: None,
                },
            ));
        }
        let key = self
            .queue
            .iter()
            .find(|(_, e)| e.id == id)
            .map(|(k, _)| *k)?;
        let mut env = self.queue.remove(&key)?;
        let original = env.clone();
        let mut copy = None;
        let mark = match strike {
            MessageStrike::Drop => FaultMark::Dropped,
            MessageStrike::Hold => {
                self.held.push(env);
                FaultMark::Held
            }
            MessageStrike::Delay { ms } => {
                let ms = ms.max(0);
                env.deliver_ms = env.deliver_ms.saturating_add(ms);
                self.hold_back_behind(&env);
                self.enqueue(&mut env);
                FaultMark::Delayed { ms }
            }
            MessageStrike::Duplicate => {
                let mut second = self.envelope(
                    env.from.clone(),
                    env.to.clone(),
                    env.correlation_id,
                    env.body.clone(),
                    now_ms,
                );
                second.injected_error = env.injected_error;
                second.deliver_ms = env.deliver_ms.saturating_add(self.latency_ms);
                self.queue
                    .insert((second.deliver_ms, second.id), second.clone());
                self.queue.insert((env.deliver_ms, env.id), env);
                let mark = FaultMark::Duplicated { copy: second.id };
                copy = Some(second);
                mark
            }
        };
        Some((original, Struck { fault, mark, copy }))
    }

    /// Queues a message for delivery. TCP keeps a client connection in order, so a
    /// message there arrives no earlier than one sent before it in the same direction:
    /// it waits behind a delayed one (head-of-line blocking). Simplified: a connection
    /// the producer reopened after its request timeout still waits for what is left of
    /// the old one, so nothing sent later overtakes it.
    fn enqueue(&mut self, env: &mut Envelope) {
        if client_connection(&env.from, &env.to).is_some() {
            // Only a message due later can hold this one back (mostly: none).
            let later = (env.deliver_ms.saturating_add(1), 0)..;
            env.deliver_ms = self
                .queue
                .range(later)
                .map(|(_, e)| e)
                .filter(|e| e.from == env.from && e.to == env.to && e.id < env.id)
                .map(|e| e.deliver_ms)
                .fold(env.deliver_ms, i64::max);
        }
        self.queue.insert((env.deliver_ms, env.id), env.clone());
    }

    /// A message on a client connection now arrives later: the ones sent after it on
    /// that connection, in the same direction, wait for it.
    fn hold_back_behind(&mut self, env: &Envelope) {
        if client_connection(&env.from, &env.to).is_none() {
            return;
        }
        let behind: Vec<(i64, u64)> = self
            .queue
            .iter()
            .filter(|(_, e)| {
                e.from == env.from
                    && e.to == env.to
                    && e.id > env.id
                    && e.deliver_ms < env.deliver_ms
            })
            .map(|(k, _)| *k)
            .collect();
        for key in behind {
            if let Some(mut e) = self.queue.remove(&key) {
                e.deliver_ms = env.deliver_ms;
                self.queue.insert((e.deliver_ms, e.id), e);
            }
        }
    }

    fn requeue(&mut self, mut env: Envelope, now_ms: i64) {
        env.deliver_ms = now_ms.saturating_add(self.latency_ms);
        self.queue.insert((env.deliver_ms, env.id), env);
    }

    /// Ends the holds of an API: its held messages arrive one latency from now. Returns
    /// how many were released.
    pub fn release(&mut self, api: &str, now_ms: i64) -> usize {
        self.faults.retain(|f| !f.holds_api(api));
        let (go, stay): (Vec<Envelope>, Vec<Envelope>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|e| e.body.api_name() == api);
        self.held = stay;
        let n = go.len();
        for env in go {
            self.requeue(env, now_ms);
        }
        n
    }

    /// Lets one held message go (it arrives one latency from now, after the messages
    /// sent since it was held: a reorder); the hold stays armed. Returns whether it was
    /// held.
    pub fn release_id(&mut self, id: u64, now_ms: i64) -> bool {
        let Some(pos) = self.held.iter().position(|e| e.id == id) else {
            return false;
        };
        let env = self.held.remove(pos);
        self.requeue(env, now_ms);
        true
    }

    /// Heals the link between two nodes. Returns whether it was cut.
    pub fn heal(&mut self, a: &Node, b: &Node) -> bool {
        let before = self.faults.len();
        self.faults.retain(
            |f| !matches!(f, Fault::Cut { a: x, b: y } if (x == a && y == b) || (x == b && y == a)),
        );
        self.faults.len() != before
    }

    /// Disarms the oldest armed fault equal to `fault`. A hold's messages that no other
    /// armed hold keeps go on their way, one latency from now (as a release). Returns
    /// how many were released, or `None` when no such fault was armed.
    pub fn disarm(&mut self, fault: &Fault, now_ms: i64) -> Option<usize> {
        let pos = self.faults.iter().position(|f| f == fault)?;
        let gone = self.faults.remove(pos);
        if !matches!(gone, Fault::Hold { .. } | Fault::HoldRequests { .. }) {
            return Some(0);
        }
        let still_held = |e: &Envelope, faults: &[Fault]| {
            faults.iter().any(|f| {
                matches!(f, Fault::Hold { .. } | Fault::HoldRequests { .. }) && f.strikes(e)
            })
        };
        let (go, stay): (Vec<Envelope>, Vec<Envelope>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|e| gone.strikes(e) && !still_held(e, &self.faults));
        self.held = stay;
        let n = go.len();
        for env in go {
            self.requeue(env, now_ms);
        }
        Some(n)
    }

    /// Disarms every fault and releases every held message. Returns (faults disarmed,
    /// messages released).
    pub fn clear(&mut self, now_ms: i64) -> (usize, usize) {
        let faults = std::mem::take(&mut self.faults).len();
        let held = std::mem::take(&mut self.held);
        let n = held.len();
        for env in held {
            self.requeue(env, now_ms);
        }
        (faults, n)
    }

    /// A node stopped: messages to or from it die with its connections (held ones it
    /// sent too). Returns the lost messages that were on their way, in delivery order.
    pub fn disconnect(&mut self, node: &Node) -> Vec<Envelope> {
        let (lost, kept): (SortedMap<_, _>, SortedMap<_, _>) = std::mem::take(&mut self.queue)
            .into_iter()
            .partition(|(_, e)| &e.to == node || &e.from == node);
        self.queue = kept;
        self.held.retain(|e| &e.from != node);
        self.broken.retain(|(c, b)| match node {
            Node::Broker(id) => b != id,
            Node::Client(name) => c != name,
            Node::Controller(_) => true,
        });
        lost.into_values().collect()
    }

    /// Whether a held message is this sender's request with this correlation id.
    pub fn is_held(&self, from: &Node, correlation_id: u64) -> bool {
        self.held
            .iter()
            .any(|e| &e.from == from && e.correlation_id == correlation_id)
    }

    pub fn next_delivery_ms(&self) -> Option<i64> {
        self.queue.keys().next().map(|(t, _)| *t)
    }

    /// Takes the next message due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: i64) -> Option<Envelope> {
        let entry = self.queue.first_entry()?;
        (entry.key().0 <= now_ms).then(|| entry.remove())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resp() -> Body {
        Body::Response(Response::InitProducerId {
            error: Errors::None,
            producer_id: 0,
            producer_epoch: 0,
        })
    }

    #[test]
    fn drop_next_response_strikes_once() {
        let mut n = Network::new(2);
        n.arm(Fault::DropNextResponse {
            to: Some("p1".into()),
        });
        assert!(n
            .send(Node::Broker(1), Node::Client("p2".into()), 1, resp(), 0)
            .1
            .is_none());
        assert!(n
            .send(Node::Broker(1), Node::Client("p1".into()), 2, resp(), 0)
            .1
            .is_some());
        assert!(n
            .send(Node::Broker(1), Node::Client("p1".into()), 3, resp(), 0)
            .1
            .is_none());
        assert_eq!(n.next_delivery_ms(), Some(2));
        assert_eq!(n.pop_due(1), None);
        assert_eq!(n.pop_due(2).unwrap().correlation_id, 1);
    }
}
