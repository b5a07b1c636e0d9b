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
    let (out3, _) = p.poll(30_100, 1, &|_| Some(1), &mut cid);
    let seq_of = |o: &Outgoing| match &o.request {
        Request::Produce { records, .. } => RecordBatch::decode(records).unwrap().0.base_sequence,
        _ => -9,
    };
    assert_eq!(seq_of(&out[0]), 0);
    assert_eq!(seq_of(&out3[0]), 0);
    p.send(tp.clone(), vec!["d".into()], 30_100);
    let (out4, _) = p.poll(30_100, 1, &|_| Some(1), &mut cid);
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
