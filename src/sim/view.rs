//! Read-only views of the world for the UI and the CLI. Everything here is decoded
//! from the bytes on the brokers' disks or read from producer state — no second,
//! friendlier copy of the truth is kept anywhere.

use serde::Serialize;

use super::world::World;
use crate::broker::broker::Broker;
use crate::log::segment::{read_offset_index, read_time_index};
use crate::log::{AbortedTxn, BatchMetadata, TopicPartition};
use crate::record::batch::read_batch_length;
use crate::record::dump::BatchLine;
use crate::record::TimestampType;
use crate::record::{header_fields, ControlRecordType, HeaderField, RecordBatch, LOG_OVERHEAD};

/// One batch as stored on disk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BatchView {
    pub segment: i64,
    pub position: u64,
    pub size: usize,
    pub base_offset: i64,
    pub last_offset: i64,
    pub count: i32,
    pub producer_id: i64,
    pub producer_epoch: i16,
    pub base_sequence: i32,
    pub last_sequence: i32,
    pub partition_leader_epoch: i32,
    pub is_transactional: bool,
    pub is_control: bool,
    /// The horizon the log cleaner stamped on a tombstone's or emptied transaction's
    /// marker batch (KIP-534); None until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete_horizon_ms: Option<i64>,
    pub max_timestamp: i64,
    pub crc: u32,
    /// Record values as text (lossy UTF-8), with their offsets.
    pub records: Vec<(i64, String)>,
    /// A control batch's marker as the engine decoded it: its type and the
    /// coordinator epoch (None for data, or a control record that does not decode).
    #[serde(skip)]
    pub end_txn_marker: Option<(ControlRecordType, i32)>,
    /// The raw bytes of the batch, for the header-bytes view.
    #[serde(skip)]
    pub raw: Vec<u8>,
}

impl BatchView {
    fn from_batch(segment: i64, position: u64, batch: &RecordBatch, raw: Vec<u8>) -> Self {
        BatchView {
            segment,
            position,
            size: raw.len(),
            base_offset: batch.base_offset,
            last_offset: batch.last_offset(),
            count: batch.record_count(),
            producer_id: batch.producer_id,
            producer_epoch: batch.producer_epoch,
            base_sequence: batch.base_sequence,
            last_sequence: batch.last_sequence(),
            partition_leader_epoch: batch.partition_leader_epoch,
            is_transactional: batch.is_transactional(),
            is_control: batch.is_control(),
            delete_horizon_ms: batch.delete_horizon_ms(),
            max_timestamp: batch.max_timestamp,
            crc: batch.crc(),
            records: batch
                .records
                .iter()
                .map(|r| {
                    let value = match (&r.key, &r.value) {
                        (None, None) => String::new(),
                        (k, v) => crate::record::record_text(k.as_deref(), v.as_deref()),
                    };
                    (batch.base_offset + i64::from(r.offset_delta), value)
                })
                .collect(),
            end_txn_marker: batch
                .control_record()
                .map(|(kind, marker)| (kind, marker.coordinator_epoch)),
            raw,
        }
    }

    /// `endTxnMarker: COMMIT coordinatorEpoch: 0`: the end of `kafka-dump-log.sh`'s
    /// line for a control record.
    pub fn end_txn_marker_text(&self) -> Option<String> {
        self.end_txn_marker.map(|(kind, coordinator_epoch)| {
            format!(
                "endTxnMarker: {} coordinatorEpoch: {coordinator_epoch}",
                kind.name()
            )
        })
    }

    /// The record lines `kafka-dump-log.sh --print-data-log` prints for a data batch,
    /// in the same trimmed form as [`Self::control_record_line`]: the key and payload
    /// as text, so a compacted log's surviving keys can be read.
    pub fn data_record_lines(&self) -> Vec<String> {
        let Ok((batch, _)) = RecordBatch::decode(&self.raw) else {
            return Vec::new();
        };
        batch
            .records
            .iter()
            .map(|r| {
                let sequence = if batch.base_sequence < 0 {
                    -1
                } else {
                    crate::record::increment_sequence(batch.base_sequence, r.offset_delta)
                };
                let text = |b: &Option<crate::record::Bytes>| {
                    b.as_deref()
                        .map_or("null".into(), |b| String::from_utf8_lossy(b).into_owned())
                };
                let key = match &r.key {
                    Some(_) => format!(" key: {}", text(&r.key)),
                    None => String::new(),
                };
                format!(
                    " offset: {} keySize: {} valueSize: {} sequence: {sequence} headerKeys: []{key} payload: {}",
                    batch.record_offset(r),
                    r.key.as_ref().map_or(-1, |k| k.len() as i64),
                    r.value.as_ref().map_or(-1, |v| v.len() as i64),
                    text(&r.value)
                )
            })
            .collect()
    }

    /// The record line `kafka-dump-log.sh` prints for a control record (the seed's
    /// trimmed form: no `| ` prefix and no CreateTime).
    pub fn control_record_line(&self) -> Option<String> {
        let batch = RecordBatch::decode(&self.raw).ok()?.0;
        let record = batch.records.first()?;
        let marker = self.end_txn_marker_text()?;
        Some(format!(
            " offset: {} keySize: {} valueSize: {} sequence: {} headerKeys: [] {marker}",
            batch.base_offset + i64::from(record.offset_delta),
            record.key.as_ref().map_or(-1, |k| k.len() as i64),
            record.value.as_ref().map_or(-1, |v| v.len() as i64),
            batch.base_sequence,
        ))
    }

    /// The 61 header bytes, field by field.
    pub fn header_fields(&self) -> Vec<HeaderField> {
        header_fields(&self.raw).unwrap_or_default()
    }

    /// The line `kafka-dump-log.sh --print-data-log` prints for this batch, keeping only
    /// `fields` (in that order) when given — as the seeds do with sed.
    pub fn dump_line(&self, fields: Option<&[String]>) -> String {
        // The world writes uncompressed CreateTime batches whose CRC it computed.
        BatchLine {
            base_offset: self.base_offset,
            last_offset: self.last_offset,
            count: self.count,
            base_sequence: self.base_sequence,
            last_sequence: self.last_sequence,
            producer_id: self.producer_id,
            producer_epoch: self.producer_epoch,
            partition_leader_epoch: self.partition_leader_epoch,
            is_transactional: self.is_transactional,
            is_control: self.is_control,
            delete_horizon_ms: self.delete_horizon_ms,
            position: self.position,
            timestamp_type: TimestampType::CreateTime,
            max_timestamp: self.max_timestamp,
            size: self.size,
            compression_code: 0,
            crc: self.crc,
            valid: true,
        }
        .line(fields)
    }
}

/// A segment's files and sizes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SegmentView {
    pub base_offset: i64,
    pub size: u64,
    pub index_entries: Vec<(i64, u32)>,
    pub time_index_entries: Vec<(i64, i64)>,
}

/// A partition as the log panel shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogView {
    pub tp: TopicPartition,
    pub leader: i32,
    pub leader_online: bool,
    pub log_start_offset: i64,
    pub log_end_offset: i64,
    pub high_watermark: i64,
    pub segments: Vec<SegmentView>,
    /// The batches decoded (all, or the newest few with `log_view_tail`).
    pub batches: Vec<BatchView>,
    /// How many batches the log holds in all.
    pub total_batches: usize,
    /// Where `batches` starts among all of them (0 when every batch is decoded).
    #[serde(skip)]
    pub first_batch: usize,
    /// Every file in the partition folder with its size.
    pub files: Vec<(String, u64)>,
    /// The `.txnindex` entries (aborted transactions), oldest first.
    pub aborted_txns: Vec<AbortedTxn>,
    /// The last stable offset (read_committed reads below it).
    pub last_stable_offset: i64,
    /// Open transactions: (producer id, first offset).
    pub ongoing_transactions: Vec<(i64, i64)>,
}

/// One producer's dedup window in one partition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WindowView {
    pub producer_id: i64,
    pub producer_epoch: i16,
    /// Oldest first, at most five.
    pub batches: Vec<BatchMetadata>,
}

impl WindowView {
    /// `[0..1 2..3]`, as the seeds print windows.
    pub fn text(&self) -> String {
        let ranges: Vec<(i32, i32)> = self
            .batches
            .iter()
            .map(|b| (b.first_seq(), b.last_seq))
            .collect();
        super::event::window_text(&ranges)
    }
}

impl World {
    fn leader_broker(&self, tp: &TopicPartition) -> Option<&Broker> {
        self.brokers.get(&self.leader_of(tp)?)
    }

    /// Every partition in topic order.
    pub fn partitions(&self) -> Vec<TopicPartition> {
        self.topics
            .values()
            .flat_map(|t| (0..t.partitions).map(move |p| TopicPartition::new(t.name.clone(), p)))
            .collect()
    }

    /// The partition log, decoded from the leader's disk. When the leader is down, the
    /// disk is still read (what a learner would find with `ls` and `kafka-dump-log`).
    pub fn log_view(&self, tp: &TopicPartition) -> Option<LogView> {
        self.log_view_tail(tp, usize::MAX, 1)
    }

    /// The partition log on one broker's disk (a follower's replica too), or the
    /// leader's when `broker` is None.
    pub fn log_view_on(&self, tp: &TopicPartition, broker: Option<i32>) -> Option<LogView> {
        match broker {
            None => self.log_view(tp),
            Some(id) => {
                let broker = self.brokers.get(&id)?;
                if !broker.fs.is_dir(&Broker::partition_dir(tp)) {
                    return None;
                }
                self.log_view_of(broker, tp, usize::MAX, 0, 1)
            }
        }
    }

    /// Like [`log_view`](Self::log_view), but only the newest `newest` batches are
    /// decoded (the others are stepped over by their batchLength), starting at a
    /// multiple of `align` so the first row stays put while batches arrive. A page with
    /// 10,000 batches stays fast this way.
    pub fn log_view_tail(
        &self,
        tp: &TopicPartition,
        newest: usize,
        align: usize,
    ) -> Option<LogView> {
        self.log_view_of(self.leader_broker(tp)?, tp, newest, 0, align)
    }

    /// Like [`log_view_tail`](Self::log_view_tail), with the window ending `back`
    /// batches before the newest (rounded down to a multiple of `align`): a long log
    /// scrolled back, decoding only what is near the rows on screen.
    pub fn log_view_back(
        &self,
        tp: &TopicPartition,
        newest: usize,
        back: usize,
        align: usize,
    ) -> Option<LogView> {
        self.log_view_of(self.leader_broker(tp)?, tp, newest, back, align)
    }

    fn log_view_of(
        &self,
        broker: &Broker,
        tp: &TopicPartition,
        newest: usize,
        back: usize,
        align: usize,
    ) -> Option<LogView> {
        let dir = Broker::partition_dir(tp);
        let files: Vec<(String, u64)> = broker
            .fs
            .list_dir(&dir)
            .unwrap_or_default()
            .into_iter()
            .map(|name| {
                let size = broker.fs.len(&format!("{dir}/{name}")).unwrap_or(0);
                (name, size)
            })
            .collect();
        let mut segments = Vec::new();
        let mut batches = Vec::new();
        let mut bases: Vec<i64> = files
            .iter()
            .filter_map(|(n, _)| crate::log::segment::offset_from_file_name(n))
            .filter(|(_, s)| *s == ".log")
            .map(|(o, _)| o)
            .collect();
        crate::util::ordered::sort_by(&mut bases, i64::cmp);
        // Every batch's place, found by hopping over each header's batchLength.
        let mut spans: Vec<(i64, &[u8], usize, usize)> = Vec::new();
        for base in bases {
            let log_path = format!("{dir}/{}", crate::log::segment::file_name(base, ".log"));
            let bytes = broker.fs.read(&log_path).unwrap_or_default();
            let mut pos = 0usize;
            while let Some(end) = bytes
                .get(pos..)
                .and_then(read_batch_length)
                .and_then(|len| usize::try_from(len).ok())
                .map(|len| pos + LOG_OVERHEAD + len)
                .filter(|end| *end <= bytes.len())
            {
                spans.push((base, bytes, pos, end));
                pos = end;
            }
            let index = broker
                .fs
                .read(&format!(
                    "{dir}/{}",
                    crate::log::segment::file_name(base, ".index")
                ))
                .unwrap_or_default();
            let time = broker
                .fs
                .read(&format!(
                    "{dir}/{}",
                    crate::log::segment::file_name(base, ".timeindex")
                ))
                .unwrap_or_default();
            segments.push(SegmentView {
                base_offset: base,
                size: bytes.len() as u64,
                index_entries: read_offset_index(index, base),
                time_index_entries: read_time_index(time, base),
            });
        }
        let total_batches = spans.len();
        let align = align.max(1);
        let first = total_batches.saturating_sub(newest.saturating_add(back)) / align * align;
        let last = first
            .saturating_add(newest)
            .saturating_add(align - 1)
            .min(total_batches);
        for (base, bytes, start, end) in spans.get(first..last).unwrap_or_default() {
            let Some(raw) = bytes.get(*start..*end) else {
                continue;
            };
            let Ok((batch, _)) = RecordBatch::decode(raw) else {
                break;
            };
            batches.push(BatchView::from_batch(
                *base,
                *start as u64,
                &batch,
                raw.to_vec(),
            ));
        }
        let log = broker.logs().get(tp);
        let leo = log.map_or_else(
            || batches.last().map_or(0, |b| b.last_offset + 1),
            |l| l.log_end_offset(),
        );
        Some(LogView {
            tp: tp.clone(),
            leader: broker.id,
            leader_online: broker.is_online(),
            log_start_offset: log.map_or(0, |l| l.log_start_offset()),
            log_end_offset: leo,
            high_watermark: log.map_or(leo, |l| l.high_watermark()),
            segments,
            batches,
            total_batches,
            first_batch: first,
            files,
            aborted_txns: log
                .map(|l| l.aborted_transactions(&broker.fs))
                .unwrap_or_default(),
            last_stable_offset: log.map_or(leo, |l| l.last_stable_offset()),
            ongoing_transactions: log
                .map(|l| l.producer_state().ongoing_transactions())
                .unwrap_or_default(),
        })
    }

    /// The dedup windows of a partition (empty while its leader is down: memory is gone).
    pub fn windows(&self, tp: &TopicPartition) -> Vec<WindowView> {
        self.leader_broker(tp)
            .and_then(|b| b.logs().get(tp))
            .map(|log| {
                log.producer_state()
                    .active_producers()
                    .values()
                    .map(|e| WindowView {
                        producer_id: e.producer_id(),
                        producer_epoch: e.producer_epoch(),
                        batches: e.batch_metadata().iter().copied().collect(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A digest of everything observable: the structured history (each event's data, never
    /// its narration, so rewording or translating a sentence leaves it alone), the logical
    /// clock and every byte on every broker's disk. Two worlds with the same fingerprint
    /// look the same to a learner (replay and time travel are checked with it).
    pub fn fingerprint(&self) -> u64 {
        // FNV-1a: tiny, deterministic on every platform.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= u64::from(*b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(&self.clock_ms.to_be_bytes());
        for e in &self.events {
            // The derived Debug form is the event's data: variant, field names and values.
            eat(format!("{:?}", e.kind).as_bytes());
        }
        for broker in self.brokers.values() {
            for (path, _) in broker.fs.walk_files() {
                eat(path.as_bytes());
                eat(broker.fs.read(&path).unwrap_or_default());
            }
        }
        h
    }

    /// `kafka-dump-log.sh` batch lines for a partition.
    /// With `control_records`, each control batch is followed by its record line
    /// (` offset: 3 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: COMMIT coordinatorEpoch: 0`),
    /// as the seed keeps them.
    pub fn dump_log(
        &self,
        tp: &TopicPartition,
        broker: Option<i32>,
        fields: Option<&[String]>,
        control_records: bool,
        data_records: bool,
    ) -> Vec<String> {
        let Some(view) = self.log_view_on(tp, broker) else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        for b in &view.batches {
            lines.push(b.dump_line(fields));
            if control_records && b.is_control {
                lines.extend(b.control_record_line());
            }
            if data_records && !b.is_control {
                lines.extend(b.data_record_lines());
            }
        }
        lines
    }
}
