//! Which parts of the page a step changed, read from the events it raised: the lesson
//! player marks those panels and names them, so a learner knows where to look after a
//! Next that changed several things.

use crate::broker::broker::BrokerEvent;
use crate::sim::{Event, EventKind};

/// A part of the page a step can change. Its `code` is what the page's
/// `data-changed` attribute lists (and the stylesheet marks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Producer,
    Log,
    Coordinator,
    Replicas,
    Consumers,
    Network,
}

impl Part {
    pub fn code(self) -> &'static str {
        match self {
            Part::Producer => "producer",
            Part::Log => "log",
            Part::Coordinator => "coordinator",
            Part::Replicas => "replicas",
            Part::Consumers => "consumers",
            Part::Network => "network",
        }
    }
}

/// The part an event changes, if any the page shows as a panel.
fn part_of(e: &Event) -> Option<Part> {
    use BrokerEvent as B;
    Some(match &e.kind {
        EventKind::Broker { event, .. } => match event {
            B::BatchAppended { .. }
            | B::BatchDuplicate { .. }
            | B::BatchRejected { .. }
            | B::MarkerWritten { .. }
            | B::MarkerRejected { .. }
            | B::SegmentRolled { .. }
            | B::SegmentsDeleted { .. }
            | B::LogCleaned { .. }
            | B::LogTruncated { .. }
            | B::SnapshotTaken { .. }
            | B::FileCorrupted { .. }
            | B::LogStartOffsetIncremented { .. }
            | B::Recovered { .. } => Part::Log,
            B::Coordinator(..)
            | B::CoordinatorLoadStarted { .. }
            | B::CoordinatorLoadCompleted { .. }
            | B::MarkersRequeued { .. }
            | B::MarkersAwaitLeader { .. }
            | B::MarkersAwaitIsr { .. } => Part::Coordinator,
            B::Replication(..) => Part::Replicas,
            _ => return None,
        },
        EventKind::LeaderElected { .. }
        | EventKind::BrokerFenced { .. }
        | EventKind::HeartbeatsStopped { .. }
        | EventKind::RegistrationRefused { .. }
        | EventKind::ControlledShutdown { .. } => Part::Replicas,
        EventKind::Producer { .. } => Part::Producer,
        EventKind::Consumer { .. } => Part::Consumers,
        EventKind::FaultStruck { .. }
        | EventKind::MessageDropped { .. }
        | EventKind::ErrorInjected { .. }
        | EventKind::ConnectionBroken { .. } => Part::Network,
        _ => return None,
    })
}

/// The parts `events` changed, in a fixed order, each once.
pub fn changed_parts(events: &[Event]) -> Vec<Part> {
    // Six parts at most: no sort needed (and the std sort would cost the wasm ≈ 15 KB).
    let mut parts = Vec::new();
    for p in [
        Part::Producer,
        Part::Log,
        Part::Coordinator,
        Part::Replicas,
        Part::Consumers,
        Part::Network,
    ] {
        if events.iter().any(|e| part_of(e) == Some(p)) {
            parts.push(p);
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, Replay};

    #[test]
    fn a_step_names_what_it_changed() {
        let src = "topic create t\nproducer p create\nproducer p send t-0 a\nproducer p flush\n";
        let mut r = Replay::new(parse(src).expect("parses"));
        r.play_to(usize::MAX).expect("runs");
        let flush = r.outputs()[3].events.clone();
        let parts = changed_parts(&r.world().events()[flush]);
        assert!(parts.contains(&Part::Log), "{parts:?}");
        assert!(parts.contains(&Part::Producer), "{parts:?}");
        assert!(!parts.contains(&Part::Consumers), "{parts:?}");
        assert!(changed_parts(&[]).is_empty());
    }
}
