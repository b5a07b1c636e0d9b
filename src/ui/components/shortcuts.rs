//! The keyboard-shortcut sheet (`?` opens it, Esc or its button closes it): a modal
//! dialog that keeps Tab inside and gives focus back when it closes.

use yew::prelude::*;

use crate::i18n::{t, Key};

#[derive(Properties, PartialEq)]
pub struct ShortcutsProps {
    /// Close the sheet (`Panel::Shortcuts(false)`).
    pub on_close: Callback<()>,
}

#[function_component(Shortcuts)]
pub fn shortcuts(p: &ShortcutsProps) -> Html {
    let close_ref = use_node_ref();
    {
        // Move focus into the sheet, so Esc and Tab work from the keyboard at once; on
        // closing, give it back to where it was.
        let close_ref = close_ref.clone();
        use_effect_with((), move |_| {
            let before = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element());
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                let _ = b.focus();
            }
            move || {
                use wasm_bindgen::JsCast;
                if let Some(e) = before.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                    let _ = e.focus();
                }
            }
        });
    }
    // A modal sheet keeps Tab inside: its one control is the close button.
    let onkeydown = {
        let close_ref = close_ref.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Tab" {
                e.prevent_default();
                if let Some(b) = close_ref.cast::<web_sys::HtmlElement>() {
                    let _ = b.focus();
                }
            }
        })
    };
    let close = {
        let on_close = p.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let row = |keys: &str, what: Key| {
        html! {
            <tr><th scope="row"><kbd>{ keys.to_string() }</kbd></th><td>{ t(what) }</td></tr>
        }
    };
    html! {
        <div class="sheet-backdrop">
            <div class="sheet panel stack" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title" data-testid="shortcuts" {onkeydown}>
                <h2 id="shortcuts-title">{ t(Key::KsHeading) }</h2>
                <table class="shortcuts-table">
                    <caption class="visually-hidden">{ t(Key::KsHeading) }</caption>
                    <thead><tr><th scope="col">{ t(Key::KsKeyCol) }</th><th scope="col">{ t(Key::KsWhatCol) }</th></tr></thead>
                    <tbody>
                        { row("←", Key::KsBack) }
                        { row("→", Key::KsForward) }
                        { row(t(Key::KsSpace), Key::KsPlay) }
                        { row("?", Key::KsOpen) }
                        { row("Esc", Key::KsClose) }
                    </tbody>
                </table>
                <p class="muted small">{ t(Key::KsNote) }</p>
                <div class="cluster">
                    <button type="button" class="primary" ref={close_ref} data-testid="shortcuts-close" onclick={close}>{ t(Key::KsCloseButton) }</button>
                </div>
            </div>
        </div>
    }
}
