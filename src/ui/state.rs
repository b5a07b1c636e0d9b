//! The app state: one [`Reducible`] (yew's `function_todomvc` style) with a small
//! message set. [`Msg::Act`] applies one engine [`Action`] to a page — the same
//! enum lessons, links and tests use — and the other messages only move the UI: switch
//! page, open a panel, travel in time, step the lesson player, open a link.
//!
//! Each page keeps its own [`PageState`] (world, recorded actions, last error). A world
//! is too big to clone on every click, so the pages and the lesson live behind
//! `Rc<RefCell<…>>` and change in place, while the reducer still returns a *new*
//! `Rc<AppState>` with a bumped `version`: since yew 0.23 returning the same `Rc` does
//! not re-render, which is what a message that changes nothing does.

use std::cell::{Ref, RefCell, RefMut};
use std::rc::Rc;

use yew::prelude::*;

pub use super::lesson_state::LessonState;
use crate::log::TopicPartition;
use crate::scenario::{self, scenario_of, Replay, StepKind};
use crate::sim::{Action, World};
use crate::view::history::History;
use crate::view::page::{bench_setup, click, ClickContext, Setup};
pub use crate::view::page::{
    ErrorAt, Page, ADVANCE_MS, ADVANCE_STEP_MS, CONSUMER_RC, CONSUMER_RU, PRODUCER, TOPIC, TXN_ID,
    TXN_PRODUCER, TXN_PRODUCER_2, TXN_TOPIC,
};
use crate::view::txn_page::Kept;
pub use crate::view::validate::{lesson_file as parse_lesson, LessonFileError, MAX_LESSON_BYTES};

/// Why a lesson file was refused, in the page's language.
pub fn lesson_file_error(e: &LessonFileError) -> String {
    use crate::i18n::{t, tf, Key};
    match e {
        LessonFileError::TooBig { kb, max_kb } => {
            tf(Key::FileTooBig, &[&kb.to_string(), &max_kb.to_string()])
        }
        LessonFileError::Parse(e) => e.in_lang(crate::i18n::ui_lang()),
        LessonFileError::NoSteps => t(Key::FileNoSteps).to_string(),
    }
}

/// One playground page: its world, the learner's recorded actions on it, and what the
/// last click left behind.
pub struct PageState {
    pub world: World,
    pub history: History,
    /// Why the last click was refused (SimError's Display), and at which control.
    pub error: Option<(ErrorAt, String)>,
    /// What the last action that printed something printed (the raw panel's transcript).
    pub output: Vec<String>,
    /// The last click, done after stepping back, dropped this many recorded actions.
    pub forked: Option<usize>,
    /// The cluster and transaction rules the learner chose (`Page::setup_of`).
    pub setup: Setup,
    /// What the page's views keep of `world`'s events (`view::txn_page::Kept`): new
    /// whenever `world` is replaced.
    kept: RefCell<Kept>,
}

impl PageState {
    /// The steps a fresh `page` starts from (`?bench=N` preloads the transactions page).
    fn setup(page: Page, bench: Option<usize>, setup: Setup) -> Vec<StepKind> {
        let mut steps = page.setup_of(setup);
        if let (Page::Transactions, Some(n)) = (page, bench) {
            steps.extend(bench_setup(n));
        }
        steps
    }

    /// The page as a page load starts it.
    pub fn fresh(page: Page, bench: Option<usize>) -> PageState {
        Self::fresh_with(page, bench, Setup::default())
    }

    /// The page started afresh on the cluster the learner chose.
    pub fn fresh_with(page: Page, bench: Option<usize>, setup: Setup) -> PageState {
        let world =
            Replay::to(scenario_of(Self::setup(page, bench, setup)), usize::MAX).into_world();
        PageState {
            world,
            history: History::default(),
            error: None,
            output: Vec::new(),
            forked: None,
            setup,
            kept: RefCell::default(),
        }
    }

    /// Shows the world after `to` recorded actions (replayed on a fresh page world).
    fn travel(&mut self, page: Page, bench: Option<usize>, to: usize) {
        let to = to.min(self.history.entries.len());
        // One step forward (Play, →) plays that step on the shown world.
        if to == self.history.cursor + 1 {
            let lang = crate::i18n::ui_lang();
            if let Some(lines) = self.history.step_forward(&mut self.world, lang) {
                if !lines.is_empty() {
                    self.output = lines;
                }
                return;
            }
        }
        let (world, output) = self.history.replay(
            Self::setup(page, bench, self.setup),
            to,
            crate::i18n::ui_lang(),
        );
        self.world = world;
        self.kept = RefCell::default();
        self.output = output;
        self.history.cursor = to;
    }

    /// Applies one click's actions in order, stopping at the first refusal (shown at
    /// the control the click's first action names). The applied ones are recorded; a
    /// click after stepping back drops the recorded future.
    fn apply(&mut self, actions: Vec<Action>) {
        let mut done = 0;
        for action in &actions {
            let applied = match action {
                // Its retry line is worded in the page's language, as a replay words it.
                Action::RawInitProducerId => Ok(crate::i18n::transcript::raw_lines(
                    self.world.raw_init_producer_id(),
                    crate::i18n::ui_lang(),
                )),
                _ => self.world.apply(action),
            };
            match applied {
                Ok(lines) if !lines.is_empty() => self.output = lines,
                Ok(_) => {}
                Err(e) => {
                    let at = actions.first().map_or(ErrorAt::Cluster, ErrorAt::of);
                    self.error = Some((at, e.to_string()));
                    break;
                }
            }
            done += 1;
        }
        let mut actions = actions;
        actions.truncate(done);
        let dropped = self.history.record(actions);
        self.forked = (dropped > 0).then_some(dropped);
    }
}

/// The share box: the link made by "Copy link", and whether the clipboard took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkBox {
    pub url: String,
    /// None while the clipboard has not answered; Some(false): select the field instead.
    pub copied: Option<bool>,
}

/// What is chosen or open on the page; none of it changes a world.
#[derive(Clone, Debug, PartialEq)]
pub struct Panels {
    /// The partition the panels show (falls back to the latest one something happened on).
    pub selected_tp: Option<TopicPartition>,
    /// The batch whose header bytes are open: (segment base offset, position).
    pub selected_batch: Option<(i64, u64)>,
    /// Step-by-step mode (idempotence page): Send only accumulates.
    pub step_mode: bool,
    /// Auto-play: step through the recorded actions (or the lesson) once a second.
    pub playing: bool,
    /// The keyboard-shortcut sheet is open.
    pub shortcuts_open: bool,
    /// Auto-play's speed in percent (50 to 400): how long it waits on a step.
    pub speed: u32,
    /// Auto-play pauses at each explanation and question until Continue (the default);
    /// off, it runs on at the chosen speed.
    pub run_on: bool,
    /// Auto-play stopped at an explanation or a question: Play reads Continue.
    pub waiting: bool,
    /// The transactions page's batch table, scrolled back: its window ends this many
    /// batches before the newest (0: the newest).
    pub log_back: usize,
}

impl Panels {
    /// The speeds the Speed control offers, in percent.
    pub const SPEEDS: [u32; 5] = [50, 100, 150, 200, 400];
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            selected_tp: None,
            selected_batch: None,
            step_mode: false,
            playing: false,
            shortcuts_open: false,
            speed: 100,
            run_on: false,
            waiting: false,
            log_back: 0,
        }
    }
}

/// Links and files: what was made, and why something could not be opened or made.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notices {
    /// The last link made by "Copy link".
    pub link: Option<LinkBox>,
    /// Why the link the page was opened with could not be opened (LinkError::in_lang).
    pub link_error: Option<String>,
    /// Why "Copy link" made no link for this view (too long for a URL).
    pub link_refused: Option<String>,
    /// Why the lesson file the author opened could not be played (`name: line L,
    /// column C: …`); nothing was loaded.
    pub file_error: Option<String>,
    /// What is wrong with the page address's options (`?lesson=`, `step=`, `page=`) and
    /// what is shown instead.
    pub url_error: Option<String>,
    /// The language the opened share link was made in, to switch to once loaded.
    pub linked_lang: Option<crate::i18n::Lang>,
}

/// Everything the UI knows.
pub struct AppState {
    /// The page shown.
    pub page: Page,
    /// Each page's own state, by [`Page::index`].
    pub pages: Rc<[RefCell<PageState>; 2]>,
    /// The lesson being played, if any; while loaded, the panels show its world and the
    /// playground controls pause.
    pub lesson: Rc<RefCell<Option<LessonState>>>,
    pub panels: Panels,
    pub notices: Notices,
    /// `?bench=N`: the transactions world was preloaded with N batches (the page then
    /// reports its render times to `window.__eosRenderedAt`).
    pub bench: Option<usize>,
    /// The address's `lesson=`/`step=` (lesson index, step) while the lesson's file is
    /// being fetched (`ui::lesson_files`): the app starts it on arrival
    /// ([`Msg::StartLesson`]) and an embedded player says `eos:ready` only then.
    pub fetching_lesson: Option<(usize, usize)>,
    /// Changes on every reduce that changed something.
    pub version: u64,
}

/// A panel to open or close.
#[derive(Clone, Debug, PartialEq)]
pub enum Panel {
    /// Show this partition (and close the open batch).
    Partition(TopicPartition),
    /// Open (or close, with None) a batch's header bytes.
    Batch(Option<(i64, u64)>),
    /// Open or close the keyboard-shortcut sheet.
    Shortcuts(bool),
}

/// Where to move the player: the lesson's steps when a lesson is loaded, else the page's
/// recorded actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Travel {
    Back,
    Forward,
    /// The point after this many recorded actions (or lesson steps).
    To(usize),
}

/// The share box's messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkMsg {
    /// "Copy link" made this URL.
    Made(String),
    /// The clipboard took the link (true) or refused it (false: select the field).
    Copied(bool),
    /// "Copy link" could not make a link: why (LinkError::in_lang).
    Refused(String),
    /// Close the share box and the link error.
    Close,
}

/// What the UI can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A learner's click on a control of `page` (the page shown, or a panel of it in the
    /// compact view): this action, plus what makes its result visible
    /// (`view::page::click`). Paused while a lesson is loaded.
    Act(Page, Action),
    /// Start the page shown afresh (its recorded actions too).
    Reset,
    /// The cluster choice of a page: its own (false) or three brokers at
    /// replication.factor=3 (true); the page starts afresh on it.
    SetSetup(Page, Setup),
    /// Show a page.
    SetPage(Page),
    /// Step-by-step mode on the idempotence page.
    SetStepMode(bool),
    Open(Panel),
    Travel(Travel),
    /// Start or stop auto-play.
    TogglePlay,
    /// Auto-play's timer: one step forward, and stop at the end.
    PlayTick,
    /// Auto-play's speed, in percent.
    SetSpeed(u32),
    /// The batch table scrolled: show the window ending this many batches before the
    /// newest.
    ScrollLog(usize),
    /// Auto-play runs on (true) or pauses at each explanation and question (false).
    SetRunOn(bool),
    /// The learner chose `choice` for the loaded lesson's question on source line `line`.
    Answer {
        line: usize,
        choice: usize,
    },
    /// Load a lesson by index, or go back to the playground with None. On the main page
    /// a lesson's file is fetched first (`ui::lesson_files::fetch_then_start`).
    LoadLesson(Option<usize>),
    /// Load lesson `index` played up to `step` (fetching its file first if need be):
    /// "continue where you left off".
    ResumeLesson {
        index: usize,
        step: usize,
    },
    /// Load lesson `index` played up to `step`: the address's `lesson=`/`step=`, once
    /// the lesson's file is here.
    StartLesson {
        index: usize,
        step: usize,
    },
    /// Play a scenario text in the lesson player (from the host page or a file), at
    /// step 0; the title names it. A scenario that does not parse shows the error.
    LoadScenario {
        title: String,
        source: String,
    },
    /// Open a share link (the URL fragment without `#`).
    OpenLink(String),
    /// The page now speaks this language (its catalog is loaded: `ui::language`).
    SetLang(crate::i18n::Lang),
    Link(LinkMsg),
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new(Page::Idempotence, None)
    }
}

impl AppState {
    /// The state a page load starts with: `page` shown, and with `bench` the
    /// transactions world preloaded with that many batches.
    pub fn new(page: Page, bench: Option<usize>) -> Self {
        AppState {
            page,
            pages: Rc::new(Page::ALL.map(|p| RefCell::new(PageState::fresh(p, bench)))),
            lesson: Rc::new(RefCell::new(None)),
            panels: Panels::default(),
            notices: Notices::default(),
            bench,
            fetching_lesson: None,
            version: 0,
        }
    }

    /// A page's state.
    pub fn page_state(&self, page: Page) -> Ref<'_, PageState> {
        self.cell(page).borrow()
    }

    fn page_mut(&self, page: Page) -> RefMut<'_, PageState> {
        self.cell(page).borrow_mut()
    }

    fn cell(&self, page: Page) -> &RefCell<PageState> {
        match page {
            Page::Idempotence => &self.pages[0],
            Page::Transactions => &self.pages[1],
        }
    }

    /// Loads built-in lesson `index` played up to `step` (the page's `lesson=`/`step=`).
    /// On the main page, whose wasm has no lesson texts, the lesson's file is fetched
    /// first (`fetching_lesson`).
    pub fn start_lesson(&mut self, index: usize, step: usize) {
        let here = scenario::lessons()
            .get(index)
            .is_some_and(|l| l.text().is_some());
        if here {
            *self.lesson.borrow_mut() = LessonState::built_in(index, step).ok();
        } else {
            self.fetching_lesson = Some((index, step));
        }
    }

    /// The loaded built-in lesson's name (None for the playground or another scenario).
    /// The loaded lesson's last answer ([`LessonState::last_answer`]).
    pub fn last_answer(&self) -> Option<(usize, usize)> {
        self.lesson.borrow().as_ref()?.last_answer()
    }

    pub fn lesson_name(&self) -> Option<&'static str> {
        let index = self.lesson.borrow().as_ref()?.index?;
        scenario::lessons().get(index).map(|l| l.name)
    }

    /// True when the loaded lesson's next step was refused (the player stops there).
    pub fn lesson_failed(&self) -> bool {
        self.lesson
            .borrow()
            .as_ref()
            .is_some_and(|l| l.replay.error().is_some())
    }

    /// True while an author's own lesson (a file, a host page's or a link's scenario)
    /// is loaded: leaving the page asks first.
    pub fn authored_lesson(&self) -> bool {
        self.lesson
            .borrow()
            .as_ref()
            .is_some_and(|l| l.index.is_none())
    }

    /// True while a lesson is loaded (the panels show the lesson's world).
    pub fn lesson_loaded(&self) -> bool {
        self.lesson.borrow().is_some()
    }

    /// True when auto-play should wait for the reader before player step `n` (1-based)
    /// of the loaded lesson: it asks a question not yet answered, or it is not the first
    /// step and has an explanation to read. A page's recorded actions never wait.
    pub fn waits_before(&self, n: usize) -> bool {
        let lesson = self.lesson.borrow();
        let Some(l) = lesson.as_ref() else {
            return false;
        };
        let Some(range) = n
            .checked_sub(1)
            .and_then(|i| l.replay.player_steps().get(i))
        else {
            return false;
        };
        let steps = l
            .replay
            .scenario()
            .steps
            .get(range.clone())
            .unwrap_or_default();
        let asks = steps
            .iter()
            .flat_map(|s| &s.questions)
            .any(|q| l.chosen(q.line).is_none());
        asks || (n > 1 && steps.first().is_some_and(|s| !s.narration.is_empty()))
    }

    /// Where the shown player is and how far it can go: (position, end), for the lesson
    /// when one is loaded, else for the page's recorded actions.
    pub fn position(&self) -> (usize, usize) {
        if let Some(l) = self.lesson.borrow().as_ref() {
            return (l.replay.player_at(), l.replay.player_len());
        }
        let p = self.page_state(self.page);
        (p.history.cursor, p.history.entries.len())
    }

    /// Calls `f` with the world `page` shows: the lesson's, or the page's own.
    pub fn with_world<R>(&self, page: Page, f: impl FnOnce(&World) -> R) -> R {
        match self.lesson.borrow().as_ref() {
            Some(l) => f(l.replay.world()),
            None => f(&self.page_state(page).world),
        }
    }

    /// [`Self::with_world`], with what the page keeps of its own world's events (a
    /// lesson's world is read afresh).
    pub fn with_world_kept<R>(&self, page: Page, f: impl FnOnce(&World, &mut Kept) -> R) -> R {
        match self.lesson.borrow().as_ref() {
            Some(l) => f(l.replay.world(), &mut Kept::default()),
            None => {
                let p = self.page_state(page);
                let mut kept = p.kept.borrow_mut();
                f(&p.world, &mut kept)
            }
        }
    }

    /// Shows `page`'s world after `to` recorded actions (replayed from a fresh world).
    pub(super) fn travel(&mut self, page: Page, to: usize) {
        self.page_mut(page).travel(page, self.bench, to);
        self.panels.selected_batch = None;
    }

    /// Moves the shown player (lesson or recorded actions) to `to`.
    fn go_to(&mut self, to: usize) {
        if let Some(l) = self.lesson.borrow_mut().as_mut() {
            l.go_to(to);
            self.panels.selected_tp = None;
            self.panels.selected_batch = None;
            return;
        }
        self.travel(self.page, to);
    }

    /// True when `msg` would change nothing: the reducer then returns the same `Rc`,
    /// which does not re-render.
    fn unchanged_by(&self, msg: &Msg) -> bool {
        let (at, end) = self.position();
        match msg {
            Msg::Act(..) | Msg::Reset => self.lesson_loaded(),
            Msg::SetSetup(on, setup) => {
                self.lesson_loaded() || self.page_state(*on).setup == *setup
            }
            Msg::SetPage(page) => *page == self.page,
            Msg::Travel(Travel::Back) => at == 0,
            Msg::Travel(Travel::Forward) => at >= end || self.lesson_failed(),
            Msg::TogglePlay => !self.panels.playing && end == 0,
            Msg::PlayTick => !self.panels.playing,
            Msg::ScrollLog(back) => *back == self.panels.log_back,
            Msg::Open(Panel::Shortcuts(open)) => *open == self.panels.shortcuts_open,
            _ => false,
        }
    }

    /// The next state: the same pages and lesson, a new version, and the last click's
    /// error and fork notice gone (they describe one click).
    fn next(&self) -> AppState {
        for cell in self.pages.iter() {
            let mut p = cell.borrow_mut();
            p.error = None;
            p.forked = None;
        }
        AppState {
            page: self.page,
            pages: self.pages.clone(),
            lesson: self.lesson.clone(),
            panels: self.panels.clone(),
            notices: self.notices.clone(),
            bench: self.bench,
            fetching_lesson: self.fetching_lesson,
            version: self.version.wrapping_add(1),
        }
    }

    /// Loads `lesson` into the player (None: back to the playground).
    /// Built-in lesson `index` at player step `step` (None: back to the playground); an
    /// error (its file did not load) shows on `page`. A lesson whose file is not here yet
    /// waits in `fetching_lesson` for [`Msg::StartLesson`] (`ui::lesson_files`).
    fn load_built_in(&mut self, index: Option<usize>, step: usize, page: Page) {
        self.notices.file_error = None;
        let arrived = index.is_some() && self.fetching_lesson == index.map(|i| (i, step));
        let Some((i, built_in)) = index.and_then(|i| Some((i, scenario::lessons().get(i)?))) else {
            return self.load(None);
        };
        if built_in.text().is_none() && !arrived {
            self.load(None);
            self.page = Page::of_lesson(built_in.name);
            self.fetching_lesson = Some((i, step));
            return;
        }
        match LessonState::built_in(i, step) {
            Ok(lesson) => {
                // A lesson plays on the page it was written for.
                self.page = Page::of_lesson(built_in.name);
                self.load(Some(lesson));
            }
            Err(e) => {
                self.page_mut(page).error = Some((ErrorAt::Cluster, e));
                self.load(None);
            }
        }
    }

    fn load(&mut self, lesson: Option<LessonState>) {
        self.fetching_lesson = None;
        self.panels.playing = false;
        self.panels.waiting = false;
        self.panels.selected_tp = None;
        self.panels.selected_batch = None;
        *self.lesson.borrow_mut() = lesson;
    }
}

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        if self.unchanged_by(&msg) {
            return self;
        }
        let mut next = self.next();
        let page = self.page;
        match msg {
            Msg::Act(on, action) => {
                let mut state = self.page_mut(on);
                let cx = ClickContext {
                    step_mode: self.panels.step_mode,
                };
                let actions = click(on, action, &state.world, cx);
                state.apply(actions);
            }
            Msg::SetSetup(on, setup) => {
                *self.page_mut(on) = PageState::fresh_with(on, self.bench, setup);
            }
            Msg::Reset => {
                // Back to the page's start on the timeline: the recorded actions stay, so
                // a step forward (or Redo) undoes the reset; the next click forks.
                next.travel(page, 0);
            }
            Msg::SetPage(to) => {
                next.page = to;
                next.panels.playing = false;
            }
            Msg::SetStepMode(on) => next.panels.step_mode = on,
            Msg::Open(Panel::Partition(tp)) => {
                next.panels.selected_tp = Some(tp);
                next.panels.selected_batch = None;
            }
            Msg::Open(Panel::Batch(b)) => next.panels.selected_batch = b,
            Msg::Open(Panel::Shortcuts(open)) => next.panels.shortcuts_open = open,
            Msg::Travel(travel) => {
                next.panels.waiting = false;
                let (at, _) = self.position();
                next.go_to(match travel {
                    Travel::Back => at - 1,
                    Travel::Forward => at + 1,
                    Travel::To(to) => to,
                });
            }
            Msg::TogglePlay => {
                next.panels.waiting = false;
                if self.panels.playing {
                    next.panels.playing = false;
                } else if self.panels.waiting {
                    // Continue: the step the learner waited on runs now, and play goes on.
                    let (at, end) = self.position();
                    next.go_to(at + 1);
                    next.panels.playing = at + 1 < end && !next.lesson_failed();
                } else {
                    let (at, end) = self.position();
                    if at >= end {
                        // Play from the start again.
                        next.go_to(0);
                    }
                    next.panels.playing = true;
                }
            }
            Msg::PlayTick => {
                let (at, end) = self.position();
                if self.panels.run_on || !next.waits_before(at + 1) {
                    if at < end {
                        next.go_to(at + 1);
                    }
                    if at + 1 >= end || next.lesson_failed() {
                        next.panels.playing = false;
                    }
                } else {
                    // An explanation or a question comes next: the reader goes on.
                    next.panels.playing = false;
                    next.panels.waiting = true;
                }
            }
            Msg::SetSpeed(speed) => {
                if Panels::SPEEDS.contains(&speed) {
                    next.panels.speed = speed;
                }
            }
            Msg::SetRunOn(on) => next.panels.run_on = on,
            Msg::ScrollLog(back) => next.panels.log_back = back,
            Msg::Answer { line, choice } => {
                if let Some(l) = next.lesson.borrow_mut().as_mut() {
                    l.answer(line, choice);
                }
            }
            Msg::LoadLesson(index) => next.load_built_in(index, 0, page),
            Msg::ResumeLesson { index, step } => next.load_built_in(Some(index), step, page),
            // Only while the player still waits for that lesson (not after another choice).
            Msg::StartLesson { index, step } => {
                if self.fetching_lesson == Some((index, step)) {
                    next.load_built_in(Some(index), step, page)
                }
            }
            Msg::LoadScenario { title, source } => match parse_lesson(&source) {
                Ok(parsed) => {
                    next.notices.file_error = None;
                    next.load(Some(LessonState::new(None, title, source, parsed, 0)));
                }
                Err(e) => {
                    next.panels.playing = false;
                    next.panels.selected_tp = None;
                    next.panels.selected_batch = None;
                    next.notices.file_error = Some(format!("{title}: {}", lesson_file_error(&e)));
                }
            },
            Msg::OpenLink(link) => next.open_link(&link),
            // Every label and sentence changes: a new version re-renders the page.
            Msg::SetLang(lang) => {
                crate::i18n::set_ui_lang(lang);
                if let Some(l) = next.lesson.borrow_mut().as_mut() {
                    l.relang();
                }
            }
            Msg::Link(LinkMsg::Made(url)) => {
                next.notices.link = Some(LinkBox { url, copied: None });
                next.notices.link_refused = None;
            }
            Msg::Link(LinkMsg::Refused(why)) => {
                next.notices.link = None;
                next.notices.link_refused = Some(why);
            }
            Msg::Link(LinkMsg::Copied(ok)) => {
                if let Some(l) = next.notices.link.as_mut() {
                    l.copied = Some(ok);
                }
            }
            Msg::Link(LinkMsg::Close) => {
                next.notices.link = None;
                next.notices.link_error = None;
                next.notices.link_refused = None;
                next.notices.url_error = None;
            }
        }
        Rc::new(next)
    }
}
