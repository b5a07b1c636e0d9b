//! "Try it": goals for free play that the engine checks. Each is a question about the
//! world's events or state — never about which buttons were pressed — so any way that
//! makes the broker do it counts, on any page, in any order.

use crate::broker::broker::BrokerEvent;
use crate::protocol::errors::Errors;
use crate::sim::{EventKind, World};
use crate::view::page::Page;

/// One challenge. Its words are the catalog's `challenge.ID` (the goal) and
/// `challenge.ID.hint`.
#[derive(Clone, Copy, Debug)]
pub struct Challenge {
    pub id: &'static str,
    /// The course module it practises (`scenario::course`'s module keys).
    pub module: &'static str,
    /// The page whose controls reach it.
    pub page: Page,
    solved: fn(&World) -> bool,
}

impl Challenge {
    /// True when the world shows the goal reached.
    pub fn solved(&self, world: &World) -> bool {
        (self.solved)(world)
    }
}

/// True when a broker answered an `api` request with one of `errors`.
fn answered(world: &World, api: &str, errors: &[Errors]) -> bool {
    world.events.iter().any(|e| {
        matches!(&e.kind, EventKind::MessageSent { api: a, response: true, error: Some(err), .. }
            if a == api && errors.contains(err))
    })
}

fn gap(w: &World) -> bool {
    w.events.iter().any(|e| {
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
    })
}

fn duplicate(w: &World) -> bool {
    w.events.iter().any(|e| {
        matches!(
            &e.kind,
            EventKind::Broker {
                event: BrokerEvent::BatchDuplicate { .. },
                ..
            }
        )
    })
}

/// A partition of the learner's topics whose LSO is below its high watermark: an open
/// transaction holds every read_committed consumer back.
fn stuck_lso(w: &World) -> bool {
    w.partitions()
        .iter()
        .filter(|tp| !crate::coordinator::internal_topics::is_internal(&tp.topic))
        .filter_map(|tp| {
            w.leader_of(tp)
                .and_then(|b| w.brokers.get(&b))
                .and_then(|b| b.logs().get(tp))
        })
        .any(|l| l.last_stable_offset() < l.high_watermark())
}

fn fenced(w: &World) -> bool {
    [
        "Produce",
        "EndTxn",
        "AddPartitionsToTxn",
        "AddOffsetsToTxn",
        "TxnOffsetCommit",
    ]
    .iter()
    .any(|api| {
        answered(
            w,
            api,
            &[Errors::ProducerFenced, Errors::InvalidProducerEpoch],
        )
    })
}

fn not_enough_replicas(w: &World) -> bool {
    answered(
        w,
        "Produce",
        &[
            Errors::NotEnoughReplicas,
            Errors::NotEnoughReplicasAfterAppend,
        ],
    )
}

/// A partition of the learner's topics led by a new leader (an epoch above 0).
fn new_leader(w: &World) -> bool {
    w.events.iter().any(|e| match &e.kind {
        EventKind::LeaderElected { tp, change } => {
            change.leader_epoch > 0 && !crate::coordinator::internal_topics::is_internal(&tp.topic)
        }
        _ => false,
    })
}

const CHALLENGES: &[Challenge] = &[
    Challenge {
        id: "duplicate",
        module: "idempotence",
        page: Page::Idempotence,
        solved: duplicate,
    },
    Challenge {
        id: "gap",
        module: "idempotence",
        page: Page::Idempotence,
        solved: gap,
    },
    Challenge {
        id: "stuck-lso",
        module: "transactions",
        page: Page::Transactions,
        solved: stuck_lso,
    },
    Challenge {
        id: "fenced",
        module: "versions",
        page: Page::Transactions,
        solved: fenced,
    },
    Challenge {
        id: "new-leader",
        module: "replication",
        page: Page::Transactions,
        solved: new_leader,
    },
    Challenge {
        id: "not-enough-replicas",
        module: "replication",
        page: Page::Transactions,
        solved: not_enough_replicas,
    },
];

/// Every challenge, in course order.
pub fn challenges() -> &'static [Challenge] {
    CHALLENGES
}

/// The challenges a page's controls reach.
pub fn on_page(page: Page) -> impl Iterator<Item = &'static Challenge> {
    CHALLENGES.iter().filter(move |c| c.page == page)
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
        challenges()
            .iter()
            .filter(|c| c.solved(&w))
            .map(|c| c.id)
            .collect()
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
}
