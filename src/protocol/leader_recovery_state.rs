//! `LeaderRecoveryState` (KIP-704, Kafka 3.2+; `org.apache.kafka.metadata`): whether a
//! partition's leader came from an unclean election and has not yet said it recovered.
//! It travels in the controller's partition records and in `AlterPartition` both ways.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaderRecoveryState {
    /// An ISR election, or a leader that recovered from an unclean one (value 0).
    #[default]
    Recovered,
    /// An unclean election chose the leader and it has not reported recovery yet
    /// (value 1): the ISR stays the leader alone.
    Recovering,
}

impl LeaderRecoveryState {
    /// Kafka's name, as `kafka-metadata-shell` prints it.
    pub fn name(self) -> &'static str {
        match self {
            LeaderRecoveryState::Recovered => "RECOVERED",
            LeaderRecoveryState::Recovering => "RECOVERING",
        }
    }
}
