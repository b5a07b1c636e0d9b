//! The `class` attribute from a list of names: what yew's `classes!` does for this UI
//! (no name here repeats), without its hash set. Each `classes!` call builds an
//! `IndexSet` and pushes every name through a generic conversion: its 32 call sites
//! cost 1.1 KB raw, 0.4 KB gzip of the wasm more than this.

/// The names joined by spaces, the empty ones left out; None (no attribute) when none
/// is left.
pub fn class_list(names: &[&str]) -> Option<String> {
    let mut out = String::new();
    for name in names.iter().filter(|n| !n.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(name);
    }
    (!out.is_empty()).then_some(out)
}

/// `name` when `when` holds, else nothing (an empty name, which `class_list` leaves out).
pub fn on(when: bool, name: &'static str) -> &'static str {
    if when {
        name
    } else {
        ""
    }
}
