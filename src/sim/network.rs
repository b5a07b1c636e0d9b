//! The simulated network: every request and response is a message with a delivery
//! time, and the learner can make the next one vanish (raft-rs harness style).

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

/// A fault the learner armed: it strikes the next matching message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// Lose the next request (optionally only one sent by this client).
    DropNextRequest { from: Option<String> },
    /// Lose the next response (optionally only one going to this client): "drop the ack".
    DropNextResponse { to: Option<String> },
}

impl Fault {
    fn strikes(&self, env: &Envelope) -> bool {
        // No name: any client. A client's name, or `broker-N` for inter-broker traffic.
        let named = |n: &Node, want: &Option<String>| match (n, want) {
            (Node::Client(_), None) => true,
            (Node::Client(c), Some(w)) => c == w,
            (Node::Broker(id), Some(w)) => *w == format!("broker-{id}"),
            _ => false,
        };
        match self {
            Fault::DropNextRequest { from } => !env.body.is_response() && named(&env.from, from),
            Fault::DropNextResponse { to } => env.body.is_response() && named(&env.to, to),
        }
    }
}

/// Messages in flight, ordered by delivery time then id, so replays are exact.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    pub latency_ms: i64,
    pub queue: Vec<Envelope>,
    pub faults: Vec<Fault>,
    /// While set, WriteTxnMarkers requests wait in `held` instead of being delivered.
    pub hold_markers: bool,
    pub held: Vec<Envelope>,
    next_id: u64,
}

impl Network {
    pub fn new(latency_ms: i64) -> Self {
        Network {
            latency_ms,
            queue: Vec::new(),
            faults: Vec::new(),
            hold_markers: false,
            held: Vec::new(),
            next_id: 1,
        }
    }

    /// The ids of the WriteTxnMarkers requests held (Hold markers), oldest first.
    pub fn held_ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.held.iter().map(|e| e.id)
    }

    /// How many messages were put on the wire so far (each has its `MessageSent` event).
    pub fn messages_sent(&self) -> u64 {
        self.next_id - 1
    }

    /// Puts a message on the wire, unless an armed fault eats it: then the fault is
    /// returned with the message, which never arrives.
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
        if let Some(i) = self.faults.iter().position(|f| f.strikes(&env)) {
            let fault = self.faults.remove(i);
            return (env, Some(fault));
        }
        if self.hold_markers && matches!(env.body, Body::Request(Request::WriteTxnMarkers { .. })) {
            self.held.push(env.clone());
            return (env, None);
        }
        self.queue.push(env.clone());
        (env, None)
    }

    /// Lets held marker requests go: they arrive one latency from now.
    pub fn release_held(&mut self, now_ms: i64) -> usize {
        self.hold_markers = false;
        let n = self.held.len();
        for mut env in std::mem::take(&mut self.held) {
            env.deliver_ms = now_ms.saturating_add(self.latency_ms);
            self.queue.push(env);
        }
        n
    }

    pub fn next_delivery_ms(&self) -> Option<i64> {
        self.queue.iter().map(|e| e.deliver_ms).min()
    }

    /// Takes the next message due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: i64) -> Option<Envelope> {
        let i = self
            .queue
            .iter()
            .enumerate()
            .filter(|(_, e)| e.deliver_ms <= now_ms)
            .min_by_key(|(_, e)| (e.deliver_ms, e.id))
            .map(|(i, _)| i)?;
        Some(self.queue.remove(i))
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
        n.faults.push(Fault::DropNextResponse {
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
