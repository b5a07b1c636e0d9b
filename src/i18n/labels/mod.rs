//! The UI labels: every label, button, heading and verdict text a learner sees.
//!
//! Components only ever call [`t`] or [`tf`] with a [`Key`]; the text of a key is the
//! line `Key = text` of the language's catalog file (`catalog/en.txt`, labels section),
//! so Korean and Thai add a file, not a component change. Templates use numbered
//! placeholders (`{0}`, `{1}`) so a translation can put the numbers in another order.

use super::Lang;
use crate::log::SeqDirection;

/// Declares [`Key`] and [`Key::ALL`] from one list, so tests can walk every key.
macro_rules! keys {
    ($($key:ident,)*) => {
        /// One message in the catalog.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Key {
            $($key,)*
        }

        impl Key {
            /// Every key, in declaration order.
            pub const ALL: &'static [Key] = &[$(Key::$key,)*];

            /// The key's id in the catalog files: its name.
            pub fn id(self) -> &'static str {
                match self {
                    $(Key::$key => stringify!($key),)*
                }
            }
        }
    };
}

keys! {
    // Page
    Title,
    Subtitle,
    Clock,
    ShowingPlayground,
    ShowingLesson,
    // Producer panel
    ProducerHeading,
    ProducerIntro,
    RecordsLabel,
    RecordsHint,
    SendButton,
    SendButtonStep,
    StepMode,
    StepModeHint,
    StepButton,
    RunButton,
    DropAckButton,
    DropRequestButton,
    FaultsArmed,
    NoFaults,
    ProducerStatus,
    ProducerNoId,
    InFlight,
    LessonLocksControls,
    // Raw panel
    RawHeading,
    RawIntro,
    RawPid,
    RawEpoch,
    RawSeq,
    RawRecords,
    RawSend,
    RawInitPid,
    RawOutput,
    RawExpectedNext,
    RawExpectedFirst,
    // Validation
    ErrEmpty,
    ErrNotNumber,
    ErrNegative,
    ErrTooBig,
    ErrEmptyRecord,
    // Broker panel
    BrokerHeading,
    BrokerOnline,
    BrokerOffline,
    RestartClean,
    RestartCrash,
    RestartHint,
    Snapshots,
    SnapshotsHint,
    RecoveryHeading,
    RecoveryNone,
    RecoverySnapshot,
    RecoveryScan,
    RecoveryWindows,
    RecoveryNoWindows,
    StoppedClean,
    StoppedCrash,
    // Partition panel
    PartitionHeading,
    PartitionSelect,
    Leo,
    LeoHint,
    Hw,
    HwHint,
    NoPartition,
    // Verdict
    VerdictHeading,
    VerdictNone,
    VerdictAt,
    VerdictAppend,
    VerdictAppendText,
    VerdictDuplicate,
    VerdictDuplicateText,
    VerdictOutOfOrder,
    // Out of order: ahead of the expected sequence (a gap), behind it (a stale retry),
    // or either (the text for a verdict that does not say which).
    VerdictOutOfOrderText,
    VerdictSequenceGapText,
    VerdictStaleSequenceText,
    VerdictEpoch,
    VerdictEpochText,
    VerdictOtherText,
    Unknown,
    // Window
    WindowHeading,
    WindowCaption,
    WindowProducer,
    WindowSlot,
    WindowEmptySlot,
    WindowNone,
    WindowSeq,
    WindowOffsets,
    WindowNewest,
    WindowOldest,
    // Log
    LogHeading,
    LogCaption,
    LogOffsets,
    LogRecords,
    LogProducerId,
    LogEpoch,
    LogBaseSeq,
    LogBytes,
    LogShowBytes,
    LogHideBytes,
    LogEmpty,
    LogLeoRow,
    LogSegment,
    LogFiles,
    TagNew,
    TagOriginal,
    // Header bytes
    BytesHeading,
    BytesCaption,
    BytesField,
    BytesRange,
    BytesHex,
    BytesValue,
    // Events
    EventsHeading,
    EventsShowNetwork,
    EventsEmpty,
    EventsNewestFirst,
    // Lessons
    LessonHeading,
    LessonSelect,
    LessonNoneOption,
    LessonIntro,
    LessonStepOf,
    LessonNotStarted,
    LessonNext,
    LessonPrev,
    LessonReset,
    LessonDone,
    LessonOutput,
    LessonNoOutput,
    LessonError,
    LessonSource,
    // Misc
    ResetPlayground,
    ActionFailed,
    On,
    Off,
    LessonWhy,
    // Nav
    NavLabel,
    NavIdempotence,
    NavTransactions,
    NavPulsar,
    // Transactions page
    TxTitle,
    TxSubtitle,
    TxLessonLocks,
    TxNoProducers,
    TxProducerIntro,
    TxProducerId,
    TxProducerNoId,
    TxStateUninitialized,
    TxStateReady,
    TxStateInTransaction,
    TxStateAbortable,
    TxStateFatal,
    TxStateBusy,
    TxInTransaction,
    TxInit,
    TxBegin,
    TxSend,
    TxCommit,
    TxAbort,
    TxRecordsHint,
    TxNoOutcome,
    TxOutcomeOk,
    TxOutcomeFailed,
    TxOutcomeRefused,
    TxRefusedExplain,
    TxFencedExplain,
    TxInvalidStateExplain,
    FenceButton,
    FenceAgain,
    FenceHint,
    MarkersHeading,
    MarkersFlowing,
    MarkersHolding,
    MarkersHeld,
    HoldMarkers,
    ReleaseMarkers,
    HoldHint,
    AdvanceButton,
    AdvanceHint,
    TxLeaderIs,
    Lso,
    LsoHint,
    LsoHeld,
    LsoFree,
    LegendLabel,
    KindCommitted,
    KindAborted,
    KindOpen,
    KindCommitMarker,
    KindAbortMarker,
    KindPlain,
    KindCommittedShort,
    KindAbortedShort,
    KindOpenShort,
    KindCommitMarkerShort,
    KindAbortMarkerShort,
    KindPlainShort,
    StripLabel,
    StripNext,
    StripLsoEarlier,
    TxLogCaption,
    TxLogWindow,
    TxLogWhat,
    TxLogEpoch,
    TxLogSeq,
    TxLogPid,
    TxIndexHeading,
    TxIndexCaption,
    TxIndexEmpty,
    ConsumersHeading,
    ConsumersIntro,
    ConsumersNone,
    ConsumerReadsToLso,
    ConsumerReadsToHw,
    PollButton,
    ConsumerPosition,
    ConsumerGot,
    ConsumerNothing,
    ConsumerRecordsLabel,
    ConsumerMore,
    ConsumerGaps,
    ConsumerWaitsAtLso,
    CoordHeading,
    CoordNone,
    CoordFor,
    CoordCurrent,
    CoordIdEpoch,
    CoordEmpty,
    CoordOngoing,
    CoordPrepare,
    CoordComplete,
    CoordFence,
    CoordDead,
    CoordOpenFor,
    DiagramLabel,
    DiagramCaption,
    TxStateLogHeading,
    TxStateLogCaption,
    TxLastEpoch,
    TxStatusCol,
    TxStateLogJson,
    TlHeading,
    TlIntro,
    TlShowing,
    TlEmpty,
    TlRequest,
    TlResponse,
    TlLost,
    TlHeld,
    // Time travel
    TtHeading,
    TtEmpty,
    TtAt,
    TtAtStart,
    TtStartItem,
    TtBack,
    TtForward,
    TtPlay,
    TtPause,
    TtSlider,
    TtBranchWarn,
    TtForked,
    TtKeysHint,
    // Keyboard shortcuts
    KsButton,
    KsHeading,
    KsKeyCol,
    KsWhatCol,
    KsBack,
    KsForward,
    KsSpace,
    KsPlay,
    KsOpen,
    KsClose,
    KsNote,
    KsCloseButton,
    LessonPlay,
    SharedScenarioTitle,
    CopyLink,
    LinkCopied,
    LinkSelect,
    LinkPending,
    LinkLabel,
    LinkBad,
    LinkRefused,
    LinkClose,
    EmbedNoLesson,
    EmbedHostLesson,
    FileLabel,
    FileHint,
    FileError,
    FileTooBig,
    FileNoSteps,
    LessonErrorHelp,
    UrlNoLesson,
    UrlBadStep,
    UrlBadPage,
    SkipToMain,
    ResetHint,
    TlScrollLabel,
}

/// The verdict text for OUT_OF_ORDER_SEQUENCE_NUMBER (`{0}` expected, `{1}` got): a gap
/// and a stale retry get the same error from Kafka but need different words.
pub fn out_of_order_text(direction: Option<SeqDirection>) -> Key {
    match direction {
        Some(SeqDirection::Ahead) => Key::VerdictSequenceGapText,
        Some(SeqDirection::Behind) => Key::VerdictStaleSequenceText,
        None => Key::VerdictOutOfOrderText,
    }
}

/// The text of a message in `lang`.
pub fn text(key: Key, lang: Lang) -> &'static str {
    super::catalog::text(key.id(), lang)
}

/// The text of a message in the UI's language.
pub fn t(key: Key) -> &'static str {
    text(key, Lang::En)
}

/// A template with `{0}`, `{1}`, … replaced by `args`.
pub fn tf(key: Key, args: &[&str]) -> String {
    let mut out = t(key).to_string();
    for (i, a) in args.iter().enumerate() {
        out = out.replace(&format!("{{{i}}}"), a);
    }
    out
}
