//! Lesson prose: an author writes identifiers (a config key, a command, a topic) between
//! backticks, as in Markdown; the page shows them as code instead of the backticks.

use yew::prelude::*;

/// `text` with each `…` pair shown as `<code>`; an odd backtick leaves the text as is.
pub fn prose(text: &str) -> Html {
    if text.matches('`').count() % 2 == 1 {
        return html! { { text.to_string() } };
    }
    let parts = text.split('`').enumerate().map(|(i, part)| {
        if i % 2 == 1 {
            html! { <code>{ part.to_string() }</code> }
        } else {
            html! { { part.to_string() } }
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
            return html! { <code>{ part.to_string() }</code> };
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
                None => html! { { piece.to_string() } },
            })
            .collect::<Html>();
        left.retain(|t| !pieces.iter().any(|(_, m)| m.is_some_and(|m| m.id == t.id)));
        html
    });
    html! { <>{ for parts }</> }
}
