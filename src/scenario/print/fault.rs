//! Printing the fault steps: `fault …`, `hold|release …` and `drop next-…`
//! (`World::apply_fault`).

use super::quote;
use crate::sim::{Action, Direction, Fault, MessageMatch, MessageStrike, Node};

/// `fault …`, `hold|release …` and `drop next-…`.
pub(super) fn print_fault_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::DropNextRequest { from } => drop_next("request", "from", from),
        Action::DropNextResponse { to } => drop_next("response", "to", to),
        Action::HoldMarkers => "hold markers".into(),
        Action::ReleaseMarkers => "release markers".into(),
        Action::HoldRequests { api } => format!("hold requests {api}"),
        Action::ReleaseRequests { api } => format!("release requests {api}"),
        Action::ArmFault { fault } => print_fault(fault),
        Action::ReleaseHeld { api } => format!("fault release api={}", quote(api)),
        Action::ReleaseMessage { id } => format!("fault release id={id}"),
        Action::HealLink { a, b } => format!("fault heal {} {}", node(a), node(b)),
        Action::DisarmFault { fault } => {
            format!("fault disarm {}", &print_fault(fault)["fault ".len()..])
        }
        Action::ClearFaults => "fault clear".into(),
        _ => return super::other_family("fault", action),
    })
}

/// `drop next-request [from=CLIENT]` or `drop next-response [to=CLIENT]`: the step and,
/// after `fault `, the armed fault.
fn drop_next(what: &str, key: &str, client: &Option<String>) -> String {
    let client = client
        .as_ref()
        .map(|c| format!(" {key}={}", quote(c)))
        .unwrap_or_default();
    format!("drop next-{what}{client}")
}

/// A node as a fault step names it (what `parse_node` reads back).
pub fn node(n: &Node) -> String {
    match n {
        Node::Broker(id) => format!("broker-{id}"),
        Node::Controller(_) => n.to_string(),
        Node::Client(name) => {
            if crate::scenario::parse::parse_node(name) == *n {
                quote(name)
            } else {
                quote(&format!("client:{name}"))
            }
        }
    }
}

fn matching(m: &MessageMatch) -> String {
    let mut out = String::new();
    match m.direction {
        Some(Direction::Request) => out.push_str(" request"),
        Some(Direction::Response) => out.push_str(" response"),
        None => {}
    }
    if let Some(api) = &m.api {
        out.push_str(&format!(" api={}", quote(api)));
    }
    if let Some(f) = &m.from {
        out.push_str(&format!(" from={}", node(f)));
    }
    if let Some(t) = &m.to {
        out.push_str(&format!(" to={}", node(t)));
    }
    out
}

fn every(e: bool) -> &'static str {
    if e {
        " every"
    } else {
        ""
    }
}

/// A fault as the `fault …` step that arms it (`Action::ArmFault`). The first three
/// also have their own actions and steps (`drop next-request`, `hold markers`).
pub fn print_fault(fault: &Fault) -> String {
    match fault {
        Fault::DropNextRequest { from } => format!("fault {}", drop_next("request", "from", from)),
        Fault::DropNextResponse { to } => format!("fault {}", drop_next("response", "to", to)),
        Fault::HoldRequests { api } => format!("fault hold-requests api={}", quote(api)),
        Fault::Drop {
            matching: m,
            every: e,
        } => format!("fault drop{}{}", matching(m), every(*e)),
        Fault::Delay {
            matching: m,
            ms,
            every: e,
        } => format!("fault delay {ms}{}{}", matching(m), every(*e)),
        Fault::Duplicate {
            matching: m,
            every: e,
        } => {
            format!("fault duplicate{}{}", matching(m), every(*e))
        }
        Fault::Hold { matching: m } => format!("fault hold{}", matching(m)),
        Fault::Cut { a, b } => format!("fault cut {} {}", node(a), node(b)),
        Fault::Error { api, error } => format!("fault error api={} {}", quote(api), error.name()),
        Fault::Message { id, strike } => match strike {
            MessageStrike::Drop => format!("fault drop id={id}"),
            MessageStrike::Delay { ms } => format!("fault delay {ms} id={id}"),
            MessageStrike::Duplicate => format!("fault duplicate id={id}"),
            MessageStrike::Hold => format!("fault hold id={id}"),
        },
    }
}
