//! A transactional producer: its id, epoch and client state, the five calls of the
//! transactional API, and how the last call ended (the exception it threw, if any).

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use super::field::Field;
use crate::i18n::narration::txn_exception;
use crate::i18n::{t, tf, Key};
use crate::sim::Action;
use crate::ui::state::Page;
use crate::view::producers::ProducerView;
use crate::view::{tone, validate};

#[derive(Properties, PartialEq)]
pub struct TxnProducerProps {
    pub view: ProducerView,
    /// Appended to every data-testid (`""` for the first producer, `"-2"` for the second).
    pub suffix: AttrValue,
    /// The records field starts with this.
    pub default_records: AttrValue,
    /// A lesson is loaded: the buttons are paused.
    pub disabled: bool,
    /// Why the last call was refused (SimError).
    pub error: Option<String>,
    /// The name a new producer with the same transactional.id would get (offered once
    /// this one is unusable).
    #[prop_or_default]
    pub replacement: AttrValue,
    /// A click's engine action, applied to the page (`Msg::Act`).
    pub on_act: Callback<Action>,
}

/// What the producer's client state means, in a few words.
fn state_hint(state: &str) -> Key {
    match state {
        "UNINITIALIZED" => Key::TxStateUninitialized,
        "READY" => Key::TxStateReady,
        "IN_TRANSACTION" => Key::TxStateInTransaction,
        "ABORTABLE_ERROR" => Key::TxStateAbortable,
        "FATAL_ERROR" => Key::TxStateFatal,
        _ => Key::TxStateBusy,
    }
}

#[function_component(TxnProducer)]
pub fn txn_producer(p: &TxnProducerProps) -> Html {
    let records = use_state(|| p.default_records.to_string());
    let field_error = use_state(|| None::<Key>);
    let v = &p.view;
    let id = |base: &str| format!("{base}{}", p.suffix);
    let onsubmit = {
        let (records, field_error, on_act, name) = (
            records.clone(),
            field_error.clone(),
            p.on_act.clone(),
            v.name.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match validate::records(&records) {
                Ok(values) => {
                    field_error.set(None);
                    on_act.emit(Action::Send {
                        producer: name.to_string(),
                        topic_partition: Page::Transactions.partition(),
                        values,
                    });
                }
                Err(e) => field_error.set(Some(e.into())),
            }
        })
    };
    let oninput = {
        let (records, field_error) = (records.clone(), field_error.clone());
        Callback::from(move |s: String| {
            records.set(s);
            field_error.set(None);
        })
    };
    let identity = match v.id {
        Some((pid, epoch)) => tf(Key::TxProducerId, &[&pid.to_string(), &epoch.to_string()]),
        None => t(Key::TxProducerNoId).to_string(),
    };
    let heading_id = id("txn-producer-heading");
    let field = html! {
        <Field
            id={id("txn-records-field")}
            label={t(Key::RecordsLabel)}
            value={(*records).clone()}
            hint={t(Key::TxRecordsHint)}
            error={field_error.map(|k| AttrValue::from(t(k)))}
            testid={id("txn-records")}
            {oninput}
        />
    };
    html! {
        <section class="panel stack txn-producer" aria-labelledby={heading_id.clone()} data-testid={id("txn-producer")}>
            <div class="panel-head">
                <h2 id={heading_id}>{ v.name.clone() }</h2>
                <span class={class_list(&["badge", tone::client_state(v.state)])} data-testid={id("txn-client-state")}>{ v.state }</span>
            </div>
            <p class="small muted">{ tf(Key::TxProducerIntro, &[&v.transactional_id]) }</p>
            <p class="small mono" data-testid={id("txn-producer-id")}>{ identity }</p>
            <p class="small">{ t(state_hint(v.state)) }
                if !v.partitions.is_empty() {
                    { " " }{ tf(Key::TxInTransaction, &[&v.partitions.join(", ")]) }
                }
            </p>
            if !p.disabled {
                { calls(p, field, onsubmit) }
            }
            if let Some(e) = &p.error {
                <p class="action-error" role="alert" data-testid={id("txn-error")}>{ tf(Key::ActionFailed, &[e]) }</p>
            }
            { outcome(v, &p.suffix) }
            if let Some(epoch) = v.fenced_by_epoch {
                <p class="notice small" data-testid={id("txn-fenced-unaware")}>{ tf(Key::TxFencedUnaware, &[&v.name, &epoch.to_string()]) }</p>
            }
            if v.state == "FATAL_ERROR" && !p.disabled && !p.replacement.is_empty() {
                { recreate(p) }
            }
            { super::limits_help("producer") }
        </section>
    }
}

/// A click that applies `action`.
fn call(on_act: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let on_act = on_act.clone();
    Callback::from(move |_: MouseEvent| on_act.emit(action.clone()))
}

/// The five calls of the transactional API: initTransactions and beginTransaction,
/// the records `field` sent on submit, commitTransaction and abortTransaction.
fn calls(p: &TxnProducerProps, field: Html, onsubmit: Callback<SubmitEvent>) -> Html {
    let v = &p.view;
    let id = |base: &str| format!("{base}{}", p.suffix);
    let producer = || v.name.to_string();
    let in_txn = v.in_transaction;
    html! {
        <div class="stack txn-calls">
            <div class="cluster">
                <button type="button" class="mono-button" data-testid={id("txn-init")} onclick={call(&p.on_act, Action::InitTransactions { producer: producer() })}>{ t(Key::TxInit) }</button>
                <button type="button" class={class_list(&["mono-button", on(!in_txn && v.state == "READY", "primary")])} data-testid={id("txn-begin")} onclick={call(&p.on_act, Action::BeginTransaction { producer: producer() })}>{ t(Key::TxBegin) }</button>
            </div>
            <form class="stack" {onsubmit} novalidate=true>
                { field }
                <div class="cluster">
                    <button type="submit" class={class_list(&["mono-button", on(in_txn, "primary")])} data-testid={id("txn-send")}>{ t(Key::TxSend) }</button>
                </div>
            </form>
            <div class="cluster">
                <button type="button" class="mono-button commit-button" data-testid={id("txn-commit")} onclick={call(&p.on_act, Action::CommitTransaction { producer: producer() })}>{ t(Key::TxCommit) }</button>
                <button type="button" class="mono-button abort-button" data-testid={id("txn-abort")} onclick={call(&p.on_act, Action::AbortTransaction { producer: producer() })}>{ t(Key::TxAbort) }</button>
            </div>
        </div>
    }
}

/// How the last call ended: "✓" with the id and epoch, the exception it threw (the
/// client's own refusal, or the broker's error), or, once the producer is in an error
/// state, why it is broken.
fn outcome(v: &ProducerView, suffix: &str) -> Html {
    let id = |base: &str| format!("{base}{suffix}");
    // An error state outlives the call that last succeeded: say why instead of "✓".
    let broken = matches!(v.state, "ABORTABLE_ERROR" | "FATAL_ERROR");
    let Some(o) = v.outcome.as_ref().filter(|o| !(broken && o.ok)) else {
        return if broken {
            // The call that failed was a send or its request; the state says what is left.
            let why = v.last_error.clone().unwrap_or_default();
            html! {
                <div class="outcome outcome-failed" data-testid={id("producer-outcome")} role="status">
                    <p>{ super::prose::breakable(&tf(if v.state == "FATAL_ERROR" { Key::TxBrokenFatal } else { Key::TxBrokenAbortable }, &[&why])) }</p>
                </div>
            }
        } else {
            html! { <p class="small muted" data-testid={id("producer-outcome")}>{ t(Key::TxNoOutcome) }</p> }
        };
    };
    if o.ok {
        let text = tf(
            Key::TxOutcomeOk,
            &[
                &o.operation,
                &o.producer_id.map(|x| x.to_string()).unwrap_or_default(),
                &o.producer_epoch.map(|x| x.to_string()).unwrap_or_default(),
            ],
        );
        return html! { <p class="outcome outcome-ok" data-testid={id("producer-outcome")}>{ text }</p> };
    }
    // Why, when the cause is a fence or a transaction the coordinator dropped.
    let explain = match o.error.as_deref() {
        Some("INVALID_PRODUCER_EPOCH") | Some("PRODUCER_FENCED") => Some(Key::TxFencedExplain),
        Some("INVALID_TXN_STATE") => Some(Key::TxInvalidStateExplain),
        _ => None,
    };
    if let Some(refusal) = &o.refusal {
        // Refused by the client itself: Kafka's exception class and message.
        let text = tf(
            Key::TxOutcomeRefused,
            &[
                &o.operation,
                refusal.exception_class(),
                &txn_exception(refusal, crate::i18n::ui_lang()),
            ],
        );
        return html! {
            <div class="outcome outcome-failed" data-testid={id("producer-outcome")} role="status">
                <p data-testid={id("txn-refusal")}>{ text }</p>
                <p class="small">{ t(Key::TxRefusedExplain) }</p>
                if let Some(k) = explain {
                    <p class="small">{ t(k) }</p>
                }
            </div>
        };
    }
    let exception = o.exception.clone().unwrap_or_default();
    html! {
        <div class="outcome outcome-failed" data-testid={id("producer-outcome")} role="status">
            <p>{ super::prose::breakable(&tf(Key::TxOutcomeFailed, &[&o.operation, &exception, o.error.as_deref().unwrap_or("")])) }</p>
            if let Some(k) = explain {
                <p class="small">{ t(k) }</p>
            }
        </div>
    }
}

/// A fatal producer can only be closed: the button that starts a new one with the same
/// transactional.id under the first free name.
fn recreate(p: &TxnProducerProps) -> Html {
    let create = Action::CreateProducer {
        name: p.replacement.to_string(),
        configs: vec![("transactional.id".into(), p.view.transactional_id.clone())],
    };
    html! {
        <div class="stack">
            <button type="button" class="mono-button primary" data-testid={format!("txn-recreate{}", p.suffix)} onclick={call(&p.on_act, create)}>{ tf(Key::TxRecreate, &[&p.replacement]) }</button>
            <p class="small muted">{ t(Key::TxRecreateHint) }</p>
        </div>
    }
}
