//! `acks=all` on a replicated partition (Kafka 4.0's `DelayedProduce` and
//! `Partition.checkEnoughReplicasReachOffset`, mirror commit 1eb7644): the
//! `min.insync.replicas` check before the append, and the answer that waits until the
//! HW passes the batch or the request's `timeout_ms` runs out.

use serde::Serialize;

use super::broker::{Broker, BrokerEvent, Handled};
use super::partition::ReplicationEvent;
use crate::log::TopicPartition;
use crate::protocol::errors::Errors;
use crate::protocol::{ErrorDetail, Response};

/// An `acks=all` Produce appended on the leader, waiting for the HW to pass it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DelayedProduce {
    pub token: u64,
    pub tp: TopicPartition,
    /// The offset after the batch: the HW must reach it.
    pub required_offset: i64,
    pub base_offset: i64,
    pub deadline_ms: i64,
}

impl Broker {
    /// The `min.insync.replicas` check `Partition.appendRecordsToLeader` makes before
    /// an `acks=all` append.
    pub(super) fn check_min_isr(&self, tp: &TopicPartition, acks: i16) -> Option<ErrorDetail> {
        let p = self.partitions.get(tp)?;
        (acks == -1 && p.is_under_min_isr()).then(|| ErrorDetail::NotEnoughReplicas {
            isr: p.isr.clone(),
            min_insync_replicas: p.effective_min_isr(),
        })
    }

    /// After an `acks=all` append on a replicated partition: answer at once if the HW
    /// already passed the batch, else wait (`DelayedProduce`) until it does or
    /// `timeout_ms` runs out. Returns the answer to send now, if any.
    pub(super) fn maybe_delay_produce(
        &mut self,
        tp: &TopicPartition,
        token: u64,
        base_offset: i64,
        required_offset: i64,
        timeout_ms: i64,
        now_ms: i64,
    ) -> Option<Errors> {
        let replicated = self.partitions.get(tp).is_some_and(|p| p.is_replicated());
        if !replicated {
            return Some(Errors::None);
        }
        if let Some(error) = self.enough_replicas_reach(tp, required_offset) {
            return Some(error);
        }
        self.delayed_produces.push(DelayedProduce {
            token,
            tp: tp.clone(),
            required_offset,
            base_offset,
            deadline_ms: now_ms.saturating_add(timeout_ms.max(0)),
        });
        None
    }

    /// `Partition.checkEnoughReplicasReachOffset`: done once the HW passed the batch;
    /// NOT_ENOUGH_REPLICAS_AFTER_APPEND if the ISR is below `min.insync.replicas` then.
    pub(super) fn enough_replicas_reach(
        &self,
        tp: &TopicPartition,
        required_offset: i64,
    ) -> Option<Errors> {
        let p = self.partitions.get(tp)?;
        let hw = self.logs.get(tp)?.high_watermark();
        (hw >= required_offset).then(|| {
            if p.is_under_min_isr() {
                Errors::NotEnoughReplicasAfterAppend
            } else {
                Errors::None
            }
        })
    }

    /// Answers the delayed produces of `tp` whose records the HW now covers.
    pub(super) fn complete_delayed_produces(&mut self, tp: &TopicPartition, handled: &mut Handled) {
        let waiting = std::mem::take(&mut self.delayed_produces);
        for d in waiting {
            match (&d.tp == tp)
                .then(|| self.enough_replicas_reach(tp, d.required_offset))
                .flatten()
            {
                Some(error) => {
                    let base = if error == Errors::None {
                        d.base_offset
                    } else {
                        -1
                    };
                    handled
                        .deferred
                        .push((d.token, Response::produce(tp, error, base, None)));
                    handled.events.push(BrokerEvent::Replication(
                        ReplicationEvent::DelayedProduceCompleted {
                            tp: tp.clone(),
                            required_offset: d.required_offset,
                            error,
                        },
                    ));
                }
                None => self.delayed_produces.push(d),
            }
        }
    }
}
