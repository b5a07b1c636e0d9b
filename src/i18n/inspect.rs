//! `eos inspect`'s report in words: Kafka's dump lines as Kafka prints them (its own
//! field names, never translated), then each partition's problems and what recovery
//! rebuilt, in the reader's language.

use super::catalog::render;
use super::{Lang, Msg};
use crate::inspect::{NotOpened, PartitionReport, Problem, ProblemKind};
use crate::msg;
use crate::zip::{ZipError, ZipErrorKind};

/// The whole report: every file's dump, then per partition its problems and summary.
pub fn report(reports: &[PartitionReport], lang: Lang) -> String {
    let mut out = String::new();
    if reports.is_empty() {
        out.push_str(&render(&Msg::new("inspect.nothing"), lang));
        out.push('\n');
        return out;
    }
    for r in reports {
        for file in &r.files {
            out.push_str(&format!("Dumping {}\n", file.path));
            for line in &file.lines {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    for r in reports {
        let dir = if r.dir.is_empty() {
            "."
        } else {
            r.dir.as_str()
        };
        out.push('\n');
        out.push_str(&render(
            &msg!("inspect.problems", dir = dir, count = r.problems.len()),
            lang,
        ));
        out.push('\n');
        for p in &r.problems {
            out.push_str("  ");
            out.push_str(&problem(p, lang));
            out.push('\n');
        }
        out.push('\n');
        let Some(s) = &r.summary else {
            out.push_str(&render(&msg!("inspect.no-segments", dir = dir), lang));
            out.push('\n');
            continue;
        };
        let lines = [
            msg!("inspect.recovered", dir = dir),
            msg!(
                "inspect.offsets",
                start = s.log_start_offset,
                leo = s.log_end_offset,
                lso = s.last_stable_offset
            ),
            match s.snapshot_loaded {
                Some(offset) => msg!(
                    "inspect.replayed-after-snapshot",
                    offset = offset,
                    batches = s.replayed_batches
                ),
                None => msg!("inspect.replayed-all", batches = s.replayed_batches),
            },
            msg!("inspect.cut", bytes = s.truncated_bytes),
            msg!("inspect.producers", count = s.producers.len()),
        ];
        for (i, m) in lines.iter().enumerate() {
            if i == 3 && s.truncated_bytes == 0 {
                continue;
            }
            out.push_str(if i == 0 { "" } else { "  " });
            out.push_str(&render(m, lang));
            out.push('\n');
        }
        if !s.deleted_segments.is_empty() {
            let bases: Vec<String> = s.deleted_segments.iter().map(i64::to_string).collect();
            out.push_str("  ");
            out.push_str(&render(
                &msg!(
                    "inspect.deleted-segments",
                    count = s.deleted_segments.len(),
                    bases = bases.join(", ")
                ),
                lang,
            ));
            out.push('\n');
        }
        for p in &s.producers {
            out.push_str(&format!("    {}\n", p.dump_line()));
        }
        out.push_str("  ");
        out.push_str(&render(
            &msg!(
                "inspect.open-transactions",
                count = s.open_transactions.len()
            ),
            lang,
        ));
        out.push('\n');
        for (producer_id, first) in &s.open_transactions {
            out.push_str(&format!(
                "    producerId: {producer_id} firstOffset: {first}\n"
            ));
        }
        out.push_str("  ");
        out.push_str(&render(
            &msg!("inspect.aborted", count = s.aborted.len()),
            lang,
        ));
        out.push('\n');
        for a in &s.aborted {
            out.push_str(&format!("    {}\n", a.dump_line()));
        }
        if !s.leader_epochs.is_empty() {
            let epochs: Vec<String> = s
                .leader_epochs
                .iter()
                .map(|(e, o)| format!("{e}@{o}"))
                .collect();
            out.push_str("  ");
            out.push_str(&render(
                &msg!("inspect.leader-epochs", epochs = epochs.join(" ")),
                lang,
            ));
            out.push('\n');
        }
    }
    out
}

/// One problem: the file, the byte position where one applies, and what is wrong.
pub fn problem(p: &Problem, lang: Lang) -> String {
    let what = problem_msg(&p.kind);
    let m = match p.position {
        Some(position) => msg!(
            "inspect.at",
            path = &p.path,
            position = position,
            what = what
        ),
        None => msg!("inspect.in", path = &p.path, what = what),
    };
    render(&m, lang)
}

/// Why a .zip could not be opened: the entry where one applies, the byte position in
/// the archive, and what is wrong.
pub fn zip_error(e: &ZipError, lang: Lang) -> String {
    let what = match &e.kind {
        ZipErrorKind::NotAZip => Msg::new("inspect.zip.not-a-zip"),
        ZipErrorKind::Truncated => Msg::new("inspect.zip.truncated"),
        ZipErrorKind::BadSignature { expected, found } => msg!(
            "inspect.zip.signature",
            expected = format!("0x{expected:08x}"),
            found = format!("0x{found:08x}")
        ),
        ZipErrorKind::UnsupportedMethod { method } => msg!("inspect.zip.method", method = method),
        ZipErrorKind::Encrypted => Msg::new("inspect.zip.encrypted"),
        ZipErrorKind::Zip64 => Msg::new("inspect.zip.zip64"),
        ZipErrorKind::MultiDisk => Msg::new("inspect.zip.multi-disk"),
        ZipErrorKind::CentralDirectory => Msg::new("inspect.zip.central-directory"),
        ZipErrorKind::BadDeflate => Msg::new("inspect.zip.deflate"),
        ZipErrorKind::SizeMismatch { expected, found } => {
            msg!("inspect.zip.size", expected = expected, found = found)
        }
        ZipErrorKind::CrcMismatch { stored, computed } => msg!(
            "inspect.zip.crc",
            stored = format!("0x{stored:08x}"),
            computed = format!("0x{computed:08x}")
        ),
        ZipErrorKind::TooLarge => msg!(
            "inspect.zip.too-large",
            entries = crate::zip::MAX_ENTRIES,
            bytes = crate::zip::MAX_UNPACKED_BYTES
        ),
        ZipErrorKind::BadName => Msg::new("inspect.zip.name"),
    };
    let m = match &e.entry {
        Some(entry) => msg!(
            "inspect.zip.entry-at",
            entry = entry,
            position = e.position,
            what = what
        ),
        None => msg!("inspect.zip.at", position = e.position, what = what),
    };
    render(&m, lang)
}

fn problem_msg(kind: &ProblemKind) -> Msg {
    match kind {
        ProblemKind::CrcMismatch { stored, computed } => msg!(
            "inspect.crc",
            stored = format!("0x{stored:08x}"),
            computed = format!("0x{computed:08x}")
        ),
        ProblemKind::Truncated { needed, available } => {
            msg!("inspect.truncated", needed = needed, available = available)
        }
        ProblemKind::BatchLength { length } => msg!("inspect.batch-length", length = length),
        ProblemKind::InvalidMagic { magic } => msg!("inspect.magic", magic = magic),
        ProblemKind::InvalidRecord { detail } => msg!("inspect.invalid-record", detail = detail),
        ProblemKind::NotOpened { codec, reason } => match reason {
            NotOpened::Unsupported => msg!("inspect.not-opened.unsupported", codec = codec),
            NotOpened::Corrupt(detail) => {
                msg!("inspect.not-opened.corrupt", codec = codec, detail = detail)
            }
            NotOpened::TooLarge => msg!(
                "inspect.not-opened.too-large",
                codec = codec,
                limit = crate::inspect::compression::MAX_DECOMPRESSED_BYTES
            ),
        },
        ProblemKind::InvalidBytes { bytes, valid } => {
            msg!("inspect.invalid-bytes", bytes = bytes, valid = valid)
        }
        ProblemKind::NonConsecutive { previous, next } => {
            msg!("inspect.non-consecutive", previous = previous, next = next)
        }
        ProblemKind::IndexMismatch {
            offset,
            position,
            log_offset,
        } => msg!(
            "inspect.index-mismatch",
            offset = offset,
            position = position,
            log_offset = log_offset
        ),
        ProblemKind::IndexNoBatch { offset, position } => {
            msg!(
                "inspect.index-no-batch",
                offset = offset,
                position = position
            )
        }
        ProblemKind::TornIndex { len, entry_size } => {
            msg!("inspect.torn-index", len = len, size = entry_size)
        }
        ProblemKind::TimeIndexMismatch {
            timestamp,
            offset,
            log_timestamp,
        } => msg!(
            "inspect.time-mismatch",
            timestamp = timestamp,
            offset = offset,
            log_timestamp = log_timestamp
        ),
        ProblemKind::TimeIndexOffset { timestamp, offset } => {
            msg!(
                "inspect.time-offset",
                timestamp = timestamp,
                offset = offset
            )
        }
        ProblemKind::TimeIndexOrder {
            timestamp,
            previous,
        } => msg!(
            "inspect.time-order",
            timestamp = timestamp,
            previous = previous
        ),
        ProblemKind::Snapshot { detail } => msg!("inspect.snapshot", detail = detail),
        ProblemKind::TxnIndexNotInLog { txn } => msg!(
            "inspect.txn-not-in-log",
            producer_id = txn.producer_id,
            first = txn.first_offset,
            last = txn.last_offset
        ),
        ProblemKind::TxnIndexMissing { txn } => msg!(
            "inspect.txn-missing",
            producer_id = txn.producer_id,
            first = txn.first_offset,
            last = txn.last_offset
        ),
        ProblemKind::BaseOffset {
            base_offset,
            segment_base,
        } => msg!(
            "inspect.base-offset",
            base_offset = base_offset,
            segment_base = segment_base
        ),
        ProblemKind::LeaderEpoch {
            epoch,
            expected,
            base_offset,
        } => match expected {
            Some(expected) => msg!(
                "inspect.leader-epoch",
                epoch = epoch,
                expected = expected,
                base_offset = base_offset
            ),
            None => msg!(
                "inspect.leader-epoch-none",
                epoch = epoch,
                base_offset = base_offset
            ),
        },
        ProblemKind::EpochCheckpoint { line, text } => {
            msg!("inspect.epoch-line", line = line, text = text)
        }
        ProblemKind::UnknownFile => Msg::new("inspect.unknown-file"),
    }
}
