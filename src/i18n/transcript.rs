//! The transcript's own words around the engine's values: what an `echo` placeholder
//! says (`{outcome}`, `{consumed}`, `{latest}`), the reason in a verdict row, the notes
//! on a replica line and why a committed offset is unstable. The values, Kafka's names
//! and the tool-shaped lines around them are the same in every language.

use super::catalog::render;
use super::Lang;
use crate::msg;
use crate::protocol::Errors;
use crate::sim::{CommittedOffsets, RawOutcome};

/// `{outcome NAME}`: `None` for a transaction not finished yet, `Some(None)` for one
/// that succeeded, `Some(Some(exception))` for one that failed with Kafka's exception.
pub fn outcome(outcome: Option<Option<&str>>, lang: Lang) -> String {
    match outcome {
        None => render(&msg!("transcript.outcome.not-finished"), lang),
        Some(None) => render(&msg!("transcript.outcome.succeeded"), lang),
        Some(Some(exception)) => render(
            &msg!("transcript.outcome.failed", exception = exception),
            lang,
        ),
    }
}

/// `got 5 records: c1@0 c2@1 … (position 11)`: `records` and `positions` as the engine
/// lists them.
pub fn consumed(count: usize, records: &str, positions: &str, lang: Lang) -> String {
    render(
        &msg!(
            "transcript.consumed",
            count = count,
            records = records,
            positions = positions
        ),
        lang,
    )
}

/// `latest offset read_uncommitted=7 (high watermark), read_committed=4 (LSO)`.
pub fn latest(high_watermark: i64, lso: i64, lang: Lang) -> String {
    render(
        &msg!("transcript.latest", hw = high_watermark, lso = lso),
        lang,
    )
}

/// A verdict's reason after Kafka's error name: the sequence the broker expected.
pub fn expected_sequence(error: &str, expected: i32, got: i32, lang: Lang) -> String {
    render(
        &msg!(
            "transcript.verdict.expected",
            error = error,
            expected = expected,
            got = got
        ),
        lang,
    )
}

/// A verdict's reason after Kafka's error name: an epoch older than the partition's.
pub fn older_epoch(error: &str, epoch: i16, current: i16, lang: Lang) -> String {
    render(
        &msg!(
            "transcript.verdict.epoch",
            error = error,
            epoch = epoch,
            current = current
        ),
        lang,
    )
}

/// A duplicate's verdict: the offsets the first copy got.
pub fn duplicate(first_offset: i64, last_offset: i64, lang: Lang) -> String {
    render(
        &msg!(
            "transcript.verdict.duplicate",
            first = first_offset,
            last = last_offset
        ),
        lang,
    )
}

/// A replica line's notes: out of the ISR, stopped, a log unlike the leader's.
pub fn replica_notes(
    out_of_sync: bool,
    eligible: bool,
    stopped: bool,
    differs: bool,
    lang: Lang,
) -> String {
    let notes = [
        (out_of_sync, "transcript.replica.out-of-sync"),
        (eligible, "transcript.replica.eligible"),
        (stopped, "transcript.replica.stopped"),
        (differs, "transcript.replica.differs"),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .map(|(_, id)| super::Arg::Msg(super::Msg::new(id)));
    render(&msg!("plain", text = super::message::list(notes)), lang)
}

/// Why OffsetFetch answered UNSTABLE_OFFSET_COMMIT, after the error's name.
pub fn unstable_offsets(lang: Lang) -> String {
    render(&msg!("transcript.committed.unstable"), lang)
}

/// `print window`: one producer's dedup window (`[0..1 2..3]`, oldest first).
pub fn window(producer_id: i64, epoch: i16, window: &str, lang: Lang) -> String {
    render(
        &msg!(
            "transcript.window",
            producer_id = producer_id,
            epoch = epoch,
            window = window
        ),
        lang,
    )
}

/// `print producers`: the producer ids a partition remembers (`1000, 1001`).
pub fn producers(ids: &str, lang: Lang) -> String {
    render(&msg!("transcript.producers", ids = ids), lang)
}

/// `print leo`, and the last line after a raw produce.
pub fn log_end_offset(leo: i64, lang: Lang) -> String {
    render(&msg!("transcript.log-end-offset", leo = leo), lang)
}

/// The first line after a raw produce: the broker's verdict (`None`: the request was
/// answered before the log was asked).
pub fn verdict(verdict: Option<&str>, lang: Lang) -> String {
    match verdict {
        Some(v) => render(&msg!("transcript.verdict", verdict = v), lang),
        None => render(&msg!("transcript.verdict.none"), lang),
    }
}

/// The second line after a raw produce: the response's fields, as Kafka names them.
pub fn response(fields: &str, lang: Lang) -> String {
    render(&msg!("transcript.response", fields = fields), lang)
}

/// A raw produce whose response never came back.
pub fn no_response(lang: Lang) -> String {
    render(&msg!("transcript.no-response"), lang)
}

/// `print offsets`: a partition's log start offset, high watermark and log end offset.
pub fn offsets(tp: &str, start: i64, hw: i64, leo: i64, lang: Lang) -> String {
    render(
        &msg!(
            "transcript.offsets",
            tp = tp,
            start = start,
            hw = hw,
            leo = leo
        ),
        lang,
    )
}

/// `print segments`: how many segments, and their base offsets (`0, 5, 9`).
pub fn segments(count: usize, offsets: &str, lang: Lang) -> String {
    render(
        &msg!("transcript.segments", count = count, offsets = offsets),
        lang,
    )
}

/// `print snapshots`: the producer-state snapshot files on disk.
pub fn snapshots(count: usize, files: &str, lang: Lang) -> String {
    render(
        &msg!("transcript.snapshots", count = count, files = files),
        lang,
    )
}

/// `print window` when the partition knows no such producer (`None`: any producer).
pub fn window_unknown(producer_id: Option<i64>, lang: Lang) -> String {
    let who = producer_id.map_or("any".to_string(), |p| p.to_string());
    render(&msg!("transcript.window.unknown", who = who), lang)
}

/// A view of a partition that does not exist.
pub fn no_partition(tp: &str, lang: Lang) -> String {
    render(&msg!("transcript.no-partition", tp = tp), lang)
}

/// The window table of a partition no batch has reached yet.
pub fn no_batch(tp: &str, lang: Lang) -> String {
    render(&msg!("transcript.no-batch", tp = tp), lang)
}

/// A view of a consumer that does not exist.
pub fn no_consumer(name: &str, lang: Lang) -> String {
    render(&msg!("transcript.no-consumer", name = name), lang)
}

/// A stopped replica's LEO is what its disk holds, not a live offset.
pub fn replica_on_disk(lang: Lang) -> String {
    render(&msg!("transcript.replica.on-disk"), lang)
}

/// What a stable OffsetFetch answered for a group: per partition its committed offset,
/// none, or an error (UNSTABLE_OFFSET_COMMIT) with why; or why nothing can be read yet
/// (no `__consumer_offsets`, or its coordinator's broker still loading the partition).
pub fn committed_offsets(group: &str, answer: &CommittedOffsets, lang: Lang) -> Vec<String> {
    let line = |m: super::Msg| render(&m, lang);
    match answer {
        CommittedOffsets::NoTopic => {
            vec![line(msg!("transcript.committed.no-topic", group = group))]
        }
        CommittedOffsets::Loading { broker, tp } => vec![line(msg!(
            "transcript.committed.loading",
            group = group,
            error = Errors::CoordinatorLoadInProgress.name(),
            broker = broker,
            tp = tp
        ))],
        CommittedOffsets::Partitions(partitions) => partitions
            .iter()
            .map(|(tp, offset)| {
                line(match offset {
                    Ok(Some(offset)) => msg!(
                        "transcript.committed",
                        group = group,
                        tp = tp,
                        offset = offset
                    ),
                    Ok(None) => msg!("transcript.committed.none", group = group, tp = tp),
                    Err(error) => msg!(
                        "transcript.committed.error",
                        group = group,
                        tp = tp,
                        error = error.name(),
                        why = super::Msg::new("transcript.committed.unstable")
                    ),
                })
            })
            .collect(),
    }
}

/// A raw call's transcript: its InitProducerId retries (each after a retriable error,
/// before `retry.backoff.ms`), then the answer's lines as Kafka's tools print them.
pub fn raw_lines(outcome: RawOutcome, lang: Lang) -> Vec<String> {
    let mut lines: Vec<String> = (outcome.retries.iter())
        .map(|r| {
            render(
                &msg!(
                    "transcript.init-pid-retry",
                    error = r.error.name(),
                    backoff_ms = r.backoff_ms
                ),
                lang,
            )
        })
        .collect();
    lines.extend(outcome.lines);
    lines
}

// Pulsar's transcript lines (`pulsar …` steps): Pulsar's ids, positions and state
// names as Pulsar prints them, the words around them in the reader's language.

/// What a `pulsar receive` got: nothing, or `count` entries (`a@2:0 b@2:1`).
pub fn pulsar_got(consumer: &str, count: usize, entries: &str, lang: Lang) -> String {
    render(
        &msg!(
            "pulsar.out.got",
            consumer = consumer,
            count = count,
            entries = entries
        ),
        lang,
    )
}

/// A transaction the client committed or aborted.
pub fn pulsar_ended(name: &str, commit: bool, lang: Lang) -> String {
    render(
        &msg!("pulsar.out.ended", name = name, commit = commit),
        lang,
    )
}

/// Held messages the network let go.
pub fn pulsar_released(count: usize, lang: Lang) -> String {
    render(&msg!("pulsar.out.released", count = count), lang)
}

/// A commit or abort marker in a partition's ledger, with its transaction.
pub fn pulsar_marker(commit: bool, txn: &str, lang: Lang) -> String {
    render(
        &msg!("pulsar.view.marker", commit = commit, txn = txn),
        lang,
    )
}

/// A ledger entry's transaction state: aborted, or still ongoing.
pub fn pulsar_entry_state(aborted: bool, lang: Lang) -> String {
    if aborted {
        render(&msg!("pulsar.view.aborted"), lang)
    } else {
        render(&msg!("pulsar.view.ongoing"), lang)
    }
}

/// The transaction buffer's ongoing and aborted transactions (`[(0,0) t1@3:0]`).
pub fn pulsar_buffer(ongoing: &str, aborted: &str, lang: Lang) -> [String; 2] {
    [
        render(&msg!("pulsar.view.buffer-ongoing", txns = ongoing), lang),
        render(&msg!("pulsar.view.buffer-aborted", txns = aborted), lang),
    ]
}

/// The transaction buffer's state (`TopicTransactionBufferState`, Pulsar's names).
pub fn pulsar_buffer_state(state: &str, lang: Lang) -> String {
    render(&msg!("pulsar.view.buffer-state", state = state), lang)
}

/// A transaction coordinator loading its log (it answers TransactionCoordinatorNotFound).
pub fn pulsar_coordinator_loading(tc: u64, broker: impl std::fmt::Display, lang: Lang) -> String {
    render(
        &msg!("pulsar.view.coordinator-loading", tc = tc, broker = broker),
        lang,
    )
}

/// The transaction buffer's last snapshot: its maxReadPosition and aborted
/// transactions, or none yet.
pub fn pulsar_snapshot(snapshot: Option<(&str, &str)>, lang: Lang) -> String {
    match snapshot {
        Some((max_read, aborts)) => render(
            &msg!("pulsar.view.snapshot", max_read = max_read, aborts = aborts),
            lang,
        ),
        None => render(&msg!("pulsar.view.snapshot-none"), lang),
    }
}

/// A transaction-log entry the coordinator has deleted.
pub fn pulsar_deleted(lang: Lang) -> String {
    render(&msg!("pulsar.view.deleted"), lang)
}

/// A transaction coordinator: where it runs, and whether it is serving.
pub fn pulsar_coordinator(
    tc: u64,
    broker: impl std::fmt::Display,
    ready: bool,
    lang: Lang,
) -> String {
    render(
        &msg!(
            "pulsar.view.coordinator",
            tc = tc,
            broker = broker,
            ready = ready
        ),
        lang,
    )
}

/// Everything a consumer received so far.
pub fn pulsar_received(consumer: &str, entries: &str, lang: Lang) -> String {
    render(
        &msg!(
            "pulsar.view.received",
            consumer = consumer,
            entries = entries
        ),
        lang,
    )
}

/// A transaction's state as the client sees it (`TIME_OUT`).
pub fn pulsar_client_state(name: &str, id: &str, state: &str, lang: Lang) -> String {
    render(
        &msg!(
            "pulsar.view.client-state",
            name = name,
            id = id,
            state = state
        ),
        lang,
    )
}
