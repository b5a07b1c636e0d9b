//! Reading the log back: fetches bounded by the isolation level, the aborted
//! transactions of `.txnindex`, and every batch for the views.

use super::*;
use crate::log::segment::read_offset_index;
use crate::log::transaction_index::collect_aborted_txns;

impl UnifiedLog {
    /// Every `.txnindex` entry of the log, oldest first.
    pub fn aborted_transactions(&self, fs: &MemFs) -> Vec<AbortedTxn> {
        self.segments
            .iter()
            .flat_map(|s| self.txn_index(fs, s))
            .collect()
    }

    /// The entries of one segment's `.txnindex`.
    fn txn_index(&self, fs: &MemFs, seg: &LogSegment) -> Vec<AbortedTxn> {
        let path = format!("{}/{}", self.dir, file_name(seg.base_offset, ".txnindex"));
        AbortedTxn::decode_all(fs.read(&path).unwrap_or_default())
    }

    /// `UnifiedLog.read`: whole batches from `start_offset` up to the bound the
    /// isolation allows (LEO, HW or LSO), at most `max_bytes` (but always at least one
    /// batch), all from one segment, with the aborted transactions of that range for
    /// `read_committed`.
    pub fn read(
        &self,
        fs: &MemFs,
        start_offset: i64,
        max_bytes: usize,
        isolation: FetchIsolation,
    ) -> Result<FetchDataInfo, Errors> {
        if start_offset < self.log_start_offset || start_offset > self.log_end_offset {
            return Err(Errors::OffsetOutOfRange);
        }
        let upper = match isolation {
            FetchIsolation::LogEnd => self.log_end_offset,
            FetchIsolation::HighWatermark => self.high_watermark,
            // NOT KAFKA: break lso — read_committed reads up to the high watermark.
            FetchIsolation::TxnCommitted if self.config.breaks.lso_off() => self.high_watermark,
            FetchIsolation::TxnCommitted => self.last_stable_offset(),
        };
        let committed = isolation == FetchIsolation::TxnCommitted;
        let (records, batch_count, aborted_transactions) =
            self.read_range(fs, start_offset, (max_bytes, upper), committed);
        Ok(FetchDataInfo {
            records,
            batch_count,
            high_watermark: self.high_watermark,
            last_stable_offset: self.last_stable_offset(),
            log_start_offset: self.log_start_offset,
            aborted_transactions,
        })
    }

    /// The bytes, their batch count and (`committed`) the aborted list of a read.
    fn read_range(
        &self,
        fs: &MemFs,
        start_offset: i64,
        (max_bytes, upper): (usize, i64),
        committed: bool,
    ) -> ReadRange {
        // `LocalLog.read` (Kafka 4.0): a fetch at or past the bound reads nothing and
        // lists no aborted transaction (`emptyFetchDataInfo`: an empty list).
        if start_offset >= upper {
            return (Vec::new(), 0, committed.then(Vec::new));
        }
        // No segment holds a batch at or past the start (all deleted): nothing, and no
        // list at all.
        let Some(slice) = self.read_slice(fs, start_offset, (max_bytes, upper), committed) else {
            return (Vec::new(), 0, None);
        };
        let aborted = committed.then(|| self.aborted_in_fetch(fs, start_offset, &slice));
        (slice.records, slice.batch_count, aborted)
    }

    /// `LocalLog.read` then `LogSegment.read`: the first segment that holds a batch
    /// ending at or past `start_offset` answers, with its batches from there that end
    /// below `upper`, within `max_bytes` (the first always). None when no segment does.
    /// `find_bound`: walk on past `max_bytes` to where `upper` sits in the segment (the
    /// aborted list's bound needs it).
    fn read_slice(
        &self,
        fs: &MemFs,
        start_offset: i64,
        (max_bytes, upper): (usize, i64),
        find_bound: bool,
    ) -> Option<SegmentSlice> {
        for (segment, seg) in self.segments.iter().enumerate() {
            if seg.next_offset <= start_offset {
                continue;
            }
            let Ok(bytes) = fs.read(&seg.log_path(&self.dir)) else {
                continue;
            };
            let mut slice: Option<SegmentSlice> = None;
            let mut full = false;
            let mut pos = 0usize;
            while let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) {
                let Ok((batch, used)) = RecordBatch::decode(rest) else {
                    break;
                };
                if batch.last_offset() < start_offset {
                    pos += used;
                    continue;
                }
                let s = slice.get_or_insert_with(|| SegmentSlice::new(segment, pos, used));
                if batch.last_offset() >= upper {
                    // The bound's position in this segment (`maxPosition`).
                    s.max_position = pos;
                    break;
                }
                // Past `max_bytes` the walk only looks for the bound's position.
                full = full || (s.batch_count > 0 && s.records.len() + used > max_bytes);
                if full && !find_bound {
                    break;
                }
                if !full {
                    s.records
                        .extend_from_slice(rest.get(..used).unwrap_or_default());
                    s.batch_count += 1;
                }
                pos += used;
            }
            if let Some(mut s) = slice {
                s.max_position = s.max_position.min(pos);
                s.max_bytes = max_bytes;
                return Some(s);
            }
        }
        None
    }

    /// `LocalLog.addAbortedTransactions` (Kafka 4.0): the aborted transactions a
    /// read_committed fetch lists. The upper bound is not the end of the bytes sent but
    /// the offset of the first `.index` entry at or past where Kafka's slice ends
    /// (`LogSegment.fetchUpperBoundOffset`), else the next segment's base offset, else
    /// the LEO; the `.txnindex` of the segment read and of the later ones is searched
    /// until complete (`collectAbortedTransactions`). A transaction listed beyond the
    /// records sent is never reached by the consumer.
    fn aborted_in_fetch(
        &self,
        fs: &MemFs,
        start_offset: i64,
        slice: &SegmentSlice,
    ) -> Vec<(i64, i64)> {
        let Some(seg) = self.segments.get(slice.segment) else {
            return Vec::new();
        };
        let index = read_offset_index(
            fs.read(&seg.index_path(&self.dir)).unwrap_or_default(),
            seg.base_offset,
        );
        let end = slice
            .start_position
            .saturating_add(slice.kafka_fetch_size());
        let upper_bound = index
            .iter()
            .find(|(_, position)| *position as usize >= end)
            .map(|(offset, _)| *offset)
            .or_else(|| self.segments.get(slice.segment + 1).map(|s| s.base_offset))
            .unwrap_or(self.log_end_offset);
        let mut out = Vec::new();
        for s in self.segments.iter().skip(slice.segment) {
            let found = collect_aborted_txns(&self.txn_index(fs, s), start_offset, upper_bound);
            out.extend(
                found
                    .aborted_transactions
                    .iter()
                    .map(AbortedTxn::as_aborted_transaction),
            );
            if found.is_complete {
                break;
            }
        }
        out
    }

    /// Every batch in the log with its segment and byte position, read from disk.
    pub fn read_all(&self, fs: &MemFs) -> Vec<StoredBatch> {
        let mut out = Vec::new();
        for seg in &self.segments {
            let Ok(bytes) = fs.read(&seg.log_path(&self.dir)) else {
                continue;
            };
            if let Ok(batches) = decode_all(bytes) {
                for (position, batch) in batches {
                    let end = (position as usize).saturating_add(batch.size_in_bytes());
                    let raw = bytes
                        .get(position as usize..end)
                        .unwrap_or_default()
                        .to_vec();
                    out.push(StoredBatch {
                        segment: seg.base_offset,
                        position,
                        batch,
                        raw,
                    });
                }
            }
        }
        out
    }
}

/// A read's bytes, their batch count and (read_committed) its aborted list as
/// (producer id, first offset).
type ReadRange = (Vec<u8>, usize, Option<Vec<(i64, i64)>>);

/// What `LogSegment.read` found in the segment that answers a fetch.
struct SegmentSlice {
    /// Index of the segment in the log.
    segment: usize,
    /// Byte position of the first batch at or past the fetch offset
    /// (`fetchOffsetMetadata.relativePositionInSegment`).
    start_position: usize,
    /// Bytes of the first batch (`minOneMessage` lets a fetch take it whole).
    first_batch_size: usize,
    /// Where the isolation's bound sits in the segment, or the segment's size.
    max_position: usize,
    max_bytes: usize,
    records: Vec<u8>,
    batch_count: usize,
}

impl SegmentSlice {
    fn new(segment: usize, start_position: usize, first_batch_size: usize) -> Self {
        SegmentSlice {
            segment,
            start_position,
            first_batch_size,
            max_position: usize::MAX,
            max_bytes: 0,
            records: Vec::new(),
            batch_count: 0,
        }
    }

    /// The bytes Kafka's `LogSegment.read` slices: up to the bound's position, at most
    /// `max_bytes` or the first batch if larger. Kafka may end inside a batch (the
    /// consumer drops the partial one); here whole batches are sent, so the aborted
    /// list is bounded as Kafka bounds it, not by the bytes sent.
    fn kafka_fetch_size(&self) -> usize {
        let adjusted_max_size = self.max_bytes.max(self.first_batch_size);
        self.max_position
            .saturating_sub(self.start_position)
            .min(adjusted_max_size)
    }
}
