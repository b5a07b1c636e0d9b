//! The cluster's steps: `cluster KEY=VALUE…`, `broker config KEY=VALUE`, `broker N
//! restart|stop|start [clean|crash]` and (feature `metadata-log`) `controller N stop|start`.

use super::*;
use crate::protocol::config_def::Place;

/// `cluster KEY=VALUE…`: the settings of a fresh world, read through the `ConfigDef`
/// table (Kafka's `ConfigException` words for a bad value).
pub(super) fn cluster_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let mut config = ClusterConfig::default();
    for (t, k, v) in opts {
        // The seed is any u64 (chaos seeds are): not one of Kafka's types.
        if k == "seed" {
            config.seed = number(c, t, &v, "seed")?;
            continue;
        }
        let value = config_value(c, t, Place::Cluster, &k, &v)?;
        // Validated by the table: every number is within its key's range.
        let n = value.number();
        let int = i32::try_from(n).unwrap_or(i32::MAX);
        match k.as_str() {
            "brokers" => config.brokers = int,
            "latency.ms" => config.latency_ms = n,
            "transaction.version" => config.transaction_version = i16::try_from(n).unwrap_or(2),
            "offsets.topic.num.partitions" => config.offsets_topic_num_partitions = int,
            "transaction.state.log.num.partitions" => {
                config.transaction_state_log_num_partitions = int
            }
            "transaction.partition.verification.enable" => {
                config.transaction_verification = value.boolean()
            }
            "auto.leader.rebalance.enable" => config.auto_leader_rebalance = value.boolean(),
            "eligible.leader.replicas.enable" => config.eligible_leader_replicas = value.boolean(),
            "controllers" => {
                // The quorum is built with the metadata log (the CLI and the native
                // tests): the web pages run the lone controller.
                if int > 1 && !cfg!(feature = "metadata-log") {
                    return Err(c.err(t.column, msg!("parse.no-quorum")));
                }
                config.controllers = int
            }
            _ => return Err(c.err(t.column, arg1("parse.unknown-cluster-option", "option", &k))),
        }
    }
    Ok(StepKind::Cluster(config))
}

/// `controller N stop|start`: a voter of the controller quorum goes down or comes back.
#[cfg(feature = "metadata-log")]
pub(super) fn controller_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let what = c.next(What::Id("parse.number.controller-id"))?;
    let controller: i32 = number(c, what, &what.text, msg!("parse.number.controller-id"))?;
    let verb = c.next(What::OneOf(&["stop", "start"]))?;
    c.done()?;
    match verb.text.as_str() {
        "stop" => Ok(StepKind::Act(Action::StopController { controller })),
        "start" => Ok(StepKind::Act(Action::StartController { controller })),
        other => Err(c.err(verb.column, got(one_of(&["stop", "start"]), other))),
    }
}

/// `broker config KEY=VALUE` (a dynamic broker config, one a line) or `broker N
/// restart|stop|start [clean|crash]`.
pub(super) fn broker_step(c: &mut Cursor) -> Result<StepKind, ParseError> {
    let what = c.next(What::Id("parse.what.config-or-broker"))?;
    if what.text != "config" {
        return broker_lifecycle_step(c, what);
    }
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    // One setting a line: a second one would be ignored in silence.
    if let Some((t, ..)) = opts.get(1) {
        return Err(c.err(t.column, msg!("parse.one-setting")));
    }
    let (_, k, v) = opts
        .into_iter()
        .next()
        .ok_or_else(|| c.err(what.column, msg!("parse.expected", what = "KEY=VALUE")))?;
    Ok(StepKind::Act(Action::SetBrokerConfig { key: k, value: v }))
}

/// `broker N restart|stop [clean|crash]`, `broker N start`: `clean` (the default) is a
/// controlled shutdown, `crash` loses what was not flushed.
fn broker_lifecycle_step(c: &mut Cursor, what: &Token) -> Result<StepKind, ParseError> {
    let broker: i32 = number(c, what, &what.text, msg!("parse.number.broker-id"))?;
    let verb = c.next(What::OneOf(&["restart", "stop", "start"]))?;
    let mode = c.peek().map(|t| t.text.clone());
    let clean = match mode.as_deref() {
        None | Some("clean") => true,
        Some("crash") => false,
        Some(other) => return Err(c.err(c.column(), got(one_of(&["clean", "crash"]), other))),
    };
    if mode.is_some() {
        c.pos += 1;
    }
    c.done()?;
    match verb.text.as_str() {
        "restart" => Ok(StepKind::Act(Action::RestartBroker { broker, clean })),
        "stop" => Ok(StepKind::Act(Action::StopBroker { broker, clean })),
        "start" if mode.is_none() => Ok(StepKind::Act(Action::StartBroker { broker })),
        _ => Err(c.err(
            verb.column,
            arg1("parse.unknown-broker-command", "word", &verb.text),
        )),
    }
}
