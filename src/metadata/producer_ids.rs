//! Producer-id blocks on the controller (`ProducerIdControlManager`): each
//! AllocateProducerIds a broker sends gets the next block of [`PRODUCER_ID_BLOCK_SIZE`]
//! ids; the broker's side, which hands the ids out, is `broker::producer_id_manager`.
//! Kafka keeps it in `org.apache.kafka.controller`; it is here, below the world,
//! because the world holds it, and the controller's duties (`crate::controller`)
//! call it.

use serde::Serialize;

/// `ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE`.
pub const PRODUCER_ID_BLOCK_SIZE: i32 = 1000;

/// The controller side: the start of the next block, which Kafka records as a
/// `ProducerIdsRecord` in the metadata log so ids are never reused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProducerIdControlManager {
    pub next_producer_id: i64,
}

impl ProducerIdControlManager {
    pub fn generate_next_block(&mut self) -> (i64, i32) {
        let first = self.next_producer_id;
        self.next_producer_id += i64::from(PRODUCER_ID_BLOCK_SIZE);
        (first, PRODUCER_ID_BLOCK_SIZE)
    }
}
