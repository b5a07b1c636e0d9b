//! The scenario language: plain text, one step per line, `#` comments. Documented in
//! docs/scenarios.md. Errors name the line and column.

use serde::Serialize;

use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::sim::{Action, ClusterConfig, Direction, Fault, MessageMatch, MessageStrike, Node};

mod admin;
mod breaks;
mod clock;
mod cluster;
mod consumer;
#[cfg(feature = "log-cleaner")]
mod disk;
mod fault;
mod producer;
#[cfg(feature = "pulsar")]
pub mod pulsar;
mod raw;
#[cfg(feature = "set-epoch")]
mod set_epoch;
mod step;
mod tokens;
mod topic_admin;
mod transaction;
mod view;

use crate::i18n::catalog::render;
use crate::i18n::{Lang, Msg};
use crate::msg;
pub use fault::parse_node;
pub use step::{IdRef, ParseError, Scenario, Show, Step, StepKind, StepText, View};
use tokens::{
    arg1, config_value, got, id_ref, needs, next_partition, no_words, number, one_of,
    partitions_to_end, tokenize, topic_partition, unexpected, unknown_option, Cursor, Token, What,
};

/// Parses a whole scenario.
pub fn parse(src: &str) -> Result<Scenario, ParseError> {
    // A byte-order mark (some Windows editors write one) is no part of the first line.
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut steps = Vec::new();
    let mut notes = Notes::default();
    // The language of the paragraph a `>` line would continue (None: English).
    let mut open_paragraph: Option<Option<Lang>> = None;
    let mut in_expected = false;
    for (i, raw) in src.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = raw.trim();
        // An expected-output block (`---` up to a blank line) belongs to the test
        // runner (golden.rs), not to the scenario.
        if in_expected || trimmed == super::golden::BLOCK_START {
            in_expected = !trimmed.is_empty();
            continue;
        }
        if notes.narration_line(trimmed, &mut open_paragraph) {
            continue;
        }
        open_paragraph = None;
        // A question for the next step: `? prompt`, `?+`/`?-` choices, `?=`/`?!` checks.
        if let Some(rest) = trimmed.strip_prefix('?') {
            super::question::read_line(&mut notes.questions, rest, line_no)?;
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        // `echo [ko] …` or `label [ko] …` right under a step: what it prints, in Korean.
        if let Some((lang, text)) = printed_translation(trimmed) {
            let under = steps
                .last_mut()
                .filter(|s: &&mut Step| notes.is_empty() && s.prints_text_of(trimmed));
            let Some(step) = under else {
                return Err(ParseError {
                    line: line_no,
                    column: 1,
                    why: msg!("parse.translation-place"),
                });
            };
            translation(&mut step.translations, lang).printed = Some(text.to_string());
            continue;
        }
        super::question::finish(&notes.questions)?;
        let step_notes = std::mem::take(&mut notes);
        // `echo` keeps the rest of the line verbatim (after one space).
        if let Some(rest) = trimmed.strip_prefix("echo") {
            if rest.is_empty() || rest.starts_with(' ') {
                let text = rest.strip_prefix(' ').unwrap_or(rest).to_string();
                steps.push(step_notes.step(line_no, trimmed, StepKind::Echo(text)));
                continue;
            }
        }
        let tokens = tokenize(raw, line_no)?;
        if tokens.is_empty() {
            continue;
        }
        // Columns count characters, as an editor shows them (not UTF-8 bytes).
        let kind = parse_line(&tokens, line_no, raw.chars().count(), trimmed)?;
        // A later `cluster` line is not refused: it starts a fresh world (the runner),
        // so a lesson can tell its story again under other settings.
        steps.push(step_notes.step(line_no, trimmed, kind));
    }
    if let Some(q) = notes.questions.first() {
        return Err(ParseError {
            line: q.line,
            column: 1,
            why: msg!("parse.question-needs-step"),
        });
    }
    #[cfg(not(feature = "checker"))]
    recorded_checks(src, &mut steps)?;
    Ok(Scenario { steps })
}

/// What the lines above a step give it: its title, narration, their translations and
/// its questions.
#[derive(Default)]
struct Notes {
    title: Option<String>,
    narration: Vec<String>,
    translations: Vec<StepText>,
    questions: Vec<super::question::Question>,
}

impl Notes {
    fn is_empty(&self) -> bool {
        self.title.is_none()
            && self.narration.is_empty()
            && self.translations.is_empty()
            && self.questions.is_empty()
    }

    /// Reads a `## Title` line or a `> text` line (a bare `>` starts a new paragraph;
    /// `## [ko] …` and `> [ko] …` are the same in another language); false for any
    /// other line.
    fn narration_line(&mut self, line: &str, open_paragraph: &mut Option<Option<Lang>>) -> bool {
        if let Some(t) = line.strip_prefix("## ") {
            match language_tag(t) {
                (Some(lang), text) => {
                    translation(&mut self.translations, lang).title = Some(text.to_string())
                }
                (None, text) => self.title = Some(text.to_string()),
            }
            return true;
        }
        let Some(text) = line.strip_prefix('>') else {
            return false;
        };
        let (lang, text) = language_tag(text);
        let paragraphs = match lang {
            Some(lang) => &mut translation(&mut self.translations, lang).narration,
            None => &mut self.narration,
        };
        if text.is_empty() {
            *open_paragraph = None;
        } else if *open_paragraph == Some(lang) {
            if let Some(last) = paragraphs.last_mut() {
                last.push(' ');
                last.push_str(text);
            }
        } else {
            paragraphs.push(text.to_string());
            *open_paragraph = Some(lang);
        }
        true
    }

    /// The step of line `line` (`text`, trimmed) with these notes.
    fn step(self, line: usize, text: &str, kind: StepKind) -> Step {
        Step {
            line,
            text: text.to_string(),
            kind,
            title: self.title,
            narration: self.narration,
            translations: self.translations,
            questions: self.questions,
        }
    }
}

/// A build without the checker (the sites) plays a `check` only when the `---` block
/// right under it records what it printed (a chaos finding's replay: `eos chaos` and the
/// chaos page write them), and prints that block; any other `check` is refused.
#[cfg(not(feature = "checker"))]
fn recorded_checks(src: &str, steps: &mut [Step]) -> Result<(), ParseError> {
    let lines: Vec<&str> = src.lines().collect();
    for step in steps {
        let StepKind::Print(View::RecordedCheck(recorded)) = &mut step.kind else {
            continue;
        };
        match super::golden::block_after(&lines, step.line) {
            Some(block) => *recorded = block,
            None => {
                let raw = lines.get(step.line - 1).copied().unwrap_or_default();
                return Err(ParseError {
                    line: step.line,
                    column: raw.chars().take_while(|c| c.is_whitespace()).count() + 1,
                    why: msg!("parse.no-checker"),
                });
            }
        }
    }
    Ok(())
}

/// `[ko] text` → (Korean, "text"); text without a known tag is English. Only the codes
/// of the catalog's languages count, so `[optional]` stays text.
pub(super) fn language_tag(text: &str) -> (Option<Lang>, &str) {
    let text = text.trim();
    if let Some((tag, rest)) = text.strip_prefix('[').and_then(|t| t.split_once(']')) {
        if let Some(lang) = Lang::from_code(tag).filter(|l| l.code() == tag && *l != Lang::En) {
            return (Some(lang), rest.trim());
        }
    }
    (None, text)
}

/// `echo [ko] TEXT` / `label [th] TEXT` → (the language, TEXT), verbatim after the tag.
fn printed_translation(line: &str) -> Option<(Lang, &str)> {
    let rest = line
        .strip_prefix("echo [")
        .or_else(|| line.strip_prefix("label ["))?;
    let (tag, text) = rest.split_once(']')?;
    let lang = Lang::from_code(tag).filter(|l| l.code() == tag && *l != Lang::En)?;
    Some((lang, text.strip_prefix(' ').unwrap_or(text)))
}

/// The step text being gathered for `lang`.
fn translation(translations: &mut Vec<StepText>, lang: Lang) -> &mut StepText {
    if let Some(i) = translations.iter().position(|t| t.lang == lang) {
        return &mut translations[i];
    }
    translations.push(StepText {
        lang,
        title: None,
        narration: Vec::new(),
        printed: None,
    });
    translations.last_mut().expect("just pushed")
}

/// One step: a dispatch on its first word to its family's file under
/// `src/scenario/parse/` (the families of `World::apply`).
fn parse_line(
    tokens: &[Token],
    line: usize,
    end_column: usize,
    text: &str,
) -> Result<StepKind, ParseError> {
    let c = &mut Cursor {
        tokens,
        pos: 0,
        line,
        end_column,
    };
    let head = c.next(What::Id("parse.what.command"))?;
    match head.text.as_str() {
        #[cfg(feature = "pulsar")]
        "pulsar" => Ok(StepKind::Pulsar(pulsar::pulsar_step(c, text)?)),
        #[cfg(not(feature = "pulsar"))]
        "pulsar" => {
            let _ = text;
            Err(c.err(head.column, msg!("parse.no-pulsar")))
        }
        "cluster" => cluster::cluster_step(c),
        #[cfg(feature = "metadata-log")]
        "controller" => cluster::controller_step(c),
        "broker" => cluster::broker_step(c),
        "topic" => topic_admin::topic_step(c),
        "producer" => producer::producer_step(c),
        "consumer" => consumer::consumer_step(c),
        "raw" => raw::raw_step(c),
        "admin" => admin::admin_step(c),
        "hold" | "release" => fault::hold_step(c, head.text == "hold"),
        "drop" => fault::drop_step(c),
        "fault" => fault::fault_step(c).map(StepKind::Act),
        "break" => breaks::break_step(c).map(StepKind::Act),
        #[cfg(feature = "log-cleaner")]
        "snapshot" => disk::snapshot_step(c),
        #[cfg(feature = "log-cleaner")]
        "truncate" => disk::truncate_step(c),
        #[cfg(feature = "log-cleaner")]
        "clean" => disk::clean_step(c),
        // A site without the log cleaner and the disk steps (the main page, Pulsar's).
        #[cfg(not(feature = "log-cleaner"))]
        "snapshot" | "truncate" | "clean" => Err(c.err(head.column, msg!("parse.no-log-cleaner"))),
        #[cfg(feature = "set-epoch")]
        "set-epoch" => set_epoch::set_epoch_step(c, head),
        // A site without the playground's epoch shortcut (every web page).
        #[cfg(not(feature = "set-epoch"))]
        "set-epoch" => Err(c.err(head.column, msg!("parse.no-set-epoch"))),
        "step" => clock::step_step(c),
        "run" => clock::run_step(c),
        "check" => view::check_step(c),
        "print" => view::print_step(c),
        other => Err(c.err(head.column, arg1("parse.unknown-command", "word", other))),
    }
}

#[cfg(test)]
mod tests;
