//! The JSON that `kafka-dump-log.sh --transaction-log-decoder` prints for a
//! `__transaction_state` record (Kafka's `TransactionLogMessageFormatter`, through the
//! generated `TransactionLogValueJsonConverter`): fields in schema order, tagged fields
//! only when they differ from their default.

use super::log_format::{TransactionLogValue, TRANSACTION_LOG_KEY_TYPE};
use crate::record::{NO_PRODUCER_EPOCH, NO_PRODUCER_ID};

fn json_str(s: &str) -> String {
    crate::util::json::quote(s)
}

fn data_json(v: &TransactionLogValue, with_timestamps: bool) -> String {
    let flexible = v.version >= 1;
    let mut s = String::with_capacity(256);
    s.push('{');
    s.push_str(&format!("\"producerId\":{}", v.producer_id));
    if flexible {
        if v.previous_producer_id != NO_PRODUCER_ID {
            s.push_str(&format!(
                ",\"previousProducerId\":{}",
                v.previous_producer_id
            ));
        }
        if v.next_producer_id != NO_PRODUCER_ID {
            s.push_str(&format!(",\"nextProducerId\":{}", v.next_producer_id));
        }
        if v.next_producer_epoch != NO_PRODUCER_EPOCH {
            s.push_str(&format!(",\"nextProducerEpoch\":{}", v.next_producer_epoch));
        }
        if v.last_producer_epoch != NO_PRODUCER_EPOCH {
            s.push_str(&format!(",\"lastProducerEpoch\":{}", v.last_producer_epoch));
        }
    }
    s.push_str(&format!(",\"producerEpoch\":{}", v.producer_epoch));
    s.push_str(&format!(
        ",\"transactionTimeoutMs\":{}",
        v.transaction_timeout_ms
    ));
    match v.state() {
        Some(state) => s.push_str(&format!(",\"transactionStatus\":\"{}\"", state.name())),
        None => s.push_str(&format!(",\"transactionStatus\":{}", v.transaction_status)),
    }
    s.push_str(",\"transactionPartitions\":");
    match &v.transaction_partitions {
        None => s.push_str("null"),
        Some(list) => {
            s.push('[');
            for (i, p) in list.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                let ids: Vec<String> = p.partition_ids.iter().map(|id| id.to_string()).collect();
                s.push_str(&format!(
                    "{{\"topic\":{},\"partitionIds\":[{}]}}",
                    json_str(&p.topic),
                    ids.join(",")
                ));
            }
            s.push(']');
        }
    }
    if with_timestamps {
        s.push_str(&format!(
            ",\"transactionLastUpdateTimestampMs\":{},\"transactionStartTimestampMs\":{}",
            v.transaction_last_update_timestamp_ms, v.transaction_start_timestamp_ms
        ));
    }
    if flexible && v.client_transaction_version != 0 {
        s.push_str(&format!(
            ",\"clientTransactionVersion\":{}",
            v.client_transaction_version
        ));
    }
    s.push('}');
    s
}

/// The payload JSON of `kafka-dump-log.sh --transaction-log-decoder`, without the
/// two timestamps (which change every run) and without the outer
/// `{"version":..,"data":..}` shell — the form seed 000 prints.
pub fn value_json(v: &TransactionLogValue) -> String {
    data_json(v, false)
}

/// The full `payload:` JSON, as kafka-dump-log prints it:
/// `{"version":"1","data":{…, timestamps included}}`.
pub fn payload_json(v: &TransactionLogValue) -> String {
    format!(
        "{{\"version\":\"{}\",\"data\":{}}}",
        v.version,
        data_json(v, true)
    )
}

/// The `key:` JSON kafka-dump-log prints: `{"type":"0","data":{"transactionalId":"…"}}`.
pub fn key_json(transactional_id: &str) -> String {
    format!(
        "{{\"type\":\"{}\",\"data\":{{\"transactionalId\":{}}}}}",
        TRANSACTION_LOG_KEY_TYPE,
        json_str(transactional_id)
    )
}
