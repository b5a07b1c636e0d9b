//! Questions in a lesson: predict, then reveal.
//!
//! A question is asked before the player step that shows its answer. Its lines sit with
//! the narration just above a scenario line:
//!
//! ```text
//! ? The same batch arrives again. What does the broker answer?
//! ? [ko] 같은 배치가 다시 도착합니다. 브로커는 무엇이라고 답할까요?
//! ?+ NONE, with the first offset | The batch is in the window: a duplicate.
//! ?+ [ko] NONE, 처음 오프셋과 함께 | 배치가 윈도에 있습니다: 중복입니다.
//! ?- OUT_OF_ORDER_SEQUENCE_NUMBER | That answers a gap, not a repeat.
//! ?= DUPLICATE
//! ?! OUT_OF_ORDER_SEQUENCE_NUMBER
//! ```
//!
//! `?+` is the marked answer, `?-` a wrong one; after `|` comes what the learner reads
//! once they chose it (a wrong guess must teach something too). `?=` and `?!` are the
//! engine's side: text the output of the step that follows must show, and must not. The
//! lesson tests ([`check`]) play the lesson and fail when the output disagrees, so a
//! question can never teach what the engine contradicts.

use serde::Serialize;

use super::parse::{ParseError, Scenario};
use super::replay::Replay;
use crate::i18n::Lang;
use crate::i18n::Msg;

/// A text in English and, where written, other languages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Texts {
    pub en: String,
    pub other: Vec<(Lang, String)>,
}

impl Texts {
    /// The text in `lang`, else English.
    pub fn get(&self, lang: Lang) -> &str {
        self.other
            .iter()
            .find(|(l, _)| *l == lang)
            .map_or(self.en.as_str(), |(_, t)| t.as_str())
    }

    fn has(&self, lang: Lang) -> bool {
        lang == Lang::En || self.other.iter().any(|(l, _)| *l == lang)
    }
}

/// One choice: its text, what it teaches, and whether it is the marked answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub text: Texts,
    pub explanation: Texts,
    pub correct: bool,
}

/// A question asked before a step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Question {
    /// 1-based source line of its prompt.
    pub line: usize,
    pub prompt: Texts,
    pub choices: Vec<Choice>,
    /// Text the following player step's output shows when the marked answer is right.
    pub shows: Vec<String>,
    /// Text that output must not show.
    pub hides: Vec<String>,
}

impl Question {
    /// The marked answer's index.
    pub fn answer(&self) -> usize {
        self.choices.iter().position(|c| c.correct).unwrap_or(0)
    }

    /// What `lang` lacks of this question (for `eos lessons --missing`).
    pub fn missing_in(&self, lang: Lang) -> Vec<&'static str> {
        let mut out = Vec::new();
        if !self.prompt.has(lang) {
            out.push("question");
        }
        if self
            .choices
            .iter()
            .any(|c| !c.text.has(lang) || !c.explanation.has(lang))
        {
            out.push("choices");
        }
        out
    }
}

/// The most choices a question may offer.
pub const MAX_CHOICES: usize = 4;

/// Reads one `?` line into the questions being gathered for the next step. `rest` is
/// the line after its `?`.
pub(super) fn read_line(
    questions: &mut Vec<Question>,
    rest: &str,
    line: usize,
) -> Result<(), ParseError> {
    let err = |id: &'static str| ParseError {
        line,
        column: 1,
        why: Msg::new(id),
    };
    let (mark, body) = match rest.chars().next() {
        Some(c @ ('+' | '-' | '=' | '!')) => (Some(c), rest[1..].trim()),
        _ => (None, rest.trim()),
    };
    if body.is_empty() {
        return Err(err("parse.question-empty"));
    }
    let (lang, text) = super::parse::language_tag(body);
    let Some(mark) = mark else {
        match lang {
            None => questions.push(Question {
                line,
                prompt: Texts {
                    en: text.to_string(),
                    other: Vec::new(),
                },
                ..Question::default()
            }),
            Some(lang) => {
                let q = questions
                    .last_mut()
                    .filter(|q| q.choices.is_empty())
                    .ok_or_else(|| err("parse.question-translation"))?;
                q.prompt.other.push((lang, text.to_string()));
            }
        }
        return Ok(());
    };
    let q = questions
        .last_mut()
        .ok_or_else(|| err("parse.question-mark"))?;
    match mark {
        '=' => q.shows.push(text.to_string()),
        '!' => q.hides.push(text.to_string()),
        _ => {
            let (choice, explanation) = text
                .split_once('|')
                .map(|(c, e)| (c.trim(), e.trim()))
                .ok_or_else(|| err("parse.choice-form"))?;
            if choice.is_empty() || explanation.is_empty() {
                return Err(err("parse.choice-explanation"));
            }
            let correct = mark == '+';
            match lang {
                None => {
                    if q.choices.len() == MAX_CHOICES {
                        return Err(err("parse.choice-most"));
                    }
                    q.choices.push(Choice {
                        text: Texts {
                            en: choice.to_string(),
                            other: Vec::new(),
                        },
                        explanation: Texts {
                            en: explanation.to_string(),
                            other: Vec::new(),
                        },
                        correct,
                    });
                }
                Some(lang) => {
                    let c = q
                        .choices
                        .last_mut()
                        .filter(|c| c.correct == correct)
                        .ok_or_else(|| err("parse.choice-translation"))?;
                    c.text.other.push((lang, choice.to_string()));
                    c.explanation.other.push((lang, explanation.to_string()));
                }
            }
        }
    }
    Ok(())
}

/// Checks the questions gathered for one step once its lines are read: 2 to 4 choices,
/// one marked answer, and something for the engine to check.
pub(super) fn finish(questions: &[Question]) -> Result<(), ParseError> {
    for q in questions {
        let err = |id: &'static str| ParseError {
            line: q.line,
            column: 1,
            why: Msg::new(id),
        };
        if q.choices.len() < 2 {
            return Err(err("parse.choice-count"));
        }
        if q.choices.iter().filter(|c| c.correct).count() != 1 {
            return Err(err("parse.choice-answer"));
        }
        if q.shows.is_empty() {
            return Err(err("parse.question-shows"));
        }
    }
    Ok(())
}

/// One question the engine disagrees with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The question's source line.
    pub line: usize,
    pub why: String,
}

/// Plays `scenario` step by step and checks each question against the output of the
/// player step it is asked before: every `?=` text shown, no `?!` text. Returns how many
/// questions were checked, or every disagreement.
pub fn check(scenario: &Scenario) -> Result<usize, Vec<Disagreement>> {
    let mut replay = Replay::new(scenario.clone());
    let (mut checked, mut wrong) = (0, Vec::new());
    for range in replay.player_steps().to_vec() {
        let out = match replay.play_player_step() {
            Ok(out) => out,
            Err(e) => {
                wrong.push(Disagreement {
                    line: scenario.steps.get(range.start).map_or(0, |s| s.line),
                    why: format!("the step could not run: {e}"),
                });
                break;
            }
        };
        let text = out.lines.join("\n");
        for q in scenario.steps[range].iter().flat_map(|s| &s.questions) {
            checked += 1;
            for want in &q.shows {
                if !text.contains(want.as_str()) {
                    wrong.push(Disagreement {
                        line: q.line,
                        why: format!("the step's output does not show {want:?}:\n{text}"),
                    });
                }
            }
            for not in &q.hides {
                if text.contains(not.as_str()) {
                    wrong.push(Disagreement {
                        line: q.line,
                        why: format!("the step's output shows {not:?}:\n{text}"),
                    });
                }
            }
        }
    }
    if wrong.is_empty() {
        Ok(checked)
    } else {
        Err(wrong)
    }
}

/// Every question of a scenario, in order.
pub fn questions(scenario: &Scenario) -> impl Iterator<Item = &Question> {
    scenario.steps.iter().flat_map(|s| &s.questions)
}

/// The text of a scenario's questions, as the parser reads it back (`print`).
pub fn print(questions: &[Question], out: &mut String) {
    for q in questions {
        out.push_str(&format!("? {}\n", q.prompt.en));
        for (lang, text) in &q.prompt.other {
            out.push_str(&format!("? [{}] {text}\n", lang.code()));
        }
        for c in &q.choices {
            let mark = if c.correct { '+' } else { '-' };
            out.push_str(&format!("?{mark} {} | {}\n", c.text.en, c.explanation.en));
            for (lang, text) in &c.text.other {
                let explanation = c.explanation.get(*lang);
                out.push_str(&format!(
                    "?{mark} [{}] {text} | {explanation}\n",
                    lang.code()
                ));
            }
        }
        for s in &q.shows {
            out.push_str(&format!("?= {s}\n"));
        }
        for s in &q.hides {
            out.push_str(&format!("?! {s}\n"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;

    const SRC: &str = "\
topic create t
producer p create
> Send one record.
? One record is written at offset 0. What is the log end offset then?
? [ko] 레코드 하나가 오프셋 0에 쓰입니다. 그러면 로그 끝 오프셋은?
?+ 1 | The log end offset is the offset the next record will get.
?+ [ko] 1 | 로그 끝 오프셋은 다음 레코드가 받을 오프셋입니다.
?- 0 | 0 is the record's own offset; the end is one past it.
?- [ko] 0 | 0은 레코드 자신의 오프셋이고, 끝은 그다음입니다.
?= log end offset 1
?! log end offset 0
producer p send t-0 a
producer p flush
print leo t-0
";

    #[test]
    fn a_question_parses_with_its_translations() {
        let s = parse(SRC).expect("parses");
        let q = &s.steps[2].questions[0];
        assert_eq!(q.line, 4);
        assert_eq!(
            q.prompt.get(Lang::Ko),
            "레코드 하나가 오프셋 0에 쓰입니다. 그러면 로그 끝 오프셋은?"
        );
        assert_eq!(q.prompt.get(Lang::Th), q.prompt.en);
        assert_eq!(q.choices.len(), 2);
        assert_eq!(q.answer(), 0);
        assert_eq!(
            q.choices[1].explanation.get(Lang::Ko),
            "0은 레코드 자신의 오프셋이고, 끝은 그다음입니다."
        );
        assert_eq!(q.missing_in(Lang::Ko), Vec::<&str>::new());
        assert_eq!(q.missing_in(Lang::Th), vec!["question", "choices"]);
        // A question opens a player step of its own.
        assert_eq!(crate::scenario::player::player_steps(&s).len(), 3);
    }

    #[test]
    fn the_engine_checks_the_marked_answer() {
        let s = parse(SRC).expect("parses");
        let out = crate::scenario::Replay::to(s.clone(), usize::MAX);
        let printed: Vec<String> = out.outputs().iter().flat_map(|o| o.lines.clone()).collect();
        assert_eq!(printed, vec!["log end offset 1"]);
        assert_eq!(check(&s), Ok(1));
        // The same question claiming the end is 0: the engine disagrees.
        let wrong = parse(&SRC.replace(
            "?= log end offset 1\n?! log end offset 0",
            "?= log end offset 0",
        ))
        .expect("parses");
        let errs = check(&wrong).expect_err("the output shows 1");
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].line, 4);
        let hidden =
            parse(&SRC.replace("?! log end offset 0", "?! log end offset 1")).expect("parses");
        assert!(check(&hidden).is_err());
    }

    #[test]
    fn printing_keeps_the_questions() {
        let s = parse(SRC).expect("parses");
        let again = parse(&crate::scenario::print(&s)).expect("printed text parses");
        assert_eq!(again.steps[2].questions, s.steps[2].questions);
    }

    #[test]
    fn malformed_questions_are_refused_with_their_line() {
        for (src, line, says) in [
            ("?+ a | b\necho x\n", 1, "start it with"),
            ("? q\n?+ a | b\n?= a\necho x\n", 1, "2 to 4 choices"),
            ("? q\n?- a | b\n?- c | d\n?= a\necho x\n", 1, "exactly one"),
            ("? q\n?+ a | b\n?- c | d\necho x\n", 1, "`?= text`"),
            ("? q\n?+ a b\n", 2, "`?+ text | explanation`"),
            ("? q\n?+ a | b\n?- [ko] c | d\n", 3, "same `?+` or `?-`"),
            ("? [ko] q\n", 1, "English"),
            ("?\n", 1, "needs text"),
            (
                "? q\n?+ a | b\n?- a | b\n?- a | b\n?- a | b\n?- a | b\n",
                6,
                "at most 4",
            ),
        ] {
            let e = parse(src).expect_err(src);
            assert_eq!(e.line, line, "{src}");
            assert!(e.message().contains(says), "{src}: {}", e.message());
        }
        // Questions at the end with no step after them have nothing to be checked by.
        let e = parse("echo x\n? q\n?+ a | b\n?- c | d\n?= a\n").expect_err("trailing");
        assert!(e.message().contains("no step"), "{}", e.message());
    }
}
