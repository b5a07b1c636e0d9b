//! Replicated append (`cargo bench --bench replication`): one acks=all Produce round
//! trip on a partition with one replica against three (the followers' fetches, the HW
//! advance and the delayed answer), on a world that has already written 100 batches.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use eos_playground::log::TopicPartition;
use eos_playground::sim::{Action, ClusterConfig, World};

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
        configs: vec![],
    })
    .unwrap();
    for i in 0..100 {
        round_trip(&mut w, i);
    }
    w
}

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

fn bench(c: &mut Criterion) {
    for rf in ["1", "3"] {
        let base = world(rf);
        c.bench_function(&format!("acks=all round trip, RF {rf}"), |b| {
            b.iter_batched(
                || base.clone(),
                |mut w| {
                    round_trip(&mut w, 1_000);
                    black_box(w.clock_ms)
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
