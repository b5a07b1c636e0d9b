//! The transaction rules in force: the cluster's `transaction.version`, what clients
//! negotiate, the verification switch, and what each rule that differs between the
//! versions is here (values from `view::rules`, words from the catalog).

use yew::prelude::*;

use crate::i18n::{t, Key};
use crate::view::rules::{Rule, RuleValue, RulesView};

#[derive(Properties, PartialEq)]
pub struct RulesPanelProps {
    pub view: RulesView,
}

fn rule_key(r: Rule) -> Key {
    match r {
        Rule::AddPartitions => Key::RuleAddPartitions,
        Rule::EpochPerTransaction => Key::RuleEpoch,
        Rule::MarkerEpoch => Key::RuleMarkerEpoch,
        Rule::EndTxnCheck => Key::RuleEndTxn,
        Rule::LeaderCheck => Key::RuleLeader,
    }
}

fn value_key(v: RuleValue) -> Key {
    use RuleValue::*;
    match v {
        ClientAddsPartitions => Key::RvClientAdds,
        LeaderAddsPartitions => Key::RvLeaderAdds,
        EpochKept => Key::RvEpochKept,
        EpochBumped => Key::RvEpochBumped,
        MarkerTransactionEpoch => Key::RvMarkerTxnEpoch,
        MarkerBumpedEpoch => Key::RvMarkerBumped,
        EndTxnSameEpoch => Key::RvEndTxnEqual,
        EndTxnSameEpochOrRetry => Key::RvEndTxnRetry,
        LeaderVerifies => Key::RvLeaderVerifies,
        LeaderChecksNothing => Key::RvLeaderNothing,
        LeaderAddsItself => Key::RvLeaderItself,
    }
}

#[function_component(RulesPanel)]
pub fn rules_panel(p: &RulesPanelProps) -> Html {
    let v = &p.view;
    let setting = |label: Key, key: &str, value: String, id: &str| {
        html! {
            <tr>
                <th scope="row">{ t(label) }</th>
                <td><code class="small">{ key.to_string() }</code>{ " = " }<strong class="mono" data-testid={id.to_string()}>{ value }</strong></td>
            </tr>
        }
    };
    let rows: Html = v
        .rules
        .iter()
        .map(|(rule, value)| {
            html! {
                <tr>
                    <th scope="row">{ t(rule_key(*rule)) }</th>
                    <td>{ t(value_key(*value)) }</td>
                </tr>
            }
        })
        .collect();
    html! {
        <section class="panel stack rules-panel" aria-labelledby="rules-heading" data-testid="rules-panel">
            <h2 id="rules-heading">{ t(Key::RulesHeading) }</h2>
            <p class="small muted">{ t(Key::RulesIntro) }</p>
            <table class="rules-table small">
                <caption class="visually-hidden">{ t(Key::RulesHeading) }</caption>
                <tbody>
                    { setting(Key::RulesCluster, "transaction.version", v.cluster_version.to_string(), "rules-tv") }
                    { setting(Key::RulesClient, "transaction.version", v.client_version.to_string(), "rules-client-tv") }
                    { setting(Key::RulesVerification, "transaction.partition.verification.enable", v.verification.to_string(), "rules-verification") }
                    { rows }
                </tbody>
            </table>
            if v.can_hang {
                <p class="small"><span class="badge warn">{ "!" }</span>{ " " }{ t(Key::RulesCanHang) }</p>
            } else {
                <p class="small muted">{ t(Key::RulesCannotHang) }</p>
            }
        </section>
    }
}
