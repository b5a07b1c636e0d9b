//! `break NAME [off]`: a NOT KAFKA switch (`crate::breaks`) on or off.

use super::*;
use crate::breaks::{BreakNameError, BreakSwitch};

pub(super) fn break_step(c: &mut Cursor) -> Result<Action, ParseError> {
    let name = c.next(
        "a switch: dedup, dedup=N, fencing, lso, aborted, markers, epoch-bump, \
         init-fencing, in-flight=N, snapshots or early-markers",
    )?;
    let switch = BreakSwitch::parse(&name.text).map_err(|e| match e {
        BreakNameError::Unknown => c.err(
            name.column,
            format!(
                "unknown switch `{}` (dedup, dedup=N, fencing, lso, aborted, markers, \
                 epoch-bump, init-fencing, in-flight=N, snapshots, early-markers)",
                name.text
            ),
        ),
        BreakNameError::DedupWindow => c.err(
            name.column,
            "dedup=N takes 0 to 4 (5 is Kafka's own window)",
        ),
        BreakNameError::InFlight => c.err(
            name.column,
            "in-flight=N takes 6 to 50 (up to 5 is Kafka's own limit)",
        ),
    })?;
    let on = match c.peek() {
        None => true,
        Some(t) if t.text == "off" => {
            c.pos += 1;
            false
        }
        Some(t) if t.text == "on" => {
            c.pos += 1;
            true
        }
        Some(t) => return Err(c.err(t.column, "after the switch: nothing, `on` or `off`")),
    };
    c.done()?;
    Ok(Action::Break { switch, on })
}
