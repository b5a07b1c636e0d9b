//! eos-playground: a Kafka-style broker, transaction coordinator and clients in one
//! deterministic world, for learning exactly-once semantics.
//!
//! The layout, from the bottom up (docs/architecture.md draws how the layers import each
//! other: one way, as `tests/module_deps.rs` checks):
//!
//! - [`util`]: small helpers (byte cursors, sorting without std's sort, JSON quoting, LZSS).
//! - [`fs`]: `MemFs`, the broker's disk in memory.
//! - [`record`]: record batch v2 bytes, CRC32C, control records, dump-log lines.
//! - [`protocol`]: requests, responses and error codes, spoken by clients and brokers.
//! - [`breaks`]: the "break it" switches (NOT KAFKA), read by the layers they break.
//! - [`log`]: segments, indexes, producer state, `UnifiedLog` (LEO, HW, LSO).
//! - [`coordinator`]: the transaction coordinator and the group coordinator, and the
//!   internal topics they write.
//! - [`metadata`]: the cluster's metadata as the controller records it and the world
//!   holds it: partition registrations and their pure changes (ISR, elections,
//!   reassignment), a topic's replication settings, producer-id blocks, and the metadata
//!   log `__cluster_metadata` (feature `metadata-log`).
//! - [`raft`] (feature `metadata-log`): the controller quorum's Raft state machine
//!   (elections, epochs, the high watermark) on the logical clock.
//! - [`broker`]: one broker answering requests (KafkaApis' role) against its partitions,
//!   leading or following them (ReplicaManager / Partition: ISR, HW, follower fetches).
//! - [`client`]: the producer (with its TransactionManager) and the consumer.
//! - [`pulsar`] (feature `pulsar`): Apache Pulsar's transactions (coordinator, transaction
//!   log, transaction buffer, pending ack) on a world of their own, for comparison.
//! - [`sim`]: the world: logical clock, network and faults, actions, events, the read API.
//! - [`admin`]: Kafka's admin tools on the world (describe-producers, find-hanging, abort,
//!   delete-records).
//! - [`controller`]: every controller duty, carried out in the world (KRaft's role,
//!   simplified): creating topics and placing replicas, telling the brokers, ISR changes,
//!   fencing and controlled shutdown, elections, reassignment, writing the metadata log,
//!   the quorum's failover; it decides with `metadata` and adds its methods to `World`.
//! - [`checker`] (feature `checker`): the invariant checker (Jepsen's anomaly names, Kafka's invariants) over
//!   the world's events and read API; chaos runs and their shrinker.
//! - [`i18n`]: the catalog: UI labels and the narration of every event and error, per
//!   language.
//! - [`inspect`]: a Kafka partition folder read as `kafka-dump-log.sh` and recovery read it
//!   (`eos inspect`).
//! - [`scenario`]: the scenario language (parse, print, run), lessons and share links.
//! - [`view`]: view models: what each page shows, built from the world's read API, tested
//!   natively (after `scenario`: time travel prints actions in the scenario language).
//! - [`zip`]: a folder of files as one .zip (what the page opens and downloads).
//! - `cli` (native) and `ui` (wasm, Yew): the two front ends.

pub mod admin;
pub mod breaks;
pub mod broker;
#[cfg(feature = "checker")]
pub mod checker;
pub mod client;
pub mod controller;
pub mod coordinator;
pub mod fs;
pub mod i18n;
pub mod inspect;
pub mod log;
pub mod metadata;
pub mod protocol;
#[cfg(feature = "pulsar")]
pub mod pulsar;
#[cfg(feature = "metadata-log")]
pub mod raft;
pub mod record;
pub mod scenario;
pub mod sim;
pub mod util;
pub mod view;
pub mod zip;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(target_arch = "wasm32")]
pub mod ui;
