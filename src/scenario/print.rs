//! Printing scenarios back to text: what the UI records as the learner clicks becomes
//! a scenario file (for share links and "save as lesson"), and parsing it gives the
//! same steps back.

use super::parse::{IdRef, Scenario, Show, StepKind, View};
use crate::log::{FetchIsolation, TopicPartition};
use crate::protocol::{CoordinatorType, ElectionType, LeaderRecoveryState, MarkerResult, Request};
use crate::sim::{Action, Direction, Fault, MessageMatch, MessageStrike, Node};

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

fn isolation(i: FetchIsolation) -> &'static str {
    match i {
        FetchIsolation::TxnCommitted => " isolation=read_committed",
        _ => "",
    }
}

/// ` current-leader-epoch=N` for a Fetch or ListOffsets that sends one (-1: none).
fn leader_epoch_option(epoch: i32) -> String {
    if epoch == -1 {
        String::new()
    } else {
        format!(" current-leader-epoch={epoch}")
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
        StepKind::Cluster(c) => {
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
        StepKind::Print(view) => print_view(view),
        StepKind::Act(action) => print_action(action)?,
        #[cfg(feature = "pulsar")]
        StepKind::Pulsar(step) => step.text.clone(),
    })
}

/// `broker-N ` before the partition of a view of one broker's replica.
fn on_broker(broker: Option<i32>) -> String {
    broker.map(|b| format!("broker-{b} ")).unwrap_or_default()
}

fn print_view(view: &View) -> String {
    match view {
        View::DumpLog {
            tp,
            fields,
            control_records,
            broker,
            data_records,
        } => format!(
            "print dump-log {}{tp}{}{}",
            on_broker(*broker),
            fields
                .as_ref()
                .map(|f| format!(" fields={}", f.join(",")))
                .unwrap_or_default(),
            if *data_records {
                " records=all"
            } else if *control_records {
                " records=control"
            } else {
                ""
            }
        ),
        View::Window { tp, producer_id } => {
            format!(
                "print window {tp}{}",
                producer_id.map(|p| format!(" pid={p}")).unwrap_or_default()
            )
        }
        View::Producers { tp } => format!("print producers {tp}"),
        View::Leo { tp } => format!("print leo {tp}"),
        View::Replicas { tp } => format!("print replicas {tp}"),
        View::Offsets { tp } => format!("print offsets {tp}"),
        View::Files { tp, broker } => format!("print files {}{tp}", on_broker(*broker)),
        View::Segments { tp, broker } => format!("print segments {}{tp}", on_broker(*broker)),
        View::Snapshots { tp, broker } => {
            format!("print snapshots {}{tp}", on_broker(*broker))
        }
        View::Verdict { tp } => format!("print verdict {tp}"),
        View::DescribeProducers { tp } => format!("print describe-producers {tp}"),
        View::FindHanging { tp } => format!("print find-hanging {tp}"),
        #[cfg(feature = "checker")]
        View::Violations => "check".into(),
        // The step and its block (a blank line ends the block).
        #[cfg(not(feature = "checker"))]
        View::RecordedCheck(lines) => {
            let mut text = format!("check\n{}", super::golden::BLOCK_START);
            for line in super::golden::encode(lines) {
                text.push('\n');
                text.push_str(&line);
            }
            text.push('\n');
            text
        }
        View::Events { last } => format!(
            "print events{}",
            last.map(|n| format!(" last={n}")).unwrap_or_default()
        ),
        #[cfg(feature = "metadata-log")]
        View::Quorum => "print quorum".into(),
        #[cfg(feature = "metadata-log")]
        View::Metadata { last } => format!(
            "print metadata{}",
            last.map(|n| format!(" last={n}")).unwrap_or_default()
        ),
        View::TxnIndex { tp } => format!("print txnindex {tp}"),
        View::Consumed { consumer } => format!("print consumed {}", quote(consumer)),
        View::Latest { tp } => format!("print latest {tp}"),
        View::TxnLog { transactional_id } => format!("print txn-log {}", quote(transactional_id)),
        View::TxnStates { transactional_id } => {
            format!("print txn-states {}", quote(transactional_id))
        }
        View::Transactions => "print transactions".into(),
        View::DescribeTransaction { transactional_id } => {
            format!("print describe-transaction {}", quote(transactional_id))
        }
        #[cfg(feature = "group-membership")]
        View::Group { group_id } => format!("print group {}", quote(group_id)),
        View::Committed {
            group_id,
            partitions: tps,
        } => {
            format!(
                "print committed {}{}",
                quote(group_id),
                tps.iter().map(|tp| format!(" {tp}")).collect::<String>()
            )
        }
    }
}

/// One arm a family, each printed by its family's `print_…_action` below (as the
/// parser reads each family in its own file under `parse/`).
fn print_action(action: &Action) -> Option<String> {
    match action {
        Action::SetBrokerConfig { .. }
        | Action::RestartBroker { .. }
        | Action::StopBroker { .. }
        | Action::StartBroker { .. } => print_broker_action(action),
        #[cfg(feature = "metadata-log")]
        Action::StopController { .. } | Action::StartController { .. } => {
            print_broker_action(action)
        }
        Action::CreateTopic { .. } => print_topic_action(action),
        #[cfg(feature = "topic-admin")]
        Action::AlterTopicConfigs { .. }
        | Action::ReassignPartition { .. }
        | Action::ListReassignments { .. }
        | Action::CreatePartitions { .. }
        | Action::DeleteTopic { .. } => print_topic_action(action),
        Action::CreateProducer { .. }
        | Action::Send { .. }
        | Action::Flush { .. }
        | Action::InitTransactions { .. }
        | Action::BeginTransaction { .. }
        | Action::CommitTransaction { .. }
        | Action::AbortTransaction { .. }
        | Action::SendOffsetsToTransaction { .. }
        | Action::Transform { .. } => print_producer_action(action),
        Action::CreateConsumer { .. }
        | Action::Assign { .. }
        | Action::Poll { .. }
        | Action::Seek { .. } => print_consumer_action(action),
        #[cfg(feature = "group-membership")]
        Action::Subscribe { .. } | Action::Unsubscribe { .. } => print_consumer_action(action),
        Action::RawInitProducerId | Action::RawRequest { .. } | Action::RawProduce { .. } => {
            print_raw_action(action)
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
        | Action::ClearFaults => print_fault_action(action),
        Action::AdminAbortTransaction { .. }
        | Action::AdminElectLeaders { .. }
        | Action::AdminDeleteRecords { .. } => print_admin_action(action),
        #[cfg(feature = "log-cleaner")]
        Action::CleanLog { .. }
        | Action::TakeSnapshot { .. }
        | Action::TruncateLog { .. }
        | Action::CorruptFile { .. } => print_disk_action(action),
        #[cfg(feature = "set-epoch")]
        Action::SetTxnEpoch { .. } | Action::SetProducerEpoch { .. } => {
            print_set_epoch_action(action)
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

/// `broker config …` and `broker N restart|stop|start`.
fn print_broker_action(action: &Action) -> Option<String> {
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
        _ => return None,
    })
}

/// `topic …`: CreateTopics and the topic admin requests.
fn print_topic_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::CreateTopic {
            name,
            partitions: n,
            configs,
        } => {
            format!(
                "topic create {} partitions={n}{}",
                quote(name),
                options(configs)
            )
        }
        #[cfg(feature = "topic-admin")]
        Action::AlterTopicConfigs { name, configs } => {
            format!("topic alter-config {}{}", quote(name), options(configs))
        }
        #[cfg(feature = "topic-admin")]
        Action::ReassignPartition {
            topic_partition,
            replicas,
        } => {
            let target = replicas.as_ref().map_or_else(
                || "cancel".to_string(),
                |r| {
                    r.iter()
                        .map(|b| b.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                },
            );
            format!("topic reassign {topic_partition} replicas={target}")
        }
        #[cfg(feature = "topic-admin")]
        Action::ListReassignments { partitions } => {
            let named: String = partitions.iter().map(|tp| format!(" {tp}")).collect();
            format!("topic list-reassignments{named}")
        }
        #[cfg(feature = "topic-admin")]
        Action::CreatePartitions {
            name,
            partitions: n,
            assignment,
        } => {
            let lists: Vec<String> = assignment
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|b| b.to_string())
                        .collect::<Vec<_>>()
                        .join(":")
                })
                .collect();
            let assignment = if lists.is_empty() {
                String::new()
            } else {
                format!(" assignment={}", lists.join(","))
            };
            format!(
                "topic create-partitions {} partitions={n}{assignment}",
                quote(name)
            )
        }
        #[cfg(feature = "topic-admin")]
        Action::DeleteTopic { name } => format!("topic delete {}", quote(name)),
        _ => return None,
    })
}

/// `producer NAME …`: the client, its transactions and the transform round.
fn print_producer_action(action: &Action) -> Option<String> {
    let p = |name: &str, verb: &str| format!("producer {} {verb}", quote(name));
    Some(match action {
        Action::CreateProducer { name, configs } => {
            format!("{}{}", p(name, "create"), options(configs))
        }
        Action::Send {
            producer,
            topic_partition,
            values,
        } => format!(
            "{} {topic_partition} {}",
            p(producer, "send"),
            words(values)
        ),
        Action::Flush { producer } => p(producer, "flush"),
        Action::InitTransactions { producer } => p(producer, "init-transactions"),
        Action::BeginTransaction { producer } => p(producer, "begin"),
        Action::CommitTransaction { producer } => p(producer, "commit"),
        Action::AbortTransaction { producer } => p(producer, "abort"),
        Action::SendOffsetsToTransaction {
            producer,
            group_id,
            offsets,
            consumer,
        } => format!(
            "{}{}{}{}",
            p(producer, "send-offsets"),
            if group_id.is_empty() && consumer.is_some() {
                String::new()
            } else {
                format!(" group={}", quote(group_id))
            },
            consumer
                .as_ref()
                .map(|c| format!(" consumer={}", quote(c)))
                .unwrap_or_default(),
            offsets
                .iter()
                .map(|(tp, o)| format!(" {tp}={o}"))
                .collect::<String>()
        ),
        Action::Transform {
            producer,
            consumer,
            topic,
        } => format!(
            "{} {} {}",
            p(producer, "transform"),
            quote(consumer),
            quote(topic)
        ),
        _ => return None,
    })
}

/// `consumer NAME …`.
fn print_consumer_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::CreateConsumer { name, configs } => {
            format!("consumer {} create{}", quote(name), options(configs))
        }
        Action::Assign {
            consumer,
            partitions: tps,
        } => format!("consumer {} assign {}", quote(consumer), partitions(tps)),
        Action::Poll { consumer } => format!("consumer {} poll", quote(consumer)),
        #[cfg(feature = "group-membership")]
        Action::Subscribe { consumer, topics } => format!(
            "consumer {} subscribe{}",
            quote(consumer),
            topics
                .iter()
                .map(|t| format!(" {}", quote(t)))
                .collect::<String>()
        ),
        #[cfg(feature = "group-membership")]
        Action::Unsubscribe { consumer } => format!("consumer {} unsubscribe", quote(consumer)),
        Action::Seek {
            consumer,
            topic_partition,
            offset,
        } => format!(
            "consumer {} seek {topic_partition} {offset}",
            quote(consumer)
        ),
        _ => return None,
    })
}

/// `raw …`: requests by hand.
fn print_raw_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::RawInitProducerId => "raw init-producer-id".into(),
        Action::RawRequest { broker, request } => print_raw(*broker, request)?,
        Action::RawProduce { .. } => return print_step(&step_for_action(action.clone())),
        _ => return None,
    })
}

/// `fault …`, `hold|release …` and `drop next-…`.
fn print_fault_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::DropNextRequest { from } => {
            format!(
                "drop next-request{}",
                from.as_ref()
                    .map(|f| format!(" from={}", quote(f)))
                    .unwrap_or_default()
            )
        }
        Action::DropNextResponse { to } => {
            format!(
                "drop next-response{}",
                to.as_ref()
                    .map(|t| format!(" to={}", quote(t)))
                    .unwrap_or_default()
            )
        }
        Action::HoldMarkers => "hold markers".into(),
        Action::ReleaseMarkers => "release markers".into(),
        Action::HoldRequests { api } => format!("hold requests {api}"),
        Action::ReleaseRequests { api } => format!("release requests {api}"),
        Action::ArmFault { fault } => print_fault(fault),
        Action::ReleaseHeld { api } => format!("fault release api={}", quote(api)),
        Action::ReleaseMessage { id } => format!("fault release id={id}"),
        Action::HealLink { a, b } => format!("fault heal {} {}", node(a), node(b)),
        Action::DisarmFault { fault } => {
            format!("fault disarm {}", &print_fault(fault)["fault ".len()..])
        }
        Action::ClearFaults => "fault clear".into(),
        _ => return None,
    })
}

/// `admin …`: the admin tools.
fn print_admin_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::AdminAbortTransaction {
            topic_partition,
            start_offset,
        } => format!("admin abort {topic_partition} start-offset={start_offset}"),
        Action::AdminElectLeaders {
            election,
            partitions,
        } => {
            let mut words: Vec<String> = partitions.iter().map(|tp| tp.to_string()).collect();
            if words.is_empty() {
                words.push("all".into());
            }
            if *election != ElectionType::Preferred {
                words.push(format!("election-type={}", election.name()));
            }
            format!("admin elect-leaders {}", words.join(" "))
        }
        Action::AdminDeleteRecords {
            topic_partition,
            offset,
        } => format!("admin delete-records {topic_partition} offset={offset}"),
        _ => return None,
    })
}

/// `clean`, `snapshot`, `truncate` and `fault corrupt`.
#[cfg(feature = "log-cleaner")]
fn print_disk_action(action: &Action) -> Option<String> {
    Some(match action {
        #[cfg(feature = "log-cleaner")]
        Action::CleanLog { topic_partition } => format!("clean {topic_partition}"),
        #[cfg(feature = "log-cleaner")]
        Action::TakeSnapshot { topic_partition } => format!("snapshot {topic_partition}"),
        #[cfg(feature = "log-cleaner")]
        Action::TruncateLog {
            broker,
            topic_partition,
            offset,
        } => format!("truncate broker-{broker} {topic_partition} offset={offset}"),
        #[cfg(feature = "log-cleaner")]
        Action::CorruptFile {
            broker,
            path,
            position,
        } => format!(
            "fault corrupt broker-{broker} {path}{}",
            position.map(|p| format!(" at={p}")).unwrap_or_default()
        ),
        _ => return None,
    })
}

/// `set-epoch …`.
#[cfg(feature = "set-epoch")]
fn print_set_epoch_action(action: &Action) -> Option<String> {
    Some(match action {
        #[cfg(feature = "set-epoch")]
        Action::SetTxnEpoch {
            transactional_id,
            epoch,
        } => format!("set-epoch txn={} epoch={epoch}", quote(transactional_id)),
        #[cfg(feature = "set-epoch")]
        Action::SetProducerEpoch { producer, epoch } => {
            format!("set-epoch producer={producer} epoch={epoch}")
        }
        _ => return None,
    })
}

fn print_raw(broker: Option<i32>, request: &Request) -> Option<String> {
    let to = broker.map(|b| format!(" broker={b}")).unwrap_or_default();
    let result = |r: bool| if r { "commit" } else { "abort" };
    Some(match request {
        Request::InitProducerId {
            transactional_id: Some(id),
            transaction_timeout_ms,
            producer_id,
            producer_epoch,
        } => {
            let expected = if (*producer_id, *producer_epoch) == (-1, -1) {
                String::new()
            } else {
                format!(" pid={producer_id} epoch={producer_epoch}")
            };
            format!(
                "raw init-producer-id{to} transactional.id={} timeout={transaction_timeout_ms}{expected}",
                quote(id)
            )
        }
        Request::FindCoordinator { key, key_type } => format!(
            "raw find-coordinator{to} {}{}",
            quote(key),
            if *key_type == CoordinatorType::Group {
                " group"
            } else {
                ""
            }
        ),
        Request::AddPartitionsToTxn {
            transactional_id,
            producer_id,
            producer_epoch,
            partitions: tps,
            verify_only,
        } => format!(
            "raw add-partitions{to} txn={} pid={producer_id} epoch={producer_epoch} {}{}",
            quote(transactional_id),
            partitions(tps),
            if *verify_only { " verify-only" } else { "" }
        ),
        Request::EndTxn {
            transactional_id,
            producer_id,
            producer_epoch,
            committed,
            version,
        } => format!(
            "raw end-txn{to} txn={} pid={producer_id} epoch={producer_epoch} {}{}",
            quote(transactional_id),
            result(*committed),
            version.map(|v| format!(" version={v}")).unwrap_or_default()
        ),
        Request::WriteTxnMarkers { markers } if markers.len() == 1 => {
            let m = markers.first()?;
            format!(
                "raw write-txn-markers{to} pid={} epoch={} coordinator-epoch={}{} {} {}",
                m.producer_id,
                m.producer_epoch,
                m.coordinator_epoch,
                if m.transaction_version == 0 {
                    String::new()
                } else {
                    format!(" transaction-version={}", m.transaction_version)
                },
                result(m.result == MarkerResult::Commit),
                partitions(&m.partitions)
            )
        }
        Request::Fetch {
            topic_partition,
            fetch_offset,
            max_bytes,
            isolation: i,
            current_leader_epoch,
        } if *max_bytes == 1 << 20 => {
            format!(
                "raw fetch{to} {topic_partition} offset={fetch_offset}{}{}",
                isolation(*i),
                leader_epoch_option(*current_leader_epoch)
            )
        }
        Request::OffsetsForLeaderEpoch {
            topic_partition,
            current_leader_epoch,
            leader_epoch,
        } => format!(
            "raw offsets-for-leader-epoch{to} {topic_partition} epoch={leader_epoch} current-leader-epoch={current_leader_epoch}"
        ),
        Request::AlterPartition {
            broker_id,
            broker_epoch,
            topic_partition,
            leader_epoch,
            partition_epoch,
            new_isr,
            leader_recovery_state,
        } => {
            let isr: Vec<String> = new_isr.iter().map(|b| b.to_string()).collect();
            let recovery = match leader_recovery_state {
                LeaderRecoveryState::Recovered => String::new(),
                LeaderRecoveryState::Recovering => " leader-recovery-state=RECOVERING".into(),
            };
            format!(
                "raw alter-partition{to} {topic_partition} broker-id={broker_id} broker-epoch={broker_epoch} leader-epoch={leader_epoch} partition-epoch={partition_epoch} isr={}{recovery}",
                isr.join(",")
            )
        }
        Request::ListOffsets {
            topic_partition,
            isolation: i,
            current_leader_epoch,
            ..
        } => format!(
            "raw list-offsets{to} {topic_partition}{}{}",
            isolation(*i),
            leader_epoch_option(*current_leader_epoch)
        ),
        Request::DescribeTransactions { transactional_ids } => {
            format!("raw describe-transactions{to} {}", words(transactional_ids))
        }
        Request::ListTransactions {
            state_filters,
            producer_id_filters,
            duration_filter_ms,
        } => {
            let mut line = format!("raw list-transactions{to}");
            if !state_filters.is_empty() {
                line.push_str(&format!(" states={}", state_filters.join(",")));
            }
            if !producer_id_filters.is_empty() {
                let ids: Vec<String> = producer_id_filters.iter().map(|p| p.to_string()).collect();
                line.push_str(&format!(" producer-ids={}", ids.join(",")));
            }
            if *duration_filter_ms >= 0 {
                line.push_str(&format!(" duration={duration_filter_ms}"));
            }
            line
        }
        _ => return None,
    })
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

/// A node as a fault step names it (what `parse_node` reads back).
pub fn node(n: &Node) -> String {
    match n {
        Node::Broker(id) => format!("broker-{id}"),
        Node::Controller(_) => n.to_string(),
        Node::Client(name) => {
            if super::parse::parse_node(name) == *n {
                quote(name)
            } else {
                quote(&format!("client:{name}"))
            }
        }
    }
}

fn matching(m: &MessageMatch) -> String {
    let mut out = String::new();
    match m.direction {
        Some(Direction::Request) => out.push_str(" request"),
        Some(Direction::Response) => out.push_str(" response"),
        None => {}
    }
    if let Some(api) = &m.api {
        out.push_str(&format!(" api={}", quote(api)));
    }
    if let Some(f) = &m.from {
        out.push_str(&format!(" from={}", node(f)));
    }
    if let Some(t) = &m.to {
        out.push_str(&format!(" to={}", node(t)));
    }
    out
}

fn every(e: bool) -> &'static str {
    if e {
        " every"
    } else {
        ""
    }
}

/// A fault as the `fault …` step that arms it (`Action::ArmFault`). The first three
/// also have their own actions and steps (`drop next-request`, `hold markers`).
pub fn print_fault(fault: &Fault) -> String {
    match fault {
        Fault::DropNextRequest { from } => format!(
            "fault drop next-request{}",
            from.as_ref()
                .map(|f| format!(" from={}", quote(f)))
                .unwrap_or_default()
        ),
        Fault::DropNextResponse { to } => format!(
            "fault drop next-response{}",
            to.as_ref()
                .map(|t| format!(" to={}", quote(t)))
                .unwrap_or_default()
        ),
        Fault::HoldRequests { api } => format!("fault hold-requests api={}", quote(api)),
        Fault::Drop {
            matching: m,
            every: e,
        } => format!("fault drop{}{}", matching(m), every(*e)),
        Fault::Delay {
            matching: m,
            ms,
            every: e,
        } => format!("fault delay {ms}{}{}", matching(m), every(*e)),
        Fault::Duplicate {
            matching: m,
            every: e,
        } => {
            format!("fault duplicate{}{}", matching(m), every(*e))
        }
        Fault::Hold { matching: m } => format!("fault hold{}", matching(m)),
        Fault::Cut { a, b } => format!("fault cut {} {}", node(a), node(b)),
        Fault::Error { api, error } => format!("fault error api={} {}", quote(api), error.name()),
        Fault::Message { id, strike } => match strike {
            MessageStrike::Drop => format!("fault drop id={id}"),
            MessageStrike::Delay { ms } => format!("fault delay {ms} id={id}"),
            MessageStrike::Duplicate => format!("fault duplicate id={id}"),
            MessageStrike::Hold => format!("fault hold id={id}"),
        },
    }
}
