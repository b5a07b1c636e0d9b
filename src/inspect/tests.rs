use super::*;
use crate::i18n::Lang;
use crate::log::ProducerStateManager;
use crate::record::{ControlRecordType, RecordBatch};

/// A small transactional partition: producer 7 commits 0–1 (marker 3), aborts 4
/// (marker 5); producer 8 is idempotent (2); producer 9 leaves 6 open. Its index,
/// time index, txnindex, a snapshot at 3 and the leader-epoch checkpoint.
struct Fixture {
    log: Vec<u8>,
    /// (position, batch) of each batch in `log`.
    batches: Vec<(usize, RecordBatch)>,
    others: Vec<(String, Vec<u8>)>,
}

fn fixture() -> Fixture {
    let v = |s: &str| (None, Some(s.as_bytes().to_vec()));
    let batches = vec![
        RecordBatch::new_data(0, 7, 0, 0, true, 1000, vec![v("a"), v("b")]),
        RecordBatch::new_data(
            2,
            8,
            0,
            0,
            false,
            1001,
            vec![(Some(b"k".to_vec()), Some(b"i".to_vec()))],
        ),
        RecordBatch::new_control(3, 7, 0, 1002, ControlRecordType::Commit, 0),
        RecordBatch::new_data(4, 7, 0, 2, true, 1003, vec![v("x")]),
        RecordBatch::new_control(5, 7, 0, 1004, ControlRecordType::Abort, 0),
        RecordBatch::new_data(6, 9, 0, 0, true, 1005, vec![v("open")]),
    ];
    let mut log = Vec::new();
    let mut placed = Vec::new();
    for b in batches {
        placed.push((log.len(), b.clone()));
        log.extend(b.encode());
    }
    let mut index = Vec::new();
    index.extend(3i32.to_be_bytes());
    index.extend((placed[2].0 as u32).to_be_bytes());
    let mut time = Vec::new();
    time.extend(1004i64.to_be_bytes());
    time.extend(5i32.to_be_bytes());
    let txn = crate::log::AbortedTxn {
        producer_id: 7,
        first_offset: 4,
        last_offset: 5,
        last_stable_offset: 6,
    };
    let mut state = ProducerStateManager::default();
    for (_, b) in &placed[..2] {
        state.update(b);
    }
    let others = vec![
        ("00000000000000000000.index".to_string(), index),
        ("00000000000000000000.timeindex".to_string(), time),
        ("00000000000000000000.txnindex".to_string(), txn.encode()),
        (
            "00000000000000000003.snapshot".to_string(),
            state.snapshot_bytes(),
        ),
        (
            "leader-epoch-checkpoint".to_string(),
            b"0\n1\n0 0\n".to_vec(),
        ),
    ];
    Fixture {
        log,
        batches: placed,
        others,
    }
}

fn run(log: &[u8], others: &[(String, Vec<u8>)]) -> PartitionReport {
    let mut files: Vec<(String, &[u8])> = vec![("00000000000000000000.log".to_string(), log)];
    files.extend(others.iter().map(|(n, b)| (n.clone(), b.as_slice())));
    inspect_partition("t-0", &files)
}

#[test]
fn a_sound_partition_is_dumped_checked_and_recovered() {
    let f = fixture();
    let r = run(&f.log, &f.others);
    assert_eq!(r.problems, vec![], "{:#?}", r.problems);
    let log = &r.files[0];
    assert_eq!(log.path, "t-0/00000000000000000000.log");
    assert_eq!(log.lines[0], "Log starting offset: 0");
    assert!(log.lines[1].starts_with(
        "baseOffset: 0 lastOffset: 1 count: 2 baseSequence: 0 lastSequence: 1 producerId: 7 \
         producerEpoch: 0 partitionLeaderEpoch: 0 isTransactional: true isControl: false \
         deleteHorizonMs: OptionalLong.empty position: 0 CreateTime: 1000 size: "
    ));
    let first = &f.batches[0].1;
    assert!(log.lines[1].ends_with(&format!(
        "size: {} magic: 2 compresscodec: none crc: {} isvalid: true",
        first.size_in_bytes(),
        first.crc()
    )));
    assert_eq!(
        log.lines[2],
        "| offset: 0 CreateTime: 1000 keySize: -1 valueSize: 1 sequence: 0 headerKeys: [] payload: a"
    );
    assert!(log.lines.contains(
        &"| offset: 2 CreateTime: 1001 keySize: 1 valueSize: 1 sequence: 0 headerKeys: [] key: k payload: i".to_string()
    ));
    assert!(log.lines.contains(
        &"| offset: 5 CreateTime: 1004 keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: ABORT coordinatorEpoch: 0".to_string()
    ));
    let names: Vec<&str> = r.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        names,
        [
            "t-0/00000000000000000000.log",
            "t-0/00000000000000000000.index",
            "t-0/00000000000000000000.timeindex",
            "t-0/00000000000000000000.txnindex",
            "t-0/00000000000000000003.snapshot",
            "t-0/leader-epoch-checkpoint"
        ]
    );
    assert_eq!(
        r.files[1].lines,
        [format!("offset: 3 position: {}", f.batches[2].0)]
    );
    assert_eq!(r.files[2].lines, ["timestamp: 1004 offset: 5"]);
    assert_eq!(
        r.files[4].lines[0],
        "producerId: 7 producerEpoch: 0 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong[0] \
         lastTimestamp: 1000 firstSequence: 0 lastSequence: 1 lastOffset: 1 offsetDelta: 1 timestamp: 1000"
    );
    let s = r.summary.unwrap();
    assert_eq!(
        (s.log_start_offset, s.log_end_offset, s.last_stable_offset),
        (0, 7, 6)
    );
    assert_eq!(
        (s.snapshot_loaded, s.replayed_batches, s.truncated_bytes),
        (Some(3), 4, 0)
    );
    let ids: Vec<i64> = s.producers.iter().map(|p| p.producer_id).collect();
    assert_eq!(ids, [7, 8, 9]);
    assert_eq!(s.producers[0].last_sequence, 2);
    assert_eq!(s.open_transactions, [(9, 6)]);
    assert_eq!(s.aborted.len(), 1);
    assert_eq!(s.aborted[0].first_offset, 4);
    assert_eq!(s.leader_epochs, [(0, 0)]);
}

/// The start of the batch holding byte `i`, and its index.
fn batch_at(f: &Fixture, i: usize) -> (usize, usize) {
    let k = f.batches.iter().rposition(|(p, _)| *p <= i).unwrap();
    (k, f.batches[k].0)
}

#[test]
fn every_one_byte_corruption_is_named_with_its_position() {
    let f = fixture();
    for i in 0..f.log.len() {
        let mut log = f.log.clone();
        log[i] ^= 0xff;
        let r = run(&log, &f.others);
        let (k, start) = batch_at(&f, i);
        let positions: Vec<u64> = r.problems.iter().filter_map(|p| p.position).collect();
        assert!(
            !positions.is_empty(),
            "byte {i}: no problem with a position"
        );
        // Bytes the CRC covers (attributes onwards) give a CRC mismatch at the batch.
        if i - start >= crate::record::batch::ATTRIBUTES_OFFSET {
            assert!(
                r.problems.iter().any(|p| p.position == Some(start as u64)
                    && matches!(p.kind, ProblemKind::CrcMismatch { .. })),
                "byte {i}: {:?}",
                r.problems
            );
            // Recovery keeps the batches before the damaged one, and no more.
            let s = r.summary.unwrap();
            let kept = if k == 0 {
                0
            } else {
                f.batches[k - 1].1.next_offset()
            };
            assert_eq!(s.log_end_offset, kept, "byte {i}");
        }
        // Every problem text names the file and, where there is one, the position.
        for p in &r.problems {
            let text = crate::i18n::inspect::problem(p, Lang::En);
            assert!(text.starts_with("t-0/"), "{text}");
            if let Some(pos) = p.position {
                assert!(text.contains(&format!("at byte {pos}:")), "{text}");
            }
        }
    }
}

#[test]
fn every_truncation_keeps_the_valid_prefix() {
    let f = fixture();
    for len in 0..f.log.len() {
        let r = run(&f.log[..len], &f.others[..0]);
        let whole: Vec<&(usize, RecordBatch)> = f
            .batches
            .iter()
            .filter(|(p, b)| p + b.size_in_bytes() <= len)
            .collect();
        let boundary = whole.last().map_or(0, |(p, b)| p + b.size_in_bytes());
        let s = r.summary.as_ref().unwrap();
        assert_eq!(
            s.log_end_offset,
            whole.last().map_or(0, |(_, b)| b.next_offset()),
            "len {len}"
        );
        if boundary == len {
            assert!(
                r.problems.iter().all(|p| p.position.is_none()),
                "len {len}: {:?}",
                r.problems
            );
        } else {
            assert!(
                r.problems
                    .iter()
                    .any(|p| p.position == Some(boundary as u64)
                        && matches!(p.kind, ProblemKind::Truncated { .. })),
                "len {len}: {:?}",
                r.problems
            );
            assert_eq!(s.truncated_bytes, (len - boundary) as u64, "len {len}");
        }
    }
}

#[test]
fn index_entries_are_checked_against_the_log() {
    let f = fixture();
    let mut others = f.others.clone();
    // The index points one byte into a batch; the time index names the wrong time.
    others[0].1[7] = others[0].1[7].wrapping_add(1);
    others[1].1[7] = others[1].1[7].wrapping_add(1);
    others[2].1.push(0); // a torn .txnindex
    let r = run(&f.log, &others);
    let kinds: Vec<&ProblemKind> = r.problems.iter().map(|p| &p.kind).collect();
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, ProblemKind::IndexNoBatch { offset: 3, .. })),
        "{kinds:?}"
    );
    assert!(
        kinds.iter().any(|k| matches!(
            k,
            ProblemKind::TimeIndexMismatch {
                timestamp: 1005,
                offset: 5,
                log_timestamp: 1004
            }
        )),
        "{kinds:?}"
    );
    assert!(r.problems.iter().any(|p| p.position == Some(34)
        && matches!(
            p.kind,
            ProblemKind::TornIndex {
                len: 35,
                entry_size: 34
            }
        )));
}

#[test]
fn a_damaged_snapshot_is_reported_and_the_log_read_instead() {
    let f = fixture();
    let mut others = f.others.clone();
    let last = others[3].1.len() - 1;
    others[3].1[last] ^= 1;
    others.remove(2); // no .txnindex: the abort in the log is then missing from it
    let r = run(&f.log, &others);
    assert!(r
        .problems
        .iter()
        .any(|p| matches!(&p.kind, ProblemKind::Snapshot { detail } if detail.contains("CRC"))));
    assert!(r
        .problems
        .iter()
        .any(|p| p.path == "t-0/00000000000000000000.txnindex"
            && matches!(p.kind, ProblemKind::TxnIndexMissing { .. })));
    let s = r.summary.unwrap();
    assert_eq!((s.snapshot_loaded, s.replayed_batches), (None, 6));
    assert_eq!(s.open_transactions, [(9, 6)]);
}

#[test]
fn unknown_files_and_bad_checkpoints_are_named() {
    let f = fixture();
    let mut others = f.others.clone();
    others[4].1 = b"0\n2\n0 0\nnot an entry\n".to_vec();
    others.push(("notes.txt".to_string(), b"hello".to_vec()));
    let r = run(&f.log, &others);
    assert!(r
        .problems
        .iter()
        .any(|p| p.path == "t-0/notes.txt" && p.kind == ProblemKind::UnknownFile));
    assert!(r
        .problems
        .iter()
        .any(|p| matches!(&p.kind, ProblemKind::EpochCheckpoint { line: 4, .. })));
    // Nothing but bytes that are not a batch at all.
    let r = run(b"garbage that is no batch", &[]);
    assert!(r.problems.iter().any(|p| p.position == Some(0)));
    assert_eq!(r.summary.unwrap().log_end_offset, 0);
}

#[cfg(feature = "compression")]
#[test]
fn a_gzip_batch_is_opened_and_recovered() {
    use crate::record::batch::{
        ATTRIBUTES_OFFSET, BATCH_LENGTH_OFFSET, CRC_OFFSET, RECORDS_OFFSET,
    };
    let plain = RecordBatch::new_data(
        0,
        4,
        0,
        0,
        false,
        50,
        vec![
            (None, Some(b"zipped".to_vec())),
            (None, Some(b"twice".to_vec())),
        ],
    )
    .encode();
    let records = &plain[RECORDS_OFFSET..];
    let mut gz = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    gz.extend(miniz_oxide::deflate::compress_to_vec(records, 6));
    let crc = {
        let mut c = !0u32;
        for &b in records {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = (c >> 1) ^ (0xEDB8_8320 & (c & 1).wrapping_neg());
            }
        }
        !c
    };
    gz.extend(crc.to_le_bytes());
    gz.extend((records.len() as u32).to_le_bytes());
    let mut batch = plain[..RECORDS_OFFSET].to_vec();
    batch.extend(&gz);
    let len = (batch.len() - 12) as i32;
    batch[BATCH_LENGTH_OFFSET..BATCH_LENGTH_OFFSET + 4].copy_from_slice(&len.to_be_bytes());
    batch[ATTRIBUTES_OFFSET + 1] |= 1;
    let crc = crate::record::crc32c::crc32c(&batch[ATTRIBUTES_OFFSET..]);
    batch[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
    let r = run(&batch, &[]);
    assert_eq!(r.problems, vec![]);
    assert!(r.files[0].lines[1].contains("compresscodec: gzip"));
    assert!(r.files[0].lines[3].ends_with("payload: twice"));
    assert_eq!(r.summary.unwrap().producers[0].last_sequence, 1);
    // The same batch with its compressed bytes damaged (CRC fixed up): header only.
    let mut bad = batch.clone();
    let at = RECORDS_OFFSET + 12;
    bad[at] ^= 0x55;
    let crc = crate::record::crc32c::crc32c(&bad[ATTRIBUTES_OFFSET..]);
    bad[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
    let r = run(&bad, &[]);
    assert!(
        r.problems.iter().any(|p| p.position == Some(0)
            && matches!(
                p.kind,
                ProblemKind::NotOpened { .. } | ProblemKind::InvalidRecord { .. }
            )),
        "{:?}",
        r.problems
    );
    assert_eq!(r.files[0].lines.len(), 2);
}

#[test]
fn the_report_reads_in_every_language() {
    let f = fixture();
    let mut log = f.log.clone();
    log[77 + 30] ^= 1;
    let reports = vec![run(&log, &f.others)];
    let en = crate::i18n::inspect::report(&reports, Lang::En);
    let ko = crate::i18n::inspect::report(&reports, Lang::Ko);
    let th = crate::i18n::inspect::report(&reports, Lang::Th);
    assert!(
        en.contains("t-0/00000000000000000000.log at byte 77: CRC mismatch"),
        "{en}"
    );
    assert!(ko.contains("바이트 위치 77: CRC가 맞지 않습니다"), "{ko}");
    assert!(th.contains("ที่ byte 77: CRC ไม่ตรงกัน"), "{th}");
    for text in [&en, &ko, &th] {
        assert!(!text.contains('{'), "{text}");
        assert!(text.contains("Dumping t-0/00000000000000000000.log"));
    }
    assert!(ko.contains("열린 트랜잭션 1개입니다"), "{ko}");
}

#[test]
fn a_cut_segment_deletes_the_segments_after_it() {
    let f = fixture();
    let second = RecordBatch::new_data(
        7,
        9,
        0,
        1,
        true,
        1006,
        vec![(None, Some(b"later".to_vec()))],
    )
    .encode();
    let mut log = f.log.clone();
    log[f.batches[3].0 + 40] ^= 1;
    let files: Vec<(String, &[u8])> = vec![
        ("00000000000000000000.log".to_string(), &log),
        ("00000000000000000007.log".to_string(), &second),
    ];
    let r = inspect_partition("t-0", &files);
    // The second segment is still dumped, but recovery deletes it (`LogLoader.recoverLog`).
    assert!(r.files[1].lines[1].starts_with("baseOffset: 7 "));
    let s = r.summary.unwrap();
    assert_eq!((s.log_end_offset, s.deleted_segments.clone()), (4, vec![7]));
    let en = crate::i18n::inspect::report(&[inspect_partition("t-0", &files)], Lang::En);
    assert!(
        en.contains("deleted the 1 segment after it (base offsets 7)"),
        "{en}"
    );
}
