#![cfg(not(target_arch = "wasm32"))]
//! The limits page's words (`src/i18n/limits/*.txt`, shown by `www/limits.html`) are
//! docs/architecture.md's section 6, item for item: the English file says each line of
//! the list word for word, in its order, and Korean and Thai have the same ids in the
//! same order. Adding or removing an item is a change to the doc, then to the three
//! files; this test names the entry to write. Above each group's list, its
//! `summary.GROUP` says in plain words what the group means for a learner, in the three
//! languages.

use eos_playground::i18n::catalog::parse;

const DOC: &str = include_str!("../docs/architecture.md");
const EN: &str = include_str!("../src/i18n/limits/en.txt");
const KO: &str = include_str!("../src/i18n/limits/ko.txt");
const TH: &str = include_str!("../src/i18n/limits/th.txt");

/// The section's lines the page shows, in order: the bold lines (the versions line and
/// the group headings, without the `**`) and each list item, its wrapped lines joined.
fn doc_lines() -> Vec<String> {
    let section = DOC
        .split("\n## 6. What the playground does not model\n")
        .nth(1)
        .expect("docs/architecture.md has its section 6");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut lines: Vec<String> = Vec::new();
    // Whether the line before continues an entry (an item, or a bold paragraph).
    let mut open = false;
    for line in section.lines() {
        if let Some(item) = line.strip_prefix("- ") {
            lines.push(item.trim().to_string());
            open = true;
        } else if line.starts_with("**") {
            lines.push(line.trim().to_string());
            open = true;
        } else if open && !line.trim().is_empty() {
            let last = lines.last_mut().expect("an entry is open");
            last.push(' ');
            last.push_str(line.trim());
        } else {
            open = false;
        }
    }
    lines.into_iter().map(|l| l.replace("**", "")).collect()
}

/// A catalog's `limits.*` entries: (id, text), in the file's order.
fn entries(name: &str, source: &str) -> Vec<(String, String)> {
    let (entries, errors) = parse(source);
    assert!(errors.is_empty(), "src/i18n/limits/{name}: {errors:?}");
    entries
        .into_iter()
        .filter(|(id, _, _)| id.starts_with("limits."))
        .map(|(id, text, _)| (id, text))
        .collect()
}

#[test]
fn the_english_words_are_the_docs_list_item_for_item() {
    let doc = doc_lines();
    let en = entries("en.txt", EN);
    assert!(doc.len() >= 10, "section 6 lists its items: {doc:?}");
    for (i, line) in doc.iter().enumerate() {
        let Some((id, text)) = en.get(i) else {
            panic!(
                "docs/architecture.md section 6, line {} has no entry in src/i18n/limits/en.txt; \
                 add (and translate in ko.txt and th.txt):\nlimits.GROUP.ITEM = {line}",
                i + 1
            );
        };
        assert_eq!(
            text,
            line,
            "src/i18n/limits/en.txt `{id}` differs from docs/architecture.md section 6's \
             line {} (write it as the doc does, and bring ko.txt and th.txt along):\n{id} = {line}",
            i + 1
        );
    }
    assert_eq!(
        en.len(),
        doc.len(),
        "src/i18n/limits/en.txt has entries the doc no longer lists (remove them from the \
         three files): {:?}",
        en.get(doc.len()..).unwrap_or_default()
    );
    // Headings are `limits.GROUP`, items `limits.GROUP.ITEM` under the heading before.
    let mut group = String::new();
    for (id, _) in &en {
        let parts: Vec<&str> = id.split('.').collect();
        match parts.as_slice() {
            ["limits", "versions"] => {}
            ["limits", g] => group = g.to_string(),
            ["limits", g, _] => assert_eq!(*g, group, "{id} sits under limits.{group}"),
            _ => panic!("{id}: expected limits.GROUP or limits.GROUP.ITEM"),
        }
    }
}

#[test]
fn korean_and_thai_say_every_entry_in_the_same_order() {
    let en: Vec<String> = entries("en.txt", EN)
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    for (name, source) in [("ko.txt", KO), ("th.txt", TH)] {
        let ids: Vec<String> = entries(name, source)
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        assert_eq!(
            ids, en,
            "src/i18n/limits/{name}: the ids of en.txt, in its order"
        );
        let page = |s: &str| -> Vec<String> {
            parse(s)
                .0
                .into_iter()
                .filter(|(id, _, _)| id.starts_with("page."))
                .map(|(id, _, _)| id)
                .collect()
        };
        assert_eq!(
            page(source),
            page(EN),
            "src/i18n/limits/{name}: the page's words"
        );
    }
}

#[test]
fn thai_never_separates_with_a_semicolon_and_korean_keeps_the_code() {
    for (id, text) in entries("th.txt", TH) {
        assert!(
            !text.contains("; "),
            "th.txt {id}: Thai separates clauses with a space"
        );
    }
    // Every `code` span of an English entry is in its translations, as written.
    let en = entries("en.txt", EN);
    for (name, source) in [("ko.txt", KO), ("th.txt", TH)] {
        for ((id, english), (_, text)) in en.iter().zip(entries(name, source)) {
            for (i, span) in english.split('`').enumerate() {
                if i % 2 == 1 {
                    assert!(
                        text.contains(&format!("`{span}`")),
                        "{name} {id}: `{span}` as English has it"
                    );
                }
            }
        }
    }
}

/// The `summary.*` entries of a file: (group, text), in the file's order.
fn summaries(name: &str, source: &str) -> Vec<(String, String)> {
    let (entries, errors) = parse(source);
    assert!(errors.is_empty(), "src/i18n/limits/{name}: {errors:?}");
    entries
        .into_iter()
        .filter_map(|(id, text, _)| Some((id.strip_prefix("summary.")?.to_string(), text)))
        .collect()
}

#[test]
fn each_group_has_a_short_plain_summary_in_the_three_languages() {
    let groups: Vec<String> = entries("en.txt", EN)
        .into_iter()
        .filter_map(
            |(id, _)| match id.split('.').collect::<Vec<_>>().as_slice() {
                ["limits", "versions"] => None,
                ["limits", g] => Some(g.to_string()),
                _ => None,
            },
        )
        .collect();
    assert!(groups.len() >= 5, "{groups:?}");
    for (name, source) in [("en.txt", EN), ("ko.txt", KO), ("th.txt", TH)] {
        let summaries = summaries(name, source);
        let named: Vec<&String> = summaries.iter().map(|(g, _)| g).collect();
        assert_eq!(
            named,
            groups.iter().collect::<Vec<_>>(),
            "src/i18n/limits/{name}: one `summary.GROUP` for each group, in the list's order"
        );
        for (group, text) in &summaries {
            // A summary for a learner: short, no code, no Kafka source paths.
            let chars = text.chars().count();
            assert!(
                (60..=420).contains(&chars),
                "{name} summary.{group}: two or three sentences ({chars} characters)"
            );
            assert!(
                !text.contains('`') && !text.contains("src/") && !text.contains(".rs"),
                "{name} summary.{group}: plain words, no code"
            );
            if name == "th.txt" {
                assert!(!text.contains("; "), "th.txt summary.{group}: no \"; \"");
            }
            if name == "en.txt" {
                let sentences = text.matches(". ").count() + 1;
                assert!(
                    (2..=3).contains(&sentences) && text.ends_with('.'),
                    "en.txt summary.{group}: two or three sentences, got {sentences}"
                );
            }
        }
    }
}
