//! The cluster: every broker up, fenced or stopped, and as the controller sees it (a
//! crash it has not noticed counts down its session), with one click to crash, restart,
//! cut it off from the controller or heal it; which broker leads each partition and
//! which coordinates each transactional id. Each button is one existing [`Action`],
//! so a click is recorded, replayed and shared like a scenario line.

use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::sim::{Action, Fault, Node};
pub use crate::view::cluster::ClusterBroker;
use crate::view::replicas::{BrokerState, ControllerSees};

#[derive(Properties, PartialEq)]
pub struct ClusterPanelProps {
    pub brokers: Vec<ClusterBroker>,
    /// A lesson is loaded: show, do not act.
    pub disabled: bool,
    /// A click's engine action, applied to the page the panel is on (`Msg::Act`).
    pub on_act: Callback<Action>,
}

fn act(on_act: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let on_act = on_act.clone();
    Callback::from(move |_: MouseEvent| on_act.emit(action.clone()))
}

/// The test id of a part of broker `id`'s card (one formatting for all of them).
fn part(id: i32, what: &str) -> String {
    format!("broker-{id}-{what}")
}

/// A button of broker `id`'s card (its number is read out after the label).
fn button(id: i32, what: &str, label: Key, onclick: Callback<MouseEvent>) -> Html {
    html! {
        <button type="button" data-testid={part(id, what)} {onclick}>
            { t(label) }<span class="visually-hidden">{ format!(" {id}") }</span>
        </button>
    }
}

#[function_component(ClusterPanel)]
pub fn cluster_panel(p: &ClusterPanelProps) -> Html {
    let card = |b: &ClusterBroker| {
        let id = b.card.id;
        let (badge, state) = match b.card.state {
            BrokerState::Up => ("badge ok", t(Key::BrokerUp)),
            BrokerState::Fenced => ("badge warn", t(Key::BrokerFenced)),
            BrokerState::Stopped => ("badge danger", t(Key::BrokerStopped)),
        };
        // What the controller makes of it: the process state alone does not say
        // whether it still leads. One line, its number filled where the text has one.
        let seen = match b.card.controller {
            ControllerSees::SessionRunning {
                running: true,
                fence_in_ms,
            } => Some((Key::BrokerSessionCut, fence_in_ms)),
            ControllerSees::SessionRunning { fence_in_ms, .. } => {
                Some((Key::BrokerSessionCrashed, fence_in_ms))
            }
            ControllerSees::Registering { retry_in_ms } => {
                Some((Key::BrokerRegistering, retry_in_ms))
            }
            ControllerSees::ControlledShutdown => Some((Key::BrokerControlledShutdown, 0)),
            // A running broker's state badge says "fenced": this one says why.
            ControllerSees::Fenced if b.card.state == BrokerState::Stopped => {
                Some((Key::BrokerFenced, 0))
            }
            ControllerSees::Fenced => Some((Key::BrokerCut, 0)),
            ControllerSees::Active => None,
        };
        let registering = matches!(b.card.controller, ControllerSees::Registering { .. });
        let leads: Vec<String> = b
            .card
            .leads
            .iter()
            .map(|tp| tp.to_string())
            .chain(
                b.card
                    .leads_internal
                    .iter()
                    .map(|(topic, n)| tf(Key::LeadsInternal, &[topic, &n.to_string()])),
            )
            .collect();
        let (broker, controller) = (Node::Broker(id), Node::LONE_CONTROLLER);
        // A broker waiting for its registration may be stopped again, not started.
        let buttons = if b.card.state == BrokerState::Stopped && !registering {
            button(
                id,
                "start",
                Key::StartButton,
                act(&p.on_act, Action::StartBroker { broker: id }),
            )
        } else {
            let crash = button(
                id,
                "crash",
                Key::CrashButton,
                act(
                    &p.on_act,
                    Action::StopBroker {
                        broker: id,
                        clean: false,
                    },
                ),
            );
            let link = if b.cut {
                button(
                    id,
                    "heal",
                    Key::HealButton,
                    act(
                        &p.on_act,
                        Action::HealLink {
                            a: broker,
                            b: controller,
                        },
                    ),
                )
            } else {
                button(
                    id,
                    "cut",
                    Key::CutButton,
                    act(
                        &p.on_act,
                        Action::ArmFault {
                            fault: Fault::Cut {
                                a: broker,
                                b: controller,
                            },
                        },
                    ),
                )
            };
            html! { <>{ crash }{ link }</> }
        };
        html! {
            <li class="broker-card stack" data-testid={format!("broker-{id}")}>
                <p class="broker-card-head">
                    <strong>{ tf(Key::BrokerN, &[&id.to_string()]) }</strong>{ " " }
                    <span class={badge} data-testid={part(id, "state")}>{ state }</span>
                </p>
                if let Some((key, ms)) = seen {
                    <p class="small notice" data-testid={part(id, "controller")}>{ tf(key, &[&ms.to_string()]) }</p>
                }
                <p class="small mono" data-testid={part(id, "leads")}>
                    { if leads.is_empty() { t(Key::LeadsNone).to_string() } else { tf(Key::LeadsList, &[&leads.join(", ")]) } }
                </p>
                if !b.coordinates.is_empty() {
                    <p class="small mono" data-testid={part(id, "coordinates")}>{ tf(Key::CoordinatesList, &[&b.coordinates.join(", ")]) }</p>
                }
                if !b.card.catching_up.is_empty() {
                    <p class="small notice" data-testid={part(id, "catching-up")}>{ tf(Key::BrokerCatchingUp, &[&b.card.catching_up.iter().map(|tp| tp.to_string()).collect::<Vec<_>>().join(", ")]) }</p>
                }
                if !p.disabled {
                    <div class="cluster">{ buttons }</div>
                }
            </li>
        }
    };
    html! {
        <section class="panel stack cluster-panel" aria-labelledby="cluster-heading" data-testid="cluster-panel">
            <h2 id="cluster-heading">{ t(Key::ClusterHeading) }</h2>
            <ul class="bare broker-cards">{ for p.brokers.iter().map(card) }</ul>
            if !p.disabled {
                <p class="muted small">{ t(Key::ClusterHint) }</p>
            }
            { super::limits_help("cluster") }
        </section>
    }
}
