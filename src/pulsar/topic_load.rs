//! A topic partition unloaded and loaded again (`pulsar-admin topics unload`; a broker
//! restart or a bundle moving does the same): the ledger and the cursors are durable,
//! the transaction buffer and pending ack are rebuilt. The buffer recovers from its
//! snapshot and the entries after it (`TopicTransactionBufferRecover`), Initializing
//! meanwhile; each subscription replays its pending-ack log (`MLPendingAckStore`) and
//! its dispatcher starts again after the mark-delete position, so what was delivered
//! but not acknowledged is delivered again.

use super::action::Outcome;
use super::event::PulsarEventKind;
use super::{Position, PulsarStepError, PulsarWorld, TopicTransactionBuffer};

impl PulsarWorld {
    /// `pulsar fault ledger …`: the topic's ledger, or one subscription's pending-ack
    /// log, refuses writes (or writes again).
    pub(super) fn fail_ledger(
        &mut self,
        topic: &String,
        subscription: &Option<String>,
        failing: bool,
    ) -> Result<Outcome, PulsarStepError> {
        let t = self
            .topics
            .get_mut(topic)
            .ok_or_else(|| PulsarStepError::TopicNotFound {
                topic: topic.clone(),
            })?;
        match subscription {
            Some(sub) => {
                t.subscriptions
                    .get_mut(sub)
                    .ok_or_else(|| PulsarStepError::SubscriptionNotFound {
                        topic: topic.clone(),
                        subscription: sub.clone(),
                    })?
                    .pending_ack_log_failing = failing
            }
            None => t.ledger_failing = failing,
        }
        let kind = PulsarEventKind::LedgerFailing {
            topic: topic.clone(),
            subscription: subscription.clone(),
            failing,
        };
        self.emit(None, kind);
        Ok(Outcome::Done)
    }

    /// `pulsar snapshot TOPIC`: the transaction buffer writes its snapshot now.
    pub(super) fn take_buffer_snapshot(
        &mut self,
        topic: &String,
    ) -> Result<Outcome, PulsarStepError> {
        let t = self
            .topics
            .get_mut(topic)
            .ok_or_else(|| PulsarStepError::TopicNotFound {
                topic: topic.clone(),
            })?;
        // Only a Ready buffer takes snapshots (`run` checks `checkIfReady`).
        let state = t.buffer.state();
        if state != super::TransactionBufferState::Ready {
            return Err(PulsarStepError::BufferNotReady {
                topic: topic.clone(),
                state: state.name(),
            });
        }
        let s = t.buffer.take_snapshot();
        let (max_read_position, aborts) = (s.max_read_position, s.aborts.len());
        let topic = topic.clone();
        self.emit(
            None,
            PulsarEventKind::SnapshotTaken {
                topic,
                max_read_position,
                aborts,
            },
        );
        Ok(Outcome::Done)
    }

    pub(super) fn unload_topic(
        &mut self,
        topic: &str,
        replay_ms: i64,
    ) -> Result<(), PulsarStepError> {
        let now = self.clock_ms();
        let t = self
            .topics
            .get_mut(topic)
            .ok_or_else(|| PulsarStepError::TopicNotFound {
                topic: topic.to_string(),
            })?;
        if t.recovery_due.is_some() {
            return Err(PulsarStepError::TopicLoading {
                topic: topic.to_string(),
            });
        }
        let snapshot = t.buffer.snapshot().map(|s| s.max_read_position);
        let to_replay = TopicTransactionBuffer::entries_to_replay(&t.ledger, t.buffer.snapshot());
        t.buffer.start_initializing(&t.ledger);
        t.recovery_due = Some(now.saturating_add(replay_ms));
        let mut replayed = Vec::new();
        for (name, s) in t.subscriptions.iter_mut() {
            let held = s.pending_ack.replay(&s.cursor);
            s.read_position = s.cursor.mark_delete_position().next();
            s.redeliver.clear();
            // The dispatcher's trackers live in memory: the redelivery counts start
            // over, and delayed messages are found again as the dispatcher reads.
            s.delayed.clear();
            s.redelivery_count.clear();
            replayed.push((name.clone(), s.pending_ack.log().len(), held));
        }
        let kind = PulsarEventKind::TopicUnloaded {
            topic: topic.to_string(),
            snapshot,
            to_replay,
        };
        self.emit(None, kind);
        for (subscription, records, held) in replayed {
            let kind = PulsarEventKind::PendingAckReplayed {
                topic: topic.to_string(),
                subscription,
                records,
                held,
            };
            self.emit(None, kind);
        }
        if replay_ms == 0 {
            self.finish_buffer_recovery(topic);
        }
        Ok(())
    }

    /// The buffer is rebuilt from its snapshot and the ledger: Ready (or NoSnapshot).
    pub(super) fn finish_buffer_recovery(&mut self, topic: &str) {
        let Some(t) = self.topics.get_mut(topic) else {
            return;
        };
        if t.recovery_due.take().is_none() {
            return;
        }
        let snapshot = t.buffer.snapshot().cloned();
        t.buffer = TopicTransactionBuffer::recover(&t.ledger, snapshot.as_ref());
        let b = &t.buffer;
        let kind = PulsarEventKind::BufferRecovered {
            topic: topic.to_string(),
            state: b.state(),
            max_read_position: b.max_read_position(),
            ongoing: b.ongoing_txns().len(),
            aborts: b.aborts().len(),
        };
        self.emit(None, kind);
    }

    /// `getLastMessageId` (Pulsar 3.3+, `getLastDispatchablePosition`): the last
    /// message a consumer could be given, at or before maxReadPosition, skipping
    /// markers and aborted messages; `-1:-1` when there is none.
    pub fn last_message_id(&self, topic: &str) -> Option<Position> {
        let t = self.topics.get(topic)?;
        let limit = t.buffer.dispatch_limit(&t.ledger);
        let last = t.ledger.entries().iter().rev().find(|e| {
            e.position <= limit
                && !e.is_marker()
                && !e.txn().is_some_and(|x| t.buffer.is_txn_aborted(x))
        });
        Some(last.map_or(Position::new(-1, -1), |e| e.position))
    }
}
