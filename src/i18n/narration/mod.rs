//! Narration: one sentence per event or error, in the reader's language, with the
//! Kafka rule that applied. Events and errors are data (`crate::sim::event`,
//! [`ErrorDetail`], [`SimError`]); this module maps each to a catalog message
//! ([`Msg`]: an id and named arguments) — the same code for every language — and
//! [`render`] words it from the language's template file (`catalog/en.txt`, …).
//!
//! One file per concept — broker, coordinator, producer, consumer, faults, errors; the
//! network's, the controller's and the topics' events are here. Each concept's `event`
//! is a dispatch that sends every variant to its family's function (the dispatch's
//! `match` is exhaustive, so the compiler lists it); a family function's catch-all
//! arm returns [`unworded`] for a variant it has no arm for (one `match` a family, no
//! `Option` to unwrap in every dispatch). A new event variant needs its place in the
//! dispatch, an arm in its family's function, a sample in the i18n tests (which find a
//! missing family arm: the event then narrates nothing) and one line in
//! `catalog/en.txt` per message id it uses.

use super::catalog::render;
use super::message::{list, Msg};
use super::Lang;
use crate::client::consumer::ConsumerEvent;
use crate::client::transaction_manager::TxnCallError;
use crate::msg;
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;
use crate::sim::event::EventKind;
use crate::sim::{Event, SimError};

mod broker;
#[cfg(feature = "pulsar")]
mod compare;
mod consumer;
mod coordinator;
pub(in crate::i18n) mod errors;
mod faults;
mod group;
mod producer;
#[cfg(feature = "pulsar")]
mod pulsar;
#[cfg(feature = "metadata-log")]
mod quorum;
mod replication;

/// One line: what happened and the rule behind it.
pub fn narrate(event: &Event, lang: Lang) -> String {
    render(&event_msg(&event.kind), lang)
}

/// One line for an event of the Pulsar world.
#[cfg(feature = "pulsar")]
pub fn pulsar_event(event: &crate::pulsar::PulsarEvent, lang: Lang) -> String {
    render(&pulsar::event(&event.kind), lang)
}

/// One line for an event of the Pulsar world as the page shows it: a position before a
/// ledger's first entry (`3:-1`) says so in words.
#[cfg(feature = "pulsar")]
pub fn pulsar_event_explained(event: &crate::pulsar::PulsarEvent, lang: Lang) -> String {
    render(&pulsar::explain_positions(pulsar::event(&event.kind)), lang)
}

/// Why the Pulsar world refused a step, not yet in a language.
#[cfg(feature = "pulsar")]
pub fn pulsar_step_error_msg(error: &crate::pulsar::PulsarStepError) -> Msg {
    pulsar::step_error(error)
}

/// A position as the Pulsar pages show it: `3:-1 (before the first entry of ledger 3)`.
#[cfg(feature = "pulsar")]
pub fn pulsar_position(p: crate::pulsar::Position, lang: Lang) -> String {
    render(&pulsar::position(p), lang)
}

/// A row of the Kafka-vs-Pulsar table: (question, Kafka's answer, Pulsar's answer).
#[cfg(feature = "pulsar")]
pub fn pulsar_difference(
    d: crate::i18n::facts::Difference,
    lang: Lang,
) -> (String, String, String) {
    let (q, k, p) = pulsar::difference(d);
    (render(&q, lang), render(&k, lang), render(&p, lang))
}

/// A fixed word of the Pulsar pages.
#[cfg(feature = "pulsar")]
pub fn pulsar_label(l: crate::i18n::facts::PulsarLabel, lang: Lang) -> String {
    render(&pulsar::label(l), lang)
}

/// The comparison page's words (`compare.*`), each already in `lang`.
#[cfg(feature = "pulsar")]
pub mod compare_words {
    use super::{compare, render, Lang};
    use crate::i18n::facts::{CompareLabel, KafkaFact, PulsarFact, Row};
    use crate::pulsar::Position;

    pub fn label(l: CompareLabel, lang: Lang) -> String {
        render(&compare::label(l), lang)
    }
    pub fn question(row: Row, lang: Lang) -> String {
        render(&compare::question(row), lang)
    }
    pub fn kafka(fact: &KafkaFact, lang: Lang) -> String {
        render(&compare::kafka(fact), lang)
    }
    pub fn pulsar(fact: &PulsarFact, lang: Lang) -> String {
        render(
            &super::pulsar::explain_positions(compare::pulsar(fact)),
            lang,
        )
    }
    pub fn since(step: usize, lang: Lang) -> String {
        render(&compare::since(step), lang)
    }
    pub fn kafka_partition(tp: &str, hw: i64, lso: i64, lang: Lang) -> String {
        render(&compare::kafka_partition(tp, hw, lso), lang)
    }
    pub fn pulsar_partition(topic: &str, max_read: Position, lang: Lang) -> String {
        render(&compare::pulsar_partition(topic, max_read), lang)
    }
    pub fn buffer(ongoing: String, aborted: String, lang: Lang) -> String {
        render(&compare::buffer(ongoing, aborted), lang)
    }
    pub fn pulsar_coordinator(tc: u64, running: bool, lang: Lang) -> String {
        render(&compare::pulsar_coordinator(tc, running), lang)
    }
}

/// An armed fault in a few words ("delay the next EndTxn message by 500 ms"), for a
/// list of what the network is doing now.
pub fn fault(fault: &crate::sim::Fault, lang: Lang) -> String {
    render(&faults::fault(fault), lang)
}

/// A consumer's event, without the client's name in front.
pub fn consumer_event(event: &ConsumerEvent, lang: Lang) -> String {
    render(&consumer::event(event), lang)
}

/// The events a transcript shows even without `--verbose`, as one line each: a failed
/// `send()` as the application's callback sees it (the exception Kafka's client
/// completes the future with), and a run cut short by the step limit. `None` for the rest.
pub fn transcript_notice(event: &Event, lang: Lang) -> Option<String> {
    let msg = match &event.kind {
        // Not through `event_msg`: a transcript notice alone (the chaos worker's
        // replays) then does not carry every event's narration.
        EventKind::RunLimitReached { steps, in_flight } => {
            msg!("transcript.note", event = run_limit(*steps, *in_flight))
        }
        kind => producer::send_callback_failure(kind).or_else(|| consumer::poll_exception(kind))?,
    };
    Some(render(&msg, lang))
}

/// The broker's `errorMessage` for a refused batch or marker.
pub fn error_detail(detail: &ErrorDetail, lang: Lang) -> String {
    render(&errors::detail(detail), lang)
}

/// Kafka's message of the exception a transactional call throws at once (the class
/// is `TxnCallError::exception_class`). Kafka's words, so the same in every language.
pub fn txn_exception(error: &TxnCallError, lang: Lang) -> String {
    render(&errors::txn_exception(error), lang)
}

/// Why an action was not applied, after Kafka's error name when there is one.
pub fn sim_error(error: &SimError, lang: Lang) -> String {
    render(&errors::sim_error(error), lang)
}

/// Why an action was not applied, not yet in a language (a refused scenario line
/// carries it).
pub fn sim_error_msg(error: &SimError) -> Msg {
    errors::sim_error(error)
}

/// `Display` is the English text, for the CLI, transcripts and `{e}` in messages.
impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&sim_error(self, Lang::En))
    }
}

/// The message of an event: one arm a family, each worded by its family's function
/// (the clients' and brokers' in their files; the network's, the controller's and the
/// topics' below).
pub fn event_msg(kind: &EventKind) -> Msg {
    match kind {
        EventKind::Broker { broker, event } => broker::event(*broker, event),
        #[cfg(feature = "metadata-log")]
        EventKind::Quorum(event) => quorum::event(event),
        EventKind::Producer { client, event } => producer::event(client, event),
        #[cfg(feature = "group-membership")]
        EventKind::GroupMember { client, event } => group::member(client, event),
        EventKind::Consumer { client, event } => msg!(
            "consumer.with-client",
            client = client,
            event = consumer::event(event)
        ),
        EventKind::MessageSent { .. }
        | EventKind::MessageDelivered { .. }
        | EventKind::MessageDropped { .. }
        | EventKind::ConnectionBroken { .. }
        | EventKind::LostOnBrokenConnection { .. }
        | EventKind::MessageRefused { .. }
        | EventKind::InterBrokerRetry { .. } => network_event(kind),
        EventKind::FaultStruck { .. }
        | EventKind::ErrorInjected { .. }
        | EventKind::FaultArmed { .. }
        | EventKind::ConfigChanged { .. }
        | EventKind::BreakSwitched { .. }
        | EventKind::RunLimitReached { .. } => setting_event(kind),
        EventKind::LeaderElected { .. }
        | EventKind::ControlledShutdown { .. }
        | EventKind::BrokerFenced { .. }
        | EventKind::HeartbeatsStopped { .. }
        | EventKind::RegistrationRefused { .. } => controller_event(kind),
        EventKind::TopicCreated { .. } | EventKind::InternalTopicRefused { .. } => {
            topic_event(kind)
        }
        #[cfg(feature = "topic-admin")]
        EventKind::TopicConfigsAltered { .. }
        | EventKind::PartitionsCreated { .. }
        | EventKind::TopicDeleted { .. }
        | EventKind::ReassignmentStarted { .. }
        | EventKind::ReassignmentCompleted { .. }
        | EventKind::ReassignmentCancelled { .. } => topic_admin_event(kind),
    }
}

/// What a family function says for an event its dispatch sent it but it has no arm
/// for: nothing, as a family's catch-all always said. Every Kafka-side variant has a
/// sample in the i18n tests that must narrate to a sentence, so a variant listed in a
/// dispatch but missing from its family fails there, not silently on a page.
pub(super) fn unworded() -> Msg {
    Msg::new("empty")
}

/// A message on the simulated network: sent, delivered, dropped, lost with its
/// connection, refused, or retried between brokers.
fn network_event(kind: &EventKind) -> Msg {
    match kind {
        EventKind::MessageSent {
            from,
            to,
            api,
            response,
            error,
            ..
        } => match (response, error) {
            (true, Some(e)) if *e != Errors::None => msg!(
                "network.sent-response-error",
                from = from,
                to = to,
                api = api,
                error = e.name()
            ),
            (true, _) => msg!("network.sent-response", from = from, to = to, api = api),
            (false, _) => msg!("network.sent-request", from = from, to = to, api = api),
        },
        EventKind::MessageDelivered {
            from,
            to,
            api,
            response,
            ..
        }
        | EventKind::MessageDropped {
            from,
            to,
            api,
            response,
            ..
        }
        | EventKind::LostOnBrokenConnection {
            from,
            to,
            api,
            response,
            ..
        } => Msg::new(match kind {
            EventKind::MessageDelivered { .. } => "network.delivered",
            EventKind::MessageDropped { .. } => "network.dropped",
            _ => "network.lost-on-broken",
        })
        .arg("from", from)
        .arg("to", to)
        .arg("api", api)
        .arg("response", response),
        EventKind::ConnectionBroken { client, broker } => {
            msg!(
                "network.connection-broken",
                client = client,
                broker = broker
            )
        }
        EventKind::MessageRefused {
            from,
            to,
            api,
            sender_down: true,
            ..
        } => msg!("network.lost-at-stop", to = to, api = api, from = from),
        EventKind::MessageRefused { from, to, api, .. } => {
            msg!("network.refused", to = to, api = api, from = from)
        }
        EventKind::InterBrokerRetry { from, to, api } => {
            msg!(
                "network.inter-broker-retry",
                from = from,
                to = to,
                api = api
            )
        }
        _ => unworded(),
    }
}

/// What the learner set or what struck: a fault, an injected error, a config, a
/// break switch, and a run cut short at its step limit.
fn setting_event(kind: &EventKind) -> Msg {
    match kind {
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
        EventKind::FaultArmed {
            fault: fault @ crate::sim::event::FaultChange::Armed(_),
        } => msg!("fault.armed", fault = faults::change(fault)),
        EventKind::FaultArmed { fault } => msg!("fault.changed", fault = faults::change(fault)),
        EventKind::ConfigChanged { key, value } => msg!("config.changed", key = key, value = value),
        EventKind::BreakSwitched { switch, on } => super::checker::break_switched(*switch, *on),
        EventKind::RunLimitReached { steps, in_flight } => run_limit(*steps, *in_flight),
        _ => unworded(),
    }
}

/// The controller: an election, a controlled shutdown, a broker fenced or unfenced, its
/// heartbeats stopping, and a registration refused.
fn controller_event(kind: &EventKind) -> Msg {
    match kind {
        EventKind::LeaderElected { tp, change } => replication::election(tp, change),
        EventKind::ControlledShutdown { broker } => replication::controlled_shutdown(*broker),
        EventKind::BrokerFenced {
            broker,
            fenced,
            running,
        } => replication::fenced(*broker, *fenced, *running),
        EventKind::HeartbeatsStopped {
            broker,
            running,
            last_heartbeat_ms,
            fence_at_ms,
        } => replication::heartbeats_stopped(*broker, *running, *last_heartbeat_ms, *fence_at_ms),
        EventKind::RegistrationRefused {
            broker,
            error,
            retry_ms,
        } => msg!(
            "controller.registration-refused",
            broker = broker,
            error = error.name(),
            retry = retry_ms
        ),
        _ => unworded(),
    }
}

/// A topic created, or an internal topic refused for too few brokers.
fn topic_event(kind: &EventKind) -> Msg {
    match kind {
        EventKind::TopicCreated {
            topic,
            partitions,
            leaders,
        } => msg!(
            "topic.created",
            topic = topic,
            partitions = partitions,
            placement = placement(leaders)
        ),
        EventKind::InternalTopicRefused {
            topic,
            replication_factor,
            brokers,
        } => msg!(
            "topic.internal-refused",
            topic = topic,
            rf = replication_factor,
            brokers = brokers
        ),
        _ => unworded(),
    }
}

/// The admin client's changes to a topic: configs, partitions, deletion, and a
/// reassignment started, completed or cancelled.
#[cfg(feature = "topic-admin")]
fn topic_admin_event(kind: &EventKind) -> Msg {
    match kind {
        EventKind::TopicConfigsAltered { topic, configs } => msg!(
            "topic.configs-altered",
            topic = topic,
            configs = configs
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        EventKind::PartitionsCreated {
            topic,
            from,
            partitions,
            leaders,
        } => msg!(
            "topic.partitions-created",
            topic = topic,
            from = from,
            partitions = partitions,
            placement = placement(leaders)
        ),
        EventKind::TopicDeleted { topic, partitions } => {
            msg!("topic.deleted", topic = topic, partitions = partitions)
        }
        EventKind::ReassignmentStarted {
            tp,
            replicas,
            adding,
            removing,
        } => reassignment_started(tp, replicas, adding, removing),
        EventKind::ReassignmentCompleted {
            tp,
            replicas,
            removed,
        } => reassignment_ended(
            "topic.reassignment-completed",
            "topic.reassignment-completed-none",
            tp,
            replicas,
            removed,
        ),
        EventKind::ReassignmentCancelled {
            tp,
            replicas,
            removed,
        } => reassignment_ended(
            "topic.reassignment-cancelled",
            "topic.reassignment-cancelled-none",
            tp,
            replicas,
            removed,
        ),
        _ => unworded(),
    }
}

/// A reassignment started: the replicas it ends with, and the brokers it adds and
/// removes, each named only when there are any.
#[cfg(feature = "topic-admin")]
fn reassignment_started(
    tp: &crate::log::TopicPartition,
    replicas: &[i32],
    adding: &[i32],
    removing: &[i32],
) -> Msg {
    let mut moves: Vec<crate::i18n::message::Arg> = Vec::new();
    if !adding.is_empty() {
        moves.push(msg!("topic.reassignment-adding", brokers = broker_ids(adding)).into());
    }
    if !removing.is_empty() {
        moves.push(
            msg!(
                "topic.reassignment-removing",
                brokers = broker_ids(removing)
            )
            .into(),
        );
    }
    msg!(
        "topic.reassignment-started",
        tp = tp,
        replicas = broker_ids(replicas),
        moves = list(moves)
    )
}

/// A run cut short at its limit of steps.
fn run_limit(steps: usize, in_flight: usize) -> Msg {
    msg!("run.limit", steps = steps, in_flight = in_flight)
}

/// A reassignment that completed or was cancelled: the replicas it left, and the ones
/// it dropped when there were any (a message of its own, so no empty list is read).
#[cfg(feature = "topic-admin")]
fn reassignment_ended(
    id: &'static str,
    id_none_removed: &'static str,
    tp: &crate::log::TopicPartition,
    replicas: &[i32],
    removed: &[i32],
) -> crate::i18n::Msg {
    if removed.is_empty() {
        crate::i18n::Msg::new(id_none_removed)
            .arg("tp", tp)
            .arg("replicas", broker_ids(replicas))
    } else {
        crate::i18n::Msg::new(id)
            .arg("tp", tp)
            .arg("replicas", broker_ids(replicas))
            .arg("removed", broker_ids(removed))
    }
}

/// Broker ids as `[1, 2]`.
#[cfg(feature = "topic-admin")]
fn broker_ids(list: &[i32]) -> String {
    let items: Vec<String> = list.iter().map(|b| b.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// "2 on broker 1, 1 on broker 2": how many of these partitions each broker leads.
fn placement(leaders: &[i32]) -> crate::i18n::message::Arg {
    let mut per_broker: std::collections::BTreeMap<i32, usize> = std::collections::BTreeMap::new();
    for l in leaders {
        *per_broker.entry(*l).or_default() += 1;
    }
    list(
        per_broker
            .iter()
            .map(|(b, n)| msg!("topic.placement", n = n, broker = b).into()),
    )
}
