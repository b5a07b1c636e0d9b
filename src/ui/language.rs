//! The page's language: which one to start with (`?lang=`, a share link's, the
//! browser's), the menu that switches it, and fetching a catalog the build left out.
//!
//! The catalogs are `i18n/en.txt`, `i18n/ko.txt` and `i18n/th.txt` next to `index.html`
//! (copied there by Trunk). English is fetched before the first render ([`then_mount`];
//! the page preloads it beside the wasm, so it is there when the wasm starts) unless
//! the feature `catalog-en` compiled it in; Korean and Thai the first time they are
//! chosen. Until a file arrives the page stays in its current language.

use yew::prelude::*;

use crate::i18n::catalog::{install, is_loaded};
use crate::i18n::{set_ui_lang, t, ui_lang, Key, Lang};

/// The language to start in: `?lang=` wins, then the share link's, then the first of
/// the browser's languages we have, else English.
pub(super) fn initial(url: Option<Lang>, link: Option<Lang>) -> Lang {
    url.or(link).or_else(browser_lang).unwrap_or_default()
}

fn browser_lang() -> Option<Lang> {
    let navigator = web_sys::window()?.navigator();
    let languages = navigator.languages();
    languages
        .iter()
        .filter_map(|l| l.as_string())
        .chain(navigator.language())
        .find_map(|l| Lang::from_code(&l))
}

/// Switches to `lang`: at once when its catalog is here, else after fetching it; then
/// tells the page (`on_switch`) so it renders anew. A failed fetch leaves the page as it
/// is (and says so in the console).
pub(super) fn choose(lang: Lang, on_switch: Callback<Lang>) {
    if is_loaded(lang) {
        switch(lang, &on_switch);
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match fetch_catalog(lang).await {
            Ok(()) => switch(lang, &on_switch),
            Err(why) => not_fetched(lang, &why),
        }
    });
}

/// Fetches `lang`'s catalog and installs it, telling the console about lines it could
/// not read. The request is sent at once, so two catalogs travel together; one future
/// type serves every catalog (one state machine in the wasm).
fn fetch_catalog(lang: Lang) -> impl std::future::Future<Output = Result<(), String>> {
    let text = fetch_text(format!("i18n/{}.txt", lang.code()));
    async move {
        let text = text.await?;
        for e in install(lang, &text) {
            web_sys::console::warn_1(
                &format!("i18n/{}.txt line {}: {}", lang.code(), e.line, e.message).into(),
            );
        }
        Ok(())
    }
}

fn not_fetched(lang: Lang, why: &str) {
    web_sys::console::warn_1(&format!("could not load the {} catalog: {why}", lang.code()).into());
}

/// Runs `mount` once English (the labels and the fallback of every language) is here,
/// and the page's first language too ([`initial`] from `?lang=` and the browser's): so a
/// Korean or Thai learner's page is rendered in their language from the start, not in
/// English and then again (the page preloads that catalog beside English's). A share
/// link's language is known only once the app has read the link: the app switches to it
/// then. If English cannot be fetched, the page's "Loading…" line (`#app .app-loading`)
/// says so with its `data-failed` text, and the page is not mounted: every label would be
/// missing. If the other language cannot be fetched, the page starts in English.
pub(super) fn then_mount(mount: impl FnOnce() + 'static) {
    let search = super::browser::location_field("search").unwrap_or_default();
    let first = initial(super::embed::parse_options(&search).lang, None);
    let wanted = (first != Lang::En && !is_loaded(first)).then_some(first);
    if is_loaded(Lang::En) && wanted.is_none() {
        start_in(first);
        mount();
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let english = (!is_loaded(Lang::En)).then(|| fetch_catalog(Lang::En));
        let other = wanted.map(|l| (l, fetch_catalog(l)));
        if let Some(english) = english {
            if let Err(why) = english.await {
                loading_failed(&why);
                return;
            }
        }
        match other {
            Some((lang, fetched)) => match fetched.await {
                Ok(()) => start_in(lang),
                Err(why) => {
                    // The page's head script (www/first-language.js) set <html lang> to it:
                    // the page starts in English.
                    set_html_lang(Lang::En);
                    not_fetched(lang, &why);
                }
            },
            None => start_in(first),
        }
        mount();
    });
}

/// The page speaks `lang` from its first render (`<html lang>` too).
fn start_in(lang: Lang) {
    if is_loaded(lang) && lang != ui_lang() {
        set_ui_lang(lang);
        set_html_lang(lang);
    }
}

/// English could not be fetched: the "Loading…" line says so, and the first page's
/// static shell, which would look ready and do nothing, is hidden.
fn loading_failed(why: &str) {
    web_sys::console::error_1(&format!("could not load i18n/en.txt: {why}").into());
    let document = web_sys::window().and_then(|w| w.document());
    let find = |selector: &str| {
        document
            .as_ref()
            .and_then(|d| d.query_selector(selector).ok().flatten())
    };
    if let Some(status) = find("#app .app-loading") {
        let failed = status.get_attribute("data-failed").unwrap_or_default();
        status.set_text_content(Some(&failed));
    }
    if let Some(html) = document.as_ref().and_then(|d| d.document_element()) {
        let _ = html.set_attribute("data-shell", "off");
    }
}

fn set_html_lang(lang: Lang) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", lang.code());
    }
}

fn switch(lang: Lang, on_switch: &Callback<Lang>) {
    set_ui_lang(lang);
    set_html_lang(lang);
    on_switch.emit(lang);
}

/// A link to another of the site's pages that keeps the current language
/// (`?lang=` unless it is English, the default).
pub(super) fn href_in_lang(page: &str) -> String {
    match ui_lang() {
        Lang::En => page.to_string(),
        lang => format!("{page}?lang={}", lang.code()),
    }
}

/// Fetches a text file. The request is sent when this is called, not when the future
/// is first awaited, so two fetches started one after the other travel together.
pub(super) fn fetch_text(
    url: impl Into<String>,
) -> impl std::future::Future<Output = Result<String, String>> {
    let url = url.into();
    let sent = web_sys::window()
        .ok_or_else(|| "no window".to_string())
        .map(|w| w.fetch_with_str(&url));
    read_text(url, sent)
}

/// Reads a sent fetch's answer as text: an HTTP error or a failed fetch says which URL.
pub(super) async fn read_text(
    url: String,
    sent: Result<js_sys::Promise, String>,
) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let url = url.as_str();
    let js = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let response = wasm_bindgen_futures::JsFuture::from(sent?)
        .await
        .map_err(js)?
        .dyn_into::<web_sys::Response>()
        .map_err(js)?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(js)?)
        .await
        .map_err(js)?;
    text.as_string().ok_or_else(|| format!("{url}: not text"))
}

#[derive(Properties, PartialEq)]
pub struct LangMenuProps {
    /// Called once the chosen language is in force.
    pub on_switch: Callback<Lang>,
}

/// The language menu: each language in its own name.
#[function_component(LangMenu)]
pub fn lang_menu(p: &LangMenuProps) -> Html {
    let current = ui_lang();
    let onchange = {
        let on_switch = p.on_switch.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            if let Some(lang) = Lang::from_code(&value) {
                choose(lang, on_switch.clone());
            }
        })
    };
    html! {
        <label class="lang-menu">
            <span class="lang-menu-label">{ t(Key::LanguageLabel) }</span>
            <select data-testid="lang-menu" {onchange}>
                { for Lang::ALL.iter().map(|&l| html! {
                    <option value={l.code()} lang={l.code()} selected={l == current}>{ l.native_name() }</option>
                }) }
            </select>
        </label>
    }
}
