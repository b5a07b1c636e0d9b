//! The Pulsar site's "Compare with Kafka" view: the `kafka-vs-pulsar` story played on
//! both engines, one player step at a time, with Kafka's side (partitions with HW and
//! LSO, the transaction coordinator's transactional ids) beside Pulsar's (partitions
//! with maxReadPosition and the transaction buffer, the coordinator's TxnIDs and its
//! log), and the differences table filling in as the story shows each difference.
//! Everything shown is [`crate::view::compare`]'s model, worded by the catalog.

use crate::ui::class::class_list;
use yew::prelude::*;

use crate::i18n::narration::compare_words as words;
use crate::i18n::narration::pulsar_label;
use crate::i18n::Lang;
use crate::pulsar::{Position, TxnID};
use crate::scenario;
use crate::ui::lesson_files::{status_line, use_lesson_text, LessonText};
use crate::view::compare::{
    compare, CompareLabel as C, CompareView, DiffRow, KafkaPartition, KafkaSide, PulsarSide, Row,
};
use crate::view::partition::BatchKind;
use crate::view::pulsar::{EntryKind, PulsarLabel as L, TxnOutcome};

/// The story the page plays: Kafka's steps and Pulsar's in one scenario.
pub const STORY: &str = "kafka-vs-pulsar";

/// A list of the transaction buffer's, or "none" in `lang`: never an empty `[]`.
fn txns(v: &[(TxnID, Position)], lang: Lang) -> String {
    if v.is_empty() {
        return pulsar_label(L::None, lang);
    }
    v.iter()
        .map(|(t, p)| format!("{t}@{p}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn row_id(row: Row) -> &'static str {
    match row {
        Row::UncommittedData => "data",
        Row::ReadLimit => "read-limit",
        Row::AbortedData => "aborted",
        Row::WhoFilters => "filter",
        Row::InputJoins => "input",
        Row::CoordinatorLog => "log",
        Row::Zombie => "zombie",
        Row::CoordinatorCrash => "crash",
    }
}

/// One cell of a side's table: its text, and the tag class of a state word.
struct Cell {
    text: String,
    tag: Option<&'static str>,
}

fn mono(text: impl ToString) -> Cell {
    Cell {
        text: text.to_string(),
        tag: None,
    }
}

/// One table of a side. All of them go through [`table`], one `html!` for every
/// table kind: each `html!` is a lot of wasm, and this site has a size budget.
struct Table {
    testid: String,
    caption: String,
    head: Vec<String>,
    /// (row class, cells); no rows shows `empty` across the table.
    rows: Vec<(String, Vec<Cell>)>,
    empty: Option<String>,
    /// A line under the table (a transaction buffer's lists).
    after: Option<String>,
}

fn table(t: Table) -> Html {
    let span = t.head.len().to_string();
    html! {
        <>
            <table class="compare-table" data-testid={t.testid}>
                <caption class="mono">{ t.caption }</caption>
                <thead><tr>{ for t.head.into_iter().map(|h| html! { <th scope="col">{ h }</th> }) }</tr></thead>
                <tbody>
                    if t.rows.is_empty() {
                        if let Some(e) = t.empty { <tr><td colspan={span} class="muted">{ e }</td></tr> }
                    }
                    { for t.rows.into_iter().map(|(class, cells)| html! {
                        <tr class={class}>{ for cells.into_iter().map(|c| match c.tag {
                            Some(tag) => html! { <td><span class={class_list(&["kind-tag", tag])}>{ c.text }</span></td> },
                            None => html! { <td class="mono">{ c.text }</td> },
                        }) }</tr>
                    }) }
                </tbody>
            </table>
            if let Some(a) = t.after { <p class="mono small compare-buffer">{ a }</p> }
        </>
    }
}

/// A state word with its row class (`kind-…`) and tag (`tag-…`, none for plain).
fn state(kind: &'static str, text: String) -> (String, Cell) {
    let tag = match kind {
        "committed" => "tag-committed",
        "aborted" => "tag-aborted",
        "open" => "tag-open",
        "marker" => "tag-marker",
        _ => "tag-plain",
    };
    (
        format!("kind-{kind}"),
        Cell {
            text,
            tag: Some(tag),
        },
    )
}

fn kafka_tables(k: &KafkaSide, lang: Lang) -> Vec<Table> {
    let c = |l: C| words::label(l, lang);
    let mut out: Vec<Table> = k
        .partitions
        .iter()
        .map(|p: &KafkaPartition| Table {
            testid: format!("compare-kafka-{}", p.tp),
            caption: words::kafka_partition(&p.tp, p.high_watermark, p.last_stable_offset, lang),
            head: vec![c(C::Offset), c(C::Value), c(C::State)],
            rows: p
                .records
                .iter()
                .map(|r| {
                    let word = match r.kind {
                        BatchKind::Committed => pulsar_label(L::Committed, lang),
                        BatchKind::Aborted => pulsar_label(L::Aborted, lang),
                        BatchKind::Open => c(C::Open),
                        BatchKind::CommitMarker => pulsar_label(L::CommitMarker, lang),
                        BatchKind::AbortMarker => pulsar_label(L::AbortMarker, lang),
                        BatchKind::Plain => pulsar_label(L::Plain, lang),
                    };
                    let (class, cell) = state(r.kind.css(), word);
                    (class, vec![mono(r.offset), mono(&r.value), cell])
                })
                .collect(),
            empty: None,
            after: None,
        })
        .collect();
    out.push(Table {
        testid: "compare-kafka-coordinator".into(),
        caption: c(C::Coordinator),
        head: vec![
            c(C::TransactionalId),
            c(C::State),
            c(C::ProducerId),
            c(C::Epoch),
            c(C::Partitions),
        ],
        rows: k
            .txns
            .iter()
            .map(|t| {
                let st = match t.pending {
                    Some(p) => format!("{} → {p}", t.state),
                    None => t.state.to_string(),
                };
                (
                    String::new(),
                    vec![
                        mono(&t.transactional_id),
                        mono(st),
                        mono(t.producer_id),
                        mono(t.producer_epoch),
                        mono(t.partitions.join(" ")),
                    ],
                )
            })
            .collect(),
        empty: Some(c(C::NoTransactions)),
        after: None,
    });
    out
}

fn pulsar_tables(p: &PulsarSide, lang: Lang) -> Vec<Table> {
    let c = |l: C| words::label(l, lang);
    let pl = |l: L| pulsar_label(l, lang);
    let mut out: Vec<Table> = p
        .partitions
        .iter()
        .map(|part| Table {
            testid: format!("compare-pulsar-{}", part.topic),
            caption: words::pulsar_partition(&part.topic, part.max_read_position, lang),
            head: vec![pl(L::Position), pl(L::Entry), pl(L::State)],
            rows: part
                .entries
                .iter()
                .map(|e| {
                    let (what, (class, cell)) = match &e.kind {
                        EntryKind::Message {
                            value,
                            txn,
                            outcome,
                            ..
                        } => {
                            let (label, kind) = match outcome {
                                TxnOutcome::Plain => (L::Plain, "plain"),
                                TxnOutcome::Ongoing => (L::Ongoing, "open"),
                                TxnOutcome::Committed => (L::Committed, "committed"),
                                TxnOutcome::Aborted => (L::Aborted, "aborted"),
                            };
                            let what = match txn {
                                Some(t) => format!("{value} {t}"),
                                None => value.clone(),
                            };
                            (what, state(kind, pl(label)))
                        }
                        EntryKind::Marker { txn, commit } => (
                            txn.to_string(),
                            state(
                                "marker",
                                pl(if *commit {
                                    L::CommitMarker
                                } else {
                                    L::AbortMarker
                                }),
                            ),
                        ),
                    };
                    (class, vec![mono(e.position), mono(what), cell])
                })
                .collect(),
            empty: None,
            after: Some(words::buffer(
                txns(&part.ongoing, lang),
                txns(&part.aborted, lang),
                lang,
            )),
        })
        .collect();
    for (tc, running, log) in &p.coordinators {
        let mine: Vec<_> = p
            .txns
            .iter()
            .filter(|t| t.id.coordinator().0 == *tc)
            .collect();
        out.push(Table {
            testid: format!("compare-pulsar-tc-{tc}"),
            caption: words::pulsar_coordinator(*tc, *running, lang),
            head: vec![
                c(C::TxnId),
                c(C::Name),
                c(C::State),
                c(C::Partitions),
                c(C::Subscriptions),
            ],
            rows: mine
                .iter()
                .map(|t| {
                    (
                        String::new(),
                        vec![
                            mono(t.id),
                            mono(t.name.clone().unwrap_or_default()),
                            mono(t.status.name()),
                            mono(t.partitions.join(" ")),
                            mono(t.subscriptions.join(" ")),
                        ],
                    )
                })
                .collect(),
            empty: Some(c(if log.is_empty() {
                C::NoTransactions
            } else {
                C::NoPulsarTxns
            })),
            after: None,
        });
        if !log.is_empty() {
            out.push(Table {
                testid: format!("compare-pulsar-log-{tc}"),
                caption: format!("__transaction_log_{tc} · {}", pl(L::TransactionLog)),
                head: vec![pl(L::Position), c(C::TxnId), c(C::Operation)],
                rows: log
                    .iter()
                    .map(|r| {
                        let deleted = if r.deleted {
                            format!(" ({})", pl(L::Deleted))
                        } else {
                            String::new()
                        };
                        (
                            if r.deleted { "deleted" } else { "" }.to_string(),
                            vec![
                                mono(r.position),
                                mono(r.txn),
                                mono(format!("{} {}{deleted}", r.op, r.detail)),
                            ],
                        )
                    })
                    .collect(),
                empty: None,
                after: None,
            });
        }
    }
    out
}

/// One side: its heading, then its tables (or why there are none yet).
fn side(id: &'static str, title: String, tables: Option<Vec<Table>>, not_yet: String) -> Html {
    html! {
        <section class="panel compare-side" aria-labelledby={id} data-testid={id}>
            <h3 {id}>{ title }</h3>
            if let Some(tables) = tables {
                { for tables.into_iter().map(table) }
            } else {
                <p class="muted">{ not_yet }</p>
            }
        </section>
    }
}

fn differences(rows: &[DiffRow], lang: Lang) -> Html {
    let c = |l: C| words::label(l, lang);
    let cell = |since: Option<usize>, text: Option<String>, side: L| {
        let (side, label) = (
            if side == L::Kafka { "kafka" } else { "pulsar" },
            pulsar_label(side, lang),
        );
        match (since, text) {
            (Some(step), Some(text)) => html! {
                <td class="filled" data-side={side} data-label={label}>
                    <span class="since muted small">{ words::since(step, lang) }</span>
                    <span class="fact">{ text }</span>
                </td>
            },
            _ => {
                html! { <td class="muted empty" data-side={side} data-label={label}>{ c(C::NotShownYet) }</td> }
            }
        }
    };
    html! {
        <section class="panel compare-differences" aria-labelledby="compare-differences-caption">
            <table data-testid="compare-differences">
                <caption id="compare-differences-caption">{ c(C::DifferencesCaption) }</caption>
                <thead><tr>
                    <th scope="col">{ pulsar_label(L::Question, lang) }</th>
                    <th scope="col">{ pulsar_label(L::Kafka, lang) }</th>
                    <th scope="col">{ pulsar_label(L::Pulsar, lang) }</th>
                </tr></thead>
                <tbody>{ for rows.iter().map(|r| html! {
                    <tr data-testid={format!("compare-row-{}", row_id(r.row))}>
                        <th scope="row">{ words::question(r.row, lang) }</th>
                        { cell(r.kafka.as_ref().map(|c| c.since_step), r.kafka.as_ref().map(|c| words::kafka(&c.fact, lang)), L::Kafka) }
                        { cell(r.pulsar.as_ref().map(|c| c.since_step), r.pulsar.as_ref().map(|c| words::pulsar(&c.fact, lang)), L::Pulsar) }
                    </tr>
                }) }</tbody>
            </table>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ComparePageProps {
    /// The page's language (a new one re-renders the view in it).
    pub lang: Lang,
}

/// The comparison once its story's text is here: on the Pulsar site its file is fetched
/// first (`lesson_files`), and the page shows its title and the main page's words for a
/// lesson loading (or not loaded) meanwhile.
#[function_component(ComparePage)]
pub fn compare_page(p: &ComparePageProps) -> Html {
    // From the Pulsar lessons only: `scenario::lesson` would look through every Kafka
    // lesson too.
    let story = scenario::pulsar_lessons().iter().find(|l| l.name == STORY);
    let text = use_lesson_text(story);
    if let LessonText::Here(source) = text {
        return html! { <CompareStory lang={p.lang} {source} /> };
    }
    html! {
        <section class="compare-page" aria-labelledby="compare-title">
            <h2 id="compare-title">{ words::label(C::Title, p.lang) }</h2>
            { status_line(text, STORY) }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct CompareStoryProps {
    lang: Lang,
    /// The story's scenario text.
    source: &'static str,
}

#[function_component(CompareStory)]
fn compare_story(p: &CompareStoryProps) -> Html {
    let (lang, source) = (p.lang, p.source);
    let c = |l: C| words::label(l, lang);
    let at = use_state(|| 0usize);
    // Parsed twice rather than cloned: a `Scenario` clone is ≈ 5 KB of wasm.
    let (Ok(story), Ok(played)) = (scenario::parse(source), scenario::parse(source)) else {
        return html! {};
    };
    let view: CompareView = compare(played, *at);
    // A button that becomes disabled under the keyboard's focus (Next at the last step,
    // Back at the first) drops the focus to the page; after a step it goes to the other.
    let (back_ref, next_ref) = (use_node_ref(), use_node_ref());
    let stepped = use_mut_ref(|| false);
    {
        let (back_ref, next_ref, stepped) = (back_ref.clone(), next_ref.clone(), stepped.clone());
        let (at, len) = (*at, view.len);
        use_effect_with(at, move |_| {
            if std::mem::take(&mut *stepped.borrow_mut()) {
                let (to, from) = if at >= len {
                    (&back_ref, &next_ref)
                } else {
                    (&next_ref, &back_ref)
                };
                // Chromium leaves `activeElement` on a button it disabled; other
                // browsers move it to the body.
                let doc = web_sys::window().and_then(|w| w.document());
                let lost = doc.is_some_and(|d| {
                    d.active_element().is_none_or(|e| {
                        d.body().is_some_and(|b| *b == e)
                            || from.cast::<web_sys::Element>().is_some_and(|f| f == e)
                    })
                });
                if lost && (at == 0 || at >= len) {
                    if let Some(el) = to.cast::<web_sys::HtmlElement>() {
                        let _ = el.focus();
                    }
                }
            }
        });
    }
    let go = |to: usize| {
        let at = at.clone();
        let len = view.len;
        let stepped = stepped.clone();
        Callback::from(move |_: MouseEvent| {
            *stepped.borrow_mut() = true;
            at.set(to.min(len))
        })
    };
    let shown = view
        .shown_lines
        .as_ref()
        .and_then(|r| story.steps.get(r.start));
    html! {
        <section class="compare-page" aria-labelledby="compare-title">
            <h2 id="compare-title">{ c(C::Title) }</h2>
            <p>{ c(C::Intro) }</p>
            <div class="panel compare-player">
                <div class="player-buttons cluster">
                    <button type="button" data-testid="compare-restart" onclick={go(0)} disabled={view.at == 0}>{ pulsar_label(L::Restart, lang) }</button>
                    <button type="button" data-testid="compare-back" ref={back_ref} onclick={go(view.at.saturating_sub(1))} disabled={view.at == 0}>{ pulsar_label(L::Back, lang) }</button>
                    <button type="button" data-testid="compare-next" ref={next_ref} onclick={go(view.at + 1)} disabled={view.at >= view.len}>{ pulsar_label(L::Next, lang) }</button>
                    <span class="muted" role="status" data-testid="compare-step">{ format!("{} {} / {}", pulsar_label(L::StepOf, lang), view.at, view.len) }</span>
                </div>
                if let Some(s) = shown {
                    <div aria-live="polite" data-testid="compare-narration">
                        if let Some(t) = s.title_in(lang) { <h3>{ t.to_string() }</h3> }
                        { for s.narration_in(lang).iter().map(|n| html! { <p>{ super::components::prose::prose(n) }</p> }) }
                    </div>
                }
                if let Some(e) = &view.error { <p class="error" role="alert">{ e.clone() }</p> }
            </div>
            { differences(&view.rows, lang) }
            <div class="compare-sides">
                { side("compare-kafka", c(C::KafkaSide), Some(kafka_tables(&view.kafka, lang)), String::new()) }
                { side("compare-pulsar", c(C::PulsarSide), view.pulsar.as_ref().map(|p| pulsar_tables(p, lang)), c(C::PulsarNotYet)) }
            </div>
        </section>
    }
}
