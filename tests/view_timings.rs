#![cfg(not(target_arch = "wasm32"))]
//! What one render of the transactions page costs in its view models, natively, on the
//! `?bench=10000` world (10,000 batches): each view function's median over a few runs,
//! printed, never asserted on. Run by hand:
//! `cargo test --release --test view_timings -- --ignored --nocapture`. A second test
//! prints the engine's own step a click (Begin, Send, Commit with its markers).

use std::time::Instant;

use eos_playground::scenario::{scenario_of, Replay};
use eos_playground::sim::{Action, World};
use eos_playground::view::page::{bench_setup, click, ClickContext, Page, TXN_PRODUCER};

fn world(n: usize) -> World {
    let mut steps = Page::Transactions.setup();
    steps.extend(bench_setup(n));
    Replay::to(scenario_of(steps), usize::MAX).into_world()
}

fn median_us(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut xs: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    xs.sort_by(f64::total_cmp);
    xs[runs / 2]
}

fn report(world: &World, label: &str) {
    use eos_playground::view::*;
    let tp = partition::shown_partition(world).expect("a partition");
    let part = partition::partition_view(world, &tp, partition::LOG_WINDOW);
    let coords = coordinators::coordinators(world);
    let rows: Vec<(&str, f64)> = vec![
        (
            "shown_partition",
            median_us(9, || drop(partition::shown_partition(world))),
        ),
        (
            "partition_view",
            median_us(9, || {
                drop(partition::partition_view(world, &tp, partition::LOG_WINDOW))
            }),
        ),
        (
            "replicas",
            median_us(9, || drop(replicas::replicas(world, &tp))),
        ),
        ("brokers", median_us(9, || drop(replicas::brokers(world)))),
        (
            "coordinators",
            median_us(9, || drop(coordinators::coordinators(world))),
        ),
        (
            "producers",
            median_us(9, || drop(producers::producers(world))),
        ),
        (
            "consumers",
            median_us(9, || drop(consumers::consumers(world, part.as_ref()))),
        ),
        (
            "timeline",
            median_us(9, || {
                drop(timeline::timeline_with(
                    world,
                    part.as_ref(),
                    &coords,
                    timeline::TIMELINE_MESSAGES,
                    timeline::TimelineOptions {
                        fold_follower_fetches: true,
                    },
                ))
            }),
        ),
        (
            "admin_view",
            median_us(9, || drop(txn_admin::admin_view(world, &tp))),
        ),
        (
            "rules_view",
            median_us(9, || drop(rules::rules_view(world))),
        ),
        (
            "network_view",
            median_us(9, || drop(network::network_view(world))),
        ),
        (
            "challenges",
            median_us(9, || {
                drop(challenges::items(page::Page::Transactions, world))
            }),
        ),
        (
            "events",
            median_us(9, || {
                drop(events::event_items(
                    world,
                    150,
                    tone::transactions,
                    eos_playground::i18n::Lang::En,
                ))
            }),
        ),
        (
            "cluster_views",
            median_us(9, || drop(cluster::cluster_views(world, Some(&tp)))),
        ),
    ];
    println!("{} events in the world", world.events().len());
    println!("view models, {label} (median of 9, µs):");
    for (name, us) in rows {
        println!("  {name:<16} {us:>9.1}");
    }
}

#[test]
#[ignore = "prints timings; run by hand with --ignored --nocapture"]
fn transactions_page_view_models_on_10000_batches() {
    let t = Instant::now();
    let mut world = world(10_000);
    println!(
        "world of 10,000 batches built in {:.0} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    report(&world, "after preload");
    for action in [
        Action::InitTransactions {
            producer: TXN_PRODUCER.into(),
        },
        Action::BeginTransaction {
            producer: TXN_PRODUCER.into(),
        },
    ] {
        for a in click(Page::Transactions, action, &world, ClickContext::default()) {
            world.apply(&a).expect("applies");
        }
    }
    report(&world, "in a transaction");
}

#[test]
#[ignore = "prints timings; run by hand with --ignored --nocapture"]
fn transactions_page_engine_step_a_click_on_10000_batches() {
    let mut world = world(10_000);
    let producer = || TXN_PRODUCER.to_string();
    let apply = |world: &mut World, action: Action| {
        for a in click(Page::Transactions, action, world, ClickContext::default()) {
            world.apply(&a).expect("applies");
        }
    };
    apply(
        &mut world,
        Action::InitTransactions {
            producer: producer(),
        },
    );
    let mut times: [Vec<f64>; 3] = Default::default();
    for round in 0..41 {
        let actions = [
            Action::BeginTransaction {
                producer: producer(),
            },
            Action::Send {
                producer: producer(),
                topic_partition: eos_playground::protocol::TopicPartition::new(
                    eos_playground::view::page::TXN_TOPIC,
                    0,
                ),
                values: vec![format!("v{round}")],
            },
            Action::CommitTransaction {
                producer: producer(),
            },
        ];
        for (i, action) in actions.into_iter().enumerate() {
            let t = Instant::now();
            apply(&mut world, action);
            times[i].push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    println!("the engine's step a click (median of 41, µs):");
    for (name, mut xs) in ["Begin", "Send", "Commit"].into_iter().zip(times) {
        xs.sort_by(f64::total_cmp);
        println!("  {name:<8} {:>9.1}", xs[xs.len() / 2]);
    }
    report(&world, "after 41 committed transactions");
}
