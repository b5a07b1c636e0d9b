//! The Pulsar site (its own entry, `www/pulsar.html`, feature `pulsar`): a lesson
//! player over the Pulsar world with the panels the view models describe — partitions
//! with the maxReadPosition pointer and the transaction buffer, subscriptions with
//! cursors and pending ack, the coordinators and their logs, the timeline with the
//! data-flow step numbers — and the comparison: the Kafka and Pulsar sides of the
//! story and the differences table that fills in as it runs — and, behind the nav's
//! "Compare with Kafka" (`#compare`), the comparison page ([`super::compare`]). The
//! site's wasm has no lesson texts: each lesson's file is fetched when it is shown
//! ([`super::lesson_files`]).

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use super::components::question::QuestionInfo;
use super::lesson_files::{status_line, use_lesson_text, LessonText};

use super::components::event_list::announced;
use crate::i18n::narration::compare_words::label as compare_label;
use crate::i18n::narration::{
    pulsar_difference, pulsar_event_explained, pulsar_label, pulsar_position,
};
use crate::i18n::{ui_lang, Lang};
use crate::pulsar::{Position, PulsarWorld, TxnID};
use crate::scenario::{self, Replay, StepKind};
use crate::view::announce::{Announcer, Heard};
use crate::view::compare::CompareLabel as CL;
use crate::view::pulsar::{self as model, EntryKind, PulsarLabel as L, TxnOutcome};

/// A label in the page's language (English until a catalog is chosen and loaded).
pub(super) fn l(label: L) -> String {
    pulsar_label(label, ui_lang())
}

/// A list as the panels show it: "none" when it is empty, never a blank.
fn or_none(text: String) -> String {
    if text.is_empty() {
        l(L::None)
    } else {
        text
    }
}

fn list(ps: &[Position]) -> String {
    or_none(
        ps.iter()
            .map(Position::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    )
}

fn txns(v: &[(TxnID, Position)]) -> String {
    or_none(
        v.iter()
            .map(|(t, p)| format!("{t}@{p}"))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// A position with its meaning when it is before a ledger's first entry (`3:-1`).
fn pos(p: Position) -> String {
    pulsar_position(p, ui_lang())
}

pub(super) fn partitions(w: &PulsarWorld) -> Html {
    let parts = model::partitions(w);
    html! {
        <section class="panel" aria-labelledby="pulsar-partitions">
            <h2 id="pulsar-partitions">{ l(L::Partitions) }</h2>
            { for parts.into_iter().map(|p| {
                let rows = p.entries.iter().map(|e| {
                    let (what, state) = match &e.kind {
                        EntryKind::Message { value, txn, outcome, .. } => (
                            match txn { Some(t) => format!("{value} {t}"), None => value.clone() },
                            l(match outcome {
                                TxnOutcome::Plain => L::Plain,
                                TxnOutcome::Ongoing => L::Ongoing,
                                TxnOutcome::Committed => L::Committed,
                                TxnOutcome::Aborted => L::Aborted,
                            }),
                        ),
                        EntryKind::Marker { txn, commit } => (
                            txn.to_string(),
                            l(if *commit { L::CommitMarker } else { L::AbortMarker }),
                        ),
                    };
                    let at_pointer = e.position == p.max_read_position;
                    html! {
                        <tr class={class_list(&[on(e.beyond_max_read, "beyond-max-read")])}>
                            <td class="mono">{ e.position.to_string() }</td>
                            <td class="mono">{ what }</td>
                            <td>{ state }{ if at_pointer { html!{ <strong>{ format!(" ← {}", l(L::MaxReadPosition)) }</strong> } } else { html!{} } }</td>
                        </tr>
                    }
                });
                html! {
                    <div class="pulsar-partition" data-testid={format!("pulsar-partition-{}", p.topic)}>
                        <h3 class="mono">{ format!("{} · broker {}", p.topic, p.broker) }</h3>
                        <p class="mono" data-testid="pulsar-max-read">{ format!("{} {}", l(L::MaxReadPosition), pos(p.max_read_position)) }</p>
                        // A wide table scrolls sideways in a focusable, labelled region
                        // (the Kafka pages' `.scroll-x`): a panel paints nothing outside it.
                        <div class="scroll-x" tabindex="0" role="region" aria-label={p.topic.clone()}>
                            <table>
                                <caption class="visually-hidden">{ p.topic.clone() }</caption>
                                <thead><tr><th scope="col">{ l(L::Position) }</th><th scope="col">{ l(L::Entry) }</th><th scope="col">{ l(L::State) }</th></tr></thead>
                                <tbody>{ for rows }</tbody>
                            </table>
                        </div>
                        <dl class="mono small">
                            <dt>{ l(L::BufferState) }</dt><dd data-testid="pulsar-buffer-state">{ p.buffer_state.name() }</dd>
                            <dt>{ l(L::Ongoing) }</dt><dd>{ txns(&p.ongoing) }</dd>
                            <dt>{ l(L::Aborted) }</dt><dd>{ txns(&p.aborted) }</dd>
                            <dt>{ l(L::Snapshot) }</dt>
                            <dd>{ match p.snapshot {
                                Some((at, n)) => format!("{} {} · {} {n}", l(L::MaxReadPosition), pos(at), l(L::Aborted)),
                                None => l(L::NoSnapshot).to_string(),
                            } }</dd>
                        </dl>
                    </div>
                }
            }) }
        </section>
    }
}

pub(super) fn subscriptions(w: &PulsarWorld) -> Html {
    let subs = model::subscriptions(w);
    html! {
        <section class="panel" aria-labelledby="pulsar-subscriptions">
            <h2 id="pulsar-subscriptions">{ l(L::Subscriptions) }</h2>
            <div class="scroll-x" tabindex="0" role="region" aria-label={l(L::SubscriptionsTable)}>
                <table data-testid="pulsar-subscriptions">
                    <caption class="visually-hidden">{ l(L::SubscriptionsTable) }</caption>
                    <thead><tr>
                        <td></td><th scope="col">{ l(L::MarkDeletePosition) }</th><th scope="col">{ l(L::IndividuallyDeleted) }</th>
                        <th scope="col">{ l(L::PendingAck) }</th><th scope="col">{ l(L::Redeliver) }</th>
                    </tr></thead>
                    <tbody>{ for subs.into_iter().map(|s| html! {
                        <tr>
                            <th scope="row" class="mono">{ format!("{}/{}", s.topic, s.subscription) }</th>
                            <td class="mono">{ pos(s.mark_delete_position) }</td>
                            <td class="mono">{ list(&s.individually_deleted) }</td>
                            <td class="mono">{ or_none(s.pending_cumulative.iter().map(|(p, t)| format!("≤{p} {t}")).chain(s.pending_acks.iter().map(|(p, t)| format!("{p} {t}"))).collect::<Vec<_>>().join(", ")) }</td>
                            <td class="mono">{ list(&s.redeliver) }</td>
                        </tr>
                    }) }</tbody>
                </table>
            </div>
        </section>
    }
}

pub(super) fn coordinators(w: &PulsarWorld) -> Html {
    html! {
        <section class="panel" aria-labelledby="pulsar-coordinators">
            <h2 id="pulsar-coordinators">{ l(L::Coordinators) }</h2>
            { for model::coordinators(w).into_iter().map(|c| html! {
                <div data-testid={format!("pulsar-tc-{}", c.tc)}>
                    <h3>{ format!("coordinator {} · broker {} · {}", c.tc, c.broker, l(if c.running { L::Running } else { L::NotRunning })) }</h3>
                    <ul class="mono">{ for c.txns.iter().map(|t| html! {
                        <li>{ format!("{} {} {} [{}] [{}]", t.id, t.name.clone().unwrap_or_default(), t.status.name(), or_none(t.partitions.join(" ")), or_none(t.subscriptions.join(" "))) }</li>
                    }) }</ul>
                    <h4 class="mono">{ format!("{} · {}", c.log_topic, l(L::TransactionLog)) }</h4>
                    <ol class="mono small">{ for c.log.iter().map(|r| html! {
                        <li class={class_list(&[on(r.deleted, "deleted")])}>
                            { format!("{} {} {} {}{}", r.position, r.txn, r.op, r.detail, if r.deleted { format!(" ({})", l(L::Deleted)) } else { String::new() }) }
                        </li>
                    }) }</ol>
                </div>
            }) }
        </section>
    }
}

pub(super) fn timeline(w: &PulsarWorld) -> Html {
    let rows: Vec<(u64, String, String)> = model::timeline(w, Some(60))
        .into_iter()
        .map(|r| {
            let text = w
                .events()
                .get(r.index)
                .map(|e| pulsar_event_explained(e, ui_lang()))
                .unwrap_or_default();
            (
                r.index as u64,
                r.step.map(|s| format!("[{s}] ")).unwrap_or_default(),
                text,
            )
        })
        .collect();
    html! { <PulsarTimeline {rows} /> }
}

#[derive(Properties, PartialEq)]
struct TimelineProps {
    /// (event index, step label, narration), oldest first.
    rows: Vec<(u64, String, String)>,
}

/// The timeline, and a visually hidden live region with only the events of the last
/// step (`view::announce`): a screen reader reads each once, never the whole list.
#[function_component(PulsarTimeline)]
fn pulsar_timeline(p: &TimelineProps) -> Html {
    let announcer = use_mut_ref(Announcer::default);
    let said = announced(
        &announcer,
        p.rows.iter().map(|(seq, _, text)| Heard {
            seq: *seq,
            text,
            shown: true,
        }),
    );
    html! {
        <section class="panel" aria-labelledby="pulsar-timeline">
            <h2 id="pulsar-timeline">{ l(L::Timeline) }</h2>
            <div class="visually-hidden" aria-live="polite" aria-relevant="additions" data-testid="pulsar-live">{ said }</div>
            <ol class="event-list" data-testid="pulsar-timeline" tabindex="0" aria-label={l(L::Timeline)}>{ for p.rows.iter().map(|(_, step, text)| html! {
                <li><span class="mono step-number">{ step.clone() }</span>{ text.clone() }</li>
            }) }</ol>
        </section>
    }
}

fn differences(w: Option<&PulsarWorld>) -> Html {
    let shown = w.map(model::revealed_differences).unwrap_or_default();
    html! {
        // The comparison page's table style: sentences wrap, and below 600 px each row is
        // a block whose cells say which side they are (`data-label`).
        <section class="panel compare-differences" aria-labelledby="pulsar-differences">
            <h2 id="pulsar-differences">{ l(L::Differences) }</h2>
            if shown.is_empty() {
                <p class="muted">{ l(L::NothingYet) }</p>
            } else {
                <table data-testid="pulsar-differences">
                    <caption class="visually-hidden">{ l(L::Differences) }</caption>
                    <thead><tr><th scope="col">{ l(L::Question) }</th><th scope="col">{ l(L::Kafka) }</th><th scope="col">{ l(L::Pulsar) }</th></tr></thead>
                    <tbody>{ for shown.into_iter().map(|d| {
                        let (q, k, p) = pulsar_difference(d, ui_lang());
                        html! { <tr><th scope="row">{ q }</th><td data-label={l(L::Kafka)}>{ k }</td><td data-label={l(L::Pulsar)}>{ p }</td></tr> }
                    }) }</tbody>
                </table>
            }
        </section>
    }
}

/// The two sides of the story: what the Kafka steps and the Pulsar steps printed.
fn sides(replay: &Replay) -> Html {
    let (mut kafka, mut pulsar) = (Vec::new(), Vec::new());
    for (i, out) in replay.outputs().iter().enumerate() {
        let is_pulsar = matches!(
            replay.scenario().steps.get(i).map(|s| &s.kind),
            Some(StepKind::Pulsar(_))
        );
        let side = if is_pulsar { &mut pulsar } else { &mut kafka };
        side.extend(out.lines.iter().cloned());
    }
    if kafka.is_empty() {
        return html! {};
    }
    let column = |title: L, lines: Vec<String>, testid: &'static str| {
        html! {
            <div class="panel">
                <h2>{ l(title) }</h2>
                <pre class="mono small" data-testid={testid}>{ lines.join("\n") }</pre>
            </div>
        }
    };
    html! {
        <section class="pulsar-sides">
            { column(L::KafkaSide, kafka, "kafka-side") }
            { column(L::PulsarSide, pulsar, "pulsar-side") }
        </section>
    }
}

/// The Pulsar site's two views, kept in the fragment (`#compare`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    Lessons,
    Compare,
    /// Free play with the Pulsar challenges (`#play`).
    Play,
}

impl View {
    fn from_hash(hash: &str) -> View {
        match hash.trim_start_matches('#') {
            "compare" => View::Compare,
            "play" => View::Play,
            _ => View::Lessons,
        }
    }
}

/// The nav between the lesson player and the comparison: links to `#lessons` and
/// `#compare` (keyboard- and back-button-friendly); a click also sets the view.
fn nav(current: View, set: Callback<View>) -> Html {
    let tab = |view: View, label: String, fragment: &'static str, testid: &'static str| {
        let set = set.clone();
        let here = current == view;
        html! {
            <li>
                <a href={format!("#{fragment}")}
                   class={class_list(&["page-tab", on(here, "current")])}
                   aria-current={here.then_some("page")}
                   data-testid={testid}
                   onclick={Callback::from(move |_: MouseEvent| set.emit(view))}>{ label }</a>
            </li>
        }
    };
    html! {
        <nav class="page-nav pulsar-nav" aria-label={compare_label(CL::NavLabel, ui_lang())}>
            <ul>
                { tab(View::Lessons, compare_label(CL::NavLessons, ui_lang()), "lessons", "nav-lessons") }
                { tab(View::Play, l(L::FreePlay), "play", "nav-play") }
                { tab(View::Compare, compare_label(CL::NavCompare, ui_lang()), "compare", "nav-compare") }
            </ul>
        </nav>
    }
}

/// What the lesson player shows at player step `at` of `replay` (played to there).
struct Shown {
    /// The first step of the player step just played, with its title and narration;
    /// before the first one, the lesson's first step, whose narration introduces it (as
    /// on the main page).
    step: Option<scenario::Step>,
    /// Before the first player step: `step` is the introduction, nothing ran yet.
    intro: bool,
    /// The script lines of the player step just played.
    script: Vec<String>,
    /// What the steps just played printed.
    printed: String,
    /// The questions asked before the next player step, with the learner's answers.
    questions: Vec<QuestionInfo>,
    /// Every question of the lesson: (source line, marked answer).
    marked: Vec<(usize, usize)>,
    /// The next player step asks a question not answered yet: autoplay stops there.
    asks_next: bool,
}

/// Reads [`Shown`] from a replay played to `at`, in `lang`, with the learner's `answers`.
fn shown(replay: &Replay, at: usize, lang: Lang, answers: &[(usize, usize)]) -> Shown {
    let ranges = replay.player_steps();
    let steps = &replay.scenario().steps;
    let just = at.checked_sub(1).and_then(|i| ranges.get(i));
    let questions_at = |i: usize| {
        ranges
            .get(i)
            .and_then(|r| steps.get(r.clone()))
            .unwrap_or_default()
            .iter()
            .flat_map(|s| &s.questions)
    };
    Shown {
        step: just.map_or(steps.first(), |r| steps.get(r.start)).cloned(),
        intro: at == 0,
        script: just
            .and_then(|r| steps.get(r.clone()))
            .map(|s| s.iter().map(|s| s.text.clone()).collect())
            .unwrap_or_default(),
        printed: at
            .checked_sub(1)
            .and_then(|i| replay.player_output(i))
            .map(|o| o.lines.join("\n"))
            .unwrap_or_default(),
        questions: questions_at(at)
            .map(|q| {
                let chosen = answers.iter().find(|a| a.0 == q.line).map(|a| a.1);
                QuestionInfo::of(q, lang, chosen)
            })
            .collect(),
        marked: (steps.iter().flat_map(|s| &s.questions))
            .map(|q| (q.line, q.answer()))
            .collect(),
        asks_next: questions_at(at + 1).any(|q| !answers.iter().any(|a| a.0 == q.line)),
    }
}

/// Play: one step after a pause long enough to read the step shown (`delay_ms`); it
/// stops at the end and at a question not answered yet (`stop_there`). Dropping a gloo
/// `Timeout` clears it: a manual step, a new speed or lesson (`restart_on`) starts the
/// pause again.
#[hook]
fn use_pulsar_autoplay(
    run: bool,
    at: &UseStateHandle<usize>,
    playing: &UseStateHandle<usize>,
    restart_on: (usize, usize),
    delay_ms: u32,
    stop_there: bool,
) {
    let (at_state, playing) = (at.clone(), playing.clone());
    let to = **at + 1;
    let (speed, lesson) = restart_on;
    use_effect_with((run, **at, speed, lesson), move |_| {
        let timeout = run.then(|| {
            gloo_timers::callback::Timeout::new(delay_ms, move || {
                at_state.set(to);
                if stop_there {
                    playing.set(0);
                }
            })
        });
        move || drop(timeout)
    });
}

/// Which view the nav shows, from the address's fragment; back and forward between
/// `#lessons` and `#compare` follow it.
#[hook]
fn use_view_from_hash() -> UseStateHandle<View> {
    let view =
        use_state(|| View::from_hash(&super::browser::location_field("hash").unwrap_or_default()));
    {
        let view = view.clone();
        use_effect_with((), move |_| {
            super::browser::listen_on(web_sys::window(), "hashchange", move |_| {
                view.set(View::from_hash(
                    &super::browser::location_field("hash").unwrap_or_default(),
                ));
            })
        });
    }
    view
}

/// A question answered: kept with the learner's `answers`, and told to a host page
/// (`eos:answered`, as from the Kafka pages), right or wrong by the `marked` answers.
fn answer(
    answers: UseStateHandle<Vec<(usize, usize)>>,
    marked: Vec<(usize, usize)>,
    name: &'static str,
) -> Callback<(usize, usize)> {
    Callback::from(move |(line, choice): (usize, usize)| {
        let mut next: Vec<(usize, usize)> =
            answers.iter().copied().filter(|a| a.0 != line).collect();
        next.push((line, choice));
        answers.set(next);
        let correct = marked.contains(&(line, choice));
        post_json(&format!(
            r#"{{"type":"eos:answered","lesson":"{name}","question":{line},"correct":{correct}}}"#
        ));
    })
}

/// The lesson menu: `pick` gets the index chosen.
fn lesson_select(
    lessons: &[scenario::Lesson],
    lesson: usize,
    lang: Lang,
    pick: Callback<usize>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let el: web_sys::HtmlSelectElement = e.target_unchecked_into();
        pick.emit(el.value().parse().unwrap_or(0));
    });
    html! {
        <label>{ l(L::Lesson) }{ " " }
            <select {onchange} data-testid="pulsar-lesson-select">
                { for lessons.iter().enumerate().map(|(i, les)| html! {
                    <option value={i.to_string()} selected={i == lesson}>{ les.title_in(lang) }</option>
                }) }
            </select>
        </label>
    }
}

/// The lesson and player step to start at: `?lesson=NAME` (the course's links) opens
/// that lesson; `&step=N` (an LMS package resuming, docs/lms.md) at that player step
/// (past the end: at the end, Next off).
#[hook]
fn use_address_lesson(
    lessons: &'static [scenario::Lesson],
) -> (UseStateHandle<usize>, UseStateHandle<usize>) {
    let lesson = use_state(|| {
        let search = super::browser::location_field("search").unwrap_or_default();
        let wanted = super::embed::parse_options(&search).lesson;
        wanted
            .and_then(|name| lessons.iter().position(|l| l.name == name))
            .unwrap_or(0)
    });
    let at = use_state(|| {
        let search = super::browser::location_field("search").unwrap_or_default();
        super::embed::parse_options(&search).step.unwrap_or(0)
    });
    (lesson, at)
}

/// Below the player: the differences table and the two sides of the story, and the
/// Pulsar world's partitions, subscriptions, coordinators and timeline.
fn world_panels(replay: &Replay) -> Html {
    html! {
        <>
            { differences(replay.pulsar_world()) }
            { sides(replay) }
            if let Some(w) = replay.pulsar_world() {
                { partitions(w) }
                { subscriptions(w) }
                { coordinators(w) }
                { timeline(w) }
            }
        </>
    }
}

#[function_component(PulsarApp)]
pub fn pulsar_app() -> Html {
    let view = use_view_from_hash();
    let lessons = scenario::pulsar_lessons();
    // The page's language (a new one re-renders every panel in it); the first one (`?lang=`, else the browser's) is in force
    // before the mount (`language::then_mount`).
    let lang = use_state(ui_lang);
    let (lesson, at) = use_address_lesson(lessons);
    let answers = use_state(Vec::<(usize, usize)>::new);
    // `playing` is 1 while Play runs, else 0: both are `usize`, as `at` is, because a
    // hook on a type of its own is more wasm (≈ 0.3 KB gzip on this site's budget).
    // `speed` is in percent (`Panels::SPEEDS`).
    let playing = use_state(|| 0usize);
    let speed = use_state(|| 100usize);
    let current = &lessons[*lesson % lessons.len()];
    // Fetched on the Pulsar site, whose wasm has no lesson texts (`lesson_files`), also
    // behind `#compare` and `#play`: the host page hears where the learner is.
    let text = use_lesson_text(Some(current));
    let parsed = match text {
        LessonText::Here(text) => scenario::parse(text).unwrap_or_default(),
        _ => scenario::Scenario::default(),
    };
    // What the steps print (the timeline's narration) is in the page's language too.
    let mut replay = Replay::new(parsed);
    replay.set_lang(*lang);
    // One Next is one player step (`scenario::player`), as on the Kafka pages.
    let total = replay.player_len();
    // A failure is kept in the replay's error; the player shows it.
    let _ = replay.play_player_to(*at);
    let shown = shown(&replay, *at, *lang, &answers);
    let on_answer = answer(answers.clone(), shown.marked.clone(), current.name);
    let correct = shown.marked.iter().filter(|m| answers.contains(m)).count();
    let (here, loading) = (
        matches!(text, LessonText::Here(_)),
        text == LessonText::Loading,
    );
    {
        // While the lesson's file is on its way the host hears nothing yet (`eos:ready`
        // waits, as on the main page); a lesson whose file failed records no progress.
        let (name, at, score) = (current.name, *at, (correct, shown.marked.len()));
        use_effect_with(
            (name, at, total, here, loading),
            move |&(name, at, total, here, loading)| {
                if loading {
                    return;
                }
                if here {
                    super::progress::record(name, at, total);
                    super::browser::follow_step(Some(name.as_ptr() as usize), at);
                }
                tell_host(name, at, total, score);
            },
        );
    }
    // About 180 words a minute, a second at least, 30 s at most, divided by the speed.
    let words: usize = shown.step.as_ref().map_or(0, |s| {
        s.narration_in(*lang)
            .iter()
            .map(|p| p.split_whitespace().count())
            .sum()
    });
    let delay_ms = ((1000 + 333 * words).min(30_000) * 100 / (*speed).max(1)) as u32;
    use_pulsar_autoplay(
        *playing == 1 && *at < total && replay.error().is_none(),
        &at,
        &playing,
        (*speed, *lesson),
        delay_ms,
        *at + 1 >= total || shown.asks_next,
    );
    let pick = {
        let (lesson, at, answers, playing) =
            (lesson.clone(), at.clone(), answers.clone(), playing.clone());
        Callback::from(move |i: usize| {
            // The address names the lesson and the language (the page reads no other
            // option), as the main page's link names its view: a reload or the address
            // shared opens it, at its beginning.
            let _ = super::browser::replace_address(&format!(
                "?lesson={}&lang={}{}",
                lessons.get(i).map_or("", |l| l.name),
                ui_lang().code(),
                super::browser::location_field("hash").unwrap_or_default()
            ));
            lesson.set(i);
            at.set(0);
            answers.set(Vec::new());
            playing.set(0);
        })
    };
    let on_switch = {
        let lang = lang.clone();
        Callback::from(move |l: Lang| lang.set(l))
    };
    let set_view = {
        let view = view.clone();
        Callback::from(move |v: View| view.set(v))
    };
    html! {
        <div class="site-app pulsar-app">
            <header class="site-header">
                <a href={super::language::href_in_lang("../index.html")} data-testid="back-to-kafka">{ l(L::BackToKafka) }</a>
                <super::language::LangMenu {on_switch} />
                <h1>{ l(L::Title) }</h1>
                <p>{ l(L::Intro) }</p>
            </header>
            { nav(*view, set_view) }
            if *view == View::Compare {
                <super::compare::ComparePage lang={*lang} />
            } else if *view == View::Play {
                <super::pulsar_play::PulsarPlay lang={*lang} />
            } else {
                <section class="panel lesson-player" aria-labelledby="pulsar-lesson">
                    <h2 id="pulsar-lesson" data-testid="pulsar-lesson-title">{ current.title_in(*lang) }</h2>
                    { lesson_select(lessons, *lesson, *lang, pick) }
                    { status_line(text, current.name) }
                    { step_shown(&shown, *lang, on_answer) }
                    if let Some(e) = replay.error() { <p class="error" role="alert">{ e.in_lang(replay.lang()) }</p> }
                    // The lesson's end: what the playground does not model.
                    if total > 0 && *at >= total {
                        <p class="small"><a href={super::site_href("limits.html")} data-testid="lesson-limits">{ crate::i18n::t(crate::i18n::Key::LimitsLink) }</a></p>
                    }
                </section>
                // Nothing to press or read while the file loads (or after it failed).
                if here {
                    { dock(&at, &playing, &speed, total) }
                    { world_panels(&replay) }
                }
            }
        </div>
    }
}

/// The step just played (its title, narration, script and what it printed) and the
/// questions asked before the next one.
fn step_shown(shown: &Shown, lang: Lang, on_answer: Callback<(usize, usize)>) -> Html {
    html! {
        <>
            if let Some(s) = &shown.step {
                <div class="pulsar-step" aria-live="polite" data-testid="pulsar-step-text">
                    if let Some(t) = s.title_in(lang) { <h3>{ t.to_string() }</h3> }
                    { for s.narration_in(lang).iter().map(|p| html! { <p>{ super::components::prose::prose(p) }</p> }) }
                    if !shown.intro {
                        <details class="step-script">
                            <summary>{ crate::i18n::t(crate::i18n::Key::LessonShowScript) }</summary>
                            <pre class="mono">{ shown.script.join("\n") }</pre>
                        </details>
                        <h4>{ l(L::Printed) }</h4>
                        <pre class="mono small" data-testid="pulsar-printed">{ shown.printed.clone() }</pre>
                    }
                </div>
            }
            if !shown.questions.is_empty() {
                <div class="lesson-questions stack" data-testid="lesson-questions">
                    <h3 class="small-heading">{ crate::i18n::t(crate::i18n::Key::QuestionHeading) }</h3>
                    { for shown.questions.iter().map(|q| html! {
                        <super::components::question::Question key={q.line} question={q.clone()} on_answer={on_answer.clone()} />
                    }) }
                </div>
            }
        </>
    }
}

/// The main page's lesson dock (`lesson_panel`): fixed to the window's bottom, so Next
/// never scrolls away from a long step; outside the panel, whose box it does not belong
/// to. Restart, Back, Next, Play/Pause, the speed and where the player is.
fn dock(
    at: &UseStateHandle<usize>,
    playing: &UseStateHandle<usize>,
    speed: &UseStateHandle<usize>,
    total: usize,
) -> Html {
    let go = |to: usize| {
        let at = at.clone();
        Callback::from(move |_: MouseEvent| at.set(to.min(total)))
    };
    let on_play = {
        let (at, playing) = (at.clone(), playing.clone());
        Callback::from(move |_: MouseEvent| {
            if *playing == 1 {
                playing.set(0);
            } else {
                // At the end, Play starts the lesson again.
                if *at >= total {
                    at.set(0);
                }
                playing.set(1);
            }
        })
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(v) = el.value().parse::<usize>() {
                speed.set(v);
            }
        })
    };
    let (at, playing, speed) = (**at, **playing, **speed);
    html! {
        <div class="lesson-dock" role="group" aria-label={crate::i18n::t(crate::i18n::Key::LessonControls)}>
        <div class="dock-inner player-buttons">
            <button type="button" onclick={go(0)}>{ l(L::Restart) }</button>
            <button type="button" onclick={go(at.saturating_sub(1))} disabled={at == 0}>{ l(L::Back) }</button>
            <button type="button" class="primary" data-testid="pulsar-next" onclick={go(at + 1)} disabled={at >= total}>{ l(L::Next) }</button>
            <button type="button" data-testid="pulsar-play" data-playing={(playing == 1).to_string()} onclick={on_play}>{ crate::i18n::t(if playing == 1 { crate::i18n::Key::TtPause } else { crate::i18n::Key::LessonPlay }) }</button>
            <label class="small">{ crate::i18n::t(crate::i18n::Key::LessonSpeed) }{ " " }
                <select data-testid="pulsar-speed" onchange={on_speed}>
                    { for super::state::Panels::SPEEDS.iter().map(|v| html! {
                        <option value={v.to_string()} selected={*v as usize == speed}>{ speed_label(*v) }</option>
                    }) }
                </select>
            </label>
            <span class="muted" data-testid="pulsar-step">{ format!("{} {} / {total}", l(L::StepOf), at) }</span>
        </div>
        </div>
    }
}

/// Whether `eos:ready` was posted (one Pulsar page a document).
static TOLD: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Posts a message, written as JSON, to the host page (nothing outside a frame). JSON
/// text rather than objects built field by field: less wasm on this site's budget.
fn post_json(json: &str) {
    super::embed::post(&js_sys::JSON::parse(json).unwrap_or_default());
}

/// Tells a host page where the learner is, with the compact view's messages
/// (docs/embedding.md): `eos:ready` first, then `eos:state` after every step and
/// `eos:complete` with the score at the end. Lesson names need no JSON escaping.
fn tell_host(lesson: &str, step: usize, steps: usize, (correct, total): (usize, usize)) {
    let at = format!(r#""lesson":"{lesson}","step":{step},"steps":{steps}"#);
    if !TOLD.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let version = super::embed::API_VERSION;
        return post_json(&format!(
            r#"{{"type":"eos:ready","version":{version},{at}}}"#
        ));
    }
    post_json(&format!(
        r#"{{"type":"eos:state",{at},"verdict":null,"lastEvent":null}}"#
    ));
    if steps > 0 && step >= steps {
        let score = format!(r#"{{"correct":{correct},"total":{total}}}"#);
        post_json(&format!(
            r#"{{"type":"eos:complete","lesson":"{lesson}","steps":{steps},"score":{score}}}"#
        ));
    }
}

/// `0.5×`, `1×`, `1.5×`: a speed in percent as a learner reads it.
fn speed_label(percent: u32) -> String {
    match percent % 100 {
        0 => format!("{}×", percent / 100),
        r => format!("{}.{}×", percent / 100, r / 10),
    }
}

/// Mounts the Pulsar site into `#app`, once the English catalog is here.
pub fn start() {
    super::IN_SUBFOLDER.store(true, std::sync::atomic::Ordering::Relaxed);
    super::language::then_mount(|| super::mount_in_app::<PulsarApp>(()));
}
