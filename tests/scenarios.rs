#![cfg(not(target_arch = "wasm32"))]
//! Runs every scenario under tests/scenarios/ and compares each step's output with the
//! `---` block under it (format: tests/scenarios/README.md). Edge cases live there as
//! short scripts that read like the protocol. `UPDATE_SCENARIOS=1 cargo test --test
//! scenarios` rewrites the blocks with the actual output; review the diff before
//! committing it.

mod common;

use std::path::Path;

use eos_playground::scenario::golden;

/// The invariant checker watches `check` steps when it is built in; without it a
/// `check` prints the block recorded under it.
#[cfg(feature = "checker")]
const WATCH: Option<eos_playground::scenario::MakeWatch> = Some(eos_playground::checker::watch);
#[cfg(not(feature = "checker"))]
const WATCH: Option<eos_playground::scenario::MakeWatch> = None;

#[test]
fn scenarios_print_what_their_blocks_expect() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    common::scenario_scripts(&root.join("tests/scenarios"), &mut files);
    assert!(files.len() >= 15, "only {} scripts found", files.len());
    let update = std::env::var_os("UPDATE_SCENARIOS").is_some();
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string();
        let source = std::fs::read_to_string(path).unwrap();
        let checked = match golden::check_with(&source, WATCH) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{name}: {e}\n"));
                continue;
            }
        };
        if checked.blocks == 0 {
            failures.push(format!("{name}: no `---` block, so nothing is checked\n"));
        }
        if update {
            if checked.updated != source {
                std::fs::write(path, &checked.updated).unwrap();
            }
        } else {
            failures.extend(checked.mismatches.iter().map(|m| m.report(&name)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} scenario output(s) differ (UPDATE_SCENARIOS=1 to rewrite, then review):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}
