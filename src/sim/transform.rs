//! `producer APP transform CONSUMER TOPIC`: one round of a consume-transform-produce
//! app, as Kafka's `ExactlyOnceMessageProcessor` example (and KIP-98) writes one:
//! poll the input, send each record's transformed value to the output, and put the
//! consumer's positions into the same transaction (`sendOffsetsToTransaction` with
//! the consumer's group). The commit or abort is the app's next step.
//!
//! A transaction's first round starts from the group's committed offsets
//! (`resetToLastCommittedPositions` in the example, done there after an abort): what
//! an aborted or failed transaction consumed is read again. Kafka's consumer asks
//! for them with `require_stable`, so while a transaction holding new offsets of the
//! group is undecided the round waits (here: is refused with UNSTABLE_OFFSET_COMMIT
//! and changes nothing).
//!
//! The transformed value is the input value with [`OUTPUT_SUFFIX`], written to the
//! output partition with the input partition's number (modulo the output's
//! partitions): the checker's end-to-end exactly-once check reads that convention.

use super::error::{SimError, SimErrorKind};
use super::world::World;
use super::Action;
use crate::client::transaction_manager::TxnState;
use crate::coordinator::internal_topics::GROUP_METADATA_TOPIC;
use crate::log::TopicPartition;

/// What a transform appends to an input value.
pub const OUTPUT_SUFFIX: &str = ".t";

impl World {
    /// The log start offset of a partition on its leader (0 if none leads it).
    fn leader_log_start(&self, tp: &TopicPartition) -> i64 {
        self.leader_of(tp)
            .and_then(|b| self.brokers.get(&b))
            .and_then(|b| b.logs().get(tp))
            .map_or(0, |l| l.log_start_offset())
    }

    pub(super) fn transform(
        &mut self,
        producer: &str,
        consumer: &str,
        output_topic: &str,
    ) -> Result<Vec<String>, SimError> {
        let p = self.producers.get(producer).ok_or_else(|| {
            SimError::from(SimErrorKind::NoProducer {
                name: producer.to_string(),
            })
        })?;
        let Some(tm) = p.txn.as_ref() else {
            return Err(SimErrorKind::NotTransactional {
                producer: producer.to_string(),
            }
            .into());
        };
        let fresh = tm.partitions_in_transaction().is_empty() && !tm.has_pending_offsets();
        if tm.state() != TxnState::InTransaction {
            // The same refusal a send outside a transaction gets.
            self.apply(&Action::SendOffsetsToTransaction {
                producer: producer.to_string(),
                group_id: String::new(),
                offsets: Vec::new(),
                consumer: None,
            })?;
            return Ok(vec![]);
        }
        let c = self.consumers.get(consumer).ok_or_else(|| {
            SimError::from(SimErrorKind::NoConsumer {
                name: consumer.to_string(),
            })
        })?;
        let Some(group) = c.config.group_id.clone() else {
            return Err(SimErrorKind::NoGroupId {
                consumer: consumer.to_string(),
            }
            .into());
        };
        let assigned = c.assigned();
        let outputs = self
            .topics
            .get(output_topic)
            .map(|t| t.partitions)
            .ok_or_else(|| {
                SimError::from(SimErrorKind::UnknownPartition {
                    tp: TopicPartition::new(output_topic, 0),
                })
            })?;
        if fresh {
            // `resetToLastCommittedPositions`: the committed offset, or the beginning.
            let gtp = self.internal_partition_for(GROUP_METADATA_TOPIC, &group);
            let coordinator = self.leader_of(&gtp).and_then(|b| self.brokers.get(&b));
            let mut seeks = Vec::new();
            for tp in &assigned {
                let groups = coordinator.map(|b| b.group_coordinator());
                if groups.is_some_and(|g| g.has_pending_transactional_offsets(&group, tp)) {
                    return Err(SimErrorKind::UnstableOffsets { group }.into());
                }
                let committed = groups
                    .and_then(|g| g.committed(&group, tp))
                    .map(|o| o.committed_offset);
                let beginning = self.leader_log_start(tp);
                seeks.push((tp.clone(), committed.unwrap_or(beginning)));
            }
            for (tp, offset) in seeks {
                self.apply(&Action::Seek {
                    consumer: consumer.to_string(),
                    topic_partition: tp,
                    offset,
                })?;
            }
        }
        let before = self
            .consumers
            .get(consumer)
            .map_or(0, |c| c.records().len());
        self.apply(&Action::Poll {
            consumer: consumer.to_string(),
        })?;
        let Some(c) = self.consumers.get(consumer) else {
            return Ok(vec![]);
        };
        let sends: Vec<(TopicPartition, String)> = c
            .records()
            .get(before..)
            .unwrap_or_default()
            .iter()
            .map(|r| {
                let p = r.topic_partition.partition.rem_euclid(outputs.max(1));
                (
                    TopicPartition::new(output_topic, p),
                    format!("{}{OUTPUT_SUFFIX}", r.value_text()),
                )
            })
            .collect();
        let offsets: Vec<(TopicPartition, i64)> = c
            .positions()
            .iter()
            .map(|(tp, o)| (tp.clone(), *o))
            .collect();
        for (tp, value) in sends {
            self.apply(&Action::Send {
                producer: producer.to_string(),
                topic_partition: tp,
                values: vec![value],
            })?;
        }
        if !offsets.is_empty() {
            self.apply(&Action::SendOffsetsToTransaction {
                producer: producer.to_string(),
                group_id: group,
                offsets,
                consumer: Some(consumer.to_string()),
            })?;
        }
        Ok(vec![])
    }
}
