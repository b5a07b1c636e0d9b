//! `eos-chaos`: the chaos search page in the browser (wasm32, `www/chaos.html`), which
//! runs its seeds in a Web Worker (`eos-chaos-worker`). Natively the same chaos runs
//! are `eos chaos --seeds A..B --steps N --switch NAME`.

#[cfg(target_arch = "wasm32")]
fn main() {
    eos_playground::ui::chaos::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("eos-chaos is the chaos page's wasm; natively, use `eos chaos` (see `eos help`)");
    std::process::exit(2);
}
