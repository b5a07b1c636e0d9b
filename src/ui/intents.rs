//! The callbacks the panels take, each for one kind of intent: an engine action on a
//! page, a move in time, Play, step mode, a scroll of the batch table, closing a box.
//! Made once for the app's life from its dispatch: Yew compares callbacks by pointer,
//! so callbacks made anew at each render would re-render every panel that takes one,
//! its data unchanged or not. Each turns a panel's intent into the app's one message
//! type ([`Msg`]), which the reducer alone applies.

use yew::Callback;

use super::state::{LinkMsg, Msg, Page, Panel, Travel};
use crate::sim::Action;

#[derive(Clone, PartialEq)]
pub struct Intents {
    /// Every message (the lesson player, the course, the page tabs take it whole).
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
