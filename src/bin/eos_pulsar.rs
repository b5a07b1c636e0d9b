//! `eos-pulsar`: the Pulsar site in the browser (wasm32, `www/pulsar.html`); natively
//! the same lesson runner as `eos`.

#[cfg(target_arch = "wasm32")]
fn main() {
    eos_playground::ui::pulsar::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(eos_playground::cli::main_os(std::env::args_os().skip(1)));
}
