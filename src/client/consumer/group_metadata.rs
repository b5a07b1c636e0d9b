//! `ConsumerGroupMetadata`: who a consumer is in its group, as the producer's
//! `sendOffsetsToTransaction` carries it (KIP-447). Every build has it; the membership
//! that fills it in is the feature `group-membership`'s.

use serde::{Deserialize, Serialize};

/// `ConsumerGroupMetadata`: what `consumer.groupMetadata()` returns and the producer's
/// `sendOffsetsToTransaction` carries to the group coordinator (KIP-447).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsumerGroupMetadata {
    pub group_id: String,
    pub generation_id: i32,
    pub member_id: String,
    pub group_instance_id: Option<String>,
}

impl ConsumerGroupMetadata {
    /// `new ConsumerGroupMetadata(groupId)`: a simple group's (generation -1, no member).
    pub fn simple(group_id: &str) -> Self {
        ConsumerGroupMetadata {
            group_id: group_id.to_string(),
            generation_id: -1,
            member_id: String::new(),
            group_instance_id: None,
        }
    }
}
