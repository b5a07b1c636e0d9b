//! `eos`: the playground in the browser (wasm32) or the lesson runner on the command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    eos_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(eos_playground::cli::main(&args));
}
