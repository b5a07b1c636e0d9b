//! The app: which page (or the compact view) to show, the hooks on the window, and
//! what the pages share (event items, the lesson player's info, the time-travel panel).

use yew::prelude::*;

use crate::scenario;

use super::browser::{bench_param, listen_on, location_field, mark_rendered};
use super::components::lesson_panel::{LessonInfo, QuestionInfo};
use super::components::page_nav::PageNav;
use super::components::share_box::ShareBox;
use super::components::shortcuts::Shortcuts;
use super::components::time_travel::TimeTravel;
use super::embed;
use super::embed_view::{embed_page, use_embed_api};
use super::idempotence::idempotence_page;
use super::intents::Intents;
use super::link;
use super::state::{AppState, Msg, Page};
use super::transactions::TransactionsPage;
use crate::i18n::{t, ui_lang, Key};
use crate::view::txn_page::txn_views_kept;

/// The narration for the step just played: its `## Title` and `> text` paragraphs, or
/// those of the nearest step above it that has some (steps under one heading share it).
fn narration_for(steps: &[scenario::Step], done: usize) -> Vec<String> {
    let Some(last) = done.checked_sub(1) else {
        return Vec::new();
    };
    steps
        .get(..=last)
        .unwrap_or_default()
        .iter()
        .rev()
        .find(|s| s.title.is_some() || !s.narration.is_empty())
        .map(step_words)
        .unwrap_or_default()
}

/// A step's title (as `Title:`) and narration, in the page's language.
fn step_words(s: &scenario::Step) -> Vec<String> {
    let lang = ui_lang();
    s.title_in(lang)
        .map(|t| format!("{t}:"))
        .into_iter()
        .chain(s.narration_in(lang).iter().cloned())
        .collect()
}

/// Before the first step: the first step's narration introduces the lesson.
fn introduction(steps: &[scenario::Step]) -> Vec<String> {
    steps.first().map(step_words).unwrap_or_default()
}

/// What the lesson player shows of the loaded lesson (None: no lesson).
pub(super) fn lesson_info(state: &AppState) -> Option<LessonInfo> {
    let lesson = state.lesson.borrow();
    let Some(l) = lesson.as_ref() else {
        // A built-in lesson whose file is on its way: its title, no steps yet.
        let (i, _) = state.fetching_lesson?;
        let built_in = scenario::lessons().get(i)?;
        return Some(LessonInfo {
            index: Some(i),
            name: Some(built_in.name),
            title: built_in.title_in(ui_lang()).to_string(),
            loading: true,
            ..LessonInfo::default()
        });
    };
    let lang = ui_lang();
    // A built-in lesson's title in the page's language; other scenarios keep their name.
    let built_in = l.index.and_then(|i| scenario::lessons().get(i));
    let title = built_in.map_or_else(|| l.title.clone(), |b| b.title_in(lang).to_string());
    // The player counts player steps (`scenario::player`); narration is per line.
    let done = l.replay.player_at();
    let steps = &l.replay.scenario().steps;
    let why = if done == 0 {
        introduction(steps)
    } else {
        narration_for(steps, l.replay.at())
    };
    let ranges = l.replay.player_steps();
    // The questions asked before the next step: predict, then press Next.
    let questions = ranges
        .get(done)
        .and_then(|r| steps.get(r.clone()))
        .unwrap_or_default()
        .iter()
        .flat_map(|s| &s.questions)
        .map(|q| QuestionInfo::of(q, lang, l.chosen(q.line)))
        .collect();
    // The glossary terms the steps before this one used: each is marked once a lesson.
    let shown_from = ranges
        .get(done.saturating_sub(1))
        .map_or(0, |r| r.start)
        .min(if done == 0 { 0 } else { usize::MAX });
    let before: String = steps
        .get(..shown_from)
        .unwrap_or_default()
        .iter()
        .flat_map(step_words)
        .collect::<Vec<_>>()
        .join(" ");
    let terms = crate::i18n::glossary::terms(lang);
    let terms_seen = crate::i18n::glossary::used_in(&before, &terms)
        .into_iter()
        .map(|t| t.id)
        .collect();
    // What the step just run changed: marked on the page and named in the player.
    let changed = done
        .checked_sub(1)
        .and_then(|i| l.replay.player_output(i))
        .map(|o| {
            let events = l.replay.world().events().get(o.events).unwrap_or_default();
            crate::view::changed::changed_parts(events)
                .iter()
                .map(|p| p.code())
                .collect()
        })
        .unwrap_or_default();
    let mut titles = Vec::with_capacity(ranges.len());
    let mut heading = String::new();
    for r in ranges {
        // Steps under one heading share it.
        if let Some(t) = steps.get(r.start).and_then(|s| s.title_in(lang)) {
            heading = t.to_string();
        }
        titles.push(heading.clone());
    }
    Some(LessonInfo {
        why,
        index: l.index,
        name: built_in.map(|b| b.name),
        title,
        steps: ranges
            .iter()
            .map(|r| {
                let lines = steps.get(r.clone()).unwrap_or_default();
                let text: Vec<&str> = lines.iter().map(|s| s.text.as_str()).collect();
                (lines.first().map_or(0, |s| s.line), text.join("\n"))
            })
            .collect(),
        titles,
        done_steps: done,
        output: done
            .checked_sub(1)
            .and_then(|i| l.replay.player_output(i))
            .map(|o| o.lines)
            .unwrap_or_default(),
        error: l.replay.error().map(|e| e.in_lang(l.replay.lang())),
        loading: false,
        questions,
        changed,
        terms_seen,
        score: l.score(),
        speed: state.panels.speed,
        run_on: state.panels.run_on,
        waiting: state.panels.waiting,
    })
}

/// The time-travel panel of the page shown (its recorded actions).
pub(super) fn time_travel(state: &AppState, intents: &Intents) -> Html {
    let page = state.page_state(state.page);
    let entries: Vec<String> = page
        .history
        .entries
        .iter()
        .map(|e| e.text.clone())
        .collect();
    html! {
        <TimeTravel {entries} cursor={page.history.cursor} forked={page.forked} playing={state.panels.playing} on_travel={intents.travel.clone()} on_play={intents.toggle_play.clone()} />
    }
}

/// The page shown, with its lesson player: the site's and the lesson editor's.
pub(super) fn page_view(
    state: &AppState,
    intents: &Intents,
    lesson: Option<LessonInfo>,
    lessons: Vec<(&'static str, &'static str)>,
) -> Html {
    match state.page {
        Page::Idempotence => idempotence_page(state, intents, lesson, lessons),
        Page::Transactions => {
            let back = state.panels.log_back;
            let views = std::rc::Rc::new(state.with_world_kept(Page::Transactions, |w, kept| {
                txn_views_kept(w, ui_lang(), back, kept)
            }));
            let error = state.page_state(Page::Transactions).error.clone();
            let time_travel = if lesson.is_none() {
                time_travel(state, intents)
            } else {
                Html::default()
            };
            html! {
                <TransactionsPage {views} {lesson} {lessons} {error} intents={intents.clone()} {time_travel} playing={state.panels.playing} file_error={state.notices.file_error.clone()} step_mode={state.panels.step_mode} setup={state.page_state(Page::Transactions).setup} />
            }
        }
    }
}

/// Listens for the keyboard shortcuts on the whole page (see [`super::keys`]).
#[hook]
fn use_shortcuts(dispatch: Callback<Msg>, off: bool) {
    use_effect_with((), move |_| {
        use wasm_bindgen::JsCast;
        listen_on(
            web_sys::window().filter(|_| !off),
            "keydown",
            move |e: &web_sys::Event| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if let Some(msg) = super::keys::event_msg(e) {
                    if msg == Msg::TogglePlay {
                        // Space would scroll the page too.
                        e.prevent_default();
                    }
                    dispatch.emit(msg);
                }
            },
        )
    });
}

/// Keeps the address up to date as the learner works: the current view's link, written
/// half a second after the last change (debounced: one write per burst of clicks).
/// While Play runs, once when it stops: each write is a same-document navigation that
/// also reloads the favicon, a few ms of the main thread in the middle of a step's
/// animation.
#[hook]
fn use_keep_address(state: &UseReducerHandle<AppState>, on: bool) {
    let state = state.clone();
    let playing = state.panels.playing;
    use_effect_with((state.version, playing), move |(version, playing)| {
        let timeout = (on && *version > 0 && !*playing).then(|| {
            gloo_timers::callback::Timeout::new(500, move || link::keep_in_address(&state))
        });
        move || drop(timeout)
    });
}

/// While an author's lesson is loaded, leaving the page (reload, close, navigate) asks
/// first (`beforeunload`).
#[hook]
fn use_leave_guard(active: bool) {
    use_effect_with(active, move |active| {
        let window = web_sys::window().filter(|_| *active);
        listen_on(window, "beforeunload", |e: &web_sys::Event| {
            e.prevent_default();
            let _ = js_sys::Reflect::set(e, &"returnValue".into(), &"".into());
        })
    });
}

/// Auto-play: while playing, one step after a pause long enough to read what the step
/// shows (`reading_ms`), at the chosen speed (a timer per step, so a manual step in
/// between starts the pause again).
#[hook]
pub(super) fn use_autoplay(playing: bool, version: u64, delay_ms: u32, dispatch: Callback<Msg>) {
    use_effect_with((playing, version), move |(playing, _)| {
        // Dropping a gloo `Timeout` clears it.
        let timeout = playing.then(|| {
            gloo_timers::callback::Timeout::new(delay_ms, move || dispatch.emit(Msg::PlayTick))
        });
        move || drop(timeout)
    });
}

/// How long auto-play stays on the step shown: a second, plus a third of a second for
/// each word of its explanation (about 180 words a minute), at most 30 s, divided by the
/// speed. A page's recorded actions have no words: one second a step, as before.
pub(super) fn reading_ms(state: &AppState) -> u32 {
    let words: usize = lesson_info(state).map_or(0, |l| {
        l.why.iter().map(|w| w.split_whitespace().count()).sum()
    });
    let at_1x = (1000 + 333 * words as u32).min(30_000);
    at_1x * 100 / state.panels.speed.max(1)
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The page to start on; None: the URL fragment decides (`#transactions`).
    #[prop_or_default]
    pub page: Option<Page>,
    /// Keep the address up to date with the current view (the site: true; a test that
    /// mounts the app leaves the runner's address alone).
    #[prop_or_default]
    pub keep_address: bool,
    /// The warm-up's scratch copy (`super::warm`), in a detached element: it plays each
    /// kind of click once, with no window listener, no address, no language switch.
    #[prop_or_default]
    pub warm: bool,
}

/// The app's first state: a warm-up copy's page as it is; else the address's share
/// link, lesson and step (a link's fragment wins over `?lesson=`/`step=`), and why any
/// option of the address was refused.
fn initial_state(start: Option<Page>, warm: bool) -> AppState {
    if let (Some(page), true) = (start, warm) {
        return AppState::new(page, None);
    }
    let options = embed::parse_options(&location_field("search").unwrap_or_default());
    let hash = location_field("hash").unwrap_or_default();
    // The address's fragment, kept up to date as the learner works, wins over
    // `?lesson=`/`step=`: a reload shows where the learner was.
    let linked = start.is_none() && link::is_link(&hash);
    let page = start.unwrap_or_else(|| options.start_page(Page::from_fragment(&hash)));
    let mut state = AppState::new(page, bench_param());
    if linked {
        // A share link restores its page, scenario and step — or explains why not.
        state.open_link(hash.trim_start_matches('#'));
    } else if let (None, Some(i)) = (start, options.lesson_index()) {
        state.start_lesson(i, options.step.unwrap_or(0));
    }
    if start.is_none() {
        let problems = options.problems(state.page);
        state.notices.url_error = (!problems.is_empty()).then(|| problems.join(" "));
    }
    state
}

/// A built-in lesson wanted (`?lesson=`, a lesson link, the course's buttons) on the
/// main page, whose wasm has no lesson texts: the lesson starts once its file is
/// fetched (`lesson_files`; where the texts are compiled in, it starts at once). The
/// one place that fetches: each lesson file is fetched once.
#[hook]
fn use_lesson_fetch(wanted: Option<(usize, usize)>, dispatch: Callback<Msg>) {
    use_effect_with(wanted, move |wanted| {
        if let Some((index, step)) = *wanted {
            super::lesson_files::fetch_then_start(index, step, &dispatch);
        }
    });
}

/// Back/forward and typed fragments switch pages (or open a share link) too.
#[hook]
fn use_hash_change(dispatch: Callback<Msg>, warm: bool) {
    use_effect_with((), move |_| {
        listen_on(
            web_sys::window().filter(|_| !warm),
            "hashchange",
            move |_| {
                let hash = location_field("hash").unwrap_or_default();
                if link::is_link(&hash) {
                    dispatch.emit(Msg::OpenLink(hash.trim_start_matches('#').to_string()));
                } else {
                    dispatch.emit(Msg::SetPage(Page::from_fragment(&hash)));
                }
            },
        )
    });
}

/// The learner's progress through the course, kept in the browser, and the step
/// followed in the address.
#[hook]
fn use_progress(state: &AppState, warm: bool) {
    let (name, (at, end)) = (state.lesson_name(), state.position());
    let loaded = state.lesson.borrow().is_some();
    let answer = state.last_answer();
    use_effect_with(
        (name, at, end, loaded, answer),
        move |(name, at, end, loaded, answer)| {
            if let (Some(name), false) = (name, warm) {
                super::progress::record(name, *at, *end);
            }
            if !warm {
                // A lesson is known by its name's address (a learner's own: 0).
                let lesson = loaded.then(|| name.map_or(0, |n| n.as_ptr() as usize));
                super::browser::reveal_answer(lesson, *answer);
                super::browser::follow_step(lesson, *at);
            }
        },
    );
}

/// The skip link moves focus to `#main` without touching the fragment (which names
/// the page).
fn skip_to_main(e: MouseEvent) {
    e.prevent_default();
    let main = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("main"));
    if let Some(main) =
        main.and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok())
    {
        let _ = main.focus();
    }
}

/// The playground: the page tabs and the page shown. The one reducer lives here.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let (start, warm) = (props.page, props.warm);
    let state = use_reducer(move || initial_state(start, warm));
    // The address's options, and the panels' callbacks made once for the app's life
    // (`super::intents`); one hook for both.
    let once = {
        let dispatcher = state.dispatcher();
        use_memo((), move |_| {
            (
                embed::parse_options(&location_field("search").unwrap_or_default()),
                Intents::new(Callback::from(move |m: Msg| dispatcher.dispatch(m))),
            )
        })
    };
    let (options, intents) = (&once.0, &once.1);
    let embedded = props.page.is_none() && options.embed;
    let dispatch = intents.dispatch.clone();
    use_lesson_fetch(state.fetching_lesson, dispatch.clone());
    use_hash_change(dispatch.clone(), warm);
    {
        let bench = state.bench.is_some() && !warm;
        use_effect(move || {
            if bench {
                mark_rendered();
            }
        });
    }
    // The first language: `?lang=` or the browser's is in force before the mount
    // (`language::then_mount`); a share link's is known only now (fetched if need be).
    {
        let set_lang = intents.set_lang.clone();
        let (url, link) = (options.lang, state.notices.linked_lang);
        use_effect_with((), move |_| {
            let lang = super::language::initial(url, link);
            if lang != ui_lang() && !warm {
                super::language::choose(lang, set_lang);
            }
        });
    }
    use_shortcuts(dispatch.clone(), warm);
    let copy_link = {
        let state = state.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| link::copy_link(&state, dispatch.clone()))
    };
    use_embed_api(&state, dispatch.clone(), options.origins.clone(), warm);
    super::warm::use_warm_up(warm, state.dispatcher(), state.page);
    use_autoplay(
        state.panels.playing,
        state.version,
        reading_ms(&state),
        dispatch.clone(),
    );
    use_keep_address(&state, props.keep_address && !embedded);
    use_progress(&state, warm);
    use_leave_guard(state.authored_lesson());
    let lesson = lesson_info(&state);
    let lessons: Vec<(&'static str, &'static str)> = scenario::lessons()
        .iter()
        .map(|l| (l.name, l.title_in(ui_lang())))
        .collect();
    // Keyed by the language: a switch re-creates every component, so each one renders
    // its words anew (most skip a render when their props are unchanged). The keyed
    // fragment sits inside a list: Yew compares keys among siblings, never a root's own.
    let lang_key = ui_lang().code();
    if embedded {
        return html! {
            <>
                <key={lang_key}>
                    { embed_page(&state, intents, &options.panels, lesson, lessons) }
                    if state.panels.shortcuts_open {
                        <Shortcuts on_close={intents.close_shortcuts.clone()} />
                    }
                </>
            </>
        };
    }
    let page = page_view(&state, intents, lesson, lessons);
    html! {
        <>
            <key={lang_key}>
                <a class="skip-link" href="#main" onclick={Callback::from(skip_to_main)}>{ t(Key::SkipToMain) }</a>
                <PageNav current={state.page} intents={intents.nav.clone()} on_lang={intents.set_lang.clone()} on_copy_link={copy_link} />
                <ShareBox link={state.notices.link.clone()} error={state.notices.link_error.clone()} refused={state.notices.link_refused.clone()} url_error={state.notices.url_error.clone()} on_close={intents.close_link.clone()} />
                { page }
                if state.panels.shortcuts_open {
                    <Shortcuts on_close={intents.close_shortcuts.clone()} />
                }
            </>
        </>
    }
}
