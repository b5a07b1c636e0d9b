//! The controller quorum's events: elections, resignations, claims, writes that
//! cannot commit, controllers stopped and started.

use super::super::message::Msg;
use crate::msg;
use crate::raft::QuorumEvent;
use crate::sim::Node;

fn node(id: i32) -> String {
    Node::Controller(id).to_string()
}

fn ids(ids: &[i32]) -> String {
    ids.iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn event(e: &QuorumEvent) -> Msg {
    match e {
        QuorumEvent::Candidate {
            voter,
            epoch,
            fetch_timeout_of: Some(leader),
        } => msg!(
            "quorum.candidate-fetch-timeout",
            node = node(*voter),
            leader = node(*leader),
            epoch = epoch
        ),
        QuorumEvent::Candidate {
            voter,
            epoch,
            fetch_timeout_of: None,
        } => msg!("quorum.candidate", node = node(*voter), epoch = epoch),
        QuorumEvent::ElectionLost {
            voter,
            epoch,
            votes,
            backoff_ms,
        } => msg!(
            "quorum.election-lost",
            node = node(*voter),
            epoch = epoch,
            votes = ids(votes),
            backoff = backoff_ms
        ),
        QuorumEvent::Elected {
            voter,
            epoch,
            votes,
        } => msg!(
            "quorum.elected",
            node = node(*voter),
            epoch = epoch,
            votes = ids(votes)
        ),
        QuorumEvent::Resigned { voter, epoch } => {
            msg!("quorum.resigned", node = node(*voter), epoch = epoch)
        }
        QuorumEvent::SteppedDown {
            voter,
            epoch,
            new_epoch,
        } => msg!(
            "quorum.stepped-down",
            node = node(*voter),
            epoch = epoch,
            new_epoch = new_epoch
        ),
        QuorumEvent::Claimed {
            voter,
            epoch,
            high_watermark,
        } => msg!(
            "quorum.claimed",
            node = node(*voter),
            epoch = epoch,
            hw = high_watermark
        ),
        QuorumEvent::WriteWaits { voter, epoch, api } => msg!(
            "quorum.write-waits",
            node = node(*voter),
            epoch = epoch,
            api = api
        ),
        QuorumEvent::NotController {
            voter,
            api,
            leader: Some(leader),
        } => msg!(
            "quorum.not-controller",
            node = node(*voter),
            api = api,
            leader = node(*leader)
        ),
        QuorumEvent::NotController {
            voter,
            api,
            leader: None,
        } => msg!("quorum.not-controller-none", node = node(*voter), api = api),
        QuorumEvent::Stopped { voter } => msg!("quorum.stopped", node = node(*voter)),
        QuorumEvent::Started { voter } => msg!("quorum.started", node = node(*voter)),
    }
}
