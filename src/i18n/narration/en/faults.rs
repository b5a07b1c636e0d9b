//! English narration of the network's faults: what was armed, and what it did to which
//! message.

use crate::protocol::errors::Errors;
use crate::sim::event::FaultChange;
use crate::sim::network::{Direction, FaultMark, MessageMatch, MessageStrike};
use crate::sim::{Fault, Node};

/// "Produce requests from p to broker 1", "every message", …
fn matching(m: &MessageMatch) -> String {
    let what = match (&m.api, m.direction) {
        (Some(api), Some(Direction::Request)) => format!("{api} request"),
        (Some(api), Some(Direction::Response)) => format!("{api} response"),
        (Some(api), None) => format!("{api} message"),
        (None, Some(Direction::Request)) => "request".to_string(),
        (None, Some(Direction::Response)) => "response".to_string(),
        (None, None) => "message".to_string(),
    };
    let mut out = what;
    if let Some(f) = &m.from {
        out.push_str(&format!(" from {f}"));
    }
    if let Some(t) = &m.to {
        out.push_str(&format!(" to {t}"));
    }
    out
}

/// "the next X" or "every X", and the tail that says how long an `every` fault lasts.
fn which(m: &MessageMatch, every: bool) -> (String, &'static str) {
    if every {
        (format!("every {}", matching(m)), ", until cleared")
    } else {
        (format!("the next {}", matching(m)), "")
    }
}

pub(in crate::i18n::narration) fn fault(fault: &Fault) -> String {
    match fault {
        Fault::DropNextRequest { from } => match from {
            Some(f) => format!("drop the next request from {f}"),
            None => "drop the next request".to_string(),
        },
        Fault::DropNextResponse { to } => match to {
            Some(t) => format!("drop the next response to {t}"),
            None => "drop the next response".to_string(),
        },
        Fault::HoldRequests { api } if api == "WriteTxnMarkers" => {
            "hold WriteTxnMarkers requests in the network (transactions stay in Prepare*)"
                .to_string()
        }
        Fault::HoldRequests { api } => format!("hold {api} requests in the network"),
        Fault::Drop { matching: m, every } => {
            let (w, tail) = which(m, *every);
            format!("drop {w}{tail}")
        }
        Fault::Delay {
            matching: m,
            ms,
            every,
        } => {
            let (w, tail) = which(m, *every);
            format!("delay {w} by {ms} ms{tail}")
        }
        Fault::Duplicate { matching: m, every } => {
            let (w, tail) = which(m, *every);
            format!("deliver {w} twice{tail}")
        }
        Fault::Hold { matching: m } => {
            format!("hold every {} in the network until released", matching(m))
        }
        Fault::Cut { a, b } => format!(
            "cut the link between {a} and {b}: what either sends the other is lost until healed"
        ),
        Fault::Error { api, error } => format!(
            "answer the next {api} request with {} without its receiver handling it",
            error.name()
        ),
        Fault::Message { id, strike } => match strike {
            MessageStrike::Drop => format!("drop message #{id}"),
            MessageStrike::Delay { ms } => format!("delay message #{id} by {ms} ms"),
            MessageStrike::Duplicate => format!("deliver message #{id} twice"),
            MessageStrike::Hold => format!("hold message #{id} until released"),
        },
    }
}

pub(super) fn change(change: &FaultChange) -> String {
    match change {
        FaultChange::Armed(f) => fault(f),
        FaultChange::Released { api, released } => {
            format!("released {released} held {api} message(s)")
        }
        FaultChange::ReleasedMessage { id, released: true } => format!(
            "released held message #{id}: it arrives after the messages sent since it was held"
        ),
        FaultChange::ReleasedMessage {
            id,
            released: false,
        } => format!("message #{id} is not held; nothing to release"),
        FaultChange::Healed {
            a,
            b,
            was_cut: true,
        } => format!("healed the link between {a} and {b}"),
        FaultChange::Healed {
            a,
            b,
            was_cut: false,
        } => format!("the link between {a} and {b} was not cut"),
        FaultChange::NotOnTheWire { id } => format!(
            "message #{id} is not on the wire (already delivered, lost, or never sent); nothing happened"
        ),
        FaultChange::Disarmed {
            fault: f,
            was_armed: true,
            released,
        } => {
            let tail = if *released > 0 {
                format!("; {released} held message(s) go on their way")
            } else {
                String::new()
            };
            format!("disarmed: {}{tail}", fault(f))
        }
        FaultChange::Disarmed {
            fault: f,
            was_armed: false,
            ..
        } => format!("not armed, nothing to disarm: {}", fault(f)),
        FaultChange::Cleared { faults, released } => {
            format!("cleared {faults} fault(s) and released {released} held message(s)")
        }
    }
}

/// A fault struck message `id` as it was sent.
pub(super) fn struck(
    id: u64,
    from: &Node,
    to: &Node,
    api: &str,
    response: bool,
    mark: &FaultMark,
) -> String {
    let msg = format!(
        "the {api} {} #{id} from {from} to {to}",
        if response { "response" } else { "request" }
    );
    match mark {
        FaultMark::Dropped => format!(
            "The network lost {msg}: {}",
            if response {
                "the receiver of the request did the work, but the sender will never hear about it"
            } else {
                "its receiver never sees it; the sender times out and retries"
            }
        ),
        FaultMark::Cut => format!("The link is cut: {msg} is lost"),
        FaultMark::Delayed { ms } => format!("The network delays {msg} by {ms} ms"),
        FaultMark::Duplicated { copy } => format!(
            "The network duplicates {msg}: a second copy (#{copy}) arrives one latency later"
        ),
        FaultMark::Held => {
            format!("The network holds {msg} until it is released")
        }
        FaultMark::ErrorInjected { error } => format!(
            "The network will answer {msg} with {} itself: {to} will not handle it",
            error.name()
        ),
    }
}

pub(super) fn injected(id: u64, from: &Node, to: &Node, api: &str, error: Errors) -> String {
    format!(
        "{to} does not handle the {api} request #{id}: the fault answers {from} with {} ({})",
        error.name(),
        if error.is_retriable() {
            "a retriable error: the client tries again"
        } else {
            "not retriable: the client gives up or fails the call"
        }
    )
}
