//! Panels out of the reader's sight follow a click one frame later.
//!
//! A click changes most of a page's panels, and the browser styles, lays out and paints
//! every changed one before it shows anything, also those far below the window (the
//! transactions page is ≈ 6,000 px tall at 1280 px). A [`Deferred`] box renders its
//! panels at once while any of it is in the window, and otherwise right after the
//! click's frame is painted: the frame that shows the click holds only what the reader
//! sees, and the rest follows in the next one. In a visible tab the DOM is at most that
//! frame behind (a hidden tab draws no frames: there the boxes render after
//! `FALLBACK_MS`, as the browser throttles timers); a box that the click itself brings
//! into view shows its old content for that frame. `window.__eosDeferred` counts the
//! boxes still waiting, so a test can wait for the page to settle (docs/performance.md,
//! "The page").

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// If no frame comes (a hidden tab draws none), the waiting boxes render after this.
const FALLBACK_MS: i32 = 100;

thread_local! {
    /// The boxes waiting for the click's frame to be painted, and the number of their
    /// batch: a batch's frame or fallback that comes after it was rendered (the next
    /// click may already wait) renders nothing.
    static WAITING: RefCell<(u64, Vec<Callback<()>>)> = const { RefCell::new((0, Vec::new())) };
}

/// Publishes how many boxes wait (`window.__eosDeferred`).
fn publish(n: usize) {
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(
            &w,
            &JsValue::from_str("__eosDeferred"),
            &JsValue::from(n as u32),
        );
    }
}

/// Renders every box of `batch` that still waits: after the frame (a task queued from
/// the frame's animation callbacks runs once that frame is painted), or after the
/// fallback.
fn catch_up(batch: u64) {
    let waiting = WAITING.with(|w| {
        let mut w = w.borrow_mut();
        if w.0 != batch || w.1.is_empty() {
            return Vec::new();
        }
        w.0 += 1;
        std::mem::take(&mut w.1)
    });
    if waiting.is_empty() {
        return;
    }
    for done in waiting {
        done.emit(());
    }
    publish(0);
}

/// Queues a box; the first one of a batch asks for the frame.
fn after_next_frame(done: Callback<()>) {
    let first = WAITING.with(|w| {
        let mut w = w.borrow_mut();
        w.1.push(done);
        publish(w.1.len());
        (w.1.len() == 1).then_some(w.0)
    });
    let (Some(window), Some(batch)) = (web_sys::window(), first) else {
        return;
    };
    let in_task = Closure::once_into_js(move || catch_up(batch));
    let frame = Closure::once_into_js(move || {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback(in_task.unchecked_ref());
        }
    });
    let _ = window.request_animation_frame(frame.unchecked_ref());
    let fallback = Closure::once_into_js(move || catch_up(batch));
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
        fallback.unchecked_ref(),
        FALLBACK_MS,
    );
}

#[derive(Properties, PartialEq)]
pub struct DeferredProps {
    /// The box's classes (it is the `div` that holds the panels).
    #[prop_or_default]
    pub class: Classes,
    pub children: Html,
}

pub enum DeferredMsg {
    /// The click's frame is painted, or the box came into sight.
    CatchUp,
}

/// A `div` whose panels render at once while any of it is in the window, and after the
/// click's frame otherwise.
pub struct Deferred {
    node: NodeRef,
    /// Any of the box is in the window (until the observer says, it counts as seen).
    seen: Rc<Cell<bool>>,
    /// New children came while out of sight and are not rendered yet.
    behind: Rc<Cell<bool>>,
    observer: Option<Observer>,
}

/// The box's intersection observer and the closure it calls.
type Observer = (
    web_sys::IntersectionObserver,
    Closure<dyn FnMut(js_sys::Array)>,
);

impl Component for Deferred {
    type Message = DeferredMsg;
    type Properties = DeferredProps;

    fn create(_ctx: &Context<Self>) -> Self {
        Deferred {
            node: NodeRef::default(),
            seen: Rc::new(Cell::new(true)),
            behind: Rc::new(Cell::new(false)),
            observer: None,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        if self.seen.get() {
            self.behind.set(false);
            return true;
        }
        if !self.behind.replace(true) {
            after_next_frame(ctx.link().callback(|()| DeferredMsg::CatchUp));
        }
        false
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Self::Message) -> bool {
        match msg {
            DeferredMsg::CatchUp => self.behind.replace(false),
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        html! {
            <div class={p.class.clone()} ref={self.node.clone()}>{ p.children.clone() }</div>
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if !first_render {
            return;
        }
        let Some(el) = self.node.cast::<web_sys::Element>() else {
            return;
        };
        let (seen, behind) = (self.seen.clone(), self.behind.clone());
        let link = ctx.link().clone();
        let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            // The newest entry is the box's state now.
            let Some(entry) = entries
                .iter()
                .last()
                .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            else {
                return;
            };
            seen.set(entry.is_intersecting());
            if seen.get() && behind.get() {
                link.send_message(DeferredMsg::CatchUp);
            }
        });
        if let Ok(observer) = web_sys::IntersectionObserver::new(on_change.as_ref().unchecked_ref())
        {
            observer.observe(&el);
            self.observer = Some((observer, on_change));
        }
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((observer, _)) = self.observer.take() {
            // Notifications already queued would call the closure dropped below.
            observer.take_records();
            observer.disconnect();
        }
    }
}
