//! The engine's workloads natively, to set beside the same workloads in the browser
//! (`tests/wasm_timings.rs` prints those; docs/performance.md has both): every Kafka
//! lesson played to its end, and 1,000 idempotent appends (`cargo bench --bench
//! workloads`).

#[path = "../tests/common/workloads.rs"]
mod workloads;

use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("workloads");
    for (name, source) in workloads::lesson_sources() {
        group.bench_function(format!("lesson/{name}"), |b| {
            b.iter(|| workloads::play_lesson(source))
        });
    }
    group.bench_function("idempotent_appends/1000", |b| {
        b.iter(|| workloads::idempotent_appends(1000))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
