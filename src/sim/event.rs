//! What happened in the world, and why — in structured form for the UI and tests, and
//! narrated in plain words (with the Kafka rule that applied) for the event list.

use serde::Serialize;

use super::network::Node;
use crate::broker::broker::{BrokerEvent, SeqRange};
use crate::client::consumer::ConsumerEvent;
use crate::client::producer::ProducerEvent;
use crate::client::transaction_manager::TxnOutcome;
use crate::coordinator::transaction::CoordinatorEvent;
use crate::protocol::errors::Errors;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    /// Position in the world's history (0, 1, 2, …).
    pub seq: u64,
    pub at_ms: i64,
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum EventKind {
    Broker {
        broker: i32,
        event: BrokerEvent,
    },
    Producer {
        client: String,
        event: ProducerEvent,
    },
    Consumer {
        client: String,
        event: ConsumerEvent,
    },
    MessageSent {
        id: u64,
        from: Node,
        to: Node,
        api: String,
        response: bool,
        error: Option<Errors>,
    },
    MessageDelivered {
        id: u64,
        from: Node,
        to: Node,
        api: String,
        response: bool,
    },
    /// An armed fault ate this message.
    MessageDropped {
        id: u64,
        from: Node,
        to: Node,
        api: String,
        response: bool,
    },
    /// The destination was down.
    MessageRefused {
        id: u64,
        from: Node,
        to: Node,
        api: String,
    },
    TopicCreated {
        topic: String,
        partitions: i32,
        leaders: Vec<i32>,
    },
    FaultArmed {
        description: String,
    },
    /// A broker sends an unanswered inter-broker request again.
    InterBrokerRetry {
        from: i32,
        to: i32,
        api: String,
    },
    ConfigChanged {
        key: String,
        value: String,
    },
}

/// Renders a window like `[0..1 2..3]`.
pub fn window_text(window: &[SeqRange]) -> String {
    let parts: Vec<String> = window.iter().map(|(a, b)| format!("{a}..{b}")).collect();
    format!("[{}]", parts.join(" "))
}

impl Event {
    /// One line in plain English: what happened and the rule behind it.
    pub fn narrate(&self) -> String {
        match &self.kind {
            EventKind::Broker { broker, event } => narrate_broker(*broker, event),
            EventKind::Producer { client, event } => narrate_producer(client, event),
            EventKind::Consumer { client, event } => format!("{client}: {}", event.narrate()),
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
            } => {
                format!(
                    "{to} received {api} {} from {from}",
                    if *response { "response" } else { "request" }
                )
            }
            EventKind::MessageDropped {
                from,
                to,
                api,
                response,
                ..
            } => format!(
                "The network lost the {api} {} from {from} to {to}: {}",
                if *response { "response" } else { "request" },
                if *response {
                    "the broker did the work, but the client will never hear about it"
                } else {
                    "the broker never sees it"
                }
            ),
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
            EventKind::FaultArmed { description } => format!("Fault armed: {description}"),
            EventKind::InterBrokerRetry { from, to, api } => {
                format!("broker {from}: no answer from broker {to} to {api}; sending it again")
            }
            EventKind::ConfigChanged { key, value } => format!("Config {key} = {value}"),
        }
    }
}

fn narrate_broker(broker: i32, e: &BrokerEvent) -> String {
    match e {
        BrokerEvent::BatchAppended { tp, producer_id, producer_epoch, first_seq, last_seq, first_offset, last_offset, log_end_offset, window } => {
            if *producer_id < 0 {
                format!("broker {broker}: APPEND to {tp} at offsets {first_offset}..{last_offset} (no producer id, so no duplicate check); LEO {log_end_offset}")
            } else {
                format!(
                    "broker {broker}: APPEND seq {first_seq}..{last_seq} of producer {producer_id} (epoch {producer_epoch}) to {tp} at offsets {first_offset}..{last_offset}; LEO {log_end_offset}; window {} — the sequence continues the last one",
                    window_text(window)
                )
            }
        }
        BrokerEvent::BatchDuplicate { tp, producer_id, first_seq, last_seq, first_offset, last_offset, log_end_offset, .. } => format!(
            "broker {broker}: DUPLICATE seq {first_seq}..{last_seq} of producer {producer_id} on {tp} — found in the last 5 batches, so nothing is written and the original offsets {first_offset}..{last_offset} are returned as success; LEO stays {log_end_offset}"
        ),
        BrokerEvent::BatchRejected { tp, producer_id, producer_epoch, first_seq, last_seq, error, expected_seq, current_epoch, message, .. } => match error {
            Errors::OutOfOrderSequenceNumber => format!(
                "broker {broker}: {} for producer {producer_id} on {tp} — expected sequence {}, got {first_seq}..{last_seq}. A gap means a write went missing; nothing is written",
                error.name(),
                expected_seq.map_or("?".into(), |s| s.to_string())
            ),
            Errors::InvalidProducerEpoch => format!(
                "broker {broker}: {} for producer {producer_id} on {tp} — epoch {producer_epoch} is older than the epoch {} the partition remembers; a zombie cannot write",
                error.name(),
                current_epoch.map_or("?".into(), |s| s.to_string())
            ),
            _ => format!("broker {broker}: {} on {tp}: {message}", error.name()),
        },
                BrokerEvent::TransactionVerification { tp, transactional_id, producer_id, producer_epoch, coordinator } => format!(
            "broker {broker}: a transactional batch of producer {producer_id} (epoch {producer_epoch}) for {tp} waits: the leader first asks the coordinator (broker {coordinator}) to add {tp} to {transactional_id}'s transaction (AddPartitionsToTxn, TV2)"
        ),
        BrokerEvent::MarkerWritten { tp, producer_id, producer_epoch, kind, offset, txn_first_offset, last_stable_offset, high_watermark } => format!(
            "broker {broker}: wrote the {kind} marker of producer {producer_id} to {tp} at offset {offset} (marker epoch {producer_epoch}){}; LSO {last_stable_offset}, HW {high_watermark}",
            txn_first_offset.map(|f| format!(", ending the transaction that began at offset {f}")).unwrap_or_default()
        ),
        BrokerEvent::MarkerRejected { tp, producer_id, producer_epoch, error, .. } => format!(
            "broker {broker}: refused a marker of producer {producer_id} with epoch {producer_epoch} on {tp}: {} — a marker must carry a newer epoch than the transaction's data",
            error.name()
        ),
                BrokerEvent::Coordinator(c) => narrate_coordinator(broker, c),
        BrokerEvent::SegmentRolled { tp, base_offset, snapshot } => match snapshot {
            Some(path) => format!("broker {broker}: {tp} rolled a new segment at offset {base_offset} (segment.bytes reached) and wrote the producer snapshot {}", file_of(path)),
            None => format!("broker {broker}: {tp} rolled a new segment at offset {base_offset} (segment.bytes reached); producer snapshots are off"),
        },
        BrokerEvent::ProducerIdNotReady { asked_controller } => format!(
            "broker {broker}: no producer-id block yet{} — answers COORDINATOR_LOAD_IN_PROGRESS, the client retries",
            if *asked_controller { ", asks the controller for one" } else { "" }
        ),
        BrokerEvent::ProducerIdBlockReceived { first, last } => {
            format!("broker {broker}: received producer ids {first}..{last} from the controller (blocks of 1000)")
        }
        BrokerEvent::ProducerIdAssigned { producer_id, producer_epoch } => {
            format!("broker {broker}: InitProducerId → producerId={producer_id} epoch={producer_epoch}")
        }
        BrokerEvent::Stopped { clean, snapshots } => {
            if *clean {
                format!("broker {broker} shut down cleanly; producer snapshots written: {}", snapshots.len())
            } else {
                format!("broker {broker} crashed: memory is gone, the disk stays")
            }
        }
        BrokerEvent::Recovered { tp, report, windows } => {
            let source = match report.snapshot_loaded {
                Some(o) => format!("loaded snapshot {o:020}.snapshot, then replayed {} batch(es) after it", report.replayed_batches),
                None => format!("no snapshot; rebuilt from {} batch(es) in segment(s) {:?}", report.replayed_batches, report.replayed_segments),
            };
            let w: Vec<String> = windows.iter().map(|(p, w)| format!("{p} {}", window_text(w))).collect();
            format!(
                "broker {broker}: opened {tp} (LEO {}): {source}; windows: {}",
                report.log_end_offset,
                if w.is_empty() { "none".to_string() } else { w.join(", ") }
            )
        }
    }
}

fn narrate_coordinator(broker: i32, e: &CoordinatorEvent) -> String {
    match e {
        CoordinatorEvent::StateChanged { transactional_id, partition, from, to, producer_epoch, .. } => format!(
            "coordinator (broker {broker}): {transactional_id} {} → {} (epoch {producer_epoch}), written to __transaction_state-{partition} before memory changed",
            from.name(),
            to.name()
        ),
        CoordinatorEvent::Fenced { transactional_id, producer_id, old_epoch, fence_epoch } => format!(
            "coordinator (broker {broker}): a new producer with {transactional_id} arrived while producer {producer_id} (epoch {old_epoch}) had a transaction open — PrepareEpochFence: the epoch becomes {fence_epoch} and the coordinator aborts the open transaction itself; the newcomer is told CONCURRENT_TRANSACTIONS and retries"
        ),
        CoordinatorEvent::TimedOut { transactional_id, txn_timeout_ms, .. } => format!(
            "coordinator (broker {broker}): {transactional_id}'s transaction was open longer than transaction.timeout.ms={txn_timeout_ms}: aborting it"
        ),
        CoordinatorEvent::Loaded { partition, transactions, pending_completions, .. } => format!(
            "coordinator (broker {broker}): loaded __transaction_state-{partition}: {transactions} transactional id(s){}",
            if *pending_completions > 0 {
                format!(", {pending_completions} caught in Prepare* — their markers are sent again")
            } else {
                String::new()
            }
        ),
        CoordinatorEvent::Unloaded { partition, .. } => {
            format!("coordinator (broker {broker}): gave up __transaction_state-{partition}")
        }
        CoordinatorEvent::Rejected { transactional_id, api, error } => {
            format!("coordinator (broker {broker}): {api} for {transactional_id} answered {}", error.name())
        }
        CoordinatorEvent::AppendFailed { transactional_id, target, error } => format!(
            "coordinator (broker {broker}): could not write {} for {transactional_id} ({}); memory unchanged",
            target.name(),
            error.name()
        ),
        CoordinatorEvent::MarkersAbandoned { transactional_id, partition, error } => format!(
            "coordinator (broker {broker}): {partition} refused {transactional_id}'s marker with {}; marker sending stops",
            error.name()
        ),
        CoordinatorEvent::InternalError { transactional_id, detail } => {
            format!("coordinator (broker {broker}): {transactional_id}: {detail}")
        }
    }
}

fn file_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn narrate_txn(client: &str, outcome: &TxnOutcome) -> String {
    match outcome {
        TxnOutcome::Initialized { producer_id, producer_epoch } => {
            format!("{client}: initTransactions done: producerId={producer_id} epoch={producer_epoch}")
        }
        TxnOutcome::Committed { producer_id, producer_epoch } => format!(
            "{client}: commitTransaction done; the coordinator bumped the epoch: producerId={producer_id} epoch={producer_epoch}, sequences restart at 0"
        ),
        TxnOutcome::Aborted { producer_id, producer_epoch } => format!(
            "{client}: abortTransaction done; producerId={producer_id} epoch={producer_epoch}, sequences restart at 0"
        ),
        TxnOutcome::OffsetsSent { group_id } => {
            format!("{client}: sendOffsetsToTransaction: offsets of group {group_id} joined the transaction")
        }
        TxnOutcome::Failed { operation, error } => {
            format!("{client}: {operation} failed: {} ({})", error.exception_name(), error.name())
        }
        TxnOutcome::Retrying { api, error } => format!("{client}: {api}: {}, retrying", error.name()),
    }
}

fn narrate_producer(client: &str, e: &ProducerEvent) -> String {
    match e {
        ProducerEvent::Accumulated { tp, values } => format!("{client}: send {values:?} to {tp} (waits in the accumulator)"),
        ProducerEvent::SequenceAssigned { tp, producer_id, producer_epoch, first_seq, last_seq, .. } => format!(
            "{client}: drained a batch for {tp}: producerId={producer_id} epoch={producer_epoch} seq {first_seq}..{last_seq} (assigned once, at drain)"
        ),
        ProducerEvent::BatchSent { tp, attempt, first_seq, last_seq, .. } => match (first_seq, last_seq) {
            (Some(a), Some(b)) if *attempt > 1 => format!("{client}: retry #{} of seq {a}..{b} to {tp} — same producer id, epoch and sequence", attempt - 1),
            (Some(a), Some(b)) => format!("{client}: Produce seq {a}..{b} to {tp}"),
            _ => format!("{client}: Produce to {tp} (attempt {attempt}, not idempotent)"),
        },
        ProducerEvent::InitProducerIdRetry { error, backoff_ms } => {
            format!("{client}: InitProducerId: {}, retrying in {backoff_ms} ms", error.name())
        }
        ProducerEvent::ProducerIdReceived { producer_id, producer_epoch } => {
            format!("{client}: got producerId={producer_id} epoch={producer_epoch}")
        }
        ProducerEvent::RequestTimedOut { broker, timeout_ms, .. } => format!(
            "{client}: no answer from broker {broker} within request.timeout.ms={timeout_ms}; the connection is closed and its batches will be retried"
        ),
        ProducerEvent::RetryScheduled { tp, error, attempt, .. } => {
            format!("{client}: will retry the batch for {tp} (attempt {attempt}) after {}", error.name())
        }
        ProducerEvent::Acknowledged { tp, base_offset, values, .. } => {
            format!("{client}: send of {values:?} to {tp} acknowledged at baseOffset={base_offset}")
        }
        ProducerEvent::Failed { tp, error, message, .. } => format!(
            "{client}: send to {tp} failed with {}{}",
            error.name(),
            message.as_ref().map(|m| format!(": {m}")).unwrap_or_default()
        ),
        ProducerEvent::Transaction(outcome) => narrate_txn(client, outcome),
        ProducerEvent::BatchesAbortedLocally { count } => {
            format!("{client}: abortTransaction dropped {count} batch(es) that were never sent")
        }
        ProducerEvent::StaleResponse { api, .. } => format!("{client}: ignored a late {api} response for a request it gave up on"),
    }
}
