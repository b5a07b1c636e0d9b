//! Tests of the `__transaction_state` key/value codec and its dump-log JSON.

use super::*;
use crate::coordinator::transaction::metadata::TransactionVersion;
use crate::log::TopicPartition;
use crate::util::sorted_set::SortedSet;

fn empty_transit() -> TxnTransitMetadata {
    TxnTransitMetadata {
        producer_id: 0,
        prev_producer_id: 0,
        next_producer_id: -1,
        producer_epoch: 0,
        last_producer_epoch: -1,
        txn_timeout_ms: 60000,
        txn_state: TransactionState::Empty,
        topic_partitions: SortedSet::new(),
        txn_start_timestamp: -1,
        txn_last_update_timestamp: 1781778768194,
        client_transaction_version: TransactionVersion::TV_0,
    }
}

#[test]
fn key_matches_kafka_size() {
    // KAFKA-20712's dump: keySize 15 for "kafka-txn-0".
    let k = key_to_bytes("kafka-txn-0");
    assert_eq!(k.len(), 15);
    assert_eq!(&k[..4], &[0, 0, 0, 11]);
    assert_eq!(decode_key(&k).unwrap(), "kafka-txn-0");
    assert_eq!(
        key_json("kafka-txn-0"),
        r#"{"type":"0","data":{"transactionalId":"kafka-txn-0"}}"#
    );
}

#[test]
fn empty_value_matches_kafka_size_and_json() {
    // KAFKA-20712's dump: valueSize 45 and this payload for a fresh Empty record.
    let v = TransactionLogValue::from_transit(&empty_transit(), 1);
    let bytes = value_to_bytes(&v);
    assert_eq!(bytes.len(), 45);
    assert_eq!(
        payload_json(&v),
        r#"{"version":"1","data":{"producerId":0,"previousProducerId":0,"producerEpoch":0,"transactionTimeoutMs":60000,"transactionStatus":"Empty","transactionPartitions":null,"transactionLastUpdateTimestampMs":1781778768194,"transactionStartTimestampMs":-1}}"#
    );
    assert_eq!(decode_value(&bytes).unwrap(), v);
}

#[test]
fn ongoing_round_trips_v0_and_v1() {
    let mut t = empty_transit();
    t.txn_state = TransactionState::Ongoing;
    t.last_producer_epoch = 3;
    t.client_transaction_version = TransactionVersion::TV_2;
    t.topic_partitions = [
        TopicPartition::new("b", 1),
        TopicPartition::new("a", 2),
        TopicPartition::new("a", 0),
    ]
    .into_iter()
    .collect();
    for version in [0, 1] {
        let v = TransactionLogValue::from_transit(&t, version);
        let back = decode_value(&value_to_bytes(&v)).unwrap();
        assert_eq!(back, v);
    }
    let v1 = TransactionLogValue::from_transit(&t, 1);
    assert_eq!(
        value_json(&v1),
        r#"{"producerId":0,"previousProducerId":0,"lastProducerEpoch":3,"producerEpoch":0,"transactionTimeoutMs":60000,"transactionStatus":"Ongoing","transactionPartitions":[{"topic":"a","partitionIds":[0,2]},{"topic":"b","partitionIds":[1]}],"clientTransactionVersion":2}"#
    );
    let v0 = TransactionLogValue::from_transit(&t, 0);
    assert!(!value_json(&v0).contains("previousProducerId"));
}

#[test]
fn bad_bytes_are_typed_errors() {
    assert!(matches!(
        decode_key(&[0]),
        Err(TxnLogError::Truncated { .. })
    ));
    assert_eq!(
        decode_key(&[0, 1, 0, 0]),
        Err(TxnLogError::UnknownKeyVersion(1))
    );
    assert_eq!(
        decode_value(&[0, 2]),
        Err(TxnLogError::UnknownValueVersion(2))
    );
    assert!(matches!(
        decode_key(&[0, 0, 0xff, 0xff]),
        Err(TxnLogError::InvalidLength { .. })
    ));
    let mut huge = vec![0, 0];
    huge.extend_from_slice(&[0; 15]);
    huge.extend_from_slice(&[0x7f, 0xff, 0xff, 0xff]);
    assert!(matches!(
        decode_value(&huge),
        Err(TxnLogError::Truncated { .. })
    ));
}
