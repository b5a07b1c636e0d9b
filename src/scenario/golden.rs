//! Scenario files with their expected output inline, so an edge case reads as the
//! steps and what they print (the idea of toyDB's goldenscript, our own code).
//!
//! After a step, a `---` line opens a block that runs to the next blank line and holds
//! what the steps since the previous block printed. The parser skips these blocks, so
//! the file is still a scenario for `eos run`; [`check`] runs it, compares, and renders
//! the file with the actual output in place (`UPDATE_SCENARIOS=1`, `eos test --update`).
//! A refused step prints `error: …` and the run carries on, so a failure is testable.

use super::{parse, MakeWatch, ParseError, Replay};

/// The line that opens an expected-output block.
pub const BLOCK_START: &str = "---";

/// An expected-output block: the `---` line (0-based) and the lines up to a blank line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Block {
    dash: usize,
    /// One past the block's last line (the blank line that ends it, or the file's end).
    end: usize,
    expected: Vec<String>,
}

/// The blocks of a source, in order.
fn blocks(lines: &[&str]) -> Vec<Block> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != BLOCK_START {
            i += 1;
            continue;
        }
        let dash = i;
        i += 1;
        while i < lines.len() && !lines[i].trim().is_empty() {
            i += 1;
        }
        out.push(Block {
            dash,
            end: i,
            expected: decode(&lines[dash + 1..i]),
        });
    }
    out
}

/// The output recorded in the block right under the step on `line` (1-based), if a
/// `---` line follows it directly. (A build without the checker plays a `check` so.)
#[cfg(not(feature = "checker"))]
pub(super) fn block_after(lines: &[&str], line: usize) -> Option<Vec<String>> {
    if lines.get(line)?.trim() != BLOCK_START {
        return None;
    }
    let body = &lines[line + 1..];
    let end = body
        .iter()
        .position(|l| l.trim().is_empty())
        .unwrap_or(body.len());
    Some(decode(&body[..end]))
}

/// Block lines as output lines: a block whose first line starts with `>` has every line
/// prefixed (`> text`, or `>` alone for an empty line), so output with blank lines fits.
fn decode(lines: &[&str]) -> Vec<String> {
    let prefixed = lines.first().is_some_and(|l| l.starts_with('>'));
    lines
        .iter()
        .map(|l| {
            let l = if prefixed {
                l.strip_prefix("> ")
                    .or_else(|| l.strip_prefix('>'))
                    .unwrap_or(l)
            } else {
                l
            };
            l.trim_end().to_string()
        })
        .collect()
}

/// Output lines as block lines (the inverse of [`decode`]).
pub fn encode(lines: &[String]) -> Vec<String> {
    let prefixed = lines.iter().any(|l| l.trim().is_empty())
        || lines.first().is_some_and(|l| l.starts_with('>'));
    lines
        .iter()
        .map(|l| match (prefixed, l.trim_end()) {
            (true, "") => ">".to_string(),
            (true, l) => format!("> {l}"),
            (false, l) => l.to_string(),
        })
        .collect()
}

/// Where a file's output differs from what it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// 1-based line of the `---` (or of the last step, for output no block covers).
    pub line: usize,
    /// 1-based lines of the first and last step whose output the block holds.
    pub steps: (usize, usize),
    pub expected: Vec<String>,
    pub actual: Vec<String>,
    /// No block covers this output (steps after the last `---`).
    pub uncovered: bool,
}

impl Mismatch {
    /// `FILE:LINE: …` and a unified-looking diff (`-` expected, `+` actual).
    pub fn report(&self, file: &str) -> String {
        let what = if self.uncovered {
            "print output no `---` block expects".to_string()
        } else {
            "differs from its `---` block".to_string()
        };
        let (a, b) = self.steps;
        let steps = if a == b {
            format!("line {a}")
        } else {
            format!("lines {a}..{b}")
        };
        let mut out = format!(
            "{file}:{}: the output of {steps} {what}\n--- expected\n+++ actual\n",
            self.line
        );
        for (sign, line) in diff(&self.expected, &self.actual) {
            out.push_str(&format!("{sign}{line}\n"));
        }
        out
    }
}

/// What checking a file found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub blocks: usize,
    pub mismatches: Vec<Mismatch>,
    /// The file with every block holding the actual output (comments and steps kept).
    pub updated: String,
}

/// Runs a scenario file and compares each step's output with its `---` block.
/// Errs only when the file does not parse. A `check` step fails here: see [`check_with`].
pub fn check(src: &str) -> Result<Checked, ParseError> {
    check_with(src, None)
}

/// As [`check`], with `check` steps watched by what `watch` makes
/// (`crate::checker::watch`).
pub fn check_with(src: &str, watch: Option<MakeWatch>) -> Result<Checked, ParseError> {
    let lines: Vec<&str> = src.lines().collect();
    let blocks = blocks(&lines);
    let scenario = parse(src)?;
    // actual[i]: what the steps before block i printed; actual[blocks.len()]: the rest.
    let mut actual: Vec<Vec<String>> = vec![Vec::new(); blocks.len() + 1];
    let mut spans: Vec<Option<(usize, usize)>> = vec![None; blocks.len() + 1];
    let mut replay = Replay::watched(scenario, watch);
    while let Some(step) = replay.current_step().cloned() {
        let lang = replay.lang();
        let printed = match replay.step() {
            Ok(output) => output.lines.clone(),
            Err(e) => vec![format!("error: {}", e.error.in_lang(lang))],
        };
        if replay.error().is_some() {
            replay.skip();
        }
        let at = blocks
            .iter()
            .position(|b| b.dash + 1 > step.line)
            .unwrap_or(blocks.len());
        let span = spans[at].get_or_insert((step.line, step.line));
        span.1 = step.line;
        actual[at].extend(printed.iter().map(|l| l.trim_end().to_string()));
    }
    let mut mismatches = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if block.expected != actual[i] {
            mismatches.push(Mismatch {
                line: block.dash + 1,
                steps: spans[i].unwrap_or((block.dash + 1, block.dash + 1)),
                expected: block.expected.clone(),
                actual: actual[i].clone(),
                uncovered: false,
            });
        }
    }
    let rest = &actual[blocks.len()];
    let trailing = spans[blocks.len()].filter(|_| !rest.is_empty());
    if let Some(span) = trailing {
        mismatches.push(Mismatch {
            line: span.1,
            steps: span,
            expected: Vec::new(),
            actual: rest.clone(),
            uncovered: true,
        });
    }
    Ok(Checked {
        blocks: blocks.len(),
        mismatches,
        updated: render(&lines, &blocks, &actual, trailing.map(|s| s.1)),
    })
}

/// The source with each block's lines replaced by the actual output; output after the
/// last block gets a new block under the step at `trailing_after` (1-based).
fn render(
    lines: &[&str],
    blocks: &[Block],
    actual: &[Vec<String>],
    trailing_after: Option<usize>,
) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    for (b, block) in blocks.iter().enumerate() {
        out.extend(lines[i..=block.dash].iter().map(|l| l.to_string()));
        out.extend(encode(&actual[b]));
        i = block.end;
    }
    for (n, line) in lines.iter().enumerate().skip(i) {
        out.push(line.to_string());
        if trailing_after == Some(n + 1) {
            out.push(BLOCK_START.to_string());
            out.extend(encode(&actual[blocks.len()]));
            if lines.get(n + 1).is_some_and(|l| !l.trim().is_empty()) {
                out.push(String::new());
            }
        }
    }
    out.join("\n") + "\n"
}

/// A line diff (longest common subsequence): `' '` same, `'-'` expected only, `'+'`
/// actual only. Blocks are a few lines, so the quadratic table is fine.
fn diff<'a>(expected: &'a [String], actual: &'a [String]) -> Vec<(char, &'a str)> {
    let (n, m) = (expected.len(), actual.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if expected[i] == actual[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n || j < m {
        if i < n && j < m && expected[i] == actual[j] {
            out.push((' ', expected[i].as_str()));
            (i, j) = (i + 1, j + 1);
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(('-', expected[i].as_str()));
            i += 1;
        } else {
            out.push(('+', actual[j].as_str()));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# a comment\ntopic create t\necho hello\n---\nhello\n\necho a\necho b\n---\nwrong\nb\n\necho tail\n# end\n";

    #[test]
    fn a_matching_block_passes_and_a_wrong_one_is_a_diff() {
        let c = check(FILE).unwrap();
        assert_eq!(c.blocks, 2);
        assert_eq!(c.mismatches.len(), 2, "{:?}", c.mismatches);
        let m = &c.mismatches[0];
        assert_eq!((m.line, m.steps), (9, (7, 8)));
        let report = m.report("f.eos");
        assert!(
            report.starts_with("f.eos:9: the output of lines 7..8"),
            "{report}"
        );
        assert!(report.contains("-wrong\n+a\n b\n"), "{report}");
        assert!(c.mismatches[1].uncovered);
    }

    #[test]
    fn update_keeps_comments_and_steps_and_then_passes() {
        let c = check(FILE).unwrap();
        assert_eq!(
            c.updated,
            "# a comment\ntopic create t\necho hello\n---\nhello\n\necho a\necho b\n---\na\nb\n\necho tail\n---\ntail\n\n# end\n"
        );
        let again = check(&c.updated).unwrap();
        assert!(again.mismatches.is_empty(), "{:?}", again.mismatches);
        assert_eq!(again.updated, c.updated);
    }

    #[test]
    fn errors_are_output_and_the_run_carries_on() {
        let c = check("topic create t partitions=0\n---\n\necho after\n---\nafter\n").unwrap();
        let m = &c.mismatches[0];
        assert_eq!(m.actual.len(), 1);
        assert!(m.actual[0].starts_with("error: "), "{:?}", m.actual);
        assert_eq!(c.mismatches.len(), 1);
    }

    #[test]
    fn blank_output_lines_round_trip_with_prefixes() {
        let out = vec!["a".to_string(), String::new(), "> b".to_string()];
        let enc = encode(&out);
        assert_eq!(enc, vec!["> a", ">", "> > b"]);
        let refs: Vec<&str> = enc.iter().map(String::as_str).collect();
        assert_eq!(decode(&refs), out);
    }
}
