//! View models: what each page shows, built from the world's read API and tested
//! natively. Nothing here renders (the Yew components in `ui` do) and nothing here
//! changes the world: each function reads a world and returns plain data.
//!
//! - [`partition`]: the partition's batches told apart into committed, aborted and open
//!   data and markers, with the LSO and the high watermark.
//! - [`log_rows`]: the log table's rows: each batch, and the offsets the cleaner
//!   removed between them.
//! - [`producers`]: the transactional producers and their last transaction call.
//! - [`coordinators`]: each transactional id as its coordinator holds it, and its
//!   `__transaction_state` records.
//! - [`consumers`]: the consumers of the shown partition and the offsets they skipped.
//! - [`timeline`]: the request sequence diagram, and the menu of a message in flight.
//! - [`tone`]: how each page's event list marks an event.
//! - [`network`]: the faults in force, the links a learner can cut, the held messages.
//! - [`rules`]: the transaction rules in force (`transaction.version`, verification).
//! - [`txn_admin`]: `describe-producers` and `find-hanging`, with `abort`.
//! - [`events`]: a page's narrated event list.
//! - [`cluster`]: the cluster panel: brokers, their controller links and coordinators.
//! - [`txn_page`]: everything the transactions page shows, read from one world.
//! - [`idempotence_page`]: everything the idempotence page shows, read from one world.
//! - [`page`]: the two pages — their setup, and what one click on them does.
//! - [`history`]: time travel — the learner's recorded actions, replayed exactly.
//! - [`validate`]: checks for what a learner types.
//! - [`replicas`]: brokers up, fenced or stopped; a partition's replicas side by side.
//! - [`window`]: the restart that rebuilt a dedup window, to explain it in the panel.
//! - [`alt`]: the pictures in words (state diagram, offset strip, timeline) for screen
//!   readers.
//! - [`announce`]: the narration a screen reader hears after each action, once.
//! - [`warm`]: the clicks a page plays at idle, unseen, so the first real one is fast.
//! - [`pulsar`] (feature `pulsar`): the Pulsar page's models.
//! - [`compare`] (feature `pulsar`): the comparison page — one story on both engines,
//!   side by side, and the differences table it fills in.

pub mod alt;
pub mod announce;
pub mod challenges;
pub mod changed;
pub mod cluster;
#[cfg(feature = "pulsar")]
pub mod compare;
pub mod consumers;
pub mod coordinators;
pub mod events;
pub mod history;
pub mod idempotence_page;
pub mod log_rows;
pub mod network;
pub mod page;
pub mod partition;
pub mod producers;
#[cfg(feature = "pulsar")]
pub mod pulsar;
pub mod replicas;
pub mod rules;
pub mod timeline;
pub mod tone;
pub mod txn_admin;
pub mod txn_page;
pub mod validate;
pub mod warm;
pub mod window;
