//! Saving what a page made (a lesson's text, the disk as a zip) as a file: a Blob
//! behind a temporary link, the one way a page can hand the browser a download.

use wasm_bindgen::{JsCast, JsValue};

/// Saves `part` (a string or a `Uint8Array`) as the file `name` of type `mime`.
pub fn save(part: &JsValue, mime: &str, name: &str) {
    let parts = js_sys::Array::of1(part);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    let link = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok());
    if let Some(a) = link {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}
