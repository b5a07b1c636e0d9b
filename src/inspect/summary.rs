//! The partition as a starting broker rebuilds it, by the engine's own recovery
//! ([`UnifiedLog::open_after_stop`] on a copy of the files): the valid prefix of each
//! segment, producer state from the latest snapshot plus the log after it, the LSO;
//! and the aborted transactions the log holds. Also the dumps of the producer
//! snapshots and the leader-epoch checkpoint.

use serde::Serialize;

use super::log_dump::SegmentLog;
use super::{Problem, ProblemKind};
use crate::fs::MemFs;
use crate::log::segment::file_name;
use crate::log::{AbortedTxn, LogConfig, ProducerStateManager, UnifiedLog};
use crate::protocol::TopicPartition;
use crate::record::ControlRecordType;
use crate::util::sorted_map::SortedMap;

/// What recovery rebuilt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub log_start_offset: i64,
    pub log_end_offset: i64,
    /// The LSO with the high watermark taken as the log end (a single broker's view).
    pub last_stable_offset: i64,
    /// The snapshot producer state was loaded from.
    pub snapshot_loaded: Option<i64>,
    pub replayed_batches: usize,
    /// Bytes recovery cut from segments (damaged or torn batches and what follows).
    pub truncated_bytes: u64,
    /// Segments after the cut one, which recovery deletes whole.
    pub deleted_segments: Vec<i64>,
    pub producers: Vec<ProducerSummary>,
    /// Open transactions: (producer id, first offset), oldest first.
    pub open_transactions: Vec<(i64, i64)>,
    /// Aborted transactions in the valid part of the log, in marker order.
    pub aborted: Vec<AbortedTxn>,
    /// (epoch, start offset) from `leader-epoch-checkpoint`.
    pub leader_epochs: Vec<(i32, i64)>,
}

/// One producer's entry after recovery (`ProducerStateEntry`, last batch only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerSummary {
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub coordinator_epoch: i32,
    pub first_sequence: i32,
    pub last_sequence: i32,
    pub last_offset: i64,
    pub current_txn_first_offset: Option<i64>,
}

impl ProducerSummary {
    /// The line in the field names of Kafka's snapshot dump.
    pub fn dump_line(&self) -> String {
        format!(
            "producerId: {} producerEpoch: {} coordinatorEpoch: {} currentTxnFirstOffset: {} \
             firstSequence: {} lastSequence: {} lastOffset: {}",
            self.producer_id,
            self.producer_epoch,
            self.coordinator_epoch,
            optional_long(self.current_txn_first_offset),
            self.first_sequence,
            self.last_sequence,
            self.last_offset,
        )
    }
}

/// Java's `OptionalLong` as `toString` prints it.
fn optional_long(v: Option<i64>) -> String {
    v.map_or("OptionalLong.empty".to_string(), |v| {
        format!("OptionalLong[{v}]")
    })
}

/// Runs the engine's recovery on a copy of the partition: the segments as
/// [`SegmentLog::recovery_bytes`], the snapshots and checkpoint as found.
pub fn recover(dir: &str, other_files: &[(&str, &[u8])], segments: &[SegmentLog]) -> Summary {
    const ROOT: &str = "/inspect";
    let mut fs = MemFs::new();
    let written = fs.create_dir_all(ROOT).is_ok()
        && segments.iter().all(|s| {
            fs.write(
                &format!("{ROOT}/{}", file_name(s.base_offset, ".log")),
                &s.recovery_bytes,
            )
            .is_ok()
        })
        && other_files
            .iter()
            .all(|(name, bytes)| fs.write(&format!("{ROOT}/{name}"), bytes).is_ok());
    let tp = TopicPartition::parse(dir).unwrap_or_else(|| TopicPartition::new(dir, 0));
    let aborted = aborted_in_log(segments);
    let mut summary = Summary {
        log_start_offset: 0,
        log_end_offset: 0,
        last_stable_offset: 0,
        snapshot_loaded: None,
        replayed_batches: 0,
        truncated_bytes: 0,
        deleted_segments: Vec::new(),
        producers: Vec::new(),
        open_transactions: Vec::new(),
        aborted,
        leader_epochs: Vec::new(),
    };
    if !written {
        return summary;
    }
    // A crashed broker's start: with no snapshot the whole log is read.
    let Ok((log, report)) =
        UnifiedLog::open_after_stop(&mut fs, ROOT, tp, LogConfig::default(), 0, false, None)
    else {
        return summary;
    };
    summary.log_start_offset = log.log_start_offset();
    summary.log_end_offset = log.log_end_offset();
    summary.last_stable_offset = log.last_stable_offset();
    summary.snapshot_loaded = report.snapshot_loaded;
    summary.replayed_batches = report.replayed_batches;
    summary.truncated_bytes = report.truncated_bytes;
    summary.deleted_segments = report.deleted_segments;
    summary.leader_epochs = log.epochs().to_vec();
    let state = log.producer_state();
    summary.producers = state
        .active_producers()
        .values()
        .map(|e| {
            let last = e.batch_metadata().back();
            ProducerSummary {
                producer_id: e.producer_id(),
                producer_epoch: e.producer_epoch(),
                coordinator_epoch: e.coordinator_epoch(),
                first_sequence: last.map_or(-1, |b| b.first_seq()),
                last_sequence: last.map_or(-1, |b| b.last_seq),
                last_offset: last.map_or(-1, |b| b.last_offset),
                current_txn_first_offset: e.current_txn_first_offset(),
            }
        })
        .collect();
    summary.open_transactions = state.ongoing_transactions();
    summary
}

/// The aborted transactions of the valid part of the log, as Kafka's log writes
/// them to `.txnindex` when the ABORT marker lands (`UnifiedLog.append` with
/// `ProducerStateManager.lastStableOffset`): first offset of the transaction (the
/// marker's own offset when no data came before it), the marker's offset, and the
/// LSO once it completed.
fn aborted_in_log(segments: &[SegmentLog]) -> Vec<AbortedTxn> {
    let mut open: SortedMap<i64, i64> = SortedMap::new();
    let mut aborted = Vec::new();
    for segment in segments {
        for walked in &segment.batches {
            if walked.position >= segment.valid_bytes {
                break;
            }
            let Some(batch) = &walked.decoded else { break };
            if !batch.is_transactional() {
                continue;
            }
            if let Some((kind, _)) = batch.control_record() {
                let marker = batch.base_offset;
                let first = open.remove(&batch.producer_id).unwrap_or(marker);
                if kind == ControlRecordType::Abort {
                    let lso = open.values().copied().min().unwrap_or(marker + 1);
                    aborted.push(AbortedTxn {
                        producer_id: batch.producer_id,
                        first_offset: first,
                        last_offset: marker,
                        last_stable_offset: lso,
                    });
                }
            } else if !batch.is_control() {
                open.entry(batch.producer_id).or_insert(batch.base_offset);
            }
        }
    }
    aborted
}

/// Each `.txnindex` entry must be an aborted transaction of the log, and each aborted
/// transaction must have its entry in the `.txnindex` of the segment holding its
/// marker (when the log's folder has that file, or the segment holds any). The LSO
/// recorded is not compared: it depends on replication.
pub fn check_txn_index(
    aborted: &[AbortedTxn],
    entries: &[(String, AbortedTxn)],
    segments: &[SegmentLog],
    problems: &mut Vec<Problem>,
) {
    let same = |a: &AbortedTxn, b: &AbortedTxn| {
        a.producer_id == b.producer_id
            && a.first_offset == b.first_offset
            && a.last_offset == b.last_offset
    };
    for (path, entry) in entries {
        if !aborted.iter().any(|a| same(a, entry)) {
            problems.push(Problem {
                path: path.clone(),
                position: None,
                kind: ProblemKind::TxnIndexNotInLog { txn: *entry },
            });
        }
    }
    for txn in aborted {
        if entries.iter().any(|(_, e)| same(e, txn)) {
            continue;
        }
        let segment = segments
            .iter()
            .rev()
            .find(|s| s.base_offset <= txn.last_offset)
            .or(segments.first());
        let path = segment.map_or(String::new(), |s| {
            s.path
                .strip_suffix(".log")
                .map_or(s.path.clone(), |p| format!("{p}.txnindex"))
        });
        problems.push(Problem {
            path,
            position: None,
            kind: ProblemKind::TxnIndexMissing { txn: *txn },
        });
    }
}

/// A producer snapshot, as `DumpLogSegments.dumpProducerIdSnapshot` prints it.
pub fn dump_snapshot(
    path: &str,
    offset: i64,
    bytes: &[u8],
    lines: &mut Vec<String>,
    problems: &mut Vec<Problem>,
) {
    match ProducerStateManager::from_snapshot(bytes, offset) {
        Ok(state) => {
            for e in state.active_producers().values() {
                let mut line = format!(
                    "producerId: {} producerEpoch: {} coordinatorEpoch: {} \
                     currentTxnFirstOffset: {} lastTimestamp: {} ",
                    e.producer_id(),
                    e.producer_epoch(),
                    e.coordinator_epoch(),
                    optional_long(e.current_txn_first_offset()),
                    e.last_timestamp()
                );
                if let Some(b) = e.batch_metadata().front() {
                    line.push_str(&format!(
                        "firstSequence: {} lastSequence: {} lastOffset: {} offsetDelta: {} timestamp: {}",
                        b.first_seq(),
                        b.last_seq,
                        b.last_offset,
                        b.offset_delta,
                        b.timestamp
                    ));
                }
                lines.push(line);
            }
        }
        Err(corrupt) => problems.push(Problem {
            path: path.to_string(),
            position: None,
            kind: ProblemKind::Snapshot {
                detail: corrupt.to_string(),
            },
        }),
    }
}

/// `leader-epoch-checkpoint`: version 0, the entry count, then "epoch startOffset"
/// lines (`LeaderEpochCheckpointFile`). Each entry is printed as
/// `epoch: E startOffset: O`. Returns the entries that parsed.
pub fn dump_epoch_checkpoint(
    path: &str,
    bytes: &[u8],
    lines: &mut Vec<String>,
    problems: &mut Vec<Problem>,
) -> Vec<(i32, i64)> {
    let mut parsed_entries = Vec::new();
    let text = String::from_utf8_lossy(bytes);
    let mut bad = |line: usize, text: &str| {
        problems.push(Problem {
            path: path.to_string(),
            position: None,
            kind: ProblemKind::EpochCheckpoint {
                line,
                text: text.to_string(),
            },
        })
    };
    let all: Vec<&str> = text.lines().collect();
    let version = all.first().copied().unwrap_or_default();
    if version.trim() != "0" {
        bad(1, version);
    }
    let count = all.get(1).copied().unwrap_or_default();
    let expected: Option<usize> = count.trim().parse().ok();
    if expected.is_none() {
        bad(2, count);
    }
    let entries = all.get(2..).unwrap_or_default();
    for (i, line) in entries.iter().enumerate() {
        let parsed = line
            .split_once(' ')
            .and_then(|(e, o)| Some((e.parse::<i32>().ok()?, o.parse::<i64>().ok()?)));
        match parsed {
            Some((epoch, offset)) => {
                lines.push(format!("epoch: {epoch} startOffset: {offset}"));
                parsed_entries.push((epoch, offset));
            }
            None => bad(i + 3, line),
        }
    }
    if let Some(n) = expected.filter(|&n| n != entries.len()) {
        bad(2, &format!("{n} ≠ {}", entries.len()));
    }
    parsed_entries
}
