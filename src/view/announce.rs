//! What a screen reader announces: the narration of the events the last action added,
//! each once. The visible event list is not a live region (a screen reader would read it
//! again as it changes); a visually hidden live region holds only these lines.
//!
//! The page's first render, a step back in time and a reset announce nothing (the list
//! got shorter or was there already; the time-travel position says where one is).

/// The lines a live region holds, and the newest event it has seen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Announcer {
    /// The newest event seen (`None` before the first look, or when there were none).
    seen: Option<u64>,
    started: bool,
    /// (event seq, narration) of the events the latest change added, oldest first.
    pub lines: Vec<(u64, String)>,
}

/// One event as the announcer sees it.
pub struct Heard<'a> {
    pub seq: u64,
    pub text: &'a str,
    /// False for the events the page does not show (plain network messages, unless
    /// asked for): they are not read out either.
    pub shown: bool,
}

impl Announcer {
    /// Looks at the events (oldest first) after a render. Returns true when the lines
    /// changed. Newer events than the last look replace the lines with theirs; the same
    /// events keep them (a re-render for another reason says nothing new); fewer
    /// (time travel, reset) empty them.
    pub fn observe<'a>(&mut self, events: impl IntoIterator<Item = Heard<'a>>) -> bool {
        let events: Vec<Heard<'a>> = events.into_iter().collect();
        let newest = events.iter().map(|e| e.seq).max();
        let first = !self.started;
        self.started = true;
        let before = self.lines.len();
        let grew = match (self.seen, newest) {
            _ if first => false,
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(s), Some(n)) => n > s,
        };
        let shrank = match (self.seen, newest) {
            (Some(s), Some(n)) => n < s,
            (Some(_), None) => true,
            _ => false,
        };
        let seen = self.seen;
        self.seen = newest;
        if grew {
            self.lines = events
                .iter()
                .filter(|e| e.shown && seen.is_none_or(|s| e.seq > s))
                .map(|e| (e.seq, e.text.to_string()))
                .collect();
            return true;
        }
        if shrank {
            self.lines.clear();
            return before > 0;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(seq: u64, text: &str) -> Heard<'_> {
        Heard {
            seq,
            text,
            shown: true,
        }
    }

    #[test]
    fn the_first_look_announces_nothing_then_each_action_its_own_events() {
        let mut a = Announcer::default();
        assert!(!a.observe([ev(1, "a"), ev(2, "b")]));
        assert!(a.lines.is_empty());
        assert!(a.observe([ev(1, "a"), ev(2, "b"), ev(3, "c"), ev(4, "d")]));
        assert_eq!(a.lines, vec![(3, "c".into()), (4, "d".into())]);
        // Nothing new: the lines stay (the live region does not change, so nothing is read).
        assert!(!a.observe([ev(1, "a"), ev(2, "b"), ev(3, "c"), ev(4, "d")]));
        assert_eq!(a.lines.len(), 2);
        assert!(a.observe([ev(1, "a"), ev(2, "b"), ev(3, "c"), ev(4, "d"), ev(5, "e")]));
        assert_eq!(a.lines, vec![(5, "e".into())]);
    }

    #[test]
    fn hidden_events_are_not_read_and_stepping_back_empties_the_region() {
        let mut a = Announcer::default();
        a.observe([]);
        let hidden = Heard {
            seq: 2,
            text: "net",
            shown: false,
        };
        assert!(a.observe([ev(1, "a"), hidden, ev(3, "c")]));
        assert_eq!(a.lines, vec![(1, "a".into()), (3, "c".into())]);
        assert!(a.observe([ev(1, "a")]));
        assert!(a.lines.is_empty());
        assert!(!a.observe([]));
        assert!(a.observe([ev(1, "again")]));
        assert_eq!(a.lines, vec![(1, "again".into())]);
    }
}
