//! What the chaos page lists: its findings grouped by anomaly. A search with a switch
//! on finds the same anomaly in most seeds (`dedup` shows a `duplicate` in 189 of the
//! first 200), and a counterexample each made a page tens of thousands of pixels long.
//! One entry per anomaly instead: how many seeds showed it, the shortest counterexample
//! (the fewest scenario steps) with its scenario and replay link, and the other seeds
//! as runs of numbers (`2–14, 16, 18–40`).
//!
//! Plain values and functions, so the page's component only renders them and they are
//! tested natively. Only the shortest counterexample of each anomaly is kept whole, so
//! a long search costs the page a seed number per finding, not a scenario.

use super::progress::Found;
use super::replay::count_steps;

/// The findings of one anomaly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The anomaly's name (`duplicate`, `G1a`, …).
    pub anomaly: String,
    /// How many seeds showed it.
    pub count: usize,
    /// The counterexample with the fewest scenario steps (the first found among equals).
    pub shortest: Found,
    /// How many steps its scenario has.
    pub steps: usize,
    /// Every other seed that showed it, in increasing order.
    pub other_seeds: Vec<u64>,
}

/// Findings grouped by anomaly, in the order each anomaly was first found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    groups: Vec<Group>,
    total: usize,
}

impl Findings {
    pub fn new() -> Findings {
        Findings::default()
    }

    /// Adds one finding to its anomaly's group (a new group for a new anomaly).
    pub fn add(&mut self, f: Found) {
        self.total += 1;
        let steps = count_steps(&f.scenario);
        let Some(g) = self.groups.iter_mut().find(|g| g.anomaly == f.anomaly) else {
            self.groups.push(Group {
                anomaly: f.anomaly.clone(),
                count: 1,
                shortest: f,
                steps,
                other_seeds: Vec::new(),
            });
            return;
        };
        g.count += 1;
        let other = if steps < g.steps {
            g.steps = steps;
            std::mem::replace(&mut g.shortest, f).seed
        } else {
            f.seed
        };
        // Seeds come in increasing order from a search: this is a push.
        let at = g.other_seeds.partition_point(|&s| s < other);
        g.other_seeds.insert(at, other);
    }

    /// One entry per anomaly.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// How many findings in all (seeds that showed an anomaly).
    pub fn total(&self) -> usize {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

/// The findings grouped by anomaly.
pub fn group(found: impl IntoIterator<Item = Found>) -> Findings {
    let mut out = Findings::new();
    for f in found {
        out.add(f);
    }
    out
}

/// Seeds in increasing order as runs: `2–4, 7, 9–10` (an en dash within a run), at
/// most `max` runs; the number of seeds left out comes back beside the text.
pub fn seed_runs(seeds: &[u64], max: usize) -> (String, usize) {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &s in seeds {
        match runs.last_mut() {
            Some((_, end)) if end.checked_add(1) == Some(s) => *end = s,
            _ => runs.push((s, s)),
        }
    }
    let shown = &runs[..runs.len().min(max)];
    let text = shown
        .iter()
        .map(|&(a, b)| match b - a {
            0 => a.to_string(),
            // Two seeds in a row read better apart.
            1 => format!("{a}, {b}"),
            _ => format!("{a}–{b}"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    let left: u64 = runs[shown.len()..].iter().map(|(a, b)| b - a + 1).sum();
    (text, usize::try_from(left).unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(seed: u64, anomaly: &str, steps: usize) -> Found {
        let mut scenario = "cluster brokers=1\n".to_string();
        for _ in 1..steps {
            scenario.push_str("run\n");
        }
        Found {
            seed,
            anomaly: anomaly.into(),
            witness: "chaos-0 values=i1 offsets=0,1 sent=1".into(),
            step: steps,
            before: 50,
            after: steps,
            link: format!("1.link-{seed}"),
            scenario,
        }
    }

    #[test]
    fn nothing_found_gives_no_group() {
        let none = group([]);
        assert!(none.is_empty() && none.groups().is_empty());
        assert_eq!(none.total(), 0);
    }

    #[test]
    fn one_entry_per_anomaly_with_its_count_shortest_and_other_seeds() {
        let mut all = Vec::new();
        // 170 duplicates, the shortest (9 steps) found late, a tie found later still.
        for seed in 1..=170 {
            let steps = match seed {
                120 | 150 => 9,
                _ => 12 + (seed as usize % 5),
            };
            all.push(found(seed, "duplicate", steps));
        }
        all.insert(3, found(900, "G1a", 14));
        all.push(found(901, "G1a", 13));
        let findings = group(all);
        assert_eq!(findings.total(), 172);
        let groups = findings.groups();
        assert_eq!(
            groups
                .iter()
                .map(|g| (g.anomaly.as_str(), g.count))
                .collect::<Vec<_>>(),
            vec![("duplicate", 170), ("G1a", 2)],
            "first found first"
        );
        let dup = &groups[0];
        assert_eq!((dup.shortest.seed, dup.steps), (120, 9));
        assert_eq!(dup.other_seeds.len(), 169);
        assert!(dup.other_seeds.windows(2).all(|w| w[0] < w[1]));
        assert!(!dup.other_seeds.contains(&120) && dup.other_seeds.contains(&150));
        let g1a = &groups[1];
        assert_eq!((g1a.shortest.seed, g1a.steps), (901, 13));
        assert_eq!(g1a.other_seeds, vec![900]);
        assert_eq!(g1a.shortest.link, "1.link-901");
        assert_eq!(seed_runs(&dup.other_seeds, 10).0, "1–119, 121–170");
    }

    #[test]
    fn seeds_read_as_runs_and_a_long_list_is_cut() {
        assert_eq!(seed_runs(&[], 5), (String::new(), 0));
        assert_eq!(
            seed_runs(&[2, 3, 4, 7, 9, 10, u64::MAX], 5),
            (format!("2–4, 7, 9, 10, {}", u64::MAX), 0)
        );
        let odd: Vec<u64> = (0..100).map(|i| 2 * i + 1).collect();
        let (text, left) = seed_runs(&odd, 3);
        assert_eq!((text.as_str(), left), ("1, 3, 5", 97));
    }
}
