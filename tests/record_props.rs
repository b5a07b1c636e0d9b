#![cfg(not(target_arch = "wasm32"))]
//! Properties of the record batch codec: encode/decode round-trips, and no
//! input (random, truncated or bit-flipped) makes the decoders panic.

mod common;

use eos_playground::record::crc32c;
use eos_playground::record::{
    decode_all, header_fields, set_base_offset, ControlRecordType, Header, Record, RecordBatch,
    RecordError, RECORD_BATCH_OVERHEAD,
};
use proptest::prelude::*;

fn bytes_opt(max: usize) -> impl Strategy<Value = Option<Vec<u8>>> {
    prop::option::of(prop::collection::vec(any::<u8>(), 0..max))
}

fn header() -> impl Strategy<Value = Header> {
    (".{0,12}", bytes_opt(16)).prop_map(|(key, value)| Header { key, value })
}

/// Records with increasing offset deltas (gaps allowed, as after compaction)
/// and arbitrary timestamps, keys, values and headers.
fn records() -> impl Strategy<Value = Vec<Record>> {
    prop::collection::vec(
        (
            any::<i8>(),
            any::<i64>(),
            0i32..4,
            bytes_opt(40),
            bytes_opt(200),
            prop::collection::vec(header(), 0..4),
        ),
        0..12,
    )
    .prop_map(|raw| {
        let mut next = 0i32;
        raw.into_iter()
            .map(|(attributes, timestamp_delta, gap, key, value, headers)| {
                let offset_delta = next + gap;
                next = offset_delta + 1;
                Record {
                    attributes,
                    timestamp_delta,
                    offset_delta,
                    key: key.map(Into::into),
                    value: value.map(Into::into),
                    headers,
                }
            })
            .collect()
    })
}

fn batch() -> impl Strategy<Value = RecordBatch> {
    (
        (any::<i64>(), any::<i32>(), any::<i16>(), 0i32..3),
        (any::<i64>(), any::<i64>(), any::<i64>(), any::<i16>()),
        any::<i32>(),
        records(),
    )
        .prop_map(
            |(
                (base_offset, partition_leader_epoch, attributes, extra_delta),
                (base_timestamp, max_timestamp, producer_id, producer_epoch),
                base_sequence,
                records,
            )| {
                let last = records.last().map_or(-1, |r| r.offset_delta);
                RecordBatch {
                    base_offset,
                    partition_leader_epoch,
                    // Any attribute bits except compression (which decode refuses).
                    attributes: attributes & !0x07,
                    last_offset_delta: last + extra_delta,
                    base_timestamp,
                    max_timestamp,
                    producer_id,
                    producer_epoch,
                    base_sequence,
                    records,
                }
            },
        )
}

fn simple_batch() -> impl Strategy<Value = RecordBatch> {
    prop_oneof![
        batch(),
        (
            any::<i64>(),
            any::<i64>(),
            any::<i16>(),
            any::<bool>(),
            any::<i32>()
        )
            .prop_map(|(o, p, e, commit, epoch)| {
                let kind = if commit {
                    ControlRecordType::Commit
                } else {
                    ControlRecordType::Abort
                };
                RecordBatch::new_control(o, p, e, 0, kind, epoch)
            }),
        (
            any::<i64>(),
            any::<i32>(),
            any::<bool>(),
            prop::collection::vec((bytes_opt(8), bytes_opt(8)), 1..6)
        )
            .prop_map(|(o, seq, txn, kvs)| RecordBatch::new_data(o, 1, 0, seq, txn, 7, kvs)),
    ]
}

/// The textbook one-byte-at-a-time CRC32C, the oracle for the fast paths.
fn crc32c_bytewise(crc: u32, data: &[u8]) -> u32 {
    let mut state = !crc;
    for &b in data {
        state ^= u32::from(b);
        for _ in 0..8 {
            let mask = (state & 1).wrapping_neg();
            state = (state >> 1) ^ (crc32c::POLY & mask);
        }
    }
    !state
}

/// Runs every decoder on the bytes; only a panic can fail this.
fn decode_everything(bytes: &[u8]) {
    let _ = RecordBatch::decode(bytes);
    let _ = decode_all(bytes);
    let _ = header_fields(bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    #[test]
    fn batches_round_trip(b in simple_batch()) {
        let bytes = b.encode();
        prop_assert_eq!(bytes.len(), b.size_in_bytes());
        prop_assert_eq!(&bytes[17..21], &b.crc().to_be_bytes()[..]);
        let (decoded, used) = RecordBatch::decode(&bytes).unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(&decoded, &b);
        prop_assert_eq!(decoded.encode(), bytes.clone());
        prop_assert_eq!(header_fields(&bytes).unwrap().len(), 13);
    }

    #[test]
    fn segments_round_trip(batches in prop::collection::vec(simple_batch(), 0..5)) {
        let mut log = Vec::new();
        let mut expected = Vec::new();
        for b in &batches {
            expected.push((log.len() as u64, b.clone()));
            b.encode_into(&mut log);
        }
        prop_assert_eq!(decode_all(&log).unwrap(), expected);
    }

    #[test]
    fn base_offset_rewrite_keeps_batch_valid(b in simple_batch(), offset in any::<i64>()) {
        let mut bytes = b.encode();
        set_base_offset(&mut bytes, offset).unwrap();
        let (decoded, _) = RecordBatch::decode(&bytes).unwrap();
        prop_assert_eq!(decoded.base_offset, offset);
        prop_assert_eq!(decoded.records, b.records);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        decode_everything(&bytes);
    }

    #[test]
    fn random_records_region_never_panics(
        b in simple_batch(),
        tail in prop::collection::vec(any::<u8>(), 0..200),
        count in any::<i32>(),
    ) {
        // A valid header (correct length and CRC) over random record bytes:
        // reaches the record parser instead of stopping at the CRC.
        let mut bytes = b.encode();
        bytes.truncate(RECORD_BATCH_OVERHEAD);
        bytes[57..61].copy_from_slice(&count.to_be_bytes());
        bytes.extend_from_slice(&tail);
        let len = (bytes.len() - 12) as i32;
        bytes[8..12].copy_from_slice(&len.to_be_bytes());
        let crc = eos_playground::record::crc32c::crc32c(&bytes[21..]);
        bytes[17..21].copy_from_slice(&crc.to_be_bytes());
        decode_everything(&bytes);
    }

    #[test]
    fn truncations_never_panic(b in simple_batch(), cut in any::<prop::sample::Index>()) {
        let bytes = b.encode();
        let cut = cut.index(bytes.len());
        let short = &bytes[..cut];
        decode_everything(short);
        let is_truncated = matches!(RecordBatch::decode(short), Err(RecordError::Truncated { .. }));
        prop_assert!(is_truncated);
    }

    #[test]
    fn bit_flips_never_panic(
        b in simple_batch(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 1..4),
    ) {
        let mut bytes = b.encode();
        for (at, bit) in &flips {
            let i = at.index(bytes.len());
            bytes[i] ^= 1 << bit;
        }
        decode_everything(&bytes);
        // A single flip inside the CRC-covered range is always caught.
        if flips.len() == 1 {
            let i = flips[0].0.index(bytes.len());
            if i >= 21 {
                let caught = matches!(RecordBatch::decode(&bytes), Err(RecordError::CorruptMessage { .. }));
                prop_assert!(caught);
            }
        }
    }

    /// The engine's CRC32C (the CPU's instruction here) and the portable slice-by-8 the wasm
    /// runs both equal the bytewise definition, from any starting CRC, at any split.
    #[test]
    fn crc32c_equals_bytewise(
        data in prop::collection::vec(any::<u8>(), 0..600),
        seed in any::<u32>(),
        split in any::<prop::sample::Index>(),
    ) {
        let want = crc32c_bytewise(seed, &data);
        prop_assert_eq!(crc32c::crc32c_append(seed, &data), want);
        prop_assert_eq!(crc32c::crc32c_append_slice_by_8(seed, &data), want);
        let (a, b) = data.split_at(split.index(data.len() + 1));
        let pieces = crc32c::crc32c_append_slice_by_8(crc32c::crc32c_append(seed, a), b);
        prop_assert_eq!(pieces, want);
    }
}
