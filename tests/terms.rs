#![cfg(not(target_arch = "wasm32"))]
//! The terminology table (docs/terms.md): no catalog line and no lesson line in Korean
//! or Thai uses a variant the table rejects, and the course glossary names each of its
//! concepts with the chosen word.

use eos_playground::i18n::catalog::text;
use eos_playground::i18n::Lang;
use eos_playground::scenario;

const TERMS: &str = include_str!("../docs/terms.md");

/// A rejected variant, and the longer words it may be part of without being one.
struct Rejected {
    form: String,
    not_in: Vec<String>,
}

struct Row {
    concept: String,
    glossary: String,
    /// (language, chosen word, rejected variants).
    langs: Vec<(Lang, String, Vec<Rejected>)>,
}

fn rejected(cell: &str) -> Vec<Rejected> {
    cell.split(';')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| match v.split_once(" (not in ") {
            Some((form, rest)) => Rejected {
                form: form.to_string(),
                not_in: rest
                    .trim_end_matches(')')
                    .split(", ")
                    .map(String::from)
                    .collect(),
            },
            None => Rejected {
                form: v.to_string(),
                not_in: Vec::new(),
            },
        })
        .collect()
}

fn rows() -> Vec<Row> {
    let rows: Vec<Row> = TERMS
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| concept"))
        .map(|l| {
            let cells: Vec<&str> = l
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            assert_eq!(cells.len(), 7, "docs/terms.md row: {l}");
            Row {
                concept: cells[0].to_string(),
                glossary: cells[1].to_string(),
                langs: vec![
                    (Lang::En, cells[2].to_string(), Vec::new()),
                    (Lang::Ko, cells[3].to_string(), rejected(cells[4])),
                    (Lang::Th, cells[5].to_string(), rejected(cells[6])),
                ],
            }
        })
        .collect();
    assert!(rows.len() >= 10, "docs/terms.md has its table");
    rows
}

/// Where `r.form` occurs in `text` other than inside one of its `not_in` words.
fn uses(text: &str, r: &Rejected) -> bool {
    text.match_indices(&r.form).any(|(at, _)| {
        !r.not_in.iter().any(|word| {
            word.match_indices(&r.form).any(|(inner, _)| {
                at >= inner && text.get(at - inner..).is_some_and(|t| t.starts_with(word))
            })
        })
    })
}

/// Every text a learner reads in `lang`: the catalog's lines and the lessons' lines.
fn texts(lang: Lang) -> Vec<(String, String)> {
    // The main catalog, the CLI-only features' lines (src/i18n/catalog/FEATURE/), then
    // the limits page's (src/i18n/limits/).
    let catalog: &[&str] = match lang {
        Lang::Ko => &[
            include_str!("../src/i18n/catalog/ko.txt"),
            include_str!("../src/i18n/catalog/group-membership/ko.txt"),
            include_str!("../src/i18n/catalog/metadata-log/ko.txt"),
            include_str!("../src/i18n/catalog/topic-admin/ko.txt"),
            include_str!("../src/i18n/limits/ko.txt"),
        ],
        Lang::Th => &[
            include_str!("../src/i18n/catalog/th.txt"),
            include_str!("../src/i18n/catalog/group-membership/th.txt"),
            include_str!("../src/i18n/catalog/metadata-log/th.txt"),
            include_str!("../src/i18n/catalog/topic-admin/th.txt"),
            include_str!("../src/i18n/limits/th.txt"),
        ],
        Lang::En => &[],
    };
    let mut out: Vec<(String, String)> = catalog
        .iter()
        .flat_map(|c| c.lines())
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(" = "))
        .map(|(id, t)| (id.to_string(), t.to_string()))
        .collect();
    let tag = format!("[{}]", lang.code());
    for lesson in scenario::all_lessons() {
        for (n, line) in lesson.source.lines().enumerate() {
            if let Some((_, t)) = line.split_once(&tag) {
                out.push((format!("{} line {}", lesson.name, n + 1), t.to_string()));
            }
        }
    }
    out
}

#[test]
fn no_catalog_or_lesson_line_uses_a_rejected_variant() {
    let rows = rows();
    let mut found = Vec::new();
    for lang in [Lang::Ko, Lang::Th] {
        let texts = texts(lang);
        for row in &rows {
            for (l, chosen, not) in &row.langs {
                if *l != lang {
                    continue;
                }
                for r in not {
                    for (place, t) in &texts {
                        if uses(t, r) {
                            found.push(format!(
                                "{place}: `{}` (say {chosen}: {})",
                                r.form, row.concept
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} uses:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_glossary_uses_the_chosen_words() {
    for row in rows().iter().filter(|r| !r.glossary.is_empty()) {
        for (lang, chosen, _) in &row.langs {
            let name = text(&format!("glossary.{}", row.glossary), *lang);
            assert!(
                name.to_lowercase().contains(&chosen.to_lowercase()),
                "glossary.{} in {lang:?} is `{name}`, docs/terms.md says {chosen}",
                row.glossary
            );
        }
    }
}

/// Thai prose separates clauses with a space, as the Thai course does, never with `;`.
#[test]
fn thai_separates_clauses_with_a_space() {
    let found: Vec<String> = texts(Lang::Th)
        .into_iter()
        .filter(|(_, t)| t.contains("; "))
        .map(|(place, _)| place)
        .collect();
    assert!(found.is_empty(), "`; ` in Thai: {found:?}");
}

/// The reading of a rejected cell, on the table's own examples.
#[test]
fn a_rejected_variant_inside_an_allowed_word_is_not_a_use() {
    let log = &rejected("ล็อก (not in บล็อก)")[0];
    assert!(uses("เขียนลงล็อก", log));
    assert!(!uses("บล็อกของ producer id", log));
    assert!(uses("บล็อก และล็อก", log));
}

/// Korean is written in 합니다체 on every page (docs/terms.md): a statement ends in
/// -ㅂ니다, a request in -십시오, a question in -ㅂ니까, or -ㄹ까요 for a question put to
/// the reader before a step. Any other word ending in 요 or 죠 is 해요체 (-세요, -어요,
/// -나요, -가요, -죠 …) unless it is one of the nouns that end so.
fn haeyo_endings(text: &str) -> Vec<String> {
    const NOUNS: [&str; 5] = ["아니요", "필요", "중요", "주요", "개요"];
    let hangul = |c: char| ('가'..='힣').contains(&c);
    let mut found = Vec::new();
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if hangul(c) {
            word.push(c);
            continue;
        }
        let haeyo = (word.ends_with('요') && !word.ends_with("까요")) || word.ends_with('죠');
        if haeyo && !NOUNS.contains(&word.as_str()) {
            found.push(std::mem::take(&mut word));
        }
        word.clear();
    }
    found
}

#[test]
fn korean_has_no_haeyo_ending() {
    let found: Vec<String> = texts(Lang::Ko)
        .into_iter()
        .flat_map(|(place, t)| {
            haeyo_endings(&t)
                .into_iter()
                .map(move |w| format!("{place}: {w}"))
        })
        .collect();
    assert!(found.is_empty(), "해요체 in Korean:\n{}", found.join("\n"));
}

/// The register check on sentences of each kind.
#[test]
fn a_haeyo_ending_is_found_and_a_formal_one_is_not() {
    assert_eq!(haeyo_endings("보내기를 누르세요."), ["누르세요"]);
    assert_eq!(
        haeyo_endings("에포크를 올려요. 토픽이 있나요?"),
        ["올려요", "있나요"]
    );
    assert_eq!(haeyo_endings("그렇죠"), ["그렇죠"]);
    assert!(haeyo_endings("보내기를 누르십시오. 브로커는 무엇이라고 답할까요?").is_empty());
    assert!(haeyo_endings("아니요. 더는 필요 없습니다").is_empty());
}

/// A Korean template never hard-codes one form of a particle right after a placeholder
/// (`{tp}를`, `{epoch}로`): the argument's reading decides, so the template writes the
/// two-way form (`{tp}을(를)`, `{epoch}(으)로`) that the catalog resolves.
fn hard_coded_particles(text: &str) -> Vec<String> {
    const PARTICLES: [&str; 10] = ["으로", "로", "을", "를", "이", "가", "은", "는", "과", "와"];
    let hangul = |c: char| ('가'..='힣').contains(&c);
    text.match_indices('}')
        .filter_map(|(at, _)| {
            let rest = &text[at + 1..];
            let p = PARTICLES.iter().find(|p| rest.starts_with(*p))?;
            let next = rest[p.len()..].chars().next();
            (!next.is_some_and(|c| hangul(c) || c == '(')).then(|| format!("}}{p}"))
        })
        .collect()
}

#[test]
fn korean_templates_leave_particles_to_the_argument() {
    assert_eq!(
        hard_coded_particles("{tp}를 {epoch}로 올립니다"),
        ["}를", "}로"]
    );
    assert!(hard_coded_particles("{tp}을(를) {epoch}(으)로, {count}개, {n}가지").is_empty());
    let found: Vec<String> = texts(Lang::Ko)
        .into_iter()
        .flat_map(|(place, t)| {
            hard_coded_particles(&t)
                .into_iter()
                .map(move |p| format!("{place}: {p}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "hard-coded particles:\n{}",
        found.join("\n")
    );
}
