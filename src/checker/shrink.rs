//! Shrinking a failing schedule: delta debugging (Zeller's ddmin, simplified) over its
//! actions — drop chunks, halving their size, while the run still shows the same kind
//! of violation. Deterministic, and bounded by the number of runs it may make.

use super::chaos::{shows, Schedule};
use super::Anomaly;

/// Most runs one shrink may make (each is a whole schedule run).
pub const MAX_SHRINK_RUNS: usize = 400;

/// A smaller schedule that still shows `anomaly` (the input if nothing can go).
pub fn shrink(schedule: &Schedule, anomaly: Anomaly) -> Schedule {
    let mut best = schedule.clone();
    let mut runs = 0;
    let mut chunk = best.body.len().div_ceil(2).max(1);
    loop {
        let mut removed_any = false;
        let mut start = 0;
        while start < best.body.len() {
            if runs >= MAX_SHRINK_RUNS {
                return best;
            }
            let end = (start + chunk).min(best.body.len());
            let mut candidate = best.clone();
            candidate.body.drain(start..end);
            runs += 1;
            if shows(&candidate, anomaly) {
                best = candidate;
                removed_any = true;
            } else {
                start = end;
            }
        }
        if chunk == 1 && !removed_any {
            return best;
        }
        if !removed_any || chunk > 1 {
            chunk = (chunk / 2).max(1);
        }
    }
}
