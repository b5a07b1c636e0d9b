//! The network's faults — what was armed, and what it did to which message — as
//! catalog messages (`fault.*`).

use crate::i18n::message::Msg;
use crate::msg;
use crate::protocol::errors::Errors;
use crate::sim::event::FaultChange;
use crate::sim::network::{Direction, FaultMark, MessageMatch, MessageStrike};
use crate::sim::{Fault, Node};

/// "Produce requests from p to broker 1", "every message", …
fn matching(m: &MessageMatch) -> Msg {
    let what = match (&m.api, m.direction) {
        (Some(api), Some(Direction::Request)) => msg!("fault.match.api-request", api = api),
        (Some(api), Some(Direction::Response)) => msg!("fault.match.api-response", api = api),
        (Some(api), None) => msg!("fault.match.api-message", api = api),
        (None, Some(Direction::Request)) => Msg::new("fault.match.request"),
        (None, Some(Direction::Response)) => Msg::new("fault.match.response"),
        (None, None) => Msg::new("fault.match.message"),
    };
    let from = match &m.from {
        Some(f) => msg!("fault.match.from", from = f),
        None => Msg::new("empty"),
    };
    let to = match &m.to {
        Some(t) => msg!("fault.match.to", to = t),
        None => Msg::new("empty"),
    };
    msg!("fault.match", what = what, from = from, to = to)
}

/// "the next X" or "every X", and the tail that says how long an `every` fault lasts.
fn which(m: &MessageMatch, every: bool) -> (Msg, Msg) {
    if every {
        (
            msg!("fault.every", what = matching(m)),
            Msg::new("fault.until-cleared"),
        )
    } else {
        (msg!("fault.next", what = matching(m)), Msg::new("empty"))
    }
}

pub(in crate::i18n::narration) fn fault(fault: &Fault) -> Msg {
    match fault {
        Fault::DropNextRequest { from } => match from {
            Some(f) => msg!("fault.drop-next-request-from", from = f),
            None => Msg::new("fault.drop-next-request"),
        },
        Fault::DropNextResponse { to } => match to {
            Some(t) => msg!("fault.drop-next-response-to", to = t),
            None => Msg::new("fault.drop-next-response"),
        },
        Fault::HoldRequests { api } if api == "WriteTxnMarkers" => Msg::new("fault.hold-markers"),
        Fault::HoldRequests { api } => msg!("fault.hold-requests", api = api),
        Fault::Drop { matching: m, every } => {
            let (which, tail) = which(m, *every);
            msg!("fault.drop", which = which, tail = tail)
        }
        Fault::Delay {
            matching: m,
            ms,
            every,
        } => {
            let (which, tail) = which(m, *every);
            msg!("fault.delay", which = which, ms = ms, tail = tail)
        }
        Fault::Duplicate { matching: m, every } => {
            let (which, tail) = which(m, *every);
            msg!("fault.duplicate", which = which, tail = tail)
        }
        Fault::Hold { matching: m } => msg!("fault.hold", what = matching(m)),
        Fault::Cut { a, b } => msg!("fault.cut", a = a, b = b),
        Fault::Error { api, error } => msg!("fault.error", api = api, error = error.name()),
        Fault::Message { id, strike } => match strike {
            MessageStrike::Drop => msg!("fault.message.drop", id = id),
            MessageStrike::Delay { ms } => msg!("fault.message.delay", id = id, ms = ms),
            MessageStrike::Duplicate => msg!("fault.message.duplicate", id = id),
            MessageStrike::Hold => msg!("fault.message.hold", id = id),
        },
    }
}

pub(super) fn change(change: &FaultChange) -> Msg {
    match change {
        FaultChange::Armed(f) => fault(f),
        FaultChange::Released { api, released } => {
            msg!("fault.released", released = released, api = api)
        }
        FaultChange::ReleasedMessage { id, released: true } => {
            msg!("fault.released-message", id = id)
        }
        FaultChange::ReleasedMessage {
            id,
            released: false,
        } => msg!("fault.not-held", id = id),
        FaultChange::Healed {
            a,
            b,
            was_cut: true,
        } => msg!("fault.healed", a = a, b = b),
        FaultChange::Healed {
            a,
            b,
            was_cut: false,
        } => msg!("fault.not-cut", a = a, b = b),
        FaultChange::NotOnTheWire { id } => msg!("fault.not-on-the-wire", id = id),
        FaultChange::Disarmed {
            fault: f,
            was_armed: true,
            released,
        } => msg!("fault.disarmed", fault = fault(f), released = released),
        FaultChange::Disarmed {
            fault: f,
            was_armed: false,
            ..
        } => msg!("fault.not-armed", fault = fault(f)),
        FaultChange::Cleared { faults, released } => {
            msg!("fault.cleared", faults = faults, released = released)
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
) -> Msg {
    let message = msg!(
        "fault.struck.message",
        api = api,
        response = response,
        id = id,
        from = from,
        to = to
    );
    match mark {
        FaultMark::Dropped => msg!(
            "fault.struck.dropped",
            message = message,
            response = response
        ),
        FaultMark::Cut => msg!("fault.struck.cut", message = message),
        FaultMark::Delayed { ms } => msg!("fault.struck.delayed", message = message, ms = ms),
        FaultMark::Duplicated { copy } => {
            msg!("fault.struck.duplicated", message = message, copy = copy)
        }
        FaultMark::Held => msg!("fault.struck.held", message = message),
        FaultMark::ErrorInjected { error } => {
            msg!(
                "fault.struck.error",
                message = message,
                error = error.name(),
                to = to
            )
        }
    }
}

pub(super) fn injected(id: u64, from: &Node, to: &Node, api: &str, error: Errors) -> Msg {
    msg!(
        "fault.injected",
        to = to,
        api = api,
        id = id,
        from = from,
        error = error.name(),
        retriable = error.is_retriable()
    )
}
