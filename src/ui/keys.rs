//! Keyboard shortcuts: ← / → step back and forward (through the recorded actions, or
//! the lesson), space plays and pauses, `?` opens the sheet that lists them, Esc
//! closes it. None fires while the learner types in a field.

use super::state::{Msg, Panel, Travel};

/// What a key press asks for, if anything. `typing`: the key went to a text field, a
/// select or a slider (which use the keys themselves); `on_button`: to a button (space
/// presses the button, it does not play).
pub fn key_msg(key: &str, typing: bool, on_button: bool, modifiers: bool) -> Option<Msg> {
    if modifiers {
        return None;
    }
    if key == "Escape" {
        return Some(Msg::Open(Panel::Shortcuts(false)));
    }
    if typing {
        return None;
    }
    match key {
        "ArrowLeft" => Some(Msg::Travel(Travel::Back)),
        "ArrowRight" => Some(Msg::Travel(Travel::Forward)),
        " " | "Spacebar" if !on_button => Some(Msg::TogglePlay),
        "?" => Some(Msg::Open(Panel::Shortcuts(true))),
        _ => None,
    }
}

/// The message for a browser key event (and whether to stop the browser's own action).
pub fn event_msg(e: &web_sys::KeyboardEvent) -> Option<Msg> {
    use wasm_bindgen::JsCast;
    let target = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let (typing, on_button) = match &target {
        Some(el) => {
            let tag = el.tag_name().to_ascii_uppercase();
            let editable = el.get_attribute("contenteditable").is_some();
            (
                matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT") || editable,
                matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY"),
            )
        }
        None => (false, false),
    };
    // Shift is part of `?` on most layouts, so only Ctrl/Alt/Meta count.
    let modifiers = e.ctrl_key() || e.alt_key() || e.meta_key();
    key_msg(&e.key(), typing, on_button, modifiers)
}
