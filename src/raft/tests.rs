//! The quorum's rules, each after the Kafka 4.0 test that checks it
//! (`KafkaRaftClientTest`, `QuorumStateTest`).

use super::*;

const T0: i64 = 1_000;

fn all(_: i32, _: i32) -> bool {
    true
}

fn three() -> ControllerQuorum {
    ControllerQuorum::new(&[1, 2, 3], 7, T0)
}

fn role(q: &ControllerQuorum, id: i32) -> VoterRole {
    q.voter(id).map(|v| v.role()).unwrap_or(VoterRole::Offline)
}

fn epoch(q: &ControllerQuorum, id: i32) -> i32 {
    q.voter(id).map_or(0, |v| v.epoch())
}

/// Runs the quorum's timers until `until`, with `reach` saying who reaches whom.
fn run(q: &mut ControllerQuorum, until: i64, reach: &dyn Fn(i32, i32) -> bool) -> Vec<QuorumEvent> {
    let mut events = q.poll(T0, reach);
    let mut now = T0;
    while let Some(t) = q.next_timer_ms(reach).filter(|t| *t <= until) {
        now = t.max(now);
        events.extend(q.poll(now, reach));
    }
    events
}

#[test]
fn a_healthy_quorum_has_no_timer_and_one_active_leader() {
    let mut q = three();
    assert!(q.poll(T0 + 10_000, &all).is_empty());
    assert_eq!(q.next_timer_ms(&all), None);
    assert_eq!(q.active(&all), Some(1));
}

#[test]
fn test_voter_become_candidate_after_fetch_timeout() {
    let mut q = three();
    q.poll(T0, &all);
    q.stop(1);
    assert_eq!(q.next_timer_ms(&all), Some(T0 + QUORUM_FETCH_TIMEOUT_MS));
    let events = q.poll(T0 + QUORUM_FETCH_TIMEOUT_MS - 1, &all);
    assert!(events.is_empty(), "{events:?}");
    let events = q.poll(T0 + QUORUM_FETCH_TIMEOUT_MS, &all);
    assert!(matches!(
        events.first(),
        Some(QuorumEvent::Candidate {
            voter: 2,
            epoch: 2,
            fetch_timeout_of: Some(1)
        })
    ));
    assert_eq!(role(&q, 2), VoterRole::Leader);
    assert_eq!(role(&q, 3), VoterRole::Follower);
    assert_eq!(epoch(&q, 3), 2);
    assert_eq!(q.active(&all), Some(2));
}

#[test]
fn test_leader_should_resign_leadership_if_not_get_fetch_request_from_majority_voters() {
    let mut q = three();
    q.poll(T0, &all);
    let alone = |a: i32, b: i32| a != 1 && b != 1;
    assert_eq!(
        q.active(&alone),
        None,
        "a leader without a majority cannot commit"
    );
    let events = run(&mut q, T0 + CHECK_QUORUM_TIMEOUT_MS, &alone);
    assert!(events.contains(&QuorumEvent::Resigned { voter: 1, epoch: 1 }));
    // The others elected a leader at epoch 2 after their fetch timeout, before.
    assert_eq!(role(&q, 2), VoterRole::Leader);
}

#[test]
fn test_leader_should_not_resign_leadership_if_only_one_voters() {
    let mut q = ControllerQuorum::new(&[0], 1, T0);
    assert!(run(&mut q, T0 + 60_000, &all).is_empty());
    assert_eq!(q.active(&all), Some(0));
}

#[test]
fn a_minority_cannot_elect_and_retries_at_each_new_epoch() {
    // KafkaRaftClientTest.testRetryElection: a lost election backs off, then the
    // candidate stands again at the next epoch.
    let mut q = three();
    q.poll(T0, &all);
    q.stop(1);
    q.stop(2);
    let events = run(&mut q, T0 + 10_000, &all);
    assert!(events
        .iter()
        .any(|e| matches!(e, QuorumEvent::ElectionLost { voter: 3, .. })));
    assert!(!events
        .iter()
        .any(|e| matches!(e, QuorumEvent::Elected { .. })));
    assert!(epoch(&q, 3) > 2);
    assert_eq!(q.active(&all), None);
}

#[test]
fn test_handle_vote_request_as_follower_with_voted_candidate() {
    // One vote an epoch: a voter that voted for 2 refuses 3 in the same epoch.
    let mut q = ControllerQuorum::new(&[1, 2, 3, 4, 5], 3, T0);
    q.poll(T0, &all);
    assert!(q.grant_vote(4, 2, 2, (0, 0), T0));
    assert!(!q.grant_vote(4, 3, 2, (0, 0), T0));
    assert!(
        q.grant_vote(4, 2, 2, (0, 0), T0),
        "the same candidate again"
    );
}

#[test]
fn a_candidate_with_a_log_less_up_to_date_gets_no_vote() {
    let mut q = three();
    q.leader_appended(1, 5);
    q.poll(T0, &all);
    // Voter 3 has the five records at epoch 1; a candidate with an empty log asks.
    assert!(!q.grant_vote(3, 2, 2, (0, 0), T0));
    assert!(!q.grant_vote(3, 2, 2, (1, 4), T0));
    assert!(q.grant_vote(3, 2, 2, (1, 5), T0));
}

#[test]
fn a_voter_that_missed_records_cannot_win() {
    let mut q = three();
    q.poll(T0, &all);
    // Voter 3 is cut off while the leader writes: it lags.
    let no3 = |a: i32, b: i32| a != 3 && b != 3;
    q.leader_appended(1, 4);
    q.poll(T0 + 1, &no3);
    assert_eq!(q.high_watermark(), 4, "committed on a majority: 1 and 2");
    assert_eq!(q.voter(3).map(|v| v.end_offset()), Some(0));
    // The leader stops; 3 is back. Whoever stands, only 2 can win.
    q.stop(1);
    run(&mut q, T0 + 20_000, &all);
    assert_eq!(q.active(&all), Some(2));
}

#[test]
fn test_leader_ignore_vote_request_on_same_epoch() {
    let mut q = three();
    q.poll(T0, &all);
    assert!(!q.grant_vote(1, 2, 1, (9, 9), T0));
    assert_eq!(role(&q, 1), VoterRole::Leader);
}

#[test]
fn an_old_leader_steps_down_when_it_reaches_a_later_epoch() {
    let mut q = three();
    q.poll(T0, &all);
    let alone = |a: i32, b: i32| a != 1 && b != 1;
    run(&mut q, T0 + QUORUM_FETCH_TIMEOUT_MS, &alone);
    assert_eq!(role(&q, 1), VoterRole::Leader, "it does not know yet");
    assert_eq!(q.leader().map(|l| l.id()), Some(2));
    let events = q.poll(T0 + QUORUM_FETCH_TIMEOUT_MS + 1, &all);
    assert!(events.contains(&QuorumEvent::SteppedDown {
        voter: 1,
        epoch: 1,
        new_epoch: 2
    }));
    assert_eq!(role(&q, 1), VoterRole::Follower);
}

#[test]
fn test_initialize_as_resigned_and_become_candidate() {
    let mut q = three();
    q.poll(T0, &all);
    q.stop(1);
    q.start(1, T0);
    assert_eq!(role(&q, 1), VoterRole::Resigned);
    assert_eq!(q.voter(1).and_then(|v| v.leader()), None);
}

#[test]
fn election_timeouts_are_seeded_and_within_kafkas_bounds() {
    let mut a = three();
    let mut b = three();
    for _ in 0..100 {
        let (x, y) = (a.random_election_timeout(), b.random_election_timeout());
        assert_eq!(x, y);
        assert!((QUORUM_ELECTION_TIMEOUT_MS..2 * QUORUM_ELECTION_TIMEOUT_MS).contains(&x));
    }
    for retries in 1..30 {
        let backoff = a.election_backoff(retries);
        assert!((0..=QUORUM_ELECTION_BACKOFF_MAX_MS).contains(&backoff));
        assert_eq!(backoff % RETRY_BACKOFF_BASE_MS, 0);
    }
}
