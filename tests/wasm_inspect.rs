#![cfg(target_arch = "wasm32")]
//! `eos inspect`'s library inside a browser tab (wasm32): the same report from the
//! same bytes, compressed batches opened by the same pure-Rust decoders, damage named
//! by position — what a page that opens a partition folder would show.

use eos_playground::i18n::Lang;
use eos_playground::inspect::{inspect, ProblemKind};
use eos_playground::record::batch::{
    ATTRIBUTES_OFFSET, BATCH_LENGTH_OFFSET, CRC_OFFSET, RECORDS_OFFSET,
};
use eos_playground::record::crc32c::crc32c;
use eos_playground::record::{ControlRecordType, RecordBatch};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = (c >> 1) ^ (0xEDB8_8320 & (c & 1).wrapping_neg());
        }
    }
    !c
}

/// `batch` with its records region as a gzip member (codec 1) holding one stored
/// DEFLATE block, as any gzip writer may emit for data that does not shrink.
fn gzip(batch: &RecordBatch) -> Vec<u8> {
    let plain = batch.encode();
    let records = &plain[RECORDS_OFFSET..];
    let len = records.len() as u16;
    let mut out = plain[..RECORDS_OFFSET].to_vec();
    out.extend([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 0x01]);
    out.extend(len.to_le_bytes());
    out.extend((!len).to_le_bytes());
    out.extend(records);
    out.extend(crc32(records).to_le_bytes());
    out.extend((records.len() as u32).to_le_bytes());
    let length = (out.len() - 12) as i32;
    out[BATCH_LENGTH_OFFSET..BATCH_LENGTH_OFFSET + 4].copy_from_slice(&length.to_be_bytes());
    out[ATTRIBUTES_OFFSET + 1] |= 1;
    let crc = crc32c(&out[ATTRIBUTES_OFFSET..]);
    out[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
    out
}

#[wasm_bindgen_test]
fn a_partition_folder_is_read_in_the_page() {
    let v = |s: &str| (None, Some(s.as_bytes().to_vec()));
    let mut log = gzip(&RecordBatch::new_data(
        0,
        3,
        0,
        0,
        true,
        10,
        vec![v("in"), v("a"), v("browser")],
    ));
    log.extend(RecordBatch::new_control(3, 3, 0, 11, ControlRecordType::Abort, 0).encode());
    let txn = eos_playground::log::AbortedTxn {
        producer_id: 3,
        first_offset: 0,
        last_offset: 3,
        last_stable_offset: 4,
    };
    let files = vec![
        ("t-0/00000000000000000000.log".to_string(), log.clone()),
        (
            "t-0/00000000000000000000.txnindex".to_string(),
            txn.encode(),
        ),
    ];
    let reports = inspect(&files);
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(r.problems, vec![]);
    assert!(r.files[0].lines[1].contains("compresscodec: gzip"));
    assert!(r.files[0].lines[4].ends_with("payload: browser"));
    let s = r.summary.as_ref().unwrap();
    assert_eq!((s.log_end_offset, s.aborted.len()), (4, 1));
    // The page fetches the Thai catalog when Thai is chosen; here it is installed.
    let errors = eos_playground::i18n::catalog::install(
        Lang::Th,
        include_str!("../src/i18n/catalog/th.txt"),
    );
    assert!(errors.is_empty(), "{errors:?}");
    let th = eos_playground::i18n::inspect::report(&reports, Lang::Th);
    assert!(th.contains("t-0: ไม่พบปัญหา"), "{th}");

    // One flipped byte in the marker batch: named at its position; the gzip batch stays.
    let at = log.len() - 3;
    log[at] ^= 1;
    let reports = inspect(&[("t-0/00000000000000000000.log".to_string(), log.clone())]);
    let marker_start = (log.len()
        - RecordBatch::new_control(3, 3, 0, 11, ControlRecordType::Abort, 0).size_in_bytes())
        as u64;
    assert!(reports[0]
        .problems
        .iter()
        .any(|p| p.position == Some(marker_start)
            && matches!(p.kind, ProblemKind::CrcMismatch { .. })));
    assert_eq!(reports[0].summary.as_ref().unwrap().log_end_offset, 3);
}
