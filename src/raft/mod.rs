//! The KRaft controller quorum (Kafka 4.0, mirror commit 1eb7644: `KafkaRaftClient`,
//! `QuorumState`, `LeaderState`, `CandidateState`, `FollowerState`, `UnattachedState`,
//! `ResignedState`): dedicated controllers, 1, 3 or 5 voters, that elect one leader a
//! Raft epoch and replicate `__cluster_metadata` to each other; the leader is the active
//! controller. A pure state machine over the logical clock: the world says which
//! voters can reach which ([`ControllerQuorum::poll`]).
//!
//! Timed as Kafka's defaults: a follower that has not fetched from its leader for
//! `controller.quorum.fetch.timeout.ms` (2 s) becomes a candidate at the next epoch; a
//! candidate's election lasts `controller.quorum.election.timeout.ms` plus a seeded
//! random part below it (`QuorumState.randomElectionTimeoutMs`, 1–2 s), then it backs
//! off (`binaryExponentialElectionBackoffMs`: 100 ms times a random number below
//! 2^retries, at most `controller.quorum.election.backoff.max.ms`, 1 s) and stands
//! again; a voter grants one vote an epoch, to a candidate whose log is at least as up
//! to date as its own (last epoch, then end offset); a leader that has not heard a
//! majority fetch for 1.5 × the fetch timeout resigns (`LeaderState` check quorum,
//! KIP-996's part that Kafka 3.7 shipped).
//!
//! Simplified: a Fetch and a Vote are not messages on the wire but take no time
//! between voters that can reach each other (a follower a leader reaches has its log
//! at once), so the high watermark is the leader's end offset whenever it reaches a
//! majority; no pre-vote, no observers, no snapshots, no `EndQuorumEpoch` (a stopped
//! leader is found out by the fetch timeout), no Raft control records
//! (`LeaderChangeMessage`), and the voter set never changes (no KIP-853).
//!
//! Kafka's `org.apache.kafka.raft`: the world holds the quorum and narrates its
//! events; the controller's `quorum` duty (`crate::controller`) runs it in the world.

#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::util::rng::Rng;
use crate::util::sorted_map::SortedMap;
use crate::util::sorted_set::SortedSet;

/// `controller.quorum.election.timeout.ms` (Kafka's default).
pub const QUORUM_ELECTION_TIMEOUT_MS: i64 = 1_000;
/// `controller.quorum.fetch.timeout.ms` (Kafka's default).
pub const QUORUM_FETCH_TIMEOUT_MS: i64 = 2_000;
/// `controller.quorum.election.backoff.max.ms` (Kafka's default).
pub const QUORUM_ELECTION_BACKOFF_MAX_MS: i64 = 1_000;
/// `KafkaRaftClient.RETRY_BACKOFF_BASE_MS`: the step of a lost election's backoff.
pub const RETRY_BACKOFF_BASE_MS: i64 = 100;
/// `LeaderState.CHECK_QUORUM_TIMEOUT_FACTOR` (1.5) times the fetch timeout.
pub const CHECK_QUORUM_TIMEOUT_MS: i64 = QUORUM_FETCH_TIMEOUT_MS * 3 / 2;
/// The most voters a quorum may have here.
pub const MAX_VOTERS: i32 = 5;

/// The voters' ids: 0 for the lone controller, 1 to `count` for a larger quorum.
pub fn voter_ids(count: i32) -> Vec<i32> {
    if count <= 1 {
        vec![0]
    } else {
        (1..=count.min(MAX_VOTERS)).collect()
    }
}

/// A voter's state in `QuorumState`'s terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum VoterRole {
    Leader,
    Candidate,
    Follower,
    /// Knows an epoch but no leader (it may have voted in it).
    Unattached,
    /// A leader that gave up its epoch (check quorum) and waits to stand again.
    Resigned,
    /// Stopped: it takes part in nothing until it starts again.
    Offline,
}

impl VoterRole {
    /// The name `kafka-metadata-quorum.sh describe --replication` prints.
    pub fn name(self) -> &'static str {
        match self {
            VoterRole::Leader => "Leader",
            VoterRole::Candidate => "Candidate",
            VoterRole::Follower => "Follower",
            VoterRole::Unattached => "Unattached",
            VoterRole::Resigned => "Resigned",
            VoterRole::Offline => "Offline",
        }
    }
}

/// One voter: its role, epoch, vote and the end of its copy of the metadata log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Voter {
    id: i32,
    role: VoterRole,
    epoch: i32,
    leader: Option<i32>,
    voted_for: Option<i32>,
    end_offset: i64,
    /// The epoch of the last record in its log (0 when empty).
    last_epoch: i32,
    /// When its current timer runs out: a follower's fetch timeout, a candidate's
    /// election or backoff, an unattached or resigned voter's election timeout, a
    /// leader's check-quorum timer.
    timer_ms: i64,
    backing_off: bool,
    /// Elections this voter lost in a row (`CandidateState.retries`).
    retries: u32,
    votes: SortedSet<i32>,
    /// The last time this follower fetched from its leader (or this leader heard a
    /// majority).
    last_fetch_ms: i64,
}

impl Voter {
    pub fn id(&self) -> i32 {
        self.id
    }
    pub fn role(&self) -> VoterRole {
        self.role
    }
    pub fn epoch(&self) -> i32 {
        self.epoch
    }
    pub fn leader(&self) -> Option<i32> {
        self.leader
    }
    pub fn voted_for(&self) -> Option<i32> {
        self.voted_for
    }
    pub fn end_offset(&self) -> i64 {
        self.end_offset
    }
    pub fn last_fetch_ms(&self) -> i64 {
        self.last_fetch_ms
    }
    fn online(&self) -> bool {
        self.role != VoterRole::Offline
    }
    /// Raft's "at least as up to date": last epoch first, then end offset.
    fn log_key(&self) -> (i32, i64) {
        (self.last_epoch, self.end_offset)
    }
}

/// What the quorum did, for the world to narrate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum QuorumEvent {
    /// A voter stands for election at `epoch`: its leader's fetch timeout ran out
    /// (`fetch_timeout_of`), or its election timeout did.
    Candidate {
        voter: i32,
        epoch: i32,
        fetch_timeout_of: Option<i32>,
    },
    /// A candidate's election timed out without a majority: it backs off.
    ElectionLost {
        voter: i32,
        epoch: i32,
        votes: Vec<i32>,
        backoff_ms: i64,
    },
    /// A candidate won a majority and leads `epoch`.
    Elected {
        voter: i32,
        epoch: i32,
        votes: Vec<i32>,
    },
    /// A leader heard no majority for the check-quorum time and resigned.
    Resigned { voter: i32, epoch: i32 },
    /// A leader learnt of a later epoch and stepped down.
    SteppedDown {
        voter: i32,
        epoch: i32,
        new_epoch: i32,
    },
    /// A leader that reaches a majority became the active controller: it replayed
    /// the log up to the high watermark and starts every broker's session anew.
    Claimed {
        voter: i32,
        epoch: i32,
        high_watermark: i64,
    },
    /// A voter that does not lead got a request: NOT_CONTROLLER, and the sender's
    /// channel sends it to `leader` (or keeps it until one leads).
    NotController {
        voter: i32,
        api: String,
        leader: Option<i32>,
    },
    /// A leader without a majority holds a request it cannot commit.
    WriteWaits { voter: i32, epoch: i32, api: String },
    /// `controller N stop`.
    Stopped { voter: i32 },
    /// `controller N start`.
    Started { voter: i32 },
}

/// The quorum: its voters by id, the high watermark, the seeded randomness of its
/// timeouts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ControllerQuorum {
    voters: SortedMap<i32, Voter>,
    high_watermark: i64,
    rng: Rng,
}

impl ControllerQuorum {
    /// Voters with ids `ids`; the first leads epoch 1 and the others follow it, as
    /// of `now_ms` (the election a cluster's start would hold is not shown).
    pub fn new(ids: &[i32], seed: u64, now_ms: i64) -> Self {
        let first = ids.first().copied().unwrap_or(0);
        let voters = ids
            .iter()
            .map(|&id| {
                let leader = id == first;
                (
                    id,
                    Voter {
                        id,
                        role: if leader {
                            VoterRole::Leader
                        } else {
                            VoterRole::Follower
                        },
                        epoch: 1,
                        leader: Some(first),
                        voted_for: Some(first),
                        end_offset: 0,
                        last_epoch: 0,
                        timer_ms: now_ms.saturating_add(if leader {
                            CHECK_QUORUM_TIMEOUT_MS
                        } else {
                            QUORUM_FETCH_TIMEOUT_MS
                        }),
                        backing_off: false,
                        retries: 0,
                        votes: SortedSet::new(),
                        last_fetch_ms: now_ms,
                    },
                )
            })
            .collect();
        ControllerQuorum {
            voters,
            high_watermark: 0,
            rng: Rng::new(seed ^ 0x4b52_6166_7400_0000),
        }
    }

    pub fn voters(&self) -> impl Iterator<Item = &Voter> {
        self.voters.values()
    }

    pub fn voter(&self, id: i32) -> Option<&Voter> {
        self.voters.get(&id)
    }

    pub fn high_watermark(&self) -> i64 {
        self.high_watermark
    }

    fn majority(&self, count: usize) -> bool {
        count * 2 > self.voters.len()
    }

    /// The leader of the latest epoch that some online voter leads: the controller the
    /// brokers address.
    pub fn leader(&self) -> Option<&Voter> {
        self.voters
            .values()
            .filter(|v| v.role == VoterRole::Leader)
            .max_by_key(|v| v.epoch)
    }

    /// The leader of the latest epoch, if it can commit now: it and the followers of
    /// its epoch it reaches are a majority. This is the active controller.
    pub fn active(&self, reach: &dyn Fn(i32, i32) -> bool) -> Option<i32> {
        let leader = self.leader()?;
        let followers = self
            .voters
            .values()
            .filter(|v| {
                v.role == VoterRole::Follower
                    && v.leader == Some(leader.id)
                    && v.epoch == leader.epoch
                    && reach(leader.id, v.id)
            })
            .count();
        self.majority(followers + 1).then_some(leader.id)
    }

    /// The active leader appended records: its log ends at `end_offset`, the last of
    /// them written at its epoch. Followers it reaches copy them at the next poll.
    pub fn leader_appended(&mut self, leader: i32, end_offset: i64) {
        if let Some(v) = self.voters.get_mut(&leader) {
            if end_offset > v.end_offset {
                v.end_offset = end_offset;
                v.last_epoch = v.epoch;
            }
        }
    }

    /// A voter stops: it forgets nothing it wrote (its log and `quorum-state` file)
    /// but takes part in nothing.
    pub fn stop(&mut self, id: i32) -> bool {
        match self.voters.get_mut(&id) {
            Some(v) if v.online() => {
                v.role = VoterRole::Offline;
                v.votes = SortedSet::new();
                true
            }
            _ => false,
        }
    }

    /// A voter starts again from its `quorum-state` file: its epoch and vote, no
    /// leader (`QuorumState.initialize`: a former leader starts resigned, the others
    /// unattached), and a fresh election timeout.
    pub fn start(&mut self, id: i32, now_ms: i64) -> bool {
        let timeout = self.random_election_timeout();
        match self.voters.get_mut(&id) {
            Some(v) if !v.online() => {
                v.role = if v.leader == Some(id) {
                    VoterRole::Resigned
                } else {
                    VoterRole::Unattached
                };
                v.leader = None;
                v.timer_ms = now_ms.saturating_add(timeout);
                true
            }
            _ => false,
        }
    }

    /// `QuorumState.randomElectionTimeoutMs`: the election timeout plus a random part
    /// below it.
    fn random_election_timeout(&mut self) -> i64 {
        QUORUM_ELECTION_TIMEOUT_MS
            + i64::try_from(self.rng.below(QUORUM_ELECTION_TIMEOUT_MS.unsigned_abs())).unwrap_or(0)
    }

    /// `KafkaRaftClient.binaryExponentialElectionBackoffMs` after `retries` lost
    /// elections (at least 1).
    fn election_backoff(&mut self, retries: u32) -> i64 {
        let span = 2_u64 << retries.saturating_sub(1).min(20);
        let draw = i64::try_from(self.rng.below(span)).unwrap_or(0);
        RETRY_BACKOFF_BASE_MS
            .saturating_mul(draw)
            .min(QUORUM_ELECTION_BACKOFF_MAX_MS)
    }

    /// When the quorum next does something on its own, given who reaches whom now: a
    /// follower cut off from its leader times out, a candidate's election or backoff
    /// ends, a leader without a majority resigns. A healthy quorum has no such time.
    pub fn next_timer_ms(&self, reach: &dyn Fn(i32, i32) -> bool) -> Option<i64> {
        let active = self.active(reach);
        self.voters
            .values()
            .filter_map(|v| match v.role {
                VoterRole::Offline => None,
                VoterRole::Leader if active == Some(v.id) => None,
                VoterRole::Follower
                    if v.leader.is_some_and(|l| {
                        reach(l, v.id)
                            && self.voters.get(&l).is_some_and(|lv| {
                                lv.role == VoterRole::Leader && lv.epoch == v.epoch
                            })
                    }) =>
                {
                    None
                }
                _ => Some(v.timer_ms),
            })
            .min()
    }

    /// Does what is due at `now_ms`: leaders replicate to the voters they reach (and
    /// learn of later epochs), timers that ran out start elections, candidates gather
    /// votes. Repeats until nothing changes.
    pub fn poll(&mut self, now_ms: i64, reach: &dyn Fn(i32, i32) -> bool) -> Vec<QuorumEvent> {
        let mut events = Vec::new();
        // Each pass changes a role or an epoch; a quorum of 5 settles in a few.
        for _ in 0..64 {
            let changed = self.replicate(now_ms, reach, &mut events)
                || self.canvass(now_ms, reach, &mut events)
                || self.expire_timers(now_ms, reach, &mut events);
            if !changed {
                break;
            }
        }
        events
    }

    /// Leaders, latest epoch first, reach the voters they can (Fetch, and
    /// `BeginQuorumEpoch` to those that do not follow them yet). Returns whether a
    /// role or epoch changed.
    fn replicate(
        &mut self,
        now_ms: i64,
        reach: &dyn Fn(i32, i32) -> bool,
        events: &mut Vec<QuorumEvent>,
    ) -> bool {
        let mut leaders: Vec<(i32, i32)> = self
            .voters
            .values()
            .filter(|v| v.role == VoterRole::Leader)
            .map(|v| (v.epoch, v.id))
            .collect();
        leaders.sort_by(|a, b| b.cmp(a));
        let mut changed = false;
        for (epoch, lid) in leaders {
            let Some((end, last_epoch)) =
                self.voters.get(&lid).map(|l| (l.end_offset, l.last_epoch))
            else {
                continue;
            };
            let others: Vec<i32> = self
                .voters
                .values()
                .filter(|v| v.id != lid && v.online() && reach(lid, v.id))
                .map(|v| v.id)
                .collect();
            if let Some(higher) = others
                .iter()
                .filter_map(|id| self.voters.get(id).map(|v| v.epoch))
                .filter(|e| *e > epoch)
                .max()
            {
                let timeout = self.random_election_timeout();
                if let Some(l) = self.voters.get_mut(&lid) {
                    l.role = VoterRole::Unattached;
                    l.epoch = higher;
                    l.leader = None;
                    l.voted_for = None;
                    l.timer_ms = now_ms.saturating_add(timeout);
                }
                events.push(QuorumEvent::SteppedDown {
                    voter: lid,
                    epoch,
                    new_epoch: higher,
                });
                changed = true;
                continue;
            }
            let mut fetched = 1;
            for id in others {
                let Some(v) = self.voters.get_mut(&id) else {
                    continue;
                };
                if v.role == VoterRole::Leader && v.epoch < epoch {
                    // An older leader hears of this epoch: it steps down and follows.
                    events.push(QuorumEvent::SteppedDown {
                        voter: id,
                        epoch: v.epoch,
                        new_epoch: epoch,
                    });
                    changed = true;
                }
                if v.role != VoterRole::Follower || v.epoch != epoch || v.leader != Some(lid) {
                    changed = true;
                }
                v.role = VoterRole::Follower;
                if v.epoch != epoch {
                    v.voted_for = None;
                }
                v.epoch = epoch;
                v.leader = Some(lid);
                v.backing_off = false;
                v.retries = 0;
                v.votes = SortedSet::new();
                // Fetch truncates a diverging tail and copies the leader's log.
                v.end_offset = end;
                v.last_epoch = last_epoch;
                v.last_fetch_ms = now_ms;
                v.timer_ms = now_ms.saturating_add(QUORUM_FETCH_TIMEOUT_MS);
                fetched += 1;
            }
            if self.majority(fetched) {
                if let Some(l) = self.voters.get_mut(&lid) {
                    l.last_fetch_ms = now_ms;
                    l.timer_ms = now_ms.saturating_add(CHECK_QUORUM_TIMEOUT_MS);
                }
                if self.leader().is_some_and(|l| l.id == lid) {
                    self.high_watermark = self.high_watermark.max(end);
                }
            }
        }
        changed
    }

    /// Timers that ran out: a leader resigns, a follower or an unattached or resigned
    /// voter stands, a candidate's election ends or its backoff does.
    fn expire_timers(
        &mut self,
        now_ms: i64,
        reach: &dyn Fn(i32, i32) -> bool,
        events: &mut Vec<QuorumEvent>,
    ) -> bool {
        let due: Vec<i32> = self
            .voters
            .values()
            .filter(|v| v.online() && v.timer_ms <= now_ms)
            .map(|v| v.id)
            .collect();
        for id in due {
            let Some(v) = self.voters.get(&id).cloned() else {
                continue;
            };
            match v.role {
                VoterRole::Leader => {
                    if self.active(reach) == Some(id) {
                        continue;
                    }
                    let timeout = self.random_election_timeout();
                    if let Some(l) = self.voters.get_mut(&id) {
                        l.role = VoterRole::Resigned;
                        l.timer_ms = now_ms.saturating_add(timeout);
                    }
                    events.push(QuorumEvent::Resigned {
                        voter: id,
                        epoch: v.epoch,
                    });
                    return true;
                }
                VoterRole::Candidate if !v.backing_off => {
                    let retries = v.retries.max(1);
                    let backoff = self.election_backoff(retries);
                    if let Some(c) = self.voters.get_mut(&id) {
                        c.backing_off = true;
                        c.timer_ms = now_ms.saturating_add(backoff);
                    }
                    events.push(QuorumEvent::ElectionLost {
                        voter: id,
                        epoch: v.epoch,
                        votes: v.votes.iter().copied().collect(),
                        backoff_ms: backoff,
                    });
                    return true;
                }
                VoterRole::Follower => {
                    self.stand(id, now_ms, v.leader, reach, events);
                    return true;
                }
                VoterRole::Candidate | VoterRole::Unattached | VoterRole::Resigned => {
                    self.stand(id, now_ms, None, reach, events);
                    return true;
                }
                VoterRole::Offline => {}
            }
        }
        false
    }

    /// Candidates in their election ask again the voters they reach that have not
    /// voted for them (`CandidateState` resends a Vote request to a voter that did not
    /// answer). Returns whether one won.
    fn canvass(
        &mut self,
        now_ms: i64,
        reach: &dyn Fn(i32, i32) -> bool,
        events: &mut Vec<QuorumEvent>,
    ) -> bool {
        let candidates: Vec<i32> = self
            .voters
            .values()
            .filter(|v| v.role == VoterRole::Candidate && !v.backing_off)
            .map(|v| v.id)
            .collect();
        for id in candidates {
            if self.ask_votes(id, now_ms, reach, events) {
                return true;
            }
        }
        false
    }

    /// `transitionToCandidate`: the next epoch, a vote for itself, a fresh election
    /// timeout; then the Vote requests to the voters it reaches.
    fn stand(
        &mut self,
        id: i32,
        now_ms: i64,
        fetch_timeout_of: Option<i32>,
        reach: &dyn Fn(i32, i32) -> bool,
        events: &mut Vec<QuorumEvent>,
    ) {
        let timeout = self.random_election_timeout();
        let Some(c) = self.voters.get_mut(&id) else {
            return;
        };
        c.role = VoterRole::Candidate;
        c.epoch = c.epoch.saturating_add(1);
        c.leader = None;
        c.voted_for = Some(id);
        c.backing_off = false;
        c.retries = c.retries.saturating_add(1);
        c.timer_ms = now_ms.saturating_add(timeout);
        let mut votes = SortedSet::new();
        votes.insert(id);
        c.votes = votes;
        let epoch = c.epoch;
        events.push(QuorumEvent::Candidate {
            voter: id,
            epoch,
            fetch_timeout_of,
        });
        self.ask_votes(id, now_ms, reach, events);
    }

    /// A candidate's Vote requests to the voters it reaches and has no vote from;
    /// with a majority it leads. Returns whether its role changed.
    fn ask_votes(
        &mut self,
        id: i32,
        now_ms: i64,
        reach: &dyn Fn(i32, i32) -> bool,
        events: &mut Vec<QuorumEvent>,
    ) -> bool {
        let Some((epoch, key, votes)) = self
            .voters
            .get(&id)
            .map(|c| (c.epoch, c.log_key(), c.votes.clone()))
        else {
            return false;
        };
        let others: Vec<i32> = self
            .voters
            .values()
            .filter(|v| v.id != id && v.online() && reach(id, v.id) && !votes.contains(&v.id))
            .map(|v| v.id)
            .collect();
        for other in others {
            let higher = self.voters.get(&other).map_or(0, |v| v.epoch);
            if higher > epoch {
                // The answer carries a later epoch: the candidate gives up.
                let timeout = self.random_election_timeout();
                if let Some(c) = self.voters.get_mut(&id) {
                    c.role = VoterRole::Unattached;
                    c.epoch = higher;
                    c.voted_for = None;
                    c.votes = SortedSet::new();
                    c.timer_ms = now_ms.saturating_add(timeout);
                }
                return true;
            }
            if self.grant_vote(other, id, epoch, key, now_ms) {
                if let Some(c) = self.voters.get_mut(&id) {
                    c.votes.insert(other);
                }
            }
        }
        let won = self
            .voters
            .get(&id)
            .is_some_and(|c| self.majority(c.votes.len()));
        if won {
            if let Some(c) = self.voters.get_mut(&id) {
                c.role = VoterRole::Leader;
                c.leader = Some(id);
                c.retries = 0;
                c.last_fetch_ms = now_ms;
                c.timer_ms = now_ms.saturating_add(CHECK_QUORUM_TIMEOUT_MS);
                events.push(QuorumEvent::Elected {
                    voter: id,
                    epoch,
                    votes: c.votes.iter().copied().collect(),
                });
            }
        }
        won
    }

    /// `KafkaRaftClient.handleVoteRequest`: a voter at an older epoch moves to the
    /// candidate's (a leader there steps down); it grants if it has not voted in the
    /// epoch (or voted for this candidate) and the candidate's log is at least as up
    /// to date as its own.
    fn grant_vote(
        &mut self,
        voter: i32,
        candidate: i32,
        epoch: i32,
        candidate_log: (i32, i64),
        now_ms: i64,
    ) -> bool {
        let timeout = self.random_election_timeout();
        let Some(v) = self.voters.get_mut(&voter) else {
            return false;
        };
        if v.epoch < epoch {
            v.role = VoterRole::Unattached;
            v.epoch = epoch;
            v.leader = None;
            v.voted_for = None;
            v.backing_off = false;
            v.votes = SortedSet::new();
            v.timer_ms = now_ms.saturating_add(timeout);
        }
        if v.epoch != epoch || v.role != VoterRole::Unattached {
            return false;
        }
        let free = v.voted_for.is_none_or(|c| c == candidate);
        if free && candidate_log >= v.log_key() {
            v.voted_for = Some(candidate);
            v.timer_ms = now_ms.saturating_add(timeout);
            return true;
        }
        false
    }
}
