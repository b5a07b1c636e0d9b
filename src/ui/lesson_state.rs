//! The lesson player's state: which scenario is loaded and how far it has played.

use crate::scenario::{self, Replay};

/// A lesson (or another scenario) in the lesson player.
pub struct LessonState {
    /// Index into `scenario::lessons()`; None for a scenario from a link, a host page
    /// or the learner's own file.
    pub index: Option<usize>,
    /// The lesson's title (a built-in lesson's, or a name for the other kinds).
    pub title: String,
    /// The scenario text (what a share link carries).
    pub source: String,
    /// The scenario played so far: its world, each step's output, the last refusal.
    pub replay: Replay,
    /// The learner's answers: (question's source line, choice), the latest per question.
    answers: Vec<(usize, usize)>,
    /// The question answered last and how many answers were given (the page shows that
    /// answer in view: `browser::reveal_answer`).
    last_answer: Option<(usize, usize)>,
}

impl LessonState {
    /// `scenario` with its first `steps` player steps played (`scenario::player`).
    pub fn new(
        index: Option<usize>,
        title: String,
        source: String,
        scenario: scenario::Scenario,
        steps: usize,
    ) -> LessonState {
        LessonState {
            index,
            title,
            source,
            replay: Self::replay_to(scenario, steps),
            answers: Vec::new(),
            last_answer: None,
        }
    }

    /// Keeps the learner's `choice` for the question on source line `line` (a question
    /// answered again keeps the new choice).
    pub(super) fn answer(&mut self, line: usize, choice: usize) {
        match self.answers.iter_mut().find(|(l, _)| *l == line) {
            Some(a) => a.1 = choice,
            None => self.answers.push((line, choice)),
        }
        let given = self.last_answer.map_or(0, |(_, n)| n);
        self.last_answer = Some((line, given + 1));
    }

    /// The question answered last (its source line) and how many answers were given.
    pub fn last_answer(&self) -> Option<(usize, usize)> {
        self.last_answer
    }

    /// The choice made for the question on source line `line`, if any.
    pub fn chosen(&self, line: usize) -> Option<usize> {
        self.answers.iter().find(|(l, _)| *l == line).map(|a| a.1)
    }

    /// (answered right, answered, questions in the lesson). A question the learner
    /// passed without answering (the timeline, play-to-cursor) is not answered, not
    /// wrong.
    pub fn score(&self) -> (usize, usize, usize) {
        let mut score = (0, 0, 0);
        for q in scenario::question::questions(self.replay.scenario()) {
            let chosen = self.chosen(q.line);
            score.0 += usize::from(chosen == Some(q.answer()));
            score.1 += usize::from(chosen.is_some());
            score.2 += 1;
        }
        score
    }

    /// `scenario` played to player step `steps`, its notices and `print events` lines
    /// narrated in the page's language.
    fn replay_to(scenario: scenario::Scenario, steps: usize) -> Replay {
        #[cfg(feature = "checker")]
        let mut replay = Replay::watched(scenario, Some(crate::checker::watch));
        #[cfg(not(feature = "checker"))]
        let mut replay = Replay::new(scenario);
        replay.set_lang(crate::i18n::ui_lang());
        let _ = replay.play_player_to(steps);
        replay
    }

    /// After a language switch: the same step, replayed in the new language.
    pub(super) fn relang(&mut self) {
        self.replay = Self::replay_to(self.replay.scenario().clone(), self.replay.player_at());
    }

    /// Built-in lesson `index` with its first `steps` player steps played.
    pub(super) fn built_in(index: usize, steps: usize) -> Result<LessonState, String> {
        let lesson = scenario::lessons()
            .get(index)
            .ok_or_else(|| "no such lesson".to_string())?;
        let text = lesson
            .text()
            .ok_or_else(|| super::lesson_files::not_loaded(lesson.name))?;
        let parsed = scenario::parse(text).map_err(|e| e.to_string())?;
        Ok(LessonState::new(
            Some(index),
            lesson.title.to_string(),
            text.to_string(),
            parsed,
            steps,
        ))
    }

    /// Moves the player to player step `to`: one step forward is played (the rest of
    /// it, after a refused line), anything else is replayed from the start (exact: the
    /// engine is deterministic).
    pub(super) fn go_to(&mut self, to: usize) {
        let at = self.replay.player_at();
        let to = to.min(self.replay.player_len());
        if to == at + 1 {
            // A refusal stays in the replay and is shown.
            let _ = self.replay.play_player_step();
        } else if to != at {
            self.replay = Self::replay_to(self.replay.scenario().clone(), to);
        }
    }
}
