//! Kafka's files in the page (its own entry, `www/files.html`, bin `eos-files`): a
//! partition folder opened from the learner's disk (a folder, dropped files or a .zip)
//! is read by `eos inspect`'s code ([`crate::inspect`]: each damaged byte named) and
//! opened by the broker's own recovery ([`World::from_partition_files`]), so the
//! playground's partition views show it as a starting broker sees it. "Continue from
//! here" lets the learner send to that world; "Download the disk" saves it as the zip
//! `--export` lays out.
//!
//! Its own entry because the main page's wasm has no room for the inspector (docs/size.md).

use std::rc::Rc;

use yew::prelude::*;

use super::components::log_table::LogTable;
use super::components::txn_log::TxnLog;
use super::components::window_table::WindowTable;
use crate::i18n::{catalog::render, t, ui_lang, Key};
use crate::inspect::PartitionReport;
use crate::log::TopicPartition;
use crate::msg;
use crate::sim::{Action, ClusterConfig, World};

/// The producer "Send" uses in a continued world.
const PRODUCER: &str = "learner";
/// The name "Download the disk" gives the zip.
const ZIP_NAME: &str = "kafka-logs.zip";

/// A word of the files page, in the page's language (`files.*` in the catalogs).
fn w(id: &str) -> &'static str {
    crate::i18n::catalog::text(id, ui_lang())
}

/// What was opened: the files (paths relative to what was picked), what the inspector
/// found in each partition folder, and the folder shown.
#[derive(Clone, PartialEq)]
pub struct Opened {
    pub name: String,
    pub files: Rc<Vec<(String, Vec<u8>)>>,
    pub reports: Rc<Vec<PartitionReport>>,
}

impl Opened {
    /// Files picked from a folder (or dropped): `(path, bytes)`, a zip among them
    /// opened in their place. A zip that cannot be read is refused whole, with its
    /// position and reason.
    pub fn from_files(name: &str, picked: Vec<(String, Vec<u8>)>) -> Result<Opened, String> {
        let mut files = Vec::new();
        for (path, bytes) in picked {
            if path.to_ascii_lowercase().ends_with(".zip") {
                let entries = crate::zip::read(&bytes).map_err(|e| {
                    format!("{path}: {}", crate::i18n::inspect::zip_error(&e, ui_lang()))
                })?;
                let stem = path.rsplit('/').next().unwrap_or(&path);
                let stem = stem.get(..stem.len().saturating_sub(4)).unwrap_or(stem);
                files.extend(crate::inspect::zip_files(entries, stem));
            } else {
                files.push((path, bytes));
            }
        }
        let files = crate::inspect::zip_files(files, name);
        let reports = crate::inspect::inspect(&files);
        Ok(Opened {
            name: name.to_string(),
            files: Rc::new(files),
            reports: Rc::new(reports),
        })
    }

    /// The world whose partition starts from folder `dir`'s files, recovered.
    pub fn world(&self, dir: &str) -> Result<World, String> {
        let prefix = format!("{dir}/");
        let folder: Vec<(String, Vec<u8>)> = self
            .files
            .iter()
            .filter_map(|(p, b)| Some((p.strip_prefix(&prefix)?.to_string(), b.clone())))
            .filter(|(n, _)| !n.contains('/'))
            .collect();
        World::from_partition_files(dir, &folder, ClusterConfig::default())
            .map_err(|e| crate::i18n::narration::sim_error(&e, ui_lang()))
    }
}

/// The partition a folder name stands for (`TOPIC-PARTITION`, its last path part).
fn partition_of(dir: &str) -> Option<TopicPartition> {
    let name = dir.rsplit('/').next().unwrap_or(dir);
    let (topic, p) = name.rsplit_once('-')?;
    Some(TopicPartition::new(topic, p.parse().ok()?))
}

/// The bytes of each picked file, with its path in the folder picked
/// (`webkitRelativePath`, else its name).
async fn read_files(list: web_sys::FileList) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut out = Vec::new();
    for i in 0..list.length() {
        let Some(file) = list.item(i) else { continue };
        let relative = js_sys::Reflect::get(&file, &"webkitRelativePath".into())
            .ok()
            .and_then(|v| v.as_string())
            .filter(|p| !p.is_empty());
        let path = relative.unwrap_or_else(|| file.name());
        let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
            .await
            .map_err(|e| format!("{path}: {e:?}"))?;
        out.push((path, js_sys::Uint8Array::new(&buffer).to_vec()));
    }
    Ok(out)
}

/// The world of folder `dir` after the learner's `sends` to `tp` (each by the
/// idempotent producer "learner", created by the first, and flushed), and what the last
/// one came to; or why a send was refused. Rebuilt from the folder's files at every
/// send rather than copied from the world shown: the engine is deterministic, so it is
/// the world those sends leave, the world shown stays as it was when one is refused,
/// and the page carries no code to copy a world (≈ 11 KB gzip of its wasm).
fn continued(
    o: &Opened,
    dir: &str,
    tp: &TopicPartition,
    sends: &[String],
) -> Result<(World, String), String> {
    let mut world = o.world(dir)?;
    let mut before = world.events().len();
    for value in sends {
        let mut actions = Vec::new();
        if !world.producers().contains_key(PRODUCER) {
            actions.push(Action::CreateProducer {
                name: PRODUCER.into(),
                configs: vec![("enable.idempotence".into(), "true".into())],
            });
        }
        actions.push(Action::Send {
            producer: PRODUCER.into(),
            topic_partition: tp.clone(),
            values: vec![value.clone()],
        });
        actions.push(Action::Flush {
            producer: PRODUCER.into(),
        });
        before = world.events().len();
        for a in &actions {
            world
                .apply(a)
                .map_err(|e| crate::i18n::narration::sim_error(&e, ui_lang()))?;
        }
    }
    let said = send_result(&world.events()[before.min(world.events().len())..]);
    Ok((world, said))
}

/// What "Send" needs: the folder shown (`opened`'s `dir`, partition `tp`), the sends
/// so far and the page's states it sets.
struct SendTo {
    opened: Opened,
    dir: String,
    tp: TopicPartition,
    sends: UseStateHandle<Vec<String>>,
    world: UseStateHandle<Option<Result<Rc<World>, String>>>,
    value: UseStateHandle<String>,
    sent: UseStateHandle<Option<String>>,
}

/// "Send" in the world shown: the world after it, and what it came to (or why it was
/// refused) beside the button.
fn send_to(s: SendTo) -> Callback<SubmitEvent> {
    Callback::from(move |e: SubmitEvent| {
        e.prevent_default();
        let mut sends = (*s.sends).clone();
        sends.push((*s.value).clone());
        match continued(&s.opened, &s.dir, &s.tp, &sends) {
            Ok((next, said)) => {
                s.sent.set(Some(said));
                s.world.set(Some(Ok(Rc::new(next))));
                s.sends.set(sends);
            }
            Err(why) => s.sent.set(Some(why)),
        }
    })
}

/// Reads the picked or dropped files (`list`) and opens them; `show` shows the first
/// partition folder; a refusal says why.
fn open_files(
    list: web_sys::FileList,
    opened: UseStateHandle<Option<Opened>>,
    refused: UseStateHandle<Option<String>>,
    chosen: UseStateHandle<usize>,
    show: Callback<(Opened, usize)>,
) {
    wasm_bindgen_futures::spawn_local(async move {
        let picked = match read_files(list).await {
            Ok(p) => p,
            Err(e) => return refused.set(Some(e)),
        };
        let name = picked
            .first()
            .and_then(|(p, _)| p.split('/').next())
            .unwrap_or("files")
            .to_string();
        match Opened::from_files(&name, picked) {
            Ok(o) => {
                refused.set(None);
                chosen.set(0);
                show.emit((o.clone(), 0));
                opened.set(Some(o));
            }
            Err(e) => {
                refused.set(Some(e));
                opened.set(None);
            }
        }
    });
}

/// The files page: open, see, continue, download.
#[function_component(Files)]
pub fn files() -> Html {
    let lang = use_state(ui_lang);
    let opened = use_state(|| None::<Opened>);
    let refused = use_state(|| None::<String>);
    let chosen = use_state(|| 0usize);
    // The world of the folder shown: recovered, and changed only by "Send" once the
    // learner continues from it.
    let world = use_state(|| None::<Result<Rc<World>, String>>);
    // The values sent since, in order: the world shown is the folder's after them.
    let sends = use_state(Vec::<String>::new);
    let continued = use_state(|| false);
    let selected = use_state(|| None::<(i64, u64)>);
    let value = use_state(|| "v".to_string());
    // What the last "Send" did, beside the button: the line that says so.
    let sent = use_state(|| None::<String>);

    let show = {
        let (world, sends, continued, selected, sent) = (
            world.clone(),
            sends.clone(),
            continued.clone(),
            selected.clone(),
            sent.clone(),
        );
        Callback::from(move |(o, i): (Opened, usize)| {
            let w = o.reports.get(i).map(|r| o.world(&r.dir).map(Rc::new));
            world.set(w);
            sends.set(Vec::new());
            continued.set(false);
            selected.set(None);
            sent.set(None);
        })
    };
    let open = {
        let (opened, refused, chosen, show) = (
            opened.clone(),
            refused.clone(),
            chosen.clone(),
            show.clone(),
        );
        Callback::from(move |list: web_sys::FileList| {
            open_files(
                list,
                opened.clone(),
                refused.clone(),
                chosen.clone(),
                show.clone(),
            )
        })
    };
    let on_choose = {
        let (opened, chosen, show) = (opened.clone(), chosen.clone(), show.clone());
        Callback::from(move |e: Event| {
            let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else {
                return;
            };
            let i: usize = select.value().parse().unwrap_or(0);
            chosen.set(i);
            if let Some(o) = (*opened).clone() {
                show.emit((o, i));
            }
        })
    };
    let shown = (*opened)
        .as_ref()
        .and_then(|o| Some((o, o.reports.get(*chosen)?)));
    let tp = shown.and_then(|(_, r)| partition_of(&r.dir));
    let on_switch = {
        let lang = lang.clone();
        Callback::from(move |l| lang.set(l))
    };
    let report = (*opened)
        .as_ref()
        .map_or_else(Html::default, |o| report(o, *chosen, on_choose));
    let views: Html = match (&*world, &tp) {
        (Some(Err(why)), _) => html! {
            <p class="action-error" role="alert" data-testid="files-world-error">{ render(&msg!("files.no-world", why = why), ui_lang()) }</p>
        },
        (Some(Ok(wd)), Some(tp)) => {
            let send = if let (true, Some((o, r))) = (*continued, shown) {
                let on_send = send_to(SendTo {
                    opened: o.clone(),
                    dir: r.dir.clone(),
                    tp: tp.clone(),
                    sends: sends.clone(),
                    world: world.clone(),
                    value: value.clone(),
                    sent: sent.clone(),
                });
                send_form(&value, (*sent).clone(), on_send)
            } else {
                let continued = continued.clone();
                html! {
                    <div class="cluster">
                        <p class="small muted">{ w("files.read-only") }</p>
                        <button type="button" data-testid="files-continue" onclick={Callback::from(move |_: MouseEvent| continued.set(true))}>{ w("files.continue") }</button>
                    </div>
                }
            };
            recovered(wd, tp, send, &selected)
        }
        _ => Html::default(),
    };
    let _ = *lang;
    html! {
        <div class="site-app">
            { header(on_switch) }
            { open_section(open, (*refused).clone()) }
            { report }
            { views }
        </div>
    }
}

/// The page's header: back to the course, the limits, the language menu, the title.
fn header(on_switch: Callback<crate::i18n::Lang>) -> Html {
    html! {
        <header class="site-header">
            <a href={super::language::href_in_lang("../index.html")} data-testid="back-to-course">{ w("files.back") }</a>
            <a href={super::site_href("limits.html")} data-testid="files-limits">{ t(Key::LimitsLink) }</a>
            <super::language::LangMenu {on_switch} />
            <h1>{ w("files.title") }</h1>
            <p class="muted">{ w("files.intro") }</p>
        </header>
    }
}

/// Where files are opened: a folder or a zip picked, or dropped (`open`), and why the
/// last ones were `refused`.
fn open_section(open: Callback<web_sys::FileList>, refused: Option<String>) -> Html {
    let on_pick = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            if let Some(list) = input.files() {
                open.emit(list);
            }
        })
    };
    let on_drop = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if let Some(list) = e.data_transfer().and_then(|d| d.files()) {
            open.emit(list);
        }
    });
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    html! {
        <section class="panel stack files-open" aria-labelledby="files-open-heading"
            ondrop={on_drop} ondragover={on_drag_over} data-testid="files-drop">
            <h2 id="files-open-heading">{ w("files.open") }</h2>
            <div class="cluster">
                <input id="files-folder" class="visually-hidden" type="file" data-testid="files-folder" webkitdirectory=true multiple=true onchange={on_pick.clone()} />
                <label for="files-folder" class="button" data-testid="files-folder-button">{ w("files.pick-folder") }</label>
                <input id="files-zip" class="visually-hidden" type="file" data-testid="files-zip" accept=".zip,application/zip" onchange={on_pick} />
                <label for="files-zip" class="button" data-testid="files-zip-button">{ w("files.pick-zip") }</label>
            </div>
            <p class="small muted">{ w("files.drop") }</p>
            if let Some(why) = refused {
                <p class="action-error mono small" role="alert" data-testid="files-refused">{ why }</p>
            }
        </section>
    }
}

/// What the inspector found in the partition folder `chosen` (`on_choose` picks
/// another): its problems and its dump.
fn report(o: &Opened, chosen: usize, on_choose: Callback<Event>) -> Html {
    let partitions = (o.reports.len() > 1).then(|| html! {
        <label class="small">{ w("files.partition") }{ " " }
            <select data-testid="files-partition" onchange={on_choose}>
                { for o.reports.iter().enumerate().map(|(i, r)| html! {
                    <option value={i.to_string()} selected={i == chosen}>{ r.dir.clone() }</option>
                }) }
            </select>
        </label>
    });
    let Some(r) = o.reports.get(chosen) else {
        return html! { <p class="muted" data-testid="files-empty">{ w("files.empty") }</p> };
    };
    let problems: Html = if r.problems.is_empty() {
        html! { <p class="small" data-testid="files-no-problems">{ w("files.no-problems") }</p> }
    } else {
        html! {
            <ul class="files-problems small" data-testid="files-problems">
                { for r.problems.iter().map(|p| html! {
                    <li class="mono">{ crate::i18n::inspect::problem(p, ui_lang()) }</li>
                }) }
            </ul>
        }
    };
    let dump = crate::i18n::inspect::report(std::slice::from_ref(r), ui_lang());
    html! {
        <section class="panel stack" aria-labelledby="files-report-heading">
            <h2 id="files-report-heading">{ render(&msg!("files.opened", name = &o.name, count = o.files.len()), ui_lang()) }</h2>
            { for partitions }
            <h3 class="small-heading">{ w("files.problems") }</h3>
            { problems }
            <details>
                <summary>{ w("files.dump") }</summary>
                <pre class="mono small files-dump" data-testid="files-dump" tabindex="0">{ dump }</pre>
            </details>
        </section>
    }
}

/// "Send" in a continued world: the value field, the button and what the last send
/// came to (`sent`).
fn send_form(
    value: &UseStateHandle<String>,
    sent: Option<String>,
    on_send: Callback<SubmitEvent>,
) -> Html {
    let on_value = {
        let value = value.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                value.set(input.value());
            }
        })
    };
    html! {
        <form class="cluster" onsubmit={on_send}>
            <p class="small">{ w("files.continued") }</p>
            <label class="small">{ w("files.value") }{ " " }
                <input type="text" data-testid="files-value" value={(**value).clone()} oninput={on_value} />
            </label>
            <button type="submit" data-testid="files-send">{ w("files.send") }</button>
            // Always in the page, so a screen reader hears each new result.
            <p class="small mono" role="status" aria-live="polite" data-testid="files-sent">{ sent.unwrap_or_default() }</p>
        </form>
    }
}

/// The recovered partition as the playground's panels show it: the producer window,
/// the log (a batch `selected` opens its records) and the markers; `send` continues
/// from it, and its disk downloads as a zip.
fn recovered(
    wd: &Rc<World>,
    tp: &TopicPartition,
    send: Html,
    selected: &UseStateHandle<Option<(i64, u64)>>,
) -> Html {
    let log = wd.log_view(tp);
    let part = crate::view::partition::partition_view(wd, tp, crate::view::partition::LOG_WINDOW);
    let on_download = {
        let wd = wd.clone();
        Callback::from(move |_: MouseEvent| {
            super::download::save(
                &js_sys::Uint8Array::from(&wd.disk_zip()[..]).into(),
                "application/zip",
                ZIP_NAME,
            );
        })
    };
    let on_select = {
        let selected = selected.clone();
        Callback::from(move |s| selected.set(s))
    };
    html! {
        <section class="panel stack" aria-labelledby="files-views-heading" data-testid="files-views">
            <h2 id="files-views-heading">{ render(&msg!("files.recovered", tp = tp.to_string()), ui_lang()) }</h2>
            { send }
            <div class="cluster">
                <button type="button" data-testid="files-download" onclick={on_download}>{ w("files.download") }</button>
                <span class="small muted">{ w("files.download-note") }</span>
            </div>
            <h3>{ t(Key::WindowHeading) }</h3>
            <WindowTable windows={wd.windows(tp)} recovered=true />
            <h3>{ t(Key::LogHeading) }</h3>
            if let Some(log) = log {
                <div data-testid="files-log">
                    <LogTable {log} selected={**selected} {on_select} />
                </div>
            }
            if let Some(part) = part {
                <h3>{ w("files.markers") }</h3>
                <TxnLog {part} />
            }
        </section>
    }
}

/// What a "Send" came to, from the events it added: the producer's acknowledgement (the
/// new batch's baseOffset) or failure (Kafka's error name). Worded here, not by the
/// event narration, which this page's wasm leaves out (docs/size.md).
fn send_result(new: &[crate::sim::Event]) -> String {
    use crate::client::producer::ProducerEvent::{Acknowledged, Failed};
    let said = new.iter().rev().find_map(|e| match &e.kind {
        crate::sim::EventKind::Producer { client, event } if client == PRODUCER => match event {
            Acknowledged { base_offset, .. } => Some(msg!("files.sent", offset = base_offset)),
            Failed { error, .. } => Some(msg!("files.send-failed", error = error.name())),
            _ => None,
        },
        _ => None,
    });
    render(
        &said.unwrap_or_else(|| msg!("files.send-pending")),
        ui_lang(),
    )
}

/// Mounts the files page into `#app`, once the English catalog is here.
pub fn start() {
    super::IN_SUBFOLDER.store(true, std::sync::atomic::Ordering::Relaxed);
    super::language::then_mount(|| super::mount_in_app::<Files>(()));
}
