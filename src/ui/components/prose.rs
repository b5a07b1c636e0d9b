//! Lesson prose: an author writes identifiers (a config key, a command, a topic) between
//! backticks, as in Markdown; the page shows them as code instead of the backticks.
//! Kafka's names (OUT_OF_ORDER_SEQUENCE_NUMBER, `__transaction_state`) may break at
//! their underscores: [`breakable`].

use yew::prelude::*;

/// `text` with a line-break opportunity (`<wbr>`) after each `_` that ends a part of a
/// name, so a narrow screen breaks a long error name (TRANSACTION_COORDINATOR_FENCED) at
/// its underscores instead of mid-word (`overflow-wrap: anywhere`, the CSS's last resort);
/// an underscore after anything but an ASCII letter or digit (the leading `__` of
/// `__transaction_state`, wherever it stands) ends no part and gets none. Copied or read
/// out, the text is unchanged.
pub fn breakable(text: &str) -> Html {
    let mut parts = Vec::new();
    for piece in text.split_inclusive('_') {
        parts.push(Html::from(piece));
        let ends_a_part = piece
            .strip_suffix('_')
            .and_then(|before| before.chars().last())
            .is_some_and(|c| c.is_ascii_alphanumeric());
        if ends_a_part {
            parts.push(html! { <wbr /> });
        }
    }
    parts.into_iter().collect()
}

/// `text` with each `…` pair shown as `<code>`; an odd backtick leaves the text as is.
pub fn prose(text: &str) -> Html {
    if text.matches('`').count() % 2 == 1 {
        return breakable(text);
    }
    let parts = text.split('`').enumerate().map(|(i, part)| {
        if i % 2 == 1 {
            html! { <code>{ breakable(part) }</code> }
        } else {
            breakable(part)
        }
    });
    html! { <>{ for parts }</> }
}

/// [`prose`], with the first use of each of `terms` marked: a focusable term whose
/// definition shows on hover and on keyboard focus, and is read out after it (the
/// glossary, `i18n::glossary`). Code spans are never marked.
pub fn prose_with_terms(text: &str, terms: &[&crate::i18n::glossary::Term]) -> Html {
    use crate::i18n::glossary;
    if terms.is_empty() || text.matches('`').count() % 2 == 1 {
        return prose(text);
    }
    let mut left: Vec<&glossary::Term> = terms.to_vec();
    let parts = text.split('`').enumerate().map(|(i, part)| {
        if i % 2 == 1 {
            return html! { <code>{ breakable(part) }</code> };
        }
        let pieces = glossary::mark(part, &left);
        let html = pieces
            .iter()
            .map(|(piece, term)| match term {
                Some(t) => html! {
                    <span class="term" tabindex="0" data-term={t.id}>
                        <dfn>{ piece.to_string() }</dfn>
                        <span class="term-def visually-hidden" role="tooltip">{ format!("{}: {}", t.name, t.definition) }</span>
                    </span>
                },
                None => breakable(piece),
            })
            .collect::<Html>();
        left.retain(|t| !pieces.iter().any(|(_, m)| m.is_some_and(|m| m.id == t.id)));
        html
    });
    html! { <>{ for parts }</> }
}
