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

    /// The entry as a Fetch response lists it (`AbortedTxn.asAbortedTransaction`):
    /// (producer id, first offset).
    pub fn as_aborted_transaction(&self) -> (i64, i64) {
        (self.producer_id, self.first_offset)
    }

    /// The line `kafka-dump-log.sh` prints for this entry.
    pub fn dump_line(&self) -> String {
        format!(
            "version: 0 producerId: {} firstOffset: {} lastOffset: {} lastStableOffset: {}",
            self.producer_id, self.first_offset, self.last_offset, self.last_stable_offset
        )
    }
}

/// `TransactionIndex.append`'s rule (Kafka 4.0): the entries of an index follow their
/// markers, so an entry whose last offset is not greater than the previous entry's is
/// refused (`IllegalArgumentException`: "The last offset of appended transactions must
/// increase sequentially"). Every writer of a `.txnindex` here appends in marker order
/// and checks it in debug builds.
pub fn check_append_order(previous: Option<&AbortedTxn>, txn: &AbortedTxn) -> Result<(), i64> {
    match previous {
        Some(p) if p.last_offset >= txn.last_offset => Err(p.last_offset),
        _ => Ok(()),
    }
}

/// Whether `entries` could have been appended one by one ([`check_append_order`]).
pub fn in_append_order(entries: &[AbortedTxn]) -> bool {
    entries
        .windows(2)
        .all(|w| check_append_order(w.first(), &w[1]).is_ok())
}

/// What one segment's `.txnindex` gives a fetch (Kafka's `TxnIndexSearchResult`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxnIndexSearchResult {
    pub aborted_transactions: Vec<AbortedTxn>,
    /// An entry's LSO reached the upper bound: no later segment can hold a transaction
    /// that began below it, so the search stops here.
    pub is_complete: bool,
}

/// `TransactionIndex.collectAbortedTxns` (Kafka 4.0): the entries, in index order,
/// whose transaction ends at or after `fetch_offset` and begins before
/// `upper_bound_offset`, stopping after the first whose last stable offset reaches the
/// upper bound.
pub fn collect_aborted_txns(
    entries: &[AbortedTxn],
    fetch_offset: i64,
    upper_bound_offset: i64,
) -> TxnIndexSearchResult {
    let mut aborted_transactions = Vec::new();
    for txn in entries {
        if txn.last_offset >= fetch_offset && txn.first_offset < upper_bound_offset {
            aborted_transactions.push(*txn);
        }
        if txn.last_stable_offset >= upper_bound_offset {
            return TxnIndexSearchResult {
                aborted_transactions,
                is_complete: true,
            };
        }
    }
    TxnIndexSearchResult {
        aborted_transactions,
        is_complete: false,
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

    /// `TransactionIndexTest.testLastOffsetMustIncrease` and
    /// `testLastOffsetCannotDecrease` (Kafka 4.0).
    #[test]
    fn an_entry_must_end_after_the_previous_one() {
        let t = |producer_id, first_offset, last_offset, last_stable_offset| AbortedTxn {
            producer_id,
            first_offset,
            last_offset,
            last_stable_offset,
        };
        let first = t(1, 5, 15, 13);
        assert_eq!(check_append_order(None, &first), Ok(()));
        assert_eq!(check_append_order(Some(&first), &t(0, 0, 15, 11)), Err(15));
        assert_eq!(check_append_order(Some(&first), &t(0, 0, 10, 11)), Err(15));
        assert_eq!(check_append_order(Some(&first), &t(0, 0, 16, 11)), Ok(()));
        assert!(in_append_order(&[t(0, 0, 10, 11), t(1, 5, 15, 13)]));
        assert!(!in_append_order(&[t(1, 5, 15, 13), t(0, 0, 10, 11)]));
    }

    /// `TransactionIndexTest.testCollectAbortedTransactions` (Kafka 4.0).
    #[test]
    fn collect_aborted_txns_bounds_and_completion() {
        let t = |producer_id, first_offset, last_offset, last_stable_offset| AbortedTxn {
            producer_id,
            first_offset,
            last_offset,
            last_stable_offset,
        };
        let all = [
            t(0, 0, 10, 11),
            t(1, 5, 15, 13),
            t(2, 18, 35, 25),
            t(3, 32, 50, 40),
        ];
        let check = |fetch, upper, want: &[AbortedTxn], complete| {
            let r = collect_aborted_txns(&all, fetch, upper);
            assert_eq!(r.aborted_transactions, want, "({fetch}, {upper})");
            assert_eq!(r.is_complete, complete, "({fetch}, {upper})");
        };
        check(0, 100, &all, false);
        check(0, 32, &all[..3], true);
        check(0, 35, &all, true);
        check(10, 35, &all, true);
        check(11, 35, &all[1..], true);
        check(20, 41, &all[2..], false);
    }
}
