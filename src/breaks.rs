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

/// Kafka's limit on `max.in.flight.requests.per.connection` with idempotence
/// (Kafka 4.0 `ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION_FOR_IDEMPOTENCE`,
/// checked in `postProcessAndValidateIdempotenceConfigs`).
pub const KAFKA_MAX_IN_FLIGHT: u8 = 5;

/// The largest `in-flight=N` the switch takes.
pub const MAX_BROKEN_IN_FLIGHT: u8 = 50;

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
    /// Transaction version 2 without its epoch bump per transaction: EndTxn's
    /// Prepare* keeps the transaction's epoch (`TransactionMetadata.prepareAbortOrCommit`
    /// under TV2, Kafka 4.0), so its markers carry the data's own epoch.
    EpochBump,
    /// InitProducerId neither bumps the epoch nor fences an open transaction
    /// (`TransactionMetadata.prepareIncrementProducerEpoch`; the fence in
    /// `TransactionCoordinator.handleInitProducerId`): a second producer with the same
    /// `transactional.id` shares the first one's id and epoch.
    InitFencing,
    /// An idempotent producer may keep up to this many requests in flight (6 to 50);
    /// Kafka 4.0's `ProducerConfig.postProcessAndValidateIdempotenceConfigs` refuses
    /// more than 5, because the broker's dedup window holds 5 batches.
    InFlight(u8),
    /// No producer-state snapshots (`ProducerStateManager.takeSnapshot` skipped), so a
    /// restart finds none and does what Kafka 4.0's `UnifiedLog.rebuildProducerState`
    /// does then: after a clean shutdown it starts from an empty producer state,
    /// after a crash it reads the whole log.
    Snapshots,
    /// The coordinator sends its markers before its Prepare* record is replicated
    /// (Kafka: `TransactionCoordinator.endTransaction` sends them from
    /// `appendTransactionToLog`'s callback, once the append is acknowledged by the ISR).
    EarlyMarkers,
}

impl BreakSwitch {
    /// One of each kind (the dedup window at 1, as the break-it lesson uses it).
    pub const ALL: &'static [BreakSwitch] = &[
        BreakSwitch::Dedup(1),
        BreakSwitch::Fencing,
        BreakSwitch::Lso,
        BreakSwitch::Aborted,
        BreakSwitch::Markers,
        BreakSwitch::EpochBump,
        BreakSwitch::InitFencing,
        BreakSwitch::InFlight(10),
        BreakSwitch::Snapshots,
        BreakSwitch::EarlyMarkers,
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
            BreakSwitch::EpochBump => "epoch-bump".into(),
            BreakSwitch::InitFencing => "init-fencing".into(),
            BreakSwitch::InFlight(n) => format!("in-flight={n}"),
            BreakSwitch::Snapshots => "snapshots".into(),
            BreakSwitch::EarlyMarkers => "early-markers".into(),
        }
    }

    /// Reads a name; `dedup` alone is the window off, `dedup=N` a window of N (0–4),
    /// `in-flight=N` up to N requests in flight (6–50).
    pub fn parse(text: &str) -> Result<BreakSwitch, BreakNameError> {
        match text {
            "dedup" => Ok(BreakSwitch::Dedup(0)),
            "fencing" => Ok(BreakSwitch::Fencing),
            "lso" => Ok(BreakSwitch::Lso),
            "aborted" => Ok(BreakSwitch::Aborted),
            "markers" => Ok(BreakSwitch::Markers),
            "epoch-bump" => Ok(BreakSwitch::EpochBump),
            "init-fencing" => Ok(BreakSwitch::InitFencing),
            "snapshots" => Ok(BreakSwitch::Snapshots),
            "early-markers" => Ok(BreakSwitch::EarlyMarkers),
            "in-flight" => Err(BreakNameError::InFlight),
            _ => {
                if let Some(n) = text.strip_prefix("in-flight=") {
                    return match n.parse::<u8>() {
                        Ok(n) if n > KAFKA_MAX_IN_FLIGHT && n <= MAX_BROKEN_IN_FLIGHT => {
                            Ok(BreakSwitch::InFlight(n))
                        }
                        _ => Err(BreakNameError::InFlight),
                    };
                }
                match text.strip_prefix("dedup=").map(str::parse::<u8>) {
                    Some(Ok(n)) if n < KAFKA_DEDUP_WINDOW => Ok(BreakSwitch::Dedup(n)),
                    Some(_) => Err(BreakNameError::DedupWindow),
                    None => Err(BreakNameError::Unknown),
                }
            }
        }
    }
}

/// Why a switch name was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakNameError {
    Unknown,
    /// `dedup=N` takes 0 to 4 (5 is Kafka's own window).
    DedupWindow,
    /// `in-flight=N` takes 6 to 50 (up to 5 is Kafka's own limit).
    InFlight,
}

/// The switches that are on. Every field off is Kafka.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breaks {
    dedup_window: Option<u8>,
    fencing: bool,
    lso: bool,
    aborted: bool,
    markers: bool,
    #[serde(default)]
    epoch_bump: bool,
    #[serde(default)]
    init_fencing: bool,
    #[serde(default)]
    in_flight: Option<u8>,
    #[serde(default)]
    snapshots: bool,
    #[serde(default)]
    early_markers: bool,
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
            BreakSwitch::EpochBump => self.epoch_bump = on,
            BreakSwitch::InitFencing => self.init_fencing = on,
            BreakSwitch::InFlight(n) => self.in_flight = on.then_some(n),
            BreakSwitch::Snapshots => self.snapshots = on,
            BreakSwitch::EarlyMarkers => self.early_markers = on,
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
            (self.epoch_bump, BreakSwitch::EpochBump),
            (self.init_fencing, BreakSwitch::InitFencing),
        ] {
            if flag {
                on.push(switch);
            }
        }
        if let Some(n) = self.in_flight {
            on.push(BreakSwitch::InFlight(n));
        }
        for (flag, switch) in [
            (self.snapshots, BreakSwitch::Snapshots),
            (self.early_markers, BreakSwitch::EarlyMarkers),
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

    /// TV2's EndTxn keeps the epoch (`break epoch-bump`).
    pub fn no_epoch_bump(&self) -> bool {
        self.epoch_bump
    }

    /// InitProducerId neither bumps nor fences (`break init-fencing`).
    pub fn no_init_fencing(&self) -> bool {
        self.init_fencing
    }

    /// The most requests in flight an idempotent producer may be configured with:
    /// Kafka's 5, or N with `break in-flight=N`.
    pub fn max_in_flight_with_idempotence(&self) -> u32 {
        u32::from(self.in_flight.unwrap_or(KAFKA_MAX_IN_FLIGHT))
    }

    /// Producer-state snapshots are skipped (`break snapshots`).
    pub fn no_snapshots(&self) -> bool {
        self.snapshots
    }

    /// Markers leave before the Prepare* record is replicated (`break early-markers`).
    pub fn early_markers(&self) -> bool {
        self.early_markers
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
        for bad in ["in-flight", "in-flight=5", "in-flight=51", "in-flight=x"] {
            assert_eq!(
                BreakSwitch::parse(bad),
                Err(BreakNameError::InFlight),
                "{bad}"
            );
        }
        assert_eq!(
            BreakSwitch::parse("in-flight=6"),
            Ok(BreakSwitch::InFlight(6))
        );
    }

    #[test]
    fn every_switch_turns_on_and_off_alone() {
        for s in BreakSwitch::ALL {
            let mut b = Breaks::default();
            b.set(*s, true);
            assert_eq!(b.active(), vec![*s]);
            b.set(*s, false);
            assert!(b.is_kafka(), "{}", s.name());
        }
        let mut b = Breaks::default();
        assert_eq!(b.max_in_flight_with_idempotence(), 5);
        b.set(BreakSwitch::InFlight(8), true);
        assert_eq!(b.max_in_flight_with_idempotence(), 8);
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
