//! The native command line: lesson transcripts, scenario files, and export of the
//! in-memory disk to a real folder in Kafka's layout.

use std::path::PathBuf;

use crate::i18n::{narrate, Lang};
use crate::scenario;
use crate::scenario::share;
use crate::view::page::Page;

#[cfg(feature = "checker")]
mod chaos;

const USAGE: &str = "eos — the exactly-once playground on the command line

USAGE:
    eos lessons [--lang L]              list the built-in lessons
    eos lessons --missing L             list the lesson titles and narration not yet
                                        translated into L (ko, th)
    eos lessons --tsv                   the course for scripts (the LMS packages), one
                                        lesson a line, tab-separated: name, site, module,
                                        minutes, questions, title in en, ko, th, module
                                        title in en, ko, th
    eos lesson NAME [OPTIONS]           print a lesson's transcript
    eos run FILE [OPTIONS]              run a scenario file (see docs/scenarios.md)
    eos test [--update] FILE...         run scenario files and compare each step's output
                                        with its `---` block; --update rewrites the blocks
    eos questions FILE...               check each lesson question's marked answer
                                        against what the step after it prints
    eos link LINK                       print what a share link holds, as a scenario file
    eos link --make FILE [--step N] [--page idempotence|transactions]
                                        make a link fragment (#1.…) that opens FILE in
                                        the page's lesson player at step N
    eos chaos [--seeds A..B | --seed S --runs N] [--steps K] [--break NAME]...
                                        seeded chaos runs (seeds A to B-1) with the
                                        invariant checker: each failing seed, its
                                        anomaly and a shrunk scenario; exit code 1
                                        if anything was found
    eos inspect DIR [--lang L]          look inside a Kafka log folder (a folder of
                                        TOPIC-PARTITION folders) or one partition folder,
                                        or either one zipped (DIR.zip):
                                        each segment as kafka-dump-log.sh --print-data-log
                                        --deep-iteration prints it, the indexes checked
                                        against the log, snapshots and checkpoints, every
                                        damaged byte's position, and what recovery rebuilds
    eos chaos --switches                the NOT KAFKA break switches, one a line

OPTIONS:
    --verbose        show each step's source line and the narrated events
    --lang L         narrate in L: en (the default), ko (Korean) or th (Thai)
    --export DIR     write the brokers' disks to DIR in Kafka's layout
                     (TOPIC-PARTITION/00000000000000000000.log, .index, …);
                     a DIR named *.zip is written as one zip in the same layout
";

/// Runs the CLI on the process's arguments, read as OS strings: one that is not UTF-8
/// is refused with a message rather than aborting the process.
pub fn main_os(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let mut text = Vec::new();
    for (i, a) in args.into_iter().enumerate() {
        match a.into_string() {
            Ok(s) => text.push(s),
            Err(a) => {
                eprintln!(
                    "eos: argument {} is not valid UTF-8 ({}); names and paths must be UTF-8 here",
                    i + 1,
                    a.to_string_lossy()
                );
                return 2;
            }
        }
    }
    main(&text)
}

/// Runs the CLI; returns the process exit code.
pub fn main(args: &[String]) -> i32 {
    #[cfg(feature = "checker")]
    if args.first().is_some_and(|a| a == "chaos") {
        return match chaos::chaos(&args[1..]) {
            Ok((out, found)) => {
                emit(std::io::stdout(), &out);
                i32::from(found)
            }
            Err(e) => {
                emit(std::io::stderr(), &format!("eos: {e}\n\n{USAGE}\n"));
                2
            }
        };
    }
    match run(args) {
        Ok(out) => {
            emit(std::io::stdout(), &out);
            0
        }
        Err(e) => {
            emit(std::io::stderr(), &format!("eos: {e}\n"));
            2
        }
    }
}

/// Writes `text` and flushes; a reader that went away (`eos run … | head`) ends the
/// output quietly, as Unix tools do, instead of a panic on the broken pipe. What is
/// printed comes from files and links strangers wrote, so control characters other
/// than newline and tab are shown escaped (`\u{1b}`), never sent to the terminal.
fn emit(mut to: impl std::io::Write, text: &str) {
    let text = terminal_safe(text);
    let _ = to.write_all(text.as_bytes()).and_then(|()| to.flush());
}

/// `text` with every control character but newline and tab, and the bidirectional
/// overrides that reorder what a terminal shows, written as `\u{…}` escapes: an escape
/// sequence in a link's scenario cannot clear the screen, retitle the window or hide a
/// line (a carriage return) from the author reading it.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.contains(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

struct Options {
    verbose: bool,
    export: Option<PathBuf>,
    lang: Lang,
}

/// The language a `--lang` value names.
fn lang(value: Option<&String>) -> Result<Lang, String> {
    let value = value.ok_or("--lang needs a language: en, ko or th")?;
    Lang::from_code(value)
        .filter(|l| l.code() == value.as_str())
        .ok_or_else(|| format!("--lang {value}: choose en, ko or th"))
}

fn options(rest: &[String]) -> Result<Options, String> {
    let mut o = Options {
        verbose: false,
        export: None,
        lang: Lang::En,
    };
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--verbose" | "-v" => o.verbose = true,
            "--lang" => o.lang = lang(it.next())?,
            "--export" => {
                let dir = PathBuf::from(it.next().ok_or("--export needs a folder")?);
                if is_zip(&dir) {
                    if dir.exists() {
                        return Err(format!(
                            "--export {}: the file exists; choose a new name",
                            dir.display()
                        ));
                    }
                    o.export = Some(dir);
                    continue;
                }
                // Stale files from another run would sit beside the new ones, and a
                // reader could not tell them apart: only a new or empty folder will do.
                if std::fs::read_dir(&dir).is_ok_and(|mut entries| entries.next().is_some()) {
                    return Err(format!(
                        "--export {}: the folder is not empty; choose a new or empty folder",
                        dir.display()
                    ));
                }
                o.export = Some(dir);
            }
            other => return Err(format!("unknown option {other}\n\n{USAGE}")),
        }
    }
    Ok(o)
}

/// Everything the CLI prints, as one string (so tests can call it).
pub fn run(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => Ok(USAGE.to_string()),
        Some("lessons") => lessons(&args[1..]),
        Some("lesson") => {
            let name = args.get(1).ok_or("which lesson? try `eos lessons`")?;
            let lesson = scenario::lesson(name)
                .ok_or_else(|| format!("no lesson named {name}; try `eos lessons`"))?;
            play(lesson.source, &options(&args[2..])?)
        }
        Some("run") => {
            let file = args.get(1).ok_or("which file?")?;
            let source = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            play(&source, &options(&args[2..])?).map_err(|e| format!("{file}: {e}"))
        }
        Some("test") => test(&args[1..]),
        Some("questions") => questions(&args[1..]),
        Some("link") => link(&args[1..]),
        Some("inspect") => inspect(&args[1..]),
        Some(other) => Err(format!("unknown command {other}\n\n{USAGE}")),
    }
}

/// `eos inspect DIR`: reads the partition folder DIR, or each partition folder in the
/// log folder DIR, and prints [`crate::inspect`]'s report.
fn inspect(args: &[String]) -> Result<String, String> {
    let (dir, lang) = match args {
        [dir] => (dir, Lang::En),
        [dir, flag, l] if flag == "--lang" => (dir, lang(Some(l))?),
        _ => {
            return Err(format!(
                "`eos inspect` takes a folder and --lang L\n\n{USAGE}"
            ))
        }
    };
    let path = std::path::Path::new(dir);
    let files = if is_zip(path) {
        let bytes = std::fs::read(path).map_err(|e| format!("{dir}: {e}"))?;
        let entries = crate::zip::read(&bytes)
            .map_err(|e| format!("{dir}: {}", crate::i18n::inspect::zip_error(&e, lang)))?;
        let own = path
            .file_stem()
            .map_or_else(|| ".".to_string(), |s| s.to_string_lossy().into_owned());
        crate::inspect::zip_files(entries, &own)
    } else {
        read_log_folder(path)?
    };
    Ok(crate::i18n::inspect::report(
        &crate::inspect::inspect(&files),
        lang,
    ))
}

/// A path named `*.zip` (any case): a zipped log folder for `eos inspect`, a zip to
/// write for `--export`.
fn is_zip(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case("zip"))
}

/// The files of a partition folder (named `NAME/file`, NAME the folder's own name), or
/// of each partition folder one level down when `dir` holds no segment itself (a
/// broker's log.dirs entry: its own checkpoint files are left out).
fn read_log_folder(dir: &std::path::Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let listing = |d: &std::path::Path| -> Result<Vec<(String, std::path::PathBuf, bool)>, String> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(d).map_err(|e| format!("{}: {e}", d.display()))? {
            let entry = entry.map_err(|e| format!("{}: {e}", d.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            entries.push((name, entry.path(), is_dir));
        }
        entries.sort();
        Ok(entries)
    };
    let read = |name: String, path: &std::path::Path| -> Result<(String, Vec<u8>), String> {
        std::fs::read(path)
            .map(|bytes| (name, bytes))
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    let top = listing(dir)?;
    let is_partition = top.iter().any(|(name, _, is_dir)| {
        !is_dir
            && (name.ends_with(".log") || name.ends_with(".snapshot") || name.ends_with(".index"))
    });
    let mut files = Vec::new();
    if is_partition {
        let own = dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| ".".to_string());
        for (name, path, is_dir) in top {
            if !is_dir {
                files.push(read(format!("{own}/{name}"), &path)?);
            }
        }
    } else {
        for (sub, sub_path, is_dir) in top {
            if !is_dir {
                continue;
            }
            for (name, path, is_dir) in listing(&sub_path)? {
                if !is_dir {
                    files.push(read(format!("{sub}/{name}"), &path)?);
                }
            }
        }
    }
    Ok(files)
}

/// `eos lessons`: the list, in a language; or with `--missing L` what L lacks.
fn lessons(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        None => Ok(list_lessons(Lang::En)),
        Some("--lang") if args.len() == 2 => Ok(list_lessons(lang(args.get(1))?)),
        Some("--missing") if args.len() == 2 => missing(lang(args.get(1))?),
        Some("--tsv") if args.len() == 1 => Ok(course_tsv()),
        _ => Err(format!(
            "`eos lessons` takes --lang L, --missing L or --tsv\n\n{USAGE}"
        )),
    }
}

/// The lessons in course order (`scenario::course`), each with its length in minutes.
fn list_lessons(lang: Lang) -> String {
    scenario::course::course_lessons()
        .filter_map(|c| scenario::lesson(c.name).map(|l| (c, l)))
        .map(|(c, l)| {
            format!(
                "{:<26} {:>3} min  {}\n",
                l.name,
                c.minutes,
                l.title_in(lang)
            )
        })
        .collect()
}

/// The course in course order for scripts (`scripts/package-lms.sh`): what an LMS
/// package needs of each lesson — which site plays it, its module, its length, how many
/// questions it asks (a lesson without any is only completed, never passed) and its
/// titles in every language. Tabs and newlines inside a title become spaces.
fn course_tsv() -> String {
    let langs = [Lang::En, Lang::Ko, Lang::Th];
    let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
    let mut out = String::new();
    for module in scenario::course::modules() {
        let module_titles: Vec<String> = langs
            .iter()
            .map(|&l| {
                clean(crate::i18n::catalog::text(
                    &format!("course.module.{}", module.key),
                    l,
                ))
            })
            .collect();
        for c in module.lessons {
            let Some(l) = scenario::lesson(c.name) else {
                continue;
            };
            let questions: usize = scenario::parse(l.source)
                .map(|s| s.steps.iter().map(|st| st.questions.len()).sum())
                .unwrap_or(0);
            let site = match c.site {
                scenario::course::Site::Kafka => "kafka",
                scenario::course::Site::Pulsar => "pulsar",
            };
            let titles: Vec<String> = langs.iter().map(|&g| clean(l.title_in(g))).collect();
            out.push_str(&format!(
                "{}\t{site}\t{}\t{}\t{questions}\t{}\t{}\n",
                c.name,
                module.key,
                c.minutes,
                titles.join("\t"),
                module_titles.join("\t"),
            ));
        }
    }
    out
}

/// Every lesson title and step title or narration that has no `lang` text yet (those
/// show in English), the Pulsar lessons included: `NAME:LINE: narration` lines, then a
/// count.
fn missing(lang: Lang) -> Result<String, String> {
    let mut out = String::new();
    let mut count = 0;
    for l in scenario::all_lessons() {
        if lang != Lang::En && l.title_in(lang) == l.title {
            out.push_str(&format!("{}: lesson title\n", l.name));
            count += 1;
        }
        let parsed = scenario::parse(l.source).map_err(|e| format!("{}: {e}", l.name))?;
        for step in &parsed.steps {
            for what in step.missing_in(lang) {
                out.push_str(&format!("{}:{}: {what}\n", l.name, step.line));
                count += 1;
            }
        }
    }
    out.push_str(&format!("{count} missing in {}\n", lang.code()));
    Ok(out)
}

/// `eos questions FILE...`: every question of each lesson file with its marked answer,
/// checked against what the step after it prints; an error when one disagrees.
fn questions(files: &[String]) -> Result<String, String> {
    if files.is_empty() {
        return Err(format!("which files?\n\n{USAGE}"));
    }
    let (mut out, mut failed) = (String::new(), 0);
    for file in files {
        let source = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let parsed = scenario::parse(&source).map_err(|e| format!("{file}: {e}"))?;
        let wrong = scenario::question::check(&parsed).err().unwrap_or_default();
        for q in scenario::question::questions(&parsed) {
            let answer = q.choices.get(q.answer()).map_or("", |c| c.text.en.as_str());
            match wrong.iter().find(|d| d.line == q.line) {
                None => out.push_str(&format!(
                    "{file}:{}: ok: {} -> {answer}\n",
                    q.line, q.prompt.en
                )),
                Some(d) => {
                    failed += 1;
                    out.push_str(&format!("{file}:{}: DISAGREES: {}\n", q.line, d.why));
                }
            }
        }
        for d in wrong
            .iter()
            .filter(|d| scenario::question::questions(&parsed).all(|q| q.line != d.line))
        {
            failed += 1;
            out.push_str(&format!("{file}:{}: {}\n", d.line, d.why));
        }
    }
    if failed > 0 {
        return Err(format!("{out}{failed} questions disagree with the engine"));
    }
    Ok(out)
}

/// `eos test`: scenario files with expected output (`---` blocks, see
/// docs/scenarios.md); a mismatch is an error with a diff per block.
fn test(args: &[String]) -> Result<String, String> {
    let update = args.first().is_some_and(|a| a == "--update");
    let files = &args[usize::from(update)..];
    if files.is_empty() {
        return Err(format!("which files?\n\n{USAGE}"));
    }
    // Every file is read before any is checked or rewritten: a missing one stops the
    // run with nothing written.
    let sources = files
        .iter()
        .map(|file| std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}")))
        .collect::<Result<Vec<String>, String>>()?;
    let (mut out, mut failed) = (String::new(), 0);
    for (file, source) in files.iter().zip(sources) {
        // A file that does not parse or run stops the run; the files rewritten before
        // it are named.
        let checked = scenario::golden::check_with(&source, WATCH)
            .map_err(|e| format!("{out}{file}: {e}"))?;
        // A question's marked answer must agree with what the step after it prints.
        let parsed = scenario::parse(&source).map_err(|e| format!("{out}{file}: {e}"))?;
        // Only a file with questions is played for them: a test that expects a step to
        // be refused (`error: …` in its block) is not a question that disagrees.
        let has_questions = scenario::question::questions(&parsed).next().is_some();
        let answers = if has_questions {
            scenario::question::check(&parsed)
        } else {
            Ok(0)
        };
        let questions = match answers {
            Ok(n) => n,
            Err(wrong) => {
                failed += 1;
                for d in &wrong {
                    out.push_str(&format!(
                        "{file}:{}: question disagrees with the engine: {}\n",
                        d.line, d.why
                    ));
                }
                continue;
            }
        };
        if update {
            if checked.updated != source {
                std::fs::write(file, &checked.updated).map_err(|e| format!("{out}{file}: {e}"))?;
            }
            out.push_str(&format!("updated {file}\n"));
        } else if checked.mismatches.is_empty() {
            out.push_str(&format!(
                "ok {file} ({} blocks, {questions} questions)\n",
                checked.blocks
            ));
        } else {
            failed += 1;
            for m in &checked.mismatches {
                out.push_str(&m.report(file));
            }
        }
    }
    if failed > 0 {
        return Err(format!("{out}{failed} of {} files differ", files.len()));
    }
    Ok(out)
}

/// `eos link`: a share link (a whole URL or its fragment) as a scenario file a course
/// author can save and run, or `--make`: a scenario file as a link fragment.
fn link(args: &[String]) -> Result<String, String> {
    let bad = |why: &str| format!("{why}\n\n{USAGE}");
    if args.first().map(String::as_str) != Some("--make") {
        let [given] = args else {
            return Err(bad("`eos link` takes one link"));
        };
        let fragment = given.rsplit_once('#').map_or(given.as_str(), |(_, f)| f);
        let shared = share::decode(fragment).map_err(|e| format!("the link: {e}"))?;
        // The page opens only the pages it has; name another, and nothing would say so.
        if Page::parse(&shared.page).is_none() {
            let pages: Vec<&str> = Page::ALL.iter().map(|p| p.fragment()).collect();
            return Err(format!(
                "the link: no page named {:?} (the pages: {})",
                shared.page.chars().take(40).collect::<String>(),
                pages.join(", ")
            ));
        }
        // `decode` checked the language is one of the catalog's.
        let language = shared
            .lang
            .as_deref()
            .and_then(Lang::from_code)
            .unwrap_or(Lang::En);
        let mut out = format!(
            "# A share link of the {} page, at step {}{}, in {} ({}){}.\n",
            shared.page,
            shared.step,
            shared
                .panel
                .as_deref()
                .map(|p| format!(" (open: {p})"))
                .unwrap_or_default(),
            language.native_name(),
            language.code(),
            shared
                .lesson
                .as_deref()
                .map(|l| format!(", lesson {l}"))
                .unwrap_or_default()
        );
        // A lesson link names a built-in lesson: its file is the scenario.
        match shared.lesson.as_deref().and_then(scenario::lesson) {
            Some(l) => out.push_str(l.source),
            None => out.push_str(&shared.scenario),
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        return Ok(out);
    }
    let file = args.get(1).ok_or_else(|| bad("which file?"))?;
    let scenario = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let (mut step, mut page) = (0, Page::Idempotence);
    let mut it = args[2..].iter();
    while let Some(a) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| bad(&format!("{a} needs a value")))?;
        match a.as_str() {
            "--step" => {
                step = value
                    .parse()
                    .map_err(|_| bad(&format!("--step {value}: not a number")))?
            }
            "--page" if Page::parse(value).is_some() => page = Page::from_fragment(value),
            _ => {
                return Err(bad(&format!(
                    "{a} {value}: not an option of `eos link --make`"
                )))
            }
        }
    }
    // A built-in lesson's own file is named, not carried: the page loads it.
    let lesson = scenario::all_lessons().find(|l| l.is_source(&scenario));
    let shared = share::SharedState {
        scenario: if lesson.is_some() {
            String::new()
        } else {
            scenario
        },
        step,
        page: page.fragment().into(),
        // The page's `OpenPanel` (src/ui/link.rs): play it in the lesson player.
        panel: Some("lesson".into()),
        lang: None,
        lesson: lesson.map(|l| l.name.to_string()),
    };
    let code = share::encode(&shared).map_err(|e| format!("{file}: {e}"))?;
    // `decode` checks what opening it will check: the scenario parses, the step is in range.
    share::decode(&code).map_err(|e| format!("{file}: {e}"))?;
    Ok(format!("#{code}\n"))
}

/// What watches a scenario's `check` steps: the invariant checker, when built in.
#[cfg(feature = "checker")]
const WATCH: Option<scenario::MakeWatch> = Some(crate::checker::watch);
#[cfg(not(feature = "checker"))]
const WATCH: Option<scenario::MakeWatch> = None;

fn play(source: &str, o: &Options) -> Result<String, String> {
    let mut replay = scenario::Replay::watched(
        scenario::parse(source).map_err(|e| e.in_lang(o.lang))?,
        WATCH,
    );
    replay.set_lang(o.lang);
    let mut out = String::new();
    // Step by step: a later `cluster` line replaces the world, so each step's events
    // are narrated while its world is still the one on hand.
    while let Some(step) = replay.current_step().cloned() {
        let output = replay.step().map_err(|e| e.in_lang(o.lang))?.clone();
        if o.verbose {
            if let Some(title) = step.title_in(o.lang) {
                out.push_str(&format!("## {title}\n"));
            }
            for paragraph in step.narration_in(o.lang) {
                out.push_str(&format!("   {paragraph}\n"));
            }
            out.push_str(&format!("$ {}\n", step.text));
        }
        for line in &output.lines {
            out.push_str(line);
            out.push('\n');
        }
        if o.verbose {
            for e in replay
                .world()
                .events()
                .get(output.events.clone())
                .unwrap_or_default()
            {
                out.push_str(&format!("    · {}\n", narrate(e, o.lang)));
            }
        }
    }
    if let Some(file) = o.export.as_ref().filter(|p| is_zip(p)) {
        let files = replay.world().disk_files();
        std::fs::write(file, crate::zip::write(&files))
            .map_err(|e| format!("export to {}: {e}", file.display()))?;
        out.push_str(&format!(
            "exported {} files to {}\n",
            files.len(),
            file.display()
        ));
    } else if let Some(dir) = &o.export {
        let n = replay
            .world()
            .export(dir)
            .map_err(|e| format!("export to {}: {e}", dir.display()))?;
        out.push_str(&format!("exported {n} files to {}\n", dir.display()));
    }
    Ok(out)
}
