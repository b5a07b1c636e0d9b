#![cfg(target_arch = "wasm32")]
//! The engine's workloads timed in the browser: every Kafka lesson played to its end and
//! 1,000 idempotent appends, the same work `cargo bench --bench workloads` times
//! natively. It prints the median of a few runs (`wasm-timing …` lines); nothing asserts
//! on time — the figures go in the README beside the native ones.

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
/// steps generated, run with the checker after every step and checked at the end, seeds
/// cycling over 1..=200. The debug build runs 5-step schedules (only to show it runs).
#[cfg(feature = "checker")]
#[wasm_bindgen_test]
fn chaos_schedules_report_their_rate() {
    use eos_playground::checker::chaos::{generate, run};
    let steps = if cfg!(debug_assertions) { 5 } else { 50 };
    let mut seed = 0;
    let ms = median_ms(|| {
        seed = seed % 200 + 1;
        let outcome = run(&generate(seed, steps, &[]));
        assert!(outcome.violations.is_empty(), "seed {seed}");
    });
    console_log!(
        "wasm-timing chaos/schedule_of_{steps}_steps {ms:.2} ms ({:.0} schedules/s)",
        1000.0 / ms
    );
}
