//! Everything a learner, a lesson or a test can do to the world: one enum, serde, so
//! the same value comes from a click, a scenario line or a share link.

use serde::{Deserialize, Serialize};

use crate::log::TopicPartition;
use crate::protocol::ElectionType;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A broker-wide setting: `producer.snapshots` (playground switch) or a default
    /// for new topics (`segment.bytes`, `index.interval.bytes`, `max.message.bytes`).
    SetBrokerConfig {
        key: String,
        value: String,
    },
    /// Creates a topic; configs are topic-level (`segment.bytes`, …).
    CreateTopic {
        name: String,
        partitions: i32,
        configs: Vec<(String, String)>,
    },
    /// `kafka-configs.sh --alter --add-config`: IncrementalAlterConfigs (SET) on a
    /// topic; the new values apply from the next request that reads them.
    #[cfg(feature = "topic-admin")]
    AlterTopicConfigs {
        name: String,
        configs: Vec<(String, String)>,
    },
    /// `kafka-topics.sh --alter --partitions N`: CreatePartitions up to `partitions`
    /// in all; `assignment` (optional) names the new partitions' replicas.
    #[cfg(feature = "topic-admin")]
    CreatePartitions {
        name: String,
        partitions: i32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        assignment: Vec<Vec<i32>>,
    },
    /// `kafka-topics.sh --delete`: DeleteTopics.
    #[cfg(feature = "topic-admin")]
    DeleteTopic {
        name: String,
    },
    /// `kafka-reassign-partitions.sh --execute` for one partition:
    /// AlterPartitionReassignments with its target replicas, or with none
    /// (`--cancel`) to revert the reassignment in progress.
    #[cfg(feature = "topic-admin")]
    ReassignPartition {
        topic_partition: TopicPartition,
        replicas: Option<Vec<i32>>,
    },
    /// `kafka-reassign-partitions.sh --list`: ListPartitionReassignments for the
    /// partitions named, or with none for every partition.
    #[cfg(feature = "topic-admin")]
    ListReassignments {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        partitions: Vec<TopicPartition>,
    },
    /// A new producer client with Kafka config names (`acks`, `enable.idempotence`, …).
    CreateProducer {
        name: String,
        configs: Vec<(String, String)>,
    },
    /// `producer.send()` of some values to one partition (they wait in the accumulator).
    Send {
        producer: String,
        topic_partition: TopicPartition,
        values: Vec<String>,
    },
    /// Runs the world until this producer has nothing pending (`flush()`).
    Flush {
        producer: String,
    },
    /// A hand-made InitProducerId from a bare client; retries while the broker says so.
    RawInitProducerId,
    /// Any request sent by hand from the bare client (to `broker`, or to the broker
    /// it belongs to: coordinator or leader); the answer is printed.
    RawRequest {
        broker: Option<i32>,
        request: crate::protocol::Request,
    },
    /// A hand-made Produce with explicit producer id, epoch and base sequence; with a
    /// transactional id the batch is transactional (`isTransactional`) and the
    /// request carries the id, as a transactional producer's Produce does.
    RawProduce {
        topic_partition: TopicPartition,
        producer_id: i64,
        producer_epoch: i16,
        base_sequence: i32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transactional_id: Option<String>,
        values: Vec<String>,
        label: Option<String>,
    },
    /// Keep WriteTxnMarkers requests in the network until released: the transaction
    /// stays in PrepareCommit/PrepareAbort and the LSO stays put.
    HoldMarkers,
    ReleaseMarkers,
    /// Keep every request of one API (`Produce`, `EndTxn`, …) in the network until
    /// released: a delayed message. (Minimal; the fault vocabulary generalises it.)
    HoldRequests {
        api: String,
    },
    ReleaseRequests {
        api: String,
    },
    /// `kafka-transactions.sh abort`: an ABORT marker written by hand for the open
    /// transaction that starts at this offset (recovers a hanging transaction).
    AdminAbortTransaction {
        topic_partition: TopicPartition,
        start_offset: i64,
    },
    /// `kafka-delete-records.sh`: DeleteRecords for one partition, moving its log
    /// start offset to `offset` (-1: the high watermark).
    AdminDeleteRecords {
        topic_partition: TopicPartition,
        offset: i64,
    },
    /// `kafka-leader-election.sh --election-type PREFERRED|UNCLEAN`: ElectLeaders for
    /// these partitions, or for every partition (`--all-topic-partitions`) when empty.
    AdminElectLeaders {
        #[serde(default)]
        election: ElectionType,
        partitions: Vec<TopicPartition>,
    },
    /// `clean TOPIC-P`: the log cleaner cleans a compacted partition now, on every
    /// running broker with a replica of it.
    #[cfg(feature = "log-cleaner")]
    CleanLog {
        topic_partition: TopicPartition,
    },
    /// `snapshot TOPIC-P`: every running replica writes a producer-state snapshot now.
    #[cfg(feature = "log-cleaner")]
    TakeSnapshot {
        topic_partition: TopicPartition,
    },
    /// `truncate broker-N TOPIC-P offset=N`: a follower's log cut to `offset`, as its
    /// replica fetcher does after a diverging epoch.
    #[cfg(feature = "log-cleaner")]
    TruncateLog {
        broker: i32,
        topic_partition: TopicPartition,
        offset: i64,
    },
    /// `fault corrupt broker-N PATH [at=N]`: a disk fault flips one byte of a file
    /// under the broker's log dir (the last byte unless `position` names one).
    #[cfg(feature = "log-cleaner")]
    CorruptFile {
        broker: i32,
        path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<u64>,
    },
    /// `set-epoch txn=ID epoch=N`, a playground shortcut: the coordinator writes
    /// epoch N for the transactional id, as InitProducerId bumping it there would.
    #[cfg(feature = "set-epoch")]
    SetTxnEpoch {
        transactional_id: String,
        epoch: i16,
    },
    /// `set-epoch producer=NAME epoch=N`, a playground shortcut: an idempotent
    /// producer takes epoch N, as that many bumps would leave it.
    #[cfg(feature = "set-epoch")]
    SetProducerEpoch {
        producer: String,
        epoch: i16,
    },
    /// Lose the next request (from one client, or any).
    DropNextRequest {
        from: Option<String>,
    },
    /// Lose the next response (to one client, or any): "drop the ack".
    DropNextResponse {
        to: Option<String>,
    },
    /// Arms a fault of the network (`fault drop|delay|duplicate|hold|cut|error …`).
    ArmFault {
        fault: crate::sim::network::Fault,
    },
    /// Ends the holds of an API; its held messages go on their way (`fault release api=X`).
    ReleaseHeld {
        api: String,
    },
    /// Lets one held message go, after those sent since: a reorder (`fault release id=N`).
    ReleaseMessage {
        id: u64,
    },
    /// Heals a cut link (`fault heal A B`).
    HealLink {
        a: crate::sim::network::Node,
        b: crate::sim::network::Node,
    },
    /// Disarms one armed fault, the oldest equal to this one; the messages a disarmed
    /// hold kept go on their way (`fault disarm …`: the page's "clear" button next to
    /// each fault in force).
    DisarmFault {
        fault: crate::sim::network::Fault,
    },
    /// Disarms every fault and releases every held message (`fault clear`).
    ClearFaults,
    /// NOT KAFKA: turns a "break it" switch on or off (`break NAME [off]`): one
    /// safeguard disabled, to see what it prevents.
    Break {
        switch: crate::breaks::BreakSwitch,
        on: bool,
    },
    /// Delivers the next message or fires the next timer.
    Step,
    /// Runs until nothing is left to do (bounded).
    RunUntilIdle,
    /// Advances the logical clock by this many milliseconds, doing what falls due.
    Advance {
        ms: i64,
    },
    /// Stops and starts a broker; `clean` closes logs (snapshots), otherwise a crash.
    RestartBroker {
        broker: i32,
        clean: bool,
    },
    StopBroker {
        broker: i32,
        clean: bool,
    },
    StartBroker {
        broker: i32,
    },
    /// `controller N stop`: a controller of the quorum stops as a crash does
    /// (feature `metadata-log`).
    #[cfg(feature = "metadata-log")]
    StopController {
        controller: i32,
    },
    /// `controller N start`: it starts again from its `quorum-state`.
    #[cfg(feature = "metadata-log")]
    StartController {
        controller: i32,
    },
    /// A new consumer client with Kafka config names (`isolation.level`, `group.id`,
    /// `auto.offset.reset`, `max.poll.records`).
    #[cfg(feature = "group-membership")]
    /// `subscribe(topics)`: the consumer joins its group (`group.id`) and fetches the
    /// partitions the group assigns it.
    Subscribe {
        consumer: String,
        topics: Vec<String>,
    },
    #[cfg(feature = "group-membership")]
    /// `unsubscribe()`: LeaveGroup.
    Unsubscribe {
        consumer: String,
    },
    CreateConsumer {
        name: String,
        configs: Vec<(String, String)>,
    },
    /// `assign()` partitions to a consumer and set its starting positions.
    Assign {
        consumer: String,
        partitions: Vec<TopicPartition>,
    },
    /// `seek()`: the consumer reads from this offset next.
    Seek {
        consumer: String,
        topic_partition: TopicPartition,
        offset: i64,
    },
    /// `poll()` until the consumer has caught up.
    Poll {
        consumer: String,
    },
    /// `initTransactions()`: find the coordinator, get the id and a bumped epoch.
    InitTransactions {
        producer: String,
    },
    /// `beginTransaction()` (local to the producer).
    BeginTransaction {
        producer: String,
    },
    /// `commitTransaction()`: flush, then EndTxn(commit); runs until it finishes.
    CommitTransaction {
        producer: String,
    },
    /// `abortTransaction()`: drop unsent batches, then EndTxn(abort).
    AbortTransaction {
        producer: String,
    },
    /// `sendOffsetsToTransaction()`: the group's next offsets commit with the transaction.
    /// With `consumer`, its `groupMetadata()` goes along (generation and member id,
    /// KIP-447) and an empty `group_id` is its group; without, a simple group's.
    SendOffsetsToTransaction {
        producer: String,
        group_id: String,
        offsets: Vec<(TopicPartition, i64)>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        consumer: Option<String>,
    },
    /// One consume-transform-produce round (`crate::sim::transform`): poll `consumer`,
    /// send each value transformed to `topic`, send the positions to the transaction.
    Transform {
        producer: String,
        consumer: String,
        topic: String,
    },
}
