//! `ElectionType` (`org.apache.kafka.common.ElectionType`, KIP-460): which election an
//! `ElectLeaders` request asks the controller for, as `kafka-leader-election.sh
//! --election-type` names it.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ElectionType {
    /// Leadership back to the first replica of the assignment, if it is alive and in
    /// the ISR (value 0).
    #[default]
    Preferred,
    /// A leader for a partition that has none, out of sync if no ISR (or ELR) member
    /// is alive, whatever `unclean.leader.election.enable` says (value 1).
    Unclean,
}

impl ElectionType {
    /// Kafka's name, as the tool prints it.
    pub fn name(self) -> &'static str {
        match self {
            ElectionType::Preferred => "PREFERRED",
            ElectionType::Unclean => "UNCLEAN",
        }
    }

    pub fn from_name(name: &str) -> Option<ElectionType> {
        [ElectionType::Preferred, ElectionType::Unclean]
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
    }
}
