//! Runs `pulsar …` steps on the runner's Pulsar world (made on first use) and prints
//! their outcomes and views.

use super::Runner;
use crate::i18n::narration::pulsar_event;
use crate::i18n::transcript;
use crate::i18n::Lang;
use crate::pulsar::world::{ClientTxnState, Coordinator, PersistentSubscription, PersistentTopic};
use crate::pulsar::{EntryData, Outcome, PulsarStepError, PulsarWorld, TxnID};
use crate::scenario::parse::pulsar::{PulsarStep, PulsarStepKind, PulsarView};

fn txn_label(w: &PulsarWorld, id: TxnID) -> String {
    match w.txn_name(id) {
        Some(n) => format!("{id} {n}"),
        None => id.to_string(),
    }
}

impl Runner {
    /// The Pulsar world, made with the defaults if no `pulsar cluster` came first.
    pub fn pulsar_world(&self) -> Option<&PulsarWorld> {
        self.pulsar.as_ref()
    }

    pub(super) fn run_pulsar(&mut self, step: &PulsarStep) -> Result<Vec<String>, PulsarStepError> {
        if let PulsarStepKind::Cluster(config) = &step.kind {
            if self.pulsar.is_some() {
                return Err(PulsarStepError::ClusterNotFirst);
            }
            self.pulsar = Some(PulsarWorld::new(config.clone()));
            return Ok(Vec::new());
        }
        let world = self
            .pulsar
            .get_or_insert_with(|| PulsarWorld::new(Default::default()));
        match &step.kind {
            PulsarStepKind::Cluster(_) => Ok(Vec::new()),
            PulsarStepKind::Act(action) => Ok(outcome_lines(world.apply(action)?, self.lang)),
            PulsarStepKind::Print(view) => {
                let seen = self.pulsar_seen;
                let (lines, seen) = view_lines(world, view, seen, self.lang)?;
                self.pulsar_seen = seen;
                Ok(lines)
            }
        }
    }
}

/// `2:0 -> t-partition-0-sub-DLQ 5:0`: a message the client moved to its dead-letter
/// topic (Pulsar's names and positions only).
fn dead_letter_lines(
    moved: &[(crate::pulsar::Position, String, crate::pulsar::Position)],
) -> Vec<String> {
    moved
        .iter()
        .map(|(p, topic, at)| format!("{p} -> {topic} {at}"))
        .collect()
}

/// An action's outcome: Pulsar's ids and positions, the words around them in `lang`.
fn outcome_lines(outcome: Outcome, lang: Lang) -> Vec<String> {
    match outcome {
        Outcome::Done => Vec::new(),
        Outcome::TxnOpened { name, result } => vec![match result {
            Ok(id) => format!("{name} = {id}"),
            Err(e) => format!("{name}: {e}"),
        }],
        Outcome::Sent(values) => values
            .into_iter()
            .map(|(v, r)| match r {
                Ok(p) => format!("{v} -> {p}"),
                Err(e) => format!("{v} -> {e}"),
            })
            .collect(),
        Outcome::Received {
            consumer,
            entries,
            dead_lettered,
        } => {
            let list: Vec<String> = entries.iter().map(|(p, v)| format!("{v}@{p}")).collect();
            let mut out = vec![transcript::pulsar_got(
                &consumer,
                entries.len(),
                &list.join(" "),
                lang,
            )];
            out.extend(dead_letter_lines(&dead_lettered));
            out
        }
        Outcome::Nacked {
            redelivered,
            dead_lettered,
        } => {
            let mut out = Vec::new();
            if !redelivered.is_empty() {
                let ps: Vec<String> = redelivered.iter().map(|p| p.to_string()).collect();
                out.push(format!("redeliver [{}]", ps.join(" ")));
            }
            out.extend(dead_letter_lines(&dead_lettered));
            out
        }
        Outcome::Acked { result } => match result {
            Ok(()) => Vec::new(),
            Err(e) => vec![format!("ack -> {e}")],
        },
        Outcome::Ended {
            name,
            commit,
            result,
        } => vec![match (result, commit) {
            (Ok(()), commit) => transcript::pulsar_ended(&name, commit, lang),
            (Err(e), true) => format!("{name} commit -> {e}"),
            (Err(e), false) => format!("{name} abort -> {e}"),
        }],
        Outcome::Released { count } => vec![transcript::pulsar_released(count, lang)],
        // Allowed: nothing to say here (the log and the timeline show the change).
        Outcome::StatusUpdated { name, result } => match result {
            Ok(()) => Vec::new(),
            Err(e) => vec![format!("{name} status -> {e}")],
        },
    }
}

/// A view's lines (the timeline narrated in `lang`), and the new timeline mark.
fn view_lines(
    w: &PulsarWorld,
    view: &PulsarView,
    seen: usize,
    lang: Lang,
) -> Result<(Vec<String>, usize), PulsarStepError> {
    let out = match view {
        PulsarView::Timeline => {
            let lines = w
                .events()
                .iter()
                .skip(seen)
                .map(|e| {
                    let label = e.step.map(|s| format!("[{s}]")).unwrap_or_default();
                    format!("{label:<8}{}", pulsar_event(e, lang))
                })
                .collect();
            return Ok((lines, w.events().len()));
        }
        PulsarView::Entries { topic } => entries_lines(w, topic, lang)?,
        PulsarView::Buffer { topic } => buffer_lines(w, topic, lang)?,
        PulsarView::Subscription {
            topic,
            subscription,
        } => subscription_lines(w, subscription_of(w, topic, subscription)?),
        PulsarView::PendingAckLog {
            topic,
            subscription,
        } => (subscription_of(w, topic, subscription)?
            .pending_ack
            .log()
            .iter())
        .map(|e| {
            let ps: Vec<String> = e.positions.iter().map(|p| p.to_string()).collect();
            format!(
                "{} {} [{}]",
                format!("{:?}", e.op).to_uppercase(),
                txn_label(w, e.txn),
                ps.join(" ")
            )
        })
        .collect(),
        PulsarView::TxnLog { tc } => txn_log_lines(coordinator(w, *tc)?, lang),
        PulsarView::Coordinator { tc } => coordinator_lines(w, *tc, lang)?,
        PulsarView::Received { consumer } => {
            let c = w
                .consumer(consumer)
                .ok_or_else(|| PulsarStepError::UnknownConsumer {
                    consumer: consumer.clone(),
                })?;
            let list: Vec<String> = c.received.iter().map(|(p, v)| format!("{v}@{p}")).collect();
            vec![transcript::pulsar_received(consumer, &list.join(" "), lang)]
        }
        PulsarView::LastMessageId { topic } => {
            let p = w.last_message_id(topic).ok_or_else(|| no_topic(topic))?;
            vec![format!("{topic} lastMessageId {p}")]
        }
        PulsarView::Txn { name } => {
            let t = w
                .txn(name)
                .ok_or_else(|| PulsarStepError::UnknownTransaction { name: name.clone() })?;
            let state: ClientTxnState = t.state;
            vec![transcript::pulsar_client_state(
                name,
                &t.id.to_string(),
                state.name(),
                lang,
            )]
        }
    };
    Ok((out, seen))
}

fn no_topic(topic: &str) -> PulsarStepError {
    PulsarStepError::TopicNotFound {
        topic: topic.to_string(),
    }
}

fn topic_of<'w>(w: &'w PulsarWorld, topic: &str) -> Result<&'w PersistentTopic, PulsarStepError> {
    w.topic(topic).ok_or_else(|| no_topic(topic))
}

fn subscription_of<'w>(
    w: &'w PulsarWorld,
    topic: &str,
    subscription: &str,
) -> Result<&'w PersistentSubscription, PulsarStepError> {
    topic_of(w, topic)?
        .subscriptions
        .get(subscription)
        .ok_or_else(|| PulsarStepError::SubscriptionNotFound {
            topic: topic.to_string(),
            subscription: subscription.to_string(),
        })
}

fn coordinator(w: &PulsarWorld, tc: u64) -> Result<&Coordinator, PulsarStepError> {
    w.coordinators()
        .get(tc as usize)
        .ok_or(PulsarStepError::CoordinatorNotFound { tc })
}

/// `pulsar print entries`: the topic's ledger, each entry's transaction and whether a
/// reader may see it yet, with maxReadPosition marked.
fn entries_lines(w: &PulsarWorld, topic: &str, lang: Lang) -> Result<Vec<String>, PulsarStepError> {
    let t = topic_of(w, topic)?;
    let max_read = t.buffer.max_read_position();
    let mut out = vec![format!("{topic} maxReadPosition={max_read}")];
    for e in t.ledger.entries() {
        let state = |id: TxnID| {
            let aborted = t.buffer.is_txn_aborted(id);
            if aborted || t.buffer.is_ongoing(id) {
                format!(" {}", transcript::pulsar_entry_state(aborted, lang))
            } else {
                String::new()
            }
        };
        let what = match &e.data {
            EntryData::Message {
                value,
                txn: Some(id),
                ..
            } => {
                format!("{value} {}{}", txn_label(w, *id), state(*id))
            }
            EntryData::Message { value, .. } => value.clone(),
            EntryData::TxnMarker { txn, commit } => {
                transcript::pulsar_marker(*commit, &txn_label(w, *txn), lang)
            }
        };
        let pointer = if e.position == max_read {
            "  <- maxReadPosition"
        } else {
            ""
        };
        out.push(format!("  {}  {what}{pointer}", e.position));
    }
    Ok(out)
}

/// `pulsar print buffer`: the topic's transaction buffer and its last snapshot.
fn buffer_lines(w: &PulsarWorld, topic: &str, lang: Lang) -> Result<Vec<String>, PulsarStepError> {
    let b = &topic_of(w, topic)?.buffer;
    let list = |v: &[(TxnID, crate::pulsar::Position)]| {
        let s: Vec<String> = v
            .iter()
            .map(|(t, p)| format!("{}@{p}", txn_label(w, *t)))
            .collect();
        format!("[{}]", s.join(", "))
    };
    let mut out = vec![transcript::pulsar_buffer_state(b.state().name(), lang)];
    out.extend(transcript::pulsar_buffer(
        &list(b.ongoing_txns()),
        &list(b.aborts()),
        lang,
    ));
    out.push(format!("maxReadPosition {}", b.max_read_position()));
    let snapshot = b
        .snapshot()
        .map(|s| (s.max_read_position.to_string(), list(&s.aborts)));
    out.push(transcript::pulsar_snapshot(
        snapshot.as_ref().map(|(m, a)| (m.as_str(), a.as_str())),
        lang,
    ));
    Ok(out)
}

/// `pulsar print subscription`: the cursor, the pending acks and what waits to be
/// redelivered (the optional parts only when there is something in them).
fn subscription_lines(w: &PulsarWorld, s: &PersistentSubscription) -> Vec<String> {
    let deleted: Vec<String> = s
        .cursor
        .individually_deleted()
        .iter()
        .map(|p| p.to_string())
        .collect();
    let pending: Vec<String> = s
        .pending_ack
        .individual_ack_positions()
        .iter()
        .map(|(p, t)| format!("{p} {}", txn_label(w, *t)))
        .collect();
    let redeliver: Vec<String> = s.redeliver.iter().map(|p| p.to_string()).collect();
    let mut out = vec![
        format!("markDeletePosition {}", s.cursor.mark_delete_position()),
        format!("individuallyDeleted [{}]", deleted.join(" ")),
    ];
    if !s.cursor.batch_deleted().is_empty() {
        let acked: Vec<String> = (s.cursor.batch_deleted().iter())
            .map(|(p, ix)| {
                let ix: Vec<String> = ix.iter().map(|i| i.to_string()).collect();
                format!("{p}={{{}}}", ix.join(","))
            })
            .collect();
        out.push(format!("batchDeletedIndexes [{}]", acked.join(" ")));
    }
    out.push(format!("pendingAck [{}]", pending.join(", ")));
    if let Some((t, p)) = s.pending_ack.cumulative() {
        out.push(format!("pendingCumulativeAck {p} {}", txn_label(w, t)));
    }
    out.push(format!("redeliver [{}]", redeliver.join(" ")));
    if !s.redelivery_count.is_empty() {
        let counts: Vec<String> = (s.redelivery_count.iter())
            .map(|(p, n)| format!("{p}={n}"))
            .collect();
        out.push(format!("redeliveryCount [{}]", counts.join(" ")));
    }
    if !s.delayed.is_empty() {
        let delayed: Vec<String> = (s.delayed.iter())
            .map(|(at, p)| format!("{p} deliverAt={at}"))
            .collect();
        out.push(format!("delayed [{}]", delayed.join(", ")));
    }
    out
}

/// `pulsar print txn-log`: the coordinator's transaction log, deleted entries marked.
fn txn_log_lines(c: &Coordinator, lang: Lang) -> Vec<String> {
    use crate::pulsar::coordinator::TransactionMetadataOp as Op;
    let log = &c.log;
    let mut out = vec![log.topic().to_string()];
    for (p, e) in log.entries() {
        let detail = match &e.op {
            Op::New { timeout_ms, .. } => format!("timeoutMs={timeout_ms}"),
            Op::AddPartition { partitions } => partitions.join(" "),
            Op::AddSubscription { subscriptions } => subscriptions
                .iter()
                .map(|s| format!("{}/{}", s.topic, s.subscription))
                .collect::<Vec<_>>()
                .join(" "),
            Op::Update { expected, new } => {
                format!("{} -> {}", expected.name(), new.name())
            }
        };
        let deleted = if log.is_deleted(*p) {
            format!("  {}", transcript::pulsar_deleted(lang))
        } else {
            String::new()
        };
        out.push(format!(
            "  {p}  {} {} {detail}{deleted}",
            e.txn,
            e.op.name()
        ));
    }
    out
}

/// `pulsar print coordinator`: where it runs, whether its store is loaded, and the
/// transactions in it.
fn coordinator_lines(w: &PulsarWorld, tc: u64, lang: Lang) -> Result<Vec<String>, PulsarStepError> {
    let c = coordinator(w, tc)?;
    let Some(store) = &c.store else {
        return Ok(vec![if c.loading_until.is_some() {
            transcript::pulsar_coordinator_loading(tc, c.broker, lang)
        } else {
            transcript::pulsar_coordinator(tc, c.broker, false, lang)
        }]);
    };
    let mut out = vec![transcript::pulsar_coordinator(tc, c.broker, true, lang)];
    for m in store.txns() {
        let subs: Vec<String> = m
            .acked_partitions
            .iter()
            .map(|s| format!("{}/{}", s.topic, s.subscription))
            .collect();
        let parts: Vec<&str> = m.produced_partitions.iter().map(String::as_str).collect();
        out.push(format!(
            "  {} {} partitions=[{}] subscriptions=[{}]",
            txn_label(w, m.id),
            m.status.name(),
            parts.join(" "),
            subs.join(" ")
        ));
    }
    Ok(out)
}
