//! One log segment: a `.log` file of record batches with its sparse `.index` and
//! `.timeindex` (Kafka's `LogSegment`, `OffsetIndex`, `TimeIndex`).
//!
//! Simplified: index files are not preallocated to `segment.index.bytes` and then
//! trimmed; they simply hold the entries written so far, which is what Kafka leaves
//! on disk after a clean shutdown.

use serde::Serialize;

use crate::fs::{FsError, MemFs};

/// Kafka names every segment file after its base offset, zero-padded to 20 digits.
pub fn file_name(base_offset: i64, suffix: &str) -> String {
    path_in("", base_offset, suffix)
}

/// `dir/` (when `dir` is not empty), the offset in 20 digits, then `suffix`: built by
/// hand, as every read and append of a segment names its file (`format!` was a few
/// percent of a chaos run).
fn path_in(dir: &str, offset: i64, suffix: &str) -> String {
    if offset < 0 {
        let sep = if dir.is_empty() { "" } else { "/" };
        return format!("{dir}{sep}{offset:020}{suffix}");
    }
    let mut digits = [b'0'; 20];
    let mut v = offset.unsigned_abs();
    for d in digits.iter_mut().rev() {
        *d = b'0' + (v % 10) as u8;
        v /= 10;
    }
    let mut out = String::with_capacity(dir.len() + 21 + suffix.len());
    if !dir.is_empty() {
        out.push_str(dir);
        out.push('/');
    }
    out.extend(digits.iter().map(|&b| char::from(b)));
    out.push_str(suffix);
    out
}

/// Parses `00000000000000000042.log` back to 42.
pub fn offset_from_file_name(name: &str) -> Option<(i64, &str)> {
    let (stem, suffix) = name.split_at(name.find('.')?);
    (stem.len() == 20 && stem.bytes().all(|b| b.is_ascii_digit()))
        .then(|| stem.parse().ok().map(|o| (o, suffix)))
        .flatten()
}

/// A segment's position in the log and the numbers the index logic needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogSegment {
    pub base_offset: i64,
    /// Bytes in the `.log` file.
    pub size: u64,
    /// One past the last offset in this segment (`base_offset` when empty).
    pub next_offset: i64,
    pub(super) bytes_since_last_index_entry: u64,
    pub(super) max_timestamp_so_far: i64,
    pub(super) offset_of_max_timestamp: i64,
    /// The timestamp of the last `.timeindex` entry, so entries only ever grow.
    pub(super) last_indexed_timestamp: i64,
}

impl LogSegment {
    pub fn new(base_offset: i64) -> Self {
        LogSegment {
            base_offset,
            size: 0,
            next_offset: base_offset,
            bytes_since_last_index_entry: 0,
            max_timestamp_so_far: -1,
            offset_of_max_timestamp: -1,
            last_indexed_timestamp: -1,
        }
    }

    pub fn log_path(&self, dir: &str) -> String {
        path_in(dir, self.base_offset, ".log")
    }
    pub fn index_path(&self, dir: &str) -> String {
        path_in(dir, self.base_offset, ".index")
    }
    pub fn time_index_path(&self, dir: &str) -> String {
        path_in(dir, self.base_offset, ".timeindex")
    }

    /// Creates the three empty files of a new segment.
    pub fn create_files(&self, fs: &mut MemFs, dir: &str) -> Result<(), FsError> {
        fs.write(&self.log_path(dir), &[])?;
        fs.write(&self.index_path(dir), &[])?;
        fs.write(&self.time_index_path(dir), &[])
    }

    /// `LogSegment.append`: writes the batch bytes and, every `index.interval.bytes`,
    /// an offset-index entry (relative offset i32, position i32) and a time-index entry
    /// (timestamp i64, relative offset i32).
    pub fn append(
        &mut self,
        fs: &mut MemFs,
        dir: &str,
        bytes: &[u8],
        last_offset: i64,
        max_timestamp: i64,
        index_interval_bytes: u64,
    ) -> Result<u64, FsError> {
        let position = fs.append(&self.log_path(dir), bytes)?;
        if max_timestamp > self.max_timestamp_so_far {
            self.max_timestamp_so_far = max_timestamp;
            self.offset_of_max_timestamp = last_offset;
        }
        if self.bytes_since_last_index_entry > index_interval_bytes {
            self.append_index_entry(fs, dir, last_offset, position)?;
            self.maybe_append_time_index(fs, dir)?;
            self.bytes_since_last_index_entry = 0;
        }
        self.bytes_since_last_index_entry += bytes.len() as u64;
        self.size = position + bytes.len() as u64;
        self.next_offset = last_offset + 1;
        Ok(position)
    }

    fn append_index_entry(
        &self,
        fs: &mut MemFs,
        dir: &str,
        offset: i64,
        position: u64,
    ) -> Result<(), FsError> {
        let mut entry = Vec::with_capacity(8);
        entry.extend_from_slice(&self.relative(offset).to_be_bytes());
        entry.extend_from_slice(&(position as i32).to_be_bytes());
        fs.append(&self.index_path(dir), &entry).map(|_| ())
    }

    /// A time-index entry for the largest timestamp so far, if it is newer than the last one.
    pub fn maybe_append_time_index(&mut self, fs: &mut MemFs, dir: &str) -> Result<(), FsError> {
        if self.max_timestamp_so_far > self.last_indexed_timestamp
            && self.offset_of_max_timestamp >= 0
        {
            let mut entry = Vec::with_capacity(12);
            entry.extend_from_slice(&self.max_timestamp_so_far.to_be_bytes());
            entry.extend_from_slice(&self.relative(self.offset_of_max_timestamp).to_be_bytes());
            fs.append(&self.time_index_path(dir), &entry)?;
            self.last_indexed_timestamp = self.max_timestamp_so_far;
        }
        Ok(())
    }

    fn relative(&self, offset: i64) -> i32 {
        i32::try_from(offset - self.base_offset).unwrap_or(i32::MAX)
    }
}

/// The entries of an `.index` file: (absolute offset, position).
pub fn read_offset_index(bytes: &[u8], base_offset: i64) -> Vec<(i64, u32)> {
    bytes
        .chunks_exact(8)
        .map(|c| {
            let rel = i32::from_be_bytes([c[0], c[1], c[2], c[3]]);
            let pos = u32::from_be_bytes([c[4], c[5], c[6], c[7]]);
            (base_offset + i64::from(rel), pos)
        })
        .collect()
}

/// The entries of a `.timeindex` file: (timestamp, absolute offset).
pub fn read_time_index(bytes: &[u8], base_offset: i64) -> Vec<(i64, i64)> {
    bytes
        .chunks_exact(12)
        .map(|c| {
            let ts = i64::from_be_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            let rel = i32::from_be_bytes([c[8], c[9], c[10], c[11]]);
            (ts, base_offset + i64::from(rel))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_twenty_digits() {
        assert_eq!(file_name(0, ".log"), "00000000000000000000.log");
        assert_eq!(file_name(15, ".snapshot"), "00000000000000000015.snapshot");
        assert_eq!(
            offset_from_file_name("00000000000000000015.snapshot"),
            Some((15, ".snapshot"))
        );
        assert_eq!(offset_from_file_name("15.log"), None);
        let seg = LogSegment::new(i64::MAX);
        assert_eq!(seg.log_path("d/t-0"), format!("d/t-0/{:020}.log", i64::MAX));
        assert_eq!(file_name(-1, ".log"), format!("{:020}.log", -1));
        assert_eq!(offset_from_file_name("leader-epoch-checkpoint"), None);
    }

    #[test]
    fn index_entries_follow_the_interval() {
        let mut fs = MemFs::new();
        let mut seg = LogSegment::new(0);
        seg.create_files(&mut fs, "/d").unwrap();
        for i in 0..4 {
            seg.append(&mut fs, "/d", &[0u8; 100], i, 1000 + i, 150)
                .unwrap();
        }
        // Entries are written when more than 150 bytes passed since the last one.
        let index = read_offset_index(fs.read("/d/00000000000000000000.index").unwrap(), 0);
        assert_eq!(index, vec![(2, 200)]);
        let time = read_time_index(fs.read("/d/00000000000000000000.timeindex").unwrap(), 0);
        assert_eq!(time, vec![(1002, 2)]);
        assert_eq!(seg.size, 400);
        assert_eq!(seg.next_offset, 4);
    }
}
