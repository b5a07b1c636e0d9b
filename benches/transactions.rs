//! Transactions through the whole simulated cluster (`cargo bench --bench transactions`):
//! committed transactions per second (10 records each), and read_committed fetch
//! throughput over a log where 10% of the transactions were aborted.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use eos_playground::client::consumer::{
    AbortedTransaction, Consumer, ConsumerConfig, FetchPartitionData,
};
use eos_playground::log::{FetchIsolation, TopicPartition};
use eos_playground::sim::{Action, ClusterConfig, World};

fn world() -> World {
    let mut w = World::new(ClusterConfig::default());
    w.apply(&Action::CreateTopic {
        name: "t".into(),
        partitions: 1,
        configs: vec![],
    })
    .unwrap();
    w.apply(&Action::CreateProducer {
        name: "p".into(),
        configs: vec![("transactional.id".into(), "bench".into())],
    })
    .unwrap();
    w.apply(&Action::InitTransactions {
        producer: "p".into(),
    })
    .unwrap();
    w
}

fn transaction(w: &mut World, i: usize, commit: bool) {
    let tp = TopicPartition::new("t", 0);
    w.apply(&Action::BeginTransaction {
        producer: "p".into(),
    })
    .unwrap();
    let values = (0..10).map(|r| format!("txn-{i}-record-{r}")).collect();
    w.apply(&Action::Send {
        producer: "p".into(),
        topic_partition: tp,
        values,
    })
    .unwrap();
    let end = if commit {
        Action::CommitTransaction {
            producer: "p".into(),
        }
    } else {
        Action::AbortTransaction {
            producer: "p".into(),
        }
    };
    w.apply(&end).unwrap();
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("transactions");
    group.throughput(Throughput::Elements(1));
    group.bench_function("commit_10_records", |b| {
        let mut w = world();
        let mut i = 0;
        b.iter(|| {
            transaction(&mut w, i, true);
            i += 1;
            if i % 2_000 == 0 {
                w = world();
            }
        });
    });

    // A log of 1,000 transactions, every tenth aborted, read from the start.
    let mut w = world();
    for i in 0..1_000 {
        transaction(&mut w, i, i % 10 != 9);
    }
    w.apply(&Action::RunUntilIdle).unwrap();
    let tp = TopicPartition::new("t", 0);
    let broker = &w.brokers()[&1];
    let log = &broker.logs()[&tp];
    let data = log
        .read(&broker.fs, 0, usize::MAX, FetchIsolation::TxnCommitted)
        .unwrap();
    let committed_records = 900 * 10;
    group.throughput(Throughput::Elements(committed_records));
    group.bench_function("read_committed_fetch_10pct_aborted", |b| {
        b.iter(|| {
            let data = log
                .read(&broker.fs, 0, usize::MAX, FetchIsolation::TxnCommitted)
                .unwrap();
            let config = ConsumerConfig::from_pairs(
                "c",
                &[
                    ("isolation.level", "read_committed"),
                    ("max.poll.records", "100000"),
                ],
            )
            .unwrap();
            let mut consumer = Consumer::new(config);
            consumer.assign(std::slice::from_ref(&tp));
            consumer.seek(&tp, 0);
            let fetch = FetchPartitionData {
                aborted_transactions: data.aborted_transactions.map(|v| {
                    v.into_iter()
                        .map(|(producer_id, first_offset)| AbortedTransaction {
                            producer_id,
                            first_offset,
                        })
                        .collect()
                }),
                ..FetchPartitionData::new(
                    data.high_watermark,
                    data.last_stable_offset,
                    data.records,
                )
            };
            let (records, _) = consumer.on_fetch_response(&tp, fetch);
            assert_eq!(records.len() as u64, committed_records);
        });
    });
    let _ = data;
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
