//! What happened in the world, and why, as data: who, which Kafka rule, the numbers.
//! The words live in the catalog (`crate::i18n::narrate`), so every language reads the
//! same events.

use serde::Serialize;

use super::network::{Fault, FaultMark, Node};
use crate::broker::broker::{BrokerEvent, SeqRange};
use crate::client::consumer::ConsumerEvent;
use crate::client::producer::ProducerEvent;
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
    #[cfg(feature = "group-membership")]
    /// A consumer's group membership changed (assigned, rejoining, lost).
    GroupMember {
        client: String,
        event: super::groups::MemberEvent,
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
    /// An armed fault struck this message as it was sent (every fault but the first
    /// three, which strike with `MessageDropped` only): which message, which fault, what
    /// it did.
    FaultStruck {
        id: u64,
        from: Node,
        to: Node,
        api: String,
        response: bool,
        mark: FaultMark,
        fault: Fault,
    },
    /// A request an error fault struck reaches its receiver, which does not handle it:
    /// the network answers with the error.
    ErrorInjected {
        id: u64,
        from: Node,
        to: Node,
        api: String,
        error: Errors,
    },
    /// A message on a producer's connection was lost, so the connection broke (TCP
    /// delivers in order or not at all): until the producer closes it, what is on it is
    /// lost too.
    ConnectionBroken {
        client: String,
        broker: i32,
    },
    /// Lost with its broken connection: sent on it, or still on the wire when it broke.
    LostOnBrokenConnection {
        id: u64,
        from: Node,
        to: Node,
        api: String,
        response: bool,
    },
    /// The destination was down, or (`sender_down`) the sender went down with the
    /// message still on its connection.
    MessageRefused {
        id: u64,
        from: Node,
        to: Node,
        api: String,
        sender_down: bool,
    },
    TopicCreated {
        topic: String,
        partitions: i32,
        leaders: Vec<i32>,
    },
    /// IncrementalAlterConfigs set these topic configs.
    #[cfg(feature = "topic-admin")]
    TopicConfigsAltered {
        topic: String,
        configs: Vec<(String, String)>,
    },
    /// CreatePartitions: partitions `from..partitions` were added, led by `leaders`.
    #[cfg(feature = "topic-admin")]
    PartitionsCreated {
        topic: String,
        from: i32,
        partitions: i32,
        leaders: Vec<i32>,
    },
    /// DeleteTopics: the topic left the metadata and its replicas were deleted.
    #[cfg(feature = "topic-admin")]
    TopicDeleted {
        topic: String,
        partitions: i32,
    },
    /// AlterPartitionReassignments started moving a partition: `replicas` is target
    /// and current together until the `adding` ones are in the ISR.
    #[cfg(feature = "topic-admin")]
    ReassignmentStarted {
        tp: crate::log::TopicPartition,
        replicas: Vec<i32>,
        adding: Vec<i32>,
        removing: Vec<i32>,
    },
    /// Every target replica was in the ISR: the controller took the `removed` ones
    /// out of the replicas and the ISR, and their brokers deleted their replica.
    #[cfg(feature = "topic-admin")]
    ReassignmentCompleted {
        tp: crate::log::TopicPartition,
        replicas: Vec<i32>,
        removed: Vec<i32>,
    },
    /// A cancel (`--cancel`) reverted the reassignment: the replicas it was adding
    /// left, the ones it was removing stay.
    #[cfg(feature = "topic-admin")]
    ReassignmentCancelled {
        tp: crate::log::TopicPartition,
        replicas: Vec<i32>,
        removed: Vec<i32>,
    },
    /// The controller refused to create an internal topic: its replication factor
    /// (`offsets.topic.replication.factor` / `transaction.state.log.replication.factor`)
    /// is larger than the cluster (INVALID_REPLICATION_FACTOR).
    InternalTopicRefused {
        topic: String,
        replication_factor: i32,
        brokers: i32,
    },
    /// The controller chose a new leader (or none) for a partition and bumped its
    /// leader epoch.
    LeaderElected {
        tp: crate::log::TopicPartition,
        change: crate::metadata::LeaderChange,
    },
    /// A broker asked the controller to shut down (a clean stop): its leaderships
    /// move and it leaves every ISR before it stops.
    ControlledShutdown {
        broker: i32,
    },
    /// The controller fenced a broker whose session ran out (`running`: cut off from
    /// it; else stopped), or let a cut-off one back in.
    BrokerFenced {
        broker: i32,
        fenced: bool,
        running: bool,
    },
    /// The controller quorum: an election, a resignation, a claim, a write that
    /// cannot commit, a controller stopped or started (feature `metadata-log`).
    #[cfg(feature = "metadata-log")]
    Quorum(crate::raft::QuorumEvent),
    /// A replicated broker's heartbeats stop reaching the controller: it crashed
    /// (`running` false) or its link to the controller was cut (`running`). The
    /// controller, which cannot tell a crash from a pause, keeps it registered until
    /// its session runs out: `broker.session.timeout.ms` after its last heartbeat, at
    /// `fence_at_ms`.
    HeartbeatsStopped {
        broker: i32,
        running: bool,
        last_heartbeat_ms: i64,
        fence_at_ms: i64,
    },
    /// The controller refused a restarted broker's registration (its previous
    /// incarnation's session still runs); it asks again after `retry_ms`.
    RegistrationRefused {
        broker: i32,
        error: crate::protocol::Errors,
        retry_ms: i64,
    },
    /// The learner armed or released a fault.
    FaultArmed {
        fault: FaultChange,
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
    /// NOT KAFKA: a "break it" switch was turned on or off.
    BreakSwitched {
        switch: crate::breaks::BreakSwitch,
        on: bool,
    },
    /// A run (or a blocking call) stopped at the step limit with work still left.
    RunLimitReached {
        steps: usize,
        in_flight: usize,
    },
}

/// A change to the network's faults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum FaultChange {
    /// One more fault waits for its message (or, for a hold, for every one of its API).
    Armed(Fault),
    /// A hold ends: the requests it kept go on their way.
    Released { api: String, released: usize },
    /// One held message lets go (`released` false: it was not held).
    ReleasedMessage { id: u64, released: bool },
    /// A cut link is healed (`was_cut` false: it was not cut).
    Healed { a: Node, b: Node, was_cut: bool },
    /// A strike on one message by id found no such message on the wire.
    NotOnTheWire { id: u64 },
    /// One fault disarmed (`was_armed` false: no such fault was armed), and the held
    /// messages a disarmed hold let go.
    Disarmed {
        fault: Fault,
        was_armed: bool,
        released: usize,
    },
    /// Every fault disarmed and every held message released.
    Cleared { faults: usize, released: usize },
}

/// Renders a window like `[0..1 2..3]`.
pub fn window_text(window: &[SeqRange]) -> String {
    let parts: Vec<String> = window.iter().map(|(a, b)| format!("{a}..{b}")).collect();
    format!("[{}]", parts.join(" "))
}
