//! The quorum (`crate::raft`'s `ControllerQuorum`) in the world: which voter the brokers address, whether it can commit
//! (only then does the controller act), its stops and starts, and what a new active
//! controller does when it claims its epoch (`QuorumController.claim`: it replays the
//! log, and `ClusterControlManager.activate` starts a fresh `BrokerHeartbeatManager`
//! in which every broker's session counts from now). While no voter can commit,
//! `renounce` has dropped the heartbeat manager: no broker is fenced and no session
//! counts.

use crate::protocol::errors::Errors;
use crate::protocol::Request;
use crate::raft::{ControllerQuorum, QuorumEvent, VoterRole};
use crate::sim::event::EventKind;
use crate::sim::network::Node;
use crate::sim::world::World;
use crate::sim::{SimError, SimErrorKind};

impl World {
    /// The pairs of voters whose link is cut, so the quorum can ask who reaches whom
    /// without holding the network.
    fn quorum_reach(&self) -> impl Fn(i32, i32) -> bool {
        let ids: Vec<i32> = self.quorum.voters().map(|v| v.id()).collect();
        let mut cut = Vec::new();
        for a in &ids {
            for b in &ids {
                if a < b
                    && self
                        .network()
                        .is_cut(&Node::Controller(*a), &Node::Controller(*b))
                {
                    cut.push((*a, *b));
                }
            }
        }
        move |a, b| !cut.contains(&(a.min(b), a.max(b)))
    }

    /// The controller quorum: its voters, leader, epoch and high watermark.
    pub fn controller_quorum(&self) -> &ControllerQuorum {
        &self.quorum
    }

    /// The active controller: the leader of the latest epoch while it can commit.
    pub fn active_controller(&self) -> Option<i32> {
        self.quorum.active(&self.quorum_reach())
    }

    /// The controller a request goes to: the leader of the latest epoch, else the
    /// last one heard of (a raw request's address).
    pub(crate) fn controller_node(&self) -> Node {
        Node::Controller(
            self.quorum
                .leader()
                .map_or(self.last_known_controller, |l| l.id()),
        )
    }

    /// A broker's request to the controller (`NodeToControllerChannelManager`): sent
    /// to the leader of the latest epoch, or queued while no voter leads, and sent
    /// when one does.
    pub(crate) fn send_to_controller(&mut self, broker: i32, request: Request) {
        self.controller_queue.push((broker, request));
        self.flush_controller_queue();
    }

    /// Sends the queued requests to the leader, if there is one.
    fn flush_controller_queue(&mut self) {
        let Some(leader) = self.quorum.leader().map(|l| l.id()) else {
            return;
        };
        for (broker, request) in std::mem::take(&mut self.controller_queue) {
            let cid = self.take_correlation_id();
            self.send(
                Node::Broker(broker),
                Node::Controller(leader),
                cid,
                crate::sim::network::Body::Request(request),
            );
        }
    }

    /// A broker's request met a stopped controller or one that does not lead: the
    /// channel manager keeps it and sends it to the next leader.
    pub(crate) fn requeue_for_controller(&mut self, from: &Node, request: &Request) -> bool {
        let Node::Broker(broker) = from else {
            return false;
        };
        self.controller_queue.push((*broker, request.clone()));
        self.flush_controller_queue();
        true
    }

    /// Whether this voter is stopped.
    pub(crate) fn controller_offline(&self, id: i32) -> bool {
        self.quorum
            .voter(id)
            .is_none_or(|v| v.role() == VoterRole::Offline)
    }

    /// A request reached controller `id`. A voter that does not lead answers
    /// NOT_CONTROLLER (`QuorumController` outside its epoch); a leader that cannot
    /// reach a majority would append the write and never commit it: the request
    /// waits unanswered (said once), and the sender retries on its own timer.
    /// Returns `Err(None)` to drop it, `Err(Some(error))` to answer with `error`.
    pub(crate) fn controller_takes(
        &mut self,
        id: i32,
        request: &Request,
    ) -> Result<(), Option<Errors>> {
        if self.quorum.leader().is_none_or(|l| l.id() != id) {
            let leader = self.quorum.leader().map(|l| l.id());
            self.emit(EventKind::Quorum(QuorumEvent::NotController {
                voter: id,
                api: request.api_name().to_string(),
                leader,
            }));
            return Err(Some(Errors::NotController));
        }
        if self.active_controller() == Some(id) {
            return Ok(());
        }
        let epoch = self.quorum.voter(id).map_or(0, |v| v.epoch());
        self.emit(EventKind::Quorum(QuorumEvent::WriteWaits {
            voter: id,
            epoch,
            api: request.api_name().to_string(),
        }));
        Err(None)
    }

    /// Lets the quorum do what is due now, and the controller follow: a new active
    /// controller claims its epoch, one that lost its majority renounces. Returns
    /// whether anything happened.
    pub(crate) fn poll_quorum(&mut self) -> bool {
        let now = self.clock_ms();
        let before = self.active_controller();
        if let Some(active) = before {
            let end = self.metadata_log.end_offset();
            self.quorum.leader_appended(active, end);
        }
        let reach = self.quorum_reach();
        let events = self.quorum.poll(now, &reach);
        let after = self.active_controller();
        let happened = !events.is_empty() || before != after;
        for event in events {
            self.emit(EventKind::Quorum(event));
        }
        if let Some(leader) = self.quorum.leader() {
            self.last_known_controller = leader.id();
        }
        if !self.controller_queue.is_empty() {
            self.flush_controller_queue();
        }
        if before != after {
            // `renounce` or `claim`: either way the old heartbeat manager is gone.
            self.session_cut_at.clear();
            if let Some(active) = after {
                let epoch = self.quorum.voter(active).map_or(0, |v| v.epoch());
                self.metadata_log.set_leader_epoch(epoch);
                self.emit(EventKind::Quorum(QuorumEvent::Claimed {
                    voter: active,
                    epoch,
                    high_watermark: self.quorum.high_watermark(),
                }));
                self.sync_controller_links();
            }
        }
        happened
    }

    /// When the quorum next acts on its own (none while it is healthy).
    pub(crate) fn next_quorum_timer_ms(&self) -> Option<i64> {
        self.quorum.next_timer_ms(&self.quorum_reach())
    }

    /// `controller N stop`: the voter stops (as a crash: no `EndQuorumEpoch`), and the
    /// messages to and from it are lost.
    pub(crate) fn stop_controller(&mut self, id: i32) -> Result<(), SimError> {
        self.known_voter(id)?;
        // The others fetched from it until now.
        self.poll_quorum();
        if !self.quorum.stop(id) {
            return Err(SimErrorKind::ControllerState { id, running: false }.into());
        }
        self.controller_connections_lost(id);
        self.emit(EventKind::Quorum(QuorumEvent::Stopped { voter: id }));
        self.poll_quorum();
        Ok(())
    }

    /// `controller N start`: the voter starts again from its `quorum-state`.
    pub(crate) fn start_controller(&mut self, id: i32) -> Result<(), SimError> {
        self.known_voter(id)?;
        let now = self.clock_ms();
        if !self.quorum.start(id, now) {
            return Err(SimErrorKind::ControllerState { id, running: true }.into());
        }
        self.emit(EventKind::Quorum(QuorumEvent::Started { voter: id }));
        self.poll_quorum();
        Ok(())
    }

    fn known_voter(&self, id: i32) -> Result<(), SimError> {
        if self.quorum.voter(id).is_some() {
            Ok(())
        } else {
            Err(SimErrorKind::NoController {
                id,
                voters: self.quorum.voters().map(|v| v.id()).collect(),
            }
            .into())
        }
    }

    /// `kafka-metadata-quorum.sh describe --status` then `--replication`: the leader,
    /// its epoch, the high watermark and the largest lag; then a line a voter (its LEO,
    /// lag behind the leader, and when it last fetched).
    pub fn quorum_lines(&self) -> Vec<String> {
        let q = &self.quorum;
        let leader = q.leader();
        let leader_end = leader.map_or(0, |l| l.end_offset());
        let epoch = q.voters().map(|v| v.epoch()).max().unwrap_or(0);
        let max_lag = q
            .voters()
            .map(|v| leader_end.saturating_sub(v.end_offset()).max(0))
            .max()
            .unwrap_or(0);
        let voters: Vec<String> = q.voters().map(|v| v.id().to_string()).collect();
        let mut lines = vec![
            format!(
                "LeaderId: {}  LeaderEpoch: {}  HighWatermark: {}  MaxFollowerLag: {}  CurrentVoters: [{}]  Active: {}",
                leader.map_or("none".to_string(), |l| l.id().to_string()),
                leader.map_or(epoch, |l| l.epoch()),
                q.high_watermark(),
                max_lag,
                voters.join(", "),
                self.active_controller()
                    .map_or("none".to_string(), |a| a.to_string())
            ),
            "NodeId  LogEndOffset  Lag  LastFetchMs  Status      Epoch  VotedFor".to_string(),
        ];
        for v in q.voters() {
            lines.push(format!(
                "{:<6}  {:>12}  {:>3}  {:>11}  {:<10}  {:>5}  {}",
                v.id(),
                v.end_offset(),
                leader_end.saturating_sub(v.end_offset()).max(0),
                v.last_fetch_ms() - crate::sim::START_MS,
                v.role().name(),
                v.epoch(),
                v.voted_for().map_or("-".to_string(), |c| c.to_string())
            ));
        }
        lines
    }
}
