//! A folder of files as one `.zip`: how a learner brings a Kafka log folder into the
//! page (a zip made by any tool: stored or deflate entries) and takes the playground's
//! disk out of it (`World::disk_zip`, the layout `--export` writes). `eos inspect` opens
//! a zip too.
//!
//! Written here rather than taken from a crate: the reader needs only the central
//! directory, stored entries and raw DEFLATE (miniz_oxide, already the gzip decoder of
//! `inspect::compression`), and a zip crate would bring its own inflate and CRC code.
//! Not read: ZIP64 (archives over 4 GiB), encryption, multi-disk archives, methods other
//! than 0 (stored) and 8 (deflate); each is refused with its reason. The writer stores
//! every file (Kafka's segments barely compress and a download should not wait), with a
//! fixed date (1980-01-01), so the same disk gives the same bytes.

use std::fmt;

use serde::Serialize;

/// Entries beyond this many, or files that would inflate past
/// [`MAX_UNPACKED_BYTES`] in all, are refused rather than read (a zip bomb must not
/// hang the page).
pub const MAX_ENTRIES: usize = 10_000;
/// The most bytes all entries together may unpack to (256 MiB).
pub const MAX_UNPACKED_BYTES: u64 = 256 << 20;

const LOCAL_HEADER: u32 = 0x0403_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
const END_OF_CENTRAL_DIRECTORY: u32 = 0x0605_4b50;
/// The end record is 22 bytes plus a comment of at most 65,535.
const MAX_END_SEARCH: usize = 22 + 0xFFFF;
/// 1980-01-01 00:00:00 in MS-DOS date and time fields.
const DOS_DATE_1980: u16 = (1 << 5) | 1;

/// Why a zip could not be read: the byte position in the archive and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZipError {
    /// The entry concerned, when there is one.
    pub entry: Option<String>,
    /// Where in the .zip file.
    pub position: u64,
    pub kind: ZipErrorKind,
}

/// What is wrong with a zip. The words are in the catalog (`zip.*`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ZipErrorKind {
    /// No end-of-central-directory record: not a zip, or cut short.
    NotAZip,
    /// A header runs past the end of the archive.
    Truncated,
    /// A header does not start with its signature.
    BadSignature { expected: u32, found: u32 },
    /// A compression method other than stored (0) or deflate (8).
    UnsupportedMethod { method: u16 },
    /// An encrypted entry.
    Encrypted,
    /// A ZIP64 archive or entry (over 4 GiB, or over 65,535 entries).
    Zip64,
    /// The central directory's records do not fill the size and count its end
    /// record gives.
    CentralDirectory,
    /// A split (multi-disk) archive.
    MultiDisk,
    /// The DEFLATE stream is damaged.
    BadDeflate,
    /// The unpacked size is not the one the header gives.
    SizeMismatch { expected: u64, found: u64 },
    /// The CRC-32 of the unpacked bytes is not the stored one.
    CrcMismatch { stored: u32, computed: u32 },
    /// More than [`MAX_ENTRIES`] entries or [`MAX_UNPACKED_BYTES`] unpacked.
    TooLarge,
    /// A file name that is not UTF-8, or that climbs out of the folder (`..`, `/x`).
    BadName,
}

impl fmt::Display for ZipError {
    /// English, for logs and tests; the page and the CLI word it from the catalog.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}", self.position)?;
        if let Some(e) = &self.entry {
            write!(f, " ({e})")?;
        }
        write!(f, ": {:?}", self.kind)
    }
}

/// One file of a zip: its path in the archive ('/'-separated) and its bytes.
pub type Entry = (String, Vec<u8>);

/// Reads every file of a zip (folders are left out), in the central directory's order.
/// Any damage refuses the whole archive: a half-read folder would be a half-loaded world.
pub fn read(zip: &[u8]) -> Result<Vec<Entry>, ZipError> {
    // A damaged length may point anywhere: the position named stays inside the file.
    read_entries(zip).map_err(|mut e| {
        e.position = e.position.min(zip.len() as u64);
        e
    })
}

fn read_entries(zip: &[u8]) -> Result<Vec<Entry>, ZipError> {
    let err = |position: usize, kind| ZipError {
        entry: None,
        position: position as u64,
        kind,
    };
    let floor = zip.len().saturating_sub(MAX_END_SEARCH);
    let end = (floor..zip.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(zip, i) == Some(END_OF_CENTRAL_DIRECTORY))
        .ok_or_else(|| err(zip.len(), ZipErrorKind::NotAZip))?;
    let field16 = |at: usize| u16_at(zip, end + at).unwrap_or(0);
    let field32 = |at: usize| u32_at(zip, end + at).unwrap_or(0);
    if field16(4) != 0 || field16(6) != 0 {
        return Err(err(end, ZipErrorKind::MultiDisk));
    }
    let count = field16(10);
    let (size, mut at) = (field32(12), field32(16) as usize);
    let directory_end = at.saturating_add(size as usize);
    if count == 0xFFFF || size == u32::MAX || at == u32::MAX as usize {
        return Err(err(end, ZipErrorKind::Zip64));
    }
    if count as usize > MAX_ENTRIES {
        return Err(err(end, ZipErrorKind::TooLarge));
    }
    let mut files = Vec::new();
    let mut unpacked: u64 = 0;
    for _ in 0..count {
        let entry = central_entry(zip, at)?;
        at = entry.next;
        let name = entry.name.clone();
        let in_entry = |position: usize, kind| ZipError {
            entry: Some(name.clone()),
            position: position as u64,
            kind,
        };
        if entry.name.ends_with('/') {
            continue;
        }
        unpacked = unpacked.saturating_add(entry.size);
        if unpacked > MAX_UNPACKED_BYTES {
            return Err(in_entry(entry.header, ZipErrorKind::TooLarge));
        }
        let bytes = entry_bytes(zip, &entry).map_err(|(p, k)| in_entry(p, k))?;
        files.push((entry.name, bytes));
    }
    // The records read must fill the directory exactly: a damaged count or size would
    // otherwise leave files out without a word.
    if at != directory_end || field16(8) != count {
        return Err(err(end, ZipErrorKind::CentralDirectory));
    }
    Ok(files)
}

/// A central directory record: where its local header is and what it says.
struct CentralEntry {
    name: String,
    method: u16,
    crc: u32,
    packed: u64,
    size: u64,
    /// The position of this central record (for errors about the entry as a whole).
    header: usize,
    local: usize,
    next: usize,
}

fn central_entry(zip: &[u8], at: usize) -> Result<CentralEntry, ZipError> {
    let err = |kind| ZipError {
        entry: None,
        position: at as u64,
        kind,
    };
    let sig = u32_at(zip, at).ok_or_else(|| err(ZipErrorKind::Truncated))?;
    if sig != CENTRAL_HEADER {
        return Err(err(ZipErrorKind::BadSignature {
            expected: CENTRAL_HEADER,
            found: sig,
        }));
    }
    let f16 = |o: usize| u16_at(zip, at + o).ok_or_else(|| err(ZipErrorKind::Truncated));
    let f32 = |o: usize| u32_at(zip, at + o).ok_or_else(|| err(ZipErrorKind::Truncated));
    let (flags, method) = (f16(8)?, f16(10)?);
    let (crc, packed, size) = (f32(16)?, f32(20)?, f32(24)?);
    let (name_len, extra_len, comment_len) = (f16(28)?, f16(30)?, f16(32)?);
    let local = f32(42)?;
    let name_at = at + 46;
    let name = zip
        .get(name_at..name_at + name_len as usize)
        .ok_or_else(|| err(ZipErrorKind::Truncated))?;
    let name = std::str::from_utf8(name)
        .ok()
        .filter(|n| safe_name(n))
        .ok_or_else(|| err(ZipErrorKind::BadName))?
        .to_string();
    let in_entry = |kind| ZipError {
        entry: Some(name.clone()),
        position: at as u64,
        kind,
    };
    if packed == u32::MAX || size == u32::MAX || local == u32::MAX {
        return Err(in_entry(ZipErrorKind::Zip64));
    }
    if flags & 1 != 0 {
        return Err(in_entry(ZipErrorKind::Encrypted));
    }
    Ok(CentralEntry {
        name: name.clone(),
        method,
        crc,
        packed: packed as u64,
        size: size as u64,
        header: at,
        local: local as usize,
        next: name_at + name_len as usize + extra_len as usize + comment_len as usize,
    })
}

/// A relative path inside the folder: no absolute path, no `..`, no backslash.
fn safe_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains('\\')
        && !name.contains('\0')
        && name.split('/').all(|c| c != "..")
}

/// The unpacked bytes of an entry, checked against its size and CRC-32.
fn entry_bytes(zip: &[u8], e: &CentralEntry) -> Result<Vec<u8>, (usize, ZipErrorKind)> {
    let at = e.local;
    let sig = u32_at(zip, at).ok_or((at, ZipErrorKind::Truncated))?;
    if sig != LOCAL_HEADER {
        return Err((
            at,
            ZipErrorKind::BadSignature {
                expected: LOCAL_HEADER,
                found: sig,
            },
        ));
    }
    let name_len = u16_at(zip, at + 26).ok_or((at, ZipErrorKind::Truncated))? as usize;
    let extra_len = u16_at(zip, at + 28).ok_or((at, ZipErrorKind::Truncated))? as usize;
    let data_at = at + 30 + name_len + extra_len;
    let packed = zip
        .get(data_at..data_at.saturating_add(e.packed as usize))
        // Named at the entry's header: its lengths point past the end.
        .ok_or((at, ZipErrorKind::Truncated))?;
    let bytes = match e.method {
        0 => packed.to_vec(),
        8 => inflate(packed, e.size).ok_or((data_at, ZipErrorKind::BadDeflate))?,
        method => return Err((at, ZipErrorKind::UnsupportedMethod { method })),
    };
    if bytes.len() as u64 != e.size {
        return Err((
            data_at,
            ZipErrorKind::SizeMismatch {
                expected: e.size,
                found: bytes.len() as u64,
            },
        ));
    }
    let computed = crc32(&bytes);
    if computed != e.crc {
        return Err((
            data_at,
            ZipErrorKind::CrcMismatch {
                stored: e.crc,
                computed,
            },
        ));
    }
    Ok(bytes)
}

/// Raw DEFLATE (no zlib header), at most `size` bytes out (one more is a mismatch).
#[cfg(feature = "zip")]
fn inflate(packed: &[u8], size: u64) -> Option<Vec<u8>> {
    let limit = usize::try_from(size).ok()?.saturating_add(1);
    miniz_oxide::inflate::decompress_to_vec_with_limit(packed, limit).ok()
}

/// Without the feature `zip` there is no DEFLATE decoder: a deflate entry is damaged
/// as far as this build can tell.
#[cfg(not(feature = "zip"))]
fn inflate(_packed: &[u8], _size: u64) -> Option<Vec<u8>> {
    None
}

/// A zip of `files` (paths '/'-separated, relative), every entry stored, in the order
/// given, dated 1980-01-01: the same files give the same bytes.
pub fn write(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, bytes) in files {
        let offset = out.len() as u32;
        let crc = crc32(bytes);
        let (len, name_len) = (bytes.len() as u32, name.len() as u16);
        // Version needed 1.0 (stored), flag bit 11: the name is UTF-8.
        let common = |v: &mut Vec<u8>| {
            put16(v, 10);
            put16(v, 1 << 11);
            put16(v, 0);
            put16(v, 0);
            put16(v, DOS_DATE_1980);
            put32(v, crc);
            put32(v, len);
            put32(v, len);
            put16(v, name_len);
            put16(v, 0);
        };
        put32(&mut out, LOCAL_HEADER);
        common(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(bytes);
        put32(&mut central, CENTRAL_HEADER);
        // Made by: version 2.0 on MS-DOS/FAT (no Unix permissions to carry).
        put16(&mut central, 20);
        common(&mut central);
        put16(&mut central, 0); // comment
        put16(&mut central, 0); // disk
        put16(&mut central, 0); // internal attributes
        put32(&mut central, 0); // external attributes
        put32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let (at, size) = (out.len() as u32, central.len() as u32);
    out.extend_from_slice(&central);
    put32(&mut out, END_OF_CENTRAL_DIRECTORY);
    put16(&mut out, 0);
    put16(&mut out, 0);
    put16(&mut out, files.len() as u16);
    put16(&mut out, files.len() as u16);
    put32(&mut out, size);
    put32(&mut out, at);
    put16(&mut out, 0);
    out
}

/// CRC-32 (IEEE 802.3, zip's), bit by bit: run once a file.
pub fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes(s.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(s.try_into().ok()?))
}

fn put16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn put32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

#[cfg(test)]
mod tests;
