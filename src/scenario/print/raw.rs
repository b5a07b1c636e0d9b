//! Printing the `raw …` steps: requests by hand (`World::apply_raw`).

use super::{partitions, quote, words};
use crate::log::FetchIsolation;
use crate::protocol::{
    CoordinatorType, LeaderRecoveryState, MarkerResult, Request, TxnMarkerEntry,
};
use crate::sim::Action;

/// The options a Fetch and a ListOffsets share: ` isolation=read_committed` when it
/// reads committed data only, ` current-leader-epoch=N` when it sends one (-1: none).
fn read_options(isolation: FetchIsolation, current_leader_epoch: i32) -> String {
    let isolation = match isolation {
        FetchIsolation::TxnCommitted => " isolation=read_committed",
        _ => "",
    };
    if current_leader_epoch == -1 {
        isolation.to_string()
    } else {
        format!("{isolation} current-leader-epoch={current_leader_epoch}")
    }
}

/// `commit` or `abort`, as the raw EndTxn and WriteTxnMarkers steps write a result.
fn result(commit: bool) -> &'static str {
    if commit {
        "commit"
    } else {
        "abort"
    }
}

/// `raw …`: requests by hand.
pub(super) fn print_raw_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::RawInitProducerId => "raw init-producer-id".into(),
        Action::RawRequest { broker, request } => print_raw(*broker, request)?,
        Action::RawProduce { .. } => {
            return super::print_step(&super::step_for_action(action.clone()))
        }
        _ => return super::other_family("raw", action),
    })
}

/// A request as its `raw …` step, or `None` for one the language cannot write (a Fetch
/// of another size, WriteTxnMarkers for several producers, …).
fn print_raw(broker: Option<i32>, request: &Request) -> Option<String> {
    let to = broker.map(|b| format!(" broker={b}")).unwrap_or_default();
    Some(match request {
        Request::InitProducerId {
            transactional_id: Some(id),
            transaction_timeout_ms,
            producer_id,
            producer_epoch,
        } => init_producer_id(&to, id, *transaction_timeout_ms, *producer_id, *producer_epoch),
        Request::FindCoordinator { key, key_type } => format!(
            "raw find-coordinator{to} {}{}",
            quote(key),
            match key_type {
                CoordinatorType::Group => " group",
                CoordinatorType::Transaction => "",
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
        Request::TxnOffsetCommit {
            transactional_id,
            group_id,
            producer_id,
            producer_epoch,
            offsets,
            generation_id: -1,
            member_id,
            group_instance_id: None,
            version,
        } if member_id.is_empty() => format!(
            "raw txn-offset-commit{to} txn={} group={} pid={producer_id} epoch={producer_epoch} {}{}",
            quote(transactional_id),
            quote(group_id),
            offsets
                .iter()
                .map(|o| format!("{}={}", o.topic_partition, o.offset))
                .collect::<Vec<_>>()
                .join(" "),
            version.map(|v| format!(" version={v}")).unwrap_or_default()
        ),
        Request::WriteTxnMarkers { markers } => match markers.as_slice() {
            [marker] => write_txn_markers(&to, marker),
            _ => return None,
        },
        Request::Fetch {
            topic_partition,
            fetch_offset,
            max_bytes,
            isolation: i,
            current_leader_epoch,
        } if *max_bytes == 1 << 20 => format!(
            "raw fetch{to} {topic_partition} offset={fetch_offset}{}",
            read_options(*i, *current_leader_epoch)
        ),
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
            format!(
                "raw alter-partition{to} {topic_partition} broker-id={broker_id} broker-epoch={broker_epoch} leader-epoch={leader_epoch} partition-epoch={partition_epoch} isr={}{}",
                isr.join(","),
                match leader_recovery_state {
                    LeaderRecoveryState::Recovered => "",
                    LeaderRecoveryState::Recovering => " leader-recovery-state=RECOVERING",
                }
            )
        }
        Request::ListOffsets {
            topic_partition,
            isolation: i,
            current_leader_epoch,
            ..
        } => format!(
            "raw list-offsets{to} {topic_partition}{}",
            read_options(*i, *current_leader_epoch)
        ),
        Request::DescribeTransactions { transactional_ids } => {
            format!("raw describe-transactions{to} {}", words(transactional_ids))
        }
        Request::ListTransactions {
            state_filters,
            producer_id_filters,
            duration_filter_ms,
        } => list_transactions(&to, state_filters, producer_id_filters, *duration_filter_ms),
        _ => return None,
    })
}

/// `raw init-producer-id …` for a transactional id, with the producer id and epoch it
/// expects when it sends them (KIP-360).
fn init_producer_id(
    to: &str,
    transactional_id: &str,
    timeout_ms: i32,
    producer_id: i64,
    producer_epoch: i16,
) -> String {
    let expected = if (producer_id, producer_epoch) == (-1, -1) {
        String::new()
    } else {
        format!(" pid={producer_id} epoch={producer_epoch}")
    };
    format!(
        "raw init-producer-id{to} transactional.id={} timeout={timeout_ms}{expected}",
        quote(transactional_id)
    )
}

/// `raw write-txn-markers …` for one producer's marker.
fn write_txn_markers(to: &str, m: &TxnMarkerEntry) -> String {
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

/// `raw list-transactions …` with the filters that are set.
fn list_transactions(
    to: &str,
    state_filters: &[String],
    producer_id_filters: &[i64],
    duration_filter_ms: i64,
) -> String {
    let mut line = format!("raw list-transactions{to}");
    if !state_filters.is_empty() {
        line.push_str(&format!(" states={}", state_filters.join(",")));
    }
    if !producer_id_filters.is_empty() {
        let ids: Vec<String> = producer_id_filters.iter().map(|p| p.to_string()).collect();
        line.push_str(&format!(" producer-ids={}", ids.join(",")));
    }
    if duration_filter_ms >= 0 {
        line.push_str(&format!(" duration={duration_filter_ms}"));
    }
    line
}
