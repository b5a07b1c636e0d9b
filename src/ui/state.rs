//! The app state: one [`Reducible`] over the world (and the lesson runner when a lesson
//! is loaded). Every engine change goes through [`AppState::reduce`]; components only
//! read views and send [`Msg`]s.
//!
//! The world lives behind `Rc<RefCell<…>>` so a message can change it in place (a
//! world is too big to clone on every click) while the reducer still returns a *new*
//! `Rc<AppState>` with a bumped `version` — since yew 0.23 returning the same `Rc`
//! does not re-render.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::log::TopicPartition;
use crate::scenario::{self, Runner};
use crate::sim::{Action, ClusterConfig, World};
use crate::view::history::History;

/// The share box: the link made by "Copy link", and whether the clipboard took it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkBox {
    pub url: String,
    /// None while the clipboard has not answered; Some(false): select the field instead.
    pub copied: Option<bool>,
}

/// The producer the page starts with.
pub const PRODUCER: &str = "producer-1";
/// The topic the page starts with.
pub const TOPIC: &str = "orders";

/// The transactions page: its two producers share one transactional.id.
pub const TXN_PRODUCER: &str = "producer-1";
/// The producer that "Start a second producer" creates (same transactional.id: it fences).
pub const TXN_PRODUCER_2: &str = "producer-2";
pub const TXN_ID: &str = "tx-1";
/// The transactions page's topic (one partition).
pub const TXN_TOPIC: &str = "payments";
/// The two consumers of the transactions page, one per isolation level.
pub const CONSUMER_RC: &str = "reader-rc";
pub const CONSUMER_RU: &str = "reader-ru";
/// The (non-transactional) producer that `?bench=N` uses to preload N batches.
pub const BENCH_PRODUCER: &str = "bench-loader";
/// "Advance the clock": past transaction.timeout.ms (60 s) and the coordinator's next
/// 10-second check, so one click lets the timeout abort an open transaction.
pub const ADVANCE_MS: i64 = 70_000;

/// Which page is shown (the URL fragment `#transactions` selects the second one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Page {
    #[default]
    Idempotence,
    Transactions,
}

impl Page {
    /// The URL fragment (without `#`) of the page.
    pub fn fragment(self) -> &'static str {
        match self {
            Page::Idempotence => "idempotence",
            Page::Transactions => "transactions",
        }
    }

    /// The page a URL fragment names (`#transactions`, `transactions`); anything else is
    /// the first page.
    pub fn from_fragment(hash: &str) -> Page {
        match hash.trim_start_matches('#') {
            "transactions" => Page::Transactions,
            _ => Page::Idempotence,
        }
    }
}

/// Where a refused transactions-page action is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TxnErrorAt {
    Producer(String),
    Consumer(String),
    Cluster,
}

/// A lesson being played.
pub struct LessonState {
    /// Index into `scenario::lessons()`; None for a scenario from a link, a host page
    /// or the learner's own file.
    pub index: Option<usize>,
    /// The lesson's title (a built-in lesson's, or a name for the other kinds).
    pub title: String,
    /// The scenario text (what a share link carries).
    pub source: String,
    /// The parsed scenario (replayed from the start to step back).
    pub scenario: scenario::Scenario,
    pub runner: Runner,
    /// Output of each step run so far (index = step index).
    pub outputs: Vec<Vec<String>>,
    /// Why the last step failed, or the script did not parse.
    pub error: Option<String>,
}

/// Everything the UI knows.
pub struct AppState {
    /// The learner's own playground world.
    pub world: Rc<RefCell<World>>,
    /// The lesson being played, if any; while loaded, the panels show its world.
    pub lesson: Rc<RefCell<Option<LessonState>>>,
    /// The partition the panels show (falls back to the world's first partition).
    pub selected_tp: Option<TopicPartition>,
    /// The batch whose header bytes are open: (segment base offset, position).
    pub selected_batch: Option<(i64, u64)>,
    /// Step-by-step mode: Send only accumulates.
    pub step_mode: bool,
    /// Why the last action was refused (SimError's Display), shown near the controls.
    pub error: Option<String>,
    /// Transcript lines of the last raw request.
    pub raw_lines: Vec<String>,
    /// The transactions page's own world (three brokers: the partition leader and the
    /// transaction coordinator are different brokers, so the timeline shows who asks whom).
    pub txn_world: Rc<RefCell<World>>,
    /// The page shown.
    pub page: Page,
    /// Why the last transactions-page action was refused, and at which control.
    pub txn_error: Option<(TxnErrorAt, String)>,
    /// `?bench=N`: the transactions world was preloaded with N batches (the page then
    /// reports its render times to `window.__eosRenderedAt`).
    pub bench: Option<usize>,
    /// The learner's actions on the idempotence page (time travel).
    pub history: Rc<RefCell<History>>,
    /// The learner's actions on the transactions page (time travel).
    pub txn_history: Rc<RefCell<History>>,
    /// A new action after stepping back dropped this many recorded actions.
    pub forked: Option<usize>,
    /// Auto-play: step through the recorded actions (or the lesson) once a second.
    pub playing: bool,
    /// The keyboard-shortcut sheet is open.
    pub shortcuts_open: bool,
    /// The last link made by "Copy link".
    pub link: Option<LinkBox>,
    /// Why the link the page was opened with could not be opened (LinkError's Display).
    pub link_error: Option<String>,
    /// Why "Copy link" made no link for this view (too long for a URL).
    pub link_refused: Option<String>,
    /// Why the lesson file the author opened could not be played (`name: line L,
    /// column C: …`); nothing was loaded.
    pub file_error: Option<String>,
    /// Changes on every reduce that changed something.
    pub version: u64,
}

/// What the UI can ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Send these values as one batch (then Flush unless in step mode).
    Send(Vec<String>),
    DropNextAck,
    DropNextRequest,
    Step,
    RunUntilIdle,
    SetStepMode(bool),
    RawInitProducerId,
    RawProduce {
        producer_id: i64,
        producer_epoch: i16,
        base_sequence: i32,
        values: Vec<String>,
    },
    Restart {
        clean: bool,
    },
    SetSnapshots(bool),
    SelectPartition(TopicPartition),
    /// Open (or close, with None) a batch's header bytes.
    SelectBatch(Option<(i64, u64)>),
    /// Load a lesson by index, or go back to the playground with None.
    LoadLesson(Option<usize>),
    LessonNext,
    LessonPrev,
    LessonReset,
    ResetPlayground,
    /// Show a page.
    SetPage(Page),
    // The transactions page (playground only; a loaded lesson pauses them).
    TxnInit(String),
    TxnBegin(String),
    /// `send()` these values to the page's partition, then `flush()`.
    TxnSend(String, Vec<String>),
    TxnCommit(String),
    TxnAbort(String),
    /// Start producer-2 with the same transactional.id and call initTransactions: the
    /// coordinator fences producer-1.
    TxnFence,
    HoldMarkers,
    /// Release the held WriteTxnMarkers and run until they are written.
    ReleaseMarkers,
    /// Advance the logical clock by [`ADVANCE_MS`].
    Advance,
    Poll(String),
    TxnReset,
    /// One learner action (or lesson step) back; replays from a fresh world.
    Back,
    /// One recorded action (or lesson step) forward.
    Forward,
    /// Jump to the point after this many recorded actions (or lesson steps).
    JumpTo(usize),
    /// Start or stop auto-play.
    TogglePlay,
    /// Auto-play's timer: one step forward, and stop at the end.
    PlayTick,
    /// Open a share link (the URL fragment without `#`).
    OpenLink(String),
    /// "Copy link" made this URL.
    LinkMade(String),
    /// The clipboard took the link (true) or refused it (false: select the field).
    LinkCopied(bool),
    /// "Copy link" could not make a link: why (LinkError's Display).
    LinkRefused(String),
    /// Close the share box and the link error.
    CloseLink,
    /// Open or close the keyboard-shortcut sheet.
    ShowShortcuts(bool),
    /// Play a scenario text in the lesson player (from the host page or a file), at
    /// step 0; the title names it. A scenario that does not parse shows the error.
    LoadScenario {
        title: String,
        source: String,
    },
}

/// The idempotence page's setup: topic `orders` (1 partition) and an idempotent
/// `producer-1`, on the default cluster.
pub fn ready_actions() -> Vec<Action> {
    vec![
        Action::CreateTopic {
            name: TOPIC.into(),
            partitions: 1,
            configs: vec![],
        },
        Action::CreateProducer {
            name: PRODUCER.into(),
            configs: vec![],
        },
    ]
}

/// A world with topic `orders` (1 partition) and an idempotent `producer-1`.
pub fn ready_world() -> World {
    let mut world = World::new(ClusterConfig::default());
    // Both actions are valid on a fresh world; an error would only leave it emptier.
    for a in &ready_actions() {
        let _ = world.apply(a);
    }
    world
}

/// The transactions page's cluster: three brokers, so the partition leader and the
/// transaction coordinator are different brokers.
pub fn txn_cluster() -> ClusterConfig {
    ClusterConfig {
        brokers: 3,
        latency_ms: 2,
        seed: 1,
    }
}

/// The transactions page's world: three brokers, topic `payments` (1 partition), the
/// transactional `producer-1` (transactional.id=tx-1) and two consumers reading
/// `payments-0` from the start, one read_committed and one read_uncommitted.
pub fn txn_ready_world() -> World {
    let mut world = World::new(txn_cluster());
    // All valid on a fresh world; an error would only leave it emptier.
    for a in &txn_ready_actions() {
        let _ = world.apply(a);
    }
    world
}

/// The transactions page's setup actions (see [`txn_ready_world`]).
pub fn txn_ready_actions() -> Vec<Action> {
    let tp = TopicPartition::new(TXN_TOPIC, 0);
    let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
    let mut actions = vec![
        Action::CreateTopic {
            name: TXN_TOPIC.into(),
            partitions: 1,
            configs: vec![],
        },
        Action::CreateProducer {
            name: TXN_PRODUCER.into(),
            configs: vec![pair("transactional.id", TXN_ID)],
        },
    ];
    for (name, level) in [
        (CONSUMER_RC, "read_committed"),
        (CONSUMER_RU, "read_uncommitted"),
    ] {
        actions.push(Action::CreateConsumer {
            name: name.into(),
            configs: vec![
                pair("isolation.level", level),
                pair("auto.offset.reset", "earliest"),
            ],
        });
        actions.push(Action::Assign {
            consumer: name.into(),
            partitions: vec![tp.clone()],
        });
    }
    actions
}

/// Preloads `n` batches of one record each into the transactions page's partition
/// through the engine (an idempotent producer, one flush per batch), for `?bench=N`.
pub fn preload_batches(world: &mut World, n: usize) {
    let tp = TopicPartition::new(TXN_TOPIC, 0);
    let _ = world.apply(&Action::CreateProducer {
        name: BENCH_PRODUCER.into(),
        configs: vec![],
    });
    for i in 0..n {
        let send = Action::Send {
            producer: BENCH_PRODUCER.into(),
            topic_partition: tp.clone(),
            values: vec![format!("b{i}")],
        };
        if world.apply(&send).is_err() {
            break;
        }
        let _ = world.apply(&Action::Flush {
            producer: BENCH_PRODUCER.into(),
        });
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new(Page::Idempotence, None)
    }
}

impl AppState {
    /// The state a page load starts with: `page` shown, and with `bench` the
    /// transactions world preloaded with that many batches.
    pub fn new(page: Page, bench: Option<usize>) -> Self {
        let mut txn_world = txn_ready_world();
        if let Some(n) = bench {
            preload_batches(&mut txn_world, n);
        }
        AppState {
            world: Rc::new(RefCell::new(ready_world())),
            lesson: Rc::new(RefCell::new(None)),
            selected_tp: None,
            selected_batch: None,
            step_mode: false,
            error: None,
            raw_lines: vec![],
            txn_world: Rc::new(RefCell::new(txn_world)),
            page,
            txn_error: None,
            bench,
            history: Rc::new(RefCell::new(History::default())),
            txn_history: Rc::new(RefCell::new(History::default())),
            forked: None,
            playing: false,
            shortcuts_open: false,
            link: None,
            link_error: None,
            link_refused: None,
            file_error: None,
            version: 0,
        }
    }

    /// The transactions page's world as a page load starts it (preloaded for `?bench`).
    fn fresh_txn_world(&self) -> World {
        let mut world = txn_ready_world();
        if let Some(n) = self.bench {
            preload_batches(&mut world, n);
        }
        world
    }

    /// The recorded actions of the page shown.
    pub fn page_history(&self) -> &Rc<RefCell<History>> {
        match self.page {
            Page::Idempotence => &self.history,
            Page::Transactions => &self.txn_history,
        }
    }

    /// Shows the page's world after `to` recorded actions (replayed from a fresh world).
    pub(super) fn travel(&mut self, to: usize) {
        let history = self.page_history().clone();
        let history = history.borrow();
        let to = to.min(history.entries.len());
        match self.page {
            Page::Idempotence => {
                let mut world = ready_world();
                self.raw_lines = history.replay(&mut world, to);
                *self.world.borrow_mut() = world;
            }
            Page::Transactions => {
                let mut world = self.fresh_txn_world();
                history.replay(&mut world, to);
                *self.txn_world.borrow_mut() = world;
            }
        }
        drop(history);
        self.page_history().borrow_mut().cursor = to;
        self.selected_batch = None;
    }

    /// Records the actions that were applied (a refused one changes nothing and is not
    /// recorded); a new action after stepping back drops the recorded future.
    fn record(&self, next: &mut AppState, history: &Rc<RefCell<History>>, done: &[Action]) {
        let dropped = history.borrow_mut().record(done.to_vec());
        if dropped > 0 {
            next.forked = Some(dropped);
        }
    }

    /// Loads built-in lesson `index` played up to `step` (the page's `lesson=`/`step=`).
    pub fn start_lesson(&self, index: usize, step: usize) {
        *self.lesson.borrow_mut() = load_lesson(index, step).ok();
    }

    /// The loaded built-in lesson's name (None for the playground or another scenario).
    pub fn lesson_name(&self) -> Option<&'static str> {
        let index = self.lesson.borrow().as_ref()?.index?;
        scenario::lessons().get(index).map(|l| l.name)
    }

    /// Where the shown player is and how far it can go: (position, end), for the lesson
    /// when one is loaded, else for the page's recorded actions.
    pub fn position(&self) -> (usize, usize) {
        if let Some(l) = self.lesson.borrow().as_ref() {
            return (l.runner.next_index(), l.runner.scenario().steps.len());
        }
        let h = self.page_history().borrow();
        (h.cursor, h.entries.len())
    }

    /// Moves the shown player (lesson or recorded actions) to `to`.
    fn go_to(&self, next: &mut AppState, to: usize) {
        let mut lesson = self.lesson.borrow_mut();
        if let Some(l) = lesson.as_mut() {
            let to = to.min(l.runner.scenario().steps.len());
            if to == l.runner.next_index() + 1 {
                lesson_next(l);
            } else if to != l.runner.next_index() {
                *l = replay_lesson(l, to);
            }
            next.selected_tp = None;
            next.selected_batch = None;
            return;
        }
        drop(lesson);
        next.travel(to);
    }

    fn next(&self) -> AppState {
        AppState {
            world: self.world.clone(),
            lesson: self.lesson.clone(),
            selected_tp: self.selected_tp.clone(),
            selected_batch: self.selected_batch,
            step_mode: self.step_mode,
            link: self.link.clone(),
            link_error: self.link_error.clone(),
            link_refused: self.link_refused.clone(),
            error: None,
            raw_lines: self.raw_lines.clone(),
            txn_world: self.txn_world.clone(),
            page: self.page,
            txn_error: None,
            bench: self.bench,
            history: self.history.clone(),
            txn_history: self.txn_history.clone(),
            forked: None,
            playing: self.playing,
            shortcuts_open: self.shortcuts_open,
            file_error: self.file_error.clone(),
            version: self.version.wrapping_add(1),
        }
    }

    /// True while a lesson is loaded (the panels show the lesson's world).
    pub fn lesson_loaded(&self) -> bool {
        self.lesson.borrow().is_some()
    }

    /// Calls `f` with the world the panels show: the lesson's, or the playground.
    pub fn with_world<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        let lesson = self.lesson.borrow();
        match lesson.as_ref() {
            Some(l) => f(&l.runner.world),
            None => f(&self.world.borrow()),
        }
    }

    /// Calls `f` with the world the transactions page shows: the lesson's, or its own.
    pub fn with_txn_world<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        let lesson = self.lesson.borrow();
        match lesson.as_ref() {
            Some(l) => f(&l.runner.world),
            None => f(&self.txn_world.borrow()),
        }
    }

    /// `action`, then — unless markers are held — a run until idle, so the
    /// coordinator's marker round trip finishes too (Complete*). A commit call returns
    /// once EndTxn is answered, which TV2 does right after writing Prepare*.
    /// Not while markers are held: the coordinator keeps re-sending them, so the world
    /// would never be idle.
    fn then_settle(&self, action: Action) -> Vec<Action> {
        if self.txn_world.borrow().network.hold_markers {
            vec![action]
        } else {
            vec![action, Action::RunUntilIdle]
        }
    }

    /// Applies actions to the transactions world in order, stopping at the first
    /// refusal, which is shown at `at`.
    fn apply_txn(&self, next: &mut AppState, at: TxnErrorAt, actions: &[Action]) {
        let mut done = 0;
        {
            let mut world = self.txn_world.borrow_mut();
            for action in actions {
                if let Err(e) = world.apply(action) {
                    next.txn_error = Some((at, e.to_string()));
                    break;
                }
                done += 1;
            }
        }
        self.record(next, &self.txn_history, &actions[..done]);
    }

    /// The partition the panels show in `world`: the learner's choice, else the one
    /// where something happened last (so a lesson's panels follow the lesson).
    pub fn shown_tp(&self, world: &World) -> Option<TopicPartition> {
        let parts = world.partitions();
        match &self.selected_tp {
            Some(tp) if parts.contains(tp) => Some(tp.clone()),
            _ => latest_tp(world)
                .filter(|tp| parts.contains(tp))
                .or_else(|| parts.into_iter().next()),
        }
    }

    fn apply(&self, next: &mut AppState, actions: &[Action]) {
        let mut done = 0;
        {
            let mut world = self.world.borrow_mut();
            for action in actions {
                match world.apply(action) {
                    Ok(lines) => {
                        if !lines.is_empty() {
                            next.raw_lines = lines;
                        }
                    }
                    Err(e) => {
                        next.error = Some(e.to_string());
                        break;
                    }
                }
                done += 1;
            }
        }
        self.record(next, &self.history, &actions[..done]);
    }
}

/// The partition of the latest event that names one.
fn latest_tp(world: &World) -> Option<TopicPartition> {
    use crate::broker::broker::BrokerEvent as B;
    use crate::sim::EventKind as K;
    world.events.iter().rev().find_map(|e| match &e.kind {
        K::Broker {
            event:
                B::BatchAppended { tp, .. }
                | B::BatchDuplicate { tp, .. }
                | B::BatchRejected { tp, .. }
                | B::SegmentRolled { tp, .. }
                | B::Recovered { tp, .. },
            ..
        } => Some(tp.clone()),
        K::TopicCreated { topic, .. } => Some(TopicPartition::new(topic.clone(), 0)),
        _ => None,
    })
}

/// Plays the lesson's next step (if any is left).
fn lesson_next(l: &mut LessonState) {
    if !l.runner.is_done() {
        match l.runner.step() {
            Ok(lines) => {
                l.outputs.push(lines);
                l.error = None;
            }
            Err(e) => l.error = Some(e),
        }
    }
}

/// Builds a runner for lesson `index` and runs its first `steps` steps.
fn load_lesson(index: usize, steps: usize) -> Result<LessonState, String> {
    let lesson = scenario::lessons()
        .get(index)
        .ok_or_else(|| "no such lesson".to_string())?;
    let parsed = scenario::parse(lesson.source).map_err(|e| e.to_string())?;
    Ok(play_scenario(
        Some(index),
        lesson.title.to_string(),
        lesson.source.to_string(),
        parsed,
        steps,
    ))
}

/// A lesson state for `scenario` with its first `steps` steps played.
pub fn play_scenario(
    index: Option<usize>,
    title: String,
    source: String,
    scenario: scenario::Scenario,
    steps: usize,
) -> LessonState {
    let mut state = LessonState {
        index,
        title,
        source,
        runner: Runner::new(scenario.clone()),
        scenario,
        outputs: vec![],
        error: None,
    };
    for _ in 0..steps {
        if state.runner.is_done() {
            break;
        }
        match state.runner.step() {
            Ok(lines) => state.outputs.push(lines),
            Err(e) => {
                state.error = Some(e);
                break;
            }
        }
    }
    state
}

/// The same lesson replayed from the start up to `steps` (exact: the engine is
/// deterministic).
fn replay_lesson(l: &LessonState, steps: usize) -> LessonState {
    play_scenario(
        l.index,
        l.title.clone(),
        l.source.clone(),
        l.scenario.clone(),
        steps,
    )
}

impl Reducible for AppState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut next = self.next();
        let producer = PRODUCER.to_string();
        let tp = TopicPartition::new(TOPIC, 0);
        let playground = !self.lesson_loaded();
        match msg {
            Msg::Send(values) if playground => {
                let send = Action::Send {
                    producer: producer.clone(),
                    topic_partition: tp,
                    values,
                };
                if self.step_mode {
                    self.apply(&mut next, &[send]);
                } else {
                    self.apply(&mut next, &[send, Action::Flush { producer }]);
                }
            }
            Msg::DropNextAck if playground => self.apply(
                &mut next,
                &[Action::DropNextResponse { to: Some(producer) }],
            ),
            Msg::DropNextRequest if playground => self.apply(
                &mut next,
                &[Action::DropNextRequest {
                    from: Some(producer),
                }],
            ),
            Msg::Step if playground => self.apply(&mut next, &[Action::Step]),
            Msg::RunUntilIdle if playground => self.apply(&mut next, &[Action::RunUntilIdle]),
            Msg::SetStepMode(on) => next.step_mode = on,
            Msg::RawInitProducerId if playground => {
                self.apply(&mut next, &[Action::RawInitProducerId])
            }
            Msg::RawProduce {
                producer_id,
                producer_epoch,
                base_sequence,
                values,
            } if playground => self.apply(
                &mut next,
                &[Action::RawProduce {
                    topic_partition: tp,
                    producer_id,
                    producer_epoch,
                    base_sequence,
                    values,
                    label: None,
                }],
            ),
            Msg::Restart { clean } if playground => {
                self.apply(&mut next, &[Action::RestartBroker { broker: 1, clean }])
            }
            Msg::SetSnapshots(on) if playground => self.apply(
                &mut next,
                &[Action::SetBrokerConfig {
                    key: "producer.snapshots".into(),
                    value: on.to_string(),
                }],
            ),
            Msg::SelectPartition(tp) => {
                next.selected_tp = Some(tp);
                next.selected_batch = None;
            }
            Msg::SelectBatch(b) => next.selected_batch = b,
            Msg::LoadLesson(index) => {
                next.playing = false;
                next.file_error = None;
                next.selected_tp = None;
                next.selected_batch = None;
                let loaded = match index {
                    None => None,
                    Some(i) => match load_lesson(i, 0) {
                        Ok(l) => Some(l),
                        Err(e) => {
                            next.error = Some(e);
                            None
                        }
                    },
                };
                *self.lesson.borrow_mut() = loaded;
            }
            Msg::LessonNext => {
                next.selected_tp = None;
                next.selected_batch = None;
                if let Some(l) = self.lesson.borrow_mut().as_mut() {
                    lesson_next(l);
                }
            }
            Msg::LessonPrev | Msg::LessonReset => {
                let mut lesson = self.lesson.borrow_mut();
                if let Some(l) = lesson.as_mut() {
                    // The engine is deterministic: replaying steps 0..n-1 on a fresh runner
                    // gives exactly the world we had one step ago.
                    let keep = if msg == Msg::LessonPrev {
                        l.runner.next_index().saturating_sub(1)
                    } else {
                        0
                    };
                    *l = replay_lesson(l, keep);
                }
                next.selected_tp = None;
                next.selected_batch = None;
            }
            Msg::ResetPlayground if playground => {
                *self.history.borrow_mut() = History::default();
                *self.world.borrow_mut() = ready_world();
                next.raw_lines.clear();
                next.selected_batch = None;
            }
            Msg::SetPage(page) => {
                if page == self.page {
                    return self;
                }
                next.page = page;
                next.playing = false;
            }
            Msg::TxnInit(p) if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Producer(p.clone()),
                &[Action::InitTransactions { producer: p }],
            ),
            Msg::TxnBegin(p) if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Producer(p.clone()),
                &[Action::BeginTransaction { producer: p }],
            ),
            Msg::TxnSend(p, values) if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Producer(p.clone()),
                &[
                    Action::Send {
                        producer: p.clone(),
                        topic_partition: TopicPartition::new(TXN_TOPIC, 0),
                        values,
                    },
                    Action::Flush { producer: p },
                ],
            ),
            Msg::TxnCommit(p) if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Producer(p.clone()),
                &self.then_settle(Action::CommitTransaction { producer: p }),
            ),
            Msg::TxnAbort(p) if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Producer(p.clone()),
                &self.then_settle(Action::AbortTransaction { producer: p }),
            ),
            Msg::TxnFence if playground => {
                let exists = self
                    .txn_world
                    .borrow()
                    .producers
                    .contains_key(TXN_PRODUCER_2);
                let mut actions = Vec::new();
                if !exists {
                    actions.push(Action::CreateProducer {
                        name: TXN_PRODUCER_2.into(),
                        configs: vec![("transactional.id".into(), TXN_ID.into())],
                    });
                }
                actions.extend(self.then_settle(Action::InitTransactions {
                    producer: TXN_PRODUCER_2.into(),
                }));
                self.apply_txn(
                    &mut next,
                    TxnErrorAt::Producer(TXN_PRODUCER_2.into()),
                    &actions,
                );
            }
            Msg::HoldMarkers if playground => {
                self.apply_txn(&mut next, TxnErrorAt::Cluster, &[Action::HoldMarkers])
            }
            Msg::ReleaseMarkers if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Cluster,
                &[Action::ReleaseMarkers, Action::RunUntilIdle],
            ),
            Msg::Advance if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Cluster,
                &[Action::Advance { ms: ADVANCE_MS }],
            ),
            Msg::Poll(c) if playground => self.apply_txn(
                &mut next,
                TxnErrorAt::Consumer(c.clone()),
                &[Action::Poll { consumer: c }],
            ),
            Msg::TxnReset if playground => {
                *self.txn_history.borrow_mut() = History::default();
                *self.txn_world.borrow_mut() = self.fresh_txn_world();
            }
            Msg::Back => {
                let (at, _) = self.position();
                if at == 0 {
                    return self;
                }
                self.go_to(&mut next, at - 1);
            }
            Msg::Forward => {
                let (at, end) = self.position();
                if at >= end {
                    return self;
                }
                self.go_to(&mut next, at + 1);
            }
            Msg::JumpTo(to) => self.go_to(&mut next, to),
            Msg::TogglePlay => {
                if self.playing {
                    next.playing = false;
                } else {
                    let (at, end) = self.position();
                    if end == 0 {
                        return self;
                    }
                    if at >= end {
                        // Play from the start again.
                        self.go_to(&mut next, 0);
                    }
                    next.playing = true;
                }
            }
            Msg::PlayTick => {
                if !self.playing {
                    return self;
                }
                let (at, end) = self.position();
                if at < end {
                    self.go_to(&mut next, at + 1);
                }
                if at + 1 >= end {
                    next.playing = false;
                }
            }
            Msg::LoadScenario { title, source } => {
                next.playing = false;
                next.selected_tp = None;
                next.selected_batch = None;
                match scenario::parse(&source) {
                    Ok(parsed) => {
                        next.file_error = None;
                        *self.lesson.borrow_mut() =
                            Some(play_scenario(None, title, source, parsed, 0));
                    }
                    Err(e) => next.file_error = Some(format!("{title}: {e}")),
                }
            }
            Msg::OpenLink(link) => next.open_link(&link),
            Msg::LinkMade(url) => {
                next.link = Some(LinkBox { url, copied: None });
                next.link_refused = None;
            }
            Msg::LinkRefused(why) => {
                next.link = None;
                next.link_refused = Some(why);
            }
            Msg::LinkCopied(ok) => {
                if let Some(l) = next.link.as_mut() {
                    l.copied = Some(ok);
                }
            }
            Msg::CloseLink => {
                next.link = None;
                next.link_error = None;
                next.link_refused = None;
            }
            Msg::ShowShortcuts(open) => {
                if open == self.shortcuts_open {
                    return self;
                }
                next.shortcuts_open = open;
            }
            // A playground action while a lesson is loaded: the controls are disabled, so
            // this only happens from a stale click; nothing changes.
            _ => return self,
        }
        Rc::new(next)
    }
}
