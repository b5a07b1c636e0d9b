//! The network control of the transactions page: pause after each click (step mode)
//! with Step and Run, cut or heal the link between two nodes, every fault in force with
//! the button that takes it out of force, and the held messages with a release button
//! each. Every button dispatches one engine action (recorded, undoable, shareable).

use yew::prelude::*;

use crate::i18n::narration::fault as fault_words;
use crate::i18n::{t, tf, ui_lang, Key};
use crate::sim::{Action, Node};
use crate::view::network::{link_action, link_allowed, ClearKind, NetworkView};

#[derive(Properties, PartialEq)]
pub struct NetworkPanelProps {
    pub view: NetworkView,
    /// Messages on the wire now (not held).
    pub on_wire: usize,
    /// "Pause after each click" (the app's step mode).
    pub step_mode: bool,
    /// A lesson is loaded: the panel shows the faults, its controls pause.
    pub locked: bool,
    /// A click's engine action, applied to the page (`Msg::Act`).
    pub on_act: Callback<Action>,
    /// "Pause after each click" turned on or off (`Msg::SetStepMode`).
    pub on_step_mode: Callback<bool>,
}

fn clear_key(kind: ClearKind) -> Key {
    match kind {
        ClearKind::Heal => Key::NetHealButton,
        ClearKind::Release => Key::NetReleaseButton,
        ClearKind::Disarm => Key::NetDisarmButton,
    }
}

/// The index of a node in the list, read from a `<select>`'s change event.
fn selected(e: &Event) -> Option<usize> {
    use wasm_bindgen::JsCast;
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        .and_then(|s| s.value().parse().ok())
}

#[function_component(NetworkPanel)]
pub fn network_panel(p: &NetworkPanelProps) -> Html {
    let v = &p.view;
    // The two ends of the link: the first client and the first broker to start with.
    let first_broker = v
        .nodes
        .iter()
        .position(|n| matches!(n, Node::Broker(_)))
        .unwrap_or(0);
    let ends = use_state(|| (0usize, first_broker));
    let act = |action: Action| {
        let on_act = p.on_act.clone();
        Callback::from(move |_: MouseEvent| on_act.emit(action.clone()))
    };
    let (a, b) = *ends;
    let (node_a, node_b) = (v.nodes.get(a), v.nodes.get(b));
    let link = match (node_a, node_b) {
        (Some(x), Some(y)) => link_action(v, x, y),
        _ => None,
    };
    let cut_now = matches!(link, Some(Action::HealLink { .. }));
    let options = |chosen: usize| -> Html {
        v.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| html! { <option value={i.to_string()} selected={i == chosen}>{ n.to_string() }</option> })
            .collect()
    };
    let on_a = {
        let ends = ends.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = selected(&e) {
                ends.set((i, ends.1));
            }
        })
    };
    let on_b = {
        let ends = ends.clone();
        Callback::from(move |e: Event| {
            if let Some(i) = selected(&e) {
                ends.set((ends.0, i));
            }
        })
    };
    let on_pause = {
        let on_step_mode = p.on_step_mode.clone();
        let on = p.step_mode;
        Callback::from(move |_: Event| on_step_mode.emit(!on))
    };
    let faults: Html = v
        .faults
        .iter()
        .enumerate()
        .map(|(i, f)| {
            html! {
                <li class="net-fault">
                    <span>{ fault_words(&f.fault, ui_lang()) }</span>
                    <code class="small">{ f.step.clone() }</code>
                    if !p.locked {
                        <button type="button" class="small-button" data-testid={format!("net-clear-{i}")} onclick={act(f.clear.clone())}>{ t(clear_key(f.clear_kind)) }</button>
                    }
                </li>
            }
        })
        .collect();
    let held: Html = v
        .held
        .iter()
        .map(|h| {
            let kind = if h.response { t(Key::TlResponse) } else { t(Key::TlRequest) };
            html! {
                <li class="net-fault">
                    <span class="mono small">{ tf(Key::NetHeldItem, &[&h.id.to_string(), &h.api, kind, &h.from.to_string(), &h.to.to_string()]) }</span>
                    if !p.locked {
                        <button type="button" class="small-button" data-testid={format!("net-release-{}", h.id)} onclick={act(h.release.clone())}>{ tf(Key::NetReleaseOne, &[&h.id.to_string()]) }</button>
                    }
                </li>
            }
        })
        .collect();
    html! {
        <section class="panel stack network-panel" aria-labelledby="network-heading" data-testid="network-panel">
            <h2 id="network-heading">{ t(Key::NetHeading) }</h2>
            <p class="small muted">{ t(Key::NetIntro) }</p>
            <p class="small" data-testid="net-status">{ tf(Key::NetOnWire, &[&p.on_wire.to_string(), &v.held.len().to_string()]) }</p>
            if !p.locked {
                <label class="check small">
                    <input type="checkbox" checked={p.step_mode} onchange={on_pause} aria-describedby="net-pause-hint" data-testid="net-pause" />
                    { t(Key::NetPause) }
                </label>
                <p id="net-pause-hint" class="small muted">{ t(Key::NetPauseHint) }</p>
                <div class="cluster">
                    <button type="button" data-testid="net-step" onclick={act(Action::Step)}>{ t(Key::StepButton) }</button>
                    <button type="button" data-testid="net-run" onclick={act(Action::RunUntilIdle)}>{ t(Key::RunButton) }</button>
                </div>
                <fieldset class="net-link stack">
                    <legend>{ t(Key::NetLinkLegend) }</legend>
                    <div class="cluster">
                        <label class="small">{ t(Key::NetLinkFrom) }
                            <select data-testid="net-link-a" onchange={on_a}>{ options(a) }</select>
                        </label>
                        <label class="small">{ t(Key::NetLinkTo) }
                            <select data-testid="net-link-b" onchange={on_b}>{ options(b) }</select>
                        </label>
                    </div>
                    <div class="cluster">
                        <button type="button" data-testid="net-link-toggle" disabled={link.is_none()}
                            onclick={link.clone().map(act).unwrap_or_default()}>
                            { if cut_now { t(Key::NetHeal) } else { t(Key::NetCut) } }
                        </button>
                    </div>
                    if !matches!((node_a, node_b), (Some(x), Some(y)) if link_allowed(x, y)) {
                        <p class="small muted">{ t(Key::NetLinkRefused) }</p>
                    }
                </fieldset>
            }
            <h3 class="small-heading">{ t(Key::NetFaultsHeading) }</h3>
            if v.faults.is_empty() {
                <p class="small muted" data-testid="net-no-faults">{ t(Key::NetNoFaults) }</p>
            } else {
                <ul class="net-faults small" data-testid="net-faults">{ faults }</ul>
                if !p.locked && v.faults.len() > 1 {
                    <div class="cluster">
                        <button type="button" data-testid="net-clear-all" onclick={act(Action::ClearFaults)}>{ t(Key::NetClearAll) }</button>
                    </div>
                }
            }
            if !v.held.is_empty() {
                <h3 class="small-heading">{ t(Key::NetHeldHeading) }</h3>
                <ul class="net-faults" data-testid="net-held">{ held }</ul>
            }
            { super::limits_help("network") }
        </section>
    }
}
