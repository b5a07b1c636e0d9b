//! The callbacks the panels take, each for one kind of intent: an engine action on a
//! page, a move in time, Play, step mode, a scroll of the batch table, closing a box,
//! a language; and for the page tabs, the lesson player and the course, a handle whose
//! methods each send one kind of message (`NavIntents`, `LessonIntents`).
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
    /// The language menu's choice, once its catalog is loaded (`Msg::SetLang`).
    pub set_lang: Callback<Lang>,
    /// The page tabs'.
    pub nav: NavIntents,
    /// The lesson player's and the course's.
    pub lesson: LessonIntents,
}

/// What the page tabs can ask for: a page, the shortcut sheet. The methods are the
/// whole interface (the dispatch inside stays private), so the tabs cannot send any
/// other message; one callback type for all, as each new input type of a `Callback`
/// costs the wasm its own code.
#[derive(Clone, PartialEq)]
pub struct NavIntents(Callback<Msg>);

impl NavIntents {
    /// Show `page` (`Msg::SetPage`).
    pub fn page(&self, page: Page) {
        self.0.emit(Msg::SetPage(page));
    }

    /// Open the keyboard-shortcut sheet.
    pub fn open_shortcuts(&self) {
        self.0.emit(Msg::Open(Panel::Shortcuts(true)));
    }
}

/// What the lesson player and the course can ask for, and nothing else (as
/// [`NavIntents`]).
#[derive(Clone, PartialEq)]
pub struct LessonIntents(Callback<Msg>);

impl LessonIntents {
    /// Open built-in lesson `index` at its start, or None: back to the playground
    /// (`Msg::LoadLesson`; the app fetches the lesson's file first if need be).
    pub fn load(&self, index: Option<usize>) {
        self.0.emit(Msg::LoadLesson(index));
    }

    /// Open built-in lesson `index` at player step `step` (`Msg::ResumeLesson`).
    pub fn resume(&self, index: usize, step: usize) {
        self.0.emit(Msg::ResumeLesson { index, step });
    }

    /// Play a file the learner chose (`Msg::LoadScenario`).
    pub fn load_file(&self, title: String, source: String) {
        self.0.emit(Msg::LoadScenario { title, source });
    }

    /// The answer `choice` to the question on source line `line` (`Msg::Answer`).
    pub fn answer(&self, line: usize, choice: usize) {
        self.0.emit(Msg::Answer { line, choice });
    }

    pub fn travel(&self, to: Travel) {
        self.0.emit(Msg::Travel(to));
    }

    pub fn toggle_play(&self) {
        self.0.emit(Msg::TogglePlay);
    }

    /// Auto-play's speed, in percent.
    pub fn speed(&self, percent: u32) {
        self.0.emit(Msg::SetSpeed(percent));
    }

    /// Auto-play runs on past explanations (true) or pauses there.
    pub fn run_on(&self, on: bool) {
        self.0.emit(Msg::SetRunOn(on));
    }
}

/// `dispatch` fed by `to`: a function, not a closure, so every callback of one input
/// type shares one piece of code in the wasm.
fn intent<T: 'static>(dispatch: &Callback<Msg>, to: fn(T) -> Msg) -> Callback<T> {
    dispatch.reform(to)
}

impl Intents {
    pub fn new(dispatch: Callback<Msg>) -> Intents {
        Intents {
            act: (
                intent(&dispatch, |a| Msg::Act(Page::Idempotence, a)),
                intent(&dispatch, |a| Msg::Act(Page::Transactions, a)),
            ),
            travel: intent(&dispatch, Msg::Travel),
            toggle_play: intent(&dispatch, |()| Msg::TogglePlay),
            set_lang: intent(&dispatch, Msg::SetLang),
            nav: NavIntents(dispatch.clone()),
            lesson: LessonIntents(dispatch.clone()),
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
