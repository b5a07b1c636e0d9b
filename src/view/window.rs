//! The dedup window's surprise, said where it happens: after a restart the window panel
//! shows the window the broker rebuilt, and a learner who sees it shrink needs the reason
//! (a producer snapshot keeps each producer's last batch) next to it, not only in the
//! event list. The sentence is the restart event's narration from the catalog.

use crate::broker::broker::BrokerEvent;
use crate::log::TopicPartition;
use crate::sim::{Event, EventKind, World};

/// The restart (`BrokerEvent::Recovered`) that rebuilt `tp`'s producer state, if no batch
/// has been decided on `tp` since: the window panel shows it with its narration
/// (`i18n::narrate`). None once a new verdict replaces it in the panel.
pub fn restart_note<'w>(world: &'w World, tp: &TopicPartition) -> Option<&'w Event> {
    for e in world.events().iter().rev() {
        if let EventKind::Broker { event, .. } = &e.kind {
            match event {
                BrokerEvent::Recovered { tp: t, .. } if t == tp => return Some(e),
                BrokerEvent::BatchAppended { tp: t, .. }
                | BrokerEvent::BatchDuplicate { tp: t, .. }
                | BrokerEvent::BatchRejected { tp: t, .. }
                    if t == tp =>
                {
                    return None
                }
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{narrate, Lang};
    use crate::scenario::{parse, Replay};

    fn world(src: &str) -> World {
        Replay::to(parse(src).expect("parses"), usize::MAX).into_world()
    }

    const TWO: &str = "topic create t\nraw produce t-0 pid=7 seq=0 show=none a\nraw produce t-0 pid=7 seq=1 show=none b\n";

    #[test]
    fn a_clean_restart_says_why_the_window_shrank_until_the_next_batch() {
        let tp = TopicPartition::new("t", 0);
        let w = world(&format!("{TWO}broker 1 restart clean\n"));
        let note = restart_note(&w, &tp).expect("a restart since the last batch");
        let text = narrate(note, Lang::En);
        assert!(text.contains("(was 2 batch(es) before the stop). Why smaller: a producer snapshot keeps only each producer's last batch"), "{text}");
        let w = world(&format!(
            "{TWO}broker 1 restart clean\nraw produce t-0 pid=7 seq=2 show=none c\n"
        ));
        assert_eq!(restart_note(&w, &tp), None);
        assert_eq!(restart_note(&world(TWO), &tp), None);
    }

    #[test]
    fn a_crash_restart_that_keeps_the_window_has_no_why() {
        let tp = TopicPartition::new("t", 0);
        let w = world(&format!("{TWO}broker 1 restart crash\n"));
        let text = narrate(restart_note(&w, &tp).expect("restarted"), Lang::En);
        assert!(
            text.contains("windows: 7 [0..0 1..1]") && !text.contains("Why smaller"),
            "{text}"
        );
    }
}
