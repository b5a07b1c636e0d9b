//! Share links in the page: what a link of the current view carries (the page's
//! recorded actions written as a scenario, or the lesson, at the current step; the open
//! partition and batch), opening one (all of it, or nothing and a message), and the
//! browser side of "Copy link" (address bar, clipboard). The format is `crate::scenario::share`'s.

use yew::Callback;

use super::browser::replace_address;
use super::state::{AppState, LessonState, LinkMsg, Msg, Page};
use crate::i18n::{catalog::render, t, ui_lang, Key};
use crate::log::TopicPartition;
use crate::msg;
use crate::scenario;
use crate::scenario::share::{self, SharedState};
use crate::sim::Action;
use crate::view::history::History;
use crate::view::page::Setup;

/// What a share link's `panel` holds besides the page, `;`-separated: `lesson` when the
/// scenario plays in the lesson player (otherwise it is the page's recorded actions,
/// restored onto its timeline), the partition the panels show, and the batch whose
/// header bytes are open: `lesson;partition=orders-0;batch=0:61`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenPanel {
    pub lesson: bool,
    pub partition: Option<TopicPartition>,
    /// (segment base offset, position), as [`super::state::Panels::selected_batch`].
    pub batch: Option<(i64, u64)>,
}

impl OpenPanel {
    /// The link's `panel` text; None when nothing is open.
    pub fn print(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.lesson {
            parts.push("lesson".to_string());
        }
        if let Some(tp) = &self.partition {
            parts.push(format!("partition={tp}"));
        }
        if let Some((segment, position)) = self.batch {
            parts.push(format!("batch={segment}:{position}"));
        }
        (!parts.is_empty()).then(|| parts.join(";"))
    }

    /// Reads a link's `panel` text; the error names the part it cannot read.
    pub fn parse(text: &str) -> Result<Self, share::BadPayload> {
        let mut panel = OpenPanel::default();
        for part in text.split(';').filter(|p| !p.is_empty()) {
            let bad = || share::BadPayload::Panel(part.to_string());
            match part.split_once('=') {
                None if part == "lesson" => panel.lesson = true,
                Some(("partition", tp)) => {
                    panel.partition = Some(TopicPartition::parse(tp).ok_or_else(bad)?)
                }
                Some(("batch", at)) => {
                    let (segment, position) = at.split_once(':').ok_or_else(bad)?;
                    panel.batch = Some((
                        segment.parse().map_err(|_| bad())?,
                        position.parse().map_err(|_| bad())?,
                    ));
                }
                _ => return Err(bad()),
            }
        }
        Ok(panel)
    }
}

/// The engine action a recorded step stands for (None: a step a click never makes).
fn step_action(kind: &scenario::StepKind) -> Option<Action> {
    use scenario::parse::IdRef;
    use scenario::StepKind;
    match kind {
        StepKind::Act(a) => Some(a.clone()),
        StepKind::RawProduce {
            tp,
            pid: IdRef::Value(pid),
            epoch: IdRef::Value(epoch),
            seq,
            txn,
            values,
            label,
            show: scenario::Show::Line,
        } => Some(Action::RawProduce {
            topic_partition: tp.clone(),
            producer_id: *pid,
            producer_epoch: i16::try_from(*epoch).ok()?,
            base_sequence: *seq,
            transactional_id: txn.clone(),
            values: values.clone(),
            label: label.clone(),
        }),
        _ => None,
    }
}

/// A page's recorded actions as a scenario: the page's setup, then each action's steps
/// under a `## Action N` heading (so a link restores them as the same actions).
/// An action the scenario language cannot write is an error, never left out: a link
/// must replay every action. The error is worded in the page's language.
pub fn history_scenario(
    page: Page,
    setup: Setup,
    history: &History,
) -> Result<(String, usize), String> {
    let line = |kind: &scenario::StepKind, what: &dyn Fn() -> crate::i18n::Msg| {
        scenario::print_step(kind)
            .map(|text| text + "\n")
            .ok_or_else(|| render(&msg!("link.unwritable", what = what()), ui_lang()))
    };
    let mut out = String::new();
    let setup = page.setup_of(setup);
    for kind in &setup {
        out += &line(kind, &|| msg!("link.unwritable.setup"))?;
    }
    let mut step = setup.len();
    for (i, entry) in history.entries.iter().enumerate() {
        out += &format!("## Action {}\n", i + 1);
        for a in &entry.actions {
            let what = || msg!("link.unwritable.action", n = i + 1, text = &entry.text);
            out += &line(&scenario::step_for_action(a.clone()), &what)?;
        }
        if i < history.cursor {
            step += entry.actions.len();
        }
    }
    Ok((out, step))
}

/// The recorded actions a shared scenario holds when it is a page's setup followed by
/// `## Action N` groups, and how many groups `step` covers; None when it is anything
/// else (it then plays in the lesson player). Tries each setup the page offers; says
/// which matched.
fn history_from(page: Page, parsed: &scenario::Scenario, step: usize) -> Option<(History, Setup)> {
    Setup::all()
        .find_map(|setup| history_of(page.setup_of(setup), parsed, step).map(|h| (h, setup)))
}

fn history_of(
    setup: Vec<scenario::StepKind>,
    parsed: &scenario::Scenario,
    step: usize,
) -> Option<History> {
    let steps = &parsed.steps;
    if steps.len() < setup.len() || steps.iter().zip(&setup).any(|(s, k)| &s.kind != k) {
        return None;
    }
    let mut history = History::default();
    let mut group: Vec<Action> = Vec::new();
    for s in steps.get(setup.len()..).unwrap_or_default() {
        if s.title.is_some() && !group.is_empty() {
            history.record(std::mem::take(&mut group));
        }
        group.push(step_action(&s.kind)?);
    }
    if !group.is_empty() {
        history.record(group);
    }
    // The step must fall between two actions (a point the timeline can show).
    let played = step.checked_sub(setup.len())?;
    let mut sum = 0;
    let mut cursor = (played == 0).then_some(0);
    for (i, e) in history.entries.iter().enumerate() {
        sum += e.actions.len();
        if sum == played {
            cursor = Some(i + 1);
        }
    }
    let cursor = cursor?;
    history.cursor = cursor;
    Some(history)
}

impl AppState {
    /// What a share link of the current view carries: the lesson (at its step) when
    /// one is loaded, else the page's recorded actions (at the timeline's point).
    pub fn shared_state(&self) -> Result<SharedState, String> {
        let mut panel = OpenPanel {
            lesson: false,
            partition: self.panels.selected_tp.clone(),
            batch: self.panels.selected_batch,
        };
        let mut lesson = None;
        let (scenario, step) = match self.lesson.borrow().as_ref() {
            // A built-in lesson, unchanged: named, not carried (it would not fit a URL).
            Some(l)
                if l.index
                    .and_then(|i| scenario::lessons().get(i))
                    .is_some_and(|b| b.is_source(&l.source)) =>
            {
                panel.lesson = true;
                lesson = l
                    .index
                    .and_then(|i| scenario::lessons().get(i))
                    .map(|b| b.name.to_string());
                (String::new(), l.replay.player_at())
            }
            Some(l) => {
                panel.lesson = true;
                (l.source.clone(), l.replay.player_at())
            }
            None => {
                let page = self.page_state(self.page);
                history_scenario(self.page, page.setup, &page.history)?
            }
        };
        Ok(SharedState {
            scenario,
            step,
            page: self.page.fragment().into(),
            panel: panel.print(),
            lang: Some(crate::i18n::ui_lang())
                .filter(|l| *l != crate::i18n::Lang::En)
                .map(|l| l.code().to_string()),
            lesson,
        })
    }

    /// "Copy link": the link fragment of the current view, or why there is none.
    pub fn share_link(&self) -> Result<String, String> {
        share::encode(&self.shared_state()?).map_err(|e| e.in_lang(crate::i18n::ui_lang()))
    }

    /// Opens a share link (the URL fragment without `#`): the view it describes, or,
    /// for a bad link, nothing but a message naming what is wrong.
    pub fn open_link(&mut self, link: &str) {
        // A link replaces a lesson still being fetched.
        self.fetching_lesson = None;
        let opened = share::decode(link)
            .and_then(|shared| {
                let panel = OpenPanel::parse(shared.panel.as_deref().unwrap_or_default())
                    .map_err(share::LinkError::BadPayload)?;
                Ok((shared, panel))
            })
            // Why, in the learner's language.
            .map_err(|e| e.in_lang(crate::i18n::ui_lang()));
        match opened {
            Err(why) => self.notices.link_error = Some(why),
            Ok((shared, panel)) => {
                self.notices.link_error = None;
                self.notices.linked_lang = shared
                    .lang
                    .as_deref()
                    .and_then(crate::i18n::Lang::from_code);
                self.restore(shared, &panel);
                // The panels show what the sharer had open (a partition or batch that is
                // not in the restored world just shows nothing selected).
                self.panels.selected_tp = panel.partition;
                self.panels.selected_batch = panel.batch;
            }
        }
    }

    /// Shows a decoded link's view.
    fn restore(&mut self, shared: SharedState, panel: &OpenPanel) {
        if let Some(name) = &shared.lesson {
            match scenario::lessons().iter().position(|l| l.name == *name) {
                Some(i) => {
                    *self.lesson.borrow_mut() = None;
                    self.page = Page::from_fragment(&shared.page);
                    self.panels.playing = false;
                    self.start_lesson(i, shared.step);
                }
                // A Pulsar lesson plays on the Pulsar page.
                None => {
                    self.notices.link_error =
                        Some(render(&msg!("link.pulsar-lesson", name = name), ui_lang()))
                }
            }
            return;
        }
        // `decode` already checked that the scenario parses and the step is in range.
        let Ok(parsed) = scenario::parse(&shared.scenario) else {
            return;
        };
        let page = Page::from_fragment(&shared.page);
        self.page = page;
        self.panels.playing = false;
        self.panels.selected_tp = None;
        self.panels.selected_batch = None;
        if !panel.lesson {
            if let Some((history, setup)) = history_from(page, &parsed, shared.step) {
                *self.lesson.borrow_mut() = None;
                let cursor = history.cursor;
                let mut state = self.pages[page.index()].borrow_mut();
                state.history = history;
                state.setup = setup;
                drop(state);
                self.travel(page, cursor);
                return;
            }
        }
        let index = scenario::lessons()
            .iter()
            .position(|l| l.is_source(&shared.scenario));
        let title = match index.and_then(|i| scenario::lessons().get(i)) {
            Some(l) => l.title.to_string(),
            None => t(Key::SharedScenarioTitle).to_string(),
        };
        *self.lesson.borrow_mut() = Some(LessonState::new(
            index,
            title,
            shared.scenario,
            parsed,
            shared.step,
        ));
    }
}

/// "Copy link": the link of the current view into the address bar (no new history entry)
/// and onto the clipboard, or the reason there is none.
pub fn copy_link(state: &AppState, dispatch: Callback<Msg>) {
    match state.share_link() {
        Ok(code) => {
            let url = replace_address(&format!("#{code}")).unwrap_or_else(|| format!("#{code}"));
            dispatch.emit(Msg::Link(LinkMsg::Made(url.clone())));
            copy_to_clipboard(&url, dispatch);
        }
        Err(why) => dispatch.emit(Msg::Link(LinkMsg::Refused(why))),
    }
}

/// Keeps the current view in the address bar (`history.replaceState`), as "Copy link"
/// does, so a reload restores it; a view too long for a link leaves the address as is.
pub fn keep_in_address(state: &AppState) {
    if let Ok(code) = state.share_link() {
        let _ = replace_address(&format!("#{code}"));
    }
}

/// True when a URL fragment is a share link (not empty, not a page name).
pub fn is_link(hash: &str) -> bool {
    let h = hash.trim_start_matches('#');
    !h.is_empty() && Page::parse(h).is_none()
}

/// `navigator.clipboard.writeText(text)`; tells the state whether it worked.
pub(super) fn copy_to_clipboard(text: &str, dispatch: Callback<Msg>) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    let write = || -> Option<js_sys::Promise> {
        let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
        let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).ok()?;
        let f = js_sys::Reflect::get(&clipboard, &"writeText".into())
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()?;
        f.call1(&clipboard, &text.into()).ok()?.dyn_into().ok()
    };
    match write() {
        Some(promise) => {
            let ok = dispatch.clone();
            let ok = Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(
                move |_: wasm_bindgen::JsValue| ok.emit(Msg::Link(LinkMsg::Copied(true))),
            );
            let err = Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(
                move |_: wasm_bindgen::JsValue| dispatch.emit(Msg::Link(LinkMsg::Copied(false))),
            );
            let _ = promise.then2(&ok, &err);
            // The promise settles once, later; the two small closures live until then
            // (and a little longer: one copy, two closures).
            ok.forget();
            err.forget();
        }
        None => dispatch.emit(Msg::Link(LinkMsg::Copied(false))),
    }
}
