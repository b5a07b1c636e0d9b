//! Chaos throughput (`cargo bench --bench chaos`): one seeded schedule of 50 workload
//! and fault steps — generated, run with the invariant checker after every step, and
//! checked at the end — as `eos chaos` and the page's Chaos panel run them, with every
//! switch off (nothing found, so nothing is shrunk). Seeds cycle over 1..=200 so the
//! figure is an average over different schedules. Criterion's `elem/s` is schedules
//! per second (the goal is at least 1,000; docs/performance.md).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use eos_playground::checker::chaos::{generate, run};

const STEPS: usize = 50;

fn chaos(c: &mut Criterion) {
    let mut group = c.benchmark_group("chaos");
    group.throughput(Throughput::Elements(1));
    group.bench_function("schedule_of_50_steps", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed = seed % 200 + 1;
            let outcome = run(&generate(black_box(seed), STEPS, &[]));
            black_box(outcome.violations.len())
        });
    });
    group.finish();
}

criterion_group!(benches, chaos);
criterion_main!(benches);
