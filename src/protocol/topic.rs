//! Kafka's rules for topic names, which every layer shares (the controller checks a
//! new topic's name, the coordinators name their internal topics): Kafka's
//! `org.apache.kafka.common.internals.Topic`.

/// `Topic.TRANSACTION_STATE_TOPIC_NAME`.
pub const TRANSACTION_STATE_TOPIC: &str = "__transaction_state";
/// `Topic.GROUP_METADATA_TOPIC_NAME`.
pub const GROUP_METADATA_TOPIC: &str = "__consumer_offsets";

/// `Topic.MAX_NAME_LENGTH`.
pub const MAX_TOPIC_NAME_LENGTH: usize = 249;

/// Why a topic name is invalid (Kafka's `Topic.detectInvalidTopic`, Kafka 4.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum InvalidTopicName {
    Empty,
    /// `.` and `..` would name the log directory itself or its parent.
    Dot,
    DotDot,
    TooLong,
    /// A character other than ASCII alphanumerics, `.`, `_` and `-`.
    IllegalCharacter,
}

/// `Topic.validate`: `None` when `name` may name a topic, in Kafka's order of checks.
pub fn detect_invalid_topic(name: &str) -> Option<InvalidTopicName> {
    if name.is_empty() {
        Some(InvalidTopicName::Empty)
    } else if name == "." {
        Some(InvalidTopicName::Dot)
    } else if name == ".." {
        Some(InvalidTopicName::DotDot)
    } else if name.chars().count() > MAX_TOPIC_NAME_LENGTH {
        Some(InvalidTopicName::TooLong)
    } else if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    {
        Some(InvalidTopicName::IllegalCharacter)
    } else {
        None
    }
}

/// Whether a topic is one of Kafka's internal topics.
pub fn is_internal(topic: &str) -> bool {
    topic == TRANSACTION_STATE_TOPIC || topic == GROUP_METADATA_TOPIC
}
