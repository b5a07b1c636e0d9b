//! English narration: the reference text. Events of the network, topics, faults and
//! config are worded here; the rest by concept in the sibling files.

use crate::protocol::errors::Errors;
use crate::sim::event::{EventKind, FaultChange};

mod broker;
pub(super) mod consumer;
mod coordinator;
pub(super) mod errors;
mod faults;
#[cfg(feature = "pulsar")]
pub(super) mod pulsar;

pub(in crate::i18n::narration) use faults::fault;
pub(super) mod producer;

pub(super) fn event(kind: &EventKind) -> String {
    match kind {
        EventKind::Broker { broker, event } => broker::event(*broker, event),
        EventKind::Producer { client, event } => producer::event(client, event),
        EventKind::Consumer { client, event } => format!("{client}: {}", consumer::event(event)),
        EventKind::MessageSent {
            from,
            to,
            api,
            response,
            error,
            ..
        } => match (response, error) {
            (true, Some(e)) if *e != Errors::None => {
                format!("{from} → {to}: {api} response ({})", e.name())
            }
            (true, _) => format!("{from} → {to}: {api} response"),
            (false, _) => format!("{from} → {to}: {api} request"),
        },
        EventKind::MessageDelivered {
            from,
            to,
            api,
            response,
            ..
        } => format!("{to} received {api} {} from {from}", direction(*response)),
        EventKind::MessageDropped {
            from,
            to,
            api,
            response,
            ..
        } => format!(
            "The network lost the {api} {} from {from} to {to}: {}",
            direction(*response),
            if *response {
                "the broker did the work, but the client will never hear about it"
            } else {
                "the broker never sees it"
            }
        ),
        EventKind::FaultStruck {
            id,
            from,
            to,
            api,
            response,
            mark,
            ..
        } => faults::struck(*id, from, to, api, *response, mark),
        EventKind::ErrorInjected {
            id,
            from,
            to,
            api,
            error,
        } => faults::injected(*id, from, to, api, *error),
        EventKind::MessageRefused { from, to, api, .. } => {
            format!("{to} is down: {api} from {from} was refused (connection closed)")
        }
        EventKind::TopicCreated {
            topic,
            partitions,
            leaders,
        } => {
            let mut per_broker: std::collections::BTreeMap<i32, usize> =
                std::collections::BTreeMap::new();
            for l in leaders {
                *per_broker.entry(*l).or_default() += 1;
            }
            let placement: Vec<String> = per_broker
                .iter()
                .map(|(b, n)| format!("{n} on broker {b}"))
                .collect();
            format!(
                "Created topic {topic} with {partitions} partition(s): leaders {}",
                placement.join(", ")
            )
        }
        EventKind::FaultArmed { fault } => format!("Fault armed: {}", fault_change(fault)),
        EventKind::InterBrokerRetry { from, to, api } => {
            format!("broker {from}: no answer from broker {to} to {api}; sending it again")
        }
        EventKind::ConfigChanged { key, value } => format!("Config {key} = {value}"),
        EventKind::RunLimitReached { steps, in_flight } => format!(
            "the run stopped at its limit of {steps} steps with work left ({in_flight} message(s) on the wire): run again to go on"
        ),
    }
}

fn direction(response: bool) -> &'static str {
    if response {
        "response"
    } else {
        "request"
    }
}

fn fault_change(fault: &FaultChange) -> String {
    faults::change(fault)
}
