//! `set-epoch txn=ID epoch=N` and `set-epoch producer=NAME epoch=N` (feature
//! `set-epoch`): a playground shortcut to an epoch near exhaustion (`src/sim/set_epoch.rs`).

use super::*;

/// The words after `set-epoch` (`head`, where a line without its two options is refused).
pub(super) fn set_epoch_step(c: &mut Cursor, head: &Token) -> Result<StepKind, ParseError> {
    let usage = || {
        let forms = one_of(&[
            "`set-epoch txn=ID epoch=N`",
            "`set-epoch producer=NAME epoch=N`",
        ]);
        msg!("parse.expected", what = forms)
    };
    let (opts, words) = c.rest();
    no_words(c, &words)?;
    let [(who, key, name), (t, k, v)] = opts.as_slice() else {
        return Err(c.err(head.column, usage()));
    };
    let txn = key == "txn";
    if !(txn || key == "producer") || k != "epoch" || name.is_empty() {
        return Err(c.err(who.column.min(t.column), usage()));
    }
    // InitProducerId never gives out 32767 (`isEpochExhausted`); a producer's own bump
    // may reach it.
    let max = if txn { i16::MAX - 1 } else { i16::MAX };
    let epoch: i16 = number(c, t, v, "epoch")?;
    if !(0..=max).contains(&epoch) {
        let max = max.to_string();
        let why = msg!(
            "scenario.number-range",
            what = "epoch",
            min = "0",
            max = max,
            value = v
        );
        return Err(c.err(t.column, why));
    }
    Ok(StepKind::Act(if txn {
        Action::SetTxnEpoch {
            transactional_id: name.clone(),
            epoch,
        }
    } else {
        Action::SetProducerEpoch {
            producer: name.clone(),
            epoch,
        }
    }))
}
