//! What a replica's log says each offset holds, and whether its transaction is decided:
//! the "version order" Jepsen rebuilds from reads and writes, here read straight from
//! the broker's bytes through the log's read API (so it works for 1 replica or N).

use std::collections::BTreeMap;

use crate::fs::MemFs;
use crate::log::UnifiedLog;
use crate::record::ControlRecordType;

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
}

impl PartitionRecords {
    /// Decodes the log and settles each transactional record by the marker after it.
    pub fn read(log: &UnifiedLog, fs: &MemFs) -> PartitionRecords {
        let mut records: BTreeMap<i64, LoggedRecord> = BTreeMap::new();
        // Open transactional offsets per producer id, until its marker.
        let mut open: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for stored in log.read_all(fs) {
            let batch = &stored.batch;
            if batch.is_control() {
                let kind = batch.control_record().map(|(k, _)| k);
                let status = if kind == Some(ControlRecordType::Commit) {
                    Status::Committed
                } else {
                    Status::Aborted
                };
                for offset in open.remove(&batch.producer_id).unwrap_or_default() {
                    if let Some(r) = records.get_mut(&offset) {
                        r.status = status;
                    }
                }
                continue;
            }
            let transactional = batch.is_transactional();
            for record in &batch.records {
                let offset = batch.base_offset + i64::from(record.offset_delta.max(0));
                let value = record.value.as_ref().map_or_else(
                    || "null".into(),
                    |v| String::from_utf8_lossy(v).into_owned(),
                );
                if transactional {
                    open.entry(batch.producer_id).or_default().push(offset);
                }
                records.insert(
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
        PartitionRecords {
            records,
            log_end_offset: log.log_end_offset(),
            high_watermark: log.high_watermark(),
            log_start_offset: log.log_start_offset(),
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
