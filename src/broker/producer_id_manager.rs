//! Producer ids handed out in blocks, on the broker (Kafka's `RPCProducerIdManager`;
//! the controller's side, `ProducerIdControlManager`, is in `metadata::producer_ids`).
//!
//! A broker serves ids from the block it holds. When it has none it asks the
//! controller for the next block of
//! [`PRODUCER_ID_BLOCK_SIZE`](crate::metadata::PRODUCER_ID_BLOCK_SIZE) and, until the block
//! arrives, answers InitProducerId with COORDINATOR_LOAD_IN_PROGRESS — which is what
//! a fresh broker does in seed 000's example 2.

use serde::Serialize;

use crate::protocol::errors::Errors;

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

/// `PidPrefetchThreshold` (0.90): once the id at 90 % of the current block is handed
/// out, the next block is asked for, so a busy broker never waits for one.
pub const PID_PREFETCH_THRESHOLD_PERCENT: i64 = 90;
/// `RetryBackoffMs`: after a failed AllocateProducerIds, wait this long before asking
/// again.
pub const RETRY_BACKOFF_MS: i64 = 50;
/// How long the broker's channel to the controller waits for an AllocateProducerIds
/// answer (`controller.socket.timeout.ms`, 30 s; Kafka 4.0's
/// NodeToControllerChannelManager). Kafka then resends on its own (until the
/// channel's 60 s `retryTimeoutMs`, after which `handleTimeout` clears the request);
/// simplified here: the request counts as lost and the next id asked for sends it.
pub const CONTROLLER_REQUEST_TIMEOUT_MS: i64 = 30_000;

/// The broker side (Kafka 4.0's `RPCProducerIdManager`, trunk 1eb7644): the current
/// block, the next one once fetched, and the state of the request for it.
///
/// Private fields: ids come only out of `generate_producer_id`, blocks only in by
/// `receive_block`, so no id is handed out twice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProducerIdManager {
    block: Option<ProducerIdsBlock>,
    /// The prefetched block (`nextProducerIdBlock`), used when `block` runs out.
    next_block: Option<ProducerIdsBlock>,
    /// When the AllocateProducerIds in flight was sent, if one is.
    request_sent_ms: Option<i64>,
    /// No request before this time (`backoffDeadlineMs`) after a failed one.
    backoff_deadline_ms: Option<i64>,
}

/// What `generate_producer_id` decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Generated {
    /// An id; `ask_controller` when the caller must now ask for the next block (the
    /// prefetch at 90 %).
    Id { id: i64, ask_controller: bool },
    /// No id yet (COORDINATOR_LOAD_IN_PROGRESS); `ask_controller` when the caller must
    /// now ask the controller for a block.
    NotYet { ask_controller: bool },
}

impl ProducerIdManager {
    /// The block ids are handed out from, if any.
    pub fn current_block(&self) -> Option<&ProducerIdsBlock> {
        self.block.as_ref()
    }

    /// The prefetched block waiting for the current one to run out.
    pub fn next_block(&self) -> Option<&ProducerIdsBlock> {
        self.next_block.as_ref()
    }

    /// Whether an AllocateProducerIds is out.
    pub fn request_in_flight(&self) -> bool {
        self.request_sent_ms.is_some()
    }

    /// `generateProducerId`: the next id of the current block (switching to the
    /// prefetched block when it is used up), or COORDINATOR_LOAD_IN_PROGRESS while a
    /// block is fetched.
    pub fn generate_producer_id(&mut self, now_ms: i64) -> Generated {
        let claimed = self.claim_next_id().or_else(|| {
            let next = self.next_block.take()?;
            self.block = Some(next);
            self.request_sent_ms = None;
            self.claim_next_id()
        });
        match claimed {
            Some(id) => {
                let prefetch = self.block.is_some_and(|b| {
                    id == b
                        .first
                        .saturating_add(i64::from(b.size) * PID_PREFETCH_THRESHOLD_PERCENT / 100)
                });
                Generated::Id {
                    id,
                    ask_controller: prefetch && self.maybe_request_next_block(now_ms),
                }
            }
            None => Generated::NotYet {
                ask_controller: self.maybe_request_next_block(now_ms),
            },
        }
    }

    fn claim_next_id(&mut self) -> Option<i64> {
        let block = self.block.as_mut()?;
        if block.next > block.last() {
            return None;
        }
        let id = block.next;
        block.next += 1;
        Some(id)
    }

    /// `maybeRequestNextBlock`: whether to send AllocateProducerIds now — not during
    /// a backoff, not with a block already prefetched, not twice at once (a request
    /// unanswered for [`CONTROLLER_REQUEST_TIMEOUT_MS`] counts as timed out).
    fn maybe_request_next_block(&mut self, now_ms: i64) -> bool {
        if self.backoff_deadline_ms.is_some_and(|d| now_ms < d) || self.next_block.is_some() {
            return false;
        }
        if let Some(sent) = self.request_sent_ms {
            if now_ms < sent.saturating_add(CONTROLLER_REQUEST_TIMEOUT_MS) {
                return false;
            }
        }
        self.request_sent_ms = Some(now_ms);
        self.backoff_deadline_ms = None;
        true
    }

    /// The error a waiting client sees (retriable, so KafkaProducer hides it).
    pub const WAIT_ERROR: Errors = Errors::CoordinatorLoadInProgress;

    /// `handleAllocateProducerIdsResponse` with NONE: the block becomes the next one,
    /// unless it is not after the current one or not a valid range, which counts as a
    /// failure. Returns whether it was taken.
    pub fn receive_block(&mut self, first: i64, size: i32, now_ms: i64) -> bool {
        let current_last = self.block.map_or(-1, |b| b.last());
        let valid =
            first >= current_last && first >= 0 && size >= 0 && first <= i64::MAX - i64::from(size);
        if !valid {
            self.allocation_failed(now_ms);
            return false;
        }
        self.next_block = Some(ProducerIdsBlock {
            first,
            size,
            next: first,
        });
        true
    }

    /// An AllocateProducerIds answered with an error: ask again after the backoff.
    pub fn allocation_failed(&mut self, now_ms: i64) {
        self.backoff_deadline_ms = Some(now_ms.saturating_add(RETRY_BACKOFF_MS));
        self.request_sent_ms = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::ProducerIdControlManager;

    fn id(id: i64, ask_controller: bool) -> Generated {
        Generated::Id { id, ask_controller }
    }

    fn not_yet(ask_controller: bool) -> Generated {
        Generated::NotYet { ask_controller }
    }

    #[test]
    fn first_call_waits_for_a_block_then_ids_count_up() {
        let mut broker = ProducerIdManager::default();
        let mut controller = ProducerIdControlManager::default();
        assert_eq!(broker.generate_producer_id(0), not_yet(true));
        assert_eq!(broker.generate_producer_id(0), not_yet(false));
        let (first, size) = controller.generate_next_block();
        assert!(broker.receive_block(first, size, 0));
        assert_eq!(broker.generate_producer_id(0), id(0, false));
        assert_eq!(broker.generate_producer_id(0), id(1, false));
        assert!(!broker.request_in_flight());
        assert_eq!(controller.generate_next_block(), (1000, 1000));
    }

    /// RPCProducerIdManager: the id at 90 % of the block asks for the next block;
    /// when the block runs out the prefetched one is used at once, no waiting
    /// (ProducerIdManagerTest.testConcurrentGeneratePidRequests: blocks used back to
    /// back, every id once).
    #[test]
    fn the_next_block_is_fetched_at_ninety_percent_and_used_without_a_wait() {
        let mut broker = ProducerIdManager::default();
        broker.receive_block(0, 10, 0);
        for n in 0..9 {
            assert_eq!(broker.generate_producer_id(0), id(n, false));
        }
        assert_eq!(broker.generate_producer_id(0), id(9, true));
        assert!(broker.request_in_flight());
        assert!(broker.receive_block(10, 10, 1));
        // The current block is used up: the prefetched one takes over.
        assert_eq!(broker.generate_producer_id(2), id(10, false));
        assert_eq!(broker.current_block().map(|b| b.first), Some(10));
        assert!(broker.next_block().is_none());
        assert!(!broker.request_in_flight());
    }

    #[test]
    fn a_one_id_block_asks_for_the_next_with_its_only_id() {
        // (1 × 0.90) rounds down to 0: the prefetch target is the first id.
        let mut broker = ProducerIdManager::default();
        broker.receive_block(0, 1, 0);
        assert_eq!(broker.generate_producer_id(0), id(0, true));
        assert_eq!(broker.generate_producer_id(0), not_yet(false));
        assert!(broker.receive_block(1, 1, 1));
        assert_eq!(broker.generate_producer_id(1), id(1, true));
    }

    /// ProducerIdManagerTest.testRetryBackoff / testUnrecoverableErrors: after an
    /// error answer no request goes out for RetryBackoffMs (50).
    #[test]
    fn a_failed_allocation_is_retried_after_the_backoff() {
        let mut broker = ProducerIdManager::default();
        assert_eq!(broker.generate_producer_id(0), not_yet(true));
        broker.allocation_failed(5);
        assert_eq!(broker.generate_producer_id(54), not_yet(false));
        assert_eq!(broker.generate_producer_id(55), not_yet(true));
    }

    /// ProducerIdManagerTest.testInvalidRanges: a negative start or length, or a range
    /// past Long.MAX_VALUE, is refused like an error.
    #[test]
    fn invalid_ranges_are_refused() {
        for (first, size) in [(-1, 10), (0, -1), (i64::MAX - 1, 10)] {
            let mut broker = ProducerIdManager::default();
            assert_eq!(broker.generate_producer_id(0), not_yet(true));
            assert!(!broker.receive_block(first, size, 0));
            assert_eq!(broker.generate_producer_id(0), not_yet(false));
            assert_eq!(broker.generate_producer_id(RETRY_BACKOFF_MS), not_yet(true));
        }
    }

    /// A lost AllocateProducerIds (request or answer): the controller channel gives up
    /// after its timeout and the next id asked for sends the request again.
    #[test]
    fn a_lost_allocation_is_sent_again_after_the_channel_timeout() {
        let mut broker = ProducerIdManager::default();
        assert_eq!(broker.generate_producer_id(0), not_yet(true));
        let t = CONTROLLER_REQUEST_TIMEOUT_MS;
        assert_eq!(broker.generate_producer_id(t - 1), not_yet(false));
        assert_eq!(broker.generate_producer_id(t), not_yet(true));
    }
}
