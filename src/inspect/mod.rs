//! `eos inspect`: a Kafka partition folder read as Kafka's own tools and recovery
//! read it. Each segment's batches as `kafka-dump-log.sh --print-data-log
//! --deep-iteration` prints them (Kafka 4.0's `DumpLogSegments`), the `.index` and
//! `.timeindex` entries checked against the log, the `.txnindex`, the producer
//! `.snapshot` files and the `leader-epoch-checkpoint`; then the partition as a
//! starting broker rebuilds it ([`crate::log::UnifiedLog::open`]: valid prefix of each segment,
//! producer state from the latest snapshot plus the log after it).
//!
//! Works on plain bytes (file names and contents), so the CLI and the page share it.
//! Damage is reported with the file and byte position and never stops the rest:
//! what Kafka's recovery keeps is still shown. Simplified: every segment is checked
//! as if it were past the recovery point (Kafka re-reads only the segments after
//! `recovery-point-offset-checkpoint` after an unclean shutdown).

pub mod compression;
mod log_dump;
mod summary;

#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::log::AbortedTxn;

pub use summary::{ProducerSummary, Summary};

/// One partition folder's files and what was found in them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionReport {
    /// The folder's name ("payments-0").
    pub dir: String,
    /// Each file's dump, in the order Kafka's tool would be given them: per segment
    /// `.log`, `.index`, `.timeindex`, `.txnindex`; then snapshots and checkpoints.
    pub files: Vec<FileDump>,
    pub problems: Vec<Problem>,
    /// The partition as recovery rebuilds it; None without a `.log` segment.
    pub summary: Option<Summary>,
}

/// The lines Kafka's `kafka-dump-log.sh` prints for one file (Kafka's own words and
/// field names, which are never translated).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileDump {
    /// "payments-0/00000000000000000000.log".
    pub path: String,
    pub lines: Vec<String>,
}

/// Something wrong in a file: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub path: String,
    /// The byte position in the file, where one applies.
    pub position: Option<u64>,
    pub kind: ProblemKind,
}

/// What is wrong. Each names Kafka's error where Kafka has one; the words are in the
/// catalog (`inspect.*`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ProblemKind {
    /// The stored CRC32C does not match the batch's bytes (CORRUPT_MESSAGE).
    CrcMismatch { stored: u32, computed: u32 },
    /// A batch runs past the end of the file: a torn write.
    Truncated { needed: u64, available: u64 },
    /// batchLength cannot even hold a batch header (CORRUPT_MESSAGE).
    BatchLength { length: i32 },
    /// The magic byte is not 2 (only record batch v2 is read).
    InvalidMagic { magic: i8 },
    /// The header checks out but the records do not (INVALID_RECORD).
    InvalidRecord { detail: String },
    /// A compressed batch whose records could not be opened.
    NotOpened { codec: String, reason: NotOpened },
    /// Bytes after the last whole batch; recovery cuts the segment at `valid`.
    InvalidBytes { bytes: u64, valid: u64 },
    /// Record offsets that do not follow one another (`--deep-iteration`'s check;
    /// normal in a compacted topic).
    NonConsecutive { previous: i64, next: i64 },
    /// An `.index` entry whose position holds a batch ending at another offset.
    IndexMismatch {
        offset: i64,
        position: u32,
        log_offset: i64,
    },
    /// An `.index` entry whose position is not the start of a batch.
    IndexNoBatch { offset: i64, position: u32 },
    /// An index file that is not a whole number of entries.
    TornIndex { len: u64, entry_size: u64 },
    /// A `.timeindex` entry whose batch has another largest timestamp.
    TimeIndexMismatch {
        timestamp: i64,
        offset: i64,
        log_timestamp: i64,
    },
    /// A `.timeindex` entry whose offset is not the last offset of a batch.
    TimeIndexOffset { timestamp: i64, offset: i64 },
    /// A `.timeindex` timestamp not above the entry before it.
    TimeIndexOrder { timestamp: i64, previous: i64 },
    /// A producer snapshot that cannot be read (`CorruptSnapshotException`).
    Snapshot { detail: String },
    /// A `.txnindex` entry with no matching aborted transaction in the log.
    TxnIndexNotInLog { txn: AbortedTxn },
    /// An aborted transaction in the log that no `.txnindex` entry records.
    TxnIndexMissing { txn: AbortedTxn },
    /// A batch's base offset below its segment's base offset (the file name).
    BaseOffset { base_offset: i64, segment_base: i64 },
    /// A batch's partitionLeaderEpoch is not the epoch `leader-epoch-checkpoint`
    /// gives its offsets (the leader-epoch cache recovery rebuilds from the batches).
    LeaderEpoch {
        epoch: i32,
        expected: Option<i32>,
        base_offset: i64,
    },
    /// A `leader-epoch-checkpoint` line that is not what Kafka writes.
    EpochCheckpoint { line: usize, text: String },
    /// A file Kafka's tool would ignore ("Ignoring unknown file").
    UnknownFile,
}

/// Why a compressed batch's records were not opened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum NotOpened {
    /// No decoder for this codec in this build.
    Unsupported,
    /// The compressed stream is damaged (the decoder's reason).
    Corrupt(String),
    /// It would decompress to more than [`compression::MAX_DECOMPRESSED_BYTES`].
    TooLarge,
}

/// What a file in a partition folder is, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FileKind {
    Log,
    Index,
    TimeIndex,
    TxnIndex,
    Snapshot,
    EpochCheckpoint,
    PartitionMetadata,
    Unknown,
}

fn kind_of(name: &str) -> (FileKind, i64) {
    use crate::log::segment::offset_from_file_name;
    match name {
        crate::log::unified_log::LEADER_EPOCH_CHECKPOINT => {
            return (FileKind::EpochCheckpoint, 0);
        }
        "partition.metadata" => return (FileKind::PartitionMetadata, 0),
        _ => {}
    }
    match offset_from_file_name(name) {
        Some((o, ".log")) => (FileKind::Log, o),
        Some((o, ".index")) => (FileKind::Index, o),
        Some((o, ".timeindex")) => (FileKind::TimeIndex, o),
        Some((o, ".txnindex")) => (FileKind::TxnIndex, o),
        Some((o, ".snapshot")) => (FileKind::Snapshot, o),
        _ => (FileKind::Unknown, 0),
    }
}

/// Inspects the files of one or more partition folders. `files` are paths relative
/// to the folder given (`"payments-0/00000000000000000000.log"`): a file's folder is
/// everything before its last '/', and the files of each folder make one report.
/// Folders come out sorted by name.
pub fn inspect(files: &[(String, Vec<u8>)]) -> Vec<PartitionReport> {
    let mut folders: crate::util::sorted_map::SortedMap<String, Vec<(String, &[u8])>> =
        crate::util::sorted_map::SortedMap::new();
    for (path, bytes) in files {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path.as_str()));
        folders
            .entry(dir.to_string())
            .or_default()
            .push((name.to_string(), bytes.as_slice()));
    }
    folders
        .into_iter()
        .map(|(dir, files)| inspect_partition(&dir, &files))
        .collect()
}

/// The files of a .zip (`crate::zip::read`) as [`inspect`] takes them: each file under
/// its folder's path in the archive (`own_name` for files at the top, a zip of one
/// partition folder's contents). When some folder holds segments (`.log`, `.index` or
/// `.snapshot` files), the files of other folders are left out, as `eos inspect DIR`
/// leaves out a broker's own checkpoint files.
pub fn zip_files(entries: Vec<(String, Vec<u8>)>, own_name: &str) -> Vec<(String, Vec<u8>)> {
    let parent = |path: &str| path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let segment = |path: &str| {
        [".log", ".index", ".snapshot"]
            .iter()
            .any(|e| path.ends_with(e))
    };
    let partitions: Vec<String> = entries
        .iter()
        .filter(|(p, _)| segment(p))
        .map(|(p, _)| parent(p))
        .collect();
    entries
        .into_iter()
        .filter(|(p, _)| partitions.is_empty() || partitions.contains(&parent(p)))
        .map(|(p, bytes)| match p.rsplit_once('/') {
            Some(_) => (p, bytes),
            None => (format!("{own_name}/{p}"), bytes),
        })
        .collect()
}

/// Inspects one partition folder: `files` are (name, bytes) of the files in it.
pub fn inspect_partition(dir: &str, files: &[(String, &[u8])]) -> PartitionReport {
    let path_of = |name: &str| {
        if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        }
    };
    let mut sorted: Vec<(FileKind, i64, &str, &[u8])> = files
        .iter()
        .map(|(name, bytes)| {
            let (kind, base) = kind_of(name);
            (kind, base, name.as_str(), *bytes)
        })
        .collect();
    // Segment files by base offset, each segment's files in Kafka's order; then the rest.
    crate::util::ordered::sort_by(&mut sorted, |a, b| {
        let segment = |k: FileKind| k <= FileKind::TxnIndex;
        match (segment(a.0), segment(b.0)) {
            (true, true) => (a.1, a.0).cmp(&(b.1, b.0)),
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (false, false) => (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)),
        }
    });

    let mut report = PartitionReport {
        dir: dir.to_string(),
        files: Vec::new(),
        problems: Vec::new(),
        summary: None,
    };
    // Each segment's log, walked once; the index checks and the summary read it.
    let mut segments: Vec<log_dump::SegmentLog> = Vec::new();
    for (kind, base, name, bytes) in &sorted {
        if *kind == FileKind::Log {
            segments.push(log_dump::walk(*base, &path_of(name), bytes));
        }
    }
    let mut txn_entries: Vec<(String, AbortedTxn)> = Vec::new();
    let mut epochs: Option<Vec<(i32, i64)>> = None;
    for (kind, base, name, bytes) in &sorted {
        let path = path_of(name);
        let mut lines = Vec::new();
        let segment = segments.iter().find(|s| s.base_offset == *base);
        match kind {
            FileKind::Log => {
                if let Some(s) = segment {
                    lines.extend(s.lines.iter().cloned());
                    report.problems.extend(s.problems.iter().cloned());
                }
            }
            FileKind::Index => log_dump::check_index(
                &path,
                *base,
                bytes,
                segment,
                &mut lines,
                &mut report.problems,
            ),
            FileKind::TimeIndex => log_dump::check_time_index(
                &path,
                *base,
                bytes,
                segment,
                &mut lines,
                &mut report.problems,
            ),
            FileKind::TxnIndex => {
                let whole =
                    bytes.len() - bytes.len() % crate::log::transaction_index::ABORTED_TXN_SIZE;
                if whole != bytes.len() {
                    report.problems.push(Problem {
                        path: path.clone(),
                        position: Some(whole as u64),
                        kind: ProblemKind::TornIndex {
                            len: bytes.len() as u64,
                            entry_size: crate::log::transaction_index::ABORTED_TXN_SIZE as u64,
                        },
                    });
                }
                for txn in AbortedTxn::decode_all(bytes) {
                    lines.push(txn.dump_line());
                    txn_entries.push((path.clone(), txn));
                }
            }
            FileKind::Snapshot => {
                summary::dump_snapshot(&path, *base, bytes, &mut lines, &mut report.problems)
            }
            FileKind::EpochCheckpoint => {
                epochs = Some(summary::dump_epoch_checkpoint(
                    &path,
                    bytes,
                    &mut lines,
                    &mut report.problems,
                ))
            }
            FileKind::PartitionMetadata => {
                lines.extend(String::from_utf8_lossy(bytes).lines().map(str::to_string))
            }
            FileKind::Unknown => report.problems.push(Problem {
                path: path.clone(),
                position: None,
                kind: ProblemKind::UnknownFile,
            }),
        }
        if *kind != FileKind::Unknown {
            report.files.push(FileDump { path, lines });
        }
    }
    if let Some(epochs) = &epochs {
        check_leader_epochs(epochs, &segments, &mut report.problems);
    }
    if !segments.is_empty() {
        let summary = summary::recover(dir, &sorted_files(&sorted), &segments);
        summary::check_txn_index(
            &summary.aborted,
            &txn_entries,
            &segments,
            &mut report.problems,
        );
        report.summary = Some(summary);
    }
    report
}

/// The (name, bytes) of the snapshot and checkpoint files recovery reads.
fn sorted_files<'a>(sorted: &[(FileKind, i64, &'a str, &'a [u8])]) -> Vec<(&'a str, &'a [u8])> {
    sorted
        .iter()
        .filter(|f| matches!(f.0, FileKind::Snapshot | FileKind::EpochCheckpoint))
        .map(|f| (f.2, f.3))
        .collect()
}

/// Each batch's partitionLeaderEpoch against the checkpoint: the epoch of the last
/// entry starting at or below the batch's base offset (`LeaderEpochFileCache`).
fn check_leader_epochs(
    epochs: &[(i32, i64)],
    segments: &[log_dump::SegmentLog],
    problems: &mut Vec<Problem>,
) {
    for segment in segments {
        for b in &segment.batches {
            let epoch = b.header.partition_leader_epoch;
            let expected = epochs
                .iter()
                .rev()
                .find(|(_, start)| *start <= b.header.base_offset)
                .map(|(e, _)| *e);
            if expected != Some(epoch) && !(expected.is_none() && epoch < 0) {
                problems.push(Problem {
                    path: segment.path.clone(),
                    position: Some(b.position),
                    kind: ProblemKind::LeaderEpoch {
                        epoch,
                        expected,
                        base_offset: b.header.base_offset,
                    },
                });
            }
        }
    }
}
