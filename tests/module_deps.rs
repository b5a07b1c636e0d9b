#![cfg(not(target_arch = "wasm32"))]
//! Dependencies between the top-level modules of `src/` run one way, as
//! docs/architecture.md draws them: each module has a layer, and a module may name
//! (`crate::…`, in `use` or in a path) only modules of a lower layer. Test code (files
//! named `tests.rs`, `tests/` folders, and what follows `#[cfg(test)]`) and comments are
//! left out. A new top-level module must be given its layer here.

use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and its layer, from the bottom up.
const LAYERS: &[(&str, u32)] = &[
    ("util", 0),
    ("breaks", 1),
    ("fs", 2),
    ("zip", 2),
    ("record", 3),
    ("protocol", 4),
    ("log", 5),
    ("inspect", 6),
    ("coordinator", 6),
    ("metadata", 6),
    ("raft", 6),
    ("client", 7),
    ("broker", 7),
    ("sim", 8),
    ("admin", 9),
    ("controller", 9),
    ("pulsar", 9),
    ("i18n", 10),
    ("scenario", 11),
    ("checker", 12),
    ("view", 13),
    ("cli", 14),
    ("ui", 14),
];

/// Imports against the layers that are still to be removed: (from, to). Each must still
/// occur (a fixed one is taken off this list). None is left: the controller sits above
/// the world it changes, and what the world holds of it is in `metadata` and `raft`.
const KNOWN: &[(&str, &str)] = &[];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "tests") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// The top-level modules a file's non-test code names through `crate::`.
fn named_modules(source: &str) -> Vec<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !found.contains(&name) {
                found.push(name);
            }
            rest = after;
        }
        // `use crate::{a, b::c}`
        if let Some(i) = line.find("use crate::{") {
            let list = &line[i + "use crate::{".len()..];
            for part in list.split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && !found.contains(&name) {
                    found.push(name);
                }
            }
        }
    }
    found
}

/// Every (from, to, file) where a top-level module names another.
fn imports() -> Vec<(String, String, String)> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        let first = rel
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .unwrap_or_default();
        let from = first.trim_end_matches(".rs").to_string();
        if matches!(from.as_str(), "lib" | "main" | "bin") {
            continue;
        }
        let source = fs::read_to_string(&file).expect("readable");
        for to in named_modules(&source) {
            if to != from && layer(&to).is_some() {
                out.push((from.clone(), to, rel.display().to_string()));
            }
        }
    }
    out
}

#[test]
fn every_top_level_module_has_a_layer() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for entry in fs::read_dir(&src).expect("src/").flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let module = name.trim_end_matches(".rs");
        if matches!(module, "lib" | "main" | "bin") {
            continue;
        }
        if layer(module).is_none() {
            missing.push(module.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "give these modules a layer in LAYERS: {missing:?}"
    );
}

#[test]
fn top_level_modules_import_only_lower_layers() {
    let mut wrong = Vec::new();
    let mut seen_known = Vec::new();
    for (from, to, file) in imports() {
        let (Some(a), Some(b)) = (layer(&from), layer(&to)) else {
            continue;
        };
        if a > b {
            continue;
        }
        if KNOWN.contains(&(from.as_str(), to.as_str())) {
            seen_known.push((from, to));
            continue;
        }
        wrong.push(format!("{file}: `{from}` imports `{to}`"));
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
    for known in KNOWN {
        assert!(
            seen_known
                .iter()
                .any(|(f, t)| (f.as_str(), t.as_str()) == *known),
            "{known:?} no longer occurs: take it off KNOWN"
        );
    }
}

#[test]
fn the_parser_sees_each_form_of_import() {
    let src = "use crate::log::UnifiedLog;\nuse crate::{fs::MemFs, record};\n\
               // crate::ui in a comment\nlet x = crate::sim::START_MS;\n\
               #[cfg(test)]\nmod tests { use crate::view; }\n";
    assert_eq!(named_modules(src), ["log", "fs", "record", "sim"]);
}
