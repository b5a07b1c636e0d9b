//! The world's side of the transactional calls: begin, wait for and finish a
//! producer's blocking call, and hold or release requests of one API.

use super::error::{SimError, SimErrorKind};
use super::event::{EventKind, FaultChange};
use super::network::Fault;
use super::world::World;
use super::Action;
use crate::client::consumer::ConsumerGroupMetadata;
use crate::client::producer::{Producer, ProducerEvent};
use crate::client::transaction_manager::{Begun, TxnCall, TxnCallError, TxnOutcome, TxnState};
use crate::coordinator::transaction::TxnFeatures;
use crate::protocol::OffsetEntry;

impl World {
    /// `consumer.groupMetadata()` of `consumer` (its group's, with its generation and
    /// member id), or a simple group's for `group_id`.
    pub(super) fn offsets_group_metadata(
        &self,
        group_id: &str,
        consumer: Option<&str>,
    ) -> Result<ConsumerGroupMetadata, SimError> {
        let Some(name) = consumer else {
            return Ok(ConsumerGroupMetadata::simple(group_id));
        };
        let c = self.consumers.get(name).ok_or_else(|| {
            SimError::from(SimErrorKind::NoConsumer {
                name: name.to_string(),
            })
        })?;
        let group = c.config.group_id.clone().ok_or_else(|| {
            SimError::from(SimErrorKind::NoGroupId {
                consumer: name.to_string(),
            })
        })?;
        #[cfg(feature = "group-membership")]
        let mut metadata = self
            .memberships
            .get(name)
            .map(|m| m.group_metadata())
            .unwrap_or_else(|| ConsumerGroupMetadata::simple(&group));
        #[cfg(not(feature = "group-membership"))]
        let mut metadata = ConsumerGroupMetadata::simple(&group);
        if !group_id.is_empty() {
            metadata.group_id = group_id.to_string();
        }
        Ok(metadata)
    }

    /// The producer's transactional calls; `World::apply` sends only these here.
    pub(super) fn apply_transaction(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::InitTransactions { producer } => {
                let call = TxnCall::InitTransactions;
                if let Some(begun) = self.txn_call(producer, call.clone())? {
                    let started = self.clock_ms;
                    self.await_txn_call(producer, call, begun);
                    let took = self.clock_ms - started;
                    self.producer_mut(producer)?.set_last_call_ms(took);
                }
                Ok(vec![])
            }
            Action::BeginTransaction { producer } => {
                self.txn_call(producer, TxnCall::BeginTransaction)?;
                Ok(vec![])
            }
            Action::CommitTransaction { producer } => {
                let call = TxnCall::CommitTransaction;
                if let Some(begun) = self.txn_call(producer, call.clone())? {
                    self.await_txn_call(producer, call, begun);
                }
                Ok(vec![])
            }
            Action::AbortTransaction { producer } => {
                let call = TxnCall::AbortTransaction;
                if let Some(begun) = self.txn_call(producer, call.clone())? {
                    if begun == Begun::Started {
                        let events = self.producer_mut(producer)?.abort_transaction();
                        self.emit_producer_events(producer, events);
                    }
                    self.await_txn_call(producer, call, begun);
                }
                Ok(vec![])
            }
            Action::SendOffsetsToTransaction {
                producer,
                group_id,
                offsets,
                consumer,
            } => {
                let metadata = self.offsets_group_metadata(group_id, consumer.as_deref())?;
                let call = TxnCall::SendOffsetsToTransaction;
                if self.txn_call(producer, call)?.is_none() {
                    return Ok(vec![]);
                }
                let entries = offsets
                    .iter()
                    .map(|(tp, offset)| OffsetEntry {
                        topic_partition: tp.clone(),
                        offset: *offset,
                    })
                    .collect();
                if let Some(tm) = self.producer_mut(producer)?.txn.as_mut() {
                    tm.send_offsets(metadata, entries);
                }
                self.run_while(|w| {
                    w.producers
                        .get(producer)
                        .and_then(|p| p.txn.as_ref())
                        .is_some_and(|t| t.has_pending_offsets())
                });
                Ok(vec![])
            }
            _ => Ok(vec![]),
        }
    }

    /// A transactional call, checked as Kafka's client checks it. A refusal is the
    /// outcome of a valid action, so it is an event (and the action is recorded), not
    /// a `SimError`; `None` then. `Resumed` means the same blocking call was pending.
    pub(super) fn txn_call(
        &mut self,
        name: &str,
        call: TxnCall,
    ) -> Result<Option<Begun>, SimError> {
        let p = self.producer_mut(name)?;
        let ids = (p.producer_id(), p.producer_epoch());
        let idempotent = p.config.enable_idempotence;
        let result = match p.txn.as_mut() {
            Some(tm) => tm.call(&call, ids),
            // A send on a producer without transactions has nothing to check.
            None if matches!(call, TxnCall::Send { .. }) => Ok(Begun::Started),
            None if idempotent => Err(TxnCallError::NotTransactional),
            None => Err(TxnCallError::NoTransactionManager),
        };
        match result {
            Ok(begun) => Ok(Some(begun)),
            Err(error) => {
                self.finish_txn_call(name, TxnOutcome::Refused { call, error });
                Ok(None)
            }
        }
    }

    /// The application blocks in init, commit or abort until the call finishes (or
    /// the run's bound: then the call stays pending, as after Kafka's `max.block.ms`).
    pub(super) fn await_txn_call(&mut self, name: &str, call: TxnCall, begun: Begun) {
        if begun == Begun::Started {
            // A new call has no outcome until it returns: one the run's bound leaves
            // pending must not show the previous call's.
            if let Some(p) = self.producers.get_mut(name) {
                p.set_last_txn_outcome(None);
            }
        }
        if begun == Begun::Resumed {
            // A step, not an ending: the application's last outcome stays as it is.
            self.emit(EventKind::Producer {
                client: name.to_string(),
                event: ProducerEvent::Transaction(TxnOutcome::Resumed { call }),
            });
        }
        let waiting = |w: &World| {
            w.producers
                .get(name)
                .and_then(|p| p.txn.as_ref())
                .is_some_and(|t| t.is_waiting())
        };
        self.run_while(waiting);
        let failed = self
            .touch_producer(name)
            .and_then(|p| p.txn.as_mut())
            .and_then(|t| t.ack());
        if let Some(outcome) = failed {
            self.finish_txn_call(name, outcome);
        }
    }

    pub(super) fn hold_requests(&mut self, api: &str) -> Vec<String> {
        let fault = Fault::HoldRequests {
            api: api.to_string(),
        };
        self.network.arm(fault.clone());
        self.emit(EventKind::FaultArmed {
            fault: FaultChange::Armed(fault),
        });
        vec![]
    }

    pub(super) fn release_requests(&mut self, api: &str) -> Vec<String> {
        let released = self.network.release(api, self.clock_ms);
        self.emit(EventKind::FaultArmed {
            fault: FaultChange::Released {
                api: api.to_string(),
                released,
            },
        });
        vec![]
    }

    /// The cluster's `transaction.version` and verification switch (the rules in
    /// force: see `coordinator::transaction::version`).
    pub fn txn_features(&self) -> TxnFeatures {
        self.config.txn_features()
    }

    /// A producer's client-side transaction state.
    pub fn txn_state(&self, producer: &str) -> Option<TxnState> {
        self.producers
            .get(producer)?
            .txn
            .as_ref()
            .map(|t| t.state())
    }

    pub(super) fn finish_txn_call(&mut self, producer: &str, outcome: TxnOutcome) {
        if let Some(p) = self.touch_producer(producer) {
            p.set_last_txn_outcome(Some(outcome.clone()));
        }
        self.emit(EventKind::Producer {
            client: producer.to_string(),
            event: ProducerEvent::Transaction(outcome),
        });
    }

    pub(super) fn producer_mut(&mut self, name: &str) -> Result<&mut Producer, SimError> {
        self.touch_producer(name).ok_or_else(|| {
            SimError::from(SimErrorKind::NoProducer {
                name: name.to_string(),
            })
        })
    }
}
