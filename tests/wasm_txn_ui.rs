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
