//! `set-epoch`: a playground shortcut that starts a transactional id or an idempotent
//! producer at a chosen epoch, so that a scenario can reach `Short.MAX_VALUE` (epoch
//! exhaustion) without 32 767 bumps. Kafka's own tests do the same by building the
//! metadata directly (`TransactionCoordinatorTest`, `TransactionManagerTest`).

use super::error::{SimError, SimErrorKind};
use super::world::World;
use super::Action;
use crate::client::producer::IdState;
use crate::coordinator::internal_topics::TRANSACTION_STATE_TOPIC;
use crate::protocol::errors::Errors;

/// How many times the coordinator is asked while it loads or waits for producer ids.
const TRIES: usize = 50;

impl World {
    /// The `set-epoch` shortcuts; `World::apply` sends only these here.
    pub(super) fn apply_set_epoch(&mut self, action: &Action) -> Result<Vec<String>, SimError> {
        match action {
            Action::SetTxnEpoch {
                transactional_id,
                epoch,
            } => self.set_txn_epoch(transactional_id, *epoch),
            Action::SetProducerEpoch { producer, epoch } => {
                self.set_producer_epoch(producer, *epoch)
            }
            _ => Ok(vec![]),
        }
    }

    /// The coordinator of `transactional_id` writes its epoch as `epoch` (the Empty
    /// record InitProducerId writes). Creates `__transaction_state` on first use and
    /// waits 100 ms between tries while the coordinator cannot answer yet.
    pub(super) fn set_txn_epoch(
        &mut self,
        transactional_id: &str,
        epoch: i16,
    ) -> Result<Vec<String>, SimError> {
        self.create_internal_topic(TRANSACTION_STATE_TOPIC);
        let tp = self.internal_partition_for(TRANSACTION_STATE_TOPIC, transactional_id);
        let mut error = Errors::CoordinatorNotAvailable;
        for _ in 0..TRIES {
            let now = self.clock_ms;
            let broker = self.leader_of(&tp);
            let outcome = broker.and_then(|id| {
                let b = self.brokers.get_mut(&id).filter(|b| b.is_online())?;
                Some((id, b.set_transactional_epoch(transactional_id, epoch, now)))
            });
            if let Some((id, (result, handled))) = outcome {
                self.apply_handled(id, None, handled);
                match result {
                    Ok(()) => return Ok(vec![]),
                    Err(e) if !e.is_retriable() || e == Errors::ConcurrentTransactions => {
                        error = e;
                        break;
                    }
                    Err(e) => error = e,
                }
            }
            self.advance(100);
        }
        Err(SimError {
            error: Some(error),
            kind: SimErrorKind::EpochNotSettable {
                name: transactional_id.to_string(),
            },
        })
    }

    /// An idempotent producer takes epoch `epoch`; first the world runs until it has
    /// its producer id.
    pub(super) fn set_producer_epoch(
        &mut self,
        producer: &str,
        epoch: i16,
    ) -> Result<Vec<String>, SimError> {
        let uninitialized = |w: &World| {
            w.producers.get(producer).is_some_and(|p| {
                p.txn.is_none()
                    && matches!(
                        p.id_state(),
                        IdState::Uninitialized { .. } | IdState::Initializing
                    )
            })
        };
        self.producer_mut(producer)?;
        self.run_while(uninitialized);
        if self.producer_mut(producer)?.set_epoch(epoch) {
            return Ok(vec![]);
        }
        Err(SimErrorKind::EpochNotSettable {
            name: producer.to_string(),
        }
        .into())
    }
}
