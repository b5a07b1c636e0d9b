//! Manual mode: craft one idempotent batch by hand (pid, epoch, base sequence, records)
//! and send it from a bare client, like the seed's example.

use yew::prelude::*;

use super::field::Field;
use crate::i18n::{t, Key};
use crate::sim::Action;
use crate::ui::state::Page;
use crate::view::validate;

#[derive(Properties, PartialEq)]
pub struct RawPanelProps {
    pub disabled: bool,
    /// The broker's answers to the last raw request.
    pub lines: Vec<String>,
    /// A line about what the broker expects next for the pid typed in (or None).
    pub expect: Callback<String, Option<String>>,
    /// A click's engine action, applied to the page (`Msg::Act`).
    pub on_act: Callback<Action>,
}

#[function_component(RawPanel)]
pub fn raw_panel(p: &RawPanelProps) -> Html {
    let pid = use_state(|| "1000".to_string());
    let epoch = use_state(|| "0".to_string());
    let seq = use_state(|| "0".to_string());
    let recs = use_state(|| "x".to_string());
    let errors = use_state(|| [None::<Key>; 4]);

    let onsubmit = {
        let (pid, epoch, seq, recs, errors, on_act) = (
            pid.clone(),
            epoch.clone(),
            seq.clone(),
            recs.clone(),
            errors.clone(),
            p.on_act.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let a = validate::non_negative::<i64>(&pid);
            let b = validate::non_negative::<i16>(&epoch);
            let c = validate::non_negative::<i32>(&seq);
            let d = validate::records(&recs);
            errors.set([a.err(), b.err(), c.err(), d.clone().err()].map(|e| e.map(Key::from)));
            if let (Ok(producer_id), Ok(producer_epoch), Ok(base_sequence), Ok(values)) =
                (a, b, c, d)
            {
                on_act.emit(Action::RawProduce {
                    topic_partition: Page::Idempotence.partition(),
                    producer_id,
                    producer_epoch,
                    base_sequence,
                    transactional_id: None,
                    values,
                    label: None,
                });
            }
        })
    };
    let setter = |state: &UseStateHandle<String>, i: usize| {
        let (state, errors) = (state.clone(), errors.clone());
        Callback::from(move |v: String| {
            state.set(v);
            let mut e = *errors;
            e[i] = None;
            errors.set(e);
        })
    };
    let err = |i: usize| errors[i].map(|k| AttrValue::from(t(k)));
    let init = {
        let on_act = p.on_act.clone();
        Callback::from(move |_: MouseEvent| on_act.emit(Action::RawInitProducerId))
    };
    let expect = p.expect.emit((*pid).clone());

    html! {
        <section class="panel stack raw-panel" aria-labelledby="raw-heading">
            <h2 id="raw-heading">{ t(Key::RawHeading) }</h2>
            <p class="muted small">{ t(Key::RawIntro) }</p>
            <fieldset disabled={p.disabled} class="bare">
                <legend class="visually-hidden">{ t(Key::RawHeading) }</legend>
                <form class="stack" {onsubmit} novalidate=true>
                    <div class="raw-grid">
                        <Field id="raw-pid" label={t(Key::RawPid)} value={(*pid).clone()} error={err(0)} testid="raw-pid" inputmode="numeric" oninput={setter(&pid, 0)} />
                        <Field id="raw-epoch" label={t(Key::RawEpoch)} value={(*epoch).clone()} error={err(1)} testid="raw-epoch" inputmode="numeric" oninput={setter(&epoch, 1)} />
                        <Field id="raw-seq" label={t(Key::RawSeq)} value={(*seq).clone()} error={err(2)} testid="raw-seq" inputmode="numeric" oninput={setter(&seq, 2)} />
                    </div>
                    <Field id="raw-records" label={t(Key::RawRecords)} value={(*recs).clone()} error={err(3)} testid="raw-records" oninput={setter(&recs, 3)} />
                    if let Some(line) = expect {
                        <p class="small muted" data-testid="raw-expect">{ line }</p>
                    }
                    <div class="cluster">
                        <button type="submit" class="primary" data-testid="raw-send">{ t(Key::RawSend) }</button>
                        <button type="button" data-testid="raw-init" onclick={init}>{ t(Key::RawInitPid) }</button>
                    </div>
                </form>
            </fieldset>
            if !p.lines.is_empty() {
                <div>
                    <h3 class="small-heading">{ t(Key::RawOutput) }</h3>
                    <pre class="raw-output" data-testid="raw-output">{ p.lines.join("\n") }</pre>
                </div>
            }
        </section>
    }
}
