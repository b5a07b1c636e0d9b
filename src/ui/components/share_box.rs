//! Under the tabs, after "Copy link" (in the tab bar): the current view as a URL (its
//! fragment is `share::encode`'s), put in the address bar and on the clipboard, and
//! shown in a field to copy by hand when the clipboard is not available. Also where a
//! bad link, a view too long for one, or a bad `?lesson=` says what is wrong. Empty otherwise.

use yew::prelude::*;

use crate::i18n::{t, tf, Key};
use crate::ui::state::LinkBox;

#[derive(Properties, PartialEq)]
pub struct ShareBoxProps {
    pub link: Option<LinkBox>,
    pub error: Option<String>,
    pub refused: Option<String>,
    /// What is wrong with the address's `?lesson=`/`step=`/`page=`, and what is shown.
    #[prop_or_default]
    pub url_error: Option<String>,
    /// Close the box and the link error (`LinkMsg::Close`).
    pub on_close: Callback<()>,
}

#[function_component(ShareBox)]
pub fn share_box(p: &ShareBoxProps) -> Html {
    let field = use_node_ref();
    {
        // Select the link when the clipboard could not take it, so Ctrl+C copies it.
        let field = field.clone();
        let select = p.link.as_ref().is_some_and(|l| l.copied == Some(false));
        use_effect_with((select, p.link.clone()), move |(select, _)| {
            if *select {
                if let Some(input) = field.cast::<web_sys::HtmlInputElement>() {
                    let _ = input.focus();
                    input.select();
                }
            }
        });
    }
    let close = {
        let on_close = p.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    if p.link.is_none() && p.error.is_none() && p.refused.is_none() && p.url_error.is_none() {
        return Html::default();
    }
    html! {
        <div class="share-box">
            if let Some(l) = &p.link {
                <div class="share-link stack">
                    <label class="small" for="share-link">{ t(Key::LinkLabel) }</label>
                    <div class="cluster">
                        <input id="share-link" class="mono" type="text" readonly=true value={l.url.clone()} ref={field} data-testid="share-link" />
                        <button type="button" class="link-button" onclick={close.clone()}>{ t(Key::LinkClose) }</button>
                    </div>
                    <p class="small" role="status" data-testid="share-status">{ match l.copied {
                        Some(true) => t(Key::LinkCopied),
                        Some(false) => t(Key::LinkSelect),
                        None => t(Key::LinkPending),
                    } }</p>
                </div>
            }
            if let Some(why) = &p.refused {
                <p class="action-error link-error" role="alert" data-testid="link-refused">
                    { tf(Key::LinkRefused, &[why]) }{ " " }
                    <button type="button" class="link-button" onclick={close.clone()}>{ t(Key::LinkClose) }</button>
                </p>
            }
            if let Some(e) = &p.url_error {
                <p class="action-error link-error" role="alert" data-testid="url-error">
                    { e.clone() }{ " " }
                    <button type="button" class="link-button" onclick={close.clone()}>{ t(Key::LinkClose) }</button>
                </p>
            }
            if let Some(e) = &p.error {
                <p class="action-error link-error" role="alert" data-testid="link-error">
                    { tf(Key::LinkBad, &[e]) }{ " " }
                    <button type="button" class="link-button" onclick={close}>{ t(Key::LinkClose) }</button>
                </p>
            }
        </div>
    }
}
