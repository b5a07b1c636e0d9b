//! A labelled text input with its hint and its error message at the field.

use crate::ui::class::{class_list, on};
use yew::prelude::*;

use crate::i18n::Key;
use crate::view::validate::InputError;

/// The catalog key a field shows for an input the check refused.
impl From<InputError> for Key {
    fn from(e: InputError) -> Self {
        match e {
            InputError::Empty => Key::ErrEmpty,
            InputError::EmptyRecord => Key::ErrEmptyRecord,
            InputError::NotNumber => Key::ErrNotNumber,
            InputError::Negative => Key::ErrNegative,
            InputError::TooBig => Key::ErrTooBig,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct FieldProps {
    /// The input's id; the hint and error ids derive from it.
    pub id: AttrValue,
    pub label: AttrValue,
    pub value: AttrValue,
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    #[prop_or_default]
    pub error: Option<AttrValue>,
    #[prop_or_default]
    pub testid: Option<AttrValue>,
    /// `numeric` shows a number keypad on phones (the value is still checked as text).
    #[prop_or_default]
    pub inputmode: Option<AttrValue>,
    #[prop_or_default]
    pub disabled: bool,
    pub oninput: Callback<String>,
}

#[function_component(Field)]
pub fn field(p: &FieldProps) -> Html {
    let hint_id = format!("{}-hint", p.id);
    let error_id = format!("{}-error", p.id);
    let mut described = Vec::new();
    if p.error.is_some() {
        described.push(error_id.clone());
    }
    if p.hint.is_some() {
        described.push(hint_id.clone());
    }
    let described = (!described.is_empty()).then(|| described.join(" "));
    let oninput = {
        let cb = p.oninput.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                cb.emit(input.value());
            }
        })
    };
    html! {
        <div class={class_list(&["field", on(p.error.is_some(), "has-error")])}>
            <label for={p.id.clone()}>{ p.label.clone() }</label>
            <input
                id={p.id.clone()}
                type="text"
                autocomplete="off"
                spellcheck="false"
                inputmode={p.inputmode.clone()}
                value={p.value.clone()}
                disabled={p.disabled}
                aria-invalid={if p.error.is_some() { "true" } else { "false" }}
                aria-describedby={described}
                data-testid={p.testid.clone()}
                {oninput}
            />
            if let Some(err) = &p.error {
                <p class="field-error" id={error_id}>{ err.clone() }</p>
            }
            if let Some(hint) = &p.hint {
                <p class="field-hint muted" id={hint_id}>{ hint.clone() }</p>
            }
        </div>
    }
}
