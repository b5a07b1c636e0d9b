//! How each page's event list marks an event: its tone (the list item's class
//! `event-<tone>`: append, dup, bad, info, ok, warn, danger, or none) and whether it is
//! a message on the wire, sent or delivered. Each page marks what its lesson is about:
//! the idempotence page the broker's verdicts on batches and the producer's retries,
//! the transactions page the markers, the coordinator's transitions and each
//! transaction's outcome. The network's events look the same on both.

use crate::broker::broker::BrokerEvent;
use crate::client::producer::ProducerEvent;
use crate::client::transaction_manager::TxnOutcome;
use crate::coordinator::transaction::CoordinatorEvent;
use crate::sim::{Event, EventKind};

/// An event's tone, and whether it is a message on the wire.
pub type Tone = (&'static str, bool);

/// The idempotence page's marks.
pub fn idempotence(e: &Event) -> Tone {
    match &e.kind {
        EventKind::Broker { event, .. } => match event {
            BrokerEvent::BatchAppended { .. } => ("append", false),
            BrokerEvent::BatchDuplicate { .. } => ("dup", false),
            BrokerEvent::BatchRejected { .. } => ("bad", false),
            BrokerEvent::Recovered { .. }
            | BrokerEvent::Stopped { .. }
            | BrokerEvent::SegmentRolled { .. } => ("info", false),
            _ => ("", false),
        },
        EventKind::Producer { event, .. } => match event {
            ProducerEvent::Acknowledged { .. } => ("ok", false),
            ProducerEvent::RequestTimedOut { .. }
            | ProducerEvent::RetryScheduled { .. }
            | ProducerEvent::BatchSplit { .. }
            | ProducerEvent::SequenceUnresolved { .. }
            | ProducerEvent::EpochBumped { .. } => ("warn", false),
            ProducerEvent::SequenceResolved { .. } => ("ok", false),
            ProducerEvent::Failed { .. } => ("danger", false),
            _ => ("", false),
        },
        other => wire(other),
    }
}

/// The transactions page's marks.
pub fn transactions(e: &Event) -> Tone {
    match &e.kind {
        EventKind::Broker { event, .. } => match event {
            BrokerEvent::MarkerWritten { kind, .. } if kind == "COMMIT" => ("append", false),
            BrokerEvent::MarkerWritten { .. } => ("bad", false),
            BrokerEvent::BatchRejected { .. } | BrokerEvent::MarkerRejected { .. } => {
                ("bad", false)
            }
            BrokerEvent::Coordinator(CoordinatorEvent::Fenced { .. })
            | BrokerEvent::Coordinator(CoordinatorEvent::TimedOut { .. }) => ("warn", false),
            BrokerEvent::Coordinator(CoordinatorEvent::StateChanged { .. }) => ("info", false),
            _ => ("", false),
        },
        EventKind::Producer { event, .. } => match event {
            ProducerEvent::Transaction(TxnOutcome::Failed { .. })
            | ProducerEvent::Transaction(TxnOutcome::Refused { .. })
            | ProducerEvent::Failed { .. } => ("danger", false),
            ProducerEvent::Transaction(TxnOutcome::Retrying { .. }) => ("warn", false),
            ProducerEvent::Transaction(_) => ("ok", false),
            _ => ("", false),
        },
        other => wire(other),
    }
}

/// A transactional producer's client state (`TransactionManager.State`'s name), as its
/// badge marks it: READY ok, an open transaction a warning (its records are not yet
/// readable under read_committed), an error state a danger, the rest (UNINITIALIZED,
/// INITIALIZING, the COMMITTING/ABORTING transitions) unmarked.
pub fn client_state(state: &str) -> &'static str {
    match state {
        "IN_TRANSACTION" => "warn",
        "READY" => "ok",
        "ABORTABLE_ERROR" | "FATAL_ERROR" => "danger",
        _ => "",
    }
}

/// The network's events, the same on both pages: a lost message is a danger, a broken
/// connection or an armed fault a warning; messages sent or delivered are on the wire.
fn wire(kind: &EventKind) -> Tone {
    match kind {
        EventKind::MessageDropped { .. }
        | EventKind::LostOnBrokenConnection { .. }
        | EventKind::MessageRefused { .. } => ("danger", false),
        EventKind::ConnectionBroken { .. } | EventKind::FaultArmed { .. } => ("warn", false),
        EventKind::MessageSent { .. } | EventKind::MessageDelivered { .. } => ("", true),
        _ => ("", false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Runner};
    use crate::sim::World;

    fn world(src: &str) -> World {
        let mut runner = Runner::new(parse(src).expect("parses"));
        while !runner.is_done() {
            runner.step().expect("runs");
        }
        runner.world
    }

    /// The tones a page gives the world's events, in order, without the unmarked ones.
    fn tones(w: &World, tone: fn(&Event) -> Tone) -> Vec<&'static str> {
        w.events()
            .iter()
            .map(tone)
            .map(|(t, _)| t)
            .filter(|t| !t.is_empty())
            .collect()
    }

    #[test]
    fn the_idempotence_page_marks_appends_duplicates_and_gaps() {
        let w = world(
            "cluster brokers=1\ntopic create t partitions=1\n\
             raw produce t-0 pid=7 seq=0 a\nraw produce t-0 pid=7 seq=0 a\n\
             raw produce t-0 pid=7 seq=5 b\n",
        );
        assert_eq!(tones(&w, idempotence), ["append", "dup", "bad"]);
        // The transactions page leaves the verdicts on plain batches unmarked, except
        // the rejection.
        assert_eq!(tones(&w, transactions), ["bad"]);
    }

    #[test]
    fn the_transactions_page_marks_a_commit_and_the_wire() {
        let w = world(
            "cluster brokers=1\ntopic create t partitions=1\n\
             producer p create transactional.id=tx\nproducer p init-transactions\n\
             producer p begin\nproducer p send t-0 a\nproducer p flush\nproducer p commit\n",
        );
        let marks = tones(&w, transactions);
        assert!(marks.contains(&"append"), "the COMMIT marker: {marks:?}");
        assert!(
            marks.contains(&"info"),
            "the coordinator's transitions: {marks:?}"
        );
        assert!(
            marks.contains(&"ok"),
            "the transaction's outcome: {marks:?}"
        );
        assert!(
            !marks.contains(&"bad") && !marks.contains(&"danger"),
            "{marks:?}"
        );
        // Messages on the wire are flagged the same on both pages.
        let on_wire = |tone: fn(&Event) -> Tone| w.events().iter().filter(|e| tone(e).1).count();
        assert!(on_wire(transactions) > 0);
        assert_eq!(on_wire(transactions), on_wire(idempotence));
    }

    #[test]
    fn a_transactional_producer_is_marked_by_its_client_state() {
        use crate::view::producers::producers;
        let setup = "cluster brokers=1\ntopic create t partitions=1\n\
                     producer p create transactional.id=tx\nproducer p init-transactions\n";
        let state = |src: &str| {
            let w = world(src);
            let v = producers(&w);
            let p = v.iter().find(|p| p.name == "p").expect("p is shown");
            (p.state, client_state(p.state))
        };
        assert_eq!(state(setup), ("READY", "ok"));
        let open = format!("{setup}producer p begin\nproducer p send t-0 a\nproducer p flush\n");
        assert_eq!(state(&open), ("IN_TRANSACTION", "warn"));
        assert_eq!(
            state("cluster brokers=1\nproducer p create transactional.id=tx\n"),
            ("UNINITIALIZED", "")
        );
    }
}
