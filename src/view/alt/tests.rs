//! The text alternatives say what the pictures show, in every language.

use super::*;
use crate::log::TopicPartition;
use crate::scenario::{parse, Replay};
use crate::sim::World;
use crate::view::coordinators::coordinators;
use crate::view::partition::partition_view;
use crate::view::timeline::timeline;

fn world_after(script: &str) -> World {
    let mut replay = Replay::new(parse(script).unwrap());
    replay.play_to(usize::MAX).unwrap();
    replay.world().clone()
}

/// A committed transaction (offsets 0..1, its marker at 2), then an open one (3).
const SCRIPT: &str = "cluster brokers=1
topic create t partitions=1
producer p create transactional.id=tx
producer p init-transactions
producer p begin
producer p send t-0 a b
producer p commit
producer p begin
producer p send t-0 c
producer p flush
";

#[test]
fn the_strip_in_words_runs_of_kinds_then_the_pointers() {
    let w = world_after(SCRIPT);
    let part = partition_view(&w, &TopicPartition::new("t", 0), 50).unwrap();
    let cells = strip_cells(&part);
    assert_eq!(
        cells.iter().map(|c| (c.offset, c.kind)).collect::<Vec<_>>(),
        vec![
            (0, BatchKind::Committed),
            (1, BatchKind::Committed),
            (2, BatchKind::CommitMarker),
            (3, BatchKind::Open),
        ]
    );
    assert_eq!(cells[2].value, None);
    assert_eq!(
        strip_alt(&part, Lang::En),
        "Offsets shown: 0..1 committed data, 2 COMMIT marker, 3 open (no marker yet). \
         LSO at offset 3, HW at 4, LEO at 4 (the next offset to be written)."
    );
}

#[test]
fn the_diagram_in_words_state_previous_state_and_the_moves_from_here() {
    let w = world_after(SCRIPT);
    let v = &coordinators(&w)[0];
    assert_eq!(v.state, TransactionState::Ongoing);
    assert_eq!(
        coordinator_alt(v, Lang::En),
        "The coordinator holds tx in Ongoing. Its previous state was CompleteCommit. \
         From here it may move to PrepareCommit, PrepareAbort, PrepareEpochFence."
    );
}

#[test]
fn the_timeline_in_words_how_many_between_whom_and_the_newest() {
    let w = world_after(SCRIPT);
    let part = partition_view(&w, &TopicPartition::new("t", 0), 50);
    let coords = coordinators(&w);
    let v = timeline(&w, part.as_ref(), &coords, 40);
    let text = timeline_alt(&v, Lang::En);
    let newest = v.messages.last().unwrap();
    assert!(
        text.starts_with(&format!(
            "The diagram shows the newest {} of {} messages",
            v.messages.len(),
            v.total
        )),
        "{text}"
    );
    assert!(text.contains(&message_label(newest, Lang::En)), "{text}");
    assert!(text.contains(&message_route(&v, newest)), "{text}");
    assert_eq!(
        timeline_alt(&TimelineView::default(), Lang::En),
        "No message yet."
    );
}

#[test]
fn every_language_fills_every_placeholder_and_keeps_kafkas_names() {
    let w = world_after(SCRIPT);
    let part = partition_view(&w, &TopicPartition::new("t", 0), 50).unwrap();
    let coords = coordinators(&w);
    let tl = timeline(&w, Some(&part), &coords, 40);
    for lang in [Lang::Ko, Lang::Th] {
        let strip = strip_alt(&part, lang);
        let diagram = coordinator_alt(&coords[0], lang);
        let timeline = timeline_alt(&tl, lang);
        for text in [&strip, &diagram, &timeline] {
            assert!(!text.contains('{'), "{lang:?}: {text}");
            assert_ne!(text, &strip_alt(&part, Lang::En));
        }
        assert!(strip.contains("LSO") && strip.contains("0..1"), "{strip}");
        assert!(
            diagram.contains("Ongoing") && diagram.contains("CompleteCommit"),
            "{diagram}"
        );
        let english = coordinator_alt(&coords[0], Lang::En);
        assert_ne!(diagram, english, "{lang:?} is translated");
    }
}
