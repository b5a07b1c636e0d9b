//! The workloads timed natively (`cargo bench --bench workloads`) and in the browser
//! (`tests/wasm_timings.rs`), so the two figures are for the same work: every Kafka
//! lesson played from its first step to its last, and a run of idempotent appends
//! through the partition log.

use eos_playground::fs::MemFs;
use eos_playground::log::{LogConfig, TopicPartition, UnifiedLog};
use eos_playground::record::RecordBatch;
use eos_playground::scenario::{lessons, transcript};

/// Each Kafka lesson's name and text.
pub fn lesson_sources() -> Vec<(&'static str, &'static str)> {
    lessons()
        .iter()
        .map(|l| {
            (
                l.name,
                l.text().expect("lesson texts are compiled in for tests"),
            )
        })
        .collect()
}

/// Plays one lesson to its end; returns the number of transcript lines (so the work
/// cannot be optimised away, and a broken lesson shows up as an error).
pub fn play_lesson(source: &str) -> usize {
    transcript(source).expect("a built-in lesson runs").len()
}

/// Appends `batches` idempotent 1-record batches (producer 1000, epoch 0) to a fresh
/// partition log; returns its log end offset.
pub fn idempotent_appends(batches: i32) -> i64 {
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
    .expect("a fresh log");
    for seq in 0..batches {
        let value = format!("value-{seq:0>24}").into_bytes();
        let batch = RecordBatch::new_data(
            0,
            1000,
            0,
            seq,
            false,
            1_700_000_000_000,
            vec![(None, Some(value))],
        );
        log.append_as_leader(&mut fs, batch, 0)
            .expect("an in-order append");
    }
    log.log_end_offset()
}
