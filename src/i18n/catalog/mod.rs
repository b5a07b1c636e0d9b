//! The catalog files: one text file of templates per language (`en.txt`), parsed here
//! and worded by [`render`]. The format is documented at the top of `en.txt`.
//!
//! English is compiled in and is the fallback for any id another language lacks.

use super::message::{Arg, Msg};
use super::Lang;
use std::collections::HashMap;
use std::sync::OnceLock;

mod parse;

pub use parse::{parse, ParseError, Piece};

/// The English templates, the reference every other language translates.
pub const EN_SOURCE: &str = include_str!("en.txt");

/// One language's templates, by id.
#[derive(Debug, Default)]
pub struct Catalog {
    messages: HashMap<String, Template>,
}

/// A template: its text as written (labels hand it out whole) and its parsed pieces.
#[derive(Debug)]
struct Template {
    text: String,
    pieces: Vec<Piece>,
}

impl Catalog {
    /// Parses a catalog file. Lines that do not parse are left out (and reported), so a
    /// broken line costs one message, which then falls back to English.
    pub fn from_source(source: &str) -> (Catalog, Vec<ParseError>) {
        let (entries, errors) = parse(source);
        let messages = entries
            .into_iter()
            .map(|(id, text, pieces)| (id, Template { text, pieces }))
            .collect();
        (Catalog { messages }, errors)
    }

    /// The template text of `id` as written (placeholders not filled).
    pub fn text(&self, id: &str) -> Option<&str> {
        self.messages.get(id).map(|t| t.text.as_str())
    }

    /// Every id, for the completeness tests.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.messages.keys().map(String::as_str)
    }

    /// The argument names the template of `id` uses (selectors included), sorted.
    pub fn placeholders(&self, id: &str) -> Option<Vec<&str>> {
        fn walk<'a>(pieces: &'a [Piece], out: &mut Vec<&'a str>) {
            for p in pieces {
                match p {
                    Piece::Lit(_) => {}
                    Piece::Var(v) => out.push(v),
                    Piece::Select { var, branches } => {
                        out.push(var);
                        for (_, b) in branches {
                            walk(b, out);
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        walk(self.pieces(id)?, &mut out);
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    fn pieces(&self, id: &str) -> Option<&[Piece]> {
        self.messages.get(id).map(|t| t.pieces.as_slice())
    }
}

/// The catalog of `lang`, parsed once.
pub fn catalog(lang: Lang) -> &'static Catalog {
    static EN: OnceLock<Catalog> = OnceLock::new();
    match lang {
        Lang::En => EN.get_or_init(|| Catalog::from_source(EN_SOURCE).0),
    }
}

/// The template text of `id` in `lang`, else in English, else the id itself.
pub fn text(id: &str, lang: Lang) -> &'static str {
    catalog(lang)
        .text(id)
        .or_else(|| catalog(Lang::En).text(id))
        .unwrap_or("?")
}

/// Words `msg` in `lang`: its template (English when `lang` lacks it) with every
/// placeholder filled. A missing template or argument shows its id in braces rather
/// than failing: the engine never panics on text.
pub fn render(msg: &Msg, lang: Lang) -> String {
    let mut out = String::new();
    render_with(&mut out, msg, &[catalog(lang), catalog(Lang::En)]);
    out
}

/// Renders with the first of `catalogs` that has each id (the language, then English).
fn render_with(out: &mut String, msg: &Msg, catalogs: &[&Catalog]) {
    match catalogs.iter().find_map(|c| c.pieces(msg.id)) {
        Some(pieces) => render_pieces(out, pieces, msg, catalogs),
        None => {
            out.push('{');
            out.push_str(msg.id);
            out.push('}');
        }
    }
}

fn render_pieces(out: &mut String, pieces: &[Piece], msg: &Msg, catalogs: &[&Catalog]) {
    for piece in pieces {
        match piece {
            Piece::Lit(s) => out.push_str(s),
            Piece::Var(name) => match msg.get(name) {
                Some(arg) => render_arg(out, arg, catalogs),
                None => {
                    out.push('{');
                    out.push_str(name);
                    out.push('}');
                }
            },
            Piece::Select { var, branches } => {
                let value = match msg.get(var) {
                    Some(Arg::Text(s)) => s.as_str(),
                    _ => "",
                };
                if let Some(branch) = select(branches, value) {
                    render_pieces(out, branch, msg, catalogs);
                }
            }
        }
    }
}

/// The branch for `value`: an exact match, then `one` for the number 1, then `*`.
fn select<'a>(branches: &'a [(String, Vec<Piece>)], value: &str) -> Option<&'a [Piece]> {
    let find = |key: &str| {
        branches
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, p)| p.as_slice())
    };
    find(value)
        .or_else(|| (value == "1").then(|| find("one")).flatten())
        .or_else(|| find("*"))
}

fn render_arg(out: &mut String, arg: &Arg, catalogs: &[&Catalog]) {
    match arg {
        Arg::Text(s) => out.push_str(s),
        Arg::Msg(m) => render_with(out, m, catalogs),
        Arg::List(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    let sep = catalogs.iter().find_map(|c| c.text("list.separator"));
                    out.push_str(sep.unwrap_or(", "));
                }
                render_arg(out, item, catalogs);
            }
        }
    }
}

#[cfg(test)]
mod tests;
