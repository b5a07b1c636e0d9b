//! The record batch codec and CRC32C side by side with peer crates: `kafka-protocol`'s
//! batch v2 encoder/decoder and the `crc32c` crate, on byte-identical inputs
//! (`cargo bench --bench codec`). After criterion's report it prints our throughput over
//! the peer's for each case (> 1.0 is faster); `-- --test` runs every case once.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::Bytes;
use criterion::{BenchmarkId, Criterion, Throughput};
use eos_playground::record::{crc32c, KeyValue, RecordBatch};
use kafka_protocol::indexmap::IndexMap;
use kafka_protocol::records::{
    Compression, Record, RecordBatchDecoder, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

const SIZES: [usize; 4] = [1, 10, 100, 1000];
const PRODUCER_ID: i64 = 1000;
const TIMESTAMP: i64 = 1_700_000_000_000;

/// Record i: an 8-byte key and a 64-byte value, like a small keyed event.
fn key_values(n: usize) -> Vec<KeyValue> {
    (0..n)
        .map(|i| {
            let key = format!("key-{i:0>4}").into_bytes();
            let value = format!("value-{i:0>58}").into_bytes();
            (Some(key), Some(value))
        })
        .collect()
}

fn ours(n: usize) -> RecordBatch {
    RecordBatch::new_data(0, PRODUCER_ID, 0, 0, false, TIMESTAMP, key_values(n))
}

/// The same batch as kafka-protocol's records (offset and sequence i, one timestamp).
fn peer(n: usize) -> Vec<Record> {
    key_values(n)
        .into_iter()
        .enumerate()
        .map(|(i, (key, value))| Record {
            transactional: false,
            control: false,
            delete_horizon: false,
            partition_leader_epoch: 0,
            producer_id: PRODUCER_ID,
            producer_epoch: 0,
            timestamp_type: TimestampType::Creation,
            offset: i as i64,
            sequence: i as i32,
            timestamp: TIMESTAMP,
            key: key.map(Bytes::from),
            value: value.map(Bytes::from),
            headers: IndexMap::new(),
        })
        .collect()
}

const OPTIONS: RecordEncodeOptions = RecordEncodeOptions {
    version: 2,
    compression: Compression::None,
};

fn peer_encode(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    RecordBatchEncoder::encode(&mut out, records.iter(), &OPTIONS).expect("encodes");
    out
}

/// One size's inputs, checked byte for byte before anything is timed.
struct Case {
    n: usize,
    ours: RecordBatch,
    peer: Vec<Record>,
    bytes: Bytes,
}

fn case(n: usize) -> Case {
    let (ours, peer) = (ours(n), peer(n));
    let bytes = ours.encode();
    assert_eq!(bytes, peer_encode(&peer), "{n} records: encoders disagree");
    let decoded = RecordBatchDecoder::decode(&mut Bytes::from(bytes.clone())).expect("decodes");
    assert_eq!(decoded.records, peer);
    assert_eq!(RecordBatch::decode(&bytes).expect("decodes").0, ours);
    Case {
        n,
        ours,
        peer,
        bytes: Bytes::from(bytes),
    }
}

fn bench_codec(c: &mut Criterion, cases: &[Case]) {
    for (op, is_encode) in [("encode", true), ("decode", false)] {
        let mut group = c.benchmark_group(format!("batch_v2_{op}"));
        for case in cases {
            group.throughput(Throughput::Bytes(case.bytes.len() as u64));
            group.bench_with_input(BenchmarkId::new("eos", case.n), case, |b, case| {
                if is_encode {
                    b.iter(|| black_box(&case.ours).encode());
                } else {
                    b.iter(|| RecordBatch::decode(black_box(&case.bytes)));
                }
            });
            if !is_encode {
                group.bench_with_input(BenchmarkId::new("eos-view", case.n), case, |b, case| {
                    b.iter(|| RecordBatch::decode_view(black_box(&case.bytes)).is_ok());
                });
            }
            group.bench_with_input(
                BenchmarkId::new("kafka-protocol", case.n),
                case,
                |b, case| {
                    if is_encode {
                        b.iter(|| peer_encode(black_box(&case.peer)));
                    } else {
                        b.iter(|| RecordBatchDecoder::decode(&mut black_box(&case.bytes).clone()));
                    }
                },
            );
        }
        group.finish();
    }
}

const CRC_SIZES: [usize; 4] = [64, 1024, 16 * 1024, 1024 * 1024];

fn crc_input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i.wrapping_mul(31) >> 3) as u8).collect()
}

fn bench_crc(c: &mut Criterion) {
    let mut group = c.benchmark_group("crc32c");
    for len in CRC_SIZES {
        let data = crc_input(len);
        assert_eq!(crc32c::crc32c(&data), ::crc32c::crc32c(&data));
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_with_input(BenchmarkId::new("eos", len), &data, |b, d| {
            b.iter(|| crc32c::crc32c(black_box(d)));
        });
        group.bench_with_input(BenchmarkId::new("eos-slice-by-8", len), &data, |b, d| {
            b.iter(|| crc32c::crc32c_append_slice_by_8(0, black_box(d)));
        });
        group.bench_with_input(BenchmarkId::new("crc32c-crate", len), &data, |b, d| {
            b.iter(|| ::crc32c::crc32c(black_box(d)));
        });
    }
    group.finish();
}

/// Rounds of the ratio: ours and the peer's alternate, so that a burst of load from
/// other processes hits both sides of one round alike.
const ROUNDS: usize = 11;

/// Seconds per call over ≈ `time`.
fn per_call(time: Duration, f: &mut impl FnMut()) -> f64 {
    let (start, mut calls) = (Instant::now(), 0u64);
    while start.elapsed() < time {
        f();
        calls += 1;
    }
    start.elapsed().as_secs_f64() / calls as f64
}

/// Our throughput over the peer's (the peer's time per call over ours): the median of
/// [`ROUNDS`] interleaved rounds, and ours in ns per call (median too).
fn ratio(budget: Duration, mut ours: impl FnMut(), mut peer: impl FnMut()) -> (f64, f64) {
    let time = budget / (2 * ROUNDS as u32);
    per_call(time, &mut ours);
    per_call(time, &mut peer);
    let (mut ratios, mut times) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let t = per_call(time, &mut ours);
        ratios.push(per_call(time, &mut peer) / t);
        times.push(t * 1e9);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(&mut ratios), median(&mut times))
}

fn print_ratios(cases: &[Case], budget: Duration) {
    println!(
        "\nthroughput ratio, eos / peer (> 1.0: eos is faster), median of {ROUNDS} \
         interleaved rounds; eos's ns per call:"
    );
    let peer_decode = |bytes: &Bytes| {
        black_box(RecordBatchDecoder::decode(&mut bytes.clone()).is_ok());
    };
    for case in cases {
        let encode = ratio(
            budget,
            || {
                black_box(black_box(&case.ours).encode());
            },
            || {
                black_box(peer_encode(black_box(&case.peer)));
            },
        );
        let decode = ratio(
            budget,
            || {
                black_box(RecordBatch::decode(black_box(&case.bytes)).is_ok());
            },
            || peer_decode(&case.bytes),
        );
        let view = ratio(
            budget,
            || {
                black_box(RecordBatch::decode_view(black_box(&case.bytes)).is_ok());
            },
            || peer_decode(&case.bytes),
        );
        println!(
            "  batch v2 {:>4} records ({:>5} B): encode {:.2}x ({:.0} ns)  decode {:.2}x \
             ({:.0} ns)  decode_view {:.2}x ({:.0} ns)  (kafka-protocol)",
            case.n,
            case.bytes.len(),
            encode.0,
            encode.1,
            decode.0,
            decode.1,
            view.0,
            view.1
        );
    }
    for len in CRC_SIZES {
        let data = crc_input(len);
        let crate_crc = || {
            black_box(::crc32c::crc32c(black_box(&data)));
        };
        let engine = ratio(
            budget,
            || {
                black_box(crc32c::crc32c(black_box(&data)));
            },
            crate_crc,
        );
        let sliced = ratio(
            budget,
            || {
                black_box(crc32c::crc32c_append_slice_by_8(0, black_box(&data)));
            },
            crate_crc,
        );
        println!(
            "  crc32c {len:>7} B: engine {:.2}x  slice-by-8 (the wasm's) {:.2}x  \
             (crc32c crate)",
            engine.0, sliced.0
        );
    }
}

fn main() {
    let cases: Vec<Case> = SIZES.iter().map(|&n| case(n)).collect();
    let mut c = Criterion::default().configure_from_args();
    bench_codec(&mut c, &cases);
    bench_crc(&mut c);
    c.final_summary();
    // `cargo bench -- --test` (CI's quick mode) checks that every case runs; the ratios
    // only mean something after a full run, so there they get a token budget.
    let quick = std::env::args().any(|a| a == "--test");
    let budget = Duration::from_millis(if quick { 5 } else { 2000 });
    print_ratios(&cases, budget);
}
