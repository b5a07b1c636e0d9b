//! Idempotent appends through the partition log: records/s and MB/s for 1-record and
//! 100-record batches (`cargo bench`).

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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("idempotent_append");
    for records in [1usize, 100] {
        let bytes = batch(0, records).size_in_bytes() as u64;
        group.throughput(Throughput::Elements(records as u64));
        group.bench_with_input(
            BenchmarkId::new("records", records),
            &records,
            |b, &records| {
                let mut fs = MemFs::new();
                let config = LogConfig {
                    segment_bytes: 64 * 1024 * 1024,
                    ..LogConfig::default()
                };
                let mut log = UnifiedLog::create(
                    &mut fs,
                    "/kafka-logs/bench-0",
                    TopicPartition::new("bench", 0),
                    config,
                )
                .unwrap();
                let mut seq = 0i32;
                b.iter(|| {
                    let batch = batch(seq, records);
                    seq = seq.wrapping_add(records as i32);
                    log.append_as_leader(&mut fs, batch, 0).unwrap();
                    if log.log_end_offset > 2_000_000 {
                        fs = MemFs::new();
                        log = UnifiedLog::create(
                            &mut fs,
                            "/kafka-logs/bench-0",
                            TopicPartition::new("bench", 0),
                            LogConfig::default(),
                        )
                        .unwrap();
                        seq = 0;
                    }
                });
            },
        );
        group.throughput(Throughput::Bytes(bytes));
        group.bench_with_input(
            BenchmarkId::new("bytes", records),
            &records,
            |b, &records| {
                let mut fs = MemFs::new();
                let mut log = UnifiedLog::create(
                    &mut fs,
                    "/kafka-logs/bench-0",
                    TopicPartition::new("bench", 0),
                    LogConfig::default(),
                )
                .unwrap();
                let mut seq = 0i32;
                b.iter(|| {
                    let batch = batch(seq, records);
                    seq = seq.wrapping_add(records as i32);
                    log.append_as_leader(&mut fs, batch, 0).unwrap();
                    if log.log_end_offset > 2_000_000 {
                        fs = MemFs::new();
                        log = UnifiedLog::create(
                            &mut fs,
                            "/kafka-logs/bench-0",
                            TopicPartition::new("bench", 0),
                            LogConfig::default(),
                        )
                        .unwrap();
                        seq = 0;
                    }
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
