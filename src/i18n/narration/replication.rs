//! Replication's narration: roles, follower fetches, the ISR, the HW, truncation,
//! `acks=all` answers that waited for the ISR, and the controller's elections and
//! fencing.

use super::super::message::Msg;
use crate::broker::partition::ReplicationEvent;
use crate::log::TopicPartition;
use crate::metadata::{Election, LeaderChange, NO_LEADER};
use crate::msg;
use crate::protocol::errors::Errors;

/// Broker ids as Kafka's tools print them: `[1, 2]`.
fn ids(list: &[i32]) -> String {
    let items: Vec<String> = list.iter().map(|b| b.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// One arm a family of replication events, each worded by its family's function below.
pub(super) fn event(broker: i32, e: &ReplicationEvent) -> Msg {
    match e {
        ReplicationEvent::RoleChanged { .. } | ReplicationEvent::LeaderRecovered { .. } => {
            role_event(broker, e)
        }
        ReplicationEvent::FollowerFetched { .. }
        | ReplicationEvent::StaleFetchRefused { .. }
        | ReplicationEvent::Truncated { .. }
        | ReplicationEvent::OffsetOutOfRangeReset { .. }
        | ReplicationEvent::FetchFenced { .. }
        | ReplicationEvent::FetchFailed { .. } => fetch_event(broker, e),
        ReplicationEvent::HighWatermarkAdvanced { .. }
        | ReplicationEvent::HighWatermarkHeld { .. }
        | ReplicationEvent::IsrShrunk { .. }
        | ReplicationEvent::IsrExpanded { .. }
        | ReplicationEvent::AlterPartitionRefused { .. }
        | ReplicationEvent::IsrExpansionRefused { .. } => isr_event(broker, e),
        ReplicationEvent::DelayedProduceCompleted { .. }
        | ReplicationEvent::DeleteRecordsDelayed { .. }
        | ReplicationEvent::DeleteRecordsCompleted { .. } => delayed_event(broker, e),
    }
}

/// The follower's fetches: what it fetched, truncated or reset, and a fetch refused,
/// fenced or failed.
fn fetch_event(broker: i32, e: &ReplicationEvent) -> Msg {
    match e {
        ReplicationEvent::FollowerFetched {
            tp,
            leader,
            batches,
            log_end_offset,
            high_watermark,
        } => {
            if *batches == 0 {
                msg!(
                    "replication.fetched-nothing",
                    broker = broker,
                    tp = tp,
                    leader = leader,
                    hw = high_watermark
                )
            } else {
                msg!(
                    "replication.fetched",
                    broker = broker,
                    tp = tp,
                    leader = leader,
                    batches = batches,
                    leo = log_end_offset,
                    hw = high_watermark
                )
            }
        }
        ReplicationEvent::StaleFetchRefused {
            tp,
            replica,
            fetched_epoch,
            registered_epoch,
        } => msg!(
            "replication.stale-fetch",
            broker = broker,
            replica = replica,
            tp = tp,
            fetched = fetched_epoch,
            registered = registered_epoch
        ),
        ReplicationEvent::Truncated {
            tp,
            leader,
            to_offset,
            removed_batches,
            diverging_epoch,
        } => msg!(
            "replication.truncated",
            broker = broker,
            tp = tp,
            leader = leader,
            offset = to_offset,
            batches = removed_batches,
            epoch = diverging_epoch
        ),
        ReplicationEvent::OffsetOutOfRangeReset {
            tp,
            leader,
            from,
            to,
            fully,
        } => msg!(
            "replication.out-of-range-reset",
            broker = broker,
            tp = tp,
            leader = leader,
            from = from,
            to = to,
            fully = fully
        ),
        ReplicationEvent::FetchFenced {
            tp,
            leader,
            leader_epoch,
        } => msg!(
            "replication.fetch-fenced",
            broker = broker,
            tp = tp,
            leader = leader,
            epoch = leader_epoch
        ),
        ReplicationEvent::FetchFailed { tp, leader, error } => {
            msg!(
                "replication.fetch-failed",
                broker = broker,
                tp = tp,
                leader = leader,
                error = error.name()
            )
        }

        _ => super::unworded(),
    }
}

/// A replica's role: it leads, follows or finds no leader, or, leading after an
/// unclean election, marks the partition RECOVERED.
fn role_event(broker: i32, e: &ReplicationEvent) -> Msg {
    match e {
        ReplicationEvent::RoleChanged {
            tp,
            leader,
            leader_epoch,
            isr,
            log_end_offset,
        } => {
            if *leader == broker {
                msg!(
                    "replication.leads",
                    broker = broker,
                    tp = tp,
                    epoch = leader_epoch,
                    isr = ids(isr),
                    leo = log_end_offset
                )
            } else if *leader == NO_LEADER {
                msg!(
                    "replication.no-leader",
                    broker = broker,
                    tp = tp,
                    epoch = leader_epoch
                )
            } else {
                msg!(
                    "replication.follows",
                    broker = broker,
                    tp = tp,
                    leader = leader,
                    epoch = leader_epoch,
                    leo = log_end_offset
                )
            }
        }
        ReplicationEvent::LeaderRecovered { tp, leader_epoch } => msg!(
            "replication.leader-recovered",
            broker = broker,
            tp = tp,
            epoch = leader_epoch
        ),
        _ => super::unworded(),
    }
}

/// The HW and the ISR: the HW moving or held, the ISR shrinking or growing, and
/// the controller refusing a change.
fn isr_event(broker: i32, e: &ReplicationEvent) -> Msg {
    match e {
        ReplicationEvent::HighWatermarkAdvanced { tp, old, new, isr } => {
            msg!(
                "replication.hw-advanced",
                broker = broker,
                tp = tp,
                old = old,
                new = new,
                isr = ids(isr)
            )
        }
        ReplicationEvent::HighWatermarkHeld {
            tp,
            high_watermark,
            log_end_offset,
            isr,
            min_insync_replicas,
        } => msg!(
            "replication.hw-held",
            broker = broker,
            tp = tp,
            hw = high_watermark,
            leo = log_end_offset,
            isr = ids(isr),
            min_isr = min_insync_replicas
        ),
        ReplicationEvent::IsrShrunk {
            tp,
            removed,
            isr,
            lag_ms,
        } => msg!(
            "replication.isr-shrunk",
            broker = broker,
            tp = tp,
            removed = ids(removed),
            isr = ids(isr),
            lag_ms = lag_ms
        ),
        ReplicationEvent::IsrExpanded {
            tp,
            added,
            isr,
            follower_leo,
        } => msg!(
            "replication.isr-expanded",
            broker = broker,
            tp = tp,
            added = added,
            isr = ids(isr),
            leo = follower_leo
        ),
        ReplicationEvent::AlterPartitionRefused {
            tp,
            proposed,
            error,
            leader_epoch,
            partition_epoch,
        } => msg!(
            "replication.alter-partition-refused",
            broker = broker,
            tp = tp,
            isr = ids(proposed),
            error = error.name(),
            epoch = leader_epoch,
            partition_epoch = partition_epoch
        ),
        ReplicationEvent::IsrExpansionRefused {
            tp,
            replica,
            reason,
            follower_leo,
        } => {
            use crate::broker::broker_registry::IsrIneligibility as R;
            let why = match reason {
                R::NotRegistered => Msg::new("replication.ineligible.not-registered"),
                R::Fenced => Msg::new("replication.ineligible.fenced"),
                R::InControlledShutdown => Msg::new("replication.ineligible.shutting-down"),
                R::StaleBrokerEpoch {
                    fetched,
                    registered,
                } => msg!(
                    "replication.ineligible.stale-epoch",
                    fetched = fetched,
                    registered = registered
                ),
            };
            msg!(
                "replication.isr-expansion-refused",
                broker = broker,
                replica = replica,
                tp = tp,
                leo = follower_leo,
                why = why
            )
        }
        _ => super::unworded(),
    }
}

/// Answers that waited for the followers: `acks=all` Produce and DeleteRecords.
fn delayed_event(broker: i32, e: &ReplicationEvent) -> Msg {
    match e {
        ReplicationEvent::DelayedProduceCompleted {
            tp,
            required_offset,
            error,
        } => match error {
            Errors::None => msg!(
                "replication.acks-all-answered",
                broker = broker,
                tp = tp,
                offset = required_offset
            ),
            Errors::RequestTimedOut => msg!(
                "replication.acks-all-timed-out",
                broker = broker,
                tp = tp,
                offset = required_offset
            ),
            other => msg!(
                "replication.acks-all-error",
                broker = broker,
                tp = tp,
                error = other.name()
            ),
        },
        ReplicationEvent::DeleteRecordsDelayed {
            tp,
            required_offset,
            low_watermark,
        } => msg!(
            "replication.delete-records-delayed",
            broker = broker,
            tp = tp,
            offset = required_offset,
            low_watermark = low_watermark
        ),
        ReplicationEvent::DeleteRecordsCompleted {
            tp,
            low_watermark,
            error,
        } => msg!(
            "replication.delete-records-completed",
            broker = broker,
            tp = tp,
            low_watermark = low_watermark,
            error = error.name()
        ),
        _ => super::unworded(),
    }
}

pub(super) fn election(tp: &TopicPartition, c: &LeaderChange) -> Msg {
    let epoch = c.leader_epoch;
    match c.election {
        _ if c.leader == NO_LEADER => {
            msg!(
                "controller.no-leader",
                tp = tp,
                epoch = epoch,
                isr = ids(&c.isr)
            )
        }
        Some(Election::Unclean) => {
            msg!(
                "controller.unclean-election",
                tp = tp,
                leader = c.leader,
                epoch = epoch
            )
        }
        Some(Election::UncleanRequested) => {
            msg!(
                "controller.unclean-election-requested",
                tp = tp,
                leader = c.leader,
                epoch = epoch
            )
        }
        Some(Election::LastKnownLeader) => {
            msg!(
                "controller.last-known-leader-election",
                tp = tp,
                leader = c.leader,
                epoch = epoch
            )
        }
        Some(Election::Elr) => {
            msg!(
                "controller.elr-election",
                tp = tp,
                leader = c.leader,
                epoch = epoch
            )
        }
        Some(Election::Preferred) => {
            msg!(
                "controller.preferred-election",
                tp = tp,
                leader = c.leader,
                epoch = epoch,
                old = c.old_leader
            )
        }
        Some(Election::PreferredRequested) => {
            msg!(
                "controller.preferred-election-requested",
                tp = tp,
                leader = c.leader,
                epoch = epoch,
                old = c.old_leader
            )
        }
        _ if c.old_leader == NO_LEADER => {
            msg!(
                "controller.elected-after-none",
                tp = tp,
                leader = c.leader,
                epoch = epoch,
                isr = ids(&c.isr)
            )
        }
        _ => msg!(
            "controller.elected",
            tp = tp,
            leader = c.leader,
            epoch = epoch,
            old = c.old_leader,
            isr = ids(&c.isr)
        ),
    }
}

/// The controller let a broker shut down: its leaderships moved first.
pub(super) fn controlled_shutdown(broker: i32) -> Msg {
    msg!("controller.controlled-shutdown", broker = broker)
}

/// The controller fenced a broker whose session ran out (still running, cut off from
/// it, or stopped), or let a cut-off one back in.
/// A broker's heartbeats stop: it crashed, or (`running`) its link to the controller
/// was cut while it keeps serving clients.
/// The times are the world's clock, shown as the event list shows it (from its start).
pub(super) fn heartbeats_stopped(broker: i32, running: bool, since: i64, fence: i64) -> Msg {
    let (since, fence) = (since - crate::sim::START_MS, fence - crate::sim::START_MS);
    if running {
        msg!(
            "controller.heartbeats-stopped-cut",
            broker = broker,
            since = since,
            fence = fence
        )
    } else {
        msg!(
            "controller.heartbeats-stopped",
            broker = broker,
            fence = fence
        )
    }
}

pub(super) fn fenced(broker: i32, fenced: bool, running: bool) -> Msg {
    match (fenced, running) {
        (true, true) => msg!("controller.fenced", broker = broker),
        (true, false) => msg!("controller.fenced-stopped", broker = broker),
        (false, _) => msg!("controller.unfenced", broker = broker),
    }
}
