//! "Try it": goals for free play that the engine checks. Each is a question about the
//! world's events or state — never about which buttons were pressed — so any way that
//! makes the broker do it counts, on any page, in any order. The break-it module's goal
//! is the chaos page's: there the checker, not one world, is what answers. The Pulsar
//! module's goals are about the Pulsar page's world (its free play).

use crate::broker::broker::BrokerEvent;
use crate::protocol::errors::Errors;
#[cfg(feature = "pulsar")]
use crate::pulsar::{EntryData, PulsarEventKind, PulsarWorld};
use crate::sim::{Event, EventKind, World};
use crate::view::page::Page;

/// One challenge. Its words are the catalog's `challenge.ID` (the goal) and
/// `challenge.ID.hint`.
#[derive(Clone, Copy, Debug)]
pub struct Challenge {
    pub id: &'static str,
    /// The course module it practises (`scenario::course`'s module keys).
    pub module: &'static str,
    /// The page whose controls reach it (None: the chaos page, or the Pulsar page for
    /// a Pulsar goal).
    pub page: Option<Page>,
    goal: Goal,
}

/// What answers whether a challenge is solved.
#[derive(Clone, Copy, Debug)]
enum Goal {
    /// One of the page's world's events shows it. A page's event goals are checked
    /// together in one pass over the events (`items`): the panel asks at every click,
    /// and a world preloaded with 10,000 batches holds ≈ 90,000 events.
    Event(fn(&Event) -> bool),
    /// The page's world's state shows it.
    World(fn(&World) -> bool),
    /// The chaos search's checker reports it: the names of the anomalies found.
    Found(fn(&[&str]) -> bool),
    /// The Pulsar page's world shows it.
    #[cfg(feature = "pulsar")]
    Pulsar(fn(&PulsarWorld) -> bool),
}

impl Challenge {
    /// True when the world shows the goal reached (never for a chaos goal).
    pub fn solved(&self, world: &World) -> bool {
        match self.goal {
            Goal::Event(f) => world.events().iter().any(f),
            Goal::World(f) => f(world),
            _ => false,
        }
    }

    /// True when the Pulsar world shows the goal reached (never for a Kafka goal).
    #[cfg(feature = "pulsar")]
    pub fn solved_pulsar(&self, world: &PulsarWorld) -> bool {
        matches!(self.goal, Goal::Pulsar(f) if f(world))
    }

    /// True when the anomalies a chaos search found (`checker::Anomaly::name`) reach
    /// the goal (never for a goal about one world).
    pub fn found(&self, anomalies: &[&str]) -> bool {
        matches!(self.goal, Goal::Found(f) if f(anomalies))
    }
}

/// True when `e` is a broker's answer to a request of one of `apis` with one of
/// `errors`. The error is compared first: every response carries an error code
/// (`NONE` when it went well).
fn answered(e: &Event, apis: &[&str], errors: &[Errors]) -> bool {
    matches!(&e.kind, EventKind::MessageSent { api, response: true, error: Some(err), .. }
        if errors.contains(err) && apis.contains(&api.as_str()))
}

fn gap(e: &Event) -> bool {
    matches!(
        &e.kind,
        EventKind::Broker {
            event: BrokerEvent::BatchRejected {
                error: Errors::OutOfOrderSequenceNumber,
                ..
            },
            ..
        }
    )
}

fn duplicate(e: &Event) -> bool {
    matches!(
        &e.kind,
        EventKind::Broker {
            event: BrokerEvent::BatchDuplicate { .. },
            ..
        }
    )
}

/// A partition of the learner's topics whose LSO is below its high watermark: an open
/// transaction holds every read_committed consumer back.
fn stuck_lso(w: &World) -> bool {
    w.partitions()
        .iter()
        .filter(|tp| !crate::coordinator::internal_topics::is_internal(&tp.topic))
        .filter_map(|tp| {
            w.leader_of(tp)
                .and_then(|b| w.brokers().get(&b))
                .and_then(|b| b.logs().get(tp))
        })
        .any(|l| l.last_stable_offset() < l.high_watermark())
}

fn fenced(e: &Event) -> bool {
    answered(
        e,
        &[
            "Produce",
            "EndTxn",
            "AddPartitionsToTxn",
            "AddOffsetsToTxn",
            "TxnOffsetCommit",
        ],
        &[Errors::ProducerFenced, Errors::InvalidProducerEpoch],
    )
}

fn not_enough_replicas(e: &Event) -> bool {
    answered(
        e,
        &["Produce"],
        &[
            Errors::NotEnoughReplicas,
            Errors::NotEnoughReplicasAfterAppend,
        ],
    )
}

/// `kafka-transactions.sh find-hanging` reports a transaction on one of the learner's
/// partitions: open there for longer than 15 minutes, and no coordinator's transaction
/// includes the partition. Only transaction.version 1 without partition verification
/// lets a late Produce open one (`admin::transactions`).
fn hanging(w: &World) -> bool {
    let tps: Vec<_> = w
        .partitions()
        .into_iter()
        .filter(|tp| !crate::coordinator::internal_topics::is_internal(&tp.topic))
        .collect();
    !w.hanging_transactions(&tps).is_empty()
}

/// With a NOT KAFKA switch on, the chaos search's checker names an anomaly (with
/// Kafka's rules it finds none: `checker::chaos`' tests).
fn anomaly(found: &[&str]) -> bool {
    !found.is_empty()
}

/// A partition of the learner's topics led by a new leader (an epoch above 0).
fn new_leader(e: &Event) -> bool {
    match &e.kind {
        EventKind::LeaderElected { tp, change } => {
            change.leader_epoch > 0 && !crate::coordinator::internal_topics::is_internal(&tp.topic)
        }
        _ => false,
    }
}

/// The page's challenges as the panel shows them: solved when its world shows it.
pub fn items(page: Page, world: &World) -> Vec<(&'static str, bool)> {
    Scan::default().items(page, world)
}

/// The event goals' answers over the events of one world read so far. A world's events
/// only grow (`World::events`), so the panel, which asks at every click, reads only the
/// events new since it last asked; the world goals read the world's state each time.
/// The owner starts a new scan when it replaces the world (a reset, a step back).
#[derive(Clone, Debug, Default)]
pub struct Scan {
    page: Option<Page>,
    seen: usize,
    solved: Vec<bool>,
}

impl Scan {
    /// [`items`], reading only the events of `world` after the ones read before.
    pub fn items(&mut self, page: Page, world: &World) -> Vec<(&'static str, bool)> {
        let events = world.events();
        if self.page != Some(page) || self.seen > events.len() {
            *self = Scan {
                page: Some(page),
                seen: 0,
                solved: vec![false; on_page(Some(page)).count()],
            };
        }
        // The event goals in one pass, each until an event shows it.
        for e in events.get(self.seen..).unwrap_or_default() {
            for (c, solved) in on_page(Some(page)).zip(self.solved.iter_mut()) {
                if let Goal::Event(f) = c.goal {
                    *solved = *solved || f(e);
                }
            }
        }
        self.seen = events.len();
        on_page(Some(page))
            .zip(&self.solved)
            .map(|(c, seen)| {
                let solved = match c.goal {
                    Goal::World(f) => f(world),
                    _ => *seen,
                };
                (c.id, solved)
            })
            .collect()
    }
}

#[cfg(test)]
fn is_pulsar(_goal: &Goal) -> bool {
    #[cfg(feature = "pulsar")]
    if matches!(_goal, Goal::Pulsar(_)) {
        return true;
    }
    false
}

/// A partition whose maxReadPosition stops before a message sent without a
/// transaction: an open transaction written earlier holds every consumer back.
#[cfg(feature = "pulsar")]
fn pulsar_stuck_read(w: &PulsarWorld) -> bool {
    w.topics().values().any(|t| {
        let limit = t.buffer.max_read_position();
        !t.buffer.ongoing_txns().is_empty()
            && t.ledger.entries().iter().any(|e| {
                e.position > limit && matches!(e.data, EntryData::Message { txn: None, .. })
            })
    })
}

/// A transaction committed acknowledgements on a topic, the topic was unloaded after
/// that, and its subscription dispatched again after the reload (the property tests
/// check that a committed position is never among what it dispatches).
#[cfg(feature = "pulsar")]
fn pulsar_ack_survives(w: &PulsarWorld) -> bool {
    let ev = w.events();
    ev.iter().enumerate().any(|(i, e)| match &e.kind {
        PulsarEventKind::PendingAckMarked {
            topic,
            commit: true,
            positions,
            ..
        } if !positions.is_empty() => ev[i..].iter().enumerate().any(|(j, u)| {
            matches!(&u.kind, PulsarEventKind::TopicUnloaded { topic: t, .. } if t == topic)
                && ev[i + j..].iter().any(|d| {
                    matches!(&d.kind, PulsarEventKind::Dispatched { topic: t, .. } if t == topic)
                })
        }),
        _ => false,
    })
}

const CHALLENGES: &[Challenge] = &[
    Challenge {
        id: "duplicate",
        module: "idempotence",
        page: Some(Page::Idempotence),
        goal: Goal::Event(duplicate),
    },
    Challenge {
        id: "gap",
        module: "idempotence",
        page: Some(Page::Idempotence),
        goal: Goal::Event(gap),
    },
    Challenge {
        id: "stuck-lso",
        module: "transactions",
        page: Some(Page::Transactions),
        goal: Goal::World(stuck_lso),
    },
    Challenge {
        id: "fenced",
        module: "transactions",
        page: Some(Page::Transactions),
        goal: Goal::Event(fenced),
    },
    Challenge {
        id: "hanging",
        module: "versions",
        page: Some(Page::Transactions),
        goal: Goal::World(hanging),
    },
    Challenge {
        id: "new-leader",
        module: "replication",
        page: Some(Page::Transactions),
        goal: Goal::Event(new_leader),
    },
    Challenge {
        id: "not-enough-replicas",
        module: "replication",
        page: Some(Page::Transactions),
        goal: Goal::Event(not_enough_replicas),
    },
    Challenge {
        id: "anomaly",
        module: "break",
        page: None,
        goal: Goal::Found(anomaly),
    },
];

/// The Pulsar page's challenges, in a list of their own: the Pulsar site then links
/// none of the Kafka goals' code (≈ 12 KB gzip of world queries).
#[cfg(feature = "pulsar")]
const PULSAR_CHALLENGES: &[Challenge] = &[
    Challenge {
        id: "pulsar-stuck-read",
        module: "pulsar",
        page: None,
        goal: Goal::Pulsar(pulsar_stuck_read),
    },
    Challenge {
        id: "pulsar-ack-survives",
        module: "pulsar",
        page: None,
        goal: Goal::Pulsar(pulsar_ack_survives),
    },
];
#[cfg(not(feature = "pulsar"))]
const PULSAR_CHALLENGES: &[Challenge] = &[];

/// Every challenge: the Kafka pages' and the chaos page's in course order, then the
/// Pulsar page's.
pub fn challenges() -> impl Iterator<Item = &'static Challenge> {
    CHALLENGES.iter().chain(PULSAR_CHALLENGES)
}

/// The challenges a page's controls reach (None: the chaos page).
pub fn on_page(page: Option<Page>) -> impl Iterator<Item = &'static Challenge> {
    CHALLENGES.iter().filter(move |c| c.page == page)
}

/// The Pulsar page's challenges.
pub fn on_pulsar_page() -> impl Iterator<Item = &'static Challenge> {
    PULSAR_CHALLENGES.iter()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Replay};

    fn world(src: &str) -> World {
        let mut r = Replay::new(parse(src).expect("parses"));
        r.play_to(usize::MAX).expect("runs");
        r.into_world()
    }

    fn solved(src: &str) -> Vec<&'static str> {
        let w = world(src);
        // The panel's one pass over the events agrees with each goal asked alone.
        for page in [Page::Idempotence, Page::Transactions] {
            let alone: Vec<_> = on_page(Some(page)).map(|c| (c.id, c.solved(&w))).collect();
            assert_eq!(items(page, &w), alone, "{src}");
        }
        challenges()
            .filter(|c| c.solved(&w))
            .map(|c| c.id)
            .collect()
    }

    #[test]
    fn a_scan_kept_across_steps_agrees_with_a_fresh_one() {
        let src = "topic create t\nraw init-producer-id\nraw produce t-0 pid=last epoch=last seq=0 a\nraw produce t-0 pid=last epoch=last seq=0 a\nproducer p create transactional.id=x\nproducer p init-transactions\nproducer p begin\nproducer p send t-0 a\nproducer p flush\nproducer q create transactional.id=x\nproducer q init-transactions\nproducer p send t-0 b\nproducer p flush\nproducer p commit\n";
        let mut r = Replay::new(parse(src).expect("parses"));
        let mut scans = [Scan::default(), Scan::default()];
        let pages = [Page::Idempotence, Page::Transactions];
        let mut solved_some = [false; 2];
        for step in 0..=r.len() {
            r.play_to(step).expect("runs");
            for ((scan, page), some) in scans.iter_mut().zip(pages).zip(&mut solved_some) {
                let kept = scan.items(page, r.world());
                assert_eq!(kept, items(page, r.world()), "step {step}");
                *some |= kept.iter().any(|(_, s)| *s);
            }
        }
        assert_eq!(
            solved_some,
            [true, true],
            "the script reaches goals on both pages"
        );
        // A world with fewer events (the page reset) is read from its start.
        let fresh = world("topic create t\n");
        assert_eq!(
            scans[1].items(Page::Transactions, &fresh),
            items(Page::Transactions, &fresh)
        );
        // Another page's goals.
        assert_eq!(
            scans[1].items(Page::Idempotence, r.world()),
            items(Page::Idempotence, r.world())
        );
    }

    #[test]
    fn a_fresh_world_solves_nothing() {
        assert_eq!(solved("topic create t\n"), Vec::<&str>::new());
    }

    #[test]
    fn each_goal_is_reached_by_what_the_engine_does() {
        let idem = "topic create t\nraw init-producer-id\n";
        assert_eq!(
            solved(&format!("{idem}raw produce t-0 pid=last epoch=last seq=0 a\nraw produce t-0 pid=last epoch=last seq=0 a\n")),
            vec!["duplicate"]
        );
        assert_eq!(
            solved(&format!("{idem}raw produce t-0 pid=last epoch=last seq=0 a\nraw produce t-0 pid=last epoch=last seq=5 a\n")),
            vec!["gap"]
        );
        let txn = "topic create t\nproducer p create transactional.id=x\nproducer p init-transactions\nproducer p begin\nproducer p send t-0 a\nproducer p flush\n";
        assert_eq!(solved(txn), vec!["stuck-lso"]);
        assert_eq!(
            solved(&format!("{txn}producer p commit\n")),
            Vec::<&str>::new()
        );
        let zombie = format!("{txn}producer q create transactional.id=x\nproducer q init-transactions\nproducer p send t-0 b\nproducer p flush\nproducer p commit\n");
        assert!(solved(&zombie).contains(&"fenced"), "{:?}", solved(&zombie));
        let repl = "cluster brokers=3\ntopic create t partitions=1 replication.factor=3 min.insync.replicas=2\nproducer p create\nproducer p send t-0 a\nproducer p flush\nbroker 1 stop crash\nrun 40000\n";
        assert!(solved(repl).contains(&"new-leader"), "{:?}", solved(repl));
        let few = "cluster brokers=3\ntopic create t partitions=1 replication.factor=3 min.insync.replicas=2\nbroker 2 stop crash\nbroker 3 stop crash\nrun 40000\nproducer p create delivery.timeout.ms=30000 request.timeout.ms=30000\nproducer p send t-0 a\nproducer p flush\n";
        assert!(
            solved(few).contains(&"not-enough-replicas"),
            "{:?}",
            solved(few)
        );
    }

    /// A late Produce after the abort, as the hanging-transaction lesson sends it, under
    /// the given cluster rules; then 16 minutes pass.
    fn late_produce(rules: &str) -> String {
        format!(
            "cluster brokers=1 {rules}\ntopic create t\n\
             producer p create transactional.id=x transaction.timeout.ms=900000\n\
             producer p init-transactions\nproducer p begin\nproducer p send t-0 a\nproducer p flush\n\
             hold requests Produce\nproducer p send t-0 b\nstep\nproducer p abort\n\
             release requests Produce\nrun\nrun 960000\n"
        )
    }

    #[test]
    fn a_hanging_transaction_needs_tv1_without_verification_and_15_minutes() {
        let unverified =
            late_produce("transaction.version=1 transaction.partition.verification.enable=false");
        assert!(
            solved(&unverified).contains(&"hanging"),
            "{:?}",
            solved(&unverified)
        );
        // Not before find-hanging's 15 minutes.
        let young = unverified.replace("run 960000\n", "run 60000\n");
        assert!(!solved(&young).contains(&"hanging"), "{:?}", solved(&young));
        // Verification refuses the late Produce; transaction.version 2 fences it.
        for rules in [
            "transaction.version=1 transaction.partition.verification.enable=true",
            "transaction.version=2",
        ] {
            let w = solved(&late_produce(rules));
            assert!(!w.contains(&"hanging"), "{rules}: {w:?}");
        }
    }

    #[test]
    #[cfg(feature = "pulsar")]
    fn every_module_has_a_challenge_on_a_page_that_reaches_it() {
        for m in crate::scenario::course::modules() {
            let n = challenges().filter(|c| c.module == m.key).count();
            assert!(n > 0, "{}: no challenge", m.key);
        }
        assert_eq!(on_pulsar_page().count(), 2);
        assert!(on_page(None).all(|c| c.id == "anomaly"));
        // A goal is about one world or about a chaos search, never both.
        let w = world("topic create t\n");
        for c in challenges() {
            assert_eq!(
                c.page.is_none(),
                matches!(c.goal, Goal::Found(_)) || is_pulsar(&c.goal),
                "{}",
                c.id
            );
            assert!(!(c.solved(&w) && c.found(&["duplicate"])), "{}", c.id);
        }
    }

    #[cfg(feature = "pulsar")]
    fn pulsar_solved(src: &str) -> Vec<&'static str> {
        let mut r = Replay::new(parse(src).expect("parses"));
        r.play_to(usize::MAX).expect("runs");
        let w = r.pulsar_world().expect("a Pulsar world");
        on_pulsar_page()
            .filter(|c| c.solved_pulsar(w))
            .map(|c| c.id)
            .collect()
    }

    #[cfg(feature = "pulsar")]
    #[test]
    fn the_pulsar_goals_are_reached_by_what_the_pulsar_engine_does() {
        let base = "pulsar topic create t\npulsar subscribe c t-partition-0 sub\n";
        assert_eq!(pulsar_solved(base), Vec::<&str>::new());
        let open = format!("{base}pulsar txn new t1\npulsar send p t-partition-0 txn=t1 x\n");
        assert_eq!(
            pulsar_solved(&open),
            Vec::<&str>::new(),
            "nothing waits yet"
        );
        let stuck = format!("{open}pulsar send p t-partition-0 a\n");
        assert_eq!(pulsar_solved(&stuck), vec!["pulsar-stuck-read"]);
        assert_eq!(
            pulsar_solved(&format!("{stuck}pulsar txn commit t1\n")),
            Vec::<&str>::new(),
            "the commit lets a through"
        );
        let acked = format!(
            "{base}pulsar send p t-partition-0 a\npulsar receive c\npulsar txn new t1\n\
             pulsar ack c 2:0 txn=t1\npulsar txn commit t1\n"
        );
        let reload = format!("{acked}pulsar topic unload t-partition-0\npulsar receive c\n");
        assert_eq!(pulsar_solved(&reload), vec!["pulsar-ack-survives"]);
        // An abort releases the ack: nothing committed survives.
        let aborted = reload.replace("txn commit", "txn abort");
        assert_eq!(pulsar_solved(&aborted), Vec::<&str>::new());
        // Kafka worlds never solve a Pulsar goal, nor the other way round.
        let w = world("topic create t\n");
        assert!(on_pulsar_page().all(|c| !c.solved(&w)));
    }

    /// The break-it goal, answered by the checker: a chaos search with the dedup window
    /// shrunk to one batch finds a `duplicate`; with Kafka's rules the same seeds find
    /// nothing.
    #[cfg(feature = "checker")]
    #[test]
    fn the_chaos_goal_is_reached_only_with_a_switch_on() {
        use crate::breaks::BreakSwitch;
        use crate::checker::chaos::check_seed;
        let anomaly = challenges().find(|c| c.id == "anomaly").expect("listed");
        let names = |switches: &[BreakSwitch]| -> Vec<&'static str> {
            (1..=40)
                .filter_map(|seed| check_seed(seed, 50, switches))
                .map(|f| f.violation.anomaly.name())
                .collect()
        };
        let broken = names(&[BreakSwitch::Dedup(1)]);
        assert!(anomaly.found(&broken), "{broken:?}");
        let kafka = names(&[]);
        assert!(!anomaly.found(&kafka), "{kafka:?}");
    }
}
