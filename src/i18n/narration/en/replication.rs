//! English narration of replication: roles, follower fetches, the ISR, the HW,
//! truncation, and `acks=all` answers that waited for the ISR.

use crate::broker::partition::ReplicationEvent;
use crate::controller::{Election, LeaderChange, NO_LEADER};
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;

fn ids(list: &[i32]) -> String {
    let items: Vec<String> = list.iter().map(|b| b.to_string()).collect();
    format!("[{}]", items.join(", "))
}

pub(super) fn event(broker: i32, e: &ReplicationEvent) -> String {
    match e {
        ReplicationEvent::RoleChanged { tp, leader, leader_epoch, isr, log_end_offset } => {
            if *leader == broker {
                format!("broker {broker} now leads {tp} at leader epoch {leader_epoch} (ISR {}, LEO {log_end_offset}); batches it writes carry epoch {leader_epoch}", ids(isr))
            } else if *leader == NO_LEADER {
                format!("broker {broker}: {tp} has no leader (epoch {leader_epoch})")
            } else {
                format!("broker {broker} follows broker {leader} for {tp} at leader epoch {leader_epoch} (LEO {log_end_offset}) and fetches from it")
            }
        }
        ReplicationEvent::FollowerFetched { tp, leader, batches, log_end_offset, high_watermark } => {
            if *batches == 0 {
                format!("broker {broker}: fetched {tp} from broker {leader}: nothing new; the leader's HW is now known here: HW {high_watermark}")
            } else {
                format!("broker {broker}: fetched {batches} batch(es) of {tp} from broker {leader}, byte for byte; LEO {log_end_offset}, HW {high_watermark} (the HW the leader had when it answered)")
            }
        }
        ReplicationEvent::HighWatermarkAdvanced { tp, old, new, isr } => format!(
            "broker {broker}: HW of {tp} {old} → {new}: every ISR member {} has the records below {new}, so consumers may read them",
            ids(isr)
        ),
        ReplicationEvent::HighWatermarkHeld { tp, high_watermark, log_end_offset, isr, min_insync_replicas } => format!(
            "broker {broker}: the HW of {tp} stays at {high_watermark} (LEO {log_end_offset}): the ISR {} is below min.insync.replicas={min_insync_replicas} (Kafka 3.7+)",
            ids(isr)
        ),
        ReplicationEvent::IsrShrunk { tp, removed, isr, lag_ms } => format!(
            "broker {broker}: {} left the ISR of {tp} — not caught up for {lag_ms} ms (replica.lag.time.max.ms=30000); ISR now {}",
            ids(removed),
            ids(isr)
        ),
        ReplicationEvent::IsrExpanded { tp, added, isr, follower_leo } => format!(
            "broker {broker}: broker {added} caught up on {tp} (LEO {follower_leo} ≥ HW) and rejoined the ISR; ISR now {}",
            ids(isr)
        ),
        ReplicationEvent::Truncated { tp, leader, to_offset, removed_batches, diverging_epoch } => format!(
            "broker {broker}: truncated {tp} to offset {to_offset} ({removed_batches} batch(es) removed): its log diverged from leader {leader}'s after epoch {diverging_epoch}; producer state rebuilt from what is left"
        ),
        ReplicationEvent::FetchFailed { tp, leader, error } => format!(
            "broker {broker}: fetch of {tp} from broker {leader} failed with {}; retrying after replica.fetch.backoff.ms=1000",
            error.name()
        ),
        ReplicationEvent::DelayedProduceCompleted { tp, required_offset, error } => match error {
            Errors::None => format!(
                "broker {broker}: acks=all on {tp} answered: the HW reached {required_offset}, so every ISR member has the batch"
            ),
            Errors::RequestTimedOut => format!(
                "broker {broker}: acks=all on {tp} gave up: the HW did not reach {required_offset} within the request's timeout; the batch is in the leader's log but not acknowledged (REQUEST_TIMED_OUT)"
            ),
            other => format!("broker {broker}: acks=all on {tp} answered {}", other.name()),
        },
    }
}

pub(super) fn election(tp: &TopicPartition, c: &LeaderChange) -> String {
    let epoch = c.leader_epoch;
    match c.election {
        _ if c.leader == NO_LEADER => format!(
            "controller: {tp} has no leader (epoch {epoch}): no replica of the ISR {} is alive, and unclean.leader.election.enable is false",
            ids(&c.isr)
        ),
        Some(Election::Unclean) => format!(
            "controller: UNCLEAN election — broker {} leads {tp} at epoch {epoch} though it was not in the ISR; records it never fetched are lost (unclean.leader.election.enable=true)",
            c.leader
        ),
        _ => format!(
            "controller: broker {} leads {tp} at epoch {epoch} (was {}), chosen from the ISR {}; clients get NOT_LEADER_OR_FOLLOWER from the old leader and refresh their metadata",
            c.leader,
            if c.old_leader == NO_LEADER { "none".to_string() } else { format!("broker {}", c.old_leader) },
            ids(&c.isr)
        ),
    }
}

pub(super) fn fenced(broker: i32, fenced: bool) -> String {
    if fenced {
        format!("controller: broker {broker} is cut off and misses its heartbeats, so it is fenced: out of every ISR, and its partitions get new leaders. It keeps running and still believes it leads until it hears from the controller")
    } else {
        format!(
            "controller: broker {broker} is reachable again and registers; it learns who leads now"
        )
    }
}
