//! The Pulsar site's free play (`#play`): one topic with one consumer, buttons in the
//! lesson dock that each add a line to a script, the world that script builds (the
//! same scenario runner as the lessons, so a click is exactly a scenario step), its
//! panels, and the Pulsar challenges ("Try it") that the engine checks on that world.

use yew::prelude::*;

use super::pulsar::{coordinators, l, partitions, subscriptions, timeline};
use crate::i18n::Lang;
use crate::pulsar::PulsarWorld;
use crate::scenario::{self, Replay};
use crate::view::pulsar::PulsarLabel as L;

/// The world every free play starts from.
const SETUP: &str = "pulsar topic create t\npulsar subscribe c t-partition-0 sub\n";
const TOPIC: &str = "t-partition-0";

#[derive(Properties, PartialEq)]
pub struct PlayProps {
    /// The page's language: a new one renders the page again.
    pub lang: Lang,
}

/// The transaction the buttons act on: the last one opened (`t1`, `t2`, …).
fn current_txn(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("pulsar txn new "))
        .map(str::to_string)
}

/// What the consumer received that its subscription still owes an answer for: not
/// acknowledged and not held in pending ack.
fn unacked(w: &PulsarWorld) -> Vec<String> {
    let (Some(c), Some(t)) = (w.consumer("c"), w.topic(TOPIC)) else {
        return Vec::new();
    };
    let Some(s) = t.subscriptions.get("sub") else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for (p, _) in &c.received {
        let text = p.to_string();
        if !s.cursor.is_message_deleted(*p)
            && s.pending_ack.holder(*p).is_none()
            && !out.contains(&text)
        {
            out.push(text);
        }
    }
    out
}

#[function_component(PulsarPlay)]
pub fn pulsar_play(_: &PlayProps) -> Html {
    let lines = use_state(Vec::<String>::new);
    let source = format!(
        "{SETUP}{}",
        lines.iter().map(|l| format!("{l}\n")).collect::<String>()
    );
    let mut replay = Replay::new(scenario::parse(&source).unwrap_or_default());
    // A refused line prints its error; the world stays as it was.
    let _ = replay.play_to(usize::MAX);
    let Some(w) = replay.pulsar_world() else {
        return html! {};
    };
    let txn = current_txn(&lines);
    let sends = lines
        .iter()
        .filter(|l| l.starts_with("pulsar send"))
        .count();
    let owed = unacked(w);
    let add = |line: Option<String>| {
        let lines = lines.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(line) = &line {
                let mut next = (*lines).clone();
                next.push(line.clone());
                lines.set(next);
            }
        })
    };
    let txns = lines
        .iter()
        .filter(|l| l.starts_with("pulsar txn new"))
        .count();
    let new_txn = add(Some(format!("pulsar txn new t{}", txns + 1)));
    let send_txn = add(txn
        .as_ref()
        .map(|t| format!("pulsar send p {TOPIC} txn={t} m{sends}")));
    let send_plain = add(Some(format!("pulsar send p {TOPIC} m{sends}")));
    let commit = add(txn.as_ref().map(|t| format!("pulsar txn commit {t}")));
    let abort = add(txn.as_ref().map(|t| format!("pulsar txn abort {t}")));
    let receive = add(Some("pulsar receive c max=10".to_string()));
    let ack = add(txn
        .as_ref()
        .filter(|_| !owed.is_empty())
        .map(|t| format!("pulsar ack c {} txn={t}", owed.join(" "))));
    let unload = add(Some(format!("pulsar topic unload {TOPIC}")));
    let reset = {
        let lines = lines.clone();
        Callback::from(move |_: MouseEvent| lines.set(Vec::new()))
    };
    let items: Vec<(&'static str, bool)> = crate::view::challenges::on_pulsar_page()
        .map(|c| (c.id, c.solved_pulsar(w)))
        .collect();
    let printed: Vec<String> = replay
        .outputs()
        .iter()
        .flat_map(|o| o.lines.iter().cloned())
        .collect();
    let no_txn = txn.is_none();
    html! {
        <>
            <section class="panel" aria-labelledby="pulsar-play" data-testid="pulsar-play">
                <h2 id="pulsar-play">{ l(L::FreePlay) }</h2>
                <p>{ l(L::FreePlayIntro) }</p>
                <details class="step-script">
                    <summary>{ crate::i18n::t(crate::i18n::Key::LessonShowScript) }</summary>
                    <pre class="mono" data-testid="pulsar-play-script">{ source }</pre>
                </details>
                <h3>{ l(L::Printed) }</h3>
                <pre class="mono small" data-testid="pulsar-play-printed" aria-live="polite">{ printed.join("\n") }</pre>
            </section>
            <super::components::challenges::Challenges {items} />
            <div class="lesson-dock" role="group" aria-label={l(L::FreePlay)}>
                <div class="dock-inner player-buttons" data-testid="pulsar-play-buttons">
                    <button type="button" data-testid="play-new-txn" onclick={new_txn}>{ l(L::NewTxn) }</button>
                    <button type="button" data-testid="play-send-txn" onclick={send_txn} disabled={no_txn}>{ l(L::SendTxn) }</button>
                    <button type="button" data-testid="play-send-plain" onclick={send_plain}>{ l(L::SendPlain) }</button>
                    <button type="button" data-testid="play-receive" onclick={receive}>{ l(L::Receive) }</button>
                    <button type="button" data-testid="play-ack-txn" onclick={ack} disabled={no_txn || owed.is_empty()}>{ l(L::AckTxn) }</button>
                    <button type="button" data-testid="play-commit" onclick={commit} disabled={no_txn}>{ l(L::Commit) }</button>
                    <button type="button" data-testid="play-abort" onclick={abort} disabled={no_txn}>{ l(L::Abort) }</button>
                    <button type="button" data-testid="play-unload" onclick={unload}>{ l(L::Unload) }</button>
                    <button type="button" data-testid="play-reset" onclick={reset}>{ l(L::Reset) }</button>
                </div>
            </div>
            { partitions(w) }
            { subscriptions(w) }
            { coordinators(w) }
            { timeline(w) }
        </>
    }
}
