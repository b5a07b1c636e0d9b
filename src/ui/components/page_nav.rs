//! The tabs between the pages. They are plain links to `#idempotence` and
//! `#transactions` (keyboard- and back-button-friendly); a click also tells the state
//! directly, so the page switches even where the fragment cannot change.

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::i18n::Lang;
use crate::i18n::{t, Key};
use crate::ui::intents::NavIntents;
use crate::ui::state::Page;

#[derive(Properties, PartialEq)]
pub struct PageNavProps {
    pub current: Page,
    /// A tab clicked, the keyboard-shortcut sheet asked for.
    pub intents: NavIntents,
    /// The language menu's choice, its catalog loaded.
    pub on_lang: Callback<Lang>,
    /// "Copy link" (the share box under the tabs shows the link).
    pub on_copy_link: Callback<MouseEvent>,
}

#[function_component(PageNav)]
pub fn page_nav(p: &PageNavProps) -> Html {
    // Below 900 px the tabs scroll sideways: a tab the keyboard focuses comes wholly
    // into view (the browser's own focus scrolling leaves one partly in view alone).
    let onfocus = Callback::from(|e: FocusEvent| {
        if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
            crate::ui::browser::reveal_in_row(&el);
        }
    });
    let tab = |page: Page, label: Key, testid: &'static str| {
        let intents = p.intents.clone();
        let onclick = Callback::from(move |_: MouseEvent| intents.page(page));
        let current = p.current == page;
        html! {
            <li>
                <a href={format!("#{}", page.fragment())}
                   class={class_list(&["page-tab", on(current, "current")])}
                   aria-current={current.then_some("page")}
                   data-testid={testid}
                   onfocus={onfocus.clone()}
                   {onclick}>{ t(label) }</a>
            </li>
        }
    };
    let shortcuts = {
        let intents = p.intents.clone();
        Callback::from(move |_: MouseEvent| intents.open_shortcuts())
    };
    html! {
        <nav class="page-nav" aria-label={t(Key::NavLabel)}>
            <ul>
                { tab(Page::Idempotence, Key::NavIdempotence, "nav-idempotence") }
                { tab(Page::Transactions, Key::NavTransactions, "nav-transactions") }
                // The Pulsar site is a second entry (dist/pulsar/): a plain link, so this
                // page loads none of its code; it carries the language along.
                <li><a href={crate::ui::language::href_in_lang("pulsar/index.html")} class="page-tab" data-testid="nav-pulsar" onfocus={onfocus.clone()}>{ t(Key::NavPulsar) }</a></li>
                // The chaos search is a third entry (dist/chaos/), linked the same way.
                <li><a href={crate::ui::language::href_in_lang("chaos/index.html")} class="page-tab" data-testid="nav-chaos" {onfocus}>{ t(Key::NavChaos) }</a></li>
            </ul>
            <div class="nav-tools">
                <crate::ui::language::LangMenu on_switch={p.on_lang.clone()} />
                <button type="button" class="nav-button" data-testid="copy-link" onclick={p.on_copy_link.clone()}>{ t(Key::CopyLink) }</button>
                <button type="button" class="link-button shortcuts-button" data-testid="shortcuts-open" onclick={shortcuts}>{ t(Key::KsButton) }</button>
            </div>
        </nav>
    }
}
