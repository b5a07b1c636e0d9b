//! The broker: restart it (clean or crash), switch producer snapshots, and see how the
//! producer state was rebuilt (snapshot loaded or segments scanned).

use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::sim::event::window_text;
use crate::sim::Action;

pub use crate::view::idempotence_page::RecoveryInfo;

#[derive(Properties, PartialEq)]
pub struct BrokerPanelProps {
    pub online: bool,
    pub snapshots: bool,
    pub recovery: Option<RecoveryInfo>,
    pub disabled: bool,
    /// A click's engine action, applied to the page (`Msg::Act`).
    pub on_act: Callback<Action>,
}

#[function_component(BrokerPanel)]
pub fn broker_panel(p: &BrokerPanelProps) -> Html {
    let restart = |clean: bool| {
        let on_act = p.on_act.clone();
        Callback::from(move |_: MouseEvent| on_act.emit(Action::RestartBroker { broker: 1, clean }))
    };
    let on_snapshots = {
        let on_act = p.on_act.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                on_act.emit(Action::SetBrokerConfig {
                    key: "producer.snapshots".into(),
                    value: input.checked().to_string(),
                });
            }
        })
    };
    let recovery = match &p.recovery {
        None => html! { <p class="muted small">{ t(Key::RecoveryNone) }</p> },
        Some(r) => {
            let stopped = r.stopped.map(|(clean, n)| {
                if clean {
                    tf(Key::StoppedClean, &[&n.to_string()])
                } else {
                    t(Key::StoppedCrash).to_string()
                }
            });
            let source = match r.report.snapshot_loaded {
                Some(o) => tf(
                    Key::RecoverySnapshot,
                    &[&o.to_string(), &r.report.replayed_batches.to_string()],
                ),
                None => tf(
                    Key::RecoveryScan,
                    &[
                        &r.report.replayed_batches.to_string(),
                        &format!("{:?}", r.report.replayed_segments),
                    ],
                ),
            };
            let windows = if r.windows.is_empty() {
                t(Key::RecoveryNoWindows).to_string()
            } else {
                let w: Vec<String> = r
                    .windows
                    .iter()
                    .map(|(pid, w)| format!("{pid} {}", window_text(w)))
                    .collect();
                tf(Key::RecoveryWindows, &[&w.join(", ")])
            };
            let kind = if r.report.snapshot_loaded.is_some() {
                "badge ok"
            } else {
                "badge warn"
            };
            html! {
                <div class="recovery" data-testid="recovery">
                    if let Some(s) = stopped { <p class="small">{ s }</p> }
                    <p class="small"><span class={kind}>{ if r.report.snapshot_loaded.is_some() { ".snapshot" } else { "scan" } }</span>{ " " }{ source }</p>
                    <p class="small mono">{ windows }</p>
                </div>
            }
        }
    };
    html! {
        <section class="panel stack broker-panel" aria-labelledby="broker-heading">
            <h2 id="broker-heading">
                { t(Key::BrokerHeading) }{ " " }
                <span class={if p.online { "badge ok" } else { "badge danger" }}>
                    { if p.online { t(Key::BrokerOnline) } else { t(Key::BrokerOffline) } }
                </span>
            </h2>
            if p.disabled {
                <p class="small muted" data-testid="snapshots-state">{ format!("{}: {}", t(Key::Snapshots), if p.snapshots { t(Key::On) } else { t(Key::Off) }) }</p>
            } else {
            <fieldset class="bare stack">
                <legend class="visually-hidden">{ t(Key::BrokerHeading) }</legend>
                <div class="cluster">
                    <button type="button" data-testid="restart-clean" onclick={restart(true)}>{ t(Key::RestartClean) }</button>
                    <button type="button" data-testid="restart-crash" onclick={restart(false)}>{ t(Key::RestartCrash) }</button>
                </div>
                <p class="muted small">{ t(Key::RestartHint) }</p>
                <label class="check">
                    <input type="checkbox" role="switch" checked={p.snapshots} onchange={on_snapshots} aria-describedby="snapshots-hint" data-testid="snapshots" />
                    { t(Key::Snapshots) }
                </label>
                <p id="snapshots-hint" class="muted small">{ t(Key::SnapshotsHint) }</p>
            </fieldset>
            }
            <h3 class="small-heading">{ t(Key::RecoveryHeading) }</h3>
            { recovery }
            { super::limits_help("storage") }
        </section>
    }
}
