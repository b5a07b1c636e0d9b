//! Printing the `set-epoch …` steps (`World::apply_set_epoch`).

use super::quote;
use crate::sim::Action;

/// `set-epoch …`.
pub(super) fn print_set_epoch_action(action: &Action) -> Option<String> {
    Some(match action {
        Action::SetTxnEpoch {
            transactional_id,
            epoch,
        } => format!("set-epoch txn={} epoch={epoch}", quote(transactional_id)),
        Action::SetProducerEpoch { producer, epoch } => {
            format!("set-epoch producer={producer} epoch={epoch}")
        }
        _ => return super::other_family("set-epoch", action),
    })
}
