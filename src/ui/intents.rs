//! The callbacks the panels take, each for one kind of intent: an engine action on a
//! page, a move in time, Play, step mode, a scroll of the batch table, closing a box,
//! a page tab, a language, and the lesson player's and the course's choices.
//! Made once for the app's life from its dispatch: Yew compares callbacks by pointer,
//! so callbacks made anew at each render would re-render every panel that takes one,
//! its data unchanged or not. Each turns a panel's intent into the app's one message
//! type ([`Msg`]), which the reducer alone applies.

use yew::Callback;

use super::state::{LinkMsg, Msg, Page, Panel, Travel};
use crate::i18n::Lang;
use crate::sim::Action;

#[derive(Clone, PartialEq)]
pub struct Intents {
    /// Every message: for the app's own glue (timers, the host page, the address), not
    /// for the panels.
    pub dispatch: Callback<Msg>,
    /// A click's engine action on the idempotence page and on the transactions page.
    act: (Callback<Action>, Callback<Action>),
    pub travel: Callback<Travel>,
    pub toggle_play: Callback<()>,
    pub step_mode: Callback<bool>,
    /// The batch table scrolled (`Msg::ScrollLog`).
    pub scroll_log: Callback<usize>,
    /// Close the share box (`LinkMsg::Close`).
    pub close_link: Callback<()>,
    /// Close the keyboard-shortcut sheet.
    pub close_shortcuts: Callback<()>,
    /// Open the keyboard-shortcut sheet.
    pub open_shortcuts: Callback<()>,
    /// A page tab clicked (`Msg::SetPage`).
    pub set_page: Callback<Page>,
    /// The language menu's choice, once its catalog is loaded (`Msg::SetLang`).
    pub set_lang: Callback<Lang>,
    /// The lesson player's and the course's.
    pub lesson: LessonIntents,
}

/// What the lesson player and the course can ask for.
#[derive(Clone, PartialEq)]
pub struct LessonIntents {
    /// Open built-in lesson `i` at its start, or None: back to the playground
    /// (`Msg::LoadLesson`).
    pub load: Callback<Option<usize>>,
    /// Open built-in lesson `index` at player step `step` (`Msg::ResumeLesson`).
    pub resume: Callback<(usize, usize)>,
    /// Play a file the learner chose: (title, source) (`Msg::LoadScenario`).
    pub load_file: Callback<(String, String)>,
    /// The answer `choice` to the question on source line `line` (`Msg::Answer`).
    pub answer: Callback<(usize, usize)>,
    pub travel: Callback<Travel>,
    pub toggle_play: Callback<()>,
    /// Auto-play's speed, in percent.
    pub speed: Callback<u32>,
    /// Auto-play runs on past explanations (true) or pauses there.
    pub run_on: Callback<bool>,
}

/// `dispatch` fed by `to`: a function, not a closure, so every callback of one input
/// type shares one piece of code in the wasm.
fn intent<T: 'static>(dispatch: &Callback<Msg>, to: fn(T) -> Msg) -> Callback<T> {
    dispatch.reform(to)
}

impl Intents {
    pub fn new(dispatch: Callback<Msg>) -> Intents {
        let travel = intent(&dispatch, Msg::Travel);
        let toggle_play = intent(&dispatch, |()| Msg::TogglePlay);
        Intents {
            act: (
                intent(&dispatch, |a| Msg::Act(Page::Idempotence, a)),
                intent(&dispatch, |a| Msg::Act(Page::Transactions, a)),
            ),
            open_shortcuts: intent(&dispatch, |()| Msg::Open(Panel::Shortcuts(true))),
            set_page: intent(&dispatch, Msg::SetPage),
            set_lang: intent(&dispatch, Msg::SetLang),
            lesson: LessonIntents {
                load: intent(&dispatch, Msg::LoadLesson),
                resume: intent(&dispatch, |(index, step)| Msg::ResumeLesson { index, step }),
                load_file: intent(&dispatch, |(title, source)| Msg::LoadScenario {
                    title,
                    source,
                }),
                answer: intent(&dispatch, |(line, choice)| Msg::Answer { line, choice }),
                travel: travel.clone(),
                toggle_play: toggle_play.clone(),
                speed: intent(&dispatch, Msg::SetSpeed),
                run_on: intent(&dispatch, Msg::SetRunOn),
            },
            travel,
            toggle_play,
            step_mode: intent(&dispatch, Msg::SetStepMode),
            scroll_log: intent(&dispatch, Msg::ScrollLog),
            close_link: intent(&dispatch, |()| Msg::Link(LinkMsg::Close)),
            close_shortcuts: intent(&dispatch, |()| Msg::Open(Panel::Shortcuts(false))),
            dispatch,
        }
    }

    /// A click's engine action on `page`.
    pub fn act(&self, page: Page) -> Callback<Action> {
        match page {
            Page::Idempotence => self.act.0.clone(),
            Page::Transactions => self.act.1.clone(),
        }
    }
}
