//! Where the reader is in a bottom-anchored list: the batch table and the timeline
//! scroll in a flex `column-reverse` box, which keeps their newest row in view as rows
//! are appended. So a click that appends a row moves every rendered row up, and each
//! moved row is laid out, pre-painted and painted again in the click's frame: while
//! the reader is at the newest end, such a list renders only its newest rows (a few
//! more than its box shows), and all of them once the reader scrolls up
//! (docs/performance.md, "The page").

use yew::prelude::*;

/// Whether the reader has scrolled a bottom-anchored list away from its newest end.
#[derive(Clone, PartialEq)]
pub struct NewestEnd(UseStateHandle<bool>);

/// The list starts at its newest end.
#[hook]
pub fn use_newest_end() -> NewestEnd {
    NewestEnd(use_state_eq(|| false))
}

impl NewestEnd {
    /// Scrolled up: every row is rendered.
    pub fn away(&self) -> bool {
        *self.0
    }

    /// After a scroll of `el`: away once it is more than `px` above its newest end
    /// (`scroll_top` is 0 there and negative above it in a `column-reverse` box), so
    /// the older rows are drawn before the reader reaches the newest ones' top.
    /// While the focus is inside the list (the scroll region itself, for its keys, or a
    /// row's button) every row stays drawn: PageUp and Home then scroll over all of them,
    /// and returning to the newest end never removes the focused row.
    pub fn scrolled(&self, el: &web_sys::Element, px: i32) {
        let focus_inside = el
            .owner_document()
            .and_then(|d| d.active_element())
            .is_some_and(|a| el.contains(Some(&a)));
        self.0.set(el.scroll_top() < -px || focus_inside);
    }

    /// A focus handler for the list's scroll region: the focus coming in draws every row
    /// (before a key scrolls), the focus leaving it for the rest of the page draws the
    /// newest again if the list is at its newest end.
    pub fn on_focus(&self, px: i32) -> (Callback<FocusEvent>, Callback<FocusEvent>) {
        let end = self.clone();
        let focus_in = Callback::from(move |_: FocusEvent| end.0.set(true));
        let end = self.clone();
        let focus_out = Callback::from(move |e: FocusEvent| {
            use wasm_bindgen::JsCast;
            let Some(el) = e
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            else {
                return;
            };
            let to_inside = e
                .related_target()
                .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
                .is_some_and(|n| el.contains(Some(&n)));
            end.0.set(el.scroll_top() < -px || to_inside);
        });
        (focus_in, focus_out)
    }

    /// A scroll handler that only tracks [`NewestEnd::scrolled`].
    pub fn on_scroll(&self, px: i32) -> Callback<Event> {
        let end = self.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                end.scrolled(&el, px);
            }
        })
    }
}
