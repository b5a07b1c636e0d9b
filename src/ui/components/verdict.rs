//! The broker's latest decision on the partition: APPEND, DUPLICATE, OUT_OF_ORDER or
//! INVALID_PRODUCER_EPOCH — a colour *and* the word, with the numbers behind it. Not a
//! live region: the broker event it shows is narrated, and the narration is announced
//! (`view::announce`), so a screen reader hears each verdict once.

use crate::ui::class::class_list;
use yew::prelude::*;

use crate::broker::broker::BrokerEvent;
use crate::i18n::narration::error_detail;
use crate::i18n::{out_of_order_text, t, tf, Key};
use crate::protocol::errors::Errors;

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    /// (logical ms since start, the decision).
    pub verdict: Option<(i64, BrokerEvent)>,
    /// A lesson is playing: there is no Send to press, the lesson's steps send.
    #[prop_or_default]
    pub in_lesson: bool,
}

#[function_component(Verdict)]
pub fn verdict(p: &VerdictProps) -> Html {
    let Some((at, event)) = &p.verdict else {
        return html! {
            <div class="verdict verdict-none" data-testid="verdict">
                <p class="muted">{ t(if p.in_lesson { Key::VerdictNoneLesson } else { Key::VerdictNone }) }</p>
            </div>
        };
    };
    let at = at.to_string();
    let (class, word, text, pid, first, last) = match event {
        e @ (BrokerEvent::BatchAppended {
            producer_id,
            first_seq,
            last_seq,
            first_offset,
            last_offset,
            log_end_offset,
            ..
        }
        | BrokerEvent::BatchDuplicate {
            producer_id,
            first_seq,
            last_seq,
            first_offset,
            last_offset,
            log_end_offset,
            ..
        }) => {
            let (class, word, text) = match e {
                BrokerEvent::BatchAppended { .. } => {
                    ("append", Key::VerdictAppend, Key::VerdictAppendText)
                }
                _ => (
                    "duplicate",
                    Key::VerdictDuplicate,
                    Key::VerdictDuplicateText,
                ),
            };
            let offsets = [first_offset, last_offset, log_end_offset].map(|o| o.to_string());
            (
                class,
                t(word),
                tf(text, &[&offsets[0], &offsets[1], &offsets[2]]),
                *producer_id,
                *first_seq,
                *last_seq,
            )
        }
        BrokerEvent::BatchRejected {
            producer_id,
            producer_epoch,
            first_seq,
            last_seq,
            error,
            expected_seq,
            current_epoch,
            detail,
            seq_direction,
            ..
        } => {
            let unknown = t(Key::Unknown).to_string();
            match error {
                Errors::OutOfOrderSequenceNumber => (
                    "rejected",
                    t(Key::VerdictOutOfOrder),
                    tf(
                        out_of_order_text(*seq_direction),
                        &[
                            &expected_seq.map_or(unknown, |s| s.to_string()),
                            &format!("{first_seq}..{last_seq}"),
                        ],
                    ),
                    *producer_id,
                    *first_seq,
                    *last_seq,
                ),
                Errors::InvalidProducerEpoch => (
                    "rejected",
                    t(Key::VerdictEpoch),
                    tf(
                        Key::VerdictEpochText,
                        &[
                            &producer_epoch.to_string(),
                            &current_epoch.map_or(unknown, |e| e.to_string()),
                        ],
                    ),
                    *producer_id,
                    *first_seq,
                    *last_seq,
                ),
                other => (
                    "rejected",
                    other.name(),
                    tf(
                        Key::VerdictOtherText,
                        &[&error_detail(detail, crate::i18n::ui_lang())],
                    ),
                    *producer_id,
                    *first_seq,
                    *last_seq,
                ),
            }
        }
        _ => return html! {},
    };
    html! {
        <div class={class_list(&["verdict", &format!("verdict-{class}")])} data-testid="verdict" data-verdict={word}>
            <p class="verdict-head">
                <strong class="verdict-word">{ word }</strong>
                <span class="verdict-where muted small">{ tf(Key::VerdictAt, &[&at, &pid.to_string(), &first.to_string(), &last.to_string()]) }</span>
            </p>
            <p class="verdict-text">{ text }</p>
        </div>
    }
}
