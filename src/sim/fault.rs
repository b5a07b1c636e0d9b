//! The fault vocabulary: what the learner can arm against messages in flight (drop,
//! delay, duplicate, hold, cut, answer with an error), which messages a fault matches,
//! and the mark a strike leaves on the request timeline. The network applies them.

use serde::{Deserialize, Serialize};

use super::error::{SimError, SimErrorKind};
use super::event::{EventKind, FaultChange};
use super::network::{Envelope, Node};
use super::world::{World, WRITE_TXN_MARKERS};
use super::Action;
use crate::protocol::errors::Errors;

/// Requests, responses, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Direction {
    Request,
    Response,
}

/// Which messages a fault strikes: every field left `None` matches anything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageMatch {
    /// Kafka's API name (`Produce`, `EndTxn`, `WriteTxnMarkers`, …).
    pub api: Option<String>,
    pub direction: Option<Direction>,
    pub from: Option<Node>,
    pub to: Option<Node>,
}

impl MessageMatch {
    pub fn matches(&self, env: &Envelope) -> bool {
        self.api.as_deref().is_none_or(|a| a == env.body.api_name())
            && self
                .direction
                .is_none_or(|d| (d == Direction::Response) == env.body.is_response())
            && self.from.as_ref().is_none_or(|n| *n == env.from)
            && self.to.as_ref().is_none_or(|n| *n == env.to)
    }
}

/// A fault the learner armed. One vocabulary for every fault the network knows (raft-rs
/// harness / Jepsen style), on every message between any two nodes (client↔broker,
/// broker↔broker, broker↔controller). Each is armed by an action, so it is recorded,
/// replayed and shared. Reordering is a hold and a later release (of the API, or of one
/// message by id): the held message arrives after the ones sent since.
///
/// When several armed faults match a message, the oldest one strikes; a one-shot fault
/// is spent by the message it strikes, the others stay armed until released, healed or
/// cleared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// Lose the next request (optionally only one sent by this client).
    DropNextRequest { from: Option<String> },
    /// Lose the next response (optionally only one going to this client): "drop the ack".
    DropNextResponse { to: Option<String> },
    /// Keep every request of this API (e.g. `WriteTxnMarkers`) in the network until it
    /// is released: it stays armed until then.
    HoldRequests { api: String },
    /// Lose the next matching message, or (`every`) every one until cleared.
    Drop { matching: MessageMatch, every: bool },
    /// Deliver the next matching message (or every one) `ms` later than its latency.
    Delay {
        matching: MessageMatch,
        ms: i64,
        every: bool,
    },
    /// The next matching message (or every one) arrives twice: the copy one latency
    /// after the original.
    Duplicate { matching: MessageMatch, every: bool },
    /// Keep every matching message in the network until released (by API or by id).
    Hold { matching: MessageMatch },
    /// The link between two nodes is cut, both ways, until healed: what is sent over it
    /// is lost.
    Cut { a: Node, b: Node },
    /// The next request of this API is answered with this error by the network in front
    /// of its receiver, which never handles it.
    Error { api: String, error: Errors },
    /// One message already on the wire, by id, struck on the spot (what a click on a
    /// message in flight on the timeline does). Never stays armed.
    Message { id: u64, strike: MessageStrike },
}

/// What `Fault::Message` does to the message it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MessageStrike {
    /// Lose it (on the wire or held).
    Drop,
    /// Deliver it this much later.
    Delay { ms: i64 },
    /// A second copy arrives one latency after it.
    Duplicate,
    /// Keep it in the network until released (`fault release id=N`).
    Hold,
}

/// What a fault did to a message: the mark the timeline shows where it struck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FaultMark {
    Dropped,
    Delayed {
        ms: i64,
    },
    /// The copy travels as message `copy`.
    Duplicated {
        copy: u64,
    },
    Held,
    /// Lost on a cut link.
    Cut,
    ErrorInjected {
        error: Errors,
    },
}

/// A fault striking a message as it is sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Struck {
    pub fault: Fault,
    pub mark: FaultMark,
    /// The second copy of a duplicated message.
    pub copy: Option<Envelope>,
}

impl Struck {
    /// Whether the message never arrives.
    pub fn lost(&self) -> bool {
        matches!(self.mark, FaultMark::Dropped | FaultMark::Cut)
    }
}

impl Fault {
    pub(super) fn strikes(&self, env: &Envelope) -> bool {
        // No name: any client. A client's name, or `broker-N` for inter-broker traffic.
        let named = |n: &Node, want: &Option<String>| match (n, want) {
            (Node::Client(_), None) => true,
            (Node::Client(c), Some(w)) => c == w,
            (Node::Broker(id), Some(w)) => *w == format!("broker-{id}"),
            _ => false,
        };
        let request = !env.body.is_response();
        match self {
            Fault::DropNextRequest { from } => request && named(&env.from, from),
            Fault::DropNextResponse { to } => !request && named(&env.to, to),
            Fault::HoldRequests { api } => request && env.body.api_name() == api,
            Fault::Drop { matching, .. }
            | Fault::Delay { matching, .. }
            | Fault::Duplicate { matching, .. }
            | Fault::Hold { matching } => matching.matches(env),
            Fault::Cut { a, b } => {
                (env.from == *a && env.to == *b) || (env.from == *b && env.to == *a)
            }
            Fault::Error { api, .. } => {
                request && env.body.api_name() == api && !matches!(env.to, Node::Client(_))
            }
            Fault::Message { .. } => false,
        }
    }

    /// Whether it is used up by the message it strikes (holds, cuts and `every` faults
    /// stay until released, healed or cleared).
    pub fn is_one_shot(&self) -> bool {
        match self {
            Fault::DropNextRequest { .. }
            | Fault::DropNextResponse { .. }
            | Fault::Error { .. }
            | Fault::Message { .. } => true,
            Fault::HoldRequests { .. } | Fault::Hold { .. } | Fault::Cut { .. } => false,
            Fault::Drop { every, .. }
            | Fault::Delay { every, .. }
            | Fault::Duplicate { every, .. } => !every,
        }
    }

    /// One of the faults the network knew first (drop next request/response, hold
    /// requests of an API): they strike with a `MessageDropped` event only, as before.
    pub fn is_legacy(&self) -> bool {
        matches!(
            self,
            Fault::DropNextRequest { .. }
                | Fault::DropNextResponse { .. }
                | Fault::HoldRequests { .. }
        )
    }

    /// Whether this fault holds messages of this API (releasing the API ends it).
    pub(super) fn holds_api(&self, api: &str) -> bool {
        match self {
            Fault::HoldRequests { api: a } => a == api,
            Fault::Hold { matching } => matching.api.as_deref() == Some(api),
            _ => false,
        }
    }
}

impl World {
    /// The fault actions, armed on the world's network; `World::apply` sends only
    /// these here.
    pub(super) fn apply_fault(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::HoldMarkers => Ok(self.hold_requests(WRITE_TXN_MARKERS)),
            Action::ReleaseMarkers => Ok(self.release_requests(WRITE_TXN_MARKERS)),
            Action::HoldRequests { api } => Ok(self.hold_requests(api)),
            Action::ReleaseRequests { api } => Ok(self.release_requests(api)),
            Action::DropNextRequest { from } => {
                let fault = Fault::DropNextRequest { from: from.clone() };
                let _ = self.network.arm(fault.clone());
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Armed(fault),
                });
                Ok(vec![])
            }
            Action::DropNextResponse { to } => {
                let fault = Fault::DropNextResponse { to: to.clone() };
                let _ = self.network.arm(fault.clone());
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Armed(fault),
                });
                Ok(vec![])
            }
            Action::ArmFault { fault } => {
                // A link to a broker the cluster does not have would be cut in silence.
                if let Fault::Cut { a, b } = fault {
                    for n in [a, b] {
                        if let Node::Broker(id) = n {
                            if !self.brokers.contains_key(id) {
                                return Err(SimErrorKind::NoBroker { id: *id }.into());
                            }
                        }
                    }
                }
                // The quorum catches up to now before a link it uses may be cut.
                self.poll_quorum();
                self.arm_fault(fault.clone());
                self.poll_quorum();
                self.sync_controller_links();
                Ok(vec![])
            }
            Action::ReleaseHeld { api } => {
                let released = self.network.release(api, self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Released {
                        api: api.clone(),
                        released,
                    },
                });
                Ok(vec![])
            }
            Action::ReleaseMessage { id } => {
                let released = self.network.release_id(*id, self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::ReleasedMessage { id: *id, released },
                });
                Ok(vec![])
            }
            Action::HealLink { a, b } => {
                let was_cut = self.network.heal(a, b);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Healed {
                        a: a.clone(),
                        b: b.clone(),
                        was_cut,
                    },
                });
                self.poll_quorum();
                self.sync_controller_links();
                Ok(vec![])
            }
            Action::DisarmFault { fault } => {
                let released = self.network.disarm(fault, self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Disarmed {
                        fault: fault.clone(),
                        was_armed: released.is_some(),
                        released: released.unwrap_or(0),
                    },
                });
                Ok(vec![])
            }
            Action::ClearFaults => {
                let (faults, released) = self.network.clear(self.clock_ms);
                self.emit(EventKind::FaultArmed {
                    fault: FaultChange::Cleared { faults, released },
                });
                self.poll_quorum();
                self.sync_controller_links();
                Ok(vec![])
            }
            _ => Ok(vec![]),
        }
    }
}
