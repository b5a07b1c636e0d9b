//! The lesson editor (its own entry, `www/editor.html`, bin `eos-editor`): a course
//! author's scenario text beside the running world. The text is parsed as it is typed
//! (the parser's line and column, marked in the line numbers); once it parses, the
//! same lesson player and panels as the main page play it (`super::app::page_view`),
//! at the step the author was on. Any step is one click away, and "play to the cursor"
//! (a button, or Ctrl+Enter in the text) plays up to the step the caret is on. "Copy link" makes the
//! main page's share link of the lesson; "Download .eos" saves the file the main
//! page's lesson player and the embed API's `eos:load` open (both read it with
//! [`parse_lesson`]). The text is kept in the browser, so a reload loses nothing.
//!
//! Its own entry because the main page's wasm has no room for it (docs/size.md).

use yew::prelude::*;

use super::app::{lesson_info, page_view, reading_ms, use_autoplay};
use super::components::lesson_panel::LessonInfo;
use super::components::share_box::ShareBox;
use super::state::{
    lesson_file_error, parse_lesson, AppState, LessonFileError, LinkMsg, Msg, Page, Travel,
};
use crate::i18n::{catalog::render, t, ui_lang, Key};
use crate::msg;

/// Where the text is kept between visits (`localStorage`).
const STORE_KEY: &str = "eos-editor-text";
/// How long typing must pause before the world replays the text.
const REPLAY_AFTER_MS: u32 = 300;
/// The file name "Download .eos" gives the lesson.
const FILE_NAME: &str = "lesson.eos";

/// A word of the editor page, in the page's language (`editor.*` in the catalogs).
fn w(id: &str) -> &'static str {
    crate::i18n::catalog::text(id, ui_lang())
}

/// The lesson a new author starts from: narration and a question in the three
/// languages, as the built-in lessons write them (docs/scenarios.md).
pub const TEMPLATE: &str = "\
## A first send
## [ko] 첫 전송
## [th] การส่งครั้งแรก
> An idempotent producer gets a producer id, then sends one batch.
>
> [ko] 멱등 프로듀서가 producer id를 받은 뒤 배치 하나를 보냅니다.
>
> [th] producer แบบ idempotent ได้ producer id แล้วส่ง batch หนึ่งชุด
cluster brokers=1
topic create t partitions=1
producer p create enable.idempotence=true

## The broker appends it
## [ko] 브로커가 추가합니다
## [th] broker ต่อท้าย batch
? Which offset does the first record get?
? [ko] 첫 레코드는 어떤 오프셋을 받을까요?
? [th] record แรกได้ offset อะไร
?+ 0 | A new partition's log starts at offset 0.
?+ [ko] 0 | 새 파티션의 로그는 오프셋 0에서 시작합니다.
?+ [th] 0 | log ของ partition ใหม่เริ่มที่ offset 0
?- 1 | Offsets count from 0, not 1.
?- [ko] 1 | 오프셋은 1이 아니라 0부터 셉니다.
?- [th] 1 | offset นับจาก 0 ไม่ใช่ 1
?= baseOffset: 0
producer p send t-0 a
producer p flush
print dump-log t-0 fields=baseOffset,lastOffset,producerId
";

/// The line (1-based) a refused text is refused at; None for an error about the whole
/// file (too big, no steps).
pub fn error_line(error: &LessonFileError) -> Option<usize> {
    match error {
        LessonFileError::Parse(e) => Some(e.line),
        _ => None,
    }
}

/// The 1-based line of the caret at `utf16_at` (a textarea's `selectionStart`, which
/// counts UTF-16 units, so Korean and Thai text puts the caret where the author sees it).
pub fn caret_line(text: &str, utf16_at: usize) -> usize {
    let mut units = 0;
    let mut line = 1;
    for c in text.chars() {
        if units >= utf16_at {
            break;
        }
        units += c.len_utf16();
        if c == '\n' {
            line += 1;
        }
    }
    line
}

/// How many player steps to play for the caret on `line`: every step whose first line
/// is at or above it (the step the caret is in, with its narration lines counted to the
/// step before, as the steps list shows each step by its first command line). 0 before
/// the first step: the world as the lesson starts.
pub fn steps_to_line(first_lines: &[usize], line: usize) -> usize {
    first_lines.iter().take_while(|&&l| l <= line).count()
}

/// The text to start with: the one kept in the browser, else the template.
fn kept_text() -> String {
    storage()
        .and_then(|s| s.get_item(STORE_KEY).ok().flatten())
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| TEMPLATE.to_string())
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The main page's URL (`../index.html`) with `fragment`, absolute.
fn main_page_url(fragment: &str) -> Option<String> {
    let here = super::browser::location_field("href")?;
    let url = web_sys::Url::new_with_base(&format!("../index.html#{fragment}"), &here).ok()?;
    Some(url.href())
}

#[derive(Properties, PartialEq, Default)]
pub struct EditorProps {
    /// The text to start with; None: the one kept in the browser, else the template
    /// (a test gives its own and leaves the browser's alone).
    #[prop_or_default]
    pub text: Option<String>,
}

/// What parsing the text found: its player steps, or the line refused at (if one) and
/// why.
type Parsed = Result<usize, (Option<usize>, String)>;

/// Keeps the text in the browser (`keep`) and, once it parses (`ok`), replays it a
/// pause after the last key, at the step the author was on.
#[hook]
fn use_replay(
    text: String,
    ok: bool,
    keep: bool,
    state: UseReducerHandle<AppState>,
    dispatch: Callback<Msg>,
) {
    use_effect_with((text, ok), move |(text, ok)| {
        if keep {
            if let Some(s) = storage() {
                let _ = s.set_item(STORE_KEY, text);
            }
        }
        let source = text.clone();
        let timeout = ok.then(|| {
            gloo_timers::callback::Timeout::new(REPLAY_AFTER_MS, move || {
                let (at, _) = state.position();
                dispatch.emit(Msg::LoadScenario {
                    title: w("editor.lesson-title").to_string(),
                    source,
                });
                if at > 0 {
                    dispatch.emit(Msg::Travel(Travel::To(at)));
                }
            })
        });
        move || drop(timeout)
    });
}

/// "Start from": the template, or a built-in lesson's file (fetched) in the text.
fn start_from(text: UseStateHandle<String>) -> Callback<Event> {
    Callback::from(move |e: Event| {
        let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else {
            return;
        };
        let name = select.value();
        select.set_value("");
        if name == "template" {
            return text.set(TEMPLATE.to_string());
        }
        if crate::scenario::lessons().iter().all(|l| l.name != name) {
            return;
        }
        let text = text.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let url = format!("../static/lessons/{name}.eos");
            match super::language::fetch_text(&url).await {
                Ok(source) => text.set(source),
                Err(e) => web_sys::console::warn_1(&e.into()),
            }
        });
    })
}

/// "Copy link": the main page's share link of the lesson, shown and copied (or why
/// not).
fn copy_link(state: UseReducerHandle<AppState>, dispatch: Callback<Msg>) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| match state.share_link() {
        Ok(code) => {
            let url = main_page_url(&code).unwrap_or_else(|| format!("../index.html#{code}"));
            dispatch.emit(Msg::Link(LinkMsg::Made(url.clone())));
            super::link::copy_to_clipboard(&url, dispatch.clone());
        }
        Err(why) => dispatch.emit(Msg::Link(LinkMsg::Refused(why))),
    })
}

/// "Download .eos": the text as the file the lesson player opens.
fn download(text: &UseStateHandle<String>) -> Callback<MouseEvent> {
    let text = text.clone();
    Callback::from(move |_: MouseEvent| {
        super::download::save(&text.as_str().into(), "text/plain;charset=utf-8", FILE_NAME)
    })
}

/// "Play to the cursor": plays up to the step the caret is on (`first_lines`: each
/// player step's first line), once the text parses.
fn play_to_cursor(
    area_ref: NodeRef,
    text: UseStateHandle<String>,
    first_lines: Vec<usize>,
    ready: bool,
    dispatch: Callback<Msg>,
) -> Callback<()> {
    Callback::from(move |()| {
        let Some(area) = area_ref.cast::<web_sys::HtmlTextAreaElement>() else {
            return;
        };
        if !ready {
            return;
        }
        let at = area.selection_start().ok().flatten().unwrap_or(0) as usize;
        let n = steps_to_line(&first_lines, caret_line(&text, at));
        dispatch.emit(Msg::Travel(Travel::To(n)));
    })
}

/// The editor: the text, its errors and steps on the left, the lesson player and the
/// world it plays on the right.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let keep = props.text.is_none();
    let text = {
        let given = props.text.clone();
        use_state(move || given.unwrap_or_else(kept_text))
    };
    let state = use_reducer(|| AppState::new(Page::Transactions, None));
    // The panels' callbacks, made once (`super::intents`).
    let intents = {
        let dispatcher = state.dispatcher();
        use_memo((), move |_| {
            super::intents::Intents::new(Callback::from(move |m: Msg| dispatcher.dispatch(m)))
        })
    };
    let dispatch = intents.dispatch.clone();
    let parsed: std::rc::Rc<Parsed> = use_memo((*text).clone(), |t| {
        parse_lesson(t)
            .map(|s| s.steps.len())
            .map_err(|e| (error_line(&e), lesson_file_error(&e)))
    });
    // Once the text parses, the player plays it, kept at the author's step; typing
    // replays it after a pause, not on every key.
    use_replay(
        (*text).clone(),
        parsed.is_ok(),
        keep,
        state.clone(),
        dispatch.clone(),
    );
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                text.set(area.value());
            }
        })
    };
    let (gutter_ref, area_ref) = (use_node_ref(), use_node_ref());
    // "Play to the cursor": the step the caret is on (its first lines from the player).
    let lesson = lesson_info(&state);
    let first_lines: Vec<usize> = lesson
        .as_ref()
        .map(|l| l.steps.iter().map(|(line, _)| *line).collect())
        .unwrap_or_default();
    let ready = parsed.is_ok() && !first_lines.is_empty();
    let to_cursor = play_to_cursor(
        area_ref.clone(),
        text.clone(),
        first_lines,
        ready,
        dispatch.clone(),
    );
    let on_keydown = {
        let to_cursor = to_cursor.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                to_cursor.emit(());
            }
        })
    };
    // The line numbers follow the text's scrolling, on a scroll and after each render.
    let follow = {
        let (gutter_ref, area_ref) = (gutter_ref.clone(), area_ref.clone());
        move || {
            let gutter = gutter_ref.cast::<web_sys::Element>();
            if let (Some(g), Some(a)) = (gutter, area_ref.cast::<web_sys::Element>()) {
                g.set_scroll_top(a.scroll_top());
            }
        }
    };
    use_effect(follow.clone());
    // Play runs on as in the site: one step after the reading pause.
    use_autoplay(
        state.panels.playing,
        state.version,
        reading_ms(&state),
        dispatch.clone(),
    );
    let lessons: Vec<(&'static str, &'static str)> = Vec::new();
    let world = page_view(&state, &intents, lesson.clone(), lessons);
    html! {
        <div class="site-app">
            { header(intents.set_lang.clone()) }
            <div class="editor-layout">
                <section class="panel stack editor-source" aria-labelledby="editor-source-heading">
                    <h2 id="editor-source-heading">{ w("editor.source") }</h2>
                    { source_tools(start_from(text.clone()), &dispatch, state.page) }
                    <label for="editor-text" class="small">{ w("editor.text-label") }</label>
                    { status(&parsed) }
                    <div class="editor-text">
                        <pre class="editor-gutter mono" aria-hidden="true" data-testid="editor-gutter" ref={gutter_ref}>{ gutter(&text, &parsed) }</pre>
                        <textarea id="editor-text" class="mono" data-testid="editor-text" spellcheck="false" wrap="off" ref={area_ref} onscroll={Callback::from(move |_: Event| follow())}
                            aria-describedby="editor-status" aria-invalid={if parsed.is_err() { "true" } else { "false" }}
                            value={(*text).clone()} oninput={on_input} onkeydown={on_keydown} />
                    </div>
                    <div class="cluster">
                        <button type="button" data-testid="editor-play-to-cursor" aria-keyshortcuts="Control+Enter" title={w("editor.play-to-cursor-key")} disabled={parsed.is_err()} onclick={to_cursor.reform(|_: MouseEvent| ())}>{ w("editor.play-to-cursor") }</button>
                        <button type="button" data-testid="editor-copy-link" disabled={parsed.is_err()} onclick={copy_link(state.clone(), dispatch.clone())}>{ w("editor.copy-link") }</button>
                        <button type="button" data-testid="editor-download" onclick={download(&text)}>{ w("editor.download") }</button>
                    </div>
                    <ShareBox link={state.notices.link.clone()} error={None::<String>} refused={state.notices.link_refused.clone()} on_close={intents.close_link.clone()} />
                    <p class="muted small">{ w("editor.format") }</p>
                    <h3 class="small-heading" id="editor-steps-heading">{ w("editor.steps") }</h3>
                    <ol class="editor-steps small" aria-labelledby="editor-steps-heading" data-testid="editor-steps">{ steps(lesson.as_ref(), &dispatch) }</ol>
                </section>
                <div class="editor-world" data-testid="editor-world">
                    { world }
                </div>
            </div>
        </div>
    }
}

/// The page's header: back to the course, the limits, the language menu, the title.
fn header(on_switch: Callback<crate::i18n::Lang>) -> Html {
    let main_page = super::language::href_in_lang("../index.html");
    let limits = super::site_href("limits.html");
    html! {
        <header class="site-header">
            <a href={main_page} data-testid="back-to-course">{ w("editor.back") }</a>
            <a href={limits} data-testid="editor-limits">{ t(Key::LimitsLink) }</a>
            <super::language::LangMenu {on_switch} />
            <h1>{ w("editor.title") }</h1>
            <p class="muted">{ w("editor.intro") }</p>
        </header>
    }
}

/// "Start from" (`on_start_from`) and the page the lesson plays on (`page`).
fn source_tools(on_start_from: Callback<Event>, dispatch: &Callback<Msg>, page: Page) -> Html {
    let on_page = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                dispatch.emit(Msg::SetPage(Page::from_fragment(&select.value())));
            }
        })
    };
    let page_name = page.fragment();
    html! {
        <div class="cluster editor-tools">
            <label class="small">{ w("editor.start-from") }
                <select data-testid="editor-start-from" onchange={on_start_from}>
                    <option value="" selected=true>{ "—" }</option>
                    <option value="template">{ w("editor.template") }</option>
                    { for crate::scenario::lessons().iter().map(|l| html! {
                        <option value={l.name}>{ l.name }</option>
                    }) }
                </select>
            </label>
            <label class="small">{ w("editor.page") }
                <select data-testid="editor-page" onchange={on_page}>
                    { for [(Page::Idempotence, Key::NavIdempotence), (Page::Transactions, Key::NavTransactions)].into_iter().map(|(p, label)| html! {
                        <option value={p.fragment()} selected={p.fragment() == page_name}>{ t(label) }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

/// Whether the text parses, or the parser's line, column and reason.
fn status(parsed: &Parsed) -> Html {
    match parsed {
        Ok(_) => html! {
            <p id="editor-status" class="small editor-ok" role="status" data-testid="editor-status">{ w("editor.parses") }</p>
        },
        Err((_, e)) => html! {
            <p id="editor-status" class="action-error mono small" role="alert" data-testid="editor-error">{ e.clone() }</p>
        },
    }
}

/// The line numbers, the refused line marked.
fn gutter(text: &str, parsed: &Parsed) -> Html {
    let lines = text.lines().count().max(1) + usize::from(text.ends_with('\n'));
    let bad_line = parsed.as_ref().err().and_then(|(line, _)| *line);
    (1..=lines)
        .map(|n| {
            let bad = Some(n) == bad_line;
            html! { <span class={if bad { "bad" } else { "" }}>{ n }{ "\n" }</span> }
        })
        .collect()
}

/// Every player step, by its first line and heading: a click plays up to it.
fn steps(lesson: Option<&LessonInfo>, dispatch: &Callback<Msg>) -> Html {
    let Some(l) = lesson else {
        return Html::default();
    };
    l.steps
        .iter()
        .enumerate()
        .map(|(i, (line, source))| {
            let n = i + 1;
            let current = n == l.done_steps;
            let title = l.titles.get(i).cloned().unwrap_or_default();
            let first = source.lines().next().unwrap_or_default().to_string();
            let label = render(&msg!("editor.step", n = n, line = *line), ui_lang());
            let onclick = dispatch.reform(move |_: MouseEvent| Msg::Travel(Travel::To(n)));
            html! {
                <li class={if current { "current" } else { "" }}>
                    <button type="button" class="link-button" data-testid={format!("editor-step-{n}")} aria-current={if current { "step" } else { "false" }} {onclick}>{ label }</button>
                    { " " }<span class="muted">{ title }</span>{ " " }<code class="small">{ first }</code>
                </li>
            }
        })
        .collect()
}

/// Mounts the editor into `#app`, once the English catalog is here.
pub fn start() {
    super::IN_SUBFOLDER.store(true, std::sync::atomic::Ordering::Relaxed);
    super::language::then_mount(|| super::mount_in_app::<Editor>(EditorProps::default()));
}
