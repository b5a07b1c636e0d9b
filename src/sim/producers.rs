//! The producer client's own actions: `producer NAME create`, `send` and `flush`.
//! Its transactional calls are in `transactions.rs`.

use super::error::{SimError, SimErrorKind};
use super::event::EventKind;
use super::world::{World, RAW_CLIENT};
use super::Action;
use crate::client::producer::{Producer, ProducerConfig};
use crate::client::transaction_manager::TxnCall;

impl World {
    /// The producer actions; `World::apply` sends only these here.
    pub(super) fn apply_producer(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::CreateProducer { name, configs } => {
                if name == RAW_CLIENT || name.is_empty() {
                    return Err(SimErrorKind::ReservedName { name: name.clone() }.into());
                }
                if self.producers.contains_key(name) {
                    return Err(SimErrorKind::ProducerExists { name: name.clone() }.into());
                }
                let config = ProducerConfig::from_pairs_with(name, configs, self.breaks)?;
                let mut producer = Producer::new(config);
                producer.seed_retry_jitter(self.config.seed);
                producer.set_transaction_v2(self.config.txn_features().v2());
                self.producers.insert(name.clone(), producer);
                self.ready.insert(name.clone());
                Ok(vec![])
            }
            Action::Send {
                producer,
                topic_partition,
                values,
            } => {
                self.check_partition(topic_partition)?;
                if values.is_empty() {
                    return Err(SimErrorKind::EmptySend.into());
                }
                let now = self.clock_ms;
                // Kafka appends the record before `maybeAddPartition` throws; here a
                // refused record is not kept, so it cannot slip into a later transaction.
                let call = TxnCall::Send {
                    tp: topic_partition.clone(),
                };
                if self.txn_call(producer, call)?.is_none() {
                    return Ok(vec![]);
                }
                let event =
                    self.producer_mut(producer)?
                        .send(topic_partition.clone(), values.clone(), now);
                self.emit(EventKind::Producer {
                    client: producer.clone(),
                    event,
                });
                Ok(vec![])
            }
            Action::Flush { producer } => {
                self.producer_mut(producer)?;
                self.run_while(|w| w.producers.get(producer).is_some_and(|p| p.has_pending()));
                Ok(vec![])
            }
            _ => Ok(vec![]),
        }
    }
}
