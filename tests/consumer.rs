#![cfg(not(target_arch = "wasm32"))]
//! The consumer's fetch path (CompletedFetch rules) on hand-built logs, and the group
//! coordinator's offsets (plain, transactional, fetch, load).

use std::collections::BTreeMap;

use eos_playground::client::consumer::{
    summary_line, AbortedTransaction, CompletedFetch, Consumer, ConsumerConfig, ConsumerEvent,
    ConsumerRecord, FetchPartitionData, IsolationLevel,
};
use eos_playground::coordinator::group::{
    console_formatter_line, dump_log_line, GroupCoordinator, OffsetCommitEntry, OffsetCommitKey,
    OffsetCommitValue, OffsetLogWriter,
};
use eos_playground::coordinator::internal_topics::partition_for;
use eos_playground::i18n::narration::consumer_event;
use eos_playground::i18n::Lang;
use eos_playground::log::TopicPartition;
use eos_playground::protocol::errors::Errors;
use eos_playground::record::{ControlRecordType, RecordBatch};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// A partition log built by hand, with the broker's view of it (HW, LSO, aborted list).
// ---------------------------------------------------------------------------------------

#[derive(Default)]
struct LogBuilder {
    batches: Vec<RecordBatch>,
    next: i64,
    /// producer id -> first offset of its open transaction.
    open: BTreeMap<i64, i64>,
    /// (producer id, first offset, last offset = the ABORT marker), as in .txnindex.
    aborted: Vec<(i64, i64, i64)>,
    sequences: BTreeMap<i64, i32>,
}

impl LogBuilder {
    fn data(&mut self, pid: i64, epoch: i16, transactional: bool, values: &[&str]) {
        let kvs = values
            .iter()
            .map(|v| (None, Some(v.as_bytes().to_vec())))
            .collect();
        let seq = if pid >= 0 {
            let s = self.sequences.entry(pid).or_insert(0);
            let base = *s;
            *s += values.len() as i32;
            base
        } else {
            -1
        };
        let batch = RecordBatch::new_data(self.next, pid, epoch, seq, transactional, 1000, kvs);
        if transactional {
            self.open.entry(pid).or_insert(self.next);
        }
        self.next = batch.next_offset();
        self.batches.push(batch);
    }

    fn marker(&mut self, pid: i64, epoch: i16, commit: bool) {
        let kind = if commit {
            ControlRecordType::Commit
        } else {
            ControlRecordType::Abort
        };
        let first = self.open.remove(&pid);
        if !commit {
            if let Some(first) = first {
                self.aborted.push((pid, first, self.next));
            }
        }
        self.batches.push(RecordBatch::new_control(
            self.next, pid, epoch, 1000, kind, 0,
        ));
        self.next += 1;
    }

    fn high_watermark(&self) -> i64 {
        self.next
    }

    fn last_stable_offset(&self) -> i64 {
        self.open.values().copied().min().unwrap_or(self.next)
    }

    /// What the broker answers to a fetch from `from`: batches up to HW or LSO, and for
    /// read_committed the aborted transactions overlapping [from, upper)
    /// (LocalLog.collectAbortedTransactions: lastOffset >= from, firstOffset < upper).
    /// `max_batches` cuts the answer short, like a small fetch size.
    fn fetch(
        &self,
        from: i64,
        isolation: IsolationLevel,
        max_batches: usize,
    ) -> FetchPartitionData {
        let limit = match isolation {
            IsolationLevel::ReadCommitted => self.last_stable_offset(),
            IsolationLevel::ReadUncommitted => self.high_watermark(),
        };
        let mut records = Vec::new();
        let mut upper = from;
        for b in self
            .batches
            .iter()
            .filter(|b| b.last_offset() >= from && b.last_offset() < limit)
            .take(max_batches)
        {
            b.encode_into(&mut records);
            upper = b.next_offset();
        }
        let aborted = match isolation {
            IsolationLevel::ReadUncommitted => None,
            IsolationLevel::ReadCommitted => {
                let list: Vec<AbortedTransaction> = self
                    .aborted
                    .iter()
                    .filter(|(_, first, last)| *last >= from && *first < upper)
                    .map(|&(producer_id, first_offset, _)| AbortedTransaction {
                        producer_id,
                        first_offset,
                    })
                    .collect();
                (!list.is_empty()).then_some(list)
            }
        };
        FetchPartitionData {
            error: Errors::None,
            high_watermark: self.high_watermark(),
            last_stable_offset: self.last_stable_offset(),
            log_start_offset: 0,
            aborted_transactions: aborted,
            records,
        }
    }
}

fn tp() -> TopicPartition {
    TopicPartition::new("u12-txn", 0)
}

fn consumer(isolation: &str, extra: &[(&str, &str)]) -> Consumer {
    let mut pairs = vec![
        ("isolation.level", isolation),
        ("auto.offset.reset", "earliest"),
    ];
    pairs.extend_from_slice(extra);
    let mut c = Consumer::new(ConsumerConfig::from_pairs("c", &pairs).unwrap());
    c.assign(&[tp()]);
    c.update_leader(&tp(), Some(1), 0);
    c.initialize_position(&tp(), None, 0, 0);
    c
}

/// Polls until the position reaches the end the broker would serve, like the seed's
/// consumer loop; returns every event.
fn drain(c: &mut Consumer, log: &LogBuilder, max_batches: usize) -> Vec<ConsumerEvent> {
    let mut events = Vec::new();
    for _ in 0..1000 {
        let target = c.fetch_request(&tp()).unwrap();
        let data = log.fetch(target.offset, target.isolation, max_batches);
        if data.records.is_empty() {
            // Nothing more to read; still let the consumer see the answer.
            let (_, ev) = c.on_fetch_response(&tp(), data);
            events.extend(ev);
            break;
        }
        let (_, ev) = c.on_fetch_response(&tp(), data);
        events.extend(ev);
    }
    events
}

/// The seed's example 1 (u12-txn-0): A c1..c3 commit (batches 0 and 1..2, COMMIT at 3),
/// B a1..a3 (4..6) ABORT at 7, C c4 c5 (8..9) COMMIT at 10.
fn example_1() -> LogBuilder {
    let mut log = LogBuilder::default();
    log.data(0, 0, true, &["c1"]);
    log.data(0, 0, true, &["c2", "c3"]);
    log.marker(0, 1, true);
    log.data(0, 1, true, &["a1", "a2", "a3"]);
    log.marker(0, 2, false);
    log.data(0, 2, true, &["c4", "c5"]);
    log.marker(0, 3, true);
    log
}

fn got_line(c: &Consumer) -> String {
    format!(
        "got {} records: {} (position {})",
        c.records().len(),
        summary_line(c.records()),
        c.position(&tp()).unwrap()
    )
}

// ---------------------------------------------------------------------------------------
// Example 1
// ---------------------------------------------------------------------------------------

#[test]
fn example_1_read_uncommitted_gets_aborted_records_too() {
    let log = example_1();
    let data = log.fetch(0, IsolationLevel::ReadUncommitted, usize::MAX);
    assert_eq!((data.high_watermark, data.last_stable_offset), (11, 11));
    let mut c = consumer("read_uncommitted", &[]);
    let (records, events) = c.on_fetch_response(&tp(), data);
    assert_eq!(
        summary_line(&records),
        "c1@0 c2@1 c3@2 a1@4 a2@5 a3@6 c4@8 c5@9"
    );
    assert_eq!(
        got_line(&c),
        "got 8 records: c1@0 c2@1 c3@2 a1@4 a2@5 a3@6 c4@8 c5@9 (position 11)"
    );
    // The three markers are control records: never delivered, the position moves on.
    let skipped: Vec<i64> = events
        .iter()
        .filter_map(|e| match e {
            ConsumerEvent::ControlBatchSkipped { offset, .. } => Some(*offset),
            _ => None,
        })
        .collect();
    assert_eq!(skipped, [3, 7, 10]);
    assert!(!events
        .iter()
        .any(|e| matches!(e, ConsumerEvent::BatchSkippedAborted { .. })));
}

#[test]
fn example_1_read_committed_skips_the_aborted_transaction() {
    let log = example_1();
    let data = log.fetch(0, IsolationLevel::ReadCommitted, usize::MAX);
    assert_eq!(
        data.aborted_transactions,
        Some(vec![AbortedTransaction {
            producer_id: 0,
            first_offset: 4
        }])
    );
    let mut c = consumer("read_committed", &[]);
    let (records, events) = c.on_fetch_response(&tp(), data);
    assert_eq!(summary_line(&records), "c1@0 c2@1 c3@2 c4@8 c5@9");
    assert_eq!(
        got_line(&c),
        "got 5 records: c1@0 c2@1 c3@2 c4@8 c5@9 (position 11)"
    );
    let t = tp();
    let rules: Vec<&ConsumerEvent> = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                ConsumerEvent::AbortedProducerAdded { .. }
                    | ConsumerEvent::BatchSkippedAborted { .. }
                    | ConsumerEvent::AbortMarkerSeen { .. }
            )
        })
        .collect();
    assert_eq!(
        rules,
        [
            &ConsumerEvent::AbortedProducerAdded {
                tp: t.clone(),
                producer_id: 0,
                first_offset: 4
            },
            &ConsumerEvent::BatchSkippedAborted {
                tp: t.clone(),
                producer_id: 0,
                base_offset: 4,
                last_offset: 6
            },
            &ConsumerEvent::AbortMarkerSeen {
                tp: t.clone(),
                producer_id: 0,
                offset: 7,
                removed: true
            },
        ]
    );
    for e in &events {
        assert!(!consumer_event(e, Lang::En).is_empty());
    }
}

#[test]
fn while_b_is_open_read_committed_stops_at_the_lso() {
    let mut log = LogBuilder::default();
    log.data(0, 0, true, &["c1"]);
    log.data(0, 0, true, &["c2", "c3"]);
    log.marker(0, 1, true);
    log.data(0, 1, true, &["a1", "a2", "a3"]);
    // The seed: "while B is open: latest offset read_uncommitted=7, read_committed=4".
    assert_eq!((log.high_watermark(), log.last_stable_offset()), (7, 4));

    let mut rc = consumer("read_committed", &[]);
    let mut ru = consumer("read_uncommitted", &[]);
    drain(&mut rc, &log, usize::MAX);
    drain(&mut ru, &log, usize::MAX);
    assert_eq!(got_line(&rc), "got 3 records: c1@0 c2@1 c3@2 (position 4)");
    assert_eq!(rc.lag(&tp()), Some(0));
    assert_eq!(
        got_line(&ru),
        "got 6 records: c1@0 c2@1 c3@2 a1@4 a2@5 a3@6 (position 7)"
    );

    // B aborts, C commits: both consumers continue where they stopped.
    log.marker(0, 2, false);
    log.data(0, 2, true, &["c4", "c5"]);
    log.marker(0, 3, true);
    drain(&mut rc, &log, usize::MAX);
    drain(&mut ru, &log, usize::MAX);
    assert_eq!(
        got_line(&rc),
        "got 5 records: c1@0 c2@1 c3@2 c4@8 c5@9 (position 11)"
    );
    assert_eq!(
        got_line(&ru),
        "got 8 records: c1@0 c2@1 c3@2 a1@4 a2@5 a3@6 c4@8 c5@9 (position 11)"
    );
}

#[test]
fn a_fetch_that_ends_before_the_abort_marker() {
    // One batch per fetch: the aborted batch 4..6 arrives without its marker.
    let log = example_1();
    let mut c = consumer("read_committed", &[]);
    let events = drain(&mut c, &log, 1);
    assert_eq!(
        got_line(&c),
        "got 5 records: c1@0 c2@1 c3@2 c4@8 c5@9 (position 11)"
    );
    // The fetch from 4 skipped the batch and stopped at 7; the fetch from 7 listed the
    // transaction again (its last offset is 7) and the marker took the producer out.
    assert!(events.contains(&ConsumerEvent::PositionAdvanced {
        tp: tp(),
        from: 4,
        to: 7
    }));
    assert!(events.contains(&ConsumerEvent::AbortMarkerSeen {
        tp: tp(),
        producer_id: 0,
        offset: 7,
        removed: true
    }));

    // Same with read_uncommitted.
    let mut c = consumer("read_uncommitted", &[]);
    drain(&mut c, &log, 1);
    assert_eq!(
        got_line(&c),
        "got 8 records: c1@0 c2@1 c3@2 a1@4 a2@5 a3@6 c4@8 c5@9 (position 11)"
    );
}

#[test]
fn max_poll_records_slices_but_delivers_everything() {
    let log = example_1();
    let mut c = consumer("read_uncommitted", &[("max.poll.records", "3")]);
    let (records, events) = c.on_fetch_response(
        &tp(),
        log.fetch(0, IsolationLevel::ReadUncommitted, usize::MAX),
    );
    assert_eq!(records.len(), 8);
    let polls: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            ConsumerEvent::RecordsDelivered { count, .. } => Some(*count),
            _ => None,
        })
        .collect();
    assert_eq!(polls, [3, 3, 2]);
    assert_eq!(c.position(&tp()), Some(11));
}

#[test]
fn a_fetch_starting_inside_a_batch_skips_the_earlier_records() {
    let log = example_1();
    let mut c = consumer("read_committed", &[]);
    c.seek(&tp(), 2);
    let target = c.fetch_request(&tp()).unwrap();
    assert_eq!(
        (target.leader, target.offset, target.current_leader_epoch),
        (1, 2, 0)
    );
    let (records, events) = c.on_fetch_response(
        &tp(),
        log.fetch(2, IsolationLevel::ReadCommitted, usize::MAX),
    );
    assert_eq!(summary_line(&records), "c3@2 c4@8 c5@9");
    assert!(events.iter().any(|e| matches!(
        e,
        ConsumerEvent::RecordsBeforePositionSkipped {
            count: 1,
            position: 2,
            ..
        }
    )));
}

#[test]
fn stale_and_failed_fetches_change_nothing() {
    let log = example_1();
    let mut c = consumer("read_committed", &[]);
    c.fetch_request(&tp());
    c.seek(&tp(), 8);
    let (records, events) = c.on_fetch_response(
        &tp(),
        log.fetch(0, IsolationLevel::ReadCommitted, usize::MAX),
    );
    assert!(records.is_empty());
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(c.position(&tp()), Some(8));

    c.fetch_request(&tp());
    let (records, events) = c.on_fetch_response(
        &tp(),
        FetchPartitionData {
            error: Errors::NotLeaderOrFollower,
            ..FetchPartitionData::new(-1, -1, Vec::new())
        },
    );
    assert!(records.is_empty());
    // FetchCollector.handleInitializeErrors: the consumer's metadata is stale.
    assert_eq!(
        events,
        [ConsumerEvent::MetadataUpdateRequested {
            tp: tp(),
            api: "Fetch".into(),
            error: Errors::NotLeaderOrFollower,
            leader_epoch: 0,
        }]
    );
    assert!(c.needs_metadata_update());
    assert_eq!(c.position(&tp()), Some(8));

    let other = TopicPartition::new("other", 0);
    let (_, events) = c.on_fetch_response(&other, FetchPartitionData::new(0, 0, vec![]));
    assert!(matches!(
        events.as_slice(),
        [ConsumerEvent::NotAssigned { .. }]
    ));
    assert_eq!(c.fetch_request(&other), None);
}

#[test]
fn a_cut_batch_waits_for_the_next_fetch_and_a_corrupt_one_stops() {
    let log = example_1();
    let mut data = log.fetch(0, IsolationLevel::ReadUncommitted, usize::MAX);
    let full = data.records.clone();
    // Cut 5 bytes off the last batch (the COMMIT marker at 10).
    data.records.truncate(full.len() - 5);
    let mut c = consumer("read_uncommitted", &[]);
    let (_, events) = c.on_fetch_response(&tp(), data);
    assert_eq!(c.position(&tp()), Some(10));
    assert!(events
        .iter()
        .any(|e| matches!(e, ConsumerEvent::PartialBatchIgnored { .. })));

    // Corrupt the CRC-covered part of the batch 4..6: the consumer stops before it.
    let pos = {
        let mut p = 0;
        for b in &log.batches {
            if b.base_offset == 4 {
                break;
            }
            p += b.size_in_bytes();
        }
        p
    };
    let mut bad = full.clone();
    bad[pos + 70] ^= 0xFF;
    let mut c = consumer("read_uncommitted", &[]);
    let (records, events) = c.on_fetch_response(
        &tp(),
        FetchPartitionData {
            records: bad,
            ..log.fetch(0, IsolationLevel::ReadUncommitted, usize::MAX)
        },
    );
    assert_eq!(summary_line(&records), "c1@0 c2@1 c3@2");
    assert_eq!(c.position(&tp()), Some(4));
    assert!(events
        .iter()
        .any(|e| matches!(e, ConsumerEvent::CorruptBatch { offset: 4, .. })));
}

#[test]
fn positions_start_from_committed_or_reset() {
    let cfg = ConsumerConfig::from_pairs("c", &[("group.id", "g")]).unwrap();
    assert_eq!(cfg.group_id.as_deref(), Some("g"));
    let mut c = Consumer::new(cfg);
    c.assign(&[tp()]);
    assert_eq!(c.fetch_request(&tp()), None);
    // Default auto.offset.reset=latest: the end offset.
    c.initialize_position(&tp(), None, 0, 11);
    assert_eq!(c.position(&tp()), Some(11));
    let mut c =
        Consumer::new(ConsumerConfig::from_pairs("c", &[("auto.offset.reset", "none")]).unwrap());
    c.assign(&[tp()]);
    assert!(matches!(
        c.initialize_position(&tp(), None, 0, 11),
        Some(ConsumerEvent::NoOffsetForPartition { .. })
    ));
    c.initialize_position(&tp(), Some(8), 0, 11);
    assert_eq!(c.position(&tp()), Some(8));
    assert_eq!(c.positions().get(&tp()), Some(&8));
}

#[test]
fn completed_fetch_can_be_driven_directly() {
    let log = example_1();
    let mut f = CompletedFetch::new(
        tp(),
        IsolationLevel::ReadCommitted,
        0,
        log.fetch(0, IsolationLevel::ReadCommitted, usize::MAX),
    );
    assert_eq!(summary_line(&f.fetch_records(2)), "c1@0 c2@1");
    assert_eq!(f.next_fetch_offset(), 2);
    assert_eq!(summary_line(&f.fetch_records(100)), "c3@2 c4@8 c5@9");
    assert!(f.is_consumed());
    assert_eq!(f.next_fetch_offset(), 11);
    assert!(f.aborted_producer_ids().is_empty());
}

// ---------------------------------------------------------------------------------------
// Kafka 4.0's read_committed cases (FetcherTest, FetchCollectorTest, CompletedFetchTest),
// on batches placed at the offsets those tests use.
// ---------------------------------------------------------------------------------------

/// A transactional batch of `keys` (values "value") from `pid` at `base`
/// (FetcherTest.appendTransactionalRecords).
fn txn_at(pid: i64, base: i64, keys: &[&str]) -> RecordBatch {
    let kvs = keys
        .iter()
        .map(|k| (Some(k.as_bytes().to_vec()), Some(b"value".to_vec())))
        .collect();
    RecordBatch::new_data(base, pid, 0, base as i32, true, 1000, kvs)
}

/// `pid`'s COMMIT or ABORT marker at `base` (FetcherTest.commitTransaction / abortTransaction).
fn marker_at(pid: i64, base: i64, commit: bool) -> RecordBatch {
    let kind = if commit {
        ControlRecordType::Commit
    } else {
        ControlRecordType::Abort
    };
    RecordBatch::new_control(base, pid, 0, 1000, kind, 0)
}

/// A Fetch answer with these batches and aborted transactions (producer id, first offset).
fn answer(batches: &[RecordBatch], aborted: &[(i64, i64)]) -> FetchPartitionData {
    let mut records = Vec::new();
    for b in batches {
        b.encode_into(&mut records);
    }
    FetchPartitionData {
        aborted_transactions: Some(
            aborted
                .iter()
                .map(|&(producer_id, first_offset)| AbortedTransaction {
                    producer_id,
                    first_offset,
                })
                .collect(),
        ),
        ..FetchPartitionData::new(100, 100, records)
    }
}

fn keys(records: &[ConsumerRecord]) -> Vec<String> {
    records
        .iter()
        .map(|r| String::from_utf8_lossy(r.key.as_deref().unwrap_or_default()).into_owned())
        .collect()
}

fn offsets(records: &[ConsumerRecord]) -> Vec<i64> {
    records.iter().map(|r| r.offset).collect()
}

/// A marker whose control record key is `key` (a malformed one, from a writer with a bug).
fn marker_with_key(pid: i64, base: i64, key: &[u8]) -> RecordBatch {
    let mut b = marker_at(pid, base, false);
    if let Some(r) = b.records.first_mut() {
        r.key = Some(key.to_vec().into());
    }
    b
}

/// Kafka 4.0 `CompletedFetch.containsAbortMarker` → `ControlRecordType.parse`: a key
/// shorter than 4 bytes or with a negative version throws `InvalidRecordException`, so
/// a read_committed consumer keeps what it read before and stops at the marker (every
/// poll fails there, "please seek past the record"); read_uncommitted never parses the
/// key and skips it; an unknown type id is `UNKNOWN`, skipped by both.
#[test]
fn a_malformed_marker_key_stops_read_committed_only() {
    for (key, stops) in [
        (&[0u8, 0][..], true),
        (&[0xff, 0xff, 0, 0][..], true),
        (&[0, 0, 0, 9][..], false),
    ] {
        let batches = [
            txn_at(1, 0, &["a"]),
            marker_with_key(1, 1, key),
            txn_at(2, 2, &["b"]),
        ];
        let mut c = consumer("read_uncommitted", &[]);
        let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[]));
        assert_eq!(keys(&records), ["a", "b"], "{key:?}");
        let mut c = consumer("read_committed", &[]);
        let (records, events) = c.on_fetch_response(&tp(), answer(&batches, &[]));
        if stops {
            assert_eq!(keys(&records), ["a"], "{key:?}");
            assert_eq!(c.position(&tp()), Some(1));
            assert!(events
                .iter()
                .any(|e| matches!(e, ConsumerEvent::CorruptBatch { offset: 1, .. })));
            let (again, _) = c.on_fetch_response(&tp(), answer(&batches[1..], &[]));
            assert!(again.is_empty());
            assert_eq!(c.position(&tp()), Some(1));
        } else {
            assert_eq!(keys(&records), ["a", "b"], "{key:?}");
        }
    }
}

/// FetcherTest.testReadCommittedWithCommittedAndAbortedTransactions: two producers
/// interleaved, each with a committed and an aborted transaction.
#[test]
fn interleaved_producers_keep_only_their_committed_transactions() {
    let batches = [
        txn_at(1, 0, &["commit1-1", "commit1-2"]),
        txn_at(2, 2, &["abort2-1"]),
        marker_at(1, 3, true),
        txn_at(2, 4, &["abort2-2"]),
        marker_at(2, 5, false),
        txn_at(1, 6, &["abort1-1"]),
        txn_at(2, 7, &["commit2-1"]),
        txn_at(1, 8, &["abort1-2"]),
        marker_at(1, 9, false),
        marker_at(2, 10, true),
    ];
    let mut c = consumer("read_committed", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[(2, 2), (1, 6)]));
    assert_eq!(keys(&records), ["commit1-1", "commit1-2", "commit2-1"]);
    assert_eq!(c.position(&tp()), Some(11));
}

/// FetcherTest.testMultipleAbortMarkers: a second ABORT for the same transaction changes
/// nothing; the producer's next transaction is read.
#[test]
fn a_repeated_abort_marker_is_ignored() {
    let batches = [
        txn_at(1, 0, &["abort1-1", "abort1-2"]),
        marker_at(1, 2, false),
        marker_at(1, 3, false),
        txn_at(1, 4, &["commit1-1", "commit1-2"]),
        marker_at(1, 6, true),
    ];
    let mut c = consumer("read_committed", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[(1, 0)]));
    assert_eq!(keys(&records), ["commit1-1", "commit1-2"]);
}

/// FetcherTest.testReadCommittedAbortMarkerWithNoData: the aborted data is gone (its
/// first offset 0 is no longer in the answer); its marker still ends the transaction.
#[test]
fn an_abort_marker_without_its_data_still_ends_the_transaction() {
    let batches = [
        marker_at(1, 5, false),
        txn_at(1, 6, &["6", "7", "8"]),
        marker_at(1, 9, true),
    ];
    let mut c = consumer("read_committed", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[(1, 0)]));
    assert_eq!(offsets(&records), [6, 7, 8]);
}

/// FetcherTest.testReadCommittedWithCompactedTopic: offsets with gaps; an aborted
/// transaction counts from its first offset even when that offset was compacted away,
/// and a producer whose ABORT is not in the answer stays skipped.
#[test]
fn a_compacted_answer_skips_by_first_offset_and_missing_markers() {
    let batches = [
        txn_at(3, 3, &["3", "4"]),
        txn_at(2, 15, &["15", "16", "17"]),
        txn_at(1, 22, &["22", "23"]),
        marker_at(2, 28, false),
        txn_at(3, 30, &["30", "31", "32"]),
        marker_at(3, 35, true),
        txn_at(1, 39, &["39", "40"]),
    ];
    let mut c = consumer("read_committed", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[(2, 6), (1, 0)]));
    assert_eq!(offsets(&records), [3, 4, 30, 31, 32]);
    assert_eq!(c.position(&tp()), Some(41));
}

/// FetcherTest.testReturnAbortedTransactionsInUncommittedMode and
/// CompletedFetchTest.testAbortedTransactionRecordsRemoved: the same answer, aborted list
/// included, gives read_uncommitted every record and read_committed none.
#[test]
fn read_uncommitted_ignores_the_aborted_list() {
    let batches = [txn_at(1, 0, &["k0", "k1"]), marker_at(1, 2, false)];
    let mut c = consumer("read_uncommitted", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[(1, 0)]));
    assert_eq!(offsets(&records), [0, 1]);
    let mut c = consumer("read_committed", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[(1, 0)]));
    assert!(records.is_empty());
    // FetcherTest.testConsumerPositionUpdatedWhenSkippingAbortedTransactions.
    assert_eq!(c.position(&tp()), Some(3));
}

/// FetchCollectorTest.testReadCommittedWithAbortedTransaction: a fetch of aborted data
/// only still moves the position, with the epoch of the last batch read (the marker's,
/// `CompletedFetch.lastEpoch`); a marker first, then data of the same producer listed
/// as aborted from the marker's offset, delivers the data.
#[test]
fn skipping_aborted_data_moves_the_position_with_the_last_batch_epoch() {
    let mut data = txn_at(1, 0, &["k"; 20]);
    data.partition_leader_epoch = 2;
    let mut abort = marker_at(1, 20, false);
    abort.partition_leader_epoch = 3;
    let mut c = consumer("read_committed", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&[data, abort], &[(1, 0)]));
    assert!(records.is_empty());
    let state = c.partition_state(&tp()).unwrap();
    assert_eq!((state.position, state.offset_epoch), (Some(21), Some(3)));

    c.fetch_request(&tp());
    let batches = [marker_at(1, 21, false), txn_at(1, 22, &["k"; 20])];
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[(1, 21)]));
    assert_eq!(records.len(), 20);
    let state = c.partition_state(&tp()).unwrap();
    assert_eq!((state.position, state.offset_epoch), (Some(42), Some(0)));
}

/// FetcherTest.testUpdatePositionOnEmptyBatch and testEmptyControlBatch: a batch
/// whose records were all removed moves the position past its last offset (with its
/// epoch), and an empty control batch is passed over.
#[test]
fn empty_batches_move_the_position_past_their_last_offset() {
    let mut empty = txn_at(1, 37, &[]);
    empty.last_offset_delta = 54 - 37;
    empty.partition_leader_epoch = 7;
    empty.set_transactional(false);
    let mut c = consumer("read_uncommitted", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&[empty], &[]));
    assert!(records.is_empty());
    let state = c.partition_state(&tp()).unwrap();
    assert_eq!((state.position, state.offset_epoch), (Some(55), Some(7)));

    let mut empty_control = marker_at(1, 0, true);
    empty_control.records.clear();
    let batches = [
        empty_control,
        txn_at(1, 1, &["a", "b"]),
        marker_at(1, 3, true),
    ];
    let mut c = consumer("read_committed", &[]);
    let (records, _) = c.on_fetch_response(&tp(), answer(&batches, &[]));
    assert_eq!(offsets(&records), [1, 2]);
    assert_eq!(c.position(&tp()), Some(4));
}

/// FetcherTest.testReadCommittedLagMetric: read_committed's lag is the answer's LSO
/// minus the position, after an empty answer and after one with records.
#[test]
fn read_committed_lag_is_the_lso_minus_the_position() {
    let mut c = consumer("read_committed", &[]);
    c.fetch_request(&tp());
    c.on_fetch_response(&tp(), FetchPartitionData::new(100, 50, Vec::new()));
    assert_eq!(c.lag(&tp()), Some(50));
    let mut plain = Vec::new();
    RecordBatch::new_plain(0, 1000, vec![(None, Some(b"v".to_vec())); 3]).encode_into(&mut plain);
    c.fetch_request(&tp());
    c.on_fetch_response(&tp(), FetchPartitionData::new(200, 150, plain));
    assert_eq!(c.lag(&tp()), Some(147));
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Step {
    /// Producer p writes n records into its transaction.
    Write(usize, usize),
    /// Producer p ends its transaction.
    End(usize, bool),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        prop_oneof![
            3 => (0usize..4, 1usize..4).prop_map(|(p, n)| Step::Write(p, n)),
            1 => (0usize..4, any::<bool>()).prop_map(|(p, c)| Step::End(p, c)),
        ],
        0..40,
    )
}

/// Builds the log; returns it with the values that committed and all data values.
/// (value, offset) pairs.
type Values = Vec<(String, i64)>;

fn build(steps: &[Step]) -> (LogBuilder, Values, Values) {
    let mut log = LogBuilder::default();
    let mut open: BTreeMap<usize, Vec<(String, i64)>> = BTreeMap::new();
    let mut epochs = [0i16; 4];
    let mut committed = Vec::new();
    let mut all = Vec::new();
    let mut n = 0;
    let mut end = |log: &mut LogBuilder,
                   p: usize,
                   commit: bool,
                   open: &mut BTreeMap<usize, Vec<(String, i64)>>,
                   epochs: &mut [i16; 4]| {
        if let Some(values) = open.remove(&p) {
            epochs[p] += 1;
            log.marker(p as i64 + 10, epochs[p], commit);
            if commit {
                committed.extend(values);
            }
        }
    };
    for s in steps {
        match *s {
            Step::Write(p, k) => {
                let values: Vec<String> = (0..k)
                    .map(|_| {
                        n += 1;
                        format!("p{p}v{n}")
                    })
                    .collect();
                let refs: Vec<&str> = values.iter().map(String::as_str).collect();
                let base = log.next;
                log.data(p as i64 + 10, epochs[p], true, &refs);
                let recs: Vec<(String, i64)> = values
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (v, base + i as i64))
                    .collect();
                all.extend(recs.iter().cloned());
                open.entry(p).or_default().extend(recs);
            }
            Step::End(p, c) => end(&mut log, p, c, &mut open, &mut epochs),
        }
    }
    // Resolve what is still open, in a fixed order (aborting odd producers).
    for p in 0..4 {
        end(&mut log, p, p % 2 == 0, &mut open, &mut epochs);
    }
    committed.sort_by_key(|(_, o)| *o);
    (log, committed, all)
}

fn pairs(records: &[ConsumerRecord]) -> Vec<(String, i64)> {
    records.iter().map(|r| (r.value_text(), r.offset)).collect()
}

proptest! {
    #[test]
    fn read_committed_returns_exactly_the_committed_records(
        s in steps(),
        max_batches in 1usize..6,
        max_poll in 1u32..5,
    ) {
        let (log, committed, all) = build(&s);
        let mp = max_poll.to_string();
        let mut rc = consumer("read_committed", &[("max.poll.records", mp.as_str())]);
        drain(&mut rc, &log, max_batches);
        prop_assert_eq!(pairs(rc.records()), committed);
        prop_assert_eq!(rc.position(&tp()), Some(log.high_watermark()));

        let mut ru = consumer("read_uncommitted", &[]);
        drain(&mut ru, &log, max_batches);
        prop_assert_eq!(pairs(ru.records()), all);
        prop_assert_eq!(ru.position(&tp()), Some(log.high_watermark()));
    }

    #[test]
    fn random_fetch_answers_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
        aborted in prop::collection::vec((any::<i64>(), any::<i64>()), 0..4),
        hw in any::<i64>(),
        start in any::<i64>(),
        committed in any::<bool>(),
    ) {
        let mut c = consumer(if committed { "read_committed" } else { "read_uncommitted" }, &[("max.poll.records", "2")]);
        c.seek(&tp(), start);
        c.fetch_request(&tp());
        let data = FetchPartitionData {
            error: Errors::None,
            high_watermark: hw,
            last_stable_offset: hw,
            log_start_offset: 0,
            aborted_transactions: Some(aborted.iter().map(|&(producer_id, first_offset)| AbortedTransaction { producer_id, first_offset }).collect()),
            records: bytes,
        };
        let (_, events) = c.on_fetch_response(&tp(), data);
        for e in events { let _ = consumer_event(&e, Lang::En); }
        prop_assert!(c.position(&tp()).unwrap() >= start);
    }

    #[test]
    fn mangled_real_logs_never_panic(
        s in steps(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let (log, _, _) = build(&s);
        let mut data = log.fetch(0, IsolationLevel::ReadCommitted, usize::MAX);
        if !data.records.is_empty() {
            for (i, b) in flips {
                let i = i.index(data.records.len());
                data.records[i] ^= b;
            }
            let keep = cut.index(data.records.len() + 1);
            data.records.truncate(keep);
        }
        let mut c = consumer("read_committed", &[]);
        let _ = c.on_fetch_response(&tp(), data);
    }

    #[test]
    fn offsets_decoders_never_panic(key in prop::collection::vec(any::<u8>(), 0..40), value in prop::collection::vec(any::<u8>(), 0..60)) {
        let _ = OffsetCommitKey::decode(&key);
        let _ = OffsetCommitValue::decode(&value);
        let _ = dump_log_line(Some(&key), Some(&value), 0);
        let _ = console_formatter_line(Some(&key), Some(&value));
    }

    #[test]
    fn offsets_records_round_trip(group in "\\PC{0,12}", topic in "[a-z]{1,8}", p in any::<i32>(), off in any::<i64>(), ep in any::<i32>(), md in "\\PC{0,10}", ts in any::<i64>()) {
        let k = OffsetCommitKey::new(&group, &topic, p);
        prop_assert_eq!(OffsetCommitKey::decode(&k.encode()), Ok((1, k)));
        let v = OffsetCommitValue::new(off, ep, &md, ts);
        prop_assert_eq!(OffsetCommitValue::decode(&v.encode()), Ok((3, v)));
        let part = partition_for(&group, 50);
        prop_assert!((0..50).contains(&part));
    }
}

// ---------------------------------------------------------------------------------------
// Group offsets
// ---------------------------------------------------------------------------------------

/// (partition, key, value, now_ms).
type Written = (i32, Vec<u8>, Option<Vec<u8>>, i64);

/// A writer that keeps what it was given, and can be told to fail.
#[derive(Default)]
struct VecLog {
    records: Vec<Written>,
    fail_after: Option<usize>,
}

impl OffsetLogWriter for VecLog {
    fn append(
        &mut self,
        partition: i32,
        key: Vec<u8>,
        value: Option<Vec<u8>>,
        now_ms: i64,
    ) -> Result<(), Errors> {
        if self.fail_after.is_some_and(|n| self.records.len() >= n) {
            return Err(Errors::NotLeaderOrFollower);
        }
        self.records.push((partition, key, value, now_ms));
        Ok(())
    }
}

fn otp(p: i32) -> TopicPartition {
    TopicPartition::new("orders", p)
}

#[test]
fn commit_writes_kafka_records_and_fetch_reads_them() {
    let mut gc = GroupCoordinator::default();
    let mut log = VecLog::default();
    let res = gc.commit_offsets(
        "g",
        &[
            OffsetCommitEntry::new(otp(0), 5),
            OffsetCommitEntry::new(otp(1), 7),
        ],
        &mut log,
        1234,
    );
    assert_eq!(res, [(otp(0), Errors::None), (otp(1), Errors::None)]);
    assert_eq!(log.records.len(), 2);
    let (partition, key, value, _) = &log.records[0];
    assert_eq!(*partition, partition_for("g", 50));
    assert_eq!(
        dump_log_line(Some(key), value.as_deref(), 0),
        r#"key: {"type":"1","data":{"group":"g","topic":"orders","partition":0}} payload: {"version":"3","data":{"offset":5,"leaderEpoch":-1,"metadata":"","commitTimestamp":1234}}"#
    );
    assert_eq!(
        console_formatter_line(Some(key), value.as_deref()),
        r#"{"key":{"version":1,"data":{"group":"g","topic":"orders","partition":0}},"value":{"version":3,"data":{"offset":5,"leaderEpoch":-1,"metadata":"","commitTimestamp":1234}}}"#
    );
    assert_eq!(
        dump_log_line(Some(key), None, 9).split(" payload: ").nth(1),
        Some("<DELETE>")
    );

    let fetched = gc.fetch_offsets("g", &[otp(0), otp(1), otp(2)], true);
    let offs: Vec<i64> = fetched.iter().map(|f| f.committed_offset).collect();
    assert_eq!(offs, [5, 7, -1]);
    assert!(fetched
        .iter()
        .all(|f| f.error == eos_playground::protocol::errors::Errors::None));
    assert_eq!(
        gc.fetch_offsets("other", &[otp(0)], false)[0].committed_offset,
        -1
    );
}

#[test]
fn a_failed_write_commits_nothing_from_there_on() {
    let mut gc = GroupCoordinator::default();
    let mut log = VecLog {
        fail_after: Some(1),
        ..Default::default()
    };
    let res = gc.commit_offsets(
        "g",
        &[
            OffsetCommitEntry::new(otp(0), 5),
            OffsetCommitEntry::new(otp(1), 7),
        ],
        &mut log,
        0,
    );
    assert_eq!(
        res,
        [
            (otp(0), Errors::None),
            (otp(1), Errors::NotLeaderOrFollower)
        ]
    );
    assert_eq!(
        gc.fetch_offsets("g", &[otp(1)], false)[0].committed_offset,
        -1
    );
}

#[test]
fn transactional_offsets_are_pending_until_the_marker() {
    let mut gc = GroupCoordinator::default();
    let gp = gc.partition_for("g");
    let mut log = VecLog::default();
    gc.commit_offsets("g", &[OffsetCommitEntry::new(otp(0), 3)], &mut log, 0);

    let recs = gc
        .commit_transactional_offsets("g", 42, 1, &[OffsetCommitEntry::new(otp(0), 10)], 5)
        .unwrap();
    assert_eq!(
        (recs.partition, recs.producer_id, recs.producer_epoch),
        (partition_for("g", 50), 42, 1)
    );
    assert_eq!(recs.records.len(), 1);

    // Not visible; a read_committed consumer (require_stable) is told to wait.
    let plain = &gc.fetch_offsets("g", &[otp(0)], false)[0];
    assert_eq!(
        (
            plain.committed_offset,
            plain.error == eos_playground::protocol::errors::Errors::None
        ),
        (3, true)
    );
    let stable = &gc.fetch_offsets("g", &[otp(0)], true)[0];
    assert_eq!(
        stable.error,
        eos_playground::protocol::errors::Errors::UnstableOffsetCommit
    );
    assert_eq!(
        (stable.error.code(), stable.error.name()),
        (88, "UNSTABLE_OFFSET_COMMIT")
    );
    assert_eq!(stable.committed_offset, -1);
    assert!(gc.has_pending_transactional_offsets("g", &otp(0)));

    let done = gc.complete_transaction(gp, 42, true);
    assert_eq!(done.materialized, [("g".to_string(), otp(0), 10)]);
    let f = &gc.fetch_offsets("g", &[otp(0)], true)[0];
    assert_eq!(
        (
            f.committed_offset,
            f.error == eos_playground::protocol::errors::Errors::None
        ),
        (10, true)
    );

    // Aborted: dropped.
    gc.commit_transactional_offsets("g", 43, 0, &[OffsetCommitEntry::new(otp(0), 99)], 6)
        .unwrap();
    let done = gc.complete_transaction(gp, 43, false);
    assert_eq!(done.dropped, [("g".to_string(), otp(0), 99)]);
    assert_eq!(
        gc.fetch_offsets("g", &[otp(0)], true)[0].committed_offset,
        10
    );
    // A marker with nothing pending changes nothing.
    assert_eq!(gc.complete_transaction(gp, 43, true), Default::default());
    assert_eq!(
        gc.commit_transactional_offsets("g", -1, 0, &[], 0),
        Err(Errors::InvalidRequest)
    );
}

#[test]
fn a_later_plain_commit_wins_over_an_earlier_transactional_one() {
    let mut gc = GroupCoordinator::default();
    let gp = gc.partition_for("g");
    let mut log = VecLog::default();
    gc.commit_transactional_offsets("g", 7, 0, &[OffsetCommitEntry::new(otp(0), 10)], 0)
        .unwrap();
    gc.commit_offsets("g", &[OffsetCommitEntry::new(otp(0), 20)], &mut log, 1);
    let done = gc.complete_transaction(gp, 7, true);
    assert_eq!(done.superseded, [("g".to_string(), otp(0), 10)]);
    assert_eq!(
        gc.fetch_offsets("g", &[otp(0)], true)[0].committed_offset,
        20
    );
}

#[test]
fn loading_the_partition_rebuilds_the_same_state() {
    // Live: plain commit, txn of 42 committed, txn of 43 aborted, txn of 44 open,
    // a plain commit and a tombstone of another partition.
    let group = "g";
    let part = partition_for(group, 50);
    let mut gc = GroupCoordinator::default();
    let mut vlog = VecLog::default();
    let mut batches: Vec<RecordBatch> = Vec::new();
    let mut next = 0i64;
    let mut push = |b: RecordBatch, batches: &mut Vec<RecordBatch>| {
        let mut b = b;
        b.base_offset = next;
        next = b.next_offset();
        batches.push(b);
    };
    let plain = |key: Vec<u8>, value: Option<Vec<u8>>| {
        RecordBatch::new_plain(0, 0, vec![(Some(key), value)])
    };

    gc.commit_offsets(
        group,
        &[
            OffsetCommitEntry::new(otp(0), 1),
            OffsetCommitEntry::new(otp(1), 1),
        ],
        &mut vlog,
        0,
    );
    for (_, k, v, _) in vlog.records.drain(..) {
        push(plain(k, v), &mut batches);
    }
    for (pid, offset, commit) in [(42, 5, Some(true)), (43, 6, Some(false)), (44, 7, None)] {
        let recs = gc
            .commit_transactional_offsets(
                group,
                pid,
                0,
                &[OffsetCommitEntry::new(otp(0), offset)],
                0,
            )
            .unwrap();
        let kvs = recs
            .records
            .into_iter()
            .map(|(k, v)| (Some(k), Some(v)))
            .collect();
        push(
            RecordBatch::new_data(0, pid, 0, 0, true, 0, kvs),
            &mut batches,
        );
        if let Some(c) = commit {
            gc.complete_transaction(part, pid, c);
            let kind = if c {
                ControlRecordType::Commit
            } else {
                ControlRecordType::Abort
            };
            push(
                RecordBatch::new_control(0, pid, 1, 0, kind, 0),
                &mut batches,
            );
        }
    }
    // Delete otp(1) with a tombstone.
    push(
        plain(OffsetCommitKey::new(group, "orders", 1).encode(), None),
        &mut batches,
    );
    let live_view = gc.fetch_offsets(group, &[otp(0), otp(1)], false);
    // Mirror the tombstone in the live coordinator by reloading it into a fresh one.
    let mut loaded = GroupCoordinator::default();
    let summary = loaded.load_partition(part, &batches).unwrap();
    assert_eq!(
        (summary.offset_commits, summary.tombstones, summary.markers),
        (5, 1, 2)
    );
    let view = loaded.fetch_offsets(group, &[otp(0), otp(1)], false);
    assert_eq!(view[0].committed_offset, 5);
    assert_eq!(live_view[0].committed_offset, 5);
    assert_eq!(view[1].committed_offset, -1, "tombstone removed it");
    assert_eq!(loaded.pending_offsets(44), [(group.to_string(), otp(0), 7)]);
    assert_eq!(
        loaded.fetch_offsets(group, &[otp(0)], true)[0].error,
        eos_playground::protocol::errors::Errors::UnstableOffsetCommit
    );

    // From raw bytes too.
    let mut bytes = Vec::new();
    for b in &batches {
        b.encode_into(&mut bytes);
    }
    let mut from_bytes = GroupCoordinator::default();
    from_bytes.load_partition_bytes(part, &bytes).unwrap();
    assert_eq!(from_bytes, loaded);

    // Unknown record types are skipped, as Kafka's loader does.
    let mut other = GroupCoordinator::default();
    let mut gm_key = 2i16.to_be_bytes().to_vec();
    gm_key.extend_from_slice(&[0, 1, b'g']);
    let s = other
        .load_partition(part, &[plain(gm_key, Some(vec![0, 3]))])
        .unwrap();
    assert_eq!(s.unknown_records, 1);
}

/// KIP-320: the Fetch carries the leader epoch of the consumer's metadata; FENCED asks
/// for new metadata, UNKNOWN_LEADER_EPOCH does not; a new epoch holds the position in
/// AWAIT_VALIDATION until OffsetsForLeaderEpoch answers, and a position past the
/// leader's end for its epoch goes back there.
#[test]
fn leader_epochs_fence_fetches_and_validate_positions() {
    let log = example_1();
    let mut c = consumer("read_uncommitted", &[]);
    assert!(!c.needs_metadata_update());
    let target = c.fetch_request(&tp()).unwrap();
    assert_eq!(target.current_leader_epoch, 0);
    let _ = c.on_fetch_response(
        &tp(),
        log.fetch(0, IsolationLevel::ReadUncommitted, usize::MAX),
    );
    let position = c.position(&tp()).unwrap();
    assert_eq!(c.partition_state(&tp()).unwrap().offset_epoch, Some(0));

    // UNKNOWN_LEADER_EPOCH: the broker is behind; retried as it is.
    c.fetch_request(&tp());
    let (_, events) = c.on_fetch_response(
        &tp(),
        FetchPartitionData {
            error: Errors::UnknownLeaderEpoch,
            ..FetchPartitionData::new(-1, -1, Vec::new())
        },
    );
    assert!(matches!(
        events.as_slice(),
        [ConsumerEvent::FetchError { .. }]
    ));
    assert!(!c.needs_metadata_update());

    // FENCED_LEADER_EPOCH: new metadata first.
    c.fetch_request(&tp());
    let (_, events) = c.on_fetch_response(
        &tp(),
        FetchPartitionData {
            error: Errors::FencedLeaderEpoch,
            ..FetchPartitionData::new(-1, -1, Vec::new())
        },
    );
    assert!(matches!(
        events.as_slice(),
        [ConsumerEvent::MetadataUpdateRequested {
            error: Errors::FencedLeaderEpoch,
            leader_epoch: 0,
            ..
        }]
    ));
    assert!(c.needs_metadata_update());

    // The same leader and epoch again: nothing to validate.
    assert!(!c.update_leader(&tp(), Some(1), 0));
    c.metadata_updated();
    assert!(!c.needs_metadata_update());

    // A new leader at epoch 3: no fetch until the position is validated.
    assert!(c.update_leader(&tp(), Some(2), 3));
    assert_eq!(c.fetch_request(&tp()), None);
    let v = c.validation_request(&tp()).unwrap();
    assert_eq!(
        (v.leader, v.current_leader_epoch, v.epoch, v.position),
        (2, 3, 0, position)
    );
    assert_eq!(c.validation_request(&tp()), None, "one in flight");
    // The leader's log ends at 4 for epoch 0: truncated under the consumer.
    let event = c.complete_validation(&tp(), 0, 4).unwrap();
    assert!(matches!(
        event,
        ConsumerEvent::TruncationDetected {
            end_offset: 4,
            reset: Some(_),
            ..
        }
    ));
    assert_eq!(c.position(&tp()), Some(4));
    let target = c.fetch_request(&tp()).unwrap();
    assert_eq!((target.leader, target.current_leader_epoch), (2, 3));

    // A leader error on OffsetsForLeaderEpoch: new metadata, then ask again.
    assert!(c.update_leader(&tp(), Some(1), 4));
    c.validation_request(&tp()).unwrap();
    assert!(matches!(
        c.validation_failed(&tp(), Errors::FencedLeaderEpoch),
        Some(ConsumerEvent::MetadataUpdateRequested { .. })
    ));
    assert!(c.needs_metadata_update());
    assert_eq!(c.fetch_request(&tp()), None, "still awaiting validation");
    assert!(c.validation_request(&tp()).is_some());
    assert_eq!(c.complete_validation(&tp(), 3, 9), None, "not truncated");
    assert!(c.fetch_request(&tp()).is_some());

    // A validation whose position moved since (a seek) is stale.
    assert!(c.update_leader(&tp(), Some(2), 5));
    c.validation_request(&tp()).unwrap();
    c.seek(&tp(), 1);
    assert_eq!(c.complete_validation(&tp(), 0, 0), None);
    assert_eq!(c.position(&tp()), Some(1));
}
