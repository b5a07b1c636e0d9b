//! The transcript's own words around the engine's values: what an `echo` placeholder
//! says (`{outcome}`, `{consumed}`, `{latest}`), the reason in a verdict row, the notes
//! on a replica line and why a committed offset is unstable. The values, Kafka's names
//! and the tool-shaped lines around them are the same in every language.

use super::catalog::render;
use super::Lang;
use crate::msg;

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
pub fn replica_notes(out_of_sync: bool, stopped: bool, differs: bool, lang: Lang) -> String {
    let notes = [
        (out_of_sync, "transcript.replica.out-of-sync"),
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
