//! The idempotence page's model: everything the first page shows, read from one world
//! once per render (the UI's idempotence page lays it out and hands each panel its
//! slice): the producer, the partition's last verdict and where to mark it, the dedup
//! window and log, the last restart, the events.

use crate::broker::broker::{BrokerEvent, SeqRange};
use crate::i18n::{tfl, Key, Lang};
use crate::log::{RecoveryReport, SeqDirection, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;
use crate::sim::view::{LogView, WindowView};
use crate::sim::{EventKind, Fault, World, START_MS};
use crate::view::cluster::{cluster_views, ClusterViews};
use crate::view::events::{event_items, EventItem};
use crate::view::page::{Page, PRODUCER, TOPIC};

/// How many events the list keeps on screen.
const MAX_EVENTS: usize = 400;

/// What the producer panel shows about producer-1.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ProducerInfo {
    /// (producerId, epoch, next sequence on orders-0) once it has an id.
    pub id: Option<(i64, i16, i32)>,
    pub in_network: usize,
    pub pending: usize,
    pub faults: Vec<String>,
}

/// The last restart of the partition's broker, as the broker reported it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecoveryInfo {
    pub at_ms: i64,
    /// How the broker stopped: (clean, snapshot files written).
    pub stopped: Option<(bool, usize)>,
    pub report: RecoveryReport,
    pub windows: Vec<(i64, Vec<SeqRange>)>,
}

/// Which window slot lit up with the last decision.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotMark {
    pub producer_id: i64,
    pub first_seq: i32,
    /// true: a duplicate matched this slot; false: this batch was just appended.
    pub duplicate: bool,
}

/// The broker's latest decision on a batch, as the verdict panel reads it: the numbers
/// of a `BatchAppended`, `BatchDuplicate` or `BatchRejected` event. The page's props
/// clone and compare these few fields rather than a whole `BrokerEvent`, whose derived
/// `Clone` and `PartialEq` (every variant's) would otherwise be in the wasm for it.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictView {
    /// Logical ms since the start.
    pub at_ms: i64,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub first_seq: i32,
    pub last_seq: i32,
    pub outcome: VerdictOutcome,
}

/// What the broker did with the batch.
#[derive(Clone, Debug, PartialEq)]
pub enum VerdictOutcome {
    /// Written (`duplicate: false`), or a retry answered with the offsets it was
    /// written at (`true`).
    Written {
        duplicate: bool,
        first_offset: i64,
        last_offset: i64,
        log_end_offset: i64,
    },
    Rejected {
        error: Errors,
        expected_seq: Option<i32>,
        seq_direction: Option<SeqDirection>,
        current_epoch: Option<i16>,
        detail: ErrorDetail,
    },
}

impl VerdictView {
    /// The verdict an event is, if it is one.
    pub fn of(at_ms: i64, event: &BrokerEvent) -> Option<VerdictView> {
        let (producer_id, producer_epoch, first_seq, last_seq, outcome) = match event {
            e @ (BrokerEvent::BatchAppended {
                producer_id,
                producer_epoch,
                first_seq,
                last_seq,
                first_offset,
                last_offset,
                log_end_offset,
                ..
            }
            | BrokerEvent::BatchDuplicate {
                producer_id,
                producer_epoch,
                first_seq,
                last_seq,
                first_offset,
                last_offset,
                log_end_offset,
                ..
            }) => (
                producer_id,
                producer_epoch,
                first_seq,
                last_seq,
                VerdictOutcome::Written {
                    duplicate: matches!(e, BrokerEvent::BatchDuplicate { .. }),
                    first_offset: *first_offset,
                    last_offset: *last_offset,
                    log_end_offset: *log_end_offset,
                },
            ),
            BrokerEvent::BatchRejected {
                producer_id,
                producer_epoch,
                first_seq,
                last_seq,
                error,
                expected_seq,
                seq_direction,
                current_epoch,
                detail,
                ..
            } => (
                producer_id,
                producer_epoch,
                first_seq,
                last_seq,
                VerdictOutcome::Rejected {
                    error: *error,
                    expected_seq: *expected_seq,
                    seq_direction: *seq_direction,
                    current_epoch: *current_epoch,
                    detail: detail.clone(),
                },
            ),
            _ => return None,
        };
        Some(VerdictView {
            at_ms,
            producer_id: *producer_id,
            producer_epoch: *producer_epoch,
            first_seq: *first_seq,
            last_seq: *last_seq,
            outcome,
        })
    }

    /// `APPEND`, `DUPLICATE` or the refusal's error name (Kafka's words, in every
    /// language).
    pub fn word(&self) -> &'static str {
        match &self.outcome {
            VerdictOutcome::Written {
                duplicate: false, ..
            } => "APPEND",
            VerdictOutcome::Written { .. } => "DUPLICATE",
            VerdictOutcome::Rejected { error, .. } => error.name(),
        }
    }
}

/// Everything the idempotence page shows, read from one world.
#[derive(Clone, Debug, PartialEq)]
pub struct IdempotenceViews {
    pub clock: i64,
    /// The partition shown (the learner's choice, else the latest written).
    pub tp: Option<TopicPartition>,
    pub partitions: Vec<TopicPartition>,
    pub log: Option<LogView>,
    pub windows: Vec<WindowView>,
    /// The restart that rebuilt the window, narrated, until the next verdict on `tp`.
    pub restart_note: Option<String>,
    /// The latest verdict on `tp`, with its logical time.
    pub verdict: Option<VerdictView>,
    pub recovery: Option<RecoveryInfo>,
    /// The leader of `tp` is up.
    pub online: bool,
    pub snapshots: bool,
    pub producer: ProducerInfo,
    pub events: Vec<EventItem>,
    /// Brokers and the shown partition's replicas (more than one broker).
    pub cluster: Option<ClusterViews>,
    /// The page's free-play challenges: (id, solved).
    pub challenges: Vec<(&'static str, bool)>,
}

/// Reads the page's views from `world`, worded in `lang`, for the partition the
/// learner `selected` (else the latest written: [`shown_tp`]).
pub fn idempotence_views(
    world: &World,
    selected: Option<&TopicPartition>,
    lang: Lang,
) -> IdempotenceViews {
    let tp = shown_tp(world, selected);
    let leader = tp.as_ref().and_then(|tp| world.leader_of(tp)).unwrap_or(1);
    IdempotenceViews {
        challenges: crate::view::challenges::items(Page::Idempotence, world),
        clock: world.clock_ms() - START_MS,
        partitions: world.partitions(),
        log: tp.as_ref().and_then(|tp| world.log_view(tp)),
        windows: tp.as_ref().map(|tp| world.windows(tp)).unwrap_or_default(),
        restart_note: tp
            .as_ref()
            .and_then(|tp| crate::view::window::restart_note(world, tp))
            .map(|e| crate::i18n::narrate(e, lang)),
        verdict: tp.as_ref().and_then(|tp| last_verdict(world, tp)),
        recovery: tp.as_ref().and_then(|tp| last_recovery(world, tp)),
        online: world.brokers().get(&leader).is_some_and(|b| b.is_online()),
        snapshots: world.broker_defaults().producer_snapshots,
        producer: producer_info(world, lang),
        events: event_items(world, MAX_EVENTS, crate::view::tone::idempotence, lang),
        cluster: cluster_views(world, tp.as_ref()),
        tp,
    }
}

/// The partition the page shows in `world`: the learner's choice while `world` has it,
/// else the one where something happened last (so a lesson's panels follow the
/// lesson), else the first.
pub fn shown_tp(world: &World, selected: Option<&TopicPartition>) -> Option<TopicPartition> {
    let parts = world.partitions();
    match selected {
        Some(tp) if parts.contains(tp) => Some(tp.clone()),
        _ => latest_tp(world)
            .filter(|tp| parts.contains(tp))
            .or_else(|| parts.into_iter().next()),
    }
}

/// The partition of the latest event that names one: a verdict on a batch, a rolled
/// segment, a recovery, a topic created (its partition 0).
fn latest_tp(world: &World) -> Option<TopicPartition> {
    world.events().iter().rev().find_map(|e| match &e.kind {
        EventKind::Broker {
            event:
                BrokerEvent::BatchAppended { tp, .. }
                | BrokerEvent::BatchDuplicate { tp, .. }
                | BrokerEvent::BatchRejected { tp, .. }
                | BrokerEvent::SegmentRolled { tp, .. }
                | BrokerEvent::Recovered { tp, .. },
            ..
        } => Some(tp.clone()),
        EventKind::TopicCreated { topic, .. } => Some(TopicPartition::new(topic.clone(), 0)),
        _ => None,
    })
}

/// producer-1's id, epoch and next sequence, what it has in flight and the faults armed.
fn producer_info(world: &World, lang: Lang) -> ProducerInfo {
    let Some(p) = world.producers().get(PRODUCER) else {
        return ProducerInfo::default();
    };
    let armed = |key: Key, node: &Option<String>| {
        format!(
            "{} ({})",
            crate::i18n::labels::text(key, lang),
            node.as_deref().unwrap_or("*")
        )
    };
    ProducerInfo {
        id: (p.producer_id() >= 0).then(|| {
            (
                p.producer_id(),
                p.producer_epoch(),
                p.next_sequence(&TopicPartition::new(TOPIC, 0)),
            )
        }),
        in_network: world.network().in_flight().count(),
        pending: p.pending_batches(),
        faults: world
            .network()
            .faults()
            .iter()
            .map(|f| match f {
                Fault::DropNextRequest { from } => armed(Key::DropRequestButton, from),
                Fault::DropNextResponse { to } => armed(Key::DropAckButton, to),
                // Faults armed by scenario steps: the catalog's wording.
                other => crate::i18n::narration::fault(other, lang),
            })
            .collect(),
    }
}

/// The latest APPEND / DUPLICATE / rejection on `tp` (`World::last_verdict_index`), with
/// its logical time.
pub fn last_verdict(world: &World, tp: &TopicPartition) -> Option<VerdictView> {
    let e = world.events().get(world.last_verdict_index(tp)?)?;
    match &e.kind {
        EventKind::Broker { event, .. } => VerdictView::of(e.at_ms - START_MS, event),
        _ => None,
    }
}

/// The last restart of the partition's broker: how it stopped and how it recovered.
fn last_recovery(world: &World, tp: &TopicPartition) -> Option<RecoveryInfo> {
    let (i, e) = world.events().iter().enumerate().rev().find(|(_, e)| {
        matches!(&e.kind, EventKind::Broker { event: BrokerEvent::Recovered { tp: t, .. }, .. } if t == tp)
    })?;
    let EventKind::Broker {
        event: BrokerEvent::Recovered {
            report, windows, ..
        },
        ..
    } = &e.kind
    else {
        return None;
    };
    let stopped = world
        .events()
        .get(..i)
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(|e| match &e.kind {
            EventKind::Broker {
                event: BrokerEvent::Stopped { clean, snapshots },
                ..
            } => Some((*clean, snapshots.len())),
            _ => None,
        });
    Some(RecoveryInfo {
        at_ms: e.at_ms - START_MS,
        stopped,
        report: report.clone(),
        windows: windows.clone(),
    })
}

/// Where the last verdict happened: the window slot and the log batch (its first
/// offset, and whether it was a duplicate) to mark.
pub fn marks(verdict: &Option<VerdictView>) -> (Option<SlotMark>, Option<(i64, bool)>) {
    match verdict {
        Some(
            v @ VerdictView {
                outcome:
                    VerdictOutcome::Written {
                        duplicate,
                        first_offset,
                        ..
                    },
                ..
            },
        ) => (
            Some(SlotMark {
                producer_id: v.producer_id,
                first_seq: v.first_seq,
                duplicate: *duplicate,
            }),
            Some((*first_offset, *duplicate)),
        ),
        _ => (None, None),
    }
}

/// The raw panel's hint for a typed producer id: the sequence the window expects next
/// from it (the one after its last batch), or that it starts at 0. `None` for text
/// that is not a producer id.
pub fn expected_sequence(windows: &[WindowView], pid: &str, lang: Lang) -> Option<String> {
    let pid: i64 = pid.trim().parse().ok()?;
    let last = windows
        .iter()
        .find(|w| w.producer_id == pid)
        .and_then(|w| w.batches.last());
    Some(match last {
        Some(b) => tfl(
            Key::RawExpectedNext,
            lang,
            &[
                &crate::log::producer_state::increment_sequence(b.last_seq, 1).to_string(),
                &pid.to_string(),
            ],
        ),
        None => tfl(Key::RawExpectedFirst, lang, &[&pid.to_string()]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Replay};

    /// A world after `src` (a scenario) has run to its end.
    fn world(src: &str) -> World {
        let played = Replay::to(parse(src).expect("parses"), usize::MAX);
        assert!(played.is_done() && played.error().is_none());
        played.into_world()
    }

    const SENDS: &str = "cluster brokers=1\ntopic create orders partitions=1\n\
        producer producer-1 create\n\
        producer producer-1 send orders-0 a\nproducer producer-1 flush\n";

    #[test]
    fn a_first_append_is_marked_in_the_window_and_the_log() {
        let w = world(SENDS);
        let tp = TopicPartition::new(TOPIC, 0);
        let v = idempotence_views(&w, Some(&tp), Lang::En);
        assert_eq!(v.tp, Some(tp));
        let (slot, log) = marks(&v.verdict);
        let pid = v.producer.id.expect("producer-1 has an id").0;
        assert_eq!(
            slot,
            Some(SlotMark {
                producer_id: pid,
                first_seq: 0,
                duplicate: false
            })
        );
        assert_eq!(log, Some((0, false)));
        assert_eq!(
            v.producer.id.map(|(_, epoch, next)| (epoch, next)),
            Some((0, 1))
        );
        assert!(v.online && v.recovery.is_none());
        assert_eq!(v.windows.len(), 1);
        assert!(!v.events.is_empty());
    }

    #[test]
    fn a_restart_is_read_with_how_the_broker_stopped() {
        let w = world(&format!("{SENDS}broker 1 restart crash\n"));
        let v = idempotence_views(&w, Some(&TopicPartition::new(TOPIC, 0)), Lang::En);
        let recovery = v.recovery.expect("the restart recovered orders-0");
        assert_eq!(recovery.stopped.map(|(clean, _)| clean), Some(false));
    }

    #[test]
    fn the_raw_hint_names_the_next_sequence_or_the_first() {
        let w = world(SENDS);
        let windows = w.windows(&TopicPartition::new(TOPIC, 0));
        let pid = windows[0].producer_id;
        let next = expected_sequence(&windows, &format!(" {pid} "), Lang::En).expect("an id");
        assert!(
            next.contains('1') && next.contains(&pid.to_string()),
            "{next}"
        );
        let first = expected_sequence(&windows, "77", Lang::En).expect("an id");
        assert_ne!(first, next);
        assert!(first.contains("77"), "{first}");
        assert_eq!(expected_sequence(&windows, "pid", Lang::En), None);
        assert_eq!(
            idempotence_views(&World::new(Default::default()), None, Lang::En).verdict,
            None
        );
    }
    /// Two topics, `orders` written first and `audit` last.
    const TWO_TOPICS: &str = "cluster brokers=1\ntopic create orders partitions=2\n\
        topic create audit partitions=1\nproducer producer-1 create\n\
        producer producer-1 send orders-1 a\nproducer producer-1 flush\n\
        producer producer-1 send audit-0 b\nproducer producer-1 flush\n";

    #[test]
    fn the_page_follows_the_latest_write_until_the_learner_chooses() {
        let w = world(TWO_TOPICS);
        let audit = TopicPartition::new("audit", 0);
        let orders_1 = TopicPartition::new(TOPIC, 1);
        assert_eq!(shown_tp(&w, None), Some(audit.clone()));
        assert_eq!(shown_tp(&w, Some(&orders_1)), Some(orders_1.clone()));
        // A choice the world does not have (a partition of another world) is ignored.
        let gone = TopicPartition::new("gone", 0);
        assert_eq!(shown_tp(&w, Some(&gone)), Some(audit.clone()));
        let v = idempotence_views(&w, Some(&orders_1), Lang::En);
        assert_eq!(v.tp, Some(orders_1));
        assert_eq!(v.log.map(|l| l.batches.len()), Some(1));
        assert_eq!(v.verdict.map(|x| x.word()), Some("APPEND"));
        let latest = idempotence_views(&w, None, Lang::En);
        assert_eq!(latest.tp, Some(audit));
        assert_eq!(latest.partitions.len(), 3);
    }

    #[test]
    fn a_new_topic_is_shown_before_anything_is_written_to_it() {
        let w = world(&format!("{SENDS}topic create audit partitions=1\n"));
        assert_eq!(shown_tp(&w, None), Some(TopicPartition::new("audit", 0)));
        assert_eq!(shown_tp(&World::new(Default::default()), None), None);
    }
}
