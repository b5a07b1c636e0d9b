use super::*;

fn pairs(kv: &[(&str, &str)]) -> Vec<(String, String)> {
    kv.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn explicit_idempotence_with_acks_1_is_refused() {
    let err = ProducerConfig::from_pairs(
        "p",
        &pairs(&[("enable.idempotence", "true"), ("acks", "1")]),
    )
    .unwrap_err();
    assert_eq!(err, ConfigError::IdempotenceNeedsAcksAll);
    let err = ProducerConfig::from_pairs(
        "p",
        &pairs(&[
            ("enable.idempotence", "true"),
            ("max.in.flight.requests.per.connection", "6"),
        ]),
    )
    .unwrap_err();
    assert_eq!(err, ConfigError::IdempotenceMaxInFlight);
}

#[test]
fn default_idempotence_is_quietly_dropped_by_acks_1() {
    let c = ProducerConfig::from_pairs("p", &pairs(&[("acks", "1")])).unwrap();
    assert!(!c.enable_idempotence);
}

#[test]
fn sequence_is_assigned_once_at_drain_and_kept_on_retry() {
    let mut p = Producer::new(ProducerConfig::new("p"));
    p.id_state = IdState::Ready;
    p.producer_id = 7;
    p.producer_epoch = 0;
    let tp = TopicPartition::new("t", 0);
    p.send(tp.clone(), vec!["a".into(), "b".into()], 0);
    p.send(tp.clone(), vec!["c".into()], 0);
    let mut cid = 1;
    let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
    assert_eq!(out.len(), 1, "records sent before a drain share one batch");
    // No answer: after request.timeout.ms the same batch goes again.
    let (out2, events) = p.poll(30_000, 1, &|_| Some(1), &mut cid);
    assert!(out2.is_empty(), "retry waits for retry.backoff.ms");
    assert!(events
        .iter()
        .any(|e| matches!(e, ProducerEvent::RequestTimedOut { .. })));
    // The first retry waits retry.backoff.ms ±20%: below 120 ms.
    let (out3, _) = p.poll(30_120, 1, &|_| Some(1), &mut cid);
    let seq_of = |o: &Outgoing| match &o.request {
        Request::Produce { records, .. } => RecordBatch::decode(records).unwrap().0.base_sequence,
        _ => -9,
    };
    assert_eq!(seq_of(&out[0]), 0);
    assert_eq!(seq_of(&out3[0]), 0);
    p.send(tp.clone(), vec!["d".into()], 30_120);
    let (out4, _) = p.poll(30_120, 1, &|_| Some(1), &mut cid);
    assert_eq!(seq_of(&out4[0]), 3);
}

#[test]
fn at_most_max_in_flight_requests_per_connection() {
    let mut p = Producer::new(ProducerConfig::new("p"));
    p.id_state = IdState::Ready;
    p.producer_id = 1;
    p.producer_epoch = 0;
    let tp = TopicPartition::new("t", 0);
    let mut cid = 1;
    for i in 0..7 {
        p.send(tp.clone(), vec![format!("v{i}")], 0);
        p.open.clear();
    }
    let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
    assert_eq!(out.len(), 5);
    assert_eq!(p.accumulator[&tp].len(), 2);
}

/// A ready idempotent producer with one batch for `t-0`, sent at time 0.
fn sent_once() -> (Producer, TopicPartition, u64, u64) {
    let mut p = Producer::new(ProducerConfig::new("p"));
    p.id_state = IdState::Ready;
    p.producer_id = 1;
    p.producer_epoch = 0;
    let tp = TopicPartition::new("t", 0);
    p.send(tp.clone(), vec!["a".into()], 0);
    let mut cid = 1;
    p.observe_leader_epochs(&|_| Some(0));
    let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
    assert_eq!(out.len(), 1);
    (p, tp, out[0].correlation_id, cid)
}

#[test]
fn batch_retries_back_off_exponentially_up_to_retry_backoff_max_ms() {
    let (mut p, tp, mut in_flight, mut cid) = sent_once();
    let mut now = 0;
    let mut waits = Vec::new();
    for _ in 0..7 {
        let events = p.on_response(
            in_flight,
            Response::produce(&tp, Errors::NotLeaderOrFollower, -1, None),
            now,
        );
        let wait = events
            .iter()
            .find_map(|e| match e {
                ProducerEvent::RetryScheduled { backoff_ms, .. } => Some(*backoff_ms),
                _ => None,
            })
            .expect("a retry is scheduled");
        waits.push(wait);
        // Not a millisecond early (the leader did not change) ...
        let (early, _) = p.poll(now + wait - 1, 1, &|_| Some(1), &mut cid);
        assert!(early.is_empty(), "waits {wait} ms");
        assert_eq!(p.next_wakeup(now), Some(now + wait));
        now += wait;
        let (out, _) = p.poll(now, 1, &|_| Some(1), &mut cid);
        assert_eq!(out.len(), 1, "... and sent once it is over");
        in_flight = out[0].correlation_id;
    }
    for (wait, term) in waits.iter().zip([100, 200, 400, 800, 1000, 1000, 1000]) {
        assert!(*wait >= term * 8 / 10 && *wait <= 1000, "{waits:?}");
        assert!(*wait < term * 12 / 10, "{waits:?}");
    }
}

#[test]
fn a_new_leader_ends_the_backoff_at_once() {
    let (mut p, tp, in_flight, mut cid) = sent_once();
    p.on_response(
        in_flight,
        Response::produce(&tp, Errors::NotLeaderOrFollower, -1, None),
        0,
    );
    p.observe_leader_epochs(&|_| Some(0));
    let (out, _) = p.poll(1, 1, &|_| Some(2), &mut cid);
    assert!(out.is_empty(), "same leader epoch: the backoff holds");
    p.observe_leader_epochs(&|_| Some(1));
    let (out, events) = p.poll(1, 1, &|_| Some(2), &mut cid);
    assert_eq!(
        out.len(),
        1,
        "a new leader epoch: the retry goes now (KIP-951)"
    );
    assert_eq!(out[0].broker, 2);
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::BackoffSkipped {
            leader_epoch: 1,
            ..
        }
    )));
}

#[test]
fn retry_backoff_max_ms_is_a_long_of_at_least_zero() {
    let c = ProducerConfig::from_pairs("p", &pairs(&[("retry.backoff.max.ms", "5000")])).unwrap();
    assert_eq!((c.retry_backoff_ms, c.retry_backoff_max_ms), (100, 5000));
    assert_eq!(ProducerConfig::new("p").retry_backoff_max_ms, 1000);
    assert!(ProducerConfig::from_pairs("p", &pairs(&[("retry.backoff.max.ms", "-1")])).is_err());
    assert!(ProducerConfig::from_pairs("p", &pairs(&[("retry.backoff.max.ms", "x")])).is_err());
}

/// `KafkaProducer.configureDeliveryTimeout`: below `linger.ms + request.timeout.ms`
/// an explicit `delivery.timeout.ms` is refused and the default is raised.
#[test]
fn delivery_timeout_covers_the_request_timeout() {
    let c = ProducerConfig::from_pairs("p", &pairs(&[])).unwrap();
    assert_eq!(c.delivery_timeout_ms, 120_000);
    let c = ProducerConfig::from_pairs("p", &pairs(&[("request.timeout.ms", "200000")])).unwrap();
    assert_eq!(c.delivery_timeout_ms, 200_000);
    let err = ProducerConfig::from_pairs(
        "p",
        &pairs(&[
            ("request.timeout.ms", "200000"),
            ("delivery.timeout.ms", "120000"),
        ]),
    )
    .unwrap_err();
    assert_eq!(err, ConfigError::DeliveryTimeoutBelowRequestTimeout);
    let c = ProducerConfig::from_pairs(
        "p",
        &pairs(&[
            ("request.timeout.ms", "1000"),
            ("delivery.timeout.ms", "1000"),
        ]),
    )
    .unwrap();
    assert_eq!(c.delivery_timeout_ms, 1000);
}

/// A queued batch that was never sent expires without leaving its sequence
/// unresolved; one sent twice leaves it unresolved, and new batches wait.
#[test]
fn an_expired_retry_leaves_its_sequence_unresolved() {
    let config = ProducerConfig::from_pairs(
        "p",
        &pairs(&[
            ("request.timeout.ms", "1000"),
            ("delivery.timeout.ms", "5000"),
        ]),
    )
    .unwrap();
    let mut p = Producer::new(config);
    p.id_state = IdState::Ready;
    p.producer_id = 7;
    p.producer_epoch = 0;
    let tp = TopicPartition::new("t", 0);
    let leader = |_: &TopicPartition| Some(1);
    let mut cid = 0;
    p.send(tp.clone(), vec!["a".into()], 0);
    let (out, _) = p.poll(0, 1, &leader, &mut cid);
    assert_eq!(out.len(), 1);
    // No answer: the request times out at 1000 and the batch is sent again.
    let (out, _) = p.poll(1000, 1, &leader, &mut cid);
    assert!(out.is_empty());
    let (out, _) = p.poll(4500, 1, &leader, &mut cid);
    assert_eq!(out.len(), 1, "the retry, in flight until 5500");
    let (_, events) = p.poll(5000, 1, &leader, &mut cid);
    assert!(
        events.iter().any(|e| matches!(
            e,
            ProducerEvent::Failed {
                error: Errors::RequestTimedOut,
                detail: Some(ErrorDetail::DeliveryTimeout {
                    elapsed_ms: 5000,
                    ..
                }),
                ..
            }
        )),
        "{events:?}"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::SequenceUnresolved {
            next_sequence: 1,
            ..
        }
    )));
    // Nothing numbered is left, nothing acknowledged seq 0: the epoch is bumped, and
    // "b" goes at epoch 1 from sequence 0.
    assert!(
        events.iter().any(|e| matches!(
            e,
            ProducerEvent::EpochBumped {
                new_epoch: 1,
                unresolved: true,
                ..
            }
        )),
        "{events:?}"
    );
    p.send(tp.clone(), vec!["b".into()], 5001);
    let (out, events) = p.poll(5001, 1, &leader, &mut cid);
    assert_eq!(out.len(), 1, "{events:?}");
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::SequenceAssigned {
            producer_epoch: 1,
            first_seq: 0,
            ..
        }
    )));
}

/// An idempotent producer with an id, and a way to answer its Produce requests.
fn ready_producer() -> (Producer, TopicPartition) {
    let mut p = Producer::new(ProducerConfig::new("p"));
    p.id_state = IdState::Ready;
    p.producer_id = 343_434;
    p.producer_epoch = 0;
    (p, TopicPartition::new("t", 0))
}

fn produce_answer(tp: &TopicPartition, error: Errors, base_offset: i64) -> Response {
    Response::Produce {
        topic_partition: tp.clone(),
        error,
        base_offset,
        log_start_offset: 0,
        error_message: None,
    }
}

/// Batches a (sequence 0) and b (sequence 1), each in its own request, in flight.
fn two_batches_in_flight() -> (Producer, TopicPartition, Vec<Outgoing>, u64) {
    let (mut p, tp) = ready_producer();
    let mut cid = 1;
    p.send(tp.clone(), vec!["a".into()], 0);
    p.open.clear();
    p.send(tp.clone(), vec!["b".into()], 0);
    let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
    (p, tp, out, cid)
}

/// (epoch, base sequence) of a Produce request as sent.
fn sent_numbers(o: &Outgoing) -> (i16, i32) {
    match &o.request {
        Request::Produce { records, .. } => {
            let b = RecordBatch::decode(records).unwrap().0;
            (b.producer_epoch, b.base_sequence)
        }
        _ => (-9, -9),
    }
}

#[test]
fn out_of_order_for_the_next_batch_bumps_the_epoch_and_retries_it() {
    // SenderTest.testEpochBumpOnOutOfOrderSequenceForNextBatch (Kafka 4.0 trunk 1eb7644).
    let (mut p, tp) = ready_producer();
    let mut cid = 1;
    p.send(tp.clone(), vec!["a".into(), "b".into()], 0);
    let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
    assert_eq!(p.next_sequence[&tp], 2);
    p.on_response(
        out[0].correlation_id,
        produce_answer(&tp, Errors::None, 0),
        2,
    );
    p.send(tp.clone(), vec!["c".into()], 2);
    let (out, _) = p.poll(2, 1, &|_| Some(1), &mut cid);
    assert_eq!(sent_numbers(&out[0]), (0, 2));
    assert_eq!(p.last_acked_sequence.get(&tp), Some(&1));
    // Sequence 2 follows the last acknowledged one (1): a real gap.
    let events = p.on_response(
        out[0].correlation_id,
        produce_answer(&tp, Errors::OutOfOrderSequenceNumber, -1),
        4,
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, ProducerEvent::Failed { .. })),
        "the batch is retried, not failed: {events:?}"
    );
    let (out, events) = p.poll(4, 1, &|_| Some(1), &mut cid);
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::EpochBumped {
            old_epoch: 0,
            new_epoch: 1,
            retried: true,
            renumbered: 1,
            ..
        }
    )));
    assert_eq!(p.producer_epoch, 1);
    assert_eq!(p.next_sequence[&tp], 1);
    assert!(out.is_empty(), "the retry waits out its backoff");
    let (out, events) = p.poll(1_000, 1, &|_| Some(1), &mut cid);
    assert_eq!(
        sent_numbers(&out[0]),
        (1, 0),
        "renumbered from 0 under epoch 1"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::BatchSent {
            renumbered: Some(1),
            ..
        }
    )));
}

#[test]
fn out_of_order_for_a_later_batch_is_retried_without_a_bump() {
    // TransactionManager.canRetry: not the batch after the last acknowledged one, so an
    // earlier batch has not landed yet; retry as it is.
    let (mut p, tp, out, mut cid) = two_batches_in_flight();
    assert_eq!(out.len(), 2);
    let events = p.on_response(
        out[1].correlation_id,
        produce_answer(&tp, Errors::OutOfOrderSequenceNumber, -1),
        4,
    );
    assert!(events
        .iter()
        .any(|e| matches!(e, ProducerEvent::RetryScheduled { .. })));
    let (_, events) = p.poll(4, 1, &|_| Some(1), &mut cid);
    assert!(!events
        .iter()
        .any(|e| matches!(e, ProducerEvent::EpochBumped { .. })));
    assert_eq!(p.producer_epoch, 0);
}

#[test]
fn the_bump_renumbers_batches_in_flight_and_their_out_of_order_asks_no_second_bump() {
    // startSequencesAtBeginning gives the in-flight batch new numbers; its own
    // OUT_OF_ORDER answer then finds `sequenceHasBeenReset` and is only retried.
    let (mut p, tp, out, mut cid) = two_batches_in_flight();
    p.on_response(
        out[0].correlation_id,
        produce_answer(&tp, Errors::OutOfOrderSequenceNumber, -1),
        4,
    );
    let (_, events) = p.poll(4, 1, &|_| Some(1), &mut cid);
    assert!(events
        .iter()
        .any(|e| matches!(e, ProducerEvent::EpochBumped { renumbered: 2, .. })));
    let b = p
        .in_flight
        .iter()
        .find_map(|f| match &f.what {
            InFlightKind::Produce(b) => Some(b.clone()),
            _ => None,
        })
        .expect("b is still in flight");
    assert_eq!(
        (b.producer_epoch, b.base_sequence, b.sequence_reset),
        (1, Some(1), true)
    );
    p.on_response(
        out[1].correlation_id,
        produce_answer(&tp, Errors::OutOfOrderSequenceNumber, -1),
        6,
    );
    let (_, events) = p.poll(6, 1, &|_| Some(1), &mut cid);
    assert!(!events
        .iter()
        .any(|e| matches!(e, ProducerEvent::EpochBumped { .. })));
    assert_eq!(p.producer_epoch, 1);
}

#[test]
fn a_transactional_producer_fails_an_out_of_order_next_batch() {
    let mut p = Producer::new(
        ProducerConfig::from_pairs("p", &pairs(&[("transactional.id", "t1")])).unwrap(),
    );
    p.id_state = IdState::Ready;
    p.producer_id = 5;
    p.producer_epoch = 0;
    let tp = TopicPartition::new("t", 0);
    let batch = ProducerBatch {
        id: 1,
        tp: tp.clone(),
        values: vec!["a".into()],
        created_ms: 0,
        producer_id: 5,
        producer_epoch: 0,
        base_sequence: Some(0),
        attempts: 1,
        retry_at_ms: 0,
        current_leader_epoch: None,
        attempts_when_leader_last_changed: 0,
        transactional: true,
        size_in_bytes: 0,
        sequence_reset: false,
        is_split_batch: false,
    };
    assert!(!p.can_retry_out_of_order(&batch));
    assert!(p.epoch_bump_partitions.is_empty());
}

#[test]
fn a_second_out_of_order_after_the_renumbered_retry_bumps_again() {
    // `reopened` is cleared when the batch is drained again (`ProducerBatch.close()`),
    // so an OUT_OF_ORDER answer to the renumbered retry is a new gap: epoch 2.
    let (mut p, tp) = ready_producer();
    let mut cid = 1;
    p.send(tp.clone(), vec!["a".into()], 0);
    let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
    let oos = produce_answer(&tp, Errors::OutOfOrderSequenceNumber, -1);
    p.on_response(out[0].correlation_id, oos.clone(), 2);
    p.poll(2, 1, &|_| Some(1), &mut cid);
    assert_eq!(p.producer_epoch, 1);
    let (out, _) = p.poll(1_000, 1, &|_| Some(1), &mut cid);
    assert_eq!(sent_numbers(&out[0]), (1, 0));
    p.on_response(out[0].correlation_id, oos, 1_002);
    p.poll(1_002, 1, &|_| Some(1), &mut cid);
    assert_eq!(p.producer_epoch, 2);
}

#[test]
fn a_producer_without_idempotence_fails_on_out_of_order() {
    // `Sender.canRetry` without a transaction manager retries retriable errors only.
    let config =
        ProducerConfig::from_pairs("p", &pairs(&[("enable.idempotence", "false")])).unwrap();
    let mut p = Producer::new(config);
    let tp = TopicPartition::new("t", 0);
    let mut cid = 1;
    p.send(tp.clone(), vec!["a".into()], 0);
    let (out, _) = p.poll(0, 1, &|_| Some(1), &mut cid);
    let events = p.on_response(
        out[0].correlation_id,
        produce_answer(&tp, Errors::OutOfOrderSequenceNumber, -1),
        2,
    );
    assert!(events.iter().any(|e| matches!(
        e,
        ProducerEvent::Failed {
            error: Errors::OutOfOrderSequenceNumber,
            ..
        }
    )));
}
