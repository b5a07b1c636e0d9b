//! The transactions page's model: everything the page shows, read from one world once
//! per render (the UI's `TransactionsPage` lays it out and hands each panel its slice).

use crate::i18n::Lang;
use crate::sim::{World, START_MS};
use crate::view::challenges::Scan;
use crate::view::cluster::{cluster_views, ClusterViews};
use crate::view::consumers::{consumers, ConsumerView};
use crate::view::coordinators::{coordinators, CoordinatorView};
use crate::view::events::{event_items_kept, EventItem, Narrated};
use crate::view::network::{network_view, NetworkView};
use crate::view::page::Page;
use crate::view::partition::{partition_view_back, shown_partition, PartitionView, LOG_WINDOW};
use crate::view::producers::{producers, ProducerView};
use crate::view::rules::{rules_view, RulesView};
use crate::view::timeline::{timeline_with, TimelineOptions, TimelineView, TIMELINE_MESSAGES};
use crate::view::txn_admin::{admin_view, AdminView};

/// How many events the page's list keeps (the list is keyed, and Yew's keyed diff
/// costs per item when new events arrive on top).
const MAX_EVENTS: usize = 150;

/// Everything the transactions page shows, read from one world.
#[derive(Clone, Debug, PartialEq)]
pub struct TxnViews {
    pub clock: i64,
    pub producers: Vec<ProducerView>,
    pub part: Option<PartitionView>,
    pub consumers: Vec<ConsumerView>,
    pub coordinators: Vec<CoordinatorView>,
    pub timeline: TimelineView,
    pub events: Vec<EventItem>,
    /// Hold markers is on.
    pub holding: bool,
    /// WriteTxnMarkers requests waiting in the network.
    pub held: usize,
    /// Brokers and the shown partition's replicas (more than one broker).
    pub cluster: Option<ClusterViews>,
    /// The faults in force, the nodes a link joins, the held messages.
    pub network: NetworkView,
    /// Messages on the wire (not held).
    pub on_wire: usize,
    /// transaction.version and verification, and the rules they put in force.
    pub rules: RulesView,
    /// describe-producers and find-hanging of the shown partition.
    pub admin: Option<AdminView>,
    /// The page's free-play challenges: (id, solved).
    pub challenges: Vec<(&'static str, bool)>,
}

/// Reads the page's views from `world`, its events worded in `lang`.
pub fn txn_views(world: &World, lang: Lang) -> TxnViews {
    txn_views_back(world, lang, 0)
}

/// [`txn_views`] with the batch table's window ending `back` batches before the newest
/// (the table renders only the rows near where it is scrolled).
pub fn txn_views_back(world: &World, lang: Lang, back: usize) -> TxnViews {
    txn_views_kept(world, lang, back, &mut Kept::default())
}

/// What the page keeps of its world's events from click to click, so a click reads
/// only the events it added: the challenges' scan (on the 10,000-batch page a fresh
/// one read ≈ 90,000 events) and the event list's narrations. Renewed with the world.
#[derive(Clone, Debug, Default)]
pub struct Kept {
    pub challenges: Scan,
    pub events: Narrated,
}

/// [`txn_views_back`], reading the world's events through what `kept` holds.
pub fn txn_views_kept(world: &World, lang: Lang, back: usize, kept: &mut Kept) -> TxnViews {
    let tp = shown_partition(world);
    let part = tp
        .as_ref()
        .and_then(|tp| partition_view_back(world, tp, LOG_WINDOW, back));
    let coordinators = coordinators(world);
    // Follower fetches folded: with RF 3 they would be most of the diagram.
    let timeline = timeline_with(
        world,
        part.as_ref(),
        &coordinators,
        TIMELINE_MESSAGES,
        TimelineOptions {
            fold_follower_fetches: true,
        },
    );
    let events = event_items_kept(
        world,
        MAX_EVENTS,
        crate::view::tone::transactions,
        lang,
        &mut kept.events,
    );
    let admin = tp.as_ref().and_then(|tp| admin_view(world, tp));
    TxnViews {
        clock: world.clock_ms() - START_MS,
        producers: producers(world),
        consumers: consumers(world, part.as_ref()),
        part,
        coordinators,
        timeline,
        events,
        holding: world.network().holds(crate::sim::WRITE_TXN_MARKERS),
        cluster: cluster_views(world, tp.as_ref()),
        held: world
            .network()
            .held()
            .iter()
            .filter(|e| e.body.api_name() == crate::sim::WRITE_TXN_MARKERS)
            .count(),
        network: network_view(world),
        on_wire: world.network().in_flight().count(),
        rules: rules_view(world),
        admin,
        challenges: kept.challenges.items(Page::Transactions, world),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{lesson, parse, scenario_of, Replay};
    use crate::view::page::Setup;

    fn lesson_world(name: &str) -> World {
        let source = lesson(name).expect("a built-in lesson").source;
        Replay::to(parse(source).expect("parses"), usize::MAX).into_world()
    }

    #[test]
    fn views_kept_across_steps_agree_with_fresh_ones_in_every_language() {
        let source = lesson("fencing").expect("a built-in lesson").source;
        let mut r = Replay::new(parse(source).expect("parses"));
        let mut kept = Kept::default();
        for step in 0..=r.len() {
            r.play_to(step).expect("runs");
            // The reader switches language now and then: the kept narrations follow.
            let lang = [Lang::En, Lang::Ko, Lang::Th][step / 5 % 3];
            let fresh = txn_views(r.world(), lang);
            assert_eq!(
                txn_views_kept(r.world(), lang, 0, &mut kept),
                fresh,
                "step {step}"
            );
        }
        // The languages' words differ, so a list kept in the wrong one would show.
        let (en, ko) = (
            txn_views(r.world(), Lang::En),
            txn_views(r.world(), Lang::Ko),
        );
        assert_ne!(en.events, ko.events);
    }

    #[test]
    fn the_page_reads_a_committed_transaction_from_the_world() {
        let world = lesson_world("transactions");
        let v = txn_views(&world, Lang::En);
        assert_eq!(v.clock, world.clock_ms() - START_MS);
        assert!(!v.producers.is_empty());
        assert!(v.part.is_some(), "the shown partition");
        assert!(!v.coordinators.is_empty());
        // The newest events, oldest first, each narrated and toned as the page marks it.
        assert!(v.events.iter().filter(|e| !e.network).count() <= MAX_EVENTS);
        assert_eq!(
            v.events.last().map(|e| e.seq),
            world.events().last().map(|e| e.seq)
        );
        let commit = v
            .events
            .iter()
            .find(|e| e.tone == "append")
            .expect("a COMMIT marker is marked as an append");
        assert!(commit.text.contains("COMMIT"), "{}", commit.text);
        // Read again, the same world gives the same page.
        assert_eq!(v, txn_views(&world, Lang::En));
    }

    #[test]
    fn the_events_are_worded_in_the_readers_language() {
        let world = lesson_world("transactions");
        let en = txn_views(&world, Lang::En);
        let ko = txn_views(&world, Lang::Ko);
        assert_eq!(en.events.len(), ko.events.len());
        assert_ne!(
            en.events.iter().map(|e| &e.text).collect::<Vec<_>>(),
            ko.events.iter().map(|e| &e.text).collect::<Vec<_>>()
        );
        assert_eq!(en.producers, ko.producers, "only the words change");
    }

    #[test]
    fn the_cluster_panel_shows_only_with_more_than_one_broker() {
        let page = crate::view::page::Page::Transactions;
        let one = Replay::to(scenario_of(page.setup()), usize::MAX).into_world();
        let three =
            Replay::to(scenario_of(page.setup_of(Setup::REPLICATED)), usize::MAX).into_world();
        assert_eq!(
            txn_views(&one, Lang::En).cluster.is_some(),
            one.brokers().len() > 1
        );
        let cluster = txn_views(&three, Lang::En).cluster.expect("three brokers");
        assert_eq!(cluster.brokers.len(), three.brokers().len());
        assert!(cluster.brokers.iter().all(|b| !b.cut));
    }
}
