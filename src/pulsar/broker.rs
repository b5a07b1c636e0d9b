//! A broker answering commands for the partitions it owns (`ServerCnx`,
//! `PersistentTopic`, `PersistentSubscription`, the dispatcher's
//! `filterEntriesForConsumer`); coordinator commands go to `coordinator_service.rs`.

use std::collections::BTreeMap;

use super::event::PulsarEventKind;
use super::pending_ack::AckConflict;
use super::{
    Command, EntryData, Position, PulsarError, PulsarWorld, TransactionSubscription, TxnID,
};
use crate::sim::Node;

/// What a Send carries besides its producer, sequence id and transaction.
struct Message {
    value: String,
    deliver_at: Option<i64>,
    batch: Vec<String>,
}

impl PulsarWorld {
    pub(super) fn handle(&mut self, broker: i32, from: Node, body: Command) {
        let reply = |w: &mut PulsarWorld, body: Command, step| {
            w.send(Node::Broker(broker), from.clone(), body, step)
        };
        match body {
            Command::LookupTopic { topic } => {
                let tc = topic
                    .rsplit("-partition-")
                    .next()
                    .and_then(|k| k.parse::<u64>().ok());
                let owner = tc
                    .filter(|_| self.config().transaction_coordinator_enabled)
                    .filter(|k| (*k as usize) < self.coordinators.len())
                    .map(|k| self.tc_broker(k));
                reply(
                    self,
                    Command::LookupTopicResponse {
                        topic,
                        broker: owner,
                    },
                    Some("1.1"),
                );
            }
            Command::NewTxn { tc_id, txn_ttl_ms } => {
                let result = self.tc_new_txn(tc_id, txn_ttl_ms);
                let step = result.is_ok().then_some("1.4");
                reply(self, Command::NewTxnResponse { result }, step);
            }
            Command::AddPartitionToTxn { txn, partitions } => {
                let result = self.tc_add(txn, Ok(partitions));
                reply(
                    self,
                    Command::AddPartitionToTxnResponse { txn, result },
                    Some("2.1.4"),
                );
            }
            Command::AddSubscriptionToTxn { txn, subscriptions } => {
                let result = self.tc_add(txn, Err(subscriptions));
                reply(
                    self,
                    Command::AddSubscriptionToTxnResponse { txn, result },
                    Some("3.1.4"),
                );
            }
            Command::EndTxn { txn, commit } => {
                if let Err(e) = self.tc_end_txn(txn, commit, true) {
                    reply(
                        self,
                        Command::EndTxnResponse {
                            txn,
                            result: Err(e),
                        },
                        None,
                    );
                }
            }
            Command::Send {
                topic,
                producer_name,
                sequence_id,
                txn,
                value,
                deliver_at,
                batch,
            } => {
                let message = Message {
                    value,
                    deliver_at,
                    batch,
                };
                let result = self.publish(&topic, &producer_name, sequence_id, txn, message);
                reply(
                    self,
                    Command::SendReceipt {
                        sequence_id,
                        result,
                    },
                    None,
                );
            }
            Command::Flow {
                topic,
                subscription,
                permits,
            } => {
                let (entries, redelivery_counts) = self.dispatch(&topic, &subscription, permits);
                let body = Command::Message {
                    entries,
                    redelivery_counts,
                };
                reply(self, body, None);
            }
            Command::RedeliverUnacknowledged {
                topic,
                subscription,
                positions,
            } => self.redeliver_unacknowledged(&topic, &subscription, &positions),
            Command::Ack {
                topic,
                subscription,
                positions,
                txn,
                cumulative,
            } => match txn {
                Some(txn) => {
                    let result = self.txn_ack(&topic, &subscription, txn, &positions, cumulative);
                    reply(self, Command::AckResponse { txn, result }, None);
                }
                None => self.plain_ack(&topic, &subscription, &positions, cumulative),
            },
            Command::EndTxnOnPartition {
                txn,
                topic,
                commit,
                low_water_mark,
            } => {
                self.end_on_partition(&topic, txn, commit, low_water_mark);
                reply(
                    self,
                    Command::EndTxnOnPartitionResponse { txn, topic },
                    Some("4.2.3"),
                );
            }
            Command::EndTxnOnSubscription {
                txn,
                subscription,
                commit,
                low_water_mark,
            } => {
                self.end_on_subscription(&subscription, txn, commit, low_water_mark);
                reply(
                    self,
                    Command::EndTxnOnSubscriptionResponse { txn, subscription },
                    Some("4.2.3"),
                );
            }
            Command::EndTxnOnPartitionResponse { txn, topic } => {
                self.tc_end_answered(txn, Ok(topic))
            }
            Command::EndTxnOnSubscriptionResponse { txn, subscription } => {
                self.tc_end_answered(txn, Err(subscription))
            }
            // Responses travel to clients; a broker ignores one sent its way.
            _ => {}
        }
    }

    /// `PersistentTopic.publishMessage` / `publishTxnMessage`, with dedup first.
    fn publish(
        &mut self,
        topic: &str,
        producer: &str,
        sequence_id: i64,
        txn: Option<TxnID>,
        message: Message,
    ) -> Result<Position, PulsarError> {
        let Message {
            value,
            deliver_at,
            batch,
        } = message;
        let dedup = self.config().broker_deduplication_enabled;
        let Some(t) = self.topics.get_mut(topic) else {
            return Err(PulsarError::NotAllowedException);
        };
        if dedup {
            if let Some(&highest) = t.highest_sequenced.get(producer) {
                if sequence_id <= highest {
                    let kind = PulsarEventKind::DuplicateDropped {
                        topic: topic.to_string(),
                        producer_name: producer.to_string(),
                        sequence_id,
                        highest,
                    };
                    self.emit(None, kind);
                    return Ok(Position::new(-1, -1));
                }
            }
        }
        if let Some(id) = txn {
            if let Err(low_water_mark) = t.buffer.check_append(id) {
                let kind = PulsarEventKind::TxnAppendRefused {
                    topic: topic.to_string(),
                    txn: id,
                    low_water_mark,
                };
                self.emit(None, kind);
                return Err(PulsarError::NotAllowedException);
            }
            if t.buffer.take_first_snapshot_if_needed() {
                let max_read_position = t.buffer.max_read_position();
                let kind = PulsarEventKind::FirstSnapshotTaken {
                    topic: topic.to_string(),
                    max_read_position,
                };
                self.emit(None, kind);
            }
        }
        let Some(t) = self.topics.get_mut(topic) else {
            return Err(PulsarError::NotAllowedException);
        };
        // `asyncAddEntry` failed: no position, so the buffer counts nothing
        // (`TopicTransactionBuffer.appendBufferToTxn` records a transaction only in
        // `addComplete`) and dedup does not move; the client gets PersistenceError.
        if t.ledger_failing {
            let kind = PulsarEventKind::AppendFailed {
                topic: topic.to_string(),
                txn,
            };
            self.emit(None, kind);
            return Err(PulsarError::BrokerPersistenceException);
        }
        let position = t.ledger.add_entry(EntryData::Message {
            value: value.clone(),
            producer_name: producer.to_string(),
            sequence_id,
            txn,
            deliver_at,
            batch,
        });
        let counted = match txn {
            Some(id) => t.buffer.append_to_txn(id, position),
            None => {
                t.buffer.append_normal(position);
                true
            }
        };
        if dedup {
            t.highest_sequenced
                .insert(producer.to_string(), sequence_id);
        }
        let max_read_position = t.buffer.max_read_position();
        let topic = topic.to_string();
        match txn {
            Some(txn) if !counted => {
                let kind = PulsarEventKind::LateTxnEntry {
                    topic,
                    position,
                    value,
                    txn,
                    max_read_position,
                };
                self.emit(None, kind);
            }
            _ => {
                let kind = PulsarEventKind::EntryAdded {
                    topic,
                    position,
                    value,
                    txn,
                    max_read_position,
                };
                self.emit(txn.map(|_| "2.2.2"), kind);
            }
        }
        Ok(position)
    }

    /// The dispatcher: redeliveries and delayed messages now due first, then new
    /// entries up to maxReadPosition. Aborted messages and markers are filtered and
    /// acknowledged on the cursor. Shared and Key_Shared subscriptions hold a message
    /// whose `deliverAt` is ahead in the delayed delivery tracker; Exclusive and
    /// Failover dispatch it at once (PersistentDispatcherSingleActiveConsumer has no
    /// tracker). A message of a transaction reaches the tracker only once
    /// maxReadPosition passed it, i.e. after its commit.
    fn dispatch(
        &mut self,
        topic: &str,
        subscription: &str,
        permits: u32,
    ) -> (Vec<(Position, String)>, BTreeMap<Position, u32>) {
        let now = self.clock_ms();
        let Some(t) = self.topics.get_mut(topic) else {
            return Default::default();
        };
        let max_read = t.buffer.dispatch_limit(&t.ledger);
        let Some(s) = t.subscriptions.get_mut(subscription) else {
            return Default::default();
        };
        let mut out = Vec::new();
        let mut filtered = Vec::new();
        let mut held: Vec<(Position, i64)> = Vec::new();
        let mut budget = permits as usize;
        // `getMessagesToReplayNow`: due delayed messages join the replays.
        let due: Vec<(i64, Position)> = s
            .delayed
            .iter()
            .take_while(|(at, _)| *at <= now)
            .copied()
            .collect();
        for d in due {
            s.delayed.remove(&d);
            s.redeliver.insert(d.1);
        }
        let redeliver: Vec<Position> = s.redeliver.iter().copied().collect();
        for p in redeliver {
            if budget == 0 {
                break;
            }
            s.redeliver.remove(&p);
            if s.cursor.is_message_deleted(p) || s.pending_ack.holder(p).is_some() {
                continue;
            }
            if let Some(entry) = t.ledger.entry(p) {
                let messages = messages_of(entry, s);
                budget = budget.saturating_sub(usize::from(!messages.is_empty()));
                out.extend(messages);
            }
        }
        while budget > 0 && s.read_position <= max_read {
            let p = s.read_position;
            s.read_position = p.next();
            let Some(entry) = t.ledger.entry(p) else {
                break;
            };
            let aborted = entry.txn().is_some_and(|x| t.buffer.is_txn_aborted(x));
            if entry.is_marker() || aborted {
                if aborted && !entry.is_marker() {
                    filtered.push(p);
                }
                s.cursor.delete(p);
                continue;
            }
            // Held in pending ack (read again after a reload): only its end decides it.
            if s.cursor.is_message_deleted(p) || s.pending_ack.holder(p).is_some() {
                continue;
            }
            if let EntryData::Message { deliver_at, .. } = &entry.data {
                match deliver_at {
                    Some(at) if *at > now && s.is_multiple_consumers() => {
                        s.delayed.insert((*at, p));
                        held.push((p, *at));
                    }
                    _ => {
                        let messages = messages_of(entry, s);
                        budget = budget.saturating_sub(usize::from(!messages.is_empty()));
                        out.extend(messages);
                    }
                }
            }
        }
        let counts: BTreeMap<Position, u32> = out
            .iter()
            .filter_map(|(p, _)| Some((*p, *s.redelivery_count.get(&p.entry())?)))
            .collect();
        for (p, deliver_at) in held {
            let kind = PulsarEventKind::DeliveryDelayed {
                topic: topic.to_string(),
                subscription: subscription.to_string(),
                positions: vec![p],
                deliver_at,
            };
            self.emit(None, kind);
        }
        let kind = PulsarEventKind::Dispatched {
            topic: topic.to_string(),
            subscription: subscription.to_string(),
            positions: {
                let mut entries: Vec<Position> = out.iter().map(|(p, _)| p.entry()).collect();
                entries.dedup();
                entries
            },
            filtered_aborted: filtered,
            max_read_position: max_read,
        };
        self.emit(None, kind);
        (out, counts)
    }

    /// `redeliverUnacknowledgedMessages` of a negative ack: a Shared or Key_Shared
    /// subscription redelivers the positions named (and counts them); an Exclusive or
    /// Failover consumer's client asks for everything unacknowledged instead (the
    /// cursor rewinds), uncounted. Acknowledged and pending positions stay as they are.
    fn redeliver_unacknowledged(
        &mut self,
        topic: &str,
        subscription: &str,
        positions: &[Position],
    ) {
        let Some(s) = self
            .topics
            .get_mut(topic)
            .and_then(|t| t.subscriptions.get_mut(subscription))
        else {
            return;
        };
        let mut named: Vec<Position> = if s.is_multiple_consumers() {
            // Ordered and once each, without std's sort (it is large in wasm).
            let entries: std::collections::BTreeSet<Position> =
                positions.iter().map(Position::entry).collect();
            entries.into_iter().collect()
        } else {
            let mut all = Vec::new();
            let mut p = s.cursor.mark_delete_position().next();
            while p < s.read_position {
                all.push(p);
                p = p.next();
            }
            all
        };
        named.retain(|p| !s.cursor.is_message_deleted(*p) && s.pending_ack.holder(*p).is_none());
        s.redeliver_positions(&named);
        let kind = PulsarEventKind::NackRedeliver {
            topic: topic.to_string(),
            subscription: subscription.to_string(),
            positions: named,
        };
        self.emit(None, kind);
    }

    /// Step 3.3: an ack carrying a transaction goes to pending ack.
    fn txn_ack(
        &mut self,
        topic: &str,
        subscription: &str,
        txn: TxnID,
        positions: &[Position],
        cumulative: bool,
    ) -> Result<(), PulsarError> {
        let Some(s) = self
            .topics
            .get_mut(topic)
            .and_then(|t| t.subscriptions.get_mut(subscription))
        else {
            return Err(PulsarError::NotAllowedException);
        };
        let (topic, subscription) = (topic.to_string(), subscription.to_string());
        if s.pending_ack_log_failing {
            s.pending_ack.hold_unlogged(txn, positions, cumulative);
            let kind = PulsarEventKind::PendingAckAppendFailed {
                topic,
                subscription,
                txn,
                positions: positions.to_vec(),
            };
            self.emit(Some("3.3"), kind);
            return Err(PulsarError::BrokerPersistenceException);
        }
        let held = match (cumulative, positions.first()) {
            (true, Some(&p)) => s.pending_ack.cumulative_acknowledge(txn, p, &s.cursor),
            _ => s
                .pending_ack
                .individual_acknowledge(txn, positions, &s.cursor),
        };
        match held {
            Ok(()) => {
                let kind = PulsarEventKind::AckPending {
                    topic,
                    subscription,
                    txn,
                    positions: positions.to_vec(),
                    cumulative,
                };
                self.emit(Some("3.3"), kind);
                Ok(())
            }
            Err(conflict) => {
                let (position, holder) = match conflict {
                    AckConflict::AlreadyAcked { position } => (position, None),
                    AckConflict::InPendingAck { position, holder } => (position, Some(holder)),
                };
                let kind = PulsarEventKind::AckConflict {
                    topic,
                    subscription,
                    txn,
                    position,
                    holder,
                };
                self.emit(Some("3.3"), kind);
                Err(PulsarError::TransactionConflictException)
            }
        }
    }

    /// A plain ack: deletes from the cursor, except positions held in pending ack
    /// (ignored: only the transaction's end decides them).
    fn plain_ack(
        &mut self,
        topic: &str,
        subscription: &str,
        positions: &[Position],
        cumulative: bool,
    ) {
        let Some(t) = self.topics.get_mut(topic) else {
            return;
        };
        let Some(s) = t.subscriptions.get_mut(subscription) else {
            return;
        };
        // A plain cumulative ack moves the mark-delete position (`asyncMarkDelete`).
        if let (true, Some(&p)) = (cumulative, positions.first()) {
            if s.cursor.mark_delete(p) {
                let kind = PulsarEventKind::Acked {
                    topic: topic.to_string(),
                    subscription: subscription.to_string(),
                    positions: vec![p],
                    mark_delete_position: s.cursor.mark_delete_position(),
                };
                self.emit(None, kind);
            }
            return;
        }
        let mut ignored = Vec::new();
        let mut acked = Vec::new();
        for &p in positions {
            // Pending ack is keyed by entry: a whole entry is held while any index is.
            let held = match p.batch_index {
                Some(_) => s.pending_ack.holder(p),
                None => s.pending_ack.holder_in_entry(p),
            };
            match held {
                Some(holder) => ignored.push((p, holder)),
                None => {
                    let size = t.ledger.batch_size(p).unwrap_or(1);
                    if s.cursor.delete_message(p, size) {
                        acked.push(p);
                    }
                    if s.cursor.is_message_deleted(p.entry()) {
                        s.redelivery_count.remove(&p.entry());
                    }
                }
            }
        }
        let mark_delete_position = s.cursor.mark_delete_position();
        for (position, holder) in ignored {
            let kind = PulsarEventKind::PlainAckIgnored {
                topic: topic.to_string(),
                subscription: subscription.to_string(),
                position,
                holder,
            };
            self.emit(None, kind);
        }
        if !acked.is_empty() {
            let kind = PulsarEventKind::Acked {
                topic: topic.to_string(),
                subscription: subscription.to_string(),
                positions: acked,
                mark_delete_position,
            };
            self.emit(None, kind);
        }
    }

    /// 4.2.2 on a partition: the marker is written, the buffer forgets or remembers.
    /// Then the end's low water mark: each transaction first in the ongoing list that
    /// is at or below its coordinator's mark (ended there; a late send made it ongoing
    /// here) is aborted here, one after the other (TransactionLowWaterMarkTest's
    /// testLowWaterMarkForDifferentTC).
    fn end_on_partition(&mut self, topic: &str, txn: TxnID, commit: bool, low_water_mark: i64) {
        if !self.topics.contains_key(topic) {
            return;
        }
        self.write_marker(topic, txn, commit, Some("4.2.2"));
        let Some(t) = self.topics.get_mut(topic) else {
            return;
        };
        t.buffer
            .record_low_water_mark(txn.most_sig_bits(), low_water_mark);
        // Each abort removes one ongoing transaction: bounded by their number.
        for _ in 0..=t.buffer.ongoing_txns().len() {
            let Some(t) = self.topics.get(topic) else {
                return;
            };
            let Some((stale, low_water_mark)) = t.buffer.first_below_low_water_mark() else {
                return;
            };
            let kind = PulsarEventKind::LowWaterMarkAbort {
                topic: topic.to_string(),
                subscription: None,
                txn: stale,
                low_water_mark,
            };
            self.emit(None, kind);
            self.write_marker(topic, stale, false, None);
        }
    }

    fn write_marker(&mut self, topic: &str, txn: TxnID, commit: bool, step: Option<&'static str>) {
        let Some(t) = self.topics.get_mut(topic) else {
            return;
        };
        let position = t.ledger.add_entry(EntryData::TxnMarker { txn, commit });
        t.buffer.end_txn(txn, commit, position, &t.ledger);
        let max_read_position = t.buffer.max_read_position();
        let kind = PulsarEventKind::MarkerWritten {
            topic: topic.to_string(),
            txn,
            commit,
            position,
            max_read_position,
        };
        self.emit(step, kind);
    }

    /// 4.2.2 on a subscription: the mark goes to the pending-ack log; a commit moves
    /// the cursor (4.2.3), an abort makes the positions deliverable again.
    fn end_on_subscription(
        &mut self,
        sub: &TransactionSubscription,
        txn: TxnID,
        commit: bool,
        low_water_mark: i64,
    ) {
        let Some(s) = self.subscription_mut(sub) else {
            return;
        };
        let held_here = s.pending_ack.holds_any(txn);
        self.mark_pending_ack(sub, txn, commit, Some("4.2.2"));
        // `handleLowWaterMark`, only when this transaction had acks here.
        if !held_here {
            return;
        }
        let Some(s) = self.subscription_mut(sub) else {
            return;
        };
        s.pending_ack
            .record_low_water_mark(txn.most_sig_bits(), low_water_mark);
        // Each abort releases one holder: bounded by their number.
        for _ in 0..=s.pending_ack.individual_ack_positions().len() {
            let Some((stale, low_water_mark)) = self
                .topics
                .get(&sub.topic)
                .and_then(|t| t.subscriptions.get(&sub.subscription))
                .and_then(|s| s.pending_ack.first_below_low_water_mark())
            else {
                return;
            };
            let kind = PulsarEventKind::LowWaterMarkAbort {
                topic: sub.topic.clone(),
                subscription: Some(sub.subscription.clone()),
                txn: stale,
                low_water_mark,
            };
            self.emit(None, kind);
            self.mark_pending_ack(sub, stale, false, None);
        }
    }

    /// The commit or abort mark in the pending-ack log and what it does to the cursor.
    /// The subscription a transaction acknowledged on, if its topic still has it.
    fn subscription_mut(
        &mut self,
        sub: &TransactionSubscription,
    ) -> Option<&mut super::world::PersistentSubscription> {
        self.topics
            .get_mut(&sub.topic)
            .and_then(|t| t.subscriptions.get_mut(&sub.subscription))
    }

    fn mark_pending_ack(
        &mut self,
        sub: &TransactionSubscription,
        txn: TxnID,
        commit: bool,
        step: Option<&'static str>,
    ) {
        let Some(t) = self.topics.get_mut(&sub.topic) else {
            return;
        };
        let ledger = &t.ledger;
        let Some(s) = t.subscriptions.get_mut(&sub.subscription) else {
            return;
        };
        let positions = if commit {
            let ps = s.pending_ack.commit_txn(txn, &mut s.cursor, ledger);
            for p in &ps {
                s.redelivery_count.remove(p);
            }
            ps
        } else if let Some(p) = s.pending_ack.abort_cumulative(txn) {
            // `redeliverUnacknowledgedMessages`: everything dispatched and not acked.
            let mut p2 = s.cursor.mark_delete_position().next();
            while p2 < s.read_position {
                if !s.cursor.is_message_deleted(p2) && s.pending_ack.holder(p2).is_none() {
                    s.redeliver.insert(p2);
                }
                p2 = p2.next();
            }
            vec![p]
        } else {
            // `handleAbort` → `redeliverUnacknowledgedMessages(consumer, positions)`:
            // counted like any redelivery, so the dead-letter policy sees it.
            // A batch index goes back with its entry (what is acknowledged of it stays).
            let ps = s.pending_ack.abort_txn(txn);
            let mut entries: Vec<Position> = ps.iter().map(Position::entry).collect();
            entries.dedup();
            s.redeliver_positions(&entries);
            ps
        };
        let mark_delete_position = s.cursor.mark_delete_position();
        let (topic, subscription) = (sub.topic.clone(), sub.subscription.clone());
        self.emit(
            step,
            PulsarEventKind::PendingAckMarked {
                topic: topic.clone(),
                subscription: subscription.clone(),
                txn,
                commit,
                positions: positions.clone(),
            },
        );
        if commit {
            let kind = PulsarEventKind::CursorMoved {
                topic,
                subscription,
                mark_delete_position,
            };
            self.emit(step.map(|_| "4.2.3"), kind);
        } else if !positions.is_empty() {
            let kind = PulsarEventKind::Redelivering {
                topic,
                subscription,
                positions,
            };
            self.emit(None, kind);
        }
    }
}

/// The messages of one entry a dispatch sends: the entry, or each index of a batch not
/// acknowledged and not pending (Pulsar sends the entry with the cursor's ack set and
/// the client skips the acknowledged indexes).
fn messages_of(
    entry: &super::Entry,
    s: &super::world::PersistentSubscription,
) -> Vec<(Position, String)> {
    let p = entry.position;
    match &entry.data {
        EntryData::Message { batch, .. } if !batch.is_empty() => (0u32..)
            .zip(batch)
            .map(|(i, v)| (Position::batch(p.ledger_id, p.entry_id, i), v))
            .filter(|(bp, _)| {
                !s.cursor.is_message_deleted(*bp) && s.pending_ack.holder(*bp).is_none()
            })
            .map(|(bp, v)| (bp, v.clone()))
            .collect(),
        EntryData::Message { value, .. } => vec![(p, value.clone())],
        EntryData::TxnMarker { .. } => Vec::new(),
    }
}
