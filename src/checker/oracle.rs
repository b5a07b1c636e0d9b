//! What a replica's log says each offset holds, and whether its transaction is decided:
//! the "version order" Jepsen rebuilds from reads and writes, here read straight from
//! the broker's bytes through the log's read API (so it works for 1 replica or N).

use std::collections::BTreeMap;

use crate::fs::MemFs;
use crate::log::UnifiedLog;
use crate::record::{decode_all, ControlRecordType, RecordBatch};

/// Where a data record's transaction stands in this log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not transactional (idempotent or plain producer).
    Plain,
    /// Transactional, no marker yet.
    Open,
    Committed,
    Aborted,
}

/// One data record as the log holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedRecord {
    pub value: String,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub status: Status,
}

impl LoggedRecord {
    /// What a read_committed consumer may be handed (below the LSO).
    pub fn committed(&self) -> bool {
        matches!(self.status, Status::Plain | Status::Committed)
    }
}

/// Every data record of one replica's log, by offset, with the offsets it was read at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartitionRecords {
    pub records: BTreeMap<i64, LoggedRecord>,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub log_start_offset: i64,
    /// The newest leader-epoch entry (epoch, start offset) when read: a log truncated
    /// and refilled to the same end by a new leader has another one.
    pub latest_epoch: Option<(i32, i64)>,
    /// Open transactional offsets per producer id, until its marker.
    open: BTreeMap<i64, Vec<i64>>,
    /// Where reading stopped, so a refresh decodes only what was appended since.
    cursor: Option<ReadCursor>,
}

/// The segment and byte position after the last batch read, and where that batch
/// starts with its CRC: a tail rewritten under it (a truncation, then appends) shows
/// as another CRC there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ReadCursor {
    segment: i64,
    end: usize,
    last: Option<(usize, [u8; 4])>,
}

/// Where a v2 batch keeps its CRC: after baseOffset (8), batchLength (4),
/// partitionLeaderEpoch (4) and magic (1).
const CRC_AT: usize = 17;

fn crc_at(bytes: &[u8], position: usize) -> Option<[u8; 4]> {
    bytes
        .get(position + CRC_AT..position + CRC_AT + 4)
        .and_then(|b| b.try_into().ok())
}

impl PartitionRecords {
    /// Decodes the log and settles each transactional record by the marker after it.
    pub fn read(log: &UnifiedLog, fs: &MemFs) -> PartitionRecords {
        let mut r = PartitionRecords {
            log_start_offset: log.log_start_offset(),
            ..PartitionRecords::default()
        };
        if !r.consume(log, fs, None) {
            // A segment that does not decode is skipped whole (as `read_all` does);
            // with no cursor the next refresh reads everything again.
            r.cursor = None;
        }
        r.log_end_offset = log.log_end_offset();
        r.high_watermark = log.high_watermark();
        r.latest_epoch = log.epochs().last().copied();
        r
    }

    /// Brings the records up to date with the log: only the batches appended since the
    /// last read, unless the log was rewritten under them (its start moved, it got
    /// shorter, its tail changed, a segment went), then all of it again. The result is
    /// what [`PartitionRecords::read`] gives.
    pub fn refresh(&mut self, log: &UnifiedLog, fs: &MemFs) {
        let Some(cursor) = self.cursor.filter(|c| self.still_valid(log, fs, c)) else {
            *self = PartitionRecords::read(log, fs);
            return;
        };
        if !self.consume(log, fs, Some(cursor)) {
            *self = PartitionRecords::read(log, fs);
            return;
        }
        self.log_end_offset = log.log_end_offset();
        self.high_watermark = log.high_watermark();
        self.latest_epoch = log.epochs().last().copied();
    }

    fn still_valid(&self, log: &UnifiedLog, fs: &MemFs, c: &ReadCursor) -> bool {
        if log.log_start_offset() != self.log_start_offset
            || log.log_end_offset() < self.log_end_offset
        {
            return false;
        }
        let Some(seg) = log.segments().iter().find(|s| s.base_offset == c.segment) else {
            return false;
        };
        let Ok(bytes) = fs.read(&seg.log_path(log.dir())) else {
            return false;
        };
        bytes.len() >= c.end
            && c.last
                .is_none_or(|(position, crc)| crc_at(bytes, position) == Some(crc))
    }

    /// Reads the batches after `from` (everything without it). False if a segment did
    /// not decode.
    fn consume(&mut self, log: &UnifiedLog, fs: &MemFs, from: Option<ReadCursor>) -> bool {
        let mut clean = true;
        for seg in log.segments() {
            let start = match from {
                Some(c) if seg.base_offset < c.segment => continue,
                Some(c) if seg.base_offset == c.segment => c.end,
                _ => 0,
            };
            let Ok(bytes) = fs.read(&seg.log_path(log.dir())) else {
                continue;
            };
            let Ok(batches) = decode_all(bytes.get(start..).unwrap_or_default()) else {
                clean = false;
                continue;
            };
            let mut cursor = ReadCursor {
                segment: seg.base_offset,
                end: start,
                last: from
                    .filter(|c| c.segment == seg.base_offset)
                    .and_then(|c| c.last),
            };
            for (position, batch) in batches {
                let position = start + position as usize;
                cursor.end = position + batch.size_in_bytes();
                cursor.last = crc_at(bytes, position).map(|crc| (position, crc));
                self.apply(&batch);
            }
            self.cursor = Some(cursor);
        }
        clean
    }

    /// One batch, in log order: a marker settles its producer's open records.
    fn apply(&mut self, batch: &RecordBatch) {
        if batch.is_control() {
            let kind = batch.control_record().map(|(k, _)| k);
            let status = if kind == Some(ControlRecordType::Commit) {
                Status::Committed
            } else {
                Status::Aborted
            };
            for offset in self.open.remove(&batch.producer_id).unwrap_or_default() {
                if let Some(r) = self.records.get_mut(&offset) {
                    r.status = status;
                }
            }
            return;
        }
        let transactional = batch.is_transactional();
        for record in &batch.records {
            let offset = batch.base_offset + i64::from(record.offset_delta.max(0));
            let value = crate::record::record_text(record.key.as_deref(), record.value.as_deref());
            if transactional {
                self.open.entry(batch.producer_id).or_default().push(offset);
            }
            self.records.insert(
                offset,
                LoggedRecord {
                    value,
                    producer_id: batch.producer_id,
                    producer_epoch: batch.producer_epoch,
                    status: if transactional {
                        Status::Open
                    } else {
                        Status::Plain
                    },
                },
            );
        }
    }

    /// Whether a consumer at this isolation level should have been handed the record at
    /// `offset` on its way past it.
    pub fn visible(&self, offset: i64, read_committed: bool) -> bool {
        self.records
            .get(&offset)
            .is_some_and(|r| !read_committed || r.committed())
    }

    /// The visible records strictly between two offsets.
    pub fn visible_between(&self, after: i64, before: i64, read_committed: bool) -> Vec<i64> {
        if before <= after.saturating_add(1) {
            return Vec::new();
        }
        self.records
            .range(after + 1..before)
            .filter(|(o, _)| self.visible(**o, read_committed))
            .map(|(o, _)| *o)
            .collect()
    }
}
