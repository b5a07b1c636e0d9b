//! One `.log` segment walked batch by batch as `kafka-dump-log.sh` walks it (by each
//! batch's batchLength, so a batch with a bad CRC is still listed, `isvalid: false`),
//! and the segment's `.index` and `.timeindex` checked against it
//! (`DumpLogSegments.dumpIndex` / `dumpTimeIndex`).

use super::compression::{decompress, DecompressError};
use super::{NotOpened, Problem, ProblemKind};
use crate::record::batch::{
    ATTRIBUTES_OFFSET, BASE_OFFSET_OFFSET, BASE_SEQUENCE_OFFSET, BASE_TIMESTAMP_OFFSET,
    BATCH_LENGTH_OFFSET, CRC_OFFSET, LAST_OFFSET_DELTA_OFFSET, MAGIC_OFFSET, MAX_TIMESTAMP_OFFSET,
    PARTITION_LEADER_EPOCH_OFFSET, PRODUCER_EPOCH_OFFSET, PRODUCER_ID_OFFSET, RECORDS_COUNT_OFFSET,
    RECORDS_OFFSET,
};
use crate::record::crc32c::crc32c;
use crate::record::{
    batch_line, codec_name, record_line, RecordBatch, RecordError, COMPRESSION_CODEC_MASK,
    LOG_OVERHEAD, MAGIC_V2, RECORD_BATCH_OVERHEAD,
};

/// One batch found in a segment.
#[derive(Clone, Debug)]
pub struct WalkedBatch {
    pub position: u64,
    /// The header (records empty) as stored, compression bits included.
    pub header: RecordBatch,
    /// The decoded batch, uncompressed, when it decoded cleanly (CRC, records).
    pub decoded: Option<RecordBatch>,
}

/// A segment's walk: its dump lines and problems, its batches, and where the valid
/// prefix (what recovery keeps) ends.
#[derive(Clone, Debug)]
pub struct SegmentLog {
    pub base_offset: i64,
    pub path: String,
    pub lines: Vec<String>,
    pub problems: Vec<Problem>,
    pub batches: Vec<WalkedBatch>,
    /// Bytes of the valid prefix: the batches before the first that does not decode.
    pub valid_bytes: u64,
    /// The segment as recovery should read it: the valid prefix with every compressed
    /// batch rewritten uncompressed (the engine's log reads only those), then the
    /// original bytes from the first bad batch on, which recovery cuts.
    pub recovery_bytes: Vec<u8>,
}

fn be(bytes: &[u8], at: usize, size: usize) -> i64 {
    let raw = bytes
        .get(at..at + size)
        .unwrap_or_default()
        .iter()
        .fold(0i64, |acc, &b| (acc << 8) | i64::from(b));
    let shift = 64 - 8 * size as u32;
    (raw << shift) >> shift
}

/// The header fields of the batch at the start of `bytes` (at least 61 bytes).
fn header(bytes: &[u8]) -> (RecordBatch, i32, u32) {
    let h = RecordBatch {
        base_offset: be(bytes, BASE_OFFSET_OFFSET, 8),
        partition_leader_epoch: be(bytes, PARTITION_LEADER_EPOCH_OFFSET, 4) as i32,
        attributes: be(bytes, ATTRIBUTES_OFFSET, 2) as i16,
        last_offset_delta: be(bytes, LAST_OFFSET_DELTA_OFFSET, 4) as i32,
        base_timestamp: be(bytes, BASE_TIMESTAMP_OFFSET, 8),
        max_timestamp: be(bytes, MAX_TIMESTAMP_OFFSET, 8),
        producer_id: be(bytes, PRODUCER_ID_OFFSET, 8),
        producer_epoch: be(bytes, PRODUCER_EPOCH_OFFSET, 2) as i16,
        base_sequence: be(bytes, BASE_SEQUENCE_OFFSET, 4) as i32,
        records: Vec::new(),
    };
    let count = be(bytes, RECORDS_COUNT_OFFSET, 4) as i32;
    let crc = be(bytes, CRC_OFFSET, 4) as u32;
    (h, count, crc)
}

/// The batch with its records region decompressed: the same header with no codec,
/// a new batchLength and CRC, so the record layer can decode it.
fn uncompressed(batch: &[u8], records: &[u8]) -> Vec<u8> {
    let mut out = batch.get(..RECORDS_OFFSET).unwrap_or_default().to_vec();
    out.extend_from_slice(records);
    let length = i32::try_from(out.len() - LOG_OVERHEAD).unwrap_or(i32::MAX);
    out[BATCH_LENGTH_OFFSET..BATCH_LENGTH_OFFSET + 4].copy_from_slice(&length.to_be_bytes());
    let attributes = be(&out, ATTRIBUTES_OFFSET, 2) as i16 & !COMPRESSION_CODEC_MASK;
    out[ATTRIBUTES_OFFSET..ATTRIBUTES_OFFSET + 2].copy_from_slice(&attributes.to_be_bytes());
    let crc = crc32c(&out[ATTRIBUTES_OFFSET..]);
    out[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
    out
}

/// Walks a segment's bytes; `path` names it in problems. `DumpLogSegments.dumpLog`: a
/// batch framed by its batchLength ([`frame`]), decoded ([`decode`]), listed with its
/// records; the first that does not decode ends the valid prefix; the walk stops where
/// no batch can be framed.
pub fn walk(base_offset: i64, path: &str, bytes: &[u8]) -> SegmentLog {
    let mut seg = SegmentLog {
        base_offset,
        path: path.to_string(),
        lines: vec![format!("Log starting offset: {base_offset}")],
        problems: Vec::new(),
        batches: Vec::new(),
        valid_bytes: 0,
        recovery_bytes: Vec::new(),
    };
    let mut valid = true;
    let mut last_record_offset: Option<i64> = None;
    let mut pos = 0usize;
    while let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) {
        let raw = match frame(rest) {
            Ok(raw) => raw,
            Err(kind) => {
                seg.problem(pos, kind);
                break;
            }
        };
        let total = raw.len();
        let (head, count, crc) = header(raw);
        if head.base_offset < base_offset {
            let kind = ProblemKind::BaseOffset {
                base_offset: head.base_offset,
                segment_base: base_offset,
            };
            seg.problem(pos, kind);
        }
        let Decoded {
            batch,
            crc_valid,
            failure,
        } = decode(raw);
        seg.lines
            .push(batch_line(&head, count, pos as u64, total, crc, crc_valid));
        if let Some((batch, _)) = &batch {
            seg.record_lines(pos, batch, &mut last_record_offset);
        }
        if let Some(kind) = failure {
            seg.problem(pos, kind);
            valid = false;
        }
        if valid {
            if let Some((_, plain)) = &batch {
                seg.recovery_bytes.extend_from_slice(plain);
                seg.valid_bytes = (pos + total) as u64;
            }
        }
        seg.batches.push(WalkedBatch {
            position: pos as u64,
            header: head,
            decoded: batch.map(|(b, _)| b),
        });
        pos += total;
    }
    seg.finish(bytes, pos);
    seg
}

impl SegmentLog {
    /// A problem at byte `pos` of this segment.
    fn problem(&mut self, pos: usize, kind: ProblemKind) {
        self.problems.push(Problem {
            path: self.path.clone(),
            position: Some(pos as u64),
            kind,
        });
    }

    /// A decoded batch's record lines, and a gap between record offsets (the batch at
    /// `pos`) as a problem.
    fn record_lines(&mut self, pos: usize, batch: &RecordBatch, last: &mut Option<i64>) {
        for record in &batch.records {
            let offset = batch.record_offset(record);
            if let Some(previous) = last.filter(|p| offset != p + 1) {
                let kind = ProblemKind::NonConsecutive {
                    previous,
                    next: offset,
                };
                self.problem(pos, kind);
            }
            *last = Some(offset);
            self.lines.push(record_line(batch, record));
        }
    }

    /// After the last batch (`pos`): the bytes recovery cuts follow the valid prefix,
    /// and bytes no batch framed are listed as Kafka does ("Found N invalid bytes").
    fn finish(&mut self, bytes: &[u8], pos: usize) {
        let valid_bytes = self.valid_bytes as usize;
        self.recovery_bytes
            .extend_from_slice(bytes.get(valid_bytes..).unwrap_or_default());
        let trailing = bytes.len().saturating_sub(pos);
        if trailing > 0 {
            let path = &self.path;
            let name = path.rsplit('/').next().unwrap_or(path);
            let line = format!("Found {trailing} invalid bytes at the end of {name}");
            self.lines.push(line);
        }
        if valid_bytes < bytes.len() {
            let kind = ProblemKind::InvalidBytes {
                bytes: (bytes.len() - valid_bytes) as u64,
                valid: valid_bytes as u64,
            };
            self.problem(valid_bytes, kind);
        }
    }
}

/// The batch at the start of `rest`, framed by its batchLength (`FileRecords`'
/// `RecordBatchIterator`): a length too short for a batch, another magic or fewer bytes
/// than it claims is a problem that ends the walk.
fn frame(rest: &[u8]) -> Result<&[u8], ProblemKind> {
    let Some(length) = rest.get(BATCH_LENGTH_OFFSET..LOG_OVERHEAD) else {
        return Err(ProblemKind::Truncated {
            needed: LOG_OVERHEAD as u64,
            available: rest.len() as u64,
        });
    };
    let length = i32::from_be_bytes([length[0], length[1], length[2], length[3]]);
    let total = usize::try_from(length)
        .ok()
        .filter(|&l| l >= RECORD_BATCH_OVERHEAD - LOG_OVERHEAD)
        .map(|l| l + LOG_OVERHEAD);
    let Some(total) = total else {
        return Err(ProblemKind::BatchLength { length });
    };
    if let Some(&magic) = rest.get(MAGIC_OFFSET) {
        if magic as i8 != MAGIC_V2 {
            return Err(ProblemKind::InvalidMagic { magic: magic as i8 });
        }
    }
    rest.get(..total).ok_or(ProblemKind::Truncated {
        needed: total as u64,
        available: rest.len() as u64,
    })
}

/// A framed batch decoded: the batch with its bytes uncompressed, when it decoded; and
/// why not, when it did not.
struct Decoded {
    batch: Option<(RecordBatch, Vec<u8>)>,
    /// False only for a CRC mismatch (`isvalid: false` in the dump line).
    crc_valid: bool,
    failure: Option<ProblemKind>,
}

/// Decodes a framed batch as `DumpLogSegments` reads it: CRC checked, a compressed
/// batch's records opened when its codec is compiled in.
fn decode(raw: &[u8]) -> Decoded {
    let failed = |kind| Decoded {
        batch: None,
        crc_valid: true,
        failure: Some(kind),
    };
    match RecordBatch::decode(raw) {
        Ok((batch, _)) => Decoded {
            batch: Some((batch, raw.to_vec())),
            crc_valid: true,
            failure: None,
        },
        Err(RecordError::CorruptMessage {
            stored_crc,
            computed_crc,
        }) => Decoded {
            crc_valid: false,
            ..failed(ProblemKind::CrcMismatch {
                stored: stored_crc,
                computed: computed_crc,
            })
        },
        Err(RecordError::UnsupportedCompression(codec)) => {
            let region = raw.get(RECORDS_OFFSET..).unwrap_or_default();
            let not_opened = |reason| ProblemKind::NotOpened {
                codec: codec_name(codec),
                reason,
            };
            match decompress(codec, region) {
                Ok(records) => {
                    let plain = uncompressed(raw, &records);
                    match RecordBatch::decode(&plain) {
                        Ok((batch, _)) => Decoded {
                            batch: Some((batch, plain)),
                            crc_valid: true,
                            failure: None,
                        },
                        Err(e) => failed(ProblemKind::InvalidRecord {
                            detail: e.to_string(),
                        }),
                    }
                }
                Err(DecompressError::Unsupported) => failed(not_opened(NotOpened::Unsupported)),
                Err(DecompressError::Corrupt(why)) => failed(not_opened(NotOpened::Corrupt(why))),
                Err(DecompressError::TooLarge) => failed(not_opened(NotOpened::TooLarge)),
            }
        }
        Err(e) => failed(ProblemKind::InvalidRecord {
            detail: e.to_string(),
        }),
    }
}

/// Whole entries of an index file of `entry_size`-byte entries; a torn tail is a
/// problem. Kafka preallocates index files with zeros: an entry equal to the base
/// after the first ends the list, as in `DumpLogSegments`.
fn entries<'a>(
    path: &str,
    bytes: &'a [u8],
    entry_size: usize,
    problems: &mut Vec<Problem>,
) -> impl Iterator<Item = &'a [u8]> {
    let whole = bytes.len() - bytes.len() % entry_size;
    if whole != bytes.len() {
        problems.push(Problem {
            path: path.to_string(),
            position: Some(whole as u64),
            kind: ProblemKind::TornIndex {
                len: bytes.len() as u64,
                entry_size: entry_size as u64,
            },
        });
    }
    bytes
        .get(..whole)
        .unwrap_or_default()
        .chunks_exact(entry_size)
}

/// `.index`: each (offset, position) printed, and the batch at that position must
/// end at that offset.
pub fn check_index(
    path: &str,
    base: i64,
    bytes: &[u8],
    segment: Option<&SegmentLog>,
    lines: &mut Vec<String>,
    problems: &mut Vec<Problem>,
) {
    for (i, entry) in entries(path, bytes, 8, problems).enumerate() {
        let relative = be(entry, 0, 4);
        let position = be(entry, 4, 4) as u32;
        if relative == 0 && i > 0 {
            break;
        }
        let offset = base.saturating_add(relative);
        lines.push(format!("offset: {offset} position: {position}"));
        let Some(segment) = segment else { continue };
        let at = (i * 8) as u64;
        let found = segment
            .batches
            .binary_search_by_key(&u64::from(position), |b| b.position)
            .ok()
            .and_then(|i| segment.batches.get(i));
        match found {
            Some(b) if b.header.last_offset() == offset => {}
            Some(b) => problems.push(Problem {
                path: path.to_string(),
                position: Some(at),
                kind: ProblemKind::IndexMismatch {
                    offset,
                    position,
                    log_offset: b.header.last_offset(),
                },
            }),
            None => problems.push(Problem {
                path: path.to_string(),
                position: Some(at),
                kind: ProblemKind::IndexNoBatch { offset, position },
            }),
        }
    }
}

/// `.timeindex`: each (timestamp, offset) printed; the batch ending at that offset
/// must have that largest timestamp, and timestamps must rise.
pub fn check_time_index(
    path: &str,
    base: i64,
    bytes: &[u8],
    segment: Option<&SegmentLog>,
    lines: &mut Vec<String>,
    problems: &mut Vec<Problem>,
) {
    let mut previous: Option<i64> = None;
    for (i, entry) in entries(path, bytes, 12, problems).enumerate() {
        let timestamp = be(entry, 0, 8);
        let relative = be(entry, 8, 4);
        if relative == 0 && i > 0 {
            break;
        }
        let offset = base.saturating_add(relative);
        lines.push(format!("timestamp: {timestamp} offset: {offset}"));
        let at = Some((i * 12) as u64);
        if let Some(segment) = segment {
            // Offsets rise through a sound segment: the first batch ending at or after
            // the entry's offset, found by halving (a segment may hold millions).
            let first = segment
                .batches
                .partition_point(|b| b.header.last_offset() < offset);
            match segment.batches.get(first) {
                Some(b) if b.header.last_offset() == offset => {
                    let log_timestamp = b.decoded.as_ref().map_or(b.header.max_timestamp, |d| {
                        d.records
                            .iter()
                            .map(|r| d.record_timestamp(r))
                            .max()
                            .unwrap_or(d.max_timestamp)
                    });
                    if log_timestamp != timestamp {
                        problems.push(Problem {
                            path: path.to_string(),
                            position: at,
                            kind: ProblemKind::TimeIndexMismatch {
                                timestamp,
                                offset,
                                log_timestamp,
                            },
                        });
                    }
                }
                _ => problems.push(Problem {
                    path: path.to_string(),
                    position: at,
                    kind: ProblemKind::TimeIndexOffset { timestamp, offset },
                }),
            }
        }
        if let Some(p) = previous.filter(|&p| p >= timestamp) {
            problems.push(Problem {
                path: path.to_string(),
                position: at,
                kind: ProblemKind::TimeIndexOrder {
                    timestamp,
                    previous: p,
                },
            });
        }
        previous = Some(timestamp);
    }
}
