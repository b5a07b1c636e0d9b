#![cfg(not(target_arch = "wasm32"))]
//! The code tour stays true: every backticked repository path in `docs/architecture.md`
//! must exist, and every backticked `Type::name` must name a type that some `.rs` file
//! under `src/` defines, with a member of that name (a method, an associated const, a
//! variant or a field). README.md and the other pages in `docs/` get the path check and
//! their relative links are followed. A renamed file or function then fails the build
//! instead of leaving the tour to drift.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Where a backticked span counts as a repository path.
const PATH_PREFIXES: &[&str] = &[
    "src/", "tests/", "docs/", "static/", "scripts/", "www/", "benches/",
];

/// First segments of `a::b` paths that are Rust's or a dependency's, not ours.
const FOREIGN_ROOTS: &[&str] = &[
    "i8",
    "i16",
    "i32",
    "i64",
    "u8",
    "u16",
    "u32",
    "u64",
    "usize",
    "isize",
    "f32",
    "f64",
    "std",
    "core",
    "alloc",
    "serde",
    "yew",
    "web_sys",
    "gloo",
    "wasm_bindgen",
    "js_sys",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------
// What src/ defines
// ---------------------------------------------------------------------------

/// The items of `src/`: each type name with the members defined on it anywhere
/// (inherent and trait impls, enum variants, struct fields, trait items), and every
/// free item name (functions, consts, statics, modules, types).
#[derive(Default)]
struct Items {
    types: BTreeMap<String, BTreeSet<String>>,
    free: BTreeSet<String>,
    modules: BTreeSet<String>,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Punct(char),
}

/// Rust source with comments, string and char literals blanked out (lifetimes kept),
/// so that braces and keywords inside them do not count.
fn strip_comments_and_literals(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if ch == 'r'
            && matches!(next, Some('"') | Some('#'))
            && (i == 0 || !ident(c[i - 1]) || (c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
        {
            // Raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(ch);
                i += 1;
                continue;
            }
            j += 1;
            'raw: while j < c.len() {
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break 'raw;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if ch == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if ch == '\'' {
            if next == Some('\\') {
                i += 3;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(ch); // a lifetime
                i += 1;
            }
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

fn tokens(src: &str) -> Vec<Tok> {
    let clean = strip_comments_and_literals(src);
    let mut out = Vec::new();
    let mut word = String::new();
    for ch in clean.chars() {
        if ch.is_alphanumeric() || ch == '_' {
            word.push(ch);
            continue;
        }
        if !word.is_empty() {
            out.push(Tok::Ident(std::mem::take(&mut word)));
        }
        if !ch.is_whitespace() {
            out.push(Tok::Punct(ch));
        }
    }
    if !word.is_empty() {
        out.push(Tok::Ident(word));
    }
    out
}

fn is_ident(t: Option<&Tok>, s: &str) -> bool {
    matches!(t, Some(Tok::Ident(w)) if w == s)
}

fn ident_at(toks: &[Tok], i: usize) -> Option<&str> {
    match toks.get(i) {
        Some(Tok::Ident(w)) => Some(w),
        _ => None,
    }
}

/// The index just past the bracket group that opens at `open` (`{`, `(`, `[` or `<`).
fn group_end(toks: &[Tok], open: usize) -> usize {
    let (o, c) = match toks[open] {
        Tok::Punct('{') => ('{', '}'),
        Tok::Punct('(') => ('(', ')'),
        Tok::Punct('[') => ('[', ']'),
        _ => ('<', '>'),
    };
    let mut depth = 0i32;
    let mut i = open;
    while i < toks.len() {
        match toks[i] {
            // `->` and `=>` inside generics are not closing angle brackets.
            Tok::Punct('>')
                if o == '<' && matches!(toks.get(i - 1), Some(Tok::Punct('-' | '='))) => {}
            Tok::Punct(p) if p == o => depth += 1,
            Tok::Punct(p) if p == c => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    toks.len()
}

/// The next `{` before any `;` at this level (the body of an item), if there is one.
fn body_start(toks: &[Tok], from: usize) -> Option<usize> {
    let mut i = from;
    while i < toks.len() {
        match toks[i] {
            Tok::Punct('{') => return Some(i),
            Tok::Punct(';') => return None,
            Tok::Punct('(' | '[') => i = group_end(toks, i),
            _ => i += 1,
        }
    }
    None
}

/// Names declared at the top level of a `{ … }` body: `fn`/`const`/`type` items, and,
/// when `fields` is set, the first identifier of each comma-separated entry (an enum's
/// variants, a struct's fields).
fn body_members(toks: &[Tok], open: usize, fields: bool) -> Vec<String> {
    let end = group_end(toks, open);
    let mut names = Vec::new();
    let mut i = open + 1;
    let mut entry_start = true;
    while i + 1 < end {
        match &toks[i] {
            Tok::Punct('{' | '(' | '[') => {
                // An attribute `#[…]` keeps the entry open; other groups end its head.
                // So does the `(crate)` of `pub(crate)`.
                let prefix = toks.get(i.wrapping_sub(1));
                let attribute = matches!(prefix, Some(Tok::Punct('#'))) || is_ident(prefix, "pub");
                i = group_end(toks, i);
                if !attribute {
                    entry_start = false;
                }
                continue;
            }
            Tok::Punct(',') | Tok::Punct(';') => entry_start = true,
            Tok::Punct('#') => {}
            Tok::Ident(w) if matches!(w.as_str(), "fn" | "const" | "type") => {
                if let Some(name) = ident_at(toks, i + 1) {
                    names.push(name.to_string());
                }
                entry_start = false;
            }
            Tok::Ident(w) if entry_start && fields => {
                if !matches!(w.as_str(), "pub" | "crate" | "super" | "in") {
                    names.push(w.clone());
                    entry_start = false;
                }
            }
            _ => {
                if !matches!(toks[i], Tok::Ident(_)) || !fields {
                    entry_start = matches!(toks[i], Tok::Punct('}'));
                }
            }
        }
        i += 1;
    }
    names
}

/// The self type of an `impl` header: `impl<T> Trait for a::B<T> where …` gives `B`.
fn impl_self_type(header: &[Tok]) -> Option<String> {
    let mut start = 0;
    if matches!(header.first(), Some(Tok::Punct('<'))) {
        start = group_end(header, 0);
    }
    let mut depth = 0;
    let mut after_for = None;
    let mut end = header.len();
    for (i, t) in header.iter().enumerate().skip(start) {
        match t {
            Tok::Punct('<') => depth += 1,
            Tok::Punct('>') if !matches!(header.get(i.wrapping_sub(1)), Some(Tok::Punct('-'))) => {
                depth -= 1
            }
            Tok::Ident(w) if depth == 0 && w == "for" => after_for = Some(i + 1),
            Tok::Ident(w) if depth == 0 && w == "where" => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let ty = &header[after_for.unwrap_or(start)..end];
    let mut last = None;
    for t in ty {
        match t {
            Tok::Punct('<') => break,
            Tok::Ident(w) if !matches!(w.as_str(), "dyn" | "mut") => last = Some(w.clone()),
            _ => {}
        }
    }
    last
}

impl Items {
    fn scan_source(&mut self, src: &str) {
        let toks = tokens(src);
        let mut i = 0;
        while i < toks.len() {
            let here = ident_at(&toks, i);
            let prev = if i == 0 { None } else { toks.get(i - 1) };
            match here {
                Some(kw @ ("struct" | "enum" | "union" | "trait")) => {
                    if let Some(name) = ident_at(&toks, i + 1) {
                        let name = name.to_string();
                        let members = match body_start(&toks, i + 2) {
                            Some(open) => body_members(&toks, open, kw != "trait"),
                            None => Vec::new(),
                        };
                        self.types.entry(name).or_default().extend(members);
                    }
                }
                Some("type") => {
                    if let Some(name) = ident_at(&toks, i + 1) {
                        self.types.entry(name.to_string()).or_default();
                    }
                }
                Some(kw @ ("fn" | "const" | "static" | "mod")) => {
                    if let Some(name) = ident_at(&toks, i + 1) {
                        self.free.insert(name.to_string());
                        if kw == "mod" {
                            self.modules.insert(name.to_string());
                        }
                    }
                }
                Some("impl")
                    if prev.is_none()
                        || matches!(prev, Some(Tok::Punct(';' | '}' | '{' | ']')))
                        || is_ident(prev, "unsafe")
                        || is_ident(prev, "default") =>
                {
                    if let Some(open) = body_start(&toks, i + 1) {
                        if let Some(ty) = impl_self_type(&toks[i + 1..open]) {
                            let members = body_members(&toks, open, false);
                            self.types.entry(ty).or_default().extend(members);
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    fn scan_dir(&mut self, dir: &Path) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                self.scan_dir(&path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = fs::read_to_string(&path).expect("source file");
                self.scan_source(&text);
            }
        }
    }

    fn of_src() -> Items {
        let mut items = Items::default();
        items.scan_dir(&root().join("src"));
        items
    }

    fn defines_free(&self, name: &str) -> bool {
        self.free.contains(name) || self.types.contains_key(name)
    }
}

// ---------------------------------------------------------------------------
// What a page names
// ---------------------------------------------------------------------------

/// The backticked spans of a Markdown page outside fenced code blocks, each with its
/// line number; a paragraph with an odd number of backticks is reported as a span
/// that never closes.
fn code_spans(markdown: &str) -> Vec<(usize, String)> {
    let mut spans = Vec::new();
    let mut para: Vec<(usize, &str)> = Vec::new();
    let mut in_fence = false;
    let flush = |para: &mut Vec<(usize, &str)>, spans: &mut Vec<(usize, String)>| {
        let mut inside = false;
        let mut current = String::new();
        let mut start = 0;
        for (n, line) in para.iter() {
            for ch in line.chars() {
                if ch == '`' {
                    if inside {
                        spans.push((
                            start,
                            current.split_whitespace().collect::<Vec<_>>().join(" "),
                        ));
                        current.clear();
                    } else {
                        start = *n;
                    }
                    inside = !inside;
                } else if inside {
                    current.push(ch);
                }
            }
            if inside {
                current.push(' ');
            }
        }
        if inside {
            spans.push((start, format!("(unclosed) {current}")));
        }
        para.clear();
    };
    for (n, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            flush(&mut para, &mut spans);
            in_fence = !in_fence;
        } else if in_fence {
            continue;
        } else if line.trim().is_empty() {
            flush(&mut para, &mut spans);
        } else {
            para.push((n + 1, line));
        }
    }
    flush(&mut para, &mut spans);
    spans
}

/// Relative link targets of a Markdown page: `](target)`, without the `#anchor`.
fn link_targets(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in markdown.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let Some(close) = rest.find(')') else { break };
            let target = rest[..close].split('#').next().unwrap_or("");
            let external = target.contains("://") || target.starts_with("mailto:");
            if !target.is_empty() && !external {
                out.push((n + 1, target.to_string()));
            }
            rest = &rest[close..];
        }
    }
    out
}

fn glob_match(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => name.strip_prefix(head).is_some_and(|rest| {
            (0..=rest.len())
                .filter(|&k| rest.is_char_boundary(k))
                .any(|k| glob_match(tail, &rest[k..]))
        }),
    }
}

/// Whether a repository path exists; a trailing `:line` or `:a-b` is allowed (and the
/// file must have that many lines), and `*` may stand for part of the last component.
fn path_exists(root: &Path, span: &str) -> bool {
    let (path, line) = match span.rsplit_once(':') {
        Some((p, l)) if !l.is_empty() && l.chars().all(|c| c.is_ascii_digit() || c == '-') => (
            p,
            l.split('-')
                .next_back()
                .and_then(|n| n.parse::<usize>().ok()),
        ),
        _ => (span, None),
    };
    if path.contains('*') {
        let (dir, pattern) = path.rsplit_once('/').unwrap_or(("", path));
        if dir.contains('*') {
            return false;
        }
        return fs::read_dir(root.join(dir)).is_ok_and(|entries| {
            entries
                .filter_map(|e| e.ok())
                .any(|e| glob_match(pattern, &e.file_name().to_string_lossy()))
        });
    }
    let full = root.join(path);
    match line {
        None => full.exists(),
        Some(n) => fs::read_to_string(full).is_ok_and(|t| t.lines().count() >= n),
    }
}

fn is_repo_path(span: &str) -> bool {
    PATH_PREFIXES.iter().any(|p| span.starts_with(p)) && !span.contains(char::is_whitespace)
}

/// A bare source file name (`print.rs`, `broker/fetch.rs`): some file under `src/` or
/// `tests/` must end with it.
fn is_bare_rs(span: &str) -> bool {
    span.ends_with(".rs")
        && !is_repo_path(span)
        && span.chars().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '/' || c == '.'
        })
}

fn rs_files(dir: &Path, out: &mut Vec<String>, root: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            rs_files(&p, out, root);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(
                p.strip_prefix(root)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .replace('\\', "/"),
            );
        }
    }
}

/// The `A::b` paths in a span: (segments, whether the first starts with a capital).
fn rust_paths(span: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = span.chars().collect();
    let mut paths = Vec::new();
    let mut i = 0;
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '_';
    while i < chars.len() {
        if !is_id(chars[i]) || (i > 0 && (is_id(chars[i - 1]) || chars[i - 1] == '.')) {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        let mut j = i;
        loop {
            let s = j;
            while j < chars.len() && is_id(chars[j]) {
                j += 1;
            }
            segs.push(chars[s..j].iter().collect::<String>());
            if chars.get(j) == Some(&':')
                && chars.get(j + 1) == Some(&':')
                && chars.get(j + 2).is_some_and(|&c| is_id(c))
            {
                j += 2;
            } else {
                break;
            }
        }
        if segs.len() >= 2 {
            paths.push(segs);
        }
        i = j.max(i + 1);
    }
    paths
}

/// What is wrong with a page's backticked names, one message per problem.
/// `rust_names` turns on the `Type::name` check (the code tour); every page gets the
/// path and link checks.
fn check_page(root: &Path, items: &Items, text: &str, rust_names: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let mut sources = Vec::new();
    rs_files(&root.join("src"), &mut sources, root);
    rs_files(&root.join("tests"), &mut sources, root);
    for (line, span) in code_spans(text) {
        if span.starts_with("(unclosed)") {
            problems.push(format!("line {line}: a backtick that never closes: {span}"));
            continue;
        }
        if is_repo_path(&span) {
            if !path_exists(root, &span) {
                problems.push(format!("line {line}: no such path `{span}`"));
            }
            continue;
        }
        if is_bare_rs(&span) {
            if !sources.iter().any(|f| f.ends_with(&format!("/{span}"))) {
                problems.push(format!("line {line}: no source file `{span}`"));
            }
            continue;
        }
        if !rust_names {
            continue;
        }
        for segs in rust_paths(&span) {
            let first = &segs[0];
            if FOREIGN_ROOTS.contains(&first.as_str()) {
                continue;
            }
            // The last pair decides: `Type::member`, `module::Type` or `module::item`.
            let n = segs.len();
            let (owner, name) = (&segs[n - 2], &segs[n - 1]);
            let capital = |s: &str| s.starts_with(|c: char| c.is_ascii_uppercase());
            if owner == "Self" {
                continue;
            }
            if capital(owner) {
                match items.types.get(owner) {
                    None => {
                        problems.push(format!("line {line}: no type `{owner}` in src/ (`{span}`)"))
                    }
                    Some(members) if !members.contains(name) => problems.push(format!(
                        "line {line}: `{owner}` has no member `{name}` in src/ (`{span}`)"
                    )),
                    Some(_) => {}
                }
            } else if !items.defines_free(name) {
                problems.push(format!(
                    "line {line}: nothing named `{name}` in src/ (`{span}`)"
                ));
            }
            // Every lowercase segment before the item must be one of our modules.
            for m in segs[..n - 1].iter().filter(|s| !capital(s)) {
                if !matches!(m.as_str(), "crate" | "self" | "super") && !items.modules.contains(m) {
                    problems.push(format!("line {line}: no module `{m}` in src/ (`{span}`)"));
                }
            }
        }
    }
    problems
}

fn check_links(root: &Path, page: &Path, text: &str) -> Vec<String> {
    let dir = page.parent().unwrap_or(root);
    link_targets(text)
        .into_iter()
        .filter(|(_, target)| !dir.join(target).exists())
        .map(|(line, target)| format!("line {line}: broken link ({target})"))
        .collect()
}

fn report(page: &str, problems: &[String]) -> String {
    format!(
        "{page} names what is not there:\n  {}",
        problems.join("\n  ")
    )
}

#[test]
fn the_code_tour_names_only_what_exists() {
    let root = root();
    let items = Items::of_src();
    let page = root.join("docs/architecture.md");
    let text = fs::read_to_string(&page).expect("docs/architecture.md");
    let mut problems = check_page(&root, &items, &text, true);
    problems.extend(check_links(&root, &page, &text));
    assert!(
        problems.is_empty(),
        "{}",
        report("docs/architecture.md", &problems)
    );
    // The check has something to bite on: the tour names many items and paths, and
    // the index of src/ knows the types it is built around.
    let spans = code_spans(&text);
    let named: usize = spans.iter().map(|(_, s)| rust_paths(s).len()).sum();
    let paths = spans.iter().filter(|(_, s)| is_repo_path(s)).count();
    assert!(
        named >= 100 && paths >= 100,
        "{named} Rust paths, {paths} repository paths"
    );
    for (ty, member) in [
        ("World", "apply"),
        ("UnifiedLog", "append_as_leader"),
        ("StepKind", "Pulsar"),
    ] {
        assert!(
            items.types.get(ty).is_some_and(|m| m.contains(member)),
            "{ty}::{member}"
        );
    }
}

#[test]
fn the_readme_and_docs_name_only_paths_that_exist() {
    let root = root();
    let items = Items::default();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut all = Vec::new();
    for page in &pages {
        let text = fs::read_to_string(page).expect("page");
        let mut problems = check_page(&root, &items, &text, false);
        problems.extend(check_links(&root, page, &text));
        if !problems.is_empty() {
            all.push(report(
                &page
                    .strip_prefix(&root)
                    .unwrap_or(page)
                    .display()
                    .to_string(),
                &problems,
            ));
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// The checker itself must be able to fail: made-up paths, types, members and variants
/// are reported, and real ones are not.
#[test]
fn the_checker_reports_made_up_names() {
    let root = root();
    let mut items = Items::default();
    items.scan_source(
        "/// `Ghost::walk` in a comment defines nothing.\n\
         pub enum StepKind { Cluster(Config), #[serde(skip)] Act { action: Action }, Echo }\n\
         pub struct World { pub clock_ms: i64, events: Vec<Event> }\n\
         impl World { pub fn apply(&mut self) -> impl Fn() -> u8 { let s = \"fn fake\"; || 0 } const LIMIT: u32 = 1; }\n\
         impl<T: Clone> Default for Holder<T> where T: Copy { fn default() -> Self { todo!() } }\n\
         pub fn free_function() {}\n\
         pub mod sim;\n",
    );
    let page = "Real: `src/sim/world.rs`, `src/sim/world.rs:3`, `static/lessons/*.eos`, \
        `World::apply(…)`, `World::LIMIT`, `World::clock_ms`, `StepKind::Act { action }`, \
        `StepKind::Echo`, `Holder::default`, `crate::sim::free_function`, `i32::MAX`, `world.rs`, \
        `World::events` (a private field is a member too).\n\n\
        Made up: `src/sim/no_such_file.rs`, `docs/nowhere.md:12`, `static/lessons/*.nope`, \
        `World::begin_init`, `StepKind::Kafka`, `Ghost::walk`, `sim::fake`, `made_up.rs`, `nowhere::free_function`.\n\n\
        Broken: `an unclosed span\n";
    let problems = check_page(&root, &items, page, true);
    let expected = [
        "no such path `src/sim/no_such_file.rs`",
        "no such path `docs/nowhere.md:12`",
        "no such path `static/lessons/*.nope`",
        "`World` has no member `begin_init`",
        "`StepKind` has no member `Kafka`",
        "no type `Ghost`",
        "nothing named `fake`",
        "no source file `made_up.rs`",
        "no module `nowhere`",
        "a backtick that never closes",
    ];
    for e in expected {
        assert!(
            problems.iter().any(|p| p.contains(e)),
            "expected a problem containing {e:?}, got {problems:#?}"
        );
    }
    assert_eq!(problems.len(), expected.len(), "{problems:#?}");
    assert_eq!(
        check_links(
            &root,
            &root.join("README.md"),
            "[a](docs/nowhere.md) [b](docs/scenarios.md#x) [c](https://x.y/z)"
        ),
        vec!["line 1: broken link (docs/nowhere.md)".to_string()]
    );
}
