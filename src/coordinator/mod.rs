//! The coordinators, as Kafka's `coordinator` packages: [`transaction`] (the transaction
//! coordinator and `__transaction_state`) and [`group`] (consumer-group offsets and
//! `__consumer_offsets`), plus [`internal_topics`], which picks the partition — and so the
//! coordinator — for a key.

pub mod group;
pub mod internal_topics;
pub mod transaction;
