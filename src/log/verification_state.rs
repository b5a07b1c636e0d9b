//! What a leader remembers about a transactional producer while it verifies that the
//! producer added the partition to its transaction (KIP-890 part 1; Kafka's
//! `VerificationStateEntry`, Kafka 4.0, mirror commit 1eb7644).
//!
//! Verification can fail with a retriable error (the coordinator is busy or moving)
//! for a lower sequence while a higher one, sent right after it, verifies. Without a
//! memory of the lower one, the higher batch would be the producer's first here — any
//! sequence is taken — and the lower one's retry would then be out of order for good.
//! So the leader keeps the lowest sequence it has started verifying and refuses any
//! batch above it with OUT_OF_ORDER_SEQUENCE_NUMBER until a transactional batch of the
//! producer is written.

use serde::Serialize;

/// One producer's verification in progress on this partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct VerificationStateEntry {
    /// When the first verification started: an entry older than
    /// `producer.id.expiration.ms` is dropped with the expired producers.
    timestamp_ms: i64,
    lowest_sequence: i32,
    epoch: i16,
}

impl VerificationStateEntry {
    pub fn new(timestamp_ms: i64, sequence: i32, epoch: i16) -> Self {
        VerificationStateEntry {
            timestamp_ms,
            lowest_sequence: sequence,
            epoch,
        }
    }

    /// The lowest sequence seen while verifying, under [`epoch`](Self::epoch).
    pub fn lowest_sequence(&self) -> i32 {
        self.lowest_sequence
    }

    pub fn epoch(&self) -> i16 {
        self.epoch
    }

    pub fn timestamp_ms(&self) -> i64 {
        self.timestamp_ms
    }

    /// `maybeUpdateLowestSequenceAndEpoch`: a lower sequence of the same epoch lowers
    /// the bar; a newer epoch starts it again (its sequences restart).
    pub fn maybe_update_lowest_sequence_and_epoch(&mut self, sequence: i32, epoch: i16) {
        if epoch == self.epoch && sequence < self.lowest_sequence {
            self.lowest_sequence = sequence;
        }
        if epoch > self.epoch {
            self.epoch = epoch;
            self.lowest_sequence = sequence;
        }
    }
}
