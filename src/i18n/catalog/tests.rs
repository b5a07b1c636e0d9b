//! The file format and the renderer, on small catalogs; and the English file itself.

use super::parse::{parse, Piece};
use super::{Catalog, EN_SOURCE};
use crate::i18n::labels::Key;
use crate::i18n::message::list;
use crate::i18n::{Arg, Lang, Msg};
use crate::msg;

fn pieces(line: &str) -> Vec<Piece> {
    let (entries, errors) = parse(line);
    assert!(errors.is_empty(), "{errors:?}");
    entries.into_iter().next().unwrap().2
}

#[test]
fn a_line_is_an_id_and_a_template_with_named_placeholders() {
    assert_eq!(
        pieces("a.b-c_1 =  x {n} y  "),
        vec![
            Piece::Lit("x ".into()),
            Piece::Var("n".into()),
            Piece::Lit(" y".into())
        ]
    );
    assert_eq!(pieces("empty ="), vec![]);
    // `=` after the first belongs to the text.
    assert_eq!(pieces("k = a = {b}")[0], Piece::Lit("a = ".into()));
}

#[test]
fn escapes_keep_edge_spaces_and_braces() {
    assert_eq!(pieces(r"k = \sa\s"), vec![Piece::Lit(" a ".into())]);
    assert_eq!(
        pieces(r"k = \{x\} \\ \| \n"),
        vec![Piece::Lit("{x} \\ | \n".into())]
    );
}

#[test]
fn a_selector_has_keyed_branches() {
    let p = pieces("k = {n} {n ? one:batch|*:batches of {who}}");
    let Piece::Select { var, branches } = &p[2] else {
        panic!("{p:?}")
    };
    assert_eq!(var, "n");
    assert_eq!(
        branches[0],
        ("one".into(), vec![Piece::Lit("batch".into())])
    );
    assert_eq!(branches[1].0, "*");
    assert_eq!(branches[1].1[1], Piece::Var("who".into()));
}

#[test]
fn bad_lines_are_reported_and_left_out_never_a_panic() {
    let src = "# c\n\nok = fine\nno equals\nbad id! = x\nopen = {n\nclose = n}\nnest = {a ? x:{b ? y:z}}\nok = twice\nempty = {}\n";
    let (entries, errors) = parse(src);
    assert_eq!(entries.len(), 1);
    let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![4, 5, 6, 7, 8, 9, 10]);
}

#[test]
fn rendering_fills_arguments_selectors_lists_and_nested_messages() {
    let (c, errors) = Catalog::from_source(
        "n = {count} {count ? one:batch|*:batches}{why}\nw = , because {x}\nl = [{items}]\nlist.separator = ;\\s\n",
    );
    assert!(errors.is_empty());
    let render = |m: &Msg| {
        let mut out = String::new();
        super::render_with(&mut out, m, &[&c]);
        out
    };
    assert_eq!(
        render(&msg!("n", count = 1, why = Msg::new("missing"))),
        "1 batch{missing}"
    );
    assert_eq!(
        render(&msg!("n", count = 2, why = msg!("w", x = "y"))),
        "2 batches, because y"
    );
    assert_eq!(
        render(&msg!(
            "l",
            items = list([Arg::Text("a".into()), msg!("w", x = 1).into()])
        )),
        "[a; , because 1]"
    );
    assert_eq!(render(&Msg::new("n")), "{count} batches{why}");
}

#[test]
fn the_english_file_parses_without_an_error() {
    let (_, errors) = parse(EN_SOURCE);
    assert!(errors.is_empty(), "{errors:?}");
    for feature in super::feature_sources(Lang::En) {
        let (_, errors) = parse(feature);
        assert!(errors.is_empty(), "{errors:?}");
    }
}

/// `glossary.TERM`, `.def` or `.match` of a term in `glossary::TERMS`.
fn glossary_id(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("glossary.") else {
        return false;
    };
    let term = rest.trim_end_matches(".def").trim_end_matches(".match");
    crate::i18n::glossary::TERMS.contains(&term)
}

/// `course.module.KEY` of a module of the course, or `challenge.ID` (`.hint`) of a
/// free-play challenge.
fn course_id(id: &str) -> bool {
    let module = id.strip_prefix("course.module.").is_some_and(|k| {
        crate::scenario::course::modules()
            .iter()
            .any(|m| m.key == k)
    });
    let challenge = id.strip_prefix("challenge.").is_some_and(|c| {
        let c = c.trim_end_matches(".hint");
        crate::view::challenges::challenges().any(|x| x.id == c)
    });
    module || challenge
}

/// Every id the narration code names is in the English file, and every id in the file
/// is named by the code or is a label: no sentence without a use, no use without a
/// sentence.
#[test]
fn the_code_and_the_english_file_name_the_same_ids() {
    let code = [
        include_str!("../narration/mod.rs"),
        include_str!("../narration/broker.rs"),
        include_str!("../narration/broker/log.rs"),
        include_str!("../narration/consumer.rs"),
        include_str!("../narration/coordinator.rs"),
        include_str!("../narration/group.rs"),
        include_str!("../narration/errors.rs"),
        include_str!("../narration/faults.rs"),
        include_str!("../narration/producer.rs"),
        include_str!("../checker.rs"),
        // The checker names its anomalies' explanations (`Anomaly::explain_id`).
        include_str!("../../checker/anomaly.rs"),
        include_str!("../narration/replication.rs"),
        include_str!("../narration/quorum.rs"),
        include_str!("../narration/pulsar.rs"),
        include_str!("../narration/pulsar/events.rs"),
        include_str!("../narration/compare.rs"),
        include_str!("../transcript.rs"),
        include_str!("../inspect.rs"),
    ]
    .concat();
    // Every string literal shaped like an id: `concept.what` in lower case.
    let is_id = |s: &str| {
        s.contains('.')
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-'))
    };
    let mut used: std::collections::BTreeSet<&str> = code
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| is_id(s) || *s == "empty" || *s == "plain")
        .collect();
    // A refused scenario line's words (`parse.*`, `scenario.*`, named by the parser;
    // `run.*`, by the runner) and a refused share link's (`link.*`).
    used.extend(
        [
            include_str!("../../scenario/parse.rs"),
            include_str!("../../scenario/parse/admin.rs"),
            include_str!("../../scenario/parse/breaks.rs"),
            include_str!("../../scenario/parse/clock.rs"),
            include_str!("../../scenario/parse/cluster.rs"),
            include_str!("../../scenario/parse/consumer.rs"),
            include_str!("../../scenario/parse/disk.rs"),
            include_str!("../../scenario/parse/fault.rs"),
            include_str!("../../scenario/parse/producer.rs"),
            include_str!("../../scenario/parse/pulsar.rs"),
            include_str!("../../scenario/parse/raw.rs"),
            include_str!("../../scenario/parse/set_epoch.rs"),
            include_str!("../../scenario/parse/step.rs"),
            include_str!("../../scenario/parse/tokens.rs"),
            include_str!("../../scenario/parse/topic_admin.rs"),
            include_str!("../../scenario/parse/transaction.rs"),
            include_str!("../../scenario/parse/view.rs"),
            include_str!("../../scenario/question.rs"),
            include_str!("../../scenario/run.rs"),
            include_str!("../../scenario/run/error.rs"),
            include_str!("../../scenario/share.rs"),
        ]
        .iter()
        .flat_map(|code| code.split('"').skip(1).step_by(2))
        .filter(|s| {
            ["parse.", "scenario.", "run.", "link."]
                .iter()
                .any(|p| s.starts_with(p))
                && is_id(s)
        }),
    );
    // The lesson editor's words (`editor.*`, named in its page's code).
    used.extend(
        include_str!("../../ui/editor.rs")
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|s| s.starts_with("editor.") && is_id(s)),
    );
    // Kafka's files page's words (`files.*`, named in its page's code).
    used.extend(
        include_str!("../../ui/files.rs")
            .split('"')
            .skip(1)
            .step_by(2)
            .filter(|s| s.starts_with("files.") && is_id(s)),
    );
    let en = super::catalog(Lang::En);
    let labels: std::collections::BTreeSet<&str> = Key::ALL.iter().map(|k| k.id()).collect();
    for id in &used {
        assert!(en.text(id).is_some(), "{id} is used but not in en.txt");
    }
    for id in en.ids() {
        assert!(
            used.contains(id)
                || labels.contains(id)
                || id == "list.separator"
                || id.starts_with("lesson.")
                || glossary_id(id)
                || course_id(id),
            "{id} is in en.txt but no code uses it"
        );
    }
    for key in Key::ALL {
        assert!(
            en.text(key.id()).is_some(),
            "label {key:?} is not in en.txt"
        );
    }
}

#[test]
fn korean_particles_follow_the_sound_before_them() {
    let (c, _) = Catalog::from_source(
        "o = {x}을(를) 봄\ns = {x}이(가) 옴\nr = {x}(으)로 감\nt = {x}은(는)\n",
    );
    let render = |id: &'static str, x: &str| {
        let mut out = String::new();
        super::render_with(&mut out, &Msg::new(id).arg("x", x), &[&c]);
        out
    };
    assert_eq!(render("o", "브로커"), "브로커를 봄");
    assert_eq!(render("o", "파티션"), "파티션을 봄");
    assert_eq!(render("s", "broker 1"), "broker 1이 옴"); // 일
    assert_eq!(render("s", "broker 2"), "broker 2가 옴"); // 이
    assert_eq!(render("s", "orders-0"), "orders-0이 옴"); // 영
    assert_eq!(render("r", "broker 1"), "broker 1로 감"); // ㄹ takes 로
    assert_eq!(render("r", "broker 3"), "broker 3으로 감");
    assert_eq!(render("r", "producer"), "producer로 감");
    assert_eq!(render("t", "tx-1 (epoch 1)"), "tx-1 (epoch 1)은");
    assert_eq!(render("t", "PrepareCommit"), "PrepareCommit은"); // 커밋
    assert_eq!(render("t", "Ongoing"), "Ongoing은");
}

/// Each built-in lesson's title is in the catalog (`lesson.NAME`), the English one as
/// the lesson list spells it.
#[test]
fn every_lesson_title_is_in_the_catalog() {
    let en = super::catalog(Lang::En);
    for l in crate::scenario::all_lessons() {
        assert_eq!(en.text(&format!("lesson.{}", l.name)), Some(l.title));
        for &lang in Lang::ALL {
            assert!(super::catalog(lang)
                .text(&format!("lesson.{}", l.name))
                .is_some());
        }
    }
}

/// The Korean reading of what precedes a particle, word by word: numbers by their last
/// digit, acronyms by their last letter's name, words as Korean writes them.
#[test]
fn particles_follow_the_korean_reading() {
    let object = |x: &str| super::resolve_particles(&format!("{x}을(를)"));
    for (x, want) in [
        ("브로커 1", "브로커 1을"),
        ("브로커 2", "브로커 2를"),
        ("orders-0", "orders-0을"),
        ("3", "3을"),
        ("4", "4를"),
        ("5", "5를"),
        ("6", "6을"),
        ("7", "7을"),
        ("8", "8을"),
        ("9", "9를"),
        ("10", "10을"),
        ("100", "100을"),
        ("1000", "1000을"),
        ("10000", "10000을"),
        ("snapshot", "snapshot을"),
        ("topic", "topic을"),
        ("offset", "offset을"),
        ("partition", "partition을"),
        ("batch", "batch를"),
        ("marker", "marker를"),
        ("producer", "producer를"),
        ("epoch", "epoch를"),
        ("log", "log를"),
        ("abort", "abort를"),
        ("ISR", "ISR을"),
        ("LSO", "LSO를"),
        ("HW", "HW를"),
        ("`appendAsLeader`", "`appendAsLeader`를"),
        ("enable", "enable을"),
        ("NONE", "NONE을"),
        ("ABORT", "ABORT를"),
        // What the lessons put before a particle: ack 액, acks 액스, ISR 아이에스알,
        // HW 에이치더블유, LEO 엘이오, PID 피아이디, TV2 티브이 이, KIP-890 팔구공.
        ("ack", "ack을"),
        ("acks", "acks를"),
        ("acks=all", "acks=all을"),
        ("acks=1", "acks=1을"),
        ("rollback", "rollback을"),
        ("check", "check를"),
        ("LEO", "LEO를"),
        ("PID", "PID를"),
        ("TV2", "TV2를"),
        ("KIP-890", "KIP-890을"),
        ("app", "app을"),
        ("read_committed", "read_committed를"),
        ("EndTxn", "EndTxn을"),
        ("PrepareCommit", "PrepareCommit을"),
        ("PrepareAbort", "PrepareAbort를"),
        ("Ongoing", "Ongoing을"),
        ("maxReadPosition", "maxReadPosition을"),
        ("transactional.id", "transactional.id를"),
        ("INVALID_PRODUCER_EPOCH", "INVALID_PRODUCER_EPOCH를"),
        ("PRODUCER_FENCED", "PRODUCER_FENCED를"),
        ("TRANSACTION_ABORTABLE", "TRANSACTION_ABORTABLE을"),
        ("result", "result를"),
        ("last", "last를"),
        ("client", "client를"),
        ("request", "request를"),
        ("wait", "wait를"),
        ("timeout", "timeout을"),
        ("set", "set을"),
    ] {
        assert_eq!(object(x), want, "{x}");
    }
    let by = |x: &str| super::resolve_particles(&format!("{x}(으)로"));
    assert_eq!(by("u12-fence-0"), "u12-fence-0으로"); // 영
    assert_eq!(by("broker 1"), "broker 1로"); // ㄹ takes 로
    assert_eq!(by("ISR"), "ISR로");
    assert_eq!(by("HW"), "HW로");
    assert_eq!(by("ack"), "ack으로");
    assert_eq!(by("acks=1"), "acks=1로");
    let subject = |x: &str| super::resolve_particles(&format!("{x}이(가)"));
    assert_eq!(subject("ack"), "ack이");
    assert_eq!(subject("LSO"), "LSO가");
    assert_eq!(subject("ISR"), "ISR이");
    assert_eq!(by("REQUEST_TIMED_OUT"), "REQUEST_TIMED_OUT으로"); // 아웃
    let with = |x: &str| super::resolve_particles(&format!("{x}와(과) 브로커 1"));
    assert_eq!(with("p"), "p와 브로커 1");
    assert_eq!(with("topic"), "topic과 브로커 1");
    // After a gloss, the word before it; after a call, the call; a bracket alone, inside.
    assert_eq!(
        subject("마지막 안정 오프셋(LSO)"),
        "마지막 안정 오프셋(LSO)이"
    );
    assert_eq!(subject("두 번째 사본(#2)"), "두 번째 사본(#2)이");
    assert_eq!(subject("poll()"), "poll()이");
    assert_eq!(subject("send()"), "send()가");
    assert_eq!(subject("상태의 (0,1)"), "상태의 (0,1)이");
    assert_eq!(subject("`epochs [0@0]`"), "`epochs [0@0]`이");
}

#[test]
fn particles_in_a_filled_label_are_resolved_too() {
    assert_eq!(
        super::resolve_particles("프로듀서 3은(는) 없고 broker 2이(가) 있고 (x) 그대로"),
        "프로듀서 3은 없고 broker 2가 있고 (x) 그대로"
    );
}

/// Every particle written by hand after a number or a Latin word — in a Korean catalog
/// line or a lesson's `[ko]` line — is the one the Korean reading takes (`app이`, not
/// `app가`; `REQUEST_TIMED_OUT으로`, not `…로`), and no two-way form such as `와(과)` is
/// left where nothing resolves it (at the start of a label, or in a lesson).
#[test]
fn hand_written_korean_particles_agree_with_the_reading() {
    const FORMS: &[(&str, &str, &str)] = &[
        ("을", "를", "을(를)"),
        ("이", "가", "이(가)"),
        ("은", "는", "은(는)"),
        ("과", "와", "과(와)"),
        ("으로", "로", "(으)로"),
    ];
    let hangul = |c: char| ('\u{AC00}'..='\u{D7A3}').contains(&c);
    let mut wrong = Vec::new();
    let mut check = |text: &str, place: &str| {
        for (at, _) in text.char_indices() {
            let before = &text[..at];
            let Some(prev) = before.chars().next_back() else {
                continue;
            };
            if !(prev.is_ascii_alphanumeric() || matches!(prev, '`' | ')' | ']' | '_')) {
                continue;
            }
            let rest = &text[at..];
            if super::PARTICLES
                .iter()
                .any(|(both, ..)| rest.starts_with(both))
            {
                continue;
            }
            for &(consonant, vowel, both) in FORMS {
                // The longer form first: `으로` before `로`.
                let Some(written) = [consonant, vowel]
                    .into_iter()
                    .filter(|p| rest.starts_with(p))
                    .max_by_key(|p| p.len())
                else {
                    continue;
                };
                let next = rest[written.len()..].chars().next();
                let ends = match next {
                    None => true,
                    Some(n) if !hangul(n) => true,
                    // `로의`, `로는`, `로도`, `로서`: 로 stays a particle.
                    Some(n) => both == "(으)로" && "의는도서".contains(n),
                };
                if !ends {
                    continue;
                }
                let want = super::resolve_particles(&format!("{before}{both}"));
                if !want.ends_with(written) || (written == "로" && want.ends_with("으로")) {
                    let from = before.char_indices().rev().nth(20).map_or(0, |(i, _)| i);
                    wrong.push(format!("{place}: …{}{written}", &before[from..]));
                }
                break;
            }
        }
        for (both, _, _) in super::PARTICLES {
            let mut from = 0;
            while let Some(i) = text[from..].find(both) {
                let at = from + i;
                // The renderer resolves a form after an argument; nothing resolves one
                // that opens a label (a widget comes before it) or one in a lesson.
                if at == 0 || place.starts_with("lesson") {
                    wrong.push(format!("{place}: unresolved {both}"));
                }
                from = at + both.len();
            }
        }
    };
    let files = std::iter::once(include_str!("ko.txt")).chain(super::feature_sources(Lang::Ko));
    for line in files.flat_map(str::lines) {
        if let Some((id, text)) = line.split_once(" = ") {
            check(text, id);
        }
    }
    for lesson in crate::scenario::all_lessons() {
        for (n, line) in lesson.source.lines().enumerate() {
            if let Some((_, text)) = line.split_once("[ko]") {
                check(text, &format!("lesson {} line {}", lesson.name, n + 1));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} particles:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A feature folder's lines (`group-membership/en.txt`, …) are named only by code that
/// feature compiles in — a module it gates, or an item or match arm under its
/// `#[cfg(feature = …)]` — so a page built without the feature never asks for a line
/// its fetched file leaves out. Each is named somewhere, and no id is in two files.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_feature_folder_holds_the_lines_only_its_feature_names() {
    // Every source file of the narration and the scenario language, read as the test
    // runs, so a file split or added is covered without a list to keep.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["i18n/narration", "scenario"] {
        rust_sources(&root.join(dir), &mut files);
    }
    let code: Vec<(String, String)> = files
        .iter()
        .map(|path| {
            let name = path.strip_prefix(&root).unwrap_or(path);
            let text = std::fs::read_to_string(path).unwrap_or_default();
            (name.to_string_lossy().replace('\\', "/"), text)
        })
        .collect();
    assert!(code.len() > 20, "no source read under {}", root.display());
    // Modules that a feature gates whole (`#[cfg(feature = …)] mod quorum;`).
    let gated_files = [("i18n/narration/quorum.rs", "metadata-log")];
    let folders = [
        ("group-membership", include_str!("group-membership/en.txt")),
        ("metadata-log", include_str!("metadata-log/en.txt")),
        ("topic-admin", include_str!("topic-admin/en.txt")),
    ];
    let (main, _) = parse(EN_SOURCE);
    let mut seen: std::collections::BTreeSet<String> =
        main.into_iter().map(|(id, _, _)| id).collect();
    let mut wrong = Vec::new();
    for (feature, source) in folders {
        let (entries, errors) = parse(source);
        assert!(errors.is_empty(), "{feature}: {errors:?}");
        assert!(!entries.is_empty(), "{feature}: no line");
        let attr = format!("#[cfg(feature = \"{feature}\")]");
        for (id, _, _) in entries {
            let quoted = format!("\"{id}\"");
            let mut named = 0;
            for (file, text) in &code {
                let lines: Vec<&str> = text.lines().collect();
                for (at, _) in lines
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| l.contains(&quoted))
                {
                    named += 1;
                    let whole = gated_files.contains(&(file.as_str(), feature));
                    if !whole && !under_cfg(&lines, at, &attr) {
                        wrong.push(format!("{file}:{}: {id} outside {attr}", at + 1));
                    }
                }
            }
            if named == 0 {
                wrong.push(format!("{feature}/en.txt: {id} is named by no code"));
            }
            if !seen.insert(id.clone()) {
                wrong.push(format!("{feature}/en.txt: {id} is in another file too"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The `.rs` files under `dir`, test modules (`tests.rs`, `tests/`) left out.
#[cfg(not(target_arch = "wasm32"))]
fn rust_sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if name != "tests" {
                rust_sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// Whether line `at` of rustfmt-ed code sits in an item or match arm that `attr`
/// gates: walks out through the enclosing heads (each line less indented than the
/// last), and looks at the attributes above each head.
#[cfg(not(target_arch = "wasm32"))]
fn under_cfg(lines: &[&str], at: usize, attr: &str) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    // The line itself first (a one-line arm), then each enclosing head.
    let mut head = at;
    loop {
        // When the head closes a pattern that spans lines (`} => {`), go up to the line
        // that opens it, at the same indentation.
        let k = indent(lines[head]);
        let mut start = head;
        while lines[start].trim_start().starts_with(['}', ')', ']']) && start > 0 {
            start -= 1;
            while start > 0 && indent(lines[start]) > k {
                start -= 1;
            }
        }
        // Its attributes and doc comments, just above it.
        let mut a = start;
        while a > 0 {
            a -= 1;
            let above = lines[a].trim_start();
            if indent(lines[a]) != k || !(above.starts_with("#[") || above.starts_with("//")) {
                break;
            }
            if above == attr {
                return true;
            }
        }
        // The next head out: the first line above that is less indented.
        head = start;
        loop {
            if k == 0 || head == 0 {
                return false;
            }
            head -= 1;
            if !lines[head].trim().is_empty() && indent(lines[head]) < k {
                break;
            }
        }
    }
}
