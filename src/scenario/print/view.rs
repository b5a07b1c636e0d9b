//! Printing the `print …` steps (the views) and `check`.

use super::quote;
use crate::scenario::parse::View;

/// `broker-N ` before the partition of a view of one broker's replica.
fn on_broker(broker: Option<i32>) -> String {
    broker.map(|b| format!("broker-{b} ")).unwrap_or_default()
}

/// `print VIEW …`: a view's step.
pub(super) fn print_view(view: &View) -> String {
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
            let mut text = format!("check\n{}", crate::scenario::golden::BLOCK_START);
            for line in crate::scenario::golden::encode(lines) {
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
