//! The producer panel: type records and send; arm "drop next ack/request"; step mode.

use yew::prelude::*;

use super::field::Field;
use crate::i18n::{t, tf, Key};
use crate::sim::Action;
use crate::ui::state::{Page, PRODUCER};
use crate::view::validate;

pub use crate::view::idempotence_page::ProducerInfo;

#[derive(Properties, PartialEq)]
pub struct ProducerPanelProps {
    pub info: ProducerInfo,
    pub step_mode: bool,
    /// A lesson is loaded: controls are paused.
    pub disabled: bool,
    /// Why the last action was refused.
    pub error: Option<String>,
    /// A click's engine action, applied to the page (`Msg::Act`).
    pub on_act: Callback<Action>,
    /// "Pause after each click" turned on or off (`Msg::SetStepMode`).
    pub on_step_mode: Callback<bool>,
}

#[function_component(ProducerPanel)]
pub fn producer_panel(p: &ProducerPanelProps) -> Html {
    let records = use_state(|| "a, b".to_string());
    let error = use_state(|| None::<Key>);

    let onsubmit = {
        let (records, error, on_act) = (records.clone(), error.clone(), p.on_act.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match validate::records(&records) {
                Ok(values) => {
                    error.set(None);
                    on_act.emit(Action::Send {
                        producer: PRODUCER.into(),
                        topic_partition: Page::Idempotence.partition(),
                        values,
                    });
                }
                Err(e) => error.set(Some(e.into())),
            }
        })
    };
    let oninput = {
        let (records, error) = (records.clone(), error.clone());
        Callback::from(move |v: String| {
            records.set(v);
            error.set(None);
        })
    };
    let on_step_mode = {
        let on_step_mode = p.on_step_mode.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                on_step_mode.emit(input.checked());
            }
        })
    };
    let act = |a: Action| {
        let on_act = p.on_act.clone();
        Callback::from(move |_: MouseEvent| on_act.emit(a.clone()))
    };
    let producer = || Some(PRODUCER.to_string());

    let status = match p.info.id {
        Some((pid, epoch, seq)) => tf(
            Key::ProducerStatus,
            &[&pid.to_string(), &epoch.to_string(), &seq.to_string()],
        ),
        None => t(Key::ProducerNoId).to_string(),
    };
    let faults = if p.info.faults.is_empty() {
        t(Key::NoFaults).to_string()
    } else {
        tf(Key::FaultsArmed, &[&p.info.faults.join("; ")])
    };

    html! {
        <section class="panel stack producer-panel" aria-labelledby="producer-heading">
            <h2 id="producer-heading">{ t(Key::ProducerHeading) }</h2>
            <p class="muted">{ t(Key::ProducerIntro) }</p>
            if p.disabled {
                <p class="notice">{ t(Key::LessonLocksControls) }</p>
            } else {
            <fieldset class="bare stack">
                <legend class="visually-hidden">{ t(Key::ProducerHeading) }</legend>
                <form class="stack" {onsubmit} novalidate=true>
                    <Field
                        id="records"
                        label={t(Key::RecordsLabel)}
                        value={(*records).clone()}
                        hint={t(Key::RecordsHint)}
                        error={error.map(|k| AttrValue::from(t(k)))}
                        testid="records"
                        {oninput}
                    />
                    <div class="cluster">
                        <button type="submit" class="primary" data-testid="send">
                            { if p.step_mode { t(Key::SendButtonStep) } else { t(Key::SendButton) } }
                        </button>
                        <button type="button" data-testid="drop-ack" onclick={act(Action::DropNextResponse { to: producer() })}>{ t(Key::DropAckButton) }</button>
                        <button type="button" data-testid="drop-request" onclick={act(Action::DropNextRequest { from: producer() })}>{ t(Key::DropRequestButton) }</button>
                    </div>
                </form>
                <p class="muted small" data-testid="faults">{ faults }</p>
                <div class="stack step-controls">
                    <label class="check">
                        <input type="checkbox" checked={p.step_mode} onchange={on_step_mode} aria-describedby="step-mode-hint" data-testid="step-mode" />
                        { t(Key::StepMode) }
                    </label>
                    <p id="step-mode-hint" class="muted small">{ t(Key::StepModeHint) }</p>
                    <div class="cluster">
                        <button type="button" data-testid="step" onclick={act(Action::Step)}>{ t(Key::StepButton) }</button>
                        <button type="button" data-testid="run" onclick={act(Action::RunUntilIdle)}>{ t(Key::RunButton) }</button>
                    </div>
                </div>
            </fieldset>
            }
            if !p.disabled {
                <p class="small mono" data-testid="producer-status">{ status }</p>
                <p class="small muted">{ tf(Key::InFlight, &[&p.info.in_network.to_string(), &p.info.pending.to_string()]) }</p>
            }
            if let Some(e) = &p.error {
                <p class="action-error" role="alert">{ tf(Key::ActionFailed, &[e]) }</p>
            }
            { super::limits_help("producer") }
        </section>
    }
}
