//! Why a scenario step was refused, as data: the world's [`SimError`], or what the
//! runner itself checks (a `last` id with no InitProducerId before it, an echo's
//! placeholder, a Pulsar step the Pulsar world refused). A refused step changes
//! nothing. The edge words it from the catalog in the reader's language
//! ([`RunError::in_lang`]); `Display` is the English line `eos run` prints.

use std::fmt;

use crate::i18n::{Lang, Msg};
use crate::msg;
#[cfg(feature = "pulsar")]
use crate::pulsar::PulsarStepError;
use crate::scenario::ParseError;
use crate::sim::SimError;

/// A step the runner refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The world refused the action.
    Sim(SimError),
    /// `pid=last` or `epoch=last` before a successful `raw init-producer-id`.
    NoLastProducer,
    /// An `epoch=` outside Kafka's 16-bit epoch.
    EpochOutOfRange,
    /// An echo line (the text) with a `{` and no `}`.
    EchoUnclosed(String),
    /// An echo placeholder (what is inside the braces) the runner does not know.
    EchoUnknown(String),
    /// An echo placeholder naming a client or partition that is not there.
    EchoNoTarget(String),
    /// A `check` in a run made without a checker (`Runner::watched`): a programming
    /// error, never a learner's.
    NoChecker,
    /// A Pulsar step the Pulsar world refused, or a view of something it does not have.
    #[cfg(feature = "pulsar")]
    Pulsar(PulsarStepError),
}

/// A refused step and the scenario line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    pub line: usize,
    pub error: StepError,
}

/// A scenario that did not parse, or a step of it that was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    Parse(ParseError),
    Run(RunError),
}

impl From<SimError> for StepError {
    fn from(e: SimError) -> Self {
        StepError::Sim(e)
    }
}

impl StepError {
    /// The message, not yet in a language.
    pub fn msg(&self) -> Msg {
        match self {
            StepError::Sim(e) => crate::i18n::narration::sim_error_msg(e),
            StepError::NoLastProducer => Msg::new("run.no-last"),
            StepError::EpochOutOfRange => Msg::new("run.epoch-range"),
            StepError::NoChecker => Msg::new("run.no-checker"),
            StepError::EchoUnclosed(text) => msg!("run.echo-unclosed", text = text),
            StepError::EchoUnknown(inner) => msg!("run.echo-unknown", inner = inner),
            StepError::EchoNoTarget(inner) => msg!("run.echo-no-target", inner = inner),
            #[cfg(feature = "pulsar")]
            StepError::Pulsar(e) => crate::i18n::narration::pulsar_step_error_msg(e),
        }
    }

    /// Why, in `lang` (without the line).
    #[inline(never)]
    pub fn in_lang(&self, lang: Lang) -> String {
        crate::i18n::catalog::render(&self.msg(), lang)
    }
}

impl RunError {
    /// `line N: why`, not yet in a language.
    pub fn msg(&self) -> Msg {
        msg!("run.at", line = self.line, why = self.error.msg())
    }

    /// `line N: why` in `lang`.
    #[inline(never)]
    pub fn in_lang(&self, lang: Lang) -> String {
        crate::i18n::catalog::render(&self.msg(), lang)
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.in_lang(Lang::En))
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Parse(e) => e.fmt(f),
            ScenarioError::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StepError {}
impl std::error::Error for RunError {}
impl std::error::Error for ScenarioError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::share::tests::worded_in_every_language;

    /// The runner's own refusals, and the window table's line for a partition no batch
    /// has reached, in the reader's language.
    #[test]
    fn the_runner_words_its_refusals_in_every_language() {
        for e in [
            StepError::NoLastProducer,
            StepError::EpochOutOfRange,
            StepError::EchoUnclosed("{producer p".into()),
            StepError::EchoUnknown("frob p".into()),
            StepError::EchoNoTarget("producer q".into()),
            StepError::NoChecker,
        ] {
            worded_in_every_language(&RunError { line: 3, error: e }.msg());
        }
        let [en, ko, th] = worded_in_every_language(&msg!("transcript.no-batch", tp = "orders-0"));
        assert_eq!(en, "orders-0: no batch yet");
        assert_eq!(ko, "orders-0: 아직 배치가 없습니다");
        assert_eq!(th, "orders-0: ยังไม่มี batch");
    }
}
