#![cfg(target_arch = "wasm32")]
//! The transactions page in a real browser: mount the app on `#transactions`, click
//! through a transaction, and read what the learner sees — the COMMIT marker in the log
//! and LSO == HW; then fence producer-1 with a second producer and see its commit fail.

use eos_playground::ui::state::Page;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mod dom;
use dom::*;

fn mount() -> web_sys::Element {
    mount_app(Page::Transactions)
}

#[wasm_bindgen_test]
async fn a_committed_transaction_leaves_a_commit_marker_and_lso_equal_to_hw() {
    let root = mount();
    tick().await;
    by_testid(&root, "page-transactions");
    for id in ["txn-init", "txn-begin", "txn-send"] {
        click(&root, id).await;
    }
    // Sent and flushed, not committed: the data is open and holds the LSO at its start.
    assert_eq!(text(&root, "txn-lso"), "0");
    assert_eq!(text(&root, "txn-hw"), "2");
    assert!(
        text(&root, "txn-log").contains("open"),
        "{}",
        text(&root, "txn-log")
    );

    click(&root, "txn-commit").await;
    let log = text(&root, "txn-log");
    assert!(
        log.contains("COMMIT marker"),
        "the log shows the marker: {log}"
    );
    assert!(log.contains("endTxnMarker: COMMIT"), "{log}");
    assert!(log.contains("committed data"), "{log}");
    assert_eq!(text(&root, "txn-leo"), "3", "the marker takes offset 2");
    assert_eq!(text(&root, "txn-lso"), text(&root, "txn-hw"));
    assert_eq!(text(&root, "txn-lso"), "3");
    assert_eq!(
        by_testid(&root, "coordinator-state").get_attribute("data-state"),
        Some("CompleteCommit".to_string())
    );
    assert!(text(&root, "producer-outcome").contains("commitTransaction() returned"));
    // The coordinator wrote Empty, Ongoing, PrepareCommit, CompleteCommit.
    let records = text(&root, "txn-state-log");
    for s in ["Empty", "Ongoing", "PrepareCommit", "CompleteCommit"] {
        assert!(records.contains(s), "{s} in {records}");
    }
    // Both consumers read c1 and c2; neither gets the marker.
    click(&root, "poll-rc").await;
    click(&root, "poll-ru").await;
    for c in ["consumer-rc", "consumer-ru"] {
        let card = text(&root, c);
        assert!(card.contains("c1@0") && card.contains("c2@1"), "{card}");
        assert!(
            card.contains("COMMIT marker"),
            "the gap is explained: {card}"
        );
    }
}

#[wasm_bindgen_test]
async fn a_second_producer_fences_the_first_whose_commit_then_fails() {
    let root = mount();
    tick().await;
    for id in ["txn-init", "txn-begin", "txn-send"] {
        click(&root, id).await;
    }
    click(&root, "txn-fence").await;
    // producer-2 exists now, with a bumped epoch; the coordinator aborted producer-1's
    // open transaction.
    by_testid(&root, "txn-producer-2");
    assert!(
        text(&root, "txn-index").contains('0'),
        "an aborted transaction is indexed"
    );
    assert!(text(&root, "txn-log").contains("ABORT marker"));

    // The zombie sends again and commits.
    click(&root, "txn-send").await;
    click(&root, "txn-commit").await;
    let outcome = text(&root, "producer-outcome");
    assert!(
        outcome.contains("InvalidProducerEpochException"),
        "producer-1's commit fails: {outcome}"
    );
    assert_eq!(text(&root, "txn-client-state"), "ABORTABLE_ERROR");
}

/// A transaction past its transaction.timeout.ms, from the engine's view model: the
/// coordinator panel says how long it was open against its timeout and that the
/// coordinator aborted it, fencing the producer at the bumped epoch.
#[wasm_bindgen_test]
async fn a_timed_out_transaction_is_shown_with_the_coordinators_abort() {
    use eos_playground::ui::components::txn_coordinator::{TxnCoordinator, TxnCoordinatorProps};
    let src = "cluster brokers=1\ntopic create t partitions=1\n\
               producer p create transactional.id=tx transaction.timeout.ms=2000\n\
               producer p init-transactions\nproducer p begin\nproducer p send t-0 x\n\
               producer p flush\nrun 12000\n";
    let scenario = eos_playground::scenario::parse(src).expect("parses");
    let replay = eos_playground::scenario::Replay::to(scenario, usize::MAX);
    let views = eos_playground::view::coordinators::coordinators(replay.world());
    let root = fresh_root();
    yew::Renderer::<TxnCoordinator>::with_root_and_props(
        root.clone(),
        TxnCoordinatorProps { views },
    )
    .render();
    tick().await;
    let late = by_testid(&root, "coordinator-late");
    assert_eq!(late.get_attribute("data-aborted").as_deref(), Some("true"));
    let said = late.text_content().unwrap_or_default();
    for part in [
        "producer 0",
        "epoch 0",
        "transaction.timeout.ms=2000",
        "bumped the epoch to 1",
        "INVALID_PRODUCER_EPOCH",
    ] {
        assert!(said.contains(part), "{part} in {said}");
    }
}
