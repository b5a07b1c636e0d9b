#![cfg(not(target_arch = "wasm32"))]
//! The request timeline with follower fetches folded (`TimelineOptions`,
//! `TimelineView::rows`): with RF 3 the followers' Fetch traffic is one row per run,
//! opened on demand, and a fetch a fault touched keeps its own row.

use eos_playground::scenario;
use eos_playground::sim::World;
use eos_playground::view::timeline::{
    timeline, timeline_with, FetchFold, TimelineOptions, TimelineRow, TimelineView,
    TIMELINE_MESSAGES, TIMELINE_NEWEST,
};

const FOLDED: TimelineOptions = TimelineOptions {
    fold_follower_fetches: true,
};

fn world(text: &str) -> World {
    let mut replay = scenario::Replay::new(scenario::parse(text).expect("parses"));
    replay.play_to(usize::MAX).expect("runs");
    replay.world().clone()
}

const RF3: &str = "cluster brokers=3
topic create t partitions=1 replication.factor=3 min.insync.replicas=2
producer p create
producer p send t-0 a
producer p flush
run 5000
producer p send t-0 b
producer p flush
run 30000
";

fn folds(rows: &[TimelineRow]) -> Vec<&FetchFold> {
    rows.iter()
        .filter_map(|r| match r {
            TimelineRow::Fold(f) => Some(f),
            TimelineRow::Message(_) => None,
        })
        .collect()
}

fn has_api(v: &TimelineView, rows: &[TimelineRow], api: &str) -> bool {
    rows.iter()
        .any(|r| matches!(r, TimelineRow::Message(i) if v.messages[*i].api == api))
}

#[test]
fn unfolded_the_newest_messages_are_all_follower_fetches() {
    let w = world(RF3);
    let v = timeline(&w, None, &[], TIMELINE_MESSAGES);
    assert!(!v.folded);
    assert_eq!(v.messages.len(), TIMELINE_MESSAGES);
    for m in &v.messages {
        assert!(m.follower_fetch && m.api == "Fetch", "{m:?}");
    }
    // Unfolded, one row per message.
    let rows = v.rows(|_| true);
    assert_eq!(
        rows,
        (0..v.messages.len())
            .map(TimelineRow::Message)
            .collect::<Vec<_>>()
    );
}

#[test]
fn folded_runs_become_one_row_and_the_produce_stays_on_screen() {
    let w = world(RF3);
    let v = timeline_with(&w, None, &[], TIMELINE_MESSAGES, FOLDED);
    assert!(v.folded);
    let rows = v.rows(|_| false);
    assert!(rows.len() <= TIMELINE_MESSAGES, "{} rows", rows.len());
    assert!(has_api(&v, &rows, "Produce"), "the sends are back in view");
    assert!(has_api(&v, &rows, "InitProducerId"));
    let fs = folds(&rows);
    assert!(!fs.is_empty());
    let mut covered = 0;
    for f in &fs {
        assert!(f.len >= 2 && !f.expanded);
        assert_eq!(f.key, v.messages[f.first].id);
        assert!(v.messages[f.first..f.first + f.len]
            .iter()
            .all(|m| m.plain_follower_fetch()));
        assert!(f.from_ms <= f.to_ms);
        covered += f.len;
    }
    // Every message is either in a fold or has its own row, in order, once.
    let singles = rows.len() - fs.len();
    assert_eq!(covered + singles, v.messages.len());
    // Two folds never touch: a run ends at a message that is not a plain fetch.
    assert!(rows
        .windows(2)
        .all(|p| !matches!(p, [TimelineRow::Fold(_), TimelineRow::Fold(_)])));
    // A lone fetch between other messages is not folded into a row of one.
    for r in &rows {
        if let TimelineRow::Message(i) = r {
            let m = &v.messages[*i];
            if m.plain_follower_fetch() {
                let next_plain = v
                    .messages
                    .get(i + 1)
                    .is_some_and(|n| n.plain_follower_fetch());
                let prev_plain = *i > 0 && v.messages[i - 1].plain_follower_fetch();
                assert!(!next_plain && !prev_plain, "message {i} should be folded");
            }
        }
    }
}

#[test]
fn an_open_fold_lists_its_messages_under_it() {
    let w = world(RF3);
    let v = timeline_with(&w, None, &[], TIMELINE_MESSAGES, FOLDED);
    let closed = v.rows(|_| false);
    let key = folds(&closed).last().expect("a fold").key;
    let open = v.rows(|k| k == key);
    let at = open
        .iter()
        .position(|r| matches!(r, TimelineRow::Fold(f) if f.key == key))
        .expect("the fold is still there");
    let TimelineRow::Fold(f) = &open[at] else {
        unreachable!()
    };
    assert!(f.expanded);
    let under: Vec<TimelineRow> = (f.first..f.first + f.len)
        .map(TimelineRow::Message)
        .collect();
    assert_eq!(open[at + 1..at + 1 + f.len], under[..]);
    assert_eq!(open.len(), closed.len() + f.len);
    // Another key opens nothing.
    assert_eq!(v.rows(|k| k == u64::MAX), closed);
}

#[test]
fn a_fetch_a_fault_struck_keeps_its_own_row() {
    let text = format!("{RF3}fault delay 300 response api=Fetch to=broker-3 every\nrun 3000\n");
    let w = world(&text);
    let v = timeline_with(&w, None, &[], TIMELINE_MESSAGES, FOLDED);
    let rows = v.rows(|_| false);
    let delayed: Vec<usize> = v
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.follower_fetch && m.mark.is_some())
        .map(|(i, _)| i)
        .collect();
    assert!(!delayed.is_empty(), "the fault struck some fetch answers");
    for i in delayed {
        assert!(
            rows.contains(&TimelineRow::Message(i)),
            "message {i} is folded away"
        );
    }
}

#[test]
fn without_replication_folding_changes_nothing() {
    let w = world(
        "cluster brokers=1
topic create t partitions=1
producer p create
producer p send t-0 a
producer p flush
",
    );
    let plain = timeline(&w, None, &[], TIMELINE_MESSAGES);
    let folded = timeline_with(&w, None, &[], TIMELINE_MESSAGES, FOLDED);
    assert_eq!(plain.messages, folded.messages);
    assert!(folds(&folded.rows(|_| false)).is_empty());
    assert!(folded.messages.iter().all(|m| !m.follower_fetch));
}

#[test]
fn at_the_newest_end_the_newest_rows_are_drawn_and_an_open_fold_keeps_its_messages() {
    // Unfolded: the newest `TIMELINE_NEWEST` messages, oldest first.
    let w = world(RF3);
    let v = timeline(&w, None, &[], TIMELINE_MESSAGES);
    let all = v.rows(|_| false);
    assert_eq!(v.newest_rows(|_| false, usize::MAX), all);
    let newest = v.newest_rows(|_| false, TIMELINE_NEWEST);
    assert_eq!(newest[..], all[all.len() - TIMELINE_NEWEST..]);
    // Folded: the cut counts a fold as one row; opened, its messages follow it.
    let v = timeline_with(&w, None, &[], TIMELINE_MESSAGES, FOLDED);
    let closed = v.rows(|_| false);
    assert!(closed.len() > 3, "{} rows", closed.len());
    let keep = 3;
    let cut = v.newest_rows(|_| false, keep);
    assert_eq!(cut[..], closed[closed.len() - keep..]);
    let key = folds(&cut)
        .last()
        .expect("a fold among the newest rows")
        .key;
    let open = v.newest_rows(|k| k == key, keep);
    let all_open = v.rows(|k| k == key);
    let at = all_open.len() - open.len();
    assert_eq!(
        open[..],
        all_open[at..],
        "the newest rows, the open run among them"
    );
    assert_eq!(
        open.len(),
        keep + folds(&open)
            .iter()
            .filter(|f| f.expanded)
            .map(|f| f.len)
            .sum::<usize>()
    );
    // More than there are: every row.
    assert_eq!(v.newest_rows(|k| k == key, closed.len() + 1), all_open);
}
