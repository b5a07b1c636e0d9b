//! The 61 header bytes of one batch, field by field (BatchView::header_fields()).

use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::sim::view::BatchView;

#[derive(Properties, PartialEq)]
pub struct HeaderBytesProps {
    pub batch: BatchView,
}

#[function_component(HeaderBytes)]
pub fn header_bytes(p: &HeaderBytesProps) -> Html {
    let idempotence = ["producerId", "producerEpoch", "baseSequence"];
    let rows: Html = p
        .batch
        .header_fields()
        .into_iter()
        .map(|f| {
            let key = idempotence.contains(&f.name);
            html! {
                <tr class={key.then_some("field-key")}>
                    <th scope="row" class="mono">{ f.name }</th>
                    <td class="num mono">{ format!("{}..{}", f.offset, f.offset + f.size.saturating_sub(1)) }</td>
                    <td class="mono hex">{ f.hex }</td>
                    <td class="mono">{ f.value }</td>
                </tr>
            }
        })
        .collect();
    html! {
        <section id="header-bytes" class="header-bytes" aria-labelledby="header-bytes-heading" data-testid="header-bytes">
            <h3 id="header-bytes-heading">{ tf(Key::BytesHeading, &[&p.batch.base_offset.to_string(), &p.batch.position.to_string(), &format!("{:020}.log", p.batch.segment)]) }</h3>
            <div class="scroll-x" tabindex="0" role="region" aria-label={t(Key::BytesCaption)}>
                <table>
                    <caption class="small muted">{ t(Key::BytesCaption) }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ t(Key::BytesField) }</th>
                            <th scope="col" class="num">{ t(Key::BytesRange) }</th>
                            <th scope="col">{ t(Key::BytesHex) }</th>
                            <th scope="col">{ t(Key::BytesValue) }</th>
                        </tr>
                    </thead>
                    <tbody>{ rows }</tbody>
                </table>
            </div>
        </section>
    }
}
