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
