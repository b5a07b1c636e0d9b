//! `kafka-transactions.sh` for the shown partition: describe-producers (the leader's
//! producer state) and find-hanging (its open transactions, hanging or not yet), with
//! the `abort` button of a hanging one (`admin abort`, one engine action).

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::sim::Action;
use crate::view::txn_admin::AdminView;

#[derive(Properties, PartialEq)]
pub struct TxnAdminProps {
    pub view: Option<AdminView>,
    /// The partition's LSO (what a hanging transaction holds back).
    pub lso: i64,
    /// A lesson is loaded: the abort button pauses.
    pub locked: bool,
    /// A click's engine action, applied to the page (`Msg::Act`).
    pub on_act: Callback<Action>,
}

#[function_component(TxnAdmin)]
pub fn txn_admin(p: &TxnAdminProps) -> Html {
    let Some(v) = &p.view else {
        return Html::default();
    };
    let producers: Html = v
        .producers
        .iter()
        .map(|r| {
            html! {
                <tr>
                    <td>{ r.producer_id }</td>
                    <td>{ r.producer_epoch }</td>
                    <td>{ r.coordinator_epoch }</td>
                    <td>{ r.last_sequence }</td>
                    <td>{ r.last_timestamp_ms }</td>
                    <td>{ r.current_txn_start.map_or("None".to_string(), |o| o.to_string()) }</td>
                </tr>
            }
        })
        .collect();
    let open: Html = v
        .open
        .iter()
        .map(|o| {
            let onclick = {
                let (on_act, action) = (p.on_act.clone(), o.abort.clone());
                Callback::from(move |_: MouseEvent| on_act.emit(action.clone()))
            };
            html! {
                <li class={class_list(&["admin-open", on(o.hanging, "hanging")])} data-testid={format!("admin-open-{}", o.start_offset)}>
                    <span>{ tf(Key::AdminOpen, &[&o.producer_id.to_string(), &o.producer_epoch.to_string(), &o.start_offset.to_string(), &(o.open_ms / 1000).to_string()]) }</span>
                    { " " }
                    if o.hanging {
                        <span class="badge warn" data-testid="admin-hanging">{ tf(Key::AdminHanging, &[&p.lso.to_string()]) }</span>
                        if !p.locked {
                            <button type="button" class="mono-button" data-testid={format!("admin-abort-{}", o.start_offset)} {onclick}>{ tf(Key::AdminAbort, &[&o.start_offset.to_string()]) }</button>
                        }
                    } else {
                        <span class="badge">{ t(Key::AdminNotHanging) }</span>
                    }
                </li>
            }
        })
        .collect();
    let minutes = (v.max_transaction_timeout_ms / 60_000).to_string();
    html! {
        <section class="panel stack admin-panel" aria-labelledby="admin-heading" data-testid="admin-panel">
            <h2 id="admin-heading">{ tf(Key::AdminHeading, &[&v.tp.to_string()]) }</h2>
            <p class="small muted">{ tf(Key::AdminIntro, &[&minutes]) }</p>
            <h3 class="small-heading mono">{ t(Key::AdminDescribe) }</h3>
            if v.producers.is_empty() {
                <p class="small muted">{ t(Key::AdminNoProducers) }</p>
            } else {
                <div class="scroll-x" tabindex="0" role="region" aria-label={t(Key::AdminDescribe)}>
                    <table class="mono small admin-table" data-testid="admin-producers">
                        <caption class="visually-hidden">{ t(Key::AdminDescribe) }</caption>
                        <thead><tr>
                            { for ["ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence", "LastTimestamp", "CurrentTransactionStartOffset"].iter().map(|h| html! { <th scope="col">{ *h }</th> }) }
                        </tr></thead>
                        <tbody>{ producers }</tbody>
                    </table>
                </div>
            }
            <h3 class="small-heading mono">{ t(Key::AdminFindHanging) }</h3>
            if v.open.is_empty() {
                <p class="small muted" data-testid="admin-no-open">{ t(Key::AdminNoOpen) }</p>
            } else {
                <ul class="admin-list small" data-testid="admin-open">{ open }</ul>
                if v.hanging().next().is_some() {
                    <p class="small muted">{ t(Key::AdminAbortHint) }</p>
                }
            }
        </section>
    }
}
