#![cfg(not(target_arch = "wasm32"))]
//! Runs every scenario under tests/scenarios/ and compares each step's output with the
//! `---` block under it (format: tests/scenarios/README.md). Edge cases live there as
//! short scripts that read like the protocol. `UPDATE_SCENARIOS=1 cargo test --test
//! scenarios` rewrites the blocks with the actual output; review the diff before
//! committing it.

use std::path::{Path, PathBuf};

use eos_playground::scenario::golden;

/// The invariant checker watches `check` steps when it is built in; without it a
/// `check` prints the block recorded under it.
#[cfg(feature = "checker")]
const WATCH: Option<eos_playground::scenario::MakeWatch> = Some(eos_playground::checker::watch);
#[cfg(not(feature = "checker"))]
const WATCH: Option<eos_playground::scenario::MakeWatch> = None;

fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            // The Pulsar scripts need the Pulsar engine (feature `pulsar`).
            if cfg!(not(feature = "pulsar")) && path.ends_with("pulsar") {
                continue;
            }
            // The checker's scripts need `check` (feature `checker`).
            if cfg!(not(feature = "checker")) && path.ends_with("checker") {
                continue;
            }
            scripts(&path, out);
        } else if path.extension().is_some_and(|x| x == "eos") {
            out.push(path);
        }
    }
}

#[test]
fn scenarios_print_what_their_blocks_expect() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    scripts(&root.join("tests/scenarios"), &mut files);
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
