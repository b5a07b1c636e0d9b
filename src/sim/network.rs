//! The simulated network: every request and response is a message with a delivery
//! time, and faults the learner arms can drop or hold them (raft-rs harness style).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::protocol::{Request, Response};

/// Who sends and receives messages.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Node {
    /// A producer or the raw "bare socket" client, by name.
    Client(String),
    Broker(i32),
    /// The KRaft controller that hands out producer-id blocks.
    Controller,
}

impl std::fmt::Display for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Node::Client(name) => write!(f, "{name}"),
            Node::Broker(id) => write!(f, "broker {id}"),
            Node::Controller => write!(f, "controller"),
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
}

/// A fault the learner armed. One vocabulary for every fault the network knows (raft-rs
/// harness / Jepsen style); later faults (delay, duplicate, reorder, cut and heal) join
/// it as variants. Each is armed by an action, so it is recorded, replayed and shared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// Lose the next request (optionally only one sent by this client).
    DropNextRequest { from: Option<String> },
    /// Lose the next response (optionally only one going to this client): "drop the ack".
    DropNextResponse { to: Option<String> },
    /// Keep every request of this API (e.g. `WriteTxnMarkers`) in the network until it
    /// is released: it stays armed until then.
    HoldRequests { api: String },
}

/// What an armed fault does to a message put on the wire.
enum Strike {
    Drop,
    Hold,
}

impl Fault {
    fn strikes(&self, env: &Envelope) -> Option<Strike> {
        // No name: any client. A client's name, or `broker-N` for inter-broker traffic.
        let named = |n: &Node, want: &Option<String>| match (n, want) {
            (Node::Client(_), None) => true,
            (Node::Client(c), Some(w)) => c == w,
            (Node::Broker(id), Some(w)) => *w == format!("broker-{id}"),
            _ => false,
        };
        let request = !env.body.is_response();
        match self {
            Fault::DropNextRequest { from } => {
                (request && named(&env.from, from)).then_some(Strike::Drop)
            }
            Fault::DropNextResponse { to } => {
                (!request && named(&env.to, to)).then_some(Strike::Drop)
            }
            Fault::HoldRequests { api } => {
                (request && env.body.api_name() == api).then_some(Strike::Hold)
            }
        }
    }

    /// Whether it is used up by the message it strikes (a hold stays until released).
    fn is_one_shot(&self) -> bool {
        !matches!(self, Fault::HoldRequests { .. })
    }
}

/// Messages in flight, ordered by delivery time then id, so replays are exact; the armed
/// faults; and the messages a fault holds. Changed only through its methods.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    latency_ms: i64,
    /// Keyed by (delivery time, id): the next message is the first entry.
    queue: BTreeMap<(i64, u64), Envelope>,
    faults: Vec<Fault>,
    held: Vec<Envelope>,
    next_id: u64,
}

impl Network {
    pub fn new(latency_ms: i64) -> Self {
        Network {
            latency_ms,
            queue: BTreeMap::new(),
            faults: Vec::new(),
            held: Vec::new(),
            next_id: 1,
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
        self.faults
            .iter()
            .any(|f| matches!(f, Fault::HoldRequests { api: a } if a == api))
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

    /// Arms a fault (a hold of an API already held is not armed twice).
    pub fn arm(&mut self, fault: Fault) {
        if let Fault::HoldRequests { api } = &fault {
            if self.holds(api) {
                return;
            }
        }
        self.faults.push(fault);
    }

    /// Puts a message on the wire, unless an armed fault strikes it: a drop returns the
    /// fault with the message, which never arrives; a hold keeps it until released.
    pub fn send(
        &mut self,
        from: Node,
        to: Node,
        correlation_id: u64,
        body: Body,
        now_ms: i64,
    ) -> (Envelope, Option<Fault>) {
        let env = Envelope {
            id: self.next_id,
            correlation_id,
            from,
            to,
            sent_ms: now_ms,
            deliver_ms: now_ms.saturating_add(self.latency_ms),
            body,
        };
        self.next_id += 1;
        let strike = self
            .faults
            .iter()
            .enumerate()
            .find_map(|(i, f)| f.strikes(&env).map(|s| (i, s)));
        match strike {
            Some((i, Strike::Drop)) => {
                let fault = if self.faults[i].is_one_shot() {
                    self.faults.remove(i)
                } else {
                    self.faults[i].clone()
                };
                (env, Some(fault))
            }
            Some((_, Strike::Hold)) => {
                self.held.push(env.clone());
                (env, None)
            }
            None => {
                self.queue.insert((env.deliver_ms, env.id), env.clone());
                (env, None)
            }
        }
    }

    /// Ends the hold of an API: its held requests arrive one latency from now. Returns
    /// how many were released.
    pub fn release(&mut self, api: &str, now_ms: i64) -> usize {
        self.faults
            .retain(|f| !matches!(f, Fault::HoldRequests { api: a } if a == api));
        let (go, stay): (Vec<Envelope>, Vec<Envelope>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|e| e.body.api_name() == api);
        self.held = stay;
        let n = go.len();
        for mut env in go {
            env.deliver_ms = now_ms.saturating_add(self.latency_ms);
            self.queue.insert((env.deliver_ms, env.id), env);
        }
        n
    }

    /// A node stopped: messages to or from it die with its connections (held ones it
    /// sent too). Returns the lost messages that were on their way, in delivery order.
    pub fn disconnect(&mut self, node: &Node) -> Vec<Envelope> {
        let (lost, kept): (BTreeMap<_, _>, BTreeMap<_, _>) = std::mem::take(&mut self.queue)
            .into_iter()
            .partition(|(_, e)| &e.to == node || &e.from == node);
        self.queue = kept;
        self.held.retain(|e| &e.from != node);
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
    use crate::protocol::errors::Errors;

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
