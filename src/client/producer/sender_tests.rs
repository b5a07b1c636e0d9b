//! Kafka 4.0's `SenderTest` and `RecordAccumulatorTest` idempotence cases (trunk
//! 1eb7644), each replayed on the producer alone: one partition led by broker 1, the
//! answers written by hand. docs/scenarios.md has the table of the rules they pin.

use super::*;

const PID: i64 = 343_434;

fn tp0() -> TopicPartition {
    TopicPartition::new("t", 0)
}

fn leader(_: &TopicPartition) -> Option<i32> {
    Some(1)
}

/// An idempotent producer with producer id 343434, epoch 0.
fn producer(config: ProducerConfig) -> Producer {
    let mut p = Producer::new(config);
    p.id_state = IdState::Ready;
    p.producer_id = PID;
    p.producer_epoch = 0;
    p
}

/// `appendToAccumulator` then `sender.runOnce()`: `values` as one batch of its own.
fn send_batch(p: &mut Producer, values: &[&str], now: i64, cid: &mut u64) -> Vec<Outgoing> {
    p.open.clear();
    p.send(tp0(), values.iter().map(|v| v.to_string()).collect(), now);
    p.poll(now, 1, &leader, cid).0
}

fn answer(error: Errors, base_offset: i64, log_start_offset: i64) -> Response {
    Response::Produce {
        topic_partition: tp0(),
        error,
        base_offset,
        log_start_offset,
        error_message: None,
    }
}

/// (epoch, base sequence, records) of a Produce request as sent.
fn sent(o: &Outgoing) -> (i16, i32, usize) {
    match &o.request {
        Request::Produce { records, .. } => match RecordBatch::decode(records) {
            Ok((b, _)) => (b.producer_epoch, b.base_sequence, b.records.len()),
            Err(_) => (-9, -9, 0),
        },
        _ => (-9, -9, 0),
    }
}

fn last_acked(p: &Producer) -> Option<i32> {
    p.last_acked_sequence.get(&tp0()).copied()
}

fn failed(events: &[ProducerEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, ProducerEvent::Failed { .. }))
}

fn bumped(events: &[ProducerEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, ProducerEvent::EpochBumped { .. }))
}

/// The base sequences of the partition's queue, front first.
fn queued(p: &Producer) -> Vec<Option<i32>> {
    p.accumulator
        .get(&tp0())
        .map(|q| q.iter().map(|b| b.base_sequence).collect())
        .unwrap_or_default()
}

// SenderTest.testIdempotenceWithMultipleInflightsRetriedInOrder
#[test]
fn retries_go_one_at_a_time_in_sequence_order_and_new_batches_wait() {
    let mut p = producer(ProducerConfig::new("p"));
    let mut cid = 1;
    let r: Vec<Outgoing> = ["a", "b", "c"]
        .iter()
        .flat_map(|v| send_batch(&mut p, &[v], 0, &mut cid))
        .collect();
    assert_eq!(r.len(), 3);
    p.on_response(
        r[0].correlation_id,
        answer(Errors::NotLeaderOrFollower, -1, -1),
        1,
    );
    p.open.clear();
    p.send(tp0(), vec!["d".into()], 1);
    // Not the batch after the last acknowledged one: retried as they are.
    p.on_response(
        r[1].correlation_id,
        answer(Errors::OutOfOrderSequenceNumber, -1, -1),
        1,
    );
    p.on_response(
        r[2].correlation_id,
        answer(Errors::OutOfOrderSequenceNumber, -1, -1),
        1,
    );
    assert_eq!(queued(&p), vec![Some(0), Some(1), Some(2), None]);
    let mut now = 1_000;
    for seq in 0..2 {
        let (out, events) = p.poll(now, 1, &leader, &mut cid);
        assert!(!bumped(&events), "{events:?}");
        assert_eq!(out.len(), 1, "one request in flight while retrying");
        assert_eq!(sent(&out[0]), (0, seq, 1));
        assert_eq!(p.next_sequence(&tp0()), 3, "d waits behind the retries");
        p.on_response(
            out[0].correlation_id,
            answer(Errors::None, i64::from(seq), 0),
            now,
        );
        assert_eq!(last_acked(&p), Some(seq));
        now += 1;
    }
    // The last retry leaves the queue: d, never numbered, may follow it at once.
    let (out, _) = p.poll(now, 1, &leader, &mut cid);
    assert_eq!(
        out.iter().map(sent).collect::<Vec<_>>(),
        vec![(0, 2, 1), (0, 3, 1)]
    );
}

// SenderTest.testCorrectHandlingOfOutOfOrderResponses
#[test]
fn batches_answered_out_of_order_are_requeued_in_sequence_order() {
    let mut p = producer(ProducerConfig::new("p"));
    let mut cid = 1;
    let first = send_batch(&mut p, &["a"], 0, &mut cid);
    let second = send_batch(&mut p, &["b"], 0, &mut cid);
    p.on_response(
        second[0].correlation_id,
        answer(Errors::OutOfOrderSequenceNumber, -1, -1),
        1,
    );
    assert_eq!(queued(&p), vec![Some(1)]);
    p.on_response(
        first[0].correlation_id,
        answer(Errors::NotLeaderOrFollower, -1, -1),
        2,
    );
    assert_eq!(queued(&p), vec![Some(0), Some(1)]);
    assert_eq!(last_acked(&p), None);
    let (out, _) = p.poll(1_000, 1, &leader, &mut cid);
    assert_eq!(out.iter().map(sent).collect::<Vec<_>>(), vec![(0, 0, 1)]);
}

// SenderTest.testCorrectHandlingOfOutOfOrderResponsesWhenSecondSucceeds and
// testCorrectHandlingOfDuplicateSequenceError
#[test]
fn an_earlier_batch_acknowledged_late_keeps_the_last_acked_sequence_and_offset() {
    let mut p = producer(ProducerConfig::new("p"));
    let mut cid = 1;
    let first = send_batch(&mut p, &["a"], 0, &mut cid);
    let second = send_batch(&mut p, &["b"], 0, &mut cid);
    p.on_response(second[0].correlation_id, answer(Errors::None, 1000, 0), 1);
    assert_eq!(last_acked(&p), Some(1));
    let events = p.on_response(
        first[0].correlation_id,
        answer(Errors::DuplicateSequenceNumber, -1, 0),
        2,
    );
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::Acknowledged {
            base_offset: -1,
            ..
        }
    )));
    assert_eq!(last_acked(&p), Some(1));
    assert_eq!(p.last_acked_offset.get(&tp0()), Some(&1000));
    assert!(!p.has_pending());
}

// SenderTest.testIdempotenceWithMultipleInflightsWhereFirstFailsFatallyAndSequenceOfFutureBatchesIsAdjusted
#[test]
fn a_failed_first_batch_renumbers_the_next_from_zero_under_a_new_epoch() {
    let mut p = producer(ProducerConfig::new("p"));
    let mut cid = 1;
    let first = send_batch(&mut p, &["a"], 0, &mut cid);
    let second = send_batch(&mut p, &["b"], 0, &mut cid);
    let events = p.on_response(
        first[0].correlation_id,
        answer(Errors::MessageTooLarge, -1, -1),
        1,
    );
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::Failed {
            error: Errors::MessageTooLarge,
            ..
        }
    )));
    let (_, events) = p.poll(1, 1, &leader, &mut cid);
    assert!(bumped(&events), "{events:?}");
    // Its old numbers' OUT_OF_ORDER answer: retried with the new ones, no second bump.
    p.on_response(
        second[0].correlation_id,
        answer(Errors::OutOfOrderSequenceNumber, -1, -1),
        2,
    );
    let (out, events) = p.poll(1_000, 1, &leader, &mut cid);
    assert!(!bumped(&events));
    assert_eq!(sent(&out[0]), (1, 0, 1));
    p.on_response(out[0].correlation_id, answer(Errors::None, 0, 0), 1_001);
    assert_eq!(last_acked(&p), Some(0));
}

// SenderTest.testExpiryOfFirstBatchShouldNotCauseUnresolvedSequencesIfFutureBatchesSucceed
#[test]
fn an_unresolved_sequence_resolves_when_a_later_batch_is_acknowledged() {
    let config = ProducerConfig::from_pairs(
        "p",
        &[
            ("request.timeout.ms".to_string(), "1500".to_string()),
            ("delivery.timeout.ms".to_string(), "1500".to_string()),
        ],
    )
    .unwrap();
    let mut p = producer(config);
    let mut cid = 1;
    let first = send_batch(&mut p, &["a"], 0, &mut cid);
    let second = send_batch(&mut p, &["b"], 1000, &mut cid);
    p.on_response(
        first[0].correlation_id,
        answer(Errors::RequestTimedOut, -1, -1),
        1000,
    );
    // The leader is unreachable (Kafka's test disconnects it): "a" expires in the
    // queue after one attempt, so its sequence is unresolved.
    let (_, events) = p.poll(1600, 1, &|_| None, &mut cid);
    assert!(events
        .iter()
        .any(|e| matches!(e, ProducerEvent::SequenceUnresolved { .. })));
    let c = send_batch(&mut p, &["c"], 1620, &mut cid);
    assert!(
        c.is_empty(),
        "no new batch while the sequence is unresolved"
    );
    p.on_response(second[0].correlation_id, answer(Errors::None, 1, 0), 1620);
    let (out, events) = p.poll(1620, 1, &leader, &mut cid);
    assert!(events
        .iter()
        .any(|e| matches!(e, ProducerEvent::SequenceResolved { .. })));
    assert!(!bumped(&events));
    assert_eq!(sent(&out[0]), (0, 2, 1));
}

// SenderTest.testUnknownProducerErrorShouldBeRetriedWhenLogStartOffsetIsUnknown and
// testShouldRaiseOutOfOrderSequenceExceptionToUserIfLogWasNotTruncated
#[test]
fn unknown_producer_id_bumps_the_epoch_only_with_a_known_log_start_offset() {
    for (log_start, bump) in [(-1, false), (10, true)] {
        let mut p = producer(ProducerConfig::new("p"));
        let mut cid = 1;
        let first = send_batch(&mut p, &["a"], 0, &mut cid);
        p.on_response(first[0].correlation_id, answer(Errors::None, 1000, 10), 1);
        let second = send_batch(&mut p, &["b"], 1, &mut cid);
        let events = p.on_response(
            second[0].correlation_id,
            answer(Errors::UnknownProducerId, -1, log_start),
            2,
        );
        assert!(!failed(&events));
        let (_, events) = p.poll(2, 1, &leader, &mut cid);
        assert_eq!(bumped(&events), bump, "log start {log_start}");
        let (out, _) = p.poll(1_000, 1, &leader, &mut cid);
        let expected = if bump { (1, 0, 1) } else { (0, 1, 1) };
        assert_eq!(sent(&out[0]), expected, "log start {log_start}");
    }
}

// TransactionManagerTest.testSequenceNumberOverflow
#[test]
fn the_next_sequence_wraps_past_i32_max_to_zero() {
    let mut p = producer(ProducerConfig::new("p"));
    p.next_sequence.insert(tp0(), i32::MAX - 1);
    let mut cid = 1;
    let out = send_batch(&mut p, &["a", "b", "c"], 0, &mut cid);
    assert_eq!(sent(&out[0]), (0, i32::MAX - 1, 3));
    assert_eq!(p.next_sequence(&tp0()), 1);
}

/// `n` values of 40 bytes, which `max.message.bytes=200` takes two at a time.
fn big_values(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{i}{}", "x".repeat(39))).collect()
}

/// Answers each request as a broker with `max.message.bytes=200` would, until nothing
/// is left: (epoch, base sequence, records) of every request sent, and every event.
fn answer_by_size(
    p: &mut Producer,
    mut out: Vec<Outgoing>,
) -> (Vec<(i16, i32, usize)>, Vec<ProducerEvent>) {
    let (mut cid, mut now, mut offset) = (100, 10, 0);
    let (mut log, mut events) = (Vec::new(), Vec::new());
    while let Some(o) = out.pop() {
        let size = match &o.request {
            Request::Produce { records, .. } => records.len(),
            _ => 0,
        };
        let (epoch, seq, records) = sent(&o);
        log.push((epoch, seq, records));
        let response = if size > 200 {
            answer(Errors::MessageTooLarge, -1, -1)
        } else {
            offset += records as i64;
            answer(Errors::None, offset - records as i64, 0)
        };
        events.extend(p.on_response(o.correlation_id, response, now));
        now += 1;
        let (more, e) = p.poll(now, 1, &leader, &mut cid);
        events.extend(e);
        out.extend(more.into_iter().rev());
    }
    (log, events)
}

// SenderTest.testIdempotentSplitBatchAndSend, RecordAccumulatorTest.testSplitAndReenqueue;
// the second split halves the batch (KAFKA-8350, Kafka 4.2).
#[test]
fn a_batch_too_large_is_split_keeping_its_sequences() {
    let mut p = producer(ProducerConfig::new("p"));
    let mut cid = 1;
    p.send(tp0(), big_values(4), 0);
    let out = p.poll(0, 1, &leader, &mut cid).0;
    assert_eq!(sent(&out[0]), (0, 0, 4));
    let (log, events) = answer_by_size(&mut p, out);
    // batch.size holds all four again; the split of that split is cut at
    // max(maxRecordSize, size / 2) = 125 bytes, one record each.
    assert_eq!(
        log,
        vec![
            (0, 0, 4),
            (0, 0, 4),
            (0, 0, 1),
            (0, 1, 1),
            (0, 2, 1),
            (0, 3, 1)
        ]
    );
    assert!(!failed(&events) && !bumped(&events), "{events:?}");
    assert_eq!(p.next_sequence(&tp0()), 4);
    assert_eq!(last_acked(&p), Some(3));
    let acked: Vec<String> = p.acknowledged().iter().flat_map(|a| a.3.clone()).collect();
    assert_eq!(acked, big_values(4));
}

// SenderTest.testIdempotenceWithMultipleInflightsWhereFirstFailsFatally… with a split:
// a single record still too large fails, and the next batch is renumbered after it.
#[test]
fn a_record_too_large_alone_fails_after_the_splits() {
    let mut p = producer(ProducerConfig::new("p"));
    let mut cid = 1;
    p.send(tp0(), vec!["y".repeat(60), "x".repeat(300)], 0);
    let out = p.poll(0, 1, &leader, &mut cid).0;
    let (log, events) = answer_by_size(&mut p, out);
    assert_eq!(log, vec![(0, 0, 2), (0, 0, 2), (0, 0, 1), (0, 1, 1)]);
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::Failed {
            error: Errors::MessageTooLarge,
            ..
        }
    )));
    // Failed with retries left: the partition starts again at 0 under epoch 1.
    assert_eq!(p.acknowledged().len(), 1);
    assert!(bumped(&events), "{events:?}");
    assert_eq!((p.producer_epoch, p.next_sequence(&tp0())), (1, 0));
}

// SenderTest.testCanRetryWithoutIdempotence: without idempotence the parts are queued
// in their own order and numbered nothing.
#[test]
fn a_producer_without_idempotence_splits_in_order() {
    let config = ProducerConfig::from_pairs(
        "p",
        &[("enable.idempotence".to_string(), "false".to_string())],
    )
    .unwrap();
    let mut p = Producer::new(config);
    let mut cid = 1;
    p.send(tp0(), big_values(4), 0);
    let out = p.poll(0, 1, &leader, &mut cid).0;
    let (log, events) = answer_by_size(&mut p, out);
    assert_eq!(log.len(), 6, "{log:?}");
    assert!(!failed(&events));
    let acked: Vec<String> = p.acknowledged().iter().flat_map(|a| a.3.clone()).collect();
    assert_eq!(acked, big_values(4));
}

/// `tp0`'s batch `id` numbered `seq` under (343434, 0), one record.
fn numbered(id: u64, seq: i32, transactional: bool) -> ProducerBatch {
    let mut p = Producer::new(ProducerConfig::new("p"));
    p.send(tp0(), vec![format!("v{id}")], 0);
    let mut b = p.accumulator[&tp0()][0].clone();
    b.id = id;
    b.producer_id = PID;
    b.producer_epoch = 0;
    b.base_sequence = Some(seq);
    b.attempts = 1;
    b.transactional = transactional;
    b
}

// TxnPartitionEntry.adjustSequencesDueToFailedBatch, as SenderTest's
// testIdempotenceWithMultipleInflightsWhereFirstFailsFatally… was before KIP-360:
// a transactional producer's later batches move down over the failed one's sequences.
#[test]
fn a_transactional_failure_with_retries_left_moves_the_later_sequences_down() {
    for adjust in [true, false] {
        let config =
            ProducerConfig::from_pairs("p", &[("transactional.id".to_string(), "tx".to_string())])
                .unwrap();
        let mut p = producer(config);
        p.next_sequence.insert(tp0(), 3);
        p.in_flight.push(InFlight {
            correlation_id: 2,
            broker: 1,
            deadline_ms: 30_000,
            what: InFlightKind::Produce(numbered(2, 1, true)),
        });
        p.requeue(numbered(3, 2, true));
        let mut events = Vec::new();
        let failed = numbered(1, 0, true);
        p.fail_batch(
            &failed,
            Errors::TopicAuthorizationFailed,
            None,
            adjust,
            &mut events,
        );
        let in_flight = match &p.in_flight[0].what {
            InFlightKind::Produce(b) => (b.base_sequence, b.sequence_reset),
            _ => (None, false),
        };
        let queued = p.accumulator[&tp0()][0].base_sequence;
        if adjust {
            assert_eq!((in_flight, queued), ((Some(0), true), Some(1)));
            assert_eq!(p.next_sequence(&tp0()), 2);
        } else {
            assert_eq!((in_flight, queued), ((Some(1), false), Some(2)));
            assert_eq!(p.next_sequence(&tp0()), 3);
        }
        assert!(!bumped(&events));
    }
}

// TransactionManager.handleFailedBatch → resetSequenceForPartition: a send failed with
// UNKNOWN_PRODUCER_ID leaves the partition to start again at 0, without a bump.
#[test]
fn a_send_failed_with_unknown_producer_id_starts_the_partition_at_zero() {
    let mut p = producer(ProducerConfig::new("p"));
    p.next_sequence.insert(tp0(), 5);
    p.last_acked_sequence.insert(tp0(), 3);
    let mut events = Vec::new();
    p.fail_batch(
        &numbered(1, 4, false),
        Errors::UnknownProducerId,
        None,
        false,
        &mut events,
    );
    let (_, events) = p.poll(0, 1, &leader, &mut 1);
    assert!(!bumped(&events));
    assert_eq!((p.next_sequence(&tp0()), last_acked(&p)), (0, None));
    assert_eq!(p.producer_epoch, 0);
}
