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
//! - [`broker`]: one broker answering requests (KafkaApis' role) against its partitions,
//!   leading or following them (ReplicaManager / Partition: ISR, HW, follower fetches).
//! - [`controller`]: the controller's decisions: replica placement, leader election,
//!   ISR changes, producer-id blocks (KRaft's role, simplified); `sim` carries them out.
//! - [`client`]: the producer (with its TransactionManager) and the consumer.
//! - [`pulsar`] (feature `pulsar`): Apache Pulsar's transactions (coordinator, transaction
//!   log, transaction buffer, pending ack) on a world of their own, for comparison.
//! - [`sim`]: the world: logical clock, network and faults, actions, events, the read API.
//! - [`admin`]: Kafka's admin tools on the world (describe-producers, find-hanging, abort,
//!   delete-records).
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
pub mod protocol;
#[cfg(feature = "pulsar")]
pub mod pulsar;
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
