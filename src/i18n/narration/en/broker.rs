//! English narration of what a broker did: appends, duplicates, refusals, markers,
//! segments, producer ids, stops and recovery.

use super::coordinator;
use super::errors::detail;
use crate::broker::broker::BrokerEvent;
use crate::log::SeqDirection;
use crate::protocol::errors::Errors;
use crate::protocol::ErrorDetail;
use crate::sim::event::window_text;

pub(super) fn event(broker: i32, e: &BrokerEvent) -> String {
    match e {
        BrokerEvent::BatchAppended { tp, producer_id, producer_epoch, first_seq, last_seq, first_offset, last_offset, log_end_offset, window } => {
            if *producer_id < 0 {
                format!("broker {broker}: APPEND to {tp} at offsets {first_offset}..{last_offset} (no producer id, so no duplicate check); LEO {log_end_offset}")
            } else {
                format!(
                    "broker {broker}: APPEND seq {first_seq}..{last_seq} of producer {producer_id} (epoch {producer_epoch}) to {tp} at offsets {first_offset}..{last_offset}; LEO {log_end_offset}; window {} — the sequence continues the last one",
                    window_text(window)
                )
            }
        }
        BrokerEvent::BatchDuplicate { tp, producer_id, first_seq, last_seq, first_offset, last_offset, log_end_offset, .. } => format!(
            "broker {broker}: DUPLICATE seq {first_seq}..{last_seq} of producer {producer_id} on {tp} — found in the last 5 batches, so nothing is written and the original offsets {first_offset}..{last_offset} are returned as success; LEO stays {log_end_offset}"
        ),
        BrokerEvent::BatchRejected { tp, producer_id, producer_epoch, first_seq, last_seq, error, expected_seq, seq_direction, current_epoch, detail: d, .. } => match error {
            Errors::OutOfOrderSequenceNumber => format!(
                "broker {broker}: {} for producer {producer_id} on {tp} — expected sequence {}, got {first_seq}..{last_seq}. {}; nothing is written",
                error.name(),
                expected_seq.map_or("?".into(), |s| s.to_string()),
                match (seq_direction, d) {
                    (_, ErrorDetail::NewEpochSequence { .. }) => "A new epoch starts at sequence 0",
                    (Some(SeqDirection::Behind), _) => "Behind, so a stale retry, not a gap: the batch is older than the 5 batches the partition remembers, so it is no longer recognised as a duplicate",
                    _ => "Ahead, so a gap: the batches in between never arrived",
                }
            ),
            Errors::InvalidProducerEpoch => format!(
                "broker {broker}: {} for producer {producer_id} on {tp} — epoch {producer_epoch} is older than the epoch {} the partition remembers; a zombie cannot write",
                error.name(),
                current_epoch.map_or("?".into(), |s| s.to_string())
            ),
            _ => format!("broker {broker}: {} on {tp}: {}", error.name(), detail(d)),
        },
        BrokerEvent::TransactionVerification { tp, transactional_id, producer_id, producer_epoch, coordinator } => format!(
            "broker {broker}: a transactional batch of producer {producer_id} (epoch {producer_epoch}) for {tp} waits: the leader first asks the coordinator (broker {coordinator}) to add {tp} to {transactional_id}'s transaction (AddPartitionsToTxn, TV2)"
        ),
        BrokerEvent::MarkerWritten { tp, producer_id, producer_epoch, kind, offset, txn_first_offset, last_stable_offset, high_watermark } => format!(
            "broker {broker}: wrote the {kind} marker of producer {producer_id} to {tp} at offset {offset} (marker epoch {producer_epoch}){}; LSO {last_stable_offset}, HW {high_watermark}",
            txn_first_offset.map(|f| format!(", ending the transaction that began at offset {f}")).unwrap_or_default()
        ),
        BrokerEvent::MarkerRejected { tp, producer_id, producer_epoch, error, detail } => format!(
            "broker {broker}: refused a marker of producer {producer_id} with epoch {producer_epoch} on {tp}: {} — {}",
            error.name(),
            match detail {
                ErrorDetail::CoordinatorEpochFenced { .. } => "it comes from an older coordinator than the last marker (coordinator epoch): a zombie coordinator cannot end transactions",
                ErrorDetail::EpochTooOld { .. } => "before transaction.version 2 a marker carries the transaction's own epoch, and it must not be older than the producer's",
                _ => "a marker must carry a newer epoch than the transaction's data",
            }
        ),
        BrokerEvent::PartitionNotVerified { tp, producer_id, producer_epoch, error } => format!(
            "broker {broker}: the coordinator answered {} for {tp}: producer {producer_id} (epoch {producer_epoch}) has no open transaction that includes {tp}, so the batch is refused and nothing is written (KIP-890 part 1 stops the hanging transaction)",
            error.name()
        ),
        BrokerEvent::PartitionVerification { tp, transactional_id, producer_id, producer_epoch, coordinator } => format!(
            "broker {broker}: a transactional batch of producer {producer_id} (epoch {producer_epoch}) for {tp} waits: transaction.partition.verification.enable is on, so the leader asks the coordinator (broker {coordinator}) whether {transactional_id} added {tp} (AddPartitionsToTxn verifyOnly, KIP-890 part 1)"
        ),
        BrokerEvent::Coordinator(c) => coordinator::event(broker, c),
        BrokerEvent::Replication(r) => super::replication::event(broker, r),
        BrokerEvent::SegmentRolled { tp, base_offset, snapshot } => match snapshot {
            Some(path) => format!("broker {broker}: {tp} rolled a new segment at offset {base_offset} (segment.bytes reached) and wrote the producer snapshot {}", file_of(path)),
            None => format!("broker {broker}: {tp} rolled a new segment at offset {base_offset} (segment.bytes reached); producer snapshots are off"),
        },
        BrokerEvent::ProducerIdNotReady { asked_controller } => format!(
            "broker {broker}: no producer-id block yet{} — answers COORDINATOR_LOAD_IN_PROGRESS, the client retries",
            if *asked_controller { ", asks the controller for one" } else { "" }
        ),
        BrokerEvent::ProducerIdBlockReceived { first, last } => {
            format!("broker {broker}: received producer ids {first}..{last} from the controller (blocks of 1000)")
        }
        BrokerEvent::ProducerIdAssigned { producer_id, producer_epoch } => {
            format!("broker {broker}: InitProducerId → producerId={producer_id} epoch={producer_epoch}")
        }
        BrokerEvent::Stopped { clean, snapshots } => {
            if *clean {
                format!("broker {broker} shut down cleanly; producer snapshots written: {} (a snapshot keeps each producer's last batch only)", snapshots.len())
            } else {
                format!("broker {broker} crashed: memory is gone, the disk stays; at start, producer state is rebuilt by replaying the log")
            }
        }
        BrokerEvent::Recovered { tp, report, windows, windows_before } => {
            let source = match report.snapshot_loaded {
                Some(o) => format!("loaded snapshot {o:020}.snapshot, then replayed {} batch(es) after it", report.replayed_batches),
                None => format!("no snapshot; rebuilt from {} batch(es) in segment(s) {:?}", report.replayed_batches, report.replayed_segments),
            };
            let before = |p: &i64| windows_before.iter().find(|(q, _)| q == p).map(|(_, n)| *n);
            let w: Vec<String> = windows
                .iter()
                .map(|(p, w)| match before(p) {
                    Some(n) if n != w.len() => format!("{p} {} (was {n} batch(es) before the stop)", window_text(w)),
                    _ => format!("{p} {}", window_text(w)),
                })
                .collect();
            let shrank = windows.iter().any(|(p, w)| before(p).is_some_and(|n| w.len() < n));
            let why = match (shrank, report.snapshot_loaded) {
                (false, _) => "",
                (true, Some(_)) => ". Why smaller: a producer snapshot keeps only each producer's last batch (as Kafka's ProducerStateManager writes it), and only the batches after it are replayed. This is not worse: start-up skips re-reading the log, no producer is forgotten, and a retry of the last batch is still a duplicate. A crash leaves no snapshot at the log end, so the log is replayed and up to 5 batches come back",
                (true, None) => ". Why smaller: with no snapshot the window is rebuilt only from the batches replayed, and with producer.snapshots off that is the last segment only",
            };
            format!(
                "broker {broker}: opened {tp} (LEO {}): {source}; windows: {}{why}",
                report.log_end_offset,
                if w.is_empty() { "none".to_string() } else { w.join(", ") }
            )
        }
    }
}

/// The file name of a path (the directory is noise in a sentence).
fn file_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
