//! "Break it" switches — NOT KAFKA. Each turns off exactly one safeguard Kafka
//! enforces, at the place Kafka enforces it (a one-line hook there, marked
//! `NOT KAFKA: break …`), so the checker and chaos runs can show what the safeguard
//! prevents. Off by default; a scenario turns one on with `break NAME` and off with
//! `break NAME off`, so links and goldens carry them like any other step.
//!
//! This module sits beside `protocol` at the bottom of the stack: the log, the broker
//! and the consumer read the set they were given; the world hands it out.

use serde::{Deserialize, Serialize};

/// Kafka's dedup window: the last 5 batches per producer
/// (`ProducerStateEntry.NUM_BATCHES_TO_RETAIN`).
pub const KAFKA_DEDUP_WINDOW: u8 = 5;

/// One switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BreakSwitch {
    /// The broker's duplicate check looks back only this many batches (0: none), and a
    /// retry it does not find is written again. Kafka looks back 5
    /// (`ProducerStateEntry.findDuplicateBatch`).
    Dedup(u8),
    /// The partition writes batches from an older producer epoch
    /// (`ProducerAppendInfo.checkProducerEpoch` turned off): zombies write.
    Fencing,
    /// read_committed reads up to the high watermark, not the LSO (`UnifiedLog.read`
    /// with `FetchIsolation.TXN_COMMITTED`).
    Lso,
    /// The consumer keeps records of aborted transactions
    /// (`CompletedFetch.isBatchAborted` turned off).
    Aborted,
    /// Partition leaders answer WriteTxnMarkers without writing the marker
    /// (`ReplicaManager.appendRecords` of the control batch skipped).
    Markers,
}

impl BreakSwitch {
    /// One of each kind (the dedup window at 1, as the break-it lesson uses it).
    pub const ALL: &'static [BreakSwitch] = &[
        BreakSwitch::Dedup(1),
        BreakSwitch::Fencing,
        BreakSwitch::Lso,
        BreakSwitch::Aborted,
        BreakSwitch::Markers,
    ];

    /// The name in the scenario language and the CLI (`dedup=1`, `lso`, …).
    pub fn name(self) -> String {
        match self {
            BreakSwitch::Dedup(0) => "dedup".into(),
            BreakSwitch::Dedup(n) => format!("dedup={n}"),
            BreakSwitch::Fencing => "fencing".into(),
            BreakSwitch::Lso => "lso".into(),
            BreakSwitch::Aborted => "aborted".into(),
            BreakSwitch::Markers => "markers".into(),
        }
    }

    /// Reads a name; `dedup` alone is the window off, `dedup=N` a window of N (0–4).
    pub fn parse(text: &str) -> Result<BreakSwitch, BreakNameError> {
        match text {
            "dedup" => Ok(BreakSwitch::Dedup(0)),
            "fencing" => Ok(BreakSwitch::Fencing),
            "lso" => Ok(BreakSwitch::Lso),
            "aborted" => Ok(BreakSwitch::Aborted),
            "markers" => Ok(BreakSwitch::Markers),
            _ => match text.strip_prefix("dedup=").map(str::parse::<u8>) {
                Some(Ok(n)) if n < KAFKA_DEDUP_WINDOW => Ok(BreakSwitch::Dedup(n)),
                Some(_) => Err(BreakNameError::DedupWindow),
                None => Err(BreakNameError::Unknown),
            },
        }
    }
}

/// Why a switch name was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakNameError {
    Unknown,
    /// `dedup=N` takes 0 to 4 (5 is Kafka's own window).
    DedupWindow,
}

/// The switches that are on. Every field off is Kafka.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breaks {
    dedup_window: Option<u8>,
    fencing: bool,
    lso: bool,
    aborted: bool,
    markers: bool,
}

impl Breaks {
    /// Turns a switch on or off (for `dedup`, off restores Kafka's 5).
    pub fn set(&mut self, switch: BreakSwitch, on: bool) {
        match switch {
            BreakSwitch::Dedup(n) => self.dedup_window = on.then_some(n),
            BreakSwitch::Fencing => self.fencing = on,
            BreakSwitch::Lso => self.lso = on,
            BreakSwitch::Aborted => self.aborted = on,
            BreakSwitch::Markers => self.markers = on,
        }
    }

    /// The switches on, in a stable order (for the red badges).
    pub fn active(&self) -> Vec<BreakSwitch> {
        let mut on = Vec::new();
        if let Some(n) = self.dedup_window {
            on.push(BreakSwitch::Dedup(n));
        }
        for (flag, switch) in [
            (self.fencing, BreakSwitch::Fencing),
            (self.lso, BreakSwitch::Lso),
            (self.aborted, BreakSwitch::Aborted),
            (self.markers, BreakSwitch::Markers),
        ] {
            if flag {
                on.push(switch);
            }
        }
        on
    }

    pub fn is_kafka(&self) -> bool {
        *self == Breaks::default()
    }

    /// Whether the duplicate check finds a batch with `newer` batches after it in the
    /// window (Kafka: always, the window holds 5).
    pub fn dedup_finds(&self, newer: usize) -> bool {
        self.dedup_window.is_none_or(|n| newer < usize::from(n))
    }

    pub fn fencing_off(&self) -> bool {
        self.fencing
    }

    pub fn lso_off(&self) -> bool {
        self.lso
    }

    pub fn keep_aborted(&self) -> bool {
        self.aborted
    }

    pub fn skip_markers(&self) -> bool {
        self.markers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for n in 0..KAFKA_DEDUP_WINDOW {
            let s = BreakSwitch::Dedup(n);
            assert_eq!(BreakSwitch::parse(&s.name()), Ok(s));
        }
        for s in BreakSwitch::ALL {
            assert_eq!(BreakSwitch::parse(&s.name()), Ok(*s));
        }
        assert_eq!(
            BreakSwitch::parse("dedup=5"),
            Err(BreakNameError::DedupWindow)
        );
        assert_eq!(BreakSwitch::parse("nope"), Err(BreakNameError::Unknown));
    }

    #[test]
    fn dedup_window_limits_how_far_back() {
        let mut b = Breaks::default();
        assert!(b.dedup_finds(4));
        b.set(BreakSwitch::Dedup(1), true);
        assert!(b.dedup_finds(0));
        assert!(!b.dedup_finds(1));
        b.set(BreakSwitch::Dedup(0), true);
        assert!(!b.dedup_finds(0));
        b.set(BreakSwitch::Dedup(0), false);
        assert!(b.is_kafka());
    }
}
