//! The cluster line and the broker and controller steps: `cluster …`, `broker config …`,
//! `broker N restart|stop|start` and `controller N stop|start` (`World::apply_broker_config`
//! and `World::apply_broker_lifecycle`).

use super::quote;
use crate::sim::{Action, ClusterConfig};

/// The `cluster …` line that starts a world shaped like `c`.
pub(super) fn print_cluster(c: &ClusterConfig) -> String {
    let mut line = format!(
        "cluster brokers={} latency.ms={} seed={}",
        c.brokers, c.latency_ms, c.seed
    );
    // Only what differs from Kafka 4.x's defaults, so older links read the same.
    if c.transaction_version != 2 {
        line.push_str(&format!(" transaction.version={}", c.transaction_version));
    }
    if !c.transaction_verification {
        line.push_str(" transaction.partition.verification.enable=false");
    }
    let default = crate::coordinator::internal_topics::INTERNAL_TOPIC_PARTITIONS;
    if c.offsets_topic_num_partitions != default {
        line.push_str(&format!(
            " offsets.topic.num.partitions={}",
            c.offsets_topic_num_partitions
        ));
    }
    if c.transaction_state_log_num_partitions != default {
        line.push_str(&format!(
            " transaction.state.log.num.partitions={}",
            c.transaction_state_log_num_partitions
        ));
    }
    if !c.auto_leader_rebalance {
        line.push_str(" auto.leader.rebalance.enable=false");
    }
    if c.eligible_leader_replicas {
        line.push_str(" eligible.leader.replicas.enable=true");
    }
    if c.controllers != 1 {
        line.push_str(&format!(" controllers={}", c.controllers));
    }
    line
}

/// `broker config …` and `broker N restart|stop|start`.
pub(super) fn print_cluster_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::SetBrokerConfig { key, value } => format!("broker config {key}={}", quote(value)),
        Action::RestartBroker { broker, clean } => format!(
            "broker {broker} restart {}",
            if *clean { "clean" } else { "crash" }
        ),
        Action::StopBroker { broker, clean } => format!(
            "broker {broker} stop {}",
            if *clean { "clean" } else { "crash" }
        ),
        Action::StartBroker { broker } => format!("broker {broker} start"),
        #[cfg(feature = "metadata-log")]
        Action::StopController { controller } => format!("controller {controller} stop"),
        #[cfg(feature = "metadata-log")]
        Action::StartController { controller } => format!("controller {controller} start"),
        _ => return super::other_family("cluster", action),
    })
}
