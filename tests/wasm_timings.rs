#![cfg(target_arch = "wasm32")]
//! The engine's workloads timed in the browser: every Kafka lesson played to its end and
//! 1,000 idempotent appends, the same work `cargo bench --bench workloads` times
//! natively. It prints the median of a few runs (`wasm-timing …` lines); nothing asserts
//! on time — the figures go in docs/performance.md beside the native ones.

#[path = "common/workloads.rs"]
mod workloads;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Runs per workload. The suite's own debug build only shows that the workloads run in
/// the browser (one run each); the figures come from
/// `cargo test --release --target wasm32-unknown-unknown --test wasm_timings`.
const RUNS: usize = if cfg!(debug_assertions) { 1 } else { 5 };

/// The median of `RUNS` samples of `work`'s wall time, in milliseconds per run. The
/// browser's clock has a coarse resolution (1 ms or worse), so each sample repeats `work`
/// until 50 ms have passed and divides. Release builds first run it unmeasured for
/// 300 ms: the browser compiles hot wasm twice (a quick baseline, then an optimised
/// tier), and a single warm-up run measured 2–6× slower than the steady state.
fn median_ms(mut work: impl FnMut()) -> f64 {
    if !cfg!(debug_assertions) {
        let start = js_sys::Date::now();
        while js_sys::Date::now() - start < 300.0 {
            work();
        }
    }
    let min_sample_ms = if cfg!(debug_assertions) { 0.0 } else { 50.0 };
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = js_sys::Date::now();
            let mut runs = 0u32;
            loop {
                work();
                runs += 1;
                let elapsed = js_sys::Date::now() - start;
                if elapsed >= min_sample_ms {
                    return elapsed / f64::from(runs);
                }
            }
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[RUNS / 2]
}

#[wasm_bindgen_test]
fn lesson_workloads_and_appends_report_their_times() {
    for (name, source) in workloads::lesson_sources() {
        let mut lines = 0;
        let ms = median_ms(|| lines = workloads::play_lesson(source));
        assert!(lines > 0, "lesson {name} printed nothing");
        console_log!("wasm-timing lesson/{name} {ms:.2} ms ({lines} lines)");
    }
    let mut leo = 0;
    let ms = median_ms(|| leo = workloads::idempotent_appends(1000));
    assert_eq!(leo, 1000);
    console_log!("wasm-timing idempotent_appends/1000 {ms:.2} ms");
}

/// The chaos bench's workload (`cargo bench --bench chaos`): one seeded schedule of 50
/// steps generated, run with the checker after every step and checked at the end. One
/// sample is the whole cycle of seeds 1..=200 that the bench averages over (schedules
/// differ several-fold in cost, so a sample of a few seeds measured the mix, not the
/// engine). The debug build runs 5-step schedules of 10 seeds (only to show it runs).
#[cfg(feature = "checker")]
#[wasm_bindgen_test]
fn chaos_schedules_report_their_rate() {
    use eos_playground::checker::chaos::{generate, run};
    let (steps, seeds) = if cfg!(debug_assertions) {
        (5, 10)
    } else {
        (50, 200)
    };
    let cycle = || {
        for seed in 1..=seeds {
            let outcome = run(&generate(seed, steps, &[]));
            assert!(outcome.violations.is_empty(), "seed {seed}");
        }
    };
    // Two more cycles unmeasured first: the optimising tier compiles a function only
    // once it is hot, and the cycle's rarer paths (restarts, failovers) get there late;
    // with 300 ms alone, runs of one build differed 2-fold.
    if !cfg!(debug_assertions) {
        cycle();
        cycle();
    }
    let ms = median_ms(cycle) / seeds as f64;
    console_log!(
        "wasm-timing chaos/schedule_of_{steps}_steps {ms:.3} ms ({:.0} schedules/s)",
        1000.0 / ms
    );
}
