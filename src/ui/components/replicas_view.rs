//! A partition's replicas side by side: one column per replica, one row per offset (so
//! the same offset lines up across replicas), with each replica's LEO, HW and LSO, its
//! ISR membership and role, the leader epoch each batch was written in, markers, and
//! where a replica's bytes differ from the leader's.

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::view::replicas::{ReplicaColumn, ReplicasPanel, Slot};

#[derive(Properties, PartialEq)]
pub struct ReplicasViewProps {
    pub panel: ReplicasPanel,
}

/// A replica's column head. A stopped leader the controller has not fenced yet
/// (`unreachable`) is marked so: it still leads, and nothing reaches it.
fn head(c: &ReplicaColumn, unreachable: bool) -> Html {
    let role = if c.leader {
        html! { <span class="badge info">{ t(Key::ReplicaLeader) }</span> }
    } else {
        html! { <span class="badge">{ t(Key::ReplicaFollower) }</span> }
    };
    let isr = if c.in_isr {
        html! { <span class="badge ok">{ t(Key::ReplicaInIsr) }</span> }
    } else if c.in_elr {
        html! { <span class="badge info" data-testid={format!("replica-{}-elr", c.broker)}>{ t(Key::ReplicaInElr) }</span> }
    } else {
        html! { <span class="badge warn">{ t(Key::ReplicaOutOfIsr) }</span> }
    };
    html! {
        <th scope="col" data-testid={format!("replica-{}", c.broker)}>
            <span class="replica-name">{ tf(Key::BrokerN, &[&c.broker.to_string()]) }</span>
            <span class="replica-badges">
                { role }{ " " }{ isr }
                if !c.online {
                    { " " }<span class="badge danger">{ t(if c.leader && unreachable { Key::LeaderUnreachable } else { Key::BrokerStopped }) }</span>
                }
            </span>
            <span class="mono small replica-offsets" data-testid={format!("replica-{}-offsets", c.broker)}>
                { tf(Key::ReplicaOffsets, &[&c.log_end_offset.to_string(), &known(c.high_watermark), &known(c.last_stable_offset)]) }
            </span>
            if c.high_watermark < 0 {
                // Kafka keeps -1 until the follower's first fetch answer brings the HW.
                <span class="small muted replica-hw-unknown">{ t(Key::ReplicaHwUnknown) }</span>
            }
        </th>
    }
}

/// An offset, or "?" for Kafka's -1 (not known yet).
fn known(offset: i64) -> String {
    if offset < 0 {
        "?".to_string()
    } else {
        offset.to_string()
    }
}

fn cell(slot: &Slot) -> Html {
    match *slot {
        Slot::Missing => {
            html! { <td class="slot-missing muted">{ "·" }<span class="visually-hidden">{ t(Key::SlotMissing) }</span></td> }
        }
        Slot::Record {
            control,
            leader_epoch,
            below_hw,
            same_as_leader,
        } => {
            let kind = if control {
                t(Key::SlotMarker)
            } else {
                t(Key::SlotRecord)
            };
            html! {
                <td class={class_list(&["mono", "slot-record", on(control, "slot-marker"), on(!below_hw, "slot-above-hw"), on(!same_as_leader, "slot-diverged")])}>
                    { kind }{ " " }
                    <span class="small">{ tf(Key::SlotEpoch, &[&leader_epoch.to_string()]) }</span>
                    if !below_hw {
                        { " " }<span class="badge">{ t(Key::SlotAboveHw) }</span>
                    }
                    if !same_as_leader {
                        { " " }<span class="badge danger">{ t(Key::SlotDiverged) }</span>
                    }
                </td>
            }
        }
    }
}

#[function_component(ReplicasView)]
pub fn replicas_view(p: &ReplicasViewProps) -> Html {
    let panel = &p.panel;
    // The view model holds the newest offsets only (`view::replicas::REPLICA_ROWS`).
    let from = panel.first_offset;
    let shown = panel
        .columns
        .iter()
        .map(|c| c.slots.len())
        .max()
        .unwrap_or(0);
    let width = from + shown;
    let isr: Vec<String> = panel.isr.iter().map(i32::to_string).collect();
    // Keyed by offset, in a list of their own (a list with an unkeyed child is diffed by
    // position): a new offset moves the rows on by one without rewriting them.
    let rows: Html = (0..shown).map(|i| {
        html! {
            <tr key={from + i}>
                <th scope="row" class="num mono">{ from + i }</th>
                { for panel.columns.iter().map(|c| c.slots.get(i).map_or_else(|| cell(&Slot::Missing), cell)) }
            </tr>
        }
    }).collect();
    let caption = tf(Key::ReplicasHeading, &[&panel.tp.to_string()]);
    // The scroll region's name differs from the section's (axe: landmark-unique).
    let summary = tf(
        Key::ReplicasSummary,
        &[
            &panel.leader.to_string(),
            &panel.leader_epoch.to_string(),
            &isr.join(", "),
            &panel.partition_epoch.to_string(),
        ],
    );
    let summary = match &panel.elr {
        Some(elr) => {
            let elr: Vec<String> = elr.iter().map(i32::to_string).collect();
            tf(Key::ReplicasElr, &[&summary, &elr.join(", ")])
        }
        None => summary,
    };
    html! {
        <section class="panel stack replicas-panel" aria-labelledby="replicas-heading" data-testid="replicas-view">
            <h2 id="replicas-heading">{ caption.clone() }</h2>
            <p class="small mono" data-testid="replicas-summary">
                { summary.clone() }
            </p>
            <div class="scroll-x" tabindex="0" role="region" aria-label={summary}>
                <table class="replicas-table">
                    <caption class="visually-hidden">{ caption }</caption>
                    <thead>
                        <tr>
                            <th scope="col" class="num">{ t(Key::LogOffsets) }</th>
                            { for panel.columns.iter().map(|c| head(c, panel.leader_unreachable_ms.is_some())) }
                        </tr>
                    </thead>
                    <tbody>
                        if width == 0 {
                            <tr><td colspan={(panel.columns.len() + 1).to_string()} class="muted">{ t(Key::LogEmpty) }</td></tr>
                        }
                        { rows }
                    </tbody>
                </table>
            </div>
            if from > 0 {
                <p class="muted small">{ tf(Key::ReplicasEarlier, &[&from.to_string()]) }</p>
            }
            <p class="muted small">{ t(Key::ReplicasHint) }</p>
        </section>
    }
}
