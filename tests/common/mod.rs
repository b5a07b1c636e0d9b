//! Helpers shared by the integration-test files.

use std::path::{Path, PathBuf};

/// The number of cases for a property test: `PROPTEST_CASES` when it is set (so a long
/// soak or a quick smoke run can be asked for), else this file's own default.
#[allow(dead_code, reason = "the scenario walkers do not run properties")]
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// Every `.eos` script under `dir`, in name order; the folders whose scripts need a
/// feature this build leaves out are skipped.
#[allow(dead_code, reason = "the property-test files do not walk the scripts")]
pub fn scenario_scripts(dir: &Path, out: &mut Vec<PathBuf>) {
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
            scenario_scripts(&path, out);
        } else if path.extension().is_some_and(|x| x == "eos") {
            out.push(path);
        }
    }
}
