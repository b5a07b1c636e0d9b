//! Runs a scenario against a world, one step at a time, collecting the transcript.

mod error;
#[cfg(feature = "pulsar")]
mod pulsar;
mod view;

pub use error::{RunError, ScenarioError, StepError};

use super::parse::{IdRef, Scenario, Show, Step, StepKind, View};
use super::watch::MakeWatch;
#[cfg(feature = "checker")]
use super::watch::Watch;
use crate::broker::broker::BrokerEvent;
use crate::i18n::narration::transcript_notice;
use crate::i18n::transcript;
use crate::i18n::Lang;
use crate::protocol::Response;
use crate::sim::{Action, ClusterConfig, World};

/// A scenario being played: the world, where we are, and what was printed so far.
#[derive(Clone, Debug)]
pub struct Runner {
    pub world: World,
    scenario: Scenario,
    next: usize,
    transcript: Vec<String>,
    /// Producer id and epoch from the last raw InitProducerId (`pid=last`).
    last_producer: Option<(i64, i16)>,
    /// The Pulsar world, made by the first `pulsar` step.
    #[cfg(feature = "pulsar")]
    pulsar: Option<crate::pulsar::PulsarWorld>,
    /// How many Pulsar events `pulsar print timeline` has shown.
    #[cfg(feature = "pulsar")]
    pulsar_seen: usize,
    /// The language of the narration it prints (`print events`, failure notices).
    lang: Lang,
    /// How many fresh worlds a later `cluster` line has started: the world's event
    /// indices start again from 0 in each.
    generation: u32,
    /// The invariant checker, fed after every step (`check` prints what it found). Only a
    /// scenario with a `check` step run with a [`MakeWatch`] carries one: it re-reads
    /// every partition that grew, which a page preloaded with 10,000 batches (`?bench=`)
    /// cannot afford per click.
    #[cfg(feature = "checker")]
    checker: Option<Box<dyn Watch>>,
    /// What made the checker: a later `cluster` line's fresh world gets a fresh one.
    #[cfg(feature = "checker")]
    make_watch: Option<MakeWatch>,
}

impl Runner {
    /// A fresh world shaped by the scenario's `cluster` line (or the default cluster),
    /// without a checker: a `check` step fails (see [`Runner::watched`]).
    pub fn new(scenario: Scenario) -> Runner {
        Runner::watched(scenario, None)
    }

    /// As [`Runner::new`], with the watcher `watch` makes fed after every step when the
    /// scenario has a `check` step (`crate::checker::watch`).
    #[cfg_attr(not(feature = "checker"), allow(unused_variables))]
    pub fn watched(scenario: Scenario, watch: Option<MakeWatch>) -> Runner {
        let config = match scenario.steps.first().map(|s| &s.kind) {
            Some(StepKind::Cluster(c)) => c.clone(),
            _ => ClusterConfig::default(),
        };
        #[cfg(feature = "checker")]
        let checks = scenario
            .steps
            .iter()
            .any(|s| matches!(s.kind, StepKind::Print(View::Violations)));
        Runner {
            world: World::new(config),
            scenario,
            next: 0,
            transcript: Vec::new(),
            last_producer: None,
            #[cfg(feature = "pulsar")]
            pulsar: None,
            #[cfg(feature = "pulsar")]
            pulsar_seen: 0,
            lang: Lang::En,
            generation: 0,
            #[cfg(feature = "checker")]
            checker: watch.filter(|_| checks).map(|make| make()),
            #[cfg(feature = "checker")]
            make_watch: watch.filter(|_| checks),
        }
    }

    /// Narrates in `lang` from now on (`eos run --lang`); the engine's own output lines
    /// (Kafka's tool formats) stay as they are.
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
    }
    /// The language it narrates in (and words a refused step in, [`RunError::in_lang`]).
    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    pub fn next_index(&self) -> usize {
        self.next
    }
    pub fn is_done(&self) -> bool {
        self.next >= self.scenario.steps.len()
    }
    pub fn transcript(&self) -> &[String] {
        &self.transcript
    }
    pub fn current_step(&self) -> Option<&Step> {
        self.scenario.steps.get(self.next)
    }

    /// Which world the steps run in: 0 for the first, one more for each later
    /// `cluster` line played.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// Runs the next step; returns the lines it printed. An error names the line and
    /// leaves the runner on that step.
    pub fn step(&mut self) -> Result<Vec<String>, RunError> {
        let Some(step) = self.scenario.steps.get(self.next).cloned() else {
            return Ok(Vec::new());
        };
        let lines = self.run_step(&step).map_err(|error| RunError {
            line: step.line,
            error,
        })?;
        self.next += 1;
        #[cfg(feature = "checker")]
        if let Some(checker) = &mut self.checker {
            checker.observe(&self.world, self.next);
        }
        self.transcript.extend(lines.iter().cloned());
        Ok(lines)
    }

    /// Moves past the current step without running it (after it failed: a refused step
    /// changes nothing, so a test can show the error and carry on).
    pub fn skip(&mut self) {
        self.next = (self.next + 1).min(self.scenario.steps.len());
    }

    fn run_step(&mut self, step: &Step) -> Result<Vec<String>, StepError> {
        match &step.kind {
            // The first `cluster` line shaped the world in `Runner::new`; a later one
            // ends that world and starts a fresh one with its settings (a lesson's second
            // half under another transaction.version). Nothing carries over: clients,
            // `pid=last` and the checker's history belong to the world that ended.
            StepKind::Cluster(config) => {
                if self.next > 0 {
                    self.world = World::new(config.clone());
                    self.last_producer = None;
                    self.generation += 1;
                    #[cfg(feature = "checker")]
                    if let Some(make) = self.make_watch {
                        self.checker = Some(make());
                    }
                }
                Ok(Vec::new())
            }
            StepKind::Echo(_) => {
                let text = step.echo_in(self.lang).unwrap_or_default();
                Ok(vec![interpolate(&self.world, text, self.lang)?])
            }
            StepKind::Act(action) => self.run_act(action),
            StepKind::RawProduce {
                tp,
                pid,
                epoch,
                seq,
                txn,
                values,
                label: _,
                show,
            } => {
                let label = step.label_in(self.lang);
                let (producer_id, producer_epoch) = self.resolve_producer(pid, epoch)?;
                let events_before = self.world.events().len();
                let outcome = self.world.raw_produce(
                    tp,
                    producer_id,
                    producer_epoch,
                    *seq,
                    txn.as_deref(),
                    values,
                    label,
                )?;
                Ok(match show {
                    Show::Line => outcome.lines,
                    Show::Row => self.view(&View::Verdict { tp: tp.clone() }),
                    Show::Verdict => verdict_lines(
                        &self.world,
                        tp,
                        events_before,
                        outcome.response.as_ref(),
                        self.lang,
                    ),
                    Show::Nothing => Vec::new(),
                })
            }
            // Only a run started with a watcher checks (a programming error, never a
            // learner's: every front end that runs `check` hands one over).
            #[cfg(feature = "checker")]
            StepKind::Print(View::Violations) if self.checker.is_none() => {
                Err(StepError::NoChecker)
            }
            // A `check` that ends the scenario: the run is over, so the end-of-run checks
            // run too (`unseen`, the read-based `lost-write`, `ctp-exactly-once`), as at
            // the end of a chaos run, and a finding's replay shows what the search found.
            #[cfg(feature = "checker")]
            StepKind::Print(View::Violations) if self.next + 1 == self.scenario.steps.len() => {
                if let Some(checker) = &mut self.checker {
                    checker.finish(&self.world, self.next);
                }
                Ok(self.view(&View::Violations))
            }
            StepKind::Print(view) => Ok(self.view(view)),
            #[cfg(feature = "pulsar")]
            StepKind::Pulsar(step) => self.run_pulsar(step).map_err(StepError::Pulsar),
        }
    }

    /// An action applied to the world, with the notices of what it caused.
    fn run_act(&mut self, action: &Action) -> Result<Vec<String>, StepError> {
        let before = self.world.events().len();
        let mut lines = match action {
            // Its retry line is worded in the reader's language.
            Action::RawInitProducerId => {
                transcript::raw_lines(self.world.raw_init_producer_id(), self.lang)
            }
            _ => self.world.apply(action)?,
        };
        // A send that failed for good, or a run cut short, shows verbose or not.
        lines.extend(
            self.world.events()[before..]
                .iter()
                .filter_map(|e| transcript_notice(e, self.lang)),
        );
        if let Action::RawInitProducerId = action {
            self.last_producer = self.world_last_init();
        }
        Ok(lines)
    }

    /// The producer id and epoch of a `raw produce`: as written, or `last` (the last raw
    /// InitProducerId's).
    fn resolve_producer(&self, pid: &IdRef, epoch: &IdRef) -> Result<(i64, i16), StepError> {
        let resolve = |r: &IdRef, pick: fn((i64, i16)) -> i64| match r {
            IdRef::Value(v) => Ok(*v),
            IdRef::Last => self
                .last_producer
                .map(pick)
                .ok_or(StepError::NoLastProducer),
        };
        let producer_id = resolve(pid, |p| p.0)?;
        let producer_epoch = i16::try_from(resolve(epoch, |p| i64::from(p.1))?)
            .map_err(|_| StepError::EpochOutOfRange)?;
        Ok((producer_id, producer_epoch))
    }

    /// The producer id the last raw InitProducerId returned, read from the events.
    fn world_last_init(&self) -> Option<(i64, i16)> {
        self.world
            .events()
            .iter()
            .rev()
            .find_map(|e| match &e.kind {
                crate::sim::EventKind::Broker {
                    event:
                        BrokerEvent::ProducerIdAssigned {
                            producer_id,
                            producer_epoch,
                        },
                    ..
                } => Some((*producer_id, *producer_epoch)),
                _ => None,
            })
    }
}

/// Fills `{producer NAME}`, `{outcome NAME}`, `{consumed NAME}` and `{latest TP}`
/// in an echo line with what the engine says now.
fn interpolate(w: &World, text: &str, lang: Lang) -> Result<String, StepError> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| StepError::EchoUnclosed(text.to_string()))?;
        let inner = &after[..close];
        let (what, arg) = inner.split_once(' ').unwrap_or((inner, ""));
        let value = match what {
            "producer" => w.producers().get(arg).map(|p| p.id_text()),
            "outcome" => w.producers().get(arg).map(|p| {
                let outcome = p.last_txn_outcome().map(|o| o.exception_name());
                crate::i18n::transcript::outcome(outcome.as_ref().map(Option::as_deref), lang)
            }),
            "consumed" => consumed_line(w, arg, lang),
            "records" => w.consumers().get(arg).map(|c| {
                let items: Vec<String> = c
                    .records()
                    .iter()
                    .map(|r| format!("{}@{}", r.value_text(), r.offset))
                    .collect();
                format!("[{}]", items.join(", "))
            }),
            "took" => w.producers().get(arg).map(|p| p.last_call_ms().to_string()),
            "latest" => crate::log::TopicPartition::parse(arg).map(|tp| latest_line(w, &tp, lang)),
            _ => return Err(StepError::EchoUnknown(inner.to_string())),
        };
        out.push_str(&value.ok_or_else(|| StepError::EchoNoTarget(inner.to_string()))?);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// `latest offset read_uncommitted=7 (high watermark), read_committed=4 (LSO)`.
fn latest_line(w: &World, tp: &crate::log::TopicPartition, lang: Lang) -> String {
    use crate::log::FetchIsolation;
    match (
        w.latest_offset(tp, FetchIsolation::HighWatermark),
        w.latest_offset(tp, FetchIsolation::TxnCommitted),
    ) {
        (Some(hw), Some(lso)) => crate::i18n::transcript::latest(hw, lso, lang),
        _ => crate::i18n::transcript::no_partition(&tp.to_string(), lang),
    }
}

/// `got 5 records: c1@0 c2@1 … (position 11)`: what a consumer got so far.
fn consumed_line(w: &World, name: &str, lang: Lang) -> Option<String> {
    let c = w.consumers().get(name)?;
    let records = c.records();
    let positions: Vec<String> = c.positions().values().map(|p| p.to_string()).collect();
    Some(crate::i18n::transcript::consumed(
        records.len(),
        &crate::client::consumer::summary_line(records),
        &positions.join(", "),
        lang,
    ))
}

/// A short verdict name with the numbers that explain it.
pub fn verdict_text(event: &BrokerEvent, lang: Lang) -> String {
    match event {
        BrokerEvent::BatchAppended { .. } => "APPEND".into(),
        BrokerEvent::BatchDuplicate {
            first_offset,
            last_offset,
            ..
        } => transcript::duplicate(*first_offset, *last_offset, lang),
        BrokerEvent::BatchRejected {
            error,
            expected_seq: Some(e),
            first_seq,
            ..
        } => transcript::expected_sequence(error.name(), *e, *first_seq, lang),
        BrokerEvent::BatchRejected {
            error,
            current_epoch: Some(c),
            producer_epoch,
            ..
        } => transcript::older_epoch(error.name(), *producer_epoch, *c, lang),
        BrokerEvent::BatchRejected { error, .. } => error.name().to_string(),
        _ => String::new(),
    }
}

/// The verdict, base offset and log end offset after a raw produce.
fn verdict_lines(
    w: &World,
    tp: &crate::log::TopicPartition,
    events_before: usize,
    response: Option<&Response>,
    lang: Lang,
) -> Vec<String> {
    use crate::i18n::transcript;
    let leo = w.log_view(tp).map_or(-1, |v| v.log_end_offset);
    // Only a verdict this request caused: a Produce refused before the log (a failed
    // transaction verification, say) has none.
    let verdict = w
        .last_verdict(tp)
        .filter(|_| w.last_verdict_index(tp).is_some_and(|i| i >= events_before));
    match (verdict, response) {
        (
            event,
            Some(Response::Produce {
                error, base_offset, ..
            }),
        ) => vec![
            transcript::verdict(event.map(|e| verdict_text(e, lang)).as_deref(), lang),
            transcript::response(
                &format!("error={} baseOffset={base_offset}", error.name()),
                lang,
            ),
            transcript::log_end_offset(leo, lang),
        ],
        _ => vec![
            transcript::no_response(lang),
            transcript::log_end_offset(leo, lang),
        ],
    }
}
