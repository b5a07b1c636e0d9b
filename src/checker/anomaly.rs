//! What the checker can find, as data: Jepsen's anomaly names for what clients saw,
//! and Kafka's own invariants for what brokers hold. The words that explain each one
//! live in the catalog (`crate::i18n::checker`), which gets plain values from here: the
//! anomaly's name, its catalog message id, the witness's identifiers and numbers.
//!
//! The client-side names and their meaning follow `jepsen.tests.kafka`
//! (jepsen-io/jepsen, `jepsen/src/jepsen/tests/kafka.clj`, commit `c4c7473`). That file
//! also keeps a list of what Kafka *allows* (`allowed-error-types`): `int-send-skip`
//! (transactions interleave their writes) and `G0` (writes are never isolated). The
//! checker does not report those at all — they are not anomalies in Kafka's model — so
//! every variant here is something Kafka must never do. One more is left out for the
//! same reason: copies of a value from one idempotent producer under two of its epochs.
//! Kafka's dedup holds within one producer id and epoch, and its client bumps the epoch
//! itself after OUT_OF_ORDER_SEQUENCE_NUMBER, renumbering batches a broker may already
//! have written (KIP-360; `clients::across_epoch_bump`). A broker restart that keeps
//! only the last batch in its producer snapshot is one way there
//! (`ProducerStateManager.readSnapshot`); `tests/scenarios/idempotence/
//! restart_then_epoch_bump_writes_twice.eos` shows it.

use serde::Serialize;

use crate::i18n::checker::{expected_line, line};
use crate::i18n::Lang;
use crate::log::TopicPartition;

/// One kind of violation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Anomaly {
    /// `lost-write`: an acknowledged, committed send was never read although reads went
    /// past its offset (Jepsen: values before the highest read index that no poll saw),
    /// or the log no longer reaches its acknowledged offset.
    LostWrite,
    /// `duplicate`: one sent value at two offsets of a partition.
    Duplicate,
    /// `inconsistent-offsets`: one offset with two values (across reads, replicas, or
    /// the acknowledgement and the log).
    InconsistentOffsets,
    /// `G1a` (aborted read): read_committed returned a record of an aborted transaction.
    G1a,
    /// `precommitted-read`: read_committed returned a transactional record before its
    /// transaction committed (Jepsen: "sent values are supposed to be invisible to all
    /// pollers until their producing txn commits").
    PrecommittedRead,
    /// `nonmonotonic-poll`: a consumer's next poll started at or before where its
    /// previous poll of the partition ended.
    NonmonotonicPoll,
    /// `int-nonmonotonic-poll`: the same, inside one poll.
    IntNonmonotonicPoll,
    /// `poll-skip`: between two polls a consumer jumped over records it should have read.
    PollSkip,
    /// `int-poll-skip`: the same, inside one poll.
    IntPollSkip,
    /// `nonmonotonic-send`: an idempotent producer's acknowledged sends to a partition
    /// went backwards in the log.
    NonmonotonicSend,
    /// `unseen`: at the end, acknowledged and committed, but no consumer read it.
    Unseen,
    /// Kafka: `logStartOffset ≤ LSO ≤ HW ≤ LEO` on every replica.
    OffsetOrder,
    /// Kafka: a leader's high watermark never moves backwards.
    HighWatermarkBackwards,
    /// Kafka: a producer's dedup window holds at most 5 batches
    /// (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`).
    WindowTooLarge,
    /// Kafka (KIP-966, `PartitionChangeBuilder`): an eligible leader replica is never in
    /// the ISR, and there is none while the ISR is at `min.insync.replicas`.
    ElrMembership,
    /// Kafka (KIP-704, `ReplicationControlManager.validateAlterPartitionData`): a
    /// partition marked RECOVERING after an unclean election has at most its leader
    /// in the ISR.
    LeaderRecovery,
    /// Kafka: a batch from an epoch older than one the partition already saw for that
    /// producer is never written (`ProducerAppendInfo.checkProducerEpoch`).
    FencedWrite,
    /// Kafka: the coordinator completed a transaction while a partition it touched has no
    /// marker for it.
    MissingMarker,
    /// Kafka (transaction.version 2): a second marker for the same transaction in one
    /// partition. Before TV2 Kafka writes a repeated marker again (an empty one), so
    /// this is only checked with TV2.
    ExtraMarker,
    /// Kafka: a partition holds a transaction open past its timeout plus the cleanup
    /// interval with every broker up and no fault in the way (a hanging transaction).
    HangingTransaction,
    /// Kafka (transaction.version 2, where each transaction ends at an epoch of its
    /// own): one transaction got two outcomes — a COMMIT marker somewhere and an ABORT
    /// marker or a CompleteAbort elsewhere (or the reverse). The coordinator decides
    /// once, in its Prepare* record, and only then sends markers
    /// (`TransactionCoordinator.endTransaction`, Kafka 4.0).
    MixedOutcome,
    /// Kafka: batches that were in flight together are all recognised as duplicates
    /// when retried — the window keeps 5 batches and an idempotent producer has at
    /// most 5 requests in flight (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`,
    /// `ProducerConfig`). Here a written batch's retry was refused as
    /// OUT_OF_ORDER_SEQUENCE_NUMBER although none of the 5 or more batches written
    /// after it had been acknowledged: the producer takes a written batch for a gap (it
    /// fails it, or an idempotent producer bumps its epoch and writes it again).
    /// (A batch whose later batches were acknowledged in the meantime can fall out of
    /// the window in Kafka too, so that is not reported.)
    RetryOutOfWindow,
    /// Kafka: a transaction's markers are written only once its PrepareCommit or
    /// PrepareAbort record is replicated (`TransactionCoordinator.endTransaction` sends
    /// them from `appendTransactionToLog`'s callback, Kafka 4.0): a marker landed
    /// while the record was still above the HW of its `__transaction_state` partition,
    /// so a coordinator failover could still forget the decision the marker applied.
    MarkerBeforePrepare,
    /// End-to-end exactly-once of a consume-transform-produce app: each input record
    /// below the group's committed offset is reflected exactly once in the committed
    /// output, and none at or past it (`sendOffsetsToTransaction` commits the input
    /// position with the output, KIP-98).
    CtpExactlyOnce,
}

impl Anomaly {
    /// Every kind, in a stable order.
    pub const ALL: &'static [Anomaly] = &[
        Anomaly::LostWrite,
        Anomaly::Duplicate,
        Anomaly::InconsistentOffsets,
        Anomaly::G1a,
        Anomaly::PrecommittedRead,
        Anomaly::NonmonotonicPoll,
        Anomaly::IntNonmonotonicPoll,
        Anomaly::PollSkip,
        Anomaly::IntPollSkip,
        Anomaly::NonmonotonicSend,
        Anomaly::Unseen,
        Anomaly::OffsetOrder,
        Anomaly::HighWatermarkBackwards,
        Anomaly::WindowTooLarge,
        Anomaly::ElrMembership,
        Anomaly::LeaderRecovery,
        Anomaly::FencedWrite,
        Anomaly::MissingMarker,
        Anomaly::ExtraMarker,
        Anomaly::HangingTransaction,
        Anomaly::MixedOutcome,
        Anomaly::RetryOutOfWindow,
        Anomaly::MarkerBeforePrepare,
        Anomaly::CtpExactlyOnce,
    ];

    /// The identifier: Jepsen's keyword for the client-side kinds, a kebab-case name for
    /// Kafka's invariants. An identifier, never translated.
    pub fn name(self) -> &'static str {
        match self {
            Anomaly::LostWrite => "lost-write",
            Anomaly::Duplicate => "duplicate",
            Anomaly::InconsistentOffsets => "inconsistent-offsets",
            Anomaly::G1a => "G1a",
            Anomaly::PrecommittedRead => "precommitted-read",
            Anomaly::NonmonotonicPoll => "nonmonotonic-poll",
            Anomaly::IntNonmonotonicPoll => "int-nonmonotonic-poll",
            Anomaly::PollSkip => "poll-skip",
            Anomaly::IntPollSkip => "int-poll-skip",
            Anomaly::NonmonotonicSend => "nonmonotonic-send",
            Anomaly::Unseen => "unseen",
            Anomaly::OffsetOrder => "offset-order",
            Anomaly::HighWatermarkBackwards => "hw-backwards",
            Anomaly::WindowTooLarge => "window-too-large",
            Anomaly::ElrMembership => "elr-membership",
            Anomaly::LeaderRecovery => "leader-recovery",
            Anomaly::FencedWrite => "fenced-write",
            Anomaly::MissingMarker => "missing-marker",
            Anomaly::ExtraMarker => "extra-marker",
            Anomaly::HangingTransaction => "hanging-transaction",
            Anomaly::MixedOutcome => "mixed-outcome",
            Anomaly::RetryOutOfWindow => "retry-out-of-window",
            Anomaly::MarkerBeforePrepare => "marker-before-prepare",
            Anomaly::CtpExactlyOnce => "ctp-exactly-once",
        }
    }

    /// Whether Jepsen's Kafka checker has this kind (the rest are Kafka's invariants).
    pub fn is_jepsen(self) -> bool {
        matches!(
            self,
            Anomaly::LostWrite
                | Anomaly::Duplicate
                | Anomaly::InconsistentOffsets
                | Anomaly::G1a
                | Anomaly::PrecommittedRead
                | Anomaly::NonmonotonicPoll
                | Anomaly::IntNonmonotonicPoll
                | Anomaly::PollSkip
                | Anomaly::IntPollSkip
                | Anomaly::NonmonotonicSend
                | Anomaly::Unseen
        )
    }

    pub fn from_name(name: &str) -> Option<Anomaly> {
        Anomaly::ALL.iter().copied().find(|a| a.name() == name)
    }
}

/// A violation and its witness: what was involved, where, and when it became visible.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub anomaly: Anomaly,
    pub tp: Option<TopicPartition>,
    /// The client (producer or consumer) or broker (`broker-N`) involved, if one.
    pub who: Option<String>,
    /// The record values involved.
    pub values: Vec<String>,
    /// The offsets involved (for a skip: the last read, then the next read).
    pub offsets: Vec<i64>,
    /// The world events that show it (`Event::seq`).
    pub events: Vec<u64>,
    /// How many scenario steps had run when the checker saw it: replaying that many
    /// steps shows it.
    pub step: usize,
    /// Logical time when it was seen.
    pub at_ms: i64,
    /// Numbers that make the case (e.g. the LSO, HW and LEO; the epochs), by name.
    pub numbers: Vec<(&'static str, i64)>,
}

impl Anomaly {
    /// The catalog message that says what the anomaly is (its words are in
    /// `i18n/catalog/*.txt`).
    pub fn explain_id(self) -> &'static str {
        match self {
            Anomaly::LostWrite => "checker.lost-write",
            Anomaly::Duplicate => "checker.duplicate",
            Anomaly::InconsistentOffsets => "checker.inconsistent-offsets",
            Anomaly::G1a => "checker.g1a",
            Anomaly::PrecommittedRead => "checker.precommitted-read",
            Anomaly::NonmonotonicPoll => "checker.nonmonotonic-poll",
            Anomaly::IntNonmonotonicPoll => "checker.int-nonmonotonic-poll",
            Anomaly::PollSkip => "checker.poll-skip",
            Anomaly::IntPollSkip => "checker.int-poll-skip",
            Anomaly::NonmonotonicSend => "checker.nonmonotonic-send",
            Anomaly::Unseen => "checker.unseen",
            Anomaly::OffsetOrder => "checker.offset-order",
            Anomaly::HighWatermarkBackwards => "checker.hw-backwards",
            Anomaly::WindowTooLarge => "checker.window-too-large",
            Anomaly::ElrMembership => "checker.elr-membership",
            Anomaly::LeaderRecovery => "checker.leader-recovery",
            Anomaly::FencedWrite => "checker.fenced-write",
            Anomaly::MissingMarker => "checker.missing-marker",
            Anomaly::ExtraMarker => "checker.extra-marker",
            Anomaly::HangingTransaction => "checker.hanging-transaction",
            Anomaly::MixedOutcome => "checker.mixed-outcome",
            Anomaly::RetryOutOfWindow => "checker.retry-out-of-window",
            Anomaly::MarkerBeforePrepare => "checker.marker-before-prepare",
            Anomaly::CtpExactlyOnce => "checker.ctp-exactly-once",
        }
    }
}

fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl Violation {
    /// The witness as `key=value` fields: identifiers and numbers only, never words.
    pub fn witness(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tp) = &self.tp {
            parts.push(tp.to_string());
        }
        if let Some(who) = &self.who {
            parts.push(who.clone());
        }
        if !self.values.is_empty() {
            parts.push(format!("values={}", join(&self.values)));
        }
        if !self.offsets.is_empty() {
            parts.push(format!("offsets={}", join(&self.offsets)));
        }
        for (name, n) in &self.numbers {
            parts.push(format!("{name}={n}"));
        }
        if !self.events.is_empty() {
            parts.push(format!("events={}", join(&self.events)));
        }
        parts.join(" ")
    }

    /// One line: the name, the witness, and the step that shows it (the catalog words
    /// it).
    pub fn line(&self, lang: Lang) -> String {
        line(self.anomaly.name(), &self.witness(), self.step, lang)
    }

    /// The line of a finding Kafka allows after an unclean election
    /// (`Checker::expected`).
    pub fn expected_line(&self, lang: Lang) -> String {
        let reopened = super::unclean::Allowance::of(self.anomaly)
            == super::unclean::Allowance::TransactionReopened;
        expected_line(
            reopened,
            self.anomaly.name(),
            &self.witness(),
            self.step,
            lang,
        )
    }
}

/// What makes two findings the same: kind, partition, values, offsets.
pub(super) type FindingKey = (Anomaly, Option<TopicPartition>, Vec<String>, Vec<i64>);

impl Violation {
    /// A key that says "the same finding" so each is reported once.
    pub(super) fn key(&self) -> FindingKey {
        (
            self.anomaly,
            self.tp.clone(),
            self.values.clone(),
            self.offsets.clone(),
        )
    }
}
