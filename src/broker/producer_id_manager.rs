//! Producer ids handed out in blocks (Kafka's `RPCProducerIdManager` on the broker and
//! `ProducerIdControlManager` on the controller).
//!
//! A broker serves ids from the block it holds. When it has none it asks the
//! controller for the next block of [`PRODUCER_ID_BLOCK_SIZE`] and, until the block
//! arrives, answers InitProducerId with COORDINATOR_LOAD_IN_PROGRESS — which is what
//! a fresh broker does in seed 000's example 2.

use serde::Serialize;

use crate::protocol::errors::Errors;

/// `ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE`.
pub const PRODUCER_ID_BLOCK_SIZE: i32 = 1000;

/// A contiguous range of producer ids owned by one broker (`ProducerIdsBlock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ProducerIdsBlock {
    pub first: i64,
    pub size: i32,
    /// The next id to hand out.
    pub next: i64,
}

impl ProducerIdsBlock {
    pub fn last(&self) -> i64 {
        self.first + i64::from(self.size) - 1
    }
}

/// The broker side: the current block and whether a request for the next is out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProducerIdManager {
    pub block: Option<ProducerIdsBlock>,
    pub request_in_flight: bool,
}

/// What `generate_producer_id` decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Generated {
    Id(i64),
    /// No id yet; `true` when the caller must now ask the controller for a block.
    NotYet {
        ask_controller: bool,
    },
}

impl ProducerIdManager {
    /// `generateProducerId`: the next id, or COORDINATOR_LOAD_IN_PROGRESS while a block is fetched.
    pub fn generate_producer_id(&mut self) -> Generated {
        if let Some(block) = self.block.as_mut() {
            if block.next <= block.last() {
                let id = block.next;
                block.next += 1;
                return Generated::Id(id);
            }
        }
        let ask = !self.request_in_flight;
        self.request_in_flight = true;
        Generated::NotYet {
            ask_controller: ask,
        }
    }

    /// The error a waiting client sees (retriable, so KafkaProducer hides it).
    pub const WAIT_ERROR: Errors = Errors::CoordinatorLoadInProgress;

    pub fn receive_block(&mut self, first: i64, size: i32) {
        self.block = Some(ProducerIdsBlock {
            first,
            size,
            next: first,
        });
        self.request_in_flight = false;
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_call_waits_for_a_block_then_ids_count_up() {
        let mut broker = ProducerIdManager::default();
        let mut controller = ProducerIdControlManager::default();
        assert_eq!(
            broker.generate_producer_id(),
            Generated::NotYet {
                ask_controller: true
            }
        );
        assert_eq!(
            broker.generate_producer_id(),
            Generated::NotYet {
                ask_controller: false
            }
        );
        let (first, size) = controller.generate_next_block();
        broker.receive_block(first, size);
        assert_eq!(broker.generate_producer_id(), Generated::Id(0));
        assert_eq!(broker.generate_producer_id(), Generated::Id(1));
        assert_eq!(controller.generate_next_block(), (1000, 1000));
    }

    #[test]
    fn an_exhausted_block_asks_again() {
        let mut broker = ProducerIdManager::default();
        broker.receive_block(0, 1);
        assert_eq!(broker.generate_producer_id(), Generated::Id(0));
        assert_eq!(
            broker.generate_producer_id(),
            Generated::NotYet {
                ask_controller: true
            }
        );
    }
}
