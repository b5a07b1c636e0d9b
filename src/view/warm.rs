//! The clicks a page is warmed up with before the learner makes them.
//!
//! A browser compiles a wasm function the first time it runs it (V8's lazy Liftoff tier),
//! and optimises it once it is hot, so the first click of each kind paid for compiling
//! its engine, view and render code: 33–64 ms against 27–35 ms for the next one of that
//! kind, depending on the hour (the 10,000-batch e2e test). The page plays these clicks once, at idle,
//! on a scratch copy of the page that nobody sees (`ui::warm`), so the learner's first
//! click of each kind runs code that is already compiled.
//!
//! Each click is an [`Action`] as the page's buttons send it; the page expands it as it
//! would a click ([`super::page::click`]). The order follows a learner's: a refusal here
//! would leave that click's code cold, so `warm_clicks_play_without_a_refusal` (tests)
//! plays every list on a fresh page world.

use crate::scenario::{parse, StepKind};
use crate::sim::Action;

use super::page::Page;

/// The idempotence page's clicks: sends through a lost ack, a lost request, a clean
/// restart and a crash.
const IDEMPOTENCE: &str = "\
producer producer-1 send orders-0 a
drop next-response to=producer-1
producer producer-1 send orders-0 b
drop next-request from=producer-1
producer producer-1 send orders-0 c
broker 1 restart clean
producer producer-1 send orders-0 d
broker 1 restart crash
producer producer-1 send orders-0 e
";

/// The transactions page's clicks: a commit with its markers held and released, an
/// abort, a transaction the coordinator aborts after `transaction.timeout.ms`, both
/// consumers, and a second producer with the same transactional.id.
const TRANSACTIONS: &str = "\
producer producer-1 init-transactions
producer producer-1 begin
producer producer-1 send payments-0 a
consumer reader-rc poll
consumer reader-ru poll
hold markers
producer producer-1 commit
release markers
producer producer-1 begin
producer producer-1 send payments-0 b
producer producer-1 abort
producer producer-1 begin
producer producer-1 send payments-0 c
run 70000
consumer reader-rc poll
producer producer-2 create transactional.id=tx-1
";

/// The clicks that warm `page`, in order: each kind of control the page has, once or
/// twice (a commit and an abort both end a transaction, by different code). Written in
/// the scenario language, so they are data, not code in the page's wasm, and parsing
/// them warms the parser that lessons and links use too.
pub fn warm_clicks(page: Page) -> Vec<Action> {
    let text = match page {
        Page::Idempotence => IDEMPOTENCE,
        Page::Transactions => TRANSACTIONS,
    };
    parse(text)
        .map(|s| s.steps)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|step| match step.kind {
            StepKind::Act(action) => Some(action),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{scenario_of, Replay};
    use crate::sim::World;
    use crate::view::page::{click, ClickContext};
    use crate::view::partition::{partition_view, BatchKind, LOG_WINDOW};

    /// Plays `page`'s warm clicks as the page would, on a fresh page world.
    fn warmed(page: Page) -> World {
        let mut world = Replay::to(scenario_of(page.setup()), usize::MAX).into_world();
        for action in warm_clicks(page) {
            for a in click(page, action.clone(), &world, ClickContext::default()) {
                if let Err(e) = world.apply(&a) {
                    panic!("{page:?}: {a:?} (click {action:?}) refused: {e}");
                }
            }
        }
        world
    }

    fn kinds(world: &World, page: Page) -> Vec<BatchKind> {
        let view = partition_view(world, &page.partition(), LOG_WINDOW).expect("a partition");
        view.batches.iter().map(|b| b.kind).collect()
    }

    #[test]
    fn every_line_is_a_click() {
        assert_eq!(
            warm_clicks(Page::Idempotence).len(),
            IDEMPOTENCE.lines().count()
        );
        assert_eq!(
            warm_clicks(Page::Transactions).len(),
            TRANSACTIONS.lines().count()
        );
    }

    #[test]
    fn warm_clicks_play_without_a_refusal() {
        // The idempotence page: five values written once each, through a lost ack, a lost
        // request and two restarts (the retries are deduplicated, not written twice).
        let world = warmed(Page::Idempotence);
        let view = partition_view(&world, &Page::Idempotence.partition(), LOG_WINDOW)
            .expect("a partition");
        let values: Vec<&str> = view
            .batches
            .iter()
            .flat_map(|b| b.records.iter().map(|(_, v)| v.as_str()))
            .collect();
        assert_eq!(values, ["a", "b", "c", "d", "e"]);

        // The transactions page: a commit (markers held, then released), an abort, and a
        // transaction left open past transaction.timeout.ms, which the coordinator aborts.
        let world = warmed(Page::Transactions);
        let kinds = kinds(&world, Page::Transactions);
        for kind in [
            BatchKind::Committed,
            BatchKind::CommitMarker,
            BatchKind::Aborted,
            BatchKind::AbortMarker,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} not in {kinds:?}");
        }
        assert!(!kinds.contains(&BatchKind::Open), "{kinds:?}");
        assert!(!world.network().holds(crate::sim::WRITE_TXN_MARKERS));
    }
}
