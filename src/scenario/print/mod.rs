//! Printing scenarios back to text: what the UI records as the learner clicks becomes
//! a scenario file (for share links and "save as lesson"), and parsing it gives the
//! same steps back.

mod admin;
mod cluster;
mod consumer;
#[cfg(feature = "log-cleaner")]
mod disk;
mod fault;
mod producer;
mod raw;
#[cfg(feature = "set-epoch")]
mod set_epoch;
mod topic_admin;
mod transaction;
mod view;

pub use fault::{node, print_fault};

use super::parse::{IdRef, Scenario, Show, StepKind};
use crate::log::TopicPartition;
use crate::sim::Action;

/// A value as a scenario token: quoted when it would otherwise split, look like an
/// option or a comment, or vanish.
pub fn quote(v: &str) -> String {
    let plain = !v.is_empty()
        && !v.starts_with('#')
        && !v.chars().any(|c| {
            c.is_whitespace() || c == '"' || c == '\\' || c == '=' || c == '{' || c == '}'
        });
    if plain {
        return v.to_string();
    }
    let mut out = String::with_capacity(v.len() + 2);
    out.push('"');
    for c in v.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn words(values: &[String]) -> String {
    values
        .iter()
        .map(|v| quote(v))
        .collect::<Vec<_>>()
        .join(" ")
}

fn options(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!(" {k}={}", quote(v)))
        .collect()
}

fn partitions(tps: &[TopicPartition]) -> String {
    tps.iter()
        .map(|tp| tp.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn id_ref(r: &IdRef) -> String {
    match r {
        IdRef::Value(v) => v.to_string(),
        IdRef::Last => "last".into(),
    }
}

/// The step for an action the learner did; a hand-made Produce becomes the scenario's
/// own `raw produce` step.
pub fn step_for_action(action: Action) -> StepKind {
    match action {
        Action::RawProduce {
            topic_partition,
            producer_id,
            producer_epoch,
            base_sequence,
            transactional_id,
            values,
            label,
        } => StepKind::RawProduce {
            tp: topic_partition,
            pid: IdRef::Value(producer_id),
            epoch: IdRef::Value(i64::from(producer_epoch)),
            seq: base_sequence,
            txn: transactional_id,
            values,
            label,
            show: Show::Line,
        },
        other => StepKind::Act(other),
    }
}

/// One line of scenario text for a step, or `None` for the few requests the language
/// cannot write (they never come from a click).
pub fn print_step(kind: &StepKind) -> Option<String> {
    Some(match kind {
        StepKind::Cluster(c) => cluster::print_cluster(c),
        StepKind::Echo(text) => format!("echo {text}"),
        StepKind::RawProduce {
            tp,
            pid,
            epoch,
            seq,
            txn,
            values,
            label,
            show,
        } => {
            let txn = txn
                .as_ref()
                .map(|t| format!(" txn={}", quote(t)))
                .unwrap_or_default();
            let label = label
                .as_ref()
                .map(|l| format!(" label={}", quote(l)))
                .unwrap_or_default();
            let show = match show {
                Show::Line => "",
                Show::Row => " show=row",
                Show::Verdict => " show=verdict",
                Show::Nothing => " show=none",
            };
            format!(
                "raw produce {tp} pid={} epoch={} seq={seq}{txn}{label}{show} {}",
                id_ref(pid),
                id_ref(epoch),
                words(values)
            )
        }
        StepKind::Print(view) => view::print_view(view),
        StepKind::Act(action) => print_action(action)?,
        #[cfg(feature = "pulsar")]
        StepKind::Pulsar(step) => step.text.clone(),
    })
}

/// One arm a family, each printed by `print_…_action` in its family's file here, as
/// `World::apply` applies each family beside its code and the parser reads each family in
/// its own file under `parse/`.
fn print_action(action: &Action) -> Option<String> {
    match action {
        Action::SetBrokerConfig { .. }
        | Action::RestartBroker { .. }
        | Action::StopBroker { .. }
        | Action::StartBroker { .. } => cluster::print_cluster_action(action),
        #[cfg(feature = "metadata-log")]
        Action::StopController { .. } | Action::StartController { .. } => {
            cluster::print_cluster_action(action)
        }
        Action::CreateTopic { .. } => topic_admin::print_topic_admin_action(action),
        #[cfg(feature = "topic-admin")]
        Action::AlterTopicConfigs { .. }
        | Action::ReassignPartition { .. }
        | Action::ListReassignments { .. }
        | Action::CreatePartitions { .. }
        | Action::DeleteTopic { .. } => topic_admin::print_topic_admin_action(action),
        Action::CreateProducer { .. } | Action::Send { .. } | Action::Flush { .. } => {
            producer::print_producer_action(action)
        }
        Action::InitTransactions { .. }
        | Action::BeginTransaction { .. }
        | Action::CommitTransaction { .. }
        | Action::AbortTransaction { .. }
        | Action::SendOffsetsToTransaction { .. }
        | Action::Transform { .. } => transaction::print_transaction_action(action),
        Action::CreateConsumer { .. }
        | Action::Assign { .. }
        | Action::Poll { .. }
        | Action::Seek { .. } => consumer::print_consumer_action(action),
        #[cfg(feature = "group-membership")]
        Action::Subscribe { .. } | Action::Unsubscribe { .. } => {
            consumer::print_consumer_action(action)
        }
        Action::RawInitProducerId | Action::RawRequest { .. } | Action::RawProduce { .. } => {
            raw::print_raw_action(action)
        }
        Action::DropNextRequest { .. }
        | Action::DropNextResponse { .. }
        | Action::HoldMarkers
        | Action::ReleaseMarkers
        | Action::HoldRequests { .. }
        | Action::ReleaseRequests { .. }
        | Action::ArmFault { .. }
        | Action::ReleaseHeld { .. }
        | Action::ReleaseMessage { .. }
        | Action::HealLink { .. }
        | Action::DisarmFault { .. }
        | Action::ClearFaults => fault::print_fault_action(action),
        Action::AdminAbortTransaction { .. }
        | Action::AdminElectLeaders { .. }
        | Action::AdminDeleteRecords { .. } => admin::print_admin_action(action),
        #[cfg(feature = "log-cleaner")]
        Action::CleanLog { .. }
        | Action::TakeSnapshot { .. }
        | Action::TruncateLog { .. }
        | Action::CorruptFile { .. } => disk::print_disk_action(action),
        #[cfg(feature = "set-epoch")]
        Action::SetTxnEpoch { .. } | Action::SetProducerEpoch { .. } => {
            set_epoch::print_set_epoch_action(action)
        }
        Action::Break { switch, on } => Some(format!(
            "break {}{}",
            switch.name(),
            if *on { "" } else { " off" }
        )),
        Action::Step => Some("step".into()),
        Action::RunUntilIdle => Some("run".into()),
        Action::Advance { ms } => Some(format!("run {ms}")),
    }
}

/// A family's `print_…_action` given an action of another family: `print_action` never
/// does that, so a debug build stops here, and `tests/scenario_props.rs` prints one of
/// every `Action` variant (an arm added to the dispatch but not to its family fails).
fn other_family(family: &str, action: &Action) -> Option<String> {
    debug_assert!(
        false,
        "print_action sent {action:?} to the {family} printer"
    );
    None
}

/// A whole scenario as text (steps that cannot be written are left out, with a note).
pub fn print(scenario: &Scenario) -> String {
    let mut out = String::new();
    for step in &scenario.steps {
        if let Some(title) = &step.title {
            out.push_str(&format!("## {title}\n"));
        }
        for t in &step.translations {
            if let Some(title) = &t.title {
                out.push_str(&format!("## [{}] {title}\n", t.lang.code()));
            }
        }
        for (i, paragraph) in step.narration.iter().enumerate() {
            if i > 0 {
                out.push_str(">\n");
            }
            out.push_str(&format!("> {paragraph}\n"));
        }
        for t in &step.translations {
            for paragraph in &t.narration {
                out.push_str(">\n");
                out.push_str(&format!("> [{}] {paragraph}\n", t.lang.code()));
            }
        }
        super::question::print(&step.questions, &mut out);
        match print_step(&step.kind) {
            Some(line) => out.push_str(&line),
            None => out.push_str(&format!("# (line {} cannot be written as text)", step.line)),
        }
        out.push('\n');
    }
    out
}
