//! The names every layer shares: a topic partition and how far a fetch may read. They
//! sit here, below the log, so that requests and the log can both speak them
//! (Kafka's `org.apache.kafka.common.TopicPartition`).

use serde::Serialize;

/// A partition of a topic, named like Kafka's folders: `orders-0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub struct TopicPartition {
    pub topic: String,
    pub partition: i32,
}

impl TopicPartition {
    pub fn new(topic: impl Into<String>, partition: i32) -> Self {
        TopicPartition {
            topic: topic.into(),
            partition,
        }
    }

    /// Parses `topic-3` (the last `-N` is the partition).
    pub fn parse(s: &str) -> Option<Self> {
        let (topic, p) = s.rsplit_once('-')?;
        let partition: i32 = p.parse().ok()?;
        (!topic.is_empty() && partition >= 0).then(|| TopicPartition::new(topic, partition))
    }
}

impl std::fmt::Display for TopicPartition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.topic, self.partition)
    }
}

/// How far a fetch may read (Kafka's `FetchIsolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum FetchIsolation {
    /// A follower: up to the log end.
    LogEnd,
    /// A `read_uncommitted` consumer: up to the high watermark.
    HighWatermark,
    /// A `read_committed` consumer: up to the last stable offset.
    TxnCommitted,
}
