//! "Try it": the free-play challenges of a page (`view::challenges`), each with its goal,
//! a hint behind a disclosure, and solved or not — as the engine sees the page's world
//! (which the address keeps across a reload; Reset starts it afresh).

use yew::prelude::*;

use crate::i18n::{t, ui_lang, Key};

#[derive(Properties, PartialEq)]
pub struct ChallengesProps {
    /// (challenge id, solved) for the page's challenges.
    pub items: Vec<(&'static str, bool)>,
}

#[function_component(Challenges)]
pub fn challenges(p: &ChallengesProps) -> Html {
    let lang = ui_lang();
    let text = |id: &str| crate::i18n::catalog::text(id, lang);
    html! {
        <section class="panel stack challenges-panel" aria-labelledby="challenges-heading" data-testid="challenges">
            <h2 id="challenges-heading">{ t(Key::ChallengesHeading) }</h2>
            <p class="small muted">{ t(Key::ChallengesIntro) }</p>
            <ul class="bare stack">
                { for p.items.iter().map(|(id, solved)| html! {
                    <li class="challenge" data-challenge={*id} data-solved={solved.to_string()}>
                        <p>
                            <span class={if *solved { "badge ok" } else { "badge" }}>{ if *solved { t(Key::ChallengeSolved) } else { t(Key::ChallengeOpen) } }</span>
                            // One text node: the shell's static copy is pixel for pixel the same.
                            { format!(" {}", text(&format!("challenge.{id}"))) }
                        </p>
                        if !*solved {
                            <details class="small">
                                <summary>{ t(Key::ChallengeHint) }</summary>
                                <p>{ text(&format!("challenge.{id}.hint")) }</p>
                            </details>
                        }
                    </li>
                }) }
            </ul>
        </section>
    }
}
