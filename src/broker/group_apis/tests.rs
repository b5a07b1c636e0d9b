//! The broker's TxnOffsetCommit against Kafka 4.0's group coordinator tests
//! (GroupCoordinatorServiceTest, CoordinatorRuntime): the request's validation, and a
//! write that fails or finds the offsets partition gone.

use crate::broker::replica_manager::PartitionMetadata;
use crate::broker::Broker;
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::coordinator::transaction::TxnFeatures;
use crate::log::{LogConfig, TopicPartition};
use crate::protocol::errors::Errors;
use crate::protocol::{LeaderRecoveryState, OffsetEntry, Request, Response};

fn meta(leader: i32, leader_epoch: i32) -> PartitionMetadata {
    PartitionMetadata {
        replicas: vec![1, 2],
        leader,
        leader_epoch,
        partition_epoch: leader_epoch,
        isr: vec![1, 2],
        min_insync_replicas: 1,
        leader_recovery_state: LeaderRecoveryState::Recovered,
    }
}

/// Broker 1 leading group `g`'s offsets partition (written with `config`); the
/// transaction coordinator of `tx` is broker 2; the metadata knows topic `in`'s one
/// partition.
fn broker(config: &LogConfig) -> (Broker, TopicPartition) {
    let mut b = Broker::new(1, LogConfig::default());
    b.update_metadata(TopicPartition::new("in", 0), 2);
    let gtp = b.group_partition("g");
    b.apply_partition_metadata(&gtp, meta(1, 1), config, 0)
        .expect("creates the offsets partition");
    let ttp = b.internal_partition_for(TRANSACTION_STATE_TOPIC, "tx");
    b.update_metadata(ttp, 2);
    assert_eq!(
        b.coordinator_error(&gtp),
        None,
        "an empty partition loads at once"
    );
    (b, gtp)
}

fn offsets(partitions: &[(&str, i32)]) -> Vec<OffsetEntry> {
    partitions
        .iter()
        .map(|(topic, p)| OffsetEntry {
            topic_partition: TopicPartition::new(*topic, *p),
            offset: 5,
        })
        .collect()
}

fn txn_offset_commit_of(group: &str, version: i16, partitions: &[(&str, i32)]) -> Request {
    Request::TxnOffsetCommit {
        transactional_id: "tx".into(),
        group_id: group.into(),
        producer_id: 7,
        producer_epoch: 0,
        offsets: offsets(partitions),
        generation_id: -1,
        member_id: String::new(),
        group_instance_id: None,
        version: Some(version),
    }
}

fn txn_offset_commit(group: &str, version: i16) -> Request {
    txn_offset_commit_of(group, version, &[("in", 0)])
}

/// Each partition's error, in the answer's order.
fn answered(response: Option<Response>) -> Vec<(String, Errors)> {
    match response {
        Some(Response::TxnOffsetCommit { results } | Response::OffsetCommit { results }) => results
            .into_iter()
            .map(|(tp, e)| (tp.to_string(), e))
            .collect(),
        other => panic!("not an offset commit answer: {other:?}"),
    }
}

fn errors(response: Option<Response>) -> Vec<Errors> {
    answered(response).into_iter().map(|r| r.1).collect()
}

fn log_end(b: &Broker, tp: &TopicPartition) -> i64 {
    b.logs().get(tp).map_or(-1, |l| l.log_end_offset())
}

// GroupCoordinatorServiceTest.testCommitTransactionalOffsetsWithInvalidGroupId (Kafka 4.0).
#[test]
fn an_empty_group_id_is_invalid_group_id() {
    let (mut b, gtp) = broker(&LogConfig::default());
    let handled = b.handle(txn_offset_commit("", 5), 1, 10);
    assert_eq!(errors(handled.response), [Errors::InvalidGroupId]);
    assert!(handled.outbound.is_empty(), "no coordinator is asked");
    assert_eq!(log_end(&b, &gtp), 0);
}

// GroupCoordinatorServiceTest.testCommitTransactionalOffsetsWithWrappedError and
// CoordinatorRuntime's revert of a failed write (Kafka 4.0): a batch the offsets
// partition refuses is UNKNOWN_SERVER_ERROR, and its offsets are not pending.
#[test]
fn a_failed_txn_offset_write_leaves_nothing_pending() {
    let small = LogConfig {
        max_message_bytes: 40,
        ..LogConfig::default()
    };
    let (mut b, gtp) = broker(&small);
    b.set_txn_features(TxnFeatures {
        verification: false,
        ..TxnFeatures::default()
    });
    let handled = b.handle(txn_offset_commit("g", 4), 1, 10);
    assert_eq!(errors(handled.response), [Errors::UnknownServerError]);
    assert_eq!(log_end(&b, &gtp), 0);
    assert_eq!(b.group_coordinator().pending_offsets(7), []);
    let tp = TopicPartition::new("in", 0);
    assert!(!b
        .group_coordinator()
        .has_pending_transactional_offsets("g", &tp));
}

// CoordinatorRuntime.scheduleTransactionalWriteOperation (Kafka 4.0): the write runs
// after the verification, on the shard as it is then; a broker that no longer leads
// the offsets partition answers NOT_COORDINATOR and writes nothing.
#[test]
fn a_verified_commit_is_not_written_by_a_former_coordinator() {
    let (mut b, gtp) = broker(&LogConfig::default());
    let handled = b.handle(txn_offset_commit("g", 5), 1, 10);
    assert!(
        handled.response.is_none(),
        "parked for the transaction coordinator"
    );
    let tag = handled
        .outbound
        .iter()
        .find_map(|o| match o {
            crate::broker::broker::Outbound::ToBroker { broker: 2, tag, .. } => Some(*tag),
            _ => None,
        })
        .expect("asks broker 2 to add the offsets partition");
    b.apply_partition_metadata(&gtp, meta(2, 2), &LogConfig::default(), 20)
        .expect("becomes a follower");
    let added = Response::AddPartitionsToTxn {
        results: vec![(gtp.clone(), Errors::None)],
    };
    let handled = b.handle_broker_response(tag, added, 30);
    let answer = handled.deferred.into_iter().find(|(token, _)| *token == 1);
    assert_eq!(errors(answer.map(|a| a.1)), [Errors::NotCoordinator]);
    assert_eq!(log_end(&b, &gtp), 0);
}

// KafkaApisTest.testHandleTxnOffsetCommitRequestTopicsAndPartitionsValidation and
// testTxnOffsetCommitWithInvalidPartition (Kafka 4.0): a partition of an unknown topic,
// or beyond the topic's partitions, is UNKNOWN_TOPIC_OR_PARTITION, put first; the rest
// is committed. With no partition left the coordinator is not asked.
#[test]
fn unknown_partitions_are_refused_before_the_coordinator() {
    let (mut b, gtp) = broker(&LogConfig::default());
    b.set_txn_features(TxnFeatures {
        verification: false,
        ..TxnFeatures::default()
    });
    let unknown = Errors::UnknownTopicOrPartition;
    let request = txn_offset_commit_of("g", 4, &[("in", 0), ("in", 1), ("zar", 0)]);
    assert_eq!(
        answered(b.handle(request, 1, 10).response),
        [
            ("in-1".to_string(), unknown),
            ("zar-0".to_string(), unknown),
            ("in-0".to_string(), Errors::None)
        ]
    );
    assert_eq!(log_end(&b, &gtp), 1, "one batch, with in-0's offset");
    let handled = b.handle(txn_offset_commit_of("g", 5, &[("zar", 0)]), 2, 20);
    assert_eq!(errors(handled.response), [unknown]);
    assert!(handled.outbound.is_empty());
    // OffsetCommit alike (testHandleOffsetCommitRequestTopicsAndPartitionsValidation).
    let plain = Request::OffsetCommit {
        group_id: "g".into(),
        offsets: offsets(&[("in", 0), ("zar", 0)]),
        generation_id: -1,
        member_id: String::new(),
        group_instance_id: None,
    };
    assert_eq!(
        answered(b.handle(plain, 3, 30).response),
        [
            ("zar-0".to_string(), unknown),
            ("in-0".to_string(), Errors::None)
        ]
    );
}
