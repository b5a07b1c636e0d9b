//! Scenarios: the plain-text language lessons are written in, a runner that plays
//! them against a world, the one replay loop every front end uses (`replay`), the
//! lesson player's steps (`player`), the built-in lessons (`static/lessons/*.eos`), and scenario
//! files with their expected output inline (`golden`, the tests in tests/scenarios/).

pub mod golden;
pub mod parse;
pub mod player;
pub mod print;
pub mod replay;
mod replicas;
pub mod run;
pub mod share;

pub use parse::{parse, ParseError, Scenario, Show, Step, StepKind, View};
pub use print::{print, print_step, quote, step_for_action};
pub use replay::{scenario_of, Replay, StepOutput};
pub use replicas::replicas_lines;
pub use run::{verdict_text, Runner};

/// A built-in lesson: a scenario file shipped inside the binary (CLI and web alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lesson {
    pub name: &'static str,
    pub title: &'static str,
    pub source: &'static str,
}

const LESSONS: &[Lesson] = &[
    Lesson {
        name: "idempotence",
        title: "The idempotent producer: duplicates, gaps and the five-batch window",
        source: include_str!("../../static/lessons/idempotence.eos"),
    },
    Lesson {
        name: "dedup-window",
        title: "The dedup window up close: overflow, restarts and snapshots",
        source: include_str!("../../static/lessons/dedup-window.eos"),
    },
    Lesson {
        name: "transactions",
        title: "Transactions: commit, abort, markers, the LSO and read_committed",
        source: include_str!("../../static/lessons/transactions.eos"),
    },
    Lesson {
        name: "fencing",
        title: "Fencing a zombie: a second producer with the same transactional.id",
        source: include_str!("../../static/lessons/fencing.eos"),
    },
    Lesson {
        name: "consume-transform-produce",
        title: "Consume-transform-produce: the input position commits with the output",
        source: include_str!("../../static/lessons/consume-transform-produce.eos"),
    },
    Lesson {
        name: "hanging-transaction",
        title: "A hanging transaction: transaction.version 1 without verification, find-hanging and abort",
        source: include_str!("../../static/lessons/hanging-transaction.eos"),
    },
    Lesson {
        name: "late-endtxn",
        title: "A late EndTxn ends the next transaction (KAFKA-17754), and how TV2 fences it",
        source: include_str!("../../static/lessons/late-endtxn.eos"),
    },
    Lesson {
        name: "failover",
        title: "Failover: is my idempotent or transactional producer still exactly-once when the leader dies?",
        source: include_str!("../../static/lessons/failover.eos"),
    },
    Lesson {
        name: "coordinator-failover",
        title: "Coordinator failover: the transaction coordinator's broker dies mid-commit — does the transaction complete exactly once?",
        source: include_str!("../../static/lessons/coordinator-failover.eos"),
    },
];

impl Lesson {
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
    Lesson {
        name: "pulsar-transactions",
        title: "Pulsar's transactions step by step: coordinator, log, buffer and pending ack",
        source: include_str!("../../static/lessons/pulsar-transactions.eos"),
    },
    Lesson {
        name: "pulsar-abort-and-conflict",
        title: "Pulsar: an abort the broker filters, an ack conflict, and redelivery",
        source: include_str!("../../static/lessons/pulsar-abort-and-conflict.eos"),
    },
    Lesson {
        name: "pulsar-tc-crash",
        title: "Pulsar: the coordinator crashes in COMMITTING and its log finishes the commit",
        source: include_str!("../../static/lessons/pulsar-tc-crash.eos"),
    },
    Lesson {
        name: "kafka-vs-pulsar",
        title: "Kafka and Pulsar, the same story: consume, produce to two partitions, commit, abort, crash",
        source: include_str!("../../static/lessons/kafka-vs-pulsar.eos"),
    },
];

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

/// Parses and runs a scenario to the end, returning its transcript.
pub fn transcript(source: &str) -> Result<Vec<String>, String> {
    let mut replay = Replay::new(parse(source).map_err(|e| e.to_string())?);
    replay.play_to(usize::MAX)?;
    Ok(replay
        .outputs()
        .iter()
        .flat_map(|o| o.lines.clone())
        .collect())
}
