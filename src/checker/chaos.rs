//! Seeded chaos: a generator of workloads and fault schedules, run with the checker on.
//!
//! Everything comes from the seed (SplitMix64, `crate::sim::rng`): the same seed gives
//! the same schedule and the same run, natively and in wasm. A schedule is a list of
//! [`Action`]s — the same values a learner's clicks and a scenario's lines are — so a
//! failing one prints as a scenario file and opens as a share link.
//!
//! The workload: a consume-transform-produce app (producer `t`, consumer `cin` of group
//! `g`) from `chaos` to `chaos-out`; an idempotent producer `i`; transactional producers `a` and `b`, and
//! `z` with `a`'s `transactional.id` (a zombie pair: each `init-transactions` of one
//! fences the other); consumers `rc` (read_committed) and `ru` (read_uncommitted) on
//! both partitions from the earliest offset. The faults: lost requests and responses,
//! delayed, duplicated and held messages, held markers, cut and healed links, broker
//! restarts (clean and crash), bursts of idempotent sends held in the network with
//! every answer late, and time passing. `early-markers` runs on three brokers with
//! a replicated `__transaction_state`; `in-flight=N` gives `i` N requests in flight.
//! One run in four without a switch is an ELR cluster (KIP-966): three brokers with
//! `eligible.leader.replicas.enable`, both topics at replication factor 3 and
//! `min.insync.replicas=2`, and faults that stop one or two brokers for a while (clean
//! or crash) and restart any broker, so ISRs shrink below the minimum, fill the ELR
//! and elect from it. One in eight of the others is an unclean cluster
//! ([`Slice::Unclean`]), whose findings after an unclean election are what Kafka
//! allows (`Checker::expected`).
//! The internal topics get one partition per broker (their settings appear on the
//! replay's `cluster` line). Each run ends with a fixed tail, as
//! Jepsen's final polls: faults cleared, every broker up, time for timeouts, and a
//! last poll by every consumer.

use super::{Anomaly, Checker, Violation};
use crate::breaks::BreakSwitch;
use crate::log::TopicPartition;
use crate::protocol::ElectionType;
use crate::scenario::{print_step, StepKind};
use crate::sim::rng::Rng;
use crate::sim::{Action, ClusterConfig, Direction, Fault, MessageMatch, Node, World};

/// Mixed into the seed to choose the ELR clusters apart from the schedule's stream.
const ELR_STREAM: u64 = 0x004b_4950_2d39_3636;
/// Mixed into the seed to choose the unclean clusters, apart from both other streams.
const UNCLEAN_STREAM: u64 = 0x0075_6e63_6c65_616e;

/// Which cluster a run gets; [`generate`] picks it from the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slice {
    /// One broker (three with `early-markers`).
    Single,
    /// Three brokers with eligible leader replicas (KIP-966), brokers stopped for a
    /// while.
    Elr,
    /// Three brokers, replicated topics with `unclean.leader.election.enable=true`,
    /// and failovers that leave a leader alone in its ISR and then stop it, so an
    /// out-of-sync replica leads; some runs ask for it with `admin elect-leaders
    /// election-type=UNCLEAN` instead. Acknowledged records may be truncated: the
    /// checker reports those as expected (`Checker::expected`), not as violations.
    Unclean,
}

impl Slice {
    /// The slice of a seed: one in four without switches ELR, one in eight of the
    /// rest unclean, each from its own stream so the others keep their schedules. A
    /// run with a switch keeps one broker ([`generate_in`] runs a switch on another
    /// slice).
    pub fn of(seed: u64, switches: &[BreakSwitch]) -> Slice {
        if !switches.is_empty() {
            Slice::Single
        } else if Rng::new(seed ^ ELR_STREAM).below(4) == 0 {
            Slice::Elr
        } else if Rng::new(seed ^ UNCLEAN_STREAM).below(8) == 0 {
            Slice::Unclean
        } else {
            Slice::Single
        }
    }

    /// Whether [`Slice::of`] gives this seed, without switches, an unclean cluster.
    pub fn unclean_candidate(seed: u64) -> bool {
        Slice::of(seed, &[]) == Slice::Unclean
    }
}

/// The chaos topic's name and partition count.
pub const TOPIC: &str = "chaos";
const PARTITIONS: i32 = 2;
const TXN_PRODUCERS: [&str; 3] = ["a", "b", "z"];
const CONSUMERS: [&str; 2] = ["rc", "ru"];
/// The consume-transform-produce app: its producer, its consumer (group `g`) and the
/// topic it writes.
const CTP_PRODUCER: &str = "t";
const CTP_CONSUMER: &str = "cin";
const CTP_OUTPUT: &str = "chaos-out";
/// How long the tail lets the clock run: past `transaction.timeout.ms` (60 s), the
/// cleanup interval and a marker retry, so an open transaction is decided or hanging.
const TAIL_MS: i64 = 200_000;

/// One generated run: the cluster, the switches and the actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub cluster: ClusterConfig,
    /// The generated actions (setup and workload); the shrinker drops some of these.
    pub body: Vec<Action>,
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub violations: Vec<Violation>,
    /// What Kafka allows after an unclean election (`Checker::expected`).
    pub expected: Vec<Violation>,
}

/// A failing seed: the first violation and the schedule shrunk to still show it.
#[derive(Clone, Debug)]
pub struct Finding {
    pub seed: u64,
    pub violation: Violation,
    pub shrunk: Schedule,
    /// Actions before and after shrinking.
    pub steps_before: usize,
}

impl Schedule {
    /// The whole run: the body, then the fixed tail (final polls).
    pub fn actions(&self) -> Vec<Action> {
        let mut all = self.body.clone();
        all.extend(tail(&self.body));
        all
    }

    /// The run as a scenario file (its first line is the `cluster` line).
    pub fn scenario_text(&self) -> String {
        let mut lines = Vec::new();
        lines.extend(print_step(&StepKind::Cluster(self.cluster.clone())));
        for action in self.actions() {
            lines.extend(print_step(&crate::scenario::step_for_action(action)));
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }
}

/// The fixed end of every run: the faults cleared, the clock run past every timeout, and
/// a last poll by each final consumer the body creates. A shrunk body may have dropped
/// one's creation, and a poll by no consumer would make the replay's scenario fail.
fn tail(body: &[Action]) -> Vec<Action> {
    // Clearing the faults and starting a broker the (maybe shrunk) body left stopped
    // makes the cluster whole again.
    let mut t = vec![Action::ClearFaults];
    let mut down: Vec<i32> = Vec::new();
    for a in body {
        match a {
            Action::StopBroker { broker, .. } if !down.contains(broker) => down.push(*broker),
            Action::StartBroker { broker } => down.retain(|b| b != broker),
            _ => {}
        }
    }
    t.extend(
        down.into_iter()
            .map(|broker| Action::StartBroker { broker }),
    );
    t.push(Action::Advance { ms: TAIL_MS });
    for c in CONSUMERS {
        let created = body
            .iter()
            .any(|a| matches!(a, Action::CreateConsumer { name, .. } if name == c));
        if created {
            t.push(Action::Poll {
                consumer: c.to_string(),
            });
        }
    }
    t
}

/// Runs a schedule with the checker after every step, then the end-of-run checks.
/// Step numbers count scenario lines played, the `cluster` line first, so a replay of
/// `violation.step` lines shows the violation.
pub fn run(schedule: &Schedule) -> RunOutcome {
    let mut world = World::new(schedule.cluster.clone());
    let mut checker = Checker::new();
    let actions = schedule.actions();
    let mut step = 1;
    for action in &actions {
        // A refused action changes nothing; the run goes on, as a scenario does.
        let _ = world.apply(action);
        step += 1;
        checker.observe(&world, step);
    }
    checker.finish(&world, step);
    RunOutcome {
        violations: checker.violations().to_vec(),
        expected: checker.expected().to_vec(),
    }
}

/// The schedule of one seed: `steps` workload and fault actions after the setup.
pub fn generate(seed: u64, steps: usize, switches: &[BreakSwitch]) -> Schedule {
    generate_in(Slice::of(seed, switches), seed, steps, switches)
}

/// The schedule of one seed on a chosen slice (tests run a switch on the unclean
/// slice, which [`generate`] gives only to runs without switches).
pub fn generate_in(slice: Slice, seed: u64, steps: usize, switches: &[BreakSwitch]) -> Schedule {
    // Markers can only run ahead of a Prepare* record that waits for replication: the
    // `early-markers` switch gets three brokers and a replicated __transaction_state.
    let replicated = switches.contains(&BreakSwitch::EarlyMarkers);
    let elr = slice == Slice::Elr;
    let unclean = slice == Slice::Unclean;
    // Its own stream again: one unclean run in three elects by admin command.
    let by_admin = unclean && Rng::new(seed ^ UNCLEAN_STREAM ^ 1).below(3) == 0;
    let brokers = if replicated || elr || unclean { 3 } else { 1 };
    // One internal partition per broker (Kafka's `offsets.topic.num.partitions` and
    // `transaction.state.log.num.partitions`, 50 by default): each broker still leads
    // a coordinator's partition, and a run makes 2 or 6 internal logs instead of 100.
    let cluster = ClusterConfig {
        seed,
        brokers,
        offsets_topic_num_partitions: brokers,
        transaction_state_log_num_partitions: brokers,
        eligible_leader_replicas: elr,
        ..ClusterConfig::default()
    };
    let mut g = Generator {
        rng: Rng::new(seed),
        next_value: 0,
        txn: [TxnModel::New; 3],
        ctp: TxnModel::New,
        body: Vec::new(),
        elr,
        unclean,
        by_admin,
    };
    if replicated {
        for (key, value) in [
            ("transaction.state.log.replication.factor", "3"),
            ("transaction.state.log.min.isr", "2"),
        ] {
            g.body.push(Action::SetBrokerConfig {
                key: key.into(),
                value: value.into(),
            });
        }
    }
    for s in switches {
        g.body.push(Action::Break {
            switch: *s,
            on: true,
        });
    }
    // With `in-flight=N` the idempotent producer asks for N requests in flight (refused
    // without the switch, as Kafka's ProducerConfig refuses it).
    let in_flight = switches.iter().find_map(|s| match s {
        BreakSwitch::InFlight(n) => Some(*n),
        _ => None,
    });
    g.setup(in_flight);
    for _ in 0..steps {
        g.one();
    }
    Schedule {
        cluster,
        body: g.body,
    }
}

/// What the generator believes a transactional producer is doing (it may be wrong
/// after a fault; the world refuses what does not fit, and the run goes on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TxnModel {
    New,
    Ready,
    InTxn,
}

struct Generator {
    rng: Rng,
    next_value: u64,
    txn: [TxnModel; 3],
    ctp: TxnModel,
    body: Vec<Action>,
    /// An ELR cluster: three brokers, replicated topics, brokers stopped for a while.
    elr: bool,
    /// An unclean cluster: three brokers, replicated topics that allow unclean
    /// elections, failovers to an out-of-sync replica.
    unclean: bool,
    /// On an unclean cluster: the topics keep `unclean.leader.election.enable=false`
    /// and an admin asks for the unclean elections.
    by_admin: bool,
}

impl Generator {
    fn push(&mut self, a: Action) {
        self.body.push(a);
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.rng.below(items.len() as u64) as usize]
    }

    fn tp(&mut self) -> TopicPartition {
        TopicPartition::new(TOPIC, self.rng.below(PARTITIONS as u64) as i32)
    }

    fn value(&mut self, producer: &str) -> String {
        self.next_value += 1;
        format!("{producer}{}", self.next_value)
    }

    /// One new value from `producer` to a random partition.
    fn send(&mut self, producer: String) -> Action {
        let topic_partition = self.tp();
        let value = self.value(&producer);
        Action::Send {
            producer,
            topic_partition,
            values: vec![value],
        }
    }

    /// One value from the idempotent producer `i` to a random partition.
    fn send_idempotent(&mut self) {
        let send = self.send("i".into());
        self.push(send);
    }

    /// The topics' settings: replicated on an ELR or unclean cluster, Kafka's defaults
    /// otherwise. The unclean cluster keeps `min.insync.replicas=1`, so a leader alone
    /// in its ISR still takes writes the others lack.
    fn topic_configs(&self) -> Vec<(String, String)> {
        if self.elr {
            return vec![
                ("replication.factor".into(), "3".into()),
                ("min.insync.replicas".into(), "2".into()),
            ];
        }
        if self.unclean {
            let mut configs = vec![("replication.factor".into(), "3".into())];
            if !self.by_admin {
                configs.push(("unclean.leader.election.enable".into(), "true".into()));
            }
            return configs;
        }
        Vec::new()
    }

    fn setup(&mut self, in_flight: Option<u8>) {
        self.push(Action::CreateTopic {
            name: TOPIC.into(),
            partitions: PARTITIONS,
            configs: self.topic_configs(),
        });
        let configs = in_flight.map_or_else(Vec::new, |n| {
            vec![
                ("enable.idempotence".into(), "true".into()),
                (
                    "max.in.flight.requests.per.connection".into(),
                    n.to_string(),
                ),
            ]
        });
        self.push(Action::CreateProducer {
            name: "i".into(),
            configs,
        });
        for (name, id) in [("a", "ta"), ("b", "tb"), ("z", "ta")] {
            self.push(Action::CreateProducer {
                name: name.into(),
                configs: vec![("transactional.id".into(), id.into())],
            });
        }
        let tps: Vec<TopicPartition> = (0..PARTITIONS)
            .map(|p| TopicPartition::new(TOPIC, p))
            .collect();
        self.push(Action::CreateTopic {
            name: CTP_OUTPUT.into(),
            partitions: 1,
            configs: self.topic_configs(),
        });
        self.push(Action::CreateProducer {
            name: CTP_PRODUCER.into(),
            configs: vec![("transactional.id".into(), "tc".into())],
        });
        self.push(Action::CreateConsumer {
            name: CTP_CONSUMER.into(),
            configs: vec![
                ("group.id".into(), "g".into()),
                ("isolation.level".into(), "read_committed".into()),
                ("auto.offset.reset".into(), "earliest".into()),
            ],
        });
        self.push(Action::Assign {
            consumer: CTP_CONSUMER.into(),
            partitions: tps.clone(),
        });
        for (name, level) in [("rc", "read_committed"), ("ru", "read_uncommitted")] {
            self.push(Action::CreateConsumer {
                name: name.into(),
                configs: vec![
                    ("isolation.level".into(), level.into()),
                    ("auto.offset.reset".into(), "earliest".into()),
                ],
            });
            self.push(Action::Assign {
                consumer: name.into(),
                partitions: tps.clone(),
            });
        }
    }

    /// One workload or fault action (sometimes two that belong together).
    fn one(&mut self) {
        match self.rng.below(100) {
            0..=19 => self.idempotent(),
            20..=42 => self.transactional(),
            43..=54 => self.consume_transform_produce(),
            55..=66 => {
                let c = self.pick(&CONSUMERS);
                self.push(Action::Poll { consumer: c.into() })
            }
            _ => self.fault(),
        }
    }

    fn idempotent(&mut self) {
        match self.rng.below(4) {
            0 => self.push(Action::Flush {
                producer: "i".into(),
            }),
            1 => self.push(Action::Step),
            _ => {
                self.send_idempotent();
                if self.rng.below(2) == 0 {
                    self.push(Action::Step);
                }
            }
        }
    }

    fn transactional(&mut self) {
        let i = self.rng.below(TXN_PRODUCERS.len() as u64) as usize;
        let name = TXN_PRODUCERS[i].to_string();
        let state = self.txn[i];
        let action = match state {
            // A new instance of `a`'s app takes over at once: it inits, begins and
            // writes while `a` (now a zombie) may still be in its transaction.
            TxnModel::New if name == "z" => {
                self.txn[2] = TxnModel::InTxn;
                self.txn[0] = TxnModel::New;
                self.push(Action::InitTransactions {
                    producer: name.clone(),
                });
                self.push(Action::BeginTransaction {
                    producer: name.clone(),
                });
                self.send(name)
            }
            TxnModel::New => {
                self.txn[i] = TxnModel::Ready;
                // The zombie pair: `a` and `z` share a transactional.id; the other is
                // fenced and must init again before anything works.
                if name == "a" {
                    self.txn[2] = TxnModel::New;
                } else if name == "z" {
                    self.txn[0] = TxnModel::New;
                }
                Action::InitTransactions { producer: name }
            }
            TxnModel::Ready => {
                self.txn[i] = TxnModel::InTxn;
                Action::BeginTransaction { producer: name }
            }
            TxnModel::InTxn => match self.rng.below(10) {
                0..=4 => self.send(name),
                5..=6 => Action::Flush { producer: name },
                7..=8 => {
                    self.txn[i] = TxnModel::Ready;
                    Action::CommitTransaction { producer: name }
                }
                _ => {
                    self.txn[i] = TxnModel::Ready;
                    Action::AbortTransaction { producer: name }
                }
            },
        };
        self.push(action);
    }

    /// One step of the consume-transform-produce app: init, begin, a transform round
    /// (`crate::sim::transform`), commit or abort.
    fn consume_transform_produce(&mut self) {
        let producer = CTP_PRODUCER.to_string();
        let action = match self.ctp {
            TxnModel::New => {
                self.ctp = TxnModel::Ready;
                Action::InitTransactions { producer }
            }
            TxnModel::Ready => {
                self.ctp = TxnModel::InTxn;
                Action::BeginTransaction { producer }
            }
            TxnModel::InTxn => match self.rng.below(20) {
                0..=11 => Action::Transform {
                    producer,
                    consumer: CTP_CONSUMER.into(),
                    topic: CTP_OUTPUT.into(),
                },
                12..=16 => {
                    self.ctp = TxnModel::Ready;
                    Action::CommitTransaction { producer }
                }
                _ => {
                    self.ctp = TxnModel::Ready;
                    Action::AbortTransaction { producer }
                }
            },
        };
        self.push(action);
    }

    fn fault(&mut self) {
        let clients = ["i", "a", "b", "z"];
        let apis = [
            "Produce",
            "EndTxn",
            "WriteTxnMarkers",
            "AddPartitionsToTxn",
            "Fetch",
        ];
        let action = match self.rng.below(14) {
            0 => Action::DropNextResponse {
                to: Some(self.pick(&clients).into()),
            },
            1 => Action::DropNextRequest {
                from: Some(self.pick(&clients).into()),
            },
            2 => Action::ArmFault {
                fault: Fault::Delay {
                    matching: self.matching(&apis),
                    ms: [100, 5_000, 40_000][self.rng.below(3) as usize],
                    every: false,
                },
            },
            3 => Action::ArmFault {
                fault: Fault::Duplicate {
                    matching: self.matching(&apis),
                    every: false,
                },
            },
            // Faults that last (held markers, a cut link) end after a few steps that
            // do not block: a blocking call against them would only spin to the run
            // limit (the engine has no `max.block.ms`), which costs time, not cases.
            4 | 5 => {
                self.push(Action::HoldMarkers);
                self.short_window();
                Action::ReleaseMarkers
            }
            6 | 7 => {
                let c = Node::Client(self.pick(&clients).into());
                self.push(Action::ArmFault {
                    fault: Fault::Cut {
                        a: c.clone(),
                        b: Node::Broker(1),
                    },
                });
                self.short_window();
                Action::HealLink {
                    a: c,
                    b: Node::Broker(1),
                }
            }
            8 if self.elr => self.stop_brokers(),
            8 if self.unclean => self.unclean_failover(),
            8 => Action::RestartBroker {
                broker: 1,
                clean: self.rng.below(2) == 0,
            },
            9 => Action::Advance {
                ms: [100, 1_000, 31_000, 70_000][self.rng.below(4) as usize],
            },
            10 => Action::ClearFaults,
            11 => Action::RunUntilIdle,
            _ => {
                self.burst();
                Action::Step
            }
        };
        self.push(action);
    }

    /// A burst of idempotent sends to one partition while Produce requests are held, then every answer
    /// to them late, past `request.timeout.ms` (a stalled connection with up to
    /// `max.in.flight.requests.per.connection` requests in flight): each is retried. (A
    /// lost answer would break the connection and lose the requests still behind it.)
    fn burst(&mut self) {
        self.push(Action::HoldRequests {
            api: "Produce".into(),
        });
        let tp = self.tp();
        for _ in 0..6 + self.rng.below(3) {
            let v = self.value("i");
            self.push(Action::Send {
                producer: "i".into(),
                topic_partition: tp.clone(),
                values: vec![v],
            });
            self.push(Action::Step);
        }
        let lost = Fault::Delay {
            matching: MessageMatch {
                api: Some("Produce".into()),
                direction: Some(Direction::Response),
                from: None,
                to: Some(Node::Client("i".into())),
            },
            ms: 40_000,
            every: true,
        };
        self.push(Action::ArmFault {
            fault: lost.clone(),
        });
        self.push(Action::ReleaseRequests {
            api: "Produce".into(),
        });
        // Long enough for every request and its (late) answer to be sent, well short
        // of request.timeout.ms.
        self.push(Action::Advance { ms: 100 });
        self.push(Action::DisarmFault { fault: lost });
    }

    /// ELR cluster: one broker stopped (clean or crash), sometimes a second one after
    /// it, a few steps while they are down, then both started again; or any broker
    /// restarted at once.
    fn stop_brokers(&mut self) -> Action {
        let first = 1 + self.rng.below(3) as i32;
        if self.rng.below(3) == 0 {
            return Action::RestartBroker {
                broker: first,
                clean: self.rng.below(2) == 0,
            };
        }
        let clean = self.rng.below(2) == 0;
        self.push(Action::StopBroker {
            broker: first,
            clean,
        });
        self.short_window();
        if self.rng.below(2) == 0 {
            let second = 1 + (first + self.rng.below(2) as i32) % 3;
            let clean = self.rng.below(2) == 0;
            self.push(Action::StopBroker {
                broker: second,
                clean,
            });
            self.short_window();
            self.push(Action::StartBroker { broker: second });
        }
        self.short_window();
        Action::StartBroker { broker: first }
    }

    /// Unclean cluster: two brokers stopped (so the third leads alone in its ISRs and
    /// takes writes), one of them started again and the lone leader crashed before
    /// the started one catches up, so an out-of-sync replica leads: elected by the
    /// controller (the topics allow it), or in one run in three by an admin's
    /// `admin elect-leaders all election-type=UNCLEAN` (the topics do not). Then
    /// every broker starts again and the old leader truncates to the new one.
    fn unclean_failover(&mut self) -> Action {
        let lone = 1 + self.rng.below(3) as i32;
        let first = 1 + lone % 3;
        let second = 1 + first % 3;
        for broker in [first, second] {
            let clean = self.rng.below(2) == 0;
            self.push(Action::StopBroker { broker, clean });
        }
        // A crashed broker keeps its session until `broker.session.timeout.ms` (9 s):
        // wait it out, so the lone broker leads alone and the controller knows who is gone.
        self.push(Action::Advance {
            ms: SESSION_WAIT_MS,
        });
        self.short_window();
        self.push(Action::StartBroker { broker: first });
        self.push(Action::StopBroker {
            broker: lone,
            clean: false,
        });
        self.push(Action::Advance {
            ms: SESSION_WAIT_MS,
        });
        if self.by_admin {
            self.push(Action::AdminElectLeaders {
                election: ElectionType::Unclean,
                partitions: Vec::new(),
            });
        }
        self.short_window();
        self.push(Action::StartBroker { broker: second });
        self.short_window();
        Action::StartBroker { broker: lone }
    }

    /// One to three steps that never block: a network step, a little time, a send.
    fn short_window(&mut self) {
        for _ in 0..=self.rng.below(3) {
            match self.rng.below(3) {
                0 => self.push(Action::Step),
                1 => self.push(Action::Advance { ms: 1_000 }),
                _ => {
                    self.send_idempotent();
                }
            }
        }
    }

    fn matching(&mut self, apis: &[&str]) -> MessageMatch {
        let api = self.pick(apis);
        MessageMatch {
            api: Some(api.into()),
            direction: Some(if self.rng.below(2) == 0 {
                Direction::Request
            } else {
                Direction::Response
            }),
            from: None,
            to: None,
        }
    }
}

/// A little more than `broker.session.timeout.ms` (9 s): after it the controller has
/// fenced a broker that crashed.
const SESSION_WAIT_MS: i64 = 9_500;

/// Runs seeds `seeds` and returns each failing one, shrunk to the first violation's
/// kind. `on_run` hears about every run (for a progress bar).
pub fn search(
    seeds: std::ops::Range<u64>,
    steps: usize,
    switches: &[BreakSwitch],
    mut on_run: impl FnMut(u64, Option<&Finding>),
) -> Vec<Finding> {
    let mut found = Vec::new();
    for seed in seeds {
        let finding = check_seed(seed, steps, switches);
        on_run(seed, finding.as_ref());
        found.extend(finding);
    }
    found
}

/// One seed: generate, run, and if anything is found, shrink to the first violation.
pub fn check_seed(seed: u64, steps: usize, switches: &[BreakSwitch]) -> Option<Finding> {
    let schedule = generate(seed, steps, switches);
    let outcome = run(&schedule);
    let first = outcome.violations.first()?.anomaly;
    let shrunk = super::shrink::shrink(&schedule, first);
    let violation = run(&shrunk)
        .violations
        .into_iter()
        .find(|v| v.anomaly == first)?;
    Some(Finding {
        seed,
        violation,
        steps_before: schedule.body.len(),
        shrunk,
    })
}

/// Whether the run shows this kind of violation.
pub fn shows(schedule: &Schedule, anomaly: Anomaly) -> bool {
    run(schedule)
        .violations
        .iter()
        .any(|v| v.anomaly == anomaly)
}
