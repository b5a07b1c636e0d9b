//! The Pulsar side's network: commands with delivery times, struck by the same
//! [`Fault`] vocabulary as the Kafka side (matched on Pulsar's command names).

use std::collections::BTreeMap;

use super::Command;
use crate::sim::{Direction, Fault, MessageMatch, Node};

/// One command on the wire, with the seed's step number it plays (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    pub id: u64,
    pub from: Node,
    pub to: Node,
    pub sent_ms: i64,
    pub deliver_ms: i64,
    pub body: Command,
    pub step: Option<&'static str>,
}

/// What a fault did to a command as it was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strike {
    Dropped,
    Delayed { ms: i64 },
    Duplicated,
    Held,
    Cut,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PulsarNetwork {
    next_id: u64,
    queue: BTreeMap<(i64, u64), Envelope>,
    held: Vec<Envelope>,
    faults: Vec<Fault>,
}

fn matches(m: &MessageMatch, env: &Envelope) -> bool {
    let response = env.body.is_response();
    m.api.as_deref().is_none_or(|a| a == env.body.api())
        && m.direction
            .is_none_or(|d| (d == Direction::Response) == response)
        && m.from.as_ref().is_none_or(|f| *f == env.from)
        && m.to.as_ref().is_none_or(|t| *t == env.to)
}

impl PulsarNetwork {
    /// Arms a fault; the kinds that make no sense here (an injected Kafka error, a
    /// message by id) are refused.
    pub fn arm(&mut self, fault: Fault) -> Result<(), super::PulsarStepError> {
        match fault {
            Fault::Error { .. } | Fault::Message { .. } => {
                Err(super::PulsarStepError::FaultNotAvailable)
            }
            f => {
                self.faults.push(f);
                Ok(())
            }
        }
    }
    pub fn faults(&self) -> &[Fault] {
        &self.faults
    }
    pub fn held(&self) -> &[Envelope] {
        &self.held
    }
    pub fn in_flight(&self) -> impl Iterator<Item = &Envelope> {
        self.queue.values()
    }
    pub fn is_idle(&self) -> bool {
        self.queue.is_empty()
    }

    /// Releases held commands of one API (all holds on it are cleared).
    pub fn release(&mut self, api: &str, now: i64) -> usize {
        self.faults.retain(|f| match f {
            Fault::Hold { matching } => matching.api.as_deref() != Some(api),
            Fault::HoldRequests { api: a } => a != api,
            _ => true,
        });
        let (go, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|e| e.body.api() == api);
        self.held = keep;
        let n = go.len();
        for mut e in go {
            e.deliver_ms = now;
            self.queue.insert((e.deliver_ms, e.id), e);
        }
        n
    }

    /// Heals every cut link and clears the armed faults.
    pub fn heal(&mut self) {
        self.faults
            .retain(|f| matches!(f, Fault::Hold { .. } | Fault::HoldRequests { .. }));
    }

    /// Puts a command on the wire; returns its id and what a fault did to it.
    pub fn send(
        &mut self,
        from: Node,
        to: Node,
        body: Command,
        step: Option<&'static str>,
        now: i64,
        latency_ms: i64,
    ) -> (u64, Option<Strike>) {
        self.next_id += 1;
        let mut env = Envelope {
            id: self.next_id,
            from,
            to,
            sent_ms: now,
            deliver_ms: now.saturating_add(latency_ms),
            body,
            step,
        };
        let strike = self.strike(&mut env);
        match strike {
            Some(Strike::Dropped | Strike::Cut) => {}
            Some(Strike::Held) => self.held.push(env.clone()),
            Some(Strike::Duplicated) => {
                self.next_id += 1;
                let mut copy = env.clone();
                copy.id = self.next_id;
                copy.deliver_ms = copy.deliver_ms.saturating_add(latency_ms);
                self.queue.insert((copy.deliver_ms, copy.id), copy);
                self.queue.insert((env.deliver_ms, env.id), env.clone());
            }
            _ => {
                self.queue.insert((env.deliver_ms, env.id), env.clone());
            }
        }
        (env.id, strike)
    }

    fn strike(&mut self, env: &mut Envelope) -> Option<Strike> {
        let response = env.body.is_response();
        let mut used = None;
        let mut out = None;
        for (i, f) in self.faults.iter().enumerate() {
            let (hit, once, s) = match f {
                Fault::DropNextRequest { from } => (
                    !response
                        && from
                            .as_ref()
                            .is_none_or(|c| env.from == Node::Client(c.clone())),
                    true,
                    Strike::Dropped,
                ),
                Fault::DropNextResponse { to } => (
                    response
                        && to
                            .as_ref()
                            .is_none_or(|c| env.to == Node::Client(c.clone())),
                    true,
                    Strike::Dropped,
                ),
                Fault::HoldRequests { api } => {
                    (!response && env.body.api() == api, false, Strike::Held)
                }
                Fault::Drop { matching, every } => {
                    (matches(matching, env), !every, Strike::Dropped)
                }
                Fault::Delay {
                    matching,
                    ms,
                    every,
                } => (matches(matching, env), !every, Strike::Delayed { ms: *ms }),
                Fault::Duplicate { matching, every } => {
                    (matches(matching, env), !every, Strike::Duplicated)
                }
                Fault::Hold { matching } => (matches(matching, env), false, Strike::Held),
                Fault::Cut { a, b } => (
                    (env.from == *a && env.to == *b) || (env.from == *b && env.to == *a),
                    false,
                    Strike::Cut,
                ),
                Fault::Error { .. } | Fault::Message { .. } => (false, false, Strike::Dropped),
            };
            if hit {
                if once {
                    used = Some(i);
                }
                out = Some(s);
                break;
            }
        }
        if let Some(i) = used {
            self.faults.remove(i);
        }
        if let Some(Strike::Delayed { ms }) = out {
            env.deliver_ms = env.deliver_ms.saturating_add(ms);
        }
        out
    }

    /// Puts a command back on the wire, due at `at` (it waits for its topic).
    pub fn requeue(&mut self, mut env: Envelope, at: i64) {
        env.deliver_ms = at;
        self.queue.insert((env.deliver_ms, env.id), env);
    }

    /// The next command due at or before `now`.
    pub fn pop_due(&mut self, now: i64) -> Option<Envelope> {
        let key = *self.queue.keys().next()?;
        if key.0 > now {
            return None;
        }
        self.queue.remove(&key)
    }
    /// When the next command is due.
    pub fn next_due(&self) -> Option<i64> {
        self.queue.keys().next().map(|k| k.0)
    }
    /// Loses every command to or from `node` (a crashed process drops its connections).
    pub fn drop_node(&mut self, node: &Node) -> usize {
        let before = self.queue.len();
        self.queue.retain(|_, e| e.to != *node && e.from != *node);
        before - self.queue.len()
    }
}

impl PulsarNetwork {
    /// Loses every command (on the wire or held) whose body matches.
    pub fn drop_where(&mut self, f: impl Fn(&Command) -> bool) -> usize {
        let before = self.queue.len() + self.held.len();
        self.queue.retain(|_, e| !f(&e.body));
        self.held.retain(|e| !f(&e.body));
        before - self.queue.len() - self.held.len()
    }
}
