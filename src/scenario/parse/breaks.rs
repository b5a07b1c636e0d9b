//! `break NAME [off]`: a NOT KAFKA switch (`crate::breaks`) on or off.

use super::*;
use crate::breaks::BreakSwitch;

pub(super) fn break_step(c: &mut Cursor) -> Result<Action, ParseError> {
    let name = c.next(
        "a switch: dedup, dedup=N, fencing, lso, aborted, markers, epoch-bump, \
         init-fencing, in-flight=N, snapshots or early-markers",
    )?;
    let switch = BreakSwitch::parse(&name.text).map_err(|e| {
        c.err(
            name.column,
            crate::i18n::checker::break_name_error(e, &name.text, crate::i18n::Lang::En),
        )
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
