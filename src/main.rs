//! `eos`: the playground in the browser (wasm32) or the lesson runner on the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    eos_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(eos_playground::cli::main_os(std::env::args_os().skip(1)));
}
