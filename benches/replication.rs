//! Replicated append (`cargo bench --bench replication`): acks=all appends on a
//! partition with one replica against three (the followers' fetches, the HW advance and
//! the delayed answer), on a world that has already written 100 batches. Two views:
//!
//! - `acks=all round trip, RF N`: one send and flush (the latency of one append);
//! - `replicated append/RF N`: a burst of [`BURST`] appends one after another, as
//!   appends per second of wall-clock time (criterion's throughput).
//!
//! After criterion it prints the throughput ratio RF 1 / RF 3 (best of 5 rounds) and the
//! logical milliseconds one acks=all append takes in the simulated world.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput};
use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, World};

/// Appends per measured burst.
const BURST: u64 = 20;

fn world(replication_factor: &str) -> World {
    let mut w = World::new(ClusterConfig {
        brokers: 3,
        ..ClusterConfig::default()
    });
    w.apply(&Action::CreateTopic {
        name: "t".into(),
        partitions: 1,
        configs: vec![
            ("replication.factor".into(), replication_factor.into()),
            ("min.insync.replicas".into(), "1".into()),
        ],
    })
    .unwrap();
    w.apply(&Action::CreateProducer {
        name: "p".into(),
        configs: vec![("acks".into(), "all".into())],
    })
    .unwrap();
    for i in 0..100 {
        round_trip(&mut w, i);
    }
    w
}

/// One acks=all append: send one value and flush until it is acknowledged.
fn round_trip(w: &mut World, i: u64) {
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: TopicPartition::new("t", 0),
        values: vec![format!("v{i}")],
    })
    .unwrap();
    w.apply(&Action::Flush {
        producer: "p".into(),
    })
    .unwrap();
}

fn burst(w: &mut World) {
    for i in 0..BURST {
        round_trip(w, 1_000 + i);
    }
}

fn bench(c: &mut Criterion, bases: &[(&str, World)]) {
    for (rf, base) in bases {
        c.bench_function(&format!("acks=all round trip, RF {rf}"), |b| {
            // By reference: the clone is dropped outside the timed part.
            b.iter_batched_ref(
                || base.clone(),
                |w| {
                    round_trip(w, 1_000);
                    black_box(w.clock_ms())
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    let mut group = c.benchmark_group("replicated append");
    group.throughput(Throughput::Elements(BURST));
    for (rf, base) in bases {
        group.bench_with_input(BenchmarkId::new("RF", rf), base, |b, base| {
            b.iter_batched_ref(
                || base.clone(),
                |w| {
                    burst(w);
                    black_box(w.clock_ms())
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// Seconds per burst on a fresh clone of `base` (the clone not timed): the best of 5
/// rounds of ≈ `budget` / 5 each.
fn per_burst(budget: Duration, base: &World) -> f64 {
    let round = budget / 5;
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let (mut spent, mut bursts) = (Duration::ZERO, 0u32);
        while spent < round || bursts == 0 {
            let mut w = base.clone();
            let start = Instant::now();
            burst(&mut w);
            spent += start.elapsed();
            black_box(w.clock_ms());
            bursts += 1;
        }
        best = best.min(spent.as_secs_f64() / f64::from(bursts));
    }
    best
}

fn print_ratio(bases: &[(&str, World)], budget: Duration) {
    println!("\nreplicated append, acks=all, {BURST} appends one after another:");
    let mut rates = Vec::new();
    for (rf, base) in bases {
        let secs = per_burst(budget, base);
        let rate = BURST as f64 / secs;
        let mut w = base.clone();
        let from = w.clock_ms();
        burst(&mut w);
        let logical = (w.clock_ms() - from) as f64 / BURST as f64;
        println!(
            "  RF {rf}: {rate:>9.0} appends/s wall clock, {logical:>5.1} logical ms per append"
        );
        rates.push(rate);
    }
    if let [one, three] = rates[..] {
        println!("  throughput ratio RF 1 / RF 3: {:.2}x", one / three);
    }
}

fn main() {
    let bases: Vec<(&str, World)> = ["1", "3"].iter().map(|rf| (*rf, world(rf))).collect();
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, &bases);
    c.final_summary();
    // `cargo bench -- --test` (CI's quick mode) checks that every case runs; the ratio
    // only means something after a full run, so there it gets a token budget.
    let quick = std::env::args().any(|a| a == "--test");
    let budget = Duration::from_millis(if quick { 5 } else { 2000 });
    print_ratio(&bases, budget);
}
