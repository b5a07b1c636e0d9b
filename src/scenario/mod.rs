//! Scenarios: the plain-text language lessons are written in, a runner that plays
//! them against a world, the one replay loop every front end uses (`replay`), the
//! lesson player's steps (`player`), the built-in lessons (`static/lessons/*.eos`), and scenario
//! files with their expected output inline (`golden`, the tests in tests/scenarios/).

pub mod course;
pub mod golden;
pub mod parse;
pub mod player;
pub mod print;
pub mod question;
pub mod replay;
mod replicas;
pub mod run;
pub mod share;
pub mod watch;

pub use parse::{parse, ParseError, Scenario, Show, Step, StepKind, View};
pub use print::{print, print_step, quote, step_for_action};
pub use replay::{scenario_of, Replay, StepOutput};
pub use replicas::replicas_lines;
pub use run::{verdict_text, RunError, Runner, ScenarioError, StepError};
pub use watch::{MakeWatch, Watch};

/// A fetched lesson file that is not the one this build was made with (a stale copy,
/// or another file under the lesson's name): the lesson's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaleLessonFile(pub &'static str);

impl StaleLessonFile {
    /// What the browser's console is told.
    pub fn why(&self) -> String {
        format!(
            "static/lessons/{}.eos is not the file this page was built with",
            self.0
        )
    }
}

impl std::fmt::Display for StaleLessonFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why())
    }
}

/// A built-in lesson: a scenario file in `static/lessons/`. Natively, and in a wasm with
/// feature `lessons` (the wasm tests), its text is compiled in; the main page and the
/// Pulsar site leave the texts out of their wasm and fetch a lesson's file when it is
/// shown (`ui::lesson_files`), checked against the length and hash the build recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lesson {
    pub name: &'static str,
    pub title: &'static str,
    #[cfg(any(feature = "lessons", not(target_arch = "wasm32")))]
    pub source: &'static str,
    /// The file's length and FNV-1a hash, computed at compile time (only `const`
    /// evaluation reads the text, so it is not in a build without feature `lessons`).
    len: usize,
    hash: u64,
}

/// FNV-1a, 64 bits: identifies a lesson's text (not a defence against forged links: a
/// match only names the lesson a link's own scenario text is shown under).
const fn fnv1a(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// A `Lesson` for `static/lessons/NAME.eos`.
macro_rules! lesson {
    ($name:literal, $title:literal) => {
        Lesson {
            name: $name,
            title: $title,
            #[cfg(any(feature = "lessons", not(target_arch = "wasm32")))]
            source: include_str!(concat!("../../static/lessons/", $name, ".eos")),
            len: include_str!(concat!("../../static/lessons/", $name, ".eos")).len(),
            hash: fnv1a(include_str!(concat!(
                "../../static/lessons/",
                $name,
                ".eos"
            ))),
        }
    };
}

const LESSONS: &[Lesson] = &[
    lesson!("idempotence", "The idempotent producer: duplicates, gaps and the five-batch window"),
    lesson!("dedup-window", "The dedup window up close: overflow, restarts and snapshots"),
    lesson!("transactions", "Transactions: commit, abort, markers, the LSO and read_committed"),
    lesson!("fencing", "Fencing a zombie: a second producer with the same transactional.id"),
    lesson!("consume-transform-produce", "Consume-transform-produce: the input position commits with the output"),
    lesson!("hanging-transaction", "A hanging transaction: transaction.version 1 without verification, find-hanging and abort, and how TV2 refuses the late Produce"),
    lesson!("late-endtxn", "A late EndTxn ends the next transaction (KAFKA-17754), and how TV2 fences it"),
    lesson!("replication", "Replication: the ISR, the high watermark and min.insync.replicas"),
    lesson!("failover", "Failover: is my idempotent or transactional producer still exactly-once when the leader dies?"),
    lesson!("coordinator-failover", "Coordinator failover: the transaction coordinator's broker dies mid-commit — does the transaction complete exactly once?"),
    lesson!("acks-1-loss", "acks=1 and unclean election: how an acknowledged record is lost"),
    lesson!("break-it", "Break it (NOT KAFKA): a dedup window of one batch writes a retry twice"),
];

impl Lesson {
    /// True when `text` is this lesson's file (a share link of an unchanged lesson).
    pub fn is_source(&self, text: &str) -> bool {
        text.len() == self.len && fnv1a(text) == self.hash
    }

    /// The lesson's text: compiled in (feature `lessons`), else once fetched and
    /// [`install`](Lesson::install)ed.
    pub fn text(&self) -> Option<&'static str> {
        #[cfg(any(feature = "lessons", not(target_arch = "wasm32")))]
        {
            Some(self.source)
        }
        #[cfg(not(any(feature = "lessons", not(target_arch = "wasm32"))))]
        {
            fetched::get(self.name)
        }
    }

    /// Keeps a fetched copy of the lesson's file, if it is the file this build was made
    /// with (a stale or wrong file is refused, so the lesson plays what the tests saw).
    pub fn install(&self, text: String) -> Result<&'static str, StaleLessonFile> {
        if !self.is_source(&text) {
            return Err(StaleLessonFile(self.name));
        }
        #[cfg(any(feature = "lessons", not(target_arch = "wasm32")))]
        {
            Ok(self.source)
        }
        #[cfg(not(any(feature = "lessons", not(target_arch = "wasm32"))))]
        {
            Ok(fetched::put(self.name, text))
        }
    }

    /// The title in `lang` (the catalog's `lesson.NAME`), else the English one.
    pub fn title_in(&self, lang: crate::i18n::Lang) -> &'static str {
        match crate::i18n::catalog::catalog(lang).text(&format!("lesson.{}", self.name)) {
            Some(t) if lang != crate::i18n::Lang::En => t,
            _ => self.title,
        }
    }
}

/// The Pulsar lessons (feature `pulsar`): shown on the Pulsar pages, not in the Kafka
/// site's lesson list.
#[cfg(feature = "pulsar")]
const PULSAR_LESSONS: &[Lesson] = &[
    lesson!("pulsar-transactions", "Pulsar's transactions step by step: coordinator, log, buffer and pending ack"),
    lesson!("pulsar-abort-and-conflict", "Pulsar: an abort the broker filters, an ack conflict, and redelivery"),
    lesson!("pulsar-tc-crash", "Pulsar: the coordinator crashes in COMMITTING and its log finishes the commit"),
    lesson!("kafka-vs-pulsar", "Kafka and Pulsar, the same story: consume, produce to two partitions, commit, abort, crash"),
];

/// The lesson texts fetched so far (a build without feature `lessons`), kept for the
/// page's lifetime: each is a few KB and a learner opens a handful.
#[cfg(not(any(feature = "lessons", not(target_arch = "wasm32"))))]
mod fetched {
    use std::sync::Mutex;

    static TEXTS: Mutex<Vec<(&str, &str)>> = Mutex::new(Vec::new());

    pub fn get(name: &str) -> Option<&'static str> {
        let texts = TEXTS.lock().unwrap_or_else(|e| e.into_inner());
        texts.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
    }

    pub fn put(name: &'static str, text: String) -> &'static str {
        if let Some(t) = get(name) {
            return t;
        }
        let text: &'static str = Box::leak(text.into_boxed_str());
        TEXTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((name, text));
        text
    }
}

/// Every built-in Kafka lesson (the main site's list).
pub fn lessons() -> &'static [Lesson] {
    LESSONS
}

/// The Pulsar lessons.
#[cfg(feature = "pulsar")]
pub fn pulsar_lessons() -> &'static [Lesson] {
    PULSAR_LESSONS
}

/// Every built-in lesson: Kafka's, then (with feature `pulsar`) Pulsar's.
pub fn all_lessons() -> impl Iterator<Item = &'static Lesson> {
    #[cfg(feature = "pulsar")]
    let all = LESSONS.iter().chain(PULSAR_LESSONS);
    #[cfg(not(feature = "pulsar"))]
    let all = LESSONS.iter();
    all
}

/// A built-in lesson by name (Kafka's or, with feature `pulsar`, Pulsar's).
pub fn lesson(name: &str) -> Option<&'static Lesson> {
    all_lessons().find(|l| l.name == name)
}

/// A lesson's title in `lang` by name (the catalog's `lesson.NAME`), else its English
/// one: the main page lists the Pulsar lessons without having them.
pub fn lesson_title(name: &str, lang: crate::i18n::Lang) -> String {
    let key = format!("lesson.{name}");
    [lang, crate::i18n::Lang::En]
        .iter()
        .find_map(|l| crate::i18n::catalog::catalog(*l).text(&key))
        .map(str::to_string)
        .or_else(|| lesson(name).map(|l| l.title.to_string()))
        .unwrap_or_else(|| name.to_string())
}

/// Parses and runs a scenario to the end, returning its transcript.
pub fn transcript(source: &str) -> Result<Vec<String>, ScenarioError> {
    let mut replay = Replay::new(parse(source).map_err(ScenarioError::Parse)?);
    replay
        .play_to(usize::MAX)
        .map_err(|e| ScenarioError::Run(e.clone()))?;
    Ok(replay
        .outputs()
        .iter()
        .flat_map(|o| o.lines.clone())
        .collect())
}
