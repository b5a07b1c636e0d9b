//! A chaos search run seed by seed, as the chaos page's Web Worker runs it, and the
//! messages it exchanges with the page: a [`Request`] in, [`Report`]s out (progress
//! after every seed, each finding with its shrunk scenario and replay link).
//!
//! The messages are plain text (one header line, then for a finding the scenario), so
//! they cross `postMessage` as strings and are tested here, natively. Words are not in
//! them: the page renders the anomaly's explanation from the catalog in its language;
//! the witness is identifiers and numbers only (`Violation::witness`). Only
//! the replay link carries words, the narration of its last step in every language
//! ([`super::replay`]; the worker fetches the catalogs for it).
//! Decoding never panics: anything malformed is an `Err` naming what was wrong.

use super::chaos::check_seed;
use super::replay::replay;
use crate::breaks::BreakSwitch;

/// The most seeds one request may cover, and the most steps a schedule may have
/// (as `eos chaos --steps`).
pub const MAX_SEEDS: u64 = 1_000_000;
pub const MAX_STEPS: usize = 10_000;

/// What the page asks for: seeds `first..last`, `steps` actions each, these switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub first: u64,
    pub last: u64,
    pub steps: usize,
    pub switches: Vec<BreakSwitch>,
}

/// One counterexample, as the page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub seed: u64,
    /// Jepsen's or Kafka's name (`duplicate`, `G1a`, …): an identifier.
    pub anomaly: String,
    /// The witness: `key=value` identifiers and numbers.
    pub witness: String,
    /// After how many scenario steps the checker saw it.
    pub step: usize,
    /// Actions before and after shrinking.
    pub before: usize,
    pub after: usize,
    /// The share-link fragment (without `#`) that opens its replay on the last step, a
    /// narrated `check` ([`super::replay`]); empty when too long for a link.
    pub link: String,
    /// The shrunk schedule as a scenario file (without the replay's `check`).
    pub scenario: String,
}

/// What the worker tells the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// The worker's wasm is up and listening.
    Ready,
    /// `done` of `total` seeds run, `found` of them failing; the last one was `seed`.
    Progress {
        done: u64,
        total: u64,
        found: u64,
        seed: u64,
    },
    Found(Found),
    /// Every seed was run.
    Finished {
        done: u64,
        found: u64,
    },
}

impl Request {
    pub fn total(&self) -> u64 {
        self.last.saturating_sub(self.first)
    }

    /// `start FIRST LAST STEPS SWITCH,SWITCH…` (`-` for none).
    pub fn encode(&self) -> String {
        let switches: Vec<String> = self.switches.iter().map(|s| s.name()).collect();
        let switches = if switches.is_empty() {
            "-".to_string()
        } else {
            switches.join(",")
        };
        format!(
            "start {} {} {} {switches}",
            self.first, self.last, self.steps
        )
    }

    pub fn decode(text: &str) -> Result<Request, String> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        let ["start", first, last, steps, switches] = parts[..] else {
            return Err(format!("not a chaos request: {text:.40}"));
        };
        let first = number(first)?;
        let last = number(last)?;
        let steps = usize::try_from(number(steps)?).map_err(|_| "steps: too many")?;
        if last < first || last - first > MAX_SEEDS {
            return Err(format!("seeds {first}..{last}: 0 to {MAX_SEEDS} seeds"));
        }
        if steps == 0 || steps > MAX_STEPS {
            return Err(format!("steps {steps}: 1 to {MAX_STEPS}"));
        }
        let switches = if switches == "-" {
            Vec::new()
        } else {
            switches
                .split(',')
                .map(|s| {
                    // The same words as the CLI and the scenario line (`dedup=N takes
                    // a window of 0 to 4 batches`), the name cut short.
                    let name: String = s.chars().take(20).collect();
                    BreakSwitch::parse(s).map_err(|e| {
                        crate::i18n::checker::break_name_error(e, &name, crate::i18n::Lang::En)
                    })
                })
                .collect::<Result<_, _>>()?
        };
        Ok(Request {
            first,
            last,
            steps,
            switches,
        })
    }
}

fn number(s: &str) -> Result<u64, String> {
    s.parse().map_err(|_| format!("not a number: {s:.20}"))
}

impl Report {
    pub fn encode(&self) -> String {
        match self {
            Report::Ready => "ready".into(),
            Report::Progress {
                done,
                total,
                found,
                seed,
            } => format!("progress {done} {total} {found} {seed}"),
            Report::Finished { done, found } => format!("finished {done} {found}"),
            Report::Found(f) => format!(
                "found {} {} {} {} {} {}\n{}\n{}",
                f.seed, f.anomaly, f.step, f.before, f.after, f.link, f.witness, f.scenario
            ),
        }
    }

    pub fn decode(text: &str) -> Result<Report, String> {
        let (head, rest) = text.split_once('\n').unwrap_or((text, ""));
        let parts: Vec<&str> = head.split_whitespace().collect();
        let n = |i: usize| {
            parts
                .get(i)
                .copied()
                .map_or(Err("too short".into()), number)
        };
        match parts.first().copied() {
            Some("ready") if parts.len() == 1 => Ok(Report::Ready),
            Some("progress") if parts.len() == 5 => Ok(Report::Progress {
                done: n(1)?,
                total: n(2)?,
                found: n(3)?,
                seed: n(4)?,
            }),
            Some("finished") if parts.len() == 3 => Ok(Report::Finished {
                done: n(1)?,
                found: n(2)?,
            }),
            Some("found") if parts.len() == 7 => {
                let (witness, scenario) = rest.split_once('\n').unwrap_or((rest, ""));
                let size = |i| usize::try_from(n(i)?).map_err(|_| "too big".to_string());
                Ok(Report::Found(Found {
                    seed: n(1)?,
                    anomaly: parts[2].to_string(),
                    step: size(3)?,
                    before: size(4)?,
                    after: size(5)?,
                    link: parts[6].to_string(),
                    witness: witness.to_string(),
                    scenario: scenario.to_string(),
                }))
            }
            _ => Err(format!("not a chaos report: {head:.40}")),
        }
    }
}

/// Runs the request seed by seed: after each seed its finding (if any), then a
/// progress report; at the end `Finished`. The worker posts each report as it comes,
/// so the page hears from it after every run.
pub fn run(request: &Request, mut post: impl FnMut(Report)) {
    let total = request.total();
    let mut found = 0;
    for (i, seed) in (request.first..request.last).enumerate() {
        if let Some(f) = check_seed(seed, request.steps, &request.switches) {
            found += 1;
            let scenario = f.shrunk.scenario_text();
            // The link replays it to its end: a narrated `check` with the verdict.
            let link = replay(&f.shrunk, &f.violation).link;
            post(Report::Found(Found {
                seed,
                anomaly: f.violation.anomaly.name().to_string(),
                witness: f.violation.witness(),
                step: f.violation.step,
                before: f.steps_before,
                after: f.shrunk.body.len(),
                link,
                scenario,
            }));
        }
        post(Report::Progress {
            done: i as u64 + 1,
            total,
            found,
            seed,
        });
    }
    post(Report::Finished { done: total, found });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip_and_bad_ones_are_refused() {
        let r = Request {
            first: 1,
            last: 101,
            steps: 50,
            switches: vec![BreakSwitch::Dedup(1), BreakSwitch::Lso],
        };
        assert_eq!(r.encode(), "start 1 101 50 dedup=1,lso");
        assert_eq!(Request::decode(&r.encode()), Ok(r));
        let none = Request::decode("start 5 5 1 -").expect("an empty range is fine");
        assert_eq!((none.total(), none.switches.len()), (0, 0));
        for bad in [
            "",
            "start",
            "start 1 2 3",
            "start 2 1 50 -",
            "start 1 2 0 -",
            "start 1 2 10001 -",
            "start 0 1000001 5 -",
            "start x 2 5 -",
            "start 1 2 5 dedup=5",
            "start 1 2 5 nope",
            "start 1 2 5 ,",
            "stop 1 2 5 -",
        ] {
            assert!(Request::decode(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn reports_round_trip_and_garbage_is_an_error() {
        let found = Report::Found(Found {
            seed: 7,
            anomaly: "duplicate".into(),
            witness: "chaos-0 values=i3 offsets=1,2 sent=1".into(),
            step: 12,
            before: 60,
            after: 9,
            link: "1.abc-_".into(),
            scenario: "cluster brokers=1\nbreak dedup=1\n".into(),
        });
        for r in [
            Report::Ready,
            Report::Progress {
                done: 3,
                total: 10,
                found: 1,
                seed: 4,
            },
            Report::Finished { done: 10, found: 2 },
            found,
        ] {
            assert_eq!(Report::decode(&r.encode()), Ok(r));
        }
        for bad in [
            "",
            "ready now",
            "progress 1 2 3",
            "progress 1 2 3 -4",
            "finished",
            "found 1 duplicate 2 3 4",
            "found x duplicate 2 3 4 l\nw\ns",
            "\n\n",
            "found 1 duplicate 99999999999999999999999 3 4 l",
        ] {
            assert!(Report::decode(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_run_reports_every_seed_and_each_finding_replays() {
        let request = Request {
            first: 1,
            last: 4,
            steps: 30,
            switches: vec![BreakSwitch::Aborted],
        };
        let mut reports = Vec::new();
        run(&request, |r| reports.push(r));
        let progress: Vec<u64> = reports
            .iter()
            .filter_map(|r| match r {
                Report::Progress { done, .. } => Some(*done),
                _ => None,
            })
            .collect();
        assert_eq!(progress, vec![1, 2, 3]);
        let found: Vec<&Found> = reports
            .iter()
            .filter_map(|r| match r {
                Report::Found(f) => Some(f),
                _ => None,
            })
            .collect();
        assert!(
            !found.is_empty(),
            "break aborted finds something in 3 seeds"
        );
        assert_eq!(
            reports.last(),
            Some(&Report::Finished {
                done: 3,
                found: found.len() as u64
            })
        );
        for f in found {
            // The link opens the replay on its last step: the scenario, then a narrated
            // `check` whose recorded verdict names the anomaly.
            let state = crate::scenario::share::decode(&f.link).expect("the link opens");
            assert!(
                state.scenario.starts_with(&f.scenario),
                "{}",
                state.scenario
            );
            let steps = crate::scenario::parse(&state.scenario)
                .expect("it parses")
                .steps;
            assert_eq!(state.step, steps.len());
            assert_eq!(steps.last().map(|s| s.text.as_str()), Some("check"));
            let (_, verdict) = state.scenario.split_once("\n---\n").expect("a verdict");
            assert!(
                verdict
                    .lines()
                    .any(|l| l.starts_with(&format!("{} ", f.anomaly))),
                "{}",
                state.scenario
            );
            assert!(f.step < state.step);
            assert!(f.after <= f.before);
            assert!(f.scenario.contains("break aborted"), "{}", f.scenario);
            assert_eq!(
                Report::decode(&Report::Found(f.clone()).encode()),
                Ok(Report::Found(f.clone()))
            );
        }
    }
}
