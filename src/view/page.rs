//! The playground's two pages as data: which page ([`Page`], never a string inside the
//! app), the world each page starts with (its setup, written as scenario steps so time
//! travel and share links replay it like any scenario), and what one click on a page
//! does to the world ([`click`]: a learner's button is one [`Action`], sometimes
//! followed by the actions that make its result visible, e.g. Send then Flush).

use crate::log::TopicPartition;
use crate::scenario::StepKind;
use crate::sim::{Action, ClusterConfig, World};

/// The producer the idempotence page starts with.
pub const PRODUCER: &str = "producer-1";
/// The topic the idempotence page starts with.
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
/// "Advance the clock 10 s" (its label says 10): the coordinator's check interval, so
/// the learner can stop with a transaction past its timeout that the next check has not
/// aborted yet.
pub const ADVANCE_STEP_MS: i64 = 10_000;

/// A page of the playground.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Page {
    #[default]
    Idempotence,
    Transactions,
}

impl Page {
    pub const ALL: [Page; 2] = [Page::Idempotence, Page::Transactions];

    /// The page's name in URLs and links (`#transactions`, `page=transactions`).
    pub fn fragment(self) -> &'static str {
        match self {
            Page::Idempotence => "idempotence",
            Page::Transactions => "transactions",
        }
    }

    /// The page a name means (`transactions`, `#transactions`); None for anything else.
    pub fn parse(name: &str) -> Option<Page> {
        let name = name.trim_start_matches('#');
        Page::ALL.into_iter().find(|p| p.fragment() == name)
    }

    /// The page a URL fragment names; anything else is the first page.
    pub fn from_fragment(hash: &str) -> Page {
        Page::parse(hash).unwrap_or_default()
    }

    /// The page built-in lesson `name` was written for: the idempotence lessons play on
    /// the first page, the transaction lessons (coordinator, markers, consumers) on the
    /// second.
    pub fn of_lesson(name: &str) -> Page {
        match name {
            "idempotence" | "dedup-window" => Page::Idempotence,
            _ => Page::Transactions,
        }
    }

    /// 0 for the first page, 1 for the second.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The page's setup as scenario steps: the transactions page has three brokers (the
    /// partition leader and the transaction coordinator differ, so the timeline shows
    /// who asks whom), topic `payments`, the transactional `producer-1` and two consumers
    /// of `payments-0` from the start, read_committed and read_uncommitted; the
    /// idempotence page has the default cluster, topic `orders` and an idempotent
    /// `producer-1`.
    pub fn setup(self) -> Vec<StepKind> {
        self.setup_of(Setup::default())
    }

    /// The page's setup for the learner's [`Setup`]. Replicated: three brokers
    /// (`cluster brokers=3` as the first step) and the page's topic at
    /// `replication.factor=3`, `min.insync.replicas=2`, so a learner can crash the leader
    /// and watch a follower take over. The transaction rules go into the `cluster` line.
    pub fn setup_of(self, setup: Setup) -> Vec<StepKind> {
        let cluster = (self == Page::Transactions || setup.replicated).then(|| {
            StepKind::Cluster(ClusterConfig {
                transaction_version: setup.transaction_version,
                transaction_verification: setup.verification,
                ..txn_cluster()
            })
        });
        cluster
            .into_iter()
            .chain(
                self.setup_actions(setup.replicated)
                    .into_iter()
                    .map(StepKind::Act),
            )
            .collect()
    }

    fn setup_actions(self, replicated: bool) -> Vec<Action> {
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        let topic = |name: &str| Action::CreateTopic {
            name: name.into(),
            partitions: 1,
            configs: if replicated {
                vec![
                    pair("replication.factor", "3"),
                    pair("min.insync.replicas", "2"),
                ]
            } else {
                vec![]
            },
        };
        match self {
            Page::Idempotence => vec![
                topic(TOPIC),
                Action::CreateProducer {
                    name: PRODUCER.into(),
                    configs: vec![],
                },
            ],
            Page::Transactions => {
                let mut actions = vec![
                    topic(TXN_TOPIC),
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
                        partitions: vec![TopicPartition::new(TXN_TOPIC, 0)],
                    });
                }
                actions
            }
        }
    }

    /// The partition the page's producer writes to.
    pub fn partition(self) -> TopicPartition {
        match self {
            Page::Idempotence => TopicPartition::new(TOPIC, 0),
            Page::Transactions => TopicPartition::new(TXN_TOPIC, 0),
        }
    }
}

/// What the learner chose for a page's world: the cluster size and, on the transactions
/// page, the cluster's transaction rules (`transaction.version`, and KIP-890 part 1's
/// `transaction.partition.verification.enable`), so TV1 and TV2 can be tried side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub replicated: bool,
    /// The finalized `transaction.version`: 2 (Kafka 4.0's default) or 1.
    pub transaction_version: i16,
    pub verification: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            replicated: false,
            transaction_version: 2,
            verification: true,
        }
    }
}

impl Setup {
    /// Three brokers, Kafka's default transaction rules.
    pub const REPLICATED: Setup = Setup {
        replicated: true,
        transaction_version: 2,
        verification: true,
    };

    /// The transaction rules a page offers: TV2; TV1 with verification; TV1 without it
    /// (where a late produce can open a hanging transaction).
    pub const RULES: [(i16, bool); 3] = [(2, true), (1, true), (1, false)];

    /// Every setup a page can start from, the default first (a share link is matched
    /// against each).
    pub fn all() -> impl Iterator<Item = Setup> {
        [false, true].into_iter().flat_map(|replicated| {
            Self::RULES
                .into_iter()
                .map(move |(transaction_version, verification)| Setup {
                    replicated,
                    transaction_version,
                    verification,
                })
        })
    }
}

/// The transactions page's cluster: three brokers, 2 ms latency, seed 1.
pub fn txn_cluster() -> ClusterConfig {
    ClusterConfig {
        brokers: 3,
        ..ClusterConfig::default()
    }
}

/// `?bench=N`: preloads N batches of one record into the transactions page's partition
/// through the engine (an idempotent producer, one flush per batch), as setup steps.
pub fn bench_setup(n: usize) -> Vec<StepKind> {
    let tp = TopicPartition::new(TXN_TOPIC, 0);
    let producer = || BENCH_PRODUCER.to_string();
    let create = Action::CreateProducer {
        name: producer(),
        configs: vec![],
    };
    std::iter::once(create)
        .chain((0..n).flat_map(|i| {
            [
                Action::Send {
                    producer: producer(),
                    topic_partition: tp.clone(),
                    values: vec![format!("b{i}")],
                },
                Action::Flush {
                    producer: producer(),
                },
            ]
        }))
        .map(StepKind::Act)
        .collect()
}

/// What the page knows when a click arrives, besides the world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClickContext {
    /// Step-by-step mode (idempotence page): Send only accumulates.
    pub step_mode: bool,
}

/// The engine actions one click on `page` applies, in order; they are recorded as one
/// time-travel entry.
///
/// - Send is followed by Flush (not in step mode).
/// - Commit and abort are followed by a run until idle, so the coordinator's marker
///   round trip finishes too (Complete*): a commit call returns once EndTxn is answered,
///   which TV2 does right after writing Prepare*. Not while markers are held: the
///   coordinator keeps re-sending them, so the world would never be idle. Not in step
///   mode either ("pause after each click" on the transactions page): the markers stay
///   on the wire, for Step, or for a click on the timeline to strike them.
/// - Release markers is followed by a run until the markers are written (not in step
///   mode).
/// - Creating [`TXN_PRODUCER_2`] on the transactions page is "Start a second producer":
///   create it (once) with the same transactional.id, then initTransactions, which fences
///   the first producer, settled like a commit.
pub fn click(page: Page, action: Action, world: &World, cx: ClickContext) -> Vec<Action> {
    let holding = world.network().holds(crate::sim::WRITE_TXN_MARKERS);
    let settle = |action: Action| {
        if holding || cx.step_mode {
            vec![action]
        } else {
            vec![action, Action::RunUntilIdle]
        }
    };
    match (page, action) {
        (_, send @ Action::Send { .. }) if cx.step_mode => vec![send],
        (
            _,
            Action::Send {
                producer,
                topic_partition,
                values,
            },
        ) => vec![
            Action::Send {
                producer: producer.clone(),
                topic_partition,
                values,
            },
            Action::Flush { producer },
        ],
        (
            Page::Transactions,
            a @ (Action::CommitTransaction { .. } | Action::AbortTransaction { .. }),
        ) => settle(a),
        (Page::Transactions, Action::ReleaseMarkers) if cx.step_mode => {
            vec![Action::ReleaseMarkers]
        }
        (Page::Transactions, Action::ReleaseMarkers) => {
            vec![Action::ReleaseMarkers, Action::RunUntilIdle]
        }
        (Page::Transactions, create @ Action::CreateProducer { .. }) if matches!(&create, Action::CreateProducer { name, .. } if name == TXN_PRODUCER_2) =>
        {
            let mut actions = Vec::new();
            if !world.producers().contains_key(TXN_PRODUCER_2) {
                actions.push(create);
            }
            actions.extend(settle(Action::InitTransactions {
                producer: TXN_PRODUCER_2.into(),
            }));
            actions
        }
        (_, other) => vec![other],
    }
}

/// Where a refused click is shown: at the producer or consumer its first action names,
/// else with the cluster controls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorAt {
    Producer(String),
    Consumer(String),
    Cluster,
}

impl ErrorAt {
    /// The control a click starting with `action` belongs to.
    pub fn of(action: &Action) -> ErrorAt {
        match action {
            Action::CreateProducer { name: p, .. }
            | Action::Send { producer: p, .. }
            | Action::Flush { producer: p }
            | Action::InitTransactions { producer: p }
            | Action::BeginTransaction { producer: p }
            | Action::CommitTransaction { producer: p }
            | Action::AbortTransaction { producer: p } => ErrorAt::Producer(p.clone()),
            Action::Poll { consumer } | Action::Seek { consumer, .. } => {
                ErrorAt::Consumer(consumer.clone())
            }
            _ => ErrorAt::Cluster,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{scenario_of, Replay};

    fn fresh(page: Page) -> World {
        Replay::to(scenario_of(page.setup()), usize::MAX).into_world()
    }

    #[test]
    fn page_names_round_trip() {
        for page in Page::ALL {
            assert_eq!(Page::parse(page.fragment()), Some(page));
            assert_eq!(Page::from_fragment(&format!("#{}", page.fragment())), page);
        }
        assert_eq!(Page::parse("nope"), None);
        assert_eq!(Page::from_fragment("#1.abc"), Page::Idempotence);
    }

    #[test]
    fn setups_build_their_worlds() {
        let w = fresh(Page::Idempotence);
        assert_eq!(w.partitions(), vec![TopicPartition::new(TOPIC, 0)]);
        assert!(w.producers().contains_key(PRODUCER));
        let w = fresh(Page::Transactions);
        assert_eq!(w.brokers().len(), 3);
        assert!(w.consumers().contains_key(CONSUMER_RC) && w.consumers().contains_key(CONSUMER_RU));
        let mut steps = Page::Transactions.setup();
        steps.extend(bench_setup(3));
        let w = Replay::to(scenario_of(steps), usize::MAX).into_world();
        let log = w.log_view(&TopicPartition::new(TXN_TOPIC, 0)).expect("log");
        assert_eq!(log.log_end_offset, 3);
    }

    /// Every setup a page offers writes a different scenario, which parses back to the
    /// same steps (a share link names its setup by its text) and starts a world with
    /// the chosen transaction rules.
    #[test]
    fn each_setup_round_trips_through_scenario_text() {
        for page in Page::ALL {
            let mut texts = Vec::new();
            for setup in Setup::all() {
                let steps = page.setup_of(setup);
                let text: String = steps
                    .iter()
                    .map(|k| crate::scenario::print_step(k).expect("printable") + "\n")
                    .collect();
                let parsed = crate::scenario::parse(&text).expect("parses");
                let kinds: Vec<StepKind> = parsed.steps.into_iter().map(|s| s.kind).collect();
                assert_eq!(kinds, steps, "{page:?} {setup:?}");
                let w = Replay::to(scenario_of(steps), usize::MAX).into_world();
                let f = w.txn_features();
                if page == Page::Transactions || setup.replicated {
                    assert_eq!(f.transaction_version.0, setup.transaction_version);
                    assert_eq!(f.verification, setup.verification);
                }
                texts.push(text);
            }
            if page == Page::Transactions {
                let mut unique = texts.clone();
                unique.sort();
                unique.dedup();
                assert_eq!(unique.len(), texts.len(), "setups must differ in text");
            }
        }
    }

    /// The replicated choice: three brokers, the page's topic on all three, and the
    /// failover the page is for: crash the leader after a lost answer, and the retry is
    /// answered DUPLICATE by the new leader (one copy on every replica).
    #[test]
    fn the_replicated_setup_survives_a_leader_crash_with_a_duplicate() {
        for page in Page::ALL {
            let w =
                Replay::to(scenario_of(page.setup_of(Setup::REPLICATED)), usize::MAX).into_world();
            assert_eq!(w.brokers().len(), 3);
            let view = w.replicas_view(&page.partition()).expect("replicas");
            assert_eq!(view.replicas.len(), 3);
            assert_eq!(view.isr.len(), 3);
        }
        let mut w = Replay::to(
            scenario_of(Page::Idempotence.setup_of(Setup::REPLICATED)),
            usize::MAX,
        )
        .into_world();
        let tp = Page::Idempotence.partition();
        let send = |v: &str| Action::Send {
            producer: PRODUCER.into(),
            topic_partition: tp.clone(),
            values: vec![v.into()],
        };
        let leader = w.leader_of(&tp).expect("a leader");
        for a in [
            send("a"),
            Action::Flush {
                producer: PRODUCER.into(),
            },
            Action::DropNextResponse {
                to: Some(PRODUCER.into()),
            },
            send("b"),
            Action::Advance { ms: 10 },
            Action::StopBroker {
                broker: leader,
                clean: false,
            },
            Action::Flush {
                producer: PRODUCER.into(),
            },
        ] {
            w.apply(&a).expect("applies");
        }
        assert_ne!(w.leader_of(&tp), Some(leader));
        assert!(matches!(
            w.last_verdict(&tp),
            Some(crate::broker::broker::BrokerEvent::BatchDuplicate { .. })
        ));
        let view = w.replicas_view(&tp).expect("replicas");
        for r in view.replicas.iter().filter(|r| r.online) {
            assert_eq!(
                r.log_end_offset, 2,
                "one a and one b on broker {}",
                r.broker
            );
        }
    }

    #[test]
    fn a_click_adds_what_makes_it_visible() {
        let idem = fresh(Page::Idempotence);
        let send = Action::Send {
            producer: PRODUCER.into(),
            topic_partition: Page::Idempotence.partition(),
            values: vec!["a".into()],
        };
        let stepping = ClickContext { step_mode: true };
        let cx = ClickContext::default();
        assert_eq!(
            click(Page::Idempotence, send.clone(), &idem, stepping),
            vec![send.clone()]
        );
        assert_eq!(click(Page::Idempotence, send.clone(), &idem, cx).len(), 2);
        let mut txn = fresh(Page::Transactions);
        let commit = Action::CommitTransaction {
            producer: TXN_PRODUCER.into(),
        };
        assert_eq!(
            click(Page::Transactions, commit.clone(), &txn, cx),
            vec![commit.clone(), Action::RunUntilIdle]
        );
        let fence = Action::CreateProducer {
            name: TXN_PRODUCER_2.into(),
            configs: vec![("transactional.id".into(), TXN_ID.into())],
        };
        assert_eq!(click(Page::Transactions, fence.clone(), &txn, cx).len(), 3);
        txn.apply(&Action::HoldMarkers).expect("hold");
        assert_eq!(
            click(Page::Transactions, commit.clone(), &txn, cx),
            vec![commit]
        );
        txn.apply(&fence).expect("created");
        assert_eq!(
            click(Page::Transactions, fence, &txn, cx),
            vec![Action::InitTransactions {
                producer: TXN_PRODUCER_2.into()
            }],
            "created once; held markers: no settle"
        );
        assert_eq!(
            ErrorAt::of(&Action::Poll {
                consumer: CONSUMER_RC.into()
            }),
            ErrorAt::Consumer(CONSUMER_RC.into())
        );
        assert_eq!(ErrorAt::of(&Action::Advance { ms: 1 }), ErrorAt::Cluster);
    }

    #[test]
    fn step_mode_on_the_transactions_page_leaves_messages_on_the_wire() {
        let txn = fresh(Page::Transactions);
        let stepping = ClickContext { step_mode: true };
        let send = Action::Send {
            producer: TXN_PRODUCER.into(),
            topic_partition: Page::Transactions.partition(),
            values: vec!["a".into()],
        };
        assert_eq!(
            click(Page::Transactions, send.clone(), &txn, stepping),
            vec![send]
        );
        let commit = Action::CommitTransaction {
            producer: TXN_PRODUCER.into(),
        };
        assert_eq!(
            click(Page::Transactions, commit.clone(), &txn, stepping),
            vec![commit]
        );
        assert_eq!(
            click(Page::Transactions, Action::ReleaseMarkers, &txn, stepping),
            vec![Action::ReleaseMarkers]
        );
        let mut holding = txn;
        holding.apply(&Action::HoldMarkers).expect("hold");
        assert_eq!(
            click(
                Page::Transactions,
                Action::ReleaseMarkers,
                &holding,
                ClickContext::default()
            ),
            vec![Action::ReleaseMarkers, Action::RunUntilIdle],
            "released while held: settled"
        );
    }
}
