//! What a scenario parses into: steps, their kinds, the views and errors.

use super::*;

/// A parse error at a place in the source: the line and column, and why, as a catalog
/// message (`parse.*`), so the editor, the CLI and a share link's loader word it in the
/// learner's language while Kafka's error names and the scenario's keywords stay as
/// written. `Display` is the English text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub why: Msg,
}

impl ParseError {
    /// `line L, column C: why`, not yet in a language.
    pub fn msg(&self) -> Msg {
        msg!(
            "parse.at",
            line = self.line,
            column = self.column,
            why = self.why.clone()
        )
    }

    /// `line L, column C: why`, in `lang`.
    pub fn in_lang(&self, lang: Lang) -> String {
        render(&self.msg(), lang)
    }

    /// Why, in English (without the place).
    pub fn message(&self) -> String {
        render(&self.why, Lang::En)
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

impl std::error::Error for ParseError {}

/// A read-only view printed into the transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum View {
    /// `kafka-dump-log.sh` batch lines, optionally only some fields.
    DumpLog {
        tp: TopicPartition,
        fields: Option<Vec<String>>,
        control_records: bool,
        /// `print dump-log broker-N TOPIC-P`: that broker's replica (default: the leader's).
        broker: Option<i32>,
        /// `records=all`: each data record's line too (`--print-data-log`).
        data_records: bool,
    },
    /// The `.txnindex` entries of a partition.
    TxnIndex { tp: TopicPartition },
    /// What a consumer received: `got N records: … (position P)`.
    Consumed { consumer: String },
    /// Latest offsets by isolation level (HW and LSO).
    Latest { tp: TopicPartition },
    /// The `__transaction_state` partition of a transactional id, decoded.
    TxnLog { transactional_id: String },
    /// `kafka-transactions.sh list`.
    Transactions,
    #[cfg(feature = "group-membership")]
    /// A group's state, generation and members (`kafka-consumer-groups.sh --describe
    /// --members`).
    Group { group_id: String },
    /// A group's committed offsets, as OffsetFetch (require_stable) answers.
    Committed {
        group_id: String,
        partitions: Vec<TopicPartition>,
    },
    /// The states a transactional id went through, read from `__transaction_state`:
    /// `Empty(0) → Ongoing(0) → …` (epochs in brackets).
    TxnStates { transactional_id: String },
    /// `kafka-transactions.sh describe`.
    DescribeTransaction { transactional_id: String },
    /// A producer's dedup window, `window [a..b c..d]`.
    Window {
        tp: TopicPartition,
        producer_id: Option<i64>,
    },
    /// The producer ids a partition remembers.
    Producers { tp: TopicPartition },
    /// `log end offset N`.
    Leo { tp: TopicPartition },
    /// Leader, epoch, ISR, and each replica's LEO/HW/LSO and epochs.
    Replicas { tp: TopicPartition },
    /// LEO and HW.
    Offsets { tp: TopicPartition },
    /// The files in the partition folder.
    Files {
        tp: TopicPartition,
        /// `print files broker-N TOPIC-P`: that broker's replica (default: the leader's).
        broker: Option<i32>,
    },
    /// The number of segments.
    Segments {
        tp: TopicPartition,
        broker: Option<i32>,
    },
    /// The producer-state snapshot files.
    Snapshots {
        tp: TopicPartition,
        broker: Option<i32>,
    },
    /// The last broker decision on the partition, as a window-table row.
    Verdict { tp: TopicPartition },
    /// The narrated events, all or the last N.
    Events { last: Option<usize> },
    /// `kafka-dump-log.sh --cluster-metadata-decoder` over `__cluster_metadata`: the
    /// controller's records, all or the last N (feature `metadata-log`).
    #[cfg(feature = "metadata-log")]
    Metadata { last: Option<usize> },
    /// `kafka-metadata-quorum.sh describe --status` and `--replication`: the
    /// controller quorum's leader, epoch, high watermark and each voter's log end and
    /// lag (feature `metadata-log`).
    #[cfg(feature = "metadata-log")]
    Quorum,
    /// `kafka-transactions.sh describe-producers`.
    DescribeProducers { tp: TopicPartition },
    /// `kafka-transactions.sh find-hanging --topic T --partition P`.
    FindHanging { tp: TopicPartition },
    /// `check`: what the invariant checker found so far (`crate::checker`, feature
    /// `checker`).
    #[cfg(feature = "checker")]
    Violations,
    /// `check` in a build without the checker (the sites): the verdict recorded in the
    /// `---` block right under it, printed as written. A chaos finding's replay carries
    /// one (`crate::checker::replay`); `check` without a block is refused there.
    #[cfg(not(feature = "checker"))]
    RecordedCheck(Vec<String>),
}

/// How a raw produce shows its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Show {
    /// `seq a..b (label) -> error=… baseOffset=…` (seed 000's program output).
    Line,
    /// A row of the window table: sequence, verdict, base offset, window after.
    Row,
    /// The verdict with its numbers, base offset and log end offset.
    Verdict,
    Nothing,
}

/// A producer id or epoch given as a number or as `last` (the last raw InitProducerId).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum IdRef {
    Value(i64),
    Last,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum StepKind {
    /// The cluster's shape; only before every other step.
    Cluster(ClusterConfig),
    Act(Action),
    /// A raw produce whose pid/epoch may refer to the last InitProducerId.
    RawProduce {
        tp: TopicPartition,
        pid: IdRef,
        epoch: IdRef,
        seq: i32,
        /// `txn=ID`: a transactional batch for that transactional id.
        txn: Option<String>,
        values: Vec<String>,
        label: Option<String>,
        show: Show,
    },
    Print(View),
    Echo(String),
    /// A `pulsar …` step: the Pulsar world beside the Kafka one.
    #[cfg(feature = "pulsar")]
    Pulsar(super::pulsar::PulsarStep),
}

/// One line of a scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// 1-based source line.
    pub line: usize,
    /// The source line as written (trimmed).
    pub text: String,
    pub kind: StepKind,
    /// `## Title` lines just above the step: what the lesson player shows as its heading.
    pub title: Option<String>,
    /// `> text` lines just above the step, as paragraphs: the narration for learners.
    pub narration: Vec<String>,
    /// The same in other languages: `## [ko] …` and `> [ko] …` lines beside the
    /// English ones (one entry per language that has any).
    pub translations: Vec<StepText>,
    /// `?` questions asked before the step (`question.rs`): predict, then reveal.
    pub questions: Vec<crate::scenario::question::Question>,
}

/// A step's title and narration in one language other than English.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepText {
    pub lang: crate::i18n::Lang,
    pub title: Option<String>,
    pub narration: Vec<String>,
    /// An `echo` step's text, or a raw produce's `label=`, in this language (`echo [ko] …`
    /// or `label [ko] …` right under the step): the lesson's own printed words.
    pub printed: Option<String>,
}

impl Step {
    fn text_in(&self, lang: crate::i18n::Lang) -> Option<&StepText> {
        self.translations.iter().find(|t| t.lang == lang)
    }

    /// The title in `lang`, else in English.
    pub fn title_in(&self, lang: crate::i18n::Lang) -> Option<&str> {
        self.text_in(lang)
            .and_then(|t| t.title.as_deref())
            .or(self.title.as_deref())
    }

    /// The narration in `lang`, else in English.
    pub fn narration_in(&self, lang: crate::i18n::Lang) -> &[String] {
        match self.text_in(lang) {
            Some(t) if !t.narration.is_empty() => &t.narration,
            _ => &self.narration,
        }
    }

    /// Whether `line` (`echo [ko] …`, `label [ko] …`) translates what this step prints.
    pub(super) fn prints_text_of(&self, line: &str) -> bool {
        match &self.kind {
            StepKind::Echo(_) => line.starts_with("echo "),
            StepKind::RawProduce { label, .. } => label.is_some() && line.starts_with("label "),
            _ => false,
        }
    }

    /// An `echo` step's text in `lang`, else in English.
    pub fn echo_in(&self, lang: crate::i18n::Lang) -> Option<&str> {
        let StepKind::Echo(english) = &self.kind else {
            return None;
        };
        Some(self.printed_in(lang).unwrap_or(english))
    }

    /// A raw produce's `label=` in `lang`, else in English.
    pub fn label_in(&self, lang: crate::i18n::Lang) -> Option<&str> {
        let StepKind::RawProduce { label, .. } = &self.kind else {
            return None;
        };
        let english = label.as_deref()?;
        Some(self.printed_in(lang).unwrap_or(english))
    }

    fn printed_in(&self, lang: crate::i18n::Lang) -> Option<&str> {
        self.text_in(lang).and_then(|t| t.printed.as_deref())
    }

    /// What English has here and `lang` lacks: "title", "narration" (for
    /// `eos lessons --missing`).
    pub fn missing_in(&self, lang: crate::i18n::Lang) -> Vec<&'static str> {
        let mut out = Vec::new();
        if lang == crate::i18n::Lang::En {
            return out;
        }
        let t = self.text_in(lang);
        if self.title.is_some() && t.and_then(|t| t.title.as_ref()).is_none() {
            out.push("title");
        }
        if !self.narration.is_empty() && t.is_none_or(|t| t.narration.is_empty()) {
            out.push("narration");
        }
        let prints_words = match &self.kind {
            // Words outside the `{placeholders}` (which are worded in every language).
            StepKind::Echo(text) => text
                .split('{')
                .map(|part| part.split_once('}').map_or(part, |(_, after)| after))
                .any(|part| part.chars().any(char::is_alphabetic)),
            StepKind::RawProduce { label, .. } => label.is_some(),
            _ => false,
        };
        if prints_words && t.and_then(|t| t.printed.as_ref()).is_none() {
            out.push(match self.kind {
                StepKind::Echo(_) => "echo",
                _ => "label",
            });
        }
        for q in &self.questions {
            out.extend(q.missing_in(lang));
        }
        out
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Scenario {
    pub steps: Vec<Step>,
}
