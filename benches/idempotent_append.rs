//! Idempotent appends through the partition log: records/s and MB/s for 1-record and
//! 100-record batches (`cargo bench --bench idempotent_append`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use eos_playground::fs::MemFs;
use eos_playground::log::{LogConfig, TopicPartition, UnifiedLog};
use eos_playground::record::RecordBatch;

fn batch(seq: i32, records: usize) -> RecordBatch {
    let kvs = (0..records)
        .map(|i| (None, Some(format!("value-{seq}-{i:0>24}").into_bytes())))
        .collect();
    RecordBatch::new_data(0, 1000, 0, seq, false, 1_700_000_000_000, kvs)
}

fn fresh_log() -> (MemFs, UnifiedLog) {
    let mut fs = MemFs::new();
    let config = LogConfig {
        segment_bytes: 64 * 1024 * 1024,
        ..LogConfig::default()
    };
    let log = UnifiedLog::create(
        &mut fs,
        "/kafka-logs/bench-0",
        TopicPartition::new("bench", 0),
        config,
    )
    .expect("a fresh log");
    (fs, log)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("idempotent_append");
    for records in [1usize, 100] {
        let bytes = batch(0, records).size_in_bytes() as u64;
        // The same appends, counted once in records and once in bytes.
        for (unit, throughput) in [
            ("records", Throughput::Elements(records as u64)),
            ("bytes", Throughput::Bytes(bytes)),
        ] {
            group.throughput(throughput);
            group.bench_with_input(BenchmarkId::new(unit, records), &records, |b, &records| {
                let (mut fs, mut log) = fresh_log();
                let mut seq = 0i32;
                b.iter(|| {
                    log.append_as_leader(&mut fs, batch(seq, records), 0)
                        .expect("in sequence");
                    seq = seq.wrapping_add(records as i32);
                    if log.log_end_offset() > 2_000_000 {
                        (fs, log) = fresh_log();
                        seq = 0;
                    }
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
