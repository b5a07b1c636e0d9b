//! `eos-files`: Kafka's files in the browser (wasm32, `www/files.html`). Natively a
//! folder is read with `eos inspect DIR` (or DIR.zip) and a disk written with `--export`.

#[cfg(target_arch = "wasm32")]
fn main() {
    eos_playground::ui::files::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "eos-files is the files page's wasm; natively, use `eos inspect DIR` and `--export DIR`"
    );
    std::process::exit(2);
}
