//! The broker's latest decision on the partition: APPEND, DUPLICATE, OUT_OF_ORDER or
//! INVALID_PRODUCER_EPOCH — a colour *and* the word, with the numbers behind it. Not a
//! live region: the broker event it shows is narrated, and the narration is announced
//! (`view::announce`), so a screen reader hears each verdict once.

use crate::ui::class::class_list;
use yew::prelude::*;

use crate::i18n::narration::error_detail;
use crate::i18n::{out_of_order_text, t, tf, Key};
use crate::protocol::errors::Errors;
use crate::view::idempotence_page::{VerdictOutcome, VerdictView};

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    /// The decision, with its logical time.
    pub verdict: Option<VerdictView>,
    /// A lesson is playing: there is no Send to press, the lesson's steps send.
    #[prop_or_default]
    pub in_lesson: bool,
}

#[function_component(Verdict)]
pub fn verdict(p: &VerdictProps) -> Html {
    let Some(v) = &p.verdict else {
        return html! {
            <div class="verdict verdict-none" data-testid="verdict">
                <p class="muted">{ t(if p.in_lesson { Key::VerdictNoneLesson } else { Key::VerdictNone }) }</p>
            </div>
        };
    };
    let at = v.at_ms.to_string();
    let (pid, first, last) = (v.producer_id, v.first_seq, v.last_seq);
    let (class, word, text) = match &v.outcome {
        VerdictOutcome::Written {
            duplicate,
            first_offset,
            last_offset,
            log_end_offset,
        } => {
            let offsets = [first_offset, last_offset, log_end_offset].map(|o| o.to_string());
            let (class, word, text) = if *duplicate {
                (
                    "duplicate",
                    Key::VerdictDuplicate,
                    Key::VerdictDuplicateText,
                )
            } else {
                ("append", Key::VerdictAppend, Key::VerdictAppendText)
            };
            (
                class,
                t(word),
                tf(text, &[&offsets[0], &offsets[1], &offsets[2]]),
            )
        }
        VerdictOutcome::Rejected {
            error,
            expected_seq,
            seq_direction,
            current_epoch,
            detail,
        } => {
            let unknown = t(Key::Unknown).to_string();
            let (word, text) = match error {
                Errors::OutOfOrderSequenceNumber => (
                    t(Key::VerdictOutOfOrder),
                    tf(
                        out_of_order_text(*seq_direction),
                        &[
                            &expected_seq.map_or(unknown, |s| s.to_string()),
                            &format!("{first}..{last}"),
                        ],
                    ),
                ),
                Errors::InvalidProducerEpoch => (
                    t(Key::VerdictEpoch),
                    tf(
                        Key::VerdictEpochText,
                        &[
                            &v.producer_epoch.to_string(),
                            &current_epoch.map_or(unknown, |e| e.to_string()),
                        ],
                    ),
                ),
                other => (
                    other.name(),
                    tf(
                        Key::VerdictOtherText,
                        &[&error_detail(detail, crate::i18n::ui_lang())],
                    ),
                ),
            };
            ("rejected", word, text)
        }
    };
    html! {
        <div class={class_list(&["verdict", &format!("verdict-{class}")])} data-testid="verdict" data-verdict={word}>
            <p class="verdict-head">
                <strong class="verdict-word">{ super::prose::breakable(word) }</strong>
                <span class="verdict-where muted small">{ tf(Key::VerdictAt, &[&at, &pid.to_string(), &first.to_string(), &last.to_string()]) }</span>
            </p>
            <p class="verdict-text">{ super::prose::breakable(&text) }</p>
        </div>
    }
}
