//! `eos-chaos-worker`: the chaos page's Web Worker (wasm32, loaded by Trunk's loader
//! shim `eos-chaos-worker_loader.js`): it runs the seeds the page asks for and posts
//! progress and findings back (`eos_playground::checker::progress`). Natively the
//! same runs are `eos chaos`.

#[cfg(target_arch = "wasm32")]
fn main() {
    eos_playground::ui::chaos_worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("eos-chaos-worker is the chaos page's Web Worker; natively, use `eos chaos` (see `eos help`)");
    std::process::exit(2);
}
