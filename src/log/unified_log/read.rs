//! Reading the log back: fetches bounded by the isolation level, the aborted
//! transactions of `.txnindex`, and every batch for the views.

use super::*;

impl UnifiedLog {
    /// Every `.txnindex` entry of the log, oldest first.
    pub fn aborted_transactions(&self, fs: &MemFs) -> Vec<AbortedTxn> {
        self.segments
            .iter()
            .flat_map(|s| {
                let path = format!("{}/{}", self.dir, file_name(s.base_offset, ".txnindex"));
                AbortedTxn::decode_all(fs.read(&path).unwrap_or_default())
            })
            .collect()
    }

    /// `UnifiedLog.read`: whole batches from `start_offset` up to the bound the
    /// isolation allows (LEO, HW or LSO), at most `max_bytes` (but always at least one
    /// batch), all from one segment, with the aborted transactions in that range for
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
        let mut records = Vec::new();
        let mut next_offset = start_offset;
        let mut count = 0usize;
        'segments: for seg in &self.segments {
            if seg.next_offset <= start_offset {
                continue;
            }
            let Ok(bytes) = fs.read(&seg.log_path(&self.dir)) else {
                continue;
            };
            let mut pos = 0usize;
            while let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) {
                let Ok((batch, used)) = RecordBatch::decode(rest) else {
                    break;
                };
                pos += used;
                if batch.last_offset() < start_offset {
                    continue;
                }
                if batch.last_offset() >= upper || (count > 0 && records.len() + used > max_bytes) {
                    break 'segments;
                }
                records.extend_from_slice(rest.get(..used).unwrap_or_default());
                next_offset = batch.next_offset();
                count += 1;
            }
            // `LocalLog.read` answers from one segment: the first that holds a batch
            // at or past the start offset. The next fetch goes on from there.
            if count > 0 {
                break;
            }
        }
        let aborted_transactions = (isolation == FetchIsolation::TxnCommitted).then(|| {
            self.aborted_transactions(fs)
                .into_iter()
                .filter(|t| t.last_offset >= start_offset && t.first_offset < next_offset)
                .map(|t| (t.producer_id, t.first_offset))
                .collect()
        });
        Ok(FetchDataInfo {
            records,
            batch_count: count,
            high_watermark: self.high_watermark,
            last_stable_offset: self.last_stable_offset(),
            log_start_offset: self.log_start_offset,
            aborted_transactions,
        })
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
