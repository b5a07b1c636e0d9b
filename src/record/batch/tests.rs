//! Tests of the batch codec: exact bytes, round trips, and every way bytes can lie.

use super::*;
use crate::record::Header;

/// Recomputes the CRC of an encoded batch after a test edited it.
fn recrc(buf: &mut [u8]) {
    let crc = crc32c(&buf[ATTRIBUTES_OFFSET..]);
    buf[CRC_OFFSET..CRC_OFFSET + 4].copy_from_slice(&crc.to_be_bytes());
}

fn known_batch() -> RecordBatch {
    let mut b = RecordBatch::new_data(
        5,
        1000,
        3,
        7,
        true,
        1_700_000_000_000,
        vec![
            (Some(b"k".to_vec()), Some(b"v1".to_vec())),
            (None, Some(b"v2".to_vec())),
        ],
    );
    b.records[0].headers.push(Header {
        key: "h".to_string(),
        value: Some(b"x".to_vec()),
    });
    b
}

/// The bytes of known_batch(), laid out by hand; the CRC was computed with
/// an independent bit-by-bit CRC32C.
const KNOWN_BYTES: [u8; 84] = [
    0, 0, 0, 0, 0, 0, 0, 5, // baseOffset 5
    0, 0, 0, 72, // batchLength
    0, 0, 0, 0, // partitionLeaderEpoch
    2, // magic
    0x8d, 0x90, 0x60, 0x3a, // crc
    0x00, 0x10, // attributes: transactional
    0, 0, 0, 1, // lastOffsetDelta
    0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // baseTimestamp
    0x00, 0x00, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00, // maxTimestamp
    0, 0, 0, 0, 0, 0, 0x03, 0xe8, // producerId 1000
    0, 3, // producerEpoch
    0, 0, 0, 7, // baseSequence
    0, 0, 0, 2, // recordsCount
    // record 0: length 13, attrs, tsDelta 0, offsetDelta 0, key "k", value "v1", 1 header h=x
    0x1a, 0x00, 0x00, 0x00, 0x02, b'k', 0x04, b'v', b'1', 0x02, 0x02, b'h', 0x02, b'x',
    // record 1: length 8, attrs, tsDelta 0, offsetDelta 1, null key, value "v2", no headers
    0x10, 0x00, 0x00, 0x02, 0x01, 0x04, b'v', b'2', 0x00,
];

#[test]
fn known_batch_encodes_to_exact_bytes() {
    let b = known_batch();
    let bytes = b.encode();
    assert_eq!(bytes, KNOWN_BYTES);
    assert_eq!(b.size_in_bytes(), bytes.len());
    assert_eq!(b.crc(), 0x8d90_603a);
    assert_eq!(RecordBatch::decode(&bytes), Ok((b, bytes.len())));
}

#[test]
fn header_field_offsets() {
    let mut b = known_batch();
    b.partition_leader_epoch = 0x0A0B_0C0D;
    b.producer_id = 0x1122_3344_5566_7788;
    b.producer_epoch = 0x099A;
    b.base_sequence = 0x0102_0304;
    let bytes = b.encode();
    assert_eq!(RECORD_BATCH_OVERHEAD, 61);
    assert_eq!(&bytes[0..8], &5i64.to_be_bytes());
    assert_eq!(&bytes[8..12], &((bytes.len() - 12) as i32).to_be_bytes());
    assert_eq!(&bytes[12..16], &[0x0A, 0x0B, 0x0C, 0x0D]);
    assert_eq!(bytes[16], 2);
    assert_eq!(&bytes[17..21], &crc32c(&bytes[21..]).to_be_bytes());
    assert_eq!(&bytes[21..23], &[0x00, 0x10]);
    assert_eq!(&bytes[23..27], &1i32.to_be_bytes());
    assert_eq!(&bytes[27..35], &1_700_000_000_000i64.to_be_bytes());
    assert_eq!(&bytes[35..43], &1_700_000_000_000i64.to_be_bytes());
    assert_eq!(
        &bytes[43..51],
        &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
    );
    assert_eq!(&bytes[51..53], &[0x09, 0x9A]);
    assert_eq!(&bytes[53..57], &[1, 2, 3, 4]);
    assert_eq!(&bytes[57..61], &2i32.to_be_bytes());
    // The first record starts right after the header.
    assert_eq!(bytes[61], 0x1a);
}

#[test]
fn control_batch_wire_format() {
    let b = RecordBatch::new_control(42, 7, 2, 1000, ControlRecordType::Commit, 0x0506_0708);
    assert!(b.is_control() && b.is_transactional());
    assert_eq!(b.base_sequence, NO_SEQUENCE);
    assert_eq!(b.last_sequence(), NO_SEQUENCE);
    assert_eq!(b.records.len(), 1);
    let r = &b.records[0];
    assert_eq!(r.key.as_ref().map(|k| k.len()), Some(4));
    assert_eq!(r.value.as_ref().map(|v| v.len()), Some(6));
    let bytes = b.encode();
    assert_eq!(&bytes[21..23], &[0x00, 0x30]);
    assert_eq!(
        &bytes[61..],
        &[
            0x20, // record length 16
            0x00, 0x00, 0x00, // attributes, timestampDelta, offsetDelta
            0x08, 0x00, 0x00, 0x00, 0x01, // key: version 0, COMMIT
            0x0c, 0x00, 0x00, 0x05, 0x06, 0x07, 0x08, // value: version 0, epoch
            0x00, // no headers
        ]
    );
    let (decoded, _) = RecordBatch::decode(&bytes).unwrap();
    assert_eq!(
        decoded.control_record(),
        Some((
            ControlRecordType::Commit,
            EndTransactionMarker::new(0x0506_0708)
        ))
    );
    assert_eq!(decoded.validate_for_append(), Ok(()));
    let abort = RecordBatch::new_control(0, 7, 2, 0, ControlRecordType::Abort, 1);
    assert_eq!(&abort.encode()[68..70], &[0x00, 0x00]);
    assert_eq!(
        abort.control_record().map(|c| c.0),
        Some(ControlRecordType::Abort)
    );
    assert_eq!(known_batch().control_record(), None);
}

#[test]
fn round_trips() {
    let mut many = RecordBatch::new_data(
        i64::MAX - 10,
        NO_PRODUCER_ID,
        -1,
        NO_SEQUENCE,
        false,
        -5,
        (0..200)
            .map(|i| {
                (
                    Some(vec![i as u8; i]),
                    if i % 3 == 0 { None } else { Some(vec![7; 300]) },
                )
            })
            .collect(),
    );
    many.records[10].timestamp_delta = i64::MIN;
    many.records[11].headers = vec![
        Header {
            key: String::new(),
            value: None,
        },
        Header {
            key: "ünïcode".into(),
            value: Some(vec![]),
        },
    ];
    many.set_timestamp_type(TimestampType::LogAppendTime);
    for b in [
        known_batch(),
        many,
        RecordBatch::new_data(0, 1, 0, 0, false, 0, vec![]),
        RecordBatch::new_control(9, 1, 1, 1, ControlRecordType::Abort, -1),
    ] {
        let bytes = b.encode();
        assert_eq!(bytes.len(), b.size_in_bytes());
        assert_eq!(RecordBatch::decode(&bytes), Ok((b.clone(), bytes.len())));
        // Trailing bytes belong to the next batch.
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[1, 2, 3]);
        assert_eq!(RecordBatch::decode(&longer), Ok((b, bytes.len())));
    }
}

#[test]
fn every_flipped_byte_is_caught_or_harmless() {
    let bytes = known_batch().encode();
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x01;
        let result = RecordBatch::decode(&bad);
        match i {
            // baseOffset and partitionLeaderEpoch are outside the CRC.
            0..=7 | 12..=15 => assert!(result.is_ok(), "byte {i}"),
            8..=11 => assert!(result.is_err(), "byte {i}"),
            16 => assert_eq!(result, Err(RecordError::InvalidMagic(3))),
            _ => assert!(
                matches!(result, Err(RecordError::CorruptMessage { .. })),
                "byte {i}: {result:?}"
            ),
        }
    }
}

#[test]
fn crc_mismatch_reports_both_values() {
    let mut bytes = known_batch().encode();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    match RecordBatch::decode(&bytes) {
        Err(RecordError::CorruptMessage {
            stored_crc,
            computed_crc,
        }) => {
            assert_eq!(stored_crc, 0x8d90_603a);
            assert_eq!(computed_crc, crc32c(&bytes[21..]));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn truncation() {
    let bytes = known_batch().encode();
    assert_eq!(
        RecordBatch::decode(&bytes[..5]),
        Err(RecordError::Truncated {
            needed: 12,
            available: 5
        })
    );
    assert_eq!(
        RecordBatch::decode(&bytes[..70]),
        Err(RecordError::Truncated {
            needed: 84,
            available: 70
        })
    );
    let mut tiny = bytes.clone();
    tiny[8..12].copy_from_slice(&10i32.to_be_bytes());
    assert_eq!(
        RecordBatch::decode(&tiny),
        Err(RecordError::Truncated {
            needed: 61,
            available: 22
        })
    );
    tiny[8..12].copy_from_slice(&(-1i32).to_be_bytes());
    assert!(matches!(
        RecordBatch::decode(&tiny),
        Err(RecordError::Truncated { needed: 61, .. })
    ));
}

#[test]
fn compression_is_refused() {
    let mut b = known_batch();
    b.attributes |= 4;
    assert_eq!(
        RecordBatch::decode(&b.encode()),
        Err(RecordError::UnsupportedCompression(4))
    );
    assert_eq!(b.compression_code(), 4);
}

#[test]
fn lying_counts_and_lengths_are_invalid() {
    let bytes = known_batch().encode();
    for count in [-1i32, 0, 1, 3, i32::MAX] {
        let mut bad = bytes.clone();
        bad[57..61].copy_from_slice(&count.to_be_bytes());
        recrc(&mut bad);
        assert!(
            matches!(
                RecordBatch::decode(&bad),
                Err(RecordError::InvalidRecord(_))
            ),
            "count {count}"
        );
    }
    // First record claims one byte more: it swallows the second record's length.
    let mut bad = bytes.clone();
    bad[61] = 0x1c;
    recrc(&mut bad);
    assert!(matches!(
        RecordBatch::decode(&bad),
        Err(RecordError::InvalidRecord(_))
    ));
    // lastOffsetDelta smaller than the last record's offsetDelta.
    let mut bad = bytes.clone();
    bad[23..27].copy_from_slice(&0i32.to_be_bytes());
    recrc(&mut bad);
    assert!(matches!(
        RecordBatch::decode(&bad),
        Err(RecordError::InvalidRecord(_))
    ));
    // Non-UTF-8 header key.
    let mut bad = bytes.clone();
    bad[72] = 0xFF;
    recrc(&mut bad);
    assert!(matches!(
        RecordBatch::decode(&bad),
        Err(RecordError::InvalidRecord(_))
    ));
}

#[test]
fn gaps_decode_but_are_not_appendable() {
    let mut b = known_batch();
    b.records[1].offset_delta = 4;
    b.last_offset_delta = 6;
    let (decoded, _) = RecordBatch::decode(&b.encode()).unwrap();
    assert_eq!(decoded, b);
    assert_eq!(decoded.next_offset(), 12);
    assert!(decoded.validate_for_append().is_err());
    assert_eq!(known_batch().validate_for_append(), Ok(()));
    let mut no_seq = known_batch();
    no_seq.base_sequence = NO_SEQUENCE;
    assert!(no_seq.validate_for_append().is_err());
    assert!(RecordBatch::new_data(0, -1, -1, -1, false, 0, vec![])
        .validate_for_append()
        .is_err());
}

#[test]
fn last_sequence_wraps_at_i32_max() {
    let kv = |n: usize| vec![(None, Some(vec![1u8])); n];
    let b = RecordBatch::new_data(0, 1, 0, i32::MAX - 1, false, 0, kv(3));
    assert_eq!(b.last_sequence(), 0);
    let b = RecordBatch::new_data(0, 1, 0, i32::MAX, false, 0, kv(1));
    assert_eq!(b.last_sequence(), i32::MAX);
    let b = RecordBatch::new_data(0, 1, 0, i32::MAX, false, 0, kv(2));
    assert_eq!(b.last_sequence(), 0);
    let b = RecordBatch::new_data(0, 1, 0, 10, false, 0, kv(5));
    assert_eq!(b.last_sequence(), 14);
    let b = RecordBatch::new_data(0, 1, 0, NO_SEQUENCE, false, 0, kv(5));
    assert_eq!(b.last_sequence(), NO_SEQUENCE);
    assert_eq!(increment_sequence(i32::MAX, 1), 0);
    assert_eq!(increment_sequence(5, 1), 6);
}

#[test]
fn accessors() {
    let mut b = known_batch();
    assert_eq!(b.last_offset(), 6);
    assert_eq!(b.next_offset(), 7);
    assert_eq!(b.record_count(), 2);
    assert!(b.is_transactional() && !b.is_control() && b.has_producer_id());
    assert!(!b.has_delete_horizon_ms());
    assert_eq!(b.timestamp_type(), TimestampType::CreateTime);
    assert_eq!(b.record_offset(&b.records[1]), 6);
    b.records[1].timestamp_delta = 5;
    assert_eq!(b.record_timestamp(&b.records[1]), 1_700_000_000_005);
    b.max_timestamp = 9;
    b.set_timestamp_type(TimestampType::LogAppendTime);
    assert_eq!(b.record_timestamp(&b.records[1]), 9);
    b.set_transactional(false);
    b.set_control(true);
    assert_eq!(b.attributes, 0x28);
    b.set_control(false);
    b.set_timestamp_type(TimestampType::CreateTime);
    assert_eq!(b.attributes, 0);
    let plain = RecordBatch::new_data(0, NO_PRODUCER_ID, -1, -1, false, 0, vec![]);
    assert!(!plain.has_producer_id());
    assert_eq!(plain.next_offset(), 0);
    let far = RecordBatch::new_data(i64::MAX, 1, 0, 0, false, 0, vec![(None, None); 2]);
    assert_eq!(far.next_offset(), i64::MAX);
}

#[test]
fn in_place_rewrites_keep_the_crc() {
    let mut bytes = known_batch().encode();
    set_base_offset(&mut bytes, 1234).unwrap();
    set_partition_leader_epoch(&mut bytes, 9).unwrap();
    let (b, _) = RecordBatch::decode(&bytes).unwrap();
    assert_eq!((b.base_offset, b.partition_leader_epoch), (1234, 9));
    assert_eq!(
        set_base_offset(&mut [0u8; 7], 1),
        Err(RecordError::Truncated {
            needed: 8,
            available: 7
        })
    );
    assert!(set_partition_leader_epoch(&mut [0u8; 15], 1).is_err());
}

#[test]
fn decode_all_reports_positions() {
    let a = known_batch();
    let c = RecordBatch::new_control(7, 1000, 3, 5, ControlRecordType::Commit, 0);
    let mut log = a.encode();
    let second = log.len() as u64;
    c.encode_into(&mut log);
    assert_eq!(decode_all(&log), Ok(vec![(0, a.clone()), (second, c)]));
    assert_eq!(decode_all(&[]), Ok(vec![]));
    // A torn write at the end.
    log.truncate(log.len() - 3);
    assert!(matches!(
        decode_all(&log),
        Err(RecordError::Truncated { .. })
    ));
}

#[test]
fn reserve_bound_covers_the_exact_size_and_views_match_owned() {
    let mut batch = known_batch();
    batch.records.push(Record {
        attributes: 0,
        timestamp_delta: i64::MIN,
        offset_delta: i32::MAX,
        key: Some(vec![7; 300].into()),
        value: None,
        headers: vec![
            Header {
                key: "k".repeat(200),
                value: Some(vec![1; 129]),
            },
            Header {
                key: String::new(),
                value: None,
            },
        ],
    });
    for r in &batch.records {
        assert!(r.max_size_in_bytes() >= r.size_in_bytes());
    }
    batch.last_offset_delta = i32::MAX;
    let bytes = batch.encode();
    assert_eq!(bytes.len(), batch.size_in_bytes());
    let view = RecordBatch::decode_view(&bytes).unwrap();
    assert_eq!(view.size_in_bytes(), bytes.len());
    assert_eq!(view.records().len(), batch.records.len());
    let last = view.records().last().unwrap();
    assert_eq!(last.headers[0].value, Some(&[1u8; 129][..]));
    assert_eq!(view.to_batch(), batch);
    assert!(view.header().records.is_empty());
}

#[test]
fn the_wasm_encoder_writes_the_same_bytes() {
    let mut with_headers = known_batch();
    with_headers.records.push(Record {
        attributes: 0,
        timestamp_delta: -5,
        offset_delta: 70,
        key: None,
        value: Some(vec![1; 8200].into()),
        headers: vec![Header {
            key: "h".to_string(),
            value: Some(b"v".to_vec()),
        }],
    });
    let control = RecordBatch::new_control(42, 7, 2, 1000, ControlRecordType::Commit, 3);
    // Each record's length prefix is first guessed from the previous record's: lengths
    // of 1, 2, 3, 1, 3 and 2 bytes get guesses too short and too long.
    let sizes = [10usize, 100, 9000, 0, 20_000, 70];
    let mixed = RecordBatch::new_data(
        0,
        7,
        0,
        0,
        false,
        1000,
        sizes
            .iter()
            .map(|&n| (Some(vec![3; n % 17]), Some(vec![4; n])))
            .collect(),
    );
    for batch in [known_batch(), with_headers, control, mixed] {
        let mut compact = vec![5];
        batch.encode_compact(&mut compact);
        let mut fast = vec![5];
        batch.encode_into(&mut fast);
        assert_eq!(compact, fast);
    }
}
