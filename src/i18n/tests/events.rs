//! One sample (or more, where the wording branches) of every event variant: network,
//! topics, faults, brokers and coordinators; the clients' are in `clients.rs`. A new
//! variant needs a sample here, as it needs a catalog line.

use crate::broker::broker::BrokerEvent;
use crate::log::{
    LogStartOffsetIncrementReason, RecoveryReport, SegmentDeletionReason, SeqDirection,
    TopicPartition,
};
use crate::protocol::{ErrorDetail, Errors};
use crate::sim::event::FaultChange;
use crate::sim::{Direction, EventKind, Fault, FaultMark, MessageMatch, MessageStrike, Node};

use super::clients::{consumer_events, producer_events, replication_events};
use super::coordinator_events::coordinator_events;
use super::errors::error_details;

pub(super) fn tp() -> TopicPartition {
    TopicPartition::new("orders", 0)
}

pub(super) fn event_kinds() -> Vec<EventKind> {
    let mut out: Vec<EventKind> = Vec::new();
    let (client, c1, b1) = (
        "producer-1".to_string(),
        Node::Client("producer-1".into()),
        Node::Broker(1),
    );
    out.extend(
        broker_events()
            .into_iter()
            .map(|event| EventKind::Broker { broker: 1, event }),
    );
    out.extend(replication_events().into_iter().map(|r| EventKind::Broker {
        broker: 1,
        event: BrokerEvent::Replication(r),
    }));
    out.extend(coordinator_events().into_iter().map(|c| EventKind::Broker {
        broker: 1,
        event: BrokerEvent::Coordinator(c),
    }));
    out.extend(
        producer_events()
            .into_iter()
            .map(|event| EventKind::Producer {
                client: client.clone(),
                event,
            }),
    );
    out.extend(
        consumer_events()
            .into_iter()
            .map(|event| EventKind::Consumer {
                client: "consumer-1".into(),
                event,
            }),
    );
    for (response, error) in [
        (false, None),
        (true, None),
        (true, Some(Errors::NotLeaderOrFollower)),
    ] {
        out.push(EventKind::MessageSent {
            id: 1,
            from: c1.clone(),
            to: b1.clone(),
            api: "Produce".into(),
            response,
            error,
        });
    }
    for response in [false, true] {
        out.push(EventKind::MessageDelivered {
            id: 1,
            from: c1.clone(),
            to: b1.clone(),
            api: "Produce".into(),
            response,
        });
        out.push(EventKind::MessageDropped {
            id: 1,
            from: b1.clone(),
            to: c1.clone(),
            api: "Produce".into(),
            response,
        });
    }
    out.push(EventKind::ConnectionBroken {
        client: "p".into(),
        broker: 1,
    });
    for response in [false, true] {
        out.push(EventKind::LostOnBrokenConnection {
            id: 2,
            from: c1.clone(),
            to: b1.clone(),
            api: "Produce".into(),
            response,
        });
    }
    out.push(EventKind::MessageRefused {
        id: 1,
        from: c1.clone(),
        to: b1.clone(),
        api: "Produce".into(),
        sender_down: false,
    });
    out.push(EventKind::MessageRefused {
        id: 2,
        from: b1,
        to: c1.clone(),
        api: "Produce".into(),
        sender_down: true,
    });
    out.push(EventKind::TopicCreated {
        topic: "orders".into(),
        partitions: 3,
        leaders: vec![1, 2, 1],
    });
    #[cfg(feature = "topic-admin")]
    {
        out.push(EventKind::TopicConfigsAltered {
            topic: "orders".into(),
            configs: vec![("min.insync.replicas".into(), "2".into())],
        });
        out.push(EventKind::PartitionsCreated {
            topic: "orders".into(),
            from: 3,
            partitions: 5,
            leaders: vec![1, 2],
        });
        out.push(EventKind::TopicDeleted {
            topic: "orders".into(),
            partitions: 3,
        });
        let tp = crate::log::TopicPartition::new("orders", 0);
        out.push(EventKind::ReassignmentStarted {
            tp: tp.clone(),
            replicas: vec![3, 2, 1],
            adding: vec![3],
            removing: vec![1],
        });
        for removed in [vec![1], vec![]] {
            out.push(EventKind::ReassignmentCompleted {
                tp: tp.clone(),
                replicas: vec![3, 2],
                removed: removed.clone(),
            });
            out.push(EventKind::ReassignmentCancelled {
                tp: tp.clone(),
                replicas: vec![1, 2],
                removed,
            });
        }
    }
    out.push(EventKind::InternalTopicRefused {
        topic: "__transaction_state".into(),
        replication_factor: 3,
        brokers: 1,
    });
    for fault in [
        FaultChange::Armed(Fault::DropNextRequest { from: None }),
        FaultChange::Armed(Fault::DropNextRequest {
            from: Some(client.clone()),
        }),
        FaultChange::Armed(Fault::DropNextResponse { to: None }),
        FaultChange::Armed(Fault::DropNextResponse { to: Some(client) }),
        FaultChange::Armed(Fault::HoldRequests {
            api: "WriteTxnMarkers".into(),
        }),
        FaultChange::Armed(Fault::HoldRequests {
            api: "AddPartitionsToTxn".into(),
        }),
        FaultChange::Released {
            api: "WriteTxnMarkers".into(),
            released: 2,
        },
    ] {
        out.push(EventKind::FaultArmed { fault });
    }
    out.extend(fault_events());
    out.push(EventKind::InterBrokerRetry {
        from: 1,
        to: 2,
        api: "WriteTxnMarkers".into(),
    });
    out.push(EventKind::ConfigChanged {
        key: "segment.bytes".into(),
        value: "1024".into(),
    });
    out.push(EventKind::BreakSwitched {
        switch: crate::breaks::BreakSwitch::Dedup(1),
        on: true,
    });
    out.push(EventKind::RunLimitReached {
        steps: 20_000,
        in_flight: 3,
    });
    // The controller quorum: each event, both forms of the two that have two.
    #[cfg(feature = "metadata-log")]
    {
        use crate::raft::QuorumEvent as Q;
        for fetch_timeout_of in [Some(1), None] {
            out.push(EventKind::Quorum(Q::Candidate {
                voter: 2,
                epoch: 2,
                fetch_timeout_of,
            }));
        }
        for leader in [Some(2), None] {
            out.push(EventKind::Quorum(Q::NotController {
                voter: 3,
                api: "AlterPartition".into(),
                leader,
            }));
        }
        out.extend(
            [
                Q::ElectionLost {
                    voter: 2,
                    epoch: 2,
                    votes: vec![2],
                    backoff_ms: 300,
                },
                Q::Elected {
                    voter: 2,
                    epoch: 2,
                    votes: vec![2, 3],
                },
                Q::Resigned { voter: 1, epoch: 1 },
                Q::SteppedDown {
                    voter: 1,
                    epoch: 1,
                    new_epoch: 2,
                },
                Q::Claimed {
                    voter: 2,
                    epoch: 2,
                    high_watermark: 9,
                },
                Q::WriteWaits {
                    voter: 1,
                    epoch: 1,
                    api: "AllocateProducerIds".into(),
                },
                Q::Stopped { voter: 1 },
                Q::Started { voter: 1 },
            ]
            .map(EventKind::Quorum),
        );
    }
    // The controller's session timer: a crash, its fence, a cut-off broker's fence and
    // return, and a restart refused while the old session runs.
    for running in [false, true] {
        out.push(EventKind::HeartbeatsStopped {
            broker: 2,
            running,
            last_heartbeat_ms: 1_000,
            fence_at_ms: 10_000,
        });
    }
    for (fenced, running) in [(true, false), (true, true), (false, true)] {
        out.push(EventKind::BrokerFenced {
            broker: 2,
            fenced,
            running,
        });
    }
    out.push(EventKind::RegistrationRefused {
        broker: 2,
        error: Errors::DuplicateBrokerRegistration,
        retry_ms: 100,
    });
    out
}

fn broker_events() -> Vec<BrokerEvent> {
    let appended = |producer_id| BrokerEvent::BatchAppended {
        tp: tp(),
        producer_id,
        producer_epoch: 0,
        first_seq: 0,
        last_seq: 1,
        first_offset: 0,
        last_offset: 1,
        log_end_offset: 2,
        window: vec![(0, 1)],
    };
    let rejected = |error, expected_seq, current_epoch, detail| BrokerEvent::BatchRejected {
        tp: tp(),
        producer_id: 0,
        producer_epoch: 0,
        first_seq: 4,
        last_seq: 4,
        error,
        expected_seq,
        seq_direction: expected_seq.map(|e| SeqDirection::of(e, 4)),
        current_epoch,
        detail,
        log_end_offset: 2,
    };
    let mut out = vec![appended(0), appended(-1)];
    out.push(BrokerEvent::BatchDuplicate {
        tp: tp(),
        producer_id: 0,
        producer_epoch: 0,
        first_seq: 0,
        last_seq: 1,
        first_offset: 0,
        last_offset: 1,
        log_end_offset: 2,
        window: vec![(0, 1)],
    });
    let oos = ErrorDetail::OutOfOrderSequence {
        producer_id: 0,
        offset: 2,
        partition: "orders-0".into(),
        first_seq: 4,
        last_seq: 1,
    };
    out.push(rejected(
        Errors::OutOfOrderSequenceNumber,
        Some(2),
        Some(0),
        oos.clone(),
    ));
    out.push(rejected(Errors::OutOfOrderSequenceNumber, None, None, oos));
    // A stale retry: the window ends at 8, the batch starts at 4 (behind, not a gap).
    let stale = ErrorDetail::OutOfOrderSequence {
        producer_id: 0,
        offset: 2,
        partition: "orders-0".into(),
        first_seq: 4,
        last_seq: 8,
    };
    out.push(rejected(
        Errors::OutOfOrderSequenceNumber,
        Some(9),
        Some(0),
        stale,
    ));
    let old = ErrorDetail::EpochTooOld {
        producer_id: 0,
        offset: 2,
        partition: "orders-0".into(),
        epoch: 0,
        current_epoch: 1,
    };
    out.push(rejected(Errors::InvalidProducerEpoch, None, Some(1), old));
    out.extend(
        error_details()
            .into_iter()
            .map(|d| rejected(Errors::MessageTooLarge, None, None, d)),
    );
    out.push(BrokerEvent::SegmentRolled {
        tp: tp(),
        base_offset: 10,
        snapshot: Some("/b/data/orders-0/00000000000000000010.snapshot".into()),
    });
    out.push(BrokerEvent::SegmentRolled {
        tp: tp(),
        base_offset: 10,
        snapshot: None,
    });
    for (horizons, empty) in [(vec![], 1), (vec![4, 9], 2)] {
        out.push(BrokerEvent::LogCleaned {
            tp: tp(),
            stats: crate::log::CleanerStats {
                end_offset: 10,
                records_before: 8,
                records_after: 3,
                empty_batches_kept: empty,
                horizons_set: horizons,
                ..Default::default()
            },
            bounded_by_lso: empty == 1,
        });
    }
    out.push(BrokerEvent::SnapshotTaken {
        tp: tp(),
        offset: 3,
        snapshot: "/b/data/orders-0/00000000000000000003.snapshot".into(),
    });
    for removed_batches in [1, 2] {
        out.push(BrokerEvent::LogTruncated {
            tp: tp(),
            from: 5,
            to: 3,
            removed_batches,
        });
    }
    out.push(BrokerEvent::FileCorrupted {
        path: "orders-0/00000000000000000000.log".into(),
        position: 70,
    });
    for bounded_by_lso in [false, true] {
        out.push(BrokerEvent::NothingToClean {
            tp: tp(),
            first_uncleanable_offset: 0,
            bounded_by_lso,
        });
    }
    out.push(BrokerEvent::ProducersExpired {
        tp: tp(),
        producer_ids: vec![7],
        expiration_ms: 86_400_000,
    });
    out.push(BrokerEvent::ProducersExpired {
        tp: tp(),
        producer_ids: vec![7, 9],
        expiration_ms: 60_000,
    });
    for reason in [
        LogStartOffsetIncrementReason::ClientRecordDeletion,
        LogStartOffsetIncrementReason::LeaderOffsetIncremented,
        LogStartOffsetIncrementReason::SegmentDeletion,
    ] {
        out.push(BrokerEvent::LogStartOffsetIncremented {
            tp: tp(),
            from: 0,
            to: 3,
            reason,
        });
    }
    for (reason, rolled_segment) in [
        (SegmentDeletionReason::StartOffsetBreach, None),
        (SegmentDeletionReason::RetentionMsBreach, Some(4)),
        (SegmentDeletionReason::RetentionSizeBreach, None),
    ] {
        out.push(BrokerEvent::SegmentsDeleted {
            tp: tp(),
            reason,
            segments: vec![0, 2],
            log_start_offset: 4,
            rolled_segment,
        });
    }
    out.push(BrokerEvent::SegmentsDeleted {
        tp: tp(),
        reason: SegmentDeletionReason::RetentionMsBreach,
        segments: vec![0],
        log_start_offset: 2,
        rolled_segment: None,
    });
    out.push(BrokerEvent::ProducerIdNotReady {
        asked_controller: true,
    });
    out.push(BrokerEvent::ProducerIdNotReady {
        asked_controller: false,
    });
    out.push(BrokerEvent::ProducerIdBlockReceived {
        first: 0,
        last: 999,
    });
    out.push(BrokerEvent::ProducerIdAssigned {
        producer_id: 0,
        producer_epoch: 0,
    });
    out.push(BrokerEvent::MarkersRequeued {
        transactional_id: "tx-1".into(),
        leader: 1,
        partitions: vec![tp()],
    });
    out.push(BrokerEvent::MarkersAwaitLeader {
        transactional_id: "tx-1".into(),
        partitions: vec![tp()],
    });
    out.push(BrokerEvent::MarkersSkippedForDeletedPartitions {
        transactional_id: "tx-1".into(),
        partitions: vec![tp()],
    });
    out.push(BrokerEvent::MarkersAwaitIsr {
        transactional_id: "tx-1".into(),
        partitions: vec![tp()],
    });
    out.push(BrokerEvent::MarkerRejected {
        tp: tp(),
        producer_id: 0,
        producer_epoch: 0,
        error: Errors::NotEnoughReplicas,
        detail: ErrorDetail::NotEnoughReplicas {
            isr: vec![2],
            min_insync_replicas: 2,
        },
    });
    out.push(BrokerEvent::CoordinatorLoadStarted {
        tp: tp(),
        coordinator_epoch: 1,
        records: 4,
        load_ms: 4,
    });
    out.push(BrokerEvent::CoordinatorLoadCompleted {
        tp: tp(),
        coordinator_epoch: 1,
    });
    out.push(BrokerEvent::Stopped {
        clean: true,
        snapshots: vec!["a.snapshot".into()],
    });
    out.push(BrokerEvent::Stopped {
        clean: false,
        snapshots: vec![],
    });
    out.push(BrokerEvent::TransactionVerification {
        tp: tp(),
        transactional_id: "tx-1".into(),
        producer_id: 0,
        producer_epoch: 0,
        coordinator: 2,
    });
    out.push(BrokerEvent::PartitionVerification {
        tp: tp(),
        transactional_id: "tx-1".into(),
        producer_id: 0,
        producer_epoch: 0,
        coordinator: 2,
    });
    out.push(BrokerEvent::PartitionNotVerified {
        tp: tp(),
        producer_id: 0,
        producer_epoch: 0,
        error: Errors::TransactionAbortable,
    });
    out.push(BrokerEvent::MarkerRejected {
        tp: tp(),
        producer_id: 0,
        producer_epoch: 0,
        error: Errors::TransactionCoordinatorFenced,
        detail: ErrorDetail::CoordinatorEpochFenced {
            producer_id: 0,
            offset: 2,
            partition: "orders-0".into(),
            coordinator_epoch: 0,
            current_coordinator_epoch: 1,
        },
    });
    for txn_first_offset in [Some(0), None] {
        out.push(BrokerEvent::MarkerWritten {
            tp: tp(),
            producer_id: 0,
            producer_epoch: 1,
            kind: "COMMIT".into(),
            offset: 2,
            txn_first_offset,
            last_stable_offset: 3,
            high_watermark: 3,
        });
    }
    out.push(BrokerEvent::MarkerRejected {
        tp: tp(),
        producer_id: 0,
        producer_epoch: 0,
        error: Errors::InvalidProducerEpoch,
        detail: ErrorDetail::MarkerEpochNotNewer {
            producer_id: 0,
            offset: 2,
            partition: "orders-0".into(),
            epoch: 0,
            current_epoch: 0,
        },
    });
    let report = |snapshot_loaded| RecoveryReport {
        snapshot_loaded,
        replayed_segments: vec![0],
        replayed_batches: 2,
        log_end_offset: 2,
        ..RecoveryReport::default()
    };
    out.push(BrokerEvent::Recovered {
        tp: tp(),
        report: report(Some(2)),
        windows: vec![(0, vec![(0, 1)])],
        windows_before: vec![(0, 5)],
    });
    out.push(BrokerEvent::Recovered {
        tp: tp(),
        report: report(None),
        windows: vec![],
        windows_before: vec![],
    });
    out
}

/// The faults beyond the first three: each armed, each mark where it struck, and the
/// changes (release one, heal, clear).
fn fault_events() -> Vec<EventKind> {
    let p = Node::Client("p".into());
    let b1 = Node::Broker(1);
    let m = |api: Option<&str>, direction, from: Option<Node>, to: Option<Node>| MessageMatch {
        api: api.map(str::to_string),
        direction,
        from,
        to,
    };
    let mut out = Vec::new();
    let all = m(None, None, None, None);
    let full = m(
        Some("Produce"),
        Some(Direction::Request),
        Some(p.clone()),
        Some(b1.clone()),
    );
    let resp = m(None, Some(Direction::Response), None, None);
    let reqs = m(Some("EndTxn"), Some(Direction::Request), None, None);
    let any_api = m(Some("Fetch"), None, None, None);
    let faults = [
        Fault::Drop {
            matching: all.clone(),
            every: false,
        },
        Fault::Drop {
            matching: full.clone(),
            every: true,
        },
        Fault::Delay {
            matching: resp.clone(),
            ms: 500,
            every: false,
        },
        Fault::Delay {
            matching: reqs,
            ms: 500,
            every: true,
        },
        Fault::Duplicate {
            matching: any_api.clone(),
            every: false,
        },
        Fault::Duplicate {
            matching: m(None, Some(Direction::Request), None, None),
            every: true,
        },
        Fault::Hold { matching: any_api },
        Fault::Cut {
            a: p.clone(),
            b: b1.clone(),
        },
        Fault::Error {
            api: "EndTxn".into(),
            error: Errors::NotCoordinator,
        },
        Fault::Message {
            id: 3,
            strike: MessageStrike::Drop,
        },
        Fault::Message {
            id: 3,
            strike: MessageStrike::Delay { ms: 500 },
        },
        Fault::Message {
            id: 3,
            strike: MessageStrike::Duplicate,
        },
        Fault::Message {
            id: 3,
            strike: MessageStrike::Hold,
        },
    ];
    for fault in faults.iter().cloned() {
        out.push(EventKind::FaultArmed {
            fault: FaultChange::Armed(fault),
        });
    }
    for change in [
        FaultChange::ReleasedMessage {
            id: 7,
            released: true,
        },
        FaultChange::ReleasedMessage {
            id: 7,
            released: false,
        },
        FaultChange::Healed {
            a: p.clone(),
            b: b1.clone(),
            was_cut: true,
        },
        FaultChange::Healed {
            a: p.clone(),
            b: b1.clone(),
            was_cut: false,
        },
        FaultChange::Cleared {
            faults: 2,
            released: 1,
        },
        FaultChange::NotOnTheWire { id: 3 },
        FaultChange::Disarmed {
            fault: faults[0].clone(),
            was_armed: true,
            released: 2,
        },
        FaultChange::Disarmed {
            fault: faults[0].clone(),
            was_armed: false,
            released: 0,
        },
    ] {
        out.push(EventKind::FaultArmed { fault: change });
    }
    for (response, mark) in [
        (false, FaultMark::Dropped),
        (true, FaultMark::Dropped),
        (false, FaultMark::Cut),
        (false, FaultMark::Delayed { ms: 500 }),
        (false, FaultMark::Duplicated { copy: 8 }),
        (false, FaultMark::Held),
        (
            false,
            FaultMark::ErrorInjected {
                error: Errors::NotCoordinator,
            },
        ),
    ] {
        out.push(EventKind::FaultStruck {
            id: 7,
            from: p.clone(),
            to: b1.clone(),
            api: "Produce".into(),
            response,
            mark,
            fault: faults[0].clone(),
        });
    }
    for error in [Errors::NotCoordinator, Errors::OutOfOrderSequenceNumber] {
        out.push(EventKind::ErrorInjected {
            id: 7,
            from: p.clone(),
            to: b1.clone(),
            api: "EndTxn".into(),
            error,
        });
    }
    out
}
