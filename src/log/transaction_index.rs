//! The transaction index (`.txnindex`, Kafka's `TransactionIndex` and `AbortedTxn`):
//! one 34-byte entry per aborted transaction, written when its ABORT marker lands,
//! so a `read_committed` fetch can tell the consumer which batches to skip.

use serde::Serialize;

/// The size of one entry on disk.
pub const ABORTED_TXN_SIZE: usize = 34;

/// One aborted transaction: version i16 (0), producerId i64, firstOffset i64,
/// lastOffset i64 (the marker), lastStableOffset i64 (the LSO once it completed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AbortedTxn {
    pub producer_id: i64,
    pub first_offset: i64,
    pub last_offset: i64,
    pub last_stable_offset: i64,
}

impl AbortedTxn {
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(ABORTED_TXN_SIZE);
        out.extend_from_slice(&0i16.to_be_bytes());
        out.extend_from_slice(&self.producer_id.to_be_bytes());
        out.extend_from_slice(&self.first_offset.to_be_bytes());
        out.extend_from_slice(&self.last_offset.to_be_bytes());
        out.extend_from_slice(&self.last_stable_offset.to_be_bytes());
        out
    }

    /// Every whole entry of a `.txnindex` file (a torn tail is ignored).
    pub fn decode_all(bytes: &[u8]) -> Vec<AbortedTxn> {
        bytes
            .chunks_exact(ABORTED_TXN_SIZE)
            .map(|c| {
                let i64_at = |at: usize| {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&c[at..at + 8]);
                    i64::from_be_bytes(b)
                };
                AbortedTxn {
                    producer_id: i64_at(2),
                    first_offset: i64_at(10),
                    last_offset: i64_at(18),
                    last_stable_offset: i64_at(26),
                }
            })
            .collect()
    }

    /// Whether the batch `first..=last` of `producer_id` lies in this aborted transaction
    /// (its data from `first_offset` up to its ABORT marker at `last_offset`).
    pub fn covers(&self, producer_id: i64, first: i64, last: i64) -> bool {
        self.producer_id == producer_id && self.first_offset <= first && last <= self.last_offset
    }

    /// The line `kafka-dump-log.sh` prints for this entry.
    pub fn dump_line(&self) -> String {
        format!(
            "version: 0 producerId: {} firstOffset: {} lastOffset: {} lastStableOffset: {}",
            self.producer_id, self.first_offset, self.last_offset, self.last_stable_offset
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_34_bytes_and_round_trip() {
        let t = AbortedTxn {
            producer_id: 0,
            first_offset: 4,
            last_offset: 7,
            last_stable_offset: 8,
        };
        let bytes = t.encode();
        assert_eq!(bytes.len(), 34);
        assert_eq!(&bytes[..2], &[0, 0]);
        let mut two = bytes.clone();
        two.extend_from_slice(&bytes);
        two.push(9);
        assert_eq!(AbortedTxn::decode_all(&two), vec![t, t]);
        assert_eq!(
            t.dump_line(),
            "version: 0 producerId: 0 firstOffset: 4 lastOffset: 7 lastStableOffset: 8"
        );
    }
}
