//! Kafka's internal topics and how a key picks its partition (and so its coordinator).

pub use crate::protocol::topic::{
    detect_invalid_topic, is_internal, InvalidTopicName, GROUP_METADATA_TOPIC,
    MAX_TOPIC_NAME_LENGTH, TRANSACTION_STATE_TOPIC,
};

/// `transaction.state.log.num.partitions` and `offsets.topic.num.partitions` (both 50).
pub const INTERNAL_TOPIC_PARTITIONS: i32 = 50;

/// Java's `String.hashCode` (over UTF-16 code units, wrapping i32).
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// Kafka's `Utils.abs`: like `Math.abs`, but `Integer.MIN_VALUE` maps to 0.
pub fn kafka_abs(n: i32) -> i32 {
    if n == i32::MIN {
        0
    } else {
        n.abs()
    }
}

/// `partitionFor`: `Utils.abs(key.hashCode) % partitions` — the same for a
/// transactional.id in `__transaction_state` and a group.id in `__consumer_offsets`.
pub fn partition_for(key: &str, partitions: i32) -> i32 {
    if partitions <= 0 {
        return 0;
    }
    kafka_abs(java_string_hash(key)) % partitions
}

/// The partition of an internal topic of `partitions` partitions that holds `key`: its
/// leader is the coordinator of that transactional.id or group.id (Kafka's
/// `TransactionStateManager.partitionFor` / `GroupCoordinator.partitionFor`).
pub fn topic_partition_for(topic: &str, key: &str, partitions: i32) -> crate::log::TopicPartition {
    crate::log::TopicPartition::new(topic, partition_for(key, partitions))
}

/// Where a coordinator writes its records: the partitions of its internal topic it
/// leads. One call appends one record (value None = tombstone) as a non-transactional
/// batch (the write half of Kafka's `CoordinatorRuntime`/`PartitionWriter`).
pub trait InternalLogWriter {
    fn append(
        &mut self,
        partition: i32,
        key: Vec<u8>,
        value: Option<Vec<u8>>,
        now_ms: i64,
    ) -> Result<(), crate::protocol::errors::Errors>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u12_txn_lands_in_partition_23() {
        // Seed 000: `__transaction_state-23` holds "u12-txn".
        assert_eq!(partition_for("u12-txn", 50), 23);
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(kafka_abs(i32::MIN), 0);
    }

    #[test]
    fn hash_matches_java() {
        // "hello".hashCode() == 99162322 in Java.
        assert_eq!(java_string_hash("hello"), 99_162_322);
        // "polygenelubricants".hashCode() == Integer.MIN_VALUE in Java.
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
        assert_eq!(partition_for("polygenelubricants", 50), 0);
        // A character outside the BMP counts as two UTF-16 units.
        assert_eq!(java_string_hash("😀"), 0xD83D * 31 + 0xDE00);
    }

    #[test]
    fn seed_partitions() {
        // "u12-txn" lands on partition 23 of 50 (same formula for both internal topics).
        assert_eq!(partition_for("u12-txn", 50), 23);
        assert_eq!(partition_for("x", 0), 0);
    }
}
