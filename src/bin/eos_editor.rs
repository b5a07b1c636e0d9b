//! `eos-editor`: the lesson editor in the browser (wasm32, `www/editor.html`). Natively a
//! lesson file is checked with `eos run FILE` and `eos questions FILE`.

#[cfg(target_arch = "wasm32")]
fn main() {
    eos_playground::ui::editor::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("eos-editor is the lesson editor's wasm; natively, use `eos run FILE` and `eos questions FILE`");
    std::process::exit(2);
}
