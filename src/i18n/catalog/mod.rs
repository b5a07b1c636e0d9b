//! The catalog files: one text file of templates per language (`en.txt`), parsed here
//! and worded by [`render`]. The format is documented at the top of `en.txt`.
//!
//! English is the fallback for any id another language lacks. Natively every language
//! is compiled in. The sites' wasm (built without the feature `catalog-en`) carries
//! none: the page fetches `i18n/en.txt` before it first renders (index.html preloads
//! it beside the wasm) and the chosen Korean or Thai file when it is chosen (copied
//! next to the page by Trunk), and [`install`]s each.
//!
//! The lines of features only the CLI builds (`group-membership`, `metadata-log`,
//! `topic-admin`) are in a folder each (`group-membership/en.txt`, …) and compiled in,
//! all three languages, when their feature is on, whatever the target: the pages copy
//! and fetch only the main files, which need not carry what no page can show.

use super::message::{Arg, Msg};
use super::Lang;
use std::collections::HashMap;
use std::sync::OnceLock;

mod parse;

pub use parse::{parse, ParseError, Piece};

/// The English templates, the reference every other language translates. In the sites'
/// wasm it is fetched instead (≈ 20 KB gzip less in the wasm; docs/size.md).
#[cfg(any(feature = "catalog-en", not(target_arch = "wasm32")))]
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
        Catalog::from_sources(&[source])
    }

    /// Parses several files of one language into one catalog (the main file and the
    /// compiled-in features' files; their ids are apart, a test checks).
    pub fn from_sources(sources: &[&str]) -> (Catalog, Vec<ParseError>) {
        let mut messages = HashMap::new();
        let mut errors = Vec::new();
        for source in sources {
            let (entries, errs) = parse(source);
            messages.extend(
                entries
                    .into_iter()
                    .map(|(id, text, pieces)| (id, Template { text, pieces })),
            );
            errors.extend(errs);
        }
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

/// The templates compiled in for `lang`. Natively all three; the web build leaves Korean
/// and Thai out (they would weigh on every page load), and English too unless the
/// feature `catalog-en` is on (the wasm tests); the page fetches a file and hands it to
/// [`install`].
#[cfg(not(target_arch = "wasm32"))]
fn builtin_source(lang: Lang) -> &'static str {
    match lang {
        Lang::En => EN_SOURCE,
        Lang::Ko => include_str!("ko.txt"),
        Lang::Th => include_str!("th.txt"),
    }
}

#[cfg(all(target_arch = "wasm32", feature = "catalog-en"))]
fn builtin_source(lang: Lang) -> &'static str {
    match lang {
        Lang::En => EN_SOURCE,
        Lang::Ko | Lang::Th => "",
    }
}

#[cfg(all(target_arch = "wasm32", not(feature = "catalog-en")))]
fn builtin_source(_: Lang) -> &'static str {
    ""
}

/// The files of `lang` for the features on in this build that no page turns on: their
/// lines are left out of the main files, so the pages never fetch them.
pub fn feature_sources(lang: Lang) -> Vec<&'static str> {
    /// One feature's file in `lang` (`DIR/en.txt`, `DIR/ko.txt`, `DIR/th.txt`).
    #[allow(unused_macros)]
    macro_rules! file {
        ($dir:literal) => {
            match lang {
                Lang::En => include_str!(concat!($dir, "/en.txt")),
                Lang::Ko => include_str!(concat!($dir, "/ko.txt")),
                Lang::Th => include_str!(concat!($dir, "/th.txt")),
            }
        };
    }
    let _ = lang;
    vec![
        #[cfg(feature = "group-membership")]
        file!("group-membership"),
        #[cfg(feature = "metadata-log")]
        file!("metadata-log"),
        #[cfg(feature = "topic-admin")]
        file!("topic-admin"),
    ]
}

/// `lang`'s main file (built in or fetched) with the compiled-in features' files.
fn with_features(lang: Lang, source: &str) -> (Catalog, Vec<ParseError>) {
    let mut sources = vec![source];
    sources.extend(feature_sources(lang));
    Catalog::from_sources(&sources)
}

fn slot(lang: Lang) -> &'static OnceLock<Catalog> {
    static EN: OnceLock<Catalog> = OnceLock::new();
    static KO: OnceLock<Catalog> = OnceLock::new();
    static TH: OnceLock<Catalog> = OnceLock::new();
    match lang {
        Lang::En => &EN,
        Lang::Ko => &KO,
        Lang::Th => &TH,
    }
}

/// The catalog of `lang`, parsed once. On the web a language not yet [`install`]ed is
/// an empty catalog, so everything shows in English until its file arrives (and the
/// page does not render before English is here).
pub fn catalog(lang: Lang) -> &'static Catalog {
    static EMPTY: OnceLock<Catalog> = OnceLock::new();
    let source = builtin_source(lang);
    if source.is_empty() {
        return slot(lang)
            .get()
            .unwrap_or_else(|| EMPTY.get_or_init(Catalog::default));
    }
    slot(lang).get_or_init(|| with_features(lang, source).0)
}

/// True once `lang`'s templates are here (always, natively).
pub fn is_loaded(lang: Lang) -> bool {
    !builtin_source(lang).is_empty() || slot(lang).get().is_some()
}

/// Installs a fetched catalog file for `lang` (the web build's languages), with the
/// compiled-in features' lines. A second install of the same language is ignored.
/// Returns the lines that did not parse; the rest is installed.
pub fn install(lang: Lang, source: &str) -> Vec<ParseError> {
    let (catalog, errors) = with_features(lang, source);
    let _ = slot(lang).set(catalog);
    errors
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
            Piece::Lit(s) => push_lit(out, s),
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

/// Korean particles written both ways after an argument — `{tp}을(를)`, `이(가)`,
/// `은(는)`, `과(와)`, `(으)로`, `(이)라는` — are resolved by the sound the text before
/// them ends with (a final consonant or not), as a Korean reader says a number or a name.
const PARTICLES: &[(&str, &str, &str)] = &[
    ("을(를)", "을", "를"),
    ("이(가)", "이", "가"),
    ("은(는)", "은", "는"),
    ("과(와)", "과", "와"),
    ("와(과)", "과", "와"),
    ("(으)로", "으로", "로"),
    ("(이)라는", "이라는", "라는"),
];

fn push_lit(out: &mut String, lit: &str) {
    let mut rest = lit;
    loop {
        // The earliest two-way form in what is left.
        let mut next: Option<(usize, &(&str, &str, &str))> = None;
        for p in PARTICLES {
            if let Some(at) = rest.find(p.0) {
                if next.is_none_or(|(n, _)| at < n) {
                    next = Some((at, p));
                }
            }
        }
        let Some((at, &(both, after_consonant, after_vowel))) = next else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str(match final_sound(out) {
            // `로` also follows a final ㄹ.
            FinalSound::Rieul if both == "(으)로" => after_vowel,
            FinalSound::Consonant | FinalSound::Rieul => after_consonant,
            FinalSound::Vowel => after_vowel,
        });
        rest = &rest[at + both.len()..];
    }
    out.push_str(rest);
}

/// Resolves every two-way Korean particle in a finished string (labels fill their
/// `{0}` by plain replacement, then come here).
pub fn resolve_particles(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_lit(&mut out, text);
    out
}

enum FinalSound {
    Vowel,
    Consonant,
    Rieul,
}

/// How the text ends when read aloud in Korean: a Hangul syllable by its final
/// consonant; a number by its last digit's Sino-Korean name (0 영, 3 삼, 6 육 end in a
/// consonant, 1 일, 7 칠, 8 팔 in ㄹ; 10 십, 100 백, 1000 천 and 10000 만 end in 0, so a
/// consonant too); an acronym (`ISR`, `LSO`) by its last letter's name (L 엘, R 알 in ㄹ;
/// M 엠, N 엔 in a consonant; a letter alone too, and acronyms up to three letters; longer
/// capitals such as NONE or ABORT are words); a word, and the last word of an error name,
/// by how Korean writes it (-le ㄹ: enable 인에이블; -me, -ne a consonant: none 논): -l ㄹ; -m, -n, -ng, -p, -b,
/// -ic, -ck but not check (ack 액, rollback 롤백), -out and -t after one short vowel
/// (snapshot 스냅샷, offset 오프셋, topic 토픽, commit 커밋) a consonant; the rest a vowel (batch 배치, marker 마커, epoch 에포크, log 로그, abort
/// 어보트).
fn final_sound(text: &str) -> FinalSound {
    let trimmed = spoken_end(text);
    let Some(c) = trimmed.chars().next_back() else {
        return FinalSound::Vowel;
    };
    match c {
        '\u{AC00}'..='\u{D7A3}' => match (c as u32 - 0xAC00) % 28 {
            0 => FinalSound::Vowel,
            8 => FinalSound::Rieul,
            _ => FinalSound::Consonant,
        },
        '1' | '7' | '8' => FinalSound::Rieul,
        '0' | '3' | '6' => FinalSound::Consonant,
        c if c.is_ascii_alphabetic() => {
            let word: String = trimmed
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            // A letter alone, or an acronym, is read letter by letter; the last word of
            // an error name (`REQUEST_TIMED_OUT`: 아웃) is read as a word.
            let snake = trimmed[..trimmed.len() - word.len()].ends_with('_');
            let spelled = word.len() == 1
                || (!snake && word.len() <= 3 && word.chars().all(|c| c.is_ascii_uppercase()));
            if spelled {
                return match c.to_ascii_uppercase() {
                    'L' | 'R' => FinalSound::Rieul,
                    'M' | 'N' => FinalSound::Consonant,
                    _ => FinalSound::Vowel,
                };
            }
            let lower = word.to_ascii_lowercase();
            match lower.chars().next_back() {
                Some('l') => FinalSound::Rieul,
                Some('e') if lower.ends_with("le") => FinalSound::Rieul,
                Some('e') if lower.ends_with("me") || lower.ends_with("ne") => {
                    FinalSound::Consonant
                }
                Some('m' | 'n' | 'p' | 'b') => FinalSound::Consonant,
                Some('g') if lower.ends_with("ng") => FinalSound::Consonant,
                Some('c') if lower.ends_with("ic") => FinalSound::Consonant,
                // -t after one short vowel is read with ㅅ (offset 오프셋, commit 커밋,
                // timeout 타임아웃); after a consonant or a long vowel with 트 (result
                // 리절트, request 리퀘스트, abort 어보트, wait 웨이트).
                Some('t') if lower.ends_with("out") || short_vowel_before_t(&lower) => {
                    FinalSound::Consonant
                }
                // A short vowel before -ck is read with ㄱ: ack 액, rollback 롤백, lock
                // 락; check 체크 is the exception.
                Some('k') if lower.ends_with("ck") && !lower.ends_with("check") => {
                    FinalSound::Consonant
                }
                _ => FinalSound::Vowel,
            }
        }
        _ => FinalSound::Vowel,
    }
}

/// `…Vt` with one vowel letter before the final t (not `…VVt`, not `…Ct`).
fn short_vowel_before_t(word: &str) -> bool {
    let vowel = |c: char| matches!(c, 'a' | 'e' | 'i' | 'o' | 'u');
    let mut rev = word.chars().rev().skip(1);
    match (rev.next(), rev.next()) {
        (Some(v), before) => vowel(v) && !before.is_some_and(vowel),
        (None, _) => false,
    }
}

/// The text up to the last word a reader says: closing quotes and marks dropped, and a
/// bracket after a word skipped, since Korean writes a particle after a gloss to agree
/// with the word before it (`오프셋(LSO)은`, `사본(#2)이`); `poll()` reads as `poll`.
fn spoken_end(text: &str) -> &str {
    let mark = |c: char| matches!(c, ']' | '"' | '\'' | '”' | '’' | '.' | ' ' | '`');
    let mut t = text.trim_end_matches(mark);
    while let Some(inner) = t.strip_suffix(')') {
        let (mut depth, mut open) = (0, None);
        for (i, c) in inner.char_indices().rev() {
            match c {
                ')' => depth += 1,
                '(' if depth == 0 => {
                    open = Some(i);
                    break;
                }
                '(' => depth -= 1,
                _ => {}
            }
        }
        let at = open.unwrap_or(0);
        let word = inner[..at]
            .trim_end_matches('`')
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace() && c != '(');
        // A gloss right after a word: read the word. A bracket standing alone (`(0,1)`,
        // Pulsar's TxnID): read what is inside it.
        t = if word {
            &inner[..at]
        } else {
            &inner[open.map_or(0, |i| i + 1)..]
        }
        .trim_end_matches(mark);
    }
    t
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
