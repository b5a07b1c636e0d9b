//! One partition's replication state on one broker (Kafka's `Partition` with its
//! `Replica`s and the fetcher state of `AbstractFetcherThread`), and the events it
//! emits. Kafka 4.0 (mirror commit 1eb7644) defaults are the constants below.

use crate::util::sorted_map::SortedMap;

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::LeaderRecoveryState;

/// `replica.lag.time.max.ms`: a follower that has not caught up for this long leaves
/// the ISR.
pub const REPLICA_LAG_TIME_MAX_MS: i64 = 30_000;
/// `replica.fetch.wait.max.ms`: how long the leader holds a follower's fetch that
/// found no new data.
pub const REPLICA_FETCH_WAIT_MAX_MS: i64 = 500;
/// `replica.fetch.backoff.ms`: a follower's pause after a failed fetch.
pub const REPLICA_FETCH_BACKOFF_MS: i64 = 1_000;
/// How long a follower waits for the answer to a fetch before it gives up (30 s). In
/// Kafka 4.0 that is the broker's `request.timeout.ms`, the request timeout of the
/// fetcher's NetworkClient (`BrokerBlockingSender`); `replica.socket.timeout.ms`, also
/// 30 s, bounds only the connection setup there.
pub const REPLICA_SOCKET_TIMEOUT_MS: i64 = 30_000;
/// `replica.fetch.max.bytes`.
pub const REPLICA_FETCH_MAX_BYTES: i32 = 1_048_576;
/// The ISR expiration task runs every `replica.lag.time.max.ms / 2`
/// (`ReplicaManager.startup`).
pub const ISR_CHECK_INTERVAL_MS: i64 = REPLICA_LAG_TIME_MAX_MS / 2;

/// What the leader knows of one follower (`ReplicaState`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaState {
    /// The follower's LEO as its last fetch said (-1: not fetched yet).
    log_end_offset: i64,
    /// The last time the follower had fetched up to the leader's LEO of that moment.
    last_caught_up_ms: i64,
    last_fetch_leader_leo: i64,
    last_fetch_ms: i64,
    /// The broker epoch the follower's last Fetch carried (-1: none).
    broker_epoch: i64,
    /// Why the follower, though caught up, was last kept out of the ISR.
    isr_refusal: Option<super::broker_registry::IsrIneligibility>,
    /// The follower's log start offset as its last fetch said (-1: not fetched yet).
    log_start_offset: i64,
}

impl ReplicaState {
    /// `ReplicaState` after `Partition.makeLeader`: an ISR member counts as caught up now.
    pub fn reset(in_sync: bool, now_ms: i64) -> Self {
        ReplicaState {
            log_end_offset: -1,
            last_caught_up_ms: if in_sync { now_ms } else { 0 },
            last_fetch_leader_leo: -1,
            last_fetch_ms: 0,
            broker_epoch: -1,
            isr_refusal: None,
            log_start_offset: -1,
        }
    }

    /// `Replica.updateFetchStateOrThrow`: a fetch at `fetch_offset` when the leader's
    /// LEO is `leader_leo`, with the follower's log start offset and broker epoch.
    pub fn on_fetch(
        &mut self,
        (fetch_offset, log_start_offset): (i64, i64),
        broker_epoch: i64,
        leader_leo: i64,
        now_ms: i64,
    ) {
        if fetch_offset >= leader_leo {
            self.last_caught_up_ms = self.last_caught_up_ms.max(now_ms);
        } else if fetch_offset >= self.last_fetch_leader_leo {
            self.last_caught_up_ms = self.last_caught_up_ms.max(self.last_fetch_ms);
        }
        self.log_end_offset = fetch_offset;
        self.log_start_offset = log_start_offset;
        self.broker_epoch = broker_epoch;
        self.last_fetch_leader_leo = leader_leo;
        self.last_fetch_ms = now_ms;
    }

    /// Remembers why the caught-up follower stays out of the ISR (None: it may join);
    /// true when that changed, so the reason is told once.
    pub fn note_isr_refusal(
        &mut self,
        refusal: Option<super::broker_registry::IsrIneligibility>,
    ) -> bool {
        let changed = refusal != self.isr_refusal;
        self.isr_refusal = refusal;
        changed
    }

    /// The follower's LEO as its last fetch said (-1: not fetched yet).
    pub fn log_end_offset(&self) -> i64 {
        self.log_end_offset
    }

    /// The follower's log start offset as its last fetch said (-1: not fetched yet).
    pub fn log_start_offset(&self) -> i64 {
        self.log_start_offset
    }

    /// The last time the follower had fetched up to the leader's LEO of that moment.
    pub fn last_caught_up_ms(&self) -> i64 {
        self.last_caught_up_ms
    }

    /// The broker epoch the follower's last Fetch carried (-1: none).
    pub fn broker_epoch(&self) -> i64 {
        self.broker_epoch
    }

    /// Why the follower, though caught up, was last kept out of the ISR.
    pub fn isr_refusal(&self) -> Option<super::broker_registry::IsrIneligibility> {
        self.isr_refusal
    }

    /// `ReplicaState.isCaughtUp`.
    pub fn is_caught_up(&self, leader_leo: i64, now_ms: i64) -> bool {
        leader_leo == self.log_end_offset
            || now_ms - self.last_caught_up_ms <= REPLICA_LAG_TIME_MAX_MS
    }
}

/// A follower's fetch loop for this partition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FetcherState {
    /// The tag and send time of the fetch (or ListOffsets) in flight.
    pub in_flight: Option<(u64, i64)>,
    /// After OFFSET_OUT_OF_RANGE: the ListOffsets in flight asks for the leader's
    /// earliest offset (true) or its latest (false) (`fetchOffsetAndTruncate`).
    pub resetting: Option<bool>,
    /// No fetch before this time (backoff after an error).
    pub next_fetch_ms: i64,
    /// The leader fenced our leader epoch (`AbstractFetcherThread.markPartitionFailed`
    /// after FENCED_LEADER_EPOCH): no fetch until new leader metadata resets the state.
    pub failed: bool,
}

impl FetcherState {
    /// Takes the fetch (or ListOffsets) in flight if `tag` names it, and returns when it
    /// was sent; an answer to an older one (sent before the leader changed) is None.
    pub fn answered(&mut self, tag: u64) -> Option<i64> {
        match self.in_flight {
            Some((t, sent)) if t == tag => {
                self.in_flight = None;
                Some(sent)
            }
            _ => None,
        }
    }
}

/// An ISR change the leader sent in `AlterPartition` and the controller has not
/// committed yet (Kafka's `PendingExpandIsr` / `PendingShrinkIsr`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingIsr {
    /// The ISR the leader asked for.
    pub proposed: Vec<i32>,
    /// When it was sent; unanswered for the controller channel's timeout, it goes again.
    pub sent_ms: i64,
    /// The controller refused it (`handleAlterPartitionError`): the leader waits for
    /// new metadata and sends nothing more until then.
    pub refused: Option<Errors>,
}

/// This broker's part in one partition.
///
/// The fields are the broker's own (`crate::broker`): the controller's registration
/// and the followers' fetches move them; the rest of the world reads them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Partition {
    pub(super) replicas: Vec<i32>,
    pub(super) leader: i32,
    pub(super) leader_epoch: i32,
    /// The partition epoch of the registration this broker last applied.
    pub(super) partition_epoch: i32,
    /// The committed ISR: the controller's.
    pub(super) isr: Vec<i32>,
    /// A follower keeps the controller's; a leader is RECOVERED from the moment it
    /// leads (`Partition.makeLeader`, Kafka 4.0: its recovery is instant) and says so
    /// in its next AlterPartition.
    pub(super) leader_recovery_state: LeaderRecoveryState,
    /// Leader only: the change in flight, if any.
    pub(super) pending: Option<PendingIsr>,
    /// `min.insync.replicas` of the topic.
    pub(super) min_insync_replicas: i32,
    /// Leader only: what each follower fetched.
    pub(super) remote: SortedMap<i32, ReplicaState>,
    /// Follower only.
    pub(super) fetcher: FetcherState,
}

impl Partition {
    /// The assigned replicas (`Partition.assignmentState.replicas`).
    pub fn replicas(&self) -> &[i32] {
        &self.replicas
    }

    /// The leader as this broker last heard (`Partition.leaderReplicaIdOpt`; -1: none).
    pub fn leader(&self) -> i32 {
        self.leader
    }

    /// `Partition.getLeaderEpoch`.
    pub fn leader_epoch(&self) -> i32 {
        self.leader_epoch
    }

    /// `Partition.getPartitionEpoch`.
    pub fn partition_epoch(&self) -> i32 {
        self.partition_epoch
    }

    /// The committed ISR (`PartitionState.isr`).
    pub fn isr(&self) -> &[i32] {
        &self.isr
    }

    /// `PartitionState.leaderRecoveryState`.
    pub fn leader_recovery_state(&self) -> LeaderRecoveryState {
        self.leader_recovery_state
    }

    /// The ISR change in flight (`PendingExpandIsr` / `PendingShrinkIsr`), leader only.
    pub fn pending(&self) -> Option<&PendingIsr> {
        self.pending.as_ref()
    }

    /// `min.insync.replicas` of the topic.
    pub fn min_insync_replicas(&self) -> i32 {
        self.min_insync_replicas
    }

    /// What the leader knows of each follower (`Partition.remoteReplicas`).
    pub fn remote(&self) -> &SortedMap<i32, ReplicaState> {
        &self.remote
    }

    /// The follower's fetcher state (`AbstractFetcherThread`'s `PartitionFetchState`).
    pub fn fetcher(&self) -> &FetcherState {
        &self.fetcher
    }

    /// `PartitionState.maximalIsr`: while an expansion is pending, the committed ISR
    /// with the new member; while a shrink is pending, the committed ISR (the leader
    /// keeps counting a replica until the controller has removed it).
    pub fn maximal_isr(&self) -> Vec<i32> {
        let mut isr = self.isr.clone();
        for b in self.pending.iter().flat_map(|p| p.proposed.iter()) {
            if !isr.contains(b) {
                isr.push(*b);
            }
        }
        isr
    }

    pub fn is_replicated(&self) -> bool {
        self.replicas.len() > 1
    }

    /// `Partition.effectiveMinIsr`: never more than the replication factor.
    pub fn effective_min_isr(&self) -> i32 {
        self.min_insync_replicas
            .min(i32::try_from(self.replicas.len()).unwrap_or(i32::MAX))
    }

    /// `Partition.isUnderMinIsr`.
    pub fn is_under_min_isr(&self) -> bool {
        (self.isr.len() as i32) < self.effective_min_isr()
    }
}

/// What replication did, for narration and the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ReplicationEvent {
    /// This broker now leads the partition (or follows `leader`) at `leader_epoch`.
    RoleChanged {
        tp: TopicPartition,
        leader: i32,
        leader_epoch: i32,
        isr: Vec<i32>,
        log_end_offset: i64,
    },
    /// This broker leads a partition the controller marked RECOVERING (an unclean
    /// election) and marks it RECOVERED (`Partition.makeLeader`, KIP-704).
    LeaderRecovered {
        tp: TopicPartition,
        leader_epoch: i32,
    },
    /// A follower appended the leader's batches.
    FollowerFetched {
        tp: TopicPartition,
        leader: i32,
        batches: usize,
        log_end_offset: i64,
        high_watermark: i64,
    },
    /// The leader's HW moved: every ISR member has the records below it.
    HighWatermarkAdvanced {
        tp: TopicPartition,
        old: i64,
        new: i64,
        isr: Vec<i32>,
    },
    /// The HW stays: the ISR is smaller than `min.insync.replicas` (since Kafka 3.7).
    HighWatermarkHeld {
        tp: TopicPartition,
        high_watermark: i64,
        log_end_offset: i64,
        isr: Vec<i32>,
        min_insync_replicas: i32,
    },
    /// Followers left the ISR: no fetch up to the leader's LEO for
    /// `replica.lag.time.max.ms`.
    IsrShrunk {
        tp: TopicPartition,
        removed: Vec<i32>,
        isr: Vec<i32>,
        lag_ms: i64,
    },
    /// A follower caught up to the HW and rejoined the ISR.
    IsrExpanded {
        tp: TopicPartition,
        added: i32,
        isr: Vec<i32>,
        follower_leo: i64,
    },
    /// The controller refused the leader's AlterPartition (`handleAlterPartitionError`):
    /// the leader keeps its maximal ISR and waits for the controller's metadata.
    AlterPartitionRefused {
        tp: TopicPartition,
        proposed: Vec<i32>,
        error: Errors,
        leader_epoch: i32,
        partition_epoch: i32,
    },
    /// A follower caught up but may not join the ISR (`isReplicaIsrEligible`):
    /// fenced, in controlled shutdown, or fetching with an older broker epoch. Said
    /// once per reason, not at every fetch.
    IsrExpansionRefused {
        tp: TopicPartition,
        replica: i32,
        reason: super::broker_registry::IsrIneligibility,
        follower_leo: i64,
    },
    /// A Fetch carried a broker epoch older than the follower's registration (sent
    /// before it restarted): NOT_LEADER_OR_FOLLOWER, and its offsets are not taken.
    StaleFetchRefused {
        tp: TopicPartition,
        replica: i32,
        fetched_epoch: i64,
        registered_epoch: i64,
    },
    /// A follower cut its log where it diverges from the new leader's.
    Truncated {
        tp: TopicPartition,
        leader: i32,
        to_offset: i64,
        removed_batches: usize,
        diverging_epoch: i32,
    },
    /// A follower's fetch offset was out of range at the leader
    /// (`AbstractFetcherThread.fetchOffsetAndTruncate`): it truncated to the leader's
    /// end (`fully` false), or dropped its whole log and starts at the leader's log
    /// start (`truncateFullyAndStartAt`, `fully` true).
    OffsetOutOfRangeReset {
        tp: TopicPartition,
        leader: i32,
        from: i64,
        to: i64,
        fully: bool,
    },
    /// The leader has a newer leader epoch than the one this follower fetched with
    /// (FENCED_LEADER_EPOCH): it stops fetching until it learns the new epoch
    /// (`AbstractFetcherThread.onPartitionFenced`).
    FetchFenced {
        tp: TopicPartition,
        leader: i32,
        leader_epoch: i32,
    },
    /// A follower's fetch failed; it waits `replica.fetch.backoff.ms`.
    FetchFailed {
        tp: TopicPartition,
        leader: i32,
        error: Errors,
    },
    /// A DeleteRecords answer waits: a follower's log start is still below the
    /// offset (`DelayedDeleteRecords`).
    DeleteRecordsDelayed {
        tp: TopicPartition,
        required_offset: i64,
        low_watermark: i64,
    },
    /// A waiting DeleteRecords partition is settled: every replica's log start
    /// reached the offset (NONE), the request timed out, or leadership moved.
    DeleteRecordsCompleted {
        tp: TopicPartition,
        low_watermark: i64,
        error: Errors,
    },
    /// An `acks=all` Produce answered once the HW passed its records, or when its
    /// timeout expired.
    DelayedProduceCompleted {
        tp: TopicPartition,
        required_offset: i64,
        error: Errors,
    },
}
