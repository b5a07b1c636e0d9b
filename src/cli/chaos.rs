//! `eos chaos`: seeded chaos runs with the invariant checker (`crate::checker::chaos`).

use crate::breaks::BreakSwitch;
use crate::checker::chaos::{search, Finding};
use crate::checker::replay::replay;
use crate::i18n::checker::{break_name_error, explain, switch_text};
use crate::i18n::Lang;

/// The most schedules one `eos chaos` runs (about a quarter of an hour on this project's
/// machine): a mistyped `--runs` or `--seeds` must not start a run that never ends.
const MAX_RUNS: u64 = 1_000_000;

/// Runs `eos chaos …`; returns what to print and whether anything was found.
pub fn chaos(args: &[String]) -> Result<(String, bool), String> {
    if args.first().is_some_and(|a| a == "--switches") {
        let mut out = String::new();
        for s in BreakSwitch::ALL {
            out.push_str(&format!("{:<14} {}\n", s.name(), switch_text(*s, Lang::En)));
        }
        out.push_str("(dedup=N takes a window of 0 to 4 batches; `dedup` alone is 0)\n");
        out.push_str("(in-flight=N takes 6 to 50 requests in flight)\n");
        return Ok((out, false));
    }
    let (mut first, mut runs, mut steps) = (1u64, 100u64, 50usize);
    let mut switches = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--seeds" => {
                let v = value()?;
                let (lo, hi) = v
                    .split_once("..")
                    .ok_or_else(|| format!("--seeds {v}: expected A..B"))?;
                let num = |s: &str| {
                    s.parse::<u64>().map_err(|_| {
                        format!(
                            "--seeds {v}: {s} is not a whole number from 0 to {}",
                            u64::MAX
                        )
                    })
                };
                let (lo, hi) = (num(lo)?, num(hi)?);
                // A..B is A up to B, B left out (as Rust's ranges): 5..5 holds no seed.
                if hi <= lo {
                    return Err(format!(
                        "--seeds {v}: the range holds no seed (A..B runs A to B-1; B must be larger than A)"
                    ));
                }
                first = lo;
                runs = hi - lo;
            }
            "--seed" => {
                let v = value()?;
                first = v.parse().map_err(|_| {
                    format!("--seed {v}: not a whole number from 0 to {}", u64::MAX)
                })?;
            }
            "--runs" => {
                let v = value()?;
                runs = v
                    .parse()
                    .map_err(|_| format!("--runs {v}: not a whole number from 1 to {MAX_RUNS}"))?;
            }
            "--steps" => {
                let v = value()?;
                steps = v
                    .parse()
                    .map_err(|_| format!("--steps {v}: not a whole number from 1 to 10000"))?;
                if steps == 0 || steps > 10_000 {
                    return Err(format!("--steps {v}: 1 to 10000"));
                }
            }
            "--break" | "--switch" => {
                let v = value()?;
                switches.push(
                    BreakSwitch::parse(v)
                        .map_err(|e| format!("{a} {}", break_name_error(e, v, Lang::En)))?,
                );
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if runs == 0 {
        return Err("--runs 0: nothing to run; give at least 1".into());
    }
    if runs > MAX_RUNS {
        return Err(format!(
            "{runs} runs: at most {MAX_RUNS} (about a quarter of an hour here); split the search"
        ));
    }
    // Seeds are u64s run as the range first..first+runs: one that would pass the largest
    // seed is refused rather than cut short (it ran no seed at all and said so quietly).
    let last = first.checked_add(runs).ok_or_else(|| {
        format!(
            "--seed {first} with {runs} run(s) goes past the largest seed: the last seed may be {}",
            u64::MAX - 1
        )
    })?;
    let found = search(first..last, steps, &switches, |_, _| {});
    let mut out = String::new();
    for f in &found {
        out.push_str(&finding_text(f));
    }
    out.push_str(&format!(
        "{} of {} seed(s) found a violation ({} steps each{})\n",
        found.len(),
        last - first,
        steps,
        if switches.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = switches.iter().map(|s| s.name()).collect();
            format!(", break {}", names.join(" "))
        }
    ));
    Ok((out, !found.is_empty()))
}

/// A finding as a comment block and its replay, ready to save and run: the shrunk
/// scenario ended by a narrated `check` with the verdict under it (the scenario the
/// replay link opens, as the chaos page's links do).
fn finding_text(f: &Finding) -> String {
    let replay = replay(&f.shrunk, &f.violation);
    let mut out = format!(
        "# seed {}: {} — {}\n# {}\n# shrunk from {} to {} actions; visible at step {}\n",
        f.seed,
        f.violation.anomaly.name(),
        explain(f.violation.anomaly.explain_id(), Lang::En),
        f.violation.line(Lang::En),
        f.steps_before,
        f.shrunk.body.len(),
        f.violation.step,
    );
    if !replay.link.is_empty() {
        out.push_str(&format!("# replay: #{}\n", replay.link));
    }
    out.push_str(&replay.scenario);
    out.push('\n');
    out
}
