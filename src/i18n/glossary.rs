//! The glossary: each term a lesson or a panel uses, its definition, and the forms it
//! takes in a text, in each language (the catalog's `glossary.ID`, `glossary.ID.def`
//! and `glossary.ID.match`). The lesson player marks a term at its first use in a
//! lesson; the course home lists them all.

use super::catalog::text;
use super::Lang;

/// The terms, in the order the course meets them.
pub const TERMS: &[&str] = &[
    "idempotent",
    "producer-id",
    "sequence",
    "dedup-window",
    "producer-epoch",
    "fencing",
    "transaction-coordinator",
    "transaction-state",
    "marker",
    "control-batch",
    "lso",
    "read-committed",
    "leo",
    "hw",
    "isr",
    "acks",
    "leader-epoch",
    "coordinator-epoch",
    "txnid",
    "transaction-buffer",
    "max-read-position",
    "pending-ack",
];

/// A term in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    pub id: &'static str,
    pub name: &'static str,
    pub definition: &'static str,
    /// The forms it takes in a text, longest first.
    pub forms: Vec<&'static str>,
}

/// Every term in `lang`.
pub fn terms(lang: Lang) -> Vec<Term> {
    TERMS
        .iter()
        .map(|id| {
            let forms_text = text(&format!("glossary.{id}.match"), lang);
            let mut forms: Vec<&'static str> = forms_text
                .split(';')
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .collect();
            crate::util::ordered::sort_by(&mut forms, |a, b| b.len().cmp(&a.len()));
            Term {
                id,
                name: text(&format!("glossary.{id}"), lang),
                definition: text(&format!("glossary.{id}.def"), lang),
                forms,
            }
        })
        .collect()
}

/// True when a form may start or end next to `c`: a Latin form must not run into other
/// Latin letters or digits ("HW" is not in "HWM"); Korean and Thai text has no spaces
/// before particles, so any other character is a boundary.
fn boundary(c: Option<char>) -> bool {
    !c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Where `form` first occurs in `text` as a whole word: a byte range.
pub fn find(text: &str, form: &str) -> Option<std::ops::Range<usize>> {
    let mut from = 0;
    while let Some(i) = text.get(from..)?.find(form) {
        let (start, end) = (from + i, from + i + form.len());
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        let latin_start = form.starts_with(|c: char| c.is_ascii_alphanumeric());
        let latin_end = form.ends_with(|c: char| c.is_ascii_alphanumeric());
        if (!latin_start || boundary(before)) && (!latin_end || boundary(after)) {
            return Some(start..end);
        }
        from = end;
    }
    None
}

/// The terms `text` uses.
pub fn used_in<'a>(text: &str, terms: &'a [Term]) -> Vec<&'a Term> {
    terms
        .iter()
        .filter(|t| t.forms.iter().any(|f| find(text, f).is_some()))
        .collect()
}

/// `text` cut into plain pieces and the first use of each of `terms`: (piece, the term
/// it names). Where two terms start at one place the longer form wins; a term used
/// inside another's form ("epoch" in "leader epoch") is not marked there.
pub fn mark<'a>(text: &'a str, terms: &[&'a Term]) -> Vec<(&'a str, Option<&'a Term>)> {
    let mut found: Vec<(std::ops::Range<usize>, &Term)> = terms
        .iter()
        .filter_map(|t| {
            t.forms
                .iter()
                .filter_map(|f| find(text, f))
                .min_by_key(|r| (r.start, std::cmp::Reverse(r.end)))
                .map(|r| (r, *t))
        })
        .collect();
    crate::util::ordered::sort_by(&mut found, |(a, _), (b, _)| {
        a.start.cmp(&b.start).then(b.end.cmp(&a.end))
    });
    let mut out = Vec::new();
    let mut at = 0;
    for (r, t) in found {
        if r.start < at {
            continue;
        }
        if r.start > at {
            out.push((&text[at..r.start], None));
        }
        out.push((&text[r.clone()], Some(t)));
        at = r.end;
    }
    if at < text.len() {
        out.push((&text[at..], None));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_has_its_words_in_every_language() {
        for lang in Lang::ALL {
            for t in terms(*lang) {
                assert!(
                    !t.name.is_empty() && t.name != format!("glossary.{}", t.id),
                    "{lang:?} {}",
                    t.id
                );
                assert!(
                    t.definition.len() > 20,
                    "{lang:?} {}: {}",
                    t.id,
                    t.definition
                );
                assert!(!t.forms.is_empty(), "{lang:?} {}", t.id);
            }
        }
    }

    #[test]
    fn forms_match_whole_words_and_the_longest_wins() {
        assert_eq!(find("the HWM and the HW", "HW"), Some(16..18));
        assert_eq!(find("LSO가 4입니다", "LSO"), Some(0..3));
        assert_eq!(find("no such", "HW"), None);
        let en = terms(Lang::En);
        let pick =
            |ids: &[&str]| -> Vec<&Term> { en.iter().filter(|t| ids.contains(&t.id)).collect() };
        let marked = mark(
            "The leader epoch goes up; the producer epoch too, and the LSO stays.",
            &pick(&["leader-epoch", "producer-epoch", "lso"]),
        );
        let names: Vec<(&str, Option<&str>)> =
            marked.iter().map(|(p, t)| (*p, t.map(|t| t.id))).collect();
        assert_eq!(
            names,
            vec![
                ("The ", None),
                ("leader epoch", Some("leader-epoch")),
                (" goes up; the ", None),
                ("producer epoch", Some("producer-epoch")),
                (" too, and the ", None),
                ("LSO", Some("lso")),
                (" stays.", None),
            ]
        );
        // "coordinator" inside "coordinator epoch": the longer term is marked.
        let marked = mark(
            "the coordinator epoch",
            &pick(&["transaction-coordinator", "coordinator-epoch"]),
        );
        assert_eq!(marked[1].1.map(|t| t.id), Some("coordinator-epoch"));
        assert_eq!(marked.len(), 2);
    }
}
